"""The solvers (ofc_fast.solver) against an independent brute force.

The reference enumerates every 13-card subset and every 3/5/5 split of it, scores the
boards with the library's evaluator (``eval_boards``, the batch form of
``Board.evaluate``) and decides Fantasyland stays with its own vectorised reading of
R-FL-10 / R-27-7, itself checked against ``fantasyland_cards`` on samples.  The
expected-points objective is recomputed here from the model documented in
``csrc/include/ofc_solver.h`` and from tables rebuilt from the shipped opponent counts.
"""

from __future__ import annotations

import itertools
import math
import random
import subprocess
import sys
import threading
from functools import lru_cache
from pathlib import Path

import numpy as np
import pytest
from scripts import package_env

import ofc_fast as ofc
from ofc_fast import Board, fantasyland_cards
from ofc_fast import rules as R
from ofc_fast._native import ffi, lib
from ofc_fast.cli._render import cli_solve
from ofc_fast.errors import SearchError
from ofc_fast.rules._fantasyland_text import front_threshold
from ofc_fast.rules.compiled import LOW27, schedule_tables
from ofc_fast.solver import (
    STAY_VALUE_DEFAULT,
    Solution,
    best_setting,
    ev_tables,
    solve_fantasyland,
    stay_values,
)

ROOT = Path(__file__).resolve().parent.parent
SIZE = ofc.STRENGTH_MAX + 1
CATEGORY = np.array([0] + [int(ofc.category(s)) for s in range(1, SIZE)], dtype=np.int64)
FL_RULES = (R.PINEAPPLE, R.PROGRESSIVE_PINEAPPLE, R.ULTIMATE_PINEAPPLE, R.OFC)


# ------------------------------------------------------------------ reference


@lru_cache(maxsize=1)
def split_index() -> np.ndarray:
    """(72072, 13) positions 0..12 in board order: front 3, middle 5, back 5."""
    rows = []
    for back in itertools.combinations(range(13), 5):
        rest = [i for i in range(13) if i not in back]
        for mid in itertools.combinations(rest, 5):
            front = [i for i in rest if i not in mid]
            rows.append(front + list(mid) + list(back))
    return np.array(rows, dtype=np.intp)


def all_boards(cards: list[int]) -> np.ndarray:
    """Every board of 13 of the cards: (C(n, 13) * 72072, 13) uint8."""
    idx = split_index()
    parts = []
    for keep in itertools.combinations(cards, 13):
        parts.append(np.asarray(keep, dtype=np.uint8)[idx])
    return np.ascontiguousarray(np.concatenate(parts))


def ref_next_cards(rules: R.RuleSet, strengths: np.ndarray, n_hand: int) -> np.ndarray:
    """Fantasyland cards a Fantasyland hand of n_hand cards keeps (0 = none), per
    board, read from docs/rules.md R-FL-10 / R-27-7 as the RuleSet fields describe them.
    Fouled boards must be masked by the caller."""
    fl = rules.fantasyland
    n = len(strengths)
    if fl is None:
        return np.zeros(n, dtype=np.int64)
    front, mid, back = strengths[:, 0], strengths[:, 1], strengths[:, 2]
    lowball = rules.lowball is not None
    nuts_entry = lowball and fl.lowball_entry > 0  # R-27-6: 7-5-4-3-2 middle
    stays = np.zeros(n, dtype=bool)
    if fl.stay_front is not None:
        stays |= front >= front_threshold(fl.stay_front)
    if fl.stay_middle is not None and not lowball:
        stays |= CATEGORY[mid] >= int(fl.stay_middle)
    if fl.stay_back is not None:
        stays |= CATEGORY[back] >= int(fl.stay_back)
    if fl.stay_cards == "same":
        nxt = np.full(n, n_hand)
    elif fl.stay_cards == "entry":
        entry = np.zeros(n, dtype=np.int64)
        for text, cards in fl.entry:  # weakest first: the best threshold met counts
            entry = np.where(front >= front_threshold(text), cards, entry)
        if nuts_entry:
            nuts = LOW27[mid] == 7462
            both = (entry > 0) & (fl.lowball_both > 0)
            entry = np.where(
                nuts,
                np.where(both, fl.lowball_both, np.maximum(entry, fl.lowball_entry)),
                entry,
            )
        counts = [c for _, c in fl.entry] + ([fl.lowball_entry] if nuts_entry else [])
        nxt = np.where(entry > 0, entry, min(counts))  # no threshold met: the least
    else:
        nxt = np.full(n, int(fl.stay_cards))
    return np.where(stays, nxt, 0)


class Brute:
    """Every board of a hand, evaluated once; values for any stay values."""

    def __init__(self, cards: list[int], rules: R.RuleSet) -> None:
        self.cards = cards
        self.rules = rules
        self.boards = all_boards(cards)
        ev = ofc.eval_boards(self.boards, rules)
        self.strength = ev.strength
        self.royalties = ev.royalty.sum(axis=1)
        self.legal = ~ev.foul

    def values(
        self, rules: R.RuleSet, sv: tuple[float, ...]
    ) -> tuple[np.ndarray, np.ndarray]:
        nxt = ref_next_cards(rules, self.strength, len(self.cards))
        bonus = np.where(nxt > 0, np.array((0.0,) * 13 + sv)[nxt], 0.0)
        return self.royalties + bonus, nxt > 0


