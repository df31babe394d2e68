"""Fuzz scoring and settlement through the public API: score_pair and settle.

Contract: only OfcError; score_pair is antisymmetric (a against b = -(b against a)
for an ordinary pair); a settlement's nets sum to zero.
"""

from __future__ import annotations

import atheris
from _common import any_object, main, ours

import ofc_fast as ofc
from ofc_fast import rules

PRESETS = list(rules.PRESETS.values())


def boards(fdp: atheris.FuzzedDataProvider, n: int) -> list:
    """Make n boards: mostly disjoint complete boards from a fuzzed deck, sometimes
    overlapping, short, textual, or arbitrary objects."""
    deck = list(range(52))
    for i in range(51, 0, -1):  # a Fisher-Yates shuffle driven by the fuzzer
        j = fdp.ConsumeIntInRange(0, i)
        deck[i], deck[j] = deck[j], deck[i]
    out: list = []
    for k in range(n):
        kind = fdp.ConsumeIntInRange(0, 9)
        cards = deck[13 * k : 13 * k + 13]
        if kind <= 5:
            out.append(cards)
        elif kind == 6 and len(cards) == 13:  # (a fifth seat has no cards left)
            out.append(
                ofc.Board.from_cards(cards)
                if fdp.ConsumeBool()
                else str(ofc.Board.from_cards(cards))
            )
        elif kind == 7:
            out.append(
                cards[: fdp.ConsumeIntInRange(0, 13)] + deck[: fdp.ConsumeIntInRange(0, 2)]
            )
        elif kind == 8:
            out.append(None)
        else:
            out.append(any_object(fdp))
    return out


def rules_arg(fdp: atheris.FuzzedDataProvider):
    kind = fdp.ConsumeIntInRange(0, 5)
    preset = fdp.PickValueInList(PRESETS)
    if kind <= 3:
        return preset
    if kind == 4:
        return preset.name.lower()
    return any_object(fdp)


def test_one_input(data: bytes) -> None:
    fdp = atheris.FuzzedDataProvider(data)
    if fdp.ConsumeBool():
        a, b = boards(fdp, 2)
        r = rules_arg(fdp)
        ok, s = ours(ofc.score_pair, a, b, r)
        if ok:
            back = ofc.score_pair(b, a, r)
            assert back.net == -s.net and back.rows == tuple(-x for x in s.rows)
        return
    n = fdp.ConsumeIntInRange(0, 5)
    table = boards(fdp, n)
    kwargs = {}
    if fdp.ConsumeBool():
        kwargs["button"] = fdp.PickValueInList([0, 1, 2, 3, -1, 7, True, 0.0, None, "1"])
    if fdp.ConsumeBool():
        kwargs["stacks"] = fdp.PickValueInList(
            [None, [100] * n, [0] * n, [5, 7], "x", [1.5] * n]
        )
    if fdp.ConsumeBool():
        kwargs["surrendered"] = fdp.PickValueInList(
            [(), [0], [1, 1], [0.5], [9], "0", [True]]
        )
    if fdp.ConsumeBool():
        kwargs["declared"] = fdp.PickValueInList(
            [None, {0: True}, {1: "dragon"}, {5: True}, {0: 3}, {"0": True}]
        )
    ok, result = ours(ofc.settle, table, rules_arg(fdp), **kwargs)
    if ok:
        assert len(result.net) == n and sum(result.net) == 0


if __name__ == "__main__":
    main(test_one_input)
