"""Standard input as the file ``-`` that a command reads (:func:`input_file`, which
:mod:`ofc_fast.cli.options` gives out): every reader of a ``-`` argument (``replay
-``, ``report - HISTORY``, ``rules -``, ``--rules -``, ``serve --api-key-file -``)
reads it through :class:`_StandardInput`, so that a read that fails is one error
naming standard input and the cause, whatever the reader."""

from __future__ import annotations

import io
import sys
from typing import IO, Any, cast

from ..errors import OfcError

__all__ = ["StandardInputError", "input_file"]

STANDARD_INPUT = "'-' (standard input)"
"""How errors name a ``-`` argument."""


def input_file(path: str) -> str | IO[bytes]:
    """What a command reads for its input file ``path`` (``replay FILE``, ``--rules``):
    the path, or standard input's bytes for ``-`` (the Unix convention: ``cat
    deals.jsonl | ofc-fast replay -``; ``./-`` is a file so named); OfcError where
    standard input is closed (``<&-``), and on reading it where a read fails
    (``0> FILE``: open for writing only; EIO): ``cannot read '-' (standard input):
    Bad file descriptor``, never taken as the input's end nor a traceback.

    >>> input_file("deals.jsonl")
    'deals.jsonl'
    """
    if path != "-":
        return path
    stdin = getattr(sys.stdin, "buffer", None)
    if stdin is None:
        raise OfcError("'-': there is no standard input to read (it is closed)")
    return io.BufferedReader(_StandardInput(stdin))


class StandardInputError(OfcError):
    """A read of standard input (a ``-`` argument) failed: the message says why."""


class _StandardInput(io.RawIOBase):
    """Standard input's bytes (``sys.stdin.buffer``, left open when this closes): an
    OSError of a read is a :class:`StandardInputError` naming standard input and the
    cause."""

    def __init__(self, stdin: IO[bytes]) -> None:
        super().__init__()
        self._stdin = stdin

    def readable(self) -> bool:
        """Standard input is read."""
        return True

    def readinto(self, buffer: Any) -> int:
        """Read what standard input has (at most ``len(buffer)`` bytes) into
        ``buffer``; 0 at its end."""
        read = getattr(self._stdin, "read1", self._stdin.read)
        try:
            data = cast("bytes", read(len(buffer)))
        except OSError as exc:
            raise StandardInputError(
                f"cannot read {STANDARD_INPUT}: {exc.strerror or exc}"
            ) from None
        buffer[: len(data)] = data
        return len(data)
