"""The learner's side of many tables (ofc_fast.env._learner, what the SB3 and
Gymnasium vector adapters wrap): opponents played by a policy between C calls, rewards
against a Match played side by side, VectorEnv.step_active."""

from __future__ import annotations

import signal
from typing import Any

import numpy as np
import pytest
from test_env import finish_fantasyland, reference_encoding, run_isolated

from ofc_fast._native import ffi, lib
from ofc_fast.env import VectorEnv, env_seed
from ofc_fast.env._learner import LearnerTables
from ofc_fast.errors import GameError, MoveError
from ofc_fast.game import Match, Move


def first_legal(observations: np.ndarray, masks: np.ndarray) -> np.ndarray:
    """The opponent policy of these tests: the smallest legal id of every row."""
    assert observations.shape[0] == masks.shape[0] > 0
    return np.argmax(masks, axis=1)


@pytest.mark.parametrize("rules_name,learner", [("PINEAPPLE", 0), ("OFC", 1)])
def test_policy_opponents_against_a_match(rules_name: str, learner: int) -> None:
    """Table 0 of a policy-opponent run is the Match of its seed, every seat playing
    what the learner or the opponent policy chose; the learner's reward of each step
    is its net points of the deals that ended in it."""
    n, seed = 8, 11
    t = LearnerTables(
        rules_name, n, 2, seed, first_legal, learner=learner, obs_type="bytes"
    )
    t.reset()
    match = Match(rules_name, 2, seed=env_seed(seed, 0))
    g = match.next_game()
    rng = np.random.default_rng(3)
    deals = 0

    def catch_up() -> float:
        """Play the Game up to the learner's decision; the learner's points of the
        deals that ended on the way."""
        nonlocal g, deals
        points = 0.0
        while True:
            finish_fantasyland(g)
            if g.is_over:
                points += match.record(g).net[learner]
                deals += 1
                g = match.next_game()
                continue
            if g.to_act == learner:
                return points
            g.play_action(min(g.legal_actions()))

    assert catch_up() == 0.0
    while deals < 40:
        assert (t.venv.seats == learner).all()
        assert list(np.flatnonzero(t.masks[0])) == g.legal_actions()
        pick = (rng.random(n) * t.venv.legal_counts).astype(np.int64)
        actions = t.venv.legal_actions[np.arange(n), pick]
        _, rewards, dones = t.step(actions)
        g.play_action(int(actions[0]))
        before = deals
        assert rewards[0] == catch_up()
        assert bool(dones[0]) == (deals > before)


class FirstLegalBot:
    """A bot class by import path (``module:attribute``) as the opponent."""

    name = "first-legal"

    def __init__(self, rules: Any = None, seed: Any = None) -> None:
        self.rules = rules

    def act(self, obs: Any) -> Any:
        return Move.from_action(obs["dealt"], obs["to_discard"], min(obs["legal_actions"]))


def test_random_and_bot_opponents() -> None:
    for opponent in ("random", "heuristic", "test_learner:FirstLegalBot"):
        t = LearnerTables("pineapple", 4, 2, 1, opponent, learner=1)
        obs = t.reset()
        assert obs.shape == (4, 696)
        total = 0
        for _ in range(12):
            assert (t.venv.seats == 1).all()
            obs, rewards, dones = t.step(t.masks.argmax(axis=1))
            total += int(dones.sum())
        assert total >= 4 and t.deals == total


def test_set_opponent_and_bad_settings() -> None:
    t = LearnerTables("pineapple", 2, 2, 0, first_legal)
    t.reset()
    calls = []

    def last_legal(obs: np.ndarray, masks: np.ndarray) -> np.ndarray:
        calls.append(len(obs))
        return masks.shape[1] - 1 - np.argmax(masks[:, ::-1], axis=1)

    t.set_opponent(last_legal)
    for _ in range(6):
        t.step(t.masks.argmax(axis=1))
    assert calls
    with pytest.raises(GameError, match="needs a policy"):
        LearnerTables("pineapple", 2, 2, 0, "self")
    with pytest.raises(GameError, match="opponent policy"):
        LearnerTables("pineapple", 2, 2, 0, "random").set_opponent(first_legal)
    bad = LearnerTables("pineapple", 2, 2, 0, lambda o, m: np.full(len(o), 242))
    with pytest.raises(MoveError):
        bad.reset()
        for _ in range(6):
            bad.step(bad.masks.argmax(axis=1))


