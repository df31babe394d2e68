"""The Ctrl-C test harness (tests/support/interrupts.py) itself."""

from __future__ import annotations

import os
import signal
import subprocess

import pytest

ON_LINUX = pytest.mark.skipif(
    not (hasattr(signal, "setitimer") and os.path.isdir("/proc/self")),
    reason="run on Linux (setitimer, /proc)",
)


def _zombie_children(command: str) -> list[int]:
    """The pids of this process's children running ``command`` that exited and were
    never reaped (only this test's: an earlier test's child may exit meanwhile, and
    stay a zombie till its Popen is collected)."""
    me, found = os.getpid(), []
    for name in os.listdir("/proc"):
        if not name.isdigit():
            continue
        try:
            with open(f"/proc/{name}/stat", encoding="ascii", errors="replace") as f:
                head, tail = f.read().rsplit(")", 1)
            state, ppid = tail.split()[:2]
        except (OSError, ValueError):  # (gone meanwhile)
            continue
        comm = head.split("(", 1)[-1]
        if state == "Z" and int(ppid) == me and comm == command:
            found.append(int(name))
    return found


@ON_LINUX
def test_the_ctrl_c_timer_leaves_no_zombie_of_a_spawn_it_cuts() -> None:
    """Regression: the Ctrl-C timer raised KeyboardInterrupt inside
    ``subprocess.Popen()`` of the test process itself, which then cannot name the
    child it made: every such cut left a zombie behind (88 in 100 cuts of a spawn).
    The cut now waits for the next tick after ``Popen()``; the calls are still cut
    (in the waits after it) and no child is left unreaped."""
    from interrupts import CutCalls, ctrl_c_timer, interrupted

    made: list[subprocess.Popen[bytes]] = []

    def once() -> None:
        made.append(subprocess.Popen(["true"]))
        made[-1].wait()

    before = set(_zombie_children("true"))  # (others': reaped meanwhile, or not)
    calls = CutCalls(60, cap=3_000)
    with ctrl_c_timer() as armed:
        for _ in calls:
            calls.cuts += interrupted(armed, once)
    for p in made:  # (those whose wait() was cut)
        p.wait()
    assert calls.cuts == calls.target, calls  # the timer did land inside the calls
    assert set(_zombie_children("true")) - before == set(), f"{calls}: zombies left"
