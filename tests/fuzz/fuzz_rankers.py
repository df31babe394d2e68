"""Fuzz the rankers and strength functions with arbitrary Python objects.

Contract: only OfcError; a strength is 1..STRENGTH_MAX of the right kind (5-card for
rank5, 3-card for rank3); the fast path (a list of int ids) and the text path agree.
"""

from __future__ import annotations

import atheris
from _common import any_object, main, ours

import ofc_fast as ofc

RANKERS = ((ofc.rank5, 5), (ofc.rank3, 3), (ofc.rank, 0))
STRENGTH_FNS = (
    ofc.describe,
    ofc.kev_rank,
    ofc.category,
    ofc.strength_cards,
    ofc.hand_ranks,
    ofc.low27,
    ofc.strength_from_kev,
)


def test_one_input(data: bytes) -> None:
    fdp = atheris.FuzzedDataProvider(data)
    value = any_object(fdp)
    for fn, n in RANKERS:
        ok, s = ours(fn, value)
        if not ok:
            continue
        assert 1 <= s <= ofc.STRENGTH_MAX, (value, s)
        if not isinstance(value, (str, list, tuple)):
            continue  # an iterator is used up by the call
        cards = ofc.parse_cards(value)
        assert len(cards) == (n or len(cards)) and ofc.strength_cards(s) == len(cards)
        assert fn(list(cards)) == s == fn(ofc.cards_str(cards))
    for fn in STRENGTH_FNS:
        ok, out = ours(fn, value)
        if ok and fn is ofc.strength_from_kev:
            assert ofc.kev_rank(out) == value
        elif ok:
            assert not isinstance(value, bool) and 1 <= int(value) <= ofc.STRENGTH_MAX


if __name__ == "__main__":
    main(test_one_input)
