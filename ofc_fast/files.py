"""Output files that a kill never leaves half-written (:func:`atomic_file`): every
command's ``--json`` file (:mod:`ofc_fast.cli.options`), the value
models, training steps, run files and reports of :mod:`ofc_fast.learned`, the
self-play shards and manifests of :mod:`ofc_fast.parallel`, the saved policies of
:mod:`ofc_fast.bots.policy`, the arena's HTML pages and their deals files
(:func:`atomic_text`).

Input files that a FIFO nothing writes to never keeps waiting (:func:`open_input`:
``--rules``, ``replay FILE``, ``report REPORT HISTORY``, ``--api-key-file``).

A new file is written beside its target under a name of its own
(:func:`temporary_path`), then renamed over it: a reader sees the old file or the new
one, never a part, and two writers of one path never write into one temporary file.
A target that is no regular file (:func:`written_in_place`: ``/dev/null``,
``/dev/stdout``, a FIFO) is written to as it is, never replaced.

:func:`read_npz` reads an ``.npz`` (a saved policy, a training step) allocating no
more than the file holds, whatever its array headers declare.
"""

from __future__ import annotations

import contextlib
import errno
import io
import itertools
import math
import operator
import os
import re
import secrets
import select
import stat
import tempfile
import zipfile
import zlib
from collections import deque
from collections.abc import Callable, Iterator
from functools import partial
from pathlib import Path
from typing import IO, Any, BinaryIO, TextIO

import numpy as np
import numpy.typing as npt
from numpy.lib import format as _npy_format

__all__ = [
    "FIFO_WAIT",
    "NPZ_ERRORS",
    "atomic_file",
    "atomic_text",
    "atomic_write",
    "check_writable",
    "closer",
    "file_key",
    "open_descriptor",
    "open_input",
    "output_key",
    "read_npz",
    "remove_leftovers",
    "temporary_file",
    "temporary_path",
    "written_in_place",
]

_npformat: Any = _npy_format  # (NumPy 2.2's stubs leave read_magic & co. untyped)


def written_in_place(path: str | os.PathLike[str]) -> bool:
    """Whether the output ``path`` is there and is no regular file: a device
    (``/dev/null``), a FIFO, ``/dev/stdout``.  Such a file is written to as it is:
    the temporary file and rename of the other outputs would put a regular file in
    its place (as root, over ``/dev/null`` itself).  Every path under ``/dev/`` or
    ``/proc/`` is one, even where it leads to a regular file (``/dev/stdout`` of a
    ``> out.json``): a rename would replace the link itself.

    >>> written_in_place("/dev/null"), written_in_place("no-such-file.json")
    (True, False)
    """
    if os.path.abspath(path).startswith(("/dev/", "/proc/")):
        return True  # (/dev/stdout redirected to a file: that file, written as it is)
    real = os.path.realpath(path)
    return os.path.exists(real) and not os.path.isfile(real)


FIFO_WAIT = 10.0
"""Seconds :func:`open_input` waits for a process to open a FIFO and write to it
(``mkfifo p; ofc-fast replay ./p & gen > p``): one that no process opened for
writing by then reads as empty; one opened in time is read to its end."""

_NONBLOCK: int = getattr(os, "O_NONBLOCK", 0)  # (none on Windows, where no FIFO is)


def open_descriptor(
    fds: list[int], path: str | os.PathLike[str], flags: int, mode: int = 0o777
) -> int:
    """``os.open(path, flags, mode)``, its descriptor appended to ``fds`` in the same
    C call and returned: a Ctrl-C (whose KeyboardInterrupt a signal handler raises
    between bytecodes, so also as ``os.open`` returns, before its value is stored)
    lands before the descriptor is made or after it is in ``fds``, for the caller's
    ``except BaseException`` to close (and, a file it made, to remove).  OSError
    where it cannot be opened (``fds`` as it was).

    >>> fds: list[int] = []
    >>> fd = open_descriptor(fds, os.devnull, os.O_RDONLY)
    >>> fds == [fd]
    True
    >>> os.close(fd)
    """
    fds.extend(map(os.open, (path,), (flags,), (mode,)))
    return fds[-1]


