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

from typing import Union

from .board import Board, as_board
from .errors import BoardError, RulesError
from .ranking import category, low27
from .rules.fantasyland_text import front_threshold
from .rules.model import Fantasyland, RuleSet

__all__ = ["fantasyland_cards"]

_NUTS_27 = 7462  # low27() of 7-5-4-3-2 not all one suit


def _entry_cards(fl: Fantasyland, strengths: tuple[int, int, int], lowball: bool) -> int:
    thresholds = [(front_threshold(text), cards) for text, cards in fl.entry]
    met = [t for t in thresholds if strengths[0] >= t[0]]
    front = max(met)[1] if met else 0  # the best threshold met gives the cards
    if lowball and fl.lowball_entry and low27(strengths[1]) == _NUTS_27:
        return fl.lowball_both if front and fl.lowball_both else max(front, fl.lowball_entry)
    return front


def _stays(fl: Fantasyland, strengths: tuple[int, int, int], lowball: bool) -> bool:
    front, middle, back = strengths
    if fl.stay_front is not None and front >= front_threshold(fl.stay_front):
        return True
    if fl.stay_middle is not None and not lowball and category(middle) >= fl.stay_middle:
        return True
    return fl.stay_back is not None and category(back) >= fl.stay_back


def fantasyland_cards(board: Union[Board, str], rules: RuleSet,
                      in_fantasyland: Union[bool, int] = False) -> int:
    """Cards the seat gets in Fantasyland on the next deal after this finished board
    (0 = none).  A fouled board never qualifies.

    ``in_fantasyland``: False for a normal hand (the entry rule applies); True, or the
    number of cards of this Fantasyland hand, for a Fantasyland hand (the stay rule
    applies; rule sets whose stay keeps the same count need the number).
    """
    b = as_board(board)
    if not b.is_complete:
        raise BoardError("fantasyland_cards() needs a finished board (3/5/5 cards)")
    fl = rules.fantasyland
    e = b.evaluate(rules)
    if fl is None or e.foul:
        return 0
    lowball = rules.lowball is not None
    if not in_fantasyland:
        return _entry_cards(fl, e.strengths, lowball)
    if not _stays(fl, e.strengths, lowball):
        return 0
    if fl.stay_cards == "same":
        if isinstance(in_fantasyland, bool) or not 13 <= in_fantasyland <= 17:
            raise RulesError(f"{rules.name}: a stay keeps the current number of cards; "
                             f"pass in_fantasyland=<cards of this hand> (13..17)")
        return int(in_fantasyland)
    if fl.stay_cards == "entry":
        return _entry_cards(fl, e.strengths, lowball) or min(
            [c for _, c in fl.entry] + [c for c in (fl.lowball_entry,) if c])
    return int(fl.stay_cards)
