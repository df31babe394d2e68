"""Fault injection for the fault tests: a chunk function that kills its own worker
process once (the first time it runs, guarded by a marker file), then behaves.

>>> import os, tempfile
>>> marker = os.path.join(tempfile.mkdtemp(), "killed")
>>> open(marker, "w").close()               # already killed once: just runs
>>> KillOnce(marker, abs)(-3)
3
"""

from __future__ import annotations

import os
import signal
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

__all__ = ["KillOnce"]


@dataclass(frozen=True)
class KillOnce:
    """``fn(item)``, except that the first call anywhere (no file at ``marker`` yet)
    creates the marker and SIGKILLs its own process."""

    marker: str
    fn: Callable[[Any], Any]

    def __call__(self, item: Any) -> Any:
        """``fn(item)``, or kill this process on the first call."""
        try:
            fd = os.open(self.marker, os.O_CREAT | os.O_EXCL | os.O_WRONLY)
        except FileExistsError:
            return self.fn(item)
        os.close(fd)
        os.kill(os.getpid(), signal.SIGKILL)
        raise AssertionError("unreachable")  # pragma: no cover
