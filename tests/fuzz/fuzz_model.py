"""Fuzz the model files a user loads: value-model bytes (ValueModel.from_bytes and
load_model: random bytes, a shipped or a small model with bytes overwritten, its
header's sizes or version replaced, cut short or extended, the small one's checksums
stamped again) and saved policies (load_policy on ``.npz`` files whose arrays have
any dtype, shape or header, or whose bytes are damaged).

Contract: only OfcError (ModelError, BotError); never a crash, a hang or an allocation
of the size a file declares but does not hold (run.sh caps memory); an accepted value
model values a board to a finite number or names the problem, an accepted policy
picks a legal move or names the problem.
"""

from __future__ import annotations

import io
import math
import os
import struct
import tempfile
import zipfile

import atheris
import numpy as np
from _common import main, ours

from ofc_fast import rules
from ofc_fast.bots.policy import load_policy, policy_bot
from ofc_fast.encoding import FEATURE_SIZE
from ofc_fast.game import ACTION_SPACE, Game
from ofc_fast.learned import ValueModel, load_model
from ofc_fast.learned.model import FEATURES, MODEL_DIR, model_bytes

SHIPPED = [p.read_bytes() for p in sorted(MODEL_DIR.glob("*.ofcvm"))]
_ONE = [(np.full((1, FEATURES), 0.01), np.zeros(1))]
_TWO = [(np.full((3, FEATURES), 0.01), np.zeros(3)), (np.ones((1, 3)), np.ones(1))]
SMALL = [  # small models (a checksum is quick to stamp again after an edit)
    model_bytes([(5, _ONE)], "pineapple", 2),
    model_bytes([(5, _TWO), (9, _ONE)], "ofc", 0),
    model_bytes([(7, _ONE)], "pineapple", 3),
]


def fnv1a64(data: bytes | bytearray) -> int:
    """FNV-1a 64 of ``data`` (the format's checksums)."""
    h = 0xCBF29CE484222325
    for byte in data:
        h = ((h ^ byte) * 0x100000001B3) & 0xFFFFFFFFFFFFFFFF
    return h


def stamp(data: bytearray) -> None:
    """The header's payload size and checksum (FNV-1a 64) made right for the payload,
    then its header checksum (bytes 52..59: version 3's, 0 in versions 1 and 2), so
    an edit reaches the checks past them."""
    data[16:20] = struct.pack("<I", max(0, len(data) - 64))
    data[40:48] = struct.pack("<Q", fnv1a64(data[64:]))
    version = struct.unpack_from("<I", data, 8)[0]
    data[52:60] = struct.pack("<Q", fnv1a64(data[:52]) if version >= 3 else 0)


BOARDS = ["", "Qh Qd / 9s 9h 9d / As Ks", "Qh Qd 2c / 9s 9h 9d 5c 5d / As Ks Qs Js Ts"]
DIR = tempfile.mkdtemp(prefix="fuzz_model-")
OBS = Game(rules.PINEAPPLE, 2, seed=3).observation(0)
DTYPES = ["float32", "float64", "int8", "uint16", "bool", "complex64", "U3", "S2", "O"]


def value_model_bytes(fdp: atheris.FuzzedDataProvider) -> bytes:
    """Random bytes, or a shipped model damaged: bytes or header words overwritten,
    cut short or extended."""
    if fdp.ConsumeIntInRange(0, 4) == 0:
        return fdp.ConsumeBytes(fdp.ConsumeIntInRange(0, 600))
    small = fdp.ConsumeBool()
    data = bytearray(fdp.PickValueInList(SMALL if small else SHIPPED))
    for _ in range(fdp.ConsumeIntInRange(1, 4)):
        kind = fdp.ConsumeIntInRange(0, 3)
        if kind == 0:  # a header word: a size, a count, a version
            at = 4 * fdp.ConsumeIntInRange(0, 15)
            word = fdp.PickValueInList([0, 1, 0xFFFFFFFF, 0x7FFFFFFF, fdp.ConsumeInt(4)])
            data[at : at + 4] = struct.pack("<I", word & 0xFFFFFFFF)
        elif kind == 1:  # any byte
            data[fdp.ConsumeIntInRange(0, len(data) - 1)] = fdp.ConsumeIntInRange(0, 255)
        elif kind == 2:
            del data[fdp.ConsumeIntInRange(0, len(data)) :]
        else:
            data += fdp.ConsumeBytes(fdp.ConsumeIntInRange(0, 64))
        if not data:
            break
    if small and len(data) >= 64 and fdp.ConsumeIntInRange(0, 3):
        stamp(data)
    return bytes(data)


