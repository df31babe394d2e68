"""Reading a move's parts and a decision's arguments, as :mod:`ofc_fast.game.moves`
takes them: one card (:func:`read_card`), one row (:func:`read_row`), cards as text,
one card or a sequence (:func:`read_cards`), a NumPy integer as the int
(:func:`plain`), a field of a move's plain data (:func:`listed`, :func:`read_at`), the
dealt cards as a tuple (:func:`card_tuple`), the rows of a board and their free slots
(:func:`board_of`, :func:`free_in`); each refusal a MoveError (CardError for a bad or
repeated card on a board)."""

from __future__ import annotations

from collections.abc import Callable, Iterable, Sequence
from operator import index
from typing import Any

import numpy as np

from ..board import Board, Row, free_slots
from ..cards import is_many, parse_card, parse_cards, refuse_unordered
from ..errors import BoardError, MoveError, OfcError
from ..table import as_int
from ._actions import short


def read_card(value: object) -> int:
    """``value`` as a card id: an id 0..51 (a NumPy int too) or text such as ``'As'``,
    else MoveError."""
    if type(value) is int and 0 <= value < 52:
        return value
    if isinstance(value, bool):
        raise MoveError(f"bad card {value!r}: a bool is not a card", "bad_move")
    try:
        return parse_card(value if isinstance(value, str) else index(value))  # type: ignore[arg-type]
    except (OfcError, TypeError):
        raise MoveError(
            f"bad card {short(value)}: expected a card id 0..51 or text such as 'As'",
            "bad_move",
        ) from None


def read_row(value: object) -> int:
    """``value`` as a row number: 0 (front), 1 (middle), 2 (back), a :class:`Row` or a
    row name, else MoveError."""
    if type(value) is Row:
        return int(value)
    if isinstance(value, str):
        try:
            return int(Row.parse(value))
        except OfcError as exc:
            raise MoveError(str(exc), "bad_move") from None
    if not isinstance(value, bool):
        try:
            r = index(value)  # type: ignore[arg-type]
        except TypeError:
            r = -1
        if 0 <= r <= 2:
            return r
    raise MoveError(
        f"bad row {short(value)}: expected 0 (front), 1 (middle), 2 (back) or a row name",
        "bad_move",
    )


def read_cards(value: object, what: str = "") -> list[int]:
    """The cards of ``value``: text, one card or a sequence of cards; ``what``: a row
    (or the discards) of a setting, text or a sequence only (a NumPy array is no one
    card there), named in the MoveError."""
    if isinstance(value, str):
        try:
            return parse_cards(value)
        except OfcError as exc:
            raise MoveError(str(exc), "bad_move") from None
    if not what and (
        type(value) is int
        or (
            hasattr(value, "__index__")
            and not isinstance(value, bool)
            and not is_many(value)  # a 1-d array has __index__, yet holds several cards
        )
    ):
        return [read_card(value)]
    try:
        refuse_unordered(value)
    except OfcError as exc:
        raise MoveError(f"{what}: {exc}" if what else str(exc), "bad_move") from None
    try:
        items = list(value)  # type: ignore[call-overload]
    except TypeError:
        raise MoveError(
            f"{what}: expected text or a sequence of cards, got {short(value)}"
            if what
            else f"bad cards {short(value)}: expected a card, text or a sequence of cards",
            "bad_move",
        ) from None
    return [read_card(c) for c in items]


def plain(value: Any) -> Any:
    """A NumPy integer (an action id or a count read from an array) as the Python int,
    anything else as it is (then refused by the type checks that follow)."""
    n = as_int(value)
    return value if n is None else n


def listed(value: object, field: str, what: str, size: int | None = None) -> list[Any]:
    """The items of ``value``, a list, a tuple or a NumPy array (the dict form of a
    move, data from JSON) of ``size`` items if given, else MoveError naming ``field``
    and ``what`` it must be."""
    if isinstance(value, (list, tuple)) or (
        isinstance(value, np.ndarray) and value.ndim >= 1
    ):
        items = list(value)
        if size is None or len(items) == size:
            return items
    raise MoveError(f"{field}: {what}, got {short(value)}", "bad_move")


def read_at(read: Callable[[object], int], value: object, field: str) -> int:
    """``read(value)`` (a card or a row), its MoveError naming ``field``."""
    try:
        return read(value)
    except MoveError as exc:
        raise MoveError(f"{field}: {exc}", exc.reason) from None


def free_in(rows: Sequence[Sequence[int]]) -> tuple[int, int, int]:
    """The free slots of ``rows``, their cards read only where a row is text (see
    :func:`board_of`; else their counts alone: any placeholders); MoveError for rows
    that do not fit a board."""
    if isinstance(rows, (str, Board)) or (
        isinstance(rows, Sequence) and any(isinstance(r, str) for r in rows)
    ):
        rows = board_of(rows).rows
    return free_slots_of(rows)


def free_slots_of(rows: Sequence[Sequence[int]]) -> tuple[int, int, int]:
    """The free slots of ``rows`` (front, middle, back), from their lengths;
    MoveError for rows that do not fit a board."""
    try:
        return free_slots(rows)
    except BoardError as exc:
        raise MoveError(str(exc), "bad_move") from None


def board_of(rows: object) -> Board:
    """``rows`` (front, middle, back: card ids or text each; a Board or board text) as
    a Board: CardError for a bad or repeated card, MoveError for what is no three rows
    of cards that fit a board."""
    if isinstance(rows, Board):
        return rows
    try:
        if isinstance(rows, str):
            return Board.parse(rows)
        if isinstance(rows, Sequence) and len(rows) == 3:
            front, middle, back = rows
            if all(type(r) is list or type(r) is tuple for r in rows):  # the usual ids
                return Board.from_ids(tuple(front), tuple(middle), tuple(back))
            return Board(front, middle, back)
    except BoardError as exc:
        raise MoveError(str(exc), "bad_move") from None
    free_slots_of(rows)  # type: ignore[arg-type] # the MoveError naming what is wrong
    raise MoveError(f"rows must be (front, middle, back), got {short(rows)}", "bad_move")


def card_tuple(dealt: Iterable[Any]) -> tuple[Any, ...]:
    """The dealt cards as a tuple (text parsed by :func:`~ofc_fast.cards.parse_cards`),
    or MoveError for what holds no cards (None, a number, a mapping or a set: the
    order of dealt cards matters)."""
    if isinstance(dealt, str):
        return tuple(read_cards(dealt))
    try:
        refuse_unordered(dealt)
    except OfcError as exc:
        raise MoveError(f"dealt cards: {exc}", "bad_move") from None
    try:
        return tuple(dealt)
    except TypeError:
        raise MoveError(
            f"dealt cards: expected a list of cards, got {short(dealt)}", "bad_move"
        ) from None
