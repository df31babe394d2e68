"""Self-play data: shards of decisions that NumPy reads without ``ofc-fast``, and a
manifest that makes an interrupted run resume where it stopped.

A run of ``hands`` independent deals (``ofc_fast.parallel._plan``, a
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
  finished shards with their deals, decisions and SHA-256, a JSON object:

  ================  ============================================================
  ``format``        ``"ofc-fast/selfplay"``
  ``version``       1; a manifest of another format or version is refused
                    (SelfPlayError), never read as this one
  ``run``           the run's settings: ``rules`` (the rule set's
                    :meth:`~ofc_fast.rules.RuleSet.to_dict`), ``players``,
                    ``seed``, ``hands``, ``button``, ``bots`` (per seat
                    ``name`` and ``settings``), ``shard_size``
  ``complete``      whether the listed shards hold every deal of the run
  ``shards``        the finished shards in index order, each: ``index``,
                    ``deals`` (``[first, stop)``), ``decisions`` (the rows of its
                    ``.npz``), ``files`` (its ``npz`` and ``jsonl`` names) and
                    ``sha256`` (of each of the two files)
  ================  ============================================================

  A shard is written to a
  temporary name, renamed, then listed; only listed shards count.  The manifest is
  saved again after a shard while that is cheap, else once the time since its last
  saving is ten times what that took (a manifest of 100,000 shards is tens of
  megabytes), and when the run ends or stops (Ctrl-C, an error).  Running the same
  command again skips the listed shards (a different run in the same directory is
  refused) and writes the others, those a killed run had not listed yet included,
  so the files are the same bytes as an uninterrupted run.
  A resume first checks every listed shard: its entry must be the plan's (index,
  deals, file names, a decision count; SelfPlayError for a manifest that is not),
  and both its files must exist with the listed SHA-256; a shard that fails (deleted, truncated,
  overwritten) is written again, so ``complete: true`` is never said over bad data.
* ``.selfplay.lock``: one writer per directory; a second ``selfplay`` on the same
  ``OUT`` is refused (SelfPlayError) while the first runs.

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
import sys
import time
import zipfile
from pathlib import Path
from typing import Any, BinaryIO

import numpy as np
import numpy.typing as npt

from ..arena import parse
from ..errors import GameError, SelfPlayError, quote
from ..files import atomic_file, atomic_write, remove_leftovers
from ._counts import whole_count
from ._executors import Executor, executor_or_local
from ._lock import exclusive
from ._plan import ChunkResult, ChunkTask, RunSpec, run_chunk
from ._progress import Progress

__all__ = [
    "FORMAT",
    "MANIFEST",
    "VERSION",
    "SelfPlayError",
    "load_manifest",
    "selfplay",
    "shard_paths",
    "write_npz",
]

MANIFEST = "manifest.json"
FORMAT = "ofc-fast/selfplay"
VERSION = 1
DEFAULT_SHARD = 100
_KINDS = ("npz", "jsonl")


def write_npz(path: str | Path | BinaryIO, arrays: dict[str, npt.NDArray[Any]]) -> None:
    """``np.savez_compressed`` with fixed member times, so the same arrays give the
    same bytes (``np.load`` reads it), into a file or an open one (a shard's
    :func:`~ofc_fast.files.atomic_file`).

    >>> import tempfile
    >>> path = Path(tempfile.mkdtemp()) / "a.npz"
    >>> write_npz(path, {"x": np.arange(3)})
    >>> first = path.read_bytes()
    >>> write_npz(path, {"x": np.arange(3)})
    >>> path.read_bytes() == first, np.load(path)["x"].tolist()
    (True, [0, 1, 2])
    """
    with zipfile.ZipFile(path, "w") as z:
        for name in sorted(arrays):
            info = zipfile.ZipInfo(name + ".npy", date_time=(1980, 1, 1, 0, 0, 0))
            info.compress_type = zipfile.ZIP_DEFLATED
            buf = io.BytesIO()
            npy: Any = np.lib.format  # (NumPy 2.2's stubs leave write_array untyped)
            npy.write_array(buf, np.ascontiguousarray(arrays[name]), allow_pickle=False)
            z.writestr(info, buf.getvalue())


def _sha256(path: Path) -> str:
    return hashlib.sha256(path.read_bytes()).hexdigest()


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


_RUN_WORDS = {
    "rules": "rules",
    "players": "seats",
    "bots": "bots",
    "seed": "seed",
    "hands": "hands",
    "button": "button",
    "shard_size": "shard size",
}
"""The words of a self-play run's settings (the keys of :func:`_run_entry`)."""


