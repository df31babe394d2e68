"""Every docstring example of the installed package runs and gives what it shows."""

from __future__ import annotations

import doctest
import importlib
import pkgutil

import pytest

import ofc_fast

MODULES = sorted(
    m.name
    for m in pkgutil.walk_packages(ofc_fast.__path__, "ofc_fast.")
    if not any(part.startswith("_") for part in m.name.split("."))
)


@pytest.mark.parametrize("name", ["ofc_fast"] + MODULES)
def test_docstring_examples(name: str) -> None:
    module = importlib.import_module(name)
    result = doctest.testmod(module, optionflags=doctest.ELLIPSIS)
    assert result.failed == 0, f"{result.failed} doctest(s) failed in {name}"
