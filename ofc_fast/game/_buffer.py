"""A :class:`~ofc_fast.game.Game`'s engine state: the ``ofc_game`` held in a
bytearray, and the guard of the calls that change it (one thread at a time: the
C calls may let the GIL go, and a move is the C call plus its book-keeping)."""

from __future__ import annotations

from collections.abc import Callable
from functools import wraps
from typing import Any, TypeVar

from .._native import ffi
from ..errors import GameError

__all__ = ["new_state", "one_mover"]

_F = TypeVar("_F", bound=Callable[..., Any])


def new_state(buf: bytearray) -> Any:
    """An ``ofc_game *`` into ``buf``: the state lives in a bytearray, so that
    ``ofc_fast._native._fast`` can read it without a copy (``buf`` stays the same
    size: cffi holds a buffer export on it)."""
    return ffi.from_buffer("ofc_game *", buf)


def one_mover(method: _F) -> _F:
    """``method`` (a move: it changes the engine's state and the moves played)
    refuses to start, with a GameError and nothing changed, while another thread is
    inside a move of the same game (its ``_mover`` lock): two moves at once would
    interleave the C state, the move list and the decision count."""
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
            return method(self, *args, **kwargs)
        finally:
            mover.release()

    return guarded  # type: ignore[return-value]
