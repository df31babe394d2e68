"""Pair scoring of every preset and scoring variant against an independent reference.

tests/support/reference_scoring.py covers OFC, PINEAPPLE and the two classic methods;
the settlement reference (reference_settle.py) scores its pairs with the library.  This
file checks the rest of the pair arithmetic from the rule text alone (docs/rules.md,
``RuleSet``'s fields): a 2-7 middle (R-27-2/4/5), the strict order (R-ORDER-1), the
majority point under both readings (R-SCORE-3, Q-4), the overall point (R-VAR-OVR-1),
sweep multipliers and the table-sweep bonus (R-VAR-VIET-2, R-VAR-SG-5, R-VAR-HG-2),
``foul_pays_sweep`` (Q-3), the house taking tied rows (R-VAR-HOUSE-1) and win-only
values (R-BON-CP-2), on random and near-legal boards: one at a time
(``score_pair``, ``score_evaluated``) and in a batch (``score_pairs``).
"""

from __future__ import annotations

import random

import numpy as np
import pytest
from reference import ONE_PAIR, TRIPS, category, hand_key, low27_key

import ofc_fast as ofc
from ofc_fast import Board, rules
from ofc_fast.scoring import evaluate_for_scoring, score_evaluated

PRESETS = [rules.get(n) for n in rules.names()]
NUTS = [5, 3, 2, 1, 0]  # 7-5-4-3-2


def _rows(board: list[int]) -> tuple[list[int], list[int], list[int]]:
    return board[:3], board[3:8], board[8:]


