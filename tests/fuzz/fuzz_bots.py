"""Fuzz what a caller hands the bots and the encoders: observation dicts of real games
(every OFC and Pineapple preset, classic hands, Fantasyland sets) with fields replaced
by arbitrary objects, or given as NumPy arrays of any dtype (as NumPy code holds them),
given to every built-in bot's act() and to encode, encode_bytes, features and
action_mask; and make_bot / make_bots with names of any text (registry names,
``value@PATH``, ``search@PATH`` and ``policy:PATH`` specs of damaged files) and
settings of any value.

Contract: only OfcError (ObservationError, GameError, BotError, ...); a bot's move on
an untouched observation (its lists given as arrays of a wide enough int dtype or not)
is legal; encodings have their documented shapes; make_bot never imports a module
unless the name is a ``module:attribute`` spec (the harness gives it none: importing
any module a fuzzer names would run it).
"""

from __future__ import annotations

import copy
import os
import sys
import tempfile
from typing import Any

import atheris
import numpy as np
from _common import any_object, main, mutate, ours

from ofc_fast.bots import make_bot, make_bots
from ofc_fast.bots.policy import MlpPolicy
from ofc_fast.bots.registry import is_bot_spec, model_spec
from ofc_fast.encoding import (
    ENCODING_SIZE,
    FEATURE_SIZE,
    action_mask,
    encode,
    encode_bytes,
    features,
)
from ofc_fast.game import ACTION_SPACE, Game

DIR = tempfile.mkdtemp(prefix="fuzz_bots-")
POLICY = MlpPolicy(
    [
        np.zeros((ACTION_SPACE, FEATURE_SIZE), np.float32),
        np.zeros(ACTION_SPACE, np.float32),
    ],
    ["linear"],
).save(os.path.join(DIR, "policy.npz"))
with open(os.path.join(DIR, "bad.ofcvm"), "wb") as _f:
    _f.write(b"OFCVM\0\0\0" + bytes(80))
FILES = [POLICY, os.path.join(DIR, "bad.ofcvm"), os.path.join(DIR, "missing"), DIR, ""]
SETTINGS = {  # small budgets: the harness must stay fast
    "heuristic": {"samples": 2, "arrangements": 2, "exhaustive": 20},
    "random": {},
    "search": {"time_budget": 0.002, "samples": 2},
    "value": {},
    f"policy:{POLICY}": {},
}
BOTS = {
    (preset, name): make_bot(name, preset, seed=1, **kw)
    for preset in ("pineapple", "ofc", "CLASSIC_1_6")
    for name, kw in SETTINGS.items()
    if preset != "CLASSIC_1_6" or name in ("heuristic", "random")
}


def _observations() -> list[tuple[str, dict[str, Any]]]:
    """Observations along real deals: the first decision, later streets, a
    Fantasyland set, a classic hand, for 2 and 3 seats."""
    out = []
    for preset, players, fl in (
        ("pineapple", 2, [0, 0]),
        ("pineapple", 3, [0, 14, 0]),
        ("ofc", 2, [0, 0]),
        ("CLASSIC_1_6", 2, [0, 0]),
    ):
        g = Game(preset, players, seed=7, fantasyland=fl)
        for step in range(4):
            if g.is_over:
                break
            out.append((preset, g.observation(g.to_act)))
            g.play(BOTS[(preset, "random")].act(out[-1][1]))
            del step
    return out


OBSERVATIONS = _observations()
NAMES = [*SETTINGS, "Heuristic ", "policy", "value@", "search@", "policy:", "x:y:z"]


def bot_name(fdp: atheris.FuzzedDataProvider) -> Any:
    """A registry name, a spec naming a file of DIR, any text or any object."""
    kind = fdp.ConsumeIntInRange(0, 4)
    if kind == 0:
        return fdp.PickValueInList(NAMES)
    if kind == 1:
        head = fdp.PickValueInList(["value@", "search@", "policy:", "Value@ ", " policy: "])
        return head + fdp.PickValueInList(FILES)
    if kind == 2:
        return fdp.ConsumeUnicodeNoSurrogates(fdp.ConsumeIntInRange(0, 30))
    if kind == 3:
        return ",".join(
            fdp.PickValueInList(NAMES) for _ in range(fdp.ConsumeIntInRange(1, 5))
        )
    return any_object(fdp)


def safe(name: object) -> bool:
    """Whether make_bot may be given ``name``: anything but a ``module:attribute``
    spec (which imports the module it names)."""
    parts = name.split(",") if isinstance(name, str) else [name]
    return not any(
        is_bot_spec(p) and model_spec(p) is None and not p.strip().startswith("policy:")
        for p in parts
    )


