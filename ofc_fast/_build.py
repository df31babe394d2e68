"""cffi builder (API / out-of-line mode) for ``ofc_fast._ofc``.

``setup.py`` names this file in ``cffi_modules``; every C source is compiled into the
extension by ``set_source`` (no separate C library to build, so editable installs work).
The declarations Python uses are in ``cdefs/*.h`` (subsets of ``csrc/ofc_fast.h``
and its companion headers that cffi's parser accepts).
"""

from __future__ import annotations

import glob
import os
import sys

from cffi import FFI

HERE = os.path.dirname(os.path.abspath(__file__))
CSRC = os.path.join(os.path.dirname(HERE), "csrc")
# Every library source: csrc/ofc_*.c (the generated tables included).
SOURCES = sorted(os.path.basename(p) for p in glob.glob(os.path.join(CSRC, "ofc_*.c")))


def _cdef() -> str:
    """Declarations for cffi: every ``cdefs/*.h`` (those others build on first), each a plain subset of
    the public C headers that cffi's parser accepts."""
    first = ("core.h", "naturals.h", "solver.h", "settle.h")  # what the others use
    files = sorted(glob.glob(os.path.join(HERE, "cdefs", "*.h")),
                   key=lambda p: (first.index(os.path.basename(p))
                                  if os.path.basename(p) in first else len(first), p))
    return "\n".join(open(p, encoding="utf-8").read() for p in files)


def _compile_args() -> list[str]:
    """Optimisation flags for the compiler in use (none that MSVC would reject)."""
    if sys.platform == "win32":
        return ["/O2"]
    return ["-O3", "-std=c99"]


ffibuilder = FFI()
ffibuilder.cdef(_cdef())
ffibuilder.set_source(
    "ofc_fast._ofc",
    "\n".join(f'#include "{os.path.basename(h)}"'
              for h in sorted(glob.glob(os.path.join(CSRC, "ofc_*.h")))
              if "_internal" not in h and not h.endswith(("ofc_tables.h", "ofc_inline.h"))),
    sources=[os.path.join("csrc", name) for name in SOURCES],
    include_dirs=["csrc"],
    extra_compile_args=_compile_args(),
)

if __name__ == "__main__":
    ffibuilder.compile(verbose=True)
