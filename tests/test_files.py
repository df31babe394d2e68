"""Output files (:mod:`ofc_fast.files`): a symbolic link stays one and the file it
leads to gets the new contents; a replaced file keeps its permissions;
``/dev/stdout`` redirected to a file is written to as it is, never replaced."""

from __future__ import annotations

import gc
import operator
import os
import signal
import stat
import subprocess
import sys
import tempfile
from collections.abc import Callable, Sequence
from pathlib import Path

import pytest
from scripts import package_env

from ofc_fast.files import atomic_write


def test_a_symlinked_output_stays_a_link_and_its_file_gets_the_contents(
    tmp_path: Path,
) -> None:
    """``--json link.json`` (``ln -s real/out.json link.json``) put a regular file in
    place of the link, the file it led to left as it was."""
    real = tmp_path / "real"
    real.mkdir()
    (real / "out.json").write_bytes(b"old")
    link = tmp_path / "link.json"
    link.symlink_to(real / "out.json")
    atomic_write(link, b"new")
    assert link.is_symlink()
    assert os.readlink(link) == str(real / "out.json")
    assert (real / "out.json").read_bytes() == b"new"
    assert sorted(os.listdir(tmp_path)) == ["link.json", "real"]
    assert os.listdir(real) == ["out.json"]


@pytest.mark.parametrize("mode", [0o600, 0o640, 0o444])
def test_a_replaced_file_keeps_its_permissions(tmp_path: Path, mode: int) -> None:
    """An existing 0600 file (a private report) became 0644 (the umask's)."""
    out = tmp_path / "report.json"
    out.write_bytes(b"old")
    out.chmod(mode)
    atomic_write(out, b"new")
    assert stat.S_IMODE(out.stat().st_mode) == mode
    assert out.read_bytes() == b"new"


WRITE_STDOUT = """
import os, sys
from ofc_fast.files import written_in_place, atomic_write
# (the old code renamed over /dev/stdout here: never let it reach atomic_write)
if not written_in_place("/dev/stdout"):
    sys.exit("/dev/stdout would be replaced")
atomic_write("/dev/stdout", b'{"a": 1}\\n')
"""


@pytest.mark.skipif(not os.path.islink("/dev/stdout"), reason="run on Linux (/dev/stdout)")
def test_dev_stdout_redirected_to_a_file_is_written_in_place(tmp_path: Path) -> None:
    """``ofc-fast eval X --json /dev/stdout > out.json``: /dev/stdout leads to a
    regular file, so it counted as one; the writer made a temporary file in /dev and
    renamed it over the /dev/stdout link (as root) or failed (Permission denied)."""
    before = os.readlink("/dev/stdout")
    out = tmp_path / "out.json"
    with open(out, "wb") as f:
        done = subprocess.run(
            [sys.executable, "-c", WRITE_STDOUT],
            stdout=f,
            stderr=subprocess.PIPE,
            env=package_env(),
            timeout=60,
        )
    assert done.returncode == 0, done.stderr
    assert out.read_bytes() == b'{"a": 1}\n'
    assert os.path.islink("/dev/stdout") and os.readlink("/dev/stdout") == before


def test_a_file_whose_name_is_near_the_limit_can_be_replaced(tmp_path: Path) -> None:
    """A file named with 240 characters could not be replaced: its temporary name
    (the whole name and 22 more characters) passed the file system's 255 bytes, and
    the write failed "File name too long". The temporary name keeps the first 200
    bytes of the name (a character of several bytes never cut in two)."""
    for name in ("r" * 240 + ".json", "é" * 126):
        target = tmp_path / name
        target.write_bytes(b"old")
        atomic_write(target, b"new")
        assert target.read_bytes() == b"new"
        assert os.listdir(tmp_path) == [name]
        target.unlink()


def _open_fds() -> list[str]:
    return sorted(os.listdir("/proc/self/fd"))


ON_LINUX = pytest.mark.skipif(
    not (hasattr(signal, "setitimer") and os.path.isdir("/proc/self/fd")),
    reason="run on Linux (setitimer, /proc/self/fd)",
)


