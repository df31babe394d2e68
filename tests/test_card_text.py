"""Card text: the one-lookup-per-card path of ``parse_cards`` (plain "As Kd 2c" text)
gives what the general tokenizer gives, for every text, and ``cards_str`` of ids
whatever their form."""

from __future__ import annotations

import re
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from ofc_fast import (
    STRENGTH_MAX,
    Board,
    CardError,
    cards_str,
    from_treys,
    parse_cards,
    rank,
    rank3,
    rank5,
    to_treys,
)
from ofc_fast.cards import RANKS, SUITS

_TOKEN = re.compile(  # a suit symbol may carry a variation selector: "A♠\ufe0f"
    r"(10|[2-9tjqka])(?:([cdhs])|([♣♧♦♢♥♡♠♤])[\ufe0e\ufe0f]?)", re.IGNORECASE | re.ASCII
)
_SEPARATORS = re.compile(r"[\s,\-]+", re.ASCII)
_SPACE = " \t\n\r\f\v"
_RANK = {ch: i for i, ch in enumerate(RANKS.lower())} | {"10": 8}
_SUIT = {ch: i for i, ch in enumerate(SUITS)} | dict(
    zip("♣♧♦♢♥♡♠♤", (0, 0, 1, 1, 2, 2, 3, 3))
)


def reference(text: str) -> list[int]:
    """The documented card text grammar, token by token (no fast path)."""
    out: list[int] = []
    for chunk in _SEPARATORS.split(text.strip(_SPACE)):
        pos = 0
        for m in _TOKEN.finditer(chunk):
            if m.start() != pos:
                break
            out.append(4 * _RANK[m.group(1).lower()] + _SUIT[(m[2] or m[3]).lower()])
            pos = m.end()
        if pos != len(chunk):
            raise CardError(chunk)
    if len(set(out)) != len(out):
        raise CardError("duplicate")
    return out


def outcome(f: object, text: str) -> list[int] | str:
    try:
        return f(text)  # type: ignore[operator, no-any-return]
    except CardError:
        return "CardError"


# Characters near the fast path's edges: separators it does not split on (tab,
# comma, hyphen, ASCII and Unicode control / space characters str.split would
# take), case, "10", suit symbols and variation selectors, the Kelvin sign (lowercases
# to "k").
ALPHABET = (
    "AKQT2s" + "hdc" + "10 " + "\t\n,-" + "\x1c\x1f\x85\xa0\u2003" + "♠\u212a" + "\ufe0f"
)


@settings(max_examples=400, deadline=None)
@given(st.text(alphabet=ALPHABET, max_size=14))
def test_parse_cards_equals_the_general_tokenizer(text: str) -> None:
    assert outcome(parse_cards, text) == outcome(reference, text)


@settings(max_examples=200, deadline=None)
@given(st.lists(st.integers(0, 51), unique=True, max_size=13), st.booleans())
def test_plain_text_round_trips(ids: list[int], lower: bool) -> None:
    text = cards_str(ids)
    assert parse_cards(text.lower() if lower else text) == ids
    assert parse_cards(f"  {text}\t") == ids


def test_cards_str_checks_every_id_whatever_its_form() -> None:
    assert cards_str([51, 0]) == "As 2c"
    assert cards_str(c for c in (51, 0)) == "As 2c"
    for bad in ([True], [52], [-1], ["As"], [1.0]):
        with pytest.raises(CardError):
            cards_str(bad)  # type: ignore[arg-type]


def test_suit_symbols_in_emoji_presentation() -> None:
    """A suit symbol followed by its variation selector (U+FE0F emoji, U+FE0E text
    presentation: what phones and chat apps put after ♠♥♦♣) is that suit; a selector
    anywhere else is still bad text."""
    assert parse_cards("A\u2660\ufe0f K\u2665\ufe0f") == [51, 46]
    assert parse_cards("10\u2666\ufe0f2\u2663\ufe0e") == [33, 0]
    assert parse_cards("Q\u2661\ufe0f, J\u2664\ufe0f") == [42, 39]
    for bad in ("As\ufe0f", "A\ufe0f\u2660", "A\u2660\ufe0f\ufe0f", "\ufe0f"):
        with pytest.raises(CardError):
            parse_cards(bad)


