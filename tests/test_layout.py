"""The package's layering: no module
reaches into another module's private names.

A name starting with one underscore is private to the module that defines it (and a
module starting with one to its package).  The compiled layer, ``ofc_fast._native``, is
the one exception: every module may import it.
"""

from __future__ import annotations

import ast
from pathlib import Path

import pytest

PACKAGE = Path(__file__).resolve().parent.parent / "ofc_fast"
# The namedtuple API (public despite the underscore).
NAMEDTUPLE_API = {"_replace", "_asdict", "_fields", "_make"}

pytestmark = pytest.mark.skipif(
    not PACKAGE.is_dir(), reason="needs the source tree (git clone)"
)


def _modules() -> list[Path]:
    return sorted(PACKAGE.rglob("*.py"))


def _private(name: str) -> bool:
    return name.startswith("_") and not name.startswith("__")


def _absolute(path: Path, node: ast.ImportFrom) -> list[str]:
    """The imported module's dotted path, as a list of names below ``ofc_fast``."""
    here = list(path.relative_to(PACKAGE).with_suffix("").parts)[:-1]
    if node.level:
        base = here[: len(here) - (node.level - 1)] if node.level > 1 else here
    else:
        names = (node.module or "").split(".")
        return names[1:] if names[0] == "ofc_fast" else ["<third party>"]
    return base + [p for p in (node.module or "").split(".") if p]


def _defined_here(tree: ast.AST) -> set[str]:
    """Private names this module defines: functions, classes, attributes it assigns,
    ``__slots__`` entries."""
    out: set[str] = set()
    for node in ast.walk(tree):
        if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)):
            out.add(node.name)
        elif isinstance(node, ast.Attribute) and isinstance(node.ctx, ast.Store):
            out.add(node.attr)
        elif isinstance(node, ast.Name) and isinstance(node.ctx, ast.Store):
            out.add(node.id)
        elif isinstance(node, ast.Constant) and isinstance(node.value, str):
            out.add(node.value)  # __slots__ entries, setattr names
    return {n for n in out if _private(n)}


def _findings(path: Path, text: str | None = None) -> list[str]:
    """What ``path`` (a module of the package; ``text``: its source, else read) reaches
    into."""
    tree = ast.parse(path.read_text(encoding="utf-8") if text is None else text)
    here = path.relative_to(PACKAGE).parts[:-1]
    own = _defined_here(tree)
    found = []
    for node in ast.walk(tree):
        if isinstance(node, ast.ImportFrom) and node.module != "__future__":
            target = _absolute(path, node)
            if target and target[0] == "_native":
                continue
            for i, part in enumerate(target):
                if _private(part) and tuple(target[:i]) != tuple(here):
                    found.append(f"{node.lineno}: imports the private module {part}")
            for alias in node.names:
                if _private(alias.name):
                    found.append(f"{node.lineno}: imports the private name {alias.name}")
        elif isinstance(node, ast.Attribute) and _private(node.attr):
            value = node.value
            if isinstance(value, ast.Name) and value.id in ("self", "cls"):
                continue
            if node.attr in own or node.attr in NAMEDTUPLE_API:
                continue
            found.append(f"{node.lineno}: reads {ast.unparse(node)}")
    return found


@pytest.mark.parametrize("path", _modules(), ids=lambda p: str(p.relative_to(PACKAGE)))
def test_no_module_uses_another_modules_private_names(path: Path) -> None:
    assert _findings(path) == []


def test_the_check_finds_a_private_import_and_a_private_attribute(tmp_path: Path) -> None:
    """The check itself: both kinds of reach are found (so the test above can fail)."""
    probe = PACKAGE / "game" / "probe.py"  # never written: the source is given
    found = _findings(
        probe,
        "from ..env.vector import _helper\n"
        "from ..game._private import x\n"
        "from ..env._private import z\n"
        "from ._own import y\n"
        "from .engine import check_seed\n"
        "def f(env):\n"
        "    return env._actions\n",
    )
    assert found == [
        "1: imports the private name _helper",
        "3: imports the private module _private",
        "7: reads env._actions",
    ]
