"""The seeds of a :class:`~ofc_fast.env.VectorEnv`: environment ``i``'s match
(:func:`env_seed`), the seeds a reset takes, one per environment (Gymnasium's vector
API) read from a list, a tuple or a 1-D numpy integer array, and the seed drawn at
random for a None."""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np

from ..errors import TableError
from ..table import check_seed, random_seed


def env_seed(seed: int, i: int) -> int:
    """The seed of environment ``i``'s match: it plays the deals of
    ``ofc_fast.Match(rules, players, seed=env_seed(seed, i))``.

    >>> env_seed(0, 1) == env_seed(0, 1) != env_seed(0, 2)
    True
    """
    from ..game import deal_seed

    return deal_seed(seed, i)


def seed_list(seed: object, num_envs: int) -> list[int] | None:
    """``seed`` as one checked seed per environment (None drawn at random) when it is
    a list of seeds: a sequence or a 1-D numpy array of ``num_envs``; None when it is
    one seed or None (a 0-d array: check its item).  TableError naming the problem
    otherwise.

    >>> seed_list(np.array([1, 2]), 2), seed_list(7, 2)
    ([1, 2], None)
    """
    if isinstance(seed, np.ndarray):
        if seed.ndim > 1:
            raise TableError(
                f"seed: a list of seeds is 1-D, got an array of shape {seed.shape}"
            )
        if seed.ndim == 0:
            return None
        seed = seed.tolist()
    if not isinstance(seed, Sequence) or isinstance(seed, (str, bytes)):
        return None
    if len(seed) != num_envs:
        raise TableError(
            f"seed: a list of seeds needs one per environment ({num_envs}), got {len(seed)}"
        )
    return [
        random_seed() if s is None else check_seed(s, f"seed[{i}]")
        for i, s in enumerate(seed)
    ]
