"""Independent pure-Python reference for the naturals (13-card special hands).

This module does not import ofc_fast and shares no code with it; it is written from
docs/rules.md section 9 (R-NAT-4, R-NAT-5, R-NAT-7, R-VAR-NOPIC-1) and the definitions
chosen for open question Q-8 (documented in csrc/include/ofc_naturals.h), and favours plain,
checkable code over speed.

Cards are ids ``4*rank + suit``: rank 0..12 = 2, 3, ..., K, A; suit 0..3 = c, d, h, s;
diamonds and hearts are red, clubs and spades black.

* The split naturals (three straights, three flushes, three straight flushes) are
  found by brute force over every split of the 13 cards into front 3 / middle 5 /
  back 5 (286 * 252 = 72,072 splits).  A split whose front already fails every split
  natural cannot qualify, so its 252 middles are skipped (the same answer, faster).
* Every other natural is decided by counting ranks, suits and colours.

Tie-break keys are plain tuples compared by Python's tuple order (R-NAT-5):
six pairs = (pair ranks from the highest down ..., odd card); three straights and
three straight flushes = (back top, middle top, front top), the wheel's top card being
the 5 and A-2-3's the 3; three flushes = (back ranks high to low, middle ..., front
...).  Naturals without a tie-break have the key ().
"""

from __future__ import annotations

from collections import Counter
from functools import cache
from itertools import combinations

NAMES = (
    "six_pairs",
    "three_straights",
    "three_flushes",
    "five_pairs_trips",
    "four_trips",
    "twelve_one_colour",
    "one_colour",
    "small_2_8",
    "small_2_9",
    "small_2_10",
    "big_8_a",
    "three_quads",
    "three_straight_flushes",
    "twelve_pictures",
    "dragon",
    "one_suit",
    "no_pictures",
)

ACE = 12
JACK, QUEEN, KING = 9, 10, 11
RED_SUITS = (1, 2)


def rank_of(card: int) -> int:
    return card // 4


def suit_of(card: int) -> int:
    return card % 4


def run_top(ranks: list[int]) -> int | None:
    """Top card of a run of consecutive ranks (3 or 5 cards), the ace playing high
    (Q-K-A, T-J-Q-K-A) or low (A-2-3, A-2-3-4-5; then the top is the 3 or the 5);
    None when the ranks are not such a run.  No wrap-around (K-A-2 is no run)."""
    return _run_top(tuple(sorted(ranks)))


@cache
def _run_top(ranks: tuple[int, ...]) -> int | None:
    """run_top() of ranks sorted low to high."""
    s, n = list(ranks), len(ranks)
    if len(set(s)) != n:
        return None
    if s == list(range(s[0], s[0] + n)):
        return s[-1]
    low_ace = [ACE] + list(range(0, n - 1))  # A-2-3 / A-2-3-4-5
    if sorted(low_ace) == s:
        return n - 2  # the 3 (rank 1) or the 5 (rank 3)
    return None


def suited(cards: tuple[int, ...]) -> bool:
    return len({suit_of(c) for c in cards}) == 1


def high_to_low(cards: tuple[int, ...]) -> tuple[int, ...]:
    return tuple(sorted((rank_of(c) for c in cards), reverse=True))


def _row_info(row: tuple[int, ...]) -> tuple:
    """(run top or None, all one suit, the cards, ranks high to low) of one row."""
    return run_top([rank_of(c) for c in row]), suited(row), row, high_to_low(row)


def _split_naturals(front: tuple, middle: tuple, back: tuple) -> dict[str, tuple]:
    """The split naturals shown by rows given as _row_info() triples, with keys."""
    (
        (f_top, f_suited, _, f_ranks),
        (m_top, m_suited, _, m_ranks),
        (b_top, b_suited, _, b_ranks),
    ) = front, middle, back
    out: dict[str, tuple] = {}
    straights = None not in (f_top, m_top, b_top)
    flushes = f_suited and m_suited and b_suited
    if straights:
        out["three_straights"] = (b_top, m_top, f_top)
    if flushes:
        out["three_flushes"] = (b_ranks, m_ranks, f_ranks)
    if straights and flushes:
        out["three_straight_flushes"] = (b_top, m_top, f_top)
    return out


def split_keys(
    front: tuple[int, ...], middle: tuple[int, ...], back: tuple[int, ...]
) -> dict[str, tuple]:
    """The split naturals one split (front 3, middle 5, back 5) shows, with keys."""
    assert (len(front), len(middle), len(back)) == (3, 5, 5)
    return _split_naturals(_row_info(front), _row_info(middle), _row_info(back))


def _subsets(k: int, exclude: int = 0) -> list[tuple[int, tuple[int, ...]]]:
    """(mask, positions) of every k-subset of the positions 0..12 outside `exclude`."""
    free = [p for p in range(13) if not exclude >> p & 1]
    return [(sum(1 << p for p in combo), combo) for combo in combinations(free, k)]


