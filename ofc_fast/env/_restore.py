"""Restoring a pickled :class:`~ofc_fast.env.VectorEnv`'s state: every C slot checked
by C (``ofc_vecenv_slot_check``) before any other function reads it, the arrays
checked for their shapes, the arrays of the pending decisions written from the C
slots (:func:`restore_decisions`), not taken from the pickle, the reset seeds
checked (:func:`restore_seeds`)."""

from __future__ import annotations

from typing import Any

import numpy as np
import numpy.typing as npt

from .._native import check_error, ffi, lib, status_error
from ..errors import GameError, TableError, quote
from ..table import check_seed

STATE_ARRAYS = (
    "encodings",
    "features",
    "action_masks",
    "legal_actions",
    "legal_counts",
    "seats",
    "full_sets",
    "rewards",
    "final_rewards",
    "terminations",
    "truncations",
    "deals_finished",
    "final_encodings",
)
"""The arrays of a VectorEnv's state (its C slots hold the rest): what a copy keeps."""


def restore_slots(config: Any, into: Any, slots: object, started: object) -> None:
    """Copy pickled C slots ``slots`` into the ``ofc_vecenv_slot[]`` ``into`` of a
    VectorEnv configured by ``config`` once C has checked each of them; GameError
    naming the environment and the problem for a damaged or edited state (a step
    past the schedule, a card twice ...), ``into`` then left as it was.  Before
    ``reset()`` (``started`` False) the slots are not read (``reset()`` writes them)
    and not copied."""
    if not isinstance(slots, bytes) or len(slots) != ffi.sizeof(into):
        raise GameError("a pickled VectorEnv of another ofc_fast build (its C state)")
    if started is False:
        return
    if started is not True:
        raise GameError(
            f"a pickled VectorEnv's started flag must be a bool, got {quote(started)}"
        )
    each = ffi.cast("ofc_vecenv_slot *", ffi.from_buffer(slots))  # checked in place
    why = ffi.new("char **")
    for i in range(len(slots) // ffi.sizeof("ofc_vecenv_slot")):
        status = lib.ofc_vecenv_slot_check(config, each + i, why)
        if status:
            raise check_error(status, why, f"a pickled VectorEnv's env {i}", GameError)
    ffi.buffer(into)[:] = slots


def restore_arrays(into: dict[str, npt.NDArray[Any]], arrays: object) -> None:
    """Copy a pickled VectorEnv's output arrays into its copy's own ``into`` (by
    name); GameError naming the first that is missing or not an array of the same
    shape (a damaged or edited state), before any is copied."""
    if not isinstance(arrays, dict):
        raise GameError(f"a pickled VectorEnv's arrays must be a dict, got {quote(arrays)}")
    for name, target in into.items():
        got = arrays.get(name)
        if not isinstance(got, np.ndarray) or got.shape != target.shape:
            shape = got.shape if isinstance(got, np.ndarray) else quote(got)
            raise GameError(
                f"a pickled VectorEnv's {name} must be an array of shape {target.shape}, "
                f"got {shape}"
            )
    for name, target in into.items():
        target[...] = arrays[name]


def restore_seeds(seeds: object, num_envs: int) -> list[int] | None:
    """A pickled VectorEnv's reset seeds (``reset(seed=[...])``, else None): one seed
    0..2**64-1 per environment; GameError naming them otherwise (a damaged or edited
    state: a reset would fail on them, or start only some environments)."""
    if seeds is None:
        return None
    if isinstance(seeds, list) and len(seeds) == num_envs:
        try:
            return [check_seed(s) for s in seeds]
        except TableError:
            pass
    raise GameError(
        f"a pickled VectorEnv's reset seeds must be None or a list of {num_envs} "
        f"seeds 0..2**64-1, got {quote(seeds)}"
    )


def restore_decisions(config: Any, slots: Any, out: Any) -> None:
    """Write every environment's rows of its pending decision (seats, full sets, legal
    actions, masks, encodings) into the outputs ``out`` from its restored, checked C
    slot of ``slots`` (``ofc_vecenv_slot[]`` of a VectorEnv configured by ``config``),
    as a step writes them (``ofc_vecenv_write_rows``): one source of truth, the C
    state (an edited pickle's rows are not read)."""
    status = lib.ofc_vecenv_write_rows(config, slots, 0, config.num_envs, out)
    if status:
        raise status_error(status, "a pickled VectorEnv's rows")
