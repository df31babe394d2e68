"""Fuzz the solvers: solve_fantasyland (13-17 cards, stay values, alternatives) and
best_setting (13 cards, both objectives), under every preset, by object or by name.

Contract: only OfcError; a solution sets 13 of the given cards and discards the rest;
it is legal (not fouled) unless marked fouled; its royalties are the board's own.
"""

from __future__ import annotations

import math

import atheris
from _common import any_object, main, ours

import ofc_fast as ofc
from ofc_fast import rules
from ofc_fast.solver import best_setting, solve_fantasyland

PRESETS = list(rules.PRESETS.values())
FL_PRESETS = [r for r in PRESETS if r.fantasyland is not None]


def hand(fdp: atheris.FuzzedDataProvider, low: int, high: int) -> object:
    kind = fdp.ConsumeIntInRange(0, 9)
    if kind == 9:
        return any_object(fdp)
    deck = list(range(52))
    n = (
        fdp.ConsumeIntInRange(low - 1, high + 1)
        if kind == 8
        else fdp.ConsumeIntInRange(low, high)
    )
    cards = [deck.pop(fdp.ConsumeIntInRange(0, len(deck) - 1)) for _ in range(min(n, 52))]
    if kind == 7 and cards:
        cards[-1] = fdp.PickValueInList([cards[0], 52, -1, 255, True])
    return ofc.cards_str(cards) if kind == 6 else cards


def stay_value(fdp: atheris.FuzzedDataProvider) -> object:
    return fdp.PickValueInList(
        [
            None,
            0,
            12.5,
            -1e5,
            1e5 + 1,
            math.nan,
            math.inf,
            10**400,
            True,
            "3",
            {14: 10.0},
            {14: None},
            {14: "x"},
            {12: 1.0},
            {13: 1, 17: -2},
            [1, 2],
            {14: float(fdp.ConsumeIntInRange(-200000, 200000))},
        ]
    )


def check(sol: object, cards: object, preset: rules.RuleSet) -> None:
    given = ofc.parse_cards(cards)  # type: ignore[arg-type]
    board = sol.board  # type: ignore[attr-defined]
    used = list(board.cards)
    assert sorted(used + list(sol.discards)) == sorted(given)  # type: ignore[attr-defined]
    if sol.fouled:  # type: ignore[attr-defined]
        assert sol.royalties == 0  # type: ignore[attr-defined]
    else:
        assert not board.is_foul(preset)
        assert sol.royalties == sum(board.royalties(preset))  # type: ignore[attr-defined]


def test_one_input(data: bytes) -> None:
    fdp = atheris.FuzzedDataProvider(data)
    if fdp.ConsumeBool():
        preset = fdp.PickValueInList(FL_PRESETS)
        cards = hand(fdp, 13, 17)
        r = preset.name if fdp.ConsumeBool() else preset
        ok, sol = ours(
            solve_fantasyland, cards, r, stay_value(fdp), alternatives=fdp.ConsumeBool()
        )
    else:
        preset = fdp.PickValueInList(PRESETS)
        cards = hand(fdp, 13, 13)
        r = preset.name if fdp.ConsumeBool() else preset
        ok, sol = ours(
            best_setting, cards, r, fdp.PickValueInList(["ev", "royalties", "EV", None, 1])
        )
    if ok:
        check(sol, cards, preset)


if __name__ == "__main__":
    main(test_one_input)
