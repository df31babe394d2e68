"""One writer per run directory (a self-play run's, a training run's): an exclusive,
non-blocking lock on a lock file in it, released when the writer ends (even killed:
the operating system drops the lock with the process).

``fcntl.flock`` where there is ``fcntl`` (Linux, macOS), ``msvcrt.locking`` on
Windows; without either, the lock file's exclusive creation (``O_EXCL``), removed
on release (a writer killed there leaves it behind: the refusal names the file to
remove).
"""

from __future__ import annotations

import os
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

from ..errors import OfcError, SelfPlayError
from ..files import open_descriptor

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


@contextmanager
def exclusive(
    out: Path,
    method: str | None = None,
    run: str = "selfplay",
    error: type[OfcError] = SelfPlayError,
) -> Iterator[None]:
    """Hold ``out``'s lock of ``run`` runs (the file ``.{run}.lock``) for the ``with``
    block; ``error`` when another writer holds it.  ``method``: ``"flock"``,
    ``"msvcrt"`` or ``"create"`` (default: the first this platform has).  A folder
    that takes no lock file is ``error`` too, naming ``out`` (the ``--out`` option).

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
    name = str(path)
    fds: list[int] = []  # (the lock file's descriptor, once made: closed at the end)
    if method == "create":
        try:
            try:
                fd = open_descriptor(fds, path, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o644)
            except FileExistsError:
                raise _busy(
                    out, path, run, error, "; if no run is going on, remove that file"
                ) from None
            except OSError as exc:
                raise _unwritable(out, exc, error) from None
            os.write(fd, f"{os.getpid()}\n".encode())
            yield
        finally:
            # made here, closed and removed (not left to refuse the next run) in C
            # calls on a str, which no Ctrl-C cuts (pathlib's unlink runs Python first)
            for fd in fds:
                try:
                    os.close(fd)
                finally:
                    try:
                        os.unlink(name)
                    except FileNotFoundError:  # (removed by hand: done)
                        pass
        return
    try:
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
        yield
    finally:
        for fd in fds:
            os.close(fd)  # (closing drops the lock)
