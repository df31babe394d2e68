"""A user's training script with the SB3 adapter (README: reinforcement learning;
the ``rl-train`` extra) that tests/test_typing.py checks with ``mypy --strict``: a
model read back is a ``MaskablePPO``, a frozen copy of it an opponent that gives int64
action ids."""

from __future__ import annotations

import os
import tempfile

import numpy as np
import numpy.typing as npt
from sb3_contrib import MaskablePPO
from typing_extensions import assert_type

from ofc_fast.env.sb3 import VecEnv, export_policy, frozen_policy, load_ppo


def saved_model() -> None:
    """A model saved and read back trains on; its frozen copy plays a table's
    opponents (self-play)."""
    env = VecEnv("pineapple", num_envs=2, opponent="random", seed=0)
    model = MaskablePPO("MlpPolicy", env, n_steps=8, batch_size=8, seed=0)
    path = export_policy(model, os.path.join(tempfile.mkdtemp(), "m.zip"))
    loaded = load_ppo(path)
    assert_type(loaded, MaskablePPO)
    policy = frozen_policy(loaded, deterministic=True)
    obs, masks = env.reset(), env.action_masks()
    assert_type(policy(obs, masks), npt.NDArray[np.int64])
    VecEnv("pineapple", num_envs=2, opponent=policy, seed=0)


def vec_env_arrays() -> None:
    """The SB3 adapter's arrays (README: reinforcement learning): uint8 or float32
    observations, bool action masks, float32 rewards, bool dones."""
    env = VecEnv("pineapple", num_envs=2, opponent="random", seed=0)
    obs = env.reset()
    assert_type(obs, npt.NDArray[np.uint8] | npt.NDArray[np.float32])
    assert_type(env.action_masks(), npt.NDArray[np.bool_])
    env.step_async(env.action_masks().argmax(axis=1))
    obs, rewards, dones, _ = env.step_wait()
    assert_type(rewards, npt.NDArray[np.float32])
    assert_type(dones, npt.NDArray[np.bool_])