def _run_difference(old: object, run: dict[str, Any]) -> str:
    """Which settings of ``run`` the manifest's ``old`` run does not share, each with
    its value there and here (rules and bots by name).

    >>> run = {"rules": {"name": "OFC"}, "players": 2, "hands": 300, "seed": 0}
    >>> _run_difference(run | {"hands": 200}, run)
    'hands: 200 there, 300 here'
    >>> _run_difference(run | {"rules": {"name": "PINEAPPLE"}}, run)
    "rules: 'PINEAPPLE' there, 'OFC' here"
    >>> _run_difference(run | {"rules": {"name": "OFC", "overall_bonus": 1}}, run)
    "rules: 'OFC' with other settings"
    >>> _run_difference([], run)
    'rules, seats, bots, seed, hands, button or shard size'
    """
    if not isinstance(old, dict):
        *words, last = _RUN_WORDS.values()
        return f"{', '.join(words)} or {last}"

    def shown(key: str, value: Any) -> str:
        if key == "rules" and isinstance(value, dict):
            return repr(value.get("name"))
        if key == "bots" and isinstance(value, list):
            names = [b.get("name") if isinstance(b, dict) else b for b in value]
            return ",".join(map(str, names))
        return repr(value) if isinstance(value, str) else str(value)

    differ = []
    for key, word in _RUN_WORDS.items():
        there, here = shown(key, old.get(key)), shown(key, run.get(key))
        if old.get(key) == run.get(key):
            continue
        differ.append(
            f"{word}: {there} there, {here} here"
            if there != here
            else f"{word}: {here} with other settings"
        )
    return "; ".join(differ) or ", ".join(sorted(set(old) ^ set(run)))


def load_manifest(out: str | Path) -> dict[str, Any] | None:
    """The manifest of ``out`` (None when there is none yet; SelfPlayError naming it
    for a file that is not one: unreadable, not UTF-8 JSON, nested too deep, a key
    given twice, ``NaN``, another format or version).

    >>> import tempfile
    >>> from ofc_fast.parallel import RunSpec
    >>> out = tempfile.mkdtemp()
    >>> load_manifest(out) is None
    True
    >>> spec = RunSpec.make("pineapple", 2, 1, 2, [("random", {})], fantasyland=False)
    >>> _ = selfplay(spec, out, shard_size=1, progress=False)
    >>> m = load_manifest(out)
    >>> m["format"], m["complete"], len(m["shards"]), m["run"]["hands"]
    ('ofc-fast/selfplay', True, 2, 2)
    """
    path = Path(out) / MANIFEST
    if not path.exists():
        return None
    try:
        doc = parse(path.read_bytes(), SelfPlayError)  # (too deep, a key twice: refused)
    except OSError as exc:
        raise SelfPlayError(f"{path}: cannot read the manifest: {exc.strerror}") from None
    except SelfPlayError as exc:
        raise SelfPlayError(f"{path}: {exc}; remove it to start again") from None
    if (
        not isinstance(doc, dict)
        or doc.get("format") != FORMAT
        or doc.get("version") != VERSION
    ):
        raise SelfPlayError(f"{path}: not an {FORMAT} v{VERSION} manifest")
    return doc


def _shard_name(k: int) -> str:
    return f"shard-{k:06d}"


def _shard_files(k: int) -> dict[str, str]:
    """The file names of shard ``k`` (a manifest entry's ``files``)."""
    name = _shard_name(k)
    return {"npz": f"{name}.npz", "jsonl": f"{name}.jsonl"}


