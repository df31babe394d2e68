"""The public API reads well.

* signatures stay short: no default value prints a whole rule set;
* a preset's repr is its name, a custom rule set's repr says what differs;
* ``RuleSet.replace`` drops a preset's name and description when rules change;
* ``to_treys`` / ``from_treys`` take a hand as well as a card (checked against the
  ``treys`` package itself).
"""

from __future__ import annotations

import dataclasses
import enum
import importlib
import inspect
import typing
from collections.abc import Callable, Iterator
from typing import Any

import numpy as np
import pytest

import ofc_fast as ofc
from ofc_fast import rules
from ofc_fast.errors import (
    BoardError,
    CardError,
    OfcError,
    RulesError,
    SearchError,
    StrengthError,
)

PUBLIC_MODULES = (
    "ofc_fast",
    "ofc_fast.rules",
    "ofc_fast.game",
    "ofc_fast.bots",
    "ofc_fast.scoring",
    "ofc_fast.scoring.settlement",
    "ofc_fast.solver",
    "ofc_fast.scoring.naturals",
    "ofc_fast.batch",
    "ofc_fast.board",
    "ofc_fast.cards",
    "ofc_fast.ranking",
    "ofc_fast.fantasyland",
)
MAX_DEFAULT = 60  # the printed default of one parameter
MAX_FUNCTION = 460  # a whole signature (record classes aside): advise() has 15 options


def _public_callables(
    modules: tuple[str, ...] = PUBLIC_MODULES,
) -> Iterator[tuple[str, Callable[..., Any]]]:
    seen: set[int] = set()
    for name in modules:
        module = importlib.import_module(name)
        for attr in getattr(module, "__all__", ()):
            obj = getattr(module, attr)
            members = [(f"{name}.{attr}", obj)]
            if inspect.isclass(obj):
                members += [
                    (f"{name}.{attr}.{k}", v)
                    for k, v in vars(obj).items()
                    if callable(v) and not k.startswith("_")
                ]
            for qual, member in members:
                if id(member) in seen or not callable(member):
                    continue
                seen.add(id(member))
                yield qual, member


def _signature(obj: Callable[..., Any]) -> inspect.Signature | None:
    try:
        return inspect.signature(obj)
    except (TypeError, ValueError):  # builtins, enums without a Python signature
        return None


def test_signatures_are_short() -> None:
    long = []
    checked = 0
    for qual, obj in _public_callables():
        sig = _signature(obj)
        if sig is None:
            continue
        checked += 1
        long += [
            f"{qual}: {p}"
            for p in sig.parameters.values()
            if p.default is not p.empty and len(repr(p.default)) > MAX_DEFAULT
        ]
        if not inspect.isclass(obj) and len(str(sig)) > MAX_FUNCTION:
            long.append(f"{qual}: {len(str(sig))} characters")
    assert checked > 100
    assert not long, long


def test_score_pair_signature_names_the_preset() -> None:
    sig = str(inspect.signature(ofc.score_pair))
    assert "rules: 'RulesLike' = rules.OFC" in sig and len(sig) < 100, sig


def pydoc_text(obj: object) -> str:
    import pydoc

    return pydoc.render_doc(obj, renderer=pydoc.plaintext)


def test_help_of_score_pair_is_short() -> None:
    header = pydoc_text(ofc.score_pair).splitlines()
    line = next(ln for ln in header if ln.startswith("score_pair("))
    assert len(line) < 100, line


@pytest.mark.parametrize("name", rules.names())
def test_preset_repr_is_its_name(name: str) -> None:
    preset = rules.get(name)
    assert repr(preset) == f"rules.{name}"
    assert eval(repr(preset), {"rules": rules}) is preset


def test_custom_repr_names_what_differs() -> None:
    table = rules.OFC.replace(name="home", overall_bonus=1)
    assert repr(table) == "<RuleSet 'home': OFC with overall_bonus=1>"
    flat = rules.PINEAPPLE.replace(royalties=rules.ROYALTIES_FLAT_TRIPS)
    assert repr(flat) == "<RuleSet 'custom': PINEAPPLE with royalties>"
    many = rules.OFC.replace(
        sweep_bonus=1,
        majority_bonus=1,
        overall_bonus=1,
        sweep_multiplier=2,
        sweep_all_bonus=2,
        single_winner=1,
    )
    assert repr(many).endswith("2 more>") and len(repr(many)) < 160, repr(many)


