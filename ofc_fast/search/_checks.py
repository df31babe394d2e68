"""The search's input checks and board readers, shared by its modules (each error a
SearchError or a CardError naming the input)."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import numpy as np

from .._native import lib, status_error
from ..board import Board
from ..cards import parse_cards
from ..errors import RulesError, SearchError, SearchRulesError, flag, quote
from ..rules import RuleSet, as_rules

__all__ = [
    "exact_nodes",
    "exact_stopped_advice",
    "fl_count",
    "flag",
    "in_range",
    "int_in",
    "raise_status",
    "rows_of",
    "search_rules",
    "seq",
]

_EXACT_COST_CAP = 1 << 62  # ofc_search_exact_cost saturates here: no count beyond it

_LARGER_BUDGET = (
    "give a larger one, or none to search to the end (up to EXACT_NODES_MAX nodes), or "
)


def exact_nodes(cost: int) -> str:
    """The exact tree's size ``cost`` (ofc_search_exact_cost) in words: its count, or
    past _EXACT_COST_CAP (where the C count saturates) that it is at least that."""
    if cost < _EXACT_COST_CAP:
        return f"{cost:,} nodes"
    return f"at least {_EXACT_COST_CAP:,} nodes (2^62, where the count stops)"


def exact_stopped_advice(
    larger: str = _LARGER_BUDGET, true: str = "True", auto: str = "'auto'"
) -> str:
    """What a caller can do about an ``exact=True`` search stopped at its time budget:
    ``larger``, how to give it more time, its connective ending it (a Python caller:
    a larger budget, or none; an HTTP client: at most the server's cap), ``true`` and
    ``auto`` spelling exact's settings as the caller writes them."""
    return (
        f"exact {true} keeps to its time budget; {larger}let exact be {auto} "
        "for sampled values in time"
    )


def in_range(value: Any, low: float, high: float, integer: bool = False) -> bool:
    """True when ``value`` is a number, Python's or a NumPy scalar (an int when
    ``integer``; never a bool) within low..high; NaN, arrays and anything else are
    False, never an exception.

    >>> in_range(0.5, 0, 1), in_range(True, 0, 1), in_range(2.0, 0, 5, integer=True)
    (True, False, False)
    >>> in_range(np.int64(3), 0, 5, integer=True), in_range(np.float32(0.5), 0, 1)
    (True, True)
    """
    if isinstance(value, bool) or not isinstance(
        value, (int, float, np.integer, np.floating)
    ):
        return False
    if integer and not isinstance(value, (int, np.integer)):
        return False
    return bool(low <= value <= high)


def int_in(value: Any, what: str, low: int, high: int) -> int:
    """``value`` as an int within low..high (an int, not a bool), else SearchError."""
    if not in_range(value, low, high, integer=True):
        raise SearchError(f"{what} must be an int within {low}..{high}, got {quote(value)}")
    return int(value)


def fl_count(value: Any, what: str) -> int:
    """A Fantasyland count: 0 (a normal hand) or 13..17 cards, else SearchError."""
    n = int_in(value, what, 0, 17)
    if 0 < n < 13:
        raise SearchError(f"{what} must be 0 or 13..17, got {n}")
    return n


def seq(value: Any, what: str) -> list[Any]:
    """``value`` as a list (from a list or a tuple), else SearchError."""
    if not isinstance(value, (list, tuple)):
        raise SearchError(f"{what} must be a list, got {quote(value)}")
    return list(value)


def raise_status(status: int, fn: str) -> None:
    if status == lib.OFC_E_COUNT:  # here a position problem, not a bad hand
        raise SearchError(
            f"{fn}: the cards dealt and to come do not fill the free slots "
            f"({status_error(status)})"
        )
    raise status_error(status, fn, SearchError)


def rows_of(board: str | Board | Sequence[Sequence[int]]) -> list[list[int]]:
    """Rows from "front / middle / back" text (cards or '-' for empty), a Board or
    three lists of card ids."""
    if isinstance(board, Board):
        return [list(board.front), list(board.middle), list(board.back)]
    if isinstance(board, str):
        parts = board.split("/")
        if len(parts) != 3:
            raise SearchError(f"a board is 'front / middle / back', got {quote(board)}")
        return [parse_cards(p.replace("-", " ")) if p.strip() else [] for p in parts]
    rows = seq(board, "a board (text, a Board or three rows of cards)")
    if len(rows) != 3:
        raise SearchError(f"a board has three rows, got {len(rows)}")
    return [parse_cards(r) for r in rows]


def search_rules(rules: object, fn: str) -> RuleSet:
    """``rules`` through the one resolver (:func:`ofc_fast.rules.as_rules`: a RuleSet,
    a preset name or an arena game id), else :class:`SearchRulesError` naming ``fn``.

    >>> search_rules("ofc-pineapple", "search_model").name
    'PINEAPPLE'
    """
    try:
        return as_rules(rules, fn)
    except RulesError as exc:
        text = str(exc)
        raise SearchRulesError(text if text.startswith(fn) else f"{fn}: {text}") from None
