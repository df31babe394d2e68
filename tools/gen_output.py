"""The one output step of the generators (``gen_tables.py``, ``gen_opponent_rows.py``
of ``csrc/generated/``, ``gen_native_stubs.py``): the same ``--check`` /
``--out-dir`` options (``--check`` only for the stub), and either write the files
or compare them byte for byte with a fresh generation, the writing through one
writer, :func:`write_whole`: a file is the old one or the new one, never a part
(Ctrl-C half-way, a full disk).
Standard library only: the generators run before the extension is built.

    import gen_output
    gen_output.add_arguments(parser, "ofc_tables.c / .h")
    return gen_output.write_or_check(files, "tools/gen_tables.py", args.check)
"""

from __future__ import annotations

import argparse
import contextlib
import os
import uuid
from pathlib import Path

GENERATED = Path(__file__).resolve().parent.parent / "csrc" / "generated"
"""Where the generated sources and headers of the C library live."""


def add_arguments(parser: argparse.ArgumentParser, names: str) -> None:
    """Add ``--check`` and ``--out-dir`` (default ``csrc/generated/``) to ``parser``;
    ``names`` says which files the generator writes."""
    parser.add_argument(
        "--check",
        action="store_true",
        help="compare with the committed files instead of writing them (exit 1 on a change)",
    )
    parser.add_argument(
        "--out-dir",
        type=_folder,
        default=GENERATED,
        help=f"directory for {names} (default: csrc/generated/)",
    )


def _folder(text: str) -> Path:
    """``--out-dir``: a folder that is there; else argparse's error (exit status 2),
    before the generation, rather than a traceback when the first file is written."""
    path = Path(text)
    if not path.is_dir():
        raise argparse.ArgumentTypeError(f"no folder {text!r}")
    return path


def write_or_check(files: dict[Path, str], generator: str, check: bool) -> int:
    """Write ``files`` (path -> text, LF line ends), or with ``check`` compare each with
    the file on disk byte for byte (the UTF-8 bytes :func:`write_whole` would write,
    so CRLF line ends from a checkout are a change): 0 when all are the same
    ("unchanged"), else 1 with each stale path named."""
    if check:
        stale = [
            path for path, text in files.items() if _bytes(path) != text.encode("utf-8")
        ]
        for path in stale:
            print(f"stale: {path} differs from a fresh run of {generator}")
        if not stale:
            print("unchanged")
        return 1 if stale else 0
    write_whole(files)
    for path in files:
        print(f"wrote {path}")
    return 0


def _bytes(path: Path) -> bytes | None:
    """The bytes of the file ``path``, as they are on disk; None where there is none."""
    try:
        return path.read_bytes()
    except FileNotFoundError:
        return None


def write_whole(files: dict[Path, str]) -> None:
    """Write ``files`` (path -> text; UTF-8, the line ends as they are) whole or not
    at all: each text goes to a temporary file beside its path, flushed to disk, and
    only when every one is there are they renamed over the paths (a file keeps its
    mode; a new one gets the umask's; a symbolic link stays one, the file it leads
    to replaced).  An error or Ctrl-C before the renames removes the temporary files
    and leaves every path as it was; a file that cannot be written stops the
    generator with one line naming it (exit status 1), not a traceback naming its
    temporary file."""
    staged: list[tuple[Path, Path]] = []
    target = Path()
    try:
        for path, text in files.items():
            target = Path(os.path.realpath(path))
            tmp = target.with_name(f".{target.name}.{uuid.uuid4().hex[:12]}.tmp")
            staged.append((tmp, target))
            _write_beside(tmp, target, text.encode("utf-8"))
        for tmp, target in staged:
            os.replace(tmp, target)
    except BaseException as exc:
        for tmp, _ in staged:
            with contextlib.suppress(OSError):
                tmp.unlink()
        if isinstance(exc, OSError):
            raise SystemExit(f"cannot write {target}: {exc.strerror}") from None
        raise


def _write_beside(tmp: Path, target: Path, data: bytes) -> None:
    """``data`` in the new file ``tmp``, with the mode of ``target`` where it is
    there, on disk when this returns."""
    fd = os.open(tmp, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o666)  # (less the umask)
    with open(fd, "wb") as f:
        with contextlib.suppress(FileNotFoundError):
            os.chmod(tmp, target.stat().st_mode & 0o7777)
        f.write(data)
        f.flush()
        os.fsync(f.fileno())
