"""The packages whose names are imported when first asked for (:mod:`ofc_fast.lazy`):
each name is the object its module defines, the names are those mypy and the API
pages read (the ``if TYPE_CHECKING:`` imports), and any other name is an
AttributeError."""

from __future__ import annotations

import ast
import importlib
from pathlib import Path

import pytest

LAZY_PACKAGES = (
    "ofc_fast.parallel",
    "ofc_fast.arena",
    "ofc_fast.serve",
    "ofc_fast.learned",
    "ofc_fast",
)


def _type_checking_imports(package: str) -> dict[str, tuple[str, str | None]]:
    """The names the ``if TYPE_CHECKING:`` block of ``package``'s ``__init__`` imports:
    name in the package -> (absolute module, name in that module), or (the
    submodule, None) for one of the package's submodules (``from . import rules``)."""
    path = Path(importlib.import_module(package).__file__ or "")
    tree = ast.parse(path.read_text(encoding="utf-8"))
    block = next(
        node
        for node in tree.body
        if isinstance(node, ast.If) and ast.unparse(node.test) == "TYPE_CHECKING"
    )
    names: dict[str, tuple[str, str | None]] = {}
    for node in block.body:
        assert isinstance(node, ast.ImportFrom) and node.level == 1, ast.unparse(node)
        for alias in node.names:
            if node.module is None:  # (a submodule)
                names[alias.asname or alias.name] = (f"{package}.{alias.name}", None)
            else:
                names[alias.asname or alias.name] = (f"{package}.{node.module}", alias.name)
    return names


def _object(module: str, attr: str | None) -> object:
    """The object an entry of :func:`_type_checking_imports` names."""
    loaded = importlib.import_module(module)
    return loaded if attr is None else getattr(loaded, attr)


@pytest.mark.parametrize("package", LAZY_PACKAGES)
def test_every_lazy_name_is_its_modules_object(package: str) -> None:
    """Each name a package imports on first use (``ofc_fast.parallel`` and
    ``ofc_fast.arena`` imported all their modules, multiprocessing and the arena host
    among them, on every ``ofc-fast --help``) is the very object of the module that
    defines it, ``__all__`` among them, and ``dir()`` lists them."""
    pkg = importlib.import_module(package)
    names = _type_checking_imports(package)
    assert set(pkg.__all__) <= set(names)
    for name, (module, attr) in names.items():
        assert getattr(pkg, name) is _object(module, attr), name
    assert set(names) <= set(dir(pkg))


@pytest.mark.parametrize("package", LAZY_PACKAGES)
def test_lazy_names_are_the_type_checking_imports(package: str) -> None:
    """In a fresh interpreter, the names a package imports when first asked for
    (``dir()`` but not yet in its namespace) are exactly those of its ``if
    TYPE_CHECKING:`` block (what mypy and the API pages see), none imported yet;
    ``from PACKAGE import *`` gets each name of ``__all__``."""
    from scripts import last_json_line

    lazy, star, path = last_json_line(f"""if True:
        import json, {package} as pkg
        lazy = sorted(set(dir(pkg)) - set(vars(pkg)))
        exec("from {package} import *", star := {{}})
        print(json.dumps([lazy, sorted(set(star) - {{"__builtins__"}}), pkg.__file__]))
    """)
    pkg = importlib.import_module(package)
    assert path == pkg.__file__  # (the package under test)
    assert lazy == sorted(_type_checking_imports(package))
    assert star == sorted(pkg.__all__)


@pytest.mark.parametrize("package", LAZY_PACKAGES)
def test_an_unknown_name_is_an_attribute_error_naming_it(package: str) -> None:
    """A name the package lacks is an AttributeError that names the package and the
    name (``hasattr`` is False), as for any module."""
    pkg = importlib.import_module(package)
    with pytest.raises(
        AttributeError, match=f"module '{package}' has no attribute 'nosuch'"
    ):
        pkg.nosuch  # noqa: B018
    assert not hasattr(pkg, "nosuch")
    with pytest.raises(ImportError, match="nosuch"):
        exec(f"from {package} import nosuch", {})


def _modules_after(code: str) -> set[str]:
    """The modules a fresh interpreter holds after ``import ofc_fast`` and ``code``."""
    from scripts import last_json_line

    return set(
        last_json_line(f"""if True:
        import json, sys, ofc_fast
        {code}
        print(json.dumps(sorted(sys.modules)))
    """)
    )


def test_import_ofc_fast_loads_no_search() -> None:
    """Regression: ``import ofc_fast`` (every script and every ``ofc-fast`` command)
    imported the search package, the learned model with its files and tempfile
    modules (about 30 ms of each start) for ``advise``, ``best_completion`` and
    ``Advice``, which the ranking, boards, scoring and Game do not need.  They are
    now imported when first used, and are still the search package's objects."""
    loaded = _modules_after("ofc_fast.Game, ofc_fast.rank5, ofc_fast.score_pair")
    lazy = {"ofc_fast.search", "ofc_fast.learned", "ofc_fast.files", "tempfile"}
    assert sorted(lazy & loaded) == []
    assert {"ofc_fast.game", "ofc_fast.ranking", "ofc_fast.scoring"} <= loaded
    import ofc_fast
    import ofc_fast.search

    assert ofc_fast.advise is ofc_fast.search.advise


def test_import_ofc_fast_loads_nothing_heavy() -> None:
    """Regression: ``import ofc_fast``, which the ``ofc-fast`` command runs before
    its Ctrl-C handling is in place, loaded NumPy, the C library and the core (0.2 s
    and more), so that a Ctrl-C in the first tenths of a second of any command was a
    KeyboardInterrupt traceback.  Every name of the package now loads on first use;
    the package's submodules are still its attributes (``ofc_fast.rules``)."""
    loaded = _modules_after("pass")
    assert sorted(m for m in loaded if m.startswith("ofc_fast")) == [
        "ofc_fast",
        "ofc_fast.lazy",
    ]
    assert "numpy" not in loaded
    used = _modules_after("assert ofc_fast.game.Game is ofc_fast.Game, ofc_fast.rules")
    assert {"numpy", "ofc_fast.game", "ofc_fast.rules"} <= used


def test_import_ofc_fast_loads_no_solver() -> None:
    """Regression: ``import ofc_fast`` imported the Fantasyland solver (about 1 ms of
    each start) for ``solve_fantasyland``, ``best_setting``, ``Solution`` and
    ``STAY_VALUE_DEFAULT``; they are now imported when first used."""
    assert "ofc_fast.solver" not in _modules_after("pass")
    assert "ofc_fast.solver" in _modules_after("ofc_fast.best_setting")


def test_import_ofc_fast_loads_no_secrets() -> None:
    """Regression: ``import ofc_fast`` imported ``secrets`` (with hashlib and hmac,
    about 3 ms of each start) for the seed of a Game or Match given none; it is now
    imported on the first such draw (``ofc_fast.table.random_seed``), which still
    gives a seed 0..2**64-1."""
    crypto = {"secrets", "hmac", "hashlib"}
    assert sorted(crypto & _modules_after("pass")) == []
    drawn = _modules_after("assert 0 <= ofc_fast.Game('ofc', players=2).seed < 2**64")
    assert "secrets" in drawn
