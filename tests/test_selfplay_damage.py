"""Self-play data on disk under attack:
a resume verifies every listed shard against the manifest's SHA-256 and redoes the
bad ones, a second writer on the same --out is refused, and a manifest whose shards
are not the plan's is a clean SelfPlayError, never a traceback."""

from __future__ import annotations

import hashlib
import inspect
import json
import os
import re
import subprocess
import sys
import threading
from pathlib import Path
from typing import Any

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from ofc_fast.cli import main
from ofc_fast.parallel import RunSpec
from ofc_fast.parallel import _lock as lock_mod
from ofc_fast.parallel.selfplay import SelfPlayError, selfplay

ROOT = Path(__file__).resolve().parent.parent


# Self-play shards hold independent deals; where RunSpec can also play Fantasyland
# chains it is told not to.
_INDEPENDENT = (
    {"fantasyland": False}
    if "fantasyland" in inspect.signature(RunSpec.make).parameters
    else {}
)


def spec(hands: int = 6) -> RunSpec:
    return RunSpec.make(
        "pineapple", 2, seed=5, hands=hands, bots=[("random", {})], **_INDEPENDENT
    )


def files(d: Path) -> dict[str, bytes]:
    return {
        p.name: p.read_bytes() for p in sorted(d.iterdir()) if p.name.startswith("shard")
    }


@pytest.fixture
def runs(tmp_path: Path) -> tuple[Path, dict[str, bytes]]:
    """An uninterrupted run's files (the reference) and a directory to damage."""
    ref = tmp_path / "ref"
    selfplay(spec(), ref, shard_size=2, progress=False)
    out = tmp_path / "out"
    selfplay(spec(), out, shard_size=2, progress=False)
    return out, files(ref)


def independent_digests(out: Path) -> dict[str, str]:
    return {p.name: hashlib.sha256(p.read_bytes()).hexdigest() for p in out.glob("shard-*")}


DAMAGE = {
    "truncated npz": lambda p: (p / "shard-000001.npz").write_bytes(
        (p / "shard-000001.npz").read_bytes()[:100]
    ),
    "deleted jsonl": lambda p: (p / "shard-000002.jsonl").unlink(),
    "garbage npz": lambda p: (p / "shard-000000.npz").write_bytes(b"garbage" * 50),
    "one byte flipped": lambda p: (p / "shard-000001.jsonl").write_bytes(
        (p / "shard-000001.jsonl").read_bytes().replace(b"h", b"H", 1)
    ),
}


@pytest.mark.parametrize("how", sorted(DAMAGE))
def test_resume_redoes_damaged_shards(
    runs: tuple[Path, dict[str, bytes]], how: str, capsys: pytest.CaptureFixture[str]
) -> None:
    out, reference = runs
    DAMAGE[how](out)
    doc = selfplay(spec(), out, shard_size=2, progress=True)
    assert doc["complete"] and len(doc["shards"]) == 3
    assert files(out) == reference  # the bad shard written again, the same bytes
    digests = independent_digests(out)
    for s in doc["shards"]:
        for kind in ("npz", "jsonl"):
            assert digests[s["files"][kind]] == s["sha256"][kind]
    assert "writing it again" in capsys.readouterr().err


def test_intact_shards_are_not_rewritten(runs: tuple[Path, dict[str, bytes]]) -> None:
    out, _ = runs
    before = {p.name: p.stat().st_mtime_ns for p in out.glob("shard-*")}
    selfplay(spec(), out, shard_size=2, progress=False)
    assert {p.name: p.stat().st_mtime_ns for p in out.glob("shard-*")} == before


def edit_manifest(out: Path, change: Any) -> None:
    path = out / "manifest.json"
    doc = json.loads(path.read_text())
    change(doc)
    path.write_text(json.dumps(doc))


