"""The RL environments (ofc_fast.env, csrc/include/ofc_vecenv.h) against ofc_fast.Game / Match.

The differential test plays every game kind through ``VectorEnv`` self-play and, in
lockstep, through ``Match`` + ``Game`` with the same actions (Fantasyland sets by
``ofc_fast.solver.solve_fantasyland``): same seats, masks equal to legal_actions(),
observations equal to an independent encoder written here, deal results equal.
OFC_ENV_DEALS=10000 for the full run (default 400 deals per kind).
"""

from __future__ import annotations

import os
import re
import threading
from collections.abc import Callable
from dataclasses import replace
from pathlib import Path

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import ofc_fast
from ofc_fast import rules as presets
from ofc_fast._native import ffi
from ofc_fast.encoding import (
    ENCODING_SIZE,
    SCALE,
    encode,
    encode_bytes,
    encode_game,
    features,
    features_of_encoding,
    planes,
)
from ofc_fast.env import GYM_IDS, VectorEnv, env_seed, pettingzoo_env
from ofc_fast.errors import GameError, MoveError, TableError
from ofc_fast.game import Game, Match, Move
from ofc_fast.game._engine import deal_seed
from ofc_fast.solver import solve_fantasyland

DEALS = int(os.environ.get("OFC_ENV_DEALS", "400"))
KINDS = [
    ("OFC", 3),
    ("PINEAPPLE", 2),
    ("PROGRESSIVE_PINEAPPLE", 3),
    ("ULTIMATE_PINEAPPLE", 2),
    ("PINEAPPLE_27", 2),
]


# ------------------------------------------------------------ the reference


def reference_encoding(obs: dict) -> np.ndarray:
    """The encoding's layout (csrc/include/ofc_vecenv.h), written from the observation dict."""
    x = np.zeros(828, np.int64)
    seat, n = obs["seat"], obs["players"]
    seen: set[int] = set()
    for s in range(n):
        rel = (s - seat) % n
        for row, cards in enumerate(obs["boards"][s]):
            for c in cards:
                x[(3 * rel + row) * 52 + c] = 1
                seen.add(c)
        sc = 780
        x[sc + 4 + rel] = 1
        x[sc + 12 + rel] = obs["fantasyland"][s]
        x[sc + 16 + 3 * rel : sc + 19 + 3 * rel] = obs["face_down_counts"][s]
        x[sc + 28 + rel] = obs["discard_counts"][s]
        if s == obs["button"]:
            x[sc + rel] = 1
        if s == obs["to_act"]:
            x[sc + 8 + rel] = 1
    for c in obs["dealt"]:
        x[12 * 52 + c] = 1
        seen.add(c)
    for c in obs["discards"]:
        x[13 * 52 + c] = 1
        seen.add(c)
    for c in set(range(52)) - seen:
        x[14 * 52 + c] = 1
    sc = 780
    x[sc + 32] = obs["street"]
    x[sc + 33] = obs["to_discard"]
    x[sc + 34] = obs["future_cards"]
    x[sc + 35] = obs["future_discards"]
    x[sc + 36] = obs["full_set"]
    x[sc + 37] = obs["face_down"]
    x[sc + 38] = obs["is_over"]
    x[sc + 39 + {"classic": 0, "ofc": 1, "pineapple": 2}[obs["game"]]] = 1
    x[sc + 42] = obs["lowball"]
    return x


def hidden_cards(g: Game, me: int) -> set[int]:
    """Cards ``me`` may not know, from the engine state: the undealt deck, the others'
    pending dealt cards, discards and face-down cards (before the end)."""
    raw = g._g
    over = g.is_over
    hidden: set[int] = set()
    pos = 0
    for i in range(raw.nsteps):
        st = raw.steps[i]
        pos = max(pos, st.start + st.n)
        if i >= raw.step and not (i == raw.step and st.seat == me):
            hidden |= {raw.deck[st.start + j] for j in range(st.n)}
    hidden |= {raw.deck[j] for j in range(pos, 52)}
    for s in range(g.players):
        if s == me:
            continue
        hidden |= {raw.discards[s][j] for j in range(raw.ndiscards[s])}
        if not over:
            for slot in range(13):
                if raw.face_down[s] >> slot & 1 and raw.board[s][slot] < 52:
                    hidden.add(raw.board[s][slot])
    return hidden


def check_no_hidden(x: np.ndarray, g: Game, seat: int) -> None:
    shown = set(np.flatnonzero(x[: 14 * 52].reshape(14, 52).any(axis=0)))
    leaked = shown & hidden_cards(g, seat)
    assert not leaked, f"seat {seat} encoding shows hidden cards {sorted(leaked)}"


def check_features_blind(g: Game, seat: int, rng: np.random.Generator) -> None:
    """The seat's features do not change when the cards it may not see are shuffled
    among themselves (the undealt deck, the others' pending, discarded and face-down
    cards): they are computed from nothing it may not see."""
    hidden = sorted(hidden_cards(g, seat))
    raw = g._g
    want = features(g.observation(seat))
    if len(hidden) < 2:
        return
    swap = dict(zip(hidden, rng.permutation(hidden).tolist()))
    saved = bytes(ffi.buffer(raw))
    try:
        for j in range(52):
            raw.deck[j] = swap.get(raw.deck[j], raw.deck[j])
        for s in range(g.players):
            for slot in range(13):
                raw.board[s][slot] = swap.get(raw.board[s][slot], raw.board[s][slot])
            for j in range(raw.ndiscards[s]):
                raw.discards[s][j] = swap.get(raw.discards[s][j], raw.discards[s][j])
        assert np.array_equal(features(g.observation(seat)), want), f"seat {seat}"
    finally:
        ffi.buffer(raw)[:] = saved


def solver_rows(dealt: list[int], rules: ofc_fast.RuleSet) -> list[int]:
    """Per dealt card, its row in the solver's setting (3 = discarded)."""
    rows = solve_fantasyland(dealt, rules).board.rows
    return [next((r for r in range(3) if c in rows[r]), 3) for c in dealt]


def solver_move(g: Game) -> Move:
    dealt = list(g.dealt)
    dest = solver_rows(dealt, g.rules)
    return Move(
        [(c, d) for c, d in zip(dealt, dest) if d < 3],
        [c for c, d in zip(dealt, dest) if d == 3],
    )


def finish_fantasyland(g: Game) -> None:
    while not g.is_over and g._steps[g.decisions][4]:
        g.play(solver_move(g))


# ------------------------------------------------------------ differential


def lockstep(
    rules_name: str, players: int, deals: int, num_envs: int = 16, seed: int = 5
) -> int:
    """Play VectorEnv self-play and Match/Game side by side; returns Fantasyland deals
    seen."""
    rules = presets.get(rules_name)
    env = VectorEnv(rules, num_envs=num_envs, players=players, seed=seed)
    obs, info = env.reset()
    matches = [Match(rules, players, seed=env_seed(seed, i)) for i in range(num_envs)]
    games = []
    for m in matches:
        g = m.next_game()
        finish_fantasyland(g)
        games.append(g)
    rng = np.random.default_rng(seed)
    done = np.zeros(num_envs, np.int64)
    fl_deals = 0
    while done.min() < deals:
        for i, g in enumerate(games):
            seat = g.to_act
            assert int(info["seat"][i]) == seat
            legal = g.legal_actions()
            assert list(np.flatnonzero(info["action_mask"][i])) == legal
            assert list(info["legal_actions"][i, : info["legal_count"][i]]) == legal
            o = g.observation(seat)
            assert (obs[i] == reference_encoding(o)).all(), (rules_name, i)
            if rng.random() < 0.1:
                for s in range(players):
                    check_no_hidden(env.encode(i, s), g, s)
                    check_features_blind(g, s, rng)
        acting = info["seat"].copy()
        pick = (rng.random(num_envs) * env.legal_counts).astype(np.int64)
        actions = env.legal_actions[np.arange(num_envs), pick].astype(np.int64)
        obs, rewards, terms, truncs, info = env.step(actions)
        assert not truncs.any()
        for i, g in enumerate(games):
            g.play_action(int(actions[i]))
            finish_fantasyland(g)
            if g.is_over:
                assert terms[i]
                final = np.zeros(players)
                while g.is_over:  # a deal without a decision (all in Fantasyland) adds
                    final += matches[i].record(g).net
                    done[i] += 1
                    g = games[i] = matches[i].next_game()
                    fl_deals += any(g.fantasyland)
                    finish_fantasyland(g)
                assert list(info["final_rewards"][i, :players]) == list(final)
                assert rewards[i] == final[acting[i]]
            else:
                assert not terms[i] and rewards[i] == 0
    return fl_deals


