"""Every docstring example of the installed package runs and gives what it shows."""

from __future__ import annotations

import doctest
import importlib
import pkgutil

import pytest

import ofc_fast

# Every module, the private ones too (a package's helpers live in its ``_modules``),
# but the entry point and the compiled layer ``ofc_fast._native``.
MODULES = sorted(
    m.name
    for m in pkgutil.walk_packages(ofc_fast.__path__, "ofc_fast.")
    if not m.name.endswith(".__main__") and not m.name.startswith("ofc_fast._native")
)


# Packages of optional extras a module may need (ofc_fast.env.sb3: rl-train).
OPTIONAL = {"stable_baselines3": "rl-train", "sb3_contrib": "rl-train", "torch": "rl-train"}


@pytest.mark.parametrize("name", ["ofc_fast"] + MODULES)
def test_docstring_examples(name: str) -> None:
    try:
        module = importlib.import_module(name)
    except ImportError as exc:
        top = (exc.name or "").split(".")[0]
        if top not in OPTIONAL:
            raise
        pytest.skip(f"{name} needs {top}: pip install .[{OPTIONAL[top]}]")
    result = doctest.testmod(module, optionflags=doctest.ELLIPSIS)
    assert result.failed == 0, f"{result.failed} doctest(s) failed in {name}"
