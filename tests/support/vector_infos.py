"""Vector env results compared key by key with a reference's (Gymnasium's own vector
envs over one-table envs): the tests of make_vec's env and of the SB3 adapters'
Gymnasium vector env."""

from __future__ import annotations

import numpy as np


def assert_same_infos(want: object, got: object, path: str) -> None:
    """``got`` is ``want`` key by key: the same keys (masks ``_key`` included), array
    dtypes, shapes and values, recursively (object arrays and tuples, such as a
    step's results, element by element)."""
    if isinstance(want, tuple):
        assert isinstance(got, tuple) and len(got) == len(want), path
        for i, (w, g) in enumerate(zip(want, got)):
            assert_same_infos(w, g, f"{path}[{i}]")
    elif isinstance(want, dict):
        assert isinstance(got, dict) and sorted(got) == sorted(want), path
        for key in want:
            assert_same_infos(want[key], got[key], f"{path}[{key!r}]")
    elif isinstance(want, np.ndarray) and want.dtype == object:
        assert isinstance(got, np.ndarray) and got.shape == want.shape, path
        for i, (w, g) in enumerate(zip(want, got)):
            assert_same_infos(w, g, f"{path}[{i}]")
    elif isinstance(want, np.ndarray):
        assert isinstance(got, np.ndarray), path
        assert (got.dtype, got.shape) == (want.dtype, want.shape), path
        assert np.array_equal(got, want), path
    else:
        assert type(got) is type(want) and got == want, path