def _low_middle_ok(middle: list[int], limit: int) -> bool:
    """R-27-4: no pair, straight or flush (ace high only), top card at most ``limit``."""
    ranks = sorted({c // 4 for c in middle})
    return (
        len(ranks) == 5
        and len({c % 4 for c in middle}) > 1
        and ranks[4] - ranks[0] != 4
        and ranks[4] <= limit
    )


def ref_foul(r: ofc.RuleSet, board: list[int]) -> bool:
    front, middle, back = _rows(board)
    if r.lowball is not None:  # R-27-4: back over front, a low middle, no other order
        return hand_key(back) <= hand_key(front) or not _low_middle_ok(
            middle, r.lowball.limit
        )
    f, m, b = hand_key(front), hand_key(middle), hand_key(back)
    return not (f < m < b) if r.order.value == "strict" else not (f <= m <= b)


def _value(schedule: rules.Schedule, row: int, cards: list[int]) -> int:
    """A schedule's entry for a row's hand: the front by its pair or trips rank."""
    cat = category(cards)
    if row == 0:
        rank = sorted(c // 4 for c in cards)[1]
        return {TRIPS: schedule.front_trips, ONE_PAIR: schedule.front_pair}.get(
            cat, [0] * 13
        )[rank]
    return (schedule.middle if row == 1 else schedule.back)[cat]


def ref_royalties(r: ofc.RuleSet, board: list[int]) -> list[int]:
    if ref_foul(r, board):
        return [0, 0, 0]
    out = [_value(r.royalties, row, cards) for row, cards in enumerate(_rows(board))]
    if r.lowball is not None:  # R-27-5: by the top card, 7-5-4-3-2 its own value
        ranks = sorted((c // 4 for c in board[3:8]), reverse=True)
        out[1] = r.lowball.nuts if ranks == NUTS else r.lowball.royalties[ranks[0]]
    return out


def ref_score(
    r: ofc.RuleSet,
    a: list[int],
    b: list[int],
    ties: int = 0,
    a_all: int = 0,
    b_all: int = 0,
) -> tuple[int, tuple[int, ...]]:
    """(net for a, rows) of board a against board b."""
    fa, fb = ref_foul(r, a), ref_foul(r, b)
    rows = []
    for row, (ra, rb) in enumerate(zip(_rows(a), _rows(b))):
        if fa or fb:  # R-FOUL-3/4
            rows.append(int(fb) - int(fa))
            continue
        key = low27_key if row == 1 and r.lowball is not None else hand_key
        ka, kb = key(ra), key(rb)
        rows.append((ka > kb) - (ka < kb) or ties)
    units = sum(
        (1 + _value(r.win_bonus, row, ra)) * (o > 0)
        - (1 + _value(r.win_bonus, row, rb)) * (o < 0)
        for row, (o, ra, rb) in enumerate(zip(rows, _rows(a), _rows(b)))
    )
    won_a, won_b = rows.count(1), rows.count(-1)
    counts = not (fa or fb) or r.foul_pays_sweep
    sweep_a, sweep_b = won_a == 3 and counts, won_b == 3 and counts

    def majority(won: int, lost: int) -> bool:
        return won > lost if r.majority_rule.value == "more_rows" else won >= 2

    bonus = 0
    if counts:
        bonus = (sweep_a - sweep_b) * r.sweep_bonus + (
            majority(won_a, won_b) - majority(won_b, won_a)
        ) * r.majority_bonus
    mult = 1
    if sweep_a:
        mult = r.sweep_all_multiplier if a_all else r.sweep_multiplier
    if sweep_b:
        mult = r.sweep_all_multiplier if b_all else r.sweep_multiplier
    net = (units + bonus) * mult + (sweep_a * a_all - sweep_b * b_all) * r.sweep_all_bonus
    net += sum(ref_royalties(r, a)) - sum(ref_royalties(r, b))
    net += ((net > 0) - (net < 0)) * r.overall_bonus
    return net, tuple(rows)


def _random_rules(rng: random.Random) -> ofc.RuleSet:
    base = rng.choice(PRESETS)
    if rng.random() < 0.3:
        return base
    options = {
        "order": ["strict", "nonstrict"],
        "majority_bonus": [0, 1, 2],
        "majority_rule": ["two_rows", "more_rows"],
        "overall_bonus": [0, 1, 2],
        "sweep_multiplier": [1, 2, 3],
        "sweep_all_multiplier": [1, 2, 3],
        "sweep_all_bonus": [0, 3],
        "foul_pays_sweep": [True, False],
        "sweep_bonus": [0, 3, 4],
    }
    return base.replace(
        **{k: rng.choice(v) for k, v in options.items() if rng.random() < 0.35}
    )


def _board(rng: random.Random, r: ofc.RuleSet, cards: list[int]) -> list[int]:
    """The cards as dealt, or (mostly) shuffled until a legal board shows up."""
    cards = list(cards)
    for _ in range(30 if rng.random() < 0.6 else 0):
        if not ref_foul(r, cards):
            break
        rng.shuffle(cards)
    return cards


def _mirror(rng: random.Random, board: list[int]) -> list[int] | None:
    """A board of the same ranks row by row in other suits (tied rows), or None."""
    out: list[int] = []
    for c in board:
        free = [c // 4 * 4 + s for s in range(4)]
        free = [x for x in free if x not in board and x not in out]
        if not free:
            return None
        out.append(rng.choice(free))
    return out


@pytest.mark.parametrize("seed", range(3))
def test_pair_scores_of_every_variant_match_the_reference(seed: int) -> None:
    rng = random.Random(17_000 + seed)
    for _ in range(700):
        r = _random_rules(rng)
        deck = rng.sample(range(52), 26)
        a = _board(rng, r, deck[:13])
        b = (_mirror(rng, a) if rng.random() < 0.3 else None) or _board(rng, r, deck[13:])
        ties, a_all, b_all = rng.choice([0, 0, 1, -1]), rng.random() < 0.3, False
        if not a_all:
            b_all = rng.random() < 0.3
        ea = evaluate_for_scoring(Board.from_cards(a), r)
        eb = evaluate_for_scoring(Board.from_cards(b), r)
        assert (ea.foul, list(ea.royalties)) == (ref_foul(r, a), ref_royalties(r, a))
        got = score_evaluated(ea, eb, r, ties, a_all, b_all)
        case = (r, Board.from_cards(a), Board.from_cards(b), ties, a_all, b_all)
        assert (got.net, got.rows) == ref_score(r, a, b, ties, a_all, b_all), case
        pair = ofc.score_pair(a, b, r)
        assert (pair.net, pair.rows) == ref_score(r, a, b), case


@pytest.mark.parametrize("preset", PRESETS, ids=lambda r: r.name)
def test_score_pairs_batch_matches_the_reference(preset: ofc.RuleSet) -> None:
    """Past 1,024 pairs the batch runs a kernel of its own for plain rule sets."""
    rng = random.Random(preset.name)
    n = 1100
    a = np.empty((n, 13), dtype=np.uint8)
    b = np.empty((n, 13), dtype=np.uint8)
    for i in range(n):
        deck = rng.sample(range(52), 26)
        a[i], b[i] = _board(rng, preset, deck[:13]), _board(rng, preset, deck[13:])
    net = ofc.score_pairs(a, b, preset)
    for i in range(0, n, 7):
        assert net[i] == ref_score(preset, a[i].tolist(), b[i].tolist())[0], i
