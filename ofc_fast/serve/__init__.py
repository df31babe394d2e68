"""``ofc-fast serve``: an HTTP/JSON API (``/v1``, described by ``/openapi.json``) and a
web app (``/``: play against the bots, analyse a position, replay a hand history)
over the same functions as the Python API.  Needs the ``serve`` extra (uvicorn); the
rest of ofc_fast never imports this package.

Its names are imported when first asked for (:func:`__getattr__`): ``ofc-fast``
builds its ``serve`` subcommand from :mod:`ofc_fast.serve.cli` without the web
server's modules (asyncio among them), which every other command would load for
nothing.

>>> from ofc_fast.serve import ServeConfig, create_app
>>> create_app(ServeConfig(workers=1)).config.workers
1
"""

from __future__ import annotations

import importlib
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from ._app import App, create_app
    from ._config import ServeConfig

__all__ = ["App", "ServeConfig", "create_app"]

_MODULES = {"App": "._app", "create_app": "._app", "ServeConfig": "._config"}
"""The module that defines each name of :data:`__all__`."""


def __getattr__(name: str) -> Any:
    """One of :data:`__all__`, imported from its module on first use (then kept in
    the package's namespace); AttributeError for any other name."""
    if name not in _MODULES:
        raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
    value = getattr(importlib.import_module(_MODULES[name], __name__), name)
    globals()[name] = value
    return value


def __dir__() -> list[str]:
    """The package's names with :data:`__all__`'s, imported or not yet."""
    return sorted(set(globals()) | set(__all__))
