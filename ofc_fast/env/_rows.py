"""The environments a :class:`~ofc_fast.env.VectorEnv` call reads rows of: indices or a
mask of ``num_envs`` booleans (``terminations``), checked before any row is read."""

from __future__ import annotations

import numpy as np

from ..errors import GameError, quote


def env_indices(envs: object, num_envs: int) -> np.ndarray:
    """``envs`` as a 1-D array of environment indices: an int (one), a sequence or a
    1-D array of ints 0..num_envs-1, or a mask of ``num_envs`` booleans (the
    environments it marks); else GameError naming ``envs``.

    >>> env_indices([2, 0], 3), env_indices(np.array([True, False, True]), 3)
    (array([2, 0]), array([0, 2]))
    """
    try:
        idx = np.atleast_1d(np.asarray(envs))
    except ValueError:  # a ragged list
        idx = np.zeros((0, 0))
    if idx.dtype == np.bool_ and idx.shape == (num_envs,):
        return np.flatnonzero(idx)
    if idx.size == 0 and idx.ndim == 1:
        return np.zeros(0, np.intp)
    if (
        idx.ndim != 1
        or idx.dtype.kind not in "iu"
        or not (idx.min() >= 0 and idx.max() < num_envs)
    ):
        raise GameError(
            f"envs must be environment indices 0..{num_envs - 1} or a mask of "
            f"{num_envs} booleans, got {quote(envs)}"
        )
    return idx.astype(np.intp)
