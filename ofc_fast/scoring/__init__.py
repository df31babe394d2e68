"""Scoring: one board against another, table settlement with stakes, and naturals.

The rules live in C (``csrc/src/ofc_score.c``, ``ofc_settle.c``, ``ofc_naturals.c``); these
modules validate what a caller passes, call C once and build typed results:

* :mod:`~ofc_fast.scoring.pair`: :func:`score_pair` (R-SCORE-*, R-FOUL-*);
* :mod:`~ofc_fast.scoring.settlement`: :func:`settle`, table stakes, itemised
  transfers (R-SETTLE-*, R-STAKES-*);
* :mod:`~ofc_fast.scoring.naturals`: the special 13-card hands (R-NAT-*).

>>> from ofc_fast.scoring import score_pair
>>> score_pair("Qh Qd 2c / 9s 9h 9d 5c 5d / As Ks Qs Js Ts",
...            "2h 3d 4c / 6s 6h 7d 7c 8d / Ah Ad Kh Kd 8c").net
50
"""

from __future__ import annotations

from .naturals import NaturalHand, detect_naturals, natural_payment
from .pair import (
    BoardLike,
    EvaluatedBoard,
    PairScore,
    evaluate_for_scoring,
    score_evaluated,
    score_pair,
)
from .pair import (
    check_disjoint as check_disjoint,
)
from .pair import (
    complete_board as complete_board,
)
from .settlement import (
    Settlement,
    SettlementItem,
    apply_stakes,
    settle,
    settlement_order,
)
from .settlement import (
    settlement_of as settlement_of,
)

__all__ = [
    "BoardLike",
    "EvaluatedBoard",
    "NaturalHand",
    "PairScore",
    "Settlement",
    "SettlementItem",
    "apply_stakes",
    "detect_naturals",
    "evaluate_for_scoring",
    "natural_payment",
    "score_evaluated",
    "score_pair",
    "settle",
    "settlement_order",
]
