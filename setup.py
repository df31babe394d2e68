"""Build script: compiles the cffi extension ``ofc_fast._ofc`` from ``csrc/``.

Everything else (metadata, dependencies, extras) is in ``pyproject.toml``.
"""

from __future__ import annotations

import platform
import re
import sysconfig
from pathlib import Path

from setuptools import Extension, setup

try:
    from wheel.bdist_wheel import bdist_wheel as _bdist_wheel
except ImportError:  # setuptools >= 70 ships its own
    from setuptools.command.bdist_wheel import bdist_wheel as _bdist_wheel


def _version() -> str:
    """The one version of the project: OFC_VERSION_STRING in the C header."""
    header = (Path(__file__).parent / "csrc" / "ofc_fast.h").read_text(encoding="utf-8")
    match = re.search(r'#define OFC_VERSION_STRING "([^"]+)"', header)
    if not match:
        raise RuntimeError("OFC_VERSION_STRING not found in csrc/ofc_fast.h")
    return match.group(1)


def _abi3_ok() -> bool:
    """abi3 (stable ABI) wheels: CPython only, and not the free-threaded build."""
    return (platform.python_implementation() == "CPython"
            and not sysconfig.get_config_var("Py_GIL_DISABLED"))


class bdist_wheel(_bdist_wheel):
    """``bdist_wheel`` that tags the wheel ``abi3`` (cp310) when the limited API is used."""

    def finalize_options(self) -> None:
        """Set ``py_limited_api`` when the limited API is used."""
        if _abi3_ok():
            self.py_limited_api = "cp310"
        super().finalize_options()


def _speedups() -> list[Extension]:
    """The METH_FASTCALL per-call rankers (CPython only; PyPy uses the cffi path)."""
    if platform.python_implementation() != "CPython":
        return []
    abi3 = _abi3_ok()
    return [Extension(
        "ofc_fast._speedups",
        sources=["ofc_fast/_speedups.c", "csrc/ofc_rank.c", "csrc/ofc_tables.c"],
        include_dirs=["csrc"],
        define_macros=[("Py_LIMITED_API", "0x030A0000")] if abi3 else [],
        py_limited_api=abi3,
    )]


setup(
    version=_version(),
    ext_modules=_speedups(),
    cffi_modules=["ofc_fast/_build.py:ffibuilder"],
    cmdclass={"bdist_wheel": bdist_wheel},
)
