"""The spaces of every env over a :class:`~ofc_fast.env.VectorEnv`, built in one place:
the Gymnasium and PettingZoo envs' (a ``Dict`` of this observation and the mask) and
the trainer adapters' (this observation alone) cannot drift apart."""

from __future__ import annotations

from typing import Any

import gymnasium
import numpy as np
from gymnasium import spaces

from ._vector import ACTION_SPACE, FEATURE_SIZE, OBS_SIZE

OBS_HIGH = 17
"""The largest value of an encoding byte (a 17-card Fantasyland count)."""


def observation_box(obs_type: str) -> spaces.Box:
    """The observation of ``obs_type`` (checked by the VectorEnv): ``"features"``: the
    float32 features in [0, 1], else the uint8 encoding.

    >>> observation_box("bytes")
    Box(0, 17, (828,), uint8)
    """
    if obs_type == "features":
        return spaces.Box(0.0, 1.0, (FEATURE_SIZE,), np.float32)
    return spaces.Box(0, OBS_HIGH, (OBS_SIZE,), np.uint8)


def set_vector_spaces(
    env: Any, single_observation: spaces.Space[Any], num_envs: int
) -> None:
    """Give a Gymnasium vector env of ``num_envs`` tables its spaces: one table's
    (``single_observation``, the action ids) and the batched ones."""
    env.single_observation_space = single_observation
    env.single_action_space = spaces.Discrete(ACTION_SPACE)
    env.observation_space = gymnasium.vector.utils.batch_space(single_observation, num_envs)
    env.action_space = gymnasium.vector.utils.batch_space(env.single_action_space, num_envs)
