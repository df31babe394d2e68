"""Hand ranking on one strength scale for 3-card and 5-card hands (larger = stronger).

>>> import ofc_fast as ofc
>>> ofc.rank3("Qh Qd 5c") > ofc.rank5("Qs Qc 4d 3h 2s")     # R-ORDER-2
True
>>> ofc.describe(ofc.rank5("Kh Kd Ks 7c 7d"))
'Kings full of Sevens'
>>> ofc.category(ofc.rank5("As Ks Qs Js Ts")).name
'ROYAL_FLUSH'
"""

from __future__ import annotations

from enum import IntEnum
from operator import index
from typing import Any, cast

import numpy as np
import numpy.typing as npt

from ._native import E_COUNT, lib
from ._native._fast import rank3 as _rank3_ids
from ._native._fast import rank5 as _rank5_ids
from .cards import RANKS, CardsLike, cards_str, parse_cards
from .errors import CardError, NamedLookup, StrengthError, quote

__all__ = [
    "STRENGTH_MAX",
    "HandCategory",
    "category",
    "describe",
    "hand_ranks",
    "kev_rank",
    "low27",
    "rank",
    "rank3",
    "rank5",
    "strength_cards",
    "strength_from_kev",
]

STRENGTH_MAX: int = lib.OFC_STRENGTH_MAX
"""Largest strength (a royal flush); strengths run 1..STRENGTH_MAX."""


class HandCategory(IntEnum, metaclass=NamedLookup, error=StrengthError):
    """Hand categories in ascending order; a royal flush is its own category.
    ``PAIR``, ``THREE_OF_A_KIND`` and ``FOUR_OF_A_KIND`` are other names of
    ``ONE_PAIR``, ``TRIPS`` and ``QUADS`` (the same members: a rule set reads
    ``"three of a kind"`` as ``TRIPS`` and writes ``TRIPS``).

    >>> category(rank5("As Ks Qs Js 9s")), HandCategory.FLUSH > HandCategory.STRAIGHT
    (<HandCategory.FLUSH: 5>, True)
    >>> HandCategory.THREE_OF_A_KIND
    <HandCategory.TRIPS: 3>
    """

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
    PAIR = 1  # other names (aliases): iteration, names and values are the ten above
    THREE_OF_A_KIND = 3
    FOUR_OF_A_KIND = 7


# Per-strength metadata, read once from the C tables and decoded here only.
STRENGTH_INFO: tuple[int, ...] = tuple(
    lib.ofc_strength_info(s) for s in range(STRENGTH_MAX + 1)
)
"""Per strength: the packed description of ``ofc_strength_info()`` (0 for 0)."""


def _read_only(a: npt.NDArray[Any]) -> npt.NDArray[Any]:
    a.flags.writeable = False
    return a


_INFO = np.array(STRENGTH_INFO, dtype=np.uint32)
STRENGTH_CARDS: npt.NDArray[Any] = _read_only((_INFO >> 24).astype(np.int8))
"""Per strength: 3 or 5 cards (0 for strength 0); read-only."""
STRENGTH_CATEGORY: npt.NDArray[Any] = _read_only(((_INFO >> 20) & 0xF).astype(np.int8))
"""Per strength: its :class:`HandCategory` value (0 for strength 0); read-only."""
STRENGTH_RANKS: npt.NDArray[Any] = _read_only(
    np.where(
        _INFO[:, None] != 0,
        np.stack([(_INFO >> sh) & 0xF for sh in (16, 12, 8, 4, 0)], axis=1),
        0xF,
    ).astype(np.int8)
)
"""Per strength: the five rank nibbles of its description in reading order (0..12,
15 = no card: a 3-card hand's last two, and all of strength 0); read-only.

>>> STRENGTH_RANKS[rank3("Qh Qd 5c")].tolist()
[10, 10, 3, 15, 15]
"""
_NCARDS = STRENGTH_CARDS.tolist()
_MEMBERS = list(HandCategory)  # by value: indexing it is HandCategory(c), 10x cheaper
_CATEGORY = [
    _MEMBERS[c] if n else None for n, c in zip(_NCARDS, STRENGTH_CATEGORY.tolist())
]
# A hand's ranks are its first n nibbles (the others 0xF): whole columns zipped into
# rows and cut, 4x cheaper than filtering each row (import time).
_RANKS_OF = [r[:n] for r, n in zip(zip(*STRENGTH_RANKS.T.tolist()), _NCARDS)]

