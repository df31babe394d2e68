"""Cards: ids ``4*rank + suit`` (2c = 0 ... As = 51), text in and out, treys interop.

>>> from ofc_fast import parse_card, parse_cards, card_str, cards_str
>>> parse_card("As"), parse_card("10h"), parse_card("kh")
(51, 34, 46)
>>> parse_cards("As Kd, 10h-2c")
[51, 45, 34, 0]
>>> cards_str([51, 45])
'As Kd'
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Mapping, Sequence
from operator import index
from typing import Any, SupportsIndex, TypeAlias, TypeGuard, cast, overload

from .errors import CardError, quote

__all__ = [
    "RANKS",
    "SUITS",
    "CardsLike",
    "card_str",
    "cards_str",
    "from_treys",
    "parse_card",
    "parse_cards",
    "to_treys",
]

RANKS = "23456789TJQKA"
SUITS = "cdhs"
_SUIT_SYMBOLS = {"♣": 0, "♧": 0, "♦": 1, "♢": 1, "♥": 2, "♡": 2, "♠": 3, "♤": 3}
_RANK_OF = {ch: i for i, ch in enumerate(RANKS.lower())}
_RANK_OF["10"] = 8
_SUIT_OF = {ch: i for i, ch in enumerate(SUITS)} | _SUIT_SYMBOLS
# ASCII case folding only: with Unicode folding "ſ" (U+017F) would match "s" and the
# Kelvin sign "K" would match "k"; separators are ASCII whitespace,
# commas and hyphens.  A suit symbol may carry its variation selector (U+FE0F emoji
# or U+FE0E text presentation: "A♠️" as phones and chat apps write it).
_TOKEN = re.compile(
    r"(10|[2-9tjqka])([cdhs♣♧♦♢♥♡♠♤])(?:(?<=[♣♧♦♢♥♡♠♤])[\ufe0e\ufe0f])?",
    re.IGNORECASE | re.ASCII,
)
_SPACE = " \t\n\r\f\v"
_SEPARATORS = re.compile(r"[\s,\-]+", re.ASCII)
_NAMES = [RANKS[c >> 2] + SUITS[c & 3] for c in range(52)]
_TEXT_TO_ID = {name.lower(): i for i, name in enumerate(_NAMES)}

#: Anything that names cards: text ("As Kd"), or a sequence of ids / card texts.
CardsLike: TypeAlias = str | Iterable[int | str]

_BAD_TEXT = "expected a rank 2-9, T, J, Q, K, A (or 10) and a suit c, d, h, s"


def _card_from_text(text: str) -> int:
    fast = _TEXT_TO_ID.get(text.lower()) if len(text) == 2 and text.isascii() else None
    if fast is not None:
        return fast
    m = _TOKEN.fullmatch(text.strip(_SPACE))
    if not m:
        raise CardError(f"bad card {quote(text)}: {_BAD_TEXT}")
    return 4 * _RANK_OF[m.group(1).lower()] + _SUIT_OF[m.group(2).lower()]


def _card_from_int(value: object) -> int:
    try:
        card = index(cast(SupportsIndex, value))  # anything: index() raises TypeError
    except TypeError:
        raise CardError(
            f"bad card {quote(value)}: expected an int id 0..51 or card text such as 'As'"
        ) from None
    if isinstance(value, bool) or not 0 <= card < 52:
        raise CardError(f"bad card id {quote(value)}: ids are 0..51 (2c = 0, As = 51)")
    return card


def parse_card(card: int | str) -> int:
    """Card id of one card given as text (``"As"``, ``"10d"``, ``"k♥"``) or id.

    Raises CardError for bad text or an id outside 0..51.

    >>> parse_card("Td")
    33
    """
    if isinstance(card, str):
        return _card_from_text(card)
    return _card_from_int(card)


def _split_text(text: str) -> list[int]:
    if text.isascii():  # the common form, "As Kd 2c": one lookup per card
        fast = [_TEXT_TO_ID.get(t) for t in text.strip(_SPACE).lower().split(" ")]
        if None not in fast:
            return cast("list[int]", fast)
    out: list[int] = []
    for chunk in _SEPARATORS.split(text.strip(_SPACE)):
        if not chunk:
            continue
        if len(chunk) == 2:
            out.append(_card_from_text(chunk))
            continue
        pos = 0
        for m in _TOKEN.finditer(chunk):  # concatenated cards, e.g. "AsKd"
            if m.start() != pos:
                break
            out.append(4 * _RANK_OF[m.group(1).lower()] + _SUIT_OF[m.group(2).lower()])
            pos = m.end()
        if pos != len(chunk):
            raise CardError(f"bad card {quote(chunk)} in {quote(text)}: {_BAD_TEXT}")
    return out


def check_card_ids(cards: Sequence[int], what: str = "cards") -> None:
    """Raise CardError when ``cards`` repeats a card."""
    if len(set(cards)) != len(cards):
        seen: set[int] = set()
        for c in cards:
            if c in seen:
                raise CardError(
                    f"duplicate card {_NAMES[c]} in {what} {quote(cards_str(cards))}"
                )
            seen.add(c)


def refuse_unordered(cards: object, any_order: bool = False) -> None:
    """Raise CardError for a mapping of cards (a dict gives its keys: always a
    mistake), for bytes (text not decoded: ``b"As"`` would be the ids 65 and 115)
    and, unless ``any_order``, for a set (its order is the hash order, which
    differs from process to process, where the order of the cards matters: rows,
    boards, moves, histories).

    >>> refuse_unordered({51, 47}, any_order=True)
    >>> refuse_unordered({51: "x"})
    Traceback (most recent call last):
    ...
    ofc_fast.errors.CardError: bad cards {51: 'x'}: a mapping is no list of cards (give a list or text)
    """  # noqa: E501 - the error message as the user sees it
    if isinstance(cards, Mapping):
        raise CardError(
            f"bad cards {quote(cards)}: a mapping is no list of cards (give a list or text)"
        )
    if isinstance(cards, (bytes, bytearray)):
        raise CardError(
            f"bad cards {quote(cards)}: bytes are no card text nor a list of cards "
            "(decode text first, .decode(), or give a list of ids)"
        )
    if not any_order and isinstance(cards, (set, frozenset)):
        raise CardError(
            f"bad cards {quote(cards)}: a set has no order, and the order of these "
            f"cards matters (give a list, a tuple or text)"
        )


def parse_cards(cards: CardsLike, *, any_order: bool = False) -> list[int]:
    """Card ids of several cards: text separated by spaces, commas or hyphens (or
    written together), or a sequence of ids / texts.  Repeated cards are an error.
    A set is accepted only with ``any_order`` (for a hand whose order does not
    matter), a mapping or bytes never (see :func:`refuse_unordered`).

    Raises CardError for bad text or ids, a repeated card, a mapping, bytes or a set.

    >>> parse_cards("Qh Qd 2c")
    [42, 41, 0]
    >>> parse_cards([51, "Kd"])
    [51, 45]
    """
    if isinstance(cards, str):
        out = _split_text(cards)
    else:
        if type(cards) is not list and type(cards) is not tuple:
            refuse_unordered(cards, any_order)
        try:
            items = list(cards)
        except TypeError:
            raise CardError(
                f"bad cards {quote(cards)}: expected text such as 'As Kd' "
                f"or a sequence of card ids"
            ) from None
        out = [parse_card(c) for c in items]
    check_card_ids(out)
    return out


def card_str(card: int) -> str:
    """Canonical text of a card id: ``51 -> "As"``.

    Raises CardError for anything but a card id 0..51.

    >>> card_str(33)
    'Td'
    """
    return _NAMES[_card_from_int(card)]


def cards_str(cards: Iterable[int]) -> str:
    """Canonical text of several card ids, space separated.

    Raises CardError for anything but a sequence of card ids 0..51.

    >>> cards_str([42, 41, 0])
    'Qh Qd 2c'
    """
    if not is_many(cards):
        raise CardError(f"bad cards {quote(cards)}: expected a sequence of card ids")
    return " ".join(
        [_NAMES[c] if type(c) is int and 0 <= c < 52 else card_str(c) for c in cards]
    )


# Cactus Kev / treys card ints: bits xxxbbbbb bbbbbbbb cdhsrrrr xxpppppp
# (b = one bit per rank, cdhs = suit bit, r = rank, p = rank prime).
_PRIMES = (2, 3, 5, 7, 11, 13, 17, 19, 23, 29, 31, 37, 41)
_KEV_SUIT_BIT = (8, 4, 2, 1)  # clubs, diamonds, hearts, spades
_TO_TREYS = [
    (1 << (16 + (c >> 2)))
    | (_KEV_SUIT_BIT[c & 3] << 12)
    | ((c >> 2) << 8)
    | _PRIMES[c >> 2]
    for c in range(52)
]
_FROM_TREYS = {v: c for c, v in enumerate(_TO_TREYS)}


@overload
def to_treys(cards: int) -> int: ...


@overload
# str is also an Iterable[str]: this overload comes first on purpose
def to_treys(cards: str) -> int | list[int]: ...  # type: ignore[overload-overlap]


@overload
def to_treys(cards: Iterable[int | str]) -> list[int]: ...


def to_treys(cards: CardsLike | int) -> int | list[int]:
    """Cactus Kev 32-bit ints (as used by treys / deuces): of one card (an id or text
    naming one card), an int; of a hand (text naming several cards, or a sequence),
    a list.

    Raises CardError for bad card text or ids, or a repeated card.

    >>> to_treys("Kd")
    134236965
    >>> to_treys("Kd 2c") == [to_treys("Kd"), to_treys(0)]
    True
    """
    if isinstance(cards, str):
        ids = parse_cards(cards)
        return _TO_TREYS[ids[0]] if len(ids) == 1 else [_TO_TREYS[c] for c in ids]
    if is_many(cards):
        return [_TO_TREYS[c] for c in parse_cards(cards)]
    return _TO_TREYS[parse_card(cast("int", cards))]  # one id, or a 0-d array of one


def is_many(value: object) -> TypeGuard[Iterable[Any]]:
    """Whether ``value`` holds items to read one by one: Iterable by type, but not
    text (str, bytes) nor a 0-d array (Iterable by type, yet one value).

    >>> is_many([1, 2]), is_many("As"), is_many(5)
    (True, False, False)
    """
    return (
        isinstance(value, Iterable)
        and not isinstance(value, (str, bytes))
        and getattr(value, "ndim", None) != 0
    )


def _from_treys_one(kev_card: object) -> int:
    try:
        return _FROM_TREYS[index(cast(SupportsIndex, kev_card))]  # TypeError if no int
    except (KeyError, TypeError):
        raise CardError(
            f"bad treys card {quote(kev_card)}: not a Cactus Kev card int"
        ) from None


@overload
def from_treys(kev_cards: int) -> int: ...


@overload
def from_treys(kev_cards: Iterable[int]) -> list[int]: ...


def from_treys(kev_cards: int | Iterable[int]) -> int | list[int]:
    """Card ids of Cactus Kev / treys card ints: of one int, an id; of a sequence
    (a treys hand), a list of ids (repeated cards are an error).

    Raises CardError for an int that is no Cactus Kev card, a repeated card, a mapping
    or a set (as :func:`to_treys`).

    >>> card_str(from_treys(134236965))
    'Kd'
    >>> cards_str(from_treys([134236965, 98306]))
    'Kd 2c'
    """
    if is_many(kev_cards):
        refuse_unordered(kev_cards)  # a hand's order is the ids' order, as to_treys'
        ids = [_from_treys_one(k) for k in kev_cards]
        check_card_ids(ids)
        return ids
    return _from_treys_one(kev_cards)
