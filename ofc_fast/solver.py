"""Exact solvers (C underneath): the Fantasyland setter and the 13-card arranger.

:func:`solve_fantasyland` takes 13 to 17 cards and returns the provably best legal
setting of 13 of them: most royalties plus ``stay_value`` when the board keeps
Fantasyland under the rules (R-FL-10, R-27-7).  :func:`best_setting` takes 13 cards
and returns the best of all 72,072 splits for ``"royalties"`` or ``"ev"`` (expected
points against a typical opponent).  Both search in C by branch-and-bound with exact
upper bounds (``csrc/include/ofc_solver.h`` documents the method), never return a fouled board
when a legal one exists, and release the GIL.

>>> from ofc_fast import cards_str, rules
>>> s = solve_fantasyland("Ah Ad Ac Kh Kd 7s 7c 7h 2d 3d 4d 5d 9d Js", rules.PINEAPPLE)
>>> str(s.board), s.royalties, s.stays, cards_str(s.discards)
('Ah Ac Js / Kh Kd 7s 7h 7c / Ad 5d 4d 3d 2d', 36, True, '9d')
>>> best_setting("As Ks Qs Js Ts 9h 9d 9c 4h 4d 2c 3c 5s", rules.OFC, "royalties")
... # doctest: +ELLIPSIS
Solution(board=Board.parse('5s 3c 2c / 9h 9d 9c 4h 4d / As Ks Qs Js Ts'), ..., royalties=37, ...)
"""

from __future__ import annotations

import math
import operator
import time
from collections.abc import Mapping
from dataclasses import dataclass
from numbers import Real
from typing import Any, TypeAlias

from ._native import OK, ffi, lib, status_error
from .board import Board, hand_cards
from .cards import CardsLike, cards_str
from .errors import SearchError, flag, quote
from .rules import CLASSIC_1_6, PINEAPPLE, RulesLike, as_rules
from .rules.compiled import compile_rules, compiled, compiled_fl

__all__ = [
    "OBJECTIVES",
    "STAY_VALUE_DEFAULT",
    "Solution",
    "StayValue",
    "best_setting",
    "solve_fantasyland",
]

OBJECTIVES = ("royalties", "ev")
"""Objectives of :func:`best_setting`."""

STAY_VALUE_DEFAULT: dict[int, float] = {13: 9.5, 14: 14.5, 15: 20.5, 16: 26.5, 17: 33.5}
"""Default worth of keeping Fantasyland, by the number of cards of the next
Fantasyland hand: V(k) = the expected royalties of a k-card Fantasyland hand set by
this solver + P(it stays) * V(the cards a stay gives), a fixed point measured under
PINEAPPLE (a stay gives 14 cards) and, for 13 cards, OFC (13) by
``tools/fl_study.py --stay-values --deals 20000 --rules pineapple``, rounded to 0.5.
An estimate: it leaves out the row points a Fantasyland hand wins and what the seat
would have scored in a normal hand instead; pass your own ``stay_value`` to weigh
staying differently."""

_STAY_LIMIT = 100000.0


# ---------------------------------------------------------------- compiled rules


def ev_tables(rules: RulesLike) -> Any:  # cdata 'ofc_ev_tables *'
    """The C ``ofc_ev_tables`` of a rule set (about 380 KB, built once with the rule
    set's other C structs): per row and strength, the chance to beat / lose to the
    row of a typical opponent and the expected row units, from the distribution
    shipped in ``csrc/generated/ofc_opponent_rows.c`` (``tools/gen_opponent_rows.py``
    documents how it was simulated)."""
    return compile_rules(rules).ev


# ---------------------------------------------------------------------- results


