"""Training throughput through the SB3 adapter (ofc_fast.env.sb3.VecEnv), medians of
repeated timed runs.  Needs the rl-train extra.

    python benchmarks/bench_rl_train.py [--repeats 3] [--seconds 5]

* the adapter alone: Pineapple, 2 seats, random opponents in C, ``obs_type="features"``,
  512 tables, actions drawn uniformly among the legal ids of sb3-contrib's
  ``get_action_masks`` (what MaskablePPO reads), one thread; and two threads, each with
  its own adapter (the C step releases the GIL);
* MaskablePPO on the adapter with the recipe's settings (examples/train_ppo.py CONFIG:
  256 tables, a 256x256 MLP, 16 steps a rollout, 4 epochs of 1024-row batches),
  rollouts and updates both, on one and on two torch threads.

An env step is one learner decision at one table (the opponents' decisions in between
are not counted).  "per CPU-s" divides by the CPU time the process got: on a busy
shared machine the wall figure is what the scheduler allowed.  Target:
>= 20,000 env steps/s through the adapter on 2 cores.
"""

from __future__ import annotations

import sys
import time
from collections.abc import Callable
from pathlib import Path

import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parent.parent / "examples"))
from bench_env import on_threads, run_cases

from ofc_fast.timing import require_extra


def adapter_run(seconds: float, seed: int, out: list[float]) -> None:
    from sb3_contrib.common.maskable.utils import get_action_masks

    from ofc_fast.env.sb3 import VecEnv

    env = VecEnv("pineapple", num_envs=512, opponent="random", seed=seed)
    env.reset()
    rng = np.random.default_rng(seed)
    steps = 0
    t0 = time.perf_counter()
    while time.perf_counter() - t0 < seconds:
        masks = get_action_masks(env)
        env.step(np.argmax(rng.random(masks.shape) * masks, axis=1))
        steps += env.num_envs
    out.append(steps / (time.perf_counter() - t0))


def ppo(threads: int) -> Callable[[float], float]:
    def run(seconds: float) -> float:
        import torch
        from sb3_contrib import MaskablePPO
        from train_ppo import CONFIG

        from ofc_fast.env.sb3 import VecEnv

        torch.set_num_threads(threads)
        env = VecEnv("pineapple", CONFIG["num_envs"], opponent="random", seed=0)
        model = MaskablePPO(
            "MlpPolicy",
            env,
            device="cpu",
            policy_kwargs={
                "net_arch": {"pi": CONFIG["net"], "vf": CONFIG["net"]},
                "activation_fn": torch.nn.ReLU,
            },
            **CONFIG["ppo"],
        )
        chunk = CONFIG["num_envs"] * CONFIG["ppo"]["n_steps"]
        model.learn(chunk)  # warm-up
        steps = 0
        t0 = time.perf_counter()
        while time.perf_counter() - t0 < seconds:
            model.learn(chunk, reset_num_timesteps=False)
            steps += chunk
        return steps / (time.perf_counter() - t0)

    return run


CASES: list[tuple[str, Callable[[float], float], int]] = [
    (
        "SB3 VecEnv adapter x512, features, vs random, one thread",
        on_threads(adapter_run, 1),
        20_000,
    ),
    (
        "SB3 VecEnv adapter x512, features, vs random, two threads",
        on_threads(adapter_run, 2),
        20_000,
    ),
    ("MaskablePPO on the adapter, recipe settings, 1 torch thread", ppo(1), 0),
    ("MaskablePPO on the adapter, recipe settings, 2 torch threads", ppo(2), 0),
]


def main() -> None:
    """Print one line per case: median env steps/s, per CPU-s, target, every run."""
    require_extra("rl-train", "torch", "gymnasium", "stable_baselines3", "sb3_contrib")
    run_cases(CASES, __doc__.split("\n")[0], repeats=3, seconds=5.0)


if __name__ == "__main__":
    from ofc_fast.cli import run_command  # (an error, a reader gone: one line)

    sys.exit(run_command(main, "bench_rl_train.py"))
