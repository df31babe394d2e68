"""Pair scoring: one board against another under a rule set (R-SCORE-*, R-FOUL-*).

>>> import ofc_fast as ofc
>>> a = "Qh Qd 2c / 9s 9h 9d 5c 5d / As Ks Qs Js Ts"
>>> b = "2h 3d 4c / 6s 6h 7d 7c 8d / Ah Ad Kh Kd 8c"
>>> s = ofc.score_pair(a, b)
>>> s.rows, s.sweep, s.net        # swept: 3 rows + 3, royalties 44 - 0
((1, 1, 1), 1, 50)
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any, TypeAlias

from .._native import OK, ffi, lib
from .._native._fast import score_pair as _score_pair
from ..board import Board, as_board
from ..cards import card_str
from ..errors import BoardError, RulesError, flag
from ..rules import OFC, RuleSet, RulesLike, as_rules
from ..rules.compiled import compile_rules, compiled
from ..table import as_int

__all__ = [
    "BoardLike",
    "EvaluatedBoard",
    "PairScore",
    "evaluate_for_scoring",
    "score_evaluated",
    "score_pair",
]

BoardLike: TypeAlias = Board | str | Sequence[int]


@dataclass(frozen=True)
class PairScore:
    """Result of board ``a`` against board ``b``, seen from ``a`` (:func:`score_pair`).

    >>> a = "Qh Qd 2c / 9s 9h 9d 5c 5d / As Ks Qs Js Ts"
    >>> b = "2h 3d 4c / 6s 6h 7d 7c 8d / Ah Ad Kh Kd 8c"
    >>> s = score_pair(a, b)
    >>> s.net, s.rows, s.sweep, s.royalties
    (50, (1, 1, 1), 1, ((7, 12, 25), (0, 0, 0)))
    """

    net: int  #: points a wins from b (negative: a pays)
    rows: tuple[int, int, int]  #: +1 a won the row, -1 b won it, 0 tie
    sweep: int  #: +1 a swept all rows, -1 b did, 0 neither
    row_points: int  #: row units, net (win bonuses and multipliers in)
    bonus: int  #: sweep / majority / overall units, net
    royalties: tuple[tuple[int, int, int], tuple[int, int, int]]  #: a's, b's
    fouls: tuple[bool, bool]  #: (a fouled, b fouled)


def complete_board(board: BoardLike, who: str) -> Board:
    """A complete Board from anything board-like, or BoardError naming ``who``."""
    b = as_board(board)
    if not b.is_complete:
        sizes = "/".join(str(len(r)) for r in b.rows)
        raise BoardError(f"board {who} is incomplete ({sizes} cards); scoring needs 3/5/5")
    return b


def check_disjoint(card_sets: Sequence[Sequence[int]]) -> None:
    """BoardError when a card appears in two of the sets (seats)."""
    seen: dict[int, int] = {}
    for i, cards in enumerate(card_sets):
        for c in cards:
            if c in seen:
                raise BoardError(f"card {card_str(c)} is on board {seen[c]} and board {i}")
            seen[c] = i


_EVAL_POINTER = ffi.typeof("ofc_board_eval *")


def _is_eval(c: object) -> bool:
    """True when ``c`` is a C ``ofc_board_eval *`` (what evaluate_for_scoring makes)."""
    if isinstance(c, str):  # (typeof would read text as a C type's name)
        return False
    try:
        return ffi.typeof(c) is _EVAL_POINTER and c != ffi.NULL
    except TypeError:  # no cdata
        return False


class EvaluatedBoard:
    """A complete board evaluated once for a rule set (a C ``ofc_board_eval``);
    ``rules`` is that rule set, the one :func:`score_evaluated` must be given.

    >>> a = evaluate_for_scoring(Board.parse("Qh Qd 2c / 9s 9h 9d 5c 5d / As Ks Qs Js Ts"), "OFC")
    >>> b = evaluate_for_scoring(Board.parse("2h 3d 4c / 6s 6h 7d 7c 8d / Ah Ad Kh Kd 8c"), "OFC")
    >>> a.foul, a.royalties
    (False, (7, 12, 25))
    """

    __slots__ = ("board", "c", "rules")

    def __init__(self, board: Board, c: Any, rules: RulesLike) -> None:
        if not isinstance(board, Board) or not _is_eval(c):
            raise BoardError(
                "EvaluatedBoard: expected a Board and its C evaluation; make one with "
                "evaluate_for_scoring(board, rules)"
            )
        self.board = board
        self.c = c  # cdata 'ofc_board_eval *'
        self.rules = as_rules(rules, "EvaluatedBoard")

    def __repr__(self) -> str:
        """The call that makes it, as :class:`~ofc_fast.board.Board`'s repr is.

        >>> evaluate_for_scoring(Board.parse("2h 3d 4c / 6s 6h 7d 7c 8d / Ah Ad Kh Kd 8c"), "OFC")
        evaluate_for_scoring(Board.parse('2h 3d 4c / 6s 6h 7d 7c 8d / Ah Ad Kh Kd 8c'), rules.OFC)
        """
        return f"evaluate_for_scoring({self.board!r}, {self.rules!r})"

    def __reduce__(self) -> tuple[Any, ...]:
        """Pickling and copies (``copy.copy`` too): the board and rules, evaluated
        again into a C struct of the copy's own (never the pointer to this one's)."""
        return (evaluate_for_scoring, (self.board, self.rules))

    @property
    def foul(self) -> bool:
        """True when the board fouled under the rules it was evaluated for."""
        return bool(self.c.foul)

    @property
    def royalties(self) -> tuple[int, int, int]:
        """Royalties (front, middle, back); all 0 when fouled."""
        r = self.c.royalty
        return (r[0], r[1], r[2])


def evaluate_for_scoring(board: Board, rules: RulesLike) -> EvaluatedBoard:
    """Evaluate a complete board in C for :func:`score_evaluated`; validates first
    (an incomplete board or a non-Board raises BoardError).

    >>> a = evaluate_for_scoring(Board.parse("Qh Qd 2c / 9s 9h 9d 5c 5d / As Ks Qs Js Ts"), "OFC")
    >>> b = evaluate_for_scoring(Board.parse("2h 3d 4c / 6s 6h 7d 7c 8d / Ah Ad Kh Kd 8c"), "OFC")
    >>> score_evaluated(a, b, "OFC").net
    50
    """
    rules = as_rules(rules, "evaluate_for_scoring")
    if not isinstance(board, Board):
        raise BoardError(
            f"evaluate_for_scoring: expected a Board, got {type(board).__name__}"
        )
    board = complete_board(board, "to score")
    e = ffi.new("ofc_board_eval *")
    if lib.ofc_eval_board(compiled(rules), board.cards, e) != OK:  # pragma: no cover
        raise BoardError(f"board {board} rejected by the C library")
    made = EvaluatedBoard.__new__(EvaluatedBoard)  # (its parts made here: not checked
    made.board, made.c, made.rules = board, e, rules  # again, a sixth of this call)
    return made


def score_evaluated(
    a: EvaluatedBoard,
    b: EvaluatedBoard,
    rules: RulesLike,
    ties: int = 0,
    a_sweeps_all: bool = False,
    b_sweeps_all: bool = False,
) -> PairScore:
    """Score two evaluated boards; ``ties`` = +1 when a wins tied rows (a is the
    house), -1 when b does; ``*_sweeps_all`` mark a seat that swept the whole table.
    Both boards must have been evaluated for ``rules`` (an equal rule set): a board
    evaluated for other rules carries their fouls and royalties, so it raises
    :class:`RulesError`; a ``*_sweeps_all`` other than True or False (NumPy's too)
    raises :class:`BoardError` naming it.

    >>> a = evaluate_for_scoring(Board.parse("Qh Qd 2c / 9s 9h 9d 5c 5d / As Ks Qs Js Ts"), "OFC")
    >>> b = evaluate_for_scoring(Board.parse("2h 3d 4c / 6s 6h 7d 7c 8d / Ah Ad Kh Kd 8c"), "OFC")
    >>> score_evaluated(a, b, "OFC").net, score_evaluated(b, a, "OFC").net
    (50, -50)
    """
    rules = as_rules(rules, "score_evaluated")
    ties_in = as_int(ties)  # NumPy's ints too, never a bool
    if (
        ties_in is None
        or ties_in not in (-1, 0, 1)
        or not all(isinstance(e, EvaluatedBoard) for e in (a, b))
    ):
        raise BoardError("score_evaluated: expects two EvaluatedBoard and ties -1, 0 or 1")
    for side, e in (("a", a), ("b", b)):
        if e.rules is not rules and e.rules != rules:
            raise RulesError(
                f"score_evaluated: board {side} was evaluated for {e.rules.name!r}, not "
                f"for the rules it is scored with, {rules.name!r} (evaluate it again "
                f"with evaluate_for_scoring(board, rules))"
            )
    sweeps = [
        int(flag(v, f"score_evaluated: {name}", BoardError))
        for name, v in (("a_sweeps_all", a_sweeps_all), ("b_sweeps_all", b_sweeps_all))
    ]
    ctx = ffi.new("ofc_pair_context *", (ties_in, *sweeps, 0))
    d = ffi.new("ofc_pair_score *")
    if lib.ofc_score_evals(compiled(rules), a.c, b.c, ctx, d) != OK:  # pragma: no cover
        raise BoardError("score_evaluated: boards rejected by the C library")
    return PairScore(
        net=d.net,
        rows=(d.rows[0], d.rows[1], d.rows[2]),
        sweep=d.sweep,
        row_points=d.row_points,
        bonus=d.bonus,
        royalties=(a.royalties, b.royalties),
        fouls=(a.foul, b.foul),
    )


def _check_order(a: object, b: object, rules: object) -> None:
    """RulesError pointing at the argument order when the rule set came first
    (``score_pair(rules, a, b)``): a RuleSet as a board, or board text as the rules."""
    misplaced = isinstance(a, RuleSet) or isinstance(b, RuleSet)
    if isinstance(rules, str) and "/" in rules:  # a preset name has no "/": a board
        misplaced = True
    if misplaced:
        raise RulesError(
            "score_pair takes (a, b, rules): the two boards first, the rule set "
            "last (got the rule set or a board out of place)"
        )


def score_pair(a: BoardLike, b: BoardLike, rules: RulesLike = OFC) -> PairScore:
    """Score complete board ``a`` against ``b`` (R-SCORE-*, R-FOUL-3/4, R-ROY-*).

    Boards are :class:`Board` objects, board text, or 13 cards in row order;
    ``rules`` is a :class:`RuleSet` or a preset's name (``"OFC"``).  The
    result's ``net`` is what ``a`` wins from ``b`` (negative: ``a`` pays).

    Raises BoardError for an incomplete board or a card on both boards, CardError for
    bad cards, RulesError for unknown rules.

    >>> s = score_pair("Qh Qd 2c / 9s 9h 9d 5c 5d / As Ks Qs Js Ts",
    ...                "Kc 7d 3h / Ac Ad 8c 8d 4s / 6c 6d 6h 4c 4d")
    >>> s.net, s.rows, s.royalties
    (44, (1, 1, 1), ((7, 12, 25), (0, 0, 6)))
    """
    if type(rules) is not RuleSet:
        _check_order(a, b, rules)
        rules = as_rules(rules, "score_pair")
    compiled_rules = compile_rules(rules)  # held until C returns: the handle is its
    handle = compiled_rules.scoring_handle  # address (the cache may drop it meanwhile)
    if type(a) is Board and type(b) is Board:  # parsed boards: one C call
        score: PairScore | None = _score_pair(PairScore, a.cards, b.cards, handle)
        if score is not None:
            return score
    ba = complete_board(a, "a")
    bb = complete_board(b, "b")
    score = _score_pair(PairScore, ba.cards, bb.cards, handle)  # the cards checked
    if score is None:
        check_disjoint((ba.cards, bb.cards))  # the one error left: a card on both boards
        raise BoardError("score_pair: boards rejected by the C library")  # pragma: no cover
    return score