def closer(
    fds: list[int], made: str | None = None, done: list[bool] | None = None
) -> Callable[[], object]:
    """A call that closes each descriptor in ``fds`` (put there by
    :func:`open_descriptor` before or after this was made) and, for each, removes
    the file ``made`` (the one its exclusive open made) where it is still there,
    then appends True to ``done`` (a holder's ``closed``); once: called again, it
    does nothing.  It runs C calls alone (a chain of ``map`` consumed), which no Ctrl-C cuts: the
    release of a lock at a ``with`` block's end (:func:`ofc_fast.parallel.exclusive`)
    or in an ``except BaseException``.

    >>> import tempfile
    >>> name = os.path.join(tempfile.mkdtemp(), "made")
    >>> fds: list[int] = []
    >>> fd = open_descriptor(fds, name, os.O_WRONLY | os.O_CREAT | os.O_EXCL)
    >>> close = closer(fds, name)
    >>> _ = close(), close()
    >>> os.path.exists(name)
    False
    """
    steps: Iterator[object] = map(os.close, fds)
    if made is not None:
        names = map(operator.itemgetter(0), zip(itertools.repeat(made), fds))
        there = partial(os.access, mode=os.F_OK)  # (not removed by hand: removed)
        steps = itertools.chain(steps, map(os.unlink, filter(there, names)))
    if done is not None:  # (append answers None, the end: called once)
        steps = itertools.chain(steps, iter(partial(done.append, True), None))
    return partial(deque, steps, 0)


def open_input(path: str | os.PathLike[str], wait: float | None = None) -> BinaryIO:
    """``path`` opened for reading bytes, as every input file a command names is
    (``--rules``, ``replay FILE``, ``report REPORT HISTORY``): a FIFO waits at most
    ``wait`` seconds (None: :data:`FIFO_WAIT`) for a process to open it and write,
    then reads as empty where none did (a plain ``open()`` waited for a writer for
    ever); a pipe with a writer (``<(gunzip -c h.jsonl.gz)``) and any other file
    read as usual.  OSError where it cannot be opened.

    >>> import tempfile
    >>> with tempfile.TemporaryDirectory() as folder:
    ...     Path(folder, "a.txt").write_bytes(b"text")
    ...     with open_input(Path(folder, "a.txt")) as f:
    ...         print(f.read())
    4
    b'text'
    """
    # O_NONBLOCK: a FIFO that nothing writes to opens at once; reads then wait as
    # usual once the descriptor is made blocking again
    fds: list[int] = []  # (the descriptor, once made: closed on any failure)
    try:
        fd = open_descriptor(
            fds, path, os.O_RDONLY | _NONBLOCK | getattr(os, "O_BINARY", 0)
        )
        if stat.S_ISDIR(os.fstat(fd).st_mode):  # (as open() refuses one)
            raise IsADirectoryError(errno.EISDIR, os.strerror(errno.EISDIR), str(path))
        if _NONBLOCK:
            _await_writer(fd, FIFO_WAIT if wait is None else wait)
            os.set_blocking(fd, True)
    except BaseException:
        for fd in fds:
            os.close(fd)
        raise
    return open(fd, "rb")  # (a Ctrl-C as it returns: the file dropped closes it)


def _await_writer(fd: int, wait: float) -> None:
    """Wait, for a FIFO ``fd`` opened O_NONBLOCK, until a writer wrote to it or came
    and went, at most ``wait`` seconds: before any writer opened it, a read says end
    of file (so a writer that came after the reader was missed) and poll() says
    nothing (no POLLHUP on Linux).  Then a read waits for a writer that is there, and
    says end of file where none is."""
    poll = getattr(select, "poll", None)  # (none on Windows)
    if poll is None or not stat.S_ISFIFO(os.fstat(fd).st_mode):
        return
    poller = poll()
    poller.register(fd, select.POLLIN)
    poller.poll(max(0, math.ceil(wait * 1000)))