def check_value_model(m: ValueModel, fdp: atheris.FuzzedDataProvider) -> None:
    board = fdp.PickValueInList(BOARDS)
    preset = fdp.PickValueInList(["pineapple", "ofc"])
    ok, v = ours(m.value, board, preset, fdp.PickValueInList([2, 3]))
    assert not ok or math.isfinite(v), v


def npy(array: np.ndarray, fdp: atheris.FuzzedDataProvider) -> bytes:
    """``array`` as .npy bytes, its header's shape or dtype now and then replaced."""
    buf = io.BytesIO()
    np.save(buf, array, allow_pickle=True)
    raw = buf.getvalue()
    if fdp.ConsumeIntInRange(0, 3) == 0:
        shape = repr(tuple(array.shape)).encode()
        size = fdp.PickValueInList([0, 1, 7, 2**20, 2**31, 2**40, 10**15])
        new = fdp.PickValueInList([f"({size},)", f"({size}, {size})", "(-1,)", "()"])
        raw = raw.replace(shape, new.encode(), 1)
    if fdp.ConsumeIntInRange(0, 5) == 0:
        raw = raw[: fdp.ConsumeIntInRange(0, len(raw))]
    return raw


def policy_file(fdp: atheris.FuzzedDataProvider) -> str:
    """An .npz of a one-layer policy, its arrays of any dtype and shape, its meta
    any text, its bytes now and then damaged."""
    rows = fdp.PickValueInList([ACTION_SPACE, ACTION_SPACE, 3, 0])
    cols = fdp.PickValueInList([FEATURE_SIZE, FEATURE_SIZE, 828, 1])
    arrays: dict[str, np.ndarray] = {
        "p0": np.zeros((rows, cols), np.float32),
        "p1": np.zeros(rows, np.float32),
        "meta_activations": np.array(fdp.PickValueInList(["linear", "relu", "x", ""])),
    }
    for _ in range(fdp.ConsumeIntInRange(0, 3)):
        key = fdp.PickValueInList(["p0", "p1", "p2", "meta_obs_type", "meta_rules"])
        shape = fdp.PickValueInList([(), (2,), (rows,), (rows, cols), (1, 1, 1)])
        dtype = fdp.PickValueInList(DTYPES)
        arrays[key] = np.zeros(shape, dtype)
        if dtype == "U3" and key.startswith("meta"):
            arrays[key] = np.array(fdp.ConsumeUnicodeNoSurrogates(12))
    out = io.BytesIO()
    with zipfile.ZipFile(out, "w", fdp.PickValueInList([0, 8])) as z:
        for key, a in arrays.items():
            z.writestr(f"{key}.npy", npy(a, fdp))
    data = bytearray(out.getvalue())
    if fdp.ConsumeIntInRange(0, 4) == 0 and data:
        data[fdp.ConsumeIntInRange(0, len(data) - 1)] = fdp.ConsumeIntInRange(0, 255)
    path = os.path.join(DIR, "policy.npz")
    with open(path, "wb") as f:
        f.write(data)
    return path


def test_one_input(data: bytes) -> None:
    fdp = atheris.FuzzedDataProvider(data)
    mode = fdp.ConsumeIntInRange(0, 2)
    if mode == 0:
        ok, m = ours(ValueModel.from_bytes, value_model_bytes(fdp))
    elif mode == 1:
        path = os.path.join(DIR, "model.ofcvm")
        with open(path, "wb") as f:
            f.write(value_model_bytes(fdp))
        ok, m = ours(load_model, path)
    else:
        path = policy_file(fdp)
        ok, _ = ours(load_policy, path)
        if ok:
            made, bot = ours(policy_bot, path, "pineapple", 1)
            if made:
                moved, move = ours(bot.act, OBS)
                assert not moved or move is not None
        return
    if ok:
        check_value_model(m, fdp)


if __name__ == "__main__":
    main(test_one_input)
