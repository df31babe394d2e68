"""Fantasyland qualification of a finished board (R-FL-1/3/9/10, R-27-6/7).

>>> import ofc_fast as ofc
>>> qq = ofc.Board.parse("Qh Qd 2c / 9s 9h 9d 5c 5d / Ad Ac Ah 8s 8h")
>>> ofc.fantasyland_cards(qq, ofc.rules.PINEAPPLE)
14
>>> ofc.fantasyland_cards(qq, ofc.rules.PROGRESSIVE_PINEAPPLE)
14
>>> ofc.fantasyland_cards(qq, ofc.rules.PINEAPPLE, in_fantasyland=True)  # full house
14
>>> ofc.fantasyland_cards(qq, ofc.rules.PROGRESSIVE_PINEAPPLE, in_fantasyland=True)
0
"""

from __future__ import annotations

import numpy as np

from ._native import lib, status_error
from .board import Board, as_board
from .errors import BoardError, RulesError, quote
from .rules import as_rules
from .rules.compiled import compiled, compiled_fl
from .rules.presets import RulesLike

__all__ = ["fantasyland_cards"]


def fantasyland_cards(
    board: Board | str, rules: RulesLike, in_fantasyland: bool | int = False
) -> int:
    """Cards the seat gets in Fantasyland on the next deal after this finished board
    (0 = none).  A fouled board never qualifies.  The rule itself is in C
    (``ofc_fl_next_cards``, csrc/include/ofc_solver.h), the one implementation the solver,
    the game and the bots share.

    ``in_fantasyland``: False for a normal hand (the entry rule applies); True, or the
    number of cards of this Fantasyland hand (13..17), for a Fantasyland hand (the
    stay rule applies; rule sets whose stay keeps the same count need the number).
    ``rules``: a RuleSet, a preset name or an arena game id.

    Raises BoardError for a board that is not finished, CardError for bad cards,
    RulesError for unknown rules or a bad ``in_fantasyland``.

    >>> fantasyland_cards("Qh Qd 2c / 9s 9h 9d 5c 5d / As Ks Qs Js Ts", "OFC")
    13
    >>> fantasyland_cards("Qh Qd 2c / 9s 9h 9d 5c 5d / As Ks Qs Js Ts", "ofc-pineapple")
    14
    """
    b = as_board(board)
    if not b.is_complete:
        raise BoardError("fantasyland_cards() needs a finished board (3/5/5 cards)")
    rules = as_rules(rules, "fantasyland_cards")
    fl = rules.fantasyland
    if isinstance(in_fantasyland, np.integer):  # a NumPy count: the Python int
        in_fantasyland = int(in_fantasyland)
    elif isinstance(in_fantasyland, np.bool_):  # a NumPy flag: the Python bool
        in_fantasyland = bool(in_fantasyland)
    if isinstance(in_fantasyland, bool):
        cards = 13 if in_fantasyland else 0  # any count: only a "same" stay reads it
    elif isinstance(in_fantasyland, int) and (
        in_fantasyland == 0 or 13 <= in_fantasyland <= 17
    ):
        cards = in_fantasyland
    else:
        raise RulesError(
            f"in_fantasyland must be False, True or the cards of this "
            f"Fantasyland hand (13..17), got {quote(in_fantasyland)}"
        )
    if fl is None:
        return 0
    out = lib.ofc_fl_next_cards(compiled(rules), compiled_fl(rules), bytes(b.cards), cards)
    if out < 0:  # pragma: no cover - the board and the compiled rules are valid
        raise status_error(out, "fantasyland_cards", BoardError)
    if out and in_fantasyland is True and fl.stay_cards == "same":
        raise RulesError(
            f"{rules.name}: a stay keeps the current number of cards; "
            f"pass in_fantasyland=<cards of this hand> (13..17)"
        )
    return int(out)
