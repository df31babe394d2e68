"""``ofc-fast serve``: an HTTP/JSON API (``/v1``, described by ``/openapi.json``) and a
web app (``/``: play against the bots, analyse a position, replay a hand history)
over the same functions as the Python API.  Needs the ``serve`` extra (uvicorn); the
rest of ofc_fast never imports this package.

>>> from ofc_fast.serve import ServeConfig, create_app
>>> create_app(ServeConfig(workers=1)).config.workers
1
"""

from __future__ import annotations

from ._app import App, create_app
from ._config import ServeConfig

__all__ = ["App", "ServeConfig", "create_app"]
