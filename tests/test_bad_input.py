"""Regression tests for what a fuzzer found: one per reproducer, named after what it
checks.

Expected values come from independent sources: the single-threaded answer of the same
call on an unshared copy (arrays written while read), the RuleSet object a preset name
stands for (huge and odd arguments), the documented card forms (card text).
"""

from __future__ import annotations

import re
import threading
import time
from collections.abc import Callable

import numpy as np
import pytest

import ofc_fast as ofc
from ofc_fast import rules
from ofc_fast.arena import Arena
from ofc_fast.encoding import action_mask
from ofc_fast.env import VectorEnv
from ofc_fast.errors import (
    ArrayError,
    BoardError,
    CardError,
    OfcError,
    RulesError,
    StrengthError,
)
from ofc_fast.rules import RuleSet
from ofc_fast.scoring import evaluate_for_scoring, score_evaluated
from ofc_fast.serve import ServeConfig
from ofc_fast.solver import best_setting, solve_fantasyland

A = "Qh Qd 2c / 9s 9h 9d 5c 5d / As Ks Qs Js Ts"
B = "2h 3d 4c / 6s 6h 7d 7c 8d / Ah Ad Kh Kd 8c"
FL_HAND = "Ad Ah Th Jh 6h Ts 5d 3c Tc 3s 7h Qh 3d 9s"


# ------------------------------------ batch arrays written by another thread while read


def _deals(n: int, width: int, seed: int) -> np.ndarray:
    rng = np.random.default_rng(seed)
    return np.array([rng.permutation(52)[:width] for _ in range(n)], dtype=np.uint8)


def _race(call, arrays: list[np.ndarray], seconds: float = 1.5) -> tuple[int, int]:
    """Runs ``call()`` in a loop while a writer thread flips whole rows of ``arrays``
    to 255 and back; returns (successful calls, failed calls).  ``call`` checks its
    own results."""
    originals = [a.copy() for a in arrays]
    stop = threading.Event()

    def writer() -> None:
        rng = np.random.default_rng(7)
        while not stop.is_set():
            for a, orig in zip(arrays, originals):
                rows = rng.integers(0, a.shape[0], size=8)
                a[rows] = 255
                a[rows] = orig[rows]

    t = threading.Thread(target=writer)
    t.start()
    ok = failed = 0
    deadline = time.monotonic() + seconds
    try:
        while time.monotonic() < deadline:
            if call():
                ok += 1
            else:
                failed += 1
    finally:
        stop.set()
        t.join()
    return ok, failed


def _bad_index(exc: CardError) -> int:
    text = str(exc)
    return int(text[text.index("[") + 1 : text.index("]")])


@pytest.mark.parametrize("width, fn", [(5, ofc.rank5_batch), (3, ofc.rank3_batch)])
def test_rank_batch_concurrent_writer(width, fn):
    hands = _deals(4000, width, width)
    expected = fn(hands.copy())  # single-threaded answer of the untouched rows
    out = np.empty(len(hands), dtype=np.int32)

    def call() -> bool:
        out[:] = -1
        try:
            fn(hands, out=out)
        except CardError as exc:  # a row caught while all 255: out untouched, or (the
            i = _bad_index(exc)  # row changed between check and rank) rows before it right
            assert (out == -1).all() or (out[:i] == expected[:i]).all()
            return False
        assert (out == expected).all()  # the 255 state never ranks
        return True

    ok, failed = _race(call, [hands])
    assert ok + failed > 0


def test_eval_boards_concurrent_writer():
    boards = _deals(3000, 13, 13)
    expected = ofc.eval_boards(boards.copy())

    def call() -> bool:
        try:
            got = ofc.eval_boards(boards)
        except CardError:
            return False
        assert (got.strength == expected.strength).all()
        assert (got.royalty == expected.royalty).all()
        assert (got.foul == expected.foul).all()
        return True

    ok, failed = _race(call, [boards])
    assert ok + failed > 0


@pytest.mark.parametrize("preset", [rules.OFC, rules.CLASSIC_1_6])  # plain and general
def test_score_pairs_concurrent_writer(preset):
    pairs = _deals(3000, 26, 26)
    a, b = np.ascontiguousarray(pairs[:, :13]), np.ascontiguousarray(pairs[:, 13:])
    expected = ofc.score_pairs(a.copy(), b.copy(), preset)
    net = np.empty(len(a), dtype=np.int32)

    def call() -> bool:
        net[:] = 1 << 30
        try:
            ofc.score_pairs(a, b, preset, out=net)
        except CardError as exc:
            text = str(exc)
            i = int(text[text.index("pair ") + 5 :].split()[0].rstrip(":"))
            assert (net == 1 << 30).all() or (net[:i] == expected[:i]).all()
            return False
        assert (net == expected).all()
        return True

    ok, failed = _race(call, [a, b])
    assert ok + failed > 0