def check_solution(
    sol: Solution, cards: list[int], rules: R.RuleSet, sv: tuple[float, ...]
) -> None:
    """The solution is what it says, recomputed with the public API."""
    board = sol.board
    assert sorted(board.cards + sol.discards) == sorted(cards)
    assert len(sol.discards) == len(cards) - 13
    e = board.evaluate(rules)
    assert e.foul == sol.fouled
    assert e.royalties == sol.row_royalties and sum(e.royalties) == sol.royalties
    if sol.objective == "fantasyland" and rules.fantasyland is not None:
        nxt = fantasyland_cards(board, rules, in_fantasyland=len(cards))
        assert sol.next_cards == nxt and sol.stays == (nxt > 0)
    value = sol.royalties + (sv[sol.next_cards - 13] if sol.stays else 0.0)
    if sol.objective == "fantasyland":
        assert sol.value == pytest.approx(value, abs=1e-9)


def check_against_brute(
    cards: list[int], rules: R.RuleSet, brute: Brute, sv_arg=None
) -> None:
    sv = stay_values(rules, sv_arg)
    values, stays = brute.values(rules, sv)
    legal = brute.legal
    sol = solve_fantasyland(cards, rules, sv_arg)
    alt = solve_fantasyland(cards, rules, sv_arg, alternatives=True)
    check_solution(sol, cards, rules, sv)
    check_solution(alt, cards, rules, sv)
    if not legal.any():
        assert sol.fouled and alt.fouled and sol.royalties == 0 and not sol.stays
        assert alt.best_stay is None and alt.best_no_stay is None
        return
    best = values[legal].max()
    assert not sol.fouled
    assert sol.value == pytest.approx(best, abs=1e-9), (ofc.cards_str(cards), rules.name)
    assert alt.value == pytest.approx(best, abs=1e-9)
    for sub, mask, flag in (
        (alt.best_stay, legal & stays, True),
        (alt.best_no_stay, legal & ~stays, False),
    ):
        if not mask.any():
            assert sub is None
            continue
        assert sub is not None and sub.stays == flag
        check_solution(sub, cards, rules, sv)
        assert sub.value == pytest.approx(values[mask].max(), abs=1e-9)


def deals(seed: int, count: int, n: int) -> list[list[int]]:
    rng = random.Random(seed)
    return [rng.sample(range(52), n) for _ in range(count)]


# ---------------------------------------------------- the reference itself


def test_reference_stays_match_fantasyland_cards() -> None:
    rng = random.Random(3)
    for rules in FL_RULES + (R.PINEAPPLE_27,):
        cards = rng.sample(range(52), 14)
        brute = Brute(cards, rules)
        legal = np.flatnonzero(brute.legal)
        stays = np.flatnonzero(
            brute.legal & (ref_next_cards(rules, brute.strength, 14) > 0)
        )
        picks = list(rng.sample(list(legal), min(40, len(legal))))
        picks += list(rng.sample(list(stays), min(40, len(stays))))
        nxt = ref_next_cards(rules, brute.strength, 14)
        for i in picks:
            b = Board.from_cards(brute.boards[i].tolist())
            assert fantasyland_cards(b, rules, in_fantasyland=14) == nxt[i]


# ------------------------------------------------------- optimality: random


@pytest.mark.parametrize("seed", range(4))
def test_13_cards_against_brute_force(seed: int) -> None:
    for cards in deals(100 + seed, 10, 13):
        high = Brute(cards, R.PINEAPPLE)
        for rules in FL_RULES:
            check_against_brute(cards, rules, high)
        check_against_brute(cards, R.PINEAPPLE, high, 0)
        check_against_brute(cards, R.PINEAPPLE, high, -50.0)
        low = Brute(cards, R.PINEAPPLE_27)
        check_against_brute(cards, R.PINEAPPLE_27, low)
        check_against_brute(cards, R.PINEAPPLE_27, low, {14: 3.25, 15: 40.0})


@pytest.mark.parametrize("seed", range(4))
def test_14_cards_against_brute_force(seed: int) -> None:
    for cards in deals(200 + seed, 5, 14):
        high = Brute(cards, R.PINEAPPLE)
        check_against_brute(cards, R.PINEAPPLE, high)
        check_against_brute(cards, R.PINEAPPLE, high, 0)
        check_against_brute(
            cards, R.PROGRESSIVE_PINEAPPLE, high, {14: 5, 15: 6, 16: 7, 17: 30}
        )
        check_against_brute(cards, R.ULTIMATE_PINEAPPLE, high)
        low = Brute(cards, R.PINEAPPLE_27)
        check_against_brute(cards, R.PINEAPPLE_27, low)