@dataclass(frozen=True)
class Solution:
    """A setting found by a solver.

    ``board`` the 13 cards set (rows high card first); ``discards`` the cards not
    kept (input order); ``royalties`` their total (0 when fouled) and
    ``row_royalties`` per row; ``stays`` whether the board keeps Fantasyland and
    ``next_cards`` how many cards that gives (0 = none); ``value`` the objective
    (royalties + stay value, or expected points); ``fouled`` True only when every
    setting fouls (the board is then a fouled stand-in); ``objective``
    ("fantasyland", "royalties" or "ev"); ``naturals`` the special hands the 13
    cards make under the rules (:func:`ofc_fast.scoring.naturals.naturals`, best first;
    arranger only); ``best_stay`` / ``best_no_stay`` the best setting that stays /
    does not (``solve_fantasyland(..., alternatives=True)``; None when there is no
    such setting or they were not asked for); ``nodes`` the search effort; ``seconds``
    the time of the C call.

    >>> s = solve_fantasyland("Ad Ah Th Jh 6h Ts 5d 3c Tc 3s 7h Qh 3d 9s")
    >>> s.board, s.discards, s.royalties, s.stays
    (Board.parse('3s 3d 3c / Ad Ts Th Tc 9s / Ah Qh Jh 7h 6h'), (13,), 17, True)
    """

    board: Board
    discards: tuple[int, ...]
    royalties: int
    stays: bool
    value: float
    fouled: bool = False
    row_royalties: tuple[int, int, int] = (0, 0, 0)
    next_cards: int = 0
    objective: str = "fantasyland"
    naturals: tuple[Any, ...] = ()
    best_stay: Solution | None = None
    best_no_stay: Solution | None = None
    nodes: int = 0
    seconds: float = 0.0

    def __str__(self) -> str:
        """The one description of a solution (``ofc-fast solve`` prints it): the
        board, its royalties (the total, then front, middle and back), whether it
        stays, the cards discarded and the value.

        >>> hand = "Ad Ah Th Jh 6h Ts 5d 3c Tc 3s 7h Qh 3d 9s"
        >>> print(solve_fantasyland(hand, "pineapple"))
        3s 3d 3c / Ad Ts Th Tc 9s / Ah Qh Jh 7h 6h  royalties 17 [11, 2, 4], stays (14 cards), discard 5d, value 31.5
        """  # noqa: E501 - a printed solution, verbatim
        text = f"{self.board}  royalties {self.royalties} {list(self.row_royalties)}"
        if self.fouled:
            text += " (FOULED: no legal setting exists)"
        if self.stays:
            text += f", stays ({self.next_cards} cards)"
        if self.discards:
            text += f", discard {cards_str(self.discards)}"
        return text + f", value {self.value:g}"


def _solution(
    s: Any, objective: str, nodes: int = 0, seconds: float = 0.0, **extra: Any
) -> Solution:
    b = list(s.board)
    return Solution(
        board=Board(b[:3], b[3:8], b[8:]),
        discards=tuple(s.discards[i] for i in range(s.n_discards)),
        royalties=int(s.royalties),
        stays=bool(s.stays),
        value=float(s.value),
        fouled=bool(s.foul),
        row_royalties=(int(s.royalty[0]), int(s.royalty[1]), int(s.royalty[2])),
        next_cards=int(s.next_cards),
        objective=objective,
        nodes=nodes,
        seconds=seconds,
        **extra,
    )


def _raise_status(status: int, fn: str) -> None:
    raise status_error(status, fn)  # pragma: no cover - validated (or out of memory)


StayValue: TypeAlias = float | Mapping[int, float] | Mapping[str, float] | None
"""What ``stay_value`` accepts: None (the defaults), a number, or ``{cards: value}``
(cards an int 13..17, or its digits as text: the keys of a JSON object)."""
_COUNT_KEYS = tuple(str(k) for k in range(13, 18))


def stay_values(rules: RulesLike, stay_value: StayValue = None) -> tuple[float, ...]:
    """The five stay values (next Fantasyland of 13, 14, 15, 16, 17 cards) the solver
    uses: ``None`` = :data:`STAY_VALUE_DEFAULT`; a number = that value whatever the
    count; a mapping ``{cards: value}`` = those values (counts not given: 0; a count
    may be given as text, ``{"14": 12}``, as JSON keys are).  Any other value (NaN, a
    bool, a count outside 13..17) is a SearchError: bad settings of the solver's search.

    >>> from ofc_fast.rules import PINEAPPLE
    >>> stay_values(PINEAPPLE, {14: 12})
    (0.0, 12.0, 0.0, 0.0, 0.0)
    """
    rules = as_rules(rules, "stay_values")
    if stay_value is None:
        return tuple(float(STAY_VALUE_DEFAULT[k]) for k in range(13, 18))
    if isinstance(stay_value, Mapping):
        by_count: dict[str | None, Any] = {}
        first: dict[str | None, object] = {}  # each count's first key, to name
        for k, v in stay_value.items():
            count = _count_key(k)
            if count is None:
                raise SearchError(f"stay_value: card counts must be 13..17, got {quote(k)}")
            if count in by_count:  # ({14: 1, "14": 2}: the last was kept, unsaid)
                raise SearchError(
                    f"stay_value: card counts must be 13..17, each given once; keys "
                    f"{quote(first[count])} and {quote(k)} both name {count}"
                )
            by_count[count], first[count] = v, k
        return tuple(_stay_number(by_count.get(k, 0.0)) for k in _COUNT_KEYS)
    if isinstance(stay_value, Real) and not isinstance(stay_value, bool):
        return (_stay_number(stay_value),) * 5
    raise SearchError(
        f"stay_value: expected None, a number or a mapping "
        f"{{cards: value}}, got {quote(stay_value)}"
    )