@ON_LINUX
@pytest.mark.parametrize("call", ["open_input", "atomic_file", "exclusive create"])
def test_a_ctrl_c_as_a_file_is_opened_leaves_no_descriptor_or_file(
    tmp_path: Path, call: str
) -> None:
    """Regression: a Ctrl-C (KeyboardInterrupt raised by a signal handler as
    ``os.open``/``open`` returned, before the block that closes or removes what it
    made) leaked the descriptor of ``open_input``, left ``atomic_file``'s hidden
    ``.<name>.<pid>.<hex>.tmp`` beside the output, and ``exclusive(method="create")``'s
    ``.selfplay.lock``, so that the next run was refused.  Here a timer raises
    KeyboardInterrupt into calls until 200 were cut: the descriptors open (the reference:
    those before) and the folder's files are as before each."""
    from interrupts import CutCalls, ctrl_c_timer, interrupted

    from ofc_fast.files import atomic_file, open_input
    from ofc_fast.parallel import exclusive

    source = tmp_path / "in.txt"
    source.write_bytes(b"x")
    out = tmp_path / "out.bin"

    def once() -> None:
        if call == "open_input":
            with open_input(source) as f:
                f.read()
        elif call == "atomic_file":
            with atomic_file(out) as f:
                f.write(b"y")
        else:
            with exclusive(tmp_path, method="create"):
                pass

    once()
    files, fds = sorted(os.listdir(tmp_path)), _open_fds()
    calls = CutCalls(200, cap=30_000)  # (a loaded machine: fewer cuts a call)
    with ctrl_c_timer() as armed:
        for _ in calls:
            calls.cuts += interrupted(armed, once)
            assert sorted(os.listdir(tmp_path)) == files, calls
    gc.collect()  # (a file object the interrupt dropped: closed already, by refcount)
    assert _open_fds() == fds
    assert calls.cuts == calls.target, calls  # the timer did land inside the calls


def _cuts_leave_nothing(
    call: Callable[[], object],
    folder: Path,
    times: int = 300,
    keep: Sequence[str] = (),
    made_by: type[BaseException] | None = None,
) -> None:
    """Cut calls of ``call`` with :func:`interrupts.ctrl_c_timer` until ``times``
    were cut (at most 200 times as many calls: a loaded machine cuts fewer): right
    after each cut, its exception alive, ``folder`` holds only ``keep`` (what else
    is there is recorded, then removed), and at the end no descriptor is open but
    those before.  What a call left as its ``made_by`` exception was raised (the
    exception, or the one a cut interrupted the handling of) is removed, not
    recorded: a stand-in's kill (CPython 3.10 runs the timer's handler in the
    ``except`` that handles it, before its clean-up)."""
    from interrupts import CutCalls, ctrl_c_timer, interrupted

    left: list[list[str]] = []  # (what was left in folder) for each cut leaving any

    def once() -> None:
        try:
            call()
        except BaseException as exc:  # (cut)
            there = sorted(set(os.listdir(folder)) - set(keep))
            if made_by is None or not (
                isinstance(exc, made_by) or isinstance(exc.__context__, made_by)
            ):
                left.extend([there] if there else [])
            for name in there:
                os.unlink(folder / name)
            raise

    fds = _open_fds()
    calls = CutCalls(times, cap=200 * times)
    with ctrl_c_timer() as armed:
        for _ in calls:
            calls.cuts += interrupted(armed, once)
    gc.collect()  # (a file object the interrupt dropped: closed already, by refcount)
    assert left == []
    assert _open_fds() == fds
    assert calls.cuts == calls.target, calls  # the timer did land inside the calls


@ON_LINUX
@pytest.mark.parametrize("method", ["flock", "create"])
def test_a_ctrl_c_in_a_with_exclusive_block_leaves_no_lock_held(
    tmp_path: Path, method: str
) -> None:
    """Regression: a Ctrl-C landing in ``with exclusive(out)``'s start or end (the
    generator-based manager's ``__enter__`` as the lock was taken, its ``__exit__``
    as it started) kept the lock, and ``.selfplay.lock`` of the ``create`` method,
    for as long as the KeyboardInterrupt's traceback lived (about 1 cut in 100): a
    run started from the ``except`` block, or from a notebook keeping the last
    traceback, was refused as "being written by another selfplay run".  Here a timer
    cuts calls until 1,000 were cut; right after each, while its exception is alive,
    the folder is as before and the lock can be taken again."""
    from ofc_fast.errors import SelfPlayError
    from ofc_fast.parallel import exclusive

    with exclusive(tmp_path, method=method):
        pass
    refused = 0

    def once() -> None:
        nonlocal refused
        try:
            with exclusive(tmp_path, method=method):
                pass
        except BaseException:  # (the cut, its traceback alive until the raise)
            try:
                with exclusive(tmp_path, method=method):
                    pass
            except SelfPlayError:
                refused += 1
            raise

    _cuts_leave_nothing(once, tmp_path, 1000, keep=os.listdir(tmp_path))
    assert refused == 0