def test_step_active_leaves_the_others_alone() -> None:
    env = VectorEnv("pineapple", 4, 2, seed=5, obs_type="features")
    obs, info = env.reset()
    before = obs.copy()
    active = np.array([True, False, True, False])
    acts = env.legal_actions[:, 0].astype(np.int64)
    env.step_active(acts, active)
    assert np.array_equal(obs[~active], before[~active])
    assert not np.array_equal(obs[active], before[active])
    with pytest.raises(MoveError):
        env.step_active(acts, [True])
    with pytest.raises(MoveError):  # an illegal id in an active row
        env.step_active(np.full(4, 243), active)


def test_learner_step_takes_integer_actions_only() -> None:
    """Like VectorEnv.step: float actions (4.9 is not action 4) and a wrong count are a
    MoveError, and no table changes."""
    t = LearnerTables("pineapple", 2, 2, 0, "random", obs_type="bytes")
    t.reset()
    before = t.observations.copy()
    legal = t.masks.argmax(axis=1)
    for bad in (legal + 0.9, np.array([np.nan, np.nan]), legal[:1], [[0, 0, 0]]):
        with pytest.raises(MoveError):
            t.step(bad)
        assert np.array_equal(t.observations, before)
    t.step(legal.reshape(2, 1))  # one id per table, any shape of num_envs ids
    assert not np.array_equal(t.observations, before)


def test_ragged_actions_and_flags_are_a_move_error() -> None:
    """Actions, ``active`` or ``ended`` given as a ragged list (an id and a list mixed),
    or ``ended`` not one flag per table, are a MoveError naming them and no table
    changes, and so are an opponent policy's ragged actions (before: NumPy's
    ValueError "inhomogeneous shape" or "could not be broadcast", and a one-flag
    ``ended`` was broadcast to every table)."""
    env = VectorEnv("pineapple", 3, 2, seed=5, opponents="random")
    env.reset()
    acts = env.legal_actions[:, 0].astype(np.int64)
    ragged = [int(acts[0]), [int(acts[1])], int(acts[2])]
    before = env.encodings.copy()
    for call, what in (
        (lambda: env.step(ragged), "actions"),
        (lambda: env.step_active(ragged, [1, 1, 1]), "actions"),
        (lambda: env.step_active(acts, [1, [1], 1]), "active"),
        (lambda: env.step_active(acts, [1, 1, 1], ended=[True, [False], True]), "ended"),
        (lambda: env.step_active(acts, [1, 1, 1], ended=[True]), "ended"),
        (lambda: env.step_active(acts, [1, 1, 1], ended="xyz"), "ended"),
    ):
        with pytest.raises(MoveError, match=f"^{what} must be 3 "):
            call()
        assert np.array_equal(env.encodings, before)
    t = LearnerTables("pineapple", 3, 2, 0, "random", obs_type="bytes")
    t.reset()
    with pytest.raises(MoveError, match=r"^actions must be 3 integers"):
        t.step([0, [1], 2])
    ragged_policy = LearnerTables("pineapple", 2, 2, 0, lambda o, m: [0, [1]][: len(o)])
    with pytest.raises(MoveError, match="the opponent policy must return"):
        ragged_policy.reset()
        for _ in range(6):
            ragged_policy.step(ragged_policy.masks.argmax(axis=1))


def test_opponent_policy_loop_is_bounded_when_the_learner_stays() -> None:
    """The learner kept in Fantasyland by the rules (any clean board stays), the
    opponent policy playing every deal: the loop between C calls stops with the
    GameError of deals without a learner decision (before: 1,000 policy rounds, about
    200 deals, then a GameError that named no cause; with both seats in Fantasyland the
    C step never returned).  The opponent never enters (a front of trip aces), so the
    policy loop's bound is the one that fires; the tables then need reset()."""
    run_isolated(
        """
from ofc_fast.env._learner import LearnerTables

t = LearnerTables(stay_rules("AAA"), 2, 2, 0, lambda o, m: m.argmax(axis=1))
t.reset()
v = t.venv
fantasyland_next(v, 0)  # table 0: the learner in Fantasyland from the next deal
v.next_deal(0)          # its deal waits for the opponent
stuck(t._play_opponents)
assert v._slots[0].fl[1] == 0 and v._slots[0].deal > 1000
try:
    t.step(t.masks.argmax(axis=1))
    raise AssertionError("stepped")
except GameError as exc:
    assert "reset()" in str(exc)
t.reset()
assert (v.seats == 0).all()
"""
    )