def _count_key(key: object) -> str | None:
    """A ``stay_value`` mapping's key as its count's digits ("13".."17"): an int (NumPy
    ints too) or those digits as text (a JSON object's key); None for anything else."""
    if isinstance(key, str):
        return key if key in _COUNT_KEYS else None
    try:
        n = operator.index(key)  # type: ignore[arg-type]  # TypeError: no int
    except TypeError:
        return None
    return str(n) if not isinstance(key, bool) and 13 <= n <= 17 else None


def _stay_number(value: object) -> float:
    """One stay value as a float, or SearchError: a real number (not a bool, not text)
    within +-_STAY_LIMIT."""
    if not isinstance(value, Real) or isinstance(value, bool):
        raise SearchError(f"stay_value: {quote(value)} is not a number")
    try:
        v = float(value)
    except (OverflowError, ValueError, TypeError):
        v = math.inf
    if not math.isfinite(v) or abs(v) > _STAY_LIMIT:
        raise SearchError(
            f"stay_value: {quote(value)} is not a finite number within +-{_STAY_LIMIT:g}"
        )
    return v


# ---------------------------------------------------------------------- solvers


def solve_fantasyland(
    cards: CardsLike | Board,
    rules: RulesLike = PINEAPPLE,
    stay_value: StayValue = None,
    *,
    alternatives: bool = False,
) -> Solution:
    """The provably best legal setting of 13 of ``cards`` (13 to 17): most royalties
    plus ``stay_value`` when the setting keeps Fantasyland under ``rules`` (the stay
    rule of a Fantasyland hand of ``len(cards)`` cards, as :func:`fantasyland_cards`
    with ``in_fantasyland=len(cards)`` defines it).

    ``stay_value``: None = :data:`STAY_VALUE_DEFAULT` (by the cards the stay gives), a
    number, or ``{cards: value}``; 0 maximises royalties alone, a large negative
    value avoids staying.  The search weighs it to 2^-16 of a point, a nonzero value
    never as 0: ``1e-9`` stays whenever staying costs no royalties.
    ``alternatives=True`` also finds the best setting that stays and the best that
    does not (``.best_stay`` / ``.best_no_stay``), so a bot can weigh the trade-off
    itself; it costs about twice the time.

    Never a fouled board when a legal one exists; when every setting fouls (possible
    under a 2-7 middle or a strict order) the result has ``fouled=True``, royalties
    0 and value 0.  Ties (equal value) go to the board with the most expected rows won
    minus rows lost against a typical opponent.

    Raises CardError for anything but 13 to 17 distinct cards, RulesError for unknown
    rules, SearchError for a bad ``stay_value`` or ``alternatives``.

    >>> from ofc_fast.rules import PINEAPPLE
    >>> hand = "Ad Ah Th Jh 6h Ts 5d 3c Tc 3s 7h Qh 3d 9s"
    >>> s = solve_fantasyland(hand, PINEAPPLE, stay_value=0, alternatives=True)
    >>> print(s.best_stay)
    3s 3d 3c / Ad Ts Th Tc 9s / Ah Qh Jh 7h 6h  royalties 17 [11, 2, 4], stays (14 cards), discard 5d, value 17
    >>> print(s.best_no_stay)
    Ah Ad 9s / Qh Jh Th 7h 6h / Ts Tc 3s 3d 3c  royalties 23 [9, 8, 6], discard 5d, value 23
    >>> s.board == s.best_no_stay.board, solve_fantasyland(hand, PINEAPPLE).stays
    (True, True)
    """  # noqa: E501 - printed solutions, verbatim
    ids = hand_cards(cards, 13, 17, "solve_fantasyland")
    rules = as_rules(rules, "solve_fantasyland")
    sv = stay_values(rules, stay_value)
    alternatives = flag(alternatives, "alternatives", SearchError)  # "no" is no False
    out = ffi.new("ofc_fl_solution *")
    flags = lib.OFC_SOLVE_ALTERNATIVES if alternatives else 0
    ev = ev_tables(rules)
    t0 = time.perf_counter()
    status = lib.ofc_solve_fantasyland(
        compiled(rules), compiled_fl(rules), ev, bytes(ids), len(ids), list(sv), flags, out
    )
    seconds = time.perf_counter() - t0
    if status != OK:
        _raise_status(status, "solve_fantasyland")
    nodes = int(out.nodes)
    if not alternatives:
        return _solution(out.best, "fantasyland", nodes, seconds)
    stay = no_stay = None
    if out.best_stay.found:
        stay = _solution(out.best_stay, "fantasyland")
    if out.best_no_stay.found:
        no_stay = _solution(out.best_no_stay, "fantasyland")
    return _solution(
        out.best, "fantasyland", nodes, seconds, best_stay=stay, best_no_stay=no_stay
    )


