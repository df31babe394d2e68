"""Pair scoring and settlement against the independent reference (R-SCORE-*,
R-FOUL-3/4, R-ROY-OFC-*, R-BON-CP-2), worked examples, and hypothesis properties."""

from __future__ import annotations

import copy
import dataclasses
import pickle
import random

import numpy as np
import pytest
from boards import random_pair, random_table
from hypothesis import given, settings
from hypothesis import strategies as st
from reference_scoring import score_classic, score_ofc

import ofc_fast as ofc
from ofc_fast import Board, BoardError, RulesError, rules, score_pair, settle
from ofc_fast._native import ffi

ROYAL = "Qh Qd 2c / 9s 9h 9d 5c 5d / As Ks Qs Js Ts"  # royalties 7 + 12 + 25
PLAIN = "2h 3d 4c / 6s 6h 7d 7c 8d / Ah Ad Kh Kd 8c"  # no royalties
FOULED = "Ah Ad 4c / Kh Kd 3h 3d 8c / 6s 6h 7d 7c 8d"  # middle two pair > back


# ---------------------------------------------------------------- worked examples


def test_ex2_classic_bonuses() -> None:
    """EX-2: A wins front with trips (3); B wins middle full house (2) and back
    quads (4); A pays B 3."""
    a = "6c 6d 6h / 4c 4d 4h 9c 9d / Kc Kd Kh 8c 8d"
    b = "Qc Qd 7c / Jc Jd Jh 2c 2d / 5c 5d 5h 5s Ac"
    s = score_pair(a, b, rules.CLASSIC_1_6)
    assert s.rows == (1, -1, -1)
    assert s.net == -3
    assert score_pair(b, a, rules.CLASSIC_1_6).net == 3


def test_ex4_kk3_beats_kk2() -> None:
    """EX-4 / R-RANK-8: front K-K-3 wins the row against K-K-2."""
    a = "Kh Ks 3c / Ah As 4h 6d 7d / 9c 9h 9s 2d 2s"
    b = "Kd Kc 2c / Ac Ad 5h 6h 8h / Tc Th Ts 3d 3s"
    s = score_pair(a, b)
    assert s.fouls == (False, False)
    assert s.rows[0] == 1
    assert s.royalties[0][0] == s.royalties[1][0] == 8


def test_ex5_one_six_and_two_four() -> None:
    """EX-5: 1-6 win 2 of 3 -> +1, sweep -> +6; 2-4 2 of 3 -> +2, sweep -> +4."""
    a = "2h 3d 5c / 6s 6h 7d 7c 8d / Ah Ad Kh Kd 8c"  # no royalties either side
    b = "2c 3c 4d / 9s 9h 3s 3h 4s / Ac As Qh Qd 8h"
    s16 = score_pair(a, b, rules.OFC)
    assert s16.rows == (1, -1, 1) and s16.net == 1
    assert score_pair(a, b, rules.OFC.replace(sweep_bonus=0, majority_bonus=1)).net == 2
    sweep_b = "2c 3c 4d / 5s 5h 2d 3s 4s / Ac As Qh Qd 8h"
    assert score_pair(a, sweep_b, rules.OFC).net == 6
    assert (
        score_pair(a, sweep_b, rules.OFC.replace(sweep_bonus=0, majority_bonus=1)).net == 4
    )


def test_ex6_both_backs_flushes_royalties_cancel() -> None:
    """EX-6: both backs flushes: the higher flush wins the row, royalties 4 - 4 = 0."""
    a = "2h 3d 5c / 6s 6h 7d 7s 8d / Ac Kc 9c 7c 2c"
    b = "2d 3s 4d / 5s 5h 9d Ts Js / Ah Qh 9h 4h 3h"
    s = score_pair(a, b)
    assert s.rows == (1, 1, 1)
    assert s.royalties == ((0, 0, 4), (0, 0, 4))
    assert s.net == 6


def test_ex7_foul_pays_six_plus_royalties() -> None:
    """EX-7: a fouled player pays 6 + the opponent's royalties; both foul -> 0."""
    s = score_pair(FOULED, ROYAL)
    assert s.fouls == (True, False)
    assert s.net == -(6 + 7 + 12 + 25)
    other_foul = "Qh Qd Ac / Qs Qc Kc 3s 2s / As Ts Jc Js 9s"  # EX-17 foul
    both = score_pair(FOULED, other_foul)
    assert both.fouls == (True, True) and both.net == 0 and both.rows == (0, 0, 0)


