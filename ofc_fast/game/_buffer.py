"""A :class:`~ofc_fast.game.Game`'s engine state: the ``ofc_game`` held in a
bytearray, the guard of the calls that change it (one thread at a time: the C calls
may let the GIL go, and a move is the C call plus its book-keeping), and the guard of
the calls that read it (they see a game before or after a move, never between)."""

from __future__ import annotations

from collections.abc import Callable
from functools import lru_cache, wraps
from typing import Any, TypeVar

from .._native import ffi
from ..errors import GameError

__all__ = ["consistent", "new_state", "one_mover", "schedule_of"]

_F = TypeVar("_F", bound=Callable[..., Any])


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


def one_mover(method: _F) -> _F:
    """``method`` (a move: it changes the engine's state and the moves played)
    refuses to start, with a GameError and nothing changed, while another thread is
    inside a move of the same game (its ``_mover`` lock): two moves at once would
    interleave the C state, the move list and the decision count.  The move holds the
    game's ``_state_lock`` (an RLock) from start to end: readers (:func:`consistent`)
    wait for it, and so never see the C state of a move without its book-keeping."""
    what = f"Game.{method.__name__}()"

    @wraps(method)
    def guarded(self: Any, *args: Any, **kwargs: Any) -> Any:
        mover = self._mover
        if not mover.acquire(False):
            raise GameError(
                f"{what} while another thread is playing a move on this Game: play "
                "a Game from one thread at a time (a Game per thread, or a lock of "
                "your own around its moves)"
            )
        try:
            with self._state_lock:
                return method(self, *args, **kwargs)
        finally:
            mover.release()

    return guarded  # type: ignore[return-value]


def consistent(method: _F) -> _F:
    """``method`` (a read of the game's state: the engine's bytes, the moves, the
    decision count) runs holding the game's ``_state_lock``: while another thread
    plays a move it waits for the move to finish, so that it sees the game before or
    after the move, never half-written (the lock is reentrant: reads call reads)."""

    @wraps(method)
    def guarded(self: Any, *args: Any, **kwargs: Any) -> Any:
        with self._state_lock:
            return method(self, *args, **kwargs)

    return guarded  # type: ignore[return-value]