def check_make(fdp: atheris.FuzzedDataProvider) -> None:
    name = bot_name(fdp)
    if not safe(name):
        return
    settings = {
        fdp.PickValueInList(
            ["samples", "model", "time_budget", "path", "fl_value", "opponent", "x"]
        ): any_object(fdp)
        for _ in range(fdp.ConsumeIntInRange(0, 2))
    }
    preset = fdp.PickValueInList(["pineapple", "ofc", None, "CLASSIC_1_6", any_object(fdp)])
    seed = fdp.PickValueInList([None, 1, any_object(fdp)])
    before = set(sys.modules)
    if fdp.ConsumeBool():
        ok, bot = ours(make_bot, name, preset, seed, **settings)
        assert not ok or callable(bot.act)
    else:
        ok, bots = ours(make_bots, name, fdp.ConsumeIntInRange(1, 5), preset, seed)
        assert not ok or all(callable(b.act) for b in bots)
    new = {m for m in set(sys.modules) - before if not m.startswith(("ofc_fast", "numpy"))}
    assert not {m for m in new if m.split(".")[0] not in sys.builtin_module_names} or all(
        m.startswith(("sb3_contrib", "stable_baselines3", "torch", "gymnasium"))
        for m in new
    ), (name, sorted(new)[:5])


def check_encoders(obs: dict[str, Any], fdp: atheris.FuzzedDataProvider) -> None:
    fn = fdp.PickValueInList([encode, encode_bytes, features, action_mask])
    ok, x = ours(fn, obs)
    if ok:
        size = {encode: ENCODING_SIZE, encode_bytes: ENCODING_SIZE, features: FEATURE_SIZE}
        assert x.shape == (size.get(fn, ACTION_SPACE),), (fn, x.shape)


ARRAY_FIELDS = [
    "boards",
    "dealt",
    "discards",
    "legal_actions",
    "fantasyland",
    "discard_counts",
    "face_down_counts",
]
DTYPES = ["uint8", "int16", "int32", "int64", "uint64", "int8", "float64", "bool", "object"]
EXACT = {"uint8", "int16", "int32", "int64", "uint64"}  # hold every card, action, count


def _array(value: Any, dtype: str) -> Any:
    """``value`` as a NumPy array of ``dtype`` (cast as NumPy casts), or as it is where
    NumPy makes no array of it."""
    try:
        return np.array(value).astype(dtype)
    except (ValueError, TypeError, OverflowError):
        return value


def as_arrays(obs: dict[str, Any], fdp: atheris.FuzzedDataProvider) -> bool:
    """Some list fields of ``obs`` as NumPy arrays, as NumPy code holds them (the
    boards whole, per seat or per row); whether every array holds its list exactly
    (an int dtype wide enough): then a bot reads the same observation."""
    exact = True
    for _ in range(fdp.ConsumeIntInRange(1, 4)):
        key = fdp.PickValueInList(ARRAY_FIELDS)
        value = obs.get(key)
        dtype = fdp.PickValueInList(DTYPES)
        exact = exact and dtype in EXACT
        if key == "boards" and isinstance(value, list):
            how = fdp.ConsumeIntInRange(0, 2)
            if how == 1:
                obs[key] = [_array(seat, dtype) for seat in value]
                continue
            if how == 2 and all(isinstance(seat, list) for seat in value):
                obs[key] = [[_array(row, dtype) for row in seat] for seat in value]
                continue
        obs[key] = value if value is None else _array(value, dtype)
    return exact


def test_one_input(data: bytes) -> None:
    fdp = atheris.FuzzedDataProvider(data)
    if fdp.ConsumeIntInRange(0, 3) == 0:
        check_make(fdp)
        return
    preset, good = fdp.PickValueInList(OBSERVATIONS)
    obs = copy.deepcopy(good)
    touched = fdp.ConsumeIntInRange(0, 4)
    for _ in range(touched):
        if fdp.ConsumeIntInRange(0, 5) == 0:  # a field removed, or one more
            key = fdp.PickValueInList(sorted(obs))
            if fdp.ConsumeBool():
                del obs[key]
            else:
                obs[fdp.ConsumeUnicodeNoSurrogates(8)] = any_object(fdp)
        else:
            mutate(obs, fdp, depth=3)
    exact = fdp.ConsumeIntInRange(0, 2) != 0 or as_arrays(obs, fdp)
    if fdp.ConsumeBool():
        check_encoders(obs, fdp)
        return
    names = [n for p, n in BOTS if p == preset]
    bot = BOTS[(preset, fdp.PickValueInList(names))]
    ok, move = ours(bot.act, obs)
    if touched == 0 and exact:  # (legality: the game harnesses'; here: it answered)
        assert ok and move is not None, "a bot refused a real observation"


if __name__ == "__main__":
    main(test_one_input)
