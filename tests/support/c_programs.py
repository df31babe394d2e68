"""Build and run a C program against the library sources (csrc/), the way the
documentation tests compile the README's and the headers' examples: C99 with
``-Wall -Wextra -Werror -pedantic``, then run to exit status 0."""

from __future__ import annotations

import shutil
import subprocess
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
CSRC = ROOT / "csrc"
SOURCES = sorted([*(CSRC / "src").glob("ofc_*.c"), *(CSRC / "generated").glob("ofc_*.c")])
"""Every library source: the private sources and the generated tables."""
INCLUDES = [f"-I{CSRC / layer}" for layer in ("include", "src", "generated")]
COMPILER: str | None = shutil.which("gcc") or shutil.which("cc")
"""The C compiler the tests use (None: the tests that need one skip)."""


_FLAGS = ["-std=c99", "-O1", "-Wall", "-Wextra", "-Werror", "-pedantic"]


def compile_object(src: Path, workdir: Path) -> str:
    """Compile one translation unit (``-c``, the flags above, the library's include
    directories) into ``workdir``; return the object's path (CalledProcessError, with
    the compiler's messages, when it does not compile)."""
    assert COMPILER is not None
    obj = workdir / f"{src.stem}.o"
    subprocess.run(
        [COMPILER, *_FLAGS, *INCLUDES, "-c", str(src), "-o", str(obj)],
        check=True,
        capture_output=True,
        text=True,
    )
    return str(obj)


def compile_library(workdir: Path) -> list[str]:
    """Compile every library source (:data:`SOURCES`) once into objects in ``workdir`` (for several
    programs to link against)."""
    return [compile_object(src, workdir) for src in SOURCES]


def build_and_run(
    source: str, workdir: Path, name: str, library: list[str] | None = None
) -> str:
    """Compile ``source`` with the library (``library``: objects from
    :func:`compile_library`, else every library source) into ``workdir/name``, run it
    and return its standard output (CalledProcessError when either step fails)."""
    src = workdir / f"{name}.c"
    src.write_text(source, encoding="utf-8")
    exe = build(src, workdir, library)
    return subprocess.run([str(exe)], check=True, capture_output=True, text=True).stdout


def build(src: Path, workdir: Path, library: list[str] | None = None) -> Path:
    """Compile the program ``src`` with the library (``library``: objects from
    :func:`compile_library`, else every library source) into ``workdir``; return the
    program's path (CalledProcessError when it does not build)."""
    assert COMPILER is not None
    exe = workdir / src.stem
    parts = library if library is not None else [str(p) for p in SOURCES]
    subprocess.run(
        [COMPILER, *_FLAGS, *INCLUDES, str(src), *parts, "-o", str(exe)], check=True
    )
    return exe