def test_error_message_when_row_restored():
    """The Python error path re-reads the row after C rejected it; a writer may have
    restored it meanwhile: still a CardError, never an IndexError."""
    from ofc_fast._native import E_CARD, E_DUPLICATE
    from ofc_fast.batch import _raise_bad_row

    rows = _deals(2, 5, 1)
    for status in (E_CARD, E_DUPLICATE):
        with pytest.raises(CardError):
            _raise_bad_row(status, rows, 1, "rank5_batch")


# -------------------------------------------- scoring a partial or foreign evaluation


def test_evaluate_for_scoring_partial_board():
    with pytest.raises(BoardError, match="incomplete"):
        evaluate_for_scoring(ofc.Board.parse("As / / "), rules.OFC)
    with pytest.raises(BoardError):
        evaluate_for_scoring("As Ks Qs", rules.OFC)  # type: ignore[arg-type]
    with pytest.raises(RulesError):
        evaluate_for_scoring(ofc.Board.parse(A), "no such rules")  # type: ignore[arg-type]
    with pytest.raises(RulesError):
        evaluate_for_scoring(ofc.Board.parse(A), 3)  # type: ignore[arg-type]


def test_score_evaluated_checks_context():
    ea = evaluate_for_scoring(ofc.Board.parse(A), rules.OFC)
    eb = evaluate_for_scoring(ofc.Board.parse(B), rules.OFC)
    assert score_evaluated(ea, eb, rules.OFC).net == ofc.score_pair(A, B).net
    for ties in (2, -200, 10**30):
        with pytest.raises(BoardError):
            score_evaluated(ea, eb, rules.OFC, ties=ties)
    with pytest.raises(BoardError):
        score_evaluated(ea, "x", rules.OFC)  # type: ignore[arg-type]


def test_score_evaluated_sweep_flags_must_be_bools():
    ea = evaluate_for_scoring(ofc.Board.parse(A), rules.OFC)
    eb = evaluate_for_scoring(ofc.Board.parse(B), rules.OFC)
    swept = score_evaluated(ea, eb, rules.OFC, a_sweeps_all=True).net
    assert score_evaluated(ea, eb, rules.OFC, a_sweeps_all=np.bool_(True)).net == swept
    for name in ("a_sweeps_all", "b_sweeps_all"):
        for bad in ("no", 1, None, np.array([True, False]), np.array(True)):
            with pytest.raises(BoardError, match=f"{name} must be True or False"):
                score_evaluated(ea, eb, rules.OFC, **{name: bad})


# --------------------------------------------------- card text: ASCII case folding only


def test_parse_card_long_s():
    with pytest.raises(CardError, match="bad card"):
        ofc.parse_card("A\u017f")  # LATIN SMALL LETTER LONG S folds to "s"


@pytest.mark.parametrize(
    "text",
    ["\u212as", "A\u212a", "\u212a\u017f", "As\u3000", "\u3000As", "1\u0660h", "\uff21s"],
)
def test_card_text_is_ascii_only(text):
    with pytest.raises(CardError):
        ofc.parse_card(text)


def test_parse_cards_unicode_separators():
    with pytest.raises(CardError):
        ofc.parse_cards("As\u2003Kd")  # an em space is no documented separator
    assert ofc.parse_cards("As\tKd,Qh-Jc  10h") == [51, 45, 42, 36, 34]


def test_documented_forms_still_parse():
    """Every documented form: rank 2-9 T J Q K A or 10, suit letter or symbol, any
    ASCII case, surrounding ASCII whitespace."""
    ranks = ["2", "3", "4", "5", "6", "7", "8", "9", "T", "J", "Q", "K", "A"]
    suits = {
        "c": ["c", "C", "♣", "♧"],
        "d": ["d", "D", "♦", "♢"],
        "h": ["h", "H", "♥", "♡"],
        "s": ["s", "S", "♠", "♤"],
    }
    for r, rank in enumerate(ranks):
        spellings = [rank, rank.lower()] + (["10"] if rank == "T" else [])
        for s, suit in enumerate("cdhs"):
            for rt in spellings:
                for st in suits[suit]:
                    assert ofc.parse_card(f" {rt}{st}\t") == 4 * r + s


def test_cli_no_traceback(capsys):
    from ofc_fast.cli import main

    try:
        status = main(["eval", "A\u017f Kd Qd Jd Td"])
    except SystemExit as exc:
        status = exc.code
    out = capsys.readouterr()
    assert status not in (0, None)
    assert "Traceback" not in out.err + out.out


# ---------------------------------------- huge, nested and odd arguments raise OfcError


