"""Ctrl-C held back to a safe point: a block that holds locks (a process pool's, a
future's) or books a record must not be cut half-way by a KeyboardInterrupt raised
at an arbitrary bytecode inside it."""

from __future__ import annotations

import signal
import threading
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from types import FrameType

__all__ = ["sigint_deferred", "sigterm_as_sigint"]


@contextmanager
def sigint_deferred() -> Iterator[Callable[[], bool]]:
    """Ctrl-C inside the block is handled when it ends (the handler it replaced is
    called there: Python's raises KeyboardInterrupt, a command's may only ask to
    stop), so that the block is never cut half-way.  The block gets a function that
    says whether Ctrl-C came, for a block that waits (it can then end early).  An
    ignored or default SIGINT, or a thread that is not the main one, is left as it
    is (the function then always says no).

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
    previous = signal.getsignal(signal.SIGINT)
    if not callable(previous):  # SIG_IGN, SIG_DFL, or not set from Python
        yield lambda: False
        return
    frames: list[FrameType | None] = []
    signal.signal(signal.SIGINT, lambda signum, frame: frames.append(frame))
    try:
        yield lambda: bool(frames)
    finally:
        signal.signal(signal.SIGINT, previous)
        if frames:
            previous(signal.SIGINT, frames[0])


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

    def handle(signum: int, frame: FrameType | None) -> None:
        on_sigint = signal.getsignal(signal.SIGINT)
        if not callable(on_sigint):
            raise KeyboardInterrupt
        on_sigint(signal.SIGINT, frame)

    signal.signal(signal.SIGTERM, handle)
    try:
        yield
    finally:
        signal.signal(signal.SIGTERM, signal.SIG_DFL)
