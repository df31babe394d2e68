"""Behaviour-cloning data from self-play shards (``ofc-fast selfplay`` writes them):
the decisions of normal streets as ``obs_type="features"`` rows, their action ids and
the deal's points, ready for a supervised warm start of a policy (``examples/
train_ppo.py``).  Needs only NumPy.

A shard stores each decision's encoding (:func:`ofc_fast.encoding.encode`) and its move
per card id, not the order the cards were dealt in, while action ids number the dealt
cards in deal order.  Each row gets a deal order drawn uniformly at random (as the
dealer's is), its features are computed for that order, and its action id is the
move's id in that order.

>>> import tempfile
>>> from ofc_fast.parallel import RunSpec
>>> from ofc_fast.parallel.selfplay import selfplay
>>> out = tempfile.mkdtemp()
>>> spec = RunSpec.make("pineapple", 2, 1, 4, [("random", {})], fantasyland=False)
>>> _ = selfplay(spec, out, progress=False)
>>> d = selfplay_dataset(out)
>>> d["obs"].shape, bool(d["mask"][range(len(d["action"])), d["action"]].all())
((40, 696), True)
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import numpy as np
import numpy.typing as npt

from .._native import ffi, lib
from ..encoding import SCALE, features_of_encoding
from ..errors import GameError
from ..files import NPZ_ERRORS, read_npz
from ..parallel.selfplay import MANIFEST, SelfPlayError, load_manifest, shard_paths
from ..table import check_seed

__all__ = ["selfplay_dataset"]


_ARRAYS = {"action": "iu", "obs": "f", "mask": "b", "placement": "iu", "reward": "f"}
"""A shard's arrays and their dtype kinds (as selfplay writes them): integer actions
and placements, float encodings and rewards, boolean masks."""


def _rows(shard: Path) -> dict[str, npt.NDArray[Any]]:
    """The normal decisions of one shard (ValueError when its arrays do not fit:
    their kinds ``_ARRAYS``, placements -1..3, finite rewards; KeyError for one
    missing; :data:`~ofc_fast.files.NPZ_ERRORS` for a file that is no ``.npz``)."""
    held = read_npz(shard)  # (a damaged header: ValueError, not its allocation)
    arrays = {k: held[k] for k in _ARRAYS}
    for name, kinds in _ARRAYS.items():
        if arrays[name].dtype.kind not in kinds:
            raise ValueError(f"{shard.name}: {name} of dtype {arrays[name].dtype}")
    n = len(arrays["action"])
    if (
        any(a.ndim == 0 or a.shape[0] != n for a in arrays.values())
        or arrays["action"].ndim != 1
        or arrays["reward"].ndim != 1
        or arrays["mask"].shape[1:] != (int(lib.OFC_ACTION_SPACE),)
        or arrays["placement"].shape[1:] != (52,)
    ):
        raise ValueError(f"{shard.name}: arrays that are not {n} decisions")
    keep = arrays["action"] >= 0
    rows = {k: arrays[k][keep] for k in _ARRAYS if k != "action"}
    if ((rows["placement"] < -1) | (rows["placement"] > 3)).any():
        raise ValueError(f"{shard.name}: placements outside -1..3")
    if not np.isfinite(rows["reward"]).all():
        raise ValueError(f"{shard.name}: rewards that are not finite")
    return rows


def _not_a_run(root: Path, why: str) -> GameError:
    return GameError(f"{root}: not a self-play run ({why})")


def _encodings(obs: npt.NDArray[Any], root: Path) -> npt.NDArray[Any]:
    """A shard's scaled encodings back as bytes, or GameError: no silent uint8 cast
    of NaN or of values outside 0..255."""
    if obs.ndim != 2 or obs.shape[1] != SCALE.shape[0]:
        raise _not_a_run(root, f"obs of shape {obs.shape}")
    enc = np.rint(obs / SCALE)
    if not np.isfinite(enc).all() or ((enc < 0) | (enc > 255)).any():
        raise _not_a_run(root, "obs that is no scaled encoding")
    return enc.astype(np.uint8)


def selfplay_dataset(path: str | Path, seed: int = 0) -> dict[str, npt.NDArray[Any]]:
    """The normal decisions of the self-play run in directory ``path`` (the shards
    its ``manifest.json`` lists): ``obs`` (D, FEATURE_SIZE) float32 features, ``mask``
    (D, ACTION_SPACE) bool, ``action`` (D,) int64 in a random deal order drawn from
    ``seed``, ``reward`` (D,) float32 the deciding seat's points in that deal
    (``seed``: 0..2**64-1, else TableError naming it, before a file is read).
    A shard that is no self-play data (damaged, edited: a move its mask refuses
    included) is a GameError naming it.

    >>> import tempfile
    >>> from ofc_fast.parallel import RunSpec
    >>> from ofc_fast.parallel.selfplay import selfplay
    >>> out = tempfile.mkdtemp()
    >>> selfplay_dataset(out)
    Traceback (most recent call last):
    ...
    ofc_fast.errors.GameError: ...: not a self-play run (FileNotFoundError: ...)
    >>> spec = RunSpec.make("pineapple", 2, 1, 2, [("random", {})], fantasyland=False)
    >>> _ = selfplay(spec, out, progress=False)
    >>> d = selfplay_dataset(out, seed=7)
    >>> sorted(d), d["action"].shape, d["reward"].dtype  # 2 deals, 2 seats, 5 streets
    (['action', 'mask', 'obs', 'reward'], (20,), dtype('float32'))
    """
    seed = check_seed(seed)
    root = Path(path)
    try:
        manifest = load_manifest(root)  # (its format and version checked)
        shards = [] if manifest is None else shard_paths(root, manifest)
    except SelfPlayError as exc:
        raise _not_a_run(root, str(exc)) from None
    try:
        if manifest is None:
            raise FileNotFoundError(f"no {root / MANIFEST}")
        parts = [_rows(s) for s in shards]
    except (TypeError, *NPZ_ERRORS) as exc:
        raise _not_a_run(root, f"{type(exc).__name__}: {exc}") from None
    rng = np.random.default_rng(seed)
    n = sum(len(p["reward"]) for p in parts)
    out = {
        "obs": np.zeros((n, int(lib.OFC_FEAT_SIZE)), np.float32),
        "mask": np.zeros((n, int(lib.OFC_ACTION_SPACE)), np.bool_),
        "action": np.zeros(n, np.int64),
        "reward": np.zeros(n, np.float32),
    }
    dest = ffi.new("uint8_t[5]")
    i = 0
    for shard, p in zip(shards, parts):
        enc = _encodings(p["obs"], root)
        for j in range(len(p["reward"])):
            place = p["placement"][j]
            order = rng.permutation(np.flatnonzero(place >= 0))
            rows = place[order]
            if len(rows) > len(dest):  # a normal street deals at most 5 cards
                raise _not_a_run(root, f"a move of {len(rows)} cards with an action id")
            dest[0 : len(rows)] = rows.tolist()
            action = lib.ofc_action_encode(len(rows), int((rows == 3).sum()), dest)
            if action < 0:
                raise GameError(f"{root}: a move without an action id ({action})")
            if not p["mask"][j, action]:  # legal in any deal order, if at all
                raise _not_a_run(root, f"{shard.name}: a move its mask refuses")
            out["obs"][i] = features_of_encoding(enc[j], order.tolist())
            out["action"][i] = action
            i += 1
        k = i - len(p["reward"])
        out["mask"][k:i] = p["mask"]
        out["reward"][k:i] = p["reward"]
    return out