def test_parse_card_huge_int():
    with pytest.raises(CardError, match=r"ids are 0\.\.51") as info:
        ofc.parse_card(10**5000)
    assert len(str(info.value)) < 120


def test_rules_huge_int():
    with pytest.raises(RulesError, match="sweep_bonus") as info:
        RuleSet.from_dict({"sweep_bonus": 10**5000})
    assert len(str(info.value)) < 120


def test_rules_non_string_key():
    with pytest.raises(RulesError, match="keys must be strings"):
        RuleSet.from_dict({1: 0})
    with pytest.raises(RulesError):
        RuleSet.from_dict({"royalties": {(1, 2): 0}})
    with pytest.raises(RulesError):
        RuleSet.from_dict({"sweep_bonus": 1, None: 2})


def test_rules_json_deep_nesting():
    with pytest.raises(RulesError, match="nested too deeply"):
        RuleSet.from_json("[" * 5000 + "]" * 5000)
    with pytest.raises(RulesError):
        RuleSet.from_json('{"sweep_bonus": ' + "1" * 5000 + "}")
    with pytest.raises(RulesError):
        RuleSet.from_json(None)  # type: ignore[arg-type]
    deep: list = []
    for _ in range(3000):
        deep = [deep]
    with pytest.raises(RulesError):
        RuleSet.from_dict({"sweep_bonus": deep})


def test_front_threshold_names_a_key_that_is_no_text():
    """Regression: ``rules.front_threshold("zz", key)`` with a nested list as ``key``
    raised RecursionError while writing its message (and any other key was written
    as it came); a key that is no text is now a RulesError saying so, quoted short."""
    deep: list = []
    for _ in range(5000):
        deep = [deep]
    for key in (deep, None, 7):
        for text in ("zz", "QQ", None):
            with pytest.raises(RulesError, match=r"^front_threshold: key must be text"):
                rules.front_threshold(text, key)  # type: ignore[arg-type]
    assert rules.front_threshold("QQ", "entry[0]") == rules.front_threshold("QQ")


@pytest.mark.parametrize(
    "stay",
    [
        10**400,
        {14: None},
        {14: "x"},
        {14: 10**400},
        {14: True},
        "12",
        float("nan"),
        {True: 1.0},
        {14: float("inf")},
    ],
)
def test_solve_fantasyland_stay_value(stay):
    with pytest.raises(OfcError, match="stay_value"):
        solve_fantasyland(FL_HAND, rules.PINEAPPLE, stay_value=stay)


def test_score_pair_preset_name():
    assert ofc.score_pair(A, B, "OFC") == ofc.score_pair(A, B, rules.OFC)
    assert ofc.score_pair(A, B, "classic-2-4") == ofc.score_pair(A, B, rules.CLASSIC_2_4)
    with pytest.raises(RulesError, match="unknown rule set"):
        ofc.score_pair(A, B, "no such rules")
    with pytest.raises(RulesError, match="score_pair"):
        ofc.score_pair(A, B, 3)  # type: ignore[arg-type]


def test_preset_name_everywhere():
    board = ofc.Board.parse(A)
    assert board.evaluate("pineapple") == board.evaluate(rules.PINEAPPLE)
    assert board.royalties("OFC") == board.royalties(rules.OFC)
    assert board.is_foul("classic_1_6") == board.is_foul(rules.CLASSIC_1_6)
    arr = np.array([board.cards], dtype=np.uint8)
    other = np.array([ofc.Board.parse(B).cards], dtype=np.uint8)
    assert (ofc.eval_boards(arr, "ofc").royalty == ofc.eval_boards(arr).royalty).all()
    assert ofc.score_pairs(arr, other, "OFC").tolist() == [ofc.score_pair(A, B).net]
    hand = "2c 2d 2h 2s 3c 3d 3h 4c 4d 4h 5c 5d 5h"
    assert ofc.naturals(hand, "malayan") == ofc.naturals(hand, rules.MALAYAN)
    assert (
        solve_fantasyland(FL_HAND, "pineapple").board
        == solve_fantasyland(FL_HAND, rules.PINEAPPLE).board
    )
    cards13 = "As Ad Kc Kd Qh Qs Jc Jd 9h 7s 5c 3d 2h"
    assert best_setting(cards13, "classic-1-6").board == best_setting(cards13).board
    for call in (
        lambda: board.evaluate(None),
        lambda: ofc.eval_boards(arr, 1.5),
        lambda: solve_fantasyland(FL_HAND, object()),
        lambda: best_setting(cards13, []),
    ):
        with pytest.raises(RulesError):
            call()


