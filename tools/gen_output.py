"""The one output step of the generators of ``csrc/generated/`` (``gen_tables.py``,
``gen_opponent_rows.py``): the same ``--check`` / ``--out-dir`` options, and either
write the files or compare them byte for byte with a fresh generation.

    import gen_output
    gen_output.add_arguments(parser, "ofc_tables.c / .h")
    return gen_output.write_or_check(files, "tools/gen_tables.py", args.check)
"""

from __future__ import annotations

import argparse
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
    the file on disk: 0 when all are the same ("unchanged"), else 1 with each stale
    path named."""
    if check:
        stale = [
            path
            for path, text in files.items()
            if not path.exists() or path.read_text(encoding="utf-8") != text
        ]
        for path in stale:
            print(f"stale: {path} differs from a fresh run of {generator}")
        if not stale:
            print("unchanged")
        return 1 if stale else 0
    for path, text in files.items():
        path.write_text(text, encoding="utf-8", newline="\n")
        print(f"wrote {path}")
    return 0