def test_a_mapping_of_cards_is_refused_everywhere() -> None:
    """A dict gave its keys: ``Board.from_cards({...})`` or ``rank5({51: "x", ...})``
    read the keys as the cards; a mapping of cards is always a mistake."""
    hand = {51: "a", 47: "b", 43: "c", 39: "d", 35: "e"}
    for call in (
        lambda: parse_cards(hand),
        lambda: rank5(hand),
        lambda: Board(hand),
        lambda: Board.from_cards(dict.fromkeys(range(13))),
    ):
        with pytest.raises(CardError, match="a mapping is no list of cards"):
            call()


def test_a_set_is_refused_where_order_matters_and_read_where_it_does_not() -> None:
    """A set's order is the hash order: ``Board.from_cards`` of a set built rows that
    differ from process to process.  Rows and boards refuse it; a hand's rank, whose
    order does not matter, reads it."""
    cards = [2, 7, 11, 17, 23, 26, 30, 33, 38, 42, 45, 48, 51]
    for call in (
        lambda: parse_cards(set(cards)),
        lambda: Board.from_cards(set(cards)),
        lambda: Board(frozenset(cards[:3])),
    ):
        with pytest.raises(CardError, match="a set has no order, and the order"):
            call()
    royal = [51, 47, 43, 39, 35]  # As Ks Qs Js Ts
    assert rank5(set(royal)) == rank5(royal) == STRENGTH_MAX
    assert rank3(frozenset([51, 50, 49])) == rank3("As Ah Ad")
    assert rank(set(royal)) == STRENGTH_MAX


@pytest.mark.parametrize(
    "cards", [b"As Kd 2c", bytes([51, 47, 43, 39, 35]), bytearray([51, 50, 49])]
)
@pytest.mark.parametrize("call", [parse_cards, rank, rank5, rank3, Board, Board.from_cards])
def test_bytes_are_refused_as_cards_everywhere(cards: bytes, call: Any) -> None:
    r"""Bytes were read as card ids: ``parse_cards(b"As Kd")`` (text read in binary
    mode) said "bad card id 65", and ``rank3(b"\x00\x01\x02")`` ranked 2c 2d 2h,
    while ``to_treys``, ``cards_str`` and ``Board.parse`` refused bytes.  They are no
    card text nor a list of cards: a CardError saying to decode them."""
    with pytest.raises(CardError, match=r"bytes .*decode"):
        call(cards)
    assert parse_cards(b"As Kd 2c".decode()) == [51, 45, 0]
    assert rank5(list(b"\x33\x2f\x2b\x27\x23")) == STRENGTH_MAX  # As Ks Qs Js Ts ids


def test_from_treys_refuses_a_mapping_or_a_set_as_to_treys_does() -> None:
    """``from_treys`` read a dict's keys as the treys hand and a set in its hash order
    (``{Kd, 2c}`` gave ``[0, 45]``: 2c first), where ``to_treys`` of the same dict or
    set of ids is a CardError; both now refuse them alike.  The Cactus Kev ints are
    written here from their bit layout (rank bit, suit bit, rank, prime)."""
    kd = (1 << (16 + 11)) | (4 << 12) | (11 << 8) | 37  # Kd: rank 11, diamonds, prime 37
    c2 = (1 << 16) | (8 << 12) | (0 << 8) | 2  # 2c: rank 0, clubs, prime 2
    with pytest.raises(CardError, match="a mapping is no list of cards"):
        from_treys({kd: "x", c2: "y"})
    with pytest.raises(CardError, match="a mapping is no list of cards"):
        to_treys({45: "x", 0: "y"})
    for unordered in ({kd, c2}, frozenset([kd])):
        with pytest.raises(CardError, match="a set has no order"):
            from_treys(unordered)
    with pytest.raises(CardError, match="a set has no order"):
        to_treys({45, 0})
    assert from_treys([kd, c2]) == [45, 0] and from_treys((c2,)) == [0]
    assert from_treys(iter([c2, kd])) == [0, 45] and from_treys(kd) == 45
