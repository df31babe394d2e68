"""What :class:`~ofc_fast.env.VectorEnv` returns: its observation rows
(:data:`Observations`) and its ``infos`` (:class:`VectorInfos`: ``reset``, ``step``,
``infos()``), one array per key, a row per environment."""

from __future__ import annotations

from typing import TypeAlias, TypedDict

import numpy as np
from numpy.typing import NDArray

__all__ = ["Observations", "VectorInfos"]

Observations: TypeAlias = NDArray[np.uint8] | NDArray[np.float32]
"""The observation rows of a VectorEnv: the uint8 encodings, or with
``obs_type="features"`` the float32 features."""


class VectorInfos(TypedDict):
    """What :meth:`VectorEnv.infos() <ofc_fast.env.VectorEnv.infos>` returns (and
    ``reset()`` and ``step()`` with it): the arrays the environment keeps, a row per
    environment (read them before the next step: it writes them again).

    >>> from ofc_fast.env import VectorEnv
    >>> env = VectorEnv("pineapple", num_envs=2, seed=1)
    >>> _, infos = env.reset()
    >>> infos["seat"].dtype, infos["legal_actions"].shape, int(infos["legal_count"][0])
    (dtype('int8'), (2, 243), 232)
    """

    seat: NDArray[np.int8]  #: the seat to decide next (-1: a deal ended, no autoreset)
    action_mask: NDArray[np.bool_]  #: the legal action ids of its decision
    legal_actions: NDArray[np.uint8]  #: those ids, increasing, in the first legal_count
    legal_count: NDArray[np.int16]  #: how many ids are legal
    full_set: NDArray[np.bool_]  #: the decision sets 13-17 cards (an empty mask)
    final_rewards: NDArray[np.float32]  #: per seat, at a deal's end
