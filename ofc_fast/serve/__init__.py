"""``ofc-fast serve``: an HTTP/JSON API (``/v1``, described by ``/openapi.json``) and a
web app (``/``: play against the bots, analyse a position, replay a hand history)
over the same functions as the Python API.  Needs the ``serve`` extra (uvicorn); the
rest of ofc_fast never imports this package.

Its names are imported when first asked for (:mod:`ofc_fast.lazy`): ``ofc-fast``
builds its ``serve`` subcommand from :mod:`ofc_fast.serve.cli` without the web
server's modules (asyncio among them), which every other command would load for
nothing.

>>> from ofc_fast.serve import ServeConfig, create_app
>>> create_app(ServeConfig(workers=1)).config.workers
1
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from ..lazy import lazy_exports

__all__ = ["App", "ServeConfig", "create_app"]

if TYPE_CHECKING:
    from ._app import App, create_app
    from ._config import ServeConfig
else:  # (mypy reads the names above: one it lacks stays an error)
    __getattr__, __dir__ = lazy_exports(
        globals(), {"._app": ("App", "create_app"), "._config": ("ServeConfig",)}
    )
