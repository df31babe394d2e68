"""Files that a kill never leaves half-written: a model file of ``write_model``, the
training command's steps, model and report, and (through the package's re-export)
the self-play shards and manifests of :mod:`ofc_fast.parallel`."""

from __future__ import annotations

import contextlib
import os
from pathlib import Path

__all__ = ["atomic_write"]


def atomic_write(path: Path, data: bytes) -> None:
    """Write ``data`` to ``<path>.tmp`` beside ``path``, flushed to disk, then rename
    it over ``path``: a reader (or a resumed run) sees the old file or the new one,
    never a part of it.  A write or rename that fails (a full disk, a folder at
    ``path``, Ctrl-C) removes the temporary file: ``path`` is as it was."""
    tmp = path.with_name(path.name + ".tmp")
    opened = False  # (a tmp that could not be opened is not ours to remove)
    try:
        with open(tmp, "wb") as f:
            opened = True
            f.write(data)
            f.flush()
            os.fsync(f.fileno())
        os.replace(tmp, path)
    except BaseException:
        if opened:
            with contextlib.suppress(OSError):
                tmp.unlink()
        raise