@ON_LINUX
def test_a_ctrl_c_in_kill_once_leaves_no_marker_or_descriptor(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Regression: a Ctrl-C as ``KillOnce`` (the fault tests' chunk function that
    kills its worker the first time) made its marker, before the kill, leaked the
    marker's descriptor and left the marker: the worker went on, and no call killed
    it after (the fault the test was for never happened).  Here the kill is a C call
    that raises (``operator.getitem(pid, signum)``: TypeError), as SIGKILL ends the
    process with no Python code run between, and the marker is removed for the next
    call; a timer cuts calls until 300 were cut: after each, no marker, and no
    descriptor open at the end."""
    from ofc_fast.parallel import _chaos

    monkeypatch.setattr(_chaos.os, "kill", operator.getitem)
    marker = tmp_path / "killed"

    def once() -> None:
        try:
            _chaos.KillOnce(str(marker), abs)(-1)
        except TypeError:  # (killed: as the next call, make the marker again)
            marker.unlink(missing_ok=True)

    _cuts_leave_nothing(once, tmp_path, made_by=TypeError)


@ON_LINUX
def test_a_ctrl_c_as_output_is_discarded_leaks_no_descriptor(tmp_path: Path) -> None:
    """Regression: a Ctrl-C as a command sent what it still buffered for a gone
    reader or a full disk to /dev/null (``cli._discard``) leaked the descriptor of
    /dev/null it opened.  Here a timer cuts calls until 300 were cut: no descriptor
    is open at the end but those before."""
    from ofc_fast.cli import _discard

    with open(tmp_path / "out.txt", "w", encoding="utf-8") as stream:
        _discard([stream])
        _cuts_leave_nothing(lambda: _discard([stream]), tmp_path, keep=["out.txt"])


@ON_LINUX
def test_a_ctrl_c_as_an_output_is_checked_leaves_no_file(tmp_path: Path) -> None:
    """Regression: a Ctrl-C as ``check_writable`` (every command's look at its
    outputs before any work) made and removed its trial temporary file left that
    hidden ``.<name>.<pid>.<hex>.tmp`` beside the output, and its descriptor open.
    Here a timer cuts calls until 300 were cut: after each, the folder is empty, and
    no descriptor is open at the end but those before."""
    from ofc_fast.files import check_writable

    _cuts_leave_nothing(lambda: check_writable(tmp_path / "out.json"), tmp_path)


@ON_LINUX
@pytest.mark.parametrize("o_tmpfile", [True, False], ids=["O_TMPFILE", "named"])
@pytest.mark.parametrize("call", ["SpooledList", "arena page"])
def test_a_ctrl_c_as_a_temporary_file_is_made_leaks_no_descriptor_or_file(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, call: str, o_tmpfile: bool
) -> None:
    """Regression: ``play --json``'s list of deals (``SpooledList``) and the arena
    page's deals file (``html._scratch``) took their temporary file from
    ``tempfile.TemporaryFile``, whose descriptor a Ctrl-C landing as its ``os.open``
    returned leaked (4 cuts in 5 there), with the file's disk space; without
    ``O_TMPFILE`` (macOS), its ``tmpXXXXXXXX`` file was left too, in the page's
    folder.  Here a timer cuts calls until 300 were cut: after each, the folder is
    empty, and no descriptor is open at the end but those before."""
    from ofc_fast import files
    from ofc_fast.arena import html
    from ofc_fast.cli.options import SpooledList

    if not o_tmpfile:  # (the name of files.temporary_path's, removed at once)
        monkeypatch.setattr(files, "_TMPFILE", 0, raising=False)
    monkeypatch.setattr(tempfile, "tempdir", str(tmp_path))  # (SpooledList's folder)

    def once() -> None:
        if call == "SpooledList":
            SpooledList().close()
        else:
            with html._scratch(tmp_path / "page.html", tmp_path / "deals.txt"):
                pass

    once()
    _cuts_leave_nothing(once, tmp_path)
