"""``ofc_fast.__version__``, read from the compiled C library (loaded on first use
of the name, as every name of :mod:`ofc_fast`)."""

from __future__ import annotations

from ._native import ffi, lib

__all__ = ["__version__"]

__version__: str = ffi.string(lib.ofc_version_string()).decode("ascii")
"""Version of the package, read from the compiled C library (OFC_VERSION_STRING)."""
