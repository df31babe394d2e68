"""The guards of a :class:`~ofc_fast.env.VectorEnv`'s calls: one thread at a time,
none once it is closed, the steps and views only after its first :meth:`reset`."""

from __future__ import annotations

from collections.abc import Callable
from functools import wraps
from typing import Any, TypeVar

from ..errors import GameError
from ..game.threads import lock_free, one_at_a_time

__all__ = [
    "check_open",
    "if_open",
    "lock_free_view",
    "one_thread",
    "require_started",
]

_F = TypeVar("_F", bound=Callable[..., Any])


def if_open(method: _F) -> _F:
    """``method`` (a view: it reads the arrays or the C state) refuses with
    :func:`check_open`'s GameError once the VectorEnv is closed, as its steps do, and
    waits for a step in progress in another thread (the VectorEnv's ``_state_lock``,
    which :func:`one_thread` holds), so that it sees the arrays before or after it."""
    what = f"{method.__name__}()"

    @wraps(method)
    def guarded(self: Any, *args: Any, **kwargs: Any) -> Any:
        check_open(self, what)
        with self._state_lock:
            return method(self, *args, **kwargs)

    return guarded  # type: ignore[return-value]


lock_free_view = lock_free
"""``lock_free_view(method)``: ``method`` (a view of one table's C state:
``observation()``, ``encode()``) runs without the VectorEnv's ``_state_lock`` (the lock
cost a fifth of an ``encode()``), and again holding it when a step was in progress
(``_entries``, twice the count of the calls :func:`one_thread` let in, odd) or one
began meanwhile: so it too sees the env before or after a step, as :func:`if_open`'s
views do (:func:`~ofc_fast.game.threads.lock_free`, the reads of a Game's too).
Unlike a Game's builtins, a view's C call lets the GIL go, as a step's does: a view
racing a step on another thread reads bytes the step is writing (each field a byte
in range, so no index leaves its table), and the torn result is never returned,
the count having moved; a caller who wants no such overlap at all steps and reads
from one thread."""


def check_open(venv: Any, call: str) -> None:
    """GameError naming ``call`` (what the user did: ``reset()``, ``copy or pickle``)
    once ``venv`` is closed (:meth:`VectorEnv.close`)."""
    if venv.closed:
        raise GameError(f"{call} on a closed VectorEnv: make a new one")


def require_started(venv: Any, call: str) -> None:
    """GameError (``call reset() before {call}()``) unless ``venv``'s :meth:`reset`
    has dealt the first hands: its steps, and the single-game adapters' render (and
    GameError once it is closed)."""
    check_open(venv, f"{call}()")
    if not venv.started:
        raise GameError(f"call reset() before {call}()")


one_thread = one_at_a_time(
    "VectorEnv",
    "stepping",
    "step one VectorEnv from one thread at a time (one VectorEnv per thread)",
    check=check_open,
)
"""``one_thread(method, call=None)``: ``method`` refuses to start (GameError, nothing
touched) while another thread is inside a guarded method of the same VectorEnv: its C
state and arrays are for one thread at a time; and once the VectorEnv is closed
(:func:`check_open`).  It holds the VectorEnv's ``_state_lock``: the views
(:func:`if_open`) wait for it, and :func:`lock_free_view`'s read again behind it.
``call``: what the user did, as errors name it (default ``name()``: the method's
name)."""
