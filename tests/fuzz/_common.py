"""Shared helpers of the atheris harnesses in tests/fuzz (see tests/fuzz/run.sh).

Every harness asserts the library's contract: a bad input raises an ``OfcError``
subclass (ofc_fast/errors.py), nothing else; a good input gives a result in range.
Any other exception, a failed assertion, or a crash is a finding: atheris stops, prints
the traceback and writes the input to a ``crash-*`` file.
"""

from __future__ import annotations

import math
import sys
from collections.abc import Callable
from typing import Any

import atheris

with atheris.instrument_imports(include=["ofc_fast"]):
    import ofc_fast  # noqa: F401  (instrumented once for every harness)

from ofc_fast.errors import OfcError

__all__ = ["CARD_TEXTS", "OfcError", "any_object", "main", "mutate", "ours"]

CARD_TEXTS = [
    "As",
    "10h",
    "kd",
    "2c",
    "T♠",
    "Q♡",
    "Aſ",
    "\u212as",
    "1O",
    "",
    " ",
    "Zz",
    "AsKd",
    "As,Kd",
    "As  Kd",
    "A",
    "s",
    "10",
    "2c-3c",
]


def ours(fn: Callable[..., Any], *args: Any, **kwargs: Any) -> tuple[bool, Any]:
    """(True, result) when the call succeeds, (False, None) when it raises one of our
    errors; any other exception propagates (a finding)."""
    try:
        return True, fn(*args, **kwargs)
    except OfcError:
        return False, None


def _number(fdp: atheris.FuzzedDataProvider) -> Any:
    kind = fdp.ConsumeIntInRange(0, 9)
    if kind == 0:
        return fdp.ConsumeIntInRange(0, 51)
    if kind == 1:
        return fdp.ConsumeIntInRange(-3, 60)
    if kind == 2:
        return fdp.ConsumeInt(fdp.ConsumeIntInRange(1, 16))
    if kind == 3:
        return 10 ** fdp.ConsumeIntInRange(10, 5000) * (1 if fdp.ConsumeBool() else -1)
    if kind == 4:
        return fdp.ConsumeBool()
    if kind == 5:
        return fdp.PickValueInList([math.nan, math.inf, -math.inf, 0.5, -0.0, 1e308, 14.0])
    if kind == 6:
        import numpy as np

        return np.array(fdp.ConsumeIntInRange(-300, 300)).astype(
            fdp.PickValueInList(["int8", "uint8", "int64", "float32", "bool"])
        )[()]
    if kind == 7:
        return fdp.ConsumeFloat()
    if kind == 8:
        return complex(fdp.ConsumeIntInRange(0, 51), 1)
    return fdp.ConsumeIntInRange(1, 7917)


def _key(fdp: atheris.FuzzedDataProvider) -> Any:
    """A hashable dict key: text (often a rule key), an int, None, a bool, a tuple."""
    return fdp.PickValueInList(
        [
            fdp.ConsumeUnicodeNoSurrogates(8),
            fdp.ConsumeIntInRange(-2, 20),
            None,
            True,
            (1, 2),
            "sweep_bonus",
            "royalties",
            "fantasyland",
            "entry",
            "front_pair",
            "place",
            "discard",
            "players",
            "moves",
            "rules",
            "seed",
            "deck",
        ]
    )


def any_object(fdp: atheris.FuzzedDataProvider, depth: int = 0) -> Any:
    """An arbitrary Python object built from fuzzer bytes: numbers of every kind (huge,
    bool, nan, NumPy scalars), text (card-like or any Unicode), bytes, None, lists,
    tuples, dicts, sets, NumPy arrays, deep nesting and odd objects."""
    kind = fdp.ConsumeIntInRange(0, 13 if depth < 4 else 5)
    if kind == 0:
        return _number(fdp)
    if kind == 1:
        return fdp.PickValueInList(CARD_TEXTS)
    if kind == 2:
        return fdp.ConsumeUnicodeNoSurrogates(fdp.ConsumeIntInRange(0, 40))
    if kind == 3:
        return fdp.ConsumeBytes(fdp.ConsumeIntInRange(0, 20))
    if kind == 4:
        return None
    if kind == 5:
        return fdp.PickValueInList([object(), ..., type, print, float, "x" * 100000])
    n = fdp.ConsumeIntInRange(0, 14)
    if kind in (6, 7, 8):
        items = [any_object(fdp, depth + 1) for _ in range(n)]
        return items if kind == 6 else tuple(items) if kind == 7 else iter(items)
    if kind == 9:
        return {_key(fdp): any_object(fdp, depth + 1) for _ in range(n)}
    if kind == 10:
        import numpy as np

        dtype = fdp.PickValueInList(
            ["uint8", "int8", "int32", "int64", "float64", "bool", "uint16", "object"]
        )
        data = [fdp.ConsumeIntInRange(-2, 60) for _ in range(n)]
        return np.array(data).astype(dtype)
    if kind == 11:
        nested: Any = []
        for _ in range(fdp.ConsumeIntInRange(1, 3000)):
            nested = [nested]
        return nested
    if kind == 12:
        return [
            fdp.ConsumeIntInRange(0, 51) for _ in range(fdp.PickValueInList([3, 5, 13]))
        ]
    return fdp.ConsumeIntListInRange(n, 0, 60)


def mutate(
    data: Any,
    fdp: atheris.FuzzedDataProvider,
    depth: int = 4,
    make: Callable[[atheris.FuzzedDataProvider], Any] = any_object,
) -> None:
    """Replaces one value somewhere inside ``data`` (nested dicts and lists, at most
    ``depth`` levels down) by ``make(fdp)`` (an arbitrary object)."""
    node: object = data
    for _ in range(fdp.ConsumeIntInRange(1, depth)):
        if isinstance(node, dict) and node:
            key = fdp.PickValueInList(sorted(node, key=str))
            if fdp.ConsumeIntInRange(0, 2) == 0 or not isinstance(node[key], (dict, list)):
                node[key] = make(fdp)
                return
            node = node[key]
        elif isinstance(node, list) and node:
            i = fdp.ConsumeIntInRange(0, len(node) - 1)
            if fdp.ConsumeBool() or not isinstance(node[i], (dict, list)):
                node[i] = make(fdp)
                return
            node = node[i]
        else:
            return


def main(test_one_input: Callable[[bytes], None]) -> None:
    """Runs the harness under libFuzzer (arguments: corpus dirs and -flags)."""
    atheris.Setup(sys.argv, test_one_input)
    atheris.Fuzz()