def file_key(file: str | os.PathLike[str] | int | IO[Any]) -> tuple[int, int] | None:
    """Which regular file ``file`` is (its device and inode): a path (a symbolic
    link, ``/dev/stdout``: the file it leads to), a descriptor or an open file (the
    standard input of ``< h.jsonl``); ``None`` for no regular file (none there, a
    terminal, a pipe, ``/dev/null``, an in-memory file).  Two names of one file (a
    hard link, ``./a``) have one key: an output whose key is an input's would be
    written over what is read.

    >>> here = os.path.dirname(__file__)
    >>> file_key(__file__) == file_key(os.path.join(here, ".", "files.py"))
    True
    >>> file_key("/dev/null") is None
    True
    """
    try:
        if isinstance(file, (str, os.PathLike)):
            st = os.stat(file)
        else:
            st = os.fstat(file if isinstance(file, int) else file.fileno())
    except (OSError, ValueError, AttributeError, io.UnsupportedOperation):
        return None  # (ValueError: a NUL in the name, or a closed file)
    return (st.st_dev, st.st_ino) if stat.S_ISREG(st.st_mode) else None


def output_key(file: str | int) -> tuple[int, int] | None:
    """Which file an output ``file`` (a path, a descriptor) writes into, by device and
    inode, a pipe's too (``/dev/stdout | cat``), or None: none there, or a character
    device (``/dev/null``, a terminal), which keeps nothing to write over.

    >>> output_key("/dev/null") is None, output_key(__file__) == file_key(__file__)
    (True, True)
    """
    try:
        st = os.stat(file)
    except (OSError, ValueError):  # (ValueError: a NUL in the name)
        return None
    return None if stat.S_ISCHR(st.st_mode) else (st.st_dev, st.st_ino)


def temporary_path(target: Path) -> Path:
    """A name for the new contents of ``target``, beside it (so the rename stays on
    one file system), hidden and unique to this process and call:
    ``.report.json.4215.d186afad.tmp``: no file of the user's (``report.json.tmp``)
    and no other writer's is taken over.

    A long name keeps its first :data:`NAME_BYTES` bytes in the temporary name, so
    that a file whose name is near the file system's limit (255 bytes) can be
    replaced too.

    >>> temporary_path(Path("out", "report.json")).name.startswith(".report.json.")
    True
    >>> len(temporary_path(Path("r" * 250)).name) < 255
    True
    """
    name = os.fsencode(target.name)[:NAME_BYTES]  # (the bytes the system stores)
    # no half of a character at the cut; back as the file system's encoding reads
    # those bytes (a C locale's ASCII: "é" as its escaped bytes, not "é")
    short = os.fsdecode(name.decode("utf-8", "ignore").encode("utf-8"))
    return target.with_name(f".{short}.{os.getpid()}.{secrets.token_hex(4)}.tmp")


def temporary_file(folder: str | None = None) -> TextIO:
    """A UTF-8 text file to write and read back (``w+``), with no name, in
    ``folder`` (None: :func:`tempfile.gettempdir`), gone when it is closed or the
    process ends, as ``tempfile.TemporaryFile``'s, whose descriptor (and, without
    ``O_TMPFILE``, file) a Ctrl-C landing as its ``os.open`` returned left behind (4
    cuts in 5 there: the open is its slow part).  ``O_TMPFILE`` where the system
    has it, else a name of :func:`temporary_path`'s, removed at once (on Windows, as
    the file is closed).  OSError where none can be made.

    >>> with temporary_file() as f:
    ...     _ = f.write("text")
    ...     _ = f.seek(0)
    ...     print(f.read())
    text
    """
    folder = tempfile.gettempdir() if folder is None else folder
    fds: list[int] = []  # (its descriptor, once made: closed on any failure)
    name = str(temporary_path(Path(folder, "scratch")))  # (where no O_TMPFILE)
    drop = closer(fds, name)  # (made first: no Python bytecode to cut)
    try:
        if _TMPFILE:  # (an error here: the named file's, tried next, is raised)
            with contextlib.suppress(OSError):
                open_descriptor(fds, folder, os.O_RDWR | _TMPFILE, 0o600)
        if not fds:
            open_descriptor(fds, name, _SCRATCH_FLAGS, 0o600)
            if not _DELETE_ON_CLOSE:
                os.unlink(name)
    except BaseException:
        drop()
        raise
    return open(fds[0], "w+", encoding="utf-8")  # (a Ctrl-C as it returns: dropped)


