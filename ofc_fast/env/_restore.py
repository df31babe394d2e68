"""Restoring a pickled :class:`~ofc_fast.env.VectorEnv`'s C state: every slot checked
by C (``ofc_vecenv_slot_check``) before any other function reads it."""

from __future__ import annotations

from typing import Any

from .._native import ffi, lib, status_error
from ..errors import GameError, quote


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
    one = ffi.new("ofc_vecenv_slot *")
    why = ffi.new("char **")
    size = ffi.sizeof("ofc_vecenv_slot")
    for i in range(len(slots) // size):
        ffi.buffer(one)[:] = slots[i * size : (i + 1) * size]
        status = lib.ofc_vecenv_slot_check(config, one, why)
        if status:
            problem = ffi.string(why[0]).decode() if why[0] != ffi.NULL else "its state"
            raise status_error(
                status, f"a pickled VectorEnv's env {i}: {problem}", GameError
            )
    ffi.buffer(into)[:] = slots
