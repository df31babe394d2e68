"""One VectorEnv stepped from two threads: the second thread is refused with a GameError
that says what to do, nothing is corrupted, and single-threaded stepping works
afterwards, matching an environment never shared."""

from __future__ import annotations

import pickle
import signal
import threading
from collections.abc import Iterator
from typing import Any

import numpy as np
import pytest

import ofc_fast.env._vector as vector
from ofc_fast.bots import make_bot, register, unregister
from ofc_fast.env import VectorEnv
from ofc_fast.errors import GameError

N = 16


class Gate:
    """An opponent that waits, on its first decision, until the test lets it go: a
    step() is then certainly under way in the thread that called it."""

    def __init__(self, inside: threading.Event, go: threading.Event) -> None:
        self.inside, self.go = inside, go
        self.inner = make_bot("random", seed=0)

    def act(self, obs: Any) -> Any:
        self.inside.set()
        assert self.go.wait(30)
        return self.inner.act(obs)


@pytest.fixture
def gate() -> Iterator[tuple[threading.Event, threading.Event]]:
    inside, go = threading.Event(), threading.Event()
    register("test-gate", lambda rules=None, seed=None: Gate(inside, go))
    yield inside, go
    go.set()
    unregister("test-gate")


def random_actions(env: VectorEnv, rng: np.random.Generator) -> np.ndarray:
    pick = (rng.random(env.num_envs) * env.legal_counts).astype(np.int64)
    return env.legal_actions[np.arange(env.num_envs), pick]


def trace(env: VectorEnv, steps: int, seed: int = 1) -> list[bytes]:
    rng = np.random.default_rng(seed)
    out = []
    for _ in range(steps):
        obs, r, t, _, _ = env.step(random_actions(env, rng))
        out.append(obs.tobytes() + r.tobytes() + t.tobytes())
    return out


def test_a_second_thread_is_refused_while_a_step_runs(
    gate: tuple[threading.Event, threading.Event],
) -> None:
    inside, go = gate
    env = VectorEnv("pineapple", num_envs=1, players=2, seed=3, opponents="test-gate")
    # the gate plays seat 1 at once on reset (seat 1 acts first): reset in a thread
    errors: list[BaseException] = []
    t = threading.Thread(target=lambda: env.reset())
    t.start()
    assert inside.wait(30)
    for call in (
        lambda: env.step(np.zeros(1, np.int64)),
        lambda: env.reset(),
        lambda: env.next_deal(0),
        lambda: env.step_first(0),
        lambda: env.step_active(np.zeros(1, np.int64), np.ones(1, bool)),
    ):
        with pytest.raises(GameError, match="another thread is stepping") as info:
            call()
        errors.append(info.value)
    assert "one VectorEnv per thread" in str(errors[0])
    go.set()
    t.join(30)
    assert not t.is_alive()
    # afterwards: legal single-threaded steps work, deal after deal
    rng = np.random.default_rng(0)
    finished = 0
    for _ in range(60):
        _, _, terms, _, _ = env.step(random_actions(env, rng))
        finished += int(terms.sum())
    assert finished >= 5


def test_two_threads_hammering_one_env_never_corrupt_it() -> None:
    """Two threads step the same env as fast as they can: every call either steps or
    is refused with the GameError; the env then steps on single-threaded exactly as
    an env that ran the same accepted steps alone."""
    env = VectorEnv("pineapple", num_envs=N, players=2, seed=5)
    env.reset()
    refused: list[BaseException] = []
    other: list[BaseException] = []
    lock = threading.Lock()
    stop = threading.Event()

    def hammer(seed: int) -> None:
        rng = np.random.default_rng(seed)
        while not stop.is_set():
            with lock:  # pick from a consistent snapshot; the step itself races
                actions = random_actions(env, rng)
            try:
                env.step(actions)
            except GameError as exc:
                refused.append(exc)
            except BaseException as exc:  # (recorded for the assertions)
                other.append(exc)

    threads = [threading.Thread(target=hammer, args=(s,)) for s in (1, 2)]
    for t in threads:
        t.start()
    threading.Event().wait(1.5)
    stop.set()
    for t in threads:
        t.join(30)
    assert not other, other[:3]
    # (refused: the guard's GameError, or a MoveError for actions picked before the
    # other thread's step made them stale; either leaves the env unchanged)
    assert all(isinstance(e, GameError) for e in refused)
    # single-threaded afterwards: 200 legal steps, none refused, deals keep finishing
    before = int(env.deals_finished.sum())
    trace(env, 200)
    assert int(env.deals_finished.sum()) > before + N


class Held:
    """An opponent that, once ``armed`` is set, waits on its next decision (the arming
    spent) until ``go`` is set: a step is then held between the learner's move and the
    opponent's."""

    def __init__(
        self, armed: threading.Event, inside: threading.Event, go: threading.Event
    ):
        self.armed, self.inside, self.go = armed, inside, go
        self.inner = make_bot("random", seed=0)

    def act(self, obs: Any) -> Any:
        if self.armed.is_set():
            self.armed.clear()
            self.inside.set()
            assert self.go.wait(30)
        return self.inner.act(obs)


