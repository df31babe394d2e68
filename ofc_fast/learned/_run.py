"""A training run's output directory: its settings, its saved steps (each written
whole or not at all, so a resumed run reads each as it was saved) and the cost of
each.  Private to :mod:`ofc_fast.learned.train`."""

from __future__ import annotations

import io
import json
import os
import re
import time
from collections.abc import Callable, Iterable
from pathlib import Path
from typing import Any, cast

import numpy as np
import numpy.typing as npt

from ..errors import ModelError
from ..files import NPZ_ERRORS, atomic_write, read_npz, remove_leftovers

__all__ = ["Run", "check_outputs", "damaged_run_file", "read_json", "save_run_json"]


def save_run_json(path: Path, doc: Any, sort_keys: bool = False) -> None:
    """A run's JSON file, written whole or not at all (a kill leaves the old one)."""
    atomic_write(path, json.dumps(doc, indent=1, sort_keys=sort_keys).encode())


def check_outputs(out: Path, names: Iterable[str]) -> None:
    """ModelError naming the first of the files ``names`` that a run writes in ``out``
    where something other than a file is (a folder): before any step, not as an
    ``[Errno 21] Is a directory`` naming no option after the steps it follows."""
    for name in names:
        path = out / name
        if os.path.lexists(path) and not path.is_file():
            raise ModelError(
                f"out: {str(path)!r} is in the way: the run writes its file {name!r} "
                "there, and that is a folder (or no file); move it away or use "
                "another --out"
            )


_REMEDY = {  # what the user does with a damaged run file, by its name
    "config.json": "use another --out (the settings its saved steps were made with are lost)",
    "cost.json": "delete it to resume (the report then lacks the earlier steps' seconds)",
    "report.json": "delete it to make the report again",
}


def damaged_run_file(path: Path, why: str) -> ModelError:
    """The ModelError of a damaged run file (``config.json``, ``cost.json``,
    ``report.json``): its path, what is wrong and what to do about it."""
    remedy = _REMEDY.get(path.name)
    return ModelError(
        f"{path}: a damaged run file ({why})" + (f"; {remedy}" if remedy else "")
    )


def read_json(path: Path) -> dict[str, Any]:
    """A run's JSON file, an object (ModelError naming it when it is damaged: not
    JSON, unreadable, nested deeper than the parser goes)."""
    try:
        data = path.read_bytes()
    except OSError as exc:  # (unreadable is not damaged: no remedy to delete it)
        raise ModelError(f"{path}: cannot read the run file ({exc})") from None
    try:
        doc = json.loads(data)  # (bytes: no UTF-8 is a ValueError here, damaged)
    except ValueError as exc:
        raise damaged_run_file(path, str(exc)) from None
    except RecursionError:  # (the parser's own limit)
        raise damaged_run_file(path, "nested too deep") from None
    if not isinstance(doc, dict):
        raise damaged_run_file(path, "not a JSON object")
    return doc


class Run:
    """The output directory: config check, saved steps and the cost of each.

    ``redo``: the settings a run may change in place, each with the files made
    from it (``{"eval_limit": ("report.json",)}``): they are removed, so made
    again, and the config takes the new value; any other setting that differs is
    refused."""

    def __init__(
        self,
        out: Path,
        config: dict[str, Any],
        redo: dict[str, tuple[str, ...]] | None = None,
    ) -> None:
        self.out = out  # (made by train, which holds its lock)
        redo = redo or {}
        cfg = out / "config.json"
        if cfg.exists():
            old = read_json(cfg)
            keys = old.keys() | config.keys()  # a setting only one run has too
            differs = sorted(k for k in keys if old.get(k) != config.get(k))
            if any(k not in redo for k in differs):
                raise ModelError(
                    f"{out} holds a run with other settings; use another --out "
                    f"(differs in: {differs})"
                )
            if differs:  # the files first: a kill between finds the old config
                for name in sorted({f for k in differs for f in redo[k]}):
                    (out / name).unlink(missing_ok=True)
                save_run_json(cfg, config, sort_keys=True)
        elif steps := sorted(p.name for p in out.glob("*.npz")):
            raise ModelError(  # (their settings are unknown: trusted, they mixed)
                f"{out} holds saved steps ({', '.join(steps[:3])}"
                f"{', ...' if len(steps) > 3 else ''}) but no config.json, the "
                "settings they were made with; use another --out, or delete the "
                "steps to start again"
            )
        else:
            save_run_json(cfg, config, sort_keys=True)
        remove_leftovers(out)  # (what a killed run's writes left: model-sized)
        cost = out / "cost.json"
        self.cost: dict[str, float] = read_json(cost) if cost.exists() else {}
        if not all(isinstance(v, (int, float)) for v in self.cost.values()):
            raise damaged_run_file(cost, "not seconds by step")

    def check_rounds(self, rounds: int) -> None:
        """ModelError when the run holds steps of a round past ``rounds``
        (``positions-r2``, ``net-11-r3``): its model and report would go back to
        round ``rounds``'s (they were replaced so, silently)."""
        tags = (re.fullmatch(r".*-r([0-9]+)\.npz", p.name) for p in self.out.glob("*.npz"))
        last = max([1, *(int(m.group(1)) for m in tags if m is not None)])
        if last > rounds:
            raise ModelError(
                f"rounds: {self.out} holds steps of round {last} of this run; with "
                f"{rounds} its model and report would go back to round {rounds}'s: "
                f"give {last} (or more), or use another --out"
            )

    def step(
        self,
        name: str,
        fn: Callable[[], dict[str, npt.NDArray[Any]]],
        read: Callable[[dict[str, npt.NDArray[Any]]], object],
    ) -> dict[str, npt.NDArray[Any]]:
        """The arrays of step ``name``: read from its saved file, or made by ``fn``
        and saved (its cost kept in ``cost.json``).  ``read`` reads the arrays as the
        run uses them: a saved file it cannot read so (an array missing: a file of
        another run) is damaged, a ModelError naming it."""
        path = self.out / f"{name}.npz"
        if path.exists():
            try:
                arrays = read_npz(path)
                read(arrays)
            except KeyError as exc:
                raise _damaged(path, f"no array {exc}") from None
            except (TypeError, *NPZ_ERRORS) as exc:
                raise _damaged(path, str(exc)) from None
            return arrays
        t0 = time.perf_counter()
        arrays = fn()
        buf = io.BytesIO()
        cast(Any, np.savez)(buf, **arrays)
        atomic_write(path, buf.getvalue())
        self.cost[name] = round(time.perf_counter() - t0, 2)
        save_run_json(self.out / "cost.json", self.cost)
        return arrays


def _damaged(path: Path, why: str) -> ModelError:
    return ModelError(
        f"{path}: a damaged step file ({why}); delete it to run the step again"
    )
