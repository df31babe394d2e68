"""Scoring: one pair of boards (:func:`score_pair`) and a whole table (:func:`settle`).

>>> import ofc_fast as ofc
>>> a = "Qh Qd 2c / 9s 9h 9d 5c 5d / As Ks Qs Js Ts"
>>> b = "2h 3d 4c / 6s 6h 7d 7c 8d / Ah Ad Kh Kd 8c"
>>> s = ofc.score_pair(a, b)
>>> s.rows, s.sweep, s.net        # swept: 3 rows + 3, royalties 44 - 0
((1, 1, 1), 1, 50)
>>> ofc.settle([a, b]).net
[50, -50]
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Sequence, Union

from ._compiled import compiled
from ._native import OK, ffi, lib
from .board import Board, as_board
from .cards import card_str
from .errors import BoardError
from .rules import OFC, RuleSet

__all__ = ["PairScore", "score_pair", "SettlementItem", "Settlement", "settle",
           "settlement_order"]

BoardLike = Union[Board, str, Sequence[int]]


@dataclass(frozen=True)
class PairScore:
    """Result of board ``a`` against board ``b``, seen from ``a``."""

    net: int                          #: points a wins from b (negative: a pays)
    rows: tuple[int, int, int]        #: +1 a won the row, -1 b won it, 0 tie
    sweep: int                        #: +1 a swept all rows, -1 b did, 0 neither
    row_points: int                   #: row units, net (win bonuses included)
    bonus: int                        #: sweep / majority / overall units, net
    royalties: tuple[tuple[int, int, int], tuple[int, int, int]]  #: a's, b's
    fouls: tuple[bool, bool]          #: (a fouled, b fouled)


def _complete(board: BoardLike, who: str) -> Board:
    b = as_board(board)
    if not b.is_complete:
        sizes = "/".join(str(len(r)) for r in b.rows)
        raise BoardError(f"board {who} is incomplete ({sizes} cards); scoring needs 3/5/5")
    return b


def _check_disjoint(boards: Sequence[Board]) -> None:
    seen: dict[int, int] = {}
    for i, b in enumerate(boards):
        for c in b.cards:
            if c in seen:
                raise BoardError(f"card {card_str(c)} is on board {seen[c]} and board {i}")
            seen[c] = i


def score_pair(a: BoardLike, b: BoardLike, rules: RuleSet = OFC) -> PairScore:
    """Score complete board ``a`` against ``b`` (R-SCORE-*, R-FOUL-3/4, R-ROY-*).

    Boards are :class:`Board` objects, board text, or 13 cards in row order.
    """
    ba, bb = _complete(a, "a"), _complete(b, "b")
    _check_disjoint((ba, bb))
    r = compiled(rules)
    ea, eb = ffi.new("ofc_board_eval *"), ffi.new("ofc_board_eval *")
    status = lib.ofc_eval_board(r, ba.cards, ea) | lib.ofc_eval_board(r, bb.cards, eb)
    if status != OK:  # pragma: no cover - validated above
        raise BoardError("boards rejected by the C library")
    d = ffi.new("ofc_pair_score *")
    lib.ofc_score_evals(r, ea, eb, ffi.NULL, d)
    return PairScore(
        net=d.net, rows=tuple(d.rows), sweep=d.sweep,  # type: ignore[arg-type]
        row_points=d.row_points, bonus=d.bonus,
        royalties=(tuple(ea.royalty), tuple(eb.royalty)),  # type: ignore[arg-type]
        fouls=(bool(ea.foul), bool(eb.foul)),
    )


@dataclass(frozen=True)
class SettlementItem:
    """One transfer of a settlement: ``payer`` pays ``payee`` ``amount`` (> 0)."""

    pair: tuple[int, int]   #: the two seats compared, in settlement order
    kind: str               #: "rows", "bonus" or "royalties"
    payer: int
    payee: int
    amount: int


@dataclass(frozen=True)
class Settlement:
    """Per-seat net result of a deal and the itemised transfers behind it."""

    net: list[int]
    items: list[SettlementItem]
    pairs: list[tuple[tuple[int, int], PairScore]]  #: every pair's score, in order


def settlement_order(players: int, button: int = 0) -> list[tuple[int, int]]:
    """Pairs in settlement order (R-SETTLE-2): the seat left of the button against
    each other seat clockwise, ending with the button; then the next seat, and so on.
    Seats are numbered clockwise.

    >>> settlement_order(4, button=3)       # W N E S, S deals (EX-13)
    [(0, 1), (0, 2), (0, 3), (1, 2), (1, 3), (2, 3)]
    """
    if not 2 <= players <= 4:
        raise BoardError(f"settle() takes 2 to 4 boards, got {players}")
    if not 0 <= button < players:
        raise BoardError(f"button {button} is not a seat of {players} players")
    seats = [(button + 1 + i) % players for i in range(players)]
    return [(seats[i], seats[j]) for i in range(players) for j in range(i + 1, players)]


def settle(boards: Sequence[BoardLike], rules: RuleSet = OFC, button: int = 0) -> Settlement:
    """Settle a table of 2-4 complete boards: every pair scored (R-CMP-3) in the
    settlement order; ``net`` per seat sums to zero.

    >>> a = "Qh Qd 2c / 9s 9h 9d 5c 5d / As Ks Qs Js Ts"
    >>> b = "2h 3d 4c / 6s 6h 7d 7c 8d / Ah Ad Kh Kd 8c"
    >>> c = "3h 3c 4d / Th Td Tc 2d 2s / 8h 8s Jc Jh Jd"
    >>> settle([a, b, c]).net
    [77, -74, -3]
    """
    bs = [_complete(b, str(i)) for i, b in enumerate(boards)]
    _check_disjoint(bs)
    net = [0] * len(bs)
    items: list[SettlementItem] = []
    pairs = []
    for i, j in settlement_order(len(bs), button):
        s = score_pair(bs[i], bs[j], rules)
        pairs.append(((i, j), s))
        net[i] += s.net
        net[j] -= s.net
        for kind, amount in (("rows", s.row_points), ("bonus", s.bonus),
                             ("royalties", s.net - s.row_points - s.bonus)):
            if amount:
                payer, payee = (j, i) if amount > 0 else (i, j)
                items.append(SettlementItem((i, j), kind, payer, payee, abs(amount)))
    return Settlement(net, items, pairs)