def shard_paths(out: str | Path, manifest: dict[str, Any]) -> list[Path]:
    """The ``.npz`` files of the shards ``manifest`` (:func:`load_manifest` of
    ``out``) lists, in its order; SelfPlayError naming the manifest for ``shards``
    that is no list, or an entry that is no object, names other files than those of
    its index (``shard-00000k.npz``: a shard is a file of the run, never a path
    elsewhere, ``../other-run/...``, ``/tmp/...``) or repeats an index.

    >>> shard_paths("out", {"shards": [{"index": 1, "files": _shard_files(1)}]})
    [PosixPath('out/shard-000001.npz')]
    """
    listed = manifest.get("shards")
    if not isinstance(listed, list):
        raise SelfPlayError(
            f"{Path(out) / MANIFEST}: 'shards' must be a list, got {quote(listed)}"
        )
    paths, seen = [], set()
    for entry in listed:
        k = entry.get("index") if isinstance(entry, dict) else None
        if isinstance(k, bool) or not isinstance(k, int) or k < 0:
            raise SelfPlayError(
                f"{Path(out) / MANIFEST}: a shard entry must be an object with an "
                f"index >= 0, got {quote(entry)}"
            )
        if entry.get("files") != _shard_files(k):
            raise SelfPlayError(
                f"{Path(out) / MANIFEST}: shard {k}'s files must be "
                f"{_shard_name(k)}.npz and {_shard_name(k)}.jsonl, not "
                f"{quote(entry.get('files'))}"
            )
        if k in seen:  # (its rows would be read twice)
            raise SelfPlayError(f"{Path(out) / MANIFEST}: shard {k} is listed twice")
        seen.add(k)
        paths.append(Path(out) / _shard_files(k)["npz"])
    return paths


def _write_shard(out: Path, k: int, res: ChunkResult) -> dict[str, Any]:
    files = _shard_files(k)
    npz, jsonl = out / files["npz"], out / files["jsonl"]
    assert res.arrays is not None
    with atomic_file(npz) as f:
        write_npz(f, res.arrays)
    atomic_write(jsonl, "".join(line + "\n" for line in res.lines).encode("utf-8"))
    return {
        "index": k,
        "deals": [res.start, res.stop],
        "decisions": int(res.arrays["seat"].shape[0]),
        "files": files,
        "sha256": {"npz": _sha256(npz), "jsonl": _sha256(jsonl)},
    }


def _entry_problem(entry: Any, chunks: list[ChunkTask]) -> str | None:
    """What is wrong with a manifest's shard entry against the plan, or None."""
    if not isinstance(entry, dict):
        return f"a shard entry must be an object, got {quote(entry)}"
    k = entry.get("index")
    if isinstance(k, bool) or not isinstance(k, int) or not 0 <= k < len(chunks):
        return f"shard index must be an int 0..{len(chunks) - 1}, got {quote(k)}"
    c, name = chunks[k], _shard_name(k)
    if entry.get("deals") != [c.start, c.stop]:
        return f"shard {k} must hold deals [{c.start}, {c.stop}], not {quote(entry.get('deals'))}"
    if entry.get("files") != _shard_files(k):
        return f"shard {k}'s files must be {name}.npz and {name}.jsonl"
    n = entry.get("decisions")
    if isinstance(n, bool) or not isinstance(n, int) or n < 0:
        return f"shard {k}'s decisions must be a count >= 0, not {quote(n)}"
    sha = entry.get("sha256")
    if not isinstance(sha, dict) or not all(isinstance(sha.get(x), str) for x in _KINDS):
        return f"shard {k}'s sha256 must hold the digests of its npz and jsonl"
    return None


