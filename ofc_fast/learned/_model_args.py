"""The arguments of a :class:`~ofc_fast.learned.ValueModel`'s calls, checked: a seat
count (:func:`seats`), a board as its 13 slots (:func:`board_bytes`), cards as a bit
mask (:func:`card_mask`), the Fantasyland values a table plays with
(:func:`fl_values`, :func:`check_fl_value`); each refusal a ModelError."""

from __future__ import annotations

from collections.abc import Iterable, Sequence

from .._native import lib
from ..board import Board, board_slots
from ..cards import parse_cards
from ..errors import ModelError, quote
from ..rules import RuleSet
from ..table import MAX_SEATS, as_int

FL_VALUES = int(lib.OFC_VF_FL_VALUES)  # fl_value: the worth of 0..17 Fantasyland cards
FL_MAX = 1e6  # |fl_value| C takes (ofc_value_ctx_check)
NO_CARD = 0xFF  # an empty slot of a board's bytes


def seats(players: object, any_count: bool = False) -> int:
    """``players`` as an int 2..4, or 0 (a model for any seat count) where
    ``any_count`` (ModelError naming it otherwise)."""
    n = as_int(players)
    if n is None or not (2 <= n <= MAX_SEATS or (any_count and n == 0)):
        want = "0 (any) or 2" if any_count else "an integer 2"
        raise ModelError(f"players must be {want}..{MAX_SEATS}, got {quote(players)}")
    return n


def board_bytes(board: str | Board | Sequence[Sequence[int]]) -> bytes:
    """13 slots (each row's cards first, then 0xFF) from a Board, three rows of card
    ids, or text ``"front / middle / back"``.

    >>> board_bytes("As / / Kd")[:4] == bytes([51, 255, 255, 255])
    True
    """
    if isinstance(board, Board):
        rows: list[list[int]] = [list(board.front), list(board.middle), list(board.back)]
    elif isinstance(board, str):
        parts = board.split("/")
        if len(parts) != 3:
            raise ModelError(f"a board is 'front / middle / back', got {quote(board)}")
        rows = [parse_cards(p) if p.strip() else [] for p in parts]
    else:
        try:
            rows = [parse_cards(r) for r in board]
        except TypeError:  # not a sequence of rows
            raise ModelError(
                f"a board is 'front / middle / back', a Board or three rows of cards, "
                f"got {quote(board)}"
            ) from None
        if len(rows) != 3:
            raise ModelError(f"a board has three rows, got {len(rows)}")
    return board_slots(rows, ModelError)


def card_mask(cards: Iterable[int]) -> int:
    """The bit mask of ``cards`` (bit ``c`` set for card id ``c``)."""
    m = 0
    for c in cards:
        m |= 1 << int(c)
    return m


def fl_values(rules: RuleSet) -> list[float]:
    """The Fantasyland values the search plays ``rules`` with (one per card count)."""
    from ..search.model import search_model  # the search's Fantasyland values

    return list(search_model(rules).fl_value)


def check_fl_value(fl_value: Sequence[float]) -> tuple[float, ...]:
    """``fl_value`` as :data:`FL_VALUES` floats within +-1e6, else ModelError."""
    try:
        values = tuple(float(v) for v in fl_value)
    except (TypeError, ValueError, OverflowError):  # (10**400: no float)
        values = ()
    if len(values) != FL_VALUES or not all(abs(v) <= FL_MAX for v in values):
        raise ModelError(  # (C refuses NaN, infinities and beyond: OFC_E_VALUE)
            f"fl_value holds {FL_VALUES} numbers (0..17 Fantasyland cards), each "
            f"within +-1e6, got {quote(fl_value)}"
        )
    return values
