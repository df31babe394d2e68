"""Boards: three rows of one player (front 3, middle 5, back 5), complete or partial.

>>> import ofc_fast as ofc
>>> b = ofc.Board.parse("Qh Qd 2c / 9s 9h 9d 5c 5d / As Ks Qs Js Ts")
>>> b.is_complete, b.is_foul(), b.royalties()
(True, False, (7, 12, 25))
>>> str(b)
'Qh Qd 2c / 9s 9h 9d 5c 5d / As Ks Qs Js Ts'
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Sequence, Sized
from dataclasses import dataclass
from enum import IntEnum
from functools import lru_cache
from itertools import combinations
from operator import index
from typing import Any

import numpy as np
import numpy.typing as npt

from ._native import OK, ffi, lib, status_error
from ._native._fast import distinct_ids as _distinct_ids
from .cards import CardsLike, card_str, cards_str, check_card_ids, parse_card, parse_cards
from .errors import BoardError, CardError, NamedLookup, OfcError, match_choice, quote
from .rules import OFC, RulesLike, as_rules
from .rules.compiled import compiled
from .table import as_int

__all__ = ["ROW_SIZES", "Board", "BoardEval", "Row"]


class Row(IntEnum, metaclass=NamedLookup, error=BoardError):
    """Row of a board, in board order.

    >>> Row.parse("top"), Row.parse(2)
    (<Row.FRONT: 0>, <Row.BACK: 2>)
    """

    FRONT = 0
    MIDDLE = 1
    BACK = 2

    @classmethod
    def parse(cls, value: int | str | Row) -> Row:
        """A row from its index or name (``"front"``, ``"top"``, ``"bottom"`` ...),
        read as every text choice is (:func:`~ofc_fast.errors.match_choice`)."""
        if type(value) is cls:
            return value
        if isinstance(value, str):
            word = match_choice(value, _ROW_WORDS)
            if word is None:
                raise BoardError(f"bad row {quote(value)}: expected front, middle or back")
            return _ROWS[_ROW_WORDS[word]]
        try:
            if isinstance(value, bool):  # True is not a row (as a card id is no bool)
                raise TypeError
            r = index(value)
        except (TypeError, ValueError):  # no int (1.0, None)
            r = -1
        if 0 <= r <= 2:
            return _ROWS[r]  # (the members by index: no enum lookup)
        raise BoardError(
            f"bad row {quote(value)}: expected 0 (front), 1 (middle) or 2 (back)"
        )


_ROWS = (Row.FRONT, Row.MIDDLE, Row.BACK)
"""The rows by index."""

_ROW_WORDS = {
    **dict.fromkeys(("front", "top", "f", "t"), 0),
    **dict.fromkeys(("middle", "mid", "m"), 1),
    **dict.fromkeys(("back", "bottom", "b"), 2),
}
"""The words :meth:`Row.parse` reads, each with its row."""

ROW_SIZES: tuple[int, int, int] = (
    lib.OFC_FRONT_CARDS,
    lib.OFC_MIDDLE_CARDS,
    lib.OFC_BACK_CARDS,
)
"""Cards a full front, middle and back hold (R-ROW-1): ``(3, 5, 5)``."""
_ROW_SPLIT = re.compile(r"[/|]")


@dataclass(frozen=True)
class BoardEval:
    """A complete board evaluated under a rule set (:meth:`Board.evaluate`).

    >>> Board.parse("Qh Qd 2c / 9s 9h 9d 5c 5d / As Ks Qs Js Ts").evaluate("OFC")
    BoardEval(strengths=(3884, 7683, 7917), royalties=(7, 12, 25), foul=False)
    """

    strengths: tuple[int, int, int]
    royalties: tuple[int, int, int]
    foul: bool

    @property
    def total_royalties(self) -> int:
        """Front, middle and back royalties added up."""
        return sum(self.royalties)


class Board:
    """One player's rows.  Immutable: :meth:`place` returns a new board.

    Rows may be partial during play; the card order inside a row is kept.

    >>> b = Board.parse("Qh / - / As Ks")
    >>> b.place("9s", Row.MIDDLE)
    Board.parse('Qh / 9s / As Ks')
    >>> len(b.front), b.is_complete
    (1, False)
    """

    __slots__ = ("_cards", "_rows")

    def __init__(
        self, front: CardsLike = (), middle: CardsLike = (), back: CardsLike = ()
    ) -> None:
        rows = tuple(tuple(parse_cards(r)) for r in (front, middle, back))
        for i, (cards, size) in enumerate(zip(rows, ROW_SIZES)):  # not Row: slower
            if len(cards) > size:
                raise BoardError(
                    f"{Row(i).name.lower()} row holds at most {size} cards, "
                    f"got {len(cards)}: {cards_str(cards)!r}"
                )
        flat = rows[0] + rows[1] + rows[2]
        check_card_ids(flat, "board")
        self._rows: tuple[tuple[int, ...], ...] = rows
        self._cards = flat

    @classmethod
    def from_ids(
        cls, front: tuple[int, ...], middle: tuple[int, ...], back: tuple[int, ...]
    ) -> Board:
        """A board from tuples of card ids (the fast path for callers that hold ids,
        no text), validated: ints 0..51, no repeats, rows no longer than 3/5/5.

        >>> Board.from_ids((51, 50), (), (0,))
        Board.parse('As Ah / / 2c')
        """
        if (
            type(front) is not tuple
            or type(middle) is not tuple
            or type(back) is not tuple
            or len(front) > 3
            or len(middle) > 5
            or len(back) > 5
        ):
            return cls(front, middle, back)  # the full parser names the problem
        flat = front + middle + back
        if not _distinct_ids(flat):
            return cls(front, middle, back)
        b = object.__new__(cls)
        b._rows = (front, middle, back)
        b._cards = flat
        return b

    @classmethod
    def parse(cls, text: str) -> Board:
        """A board from text ``"front / middle / back"`` (``|`` also separates rows;
        a row may be empty during play).

        >>> Board.parse("Kh Kd / / As").rows
        ((46, 45), (), (51,))
        """
        if isinstance(text, Board):
            return text
        if not isinstance(text, str):
            raise BoardError(
                f"bad board {quote(text)}: expected text 'front / middle / back'"
            )
        parts = _ROW_SPLIT.split(text)
        if len(parts) != 3:
            raise BoardError(
                f"bad board {quote(text)}: expected three rows separated by "
                f"'/' or '|', got {len(parts)}"
            )
        return cls(*parts)

    @classmethod
    def from_cards(cls, cards: CardsLike) -> Board:
        """A complete board from 13 cards in row order (front 3, middle 5, back 5)."""
        ids = parse_cards(cards)
        if len(ids) != 13:
            raise BoardError(f"a complete board has 13 cards, got {len(ids)}")
        return cls(ids[:3], ids[3:8], ids[8:])

    @property
    def front(self) -> tuple[int, ...]:
        """The front row (up to 3 card ids)."""
        return self._rows[0]

    @property
    def middle(self) -> tuple[int, ...]:
        """The middle row (up to 5 card ids)."""
        return self._rows[1]

    @property
    def back(self) -> tuple[int, ...]:
        """The back row (up to 5 card ids)."""
        return self._rows[2]

    @property
    def rows(self) -> tuple[tuple[int, ...], ...]:
        """(front, middle, back)."""
        return self._rows

    @property
    def cards(self) -> tuple[int, ...]:
        """All placed cards in row order."""
        return self._cards

    @property
    def is_complete(self) -> bool:
        """3/5/5 cards placed."""
        return len(self._cards) == 13

    def free(self, row: int | str | Row) -> int:
        """Room left in a row."""
        r = Row.parse(row)
        return ROW_SIZES[r] - len(self._rows[r])

    def place(self, card: int | str, row: int | str | Row) -> Board:
        """A new board with ``card`` added to ``row``.

        >>> str(Board().place("As", "back"))
        '/ / As'
        """
        r = Row.parse(row)
        c = parse_card(card)
        if len(self._rows[r]) >= ROW_SIZES[r]:
            raise BoardError(f"{r.name.lower()} row is full ({ROW_SIZES[r]} cards)")
        if c in self._cards:
            raise BoardError(f"{card_str(c)} is already on the board")
        rows = list(self._rows)
        rows[r] = rows[r] + (c,)
        return Board(*rows)

    def _require_complete(self) -> None:
        """BoardError unless 3/5/5 cards are placed; the message names no function
        (:meth:`is_foul`, :meth:`royalties` and ``ofc-fast eval`` come here too)."""
        if not self.is_complete:
            sizes = "/".join(str(len(r)) for r in self._rows)
            raise BoardError(
                f"incomplete board ({sizes} cards): rows, foul and royalties need 3/5/5"
            )

    def evaluate(self, rules: RulesLike = OFC) -> BoardEval:
        """Strengths, foul flag and royalties of a complete board (``rules``: a
        RuleSet or a preset name).  The strengths are each row's high hand on the one
        scale, under every rule set; a 2-7 middle, compared low (R-27-2), is valued by
        :meth:`row_values` (:func:`ofc_fast.low27` of its strength), while the foul
        flag and royalties follow the rules.

        >>> b = Board.parse("Qh Qd 2c / 7s 5h 4d 3c 2d / As Ks Qs Js Ts")
        >>> from ofc_fast import low27, rank5
        >>> e = b.evaluate("PINEAPPLE_27")
        >>> e.strengths[1] == rank5("7s 5h 4d 3c 2d"), e.royalties[1], e.foul
        (True, 8, False)
        >>> low27(e.strengths[1]) == b.row_values("PINEAPPLE_27")[1]
        True
        """
        self._require_complete()
        out = ffi.new("ofc_board_eval *")
        status = lib.ofc_eval_board(compiled(as_rules(rules, "evaluate")), self._cards, out)
        if status != OK:  # pragma: no cover - cards were validated on construction
            raise status_error(status, f"board {self}", BoardError)
        return BoardEval(tuple(out.strength), tuple(out.royalty), bool(out.foul))

    def is_foul(self, rules: RulesLike = OFC) -> bool:
        """True when the rows break the rules' order (R-ORDER-1, R-FOUL-1).

        >>> Board.parse("Qh Qd 7c / Qs Qc 6d 5h 4s / Ah Ad Kc Kd 2h").is_foul()
        True
        """
        return self.evaluate(rules).foul

    def row_values(self, rules: RulesLike = OFC) -> tuple[int, int, int]:
        """Per row the value two boards are compared by (larger wins the row): the
        strength, or under a 2-7 rule set the middle's 2-7 value (C ``ofc_row_value``,
        R-CMP-1, R-27-2).

        >>> b = Board.parse("Qh Qd 2c / 7s 5h 4d 3c 2d / As Ks Qs Js Ts")
        >>> b.row_values("PINEAPPLE_27")[1]
        7462
        """
        f, m, b = self.evaluate(rules).strengths
        c = compiled(as_rules(rules, "row_values"))
        value = lib.ofc_row_value
        return int(value(c, 0, f)), int(value(c, 1, m)), int(value(c, 2, b))

    def royalties(self, rules: RulesLike = OFC) -> tuple[int, int, int]:
        """Royalties (front, middle, back) under the rules; all 0 when fouled."""
        return self.evaluate(rules).royalties

    def __str__(self) -> str:
        return " / ".join(cards_str(r) for r in self._rows).replace("  ", " ").strip()

    def __repr__(self) -> str:
        return f"Board.parse({str(self)!r})"

    def __eq__(self, other: object) -> bool:
        return isinstance(other, Board) and other._rows == self._rows

    def __hash__(self) -> int:
        return hash(self._rows)

    def __reduce__(self) -> tuple[Any, ...]:
        """Pickling (every protocol, 0 and 1 too) and copies: the board rebuilt from
        its rows by :meth:`from_ids`, which checks them."""
        return (type(self).from_ids, self._rows)


def free_slots(rows: Sequence[Sized]) -> tuple[int, int, int]:
    """Free slots of the front, middle and back of a board given as three rows
    (BoardError when they are not three rows or a row holds too many cards).

    >>> free_slots([[1, 2], [], [3, 4, 5, 6, 7]])
    (1, 5, 0)
    """
    try:
        if len(rows) != 3:
            raise BoardError(f"rows must be (front, middle, back), got {len(rows)} rows")
        room = (
            ROW_SIZES[0] - len(rows[0]),
            ROW_SIZES[1] - len(rows[1]),
            ROW_SIZES[2] - len(rows[2]),
        )
    except (TypeError, KeyError):  # None, a number, rows that are not lists
        raise BoardError(
            f"rows must be (front, middle, back) lists of cards, got {quote(rows)}"
        ) from None
    if min(room) < 0:
        raise BoardError(
            f"rows of {tuple(map(len, rows))} cards overflow a board ({ROW_SIZES})"
        )
    return room


def board_slots(rows: Sequence[Sequence[int]], error: type[OfcError]) -> bytes:
    """The 13 slots of a C board from three rows of card ids: each row's cards, then
    ``OFC_NO_CARD`` (0xFF) to its size; ``error`` naming a row that holds too many.

    >>> board_slots([[51], [], [44]], BoardError).hex(" ")
    '33 ff ff ff ff ff ff ff 2c ff ff ff ff'
    """
    out = bytearray([lib.OFC_NO_CARD] * 13)
    start = 0
    for r, row in enumerate(rows):
        if len(row) > ROW_SIZES[r]:
            raise error(f"row {r} holds {len(row)} cards, at most {ROW_SIZES[r]}")
        out[start : start + len(row)] = bytes(int(c) for c in row)
        start += ROW_SIZES[r]
    return bytes(out)


def hand_cards(
    cards: CardsLike | Board, low: int = 13, high: int = 13, what: str = ""
) -> list[int]:
    """The distinct card ids of a hand of ``low`` to ``high`` cards given as text,
    ids, a :class:`Board` or board text (CardError, its message prefixed by ``what``
    when given, otherwise).

    >>> hand_cards("Qh Qd 2c / 9s 9h 9d 5c 5d / As Ks Qs Js Ts")[:3]
    [42, 41, 0]
    """
    if isinstance(cards, Board):
        ids = list(cards.cards)
    elif isinstance(cards, str) and _ROW_SPLIT.search(cards):
        ids = list(Board.parse(cards).cards)
    else:
        ids = parse_cards(cards)  # bad text or ids, duplicates: CardError
    if not low <= len(ids) <= high:
        want = f"exactly {low}" if low == high else f"{low} to {high}"
        raise CardError(
            f"{what + ': ' if what else ''}expected {want} cards, got "
            f"{len(ids)}: {cards_str(ids)!r}"
        )
    return ids


def as_board(value: Board | str | Iterable[int]) -> Board:
    """A Board from a Board, board text or 13 cards in row order."""
    if isinstance(value, Board):
        return value
    if isinstance(value, str):
        return Board.parse(value)
    return Board.from_cards(value)


def row_splits(front: int = 3, middle: int = 5, back: int = 5) -> npt.NDArray[Any]:
    """Every way to split ``front + middle + back`` positions into the three rows: an
    ``(N, front + middle + back)`` read-only int array, each line the front positions,
    then the middle ones, then the back ones (each group ascending); N = n! / (front!
    middle! back!).  The default is every setting of 13 cards (72,072); the same list
    serves the bots' searches and the engine's enumeration of full sets (built once
    per sizes: the same array each call).  Sizes are ints (NumPy's too) from 0 to
    what the row holds (3, 5, 5: at most the 72,072 settings of 13 cards), else
    BoardError, checked on every call.

    >>> s = row_splits()
    >>> s.shape, s[0].tolist()
    ((72072, 13), [0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12])
    >>> row_splits(1, 1, 0).tolist()
    [[0, 1], [1, 0]]
    """
    sizes = [as_int(size) for size in (front, middle, back)]  # never a bool or a float
    ints = [s for s in sizes if s is not None and s >= 0]
    if len(ints) != 3:
        raise BoardError(
            f"row_splits: row sizes must be integers >= 0, got {(front, middle, back)}"
        )
    if any(size > room for size, room in zip(ints, ROW_SIZES)):
        raise BoardError(
            f"row_splits: rows hold at most 3, 5 and 5 positions, got {tuple(ints)}"
        )
    return _row_splits(*ints)


@lru_cache(maxsize=256)
def _row_splits(front: int, middle: int, back: int) -> npt.NDArray[Any]:
    """:func:`row_splits` of checked sizes (Python ints: the cache never answers a
    call its checks would refuse, as True == 1 and 1.0 == 1 share one key)."""
    n = front + middle + back
    out = []
    for f in combinations(range(n), front):
        rest = [i for i in range(n) if i not in f]
        for m in combinations(rest, middle):
            out.append(f + m + tuple(i for i in rest if i not in m))
    arr = np.array(out, dtype=np.intp).reshape(len(out), n)
    arr.flags.writeable = False
    return arr