def test_strict_order_and_custom_schedule_against_brute_force() -> None:
    strict = R.PINEAPPLE.replace(
        name="strict", order=R.OrderRule.STRICT, royalties=R.ROYALTIES_ALT_2
    )
    strict_progressive = R.PROGRESSIVE_PINEAPPLE.replace(
        name="strict progressive", order=R.OrderRule.STRICT
    )
    for cards in deals(7, 4, 14):
        check_against_brute(cards, strict, Brute(cards, strict))
        check_against_brute(cards, strict_progressive, Brute(cards, strict_progressive))


def test_random_fantasyland_rules_against_brute_force() -> None:
    """Rule sets a table may write (entry tables, stay thresholds on any row, stay
    counts fixed, "same" or "entry", custom royalties, either order) with hands drawn
    from a few ranks, so that pairs, trips, quads, full houses and stays are common."""
    rng = random.Random(18)
    thresholds = ["22", "66", "99", "QQ", "KK", "AA", "222", "QQQ", "AAA"]
    cats = R.HandCategory
    checked = stayed = 0
    while checked < 30:
        fl = R.Fantasyland(
            entry=tuple((t, rng.randint(13, 17)) for t in rng.sample(thresholds, 2)),
            stay_front=rng.choice([None, "222", "QQ", "AA", "KKK"]),
            stay_middle=rng.choice([None, cats.TRIPS, cats.STRAIGHT, cats.FULL_HOUSE]),
            stay_back=rng.choice([None, cats.FLUSH, cats.QUADS]),
            stay_cards=(15, "entry", "same", 17, "entry")[checked % 5],
        )
        schedule = R.Schedule(
            front_pair=tuple(rng.randint(0, 30) for _ in range(13)),
            front_trips=tuple(rng.randint(0, 60) for _ in range(13)),
            middle=tuple(rng.randint(0, 60) for _ in range(10)),
            back=tuple(rng.randint(0, 60) for _ in range(10)),
        )
        rules = rng.choice([R.OFC, R.PINEAPPLE]).replace(
            name="table",
            royalties=schedule,
            fantasyland=fl,
            order=rng.choice(list(R.OrderRule)),
        )
        ranks = rng.sample(range(13), 5)
        cards = rng.sample([4 * r + s for r in ranks for s in range(4)], 13)
        sv = rng.choice([None, None, 0, -40.0, {13: 3, 14: 5, 15: 40, 16: 7, 17: 1}])
        brute = Brute(cards, rules)
        check_against_brute(cards, rules, brute, sv)
        checked += 1
        stayed += solve_fantasyland(cards, rules, sv).stays
    assert stayed >= 8  # the stays were put to the test


def test_15_cards_against_brute_force() -> None:
    cards = deals(9, 1, 15)[0]
    brute = Brute(cards, R.PROGRESSIVE_PINEAPPLE)
    check_against_brute(cards, R.PROGRESSIVE_PINEAPPLE, brute)
    check_against_brute(cards, R.ULTIMATE_PINEAPPLE, brute, 0)


# --------------------------------------------------- optimality: hard cases


@pytest.mark.parametrize(
    "hand, unconstrained, legal",
    [
        ("Ah Ad Kh Kd 2c 3d 5h 7s 9c Jd 4s 8h Qc", 12, 2),
        ("Ah Ad Ac Kh Kd 2c 3d 5h 7s 9c Jd 4s 8h Qc", 22, 10),
    ],
)
def test_royalty_maximising_rows_foul(hand: str, unconstrained: int, legal: int) -> None:
    """The split with the most royalties (AA or trips in front, KK behind it) fouls;
    the solver must find the best legal one, far below it."""
    cards = ofc.parse_cards(hand)
    brute = Brute(cards, R.PINEAPPLE)
    table = schedule_tables(R.PINEAPPLE.royalties).astype(np.int64)
    raw = (
        table[0][brute.strength[:, 0]]
        + table[1][brute.strength[:, 1]]
        + table[2][brute.strength[:, 2]]
    )
    assert raw.max() == unconstrained and raw[brute.legal].max() == legal
    assert not brute.legal[raw == unconstrained].any()
    sol = solve_fantasyland(cards, R.PINEAPPLE, 0)
    assert sol.royalties == legal and not sol.fouled
    assert not sol.board.is_foul(R.PINEAPPLE)
    check_against_brute(cards, R.PINEAPPLE, brute)
    check_against_brute(cards, R.PINEAPPLE, brute, 0)
    if len(cards) == 13:
        assert best_setting(cards, R.PINEAPPLE, "royalties").royalties == legal


