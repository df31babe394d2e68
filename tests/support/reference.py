"""Independent pure-Python reference for poker hand order, written from the rules.

This module deliberately does not import ofc_fast and shares no code or tables with
it: it is what the library's C tables are checked against.  It is meant to be read
and checked by eye, so it favours plain code over speed (the only speed-up is an
``lru_cache`` on a pure function of the sorted ranks and the flush flag).

Cards are ids ``4*rank + suit``: rank 0..12 = 2, 3, ..., K, A; suit 0..3 = c, d, h, s.

Rules encoded here (docs/rules.md sections 1-2):

* R-RANK-1: categories, low to high: high card, one pair, two pair, trips, straight,
  flush, full house, quads, straight flush, royal flush.
* R-RANK-2: a royal flush is its own category, but compares as the top straight flush.
* R-RANK-3: ace is high, and may play low in A-2-3-4-5, the lowest straight (its top
  card is the five).
* R-RANK-4 / R-RANK-6: within a category, compare the rank groups, largest group
  first (quads before kicker, trips before pair, high pair before low pair before
  kicker, ...), higher rank first among groups of equal size; straights compare by
  their top card only.
* R-DECK-2: suits never break a tie (only "all five suited" matters).
* R-RANK-5: a 3-card hand is trips, pair or high card: no straights, no flushes.
* R-ORDER-2 and docs/design.md (Strength): a 3-card hand compares with a 5-card hand as if its two
  missing kickers were below a deuce (so Q-Q-5 > Q-Q-4-3-2 and Q-Q-5 < Q-Q-5-3-2).
* R-27-2: in 2-7 lowball the ace is always high (A-2-3-4-5 is just ace-high), straights
  and flushes count, and the lower high-poker hand is the better low hand.
"""

from __future__ import annotations

from collections import Counter
from functools import cache

RANK_CHARS = "23456789TJQKA"
SUIT_CHARS = "cdhs"

HIGH_CARD = 0
ONE_PAIR = 1
TWO_PAIR = 2
TRIPS = 3
STRAIGHT = 4
FLUSH = 5
FULL_HOUSE = 6
QUADS = 7
STRAIGHT_FLUSH = 8
ROYAL_FLUSH = 9

CATEGORY_NAMES = (
    "HIGH_CARD",
    "ONE_PAIR",
    "TWO_PAIR",
    "TRIPS",
    "STRAIGHT",
    "FLUSH",
    "FULL_HOUSE",
    "QUADS",
    "STRAIGHT_FLUSH",
    "ROYAL_FLUSH",
)

ACE = 12
FIVE = 3
MISSING = -1  # a missing kicker of a 3-card hand: below a deuce (R-ORDER-2)


def card_id(text: str) -> int:
    """Card id of two-character text such as ``"As"`` (reference helper for tests)."""
    return 4 * RANK_CHARS.index(text[0].upper()) + SUIT_CHARS.index(text[1].lower())


def card_ids(text: str) -> list[int]:
    """Card ids of space separated two-character cards: ``"Qh Qd 5c"``."""
    return [card_id(t) for t in text.split()]