def test_replace_drops_the_preset_name() -> None:
    table = rules.OFC.replace(overall_bonus=1)
    assert table.name == "custom"
    assert table.description == "OFC with overall_bonus changed"
    assert table != rules.OFC
    named = rules.OFC.replace(name="home game", sweep_bonus=0)
    assert (named.name, named.description) == ("home game", "OFC with sweep_bonus changed")
    described = rules.OFC.replace(sweep_bonus=0, description="no sweep")
    assert (described.name, described.description) == ("custom", "no sweep")


def test_replace_keeps_the_name_when_rules_do_not_change() -> None:
    assert rules.OFC.replace(sweep_bonus=rules.OFC.sweep_bonus) == rules.OFC
    assert rules.OFC.replace(description="ours").name == "OFC"
    mine = rules.OFC.replace(name="mine", overall_bonus=1)
    assert mine.replace(sweep_bonus=0).name == "mine"  # not a preset: its own name stays


def test_replace_still_validates() -> None:
    with pytest.raises(ofc.RulesError, match="unknown rule field"):
        rules.OFC.replace(no_such_field=1)
    with pytest.raises(ofc.RulesError, match="max_players"):
        rules.OFC.replace(max_players=9)


def test_custom_result_is_not_recorded_as_the_preset() -> None:
    table = rules.OFC.replace(overall_bonus=1)
    match = ofc.Match(table, 2, seed=1)
    assert match.to_dict()["rules"] != "OFC"


def test_treys_hand_round_trip() -> None:
    treys = pytest.importorskip("treys", reason='pip install ".[test]" (treys)')
    hand = "As Kd 7h 2c Ts"
    expected = [treys.Card.new(t) for t in ["As", "Kd", "7h", "2c", "Ts"]]
    assert ofc.to_treys(hand) == expected
    assert ofc.to_treys(ofc.parse_cards(hand)) == expected
    assert ofc.to_treys(("As", 44)) == [treys.Card.new("As"), treys.Card.new("Kc")]
    assert ofc.from_treys(expected) == ofc.parse_cards(hand)
    assert ofc.from_treys(tuple(expected)) == ofc.parse_cards(hand)
    for card in range(52):  # one card: an int, as before
        assert ofc.to_treys(card) == treys.Card.new(ofc.card_str(card))
        assert ofc.from_treys(treys.Card.new(ofc.card_str(card))) == card


def test_treys_hand_errors() -> None:
    kd = ofc.to_treys("Kd")
    with pytest.raises(CardError, match="duplicate"):
        ofc.from_treys([kd, kd])
    with pytest.raises(CardError, match="not a Cactus Kev"):
        ofc.from_treys([kd, 12345])
    with pytest.raises(CardError, match="duplicate"):
        ofc.to_treys("Kd Kd")
    assert ofc.to_treys([]) == [] and ofc.from_treys([]) == []


def test_advise_gives_move_ev_stderr_exact_records() -> None:
    """DESIGN: ``ofc.advise(...) -> list of (move, ev, stderr, exact), best first``: each
    record unpacks as that 4-tuple, and keeps its named fields."""
    game = ofc.Game(rules.PINEAPPLE, players=2, seed=5)
    advice = ofc.advise(game, samples=8, seed=1)
    legal = set(game.legal_moves())
    for record in advice:
        move, ev, stderr, exact = record
        assert (move, ev, stderr, exact) == (
            record.move,
            record.ev,
            record.stderr,
            record.exact,
        )
        assert move in legal and exact is False and stderr >= 0
    evs = [ev for _, ev, _, _ in advice]
    assert evs == sorted(evs, reverse=True)


ALL_PUBLIC_MODULES = PUBLIC_MODULES + (
    "ofc_fast.bots.model",
    "ofc_fast.learned",
    "ofc_fast.learned.train",
    "ofc_fast.rules.compiled",
    "ofc_fast.search",
)


def test_every_rules_parameter_takes_a_preset_name() -> None:
    """DESIGN: every function that takes rules accepts a RuleSet, a preset name or an
    arena game id (one resolver); its annotation says so, so that a type-checked
    caller may pass ``"pineapple"`` (the package ships ``py.typed``)."""
    narrow = []
    checked = 0
    for qual, member in _public_callables(ALL_PUBLIC_MODULES):
        sig = _signature(member)  # a class: its constructor's parameters
        if sig is None or "rules" not in sig.parameters:
            continue
        checked += 1
        note = str(sig.parameters["rules"].annotation)
        if not any(word in note for word in ("RulesLike", "str", "Any", "object")):
            narrow.append(f"{qual}: rules: {note}")
    assert checked > 30
    assert not narrow, narrow