MANIFESTS = {
    "shards a dict": (lambda d: d.update(shards={"0": 1}), "'shards' must be a list"),
    "shards a number": (lambda d: d.update(shards=5), "'shards' must be a list"),
    "entry a list": (lambda d: d["shards"].__setitem__(0, [0, 2]), "must be an object"),
    "deals to 1e9": (
        lambda d: d["shards"][0].update(deals=[0, 10**9]),
        r"must hold deals \[0, 2\]",
    ),
    "index out of plan": (lambda d: d["shards"][0].update(index=10**9), "shard index"),
    "index a string": (lambda d: d["shards"][0].update(index="0"), "shard index"),
    "listed twice": (lambda d: d["shards"].append(d["shards"][0]), "listed twice"),
    "files elsewhere": (
        lambda d: d["shards"][0].update(files={"npz": "/etc/passwd", "jsonl": "x"}),
        "files must be",
    ),
    "sha256 missing": (lambda d: d["shards"][0].pop("sha256"), "sha256"),
    # the decision count went into the manifest unchecked: the command line summed it
    # (KeyError traceback, or "-3 decisions" said of a complete run)
    "decisions missing": (lambda d: d["shards"][0].pop("decisions"), "decisions"),
    "decisions a string": (lambda d: d["shards"][0].update(decisions="20"), "decisions"),
    "decisions negative": (lambda d: d["shards"][0].update(decisions=-23), "decisions"),
    "decisions a bool": (lambda d: d["shards"][0].update(decisions=True), "decisions"),
}


@pytest.mark.parametrize("case", sorted(MANIFESTS))
def test_a_manifest_of_the_wrong_shape_is_a_clean_error(
    runs: tuple[Path, dict[str, bytes]], case: str
) -> None:
    out, _ = runs
    change, message = MANIFESTS[case]
    edit_manifest(out, change)
    with pytest.raises(SelfPlayError, match=message):
        selfplay(spec(), out, shard_size=2, progress=False)