def _view(env: VectorEnv) -> tuple[Any, ...]:
    """Seat 0's observation and encoding of environment 0, and the views' arrays."""
    return (
        env.observation(0, 0),
        env.encode(0, 0).tolist(),
        env.observations_float().tolist(),
        env.final_observations([0]).tolist(),
    )


def test_a_view_while_another_thread_steps_sees_the_env_before_or_after_the_step() -> None:
    # observation(), encode() and the views read the C state and arrays a step writes,
    # its C calls letting the GIL go: from another thread they saw a step half done
    # (here: the learner's move made, the opponent's not yet).  They now wait for the
    # step; the references: the same env stepped by one thread.
    armed, inside, go = threading.Event(), threading.Event(), threading.Event()
    register("test-held", lambda rules=None, seed=None: Held(armed, inside, go))
    try:
        kwargs: dict[str, Any] = {"num_envs": 1, "players": 2, "seed": 3}
        env = VectorEnv("pineapple", opponents="test-held", final_obs=True, **kwargs)
        ref = VectorEnv("pineapple", opponents="test-held", final_obs=True, **kwargs)
        env.reset()
        ref.reset()
        actions = env.legal_actions[:, :1].reshape(1).astype(np.int64)
        before = _view(ref)
        ref.step(actions)
        after = _view(ref)
        assert before[:2] != after[:2]
        armed.set()
        stepper = threading.Thread(target=env.step, args=(actions,))
        stepper.start()
        assert inside.wait(30)
        seen: list[Any] = []

        def read() -> None:
            try:
                seen.append(_view(env))
            except Exception as exc:  # a torn view may raise: that is the failure
                seen.append(repr(exc))

        reader = threading.Thread(target=read)
        reader.start()
        reader.join(0.2)  # the reader reads (or waits for the step) while it is held
        go.set()
        stepper.join(30)
        reader.join(30)
        assert not reader.is_alive() and not stepper.is_alive()
        assert seen[0] in (before, after)
        assert _view(env) == after
    finally:
        go.set()
        unregister("test-held")


def test_a_view_a_whole_step_lands_in_sees_the_env_before_or_after_it(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    # observation() and encode() read the C state without the env's lock (it cost a
    # fifth of an encode()).  A step begun and ended in another thread between two of
    # observation()'s C reads (the seat's view, then its legal actions: the step ran
    # while the reader made the array for them) left no step in progress to see: the
    # read is done again once a step began meanwhile.  The references: the same env
    # stepped by one thread.
    env = VectorEnv("pineapple", num_envs=1, players=2, seed=3)
    env.reset()
    env.step(env.legal_actions[:, :1].reshape(1).astype(np.int64))
    actions = env.legal_actions[:, :1].reshape(1).astype(np.int64)
    ref = pickle.loads(pickle.dumps(env))
    before = ref.observation(0, 0)
    ref.step(actions)
    after = ref.observation(0, 0)
    assert before["legal_actions"] and before["legal_actions"] != after["legal_actions"]
    real_ffi, fired = vector.ffi, []

    class StepFirst:
        """cffi's ffi, but the legal actions' array is made once another thread's
        whole step has landed."""

        def __getattr__(self, name: str) -> Any:
            return getattr(real_ffi, name)

        def new(self, *args: Any) -> Any:
            if args[0] == "uint8_t[]" and not fired:
                fired.append(True)
                stepper = threading.Thread(target=env.step, args=(actions,))
                stepper.start()
                stepper.join(5)  # (a reader holding the env's lock makes it wait)
            return real_ffi.new(*args)

    monkeypatch.setattr(vector, "ffi", StepFirst())
    got = env.observation(0, 0)
    monkeypatch.undo()
    assert fired
    assert got in (before, after)


@pytest.mark.skipif(not hasattr(signal, "setitimer"), reason="run on POSIX (setitimer)")
def test_a_ctrl_c_inside_a_step_leaves_the_env_whole_or_needing_reset() -> None:
    """Regression: a Ctrl-C (KeyboardInterrupt from a signal handler) that landed in
    a step after its C call, before the Python bots' loop had begun (or after it,
    before the arrays were written), left about one interrupted step in thirty with
    a bot's seat to act and the env still started: the agent's next step was played
    for the bot.  Here a timer raises KeyboardInterrupt into steps until 400 were
    cut; after each the env is either whole (the agent to act everywhere, the observations
    those of its seat now) or not started (its steps refused until reset())."""
    from interrupts import CutCalls, ctrl_c_timer, interrupted

    v = VectorEnv("pineapple", num_envs=2, players=2, seed=1, opponents="heuristic")
    v.reset()
    rng = np.random.default_rng(0)
    calls = CutCalls(400, cap=4_000)  # (most steps are cut)
    with ctrl_c_timer() as armed:
        for _ in calls:
            infos = v.infos()
            acts = [
                rng.choice(infos["legal_actions"][i][: infos["legal_count"][i]])
                for i in range(2)
            ]
            calls.cuts += interrupted(armed, v.step, acts)
            if v.started:
                assert v.seats.tolist() == [v.learner] * 2, calls
                for i in range(2):
                    expected = v.encode(i, v.learner)
                    assert np.array_equal(v.observations[i], expected), calls
            else:
                with pytest.raises(GameError, match=r"reset\(\)"):
                    v.step(acts)
                v.reset()
    assert calls.cuts == calls.target, calls  # the timer did land inside the steps
