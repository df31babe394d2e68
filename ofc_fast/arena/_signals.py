"""Ctrl-C held back to a safe point: a block that holds locks (a process pool's, a
future's) or books a record must not be cut half-way by a KeyboardInterrupt raised
at an arbitrary bytecode inside it."""

from __future__ import annotations

import signal
import threading
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from types import FrameType
from typing import Any

__all__ = ["sigint_deferred", "sigterm_as_sigint"]


@contextmanager
def sigint_deferred() -> Iterator[Callable[[], bool]]:
    """Ctrl-C inside the block is handled when it ends (the handler it replaced is
    called there: Python's raises KeyboardInterrupt, a command's may only ask to
    stop), so that the block is never cut half-way.  The block gets a function that
    says whether Ctrl-C came, for a block that waits (it can then end early).  A
    SIGTERM handled as Ctrl-C (:func:`sigterm_as_sigint`) is held back too, also
    where SIGINT is ignored (a script's ``ofc-fast arena ... &``: its ``kill``).  An
    ignored or default SIGINT, or a thread that is not the main one, is left as it
    is (the function then says no to it).

    >>> import os
    >>> got = []
    >>> old = signal.signal(signal.SIGINT, lambda signum, frame: got.append("stop"))
    >>> with sigint_deferred() as interrupted:
    ...     os.kill(os.getpid(), signal.SIGINT)
    ...     print(interrupted(), got)
    True []
    >>> got
    ['stop']
    >>> _ = signal.signal(signal.SIGINT, old)
    """
    if threading.current_thread() is not threading.main_thread():
        yield lambda: False
        return
    # SIGINT with a handler set from Python; SIGTERM handled as Ctrl-C (or held back
    # by an outer block) whatever SIGINT's handler is: where SIGINT is ignored (a
    # script's ``ofc-fast arena ... &``) a ``kill`` raised KeyboardInterrupt in here
    previous: dict[int, Callable[[int, FrameType | None], Any]] = {}
    for signum in (int(signal.SIGINT), int(signal.SIGTERM)):
        handler = signal.getsignal(signum)
        if callable(handler) and (
            signum == signal.SIGINT or handler is _as_sigint or isinstance(handler, _Held)
        ):
            previous[signum] = handler
    held = _Held()
    for signum in previous:
        signal.signal(signum, held)
    try:
        yield lambda: bool(held.came)
    finally:
        for held_back, handler in previous.items():
            signal.signal(held_back, handler)
        if held.came:
            first, frame = held.came[0]
            previous[first](first, frame)


class _Held:
    """A signal handler that notes each signal (and its frame) for later."""

    def __init__(self) -> None:
        self.came: list[tuple[int, FrameType | None]] = []

    def __call__(self, signum: int, frame: FrameType | None) -> None:
        self.came.append((signum, frame))


@contextmanager
def sigterm_as_sigint() -> Iterator[None]:
    """SIGTERM inside the block is handled as Ctrl-C (the SIGINT handler in place
    when it comes is called, so that a deferred or first-Ctrl-C handler applies; an
    ignored SIGINT: KeyboardInterrupt), so that a match stopped by ``kill`` ends as
    one stopped by Ctrl-C: its bot processes closed, its report written.  A SIGTERM
    handler set by the caller (not the default), or a thread that is not the main
    one, is left as it is.

    >>> with sigterm_as_sigint():
    ...     signal.getsignal(signal.SIGTERM) is not signal.SIG_DFL
    True
    >>> signal.getsignal(signal.SIGTERM) is signal.SIG_DFL
    True
    """
    if (
        threading.current_thread() is not threading.main_thread()
        or signal.getsignal(signal.SIGTERM) is not signal.SIG_DFL
    ):
        yield
        return

    try:  # (set inside it: a Ctrl-C just after left it set for good)
        signal.signal(signal.SIGTERM, _as_sigint)
        yield
    finally:
        signal.signal(signal.SIGTERM, signal.SIG_DFL)


def _as_sigint(signum: int, frame: FrameType | None) -> None:
    """SIGTERM as :func:`sigterm_as_sigint` handles it: the SIGINT handler in place is
    called (KeyboardInterrupt where SIGINT is ignored)."""
    on_sigint = signal.getsignal(signal.SIGINT)
    if not callable(on_sigint):
        raise KeyboardInterrupt
    on_sigint(signal.SIGINT, frame)