def test_nine_fantasyland_entries():
    fl = rules.PINEAPPLE.fantasyland
    assert fl is not None
    eight = tuple((t, 14) for t in ("66", "77", "88", "99", "TT", "JJ", "QQ", "KK"))
    rules.PINEAPPLE.replace(fantasyland=fl.replace(entry=eight))  # the limit: accepted
    with pytest.raises(RulesError, match="at most 8 entries"):
        rules.PINEAPPLE.replace(fantasyland=fl.replace(entry=eight + (("AA", 15),)))
    data = rules.PINEAPPLE.to_dict()
    data["fantasyland"]["entry"] = [["QQ", 14]] * 9
    with pytest.raises(RulesError, match="at most 8 entries"):
        RuleSet.from_dict(data)


# ------------------------------------------------ strengths: no bool, short messages


@pytest.mark.parametrize(
    "fn",
    [
        ofc.describe,
        ofc.kev_rank,
        ofc.category,
        ofc.strength_cards,
        ofc.hand_ranks,
        ofc.low27,
        ofc.strength_from_kev,
    ],
)
@pytest.mark.parametrize("value", [True, False])
def test_describe_bool(fn, value):
    with pytest.raises(StrengthError):
        fn(value)


@pytest.mark.parametrize(
    "call",
    [
        lambda: ofc.rank5([0] * 10**6),
        lambda: ofc.rank3("As " * 100000),
        lambda: ofc.parse_card("x" * 10**6),
        lambda: ofc.parse_cards("As " + "Zz" * 10**5),
        lambda: ofc.describe("x" * 10**6),
        lambda: ofc.Board.parse("x" * 10**6),
        lambda: RuleSet.from_dict({"name": 1, "sweep_bonus": "y" * 10**6}),
        lambda: ofc.strength_from_kev([1] * 10**6),
    ],
)
def test_short_error_messages(call):
    with pytest.raises(OfcError) as info:
        call()
    assert len(str(info.value)) < 300


_HUGE = 10**5000  # past Python's int-to-text limit: str() of it raises ValueError
_NATURAL = "2c 3d 4h / 5s 6c 7d 8h 9s / Tc Jd Qh Ks Ac"
_PLAIN = "2d 3h 4s / 5c 6d 7h 8s 9c / Td Jh Qs Kc Ad"


def _huge_int_calls() -> dict[str, Callable[[], object]]:
    from ofc_fast.bots import make_bot, make_bots
    from ofc_fast.game import Move

    a, b = _NATURAL, _PLAIN
    g = ofc.Game(rules.PINEAPPLE, seed=5)
    return {
        "settle button": lambda: ofc.settle([a, b], button=_HUGE),
        "settle stacks": lambda: ofc.settle([a, b], stacks=[_HUGE, 1]),
        "settle surrendered seat": lambda: ofc.settle([a, b], surrendered=[_HUGE]),
        "settle surrendered": lambda: ofc.settle([a, b], surrendered=_HUGE),
        "settle declared": lambda: ofc.settle([a, b], rules.SINGAPORE, declared=_HUGE),
        "settle declared natural": lambda: ofc.settle(
            [a, b], rules.SINGAPORE, declared={0: _HUGE}
        ),
        "settlement_order players": lambda: ofc.settlement_order(_HUGE),
        "settlement_order start": lambda: ofc.settlement_order(2, 0, _HUGE),
        "apply_stakes model": lambda: ofc.apply_stakes([((0, 1), 3)], [5, 5], _HUGE),
        "apply_stakes seat": lambda: ofc.apply_stakes([((0, _HUGE), 3)], [5, 5], "chips"),
        "apply_stakes stacks": lambda: ofc.apply_stakes([((0, 1), 3)], _HUGE, "chips"),
        "fantasyland_cards": lambda: ofc.fantasyland_cards(b, rules.PINEAPPLE, _HUGE),
        "Game players": lambda: ofc.Game(rules.PINEAPPLE, players=_HUGE),
        "Game button": lambda: ofc.Game(rules.PINEAPPLE, button=_HUGE),
        "Game stacks": lambda: ofc.Game(rules.PINEAPPLE, stacks=_HUGE),
        "Game.play_action": lambda: g.play_action(_HUGE),
        "Game.action_to_move": lambda: g.action_to_move(_HUGE),
        "Game.observation": lambda: g.observation(_HUGE),
        "Game.play seat": lambda: g.play(g.legal_moves()[0], seat=_HUGE),
        "Match players": lambda: ofc.Match(rules.PINEAPPLE, players=_HUGE),
        "deal_seed": lambda: ofc.deal_seed(0, _HUGE),
        "make_bot": lambda: make_bot(_HUGE),  # type: ignore[arg-type]
        "make_bots": lambda: make_bots("random", _HUGE),
        "Move row": lambda: Move([("As", _HUGE)]),
        "Move card": lambda: Move([(_HUGE, 0)]),
        "ServeConfig port": lambda: ServeConfig(workers=1, port=-_HUGE).check(),
        "ServeConfig port above": lambda: ServeConfig(workers=1, port=_HUGE).check(),
        "ServeConfig host": lambda: ServeConfig(workers=1, host=_HUGE).check(),  # type: ignore[arg-type]
        "ServeConfig workers": lambda: ServeConfig(workers=_HUGE).check(),
        "ServeConfig max_time_budget": lambda: ServeConfig(
            workers=1, max_time_budget=_HUGE
        ).check(),
        "VectorEnv num_envs": lambda: VectorEnv(rules.PINEAPPLE, num_envs=-_HUGE),
        "Arena hands": lambda: Arena(rules.PINEAPPLE, _two_bots(), hands=-_HUGE),
    }


