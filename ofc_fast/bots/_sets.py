"""What the searching bots share: the rules of an observation, and full sets (a
Fantasyland hand by the exact solver, a classic hand by the arranger).  Private to
:mod:`ofc_fast.bots`."""

from __future__ import annotations

from typing import Any

from ..game import GameError, Move
from ..rules import RuleSet
from ..rules.model import GameKind
from ..solver import StayValue, solve_fantasyland
from .base import ObservationLike, rules_of
from .heuristic import HeuristicBot

__all__ = ["decision"]


def decision(
    obs: ObservationLike,
    own: RuleSet | None,
    sets: HeuristicBot,
    fl_value: StayValue,
    memo: list[Any],
) -> tuple[RuleSet, Move | None]:
    """The rules to play ``obs`` under (``memo``: the bot's memo of :func:`rules_of`)
    and, for a full set, its move (None: a normal decision, for the bot to search)."""
    rules = rules_of(obs, own, memo)
    dealt = list(obs["dealt"])
    if not dealt:
        raise GameError(f"seat {obs['seat']} has nothing to play")
    if obs.get("full_set") or len(dealt) > 5:
        if rules.game is GameKind.CLASSIC:
            return rules, sets.act(obs)
        sol = solve_fantasyland(dealt, rules, stay_value=fl_value)
        return rules, Move.from_board(sol.board, sol.discards)
    return rules, None
