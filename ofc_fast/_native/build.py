"""cffi builder (API / out-of-line mode) for ``ofc_fast._native._ofc``.

``setup.py`` names this file in ``cffi_modules``.  The C library is compiled once, as
the static library :data:`LIBRARY` (``setup.py``'s ``build_clib`` step, from
:func:`library_sources`), and linked into both extension modules: this one and the
fast-call extension ``_speedups``; ``set_source`` compiles only cffi's glue.
The declarations cffi needs are extracted from the public headers ``csrc/include/ofc_*.h``
themselves (:func:`cdef_from_headers`): there is no second, hand-written copy of
them.  This file builds the wheel; it is not shipped inside it (setup.py leaves it out).
"""

from __future__ import annotations

import glob
import os
import re
import sys
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from cffi import FFI

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(os.path.dirname(HERE))
CSRC = os.path.join(ROOT, "csrc")
# The layers of csrc/: the public headers, the private sources and headers, and the
# generated tables (each a directory of the include path).
LAYERS = ("include", "src", "generated")
INCLUDE = os.path.join(CSRC, "include")
# The static C library linked into both extension modules (setup.py builds it).
LIBRARY = "ofc_fast_c"
# Where the compiler finds the library's headers (relative to the repository root).
INCLUDE_DIRS = [f"csrc/{layer}" for layer in LAYERS]
# Public C headers cffi does not declare (the static inline rankers, and the OFC_API
# export macro, which :func:`_expand` drops from the declarations).
PRIVATE = ("ofc_export.h", "ofc_inline.h")

_COMMENT = re.compile(r"/\*.*?\*/|//[^\n]*", re.DOTALL)
_INCLUDE = re.compile(r'#\s*include\s+"([^"]+)"')
_OFC_API = re.compile(r"\bOFC_API\s+")  # ofc_export.h's mark: no C type for cffi
_DEFINE = re.compile(r"#\s*define\s+(\w+)(\(?)\s*(.*)$")
_INT = re.compile(r"\(?\s*(-?\s*(?:0x[0-9a-fA-F]+|\d+))[uUlL]*\s*\)?$")
_FLOAT = re.compile(r"\(?\s*-?\s*\d+\.\d*(?:[eE][-+]?\d+)?\s*\)?$")


def public_headers(csrc: str = INCLUDE) -> list[str]:
    """The headers cffi declares (every ``csrc/include/ofc_*.h`` but the inline
    rankers)."""
    names = sorted(os.path.basename(p) for p in glob.glob(os.path.join(csrc, "ofc_*.h")))
    return [n for n in names if n not in PRIVATE]


def _define(line: str) -> str:
    """The cdef form of one ``#define`` line: integer literals as they are, other
    integer expressions as ``...`` (their value comes from the compiler), floating
    constants as ``static const double``; guards, strings and macros with
    arguments are not declarations and give ''."""
    match = _DEFINE.match(line)
    if not match or match.group(2) or not match.group(3):
        return ""
    name, value = match.group(1), match.group(3).strip()
    if value.startswith('"'):
        return ""
    integer = _INT.match(value)
    if integer:
        return f"#define {name} {integer.group(1).replace(' ', '')}"
    if _FLOAT.match(value):
        return f"static const double {name};"
    return f"#define {name} ..."


def _expand(name: str, csrc: str, public: list[str], seen: set[str]) -> list[str]:
    """The declaration lines of one header with its public includes expanded in
    place, each header once (what the preprocessor sees, guards included):
    comments, guards, the C++ ``extern "C"`` wrapper and the ``OFC_API`` marks
    removed; ``#define`` lines as :func:`_define` gives them."""
    seen.add(name)
    with open(os.path.join(csrc, name), encoding="utf-8") as f:
        text = _COMMENT.sub(" ", f.read()).replace("\\\n", " ")
    out = [f"/* {name} */"]
    skipping = False
    for line in text.splitlines():
        stripped = line.strip()
        include = _INCLUDE.match(stripped)
        if stripped.startswith("#ifdef __cplusplus"):
            skipping = True
        elif skipping:
            skipping = not stripped.startswith("#endif")
        elif include:
            dep = include.group(1)
            if dep in public and dep not in seen:
                out += _expand(dep, csrc, public, seen)
        elif stripped.startswith("#define"):
            out.append(_define(stripped))
        elif stripped and not stripped.startswith("#"):
            out.append(_OFC_API.sub("", line.rstrip()))
    return [line for line in out if line]