_TMPFILE: int = getattr(os, "O_TMPFILE", 0)  # (Linux)
_DELETE_ON_CLOSE: int = getattr(os, "O_TEMPORARY", 0)  # (Windows)
_SCRATCH_FLAGS = (
    os.O_RDWR
    | os.O_CREAT
    | os.O_EXCL
    | _DELETE_ON_CLOSE
    | getattr(os, "O_NOFOLLOW", 0)
    | getattr(os, "O_BINARY", 0)
)


NAME_BYTES = 200
"""The most bytes of a target's name that :func:`temporary_path` keeps: with the
dot, the process id, the random part and ``.tmp`` (at most 33 bytes), the temporary
name stays inside the 255 bytes file systems allow a name."""


def check_writable(path: str | os.PathLike[str]) -> None:
    """Raise the :class:`OSError` that :func:`atomic_file` would meet writing ``path``,
    before any work: an existing regular file that takes no writing (read-only,
    ``/proc``'s) and, for a path not :func:`written_in_place` or not there, a folder
    that takes no new file (read-only, ``/proc``, or a name too long for its
    temporary file), tried by making and removing one of its temporary files.

    >>> check_writable("/dev/null")
    """
    exists = os.path.exists(path)
    if os.path.isfile(path):  # (not a FIFO: opening one waits for its reader)
        with open(path, "ab"):  # (nothing written)
            pass
    if not exists or not written_in_place(path):  # (/proc/x.json: its folder's)
        tmp = temporary_path(Path(os.path.realpath(path)))
        fds: list[int] = []  # (its descriptor, once made)
        remove = closer(fds, str(tmp))  # (made first: no Python bytecode to cut)
        try:
            open_descriptor(fds, tmp, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o666)
        finally:
            remove()


_LEFTOVER = re.compile(r"\..+\.[0-9]+\.[0-9a-f]{8}\.tmp")


def remove_leftovers(folder: Path) -> list[str]:
    """Remove from ``folder`` the temporary files (:func:`temporary_path`'s
    ``.<name>.<pid>.<hex>.tmp``) that writers killed before their rename left there,
    each as large as what it was writing; return their names.  For a folder that one
    run holds (its lock taken), as that run starts or resumes: no other writer's
    file is in flight.

    >>> import tempfile
    >>> with tempfile.TemporaryDirectory() as folder:
    ...     for name in (".a.npz.7.0123abcd.tmp", ".a.tmp", "a.npz.tmp"):
    ...         Path(folder, name).touch()
    ...     print(remove_leftovers(Path(folder)), sorted(os.listdir(folder)))
    ['.a.npz.7.0123abcd.tmp'] ['.a.tmp', 'a.npz.tmp']
    """
    removed = []
    for stray in sorted(folder.glob(".*.tmp")):
        if _LEFTOVER.fullmatch(stray.name) and not stray.is_dir():
            stray.unlink(missing_ok=True)
            removed.append(stray.name)
    return removed


@contextlib.contextmanager
def atomic_file(path: str | os.PathLike[str]) -> Iterator[BinaryIO]:
    """A binary file to write the new contents of ``path`` into, bit by bit (a long
    ``play``'s deals), renamed over ``path`` when the block ends, flushed to disk,
    with the permissions of the file it replaces (a new file: the umask's).  A
    symbolic link stays one: the file it leads to gets the new contents (its
    temporary file beside that one).  A write or rename that fails (a full disk, a
    folder at ``path``, Ctrl-C) removes the temporary file: ``path`` is as it was.  A
    ``path`` :func:`written_in_place` is written to as it is.

    >>> import tempfile
    >>> with tempfile.TemporaryDirectory() as folder:
    ...     with atomic_file(Path(folder, "a.txt")) as f:
    ...         _ = f.write(b"new")
    ...         print(os.listdir(folder) != ["a.txt"])
    ...     print(Path(folder, "a.txt").read_bytes(), os.listdir(folder))
    True
    b'new' ['a.txt']
    """
    if written_in_place(path):
        with open(path, "wb") as f:
            yield f
        return
    target = Path(os.path.realpath(path))
    try:
        mode: int | None = stat.S_IMODE(os.stat(target).st_mode)
    except OSError:
        mode = None  # (a new file)
    tmp = temporary_path(target)  # (a name of this call's own: removed on a failure)
    try:
        with open(tmp, "wb") as f:  # (a Ctrl-C as it returns: the file dropped closes)
            if mode is not None:
                os.chmod(tmp, mode)  # (by name: Windows changes no mode by descriptor)
            yield f
            f.flush()
            os.fsync(f.fileno())
        os.replace(tmp, target)
    except BaseException:
        with contextlib.suppress(OSError):
            tmp.unlink()
        raise