def test_opponent_policy_that_fails_leaves_tables_that_need_a_reset() -> None:
    """An opponent policy that raises (or picks an illegal id) stops the step with
    the opponent's decision still pending: the learner's next actions must not be
    played for the opponent's seat (before: they were, silently, and the opponent's
    points of a deal so ended became the learner's reward).  Reference: the seat
    to act, read from the engine's game (ofc_game_to_act), and a GameError naming
    reset()."""
    fail = [False]

    def flaky(observations: np.ndarray, masks: np.ndarray) -> np.ndarray:
        if fail[0]:
            return np.full(len(masks), 242, np.int64)  # not legal after the first street
        return first_legal(observations, masks)

    t = LearnerTables("pineapple", 1, 2, 3, flaky, obs_type="bytes")
    t.reset()
    t.step(t.masks.argmax(axis=1))  # the learner's first street: 5 cards placed
    fail[0] = True
    with pytest.raises(MoveError):
        t.step(t.masks.argmax(axis=1))
    g = t.venv.game_of(0)
    assert lib.ofc_game_to_act(g) == 1  # the opponent's decision waits
    before = bytes(ffi.buffer(g))
    fail[0] = False
    with pytest.raises(GameError, match=r"reset\(\)"):
        t.step(t.masks.argmax(axis=1))
    assert bytes(ffi.buffer(g)) == before  # nothing played for the opponent's seat
    t.reset()
    assert (t.venv.seats == 0).all()
    t.step(t.masks.argmax(axis=1))


def test_learner_tables_refuse_fantasyland_decisions() -> None:
    """The learner's tables (the SB3 adapters) step action ids only, and a
    Fantasyland set has none: ``fantasyland="decision"`` is a GameError when they are
    made, as in the Gymnasium env (before: taken, and once the learner reached
    Fantasyland its mask was all zeros and every step a MoveError: the run stopped)."""
    with pytest.raises(GameError, match="Fantasyland sets by the solver"):
        LearnerTables("pineapple", 2, 2, 0, "random", fantasyland="decision")
    LearnerTables("pineapple", 2, 2, 0, "random", fantasyland="solver").reset()


@pytest.mark.parametrize(
    ("kwargs", "name", "said"),
    [
        (dict(autoreset=False), "autoreset", "sets autoreset="),
        (dict(final_obs=False), "final_obs", "sets final_obs="),
        (dict(opponents="heuristic"), "opponents", "^an SB3 adapter .* takes opponent="),
    ],
)
def test_learner_tables_name_the_settings_they_fix(
    kwargs: dict, name: str, said: str
) -> None:
    """A VectorEnv keyword the learner's tables (the SB3 adapters) set themselves,
    given with another value, is a GameError naming it, as in the single-game envs
    (before: autoreset=False was taken and the first deal's end stopped the run with
    a MoveError; final_obs and opponents were a TypeError "got multiple values"); the
    value they set is accepted; the adapters take their opponents as
    ``opponent=`` and refuse any ``opponents=``, saying so."""
    with pytest.raises(GameError, match=said):
        LearnerTables("pineapple", 2, 2, 0, "random", **kwargs)
    if name == "opponents":  # any opponents= (the adapters take opponent=)
        with pytest.raises(GameError, match=said):
            LearnerTables("pineapple", 2, 2, 0, "random", opponents="random")
        return
    fixed = {"autoreset": True, "final_obs": True}[name]
    t = LearnerTables("pineapple", 2, 2, 0, "random", **{name: fixed})
    t.reset()
    for _ in range(12):  # past the first deal's end
        t.step(t.masks.argmax(axis=1))
    assert t.deals > 0