def _two_bots() -> list[object]:
    from ofc_fast.arena import parse_bot_spec

    return [parse_bot_spec("random"), parse_bot_spec("random")]


_LONG = "x" * 10**6


@pytest.mark.parametrize(
    "call",
    [
        lambda: ServeConfig(workers=1, allowed_hosts=(_LONG,)).check(),
        lambda: ServeConfig(workers=1, forwarded_allow_ips=(_LONG,)).check(),
        lambda: ServeConfig(workers=1, max_sessions=_LONG).check(),  # type: ignore[arg-type]
        lambda: Arena(rules.PINEAPPLE, _two_bots(), hands=_LONG),  # type: ignore[arg-type]
        lambda: Arena(rules.PINEAPPLE, _two_bots(), hands=1, fault_policy=_LONG),
        lambda: VectorEnv(rules.PINEAPPLE, num_envs=_LONG),  # type: ignore[arg-type]
    ],
    ids=[
        "allowed_hosts",
        "forwarded_allow_ips",
        "max_sessions",
        "hands",
        "fault_policy",
        "num_envs",
    ],
)
def test_a_long_setting_is_quoted_short(call: Callable[[], object]) -> None:
    """Regression: ServeConfig, Arena and VectorEnv printed a bad setting whole
    (``allowed_hosts`` of a megabyte: a megabyte of message) or, for an int too long
    for str(), raised the ValueError writing the message; each quotes it as the rest
    of the library does (``errors.quote``: at most 60 characters)."""
    with pytest.raises(OfcError) as info:
        call()
    assert len(str(info.value)) < 300


@pytest.mark.parametrize("name", sorted(_huge_int_calls()))
def test_huge_int_arguments_raise_ofc_error(name: str) -> None:
    """An int too long for str() (10**5000) in any argument is a specific OfcError
    with a short message, not the ValueError str() raises while the message is
    being written (README, Guarantees)."""
    call = _huge_int_calls()[name]
    with pytest.raises(OfcError) as info:
        call()
    assert len(str(info.value)) < 300


def _hands(n: int, width: int, seed: int) -> np.ndarray:
    """Rows (n of them) of ``width`` distinct card ids each."""
    rng = np.random.default_rng(seed)
    return np.argsort(rng.random((n, 52)), axis=1)[:, :width].astype(np.uint8)


