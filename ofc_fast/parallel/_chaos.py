"""Fault injection for the fault tests: a chunk function that kills its own worker
process once (the first time it runs, guarded by a marker file), then behaves; one
whose chunk of one item stalls until a file is made; and
faulty bots that a parallel arena's workers can make by name
(``ofc_fast.parallel._chaos:crasher``, ``:late_crasher``, ``:quitter``, ``:cheater``,
``:sleeper``).

>>> import os, tempfile
>>> marker = os.path.join(tempfile.mkdtemp(), "killed")
>>> open(marker, "w").close()               # already killed once: just runs
>>> KillOnce(marker, abs)(-3)
3
"""

from __future__ import annotations

import itertools
import os
import signal
import sys
import time
from collections import deque
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from ..bots import RandomBot
from ..game import Move

__all__ = [
    "FaultyBot",
    "HoldUntil",
    "KillOnce",
    "cheater",
    "crasher",
    "late_crasher",
    "quitter",
    "sleeper",
]


@dataclass(frozen=True)
class KillOnce:
    """``fn(item)``, except that the first call anywhere (no file at ``marker`` yet)
    creates the marker and SIGKILLs its own process."""

    marker: str
    fn: Callable[[Any], Any]

    def __call__(self, item: Any) -> Any:
        """``fn(item)``, or kill this process on the first call."""
        made = map(os.open, (self.marker,), (os.O_CREAT | os.O_EXCL | os.O_WRONLY,))
        kill = map(os.kill, (os.getpid(),), (signal.SIGKILL,))
        try:  # (made, closed and killed in one chain of C calls: no Ctrl-C between)
            deque(itertools.chain(map(os.close, made), kill), 0)
        except FileExistsError:
            return self.fn(item)
        raise AssertionError("unreachable")  # pragma: no cover


@dataclass(frozen=True)
class HoldUntil:
    """``fn(item)``, except that for ``item == held`` it first waits until a file at
    ``release`` exists (a chunk that stalls, as on a stopped worker), for at most
    ``give_up`` seconds (then TimeoutError: a test that never releases it fails)."""

    release: str
    held: Any
    fn: Callable[[Any], Any]
    give_up: float = 120.0

    def __call__(self, item: Any) -> Any:
        """``fn(item)``, once released when ``item`` is the held one."""
        deadline = time.monotonic() + self.give_up
        while item == self.held and not os.path.exists(self.release):
            if time.monotonic() > deadline:
                raise TimeoutError(f"{self.release} never made")
            time.sleep(0.01)
        return self.fn(item)


class FaultyBot(RandomBot):
    """A random bot with a fault, the same in every process and chunk (it depends on
    the decision alone): ``crash`` raises on a decision dealt the 2c (card 0),
    ``exit`` calls ``sys.exit(0)`` there; ``late`` raises on its :data:`LATE_AT`-th
    decision since it was made (a bot is made once per chunk, re-seeded per deal);
    ``illegal`` plays every card of a first street into the front row; ``slow`` sleeps
    ``SLOW_S`` before each move (a built-in bot's time is never a fault)."""

    SLOW_S = 0.005
    LATE_AT = 12

    def __init__(self, fault: str, seed: int | None = None) -> None:
        super().__init__(seed)
        self.fault = fault
        self.decided = 0

    def act(self, observation: Any) -> Move:
        """The random bot's move, or the fault."""
        dealt = list(observation["dealt"])
        self.decided += 1
        if self.fault == "late" and self.decided == self.LATE_AT:
            raise RuntimeError(f"decision {self.decided}")
        if self.fault == "crash" and 0 in dealt:
            raise RuntimeError("boom")
        if self.fault == "exit" and 0 in dealt:
            sys.exit(0)
        if self.fault == "illegal" and len(dealt) == 5 and not observation["to_discard"]:
            return Move([(c, "front") for c in dealt])
        if self.fault == "slow":
            time.sleep(self.SLOW_S)
        return super().act(observation)


def crasher(rules: Any = None, seed: int | None = None) -> FaultyBot:
    """A :class:`FaultyBot` that raises."""
    return FaultyBot("crash", seed)


def late_crasher(rules: Any = None, seed: int | None = None) -> FaultyBot:
    """A :class:`FaultyBot` that raises on its :data:`FaultyBot.LATE_AT`-th decision."""
    return FaultyBot("late", seed)


def quitter(rules: Any = None, seed: int | None = None) -> FaultyBot:
    """A :class:`FaultyBot` that exits its process (``sys.exit(0)``)."""
    return FaultyBot("exit", seed)


def cheater(rules: Any = None, seed: int | None = None) -> FaultyBot:
    """A :class:`FaultyBot` that plays illegal moves."""
    return FaultyBot("illegal", seed)


def sleeper(rules: Any = None, seed: int | None = None) -> FaultyBot:
    """A :class:`FaultyBot` that takes its time."""
    return FaultyBot("slow", seed)