@pytest.mark.parametrize(
    "returns",
    [
        lambda masks: np.argmax(masks, axis=1) + 0.9,  # 4.9 is not action 4
        lambda masks: np.argmax(masks, axis=1)[:1],  # one id for two rows
        lambda masks: np.argmax(masks, axis=1).astype(str),
    ],
)
def test_opponent_policy_returns_integer_ids_only(returns: Any) -> None:
    """What the opponent policy returns is checked as the learner's actions are: float
    ids (once cast to int64, 4.9 played action 4), a wrong count (once a NumPy
    broadcasting ValueError) and non-numbers are a MoveError naming the policy."""
    t = LearnerTables("pineapple", 2, 2, 0, lambda obs, masks: returns(masks))
    with pytest.raises(MoveError, match="opponent policy"):
        t.reset()
        for _ in range(2):  # the opponent's first decision comes after the learner's
            t.step(t.masks.argmax(axis=1))


def test_final_observation_is_the_learners_end_view() -> None:
    """LearnerTables.final_observations after a step that ended table i's deal is the
    learner's view of that deal's end, also when an opponent policy's move ended it
    (the VectorEnv's final_encodings), and stays that deal's when deals the learner
    sits out (Fantasyland) end in the same step.  Reference: Match/Game played with
    the same moves (the first legal action of every seat)."""

    def first_legal(observations: Any, masks: Any) -> Any:
        return masks.argmax(axis=1)

    tables = LearnerTables("pineapple", 2, seed=0, opponent=first_legal, obs_type="bytes")
    tables.reset()
    matches = [Match("pineapple", 2, seed=env_seed(0, i)) for i in range(2)]
    games = [m.next_game() for m in matches]

    def advance(i: int) -> Any:
        """Play table i's other seats up to the learner's decision; the learner's
        view of the first deal that ended on the way (None: none ended)."""
        end = None
        while True:
            g = games[i]
            finish_fantasyland(g)
            if g.is_over:
                end = reference_encoding(g.observation(0)) if end is None else end
                matches[i].record(g)
                games[i] = matches[i].next_game()
            elif g.to_act == 0:
                return end
            else:
                g.play_action(g.legal_actions()[0])

    for i in range(2):
        assert advance(i) is None
    ended = 0
    for _ in range(60):
        actions = tables.masks.argmax(axis=1)
        _, _, dones = tables.step(actions)
        for i in range(2):
            games[i].play_action(int(actions[i]))
            end = advance(i)
            assert bool(dones[i]) == (end is not None)
            if end is not None:
                ended += 1
                assert np.array_equal(tables.final_observations(np.array([i]))[0], end)
    assert ended >= 12


@pytest.mark.skipif(not hasattr(signal, "setitimer"), reason="run on POSIX (setitimer)")
def test_a_ctrl_c_inside_a_step_leaves_the_tables_whole_or_needing_reset() -> None:
    """Regression: a Ctrl-C (KeyboardInterrupt from a signal handler) that landed in
    ``LearnerTables.step`` after the learner's step, before the opponent policy's
    loop had begun, left tables with an opponent's seat to act and the tables still
    started: the learner's next step was played for the opponent.  Here a timer
    raises KeyboardInterrupt into steps until 1,000 were cut; after each every table waits
    for the learner, or the tables are not started (their steps refused until
    reset())."""
    from interrupts import CutCalls, ctrl_c_timer, interrupted

    def first_legal(obs: np.ndarray, masks: np.ndarray) -> np.ndarray:
        return np.argmax(masks, axis=1)

    t = LearnerTables("pineapple", num_envs=4, seed=3, opponent=first_legal)
    t.reset()
    rng = np.random.default_rng(0)
    calls = CutCalls(1000, cap=30_000)  # (most steps are cut)
    with ctrl_c_timer() as armed:
        for _ in calls:
            acts = [rng.choice(np.flatnonzero(m)) for m in t.masks]
            calls.cuts += interrupted(armed, t.step, acts)
            if t.venv.started:
                assert t.venv.seats.tolist() == [t.learner] * 4, calls
                assert np.array_equal(t.masks, t.venv.action_masks), calls
            else:
                with pytest.raises(GameError, match=r"reset\(\)"):
                    t.step(acts)
                t.reset()
    assert calls.cuts == calls.target, calls  # the timer did land inside the steps
