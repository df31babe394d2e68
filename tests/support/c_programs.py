"""Build and run a C program against the library sources (csrc/), the way the
documentation tests compile the README's and the headers' examples: C99 with
``-Wall -Wextra -Werror -pedantic``, then run to exit status 0."""

from __future__ import annotations

import shutil
import subprocess
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
CSRC = ROOT / "csrc"
COMPILER: str | None = shutil.which("gcc") or shutil.which("cc")
"""The C compiler the tests use (None: the tests that need one skip)."""


_FLAGS = ["-std=c99", "-O1", "-Wall", "-Wextra", "-Werror", "-pedantic"]


def compile_library(workdir: Path) -> list[str]:
    """Compile every ``csrc/ofc_*.c`` once into objects in ``workdir`` (for several
    programs to link against)."""
    assert COMPILER is not None
    objects = []
    for src in sorted(CSRC.glob("ofc_*.c")):
        obj = workdir / f"{src.stem}.o"
        subprocess.run(
            [COMPILER, *_FLAGS, f"-I{CSRC}", "-c", str(src), "-o", str(obj)], check=True
        )
        objects.append(str(obj))
    return objects


def build_and_run(
    source: str, workdir: Path, name: str, library: list[str] | None = None
) -> str:
    """Compile ``source`` with the library (``library``: objects from
    :func:`compile_library`, else every ``csrc/ofc_*.c``) into ``workdir/name``, run it
    and return its standard output (CalledProcessError when either step fails)."""
    assert COMPILER is not None
    src = workdir / f"{name}.c"
    src.write_text(source, encoding="utf-8")
    exe = workdir / name
    parts = library if library is not None else sorted(str(p) for p in CSRC.glob("ofc_*.c"))
    subprocess.run(
        [COMPILER, *_FLAGS, f"-I{CSRC}", str(src), *parts, "-o", str(exe)], check=True
    )
    return subprocess.run([str(exe)], check=True, capture_output=True, text=True).stdout
