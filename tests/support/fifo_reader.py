"""A reader of a FIFO run in a thread, so that a test of a reader that would wait
for a writer for ever fails (the reader let go) rather than hangs."""

from __future__ import annotations

import os
import threading
import time
from collections.abc import Callable
from pathlib import Path

import pytest


def in_thread(fifo: Path, read: Callable[[], object]) -> tuple[object, float]:
    """What ``read()`` of ``fifo`` gave (or raised) and the seconds it took; a
    reader still waiting after 30 s is freed (a writer comes and goes) and fails."""
    outcome: list[object] = []

    def load() -> None:
        try:
            outcome.append(read())
        except BaseException as exc:  # (handed to the test's thread)
            outcome.append(exc)

    start = time.monotonic()
    reader = threading.Thread(target=load, daemon=True)
    reader.start()
    reader.join(30)
    took = time.monotonic() - start
    if reader.is_alive():
        os.close(os.open(fifo, os.O_WRONLY | os.O_NONBLOCK))
        reader.join(30)
        pytest.fail(f"the reader of {fifo} waited for a writer for ever")
    assert len(outcome) == 1
    return outcome[0], took