def test_royalties_for_the_row_winner_only() -> None:
    """R-ROY-ALT-5, per row, as README writes it (the schedule as win_bonus): only a
    row's winner collects its royalty.  Worked by hand: A (6-6 front, two pair, K-K-K-4-4)
    against B (7-7 front, straight, flush): B takes the front (1 + 2) and the middle
    (1 + 4), A the back (1 + 6): A nets 7 - 8 = -1; A's 6-6 and B's back flush pay
    nothing.  Netting both players' royalties (OFC) gives -1 + (1 + 6) - (2 + 4 + 4) = -4."""
    a = "6c 6d 2h / 9s 9c 8d 8h 3c / Ks Kd Kh 4c 4d"
    b = "7s 7h 3d / 5s 6h 7d 8c 9d / Ac Qc Jc Tc 2c"
    winner_only = rules.OFC.replace(
        royalties=rules.Schedule(), win_bonus=rules.ROYALTIES_OFC
    )
    assert score_pair(a, b, winner_only).net == -1
    assert score_pair(b, a, winner_only).net == 1
    assert score_pair(a, b, rules.OFC).net == -4


def test_ex17_front_over_middle_fouls_in_scoring() -> None:
    """EX-17: front Q-Q-A over middle Q-Q-K-x-y fouls, so it loses every row."""
    fouled = "Qh Qd Ac / Qs Qc Kc 3s 2s / As Ts Jc Js 9s"
    s = score_pair(fouled, PLAIN)
    assert s.fouls == (True, False) and s.rows == (-1, -1, -1) and s.net == -6


def test_classic_foul_pays_win_values_and_sweep() -> None:
    """Pinned (design.md): against a fouled board the clean board collects each row at its
    win-only value (bonuses included) plus the sweep (1-6) or majority (2-4)."""
    clean = "6c 6d 6h / 4c 4d 4h 9c 9d / Kc Kd Kh Ks 8d"  # trips 3, FH 2, quads 4
    fouled = "Ah Ad 4s / Qh Qd 3h 3d 8c / 7s 7h 2d 2c 8s"
    assert score_pair(clean, fouled, rules.CLASSIC_1_6).net == 3 + 2 + 4 + 3
    assert score_pair(clean, fouled, rules.CLASSIC_2_4).net == 3 + 2 + 4 + 1


# ----------------------------------------------------------- against the reference


@pytest.mark.parametrize(
    "preset, reference",
    [
        (rules.OFC, score_ofc),
        (rules.PINEAPPLE, score_ofc),
        (rules.CLASSIC_1_6, lambda a, b: score_classic(a, b, "1-6")),
        (rules.CLASSIC_2_4, lambda a, b: score_classic(a, b, "2-4")),
    ],
)
def test_pair_scores_match_reference(preset: ofc.RuleSet, reference) -> None:
    rng = random.Random(hash(preset.name) & 0xFFFF)
    a_list, b_list, want = [], [], []
    for _ in range(4000):
        a, b = random_pair(rng)
        expected = reference(a, b)
        got = score_pair(a, b, preset)
        assert got.net == expected, (Board.from_cards(a), Board.from_cards(b))
        assert got.net == got.row_points + got.bonus + (
            sum(got.royalties[0]) - sum(got.royalties[1])
        )
        a_list.append(a)
        b_list.append(b)
        want.append(expected)
    batch = ofc.score_pairs(
        np.array(a_list, dtype=np.uint8), np.array(b_list, dtype=np.uint8), preset
    )
    assert batch.tolist() == want


# ------------------------------------------------------------------- properties

board_pairs = st.randoms(use_true_random=False).map(random_pair)
presets = st.sampled_from(
    [
        rules.OFC,
        rules.PINEAPPLE,
        rules.CLASSIC_1_6,
        rules.CLASSIC_2_4,
        rules.OFC.replace(overall_bonus=1, order="strict"),
    ]
)


@settings(max_examples=400, deadline=None)
@given(board_pairs, presets)
def test_antisymmetry(pair: tuple[list[int], list[int]], preset: ofc.RuleSet) -> None:
    a, b = pair
    ab, ba = score_pair(a, b, preset), score_pair(b, a, preset)
    assert ab.net == -ba.net
    assert ab.rows == tuple(-r for r in ba.rows)
    assert ab.sweep == -ba.sweep


