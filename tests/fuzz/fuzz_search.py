"""Fuzz the search layer (ofc_fast.search): advise on games and on observation dicts
(whole, or with a field replaced by anything), make_observation and best_completion on
boards, cards, rounds and settings built from fuzzer bytes, under every OFC and
Pineapple preset.

Contract: only OfcError; advise lists every legal move once, best first, with finite
values (standard errors >= 0, 0 when exact), and gives the same advice for the same
arguments, from a Game or from its observation; a completion keeps the board's cards
in their rows, places only the given cards, and its value is finite.
"""

from __future__ import annotations

import copy
import math
from random import Random
from typing import Any

import atheris
from _common import any_object, main, ours

import ofc_fast as ofc
from ofc_fast import rules
from ofc_fast.rules.model import GameKind
from ofc_fast.search import (
    advise,
    best_completion,
    make_observation,
    search_model,
)
from ofc_fast.search._checks import rows_of
from ofc_fast.search._positions import _OBS_FIELDS

PRESETS = [r for r in rules.PRESETS.values() if r.game is not GameKind.CLASSIC]
OBS_KEYS = [*_OBS_FIELDS, "legal_actions", "full_set", "rules"]  # what advise reads


def settings(fdp: atheris.FuzzedDataProvider, late: bool = True) -> dict[str, Any]:
    """Advise keywords: small sample counts (the harness must stay fast: the exact
    best-completion policy only late in a deal), now and then anything at all."""
    out: dict[str, Any] = {
        "samples": fdp.ConsumeIntInRange(1, 6),
        "seed": fdp.ConsumeIntInRange(0, 2**40),
        "exact": fdp.PickValueInList(["auto", False, False, True]),
        "policy": fdp.PickValueInList(
            ["auto", "fast", "sequential", "best"][: 4 if late else 3]
        ),
        "prune": fdp.ConsumeBool(),
    }
    if out["exact"] is True and fdp.ConsumeIntInRange(0, 15):
        out["time_budget"] = 0.05  # a tree this budget cannot search raises SearchError
    if fdp.ConsumeIntInRange(0, 3) == 0:
        out["opponent"] = fdp.PickValueInList(["best", "random", "self", 0.5, 0.0])
    if fdp.ConsumeIntInRange(0, 3) == 0:
        out["fl_value"] = fdp.PickValueInList([None, 0, 12.5, {14: 3.0}])
    if fdp.ConsumeIntInRange(0, 7) == 0:
        key = fdp.PickValueInList(
            [  # not samples: a huge count is a legal, endless request
                "seed",
                "exact",
                "policy",
                "prune",
                "opponent",
                "fl_value",
                "row_weight",
                "clock",
                "rules",
                "seat",
            ]
        )
        out[key] = any_object(fdp)
    return out


def check_advice(advice: list[Any], legal: list[int], pruned: bool) -> None:
    """Every legal move once; best first (pruning puts the moves that outlasted the
    others first, whatever their values)."""
    assert sorted(a.action for a in advice) == sorted(legal), "not every legal move"
    if not pruned or advice[0].exact:
        assert all(a.ev >= b.ev for a, b in zip(advice, advice[1:])), "order"
    for a in advice:
        assert math.isfinite(a.ev) and math.isfinite(a.stderr) and a.stderr >= 0
        assert (a.stderr, a.samples) == (0.0, 0) if a.exact else a.samples > 0


def play_some(g: ofc.Game, fdp: atheris.FuzzedDataProvider) -> None:
    """Plays random legal actions, so that advise sees every street and Fantasyland."""
    for _ in range(fdp.ConsumeIntInRange(0, 14)):
        if g.to_act is None:
            return
        if g.observation(g.to_act)["full_set"]:  # a Fantasyland set: no action ids
            g.play(g.random_move(Random(fdp.ConsumeIntInRange(0, 2**31))))
            continue
        actions = g.legal_actions()
        g.play_action(actions[fdp.ConsumeIntInRange(0, len(actions) - 1)])


def on_game(fdp: atheris.FuzzedDataProvider, preset: Any) -> None:
    players = fdp.ConsumeIntInRange(2, min(3, preset.max_players))
    fl: list[int] | None = None
    if preset.fantasyland is not None and fdp.ConsumeIntInRange(0, 4) == 0:
        fl = [fdp.PickValueInList([0, 0, 14]) for _ in range(players)]
    g = ofc.Game(preset, players, seed=fdp.ConsumeIntInRange(0, 2**31), fantasyland=fl)
    play_some(g, fdp)
    if g.to_act is None:
        return
    obs = g.observation(g.to_act)
    kw = settings(fdp, late=obs["future_cards"] <= 6)
    ok, advice = ours(advise, g, **kw)
    ok2, again = ours(advise, copy.deepcopy(obs), **kw)
    assert ok == ok2 or "rules" in kw or "seat" in kw, "a Game and its observation differ"
    if ok and ok2 and "rules" not in kw:
        check_advice(advice, g.legal_actions(), kw["prune"] is True)
        assert advice == again, "the same arguments gave other advice"
    bad = copy.deepcopy(obs)
    for _ in range(fdp.ConsumeIntInRange(1, 3)):
        mutate(bad, fdp)
    ours(advise, bad, **kw)


