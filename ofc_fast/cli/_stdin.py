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
    return cast("IO[bytes]", _StandardInput(stdin))


class StandardInputError(OfcError):
    """A read of standard input (a ``-`` argument) failed: the message says why."""


class _StandardInput(io.BufferedIOBase):
    """Standard input's bytes (``sys.stdin.buffer``, left open when this closes), read
    through to it: a line read takes one line, the rest stays for the next reader
    (``serve --api-key-file -``), and :meth:`fileno` is standard input's (the report's
    check that it never writes over an input file sees it); an OSError of a read is a
    :class:`StandardInputError` naming standard input and the cause."""

    def __init__(self, stdin: IO[bytes]) -> None:
        super().__init__()
        self._stdin = stdin

    def readable(self) -> bool:
        """Standard input is read."""
        return True

    def fileno(self) -> int:
        """Standard input's file descriptor."""
        return self._stdin.fileno()

    def read(self, size: int | None = -1) -> bytes:
        """At most ``size`` bytes (all that is left: ``-1``); ``b""`` at the end."""
        return self._reading(self._stdin.read, size)

    def read1(self, size: int = -1) -> bytes:
        """What one read of standard input gives, at most ``size`` bytes."""
        return self._reading(getattr(self._stdin, "read1", self._stdin.read), size)

    def readline(self, size: int | None = -1) -> bytes:
        """One line (at most ``size`` bytes), its newline kept; ``b""`` at the end."""
        return self._reading(self._stdin.readline, size)

    @staticmethod
    def _reading(read: Any, size: int | None) -> bytes:
        try:
            return cast("bytes", read(-1 if size is None else size))
        except OSError as exc:
            raise StandardInputError(
                f"cannot read {STANDARD_INPUT}: {exc.strerror or exc}"
            ) from None