def best_setting(
    cards13: CardsLike | Board, rules: RulesLike = CLASSIC_1_6, objective: str = "ev"
) -> Solution:
    """The best of the 72,072 ways to set 13 cards (front 3, middle 5, back 5).

    ``objective``: ``"royalties"`` (most royalties; ties to the most expected rows
    won minus lost) or ``"ev"``: expected net points against one typical opponent,
    taking the opponent's rows as independent draws from the simulated distribution of
    ``tools/gen_opponent_rows.py``: row units (the rules' win values, both sides),
    sweep and majority bonuses, the sweep multiplier, plus the board's own
    royalties.  Not modelled: opponent fouls, naturals, the overall bonus, table-wide
    sweeps, house ties; a 2-7 middle is rated by its share of low-hand classes.

    Never a fouled board when a legal one exists.  ``.naturals`` lists the naturals
    the cards make under the rules (best first), which a player would declare
    instead of setting (R-NAT-2).

    Raises CardError for anything but 13 distinct cards, RulesError for unknown rules,
    SearchError for an unknown objective.

    >>> from ofc_fast.rules import CLASSIC_1_6
    >>> s = best_setting("As Ad Kc Kd Qh Qs Jc Jd 9h 7s 5c 3d 2h", CLASSIC_1_6)
    >>> s.fouled, s.objective
    (False, 'ev')
    """
    ids = hand_cards(cards13, 13, 13, "best_setting")
    rules = as_rules(rules, "best_setting")
    if not isinstance(objective, str) or objective not in OBJECTIVES:  # no array's ==
        raise SearchError(
            f"best_setting: objective must be one of {OBJECTIVES}, got {quote(objective)}"
        )
    out = ffi.new("ofc_setting *")
    code = lib.OFC_OBJECTIVE_EV if objective == "ev" else lib.OFC_OBJECTIVE_ROYALTIES
    ev = ev_tables(rules)
    t0 = time.perf_counter()
    status = lib.ofc_best_setting(compiled(rules), ev, bytes(ids), code, out)
    seconds = time.perf_counter() - t0
    if status != OK:
        _raise_status(status, "best_setting")
    nats: tuple[Any, ...] = ()
    if rules.naturals:
        from .scoring.naturals import naturals  # local: optional feature, no import cycle

        nats = tuple(naturals(ids, rules))
    return _solution(out, objective, 0, seconds, naturals=nats)


def solution_dict(s: Solution) -> dict[str, Any]:
    """A solution as JSON-able data (``ofc-fast solve --json``, ``ofc-fast serve``)."""
    return {
        "board": str(s.board),
        "discards": cards_str(s.discards),
        "royalties": s.royalties,
        "row_royalties": list(s.row_royalties),
        "fouled": s.fouled,
        "stays": s.stays,
        "next_cards": s.next_cards,
        "value": s.value,
    }
