"""One writer per run directory (a self-play run's, a training run's): an exclusive,
non-blocking lock on a lock file in it, released when the writer ends (even killed:
the operating system drops the lock with the process).

``fcntl.flock`` where there is ``fcntl`` (Linux, macOS), ``msvcrt.locking`` on
Windows; without either, the lock file's exclusive creation (``O_EXCL``), removed
on release (a writer killed there leaves it behind: the refusal names the file to
remove).

The lock is held by an object whose ``with`` block's start and end and whose
release run no Python bytecode (:class:`_Held`): a Ctrl-C (whose KeyboardInterrupt a
signal handler raises between bytecodes) lands before the lock is taken, or after it
is released, or where :func:`exclusive` releases it; never where the lock stays held
as long as the interrupt's traceback keeps its holder (contextlib's generator-based
manager, cut as its ``__exit__`` started: the next run refused).
"""

from __future__ import annotations

import io
import operator
import os
from collections.abc import Callable
from pathlib import Path

from ..errors import OfcError, SelfPlayError
from ..files import closer, open_descriptor

__all__ = ["LOCK_NAME", "exclusive"]

LOCK_NAME = ".selfplay.lock"  # the lock file of exclusive's default run

try:
    import fcntl
except ImportError:  # pragma: no cover - Windows
    fcntl = None  # type: ignore[assignment]
try:
    import msvcrt
except ImportError:  # not Windows
    msvcrt = None  # type: ignore[assignment]


def _busy(out: Path, path: Path, run: str, error: type[OfcError], how: str) -> OfcError:
    return error(
        f"{out} is being written by another {run} run (it holds {path}"
        f"{how}); wait for it to finish, or use another --out"
    )


def _unwritable(out: Path, exc: OSError, error: type[OfcError]) -> OfcError:
    """``error`` for a lock file that cannot be made (a read-only folder, another
    user's): it is the run's first file, so the folder takes none."""
    return error(f"out: cannot write in the folder {str(out)!r}: {exc.strerror}")


def exclusive(
    out: Path,
    method: str | None = None,
    run: str = "selfplay",
    error: type[OfcError] = SelfPlayError,
) -> io.IOBase:
    """Hold ``out``'s lock of ``run`` runs (the file ``.{run}.lock``) for the ``with``
    block; ``error`` when another writer holds it.  ``method``: ``"flock"``,
    ``"msvcrt"`` or ``"create"`` (default: the first this platform has).  A folder
    that takes no lock file is ``error`` too, naming ``out`` (the ``--out`` option).
    The lock is taken here, and released as the ``with`` block ends (or the object
    returned is closed or dropped).

    >>> import tempfile
    >>> d = Path(tempfile.mkdtemp())
    >>> with exclusive(d):
    ...     with exclusive(d):
    ...         pass
    Traceback (most recent call last):
    ...
    ofc_fast.errors.SelfPlayError: ... is being written by another selfplay run ...
    """
    method = method or ("flock" if fcntl else "msvcrt" if msvcrt else "create")
    path = out / f".{run}.lock"
    fds: list[int] = []  # (the lock file's descriptor, once made)
    # made before the lock is taken: it releases whatever is in fds when it runs
    released: list[bool] = []  # (True once released: the holder's closed)
    held = _Held(closer(fds, str(path) if method == "create" else None, released), released)
    try:
        if method == "create":
            flags = os.O_WRONLY | os.O_CREAT | os.O_EXCL
            try:
                fd = open_descriptor(fds, path, flags, 0o644)
            except FileExistsError:
                busy = "; if no run is going on, remove that file"
                raise _busy(out, path, run, error, busy) from None
            except OSError as exc:
                raise _unwritable(out, exc, error) from None
            os.write(fd, f"{os.getpid()}\n".encode())
            return held
        try:
            fd = open_descriptor(fds, path, os.O_RDWR | os.O_CREAT, 0o644)
        except OSError as exc:
            raise _unwritable(out, exc, error) from None
        try:
            if method == "flock":
                fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
            else:  # pragma: no cover - Windows
                msvcrt.locking(fd, msvcrt.LK_NBLCK, 1)  # type: ignore[attr-defined,unused-ignore]
        except OSError:
            raise _busy(out, path, run, error, "") from None
    except BaseException:
        held.close()
        raise
    return held


class _Held(io.IOBase):
    """A lock held until its ``close`` runs (``release``: the C calls of
    :func:`~ofc_fast.files.closer`): at the ``with`` block's end (``io.IOBase``'s
    ``__enter__`` and ``__exit__`` are C calls too, where a Python ``__exit__`` could
    be cut as it started, before it released anything), where :func:`exclusive`
    fails, or as the object is dropped.  Closed again, it does nothing.  ``closed``
    (``[True]``) once released, a C call too (``io.IOBase``'s ``__enter__`` reads it,
    refusing a second ``with`` block, which would hold nothing)."""

    closed = property(operator.attrgetter("_released"))

    def __init__(self, release: Callable[[], object], released: list[bool]) -> None:
        vars(self)["close"] = release  # (what io.IOBase's __exit__ and __del__ call)
        self._released = released  # (the release appends True)
