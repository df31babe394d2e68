"""Reinforcement-learning environments: :class:`VectorEnv` (many tables in one C call),
a Gymnasium environment and a PettingZoo AEC environment (the ``rl`` extra:
``pip install 'ofc-fast[rl]'``); :mod:`ofc_fast.env.sb3`: Stable-Baselines3 and
Gymnasium vector adapters over one VectorEnv (the ``rl-train`` extra).  Every one takes
``obs_type`` (:data:`OBS_TYPES`): the uint8 encoding or the float32 features.

Importing this package registers the Gymnasium ids (when Gymnasium is installed):
``ofc_fast/OFC-v0``, ``ofc_fast/Pineapple-v0``, ``ofc_fast/ProgressivePineapple-v0``,
``ofc_fast/UltimatePineapple-v0`` and ``ofc_fast/Pineapple27-v0``.

>>> from ofc_fast.env import VectorEnv, GYM_IDS
>>> GYM_IDS["ofc_fast/Pineapple-v0"]
'PINEAPPLE'
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from ..lazy import lazy_module
from ..rules import RulesLike
from ._infos import VectorInfos
from ._vector import FANTASYLAND_MODES, OBS_TYPES, OPPONENTS, VectorEnv, env_seed

__all__ = [
    "FANTASYLAND_MODES",
    "GYM_IDS",
    "OBS_TYPES",
    "OPPONENTS",
    "VectorEnv",
    "VectorInfos",
    "env_seed",
    "pettingzoo_env",
    "register_gymnasium",
]

if TYPE_CHECKING:  # (PettingZoo loads when an environment is made)
    from . import aec as _aec
else:
    _aec = lazy_module("ofc_fast.env.aec")

GYM_IDS = {
    "ofc_fast/OFC-v0": "OFC",
    "ofc_fast/Pineapple-v0": "PINEAPPLE",
    "ofc_fast/ProgressivePineapple-v0": "PROGRESSIVE_PINEAPPLE",
    "ofc_fast/UltimatePineapple-v0": "ULTIMATE_PINEAPPLE",
    "ofc_fast/Pineapple27-v0": "PINEAPPLE_27",
}
"""Gymnasium id -> the preset it plays."""


def register_gymnasium() -> bool:
    """Register :data:`GYM_IDS` with Gymnasium (done on import); False when Gymnasium
    is not installed.

    >>> import gymnasium
    >>> register_gymnasium(), "ofc_fast/Pineapple-v0" in gymnasium.envs.registry
    (True, True)
    """
    try:
        import gymnasium
    except ImportError:
        return False
    for env_id, preset in GYM_IDS.items():
        if env_id not in gymnasium.registry:
            gymnasium.register(
                env_id,
                entry_point="ofc_fast.env.gym:OfcEnv",
                vector_entry_point="ofc_fast.env.gym:OfcVectorEnv",
                kwargs={"rules": preset},
            )
    return True


def pettingzoo_env(
    rules: RulesLike = "pineapple", players: int = 2, **kwargs: Any
) -> _aec.OfcAECEnv:
    """A PettingZoo AEC environment (:class:`ofc_fast.env.aec.OfcAECEnv`) of ``rules``
    for ``players`` seats; needs PettingZoo (the ``rl`` extra).

    >>> aec = pettingzoo_env(rules="pineapple", players=2)
    >>> aec.reset(seed=0)
    >>> aec.agents, aec.action_space(aec.agent_selection)
    (['player_0', 'player_1'], Discrete(243))
    """
    from ._arguments import check_forwarded
    from .aec import OfcAECEnv

    check_forwarded("pettingzoo_env", OfcAECEnv, kwargs)
    return OfcAECEnv(rules=rules, players=players, **kwargs)


register_gymnasium()
