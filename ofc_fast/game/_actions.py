"""The action ids' tables, from the C engine: what an id does with each dealt card,
and the legal ids of a decision's shape (cached)."""

from __future__ import annotations

from functools import cache
from operator import index

from .._native import ffi, lib
from ..errors import MoveError, match_choice, quote
from ..rules import NATURAL_NAMES

_ACTION_SPACE: int = lib.OFC_ACTION_SPACE
TEXT_LIMIT = 40
"""How much of a bad value a message quotes."""


def short(value: object) -> str:
    """``value`` quoted for a message, cut short (never raises: a huge int, a bad
    ``__repr__``)."""
    return quote(value, TEXT_LIMIT + 3)


def action_id(action: object) -> int:
    """``action`` as an action id 0..``ACTION_SPACE - 1``: an int or what stands for one
    (``__index__``: a NumPy int); MoveError ``bad_action`` for a bool, a non-int or an
    id out of range."""
    if type(action) is int:
        a: int = action
    elif isinstance(action, bool):
        raise MoveError("an action id is an int, not a bool", "bad_action")
    else:
        try:
            a = index(action)  # type: ignore[arg-type]
        except TypeError:
            raise MoveError(
                f"an action id is an int, got {type(action).__name__}", "bad_action"
            ) from None
    if not 0 <= a < _ACTION_SPACE:
        raise MoveError(
            f"action {quote(a)} is outside 0..{_ACTION_SPACE - 1}", "bad_action"
        )
    return a


def natural_name(declare: object) -> str:
    """A move's ``declare`` as :data:`~ofc_fast.rules.NATURAL_NAMES` spells it, read
    as a rule set reads a natural's name (any case, a space or ``-`` for each ``_``:
    ``"Dragon"``); a text that names none as given (the game names it); MoveError
    for what is no text."""
    if not isinstance(declare, str):
        raise MoveError(
            f"declare must be a natural's name, got {short(declare)}", "declare"
        )
    return match_choice(declare, NATURAL_NAMES) or declare


def destinations_table(n: int, k: int) -> tuple[tuple[int, ...] | None, ...]:
    """Per action id 0..242: what it does with each of ``n`` dealt cards (``k``
    discarded), a row 0..2 or ``DISCARD`` per card, or None when the id does not exist
    for (n, k).  Computed by the C engine (``ofc_action_decode``), cached; the counts
    are checked on every call (``3.0`` or ``True`` are no counts, though they hash as
    ``3`` and ``1``)."""
    if not (type(n) is int and type(k) is int and 0 <= k < n <= 5):
        raise MoveError(
            f"no normal decision deals {n!r} card(s) with {k!r} discard(s)", "bad_action"
        )
    return _destinations(n, k)


@cache
def _destinations(n: int, k: int) -> tuple[tuple[int, ...] | None, ...]:
    """:func:`destinations_table` of checked counts."""
    dest = ffi.new("uint8_t[5]")
    return tuple(
        tuple(dest[0:n]) if lib.ofc_action_decode(n, k, a, dest) == 0 else None
        for a in range(_ACTION_SPACE)
    )


def action_destinations(n: int, k: int, action: int) -> tuple[int, ...] | None:
    """What action ``action`` does with each of ``n`` dealt cards (see
    :func:`destinations_table`); None when the id does not exist for (n, k)."""
    if type(action) is not int or not 0 <= action < _ACTION_SPACE:
        return None
    if type(n) is int and type(k) is int and 0 <= k < n <= 5:
        return (TABLES[n * 5 + k] or table_of(n, k))[action]
    return destinations_table(n, k)[action]  # raises MoveError


TABLES: list[tuple[tuple[int, ...] | None, ...] | None] = [None] * 30
"""destinations_table(n, k) at n * 5 + k (0 <= k < n <= 5), filled on first use:
plain indexing is cheaper than the lru_cache's call on the hot path of
Move.from_action."""


def table_of(n: int, k: int) -> tuple[tuple[int, ...] | None, ...]:
    """``destinations_table(n, k)``, kept in :data:`TABLES` for the next call."""
    table = TABLES[n * 5 + k] = destinations_table(n, k)
    return table


def legal_actions_of(n: int, k: int, free: tuple[int, int, int]) -> tuple[int, ...]:
    """Legal action ids of a decision of that shape, from the engine
    (``ofc_actions_legal``), cached; MoveError for a shape no normal decision has
    (counts that are no ints included: they never reach the cache)."""
    if type(n) is int and type(k) is int and type(free) is tuple:
        try:
            return _legal_actions(n, k, free)
        except TypeError:  # a tuple holding something unhashable
            pass
    raise _no_decision(n, k, free)


@cache
def _legal_actions(n: int, k: int, free: tuple[int, int, int]) -> tuple[int, ...]:
    """:func:`legal_actions_of` once its arguments are hashable; only a shape the
    engine accepts is cached (it raises for the others)."""
    out = ffi.new("uint8_t[]", _ACTION_SPACE)
    # free slots: ints the engine's uint8_t holds (a board's are 0..5)
    ok = len(free) == 3 and all(type(x) is int and 0 <= x <= 0xFF for x in free)
    ok = ok and 0 <= k < n <= 5
    count = lib.ofc_actions_legal(n, k, free, out, ffi.NULL) if ok else -1
    if count < 0:
        raise _no_decision(n, k, free)
    return tuple(out[0:count])


def _no_decision(n: object, k: object, free: object) -> MoveError:
    return MoveError(
        f"no normal decision deals {short(n)} card(s) with {short(k)} discard(s) "
        f"onto free rows {short(free)}",
        "bad_action",
    )
