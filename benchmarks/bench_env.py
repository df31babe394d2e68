"""Throughput of the RL environments (ofc_fast.env), medians of repeated timed runs.

    python benchmarks/bench_env.py [--repeats 5] [--seconds 2]

* VectorEnv, Pineapple, 2 seats, self-play, num_envs=1024, masked-random actions chosen
  in NumPy (a uniform index into each row's legal ids), one core: one thread;
* the same on both cores: two threads, each stepping its own VectorEnv (the C step
  releases the GIL; the NumPy action choice of one thread runs while the other steps);
* the Gymnasium env (one instance, ``opponents="random"``, masked-random actions);
* the PettingZoo AEC env (2 seats, masked-random actions, ``env.last()`` each step).

An agent step is one decision of one seat answered by the caller.  "per CPU-s" divides
the steps by the CPU time the process got (all its threads): on a busy shared machine
the wall-clock figure is what the scheduler allowed, the per-CPU figure what the code
does with a core.  Targets:
>= 2,000,000 / >= 1,000,000 agent steps/s (VectorEnv, two cores / one core), >= 50,000
(Gymnasium), >= 30,000 (PettingZoo).
"""

from __future__ import annotations

import random
import statistics
import sys
import threading
import time
from collections.abc import Callable

import numpy as np

from ofc_fast.timing import ScriptHelp, ScriptParser, at_least, duration, require_extra


def vector_run(seconds: float, seed: int, result: list[float]) -> None:
    from ofc_fast.env import VectorEnv

    env = VectorEnv("pineapple", num_envs=1024, players=2, seed=seed, opponents="self")
    env.reset()
    rng = np.random.default_rng(seed)
    rows = np.arange(env.num_envs)
    steps = 0
    t0 = time.perf_counter()
    while time.perf_counter() - t0 < seconds:
        pick = (rng.random(env.num_envs) * env.legal_counts).astype(np.int64)
        env.step(env.legal_actions[rows, pick])
        steps += env.num_envs
    result.append(steps / (time.perf_counter() - t0))


def on_threads(
    run: Callable[[float, int, list[float]], None], threads: int
) -> Callable[[float], float]:
    """A case: ``run(seconds, seed, out)`` (which appends its steps per second to
    ``out``) on ``threads`` threads at once, seeds 1, 2, ...; their rates summed."""

    def case(seconds: float) -> float:
        out: list[float] = []
        workers = [
            threading.Thread(target=run, args=(seconds, seed, out))
            for seed in range(1, threads + 1)
        ]
        for t in workers:
            t.start()
        for t in workers:
            t.join()
        return sum(out)

    return case


def gymnasium_env(seconds: float) -> float:
    import gymnasium

    import ofc_fast.env  # noqa: F401  (registers the ids)

    env = gymnasium.make("ofc_fast/Pineapple-v0", opponents="random").unwrapped
    obs, _ = env.reset(seed=0)
    rnd = random.Random(0)
    steps = 0
    t0 = time.perf_counter()
    while time.perf_counter() - t0 < seconds:
        legal = np.flatnonzero(obs["action_mask"])
        obs, reward, terminated, truncated, info = env.step(
            int(legal[rnd.randrange(len(legal))])
        )
        if terminated:
            obs, _ = env.reset()
        steps += 1
    return steps / (time.perf_counter() - t0)


def pettingzoo_env(seconds: float) -> float:
    from ofc_fast.env import pettingzoo_env as make

    env = make(rules="pineapple", players=2)
    env.reset(seed=0)
    rnd = random.Random(0)
    steps = 0
    t0 = time.perf_counter()
    while time.perf_counter() - t0 < seconds:
        for _agent in env.agent_iter():
            obs, reward, terminated, truncated, info = env.last()
            if terminated or truncated:
                env.step(None)
            else:
                legal = np.flatnonzero(obs["action_mask"])
                env.step(int(legal[rnd.randrange(len(legal))]))
                steps += 1
        env.reset()
    return steps / (time.perf_counter() - t0)


CASES: list[tuple[str, Callable[[float], float], int]] = [
    (
        "VectorEnv Pineapple 2p self-play x1024, both cores (2 threads)",
        on_threads(vector_run, 2),
        2_000_000,
    ),
    (
        "VectorEnv Pineapple 2p self-play x1024, one core",
        on_threads(vector_run, 1),
        1_000_000,
    ),
    ("Gymnasium env, one instance, vs random", gymnasium_env, 50_000),
    ("PettingZoo AEC env, 2 seats", pettingzoo_env, 30_000),
]


def timed(fn: Callable[[float], float], seconds: float) -> tuple[float, float]:
    """(steps per wall second, steps per CPU second of this process): on a shared
    machine the second shows what the code does with the CPU it actually got."""
    wall0, cpu0 = time.perf_counter(), time.process_time()
    rate = fn(seconds)
    wall, cpu = time.perf_counter() - wall0, time.process_time() - cpu0
    return rate, rate * wall / cpu if cpu > 0 else float("nan")


def run_cases(
    cases: list[tuple[str, Callable[[float], float], int]],
    description: str,
    repeats: int = 5,
    seconds: float = 2.0,
) -> None:
    """Parse ``--repeats`` / ``--seconds`` (defaults as given) and print one line per
    case: median steps/s, per CPU-s, target, every run."""
    ap = ScriptParser(formatter_class=ScriptHelp, description=description)
    ap.add_argument(
        "--repeats", type=at_least(1), default=repeats, help="runs of each case (median)"
    )
    ap.add_argument("--seconds", type=duration, default=seconds, help="seconds a run")
    args = ap.parse_args()
    print(f"{'what':<66} {'median steps/s':>15} {'per CPU-s':>11} {'target':>11}  runs")
    for name, fn, target in cases:
        runs = [timed(fn, args.seconds) for _ in range(args.repeats)]
        med = statistics.median(r for r, _ in runs)
        per_cpu = statistics.median(c for _, c in runs)
        goal = f"{target:,}" if target else "-"  # (0: a row without a target)
        print(
            f"{name:<66} {med:>15,.0f} {per_cpu:>11,.0f} {goal:>11}  "
            f"{', '.join(f'{r:,.0f}' for r, _ in runs)}",
            flush=True,
        )


def main() -> None:
    require_extra("rl", "gymnasium", "pettingzoo")
    run_cases(CASES, __doc__.split("\n")[0])


if __name__ == "__main__":
    from ofc_fast.cli import run_command  # (an error, a reader gone: one line)

    sys.exit(run_command(main, "bench_env.py"))