def test_staying_costs_royalties() -> None:
    cards = ofc.parse_cards("Ad Ah Th Jh 6h Ts 5d 3c Tc 3s 7h Qh 3d 9s")
    brute = Brute(cards, R.PINEAPPLE)
    alt = solve_fantasyland(cards, R.PINEAPPLE, 0, alternatives=True)
    assert alt.best_stay is not None and alt.best_no_stay is not None
    assert alt.best_no_stay.royalties == 23 and alt.best_stay.royalties == 17
    assert not alt.stays and alt.value == 23
    keep = solve_fantasyland(cards, R.PINEAPPLE, 6.5)
    assert keep.stays and keep.royalties == 17 and keep.value == 23.5
    assert solve_fantasyland(cards, R.PINEAPPLE, 6.0).value == 23  # tie either way
    for sv in (0, 6.0, 6.5, None):
        check_against_brute(cards, R.PINEAPPLE, brute, sv)


def test_alternatives_keep_the_best_stay_under_a_large_negative_stay_value() -> None:
    """alternatives=True with a stay value below about -8192 (the C search's bonus for
    a staying board, smaller than the stay values it accepts, +-100000) answered
    best_stay=None although staying settings exist: the best stay is still found, the
    best overall (which does not stay) unchanged."""
    cards = ofc.parse_cards("Ad Ah Th Jh 6h Ts 5d 3c Tc 3s 7h Qh 3d 9s")
    brute = Brute(cards, R.PINEAPPLE)
    for sv in (-8200.0, -10000.0, -100000.0, {14: -99999.5}):
        alt = solve_fantasyland(cards, R.PINEAPPLE, sv, alternatives=True)
        assert alt.best_stay is not None, sv
        assert alt.best_stay.stays and alt.best_stay.royalties == 17
        assert not alt.stays and alt.royalties == 23
        check_against_brute(cards, R.PINEAPPLE, brute, sv)


@pytest.mark.parametrize(
    "hand",
    [
        "Ad 3s 6c 2d 5s 5c Ah 3d 6s 5h 8d 5d Ac 2c",
        "8s Qd 6d 3d 8d 8c 6h 2c 3h 8h As Ad Ac 2h",
    ],
)
def test_a_tiny_stay_value_still_decides_a_tie_of_royalties(hand: str) -> None:
    """A stay value smaller than the search's resolution (2^-16 of a point, such as
    1e-9: "stay when it costs nothing") counted as 0: a setting that does not stay was
    returned although one that stays, with as many royalties, is worth more.  A
    nonzero stay value keeps its sign: the exact best value, staying for a positive one
    and not for a negative one."""
    cards = ofc.parse_cards(hand)
    brute = Brute(cards, R.PINEAPPLE)
    plain, stays = brute.values(R.PINEAPPLE, (0.0,) * 5)
    legal = brute.legal
    assert plain[legal & stays].max() == plain[legal & ~stays].max()  # a tie
    for sv in (1e-9, 3e-6, -1e-9, -3e-6):
        values, _ = brute.values(R.PINEAPPLE, stay_values(R.PINEAPPLE, sv))
        for alt in (False, True):
            sol = solve_fantasyland(cards, R.PINEAPPLE, sv, alternatives=alt)
            assert sol.stays == (sv > 0), (sv, alt)
            assert sol.value == values[legal].max()


def test_every_setting_fouls_under_27() -> None:
    cards = ofc.parse_cards("Ah Ad Ac Kh Kd Kc Qh Qd Qc Jh Jd Jc 2s")
    sol = solve_fantasyland(cards, R.PINEAPPLE_27, alternatives=True)
    assert sol.fouled and sol.board.is_foul(R.PINEAPPLE_27)
    assert sol.royalties == 0 and sol.value == 0 and not sol.stays
    assert sol.best_stay is None and sol.best_no_stay is None
    arr = best_setting(cards, R.PINEAPPLE_27, "royalties")
    assert arr.fouled and arr.royalties == 0
    check_against_brute(cards, R.PINEAPPLE_27, Brute(cards, R.PINEAPPLE_27))


def test_27_nut_low_entry_counts() -> None:
    """2-7 with stay_cards "entry": a 7-5-4-3-2 middle and a KK front give 15."""
    rules = R.PINEAPPLE_27.replace(
        name="27 entry", fantasyland=R.PINEAPPLE_27.fantasyland.replace(stay_cards="entry")
    )
    cards = ofc.parse_cards("7c 5d 4h 3s 2c Kh Kd Ks Ah Ad Ac As 9h 8d")
    sv = {14: 1.0, 15: 50.0}
    sol = solve_fantasyland(cards, rules, sv)
    assert sol.stays and sol.next_cards == 15
    check_against_brute(cards, rules, Brute(cards, rules), sv)


def test_stay_entry_counts_of_the_best_threshold_against_brute_force() -> None:
    """stay_cards "entry" with a weaker threshold giving more cards than a stronger
    one (99: 16, KK: 14, trips: 13): a stay gets the count of the best threshold its
    front meets, as a new entry would (the reference once took the largest count of
    the thresholds met, a rule the library does not play)."""
    fl = R.Fantasyland(
        entry=(("99", 16), ("KK", 14), ("222", 13)),
        stay_front="222",
        stay_middle=R.HandCategory.QUADS,
        stay_back=R.HandCategory.FLUSH,
        stay_cards="entry",
    )
    rules = R.PINEAPPLE.replace(name="entry stays", fantasyland=fl)
    cards = ofc.parse_cards("Qh 6c Qc Ah As Jc Ad Jh 6s Qs Ac 6d Qd Jd")
    sv = {13: 3, 14: 5, 15: 40, 16: 7, 17: 1}
    brute = Brute(cards, rules)
    check_against_brute(cards, rules, brute, sv)
    check_against_brute(cards, rules, brute, {13: 30, 14: 1, 16: 2})