_rank = lib.ofc_rank


def _rank_any(cards: object, expect: int) -> int:
    """Rank anything card-like with ``expect`` cards, or raise CardError."""
    ids: list[int] | tuple[int, ...]
    if (type(cards) is list or type(cards) is tuple) and all(type(c) is int for c in cards):
        ids = cards
    else:  # text, numpy arrays, iterators, bools, anything odd: parse and validate
        ids = parse_cards(cast(CardsLike, cards), any_order=True)  # a hand: checks it
    s: int
    try:
        s = _rank(ids, len(ids), expect)
    except OverflowError:  # an int beyond 32 bits
        s = _rank(parse_cards(ids, any_order=True), len(ids), expect)
    if s > 0:
        return s
    if s == E_COUNT:
        raise CardError(f"expected {expect} cards, got {len(ids)}: {quote(cards)}")
    parse_cards(ids, any_order=True)  # raises the specific CardError
    raise CardError(f"bad cards {quote(cards)}")  # pragma: no cover - raised above


def rank5(cards: CardsLike) -> int:
    """Strength of a 5-card hand: text (``"As Ks Qs Js Ts"``) or five card ids.

    A list or tuple of five distinct int ids is the fast path (one C call).

    Raises CardError for bad cards, a repeated card or another number of cards.

    >>> rank5("As Ks Qs Js Ts") == STRENGTH_MAX
    True
    """
    s: int = _rank5_ids(cards)  # -1: not five distinct int ids
    return s if s >= 0 else _rank_any(cards, 5)


def rank3(cards: CardsLike) -> int:
    """Strength of a 3-card front hand, on the 5-card scale (R-ORDER-2).

    Raises CardError for bad cards, a repeated card or another number of cards.

    >>> rank3("Kh Kd 3c") > rank3("Ks Kc 2d")      # R-RANK-8: K-K-3 beats K-K-2
    True
    """
    s: int = _rank3_ids(cards)  # -1: not three distinct int ids
    return s if s >= 0 else _rank_any(cards, 3)


def rank(cards: CardsLike) -> int:
    """Strength of a 3-card or 5-card hand, whichever ``cards`` holds.

    Raises CardError for bad cards, a repeated card or another number of cards.

    >>> rank("Ah Ad Ac") > rank("Ks Kc Kd 2c 2d")
    False
    """
    ids = parse_cards(cards, any_order=True)
    if len(ids) not in (3, 5):
        raise CardError(f"expected 3 or 5 cards, got {len(ids)}: {quote(cards_str(ids))}")
    s: int = _rank(ids, len(ids), 0)
    return s


def _check_strength(strength: int) -> int:
    if isinstance(strength, bool):  # True == 1 is no strength
        raise StrengthError(f"bad strength {strength!r}: expected an int, not a bool")
    try:
        s = index(strength)
    except TypeError:
        raise StrengthError(f"bad strength {quote(strength)}: expected an int") from None
    if not 1 <= s <= STRENGTH_MAX:
        raise StrengthError(
            f"bad strength {quote(strength)}: strengths are 1..{STRENGTH_MAX}"
        )
    return s


def category(strength: int) -> HandCategory:
    """Category of a strength.

    Raises StrengthError for anything but a strength 1..STRENGTH_MAX.

    >>> category(rank3("7h 7d 7c")).name
    'TRIPS'
    """
    # every strength 1..STRENGTH_MAX has a category (only index 0 is None)
    return _CATEGORY[_check_strength(strength)]  # type: ignore[return-value]


def strength_cards(strength: int) -> int:
    """5 for a 5-card strength, 3 for a 3-card (front) strength.

    Raises StrengthError for anything but a strength 1..STRENGTH_MAX.

    >>> strength_cards(rank3("Ah Kd 2c"))
    3
    """
    return int(_NCARDS[_check_strength(strength)])


def hand_ranks(strength: int) -> tuple[int, ...]:
    """Ranks (0 = deuce .. 12 = ace) of the hand class, in reading order:
    ``"K K K 7 7"``; a wheel reads ``5 4 3 2 A``.

    Raises StrengthError for anything but a strength 1..STRENGTH_MAX.

    >>> hand_ranks(rank5("7c Kh 7d Kd Ks"))
    (11, 11, 11, 5, 5)
    """
    return _RANKS_OF[_check_strength(strength)]


