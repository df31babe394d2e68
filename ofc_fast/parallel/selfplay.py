"""Self-play data: shards of decisions that NumPy reads without ``ofc-fast``, and a
manifest that makes an interrupted run resume where it stopped.

A run of ``hands`` independent deals (:mod:`ofc_fast.parallel.plan`, a
``RunSpec`` with ``fantasyland=False``: one row of decisions per deal index) is cut into shards
of ``shard_size`` deals; shard ``k`` holds deals ``k * shard_size`` to ``(k + 1) *
shard_size - 1``.  In ``OUT``:

* ``shard-00000k.npz``: one row per decision, in deal order then play order:

  ================  ==============  ==================================================
  ``obs``           float32 (D, E)  :func:`ofc_fast.encoding.encode` of the observation
  ``mask``          bool (D, A)     :func:`ofc_fast.encoding.action_mask` (legal ids)
  ``action``        int32 (D,)      the action id played; -1 for a full set
                                    (Fantasyland, classic), which has no id
  ``placement``     int8 (D, 52)    the move, per card id: -1 not in it, 0/1/2 front/
                                    middle/back, 3 discarded (every decision; all -1
                                    for a classic natural declared or a surrender,
                                    which the .jsonl move records)
  ``seat``          int8 (D,)       the seat that decided
  ``deal``          int64 (D,)      the deal index in the run
  ``step``          int16 (D,)      the decision's number in its deal
  ``reward``        float32 (D,)    the deciding seat's final net points in that deal
  ================  ==============  ==================================================

* ``shard-00000k.jsonl``: the shard's deals as hand-history lines
  (:mod:`ofc_fast.arena.history`, one per deal; ``ofc-fast replay`` reads them);
* ``manifest.json``: the run (rules, seats, bots, seed, hands, shard size) and the
  finished shards with their deals, decisions and SHA-256.  A shard is written to a
  temporary name, renamed, then listed; only listed shards count.  Running the same
  command again skips them (a different run in the same directory is refused), so no
  deal is written twice and the files are the same bytes as an uninterrupted run.

>>> import numpy as np, tempfile, os
>>> from ofc_fast.parallel import RunSpec
>>> out = tempfile.mkdtemp()
>>> spec = RunSpec.make("pineapple", 2, seed=1, hands=4, bots=[("random", {})],
...                     fantasyland=False)
>>> manifest = selfplay(spec, out, shard_size=2, progress=False)
>>> [s["deals"] for s in manifest["shards"]]
[[0, 2], [2, 4]]
>>> d = np.load(os.path.join(out, "shard-000000.npz"))
>>> d["obs"].shape[0] == d["action"].shape[0] == 2 * 2 * 5   # 2 deals, 2 seats, 5 streets
True
"""

from __future__ import annotations

import hashlib
import io
import json
import os
import zipfile
from pathlib import Path
from typing import Any

import numpy as np

from ..errors import SelfPlayError
from .executors import Executor, LocalExecutor
from .plan import ChunkResult, ChunkTask, RunSpec, run_chunk
from .progress import Progress

__all__ = [
    "FORMAT",
    "MANIFEST",
    "VERSION",
    "SelfPlayError",
    "load_manifest",
    "selfplay",
    "write_npz",
]

MANIFEST = "manifest.json"
FORMAT = "ofc-fast/selfplay"
VERSION = 1
DEFAULT_SHARD = 100


def write_npz(path: str | Path, arrays: dict[str, np.ndarray]) -> None:
    """``np.savez_compressed`` with fixed member times, so the same arrays give the
    same bytes (``np.load`` reads it)."""
    with zipfile.ZipFile(path, "w") as z:
        for name in sorted(arrays):
            info = zipfile.ZipInfo(name + ".npy", date_time=(1980, 1, 1, 0, 0, 0))
            info.compress_type = zipfile.ZIP_DEFLATED
            buf = io.BytesIO()
            np.lib.format.write_array(
                buf, np.ascontiguousarray(arrays[name]), allow_pickle=False
            )
            z.writestr(info, buf.getvalue())


def _sha256(path: Path) -> str:
    return hashlib.sha256(path.read_bytes()).hexdigest()


def _atomic_write(path: Path, data: bytes) -> None:
    tmp = path.with_name(path.name + ".tmp")
    with open(tmp, "wb") as f:
        f.write(data)
        f.flush()
        os.fsync(f.fileno())
    os.replace(tmp, path)


