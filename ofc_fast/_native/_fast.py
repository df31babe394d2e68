"""The per-call fast paths of the Python layer, chosen once, here, at import.

On CPython they are the builtins of the extension ``ofc_fast._native._speedups``
(``_speedups.c``, linked with the same C library as the cffi module); elsewhere (PyPy,
a build without the extension), or with the environment variable
``OFC_FAST_PORTABLE=1`` set, their portable twins in
``ofc_fast._native._portable``.  Callers import the functions from here and never
ask which they got; the differential tests run both.

>>> from ofc_fast._native import _fast
>>> _fast.rank3([51, 47, 43]) > 0, _fast.rank3("As Ks Qs")      # -1: not the fast path
(True, -1)
"""

from __future__ import annotations

import os
import sys
from collections.abc import Callable, Sequence
from types import ModuleType
from typing import Any

from . import _portable, ffi


def _native() -> ModuleType | None:
    """``_speedups`` when it serves (built, and not turned off), else None."""
    if os.environ.get("OFC_FAST_PORTABLE", "") not in ("", "0"):
        return None
    try:
        from . import _speedups
    except ImportError:  # PyPy, or a build without the extension
        return None
    return _speedups


def _address(rules: Any, /) -> Any:
    """A C ``ofc_rules *`` as the builtin ``score_pair`` takes it: its address (the
    caller keeps the pointer alive)."""
    return int(ffi.cast("uintptr_t", rules))


_impl: Any = _native() or _portable
NATIVE: bool = _impl is not _portable
"""True when the builtins of ``_speedups`` serve, False for the portable twins."""
ATOMIC_READS: bool = NATIVE and getattr(sys, "_is_gil_enabled", lambda: True)()
"""True when a builtin's read of a game's state is one step under the GIL, so it sees
the game before or after another thread's move: the builtins serve and the GIL is on
(a free-threaded build without it reads under the game's lock, as the twins do)."""

# The same names and signatures in both modules (documented in _portable).
rank5: Callable[[object], int] = _impl.rank5
rank3: Callable[[object], int] = _impl.rank3
distinct_ids: Callable[[object], bool] = _impl.distinct_ids
card_ids: Callable[[object], tuple[int, ...] | None] = _impl.card_ids
moves: Callable[
    [type[Any], Sequence[int], Sequence[Any], Sequence[int]], list[Any] | None
] = _impl.moves
observe: Callable[[bytearray, int, dict[str, Any]], dict[str, Any]] = _impl.observe
legal_actions: Callable[[bytearray], list[int] | None] = _impl.legal_actions
plain: Callable[[object], bool] = _impl.plain
plain_seat: Callable[[object, int], int] = _impl.plain_seat
plain_copy: Callable[[Any], Any] = _impl.plain_copy
place: Callable[[bytearray, tuple[int, ...], list[Any], Any], int] = _impl.place
act: Callable[[bytearray, int, list[Any]], int] = _impl.act
score_pair: Callable[[type[Any], tuple[int, ...], tuple[int, ...], Any], Any] = (
    _impl.score_pair
)
rules_handle: Callable[[Any], Any] = _address if NATIVE else _portable.rules_handle
