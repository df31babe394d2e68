"""A training run's output directory: its settings, its saved steps (each written
whole or not at all, so a resumed run reads each as it was saved) and the cost of
each.  Private to :mod:`ofc_fast.learned.train`."""

from __future__ import annotations

import io
import json
import time
import zipfile
from collections.abc import Callable
from pathlib import Path
from typing import Any, cast

import numpy as np

from ..errors import ModelError
from ..parallel import atomic_write

__all__ = ["Run", "read_json", "write_json"]


def write_json(path: Path, doc: Any, sort_keys: bool = False) -> None:
    """A run's JSON file, written whole or not at all (a kill leaves the old one)."""
    atomic_write(path, json.dumps(doc, indent=1, sort_keys=sort_keys).encode())


def read_json(path: Path) -> dict[str, Any]:
    """A run's JSON file, an object (ModelError naming it when it is damaged)."""
    try:
        doc = json.loads(path.read_text())
    except (OSError, ValueError) as exc:
        raise ModelError(f"{path}: a damaged run file ({exc})") from None
    if not isinstance(doc, dict):
        raise ModelError(f"{path}: a damaged run file (not a JSON object)")
    return doc


class Run:
    """The output directory: config check, saved steps and the cost of each."""

    def __init__(self, out: Path, config: dict[str, Any]) -> None:
        self.out = out  # (made by train, which holds its lock)
        cfg = out / "config.json"
        if cfg.exists():
            old = read_json(cfg)
            if old != config:
                keys = old.keys() | config.keys()  # a setting only one run has too
                differs = sorted(k for k in keys if old.get(k) != config.get(k))
                raise ModelError(
                    f"{out} holds a run with other settings; use another --out "
                    f"(differs in: {differs})"
                )
        else:
            write_json(cfg, config, sort_keys=True)
        cost = out / "cost.json"
        self.cost: dict[str, float] = read_json(cost) if cost.exists() else {}
        if not all(isinstance(v, (int, float)) for v in self.cost.values()):
            raise ModelError(f"{cost}: a damaged run file (not seconds by step)")

    def step(
        self,
        name: str,
        fn: Callable[[], dict[str, np.ndarray]],
        read: Callable[[dict[str, np.ndarray]], object],
    ) -> dict[str, np.ndarray]:
        """The arrays of step ``name``: read from its saved file, or made by ``fn``
        and saved (its cost kept in ``cost.json``).  ``read`` reads the arrays as the
        run uses them: a saved file it cannot read so (an array missing: a file of
        another run) is damaged, a ModelError naming it."""
        path = self.out / f"{name}.npz"
        if path.exists():
            try:
                with np.load(path) as f:
                    arrays = dict(f)
                read(arrays)
            except KeyError as exc:
                raise _damaged(path, f"no array {exc}") from None
            except (OSError, ValueError, TypeError, EOFError, zipfile.BadZipFile) as exc:
                raise _damaged(path, str(exc)) from None
            return arrays
        t0 = time.perf_counter()
        arrays = fn()
        buf = io.BytesIO()
        cast(Any, np.savez)(buf, **arrays)
        atomic_write(path, buf.getvalue())
        self.cost[name] = round(time.perf_counter() - t0, 2)
        write_json(self.out / "cost.json", self.cost)
        return arrays


def _damaged(path: Path, why: str) -> ModelError:
    return ModelError(
        f"{path}: a damaged step file ({why}); delete it to run the step again"
    )
