"""Scripts of a source checkout (benchmarks/, tools/) loaded as modules by the tests."""

from __future__ import annotations

import importlib.util
from pathlib import Path
from types import ModuleType

import pytest

ROOT = Path(__file__).resolve().parents[2]


def load_script(path: Path, name: str | None = None) -> ModuleType:
    """The module a script file defines, executed once per call."""
    spec = importlib.util.spec_from_file_location(name or path.stem, path)
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def checkout_script(relative: str) -> ModuleType:
    """A script of the source checkout (``benchmarks/bench_search.py``), or a skip
    where the tests run without one."""
    path = ROOT / relative
    if not path.exists():
        pytest.skip(f"needs a source checkout (git clone: {relative})")
    return load_script(path)
