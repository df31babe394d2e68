"""Names of a package imported when first asked for (PEP 562): the one mechanism of
the packages whose ``__init__`` would otherwise import heavy modules on every
``ofc-fast`` command (:mod:`ofc_fast.parallel`: multiprocessing and
concurrent.futures; :mod:`ofc_fast.arena`: the arena host and its transports;
:mod:`ofc_fast.serve`: the web server; :mod:`ofc_fast.learned`: NumPy, which
``python -m ofc_fast.learned.train`` loads with Ctrl-C held) and of :mod:`ofc_fast`
itself, every name (NumPy, the C library, the search and its learned model, the
Fantasyland solver): ``import ofc_fast``, which the ``ofc-fast`` command runs before
its Ctrl-C handling is in place, loads none of them.  ``ofc-fast --help`` builds
every subcommand's parser from those packages' ``cli`` modules, which need none of
the heavy ones.

A package imports its names under ``if TYPE_CHECKING:``, where mypy and the API
pages read them, and lists them per module for :func:`lazy_exports` in the ``else``
branch (mypy, not seeing the package's ``__getattr__``, still refuses a name it
lacks)::

    __all__ = ["ServeConfig"]

    if TYPE_CHECKING:
        from ._config import ServeConfig
    else:
        __getattr__, __dir__ = lazy_exports(globals(), {"._config": ("ServeConfig",)})

``tests/test_lazy_exports.py`` checks that the two lists name the same objects.

An annotation naming what a module may not import when it loads (an optional extra:
``sb3_contrib``; a module that imports this one) names it through a
:func:`lazy_module` of the module that defines it, so that ``typing.get_type_hints``
(pydantic, typer, sphinx-autodoc, beartype) resolves it, importing it then::

    if TYPE_CHECKING:
        import sb3_contrib as _sb3_contrib
    else:
        _sb3_contrib = lazy_module("sb3_contrib")

    def load_ppo(path: str) -> _sb3_contrib.MaskablePPO: ...
"""

from __future__ import annotations

import importlib
from collections.abc import Callable, Mapping, Sequence
from typing import Any

__all__ = ["lazy_exports", "lazy_module"]


def lazy_exports(
    namespace: dict[str, Any], modules: Mapping[str, Sequence[str]]
) -> tuple[Callable[[str], Any], Callable[[], list[str]]]:
    """The module ``__getattr__`` and ``__dir__`` of the package whose globals are
    ``namespace``: ``modules`` maps a module (relative to the package, or absolute)
    to the names the package takes from it.

    ``__getattr__(name)`` imports the module of ``name`` on first use and keeps the
    value in the package's namespace (a later look-up finds it there); the names of
    module ``"."`` are the package's own submodules, the module itself each (``import
    ofc_fast; ofc_fast.rules``); any other name is an AttributeError naming the
    package and the name, as Python's own.
    ``__dir__()`` lists the package's names with the lazy ones, imported or not yet.

    >>> ns = {"__name__": "ofc_fast.arena"}
    >>> getattr_, dir_ = lazy_exports(ns, {"._games": ("GAME_IDS",)})
    >>> "GAME_IDS" in dir_(), "GAME_IDS" in ns
    (True, False)
    >>> getattr_("GAME_IDS") is ns["GAME_IDS"]
    True
    >>> getattr_ = lazy_exports({"__name__": "ofc_fast"}, {".": ("rules",)})[0]
    >>> getattr_("rules").__name__
    'ofc_fast.rules'
    >>> getattr_("nosuch")
    Traceback (most recent call last):
    AttributeError: module 'ofc_fast' has no attribute 'nosuch'
    """
    package = namespace["__name__"]
    module_of = {name: module for module, names in modules.items() for name in names}

    def __getattr__(name: str) -> Any:
        """A lazy name of the package, imported from its module on first use."""
        if name not in module_of:
            raise AttributeError(f"module {package!r} has no attribute {name!r}")
        module = module_of[name]
        if module == ".":  # (a submodule: the import sets it in the namespace too)
            value = importlib.import_module(f".{name}", package)
        else:
            value = getattr(importlib.import_module(module, package), name)
        namespace[name] = value
        return value

    def __dir__() -> list[str]:
        """The package's names with its lazy ones, imported or not yet."""
        return sorted(set(namespace) | set(module_of))

    return __getattr__, __dir__


class _LazyModule:
    """A stand-in for module ``name``, imported at the first attribute asked of it."""

    def __init__(self, name: str) -> None:
        self._lazy_name = name

    def __getattr__(self, attr: str) -> Any:
        if attr.startswith("__"):  # (what inspect, doctest and copy probe: not a name)
            raise AttributeError(attr)
        return getattr(importlib.import_module(self._lazy_name), attr)

    def __repr__(self) -> str:
        return f"<module {self._lazy_name!r} (imported when first used)>"


def lazy_module(name: str) -> Any:
    """Module ``name`` (absolute), imported when an attribute is first asked of it:
    what the annotations of a module name a class through, which that module may not
    import when it loads (see the module's text).

    >>> json = lazy_module("json")
    >>> json
    <module 'json' (imported when first used)>
    >>> json.loads("[1]")
    [1]
    """
    return _LazyModule(name)
