"""Build script: compiles the C library in ``csrc/`` once, as a static library
(``build_clib``), and links it into the cffi extension ``ofc_fast._native._ofc`` (its
builder is ofc_fast/_native/build.py, kept out of the wheel) and, on CPython, into the
fast-call extension ``ofc_fast._native._speedups``; all without debug information.

Everything else (metadata, dependencies, extras) is in ``pyproject.toml``.
"""

from __future__ import annotations

import platform
import re
import runpy
import sysconfig
from pathlib import Path
from typing import Any

from setuptools import Extension, setup
from setuptools.command.build_ext import build_ext as _build_ext
from setuptools.command.build_py import build_py as _build_py

try:
    from wheel.bdist_wheel import bdist_wheel as _bdist_wheel
except ImportError:  # setuptools >= 70 ships its own
    try:
        from setuptools.command.bdist_wheel import bdist_wheel as _bdist_wheel
    except ImportError:  # an older setuptools alone: it builds no wheel, only build_ext
        _bdist_wheel = None


def _version() -> str:
    """The one version of the project: OFC_VERSION_STRING in the C header."""
    header = (Path(__file__).parent / "csrc" / "include" / "ofc_fast.h").read_text(
        encoding="utf-8"
    )
    match = re.search(r'#define OFC_VERSION_STRING "([^"]+)"', header)
    if not match:
        raise RuntimeError("OFC_VERSION_STRING not found in csrc/include/ofc_fast.h")
    return match.group(1)


def _abi3_ok() -> bool:
    """abi3 (stable ABI) wheels: CPython only, and not the free-threaded build."""
    return platform.python_implementation() == "CPython" and not sysconfig.get_config_var(
        "Py_GIL_DISABLED"
    )


class bdist_wheel(_bdist_wheel or object):
    """``bdist_wheel`` that tags the wheel ``abi3`` (cp310) when the limited API is used."""

    def finalize_options(self) -> None:
        """Set ``py_limited_api`` when the limited API is used."""
        if _abi3_ok():
            self.py_limited_api = "cp310"
        super().finalize_options()


# The cffi build script: in the sdist (cffi_modules runs it), never in a wheel.
BUILD_SCRIPT = ("ofc_fast._native", "build")


class build_py(_build_py):
    """The package's modules minus the cffi build script."""

    def find_package_modules(self, package, package_dir):
        """The modules of ``package`` without ``_native/build.py``."""
        return [
            m
            for m in super().find_package_modules(package, package_dir)
            if (m[0], m[1]) != BUILD_SCRIPT
        ]


class build_ext(_build_ext):
    """``build_ext`` that builds the static C library first (also for
    ``build_ext --inplace`` and editable installs, which skip ``build``), and
    relinks each extension when a C source or header of the library is newer than it
    (setuptools compares an extension with its own sources and depends only)."""

    def finalize_options(self) -> None:
        """Make every extension depend on the library's sources and headers."""
        super().finalize_options()
        inputs = BUILD["library_inputs"]()
        for ext in self.extensions:
            ext.depends = [*ext.depends, *(f for f in inputs if f not in ext.depends)]

    def run(self) -> None:
        """Build the C library, then the extensions that link it."""
        self.run_command("build_clib")
        super().run()


def _build_script() -> dict[str, Any]:
    """The cffi build script's namespace: the C library (its one source list), the
    release flags (no debug information)."""
    script = Path(__file__).parent / "ofc_fast" / "_native" / "build.py"
    return runpy.run_path(str(script), run_name="ofc_fast_build")


BUILD = _build_script()


def _speedups() -> list[Extension]:
    """The METH_FASTCALL per-call builtins (CPython only; PyPy uses the portable
    twins), linked with the C library."""
    if platform.python_implementation() != "CPython":
        return []
    abi3 = _abi3_ok()
    compile_args, link_args = BUILD["release_flags"]()
    return [
        Extension(
            "ofc_fast._native._speedups",
            sources=["ofc_fast/_native/_speedups.c", "ofc_fast/_native/_plain_data.c"],
            include_dirs=BUILD["INCLUDE_DIRS"],
            libraries=[BUILD["LIBRARY"]],
            define_macros=[("Py_LIMITED_API", "0x030A0000")] if abi3 else [],
            py_limited_api=abi3,
            extra_compile_args=compile_args,
            extra_link_args=link_args,
        )
    ]


setup(
    version=_version(),
    # The C library, compiled once and linked into both extension modules.
    libraries=[BUILD["library"]()],
    ext_modules=_speedups(),
    cffi_modules=["ofc_fast/_native/build.py:ffibuilder"],
    cmdclass={"build_py": build_py, "build_ext": build_ext}
    | ({"bdist_wheel": bdist_wheel} if _bdist_wheel is not None else {}),
)