def test_rules_by_name_where_a_rule_set_was_assumed(tmp_path: Any) -> None:
    """The functions that read a RuleSet's fields before resolving it: a name now
    resolves (and a non-rule value is a RulesError naming the function)."""
    from ofc_fast.bots.model import HeuristicModel
    from ofc_fast.learned.train import train
    from ofc_fast.rules.compiled import CompiledRules

    assert HeuristicModel("ofc-pineapple").rules is rules.PINEAPPLE
    assert CompiledRules("ofc").rules is rules.OFC
    with pytest.raises(ofc.errors.ModelError, match="CLASSIC_1_6"):
        train("classic-1-6", tmp_path, progress=False)
    for call in (HeuristicModel, CompiledRules, lambda r: train(r, tmp_path)):
        with pytest.raises(ofc.RulesError):
            call(3)


_A = "Qh Qd 2c / 9s 9h 9d 5c 5d / As Ks Qs Js Ts"
_B = "2h 3d 4c / 6s 6h 7d 7c 8d / Ah Ad Kh Kd 8c"
_BAD_BOARDS = np.zeros((1, 13), dtype=np.uint8)  # card 2c thirteen times

# Per public function of the top level: a call with each kind of bad input it
# refuses with a specific error, and that error (the docstring must name it).
_RAISES: list[tuple[str, Callable[[], Any], type[Exception]]] = [
    ("apply_stakes", lambda: ofc.apply_stakes("x", [1, 1], "chips"), ofc.BoardError),
    ("apply_stakes", lambda: ofc.apply_stakes([], [1, 1], "x"), ofc.RulesError),
    (
        "apply_stakes",
        lambda: ofc.apply_stakes([((0, 1), 1)], [-1, 1], "chips"),
        ofc.TableError,
    ),
    ("best_setting", lambda: ofc.best_setting("As"), ofc.CardError),
    ("best_setting", lambda: ofc.best_setting(list(range(13)), "x"), ofc.RulesError),
    ("best_setting", lambda: ofc.best_setting(list(range(13)), objective="x"), SearchError),
    ("card_str", lambda: ofc.card_str(52), ofc.CardError),
    ("cards_str", lambda: ofc.cards_str([52]), ofc.CardError),
    ("category", lambda: ofc.category(0), ofc.StrengthError),
    ("deal_seed", lambda: ofc.deal_seed(0, -1), ofc.GameError),
    ("deal_seed", lambda: ofc.deal_seed(-1, 0), ofc.TableError),
    ("describe", lambda: ofc.describe(0), ofc.StrengthError),
    ("detect_naturals", lambda: ofc.detect_naturals("As"), ofc.CardError),
    ("eval_boards", lambda: ofc.eval_boards([[0]]), ofc.ArrayError),
    ("eval_boards", lambda: ofc.eval_boards(_BAD_BOARDS), ofc.CardError),
    ("eval_boards", lambda: ofc.eval_boards(_BAD_BOARDS, "x"), ofc.RulesError),
    ("fantasyland_cards", lambda: ofc.fantasyland_cards("As / / ", "ofc"), ofc.BoardError),
    ("fantasyland_cards", lambda: ofc.fantasyland_cards(_A, "x"), ofc.RulesError),
    ("from_treys", lambda: ofc.from_treys(1), ofc.CardError),
    ("hand_ranks", lambda: ofc.hand_ranks(0), ofc.StrengthError),
    ("kev_rank", lambda: ofc.kev_rank(0), ofc.StrengthError),
    ("low27", lambda: ofc.low27(0), ofc.StrengthError),
    ("naturals", lambda: ofc.naturals("As", "malayan"), ofc.CardError),
    ("naturals", lambda: ofc.naturals(list(range(13)), "x"), ofc.RulesError),
    ("parse_card", lambda: ofc.parse_card("Zz"), ofc.CardError),
    ("parse_cards", lambda: ofc.parse_cards("As As"), ofc.CardError),
    ("rank", lambda: ofc.rank("As Kd"), ofc.CardError),
    ("rank3", lambda: ofc.rank3("As Kd"), ofc.CardError),
    ("rank3_batch", lambda: ofc.rank3_batch([[0, 1, 2]]), ofc.ArrayError),
    ("rank3_batch", lambda: ofc.rank3_batch(_BAD_BOARDS[:, :3]), ofc.CardError),
    ("rank5", lambda: ofc.rank5("As Kd"), ofc.CardError),
    ("rank5_batch", lambda: ofc.rank5_batch([[0, 1, 2, 3, 4]]), ofc.ArrayError),
    ("rank5_batch", lambda: ofc.rank5_batch(_BAD_BOARDS[:, :5]), ofc.CardError),
    ("score_pair", lambda: ofc.score_pair("As / / ", _B), ofc.BoardError),
    ("score_pair", lambda: ofc.score_pair(_A, "Zz" + _B), ofc.CardError),
    ("score_pair", lambda: ofc.score_pair(_A, _B, "x"), ofc.RulesError),
    ("score_pairs", lambda: ofc.score_pairs([[0]], [[1]]), ofc.ArrayError),
    ("score_pairs", lambda: ofc.score_pairs(_BAD_BOARDS, _BAD_BOARDS), ofc.CardError),
    ("score_pairs", lambda: ofc.score_pairs(_BAD_BOARDS, _BAD_BOARDS, "x"), ofc.RulesError),
    ("settle", lambda: ofc.settle(["As / / ", _B]), ofc.BoardError),
    ("settle", lambda: ofc.settle([_A, "Zz" + _B]), ofc.CardError),
    ("settle", lambda: ofc.settle([_A, _B], "x"), ofc.RulesError),
    ("settle", lambda: ofc.settle([_A, _B], button=2), ofc.TableError),
    ("settlement_order", lambda: ofc.settlement_order(5), ofc.TableError),
    ("settlement_order", lambda: ofc.settlement_order(2, 0, "x"), ofc.RulesError),
    ("solve_fantasyland", lambda: ofc.solve_fantasyland("As"), ofc.CardError),
    (
        "solve_fantasyland",
        lambda: ofc.solve_fantasyland(list(range(14)), "x"),
        ofc.RulesError,
    ),
    (
        "solve_fantasyland",
        lambda: ofc.solve_fantasyland(list(range(14)), stay_value="x"),  # type: ignore[arg-type]
        SearchError,
    ),
    ("strength_cards", lambda: ofc.strength_cards(0), ofc.StrengthError),
    ("strength_from_kev", lambda: ofc.strength_from_kev(0), ofc.StrengthError),
    ("to_treys", lambda: ofc.to_treys(52), ofc.CardError),
]


