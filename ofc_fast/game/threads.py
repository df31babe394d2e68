"""The thread guards of the stateful objects, in one place: a call that changes an
object refuses to start while another thread is inside one (:func:`one_at_a_time`:
a :class:`~ofc_fast.game.Game`'s moves, a :class:`~ofc_fast.env.VectorEnv`'s steps),
and a read of a game's (a match's, a VectorEnv's) state waits for a move (a deal's
booking, a step) in progress (:func:`consistent`), so that it sees it before or after,
never between.

>>> import threading
>>> class Counter:
...     def __init__(self):
...         self._busy = threading.Lock()
...         self.n = 0
...     @one_at_a_time("Counter", "counting with", "one at a time")
...     def count(self):
...         self.n += 1
>>> c = Counter()
>>> c.count(); c.n
1
>>> with c._busy:  # as while another thread counts
...     c.count()
Traceback (most recent call last):
...
ofc_fast.errors.GameError: Counter.count() while another thread is counting with ...
"""

from __future__ import annotations

from collections.abc import Callable
from functools import wraps
from typing import Any, Protocol, TypeVar

from ..errors import GameError

__all__ = ["Guard", "consistent", "one_at_a_time"]

_F = TypeVar("_F", bound=Callable[..., Any])


class Guard(Protocol):
    """What :func:`one_at_a_time` makes: ``guard(method, call=None)``, the method
    guarded (its signature kept)."""

    def __call__(self, method: _F, /, call: str | None = None) -> _F:
        """``method`` guarded; ``call``: what the user did, as the refusal names it."""


def one_at_a_time(
    owner: str,
    doing: str,
    advice: str,
    *,
    hold: bool = False,
    check: Callable[[Any, str], None] | None = None,
) -> Guard:
    """A decorator, ``guard(method, call=None)``: ``method`` refuses to start, with a
    GameError and nothing touched, while another thread holds the object's ``_busy``
    lock (a ``threading.Lock``), that is, is inside a method the same guard wraps; the
    error says "``Owner.name()`` while another thread is ``doing`` this ``Owner``:
    ``advice``" (``call``, when given, is what the user did, in place of
    ``Owner.name()``).  Once the lock is taken, ``check(obj, call)`` runs (it may
    refuse: a closed object), and with ``hold`` the method runs holding the object's
    ``_state_lock`` too (the lock its readers wait for: :func:`consistent`).  The
    attributes are named here, not given: a fixed name is read as fast as the guards
    were before they were one."""

    def guard(method: _F, call: str | None = None) -> _F:
        what = call or f"{method.__name__}()"
        refusal = (
            f"{call or f'{owner}.{what}'} while another thread is {doing} this "
            f"{owner}: {advice}"
        )

        @wraps(method)
        def guarded(self: Any, *args: Any, **kwargs: Any) -> Any:
            busy = self._busy
            if not busy.acquire(False):
                raise GameError(refusal)
            try:
                if check is not None:
                    check(self, what)
                if not hold:
                    return method(self, *args, **kwargs)
                with self._state_lock:
                    return method(self, *args, **kwargs)
            finally:
                busy.release()

        return guarded  # type: ignore[return-value]

    return guard


def consistent(method: _F) -> _F:
    """``method`` (a read of a :class:`~ofc_fast.game.Game`'s state, its first argument:
    the engine's bytes, the moves, the decision count; a :class:`~.match.Match`'s read
    or booking of a deal) runs holding the object's ``_state_lock`` (an RLock): while
    another thread plays a move (books a deal) it waits for it to finish, so that it
    sees the object before or after, never half-written (the lock is reentrant: reads
    call reads).  A :class:`~ofc_fast.env.VectorEnv`'s views hold its lock the same
    way, or read without it and again behind it when a step overlapped."""

    @wraps(method)
    def guarded(self: Any, *args: Any, **kwargs: Any) -> Any:
        with self._state_lock:
            return method(self, *args, **kwargs)

    return guarded  # type: ignore[return-value]