def test_27_entry_stay_with_no_threshold_met_gets_the_least_entry_count() -> None:
    """stay_cards "entry" under a 2-7 middle whose 7-5-4-3-2 entry (13 cards) is the
    smallest count: a stay whose front and middle enter nothing gets 13, the least of
    every entry (ofc_solver.h), not the least of the front entries (17)."""
    fl = R.PINEAPPLE_27.fantasyland.replace(
        entry=(("22", 17),),
        lowball_entry=13,
        lowball_both=0,
        stay_front="QQ",
        stay_back=R.HandCategory.FLUSH,
        stay_cards="entry",
    )
    rules = R.PINEAPPLE_27.replace(name="27 entry stays", fantasyland=fl)
    stays = Board.parse("Qh Qd 3c / 9c 7c 5d 4d 3d / Ah Kh 8h 6h 2h")  # QQ: no entry...
    assert fantasyland_cards(stays, rules, in_fantasyland=14) == 17  # ... but 22's
    flush = Board.parse("Jh 9s 3c / 9c 7c 5d 4d 3d / Ah Kh 8h 6h 2h")
    assert fantasyland_cards(flush, rules, in_fantasyland=14) == 13  # the least
    cards = ofc.parse_cards("3c 4d Jh 9c 6d Qh 7c 3d Jd 5d 9s 5h Js")
    check_against_brute(cards, rules, Brute(cards, rules))


def test_stay_same_and_entry_counts() -> None:
    cards = ofc.parse_cards("Kh Kd Kc 7s 7c 2d 3d 4d 5d 9d Js Qs Ah As Ad 8c")
    ult = solve_fantasyland(cards, R.ULTIMATE_PINEAPPLE, {16: 100.0})
    assert ult.stays and ult.next_cards == 16
    prog = solve_fantasyland(cards, R.PROGRESSIVE_PINEAPPLE, {14: 100.0})
    assert prog.stays and prog.next_cards == 14


# ----------------------------------------------------------- the arranger


def ev_reference(
    rules: R.RuleSet, strengths: np.ndarray, royalties: np.ndarray
) -> np.ndarray:
    """Expected points per board from the model of csrc/include/ofc_solver.h, with tables
    rebuilt here from the shipped counts."""
    deals_ = ffi.new("uint32_t *")
    counts = np.frombuffer(
        ffi.buffer(lib.ofc_ev_opponent_counts(deals_), 3 * SIZE * 4), dtype=np.uint32
    ).reshape(3, SIZE)
    win_value = schedule_tables(rules.win_bonus).astype(np.float64) + 1
    info = np.array([lib.ofc_strength_info(s) for s in range(SIZE)], dtype=np.uint32)
    ncards = info >> 24
    W, L, U, LU = (np.zeros((3, SIZE)) for _ in range(4))
    for row in range(3):
        p = np.where(ncards == (3 if row == 0 else 5), counts[row], 0).astype(np.float64)
        p /= p.sum()
        above = np.cumsum(p[::-1])[::-1] - p  # P(opponent stronger)
        above_units = np.cumsum((p * win_value[row])[::-1])[::-1] - p * win_value[row]
        W[row] = np.clip(1 - above - p, 0, None)
        L[row] = above
        LU[row] = above_units
        U[row] = W[row] * win_value[row] - above_units
    s = strengths
    w = np.stack([W[r][s[:, r]] for r in range(3)])
    l_ = np.stack([L[r][s[:, r]] for r in range(3)])
    units = sum(U[r][s[:, r]] for r in range(3))
    pw3, pl3 = w.prod(axis=0), l_.prod(axis=0)
    value = units + royalties + rules.sweep_bonus * (pw3 - pl3)
    if rules.majority_bonus:
        if rules.majority_rule == R.MajorityRule.MORE_ROWS:
            t = 1 - w - l_
            pmw = np.zeros(len(s))
            pml = np.zeros(len(s))
            for outcome in itertools.product((1, 0, -1), repeat=3):
                prob = np.ones(len(s))
                for r, o in enumerate(outcome):
                    prob *= w[r] if o == 1 else (t[r] if o == 0 else l_[r])
                if sum(outcome) > 0:
                    pmw += prob
                elif sum(outcome) < 0:
                    pml += prob
        else:
            pmw = w[0] * w[1] + w[0] * w[2] + w[1] * w[2] - 2 * pw3
            pml = l_[0] * l_[1] + l_[0] * l_[2] + l_[1] * l_[2] - 2 * pl3
        value = value + rules.majority_bonus * (pmw - pml)
    if rules.sweep_multiplier > 1:
        wv = sum(win_value[r][s[:, r]] for r in range(3))
        opp = (
            LU[0][s[:, 0]] * l_[1] * l_[2]
            + l_[0] * LU[1][s[:, 1]] * l_[2]
            + l_[0] * l_[1] * LU[2][s[:, 2]]
        )
        bonus = rules.sweep_bonus + rules.majority_bonus
        value = value + (rules.sweep_multiplier - 1) * (
            pw3 * (wv + bonus) - opp - pl3 * bonus
        )
    return value


