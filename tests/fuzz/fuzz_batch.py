"""Fuzz the NumPy batch calls (rank5_batch, rank3_batch, eval_boards, score_pairs) on odd
arrays: any dtype, shape, strides (slices, transposes), byte order, read-only or
non-contiguous memory, wrong ``out`` arrays, and card bytes of any value.

Contract: only OfcError; an accepted call answers every row exactly as the per-hand
calls do (rank5 / rank3 / Board.evaluate / score_pair).
"""

from __future__ import annotations

import atheris
import numpy as np
from _common import any_object, main, ours

import ofc_fast as ofc
from ofc_fast import rules

DTYPES = [
    "uint8",
    "uint8",
    "uint8",
    "int8",
    "int32",
    "uint16",
    ">u2",
    "float64",
    "bool",
    "object",
    "U2",
]
PRESETS = [rules.OFC, rules.PINEAPPLE_27, rules.CLASSIC_2_4, rules.MALAYAN]


def cards_array(fdp: atheris.FuzzedDataProvider, width: int) -> object:
    if fdp.ConsumeIntInRange(0, 15) == 0:
        return any_object(fdp)
    n = fdp.ConsumeIntInRange(0, 6)
    mostly_valid = fdp.ConsumeBool()
    rows = []
    for _ in range(n):
        if mostly_valid:
            deck = list(range(52))
            row = [deck.pop(fdp.ConsumeIntInRange(0, len(deck) - 1)) for _ in range(width)]
        else:
            row = [fdp.ConsumeIntInRange(0, 255) for _ in range(width)]
        rows.append(row)
    a = np.array(rows, dtype=np.uint8).reshape(n, width)
    shape_kind = fdp.ConsumeIntInRange(0, 7)
    if shape_kind == 1:
        a = np.asfortranarray(a)
    elif shape_kind == 2:
        a = np.repeat(a, 2, axis=0)[::2]  # strided rows
    elif shape_kind == 3:
        a = a.T
    elif shape_kind == 4:
        a = a.reshape(-1)
    elif shape_kind == 5:
        a = a[:, : max(0, width - 1)]
    elif shape_kind == 6:
        a = a[None]
    dtype = fdp.PickValueInList(DTYPES)
    if dtype != "uint8":
        try:
            a = a.astype(dtype)
        except (TypeError, ValueError):
            pass
    if fdp.ConsumeBool():
        a.flags.writeable = False
    return a


def out_array(fdp: atheris.FuzzedDataProvider, n: int) -> object:
    kind = fdp.ConsumeIntInRange(0, 5)
    if kind <= 2:
        return None
    if kind == 3:
        return np.zeros(n, dtype=np.int32)
    if kind == 4:
        o = np.zeros(n, dtype=np.int32)
        o.flags.writeable = False
        return o
    return fdp.PickValueInList(
        [
            np.zeros(n + 1, np.int32),
            np.zeros(n, np.int64),
            np.zeros((n, 1), np.int32),
            [0] * n,
            np.zeros(2 * n, np.int32)[::2],
        ]
    )


def _rows(a: object) -> int:
    shape = getattr(a, "shape", ())
    return shape[0] if isinstance(shape, tuple) and shape else 0


def test_one_input(data: bytes) -> None:
    fdp = atheris.FuzzedDataProvider(data)
    which = fdp.ConsumeIntInRange(0, 3)
    if which <= 1:
        width, fn, single = (
            (5, ofc.rank5_batch, ofc.rank5),
            (3, ofc.rank3_batch, ofc.rank3),
        )[which]
        a = cards_array(fdp, width)
        ok, got = ours(fn, a, out_array(fdp, _rows(a)))
        if ok:
            assert got.tolist() == [single(list(map(int, row))) for row in a]
        return
    preset = fdp.PickValueInList(PRESETS)
    r = preset.name if fdp.ConsumeBool() else preset
    if which == 2:
        a = cards_array(fdp, 13)
        ok, got = ours(ofc.eval_boards, a, r)
        if ok:
            for i, row in enumerate(a):
                ev = ofc.Board.from_cards(list(map(int, row))).evaluate(preset)
                assert tuple(got.strength[i]) == ev.strengths
                assert (
                    tuple(got.royalty[i]) == ev.royalties and bool(got.foul[i]) == ev.foul
                )
        return
    a, b = cards_array(fdp, 13), cards_array(fdp, 13)
    ok, got = ours(ofc.score_pairs, a, b, r, out_array(fdp, _rows(a)))
    if ok:
        for i in range(len(a)):
            pa, pb = list(map(int, a[i])), list(map(int, b[i]))
            assert got[i] == ofc.score_pair(pa, pb, preset).net


if __name__ == "__main__":
    main(test_one_input)