@pytest.mark.parametrize(
    "name, call, error", _RAISES, ids=[f"{n}-{e.__name__}" for n, _, e in _RAISES]
)
def test_docstrings_name_the_errors_their_functions_raise(
    name: str, call: Callable[[], Any], error: type[Exception]
) -> None:
    """Each public function's docstring names the specific errors it raises (most
    named none: a caller reading help() learned of CardError only by meeting it)."""
    with pytest.raises(error) as info:
        call()
    assert type(info.value) is error, (name, info.value)
    assert error.__name__ in (getattr(ofc, name).__doc__ or ""), name


def _public_enums() -> list[type[enum.Enum]]:
    return sorted(
        {obj for _, obj in _public_callables() if isinstance(obj, enum.EnumMeta)},
        key=lambda e: e.__qualname__,
    )


@pytest.mark.parametrize("value", ["front", 10, -1, 99, 2**70, None, 1.5, [1], b"x", ""])
@pytest.mark.parametrize("cls", _public_enums(), ids=lambda e: e.__qualname__)
def test_a_bad_enum_value_is_an_ofc_error_naming_the_enum(cls: Any, value: object) -> None:
    """Regression: ``Row("front")``, ``Row(7)``, ``HandCategory(99)`` (and every public
    enum's lookup of a value it does not have) raised Enum's bare ``ValueError``; now
    an OfcError subclass naming the enum and the values it takes."""
    with pytest.raises(OfcError, match=f"is not one of {cls.__name__}'s values"):
        cls(value)