@pytest.mark.parametrize(
    "rules",
    [R.CLASSIC_1_6, R.CLASSIC_2_4, R.VIETNAMESE, R.MALAYAN, R.OFC],
    ids=lambda r: r.name,
)
def test_best_setting_ev_against_brute_force(rules: R.RuleSet) -> None:
    for cards in deals(300, 6, 13):
        brute = Brute(cards, rules)
        ev = ev_reference(rules, brute.strength, brute.royalties)
        sol = best_setting(cards, rules, "ev")
        assert not sol.fouled
        assert sol.value == pytest.approx(ev[brute.legal].max(), abs=1e-5)
        own = ev_reference(
            rules,
            np.array([sol.board.evaluate(rules).strengths]),
            np.array([sol.royalties]),
        )
        assert sol.value == pytest.approx(own[0], abs=1e-5)
        roy = best_setting(cards, rules, "royalties")
        assert roy.royalties == brute.royalties[brute.legal].max()
        assert roy.value == roy.royalties and not roy.fouled


def test_ev_tables_match_counts() -> None:
    t = ev_tables(R.CLASSIC_1_6)
    win = np.frombuffer(ffi.buffer(t.win), dtype=np.float32).reshape(3, SIZE)
    s = np.array(
        [[ofc.rank3("2c 3d 5h"), ofc.rank5("7c 5d 4h 3s 2c"), ofc.rank5("As Ks Qs Js Ts")]]
    )
    assert win[2][s[0, 2]] > 0.99 and win[0][s[0, 0]] < 0.01
    assert win[1][s[0, 1]] < 0.01


def test_best_setting_naturals_and_errors() -> None:
    dragon = "2c 3d 4h 5s 6c 7d 8h 9s Tc Jd Qh Ks Ac"
    sol = best_setting(dragon, R.SINGAPORE)
    assert [n.name for n in sol.naturals] == ["dragon", "three_straights"]
    assert best_setting(dragon, R.CLASSIC_1_6).naturals == ()
    with pytest.raises(ofc.OfcError):
        best_setting(dragon, R.CLASSIC_1_6, "points")
    with pytest.raises(ofc.CardError):
        best_setting("As Ks", R.CLASSIC_1_6)
    with pytest.raises(ofc.CardError):
        best_setting(dragon.replace("Ac", "2c"), R.CLASSIC_1_6)


# --------------------------------------------------------------- the API


def test_solution_fields_and_errors() -> None:
    cards = "Ah Ad Ac Kh Kd 7s 7c 7h 2d 3d 4d 5d 9d Js"
    s = solve_fantasyland(cards)
    assert isinstance(s, Solution) and s.objective == "fantasyland"
    assert s.royalties == sum(s.row_royalties) and s.nodes > 0 and s.seconds >= 0
    assert s.stays and s.next_cards == 14
    assert s.value == s.royalties + STAY_VALUE_DEFAULT[14]
    assert str(s).startswith(str(s.board))
    with pytest.raises(ofc.CardError):
        solve_fantasyland("As Ks Qs")
    with pytest.raises(ofc.CardError):
        solve_fantasyland(list(range(18)))
    with pytest.raises(ofc.CardError):
        solve_fantasyland("As As Ks Qs Js Ts 9s 8s 7s 6s 5s 4s 3s")
    for bad in (float("nan"), 1e9, "x", {12: 1.0}):
        with pytest.raises(ofc.OfcError):
            solve_fantasyland(cards, stay_value=bad)
    assert solve_fantasyland(cards, "PINEAPPLE").board == solve_fantasyland(cards).board
    with pytest.raises(ofc.RulesError):  # neither a RuleSet nor a preset name
        solve_fantasyland(cards, 14)  # type: ignore[arg-type]
    assert stay_values(R.PINEAPPLE, 2) == (2.0,) * 5
    board = Board.parse("Ah Ad Ac / Kh Kd 7s 7c 7h / 2d 3d 4d 5d 9d")
    assert solve_fantasyland(board, R.OFC).board.cards  # a Board is accepted


def test_no_fantasyland_rules_never_stay() -> None:
    cards = deals(11, 1, 14)[0]
    s = solve_fantasyland(cards, R.CLASSIC_1_6, alternatives=True)
    assert not s.stays and s.best_stay is None and s.best_no_stay is not None
    check_against_brute(cards, R.CLASSIC_1_6, Brute(cards, R.CLASSIC_1_6))


