"""ofc-fast: fast hand ranking, fouls, royalties and scoring for Chinese Poker and
Open Face Chinese Poker, in C with a typed Python API.

>>> import ofc_fast as ofc
>>> ofc.rank3("Qh Qd 5c") > ofc.rank5("Qs Qc 4d 3h 2s")
True
>>> ofc.Board.parse("Qh Qd 2c / 9s 9h 9d 5c 5d / As Ks Qs Js Ts").royalties()
(7, 12, 25)
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from . import rules
from ._native import ffi as _ffi
from ._native import lib as _lib
from .batch import BoardBatch, eval_boards, rank3_batch, rank5_batch, score_pairs
from .board import Board, BoardEval, Row
from .cards import card_str, cards_str, from_treys, parse_card, parse_cards, to_treys
from .errors import (
    ArrayError,
    BoardError,
    CardError,
    GameError,
    HistoryError,
    MoveError,
    OfcError,
    RulesError,
    StrengthError,
    TableError,
)
from .fantasyland import fantasyland_cards
from .game import (
    ACTION_SPACE,
    Game,
    GameResult,
    Match,
    Move,
    Observation,
    SeatStats,
    deal_seed,
)
from .lazy import lazy_exports
from .ranking import (
    STRENGTH_MAX,
    HandCategory,
    category,
    describe,
    hand_ranks,
    kev_rank,
    low27,
    rank,
    rank3,
    rank5,
    strength_cards,
    strength_from_kev,
)
from .rules import RuleSet
from .scoring import PairScore, score_pair
from .scoring.naturals import NaturalHand, detect_naturals, natural_payment, naturals
from .scoring.settlement import (
    Settlement,
    SettlementItem,
    apply_stakes,
    settle,
    settlement_order,
)

if TYPE_CHECKING:
    from .search import Advice, advise, best_completion
    from .solver import STAY_VALUE_DEFAULT, Solution, best_setting, solve_fantasyland
else:  # (the search, its learned model and the solver load on first use)
    __getattr__, __dir__ = lazy_exports(
        globals(),
        {
            ".search": ("Advice", "advise", "best_completion"),
            ".solver": (
                "STAY_VALUE_DEFAULT",
                "Solution",
                "best_setting",
                "solve_fantasyland",
            ),
        },
    )

__version__: str = _ffi.string(_lib.ofc_version_string()).decode("ascii")
"""Version of the package, read from the compiled C library (OFC_VERSION_STRING)."""

__all__ = [
    "ACTION_SPACE",
    "STAY_VALUE_DEFAULT",
    "STRENGTH_MAX",
    "Advice",
    "ArrayError",
    "Board",
    "BoardBatch",
    "BoardError",
    "BoardEval",
    "CardError",
    "Game",
    "GameError",
    "GameResult",
    "HandCategory",
    "HistoryError",
    "Match",
    "Move",
    "MoveError",
    "NaturalHand",
    "Observation",
    "OfcError",
    "PairScore",
    "Row",
    "RuleSet",
    "RulesError",
    "SeatStats",
    "Settlement",
    "SettlementItem",
    "Solution",
    "StrengthError",
    "TableError",
    "__version__",
    "advise",
    "apply_stakes",
    "best_completion",
    "best_setting",
    "card_str",
    "cards_str",
    "category",
    "deal_seed",
    "describe",
    "detect_naturals",
    "eval_boards",
    "fantasyland_cards",
    "from_treys",
    "hand_ranks",
    "kev_rank",
    "low27",
    "natural_payment",
    "naturals",
    "parse_card",
    "parse_cards",
    "rank",
    "rank3",
    "rank3_batch",
    "rank5",
    "rank5_batch",
    "rules",
    "score_pair",
    "score_pairs",
    "settle",
    "settlement_order",
    "solve_fantasyland",
    "strength_cards",
    "strength_from_kev",
    "to_treys",
]