def test_the_enum_lookups_raise_the_error_of_their_module() -> None:
    """Regression: the errors of ``Row(7)``, ``HandCategory(99)``, ``OrderRule("x")``
    are the ones of their modules (BoardError, StrengthError, RulesError); valid
    lookups are unchanged."""
    assert len(_public_enums()) >= 8
    for call, error in (
        (lambda: ofc.Row(7), BoardError),
        (lambda: ofc.Row("front"), BoardError),
        (lambda: ofc.HandCategory(99), StrengthError),
        (lambda: rules.OrderRule("x"), RulesError),
    ):
        with pytest.raises(error):
            call()
    with pytest.raises(RulesError, match="'mixed' was removed"):
        rules.OrderRule("mixed")
    assert ofc.Row(2) is ofc.Row.BACK and ofc.Row.parse("top") is ofc.Row.FRONT
    assert ofc.HandCategory(3) is ofc.HandCategory.THREE_OF_A_KIND
    assert rules.GameKind("ofc") is rules.GameKind.OFC


def _deep_list(depth: int) -> list[Any]:
    top: list[Any] = []
    inner = top
    for _ in range(depth):
        inner.append([])
        inner = inner[0]
    return top


@pytest.mark.parametrize(
    "value",
    [10**5000, _deep_list(5000), np.array([1, 2]), np.float64("nan")],
    ids=["huge-int", "deep-list", "array", "nan"],
)
@pytest.mark.parametrize("cls", _public_enums(), ids=lambda e: e.__qualname__)
def test_an_enum_lookup_of_a_hostile_value_is_an_ofc_error(cls: Any, value: object) -> None:
    """Regression: ``Row(10**5000)`` raised ``ValueError: Exceeds the limit (4300
    digits) for integer string conversion``, ``Row(<a list nested 5000 deep>)`` a
    ``RecursionError`` and ``Row(np.array([1, 2]))`` NumPy's "truth value ... is
    ambiguous" (Enum's own search and message); now the enum's OfcError, its value
    quoted short."""
    with pytest.raises(OfcError, match=f"is not one of {cls.__name__}'s values") as info:
        cls(value)
    assert len(str(info.value)) < 300


def test_an_enum_lookup_takes_what_it_takes_on_every_cpython() -> None:
    """Regression: a NumPy array of one int (``Row(np.array([1]))``, ``np.array([[2]])``)
    was a member on CPython 3.10-3.12 and an error on 3.13 (Enum's search of
    unhashable values, dropped in 3.13), while ``Row.parse`` refused it; and
    ``Row(1, 2)`` (3.12 on: a lookup of two values) raised Enum's bare ValueError.
    Now a 0-d integer array is its int on every CPython, anything else unhashable is
    the enum's error, and so is a lookup of more than one argument."""
    assert ofc.Row(np.array(1)) is ofc.Row.MIDDLE
    assert ofc.Row(np.array(2, dtype=np.uint8)) is ofc.Row.BACK
    for value in (np.array([1]), np.array([[2]]), np.array(1.0), [1], {1}):
        with pytest.raises(ofc.BoardError, match="is not one of Row's values"):
            ofc.Row(value)  # type: ignore[arg-type]
    for args in ((1, 2), ("Sub", "A B")):
        with pytest.raises(ofc.BoardError, match="Row takes one value, not 2 arguments"):
            ofc.Row(*args)  # type: ignore[call-overload]


def _inner(hint: object, kind: Callable[[object], bool]) -> Any:
    """The first type in ``hint`` (through unions, lists and tuples) that ``kind``
    accepts, else None."""
    if kind(hint):
        return hint
    for arg in typing.get_args(hint):
        found = _inner(arg, kind)
        if found is not None:
            return found
    return None


@pytest.mark.parametrize(
    ("typed", "data"), [(ofc.game.RuleSetDict, rules.RuleSet)], ids=["RuleSetDict"]
)
def test_rule_set_dict_names_every_rule(typed: Any, data: type) -> None:
    """Regression: an observation's ``rule_set`` was typed ``dict[str, Any]``; its
    :class:`~ofc_fast.game.RuleSetDict` (and each part's) names every field of
    :class:`RuleSet` (and of that part), so that a new rule is typed where users read
    it."""
    hints = typing.get_type_hints(typed)
    fields = typing.get_type_hints(data)
    assert list(hints) == [f.name for f in dataclasses.fields(data)]
    for name, hint in hints.items():
        part = _inner(hint, typing.is_typeddict)
        rule_part = _inner(fields[name], dataclasses.is_dataclass)
        assert (part is None) == (rule_part is None), name
        if part is not None:
            test_rule_set_dict_names_every_rule(part, rule_part)