def test_manifest_errors_from_the_command_line(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    args = ["selfplay", "--bots", "random", "--hands", "4", "--seed", "5"]
    args += ["--shard-size", "2", "--out", str(tmp_path), "--quiet"]
    assert main(args) == 0
    edit_manifest(tmp_path, lambda d: d["shards"][0].update(deals=[0, 10**9]))
    capsys.readouterr()
    assert main(args) == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and "deals [0, 2]" in err and "Traceback" not in err


def test_a_manifest_without_decision_counts_from_the_command_line(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """Was a KeyError traceback (exit status 1) from the summary line."""
    args = ["selfplay", "--bots", "random", "--hands", "4", "--seed", "5"]
    args += ["--shard-size", "2", "--out", str(tmp_path)]
    assert main(args) == 0
    edit_manifest(tmp_path, lambda d: d["shards"][1].pop("decisions"))
    capsys.readouterr()
    assert main(args) == 2
    err = capsys.readouterr().err
    assert err.startswith("ofc-fast: error: ") and err.count("\n") == 1
    assert "shard 1's decisions" in err


HOSTILE_MANIFESTS = {
    "nested 100,000 deep": b"[" * 100_000 + b"]" * 100_000,
    "a key twice": b'{"format": "ofc-fast/selfplay", "version": 2, "version": 1}',
    "NaN": b'{"format": "ofc-fast/selfplay", "version": 1, "run": NaN}',
    "not UTF-8": b'{"format": "\xff"}',
    "an integer of 5000 digits": b'{"version": ' + b"9" * 5000 + b"}",
    "version 2": b'{"format": "ofc-fast/selfplay", "version": 2, "shards": []}',
}


@pytest.mark.parametrize("case", sorted(HOSTILE_MANIFESTS))
def test_a_hostile_manifest_is_a_selfplay_error_naming_it(
    tmp_path: Path, case: str, capsys: pytest.CaptureFixture[str]
) -> None:
    """Regression: a manifest.json nested deeply made ``ofc-fast selfplay`` end in a
    RecursionError traceback, and one giving a key twice or holding NaN was read
    (the last value of the key kept without a word); each is now a SelfPlayError
    naming the manifest, one line from the command line."""
    from ofc_fast.parallel.selfplay import load_manifest

    (tmp_path / "manifest.json").write_bytes(HOSTILE_MANIFESTS[case])
    with pytest.raises(SelfPlayError, match=re.escape(f"{tmp_path / 'manifest.json'}: ")):
        load_manifest(tmp_path)
    args = ["selfplay", "--bots", "random", "--hands", "2", "--out", str(tmp_path)]
    assert main([*args, "--quiet"]) == 2
    err = capsys.readouterr().err
    assert err.startswith("ofc-fast: error: ") and err.count("\n") == 1, err


def test_a_manifest_that_is_a_folder_is_a_selfplay_error_naming_it(
    tmp_path: Path,
) -> None:
    """Regression: a folder named manifest.json was an IsADirectoryError from
    load_manifest; it is a SelfPlayError naming the manifest."""
    from ofc_fast.parallel.selfplay import load_manifest

    (tmp_path / "manifest.json").mkdir()
    with pytest.raises(SelfPlayError, match=r"manifest\.json: cannot read the manifest"):
        load_manifest(tmp_path)


@settings(max_examples=60, deadline=None)
@given(
    cut=st.integers(0, 10_000),
    flips=st.lists(
        st.tuples(st.integers(0), st.binary(min_size=1, max_size=1)), max_size=3
    ),
)
def test_a_damaged_manifest_is_read_or_a_selfplay_error(
    manifest_bytes: bytes,
    tmp_path_factory: pytest.TempPathFactory,
    cut: int,
    flips: list[tuple[int, bytes]],
) -> None:
    """Any manifest cut short or with bytes changed is read (a dict) or refused as a
    SelfPlayError: never another exception."""
    from ofc_fast.parallel.selfplay import load_manifest

    data = bytearray(manifest_bytes[: len(manifest_bytes) - cut % len(manifest_bytes)])
    for at, byte in flips:
        if data:
            data[at % len(data)] = byte[0]
    out = tmp_path_factory.mktemp("manifest")
    (out / "manifest.json").write_bytes(bytes(data))
    try:
        doc = load_manifest(out)
    except SelfPlayError as exc:
        assert str(out / "manifest.json") in str(exc)
    else:
        assert isinstance(doc, dict)


@pytest.fixture(scope="module")
def manifest_bytes(tmp_path_factory: pytest.TempPathFactory) -> bytes:
    """The manifest of a finished run."""
    out = tmp_path_factory.mktemp("run")
    selfplay(spec(4), out, shard_size=2, progress=False)
    return (out / "manifest.json").read_bytes()


# -- one writer per --out
def test_a_second_writer_is_refused(tmp_path: Path) -> None:
    """A writer holds the lock (a child process, as a second command would be); the
    run here is refused with a clear message and touches nothing."""
    holder = subprocess.Popen(
        [
            sys.executable,
            "-c",
            "import sys, pathlib; from ofc_fast.parallel._lock import exclusive\n"
            "with exclusive(pathlib.Path(sys.argv[1])):\n"
            "    print('held', flush=True); sys.stdin.read()",
            str(tmp_path),
        ],
        stdin=subprocess.PIPE,
        stdout=subprocess.PIPE,
        env=dict(os.environ),  # the installed package (conftest: PYTHONSAFEPATH)
    )
    try:
        assert holder.stdout is not None and holder.stdout.readline() == b"held\n"
        (tmp_path / "shard-000000.npz.tmp").write_bytes(b"the other writer's")
        with pytest.raises(SelfPlayError, match="another selfplay run"):
            selfplay(spec(), tmp_path, shard_size=2, progress=False)
        assert (tmp_path / "shard-000000.npz.tmp").read_bytes() == b"the other writer's"
    finally:
        holder.communicate(b"", timeout=30)
    doc = selfplay(spec(), tmp_path, shard_size=2, progress=False)  # now it may
    assert doc["complete"]


def test_two_writers_at_once_one_refused_none_broken(tmp_path: Path) -> None:
    """Two threads start the same run on one --out: exactly the refused ones fail,
    with SelfPlayError, and the directory ends complete and intact."""
    errors: list[BaseException] = []
    barrier = threading.Barrier(2)

    def write() -> None:
        barrier.wait()
        try:
            selfplay(spec(hands=20), tmp_path, shard_size=2, progress=False)
        except BaseException as exc:  # (recorded for the assertions)
            errors.append(exc)

    threads = [threading.Thread(target=write) for _ in range(2)]
    for t in threads:
        t.start()
    for t in threads:
        t.join(120)
    assert all(isinstance(e, SelfPlayError) for e in errors), errors
    doc = selfplay(spec(hands=20), tmp_path, shard_size=2, progress=False)
    assert doc["complete"] and len(doc["shards"]) == 10


@pytest.mark.parametrize("method", ["flock", "create"])
def test_lock_methods(tmp_path: Path, method: str) -> None:
    with (
        lock_mod.exclusive(tmp_path, method),
        pytest.raises(SelfPlayError, match="another selfplay run"),
        lock_mod.exclusive(tmp_path, method),
    ):
        pass
    with lock_mod.exclusive(tmp_path, method):  # released: taken again
        pass


@pytest.mark.parametrize("method", ["flock", "create"])
def test_a_released_lock_holder_is_closed_and_refuses_a_second_block(
    tmp_path: Path, method: str
) -> None:
    """Regression (review): the holder ``exclusive`` returns said ``closed`` False
    after its release, and a second ``with`` block on it was entered holding no
    lock, while another run took the lock inside it.  Released, it is ``closed``,
    a second block is refused, and the lock is free for another holder."""
    held = lock_mod.exclusive(tmp_path, method)
    assert not held.closed
    with held:
        pass
    assert held.closed
    with pytest.raises(ValueError, match="closed"), held:
        pass
    with lock_mod.exclusive(tmp_path, method):  # (free)
        held.close()  # (released already: another holder's lock is not touched)
        with pytest.raises(SelfPlayError, match="another selfplay run"):
            lock_mod.exclusive(tmp_path, method)


def test_fallback_lock_where_fcntl_is_missing(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(lock_mod, "fcntl", None)
    monkeypatch.setattr(lock_mod, "msvcrt", None)
    with lock_mod.exclusive(tmp_path):
        assert (tmp_path / lock_mod.LOCK_NAME).exists()
        with pytest.raises(SelfPlayError, match="remove that file"):
            selfplay(spec(), tmp_path, shard_size=2, progress=False)
    assert not (tmp_path / lock_mod.LOCK_NAME).exists()


def _damaged_dataset(tmp_path: Path, damage: Any) -> None:
    import numpy as np

    from ofc_fast.env.imitation import selfplay_dataset

    out = tmp_path / "run"
    selfplay(spec(4), str(out), progress=False)
    shard = out / "shard-000000.npz"
    with np.load(shard) as d:
        arrays = {k: d[k].copy() for k in d.files}
    first = int(np.flatnonzero(arrays["action"] >= 0)[0])
    damage(arrays, first)
    np.savez(shard, **arrays)
    selfplay_dataset(out)


def _six_cards(a: dict[str, Any], i: int) -> None:
    a["placement"][i, :6] = 1


def _nan_obs(a: dict[str, Any], i: int) -> None:
    a["obs"][i, 0] = float("nan")


def _big_obs(a: dict[str, Any], i: int) -> None:
    a["obs"][i] *= 300  # values past 255 once unscaled: would wrap in a uint8 cast


def _short_obs(a: dict[str, Any], i: int) -> None:
    a["obs"] = a["obs"][:, :10]


def _short_reward(a: dict[str, Any], i: int) -> None:
    a["reward"] = a["reward"][:-1]


def _bad_mask(a: dict[str, Any], i: int) -> None:
    a["mask"] = a["mask"][:, :10]


@pytest.mark.parametrize(
    "damage", [_six_cards, _nan_obs, _big_obs, _short_obs, _short_reward, _bad_mask]
)
def test_a_damaged_shard_is_a_clean_dataset_error(tmp_path: Path, damage: Any) -> None:
    """selfplay_dataset on a shard with a 6-card move or encodings that are no
    bytes: GameError, not an IndexError or features of wrapped values."""
    from ofc_fast.errors import GameError

    with pytest.raises(GameError, match="not a self-play run"):
        _damaged_dataset(tmp_path, damage)


def _float_placement(a: dict[str, Any], i: int) -> None:
    a["placement"] = a["placement"] + 0.5


def _placement_row_9(a: dict[str, Any], i: int) -> None:
    a["placement"][i, a["placement"][i] >= 0] = 9


def _nan_reward(a: dict[str, Any], i: int) -> None:
    a["reward"][i] = float("nan")


def _text_reward(a: dict[str, Any], i: int) -> None:
    a["reward"] = a["reward"].astype("U4")


def _two_rewards(a: dict[str, Any], i: int) -> None:
    a["reward"] = a["reward"][:, None].repeat(2, axis=1)


def _half_mask(a: dict[str, Any], i: int) -> None:
    a["mask"] = a["mask"] * 0.5


def _text_mask(a: dict[str, Any], i: int) -> None:
    a["mask"] = a["mask"].astype("U5")


def _text_obs(a: dict[str, Any], i: int) -> None:
    a["obs"] = a["obs"].astype("U8")


@pytest.mark.parametrize(
    "damage",
    [
        _float_placement,
        _placement_row_9,
        _nan_reward,
        _text_reward,
        _two_rewards,
        _half_mask,
        _text_mask,
        _text_obs,
    ],
)
def test_a_shard_of_wrong_dtypes_is_a_clean_dataset_error(
    tmp_path: Path, damage: Any
) -> None:
    """A shard's arrays are the types selfplay writes (integer placements -1..3 and
    actions, boolean masks, finite float rewards and encodings): a float placement
    was Python's bare TypeError ("an integer is required"), a 2-D reward NumPy's
    ValueError, and a NaN or text reward, a text or 0.5 mask were cast silently
    (NaN targets, every id legal); each is the GameError naming the array."""
    from ofc_fast.errors import GameError

    with pytest.raises(GameError, match="not a self-play run"):
        _damaged_dataset(tmp_path, damage)


def _mask_without_the_move(a: dict[str, Any], i: int) -> None:
    a["mask"][i] = False  # (the move's id is legal in any deal order: the rows fit)


def _mask_of_another_row(a: dict[str, Any], i: int) -> None:
    a["mask"][i] = a["mask"][i] & (np.arange(a["mask"].shape[1]) == 0)


@pytest.mark.parametrize("damage", [_mask_without_the_move, _mask_of_another_row])
def test_a_move_its_mask_refuses_is_a_clean_dataset_error(
    tmp_path: Path, damage: Any
) -> None:
    """A shard row whose mask does not allow its move was cloned as it was: a target
    action the masked policy gives probability 0 (examples/train_ppo.py masks
    logits with -1e9: a loss of 1e9); it is the GameError 'not a self-play run'
    naming the shard.  Reference: a legal move's id is legal under its mask
    whatever the deal order (the rows' room decides), so every intact row passes
    (the docstring's check)."""
    from ofc_fast.errors import GameError

    with pytest.raises(GameError, match=r"not a self-play run.*mask"):
        _damaged_dataset(tmp_path, damage)


def _cut_short(data: bytes) -> bytes:
    return data[: len(data) // 2]  # a copy stopped midway


def _no_zip(data: bytes) -> bytes:
    return b"PK\x03\x04" + bytes(100)


def _empty(data: bytes) -> bytes:
    return b""


def _huge_obs_header(data: bytes) -> bytes:
    """The shard with ``obs.npy`` declaring (2**30, 828) float32 (3 TiB), 8 bytes held."""
    import io
    import zipfile

    import numpy as np

    header = io.BytesIO()
    np.lib.format.write_array_header_1_0(
        header, {"descr": "<f4", "fortran_order": False, "shape": (1 << 30, 828)}
    )
    out = io.BytesIO()
    with zipfile.ZipFile(io.BytesIO(data)) as src, zipfile.ZipFile(out, "w") as dst:
        for name in src.namelist():
            held = header.getvalue() + bytes(8) if name == "obs.npy" else src.read(name)
            dst.writestr(name, held)
    return out.getvalue()


@pytest.mark.parametrize("damage", [_cut_short, _no_zip, _empty, _huge_obs_header])
def test_a_shard_file_that_is_no_npz_is_a_clean_dataset_error(
    tmp_path: Path, damage: Any
) -> None:
    """selfplay_dataset on a shard file cut short, no zip at all or empty was
    zipfile's BadZipFile / EOFError traceback, and one whose ``obs`` header declares
    3 TiB made ``np.load`` try to allocate it (MemoryError); each is the GameError
    'not a self-play run', the shard read by the checked reader that
    ``MlpPolicy.load`` uses (``ofc_fast.files.read_npz``)."""
    from ofc_fast.env.imitation import selfplay_dataset
    from ofc_fast.errors import GameError

    out = tmp_path / "run"
    selfplay(spec(4), str(out), progress=False)
    shard = out / "shard-000000.npz"
    shard.write_bytes(damage(shard.read_bytes()))
    with pytest.raises(GameError, match="not a self-play run"):
        selfplay_dataset(out)


DATASET_MANIFESTS = {
    "version 2": lambda text: text.replace(b'"version": 1', b'"version": 2', 1),
    "another format": lambda text: text.replace(b"ofc-fast/selfplay", b"ofc-fast/x", 1),
    "nested 100,000 deep": lambda text: b"[" * 100_000 + b"]" * 100_000,
    "a key twice": lambda text: text.replace(b"{", b'{"shards": [],', 1),
}


@pytest.mark.parametrize("case", sorted(DATASET_MANIFESTS))
def test_selfplay_dataset_reads_the_manifest_as_selfplay_does(
    tmp_path: Path, case: str
) -> None:
    """Regression: selfplay_dataset read manifest.json on its own: one of another
    format version (or no self-play manifest at all) was read as this one, its
    shards taken as v1 data, one giving ``shards`` twice was read, and one nested
    deeply was a RecursionError traceback; it now reads it with load_manifest, so
    each is the GameError 'not a self-play run' naming the manifest."""
    from ofc_fast.env.imitation import selfplay_dataset
    from ofc_fast.errors import GameError

    out = tmp_path / "run"
    selfplay(spec(4), str(out), progress=False)
    manifest = out / "manifest.json"
    manifest.write_bytes(DATASET_MANIFESTS[case](manifest.read_bytes()))
    with pytest.raises(GameError, match=r"not a self-play run \(.*manifest\.json: "):
        selfplay_dataset(out)


@pytest.mark.parametrize("where", ["other run", "parent folder", "index 1's"])
def test_selfplay_dataset_reads_only_the_run_s_own_shards(
    tmp_path: Path, where: str
) -> None:
    """Regression: selfplay_dataset read each shard at the path its manifest entry
    names: an edited manifest naming another run's shard (an absolute path, or
    ``../``) or another index's file had that data read silently, as this run's; an
    entry must name its own index's files (``shard_paths``), else the GameError 'not
    a self-play run' names the manifest and the entry."""
    from ofc_fast.env.imitation import selfplay_dataset
    from ofc_fast.errors import GameError

    other, out = tmp_path / "other", tmp_path / "run"
    selfplay(spec(4), str(other), shard_size=2, progress=False)
    selfplay(spec(4), str(out), shard_size=2, progress=False)
    named = {
        "other run": str(other / "shard-000000.npz"),
        "parent folder": "../other/shard-000000.npz",
        "index 1's": "shard-000001.npz",
    }[where]
    edit_manifest(out, lambda d: d["shards"][0]["files"].update(npz=named))
    with pytest.raises(GameError, match=r"not a self-play run .*shard 0's files must be"):
        selfplay_dataset(out)


def test_selfplay_dataset_reads_a_shard_listed_twice_as_selfplay_does(
    tmp_path: Path,
) -> None:
    """Regression: a manifest listing a shard twice had selfplay_dataset read its rows
    twice (80 rows of a 40-decision run, every decision in twice), while selfplay
    resuming the folder refuses it ("shard 0 is listed twice"); both refuse it now."""
    from ofc_fast.env.imitation import selfplay_dataset
    from ofc_fast.errors import GameError

    out = tmp_path / "run"
    selfplay(spec(4), str(out), shard_size=2, progress=False)
    selfplay_dataset(out)  # (read as it was written)
    edit_manifest(out, lambda d: d.update(shards=d["shards"] * 2))
    with pytest.raises(GameError, match=r"not a self-play run .*shard 0 is listed twice"):
        selfplay_dataset(out)
    with pytest.raises(SelfPlayError, match=r"shard 0 is listed twice"):
        selfplay(spec(4), str(out), shard_size=2, progress=False)


@pytest.mark.parametrize("seed", ["x", -1, 1.5, 2**64])
def test_selfplay_dataset_checks_its_seed_first(tmp_path: Path, seed: Any) -> None:
    """``selfplay_dataset(path, seed="x")`` (or -1, 1.5, 2**64) read every shard, then
    failed with NumPy's bare TypeError / ValueError: a TableError naming the seed,
    before any file is read (the path here holds no run at all)."""
    from ofc_fast.env.imitation import selfplay_dataset
    from ofc_fast.errors import TableError

    with pytest.raises(TableError, match=r"^seed: "):
        selfplay_dataset(tmp_path / "missing", seed=seed)


def test_a_shard_write_that_fails_leaves_no_temporary_file(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A shard's .npz was written to ``shard-N.npz.tmp`` and renamed, unflushed to
    disk and left behind when its write failed (a full disk): the write fails as
    it did and the folder holds no part of the shard."""
    import errno

    import ofc_fast.parallel.selfplay as selfplay_mod

    def full(path: Any, arrays: Any) -> None:
        if isinstance(path, (str, Path)):
            path = open(path, "wb")  # noqa: SIM115 - (the old call: a path)
        path.write(b"PK\x03\x04 half a shard")
        path.flush()
        raise OSError(errno.ENOSPC, "No space left on device")

    monkeypatch.setattr(selfplay_mod, "write_npz", full)
    with pytest.raises(OSError, match="No space left"):
        selfplay(spec(), tmp_path, shard_size=2, progress=False)
    assert not [
        p.name for p in tmp_path.iterdir() if p.name.startswith(("shard", ".shard"))
    ]