def test_threads_agree() -> None:
    hands = deals(12, 24, 16)
    expected = [solve_fantasyland(h, R.PROGRESSIVE_PINEAPPLE).value for h in hands]
    got: dict[int, float] = {}

    def work(i: int) -> None:
        got[i] = solve_fantasyland(hands[i], R.PROGRESSIVE_PINEAPPLE).value

    threads = [threading.Thread(target=work, args=(i,)) for i in range(len(hands))]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert [got[i] for i in range(len(hands))] == expected


def test_17_cards_legal_and_consistent() -> None:
    for cards in deals(13, 6, 17):
        alt = solve_fantasyland(cards, R.PROGRESSIVE_PINEAPPLE, alternatives=True)
        sv = stay_values(R.PROGRESSIVE_PINEAPPLE)
        check_solution(alt, cards, R.PROGRESSIVE_PINEAPPLE, sv)
        best = max(x.value for x in (alt.best_stay, alt.best_no_stay) if x is not None)
        assert alt.value == best
        assert solve_fantasyland(cards, R.PROGRESSIVE_PINEAPPLE).value == best


def test_cli_solve_text() -> None:
    text = cli_solve("Ad Ah Th Jh 6h Ts 5d 3c Tc 3s 7h Qh 3d 9s", "pineapple")
    assert "rules: PINEAPPLE, 14 cards" in text
    assert "stay:    3s 3d 3c" in text and "no stay: " in text and "time: " in text
    text = cli_solve("2c 3d 4h 5s 6c 7d 8h 9s Tc Jd Qh Ks Ac", "singapore")
    assert "best (ev)" in text and "dragon" in text
    text = cli_solve("Ah Ad Ac Kh Kd Kc Qh Qd Qc Jh Jd Jc 2s", "pineapple-27")
    assert "FOULED" in text
    with pytest.raises(ofc.RulesError):
        cli_solve("Ah Ad Ac Kh Kd Kc Qh Qd Qc Jh Jd Jc 2s", "nope")


def test_a_solution_is_described_one_way_by_str_and_the_cli() -> None:
    """str(Solution) and ``ofc-fast solve`` described a Fantasyland solution each its
    own way ("royalties 17, ..., discards 5d" against "royalties 17 [11, 2, 4], ...,
    discard 5d"; "(FOULED: ...)" against " FOULED (...)"): one wording, the CLI's
    lines being the solutions' own descriptions."""
    hand = "Ad Ah Th Jh 6h Ts 5d 3c Tc 3s 7h Qh 3d 9s"
    best = (
        "3s 3d 3c / Ad Ts Th Tc 9s / Ah Qh Jh 7h 6h  royalties 17 [11, 2, 4], "
        "stays (14 cards), discard 5d, value 31.5"
    )
    no_stay = (
        "Ah Ad 9s / Qh Jh Th 7h 6h / Ts Tc 3s 3d 3c  royalties 23 [9, 8, 6], "
        "discard 5d, value 23"
    )
    s = solve_fantasyland(hand, R.PINEAPPLE, alternatives=True)
    assert (str(s), str(s.best_stay), str(s.best_no_stay)) == (best, best, no_stay)
    lines = cli_solve(hand, "pineapple").splitlines()
    assert lines[1:4] == [f"best:    {best}", f"stay:    {best}", f"no stay: {no_stay}"]
    fouled = "Ah Ad Ac Kh Kd Kc Qh Qd Qc Jh Jd Jc 2s 3c"  # a fouled solution
    said = (
        "Kc Jc 3c / Qh Qd Qc Jh Jd / Ah Ad Ac Kh Kd  royalties 0 [0, 0, 0] "
        "(FOULED: no legal setting exists), discard 2s, value 0"
    )
    assert str(solve_fantasyland(fouled, "pineapple-27")) == said
    assert f"best:    {said}" in cli_solve(fouled, "pineapple-27").splitlines()


# ------------------------------------------------- the generated opponent row counts

WINTAB = ROOT / "csrc" / "generated" / "ofc_opponent_rows.c"
GENERATOR = ROOT / "tools" / "gen_opponent_rows.py"


@pytest.mark.skipif(
    not (WINTAB.exists() and GENERATOR.exists()),
    reason="needs a source checkout (git clone: tools/, csrc/)",
)
def test_win_tables_file_matches_library_and_generator() -> None:
    sys.path.insert(0, str(GENERATOR.parent))
    try:
        import gen_opponent_rows as gen
    finally:
        sys.path.remove(str(GENERATOR.parent))
    text = WINTAB.read_text()
    counts = gen.file_counts(text)
    assert gen.recorded(text, "counts sha256") == gen.digest(counts)
    assert gen.render(counts, gen.recorded(text, "quick sha256")) == text
    deals_ = ffi.new("uint32_t *")
    lib_counts = np.frombuffer(
        ffi.buffer(lib.ofc_ev_opponent_counts(deals_), 3 * SIZE * 4), dtype=np.uint32
    ).reshape(3, SIZE)
    assert np.array_equal(lib_counts, counts), "rebuild the extension"
    assert deals_[0] == gen.ROUNDS * gen.DEALS
    quick = subprocess.run(
        [sys.executable, str(GENERATOR), "--quick"],
        check=True,
        capture_output=True,
        text=True,
        env=package_env(),  # the generator imports the package under test
    ).stdout.strip()
    assert quick == gen.recorded(text, "quick sha256"), (
        "the generator no longer reproduces the shipped table: regenerate it"
    )
    assert math.isclose(counts[0].sum(), gen.ROUNDS * gen.DEALS)


