"""Fuzz board text and board construction: Board.parse, Board(...), Board.from_cards,
and evaluation under every preset (by object or by name).

Contract: only OfcError; a parsed board prints as text that parses back to it; rows
hold at most 3/5/5 distinct cards; evaluate() works exactly on complete boards.
"""

from __future__ import annotations

import atheris
from _common import any_object, main, ours

import ofc_fast as ofc
from ofc_fast import rules

PRESETS = list(rules.PRESETS.values())
PIECES = [
    "As",
    "Kd",
    "10h",
    "2c",
    "/",
    " / ",
    "|",
    "-",
    ",",
    "  ",
    "Qh Qd 2c",
    "9s 9h 9d 5c 5d",
    "As Ks Qs Js Ts",
    "x",
    "Aſ",
    "\n",
]


def board_text(fdp: atheris.FuzzedDataProvider) -> str:
    if fdp.ConsumeBool():
        return fdp.ConsumeUnicodeNoSurrogates(fdp.ConsumeIntInRange(0, 60))
    return "".join(fdp.PickValueInList(PIECES) for _ in range(fdp.ConsumeIntInRange(0, 12)))


def check(board: ofc.Board, fdp: atheris.FuzzedDataProvider) -> None:
    sizes = [len(r) for r in board.rows]
    assert sizes[0] <= 3 and sizes[1] <= 5 and sizes[2] <= 5
    cards = [c for r in board.rows for c in r]
    assert len(set(cards)) == len(cards) and all(0 <= c < 52 for c in cards)
    assert ofc.Board.parse(str(board)) == board
    preset = fdp.PickValueInList(PRESETS)
    r = preset.name if fdp.ConsumeBool() else preset
    ok, ev = ours(board.evaluate, r)
    assert ok == board.is_complete
    if ok:
        assert ev.foul == board.is_foul(preset)
        assert all(ofc.strength_cards(s) == n for s, n in zip(ev.strengths, (3, 5, 5)))
        assert ev.royalties == board.royalties(preset)
        if ev.foul:
            assert ev.royalties == (0, 0, 0)


def test_one_input(data: bytes) -> None:
    fdp = atheris.FuzzedDataProvider(data)
    mode = fdp.ConsumeIntInRange(0, 2)
    if mode == 0:
        ok, board = ours(ofc.Board.parse, board_text(fdp))
    elif mode == 1:
        ok, board = ours(ofc.Board, any_object(fdp), any_object(fdp), any_object(fdp))
    else:
        ok, board = ours(ofc.Board.from_cards, any_object(fdp))
    if ok:
        check(board, fdp)


if __name__ == "__main__":
    main(test_one_input)
