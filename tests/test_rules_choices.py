"""Every enumerated text of a rule set (an enum value, a hand category, a natural's
name, ``stay_cards``'s words) is read one way: in any case, surrounding spaces
ignored, and kept in its one spelling, so that equal rules are equal and hash equal."""

from __future__ import annotations

from typing import Any

import pytest

from ofc_fast import HandCategory, RulesError, rules
from ofc_fast.rules import RuleSet

_FL = {"entry": [["QQ", 14]]}

# (rules data as a user writes it, the same rules in the canonical spelling)
CASES: list[tuple[dict[str, Any], dict[str, Any]]] = [
    ({"game": "OFC"}, {"game": "ofc"}),
    ({"game": " Pineapple ", "max_players": 3}, {"game": "pineapple", "max_players": 3}),
    ({"order": "STRICT"}, {"order": "strict"}),
    ({"majority_rule": "More_Rows"}, {"majority_rule": "more_rows"}),
    ({"stakes": "Chips"}, {"stakes": "chips"}),
    ({"settlement_start": "BUTTON"}, {"settlement_start": "button"}),
    ({"naturals_rule": "Higher_Full"}, {"naturals_rule": "higher_full"}),
    (
        {"fantasyland": {**_FL, "stay_back": "Quads "}},
        {"fantasyland": {**_FL, "stay_back": "QUADS"}},
    ),
    (
        {"fantasyland": {**_FL, "stay_middle": "full_house"}},
        {"fantasyland": {**_FL, "stay_middle": "FULL_HOUSE"}},
    ),
    (
        {"fantasyland": {**_FL, "stay_cards": "Same"}},
        {"fantasyland": {**_FL, "stay_cards": "same"}},
    ),
    (
        {"game": "classic", "naturals": [{"name": "Dragon", "units": 13}]},
        {"game": "classic", "naturals": [{"name": "dragon", "units": 13}]},
    ),
]


@pytest.mark.parametrize(("given", "canonical"), CASES)
def test_rules_text_choices_read_in_any_case(
    given: dict[str, Any], canonical: dict[str, Any]
) -> None:
    got, want = RuleSet.from_dict(given), RuleSet.from_dict(canonical)
    assert got == want and hash(got) == hash(want)
    assert got.to_dict() == want.to_dict()  # saved in the canonical spelling
    for key, value in canonical.items():  # each value as the canonical text reads
        if isinstance(value, str):
            assert got.to_dict()[key] == value


def test_rules_text_choices_in_python_alike() -> None:
    made = rules.OFC.replace(order="Strict", stakes="WIN_CAP")
    assert made == rules.OFC.replace(order="strict", stakes="win_cap")
    fl = rules.Fantasyland(entry=(("QQ", 14),), stay_back="quads")
    assert fl.stay_back is HandCategory.QUADS


@pytest.mark.parametrize(
    ("data", "message"),
    [
        ({"game": "hold em"}, r"^game: 'hold em' is not one of"),
        ({"order": "MIXED"}, r"^order: 'mixed' was removed"),
        ({"fantasyland": {**_FL, "stay_cards": "every"}}, r"^fantasyland\.stay_cards"),
        ({"game": "classic", "naturals": [{"name": "drag on"}]}, r"unknown natural"),
    ],
)
def test_rules_text_choices_still_refuse_other_text(
    data: dict[str, Any], message: str
) -> None:
    with pytest.raises(RulesError, match=message):
        RuleSet.from_dict(data)


def test_rl_text_options_read_as_rules_words() -> None:
    """The RL options read their words with the rules' one reader: spaces around a
    word are ignored by VectorEnv and by the single-table adapters' Fantasyland
    check alike (the gym env refused ``" Solver"`` as a request for decisions)."""
    from ofc_fast.env import VectorEnv

    pytest.importorskip("gymnasium", reason="pip install .[rl]")
    from ofc_fast.env.gym import OfcEnv

    env = VectorEnv("pineapple", 1, obs_type=" Features", fantasyland="SOLVER ")
    assert (env.obs_type, env.fantasyland) == ("features", "solver")
    gym_env = OfcEnv("pineapple", fantasyland=" Solver", illegal="Raise ")
    assert gym_env.illegal == "raise"


def test_settlement_words_read_as_rule_sets_read_them() -> None:
    """``settlement_order``'s ``start`` and ``apply_stakes``' ``model`` take the words
    of ``RuleSet.settlement_start`` and ``RuleSet.stakes``: they refused the
    ``"Button"`` and ``"CHIPS"`` that a rule set takes (EX-13: with A dealing, HG
    settles A-B, A-C, A-D, B-C, B-D, C-D; R-STAKES-3: 6 units, both stacks cover)."""
    from ofc_fast.scoring import apply_stakes, settlement_order

    assert RuleSet(settlement_start="Button").settlement_start.value == "button"
    order = [(0, 1), (0, 2), (0, 3), (1, 2), (1, 3), (2, 3)]
    assert settlement_order(4, button=0, start=" Button") == order
    assert apply_stakes([((0, 1), 6)], [8, 20], "CHIPS") == [6]
    with pytest.raises(RulesError, match=r"^settlement start: unknown 'dealer'"):
        settlement_order(4, start="dealer")