@settings(max_examples=400, deadline=None)
@given(board_pairs, presets)
def test_foul_rules(pair: tuple[list[int], list[int]], preset: ofc.RuleSet) -> None:
    """R-FOUL-3/4: a fouled board earns nothing and never wins; two fouls: 0."""
    a, b = pair
    s = score_pair(a, b, preset)
    fa, fb = s.fouls
    if fa:
        assert s.royalties[0] == (0, 0, 0)
        assert s.net <= 0
        assert s.rows == ((0, 0, 0) if fb else (-1, -1, -1))
    if fa and fb:
        assert s.net == 0


@settings(max_examples=300, deadline=None)
@given(st.randoms(use_true_random=False), st.integers(2, 4), presets, st.integers(0, 3))
def test_settle_zero_sum(
    rng: random.Random, players: int, preset: ofc.RuleSet, button: int
) -> None:
    boards = random_table(rng, players)
    preset = preset.replace(max_players=4)
    result = settle(boards, preset, button=button % players)
    assert sum(result.net) == 0
    assert len(result.pairs) == players * (players - 1) // 2
    per_seat = [0] * players
    for item in result.items:
        assert item.amount > 0 and item.payer != item.payee
        per_seat[item.payee] += item.amount
        per_seat[item.payer] -= item.amount
    assert per_seat == result.net
    for (i, j), s in result.pairs:
        assert s.net == score_pair(boards[i], boards[j], preset).net


def test_settle_three_players_by_hand() -> None:
    """Seat a sweeps b (3 + 3 + 44 royalties); a beats c 2 rows to 1 (+1, royalties
    44 - 18); c sweeps b (6 + 18)."""
    c = "3h 3c 4d / Th Td Tc 2d 2s / 8h 8s Jc Jh Jd"
    result = settle([ROYAL, PLAIN, c], rules.OFC)
    assert result.net == [50 + 27, -50 - 24, -27 + 24]


def test_settlement_order_ex13() -> None:
    """EX-13: W N E S with S dealing -> W-N, W-E, W-S, N-E, N-S, E-S; three-handed
    from the seat left of the button."""
    assert ofc.settlement_order(4, button=3) == [
        (0, 1),
        (0, 2),
        (0, 3),
        (1, 2),
        (1, 3),
        (2, 3),
    ]
    assert ofc.settlement_order(3, button=0) == [(1, 2), (1, 0), (2, 0)]


# ------------------------------------------------------------------- bad input


def test_scoring_bad_input() -> None:
    with pytest.raises(BoardError, match="incomplete"):
        score_pair("Qh Qd / / ", PLAIN)
    with pytest.raises(BoardError, match="is on board 0 and board 1"):
        score_pair(ROYAL, ROYAL)
    with pytest.raises(BoardError, match="2 to 4"):
        settle([ROYAL])
    with pytest.raises(BoardError, match="button 5"):
        settle([ROYAL, PLAIN], button=5)
    a = np.array([Board.parse(ROYAL).cards], dtype=np.uint8)
    with pytest.raises(ofc.CardError, match="pair 0"):
        ofc.score_pairs(a, a)
    with pytest.raises(ofc.ArrayError, match="differ in shape"):
        ofc.score_pairs(a, np.zeros((2, 13), dtype=np.uint8))
    with pytest.raises(ofc.ArrayError, match="shape"):
        ofc.eval_boards(np.zeros((2, 12), dtype=np.uint8))


@pytest.mark.parametrize("preset", [rules.OFC, rules.CLASSIC_1_6])  # plain and general
def test_score_pairs_bad_last_pair_leaves_out_untouched(preset: ofc.RuleSet) -> None:
    """A bad pair is found before anything is written: a pre-filled ``out`` keeps
    every value (the last pair repeats a card across its two boards)."""
    rng = random.Random(5)
    pairs = [random_pair(rng) for _ in range(600)]
    a = np.array([p[0] for p in pairs], dtype=np.uint8)
    b = np.array([p[1] for p in pairs], dtype=np.uint8)
    b[-1, 0] = a[-1, 0]
    out = np.full(len(a), 12345, dtype=np.int32)
    with pytest.raises(ofc.CardError, match="pair 599"):
        ofc.score_pairs(a, b, preset, out=out)
    assert (out == 12345).all()