def _ranks_and_flush(cards) -> tuple[tuple[int, ...], bool]:
    """Ranks sorted high to low, and whether this is a 5-card hand of one suit."""
    cards = [int(c) for c in cards]
    if len(cards) not in (3, 5):
        raise ValueError(f"expected 3 or 5 cards, got {len(cards)}")
    if len(set(cards)) != len(cards) or not all(0 <= c < 52 for c in cards):
        raise ValueError(f"bad or repeated card ids: {cards}")
    ranks = tuple(sorted((c // 4 for c in cards), reverse=True))
    suits = {c % 4 for c in cards}
    flush = len(cards) == 5 and len(suits) == 1  # R-RANK-5: no 3-card flushes
    return ranks, flush


def _straight_top(ranks: tuple[int, ...], ace_can_be_low: bool):
    """Top rank of a straight made by five ranks (sorted high to low), else None."""
    if len(ranks) != 5 or len(set(ranks)) != 5:
        return None
    if ranks[0] - ranks[4] == 4:  # five distinct consecutive ranks
        return ranks[0]
    if ace_can_be_low and ranks == (ACE, FIVE, 2, 1, 0):  # A-5-4-3-2: the wheel
        return FIVE
    return None


@cache
def _classify(ranks: tuple[int, ...], flush: bool, ace_can_be_low: bool):
    """(category, tie-break ranks) of a hand given its ranks (high to low) and flush flag.

    The tie-break lists the ranks group by group: bigger groups first, and among
    groups of the same size the higher rank first, each rank repeated as often as it
    occurs (K-K-K-7-7 -> (K, K, K, 7, 7); 9-9-4-4-A -> (9, 9, 4, 4, A)).  Straights use
    just their top card.
    """
    count = Counter(ranks)
    groups = sorted(((n, r) for r, n in count.items()), reverse=True)
    shape = [n for n, _ in groups]
    ordered = tuple(r for n, r in groups for _ in range(n))

    if len(ranks) == 3:  # R-RANK-5
        if shape == [3]:
            return TRIPS, ordered
        if shape == [2, 1]:
            return ONE_PAIR, ordered
        return HIGH_CARD, ordered

    top = _straight_top(ranks, ace_can_be_low)
    if top is not None and flush:
        return (ROYAL_FLUSH if top == ACE else STRAIGHT_FLUSH), (top,)
    if shape == [4, 1]:
        return QUADS, ordered
    if shape == [3, 2]:
        return FULL_HOUSE, ordered
    if flush:
        return FLUSH, ordered
    if top is not None:
        return STRAIGHT, (top,)
    if shape == [3, 1, 1]:
        return TRIPS, ordered
    if shape == [2, 2, 1]:
        return TWO_PAIR, ordered
    if shape == [2, 1, 1, 1]:
        return ONE_PAIR, ordered
    return HIGH_CARD, ordered


def _order_key(cat: int, tiebreak: tuple[int, ...]) -> tuple[int, ...]:
    """Comparable key: a royal flush compares as a straight flush (R-RANK-2), and the
    tie-break is padded to five entries with MISSING (below a deuce)."""
    compare_cat = STRAIGHT_FLUSH if cat == ROYAL_FLUSH else cat
    return (compare_cat,) + tiebreak + (MISSING,) * (5 - len(tiebreak))


def category(cards) -> int:
    """Category 0 (high card) .. 9 (royal flush) of a 3- or 5-card hand."""
    ranks, flush = _ranks_and_flush(cards)
    return _classify(ranks, flush, True)[0]


def hand_key(cards) -> tuple[int, ...]:
    """Ordering key of a 3- or 5-card hand: larger = stronger; equal = tie.

    Keys of 3-card and 5-card hands compare with each other on one scale (R-ORDER-2):
    ``hand_key(QQ5) > hand_key(QQ432)`` and ``hand_key(QQ5) < hand_key(QQ532)``.
    """
    ranks, flush = _ranks_and_flush(cards)
    return _order_key(*_classify(ranks, flush, True))


def kev_order_key(cards5) -> tuple[int, ...]:
    """Key whose descending dense rank is the Cactus Kev number (1 = royal flush ..
    7462 = 7-5-4-3-2 offsuit): the Kev order is plain 5-card high-poker order."""
    if len(cards5) != 5:
        raise ValueError("Cactus Kev numbers exist for 5-card hands only")
    return hand_key(cards5)


def low27_key(cards5) -> tuple[int, ...]:
    """2-7 lowball key of a 5-card hand, larger = better low hand (R-27-2).

    The high-poker order with the ace always high (A-2-3-4-5 is no straight, just
    ace-high), reversed: the weakest high hand (7-5-4-3-2 offsuit) is the best low.
    """
    if len(cards5) != 5:
        raise ValueError("2-7 values exist for 5-card hands only")
    ranks, flush = _ranks_and_flush(cards5)
    key = _order_key(*_classify(ranks, flush, False))
    return tuple(-x for x in key)


def dense_ranks(keys) -> list[int]:
    """Dense rank (0 = smallest) of each key among ``keys``: equal keys share a rank."""
    order = {k: i for i, k in enumerate(sorted(set(keys)))}
    return [order[k] for k in keys]
