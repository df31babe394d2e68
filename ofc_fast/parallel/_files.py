"""Files that a kill never leaves half-written (self-play shards and manifests, the
training command's steps, model and report)."""

from __future__ import annotations

import os
from pathlib import Path

__all__ = ["atomic_write"]


def atomic_write(path: Path, data: bytes) -> None:
    """Write ``data`` to ``<path>.tmp`` beside ``path``, flushed to disk, then rename
    it over ``path``: a reader (or a resumed run) sees the old file or the new one,
    never a part of it."""
    tmp = path.with_name(path.name + ".tmp")
    with open(tmp, "wb") as f:
        f.write(data)
        f.flush()
        os.fsync(f.fileno())
    os.replace(tmp, path)