def cdef_from_headers(csrc: str = INCLUDE) -> str:
    """The declarations of every public header for ``FFI.cdef``, in the order a C
    file including them all sees them."""
    public = public_headers(csrc)
    seen: set[str] = set()
    lines: list[str] = []
    for name in public:
        if name not in seen:
            lines += _expand(name, csrc, public, seen)
    return "\n".join(lines) + "\n"


def library_sources(root: str = ROOT) -> list[str]:
    """Every C source of the library, relative to ``root``: ``csrc/src/ofc_*.c`` and
    the generated ``csrc/generated/ofc_*.c`` (the one list of them).

    >>> "csrc/src/ofc_rank.c" in library_sources()
    True
    """
    return _layer_files(root, "ofc_*.c")


def library_inputs(root: str = ROOT) -> list[str]:
    """Every file the library is compiled from, relative to ``root``: its sources and
    every header of csrc/ (what an extension linking it must be rebuilt after).

    >>> "csrc/include/ofc_game.h" in library_inputs()
    True
    """
    return library_sources(root) + _layer_files(root, "ofc_*.h")


def _layer_files(root: str, pattern: str) -> list[str]:
    """The files of csrc/'s layers matching ``pattern``, relative to ``root``."""
    return sorted(
        os.path.relpath(p, root).replace(os.sep, "/")
        for layer in LAYERS
        for p in glob.glob(os.path.join(root, "csrc", layer, pattern))
    )


def library(root: str = ROOT) -> tuple[str, dict[str, object]]:
    """The C library as setuptools' ``libraries`` entry (``build_clib``): compiled
    once with the release flags, linked into both extension modules.  With gcc /
    clang its functions are hidden (not exported by either module) and each in its
    own section, so that each module keeps only the code it calls (see
    :func:`release_flags`): ``_speedups`` links a small part of the library."""
    unix = [] if sys.platform == "win32" else _SECTIONS
    return (
        LIBRARY,
        {
            "sources": library_sources(root),
            "include_dirs": INCLUDE_DIRS,
            "cflags": compile_args() + unix,
        },
    )


# gcc / clang: the library's functions hidden, one section each (dropped when unused).
_SECTIONS = ["-fvisibility=hidden", "-ffunction-sections", "-fdata-sections"]


def release_flags() -> tuple[list[str], list[str]]:
    """Compile and link flags of a release extension (setup.py adds them to the
    fast-call extension too): no debug information -- gcc / clang compile with -g0
    and, on ELF targets, link with -s (symbols stripped) -- and the library's unused
    sections dropped at link time (--gc-sections, -dead_strip on macOS); MSVC adds
    debug information only when asked (/Zi), so nothing there."""
    if sys.platform == "win32":
        return [], []
    if sys.platform == "darwin":
        return ["-g0"], ["-Wl,-dead_strip"]
    return ["-g0"], ["-s", "-Wl,--gc-sections"]


def compile_args() -> list[str]:
    """Optimisation flags for the compiler in use (none that MSVC would reject)."""
    if sys.platform == "win32":
        return ["/O2"]
    return ["-O3", "-std=c99"] + release_flags()[0]


def make_builder() -> FFI:
    """The cffi builder of ``ofc_fast._native._ofc``."""
    from cffi import FFI

    builder = FFI()
    builder.cdef(cdef_from_headers())
    builder.set_source(
        "ofc_fast._native._ofc",
        "\n".join(f'#include "{name}"' for name in public_headers()),
        include_dirs=INCLUDE_DIRS,
        libraries=[LIBRARY],
        extra_compile_args=compile_args(),
        extra_link_args=release_flags()[1],
    )
    return builder


ffibuilder = make_builder()
