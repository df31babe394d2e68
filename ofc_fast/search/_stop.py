"""Stopping a search: the caller's ``should_stop`` hook read as a truth value
(:func:`stop_hook`), and a C call that reads a stop word run in a thread that sets it
(:func:`stoppable`: a time budget, the hook, Ctrl-C).  Private to
:mod:`ofc_fast.search` (:func:`~ofc_fast.search.advise`'s exact search and its
samples, :func:`~ofc_fast.search.best_completion`)."""

from __future__ import annotations

import threading
import time
from collections.abc import Callable
from contextlib import suppress
from typing import Any

from .._native import ffi
from ..errors import SearchError, quote, truth

__all__ = ["POLL", "stop_hook", "stoppable"]

POLL = 0.05  # seconds: how often a stoppable C call's thread is asked about (its hook)


def stop_hook(should_stop: object) -> Callable[[], bool] | None:
    """``should_stop`` (None, or a callable) as the hook the search asks: its answer
    read as a truth value, where one that has none (a NumPy array of several items:
    its ``bool`` raises) is a SearchError naming it, not an error of its own type
    from deep inside the search; anything else that is no callable is a SearchError.

    >>> import numpy as np
    >>> stop_hook(lambda: np.array([True, False]))()
    Traceback (most recent call last):
    ...
    ofc_fast.errors.SearchError: should_stop must return True or False, got array([ True, False]), which has no truth value (ValueError: bool() raised)
    """  # noqa: E501 - the error, verbatim
    if should_stop is None:
        return None
    if not callable(should_stop):
        raise SearchError(
            f"should_stop must be None or a callable, got {quote(should_stop)}"
        )
    hook: Callable[[], object] = should_stop

    def asked() -> bool:
        return truth(hook(), "should_stop", SearchError)

    return asked


def stoppable(
    run: Callable[[Any], int],
    seconds: float | None = None,
    cpu: bool = False,
    should_stop: Callable[[], bool] | None = None,
    name: str = "ofc-exact-search",
) -> tuple[int, str, float]:
    """``run(word)`` (a C call that reads the stop word ``word``, an ``int32_t *``,
    and lets the GIL go) in a thread named ``name``, this one asking every
    :data:`POLL` seconds whether to set the word: once ``seconds`` have passed (wall
    time, or with ``cpu`` the search thread's CPU time: :func:`_thread_clock`) or
    ``should_stop()`` is True; on an exception here (Ctrl-C's KeyboardInterrupt, the
    hook's) the call is stopped, waited for and the exception raised, as is one of
    ``run`` itself (cffi's, for an argument it cannot convert).  The status, why it
    was stopped ('' if not) and the thread's CPU time.  The thread is stopped and
    waited for whenever the exception lands, even while it starts."""
    word = ffi.new("int32_t *")
    out: list[int] = []
    used: list[float] = []
    failed: list[BaseException] = []

    def search() -> None:
        start = time.thread_time()
        try:
            out.append(run(word))
        except BaseException as exc:  # (raised in the caller's thread instead)
            failed.append(exc)
        used.append(time.thread_time() - start)

    worker = threading.Thread(target=search, name=name, daemon=True)
    why = ""
    try:  # (from the start: a Ctrl-C there left the search running on, unstopped)
        worker.start()
        now = _thread_clock(worker) if cpu else time.perf_counter
        deadline = None if seconds is None else now() + seconds
        while worker.is_alive():
            worker.join(POLL)
            if not why and worker.is_alive():
                if deadline is not None and now() >= deadline:
                    why = "the time budget is spent"
                elif should_stop is not None and should_stop():
                    why = "should_stop returned True"
                word[0] = 1 if why else 0
    except BaseException:
        word[0] = 1
        with suppress(RuntimeError):  # (interrupted before it ran: it stops at once)
            worker.join()
        raise
    if failed:  # (popped and let go: list, exception and frames were a cycle)
        error = failed.pop()
        try:
            raise error
        finally:
            del error
    return out[0], why, used[0]


def _thread_clock(worker: threading.Thread) -> Callable[[], float]:
    """The CPU time of the running thread ``worker``, read from another thread
    (0 once it has ended); where the platform has no clock per thread, this
    process's CPU time (the caller waits: mostly the worker's)."""
    try:
        clock_id = time.pthread_getcpuclockid(worker.ident or 0)
    except (AttributeError, OSError):  # (no such clock here)
        return time.process_time

    def now() -> float:
        try:
            return time.clock_gettime(clock_id)
        except OSError:  # (the thread has just ended)
            return 0.0

    return now
