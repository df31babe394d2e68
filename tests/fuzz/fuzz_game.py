"""Fuzz game play through the public Game API only (Game(...), legal_moves,
legal_actions, play, play_action, observation, history, Game.replay): random deals of
every preset, legal moves mixed with illegal ones (wrong cards, rows, counts, types,
action ids), then replays of the history, untouched and edited.

Contract: only OfcError; an illegal move leaves the game exactly as it was (history()
and every seat's observation() compare equal before and after); no observation shows
another seat's hidden cards (its dealt, discarded or face-down cards, or the deck);
replaying a history gives the same history; an edited history is refused or
reproduces the seats, button, deck and result it records.
"""

from __future__ import annotations

import copy
from typing import Any

import atheris
from _common import any_object, main, ours

import ofc_fast as ofc
from ofc_fast import rules

PRESETS = list(rules.PRESETS.values())
ROWS: list[Any] = [0, 1, 2, "front", "middle", "back", 3, -1, "top", None, 1.0, True]


def observations(g: ofc.Game) -> list[dict]:
    return [g.observation(s) for s in range(g.players)]


def snapshot(g: ofc.Game) -> tuple:
    return g.history(), observations(g)


def check_privacy(obs: list[dict]) -> None:
    """Seat v sees of seat o only cards o's own view has on its board, and as many as
    o's board holds minus the ones v is told are hidden; v's dealt and discards are
    its own, never a card another seat holds in hand or discarded."""
    players = len(obs)
    for v in range(players):
        mine = obs[v]
        for o in range(players):
            seen = mine["boards"][o]
            actual = obs[o]["boards"][o]
            for r in range(3):
                assert set(seen[r]) <= set(actual[r]), (v, o, r)
                if o != v:
                    assert len(seen[r]) + mine["face_down_counts"][o][r] == len(
                        actual[r]
                    ), (v, o, r)
            if o != v:
                private = set(obs[o]["dealt"]) | set(obs[o]["discards"])
                visible = (
                    {c for row in seen for c in row}
                    | set(mine["dealt"])
                    | set(mine["discards"])
                )
                assert not private & visible, (v, o)


def built_move(fdp: atheris.FuzzedDataProvider, obs: dict) -> Any:
    """A move dict from the seat's dealt cards: rows and discards picked by the fuzzer
    (legal or not), with now and then a card that is not dealt or an odd value."""
    dealt = list(obs["dealt"]) or [fdp.ConsumeIntInRange(0, 51)]
    k = obs["to_discard"] if fdp.ConsumeIntInRange(0, 3) else fdp.ConsumeIntInRange(0, 3)
    discard = dealt[:k] if fdp.ConsumeBool() else dealt[-k:] if k else []
    place = []
    for c in dealt:
        if c in discard:
            continue
        if fdp.ConsumeIntInRange(0, 9) == 0:
            c = fdp.PickValueInList([c, 52, -1, "As", fdp.ConsumeIntInRange(0, 51), None])
        place.append(
            [
                c,
                fdp.PickValueInList(ROWS)
                if fdp.ConsumeIntInRange(0, 4) == 0
                else fdp.ConsumeIntInRange(0, 2),
            ]
        )
    move: dict[str, Any] = {"place": place, "discard": discard}
    extra = fdp.ConsumeIntInRange(0, 12)
    if extra == 0:
        move["place"] = any_object(fdp)
    elif extra == 1:
        move["discard"] = any_object(fdp)
    elif extra == 2:
        move["surrender"] = any_object(fdp)
    elif extra == 3:
        move["declare"] = any_object(fdp)
    elif extra == 4:
        return any_object(fdp)
    return move


def attempt(g: ofc.Game, fn: Any, *args: Any) -> None:
    """Plays; an OfcError must leave the game unchanged."""
    before = snapshot(g)
    ok, _ = ours(fn, *args)
    if not ok:
        assert snapshot(g) == before, "an illegal move changed the game"


def step(g: ofc.Game, fdp: atheris.FuzzedDataProvider, obs: dict) -> None:
    kind = fdp.ConsumeIntInRange(0, 9)
    if kind <= 4:
        ok, actions = ours(g.legal_actions)
        if ok and actions:
            attempt(g, g.play_action, actions[fdp.ConsumeIntInRange(0, len(actions) - 1)])
            return
        if kind <= 1:
            ok, moves = ours(g.legal_moves)
            if ok and moves:
                attempt(g, g.play, moves[fdp.ConsumeIntInRange(0, len(moves) - 1)])
                return
    if kind == 5:
        attempt(
            g,
            g.play_action,
            fdp.PickValueInList(
                [-1, 10**6, 2**70, True, None, "0", 1.0, fdp.ConsumeIntInRange(0, 5000)]
            ),
        )
        return
    if kind == 6:
        attempt(
            g,
            g.play,
            built_move(fdp, obs),
            fdp.PickValueInList([None, obs["to_act"], 7, -1, True]),
        )
        return
    attempt(g, g.play, built_move(fdp, obs))


def edit(history: dict, fdp: atheris.FuzzedDataProvider) -> None:
    key = fdp.PickValueInList(sorted(history))
    action = fdp.ConsumeIntInRange(0, 4)
    if action == 0:
        del history[key]
    elif action == 1 or not isinstance(history[key], list) or not history[key]:
        history[key] = any_object(fdp)
    else:
        items = history[key]
        i = fdp.ConsumeIntInRange(0, len(items) - 1)
        if action == 2:
            del items[i]
        elif action == 3:
            items[i] = any_object(fdp)
        else:
            items.insert(i, copy.deepcopy(items[fdp.ConsumeIntInRange(0, len(items) - 1)]))


def test_one_input(data: bytes) -> None:
    fdp = atheris.FuzzedDataProvider(data)
    preset = fdp.PickValueInList(PRESETS)
    args: dict[str, Any] = {"seed": fdp.ConsumeIntInRange(0, 2**31)}
    players = fdp.ConsumeIntInRange(2, preset.max_players)
    args["button"] = fdp.ConsumeIntInRange(0, players - 1)
    if preset.fantasyland is not None and fdp.ConsumeIntInRange(0, 3) == 0:
        args["fantasyland"] = [fdp.PickValueInList([0, 0, 14, 15]) for _ in range(players)]
    ok, g = ours(ofc.Game, preset.name if fdp.ConsumeBool() else preset, players, **args)
    if not ok:
        return
    for _ in range(fdp.ConsumeIntInRange(0, 60)):
        obs = observations(g)
        check_privacy(obs)
        if obs[0]["is_over"]:
            break
        step(g, fdp, obs[obs[0]["to_act"]])
    check_privacy(observations(g))
    history = g.history()
    assert ofc.Game.replay(history).history() == history
    edited = copy.deepcopy(history)
    for _ in range(fdp.ConsumeIntInRange(0, 3)):
        edit(edited, fdp)
    ok, g2 = ours(ofc.Game.replay, edited)
    if ok:  # accepted: it must reproduce what the history records
        check_privacy(observations(g2))
        h2 = g2.history()
        for key in ("players", "button", "deck", "result"):
            if edited.get(key) is not None:  # None: not recorded (replay's default)
                assert h2.get(key) == edited[key], key
        assert ofc.Game.replay(h2).history() == h2


if __name__ == "__main__":
    main(test_one_input)