@pytest.mark.slow
@pytest.mark.skipif(
    not (WINTAB.exists() and GENERATOR.exists()),
    reason="needs a source checkout (git clone: tools/, csrc/)",
)
def test_opponent_rows_regenerate_to_the_same_bytes(tmp_path: Path) -> None:
    """``tools/gen_opponent_rows.py --check``: a full regeneration (about 20 s of CPU)
    reproduces the shipped source and header byte for byte."""
    done = subprocess.run(
        [sys.executable, str(GENERATOR), "--check"],
        capture_output=True,
        text=True,
        env=package_env(),
    )
    assert done.returncode == 0, done.stdout + done.stderr
    assert done.stdout.strip() == "unchanged"


@pytest.mark.parametrize("name", sorted(R.PRESETS))
def test_every_preset(name: str) -> None:
    """Both solvers run under every preset and return legal boards that are at least
    as good as any of a sample of legal boards."""
    rules = R.PRESETS[name]
    for cards in deals(400, 2, 13):
        brute = Brute(cards, rules)
        for objective in ("royalties", "ev"):
            sol = best_setting(cards, rules, objective)
            assert sol.fouled == (not brute.legal.any())
            check_solution(sol, cards, rules, stay_values(rules))
        roy = best_setting(cards, rules, "royalties")
        if brute.legal.any():
            assert roy.royalties == brute.royalties[brute.legal].max()
    for n in (14, 17):
        cards = deals(401, 1, n)[0]
        sol = solve_fantasyland(cards, rules, alternatives=True)
        check_solution(sol, cards, rules, stay_values(rules))


@pytest.mark.skipif(
    not (ROOT / "tools" / "fl_study.py").exists(),
    reason="needs a source checkout (git clone: tools/)",
)
def test_fl_study_chunk() -> None:
    """The study's worker: plain and alternatives solves agree, nothing fouls."""
    sys.path.insert(0, str(ROOT / "tools"))
    try:
        import fl_study
    finally:
        sys.path.remove(str(ROOT / "tools"))
    for rules_name, n in (("PINEAPPLE", 14), ("PROGRESSIVE_PINEAPPLE", 17)):
        acc = fl_study.run_chunk((rules_name, n, 0, 40, fl_study.SEED))
        assert acc["deals"] == 40 and acc["mismatch"] == 0 and acc["foul"] == 0
        assert acc["stay"] >= acc["stay0"] and acc["can_stay"] == acc["stay"]
        assert acc["roy0"] >= acc["roy"]


def test_bad_solver_settings_are_search_errors() -> None:
    """A bad stay_value (NaN, infinite, out of range, a bool, text, a count outside
    13..17), objective or alternatives flag is a SearchError naming the setting (it was
    a plain OfcError, which no specific except clause catches, and an alternatives of
    "no" was taken as True)."""
    fl_cards = "Ah Ad Ac Kh Kd 7s 7c 7h 2d 3d 4d 5d 9d Js"
    for bad in (float("nan"), float("inf"), 1e9, True, "x", {12: 1.0}, {14: "x"}):
        with pytest.raises(SearchError, match="stay_value"):
            solve_fantasyland(fl_cards, stay_value=bad)  # type: ignore[arg-type]
    hand = "2c 3d 4h 5s 6c 7d 8h 9s Tc Jd Qh Ks Ac"
    for objective in ("x", "points", None, 1):
        with pytest.raises(SearchError, match="objective"):
            best_setting(hand, R.CLASSIC_1_6, objective)  # type: ignore[arg-type]
    for flag in ("no", 0, 1, None):  # a flag is True or False, never its truth value
        with pytest.raises(SearchError, match="alternatives"):
            solve_fantasyland(fl_cards, alternatives=flag)  # type: ignore[arg-type]


def test_best_setting_names_an_objective_that_is_an_array() -> None:
    """An objective given as a NumPy array raised NumPy's ValueError (the truth value
    of an element-wise comparison): a SearchError naming the objective."""
    hand = "2c 3d 4h 5s 6c 7d 8h 9s Tc Jd Qh Ks Ac"
    for objective in (np.array(["ev", "royalties"]), np.array([]), ["ev"]):
        with pytest.raises(SearchError, match="objective"):
            best_setting(hand, R.CLASSIC_1_6, objective)  # type: ignore[arg-type]
    assert best_setting(hand, R.CLASSIC_1_6, np.str_("ev")).objective == "ev"