def test_score_evaluated_refuses_boards_evaluated_for_other_rules() -> None:
    """Boards evaluated for OFC and scored with CLASSIC_1_6 netted OFC's royalties
    (50 points where the classic reference pays 11): the evaluations carry their rule
    set, and scoring them with another is a RulesError naming both."""
    from ofc_fast.scoring.pair import evaluate_for_scoring, score_evaluated

    a, b = Board.parse(ROYAL), Board.parse(PLAIN)
    ea, eb = evaluate_for_scoring(a, rules.OFC), evaluate_for_scoring(b, "OFC")
    assert ea.rules is rules.OFC and eb.rules is rules.OFC
    for other in (rules.CLASSIC_1_6, rules.OFC.replace(order="strict")):
        with pytest.raises(RulesError, match="board a was evaluated for 'OFC'"):
            score_evaluated(ea, eb, other)
        with pytest.raises(RulesError, match="board b was evaluated for 'OFC'"):
            score_evaluated(evaluate_for_scoring(a, other), eb, other)
    assert score_evaluated(ea, eb, "OFC").net == score_ofc(list(a.cards), list(b.cards))
    classic = [evaluate_for_scoring(x, rules.CLASSIC_1_6) for x in (a, b)]
    assert score_evaluated(*classic, rules.CLASSIC_1_6).net == score_classic(
        list(a.cards), list(b.cards), "1-6"
    )


@pytest.mark.parametrize("preset", [rules.OFC, rules.PINEAPPLE_27, rules.CLASSIC_2_4])
def test_score_pair_one_call_equals_evaluated_path(preset: ofc.RuleSet) -> None:
    """score_pair scores a pair with one C call (ofc_score_boards_detail): every field
    equals the two-step path (evaluate each board, then score the evaluations), the
    fouls and OFC royalties equal the plain-Python reference, and a PairScore made by
    the fast path is an equal, frozen PairScore."""
    from reference_scoring import is_foul, ofc_royalties

    from ofc_fast.scoring.pair import evaluate_for_scoring, score_evaluated

    rng = random.Random(22)
    for _ in range(1500):
        a, b = random_pair(rng)
        ba, bb = Board.from_cards(a), Board.from_cards(b)
        got = score_pair(ba, bb, preset)
        want = score_evaluated(
            evaluate_for_scoring(ba, preset), evaluate_for_scoring(bb, preset), preset
        )
        assert got == want and type(got.rows) is tuple
        if preset is rules.OFC:
            assert got.fouls == (is_foul(a), is_foul(b))
            assert got.royalties == (ofc_royalties(a), ofc_royalties(b))
    with pytest.raises(dataclasses.FrozenInstanceError):
        got.net = 0  # type: ignore[misc]
    assert dataclasses.replace(got) == got


@settings(max_examples=60, deadline=None)
@given(board_pairs, presets, st.integers(0, pickle.HIGHEST_PROTOCOL))
def test_an_evaluated_board_pickles_and_copies_with_its_own_c_struct(
    pair: tuple[list[int], list[int]], preset: ofc.RuleSet, protocol: int
) -> None:
    """Regression: ``pickle.dumps`` and ``copy.deepcopy`` of an EvaluatedBoard raised
    TypeError "cannot pickle '_cffi_backend.__CDataOwn' object" (protocols 0 and 1:
    "a class that defines __slots__ ..."), and ``copy.copy`` gave one sharing the C
    struct of the original.  Each is now the board evaluated again for its rules: the
    same fouls, royalties and scores, in a C struct of its own."""
    from ofc_fast.scoring.pair import evaluate_for_scoring, score_evaluated

    a, b = (evaluate_for_scoring(Board.from_cards(x), preset) for x in pair)
    want = score_evaluated(a, b, preset)
    for again in (
        pickle.loads(pickle.dumps(a, protocol)),
        copy.copy(a),
        copy.deepcopy(a),
    ):
        assert again.board == a.board and again.rules == a.rules
        assert (again.foul, again.royalties) == (a.foul, a.royalties)
        assert score_evaluated(again, b, preset) == want
        assert int(ffi.cast("uintptr_t", again.c)) != int(ffi.cast("uintptr_t", a.c))
        again.c.foul = not a.foul  # its own struct: the original keeps its values
        assert score_evaluated(a, b, preset) == want