def _run_entry(spec: RunSpec, shard_size: int) -> dict[str, Any]:
    return {
        "rules": json.loads(spec.rules_json),
        "players": spec.players,
        "seed": spec.seed,
        "hands": spec.hands,
        "button": spec.button,
        "bots": [{"name": n, "settings": json.loads(s)} for n, s in spec.bots],
        "shard_size": shard_size,
    }


def load_manifest(out: str | Path) -> dict[str, Any] | None:
    """The manifest of ``out`` (None when there is none yet)."""
    path = Path(out) / MANIFEST
    if not path.exists():
        return None
    try:
        doc = json.loads(path.read_text(encoding="utf-8"))
    except ValueError:
        raise SelfPlayError(f"{path}: not JSON; remove it to start again") from None
    if (
        not isinstance(doc, dict)
        or doc.get("format") != FORMAT
        or doc.get("version") != VERSION
    ):
        raise SelfPlayError(f"{path}: not an {FORMAT} v{VERSION} manifest")
    return doc


def _shard_name(k: int) -> str:
    return f"shard-{k:06d}"


def _write_shard(out: Path, k: int, res: ChunkResult) -> dict[str, Any]:
    name = _shard_name(k)
    npz, jsonl = out / f"{name}.npz", out / f"{name}.jsonl"
    assert res.arrays is not None
    tmp = out / f"{name}.npz.tmp"
    write_npz(tmp, res.arrays)
    os.replace(tmp, npz)
    _atomic_write(jsonl, "".join(line + "\n" for line in res.lines).encode("utf-8"))
    return {
        "index": k,
        "deals": [res.start, res.stop],
        "decisions": int(res.arrays["seat"].shape[0]),
        "files": {"npz": npz.name, "jsonl": jsonl.name},
        "sha256": {"npz": _sha256(npz), "jsonl": _sha256(jsonl)},
    }


def _save_manifest(
    out: Path, run: dict[str, Any], shards: dict[int, dict[str, Any]]
) -> dict[str, Any]:
    doc = {
        "format": FORMAT,
        "version": VERSION,
        "run": run,
        "complete": sum(s["deals"][1] - s["deals"][0] for s in shards.values())
        == run["hands"],
        "shards": [shards[k] for k in sorted(shards)],
    }
    _atomic_write(out / MANIFEST, (json.dumps(doc, indent=1) + "\n").encode("utf-8"))
    return doc


def selfplay(
    spec: RunSpec,
    out: str | Path,
    executor: Executor | None = None,
    *,
    shard_size: int = DEFAULT_SHARD,
    progress: bool = True,
    max_shards: int | None = None,
) -> dict[str, Any]:
    """Write the shards of ``spec`` into ``out`` (created if needed), skipping the
    shards its manifest lists; returns the manifest.  ``max_shards``: stop after
    writing that many (a bounded slice of a long run; run again to go on)."""
    if spec.fantasyland:
        raise SelfPlayError(
            "self-play shards hold independent deals: build the run with "
            "RunSpec.make(..., fantasyland=False)"
        )
    out = Path(out)
    out.mkdir(parents=True, exist_ok=True)
    run = _run_entry(spec, shard_size)
    old = load_manifest(out)
    shards: dict[int, dict[str, Any]] = {}
    if old is not None:
        if old.get("run") != run:
            raise SelfPlayError(
                f"{out} holds another run (its manifest's run differs: "
                f"rules, seats, bots, seed, hands or shard size); use "
                f"another --out"
            )
        shards = {int(s["index"]): s for s in old["shards"]}
    for stray in [*out.glob("shard-*.tmp"), out / (MANIFEST + ".tmp")]:
        stray.unlink(missing_ok=True)
    tasks = [
        ChunkTask(c.spec, c.start, c.stop, history=True, selfplay=True)
        for k, c in enumerate(spec.chunks(shard_size))
        if k not in shards
    ]
    if max_shards is not None:
        tasks = tasks[:max_shards]
    done = sum(s["deals"][1] - s["deals"][0] for s in shards.values())
    bar = Progress(spec.hands, progress, initial=done)
    ex = executor or LocalExecutor()
    doc = _save_manifest(out, run, shards)
    try:
        for i, res in ex.map_unordered(run_chunk, tasks):
            k = tasks[i].start // shard_size
            shards[k] = _write_shard(out, k, res)
            doc = _save_manifest(out, run, shards)
            bar.advance(res.stop - res.start)
    finally:
        bar.close()
    return doc