# A hand's 13 cards are put in a fixed order; position i holds card i.  Every split of
# the 13 positions: front mask -> [(middle mask, back mask), ...] (286 * 252).
_ALL = (1 << 13) - 1
SUBSETS = {3: _subsets(3), 5: _subsets(5)}
SPLITS: dict[int, list[tuple[int, int]]] = {
    front: [(middle, _ALL & ~front & ~middle) for middle, _ in _subsets(5, front)]
    for front, _ in SUBSETS[3]
}
assert len(SUBSETS[3]) == 286 and len(SUBSETS[5]) == 1287
assert sum(len(v) for v in SPLITS.values()) == 72_072


def best_splits(cards: list[int]) -> dict[str, tuple[tuple, list]]:
    """For each split natural the cards make: (best key, every split with that key).

    Every one of the 72,072 splits is tried.  To make that affordable each 3- and
    5-card subset is examined once (is it a run? all one suit?) and a row that is
    neither cannot be part of a split natural, so a split holding one is passed over
    at once (and a front that is neither skips its 252 middles)."""
    assert len(cards) == 13 and len(set(cards)) == 13
    cards = sorted(cards)
    good: dict[int, tuple] = {}  # subset mask -> _row_info() of a run or suited row
    for k in (3, 5):
        for mask, positions in SUBSETS[k]:
            info = _row_info(tuple(cards[p] for p in positions))
            if info[0] is not None or info[1]:
                good[mask] = info
    best: dict[str, tuple[tuple, list]] = {}
    for front, middles in SPLITS.items():
        if front not in good:
            continue
        for middle, back in middles:
            if middle not in good or back not in good:
                continue
            rows = (good[front], good[middle], good[back])
            for name, key in _split_naturals(*rows).items():
                split = tuple(r[2] for r in rows)
                old = best.get(name)
                if old is None or key > old[0]:
                    best[name] = (key, [split])
                elif key == old[0]:
                    old[1].append(split)
    return best


def six_pairs_key(counts: Counter) -> tuple | None:
    """Six pairs + an odd card: a four of a kind is two pairs, a three of a kind a
    pair and an odd card (Q-8).  Key: pair ranks high to low, then the odd card."""
    pairs = []
    odd = []
    for r in sorted(counts, reverse=True):
        pairs += [r] * (counts[r] // 2)
        odd += [r] * (counts[r] % 2)
    if len(pairs) != 6:
        return None
    return tuple(pairs) + tuple(odd)


def five_pairs_trips(counts: Counter) -> bool:
    """Some three cards of one rank leave cards that pair off completely (five pairs,
    a four of a kind counting as two)."""
    for r, n in counts.items():
        if n >= 3:
            left = counts.copy()
            left[r] -= 3
            if all(v % 2 == 0 for v in left.values()):
                return True
    return False


def naturals(cards: list[int]) -> dict[str, tuple]:
    """Every natural of 13 distinct cards -> its reference tie-break key."""
    assert len(cards) == 13 and len(set(cards)) == 13 and all(0 <= c < 52 for c in cards)
    ranks = [rank_of(c) for c in cards]
    counts = Counter(ranks)
    suits = Counter(suit_of(c) for c in cards)
    red = sum(1 for c in cards if suit_of(c) in RED_SUITS)
    black = 13 - red
    out: dict[str, tuple] = {}

    key = six_pairs_key(counts)
    if key is not None:
        out["six_pairs"] = key
    if five_pairs_trips(counts):
        out["five_pairs_trips"] = ()
    if sum(1 for n in counts.values() if n >= 3) >= 4:
        out["four_trips"] = ()
    if sum(1 for n in counts.values() if n == 4) >= 3:
        out["three_quads"] = ()
    if max(red, black) >= 12:
        out["twelve_one_colour"] = ()
    if max(red, black) == 13:
        out["one_colour"] = ()
    if max(ranks) <= 6:  # 8
        out["small_2_8"] = ()
    if max(ranks) <= 7:  # 9
        out["small_2_9"] = ()
    if max(ranks) <= 8:  # 10
        out["small_2_10"] = ()
    if min(ranks) >= 6:  # 8
        out["big_8_a"] = ()
    if all(counts[r] == 4 for r in (JACK, QUEEN, KING)):
        out["twelve_pictures"] = ()
    if sorted(ranks) == list(range(13)):
        out["dragon"] = ()
    if max(suits.values()) == 13:
        out["one_suit"] = ()
    if not any(r in (JACK, QUEEN, KING) for r in ranks):
        out["no_pictures"] = ()
    for name, (key, _) in best_splits(cards).items():
        out[name] = key
    return out