def mutate(obs: dict[str, Any], fdp: atheris.FuzzedDataProvider) -> None:
    """One field of an observation replaced, dropped, or edited in place."""
    key = fdp.PickValueInList(OBS_KEYS)
    kind = fdp.ConsumeIntInRange(0, 5)
    if kind == 0:
        obs.pop(key, None)
    elif kind == 1 or not isinstance(obs.get(key), list):
        obs[key] = any_object(fdp)
    else:
        items = obs[key]
        if kind == 2 and items:
            items[fdp.ConsumeIntInRange(0, len(items) - 1)] = any_object(fdp)
        elif kind == 3:
            items.append(any_object(fdp))
        elif kind == 4 and items and isinstance(items[0], list) and items[0]:
            row = items[0][fdp.ConsumeIntInRange(0, len(items[0]) - 1)]
            if isinstance(row, list):
                row.append(fdp.ConsumeIntInRange(-2, 60))
        elif items:
            items.pop()


def cards_or_junk(fdp: atheris.FuzzedDataProvider, deck: list[int], n: int) -> Any:
    if fdp.ConsumeIntInRange(0, 9) == 0:
        return any_object(fdp)
    out = [deck.pop(fdp.ConsumeIntInRange(0, len(deck) - 1)) for _ in range(n) if deck]
    return ofc.cards_str(out) if fdp.ConsumeBool() else out


def board_or_junk(fdp: atheris.FuzzedDataProvider, deck: list[int]) -> Any:
    if fdp.ConsumeIntInRange(0, 9) == 0:
        return any_object(fdp)
    rows = [cards_or_junk(fdp, deck, fdp.ConsumeIntInRange(0, size)) for size in (3, 5, 5)]
    if fdp.ConsumeBool() and all(isinstance(r, str) for r in rows):
        return " / ".join(r or "-" for r in rows)
    return rows


def on_completion(fdp: atheris.FuzzedDataProvider, preset: Any) -> None:
    deck = list(range(52))
    board = board_or_junk(fdp, deck)
    cards = cards_or_junk(fdp, deck, fdp.ConsumeIntInRange(0, 14))
    kw: dict[str, Any] = {}
    if fdp.ConsumeBool():
        kw["rounds"] = fdp.PickValueInList(
            [
                [(3, 1)] * fdp.ConsumeIntInRange(0, 5),
                [(1, 0)] * fdp.ConsumeIntInRange(0, 13),
                [(14, 1)],
                any_object(fdp),
                [(any_object(fdp), 0)],
            ]
        )
    if fdp.ConsumeIntInRange(0, 3) == 0:
        kw["fantasyland"] = fdp.PickValueInList([0, 14, 17, 12, any_object(fdp)])
    if fdp.ConsumeIntInRange(0, 3) == 0:
        kw["policy"] = fdp.PickValueInList(["best", "fast", "sequential", any_object(fdp)])
    if fdp.ConsumeIntInRange(0, 5) == 0:
        kw["model"] = fdp.PickValueInList(
            [search_model(preset, fl_value=0, row_weight=0), any_object(fdp)]
        )
    target = preset if fdp.ConsumeIntInRange(0, 9) else any_object(fdp)
    ok, c = ours(best_completion, board, cards, target, **kw)
    if not ok:
        return
    assert math.isfinite(c.value)
    rows = (c.board.front, c.board.middle, c.board.back)
    given = ofc.parse_cards(cards)
    placed = {x for r in rows for x in r}
    assert placed <= set(given) | {x for r in rows_of(board) for x in r}
    for r, row in enumerate(rows_of(board)):
        assert set(row) <= set(rows[r]), "a board card moved"


def on_made(fdp: atheris.FuzzedDataProvider, preset: Any) -> None:
    deck = list(range(52))
    board = board_or_junk(fdp, deck)
    dealt = cards_or_junk(fdp, deck, fdp.PickValueInList([5, 3, 1, 4]))
    opponents = [board_or_junk(fdp, deck) for _ in range(fdp.ConsumeIntInRange(0, 3))]
    dead = cards_or_junk(fdp, deck, fdp.ConsumeIntInRange(0, 4))
    fl = fdp.PickValueInList([0, 0, 14, 3, any_object(fdp)])
    ok, obs = ours(make_observation, preset, board, dealt, opponents, dead, fantasyland=fl)
    if ok:
        kw = settings(fdp, late=obs["future_cards"] <= 6)
        ok, advice = ours(advise, obs, rules=preset, **kw)
        if ok:
            assert advice and len({a.action for a in advice}) == len(advice)


def test_one_input(data: bytes) -> None:
    fdp = atheris.FuzzedDataProvider(data)
    preset = fdp.PickValueInList(PRESETS)
    kind = fdp.ConsumeIntInRange(0, 2)
    if kind == 0:
        on_game(fdp, preset)
    elif kind == 1:
        on_completion(fdp, preset)
    else:
        on_made(fdp, preset)


if __name__ == "__main__":
    main(test_one_input)