@pytest.mark.parametrize("preset", [rules.OFC, rules.PINEAPPLE])
def test_an_evaluated_board_s_repr_names_its_board_and_rules(preset: ofc.RuleSet) -> None:
    """Regression: ``repr()`` of an EvaluatedBoard was Python's default
    ``<ofc_fast.scoring.pair.EvaluatedBoard object at 0x...>``, which said neither the
    board nor the rules; it is now the call that makes it, as a Board's repr is."""
    from ofc_fast.scoring.pair import evaluate_for_scoring

    e = evaluate_for_scoring(Board.parse(ROYAL), preset)
    assert repr(e) == f"evaluate_for_scoring(Board.parse({ROYAL!r}), rules.{preset.name})"
    again = eval(
        repr(e),
        {"evaluate_for_scoring": evaluate_for_scoring, "Board": Board, "rules": rules},
    )
    assert (again.board, again.rules) == (e.board, e.rules)


def test_score_pair_keeps_its_compiled_rules_alive_during_the_call(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """score_pair held its rule set's compiled C struct by address only: another
    thread compiling 128 other rule sets meanwhile (the cache's size) freed it, and the
    C call read freed memory (here another rule set's, reusing it: 8 where the boards
    net 57, a crash elsewhere).  The call keeps the compiled rules alive until C
    returns; the reference is R-SCORE-5 plus the overall point (R-VAR-OVR-1)."""
    from ofc_fast.rules.compiled import compile_rules
    from ofc_fast.scoring import pair

    a = Board.parse("Qh Qd 2c / 9s 9h 9d 5c 5d / As Ks Qs Js Ts")
    b = Board.parse("2h 3d 4c / 6s 6h 7d 7c 8d / Ah Ad Kh Kd 8c")
    table = rules.OFC.replace(overall_bonus=7)
    want = score_ofc(list(a.cards), list(b.cards)) + 7
    real = pair._score_pair
    others = [rules.CLASSIC_1_6.replace(sweep_bonus=k) for k in range(140)]

    def other_thread_compiles_meanwhile(*args: object) -> object:
        for other in others:  # more rule sets than the cache keeps: table's evicted
            compile_rules(other)
        return real(*args)

    monkeypatch.setattr(pair, "_score_pair", other_thread_compiles_meanwhile)
    assert [score_pair(a, b, table).net for _ in range(3)] == [want] * 3


def test_settle_refuses_boards_without_a_seat_order() -> None:
    """settle({B, C, A}) settled the boards in the set's hash order, seat 0 given the
    +77 of board A though B loses 74 (a dict gave its keys as boards): boards without
    a seat order are refused, as stacks and Fantasyland counts are (TableError, a
    BoardError, naming boards); a list, a tuple or any ordered iterable is read in
    seat order, each pair as R-SCORE-5 scores it."""
    a = Board.parse("Qh Qd 2c / 9s 9h 9d 5c 5d / As Ks Qs Js Ts")
    b = Board.parse("2h 3d 4c / 6s 6h 7d 7c 8d / Ah Ad Kh Kd 8c")
    for unordered in ({b, a}, frozenset((b, a)), {0: b, 1: a}, {b: 0, a: 1}):
        with pytest.raises(BoardError, match=r"boards: .*in seat order"):
            settle(unordered)  # type: ignore[arg-type]
    want = score_ofc(list(b.cards), list(a.cards))
    for ordered in ([b, a], (b, a), iter([b, a]), {0: b, 1: a}.values()):
        assert settle(ordered).net == [want, -want]  # type: ignore[arg-type]


def test_a_settlement_is_unhashable_by_name() -> None:
    """Regression: ``hash(settle(...))`` (a Settlement as a set member or a dict key)
    raised ``TypeError: unhashable type: 'list'`` from deep in the dataclass, and
    ``isinstance(s, Hashable)`` said True; a Settlement (lists inside: frozen, yet
    unhashable, as a GameResult) is now unhashable by its own name."""
    from collections.abc import Hashable

    boards = [
        "Qh Qd 2c / 9s 9h 9d 5c 5d / As Ks Qs Js Ts",
        "2h 3d 4c / 6s 6h 7d 7c 8d / Ah Ad Kh Kd 8c",
    ]
    s = settle(boards, "OFC")
    assert not isinstance(s, Hashable)
    with pytest.raises(TypeError, match="unhashable type: 'Settlement'"):
        hash(s)
    assert s == copy.deepcopy(s)  # (== is kept)