@pytest.mark.parametrize("rules_name,players", KINDS)
def test_vector_env_equals_game(rules_name: str, players: int) -> None:
    lockstep(rules_name, players, max(1, DEALS // 16))


def test_self_play_reward_goes_to_the_seat_that_acted() -> None:
    env = VectorEnv("pineapple", num_envs=8, players=3, seed=2)
    obs, info = env.reset()
    rng = np.random.default_rng(0)
    seen = 0
    for _ in range(200):
        acting = info["seat"].copy()
        pick = (rng.random(8) * env.legal_counts).astype(np.int64)
        obs, rewards, terms, _, info = env.step(env.legal_actions[np.arange(8), pick])
        for i in np.flatnonzero(terms):
            assert rewards[i] == info["final_rewards"][i, acting[i]]
            assert info["final_rewards"][i].sum() == 0
            seen += 1
        assert (rewards[~terms] == 0).all()
    assert seen > 20


def test_fantasyland_by_the_solver_and_carried() -> None:
    """Deals forced into Fantasyland (the slot's next-deal counts set by hand, as the
    Match's): the solver's sets and the carry-over equal the Game's."""
    rules = presets.PINEAPPLE
    env = VectorEnv(rules, num_envs=1, players=2, seed=3, autoreset=False)
    env.reset()
    m = Match(rules, 2, seed=env_seed(3, 0))
    g = m.next_game()
    rng = np.random.default_rng(1)
    fl_seen = 0
    for deal in range(40):
        while not g.is_over:
            assert int(env.seats[0]) == g.to_act
            a = int(env.legal_actions[0, int(rng.random() * env.legal_counts[0])])
            env.step(np.array([a]))
            g.play_action(a)
            finish_fantasyland(g)
        assert env.terminations[0] and int(env.seats[0]) == -1
        net = m.record(g).net
        assert list(env.final_rewards[0, :2]) == list(net)
        if deal % 2 == 0:  # put a seat in Fantasyland for the next deal
            seat = deal // 2 % 2
            env._slots[0].fl[seat] = m.fantasyland[seat] or 14
            fl = list(m.fantasyland)
            fl[seat] = fl[seat] or 14
            m.fantasyland = tuple(fl)
        fl_seen += any(m.fantasyland)
        env.next_deal(0)
        g = m.next_game()
        assert g.button == env._slots[0].game.button
        finish_fantasyland(g)
        assert bytes(ofc_fast._native.ffi.buffer(env.game_of(0))) == g._state_bytes()
    assert fl_seen >= 20


def test_an_abandoned_deal_moves_the_button_and_earns_no_fantasyland() -> None:
    """next_deal() in the middle of a deal (a truncation's reset) moves the button as
    ``Match`` does after a deal without Fantasyland, and the abandoned deal's
    Fantasyland counts are not carried into the next deal."""
    from ofc_fast.game.match import next_button

    for rules in (presets.PINEAPPLE, presets.OFC):
        env = VectorEnv(rules, num_envs=1, players=3, seed=1, opponents="random")
        env.reset()
        button = 0
        for deal in range(6):
            if deal == 2:  # the slot carries Fantasyland counts, as a deal played in it
                env._slots[0].fl[1] = 14
            game = env.game_of(0)
            assert game.button == button and game.step < game.nsteps
            env.step(env.legal_actions[:, 0])  # mid-deal, then abandoned
            env.next_deal(0)
            button = next_button(rules, button, 3, [0, 0, 0])
        game = env.game_of(0)
        assert game.button == button
        assert list(game.fl) == [0] * 4 and list(env._slots[0].fl) == [0] * 4


def test_a_seat_playing_an_abandoned_deal_in_fantasyland_loses_it() -> None:
    """docs/environments.md and docs/rules.md Q-10: a deal abandoned while a seat
    plays it in Fantasyland does not deal that seat Fantasyland again."""
    env = VectorEnv(
        presets.PINEAPPLE,
        num_envs=1,
        players=2,
        seed=1,
        opponents="random",
        autoreset=False,
    )
    env.reset()
    while int(env.seats[0]) >= 0:  # the first deal played to its end
        env.step(env.legal_actions[:, 0])
    env._slots[0].fl[0:2] = [0, 14]  # the next deal: seat 1 in Fantasyland
    env.next_deal(0)
    game = env.game_of(0)
    assert list(game.fl)[:2] == [0, 14] and game.step < game.nsteps
    env.next_deal(0)  # abandoned mid-deal
    assert list(env.game_of(0).fl) == [0] * 4


def test_fantasyland_as_a_decision() -> None:
    env = VectorEnv(
        "pineapple", num_envs=1, players=2, seed=3, fantasyland="decision", autoreset=False
    )
    env.reset()
    rng = np.random.default_rng(0)
    while int(env.seats[0]) >= 0:
        a = int(env.legal_actions[0, int(rng.random() * env.legal_counts[0])])
        env.step(np.array([a]))
    env._slots[0].fl[0] = 15
    env.next_deal(0)
    for bad in ([[0] * 18], [[-1] * 15], [[4] * 15], "x", [[0.5] * 15]):
        with pytest.raises(MoveError):
            env.step(np.array([-1]), bad)
    for args in ((1, 0), (0, 2), (-1, 0), (0, True)):
        with pytest.raises(GameError):
            env.observation(*args)
        with pytest.raises(GameError):
            env.encode(*args)
    assert env.full_sets[0] and int(env.seats[0]) == 0 and not env.action_masks[0].any()
    obs = env.observation(0, 0)
    assert obs["full_set"] and len(obs["dealt"]) == 15
    with pytest.raises(MoveError):
        env.step(np.array([0]))  # an action id for a full set
    before = bytes(ofc_fast._native.ffi.buffer(env.game_of(0)))
    bad = np.full((1, 17), 2, np.uint8)
    with pytest.raises(MoveError) as exc:
        env.step(np.array([-1]), bad)  # 15 cards to the back
    assert exc.value.reason in ("row_full", "discard_count")
    assert bytes(ofc_fast._native.ffi.buffer(env.game_of(0))) == before
    move = solver_rows(obs["dealt"], presets.PINEAPPLE)
    env.step(np.array([-1]), np.array([move + [0] * (17 - len(move))], np.uint8))
    assert int(env.seats[0]) == 1 and not env.full_sets[0]


def test_an_illegal_action_id_points_to_placements_only_at_a_full_set() -> None:
    """The MoveError of an illegal action id advises passing a placement only where
    the decision is a full set (``fantasyland="decision"``), where placements play
    (before: at every decision, in the Gymnasium and PettingZoo envs too, which take
    no placements).  Reference: the mask of the decision."""
    from ofc_fast.env.gym import OfcEnv

    gym_env = OfcEnv(illegal="raise")
    obs, _ = gym_env.reset(seed=1)
    aec = pettingzoo_env("pineapple", 2)
    aec.reset(seed=1)
    venv = VectorEnv("pineapple", num_envs=1, seed=1)
    venv.reset()
    steps = (
        (gym_env.step, obs["action_mask"]),
        (aec.step, aec.observe(aec.agent_selection)["action_mask"]),
        (lambda a: venv.step(np.array([a])), venv.action_masks[0]),
    )
    for step, mask in steps:
        with pytest.raises(MoveError, match="not legal") as exc:
            step(int(np.flatnonzero(mask == 0)[0]))
        assert "placement" not in str(exc.value)
    env = VectorEnv(
        "pineapple", num_envs=1, players=2, seed=3, fantasyland="decision", autoreset=False
    )
    env.reset()
    while int(env.seats[0]) >= 0:
        env.step(env.legal_actions[:, 0].astype(np.int64))
    env._slots[0].fl[0] = 15
    env.next_deal(0)
    assert env.full_sets[0] and not env.action_masks[0].any()
    with pytest.raises(MoveError, match="pass a placement"):
        env.step(np.array([0]))


# ------------------------------------------------------------ opponents


def test_random_opponents_only_the_learner_decides() -> None:
    rules = presets.PINEAPPLE
    n = 8
    env = VectorEnv(rules, num_envs=n, players=3, seed=4, opponents="random", learner=1)
    obs, info = env.reset()
    rng = np.random.default_rng(0)
    deal = np.zeros(n, np.int64)
    step = np.zeros(n, np.int64)
    ended = 0
    for _ in range(150):
        assert (info["seat"] == 1).all()
        for i in range(n):  # the learner's cards are the deal's, whatever the others do
            g = Game(
                rules,
                3,
                seed=deal_seed(env_seed(4, i), int(deal[i])),
                button=env._slots[i].game.button,
                fantasyland=list(env._slots[i].game.fl)[:3],
            )
            mine = [st for st in g._steps if st[0] == 1]
            assert int(env._slots[i].deal) == deal[i] + 1
            st = mine[int(step[i])]
            assert set(np.flatnonzero(obs[i, 624:676])) == set(
                g._deck[st[1] : st[1] + st[2]]
            )
            shown = set(np.flatnonzero(obs[i, : 14 * 52].reshape(14, 52).any(axis=0)))
            assert shown <= set(g._deck[: st[1] + st[2]])  # nothing not dealt yet
        pick = (rng.random(n) * env.legal_counts).astype(np.int64)
        obs, rewards, terms, _, info = env.step(env.legal_actions[np.arange(n), pick])
        step += 1
        for i in np.flatnonzero(terms):
            assert rewards[i] == info["final_rewards"][i, 1]
            assert info["final_rewards"][i].sum() == 0
            deal[i] += 1
            step[i] = 0
            ended += 1
    assert ended > 50


def test_shaping_keeps_each_deals_total() -> None:
    """A deal's shaped rewards add up to its points; ``final_rewards`` are the points
    unshaped, and with ``shaping`` the points less the seat's last potential (as
    csrc/include/ofc_vecenv.h says; docs/environments.md said the points, and now
    says this)."""
    kw = dict(num_envs=8, players=2, seed=6, opponents="random")
    plain, shaped = VectorEnv("pineapple", **kw), VectorEnv("pineapple", shaping=0.5, **kw)
    plain.reset()
    shaped.reset()
    rng = np.random.default_rng(0)
    total = np.zeros(8)
    nonzero = differ = 0
    for _ in range(120):
        pick = (rng.random(8) * plain.legal_counts).astype(np.int64)
        a = plain.legal_actions[np.arange(8), pick].astype(np.int64)
        _, r0, t0, _, i0 = plain.step(a)
        _, r1, t1, _, i1 = shaped.step(a)
        assert (t0 == t1).all()
        nonzero += int((r1[~t1] != 0).sum())
        total += r1
        for i in np.flatnonzero(t1):
            assert total[i] == pytest.approx(r0[i])
            total[i] = 0
            assert i0["final_rewards"][i, 0] == r0[i]  # unshaped: the points
            differ += int(i1["final_rewards"][i, 0] != r0[i])  # less the last potential
    assert nonzero > 0 and differ > 0
    doc = Path(__file__).resolve().parent.parent / "docs" / "environments.md"
    if doc.exists():
        text = " ".join(doc.read_text(encoding="utf-8").split())
        assert '`infos["final_rewards"]` then holds each seat\'s points less its' in text


def test_shaping_is_the_learners_alone() -> None:
    """Bot seats are not shaped: their final rewards are their points, as without
    shaping (the same bots, seeds and learner actions give the same deals)."""
    kw = dict(num_envs=2, players=2, seed=8, opponents="heuristic")
    plain, shaped = VectorEnv("pineapple", **kw), VectorEnv("pineapple", shaping=1.0, **kw)
    plain.reset()
    shaped.reset()
    ended = 0
    for _ in range(15):
        a = plain.legal_actions[:, 0].astype(np.int64)
        _, _, t0, _, i0 = plain.step(a)
        _, _, t1, _, i1 = shaped.step(a)
        assert (t0 == t1).all()
        assert (i0["final_rewards"][:, 1] == i1["final_rewards"][:, 1]).all()
        ended += int(t0.sum())
    assert ended >= 2


def test_heuristic_opponents() -> None:
    env = VectorEnv("pineapple", num_envs=2, players=2, seed=1, opponents="heuristic")
    obs, info = env.reset()
    rng = np.random.default_rng(0)
    ended = 0
    for _ in range(12):
        assert (info["seat"] == 0).all()
        pick = (rng.random(2) * env.legal_counts).astype(np.int64)
        obs, rewards, terms, _, info = env.step(env.legal_actions[np.arange(2), pick])
        for i in np.flatnonzero(terms):
            assert (
                rewards[i] == info["final_rewards"][i, 0]
                and info["final_rewards"][i].sum() == 0
            )
            ended += 1
    assert ended >= 2


class FlakyBot:
    """A bot by import path (``test_env:FlakyBot``) that raises while ``failing``."""

    failing = False

    def __init__(self, rules: object = None, seed: object = None) -> None:
        pass

    def act(self, obs: dict) -> Move:
        if FlakyBot.failing:
            raise RuntimeError("the bot's own bug")
        return Move.from_action(obs["dealt"], obs["to_discard"], min(obs["legal_actions"]))


@pytest.mark.parametrize("how", ["vector", "gymnasium"])
def test_a_bot_opponent_that_raises_leaves_an_env_that_needs_a_reset(how: str) -> None:
    """A bot opponent that raises stops the step with its seat's decision pending: the
    agent's next action must not be played for the bot's seat (before: it was,
    silently).  Reference: the engine's seat to act (ofc_game_to_act), unchanged
    bytes, and a GameError naming reset()."""
    kwargs = {"players": 2, "seed": 3, "opponents": "test_env:FlakyBot"}
    if how == "vector":
        venv = VectorEnv("pineapple", num_envs=1, **kwargs)
        venv.reset()
        step = lambda: venv.step(venv.legal_actions[:, :1].reshape(1).astype(np.int64))  # noqa: E731
    else:
        gym = pytest.importorskip("gymnasium", reason="pip install .[rl]")
        env = gym.make("ofc_fast/Pineapple-v0", **kwargs).unwrapped
        env.reset()
        venv = env._venv
        step = lambda: env.step(int(env.action_masks().argmax()))  # noqa: E731
    step()
    FlakyBot.failing = True
    try:
        with pytest.raises(RuntimeError, match="own bug"):
            step()
    finally:
        FlakyBot.failing = False
    g = venv.game_of(0)
    assert ofc_fast._native.lib.ofc_game_to_act(g) == 1
    before = bytes(ofc_fast._native.ffi.buffer(g))
    with pytest.raises(GameError, match=r"reset\(\)"):
        step()
    assert bytes(ofc_fast._native.ffi.buffer(g)) == before
    (venv if how == "vector" else env).reset()
    assert venv.seats[0] == 0
    step()


# ------------------------------------------------------------ errors, seeds, threads


def test_illegal_action_changes_nothing() -> None:
    env = VectorEnv("pineapple", num_envs=4, players=2, seed=0)
    env.reset()
    before = bytes(ofc_fast._native.ffi.buffer(env._slots))
    actions = env.legal_actions[:, 0].astype(np.int64)
    actions[2] = next(a for a in range(243) if not env.action_masks[2, a])
    with pytest.raises(MoveError, match="env 2") as exc:
        env.step(actions)
    assert exc.value.reason == "bad_action"
    assert bytes(ofc_fast._native.ffi.buffer(env._slots)) == before
    for bad in ([0, 0, 0], np.zeros(4, np.float64), [[0] * 4]):
        with pytest.raises(MoveError):
            env.step(bad)
    with pytest.raises(MoveError):
        env.step(np.array([999, 0, 0, 0]))


@settings(max_examples=60, deadline=None)
@given(st.lists(st.integers(-300, 300), min_size=4, max_size=4), st.integers(0, 30))
def test_any_actions_step_or_change_nothing(actions: list[int], warmup: int) -> None:
    """Whatever ints a caller passes, a step either plays them all (each legal) or
    raises MoveError and leaves every environment byte for byte as it was."""
    env = VectorEnv("ofc", num_envs=4, players=2, seed=warmup)
    env.reset()
    for _ in range(warmup):
        env.step(env.legal_actions[:, 0].astype(np.int64))
    legal = all(0 <= a < 243 and env.action_masks[i, a] for i, a in enumerate(actions))
    before = bytes(ofc_fast._native.ffi.buffer(env._slots))
    if legal:
        env.step(np.array(actions))
        assert bytes(ofc_fast._native.ffi.buffer(env._slots)) != before
    else:
        with pytest.raises(MoveError):
            env.step(np.array(actions))
        assert bytes(ofc_fast._native.ffi.buffer(env._slots)) == before


@pytest.mark.parametrize(
    "kwargs,match",
    [
        (dict(rules="classic_1_6"), "classic"),
        (dict(rules="nope"), "nope"),
        (dict(players=4), "players"),
        (dict(players=1), "players"),
        (
            dict(
                rules=replace(
                    presets.OFC,
                    name="OFC14",
                    fantasyland=replace(
                        presets.OFC.fantasyland, entry=(("QQ", 14),), stay_cards=14
                    ),
                ),
                players=4,
            ),
            "52",
        ),
        (dict(num_envs=0), "num_envs"),
        (dict(num_envs=2.0), "num_envs"),
        (dict(opponents="alice"), "opponents"),
        (dict(fantasyland="x"), "fantasyland"),
        (dict(learner=2), "learner"),
        (dict(seed=-1), "seed"),
        (dict(shaping=float("nan")), "shaping"),
        (dict(stay_value="x"), "stay_value"),
    ],
)
def test_bad_settings(kwargs: dict, match: str) -> None:
    kw = dict(rules="pineapple", num_envs=2, players=2)
    kw.update(kwargs)
    with pytest.raises(ofc_fast.OfcError, match=match):
        VectorEnv(**kw)


def test_step_before_reset() -> None:
    with pytest.raises(GameError, match="reset"):
        VectorEnv("pineapple", 2).step([0, 0])


def test_reset_with_a_seed_replays() -> None:
    env = VectorEnv("ofc", num_envs=4, players=2, seed=0)

    def run(seed: int) -> list[bytes]:
        obs, _ = env.reset(seed=seed)
        out = [obs.tobytes()]
        for _ in range(30):
            obs, r, *_ = env.step(env.legal_actions[:, 0].astype(np.int64))
            out.append(obs.tobytes() + r.tobytes())
        return out

    assert run(9) == run(9) != run(10)


def run_env(seed: int, steps: int) -> bytes:
    env = VectorEnv("pineapple", num_envs=64, players=2, seed=seed)
    env.reset()
    rng = np.random.default_rng(seed)
    digest = []
    for _ in range(steps):
        pick = (rng.random(64) * env.legal_counts).astype(np.int64)
        obs, r, t, _, _ = env.step(env.legal_actions[np.arange(64), pick])
        digest.append(obs.tobytes() + r.tobytes() + t.tobytes())
    return b"".join(digest)


def test_two_threads_step_two_envs() -> None:
    expected = {s: run_env(s, 150) for s in (1, 2)}
    got: dict[int, bytes] = {}
    threads = [
        threading.Thread(target=lambda s=s: got.__setitem__(s, run_env(s, 150)))
        for s in (1, 2)
    ]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert got == expected


# ------------------------------------------------------------ the encoding


def test_encoding_module_is_the_c_encoder() -> None:
    rng = np.random.default_rng(0)
    for rules_name, players in KINDS:
        g = Game(rules_name.lower(), players=players, seed=int(rng.integers(1 << 62)))
        while True:
            for s in range(players):
                o = g.observation(s)
                ref = reference_encoding(o)
                assert (encode_bytes(o) == ref).all()
                assert (encode_game(g, s) == ref).all()
                assert np.allclose(encode(o), ref * SCALE)
                check_no_hidden(encode_game(g, s), g, s)
            if g.is_over:
                break
            g.play(g.random_move())
    assert planes(np.zeros((2, ENCODING_SIZE))).shape == (2, 15, 13, 4)
    assert SCALE[780 + 12] == pytest.approx(1 / 17)
    with pytest.raises(GameError):
        encode_bytes({"seat": 0})


def test_float_observations() -> None:
    env = VectorEnv("pineapple", num_envs=2, players=2, seed=0)
    obs, _ = env.reset()
    assert np.allclose(env.observations_float(), obs * SCALE)


# ------------------------------------------------------------ official checkers


@pytest.mark.parametrize("obs_type", ["bytes", "features"])
def test_gymnasium_check_env(obs_type: str) -> None:
    import gymnasium
    from gymnasium.utils.env_checker import check_env

    assert set(GYM_IDS) <= set(gymnasium.registry)
    for env_id in GYM_IDS:
        env = gymnasium.make(env_id, opponents="random", obs_type=obs_type)
        check_env(env.unwrapped, skip_render_check=True)
    env = gymnasium.make("ofc_fast/Pineapple-v0", opponents="heuristic", obs_type=obs_type)
    check_env(env.unwrapped, skip_render_check=True)


def test_gymnasium_action_masks_through_make_as_documented() -> None:
    """docs/environments.md: through ``gymnasium.make``'s wrappers the mask is
    ``env.unwrapped.action_masks()`` or ``env.get_wrapper_attr("action_masks")()``;
    the wrapper itself has no ``action_masks`` (Gymnasium 1.x forwards no methods)."""
    import gymnasium

    env = gymnasium.make("ofc_fast/Pineapple-v0", opponents="random")
    obs, _ = env.reset(seed=2)
    want = obs["action_mask"].astype(bool)
    assert np.array_equal(env.unwrapped.action_masks(), want)
    assert np.array_equal(env.get_wrapper_attr("action_masks")(), want)
    assert not hasattr(env, "action_masks")  # what the docs used to show
    doc = Path(__file__).resolve().parent.parent / "docs" / "environments.md"
    if doc.exists():
        text = doc.read_text(encoding="utf-8")
        assert "`env.action_masks()` (booleans" not in text
        assert "env.unwrapped.action_masks()" in text


def test_an_unknown_opponent_is_refused_naming_the_bot_specs() -> None:
    """``VectorEnv(opponents="nobot")`` listed only the names (self, random and the
    bots), while docs/environments.md says a bot spec (``policy:PATH``,
    ``module:attribute``) works too: the refusal names both forms."""
    with pytest.raises(GameError) as info:
        VectorEnv("pineapple", num_envs=1, opponents="nobot")
    text = str(info.value)
    assert "heuristic" in text and "policy:PATH" in text and "module:attribute" in text
    assert "got 'nobot'" in text


def test_a_bot_opponent_that_cannot_play_at_the_table_is_refused_when_made() -> None:
    """``VectorEnv("ofc", players=4, opponents="value")`` (no value model ships for
    OFC with 4 players) was made without error and failed at ``reset``: the env
    refuses it when made, as ``make_bots`` does (the bot's ``check_players``); the
    Gymnasium env's opponents too.  Where a model ships, the env is made."""
    from ofc_fast.errors import BotError

    want = r"no value model ships for OFC with 4 players"
    with pytest.raises(BotError, match=want):
        VectorEnv("ofc", players=4, num_envs=1, opponents="value", seed=1)
    with pytest.raises(BotError, match=want):
        VectorEnv("ofc", players=4, num_envs=1, opponents="value", learner=3, seed=1)
    assert VectorEnv("ofc", players=2, num_envs=1, opponents="value", seed=1).players == 2
    pytest.importorskip("gymnasium", reason="pip install gymnasium")
    from ofc_fast.env.gym import OfcEnv

    with pytest.raises(BotError, match=want):
        OfcEnv("ofc", players=4, opponents="value")


def test_environments_md_names_only_public_classes() -> None:
    """docs/environments.md named ``LearnerTables``, a class of the private module
    ``ofc_fast.env._learner`` that no public module lists: every class the page names
    is in the ``__all__`` of a public module (or is Gymnasium's, SB3's or the recipe's)."""
    import builtins
    import importlib

    doc = Path(__file__).resolve().parent.parent / "docs" / "environments.md"
    if not doc.exists():
        pytest.skip("needs a source checkout (git clone: docs/)")
    named = set(re.findall(r"`([A-Z][A-Za-z0-9]+)[`(.\[]", doc.read_text(encoding="utf-8")))
    public: set[str] = set()
    for module in ("ofc_fast", "ofc_fast.env", "ofc_fast.bots", "ofc_fast.errors"):
        public |= set(importlib.import_module(module).__all__)
    for module in ("ofc_fast.env.sb3", "ofc_fast.env.gym", "ofc_fast.env.aec"):
        try:
            public |= set(importlib.import_module(module).__all__)
        except ImportError:
            public |= {"VecEnv", "GymVectorEnv"}  # ofc_fast.env.sb3's, without SB3
    others = {
        "Discrete",
        "DummyVecEnv",
        "SubprocVecEnv",
        "SameStep",
        "CONFIG",
        "NamespaceNotFound",
    }  # not ofc_fast's
    others |= {name for name in dir(builtins) if name[0].isupper()}  # Python's (TypeError)
    assert named - others <= public, sorted(named - others - public)


def test_the_documented_legal_ids_expression_runs() -> None:
    """docs/environments.md gave the legal ids as ``infos["legal_actions"][:,
    :infos["legal_count"]]``, which NumPy refuses (a slice bound must be a scalar);
    the expression the page gives now runs and gives each table's mask's ids."""
    doc = Path(__file__).resolve().parent.parent / "docs" / "environments.md"
    if not doc.exists():
        pytest.skip("needs a source checkout (git clone: docs/)")
    text = " ".join(doc.read_text(encoding="utf-8").split())
    (expr,) = [e for e in re.findall(r"`([^`]+)`", text) if '["legal_count"]' in e]
    env = VectorEnv("pineapple", num_envs=3, opponents="random", seed=4)
    _, infos = env.reset()
    for i in range(env.num_envs):
        ids = eval(expr, {"infos": infos, "i": i})  # the page's own text
        assert np.array_equal(ids, np.flatnonzero(infos["action_mask"][i])), expr


@pytest.mark.parametrize("obs_type", ["bytes", "features"])
def test_gymnasium_action_masks(obs_type: str) -> None:
    """action_masks() (sb3-contrib's convention) is the observation's mask as booleans,
    and the observation is the encoding or the features of the learner's view."""
    import gymnasium

    env = gymnasium.make("ofc_fast/Pineapple-v0", opponents="random", obs_type=obs_type)
    obs, _ = env.reset(seed=5)
    rng = np.random.default_rng(0)
    for _ in range(200):
        mask = env.unwrapped.action_masks()
        assert mask.dtype == np.bool_ and mask.shape == (243,)
        assert np.array_equal(mask, obs["action_mask"].astype(bool))
        view = env.unwrapped._venv.observation(0, 0)
        want = features(view) if obs_type == "features" else encode_bytes(view)
        assert np.array_equal(obs["observation"], want)
        obs, _, term, _, _ = env.step(int(rng.choice(np.flatnonzero(mask))))
        if term:
            obs, _ = env.reset()


def test_gymnasium_action_masks_before_reset_are_a_game_error() -> None:
    """Before the first reset there is no deal: ``action_masks()`` was 243 False
    (a mask with no legal action, which sb3-contrib's masked distributions cannot
    sample); it is now the GameError ``render()`` gives then, and after a reset the
    observation's mask."""
    import gymnasium

    env = gymnasium.make("ofc_fast/Pineapple-v0").unwrapped
    with pytest.raises(GameError, match=r"^call reset\(\) before action_masks\(\)"):
        env.action_masks()
    obs, _ = env.reset(seed=0)
    assert np.array_equal(env.action_masks(), obs["action_mask"] == 1)
    assert env.action_masks().any()


def test_gymnasium_episode() -> None:
    import gymnasium

    env = gymnasium.make("ofc_fast/Pineapple-v0", opponents="random")
    obs, _ = env.reset(seed=3)
    rng = np.random.default_rng(0)
    episodes = 0
    while episodes < 20:
        legal = np.flatnonzero(obs["action_mask"])
        obs, reward, term, trunc, info = env.step(int(rng.choice(legal)))
        if term:
            assert reward == info["final_rewards"][0]
            episodes += 1
            obs, _ = env.reset()
    for bad in (None, "3", 2.5, True):
        with pytest.raises(MoveError):
            env.step(bad)
    for kw in (dict(opponents="self"), dict(illegal="x"), dict(fantasyland="decision")):
        with pytest.raises(GameError):
            gymnasium.make("ofc_fast/OFC-v0", **kw)
    with pytest.raises(GameError):
        pettingzoo_env("ofc", 2, fantasyland="decision")
    strict = gymnasium.make("ofc_fast/OFC-v0", opponents="random", illegal="raise")
    obs, _ = strict.reset(seed=0)
    with pytest.raises(MoveError):
        strict.step(int(np.flatnonzero(obs["action_mask"] == 0)[0]))


@pytest.mark.parametrize("illegal", [np.array(["remap", "raise"]), ["remap"], b"raise"])
def test_gymnasium_env_names_an_illegal_mode_that_is_no_text(illegal: object) -> None:
    """``illegal`` other than "remap" or "raise" is a GameError naming it (before: an
    array was NumPy's ValueError, "the truth value of an array ... is ambiguous")."""
    from ofc_fast.env.gym import OfcEnv

    with pytest.raises(GameError, match="illegal must be one of remap, raise, got"):
        OfcEnv(illegal=illegal)


def test_adapters_name_the_opponent_keyword_they_take() -> None:
    """The one-table envs take ``opponents=``, the learner's tables ``opponent=``:
    the other spelling is a GameError naming the right one (before: a bare TypeError
    from VectorEnv, or for the learner's tables "sets opponents='random' itself",
    as though a bot could not play there); the message's verb agrees ("the
    Gymnasium env takes", was "take")."""
    from ofc_fast.env._learner import LearnerTables
    from ofc_fast.env.gym import OfcEnv

    for make in (OfcEnv, pettingzoo_env):
        with pytest.raises(GameError, match=r" takes opponents=, not opponent="):
            make(opponent="heuristic")
    for value in ("heuristic", "random"):
        with pytest.raises(
            GameError, match=r"^an SB3 adapter .* takes opponent=, not opponents="
        ):
            LearnerTables("pineapple", 2, opponents=value)
    assert LearnerTables("pineapple", 2, opponent="heuristic").venv.opponents == "heuristic"


def test_env_text_options_take_any_case() -> None:
    """``illegal`` and ``render_mode`` take any case, as ``obs_type`` and
    ``opponents`` do (before: ``illegal="Raise"`` and ``render_mode="ANSI"`` were a
    GameError); the env keeps the lower-case spelling."""
    from ofc_fast.env.gym import OfcEnv

    env = OfcEnv(illegal="Raise", render_mode="ANSI", opponents="Random", obs_type="BYTES")
    assert (env.illegal, env.render_mode) == ("raise", "ansi")
    obs, _ = env.reset(seed=0)
    with pytest.raises(MoveError):  # "raise", not "remap"
        env.step(int(np.flatnonzero(obs["action_mask"] == 0)[0]))
    assert isinstance(env.render(), str)
    assert pettingzoo_env(render_mode="Ansi").render_mode == "ansi"


@pytest.mark.parametrize("obs_type", ["bytes", "features"])
@pytest.mark.parametrize("players", [2, 3])
def test_pettingzoo_api_and_seed(players: int, obs_type: str) -> None:
    from pettingzoo.test import api_test, seed_test

    api_test(
        pettingzoo_env(rules="pineapple", players=players, obs_type=obs_type),
        num_cycles=300,
    )
    seed_test(lambda: pettingzoo_env(rules="pineapple", players=players, obs_type=obs_type))


def test_pettingzoo_env_np_random_is_seeded_by_reset() -> None:
    """PettingZoo's AEC API has ``np_random`` after ``reset(seed=)``, seeded by it
    (was: no such attribute); the reference is NumPy's ``default_rng`` of the seed
    (what Gymnasium's ``seeding.np_random`` makes).  Without a seed it goes on; an env
    made with ``seed=`` starts seeded by it (test_pettingzoo_api_and_seed runs
    seed_test on the same env)."""

    def draws(rng: np.random.Generator) -> list[int]:
        return [int(x) for x in rng.integers(2**32, size=4)]

    env = pettingzoo_env(rules="pineapple", players=2)
    env.reset(seed=7)
    assert draws(env.np_random) == draws(np.random.default_rng(7))
    reference = np.random.default_rng(2**64 - 1)
    env.reset(seed=np.uint64(2**64 - 1))  # a NumPy int seed, the largest
    assert draws(env.np_random) == draws(reference)
    env.reset()  # no seed: the same generator goes on
    assert draws(env.np_random) == draws(reference)
    with pytest.raises(TableError):
        env.reset(seed=-1)
    assert draws(env.np_random) == draws(reference)  # a refused seed changed nothing
    made = pettingzoo_env(rules="pineapple", players=2, seed=9)
    assert draws(made.np_random) == draws(np.random.default_rng(9))


@pytest.mark.parametrize("agent", ["player_9", "x", "player_3", 0, None, ["player_0"]])
def test_pettingzoo_unknown_agent_is_a_game_error_naming_the_agents(agent: object) -> None:
    """``observe``, ``action_space`` and ``observation_space`` of an agent the env
    does not have were a bare ``KeyError`` (an unhashable one a ``TypeError``): now
    the env's ``GameError`` naming the agent and the env's agents, before a reset
    too; it is a ``KeyError`` as well, for PettingZoo code that catches that."""
    from ofc_fast.errors import UnknownAgentError

    env = pettingzoo_env(rules="pineapple", players=3)
    agents = "player_0, player_1, player_2"
    for _ in ("before a reset", "after"):
        for call in (env.observe, env.action_space, env.observation_space):
            with pytest.raises(GameError, match=re.escape(agents)) as info:
                call(agent)
            assert type(info.value) is UnknownAgentError
            assert isinstance(info.value, KeyError)
            assert str(info.value).startswith(f"unknown agent {agent!r}")
        env.reset(seed=0)
    assert env.observe("player_2")["observation"].shape == (828,)


def test_pettingzoo_last_with_no_agent_to_act_is_a_game_error() -> None:
    """``last()`` before the first ``reset()`` was a bare AttributeError (no
    ``agent_selection``), after every agent's last step of a deal a bare KeyError:
    now the GameError ``step()`` gives then, naming reset(); in between it is
    PettingZoo's ``last()``, the acting agent's view."""
    env = pettingzoo_env(rules="pineapple", players=2)
    with pytest.raises(GameError, match=r"last\(\) with no agent to act: call reset\(\)"):
        env.last()
    env.reset(seed=0)
    for agent in env.agent_iter(max_iter=100):
        obs, _, done, cut, _ = env.last()
        assert np.array_equal(obs["action_mask"], env.observe(agent)["action_mask"])
        env.step(None if done or cut else int(np.flatnonzero(obs["action_mask"])[0]))
    assert env.agents == []
    with pytest.raises(GameError, match=r"last\(\) with no agent to act"):
        env.last(observe=False)
    env.reset()
    assert env.last()[0]["action_mask"].any()


def test_pettingzoo_features_are_each_seats_view() -> None:
    """Every agent's features, the acting one's and the others', are those of its own
    observation (and the mask is empty for the seats not to act)."""
    env = pettingzoo_env(rules="ofc", players=3, obs_type="features")
    env.reset(seed=2)
    rng = np.random.default_rng(0)
    for agent in env.agent_iter(max_iter=200):
        for other in env.agents:
            o = env.observe(other)
            view = env._venv.observation(0, int(other[-1]))
            assert np.array_equal(o["observation"], features(view))
            assert o["action_mask"].any() == (other == agent and not view["is_over"])
        obs, _, term, trunc, _ = env.last()
        env.step(None if term else int(rng.choice(np.flatnonzero(obs["action_mask"]))))
        if not env.agents:
            env.reset()


def test_pettingzoo_rewards_are_the_deal() -> None:
    env = pettingzoo_env(rules="ofc", players=3)
    env.reset(seed=1)
    rng = np.random.default_rng(0)
    for _ in range(5):
        totals = {a: 0.0 for a in env.possible_agents}
        for agent in env.agent_iter():
            obs, reward, term, trunc, _ = env.last()
            totals[agent] += reward
            check = env._venv.observation(0, int(agent[-1]))
            assert (obs["observation"] == reference_encoding(check)).all()
            env.step(None if term else int(rng.choice(np.flatnonzero(obs["action_mask"]))))
        assert sum(totals.values()) == 0
        env.reset()
    with pytest.raises(MoveError):
        env.step(None)


# ------------------------------------------------------------ audit: adapters' edges


def test_pettingzoo_shaped_rewards_add_up_to_the_deal() -> None:
    """With shaping, each agent's rewards over a deal add up to its points, which a
    Match replaying the same actions scores (the per-step shaping is not dropped)."""
    seed = 4
    env = pettingzoo_env("pineapple", 2, shaping=1.0)
    env.reset(seed=seed)
    match = Match(presets.PINEAPPLE, 2, seed=env_seed(seed, 0))
    rng = np.random.default_rng(0)
    shaped_steps = 0
    for _ in range(12):
        g = match.next_game()
        finish_fantasyland(g)
        totals = {a: 0.0 for a in env.possible_agents}
        for agent in env.agent_iter():
            obs, reward, term, trunc, _ = env.last()
            totals[agent] += reward
            shaped_steps += reward != 0 and not term
            if term:
                env.step(None)
                continue
            action = int(rng.choice(np.flatnonzero(obs["action_mask"])))
            assert g.to_act == int(agent[-1])
            g.play_action(action)
            finish_fantasyland(g)
            env.step(action)
        assert g.is_over
        net = match.record(g).net
        assert [totals[a] for a in env.possible_agents] == [float(x) for x in net]
        env.reset()
    assert shaped_steps > 0


def test_gymnasium_reset_mid_deal_deals_a_new_hand() -> None:
    """reset() in the middle of a deal (a TimeLimit truncation) deals a new hand: the
    learner's board is empty again, as at every deal's first decision."""
    import gymnasium

    env = gymnasium.make("ofc_fast/Pineapple-v0", opponents="random", max_episode_steps=2)
    obs, _ = env.reset(seed=1)
    for _ in range(6):
        obs, _, term, trunc, _ = env.step(int(np.flatnonzero(obs["action_mask"])[0]))
        if term or trunc:
            obs, _ = env.reset()
            view = env.unwrapped._venv.observation(0, 0)
            assert view["boards"][0] == [[], [], []], view
            assert not obs["observation"][: 3 * 52].any()
            assert len(view["dealt"]) == 5


@pytest.mark.parametrize("action", [2**70, -(2**70), np.uint64(2**64 - 1), -1, 243])
def test_single_table_adapters_refuse_any_int_with_move_error(action: object) -> None:
    """An out-of-range int (beyond int64 too) is a MoveError, not an OverflowError."""
    import gymnasium

    strict = gymnasium.make("ofc_fast/Pineapple-v0", illegal="raise")
    strict.reset(seed=0)
    with pytest.raises(MoveError) as exc:
        strict.step(action)
    assert exc.value.reason == "bad_action"
    aec = pettingzoo_env("pineapple", 2)
    aec.reset(seed=0)
    with pytest.raises(MoveError) as exc:
        aec.step(action)
    assert exc.value.reason == "bad_action"


@pytest.mark.parametrize("shape", [(10,), (), (ENCODING_SIZE + 72,), (2, 900)])
def test_planes_refuses_what_is_no_encoding(shape: tuple[int, ...]) -> None:
    """Only a last axis of ENCODING_SIZE has card planes: 900 values are no
    encoding (their first 780 were read as planes), 10 or a 0-d array neither."""
    with pytest.raises(GameError, match="encoding"):
        planes(np.zeros(shape, np.uint8))


def test_planes_are_the_first_780_values() -> None:
    x = np.arange(2 * ENCODING_SIZE).reshape(2, ENCODING_SIZE)
    p = planes(x)
    assert p[1, 14, 12, 3] == ENCODING_SIZE + 15 * 52 - 1
    assert p[0, 1, 0, 2] == 52 + 2


def test_num_envs_takes_a_numpy_int_as_players_and_learner_do() -> None:
    env = VectorEnv("pineapple", num_envs=np.int64(3), players=np.int8(2), seed=0)
    assert type(env.num_envs) is int and env.num_envs == 3
    assert env.reset()[0].shape == (3, ENCODING_SIZE)
    for bad in (np.bool_(True), np.float64(3.0), np.uint64(1 << 25), np.array(3)):
        with pytest.raises(GameError, match="num_envs"):
            VectorEnv("pineapple", num_envs=bad, seed=0)  # type: ignore[arg-type]


def test_encode_refuses_a_read_only_out() -> None:
    env = VectorEnv("pineapple", num_envs=1, players=2, seed=0)
    env.reset()
    frozen = np.frombuffer(bytes(ENCODING_SIZE), np.uint8)
    with pytest.raises(GameError, match="writable"):
        env.encode(0, 0, frozen)
    assert not frozen.any()


@pytest.mark.parametrize("out", [[0] * ENCODING_SIZE, bytearray(ENCODING_SIZE), None])
def test_encode_refuses_an_out_that_is_no_array(out: object) -> None:
    """A list or bytearray ``out`` is a GameError, not an AttributeError."""
    env = VectorEnv("pineapple", num_envs=1, players=2, seed=0)
    env.reset()
    if out is None:  # a 0-d uint8 array: an ndarray, but of the wrong shape
        out = np.zeros((), np.uint8)
    with pytest.raises(GameError, match="out must be"):
        env.encode(0, 0, out)  # type: ignore[arg-type]


def test_a_placement_row_shorter_than_the_deal_is_refused() -> None:
    """4 destinations for 5 dealt cards: a MoveError, not the 5th card put in front
    (the shorter row was padded with 0, a legal destination)."""
    env = VectorEnv("pineapple", num_envs=1, players=2, seed=1)
    env.reset(seed=1)
    seat = int(env.seats[0])
    assert len(env.observation(0, seat)["dealt"]) == 5
    before = bytes(ofc_fast._native.ffi.buffer(env._slots))
    with pytest.raises(MoveError) as exc:
        env.step(np.array([-1]), np.array([[2, 2, 1, 1]]))
    assert exc.value.reason == "bad_move"
    assert bytes(ofc_fast._native.ffi.buffer(env._slots)) == before
    assert env.observation(0, seat)["boards"][seat] == [[], [], []]
    env.step(np.array([-1]), np.array([[2, 2, 1, 1, 0]]))  # all five: played
    assert sorted(map(len, env.observation(0, seat)["boards"][seat])) == [1, 2, 2]


def test_uint64_actions_past_int64_are_refused() -> None:
    """2**64 - 1 as a uint64 is no action id and not the -1 that plays placements."""
    env = VectorEnv("pineapple", num_envs=1, players=2, seed=0)
    env.reset()
    before = bytes(ofc_fast._native.ffi.buffer(env._slots))
    place = np.array([[0, 1, 1, 2, 2]])
    with pytest.raises(MoveError) as exc:
        env.step(np.array([2**64 - 1], np.uint64), place)
    assert exc.value.reason == "bad_action"
    assert bytes(ofc_fast._native.ffi.buffer(env._slots)) == before
    env.step(np.array([-1]), place)  # the same placement with -1 plays
    assert bytes(ofc_fast._native.ffi.buffer(env._slots)) != before


def test_reset_replays_with_python_bot_opponents() -> None:
    """reset() without a seed starts every match again, bots included: a seeded bot
    in Python replays its moves as a fresh environment of that seed plays them (as the
    random seats inside C do)."""
    from ofc_fast.bots import RandomBot, register, unregister

    register("audit-coin", lambda rules=None, seed=None, **kw: RandomBot(seed))
    try:

        def run(env: VectorEnv) -> list[bytes]:
            obs, _ = env.reset()
            out = [obs.tobytes()]
            for _ in range(25):
                obs, r, *_ = env.step(env.legal_actions[:, 0].astype(np.int64))
                out.append(obs.tobytes() + r.tobytes())
            return out

        kw = dict(num_envs=4, players=2, seed=3, opponents="audit-coin")
        env = VectorEnv("pineapple", **kw)
        first = run(env)
        assert run(env) == first == run(VectorEnv("pineapple", **kw))
    finally:
        unregister("audit-coin")


def test_next_deal_takes_numpy_env_indices() -> None:
    """next_deal(i) for the i of np.flatnonzero(terminations) (NumPy ints), as
    game_of() and observation() take them."""
    env = VectorEnv("pineapple", num_envs=3, players=2, seed=1, autoreset=False)
    env.reset()
    while not env.terminations.any():
        env.step(env.legal_actions[:, 0].astype(np.int64))
    for i in np.flatnonzero(env.terminations):
        env.next_deal(i)
        assert int(env.seats[i]) >= 0
    with pytest.raises(GameError, match="env"):
        env.next_deal(np.int64(3))
    with pytest.raises(GameError, match="env"):
        env.next_deal(np.bool_(True))


def test_next_deal_allocates_no_array_of_every_table() -> None:
    """Regression: ``next_deal(i)`` (and a ``reset_mask`` reset) made a zeroed array
    of ``num_envs`` x 4 rewards at every call (64 KiB, about 6 us at 4096 tables) to
    sum the points of deals played on, which a deal with an agent decision never
    has; the sum is made only when a deal is played on.  Measured in bytes
    (tracemalloc traces NumPy's buffers), not in time: the same on any machine."""
    import tracemalloc

    env = VectorEnv("pineapple", num_envs=4096, players=2, seed=1, autoreset=False)
    env.reset()
    env.next_deal(0)  # (whatever a first call caches)
    tracemalloc.start()
    try:
        before = tracemalloc.get_traced_memory()[0]
        env.next_deal(1)
        peak = tracemalloc.get_traced_memory()[1] - before
    finally:
        tracemalloc.stop()
    assert peak < env.num_envs * 4 * 4 // 4, peak  # a quarter of one such array
    assert int(env.seats[1]) >= 0


@pytest.mark.parametrize("weight", [np.float32(0.5), np.int64(1), np.float16(0.25)])
def test_shaping_takes_numpy_numbers(weight: object) -> None:
    """A NumPy scalar weight is a finite number: it shapes as the same Python float."""
    kw = dict(num_envs=4, players=2, seed=6, opponents="random")
    a = VectorEnv("pineapple", shaping=weight, **kw)
    b = VectorEnv("pineapple", shaping=float(weight), **kw)  # type: ignore[arg-type]
    a.reset()
    b.reset()
    for _ in range(12):
        acts = a.legal_actions[:, 0].astype(np.int64)
        assert np.array_equal(a.step(acts)[1], b.step(acts)[1])
    for bad in (np.float32("nan"), np.bool_(True), np.float64("inf")):
        with pytest.raises(GameError, match="shaping"):
            VectorEnv("pineapple", shaping=bad, **kw)


@pytest.mark.parametrize("illegal", ["remap", "raise"])
def test_gymnasium_without_autoreset_resets_to_the_next_deal(illegal: str) -> None:
    """autoreset=False: the step that ends a deal returns its last view (an empty mask);
    a step then is a MoveError (not ZeroDivisionError), and reset() deals the next
    deal (the learner's board empty again)."""
    from ofc_fast.env.gym import OfcEnv

    env = OfcEnv(autoreset=False, illegal=illegal)
    obs, _ = env.reset(seed=0)
    deals = 0
    while deals < 3:
        obs, reward, term, _, info = env.step(int(np.flatnonzero(obs["action_mask"])[0]))
        if term:
            deals += 1
            assert not obs["action_mask"].any()
            with pytest.raises(MoveError):
                env.step(0)
            obs, _ = env.reset()
            assert obs["action_mask"].any()
            assert env._venv.observation(0, 0)["boards"][0] == [[], [], []]


# ------------------------------------------- deals without an agent decision

STAY_FOREVER = '''
import numpy as np
from ofc_fast import rules as presets
from ofc_fast.env import VectorEnv
from ofc_fast.errors import GameError
from ofc_fast.rules.model import HandCategory


def stay_rules(entry):
    """Pineapple where a front of `entry` or better enters and any clean board stays:
    the solver's sets are always clean, so a seat once in Fantasyland never leaves."""
    fl = presets.PINEAPPLE.fantasyland.replace(
        entry=((entry, 14),), stay_back=HandCategory.HIGH_CARD
    )
    return presets.PINEAPPLE.replace(name="stay-forever", fantasyland=fl)


def fantasyland_next(venv, *seats):
    """`seats` of `venv`'s table 0 play its next deal in Fantasyland: the slot's
    counts set and its deal marked over (a deal abandoned mid-way earns none)."""
    for s in seats:
        venv._slots[0].fl[s] = 14
    venv._slots[0].game.step = venv._slots[0].game.nsteps


def stuck(call):
    """call() raises the GameError of deals without a decision (not a hang)."""
    try:
        call()
    except GameError as exc:
        text = str(exc)
        assert "1000 deals in a row without an agent decision" in text, text
        assert "'stay-forever'" in text and "back HIGH_CARD" in text, text
        assert "call reset()" in text, text
        return
    raise AssertionError("no GameError")
'''
"""The preamble of the scripts below (run in a subprocess: a regression hangs)."""

NO_DECISION_SCRIPTS = {
    # the report's case: random opponents, random learner moves, a step that never ended
    "vector-step": """
env = VectorEnv(stay_rules("22"), num_envs=2, opponents="random", seed=0)
env.reset()
rng = np.random.default_rng(0)

def play():
    for _ in range(400):
        pick = (rng.random(2) * env.legal_counts).astype(np.int64)
        env.step(env.legal_actions[np.arange(2), pick])

stuck(play)
assert (env.seats == -1).any() and not env.started
stuck_env = int(np.flatnonzero(env.seats == -1)[0])
assert env.terminations[stuck_env]
try:
    env.step(np.zeros(2, np.int64))
    raise AssertionError("stepped")
except GameError as exc:
    assert "reset()" in str(exc)
env.reset()
assert (env.seats == 0).all() and (env.legal_counts > 0).all()
""",
    # self-play, every seat in Fantasyland: next_deal (a C reset) is bounded too
    "vector-next-deal": """
env = VectorEnv(stay_rules("22"), num_envs=1, opponents="self", seed=0)
env.reset()
fantasyland_next(env, 0, 1)
deal = env._slots[0].deal
stuck(lambda: env.next_deal(0))
assert env._slots[0].deal - deal == 1000 and int(env.seats[0]) == -1
env.reset()
assert int(env.seats[0]) >= 0
""",
    # Python bot opponents: the bots' loop between C calls is bounded (the opponent
    # never enters: a front of trip aces, so C's own bound is not the one that fires)
    "vector-bots": """
env = VectorEnv(stay_rules("AAA"), num_envs=1, opponents="heuristic", seed=0)
env.reset()
fantasyland_next(env, 0)
stuck(lambda: env.next_deal(0))
assert env._slots[0].fl[1] == 0 and env._slots[0].deal > 1000
env.reset()
assert int(env.seats[0]) == 0
""",
    # the Gymnasium env's step (autoreset) and its reset without autoreset
    "gym": """
from ofc_fast.env.gym import OfcEnv

env = OfcEnv(stay_rules("22"))
obs, _ = env.reset(seed=0)
rng = np.random.default_rng(0)

def play():  # random moves: the learner enters Fantasyland, then stays
    global obs
    for _ in range(5000):
        obs, *_ = env.step(int(rng.choice(np.flatnonzero(obs["action_mask"]))))

stuck(play)
obs, _ = env.reset()
assert obs["action_mask"].any()
env = OfcEnv(stay_rules("22"), autoreset=False)
env.reset(seed=0)
fantasyland_next(env._venv, 0)
env._venv.next_deal(0)  # a deal without a learner decision: reset() deals on
stuck(env.reset)
obs, _ = env.reset()
assert obs["action_mask"].any()
""",
    # the PettingZoo env's reset skips deals where no seat decides
    "aec": """
from ofc_fast.env import pettingzoo_env

env = pettingzoo_env(rules=stay_rules("22"), players=2)
env.reset(seed=0)
v = env._venv
fantasyland_next(v, 0, 1)
v.next_deal(0)
stuck(env.reset)
env.reset()
assert env.agent_selection in env.agents
""",
}
"""Each a way the environments used to play deals without an agent decision forever
under rules where a seat stays in Fantasyland with certainty."""


def run_isolated(code: str, timeout: float = 60.0) -> None:
    """Run ``code`` (after :data:`STAY_FOREVER`) in a fresh interpreter on this
    ofc_fast; a hang fails the test after ``timeout`` seconds instead of hanging the
    suite (a C loop holds no GIL: nothing interrupts it in-process)."""
    import subprocess
    import sys
    from pathlib import Path

    env = dict(os.environ)
    root = str(Path(ofc_fast.__file__).resolve().parents[1])
    env["PYTHONPATH"] = os.pathsep.join(filter(None, [root, env.get("PYTHONPATH")]))
    try:
        done = subprocess.run(
            [sys.executable, "-c", STAY_FOREVER + code],
            env=env,
            capture_output=True,
            text=True,
            timeout=timeout,
        )
    except subprocess.TimeoutExpired:
        pytest.fail(f"still running after {timeout} s: deals without a decision hang")
    assert done.returncode == 0, done.stderr[-3000:]


@pytest.mark.parametrize("name", sorted(NO_DECISION_SCRIPTS))
def test_deals_without_an_agent_decision_are_bounded(name: str) -> None:
    """Rules where the agent seats stay in Fantasyland with certainty: a step, a reset
    or the adapters' deal-skipping raise GameError after 1,000 deals in a row without
    an agent decision (before: they never returned, the C loop with the GIL released),
    naming the rules; the environment then needs reset(), which plays again."""
    run_isolated(NO_DECISION_SCRIPTS[name])


@pytest.mark.parametrize("deals_before", [0, 1])
def test_a_reset_mask_that_fails_at_a_later_env_leaves_the_earlier_ones_fresh(
    deals_before: int,
) -> None:
    """``reset(options={"reset_mask": m})`` dealt environments 0..k-1 and raised at
    environment k (its deals without an agent decision) before the bots played and
    the features were written: environment 0 showed the features of its last deal,
    or a bot seat's decision as the agent's.  They are as a twin's ``next_deal`` of
    that environment alone leaves them; the error is still raised."""
    helpers: dict[str, object] = {}
    exec(STAY_FOREVER, helpers)
    rules = helpers["stay_rules"]("22")  # type: ignore[operator]
    env, twin = (
        VectorEnv(rules, num_envs=2, opponents="heuristic", obs_type="features", seed=0)
        for _ in range(2)
    )
    env.reset()
    twin.reset()
    for _ in range(deals_before):  # (1: a deal where the bot's seat acts first)
        env.next_deal(0)
        twin.next_deal(0)
    for seat in (0, 1):  # environment 1's seats both stay in Fantasyland for good
        env._slots[1].fl[seat] = 14
    env._slots[1].game.step = env._slots[1].game.nsteps
    with pytest.raises(GameError, match="env 1: 1000 deals in a row"):
        env.reset(options={"reset_mask": np.array([True, True])})
    twin.next_deal(0)
    assert int(env.seats[0]) == int(twin.seats[0]) == 0
    np.testing.assert_array_equal(env.observations[0], twin.observations[0])
    np.testing.assert_array_equal(env.action_masks[0], twin.action_masks[0])
    assert int(env.seats[1]) == -1 and not env.started


# ------------------------------------------- audit: order of calls, render modes


def test_pettingzoo_step_with_no_agent_to_act_is_a_game_error() -> None:
    """step() before reset() or after every agent's last step of a deal (agents
    empty, as PettingZoo's API leaves them) raises GameError saying to reset()
    (before: AttributeError, then KeyError 'player_0'); reset() then plays on."""
    env = pettingzoo_env("pineapple", 2)
    for action in (None, 0):
        with pytest.raises(GameError, match=r"call reset\(\)"):
            env.step(action)
    env.reset(seed=0)
    for _agent in env.agent_iter():
        obs, _, term, trunc, _ = env.last()
        env.step(None if term or trunc else int(np.flatnonzero(obs["action_mask"])[0]))
    assert env.agents == []
    for action in (None, 0):
        with pytest.raises(GameError, match=r"call reset\(\)"):
            env.step(action)
    env.reset()
    assert env.agent_selection in env.agents
    obs = env.observe(env.agent_selection)
    env.step(int(np.flatnonzero(obs["action_mask"])[0]))


def test_render_before_reset_is_a_game_error() -> None:
    """render() before reset() raises GameError (before: the Gymnasium env rendered
    an all-zero C state, a 0-player table; the PettingZoo env AttributeError), and
    renders the seat's observation after it."""
    from ofc_fast.env.gym import OfcEnv

    for env in (OfcEnv(render_mode="ansi"), pettingzoo_env(render_mode="ansi")):
        with pytest.raises(GameError, match=r"call reset\(\) before render\(\)"):
            env.render()
        env.reset(seed=0)
        text = env.render()
        assert isinstance(text, str) and "'players': 2" in text, text


def test_reading_a_table_before_reset_is_a_game_error() -> None:
    """VectorEnv.observation() / encode() and the PettingZoo env's observe() before
    reset() raise GameError, as render() does (before: the all-zero C state's view, a
    0-player table, and an all-zero encoding; observe() gave one agent zeros and the
    others that encoding).  Reference: the observation of reset's deal."""
    venv = VectorEnv("pineapple", num_envs=2, players=2, seed=0)
    for read in (lambda: venv.observation(0, 1), lambda: venv.encode(0, 1)):
        with pytest.raises(GameError, match=r"call reset\(\) before"):
            read()
    env = pettingzoo_env("pineapple", 3)
    for agent in env.possible_agents:
        with pytest.raises(GameError, match=r"call reset\(\) before observe\(\)"):
            env.observe(agent)
    venv.reset()
    assert venv.observation(0, 1)["players"] == 2 and venv.encode(0, 1).any()
    env.reset(seed=0)
    assert env.observe("player_2")["observation"].any()


@pytest.mark.parametrize("mode", ["rgb_array", "text", "", 1])
def test_single_game_envs_refuse_a_render_mode_they_lack(mode: object) -> None:
    """A render mode outside ``metadata["render_modes"]`` is a GameError naming the
    modes when the env is made (before: accepted, and render() returned None, so
    nothing ever showed)."""
    from ofc_fast.env.gym import OfcEnv

    for make in (OfcEnv, pettingzoo_env):
        with pytest.raises(GameError, match=r"render_mode must be one of ansi"):
            make(render_mode=mode)
        assert make(render_mode=None).render() is None


def test_single_game_envs_render_human_by_printing_the_ansi_text(
    capsys: pytest.CaptureFixture[str],
) -> None:
    """``render_mode="human"`` prints what ``"ansi"`` returns (Gymnasium's convention for
    text envs) and returns None; both envs list it and PettingZoo's env a
    ``render_fps`` (before: RenderModeError for "human", so PettingZoo's
    ``render_test``, which makes the env with "human" first, failed)."""
    from ofc_fast.env.gym import OfcEnv

    for make in (OfcEnv, pettingzoo_env):
        ansi, human = make(render_mode="ansi"), make(render_mode="HUMAN")
        assert {"ansi", "human"} <= set(human.metadata["render_modes"])
        assert human.metadata["render_fps"] > 0 and human.render_mode == "human"
        ansi.reset(seed=3)
        human.reset(seed=3)
        text = ansi.render()
        assert isinstance(text, str) and "'seat'" in text
        capsys.readouterr()
        assert human.render() is None
        assert capsys.readouterr().out == text + "\n"


def test_human_render_mode_renders_at_each_reset_and_step(
    capsys: pytest.CaptureFixture[str],
) -> None:
    """Gymnasium's ``"human"`` mode: "rendering should occur during step() and
    render() doesn't need to be called" (PettingZoo's classic games alike): the
    Gymnasium env, its vector env and the PettingZoo env print their view after each
    reset and step (before: only when render() was called, a human saw nothing).
    Reference: an ``"ansi"`` twin's render() after the same calls."""
    import gymnasium

    from ofc_fast.env.gym import OfcEnv

    ansi, human = OfcEnv(render_mode="ansi"), OfcEnv(render_mode="human")
    capsys.readouterr()
    for env in (ansi, human):
        env.reset(seed=4)
    assert capsys.readouterr().out == ansi.render() + "\n"
    for env in (ansi, human):
        env.step(int(ansi.action_masks().argmax()))
    assert capsys.readouterr().out == ansi.render() + "\n"
    vec = {
        m: gymnasium.make_vec("ofc_fast/Pineapple-v0", num_envs=2, render_mode=m)
        for m in ("ansi", "human")
    }
    for env in vec.values():
        env.reset(seed=4)
    assert capsys.readouterr().out == "".join(f"{t}\n" for t in vec["ansi"].render())
    aecs = [pettingzoo_env(render_mode=m) for m in ("ansi", "human")]
    for env in aecs:
        env.reset(seed=4)
    assert capsys.readouterr().out == aecs[0].render() + "\n"
    mask = aecs[0].observe(aecs[0].agent_selection)["action_mask"]
    for env in aecs:
        env.step(int(mask.argmax()))
    assert capsys.readouterr().out == aecs[0].render() + "\n"


def test_pettingzoo_render_test_passes() -> None:
    """PettingZoo's own render check (every mode in metadata, "human" first)."""
    render_test = pytest.importorskip("pettingzoo.test", reason="pip install .[rl]")
    render_test.render_test(
        lambda render_mode=None: pettingzoo_env(render_mode=render_mode)
    )


def test_a_render_mode_refused_is_a_type_error_too() -> None:
    """The refusal is a GameError and a TypeError (what a keyword a callable does not
    take gives), so SB3's make_vec_env, which tries "rgb_array" and falls back on a
    TypeError, makes the env (before: a GameError only, and make_vec_env of an
    ``ofc_fast/...`` id failed)."""
    from ofc_fast.env.gym import OfcEnv
    from ofc_fast.errors import RenderModeError

    for make in (OfcEnv, pettingzoo_env):
        with pytest.raises(TypeError, match=r"^render_mode must be one of ansi") as err:
            make(render_mode="rgb_array")
        assert isinstance(err.value, GameError) and type(err.value) is RenderModeError


@pytest.mark.parametrize("seed", [-1, 2**64, 1.5, "3", True])
def test_gymnasium_reset_refuses_a_bad_seed_as_the_env_made_with_it(seed: object) -> None:
    """reset(seed=...) refuses a seed no match deals from with the TableError that
    ``seed=`` when made and the PettingZoo env's reset() give, and changes nothing,
    Gymnasium's generator included (before: Gymnasium's own Error for -1, 1.5 and
    "3"; for 2**64 and True a TableError after ``np_random`` was reseeded)."""
    from ofc_fast.env.gym import OfcEnv

    with pytest.raises(TableError, match="seed"):
        OfcEnv(seed=seed)
    env = OfcEnv(seed=1)
    obs, _ = env.reset()
    state = env.np_random.bit_generator.state
    with pytest.raises(TableError, match="seed"):
        env.reset(seed=seed)
    assert env.np_random.bit_generator.state == state
    assert np.array_equal(env.reset()[0]["observation"], obs["observation"])


def test_gymnasium_reset_takes_a_numpy_int_seed() -> None:
    """A NumPy int seed deals what the same Python int deals, as ``seed=`` when made
    and the PettingZoo env take it (before: Gymnasium's Error "must be a python
    integer")."""
    from ofc_fast.env.gym import OfcEnv

    want, _ = OfcEnv(seed=7).reset()
    for seed in (np.int64(7), np.uint64(7)):
        got, _ = OfcEnv().reset(seed=seed)
        assert np.array_equal(got["observation"], want["observation"])


def _replay_both(a: VectorEnv, b: VectorEnv, steps: int, seed: int) -> None:
    """Step ``a`` and ``b`` with the same masked-random actions; every array agrees."""
    rng = np.random.default_rng(seed)
    n = a.num_envs
    for _ in range(steps):
        assert np.array_equal(a.legal_counts, b.legal_counts)
        acts = a.legal_actions[np.arange(n), (rng.random(n) * a.legal_counts).astype(int)]
        out_a, out_b = a.step(acts), b.step(acts.copy())
        for x, y in zip(out_a[:4], out_b[:4]):
            assert np.array_equal(x, y)
        for key in ("seat", "action_mask", "final_rewards"):
            assert np.array_equal(out_a[4][key], out_b[4][key])
    assert np.array_equal(a.deals_finished, b.deals_finished)


@pytest.mark.parametrize("how", ["deepcopy", "pickle"])
@pytest.mark.parametrize(
    "kwargs",
    [
        dict(opponents="random", obs_type="features", shaping=0.5),
        dict(opponents="heuristic", num_envs=1),
        dict(opponents="self", players=3, autoreset=False),
    ],
)
def test_copies_of_a_vector_env_play_on_as_the_original(how: str, kwargs: dict) -> None:
    """copy.deepcopy and pickle of a VectorEnv in the middle of its matches (before:
    TypeError, cannot pickle '_thread.lock'): the copy holds the same state (tables,
    arrays, the random opponents' and the bots' streams) and plays on as the original
    does, and stepping one leaves the other as it was."""
    import copy
    import pickle

    settings = dict(num_envs=3, seed=11) | kwargs
    env = VectorEnv("pineapple", **settings)
    env.reset()
    for _ in range(3):  # into the first deal (in self-play: its 15 decisions)
        env.step(env.legal_actions[:, 0])

    def twin_of(env: VectorEnv) -> VectorEnv:
        return copy.deepcopy(env) if how == "deepcopy" else pickle.loads(pickle.dumps(env))

    twin = twin_of(env)
    assert twin.started and twin.seed == env.seed and repr(twin) == repr(env)
    before = env.observations.copy()
    twin.step(twin.legal_actions[:, 0])
    assert np.array_equal(env.observations, before)  # the original did not move
    twin = twin_of(env)
    if kwargs.get("autoreset", True):
        _replay_both(env, twin, 30, 2)
    else:  # 3 seats: the first deal ends after 15 steps (seat -1); deal the next
        _replay_both(env, twin, 12, 2)
        assert (env.seats == -1).all() and (twin.seats == -1).all()
        for i in range(env.num_envs):
            env.next_deal(i)
            twin.next_deal(i)
        _replay_both(env, twin, 2, 3)


class _Pickled:
    """A pickle of a VectorEnv's reduction with its C state bytes edited (what a
    damaged or edited checkpoint file holds)."""

    def __init__(self, reduced: tuple, slots: bytes) -> None:
        self.reduced = reduced
        self.slots = slots

    def __reduce__(self) -> tuple:
        restore, (settings, state) = self.reduced
        return restore, (settings, (self.slots, *state[1:]))


def _game_at(env: int, field: str, index: int = 0) -> int:
    """The offset of byte ``index`` of ``ofc_game`` field ``field`` of slot ``env``."""
    slot = ffi.sizeof("ofc_vecenv_slot")
    return (
        env * slot
        + ffi.offsetof("ofc_vecenv_slot", "game")
        + (ffi.offsetof("ofc_game", field) + index)
    )


@pytest.mark.parametrize(
    ("edits", "problem"),
    [
        ({("step", 0): 250, ("nsteps", 0): 255}, "schedule"),  # the C fuzz audit's case
        ({("step", 0): 40}, "past the schedule"),
        ({("step", 0): 1}, "decisions made"),
        ({("steps", 8 * 3 + 7): 1}, "schedule"),  # a step's reserved byte
        ({("steps", 8 * 5 + 1): 51}, "schedule"),  # a step's deck position
        ({("players", 0): 9}, "table"),
        ({("button", 0): 2}, "table"),
        ({("fl", 0): 12}, "table"),
        ({("deck", 0): 51}, "deck"),  # a card twice
        ({("deck", 0): 52}, "deck"),
        ({("count", 0): 4}, "row count"),
        ({("count", 0): 2, ("count", 2): 1}, "board"),  # a front card moved to the back
        ({("board", 0): 0xEE}, "board card"),
        ({("board", 12): 3}, "past its row"),
        ({("ndiscards", 1): 9}, "discard count"),
        ({("discards", 4 * 1 + 3): 5}, "discard"),
        ({("face_down", 0): 1}, "face-down"),
        ({("declared", 0): 0}, "natural"),
        ({("surrendered", 0): 1}, "surrender"),
        ({("board", 13 * 3): 7}, "beyond the table"),
    ],
)
def test_restoring_a_damaged_vector_env_state_is_refused(
    edits: dict[tuple[str, int], int], problem: str
) -> None:
    """Unpickling a VectorEnv whose C state bytes were damaged or edited (an RL
    checkpoint on disk) is a GameError naming the environment and the broken
    invariant (before: the bytes were copied unchecked, and a step with step 250 of
    255 decisions read past the 40-entry schedule); the bytes undamaged restore and
    play on."""
    import pickle

    env = VectorEnv("pineapple", num_envs=2, players=2, seed=5)
    env.reset()
    for _ in range(2):  # both seats have opened and played a round: a discard each
        env.step(env.legal_actions[:, 0])
    env.step(env.legal_actions[:, 0])
    reduced = env.__reduce__()
    slots = bytearray(reduced[1][1][0])
    twin = pickle.loads(pickle.dumps(_Pickled(reduced, bytes(slots))))
    twin.step(twin.legal_actions[:, 0])
    for (field, index), value in edits.items():
        slots[_game_at(1, field, index)] = value
    data = pickle.dumps(_Pickled(reduced, bytes(slots)))
    with pytest.raises(GameError, match=f"env 1: .*{problem}"):
        pickle.loads(data)


def _swapped_in_slot(slots: bytearray, env: int, face_down: bool) -> bytearray:
    """Slot bytes ``slots`` with two cards of environment ``env``'s deal swapped: the
    first seat's two discards, or (``face_down``) a face-up card of a row and the
    face-down card after it."""
    buffer = ffi.from_buffer(bytes(slots))  # alive while g is read
    g = ffi.cast("ofc_vecenv_slot *", buffer)[env].game
    for s in range(g.players):
        if not face_down and g.ndiscards[s] == 2:
            first = _game_at(env, "discards", 4 * s)
            break
        down = [g.face_down[s] >> i & 1 for i in range(13)]
        pairs = [i for i in (0, 1, 3, 4, 5, 6, 8, 9, 10, 11) if not down[i] and down[i + 1]]
        if face_down and pairs:  # slots i and i + 1 of one row
            first = _game_at(env, "board", 13 * s + pairs[0])
            break
    else:
        raise AssertionError(
            "no seat with two discards or a face-up card before a face-down one"
        )
    slots[first], slots[first + 1] = slots[first + 1], slots[first]
    return slots


@pytest.mark.parametrize("face_down", [False, True])
def test_restoring_a_vector_env_with_cards_out_of_deal_order_is_refused(
    face_down: bool,
) -> None:
    """A pickled VectorEnv whose C state holds the right cards in an order the engine
    never places them (two discards swapped; a face-up card of a row swapped with the
    face-down one after it, which would show the hidden card to the other seat) is a
    GameError naming the order (before: it restored, and the other seat's encoding
    showed the face-down card)."""
    import pickle

    rules = replace(presets.PINEAPPLE, face_down_final=4 if face_down else 0)
    env = VectorEnv(rules, num_envs=2, players=2, seed=5)
    env.reset()
    for _ in range(5):  # the first seat: an opening and two rounds, two discards
        env.step(env.legal_actions[:, 0])
    reduced = env.__reduce__()
    slots = _swapped_in_slot(bytearray(reduced[1][1][0]), 1, face_down)
    data = pickle.dumps(_Pickled(reduced, bytes(slots)))
    with pytest.raises(GameError, match=r"env 1: .*order the engine places them"):
        pickle.loads(data)


def test_restoring_a_vector_env_slot_with_damaged_fields_is_refused() -> None:
    """The slot's own fields (the next deal's button and Fantasyland counts, the
    shaping potentials) are checked too; a VectorEnv pickled before reset() restores
    (its slots are not read: reset() writes them)."""
    import pickle

    env = VectorEnv("pineapple", num_envs=1, players=2, seed=5, shaping=0.5)
    assert pickle.loads(pickle.dumps(env)).started is False
    env.reset()
    reduced = env.__reduce__()
    good = reduced[1][1][0]
    edits = {
        "button": (2, "button"),
        "fl": (18, "Fantasyland"),
        "potential": (0xFF, "potential"),  # the top byte of a float: a NaN
    }
    for field, (value, problem) in edits.items():
        slots = bytearray(good)
        at = ffi.offsetof("ofc_vecenv_slot", field)
        slots[at + (3 if field == "potential" else 0)] = value
        if field == "potential":
            slots[at + 2] = 0xFF
        with pytest.raises(GameError, match=f"env 0: .*{problem}"):
            pickle.loads(pickle.dumps(_Pickled(reduced, bytes(slots))))


def test_restoring_a_vector_env_with_another_next_button_is_refused() -> None:
    """Mid-deal, a slot's next-deal button is the deal's own (its end moves it on): a
    pickle with another seat's is a GameError naming it (before: it restored, and the
    next deal's button was two seats on from this deal's)."""
    import pickle

    env = VectorEnv("pineapple", num_envs=1, players=3, seed=5)
    env.reset()
    env.step(env.legal_actions[:, 0])
    reduced = env.__reduce__()
    slots = bytearray(reduced[1][1][0])
    at = ffi.offsetof("ofc_vecenv_slot", "button")
    slots[at] = (slots[at] + 1) % 3
    with pytest.raises(GameError, match=r"env 0: .*button"):
        pickle.loads(pickle.dumps(_Pickled(reduced, bytes(slots))))


def test_restoring_vector_env_arrays_of_another_shape_is_refused() -> None:
    """A pickled VectorEnv whose output arrays are missing or of another shape is a
    GameError naming the array (before: numpy's ValueError, could not broadcast)."""
    import pickle

    env = VectorEnv("pineapple", num_envs=2, players=2, seed=5)
    env.reset()
    restore, (settings, state) = env.__reduce__()
    for name, value in (("seats", np.zeros(3, np.int8)), ("rewards", None)):
        arrays = {**state[1], name: value}
        reduced = (restore, (settings, (state[0], arrays, *state[2:])))
        data = pickle.dumps(_Pickled(reduced, state[0]))
        with pytest.raises(GameError, match=f"{name} must be an array of shape"):
            pickle.loads(data)


@pytest.mark.parametrize(
    "seeds", [[1], ["x", 2, 3], 5, [1.5, 2, 3], [-1, 2, 3], [None, 2, 3]]
)
def test_restoring_a_vector_env_with_damaged_reset_seeds_is_refused(seeds: object) -> None:
    """A pickled VectorEnv's per-environment reset seeds (``reset(seed=[...])``) must
    be one seed 0..2**64-1 per environment: anything else is a GameError naming them
    when unpickled (before: TypeError or OverflowError at the next reset(), or one
    seed for three tables resetting only the first)."""
    import pickle

    env = VectorEnv("pineapple", num_envs=3, seed=0, opponents="random")
    env.reset(seed=[4, 5, 6])
    restore, (settings, state) = env.__reduce__()
    twin = pickle.loads(pickle.dumps(env))
    assert twin._env_seeds == [4, 5, 6]
    reduced = (restore, (settings, (*state[:4], seeds)))
    with pytest.raises(GameError, match="pickled VectorEnv's reset seeds"):
        pickle.loads(pickle.dumps(_Pickled(reduced, state[0])))


_DECISION_ROWS = ("seats", "full_sets", "legal_counts", "action_masks", "encodings")


@pytest.mark.parametrize(
    "kwargs",
    [
        dict(opponents="heuristic"),
        dict(opponents="self", obs_type="features"),
        dict(opponents="self", players=3, autoreset=False),  # pickled at seat -1
    ],
)
def test_a_pickled_vector_envs_decision_arrays_come_from_its_c_state(kwargs: dict) -> None:
    """The arrays of the pending decisions (seats, masks, legal ids and counts, full
    sets, observations) of an unpickled VectorEnv are its checked C state's, not the
    pickle's (before: an edited pickle's seats and masks were trusted: a mask marked
    ids the engine then refused, seats named a seat that was not to act)."""
    import pickle

    env = VectorEnv("pineapple", **(dict(num_envs=3, seed=5) | kwargs))
    env.reset()
    steps = 15 if kwargs.get("autoreset", True) is False else 4  # 3 seats: 15 ends a deal
    for _ in range(steps):
        env.step(env.legal_actions[:, 0])
    assert (env.seats == -1).all() == (kwargs.get("autoreset", True) is False)
    restore, (settings, state) = env.__reduce__()
    edited = {name: a.copy() for name, a in state[1].items()}
    edited["seats"][:] = 1 if env.players == 2 else 3
    edited["full_sets"][:] = True
    edited["legal_counts"][:] = 243
    edited["legal_actions"][:] = np.arange(243)
    edited["action_masks"][:] = True
    edited["encodings"][:] = 7
    edited["features"][:] = 0.5
    reduced = (restore, (settings, (state[0], edited, *state[2:])))
    twin = pickle.loads(pickle.dumps(_Pickled(reduced, state[0])))
    for name in (*_DECISION_ROWS, "features", "observations"):
        assert np.array_equal(getattr(twin, name), getattr(env, name)), name
    for i in range(env.num_envs):
        n = env.legal_counts[i]
        assert np.array_equal(twin.legal_actions[i, :n], env.legal_actions[i, :n])
    if env.seats[0] >= 0:
        _replay_both(env, twin, 6, 1)


def test_a_pickled_vector_envs_full_set_comes_from_its_c_state() -> None:
    """A pending Fantasyland set (``fantasyland="decision"``) restores as C wrote it:
    ``full_sets`` True, an empty mask, no legal ids, the seat's view of its 15 cards,
    whatever the pickle's arrays said."""
    import pickle

    env = VectorEnv(
        "pineapple", num_envs=1, players=2, seed=3, fantasyland="decision", autoreset=False
    )
    env.reset()
    while int(env.seats[0]) >= 0:
        env.step(env.legal_actions[:, 0])
    env._slots[0].fl[0] = 15
    env.next_deal(0)
    assert env.full_sets[0] and not env.action_masks[0].any()
    restore, (settings, state) = env.__reduce__()
    edited = {name: a.copy() for name, a in state[1].items()}
    edited["full_sets"][:] = False
    edited["legal_counts"][:] = 3
    edited["action_masks"][:] = True
    edited["seats"][:] = -1
    reduced = (restore, (settings, (state[0], edited, *state[2:])))
    twin = pickle.loads(pickle.dumps(_Pickled(reduced, state[0])))
    for name in _DECISION_ROWS:
        assert np.array_equal(getattr(twin, name), getattr(env, name)), name


def test_copies_of_the_single_game_envs_play_on_as_the_original() -> None:
    """The Gymnasium and PettingZoo envs copy and pickle too (the SB3 / RLlib way of
    shipping an env, a search that copies it to look ahead)."""
    import copy
    import pickle

    from ofc_fast.env.gym import OfcEnv

    env = OfcEnv(opponents="random")
    obs, _ = env.reset(seed=4)
    env.step(int(np.flatnonzero(obs["action_mask"])[0]))
    for twin in (copy.deepcopy(env), pickle.loads(pickle.dumps(env))):
        a, b = copy.deepcopy(env), twin
        oa, ob = a._obs(), b._obs()
        for _ in range(25):
            assert all(np.array_equal(oa[k], ob[k]) for k in oa)
            act = int(np.flatnonzero(oa["action_mask"])[-1])
            oa, ra, ta, *_ = a.step(act)
            ob, rb, tb, *_ = b.step(act)
            assert (ra, ta) == (rb, tb)
    aec = pettingzoo_env("pineapple", 3)
    aec.reset(seed=2)
    obs = aec.observe(aec.agent_selection)
    aec.step(int(np.flatnonzero(obs["action_mask"])[0]))
    seen: list[list[tuple[str, float]]] = []
    for env_ in (pickle.loads(pickle.dumps(aec)), aec):
        seen.append([])
        for agent in env_.agent_iter():
            obs, reward, term, trunc, _ = env_.last()
            seen[-1].append((agent, reward))
            env_.step(None if term else int(np.flatnonzero(obs["action_mask"])[0]))
    assert seen[0] == seen[1] and len(seen[0]) > 10


@pytest.mark.parametrize(
    ("make", "kwargs", "name"),
    [
        ("gym", dict(num_envs=2), "num_envs"),
        ("aec", dict(num_envs=4), "num_envs"),
        ("aec", dict(opponents="random"), "opponents"),
        ("aec", dict(autoreset=True), "autoreset"),
    ],
)
def test_single_game_envs_name_the_settings_they_fix(
    make: str, kwargs: dict, name: str
) -> None:
    """A VectorEnv keyword the single-game env sets itself, given with another value,
    is a GameError naming it (before: TypeError "got multiple values"); the value it
    sets is accepted."""
    from ofc_fast.env.gym import OfcEnv

    build = OfcEnv if make == "gym" else pettingzoo_env
    with pytest.raises(GameError, match=f"sets {name}="):
        build(**kwargs)
    fixed = {"num_envs": 1, "opponents": "self", "autoreset": False}[name]
    env = build(**{name: fixed}, seed=3)
    assert env._venv.seed == 3 and env._venv.num_envs == 1


def test_gymnasium_without_autoreset_keeps_the_fantasyland_deals_points() -> None:
    """autoreset=False: the deals the learner sits out in Fantasyland (played by the
    solver between a deal's end and the next decision) add their points to the step
    that ended the deal before, as with autoreset (before: reset() played them and
    their points were lost).  The same match and moves give the same rewards either
    way; the step still returns the end's view and reset() the next decision."""
    from ofc_fast.env.gym import OfcEnv

    fl = presets.PINEAPPLE.fantasyland.replace(entry=(("22", 14),))
    rules = presets.PINEAPPLE.replace(name="easy-fantasyland", fantasyland=fl)
    rewards: dict[bool, list[float]] = {}
    finals: dict[bool, list[list[float]]] = {}
    for autoreset in (True, False):
        env = OfcEnv(rules, autoreset=autoreset)
        obs, _ = env.reset(seed=0)
        rewards[autoreset] = []
        while len(rewards[autoreset]) < 1500:
            obs, reward, term, _, info = env.step(
                int(np.flatnonzero(obs["action_mask"])[0])
            )
            rewards[autoreset].append(reward)
            if term:  # the points per seat of the deals ended in this step
                finals.setdefault(autoreset, []).append(info["final_rewards"].tolist())
                assert reward == info["final_rewards"][0]
            if term and not autoreset:
                assert not obs["action_mask"].any() and not env.action_masks().any()
                with pytest.raises(MoveError, match="reset"):
                    env.step(0)
                obs, _ = env.reset()
                assert env._venv.observation(0, 0)["boards"][0] == [[], [], []]
        decisions = 1500 // 5  # a deal is 5 learner decisions in Pineapple
        assert env._venv._slots[0].deal > decisions + 10  # deals the learner sat out
    assert rewards[True] == rewards[False] and finals[True] == finals[False]


def test_single_game_envs_without_a_seed_deal_different_matches() -> None:
    """Without a seed (neither reset(seed=) nor seed=) each Gymnasium or PettingZoo env
    draws its match's seed at random, as Gymnasium's envs draw their PRNG's: the
    copies of gymnasium.make_vec deal different hands (before: all played seed 0, the
    same deals in every copy).  A seed still replays."""
    import gymnasium

    envs = gymnasium.make_vec(
        "ofc_fast/Pineapple-v0", num_envs=4, vectorization_mode="sync"
    )
    obs, _ = envs.reset()
    assert len({row.tobytes() for row in obs["observation"]}) == 4
    again, _ = envs.reset(seed=[7, 7, 7, 7])
    assert len({row.tobytes() for row in again["observation"]}) == 1
    seeds = set()
    for _ in range(3):
        aec = pettingzoo_env("pineapple", 2)
        aec.reset()
        seeds.add(aec.observe(aec.agent_selection)["observation"].tobytes())
    assert len(seeds) == 3
    from ofc_fast.env.gym import OfcEnv

    a, b = OfcEnv(seed=5), OfcEnv(seed=5)  # a seed given when made: the same matches
    assert np.array_equal(a.reset()[0]["observation"], b.reset()[0]["observation"])


def test_a_vector_env_is_not_copied_while_another_thread_steps_it() -> None:
    """Pickling or copy.deepcopy while another thread is inside a step: GameError
    (the guard of step): a copy never holds a state torn between two steps."""
    import copy
    import pickle

    env = VectorEnv("pineapple", num_envs=2, seed=0)
    env.reset()
    env._entries += 1  # odd: what another thread inside step() shows
    for take in (copy.deepcopy, pickle.dumps):
        with pytest.raises(GameError, match="another thread"):
            take(env)
    env._entries += 1  # (that step over)
    assert copy.deepcopy(env).started


@pytest.mark.parametrize(
    ("field", "bad", "named"),
    [
        ("dealt", [200, 1, 2], "dealt"),
        ("discards", [60], "discards"),
        ("boards", [[[1, 2, 3, 4], [], []], [[], [], []]], r"boards\[0\]\[0\]"),
        ("boards", [[[255], [], []], [[], [], []]], r"boards\[0\]\[0\]"),
        ("button", 9, "button"),
        ("to_act", 7, "to_act"),
        ("face_down_counts", [[99, 0, 0], [0, 0, 0]], r"face_down_counts\[0\]\[0\]"),
        ("fantasyland", [99, 0], r"fantasyland\[0\]"),
    ],
)
def test_encode_bytes_names_fields_out_of_range(
    field: str, bad: object, named: str
) -> None:
    """encode_bytes refuses card ids outside 0..51, too many cards in a row, a button
    or seat to act that is no seat, and counts no row or hand holds, with a
    GameError naming the field; it encoded them without complaint (the C encoder
    drops card ids past 51 and stores the rest as given)."""
    g = Game("pineapple", 2, seed=1)
    obs = {**g.observation(g.to_act), field: bad}
    with pytest.raises(GameError, match=f"observation: {named} must be"):
        encode_bytes(obs)


@pytest.mark.parametrize(
    ("field", "bad", "named"),
    [
        ("dealt", [47.0, 45, 37, 42, 0], "dealt"),
        ("dealt", [True, 45, 37, 42, 0], "dealt"),
        ("dealt", np.array([47, 45, 37, 42, 0], dtype=np.float64), "dealt"),
        ("boards", [[[1.0], [], []], [[], [], []]], r"boards\[0\]\[0\]"),
        ("players", 2.5, "players"),
        ("seat", 0.9, "seat"),
        ("button", True, "button"),
        ("street", 0.7, "street"),
        ("fantasyland", [0.5, 0], r"fantasyland\[0\]"),
        ("face_down_counts", [[1.0, 0, 0], [0, 0, 0]], r"face_down_counts\[0\]\[0\]"),
        ("discard_counts", [0.5, 0], r"discard_counts\[0\]"),
        ("discard_counts", [9, 0], r"discard_counts\[0\]"),
        ("to_discard", 0.5, "to_discard"),
        ("to_discard", 6, "to_discard"),
        ("future_cards", 12.5, "future_cards"),
        ("is_over", "no", "is_over"),
        ("lowball", "no", "lowball"),
        ("full_set", 0, "full_set"),
        ("face_down", "false", "face_down"),
    ],
)
def test_encode_bytes_refuses_floats_bools_and_text_for_integers(
    field: str, bad: object, named: str
) -> None:
    """encode_bytes read every integer of an observation with int() and every flag
    with bool(): a card 47.0 or 47.5 encoded as card 47, True as card 1 (2d), a
    button 0.5 as seat 0, a street 0.7 as 0, is_over "no" as True, and 9 discards or
    6 cards to discard of 5 dealt went into the scalars unchecked.  Each is a
    GameError naming the field; NumPy ints and bools are read as the numbers they are."""
    g = Game("pineapple", 2, seed=1)
    obs = g.observation(g.to_act)
    with pytest.raises(GameError, match=f"observation: {named} must be"):
        encode_bytes({**obs, field: bad})
    numpy_obs = {
        **obs,
        "dealt": np.array(obs["dealt"], dtype=np.int64),
        "street": np.uint8(obs["street"]),
        "players": np.int32(2),
        "is_over": np.False_,
        "lowball": np.False_,
    }
    assert (encode_bytes(numpy_obs) == reference_encoding(obs)).all()
    absent = {**obs, "full_set": None, "face_down": None, "lowball": None}  # as False
    assert (encode_bytes(absent) == reference_encoding(obs)).all()


@pytest.mark.parametrize(
    ("where", "named"),
    [
        ("dealt twice", "dealt"),
        ("dealt and a row", "dealt"),
        ("discards and dealt", "dealt"),
        ("two rows", r"boards\[1\]\[1\]"),
    ],
)
def test_encode_bytes_refuses_a_card_shown_twice(where: str, named: str) -> None:
    """An observation holding one card twice (in two rows, or dealt and on a board
    or among the discards) encoded without complaint, as a position no deal reaches:
    dealt [47, 47, 47] wrote one card in the dealt plane.  It is a GameError naming
    the field and the card, as observation_record refuses it."""
    g = Game("pineapple", 2, seed=1)
    obs = g.observation(g.to_act)
    card = obs["dealt"][0]
    empty: list[list[list[int]]] = [[[], [], []], [[], [], []]]
    forged = {
        "dealt twice": {"dealt": [card, card, card]},
        "dealt and a row": {"boards": [[[], [], []], [[], [], [card]]]},
        "discards and dealt": {"discards": [card]},
        "two rows": {"boards": [[[], [], [5]], [[], [5], []]]},
    }[where]
    shown = "23456789TJQKA"[card // 4] + "cdhs"[card % 4] if where != "two rows" else "3d"
    assert obs["boards"] == empty and obs["discards"] == []  # the opening, seat 1
    with pytest.raises(GameError, match=f"observation: {named} holds {shown}, .*twice"):
        encode_bytes({**obs, **forged})
    assert (encode_bytes(obs) == reference_encoding(obs)).all()


def test_planes_names_a_ragged_list_of_encodings() -> None:
    """planes() of a ragged nesting of lists raised NumPy's ValueError ("setting an
    array element with a sequence"): a GameError naming planes; a rectangular list
    still gives its (..., 15, 13, 4) planes."""
    ragged = [[0] * ENCODING_SIZE, [0] * (ENCODING_SIZE - 1)]
    with pytest.raises(GameError, match="planes: encodings are an array"):
        planes(ragged)
    with pytest.raises(GameError, match="planes: encodings are an array"):
        planes([[0] * ENCODING_SIZE, [[0]] * ENCODING_SIZE])
    assert planes([[0] * ENCODING_SIZE] * 2).shape == (2, 15, 13, 4)


def test_vector_env_autoreset_mode_is_gymnasiums() -> None:
    """``metadata["autoreset_mode"]`` names a ``gymnasium.vector.AutoresetMode`` (as
    Gymnasium's vector envs do): same-step, or disabled with ``autoreset=False``."""
    gymnasium = pytest.importorskip("gymnasium", reason="pip install .[rl]")
    mode = gymnasium.vector.AutoresetMode
    assert mode(VectorEnv.metadata["autoreset_mode"]) is mode.SAME_STEP
    off = VectorEnv("pineapple", num_envs=2, autoreset=False)
    assert mode(off.metadata["autoreset_mode"]) is mode.DISABLED
    assert mode(VectorEnv.metadata["autoreset_mode"]) is mode.SAME_STEP  # class intact


def test_vector_env_reset_mask_deals_the_masked_environments_next_deals() -> None:
    """Gymnasium's disabled autoreset mode: ``reset(options={"reset_mask": m})`` deals
    the next deal of the match at the environments ``m`` marks and leaves the others
    as they are (before: options ignored, every match started again from its seed, so
    such a loop replayed the same first deal forever).  A bad mask, or one with a
    seed, is a GameError and changes nothing.  Reference: Match/Game playing the same
    moves, the next deal from ``Match.record``."""
    env = VectorEnv("pineapple", num_envs=3, players=2, seed=4, autoreset=False)
    with pytest.raises(GameError, match=r"needs a reset\(\) before"):
        env.reset(options={"reset_mask": np.ones(3, bool)})
    obs, _ = env.reset()
    matches = [Match("pineapple", 2, seed=env_seed(4, i)) for i in range(3)]
    games = [m.next_game() for m in matches]
    for _ in range(10):  # a deal of two seats is 10 decisions: its last ends it
        actions = env.legal_actions[:, 0].astype(np.int64)
        obs, _, terms, _, _ = env.step(actions)
        for i, g in enumerate(games):
            g.play_action(int(actions[i]))
    assert terms.all() and all(g.is_over for g in games)
    ended = obs[1].copy()
    for bad in ({"reset_mask": np.array([1, 0, 1])}, {"reset_mask": np.ones(2, bool)}, 3):
        with pytest.raises(GameError, match=r"reset_mask|options"):
            env.reset(options=bad)
    with pytest.raises(GameError, match="seed"):
        env.reset(seed=1, options={"reset_mask": np.ones(3, bool)})
    assert (env.seats == -1).all() and (env.encodings[1] == ended).all()
    obs, info = env.reset(options={"reset_mask": np.array([True, False, True])})
    for i in (0, 2):
        matches[i].record(games[i])
        g = matches[i].next_game()
        assert int(info["seat"][i]) == g.to_act
        assert (obs[i] == reference_encoding(g.observation(g.to_act))).all()
    assert int(info["seat"][1]) == -1 and (obs[1] == ended).all()
    assert env.deals_finished.tolist() == [1, 1, 1]


def test_pettingzoo_rewards_every_deal_of_the_match() -> None:
    """The points of a deal where every seat is in Fantasyland (played by the solver
    inside reset(), no agent decision) reach the agents: they are the first rewards of
    the episode that reset() starts (before: lost).  Reference: the same match and
    moves played by Match/Game, the agents' rewards summed against its net points."""
    from ofc_fast.rules.model import HandCategory

    fl = presets.PINEAPPLE.fantasyland.replace(
        entry=(("22", 14),), stay_back=HandCategory.STRAIGHT
    )
    rules = presets.PINEAPPLE.replace(name="easy-fantasyland", fantasyland=fl)
    env = pettingzoo_env(rules, 2)
    env.reset(seed=0)
    rng = np.random.default_rng(0)
    got = np.zeros(2)
    played: list[int] = []
    for episode in range(200):
        if episode:
            env.reset()
        for agent in env.agent_iter():
            obs, reward, term, trunc, _ = env.last()
            got[env._seat[agent]] += reward
            action = None
            if not (term or trunc):
                action = int(rng.choice(np.flatnonzero(obs["action_mask"])))
                played.append(action)
            env.step(action)
    deals = int(env._venv._slots[0].deal)
    assert deals > 200 + 5  # deals played inside reset()
    match = Match(rules, 2, seed=env_seed(0, 0))
    want = np.zeros(2)
    moves = iter(played)
    for _ in range(deals):
        g = match.next_game()
        finish_fantasyland(g)
        while not g.is_over:
            g.play_action(next(moves))
            finish_fantasyland(g)
        want += match.record(g).net
    assert next(moves, None) is None
    assert got.tolist() == want.tolist()


def test_vector_env_reset_takes_a_seed_per_environment() -> None:
    """reset(seed=[...]) (Gymnasium's vector API: one seed per environment) starts
    environment i on the match a one-table env seeded seed[i] plays, Match(rules,
    players, seed=env_seed(seed[i], 0)), None drawing one; reset() replays those
    seeds and a copy keeps them (before: TableError).  Reference: Match/Game played
    side by side with the same moves."""
    import pickle

    env = VectorEnv("pineapple", num_envs=3, players=2, seed=0)
    seeds = [7, 11, 7]
    for again in range(2):
        obs, info = env.reset(seed=seeds) if again == 0 else env.reset()
        matches = [Match("pineapple", 2, seed=env_seed(s, 0)) for s in seeds]
        games = [m.next_game() for m in matches]
        for _ in range(9):  # a deal is 10 decisions: its last ends it
            for i, g in enumerate(games):
                assert (obs[i] == reference_encoding(g.observation(g.to_act))).all()
            actions = env.legal_actions[:, 0].astype(np.int64)
            obs, _, terms, _, info = env.step(actions)
            for i, g in enumerate(games):
                g.play_action(int(actions[i]))
                assert not g.is_over and not terms[i]
        assert env.seed == 0
    copy = pickle.loads(pickle.dumps(env))
    assert (copy.reset()[0] == env.reset()[0]).all()
    drawn, _ = env.reset(seed=[None, None, 5])
    assert not (drawn[0] == drawn[1]).all()
    with pytest.raises(GameError, match="one per environment"):
        env.reset(seed=[1, 2])
    obs, _ = env.reset(seed=0)  # an int: environment i plays env_seed(0, i)
    first = Match("pineapple", 2, seed=env_seed(0, 1)).next_game()
    assert (obs[1] == reference_encoding(first.observation(first.to_act))).all()


def test_vector_env_reset_takes_a_numpy_array_of_seeds() -> None:
    """reset(seed=...) takes a 1-D numpy integer array (any integer dtype) as the
    list of the same seeds, and a numpy integer scalar as that int (before: TableError
    "must be 0..2**64-1, got array(...)"); a float array, a 2-D array or one of the
    wrong length stays a TableError naming the problem.  Reference: the list form."""
    env = VectorEnv("pineapple", num_envs=3, players=2, seed=0)
    want, _ = env.reset(seed=[1, 2, 3])
    for seeds in (np.array([1, 2, 3]), np.array([1, 2, 3], np.uint64)):
        got, _ = env.reset(seed=seeds)
        assert (got == want).all()
    want, _ = env.reset(seed=5)
    for one in (np.int64(5), np.uint32(5), np.array(5)):
        got, _ = env.reset(seed=one)
        assert (got == want).all() and env.seed == 5
    for bad, named in (
        (np.array([1.0, 2.0, 3.0]), r"seed\[0\]"),
        (np.array([[1, 2, 3]]), r"seed: .*1-D.*\(1, 3\)"),
        (np.array([1, 2]), "one per environment"),
        (np.array(5.0), "seed"),
    ):
        with pytest.raises(TableError, match=named):
            env.reset(seed=bad)


def _deal_seeds(venv: VectorEnv) -> list[int]:
    """The deal seed of each table's current deal (its C game's)."""
    return [int(venv.game_of(i).seed) for i in range(venv.num_envs)]


def _match_deal_seeds(match_seeds: list[int]) -> list[int]:
    """The first deal's seed of ``Match("pineapple", 2, seed=m)`` for each ``m``."""
    return [Match("pineapple", 2, seed=m).next_game().seed for m in match_seeds]


def test_each_adapter_seeds_table_i_as_docs_environments_states() -> None:
    """docs/environments.md states which match, ``Match(rules, players, seed=m)``,
    table ``i`` plays after a seeded reset, per adapter: VectorEnv ``seed=s`` (made or
    reset) ``m = env_seed(s, i)``; a list ``m = env_seed(s_i, 0)``; a one-table
    Gymnasium or PettingZoo env ``m = env_seed(s, 0)``; ``gymnasium.make_vec``
    (copy ``i`` reset with ``s + i``, Gymnasium's rule) ``m = env_seed(s + i, 0)``.
    Reference: the first deal's seed of that Match."""
    gymnasium = pytest.importorskip("gymnasium", reason="pip install .[rl]")
    s, n = 5, 3
    made = VectorEnv("pineapple", num_envs=n, players=2, seed=s)
    made.reset()
    want = _match_deal_seeds([env_seed(s, i) for i in range(n)])
    assert _deal_seeds(made) == want
    venv = VectorEnv("pineapple", num_envs=n, players=2)
    venv.reset(seed=s)
    assert _deal_seeds(venv) == want
    venv.reset(seed=[s + i for i in range(n)])
    plus_i = _match_deal_seeds([env_seed(s + i, 0) for i in range(n)])
    assert _deal_seeds(venv) == plus_i and plus_i != want
    one = gymnasium.make("ofc_fast/Pineapple-v0")
    one.reset(seed=s)
    assert _deal_seeds(one.unwrapped._venv) == _match_deal_seeds([env_seed(s, 0)])
    vec = gymnasium.make_vec("ofc_fast/Pineapple-v0", num_envs=n, vectorization_mode="sync")
    vec.reset(seed=s)
    got = [_deal_seeds(e.unwrapped._venv)[0] for e in vec.envs]
    assert got == plus_i
    fast = gymnasium.make_vec("ofc_fast/Pineapple-v0", num_envs=n)  # vector_entry_point
    fast.reset(seed=s)
    assert _deal_seeds(fast.unwrapped._venv) == plus_i
    pytest.importorskip("pettingzoo", reason="pip install .[rl]")
    aec = pettingzoo_env("pineapple", 2)
    aec.reset(seed=s)
    assert _deal_seeds(aec.unwrapped._venv) == _match_deal_seeds([env_seed(s, 0)])


def test_vector_env_settings_are_checked_when_made() -> None:
    """``autoreset`` and ``final_obs`` are True or False (NumPy's too): ``"no"`` was
    taken as True; ``bot_settings`` is a dict: ``5`` was a bare TypeError.  Each a
    GameError naming the setting, when the VectorEnv is made."""
    for name in ("autoreset", "final_obs"):
        for bad in ("no", 1, None):
            with pytest.raises(GameError, match=f"^{name} must be True or False"):
                VectorEnv("pineapple", 2, **{name: bad})
        assert VectorEnv("pineapple", 2, **{name: np.bool_(False)}).metadata
    off = VectorEnv("pineapple", 2, autoreset=np.bool_(False), final_obs=np.bool_(True))
    assert off.metadata["autoreset_mode"] == "Disabled" and off.final_obs is True
    for bad in (5, "x", [("seed", 1)]):
        with pytest.raises(GameError, match=r"^bot_settings must be a dict"):
            VectorEnv("pineapple", 2, opponents="heuristic", bot_settings=bad)


def test_bot_settings_without_bot_opponents_are_refused() -> None:
    """``bot_settings`` with opponents ``"random"`` or ``"self"`` (played by no bot)
    were silently ignored, and its ``seed`` or ``rules`` (the env's to give) were a
    TypeError: a GameError naming ``bot_settings``; none (None or {}) is fine, and a
    bot opponent still takes its own settings."""
    for mode in ("random", "self", "Random"):
        with pytest.raises(GameError, match=r"^bot_settings \['nope'\] given"):
            VectorEnv("pineapple", 2, opponents=mode, bot_settings={"nope": 1})
        assert VectorEnv("pineapple", 2, opponents=mode, bot_settings={}).num_envs == 2
    env = VectorEnv("pineapple", 2, opponents="heuristic", bot_settings={"samples": 8})
    assert env._bot_settings == {"samples": 8}
    for taken in ("seed", "rules"):  # the env's: was make_bot's TypeError
        with pytest.raises(GameError, match=f"^bot_settings may not set {taken}"):
            VectorEnv("pineapple", 2, opponents="heuristic", bot_settings={taken: 5})


def test_vector_env_closes_as_gymnasium_vector_envs_do() -> None:
    """``close()``, as ``gymnasium.vector.VectorEnv``'s: ``closed`` turns True, a second
    close does nothing, and later calls are a GameError naming them."""
    env = VectorEnv("pineapple", 2, opponents="heuristic", seed=0)
    env.reset()
    assert env.closed is False
    env.close()
    env.close()
    assert env.closed is True and env._bots is None
    for call, name in (
        (env.reset, "reset"),
        (lambda: env.step(np.zeros(2, np.int64)), "step"),
        (lambda: env.next_deal(0), "next_deal"),
        (lambda: env.observation(0, 0), "observation"),
    ):
        with pytest.raises(GameError, match=f"^{name}\\(\\) on a closed VectorEnv"):
            call()


@pytest.mark.parametrize("obs_type", ["bytes", "features"])
def test_a_closed_vector_env_refuses_its_views_as_its_steps(obs_type: str) -> None:
    """After close(), the views refuse with the steps' GameError naming them (before:
    ``final_observations``, ``game_of``, ``infos`` and ``observations_float`` answered
    with the closed tables' old data)."""
    env = VectorEnv("pineapple", 2, seed=0, final_obs=True, obs_type=obs_type)
    env.reset()
    env.final_observations([0]), env.game_of(1), env.infos(), env.observations_float()
    env.close()
    for call, name in (
        (lambda: env.final_observations([0]), "final_observations"),
        (lambda: env.game_of(0), "game_of"),
        (env.infos, "infos"),
        (env.observations_float, "observations_float"),
        (lambda: env.encode(0, 0), "encode"),
    ):
        with pytest.raises(GameError, match=f"^{name}\\(\\) on a closed VectorEnv"):
            call()


def test_a_closed_vector_env_copied_or_pickled_names_the_copy() -> None:
    """Copying or pickling a closed VectorEnv: the GameError names what the user did
    (was ``__reduce__() on a closed VectorEnv``: an internal method), one message for
    every way in; so does the thread guard's."""
    import copy
    import pickle

    env = VectorEnv("pineapple", 2, seed=0)
    busy = r"^copy or pickle while another thread"
    env._entries += 1  # odd: another thread's step
    with pytest.raises(GameError, match=busy):
        copy.deepcopy(env)
    env._entries += 1
    env.close()
    for take in (copy.copy, copy.deepcopy, pickle.dumps):
        with pytest.raises(GameError) as err:
            take(env)
        assert str(err.value) == "copy or pickle on a closed VectorEnv: make a new one"


def test_single_game_envs_play_on_after_close() -> None:
    """The Gymnasium and PettingZoo envs' ``close()`` releases nothing: a reset after
    it plays on, as SB3's ``check_env`` with its render check expects (it closes, then
    resets); closing twice is harmless."""
    import gymnasium

    envs = [
        gymnasium.make("ofc_fast/Pineapple-v0", opponents="heuristic"),
        pettingzoo_env(rules="pineapple", players=2),
    ]
    for env in envs:
        env.reset(seed=0)
        env.close()
        env.close()
        env.reset(seed=1)
        assert env.unwrapped._venv.closed is False
    sb3_checker = pytest.importorskip(
        "stable_baselines3.common.env_checker", reason="pip install .[rl-train]"
    )
    sb3_checker.check_env(gymnasium.make("ofc_fast/Pineapple-v0"), skip_render_check=False)


def test_gymnasium_env_refuses_self_play_in_any_case() -> None:
    """The Gymnasium env has one agent and refuses ``opponents="self"``; ``"Self"`` or
    ``"SELF"`` (taken as ``self``, as every mode name is in any case) made a one-agent
    env in self-play, whose agent was asked every seat's decisions: GameError too."""
    gym = pytest.importorskip("ofc_fast.env.gym", reason="pip install .[rl]")
    for mode in ("self", "Self", "SELF"):
        with pytest.raises(GameError, match="has one agent"):
            gym.OfcEnv(opponents=mode)
    assert gym.OfcEnv(opponents="Random")._venv.opponents == "random"


@pytest.mark.parametrize("obs_type", ["bytes", "features"])
def test_vector_env_final_observations_reads_only_its_rows(obs_type: str) -> None:
    """final_observations(envs): a mask such as ``terminations`` (num_envs booleans)
    gave the rows of environments 0 and 1 (its values cast to indices); an index
    out of range was a bare IndexError; one int with ``obs_type="features"`` read its
    encoding as 828 rows (past the buffer: CardError or garbage).  A mask selects its
    environments, one int gives that environment's row, anything else is a GameError
    naming ``envs``.  Reference: features_of_encoding of the rows picked by hand."""
    env = VectorEnv("pineapple", num_envs=3, seed=0, final_obs=True, obs_type=obs_type)
    env.reset()
    while env.terminations.sum() in (0, 3):
        env.step(env.legal_actions[:, 0].astype(np.int64))

    def want(i: int) -> np.ndarray:
        enc = env.final_encodings[i]
        return features_of_encoding(enc) if obs_type == "features" else enc

    ended = np.flatnonzero(env.terminations)
    rows = np.array([want(i) for i in ended])
    assert np.array_equal(env.final_observations(env.terminations.copy()), rows)
    assert np.array_equal(env.final_observations(list(ended)), rows)
    assert np.array_equal(env.final_observations(int(ended[0])), want(int(ended[0])))
    assert np.array_equal(env.final_observations(np.int64(ended[0])), want(int(ended[0])))
    assert env.final_observations([]).shape == (0, rows.shape[1])
    for bad in ([3], [-1], [0.5], [[0]], np.array([True, False]), "0", None):
        with pytest.raises(GameError, match=r"^envs "):
            env.final_observations(bad)


def test_vector_env_final_observations_need_final_obs() -> None:
    """final_observations() reads the terminal observations C keeps only for a
    VectorEnv made with final_obs=True (off by default: it costs a little per deal);
    without it GameError, not stale rows; a copy keeps the setting."""
    import copy

    env = VectorEnv("pineapple", num_envs=2, seed=0)
    env.reset()
    with pytest.raises(GameError, match="final_obs=True"):
        env.final_observations([0])
    on = VectorEnv("pineapple", num_envs=2, seed=0, final_obs=True, obs_type="features")
    on.reset()
    while not on.terminations.any():
        on.step(on.legal_actions[:, 0].astype(np.int64))
    ended = np.flatnonzero(on.terminations)
    want = [features_of_encoding(on.final_encodings[i]) for i in ended]
    assert np.array_equal(on.final_observations(ended), np.array(want))
    assert copy.deepcopy(on).final_obs


def test_gymnasium_makes_the_ids_by_module_prefix_without_an_import() -> None:
    """Gymnasium 1.x has no plugin entry points: the documented way to make an id
    without importing ofc_fast.env first is ``"ofc_fast.env:ofc_fast/..."``, in a
    fresh interpreter (before: the docs gave no way, and a plain id is
    NamespaceNotFound).  Reference: Gymnasium's env checker and the id's spec."""
    pytest.importorskip("gymnasium", reason="pip install .[rl]")
    from scripts import checkout_file, package_env

    code = (
        "import sys, gymnasium\n"
        "assert 'ofc_fast.env' not in sys.modules\n"
        "env = gymnasium.make('ofc_fast.env:ofc_fast/Pineapple-v0')\n"
        "obs, _ = env.reset(seed=1)\n"
        "print(env.spec.id, int(obs['action_mask'].sum()))\n"
    )
    import subprocess
    import sys

    out = subprocess.run(
        [sys.executable, "-c", code],
        capture_output=True,
        text=True,
        check=True,
        env=package_env(),
    )
    assert out.stdout.split() == ["ofc_fast/Pineapple-v0", "232"]
    doc = checkout_file("docs/environments.md").read_text("utf-8")
    assert 'gymnasium.make("ofc_fast.env:ofc_fast/Pineapple-v0")' in doc


def _reset_with_options() -> list[
    tuple[str, Callable[..., object], Callable[[], object], tuple[str, ...] | None]
]:
    """Each environment, started and one step in: (its name, its ``reset(options=o)``,
    a view of its state, the options its reset takes; None: any key, PettingZoo's)."""
    gymnasium = pytest.importorskip("gymnasium", reason="pip install .[rl]")
    sb3 = pytest.importorskip("ofc_fast.env.sb3", reason="pip install .[rl-train]")
    vec = VectorEnv("pineapple", num_envs=2, seed=3)
    vec.reset()
    vec.step(vec.legal_actions[:, 0].astype(np.int64))
    one = gymnasium.make("ofc_fast/Pineapple-v0")
    one.reset(seed=3)
    one.step(int(one.unwrapped.action_masks().argmax()))
    made = gymnasium.make_vec("ofc_fast/Pineapple-v0", num_envs=2)
    obs, _ = made.reset(seed=3)
    made.step(obs["action_mask"].argmax(axis=1))
    aec = pettingzoo_env("pineapple", 2, seed=3)
    aec.reset(seed=3)
    adapter = sb3.GymVectorEnv("pineapple", num_envs=2, seed=3)
    adapter.reset()
    adapter.step(adapter.action_masks().argmax(axis=1))
    sb3_vec = sb3.VecEnv("pineapple", num_envs=2, seed=3)
    sb3_vec.reset()

    def sb3_reset(options: object) -> object:  # SB3's way: set, then reset
        sb3_vec.set_options(options)  # type: ignore[arg-type]
        return sb3_vec.reset()

    mask = ("reset_mask",)
    return [
        ("VectorEnv", vec.reset, lambda: vec.observations.copy(), mask),
        ("gymnasium.make", one.reset, lambda: one.unwrapped._obs()["observation"], ()),
        (
            "gymnasium.make_vec",
            made.reset,
            lambda: made.unwrapped._venv.observations.copy(),
            mask,
        ),
        (
            "pettingzoo_env",
            aec.reset,
            lambda: aec.observe(aec.agent_selection)["observation"],
            None,
        ),
        ("GymVectorEnv", adapter.reset, lambda: adapter.tables.observations.copy(), mask),
        ("SB3 VecEnv", sb3_reset, lambda: sb3_vec.tables.observations.copy(), mask),
    ]


def test_every_env_reset_refuses_an_option_it_does_not_take() -> None:
    """``reset(options=...)`` with a key the env does not take (a misspelt
    ``reset_mask``: ``{"mask": m}``), or options that are not a dict, was taken as a
    plain reset (every table dealt again: the mask meant to keep some was ignored) by
    every env but the SB3 VecEnv's ``set_options``: now a GameError naming the key and
    the options the env's reset takes, nothing changed.  None, ``{}`` and the
    documented keys still work (checked by the Gymnasium, PettingZoo and SB3 env
    checkers elsewhere); the PettingZoo env takes any key, as PettingZoo's
    ``api_test`` resets with ``options={"options": 1}``, but a dict only."""
    for name, reset, view, takes in _reset_with_options():
        before = np.array(view())
        if takes is None:  # PettingZoo's: any key, a dict only
            with pytest.raises(GameError, match="options must be a dict"):
                reset(options=3)
            assert np.array_equal(np.array(view()), before), name
            reset(options={"options": 1})
            continue
        taken = "the option reset_mask only" if takes else "no options"
        for bad, named in (
            ({"mask": np.array([True, False])}, "'mask'"),
            ({"reset_mask": np.array([True, False]), "seed": 1, 2: 0}, "'seed', 2"),
        ):
            if not takes:
                bad.pop("reset_mask", None)
            with pytest.raises(GameError, match=re.escape(f"takes {taken}, got {named}")):
                reset(options=bad)
            assert np.array_equal(np.array(view()), before), name
        with pytest.raises(GameError, match="options must be a dict"):
            reset(options=3)
        assert np.array_equal(np.array(view()), before), name
        for fine in (None, {}):
            reset(options=fine)


def test_an_env_s_bad_keyword_is_quoted_short() -> None:
    """Regression: the Gymnasium env printed a keyword it refuses whole
    (``opponent="x" * 10**6``, an option key of a megabyte: a megabyte of message), or
    for an int too long for str() (``num_envs=10**5000``) raised the ValueError of
    writing it; each is a GameError of a short message."""
    pytest.importorskip("gymnasium", reason="pip install .[rl]")
    from ofc_fast.env.gym import OfcEnv

    long = "x" * 10**6
    for call in (
        lambda: OfcEnv("pineapple", num_envs=10**5000),
        lambda: OfcEnv("pineapple", opponent=long),
        lambda: OfcEnv("pineapple").reset(options={long: 1}),
    ):
        with pytest.raises(GameError) as err:
            call()
        assert len(str(err.value)) < 300


@pytest.mark.parametrize("opponents,seed", [("random", 2), ("heuristic", 6)])
def test_vector_env_reset_mask_plays_on_deals_without_an_agent_decision(
    opponents: str, seed: int
) -> None:
    """Regression: ``VectorEnv(autoreset=False)``, Gymnasium's disabled-autoreset loop
    (``reset(options={"reset_mask": terminations})`` after each step that ended a
    deal), left a table whose next deal the learner sat out in Fantasyland at that
    deal's end (seat -1, an empty mask): the loop's next ``step`` was a MoveError
    ("the deal is over") for every table, and the deal's points were in no reward.
    The reset now deals on up to the learner's next decision, as a step with
    autoreset does, and gives the passed deals' points per seat in
    ``infos["final_rewards"]``.  Reference: the same tables with autoreset, whose
    step adds them to the reward of the step that ended the deal before."""
    fl = presets.PINEAPPLE.fantasyland.replace(entry=(("22", 14),))
    rules = presets.PINEAPPLE.replace(name="easy-fantasyland", fantasyland=fl)
    n, steps = 16, 30
    kwargs = {"num_envs": n, "players": 2, "seed": seed, "opponents": opponents}
    off = VectorEnv(rules, autoreset=False, **kwargs)
    on = VectorEnv(rules, **kwargs)
    off.reset()
    on.reset()
    got, want = np.zeros(n), np.zeros(n)
    passed = 0
    rng = np.random.default_rng(0)
    for _ in range(steps):
        assert (off.seats >= 0).all() and (off.legal_counts > 0).all()
        assert (off.legal_actions == on.legal_actions).all()
        pick = (rng.random(n) * off.legal_counts).astype(np.int64)
        actions = off.legal_actions[np.arange(n), pick].astype(np.int64)
        _, rewards, terms, _, _ = off.step(actions)
        got += rewards
        want += on.step(actions)[1]
        terms = terms.copy()  # (the reset writes the env's arrays again)
        if terms.any():
            _, infos = off.reset(options={"reset_mask": terms})
            got += infos["final_rewards"][:, 0]
            passed += int((infos["final_rewards"][terms] != 0).any(axis=1).sum())
            assert not infos["final_rewards"][~terms].any()
    assert passed > 0  # the learner sat out a deal (else nothing was checked)
    assert got.tolist() == want.tolist()


def test_vector_env_reset_mask_gives_no_points_at_the_tables_it_keeps() -> None:
    """Regression: a ``reset_mask`` reset left ``infos["final_rewards"]`` of the
    tables it kept as the step before wrote them: a table whose deal ended at that
    step but was left unmarked showed its points again (a loop summing every row
    counted them twice).  The reset's points are those of its deals, 0 elsewhere."""
    env = VectorEnv("pineapple", num_envs=8, seed=3, opponents="random", autoreset=False)
    env.reset()
    rng = np.random.default_rng(1)
    for _ in range(40):
        pick = (rng.random(8) * env.legal_counts).astype(np.int64)
        _, _, terms, _, infos = env.step(env.legal_actions[np.arange(8), pick])
        ended = np.flatnonzero(infos["final_rewards"].any(axis=1))
        if len(ended) >= 2:
            break
    else:
        raise AssertionError("no two tables ended a deal with points")
    mask = terms.copy()
    mask[ended[0]] = False  # (ended, with points, and kept)
    _, infos = env.reset(options={"reset_mask": mask})
    assert not infos["final_rewards"][~mask].any()
    assert env.seats[ended[0]] < 0 and (env.seats[mask] >= 0).all()


def _docs_loop(without: str = "") -> list[tuple[np.ndarray, ...]]:
    """Run docs/environments.md's VectorEnv loop as written (less each ``without``)
    and return the transitions it keeps."""
    from md_blocks import fenced_blocks
    from scripts import checkout_file

    page = checkout_file("docs/environments.md").read_text(encoding="utf-8")
    (block,) = [b for b in fenced_blocks(page, "python") if "autoreset=False" in b]
    namespace: dict[str, object] = {"__name__": "__main__"}
    exec(compile(block.replace(without, ""), "environments.md", "exec"), namespace)
    transitions: list[tuple[np.ndarray, ...]] = namespace["transitions"]  # type: ignore[assignment]
    return transitions


def _replay_mismatches(transitions: list[tuple[np.ndarray, ...]]) -> list[int]:
    """The steps whose kept (observation, actions, rewards, terminations) differ from
    a replay of the docs loop's VectorEnv checked at each step."""
    env = VectorEnv("pineapple", num_envs=64, seed=0, opponents="random", autoreset=False)
    obs, _ = env.reset()
    bad = []
    for k, (before, actions, rewards, terminations) in enumerate(transitions):
        same = np.array_equal(obs, before)
        obs, got_rewards, got_terminations, _, _ = env.step(actions)
        same &= np.array_equal(got_rewards, rewards)
        if not (same and np.array_equal(got_terminations, terminations)):
            bad.append(k)
        if got_terminations.any():
            obs, _ = env.reset(options={"reset_mask": got_terminations})
    return bad


def test_docs_vector_env_loop_keeps_its_transitions() -> None:
    """Regression: docs/environments.md did not say that VectorEnv returns arrays of
    its own that the next call overwrites, reset() included, so a loop that kept
    ``terminations`` from step() saw it all False after
    ``reset(options={"reset_mask": terminations})``, and kept observations all became
    the last.  The page says so now, and its loop, which copies what it keeps, runs as
    written: its transitions are those of a replay checked step by step."""
    transitions = _docs_loop()
    assert len(transitions) == 50
    assert sum(int(t[3].sum()) for t in transitions) > 64  # deals ended, reset on
    assert _replay_mismatches(transitions) == []


def test_the_docs_loop_check_catches_arrays_kept_without_a_copy() -> None:
    """The check above fails for the docs loop without its ``.copy()`` calls (the
    kept arrays are then the VectorEnv's own, overwritten by the later calls)."""
    assert len(_replay_mismatches(_docs_loop(without=".copy()"))) > 40