def kev_rank(strength: int) -> int:
    """Cactus Kev number of a 5-card strength: 1 (royal flush) .. 7462 (7-5-4-3-2),
    lower = stronger, as in treys and phevaluator.

    Raises StrengthError for anything but a 5-card strength.

    >>> kev_rank(rank5("As Ks Qs Js Ts")), kev_rank(rank5("7c 5d 4h 3s 2c"))
    (1, 7462)
    """
    s = _check_strength(strength)
    if _NCARDS[s] != 5:
        raise StrengthError(
            f"strength {s} is a 3-card hand: Cactus Kev numbers exist for 5-card hands only"
        )
    kev: int = lib.ofc_kev_rank(s)
    return kev


def strength_from_kev(kev: int) -> int:
    """Strength of a Cactus Kev number (inverse of :func:`kev_rank`).

    Raises StrengthError for anything but a Cactus Kev number 1..7462.

    >>> strength_from_kev(1) == STRENGTH_MAX
    True
    """
    try:
        k = index(kev) if not isinstance(kev, bool) else 0
    except TypeError:
        k = 0
    s: int = lib.ofc_strength_from_kev(k) if 1 <= k <= 7462 else 0
    if not s:
        raise StrengthError(f"bad Cactus Kev number {quote(kev)}: expected 1..7462")
    return s


def low27(strength: int) -> int:
    """2-7 lowball value of a 5-card strength, larger = better low hand (7-5-4-3-2
    unsuited = 7462); the ace is always high and A-2-3-4-5 is no straight (R-27-2).

    Raises StrengthError for anything but a 5-card strength.

    >>> low27(rank5("7c 5d 4h 3s 2c"))
    7462
    >>> low27(rank5("Ac 2d 3h 4s 5c")) < low27(rank5("Kc 2d 3h 4s 5c"))
    True
    """
    s = _check_strength(strength)
    if _NCARDS[s] != 5:
        raise StrengthError(
            f"strength {s} is a 3-card hand: 2-7 values exist for 5-card hands only"
        )
    low: int = lib.ofc_low27(s)
    return low


_NAME = [
    "Two",
    "Three",
    "Four",
    "Five",
    "Six",
    "Seven",
    "Eight",
    "Nine",
    "Ten",
    "Jack",
    "Queen",
    "King",
    "Ace",
]
_PLURAL = [n + ("es" if n == "Six" else "s") for n in _NAME]


def _kickers(ranks: tuple[int, ...]) -> str:
    if not ranks:
        return ""
    word = "kicker" if len(ranks) == 1 else "kickers"
    return ", " + " ".join(RANKS[r] for r in ranks) + " " + word


def describe(strength: int) -> str:
    """Readable name of a strength.

    Raises StrengthError for anything but a strength 1..STRENGTH_MAX.

    >>> describe(rank3("Qh Qd 5c"))
    'Pair of Queens, 5 kicker'
    >>> describe(rank5("9h 8h 7h 6h 5h"))
    'Nine-high straight flush'
    """
    s = _check_strength(strength)
    cat, r = _CATEGORY[s], _RANKS_OF[s]
    if cat is HandCategory.ROYAL_FLUSH:
        return "Royal flush"
    if cat is HandCategory.STRAIGHT_FLUSH:
        return f"{_NAME[r[0]]}-high straight flush"
    if cat is HandCategory.QUADS:
        return f"Four {_PLURAL[r[0]]}{_kickers(r[4:])}"
    if cat is HandCategory.FULL_HOUSE:
        return f"{_PLURAL[r[0]]} full of {_PLURAL[r[3]]}"
    if cat is HandCategory.FLUSH:
        return f"{_NAME[r[0]]}-high flush, " + " ".join(RANKS[x] for x in r)
    if cat is HandCategory.STRAIGHT:
        return f"{_NAME[r[0]]}-high straight"
    if cat is HandCategory.TRIPS:
        return f"Three {_PLURAL[r[0]]}{_kickers(r[3:])}"
    if cat is HandCategory.TWO_PAIR:
        return f"{_PLURAL[r[0]]} and {_PLURAL[r[2]]}{_kickers(r[4:])}"
    if cat is HandCategory.ONE_PAIR:
        return f"Pair of {_PLURAL[r[0]]}{_kickers(r[2:])}"
    return f"{_NAME[r[0]]} high{_kickers(r[1:])}"