@pytest.mark.parametrize(("width", "fn"), [(5, ofc.rank5_batch), (3, ofc.rank3_batch)])
def test_rank_batch_refuses_an_out_that_is_a_view_of_the_input(width, fn):
    """An ``out`` over the input's bytes wrote results over rows not yet read (a
    CardError for a row that was valid, or wrong strengths): an ArrayError naming
    out, the input untouched; a separate out still works."""
    n = 400
    buf = np.zeros(width * n + 4 * n, np.uint8)  # the hands, then room for out
    hands = buf[: width * n].reshape(n, width)
    hands[:] = _hands(n, width, 1)
    before = hands.copy()
    for start in (0, width * n // 2 // 4 * 4, width * n - 4):
        view = buf[start : start + 4 * n].view(np.int32)
        with pytest.raises(ArrayError, match="out shares memory with a"):
            fn(hands, out=view)
        assert np.array_equal(hands, before)
    out = np.empty(n, np.int32)
    assert fn(hands, out=out) is out


def test_score_pairs_refuses_an_out_that_is_a_view_of_an_input():
    n = 300
    cards = _hands(n, 26, 2)
    a, b = cards[:, :13].copy(), cards[:, 13:].copy()
    for name, arr in (("a", a), ("b", b)):
        view = arr.reshape(-1)[4 * n : 8 * n].view(np.int32)
        with pytest.raises(ArrayError, match=f"out shares memory with {name}"):
            ofc.score_pairs(a, b, out=view)
    assert np.array_equal(np.concatenate([a, b], axis=1), cards)


def test_masked_arrays_are_refused():
    """A masked array's mask was ignored (masked cards scored as if present): every
    array reader refuses one, naming it."""
    hands = _hands(4, 13, 3)
    masked = np.ma.masked_array(hands[:, :5].copy(), mask=np.eye(4, 5, dtype=bool))
    with pytest.raises(ArrayError, match="masked array"):
        ofc.rank5_batch(masked)
    with pytest.raises(ArrayError, match="out is a masked array"):
        ofc.rank5_batch(hands[:, :5].copy(), out=np.ma.masked_array(np.zeros(4, np.int32)))
    with pytest.raises(ArrayError, match="boards is a masked array"):
        ofc.eval_boards(np.ma.masked_array(hands))
    with pytest.raises(ArrayError, match="b is a masked array"):
        ofc.score_pairs(hands[:2], np.ma.masked_array(hands[2:]))
    game = ofc.Game(rules.PINEAPPLE, 2, seed=1)
    obs = game.observation(game.to_act)
    legal = np.ma.masked_array(obs["legal_actions"], mask=True)
    with pytest.raises(ofc.GameError, match="masked array"):
        action_mask({**obs, "legal_actions": legal})


def test_zero_d_arrays_where_sequences_belong_are_named():
    """A 0-d NumPy array is Iterable by type yet cannot be iterated: cards_str, settle
    (boards, surrendered) and apply_stakes raised TypeError ("iteration over a 0-d
    array"); each names the argument with its own error."""
    zero_d = np.array(5)
    with pytest.raises(CardError, match="bad cards"):
        ofc.cards_str(zero_d)
    with pytest.raises(BoardError, match="boards"):
        ofc.settle(zero_d)
    with pytest.raises(BoardError, match="surrendered"):
        ofc.settle([A, B], surrendered=zero_d)
    with pytest.raises(BoardError, match="transfers"):
        ofc.apply_stakes(zero_d, [5, 5], "chips")
    assert ofc.cards_str(np.array([51, 0])) == "As 2c"
    assert ofc.settle(np.array([A, B])).net == ofc.settle([A, B]).net
    assert ofc.apply_stakes([((0, 1), 6)], np.array([5, 5]), "chips") == [5]


def test_settle_names_a_declaration_that_is_an_array():
    """settle(declared={seat: array}) raised NumPy's ValueError (the truth value of an
    element-wise comparison with the natural names): a BoardError naming the seat."""
    six_pairs = "2s 2d 3s 3h 4s 4d 5s 5d 9s 9d Ts Td Jh"
    for name in (np.array(["six_pairs", "dragon"]), np.array([]), ["six_pairs"]):
        with pytest.raises(BoardError, match="seat 0 declared"):
            ofc.settle([six_pairs, B], rules.MALAYAN, declared={0: name})
    won = ofc.settle([six_pairs, B], rules.MALAYAN, declared={0: np.str_("six_pairs")})
    assert won.net == ofc.settle([six_pairs, B], rules.MALAYAN, declared={0: True}).net


def test_settle_reads_numpys_true_as_a_declaration_of_the_best_natural():
    """settle(declared={seat: np.True_}) (a flag from a NumPy mask) was refused with
    "seat 0 declared np.True_ but holds six_pairs", as if the hand made no natural:
    NumPy's True declares the seat's best natural, as True does.  The expected nets
    are the rules' units for six pairs (MALAYAN: 4) against an ordinary hand."""
    six_pairs = "2s 2d 3s 3h 4s 4d 5s 5d 9s 9d Ts Td Jh"
    assert ofc.settle([six_pairs, B], rules.MALAYAN, declared={0: np.True_}).net == [4, -4]
    assert ofc.settle([B, six_pairs], rules.MALAYAN, declared={1: np.True_}).net == [-4, 4]
    with pytest.raises(BoardError, match="seat 0 declared"):
        ofc.settle([six_pairs, B], rules.MALAYAN, declared={0: np.False_})


@pytest.mark.parametrize("value", [False, None, 0, 1, "", "seven pairs", np.False_])
def test_settle_says_a_declaration_must_be_true_or_a_natural_s_name(value):
    """settle(declared={0: False}) (or None, or 0) said "seat 0 declared False but
    holds six_pairs", as if False declared a natural the hand lacks.  A value that is
    neither True nor a natural's name is no declaration: the error says what one is
    and that a seat declaring nothing is left out."""
    six_pairs = "2s 2d 3s 3h 4s 4d 5s 5d 9s 9d Ts Td Jh"
    with pytest.raises(BoardError) as err:
        ofc.settle([six_pairs, B], rules.MALAYAN, declared={0: value})
    said = str(err.value)
    assert "but holds" not in said, said
    assert said.startswith("seat 0 declared ") and "no declaration" in said, said
    for words in ("True", "NATURAL_NAMES", "declares nothing is left out"):
        assert words in said, (words, said)
    assert ofc.settle([six_pairs, B], rules.MALAYAN, declared={0: True}).net == [4, -4]


def test_a_natural_s_name_reads_in_any_case_as_a_rule_set_reads_it():
    """settle(declared={0: "Dragon"}) was a BoardError ("no declaration") and
    natural_payment(NaturalHand("Dragon", ...)) said "'Dragon' is not played under
    SINGAPORE (its naturals: ..., dragon)", while a rule set reads a natural's name
    in any case, a space or "-" for each "_" (docs/rules.md section 16): the names
    read alike everywhere.  Singapore pays the dragon 13 units, three straights 3
    (R-VAR-SG-1, R-VAR-SG-2); a name of no natural stays an error."""
    from ofc_fast.scoring.naturals import NaturalHand, natural_payment

    dragon = "2c 3d 4h 5s 6c 7d 8h 9c Tc Jd Qc Kh Ac"  # also three straights
    other = "Qh Qd 2h / 9s 9h 9d 5c 5d / As Ks Qs Js Ts"
    for name, units in (("Dragon", 13), (" DRAGON ", 13), ("Three Straights", 3)):
        got = ofc.settle([dragon, other], rules.SINGAPORE, declared={0: name})
        assert got.net == [units, -units], name
        assert natural_payment(NaturalHand(name, 0, 0), None, rules.SINGAPORE) == units
    pairs = NaturalHand("six-pairs", 0, 0)
    assert natural_payment(pairs, NaturalHand("dragon", 0, 0), rules.SINGAPORE) == -13
    with pytest.raises(BoardError, match="no declaration"):
        ofc.settle([dragon, other], rules.SINGAPORE, declared={0: "dragons"})
    with pytest.raises(RulesError, match="not played under SINGAPORE"):
        natural_payment(NaturalHand("Dragons", 0, 0), None, rules.SINGAPORE)


def test_numpy_flags_and_ints_are_read_as_the_values_they_are():
    """solve_fantasyland(alternatives=np.True_) raised "alternatives must be True or
    False, got np.True_" and score_evaluated(ties=np.int64(1)) "ties -1, 0 or 1":
    each refused the value its message asks for.  NumPy's bools and ints now give
    the answer of Python's; bools as ties, floats and text stay errors."""
    from ofc_fast.errors import SearchError

    fl = solve_fantasyland(FL_HAND, rules.PINEAPPLE, alternatives=np.True_)
    want = solve_fantasyland(FL_HAND, rules.PINEAPPLE, alternatives=True)
    assert (fl.best_stay, fl.best_no_stay) == (want.best_stay, want.best_no_stay)
    assert fl.best_stay is not None
    with pytest.raises(SearchError, match="alternatives must be True or False"):
        solve_fantasyland(FL_HAND, rules.PINEAPPLE, alternatives="no")
    a = evaluate_for_scoring(ofc.Board.parse(A), rules.OFC)
    b = evaluate_for_scoring(ofc.Board.parse(B), rules.OFC)
    for ties in (-1, 0, 1):
        for given in (np.int64(ties), np.int8(ties)):
            got = score_evaluated(a, b, rules.OFC, ties=given)  # type: ignore[arg-type]
            assert got == score_evaluated(a, b, rules.OFC, ties=ties)
    for bad in (True, np.True_, 1.0, 2, "1"):
        with pytest.raises(BoardError, match="ties -1, 0 or 1"):
            score_evaluated(a, b, rules.OFC, ties=bad)  # type: ignore[arg-type]


def test_apply_stakes_reads_numpy_seats_and_amounts():
    """apply_stakes refused NumPy ints ("transfer seat: expected an int, got
    np.int64(0)"), as from an array of pairs or nets; they now give the Python ints'
    answer (EX-3: A has 8 chips, wins 6 from B, pays C only 2); bools and floats stay
    BoardErrors."""
    stacks = [8, 20, 20, 20]
    given = [((np.int64(0), np.uint8(1)), np.int32(6)), ((np.int8(2), 0), np.int64(6))]
    assert ofc.apply_stakes(given, stacks, "chips") == [6, 2]
    for bad in (((True, 1), 6), ((0, 1), 6.0), ((0, 1), np.float64(6)), ((0, 1), True)):
        with pytest.raises(BoardError, match="expected an int"):
            ofc.apply_stakes([bad], stacks, "chips")


class _NoRepr:
    """An object whose repr fails (a hostile or broken caller's value)."""

    def __repr__(self) -> str:
        raise RuntimeError("no repr")


def test_stakes_model_and_settlement_start_of_no_text_are_rules_errors():
    """apply_stakes(model=...) and settlement_order(start=...) handed any value to the
    enum, whose own error message called its repr: an object whose repr fails raised
    that RuntimeError; anything but a member's text is a RulesError naming the field."""
    for bad in (_NoRepr(), [_NoRepr()], 1, None, b"chips"):
        with pytest.raises(RulesError, match="stakes model: unknown"):
            ofc.apply_stakes([((0, 1), 6)], [5, 5], bad)
        with pytest.raises(RulesError, match="settlement start: unknown"):
            ofc.settlement_order(2, 0, bad)
    assert ofc.apply_stakes([((0, 1), 6)], [5, 5], rules.StakesModel.CHIPS) == [5]
    assert ofc.settlement_order(2, 0, "button") == [(0, 1)]


def test_score_pairs_names_the_array_and_row_of_a_bad_card():
    """score_pairs named a bad pair "pair 2 (a+b)[0]", a row 0 that is no row of
    either array; it names the pair, then the array and row holding a card id outside
    0..51 ("b[2]"), or for a card on both boards the pair's rows ("a[2] and b[2]")."""
    a = np.array([ofc.Board.parse(A).cards] * 4, dtype=np.uint8)
    b = np.array([ofc.Board.parse(B).cards] * 4, dtype=np.uint8)
    bad_b = b.copy()
    bad_b[2, 5] = 60
    with pytest.raises(CardError, match=r"score_pairs: pair 2: b\[2\] holds card id 60"):
        ofc.score_pairs(a, bad_b)
    bad_a = a.copy()
    bad_a[3, 0] = 99
    with pytest.raises(CardError, match=r"score_pairs: pair 3: a\[3\] holds card id 99"):
        ofc.score_pairs(bad_a, b)
    twice = b.copy()
    twice[1, 0] = a[1, 4]
    with pytest.raises(CardError, match=r"pair 1: a\[1\] and b\[1\] repeat a card: "):
        ofc.score_pairs(a, twice)


@pytest.mark.parametrize(
    ("text", "key"),
    [
        ('{"sweep_bonus": 1' + "9" * 5000 + "}", "sweep_bonus"),
        ('{"aces_bet": [0, 1, 2, 6, -' + "9" * 5000 + "]}", r"aces_bet\[4\]"),
        ('{"fantasyland": {"stay_cards": ' + "9" * 700 + "}}", r"fantasyland\.stay_cards"),
        ('{"name": ' + "9" * 700 + "}", "name"),
    ],
)
def test_a_rules_file_with_a_number_too_long_to_read_names_its_key(
    text: str, key: str
) -> None:
    """A number of more digits than Python reads as an int (4300 by default) was
    refused as "rules JSON: Exceeds the limit (4300 digits) for integer string
    conversion ...; use sys.set_int_max_str_digits() to increase the limit": no key
    named, and a hint for Python programmers, not for the author of a rules file
    (``ofc-fast play --rules``)."""
    with pytest.raises(RulesError) as info:
        RuleSet.from_json(text)
    message = str(info.value)
    assert re.match(rf"{key}: .*digits", message), message
    assert "sys." not in message and len(message) < 200


@pytest.mark.parametrize("digits", [5, 700, 5000])
def test_a_rules_document_that_is_one_number_is_named_as_a_number(digits: int) -> None:
    """A rules document that is a bare number (no key to name) is "expected a dict,
    got int" however many digits it has: one too long for Python's int gave "got
    _LongNumber", a private class's name."""
    with pytest.raises(RulesError, match=r"^rules: expected a dict, got int$"):
        RuleSet.from_json("1" * digits)


def test_an_evaluated_board_made_by_hand_is_checked_when_made():
    """Regression: EvaluatedBoard(board, c, rules) built by hand took any ``c``:
    score_evaluated then raised cffi's TypeError ("initializer for ctype 'struct
    ofc_board_eval *' must be a cdata pointer, not NoneType"), and a ``board`` of
    text was kept; each is a BoardError when the object is made."""
    from ofc_fast.scoring import EvaluatedBoard

    good = evaluate_for_scoring(ofc.Board.parse(A), rules.OFC)
    for board, c in ((ofc.Board.parse(A), None), (ofc.Board.parse(A), "x"), (A, good.c)):
        with pytest.raises(BoardError, match="EvaluatedBoard: expected a Board"):
            EvaluatedBoard(board, c, rules.OFC)  # type: ignore[arg-type]
    again = EvaluatedBoard(good.board, good.c, rules.OFC)
    assert score_evaluated(again, good, rules.OFC) == score_evaluated(good, good, rules.OFC)
