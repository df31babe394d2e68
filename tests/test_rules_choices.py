"""Every enumerated text of a rule set (an enum value, a hand category, a natural's
name, ``stay_cards``'s words) is read one way: in any case, surrounding spaces
ignored, and kept in its one spelling, so that equal rules are equal and hash equal."""

from __future__ import annotations

import json
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


# a hand category as a user may write it -> its name and number (R-RANK-*)
_CATEGORY_WORDS = [
    ("Full House", "FULL_HOUSE", 6), ("full house", "FULL_HOUSE", 6),
    ("full-house", "FULL_HOUSE", 6), (" FULL  HOUSE ", "FULL_HOUSE", 6),
    ("three of a kind", "TRIPS", 3), ("Three-of-a-Kind", "TRIPS", 3),
    ("four of a kind", "QUADS", 7), ("pair", "ONE_PAIR", 1), ("One Pair", "ONE_PAIR", 1),
    ("two pair", "TWO_PAIR", 2), ("straight flush", "STRAIGHT_FLUSH", 8),
    ("royal-flush", "ROYAL_FLUSH", 9),
]  # fmt: skip


@pytest.mark.parametrize(("word", "name", "number"), _CATEGORY_WORDS)
def test_rules_hand_category_words_read_as_people_write_them(
    word: str, name: str, number: int
) -> None:
    """A rules field that takes a hand category took ``"full_house"`` but refused
    ``"Full House"``, ``"full-house"`` and ``"three of a kind"`` (a RulesError
    listing the underscored names); the rule set keeps the one spelling."""
    got = RuleSet.from_dict({"fantasyland": {**_FL, "stay_middle": word}})
    assert got.fantasyland is not None and got.fantasyland.stay_middle == number
    assert got.to_dict()["fantasyland"]["stay_middle"] == name
    assert rules.Schedule.by_category({word: 4})[number] == 4


@pytest.mark.parametrize(
    ("given", "canonical"),
    [
        ({"majority_rule": "more rows"}, {"majority_rule": "more_rows"}),
        ({"stakes": "Win-Cap"}, {"stakes": "win_cap"}),
        ({"settlement_start": "left of button"}, {"settlement_start": "left_of_button"}),
        (
            {"game": "classic", "naturals": [{"name": "Six Pairs", "units": 3}]},
            {"game": "classic", "naturals": [{"name": "six_pairs", "units": 3}]},
        ),
    ],
)
def test_rules_words_take_a_space_or_hyphen_for_each_underscore(
    given: dict[str, Any], canonical: dict[str, Any]
) -> None:
    """``"more rows"`` and ``"Win-Cap"`` were refused where ``"more_rows"`` and
    ``"win_cap"`` were taken: every word of a rule set is read alike."""
    got, want = RuleSet.from_dict(given), RuleSet.from_dict(canonical)
    assert got == want and got.to_dict() == want.to_dict()


def test_front_thresholds_read_with_a_plus_as_the_descriptions_write_them() -> None:
    """The presets describe Fantasyland as "QQ+" (queens or better), but an
    ``entry`` of ``"QQ+"`` was refused ("not a front threshold"); it is the
    threshold ``"QQ"``, kept as such (R-FL-*: a pair of queens or better)."""
    written = {"entry": [["QQ+", 14], ["kk +", 15]], "stay_front": " 222+"}
    canonical = {"entry": [["QQ", 14], ["KK", 15]], "stay_front": "222"}
    got = RuleSet.from_dict({"fantasyland": written})
    assert got == RuleSet.from_dict({"fantasyland": canonical})
    saved = got.to_dict()["fantasyland"]
    assert saved["entry"] == canonical["entry"] and saved["stay_front"] == "222"
    assert "Fantasyland QQ+ 14" in rules.PINEAPPLE.description
    with pytest.raises(RulesError, match="not a front threshold"):
        RuleSet.from_dict({"fantasyland": {"entry": [["QQ++", 14]]}})


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


def _int_fields(data: Any, path: tuple[Any, ...] = ()) -> Any:
    """(path, value) of every int in rules data (bools are no ints here)."""
    if isinstance(data, dict):
        for k, v in data.items():
            yield from _int_fields(v, (*path, k))
    elif isinstance(data, list):
        for i, v in enumerate(data):
            yield from _int_fields(v, (*path, i))
    elif type(data) is int:
        yield path, data


def _with(data: dict[str, Any], path: tuple[Any, ...], value: object) -> dict[str, Any]:
    """A deep copy of rules data with the field at ``path`` set to ``value``."""
    out: Any = json.loads(json.dumps(data))
    node = out
    for key in path[:-1]:
        node = node[key]
    node[path[-1]] = value
    return dict(out)


def test_every_int_field_reads_a_numpy_int_and_refuses_bools_and_floats() -> None:
    """``rules.OFC.replace(sweep_bonus=np.int64(4))`` was a RulesError ("expected an
    int, got np.int64(4)") though ``Game('ofc', np.int64(3))`` takes NumPy ints: every
    int field of every preset (royalty tables, Fantasyland counts, naturals' units)
    reads a NumPy integer as the Python int, and the rule set is the same, while a
    bool, a NumPy bool and a float are still refused."""
    import numpy as np

    seen: set[tuple[Any, ...]] = set()
    for preset in rules.PRESETS.values():
        data = preset.to_dict()
        for path, value in _int_fields(data):
            if path in seen:
                continue
            seen.add(path)
            for kind in (np.int64, np.int32, np.uint16):
                same = RuleSet.from_dict(_with(data, path, kind(value)))
                assert same == preset and same.to_json() == preset.to_json(), path
            for bad in (True, np.bool_(True), float(value), np.float64(value)):
                with pytest.raises(RulesError):
                    RuleSet.from_dict(_with(data, path, bad))
    assert {
        ("sweep_bonus",),
        ("royalties", "middle", 9),
        ("fantasyland", "entry", 0, 1),
    } <= seen
    changed = rules.OFC.replace(sweep_bonus=np.int64(4))
    assert type(changed.sweep_bonus) is int and changed.sweep_bonus == 4
