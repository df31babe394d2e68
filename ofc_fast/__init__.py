"""ofc-fast: fast hand ranking, fouls, royalties and scoring for Chinese Poker and
Open Face Chinese Poker, in C with a typed Python API.

>>> import ofc_fast as ofc
>>> ofc.rank3("Qh Qd 5c") > ofc.rank5("Qs Qc 4d 3h 2s")
True
>>> ofc.Board.parse("Qh Qd 2c / 9s 9h 9d 5c 5d / As Ks Qs Js Ts").royalties()
(7, 12, 25)
"""

from __future__ import annotations

from . import rules
from ._native import lib as _lib
from .batch import BoardBatch, eval_boards, rank3_batch, rank5_batch, score_pairs
from .board import Board, BoardEval, Row
from .cards import (card_str, cards_str, from_treys, parse_card, parse_cards,
                    to_treys)
from .fantasyland import fantasyland_cards
from .solver import STAY_VALUE_DEFAULT, Solution, best_setting, solve_fantasyland
from .game import (ACTION_SPACE, Game, GameResult, Match, Move, Observation, SeatStats,
                   deal_seed)
from .scoring.naturals import NaturalHand, detect_naturals, natural_payment, naturals
from .errors import (ArrayError, BoardError, CardError, GameError, HistoryError,
                     MoveError, OfcError, RulesError, StrengthError)
from .ranking import (STRENGTH_MAX, HandCategory, category, describe, hand_ranks,
                      kev_rank, low27, rank, rank3, rank5, strength_cards,
                      strength_from_kev)
from .rules import RuleSet
from .scoring import PairScore, score_pair
from .search import Advice, advise, best_completion
from .scoring.settlement import (Settlement, SettlementItem, apply_stakes, settle,
                         settlement_order)

from ._native import ffi as _ffi

__version__: str = _ffi.string(_lib.ofc_version_string()).decode("ascii")
"""Version of the package, read from the compiled C library (OFC_VERSION_STRING)."""

__all__ = [
    "__version__", "rules", "RuleSet",
    "parse_card", "parse_cards", "card_str", "cards_str", "to_treys", "from_treys",
    "CardError", "BoardError", "ArrayError", "StrengthError", "RulesError", "OfcError",
    "STRENGTH_MAX", "HandCategory", "rank5", "rank3", "rank", "category", "describe",
    "kev_rank", "strength_from_kev", "strength_cards", "hand_ranks", "low27",
    "rank5_batch", "rank3_batch", "eval_boards", "score_pairs", "BoardBatch",
    "Row", "Board", "BoardEval", "PairScore", "score_pair", "Settlement",
    "SettlementItem", "settle", "settlement_order", "apply_stakes", "fantasyland_cards",
    "NaturalHand", "detect_naturals", "natural_payment", "naturals",
    "Game", "Move", "GameResult", "GameError", "MoveError", "HistoryError", "Observation",
    "ACTION_SPACE", "Match", "deal_seed",
    "SeatStats", "Solution", "solve_fantasyland", "best_setting", "STAY_VALUE_DEFAULT",
    "Advice", "advise", "best_completion",
]