def _intact_shards(
    out: Path, old: dict[str, Any], chunks: list[ChunkTask], progress: bool
) -> dict[int, dict[str, Any]]:
    """The manifest's shards whose two files are there with their SHA-256; the others
    are left out, to be written again.  SelfPlayError for a manifest whose ``shards``
    are not the plan's."""
    listed = old.get("shards")
    if not isinstance(listed, list):
        raise SelfPlayError(
            f"{out / MANIFEST}: 'shards' must be a list, got {quote(listed)}; remove "
            "the manifest to start again"
        )
    shards: dict[int, dict[str, Any]] = {}
    for entry in listed:
        problem = _entry_problem(entry, chunks)
        if problem is None and entry["index"] in shards:
            problem = f"shard {entry['index']} is listed twice"
        if problem is not None:
            raise SelfPlayError(
                f"{out / MANIFEST}: {problem}; remove the manifest to start again"
            )
        k, files = entry["index"], entry["files"]
        if all(
            (out / files[x]).is_file() and _sha256(out / files[x]) == entry["sha256"][x]
            for x in _KINDS
        ):
            shards[k] = entry
        elif progress:
            print(
                f"selfplay: shard {k} is missing or damaged (SHA-256); writing it again",
                file=sys.stderr,
            )
    return shards


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
    atomic_write(out / MANIFEST, (json.dumps(doc, indent=1) + "\n").encode("utf-8"))
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
    writing that many (a bounded slice of a long run; run again to go on).

    >>> import tempfile
    >>> from ofc_fast.parallel import RunSpec
    >>> out = tempfile.mkdtemp()
    >>> spec = RunSpec.make("pineapple", 2, 1, 4, [("random", {})], fantasyland=False)
    >>> selfplay(spec, out, shard_size=2, progress=False, max_shards=1)["complete"]
    False
    >>> doc = selfplay(spec, out, shard_size=2, progress=False)  # writes shard 1 only
    >>> doc["complete"], [s["index"] for s in doc["shards"]]
    (True, [0, 1])
    """
    if spec.fantasyland:
        raise SelfPlayError(
            "self-play shards hold independent deals: build the run with "
            "RunSpec.make(..., fantasyland=False)"
        )
    shard_size = whole_count(shard_size, "shard_size", error=GameError)
    executor_or_local(executor)  # (before the folder is made)
    if max_shards is not None:
        max_shards = whole_count(max_shards, "max_shards", least=0, error=GameError)
    out = Path(out)
    out.mkdir(parents=True, exist_ok=True)
    with exclusive(out):
        return _selfplay(spec, out, executor, shard_size, progress, max_shards)


def _selfplay(
    spec: RunSpec,
    out: Path,
    executor: Executor | None,
    shard_size: int,
    progress: bool,
    max_shards: int | None,
) -> dict[str, Any]:
    run = _run_entry(spec, shard_size)
    old = load_manifest(out)
    shards: dict[int, dict[str, Any]] = {}
    if old is not None:
        if old.get("run") != run:
            raise SelfPlayError(
                f"{out} holds another run (its manifest's run differs in "
                f"{_run_difference(old.get('run'), run)}); use another --out"
            )
        shards = _intact_shards(out, old, spec.chunks(shard_size), progress)
    # what a kill left: atomic_file's hidden .<name>.<pid>.<hex>.tmp (and the
    # shard-*.npz.tmp and <name>.tmp of earlier versions)
    remove_leftovers(out)
    for pattern in ("shard-*.tmp", ".shard-*.tmp", f"{MANIFEST}.tmp"):
        for stray in out.glob(pattern):
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
    ex = executor_or_local(executor)
    listing = _Listing(out, run, shards)
    try:
        for i, res in ex.map_unordered(run_chunk, tasks):
            k = tasks[i].start // shard_size
            shards[k] = _write_shard(out, k, res)
            listing.shard_written()
            bar.advance(res.stop - res.start)
    finally:
        bar.close()
        listing.close()  # (stopped too: the shards written are listed)
    return listing.doc


class _Listing:
    """The manifest of a run being written: saved when made, after a shard once the
    time since the last saving is :data:`SAVE_RATIO` times what that saving took
    (while it is cheap, after every shard; a manifest of 100,000 shards is tens of
    megabytes), and when the run ends or stops.  A shard written but not yet listed
    when the process is killed is written again (the same bytes) on resume."""

    SAVE_RATIO = 10

    def __init__(self, out: Path, run: dict[str, Any], shards: dict[int, Any]) -> None:
        self.out, self.run, self.shards = out, run, shards
        self.pending = False
        self._save()

    def _save(self) -> None:
        t0 = time.monotonic()
        self.doc = _save_manifest(self.out, self.run, self.shards)
        self.saved = time.monotonic()
        self.cost = self.saved - t0
        self.pending = False

    def shard_written(self) -> None:
        """Count a shard written (in ``shards``); save the manifest when it is due."""
        self.pending = True
        if time.monotonic() - self.saved >= self.SAVE_RATIO * self.cost:
            self._save()

    def close(self) -> None:
        """Save the shards not yet listed."""
        if self.pending:
            self._save()
