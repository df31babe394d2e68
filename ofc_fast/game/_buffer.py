"""A :class:`~ofc_fast.game.Game`'s engine state: the ``ofc_game`` held in a
bytearray, its schedule, and the guard of the calls that change it (:data:`one_mover`:
one thread at a time, as the C calls may let the GIL go and a move is the C call plus
its book-keeping); the guards, and that of the reads, are :mod:`ofc_fast.game.threads`'s."""

from __future__ import annotations

from functools import lru_cache
from typing import Any

from .._native import ffi
from .threads import one_at_a_time

__all__ = ["new_state", "one_mover", "schedule_of"]


def new_state(buf: bytearray) -> Any:
    """An ``ofc_game *`` into ``buf``: the state lives in a bytearray, so that
    ``ofc_fast._native._fast`` can read it without a copy (``buf`` stays the same
    size: cffi holds a buffer export on it)."""
    return ffi.from_buffer("ofc_game *", buf)


_STEP_SIZE = ffi.sizeof("ofc_game_step")
_STEPS = ffi.offsetof("ofc_game", "steps")
_NSTEPS = ffi.offsetof("ofc_game", "nsteps")


def schedule_of(buf: bytearray) -> tuple[tuple[int, ...], ...]:
    """The schedule of the engine's state in ``buf``: a tuple (seat, start, n, k,
    full, face_down, street) per decision (:func:`_schedule`)."""
    nsteps = buf[_NSTEPS]
    return _schedule(bytes(buf[_STEPS : _STEPS + _STEP_SIZE * nsteps]), nsteps)


@lru_cache(maxsize=4096)
def _schedule(raw: bytes, nsteps: int) -> tuple[tuple[int, ...], ...]:
    """The engine's schedule as tuples (seat, start, n, k, full, face_down, street),
    shared by every game with the same schedule bytes (keyed by them alone: a key
    holding the compiled rules would pin each rule set's ~92 KB past the compile
    cache's bound)."""
    return tuple(tuple(raw[_STEP_SIZE * i : _STEP_SIZE * i + 7]) for i in range(nsteps))


one_mover = one_at_a_time(
    "Game",
    "playing a move on",
    "play a Game from one thread at a time (a Game per thread, or a lock of your own "
    "around its moves)",
)
"""A move (it changes the engine's state and the moves played) refuses to start, with
a GameError and nothing changed, while another thread is inside a move of the same
game (its ``_entries`` odd): two moves at once would interleave the C state, the move
list and the decision count.  The move holds the game's ``_state_lock`` (an RLock)
from start to end: readers (:func:`~ofc_fast.game.threads.consistent`) wait for it,
and so never see the C state of a move without its book-keeping."""
