"""Ctrl-C landing at an arbitrary bytecode, for the checks that an interrupted call
leaves its object whole: a SIGALRM timer whose handler raises KeyboardInterrupt
into a call (:func:`ctrl_c_timer`, :func:`interrupted`), and a stand-in for the
:mod:`gc` module whose ``disable()`` is interrupted as it returns
(:class:`InterruptedGc`); :class:`CutCalls` numbers the calls until enough were cut."""

from __future__ import annotations

import gc
import signal
import subprocess
import sys
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from types import FrameType
from typing import Any

CTRL_C_AT_IMPORT = """
import os, signal, sys
class CtrlC:  # Ctrl-C as an import reaches the module sys.argv[1]
    came, at = False, sys.argv[1]  # (read now: the script may change sys.argv)
    def find_spec(self, name, path=None, target=None):
        if name == CtrlC.at and not CtrlC.came:
            CtrlC.came = True
            os.kill(os.getpid(), signal.SIGINT)
        return None
sys.meta_path.insert(0, CtrlC())
"""
"""The start of a ``python -c`` script whose process gets a real Ctrl-C (SIGINT) as
an import first reaches the module named by its first argument (``CtrlC.came``: it
came); the script goes on after it."""


class InterruptedGc:
    """:mod:`gc` (``isenabled``, ``enable``), whose ``disable()`` turns the collector
    off and raises KeyboardInterrupt (as a Ctrl-C landing on the next bytecode)."""

    isenabled = staticmethod(gc.isenabled)
    enable = staticmethod(gc.enable)
    collect = staticmethod(gc.collect)

    @staticmethod
    def disable() -> None:
        gc.disable()
        raise KeyboardInterrupt


@contextmanager
def ctrl_c_timer(interval: float = 0.0002) -> Iterator[list[bool]]:
    """A SIGALRM itimer every ``interval`` seconds for the ``with`` block, whose
    handler raises KeyboardInterrupt once armed (the list yielded: ``[True]``), and
    disarms it; the timer stopped and SIGALRM's handler set back after (ignored if
    it had none from Python: a signal still on its way cannot kill the run).

    A tick inside ``subprocess.Popen()`` waits for the next one after it: a
    KeyboardInterrupt there leaves the child it made unreaped (a zombie of the test
    process: no object names its pid), which no code of the caller can help (the
    library holds a real Ctrl-C back around its ``Popen``: ``sigint_deferred``)."""
    armed = [False]

    def ctrl_c(signum: int, frame: FrameType | None) -> None:
        if armed[0] and not _spawning(frame):  # (else the next tick, out of Popen)
            armed[0] = False
            raise KeyboardInterrupt

    old = signal.signal(signal.SIGALRM, ctrl_c)
    try:
        signal.setitimer(signal.ITIMER_REAL, interval, interval)
        yield armed
    finally:
        signal.setitimer(signal.ITIMER_REAL, 0, 0)
        signal.signal(signal.SIGALRM, old if callable(old) else signal.SIG_IGN)


class CutCalls:
    """The calls of a Ctrl-C test, numbered from 1 (iterate), until ``target`` were
    cut (add :func:`interrupted`'s answers to ``cuts``) or ``cap`` were made.

    How many calls a timer cuts depends on the machine (a loaded or fast one cuts
    fewer): a fixed number of calls and a bare threshold on the cuts fails by chance
    (a CI run cut exactly the 100 a test asked more than), where this asks for the
    cuts themselves; ``assert calls.cuts == calls.target, calls`` after the loop."""

    def __init__(self, target: int, cap: int) -> None:
        self.target, self.cap = target, cap
        self.calls = self.cuts = 0

    def __iter__(self) -> Iterator[int]:
        while self.cuts < self.target and self.calls < self.cap:
            self.calls += 1
            yield self.calls

    def __repr__(self) -> str:
        return f"{self.cuts} of {self.calls} calls cut (wanted {self.target})"


def interrupted(armed: list[bool], call: Callable[..., Any], *args: Any) -> bool:
    """``call(*args)`` with :func:`ctrl_c_timer`'s ``armed`` set: whether a
    KeyboardInterrupt cut it (or landed just after it returned).

    CPython 3.10 reports a few of the KeyboardInterrupts a signal handler raises
    (10 in 1.6 million cuts of ``open_input`` and ``atomic_file``, as
    ``stat.S_ISDIR(os.fstat(fd).st_mode)`` returned) as a SystemError ("...
    returned a result with an exception set") caused by the KeyboardInterrupt:
    that is the same cut, which the caller's ``except BaseException`` saw as well."""
    try:
        armed[0] = True
        call(*args)
        armed[0] = False
    except KeyboardInterrupt:
        return True
    except SystemError as e:
        if not (sys.version_info < (3, 11) and _cut_by_ctrl_c(e)):
            raise
        return True
    finally:
        armed[0] = False
    return False


def _spawning(frame: FrameType | None) -> bool:
    """Whether ``frame`` or a caller of it is ``subprocess.Popen()`` starting a child."""
    while frame is not None:
        code = frame.f_code
        if code.co_filename == subprocess.__file__ and code.co_name in _POPEN_START:
            return True
        frame = frame.f_back
    return False


_POPEN_START = frozenset(("__init__", "_execute_child"))  # (Popen's, in subprocess.py)


def _cut_by_ctrl_c(e: SystemError) -> bool:
    """Whether ``e`` is CPython 3.10's SystemError for a KeyboardInterrupt a signal
    handler raised (its cause) as a call returned."""
    return isinstance(e.__cause__, KeyboardInterrupt) and str(e).endswith(
        "returned a result with an exception set"
    )
