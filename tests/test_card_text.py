"""Card text: the one-lookup-per-card path of ``parse_cards`` (plain "As Kd 2c" text)
gives what the general tokenizer gives, for every text, and ``cards_str`` of ids
whatever their form."""

from __future__ import annotations

import re

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from ofc_fast import CardError, cards_str, parse_cards
from ofc_fast.cards import RANKS, SUITS

_TOKEN = re.compile(r"(10|[2-9tjqka])([cdhs♣♧♦♢♥♡♠♤])", re.IGNORECASE | re.ASCII)
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
            out.append(4 * _RANK[m.group(1).lower()] + _SUIT[m.group(2).lower()])
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
# take), case, "10", suit symbols, the Kelvin sign (lowercases to "k").
ALPHABET = "AKQT2s" + "hdc" + "10 " + "\t\n,-" + "\x1c\x1f\x85\xa0\u2003" + "♠\u212a"


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
