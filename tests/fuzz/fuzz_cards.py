"""Fuzz card text and card ids: parse_card, parse_cards, card_str, to_treys / from_treys.

Contract: only OfcError; parse_card accepts exactly the documented forms (checked
against an independent pattern); every id is 0..51 and round-trips through card_str.
"""

from __future__ import annotations

import re

import atheris
from _common import any_object, main, ours

import ofc_fast as ofc

# The documented forms (ofc_fast/cards.py), written independently: a rank 2-9, T, J,
# Q, K, A or 10 and a suit letter or symbol, ASCII case-insensitive, ASCII spaces.
_RANK = {
    **{str(i): i - 2 for i in range(2, 10)},
    "10": 8,
    "t": 8,
    "j": 9,
    "q": 10,
    "k": 11,
    "a": 12,
}
_SUIT = {
    "c": 0,
    "d": 1,
    "h": 2,
    "s": 3,
    "♣": 0,
    "♧": 0,
    "♦": 1,
    "♢": 1,
    "♥": 2,
    "♡": 2,
    "♠": 3,
    "♤": 3,
}
_FORM = re.compile(r"[ \t\n\r\f\v]*(10|[2-9TJQKAtjqka])([cdhsCDHS♣♧♦♢♥♡♠♤])[ \t\n\r\f\v]*")


def expected_card(text: str) -> int | None:
    m = _FORM.fullmatch(text)
    if not m:
        return None
    return 4 * _RANK[m.group(1).lower()] + _SUIT[m.group(2).lower()]


def check_text(text: str) -> None:
    ok, card = ours(ofc.parse_card, text)
    want = expected_card(text)
    assert ok == (want is not None), (text, card, want)
    if ok:
        assert card == want and ofc.parse_card(ofc.card_str(card)) == card
        assert ofc.from_treys(ofc.to_treys(card)) == card
    ok, cards = ours(ofc.parse_cards, text)
    if ok:
        assert all(0 <= c < 52 for c in cards) and len(set(cards)) == len(cards)
        assert ofc.parse_cards(ofc.cards_str(cards)) == cards


def test_one_input(data: bytes) -> None:
    fdp = atheris.FuzzedDataProvider(data)
    mode = fdp.ConsumeIntInRange(0, 2)
    if mode == 0:
        check_text(fdp.ConsumeUnicodeNoSurrogates(fdp.ConsumeIntInRange(0, 12)))
    elif mode == 1:
        check_text(fdp.ConsumeBytes(12).decode("latin-1"))
    else:
        value = any_object(fdp)
        for fn in (
            ofc.parse_card,
            ofc.parse_cards,
            ofc.card_str,
            ofc.cards_str,
            ofc.to_treys,
            ofc.from_treys,
        ):
            ok, out = ours(fn, value)
            if ok and fn is ofc.parse_card:
                assert 0 <= out < 52


if __name__ == "__main__":
    main(test_one_input)