@contextlib.contextmanager
def atomic_text(path: str | os.PathLike[str]) -> Iterator[TextIO]:
    """:func:`atomic_file` as a UTF-8 text file: an output written bit by bit
    (``--json``, ``play --history``, the arena's HTML page), renamed over ``path``
    when the block ends, or dropped on an error (``path`` as it was).

    >>> import tempfile
    >>> with tempfile.TemporaryDirectory() as folder:
    ...     with atomic_text(os.path.join(folder, "out.json")) as f:
    ...         _ = f.write("{}")
    ...     print(open(os.path.join(folder, "out.json")).read(), os.listdir(folder))
    {} ['out.json']
    """
    with atomic_file(path) as raw:
        text = io.TextIOWrapper(raw, encoding="utf-8")
        yield text
        text.detach()  # (flushed into the file, which atomic_file renames)


def atomic_write(path: str | os.PathLike[str], data: bytes) -> None:
    """Write ``data`` to ``path`` through :func:`atomic_file`: the old file or the
    new one, never a part.

    >>> import tempfile
    >>> with tempfile.TemporaryDirectory() as folder:
    ...     atomic_write(Path(folder, "a.txt"), b"new")
    ...     print(Path(folder, "a.txt").read_bytes(), os.listdir(folder))
    b'new' ['a.txt']
    """
    with atomic_file(path) as f:
        f.write(data)


NPZ_ERRORS = (
    OSError,
    ValueError,
    KeyError,
    EOFError,
    zipfile.BadZipFile,
    zlib.error,  # damaged compressed data
    NotImplementedError,  # a compression method zipfile has not
)
"""What :func:`read_npz` (and ``np.load``) raise for a damaged ``.npz``."""


def read_npz(
    path: str | os.PathLike[str], limit: int | None = None
) -> dict[str, npt.NDArray[Any]]:
    """The arrays of an ``.npz`` file by name, each read only after its header was
    checked against the bytes the file holds for it, so a damaged file never makes
    this allocate more than it holds (``np.load`` allocated what a header declared:
    4 TiB for a 500-byte file). ValueError for a header declaring more, an array of
    objects, or members over ``limit`` bytes in all; :data:`NPZ_ERRORS` in all.

    >>> import tempfile
    >>> path = os.path.join(tempfile.mkdtemp(), "a.npz")
    >>> np.savez(path, x=np.arange(3))
    >>> read_npz(path)["x"].tolist()
    [0, 1, 2]
    """
    out: dict[str, npt.NDArray[Any]] = {}
    with zipfile.ZipFile(path) as z:
        members = [i for i in z.infolist() if i.filename.endswith(".npy")]
        if limit is not None and sum(i.file_size for i in members) > limit:
            raise ValueError(f"its arrays exceed {limit} bytes")
        for info in members:
            key = info.filename[: -len(".npy")]
            if info.flag_bits & 0x1:  # (zipfile's RuntimeError asks for a password)
                raise ValueError(f"{key}: encrypted")
            raw = io.BytesIO(z.read(info))  # (grows with the data, not a declared size)
            version = _npformat.read_magic(raw)
            if version not in ((1, 0), (2, 0)):
                raise ValueError(f"{key}: .npy format version {version}")
            read = _npformat.read_array_header_1_0 if version == (1, 0) else None
            shape, _, dtype = (read or _npformat.read_array_header_2_0)(raw)
            held = len(raw.getbuffer()) - raw.tell()
            if dtype.hasobject or int(np.prod(shape, dtype=object)) * dtype.itemsize > held:
                raise ValueError(f"{key}: its header declares {shape} {dtype}, not held")
            raw.seek(0)
            out[key] = _npformat.read_array(raw, allow_pickle=False)
    return out
