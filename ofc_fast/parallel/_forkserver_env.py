"""The first module the forkserver preloads: it sets back, in the forkserver itself,
the environment variables it was started with changed (its ``PYTHONPATH``, the
parent's ``sys.path``), so that every process the forkserver starts (our workers, a
user's own forkserver pool) has the parent's environment.  The forkserver's
``sys.path`` was computed from ``PYTHONPATH`` when it started and stays as it is.

The parent's values travel in :data:`SAVED` (JSON, null: not set), which is removed.
"""

from __future__ import annotations

import json
import os

SAVED = "_OFC_FAST_FORKSERVER_ENV"
"""The private variable holding the variables to set back (a JSON object)."""


def set_environ(values: dict[str, str | None]) -> None:
    """Set each variable of ``values`` in ``os.environ``, removing those that are
    None (not set)."""
    for key, value in values.items():
        if value is None:
            os.environ.pop(key, None)
        else:
            os.environ[key] = value


def restore() -> None:
    """Set back the variables saved in :data:`SAVED`, and remove it (no-op where it
    is not set)."""
    saved = os.environ.pop(SAVED, None)
    if saved is not None:
        set_environ(json.loads(saved))


restore()
