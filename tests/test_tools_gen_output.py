"""The generators' one writer (tools/gen_output.py): a file of ``csrc/generated/`` or
the cffi module's stub is the old one or the new one, never a part."""

from __future__ import annotations

import builtins
import io
import os
import stat
import sys
from pathlib import Path
from types import ModuleType
from typing import Any

import pytest
from scripts import checkout_file, checkout_script, load_script, refuse_writes_in


def _ctrl_c_while_writing(monkeypatch: pytest.MonkeyPatch) -> None:
    """A file opened for writing from now on stops its first write half-way with
    Ctrl-C."""
    opened = io.open

    def open_(file: Any, mode: str = "r", *args: Any, **kwargs: Any) -> Any:
        f = opened(file, mode, *args, **kwargs)
        if any(c in mode for c in "wax+"):

            def half_then_ctrl_c(data: Any) -> int:
                f.__class__.write(f, data[: len(data) // 2])
                f.flush()
                raise KeyboardInterrupt

            f.write = half_then_ctrl_c
        return f

    monkeypatch.setattr(io, "open", open_)
    monkeypatch.setattr(builtins, "open", open_)


def _generators(monkeypatch: pytest.MonkeyPatch, path: Path) -> dict[str, Any]:
    """Each generator's last step, writing ``text`` to ``path``."""
    gen_output = checkout_script("tools/gen_output.py")
    monkeypatch.syspath_prepend(str(checkout_file("tools")))  # as `python tools/x.py`
    stubs: ModuleType = load_script(checkout_file("tools/gen_native_stubs.py"))
    monkeypatch.setattr(stubs, "STUB", path)
    monkeypatch.setattr(stubs, "ROOT", path.parent)

    def native_stubs(text: str) -> int:
        monkeypatch.setattr(stubs, "render", lambda: text)
        return int(stubs.main([]))

    return {
        "gen_tables.py": lambda text: gen_output.write_or_check(
            {path: text}, "tools/gen_tables.py", False
        ),
        "gen_native_stubs.py": native_stubs,
    }


@pytest.mark.parametrize("generator", ["gen_tables.py", "gen_native_stubs.py"])
def test_ctrl_c_while_a_generator_writes_leaves_the_old_file(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, generator: str
) -> None:
    """A Ctrl-C during ``python tools/gen_tables.py`` left a truncated
    csrc/generated/ofc_tables.c (the file was emptied, then written): the old file
    stays, whole, and no temporary file is left beside it."""
    path = tmp_path / "ofc_tables.c"
    path.write_bytes(b"/* old */\n" * 1000)
    write = _generators(monkeypatch, path)[generator]
    _ctrl_c_while_writing(monkeypatch)
    with pytest.raises(KeyboardInterrupt):
        write("/* new */\n" * 2000)
    monkeypatch.undo()
    assert path.read_bytes() == b"/* old */\n" * 1000
    assert os.listdir(tmp_path) == ["ofc_tables.c"]


@pytest.mark.parametrize("generator", ["gen_tables.py", "gen_native_stubs.py"])
def test_a_generated_file_keeps_its_mode_and_line_ends(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, generator: str
) -> None:
    """The new file replaces the old one with the old one's permissions, its text
    byte for byte (LF line ends, UTF-8), nothing else left in the folder; a new
    file gets the umask's permissions."""
    path = tmp_path / "ofc_tables.c"
    path.write_bytes(b"old\n")
    path.chmod(0o640)
    write = _generators(monkeypatch, path)[generator]
    assert write("line 1\nline 2 \u00e9\n") == 0
    assert path.read_bytes() == "line 1\nline 2 \u00e9\n".encode()
    assert stat.S_IMODE(path.stat().st_mode) == 0o640
    assert os.listdir(tmp_path) == ["ofc_tables.c"]
    path.unlink()
    umask = os.umask(0o022)
    os.umask(umask)
    assert write("new\n") == 0
    assert stat.S_IMODE(path.stat().st_mode) == 0o666 & ~umask


@pytest.mark.parametrize("generator", ["gen_tables.py", "gen_native_stubs.py"])
def test_a_file_that_cannot_be_written_is_named_in_one_line(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, generator: str
) -> None:
    """``gen_tables.py --out-dir /proc`` ended in a traceback naming a temporary file
    (``/proc/.ofc_tables.h.8daeb2484460.tmp``): one line names the file the generator
    could not write, and the folder is left as it was."""
    path = tmp_path / "ofc_tables.c"
    path.write_bytes(b"old\n")
    write = _generators(monkeypatch, path)[generator]
    refuse_writes_in(monkeypatch, tmp_path)
    with pytest.raises(SystemExit) as stopped:
        write("new\n")
    target = os.path.realpath(path)  # (the file a link leads to)
    assert stopped.value.code == f"cannot write {target}: Permission denied"
    assert path.read_bytes() == b"old\n" and os.listdir(tmp_path) == ["ofc_tables.c"]


def test_native_stubs_check_of_a_missing_stub_says_stale(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture
) -> None:
    """``gen_native_stubs.py --check`` without the stub (deleted to regenerate it)
    ended in a FileNotFoundError traceback: it is stale, exit status 1, as the other
    generators' ``--check`` says of a missing file; nothing is written."""
    _generators(monkeypatch, tmp_path / "_ofc.pyi")
    stubs = sys.modules["gen_native_stubs"]
    monkeypatch.setattr(stubs, "render", lambda: "lib: _Lib\n")
    assert stubs.main(["--check"]) == 1
    assert capsys.readouterr().out.startswith(f"stale: {tmp_path / '_ofc.pyi'} differs")
    assert os.listdir(tmp_path) == []


@pytest.mark.parametrize(
    "on_disk",
    [b"line 1\r\nline 2\r\n", b"line 1\rline 2\r", b"line 1\nline 2", b"line 1\n\xe9\n"],
    ids=["crlf", "cr", "no-last-newline", "latin-1"],
)
def test_check_compares_bytes_exactly(
    tmp_path: Path, capsys: pytest.CaptureFixture, on_disk: bytes
) -> None:
    """``gen_tables.py --check`` said "unchanged" of a checked-out ofc_tables.h with
    CRLF line ends (the file was read as text, its line ends made LF), and a file
    that is not UTF-8 ended in a UnicodeDecodeError traceback: a file whose bytes
    are not those the generator writes is stale (exit status 1) and left as it is."""
    gen_output = checkout_script("tools/gen_output.py")
    path = tmp_path / "ofc_tables.h"
    path.write_bytes(on_disk)
    assert gen_output.write_or_check({path: "line 1\nline 2\n"}, "gen", True) == 1
    assert capsys.readouterr().out == f"stale: {path} differs from a fresh run of gen\n"
    assert path.read_bytes() == on_disk
    path.write_bytes(b"line 1\nline 2\n")
    assert gen_output.write_or_check({path: "line 1\nline 2\n"}, "gen", True) == 0
    assert capsys.readouterr().out == "unchanged\n"
