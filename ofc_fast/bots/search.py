"""SearchBot: Monte Carlo search with best completions, exact on the last streets.

Each normal decision goes to :func:`ofc_fast.search.advise` with a time budget
(every legal move valued on sampled futures shared by all moves, the worse half of
the moves dropped after each batch, exact expectimax where the tree is small), and
the best move is played.  Fantasyland sets are set by the exact solver
(:func:`ofc_fast.solver.solve_fantasyland`, staying valued by the same Fantasyland
values as the search); classic hands by the arranger (as :class:`HeuristicBot`).

>>> from ofc_fast import rules
>>> from ofc_fast.bots import RandomBot, SearchBot
>>> from ofc_fast.game import Game, play_out
>>> g = Game(rules.PINEAPPLE, players=2, seed=3)
>>> result = play_out(g, [SearchBot(seed=0, samples=16), RandomBot(seed=1)])
>>> result.fouls[0]
False
"""

from __future__ import annotations

from random import Random
from typing import Any

from ..errors import BotError, OfcError, quote
from ..game import GameError, Move
from ..rules import RuleSet, as_rules
from ..rules.model import Game as GameKind
from ..search import (
    Opponent,
    advise,
    check_settings,
    in_range,
    opponent_weight,
    search_model,
)
from ..solver import StayValue, solve_fantasyland
from .base import Observation, rules_of
from .heuristic import HeuristicBot

__all__ = ["SearchBot"]


class SearchBot:
    """Search on every decision (see the module doc).

    ``time_budget``: seconds per normal decision (None: no limit, then ``samples``
    decides); ``samples``: sampled futures per decision (None: as many as the budget
    allows; with a number and no budget the bot is reproducible on any machine);
    ``fl_value`` / ``row_weight``: the value model (:class:`ofc_fast.search.SearchModel`);
    ``policy``: completion policy (:data:`ofc_fast.search.POLICIES`); ``prune``: drop
    the worse half of the moves after each batch of samples; ``opening_factor``: the
    opening (5 cards, up to 232 moves) gets this many time budgets (the later,
    smaller decisions keep the median time per decision at about one budget);
    ``clock``: the budget counts this thread's ``"cpu"`` time (default: the same
    strength on a busy machine) or ``"wall"`` time (a real-time limit); ``opponent``:
    how the search models the other seats (:data:`ofc_fast.search.OPPONENTS`):
    ``"best"`` (default: they complete their boards well), ``"random"`` (they play
    uniformly random legal moves, as :class:`RandomBot`), or a number within 0..1
    (the chance that a seat plays at random in each sampled future).  The bot only
    sees observations: the model is a setting, not a guess about who is playing.

    >>> SearchBot(seed=1, opponent="random").settings()["opponent"]
    'random'
    """

    name = "search"

    def __init__(
        self,
        rules: RuleSet | str | None = None,
        seed: int | None = None,
        *,
        time_budget: float | None = 0.04,
        samples: int | None = None,
        fl_value: StayValue = None,
        row_weight: float = 1.0,
        policy: str = "auto",
        prune: bool = True,
        opening_factor: float = 3.0,
        clock: str = "cpu",
        opponent: Opponent = "best",
    ) -> None:
        if not (rules is None or isinstance(rules, (str, RuleSet))):
            raise BotError(
                f"search bot: rules must be a RuleSet or a name, got {quote(rules)}"
            )
        self.rules = None if rules is None else as_rules(rules, "search bot")
        if time_budget is None and samples is None:
            raise BotError("search bot: give a time_budget, samples, or both")
        try:
            check_settings(
                samples=samples,
                time_budget=time_budget,
                policy=policy,
                clock=clock,
                prune=prune,
                row_weight=row_weight,
            )
            opponent_weight(opponent)
            if not (in_range(opening_factor, 0, 100) and opening_factor > 0):
                raise OfcError(
                    f"opening_factor must be within 0..100, got {quote(opening_factor)}"
                )
            if self.rules is not None:
                search_model(self.rules, fl_value, row_weight)
        except OfcError as exc:
            raise BotError(f"search bot: {exc}") from None
        self.seed = seed
        self.rng = Random(seed)
        self.time_budget = None if time_budget is None else float(time_budget)
        self.samples = samples
        self.fl_value = fl_value
        self.row_weight = float(row_weight)
        self.policy = policy
        self.prune = prune
        self.opening_factor = float(opening_factor)
        self.clock = clock
        self.opponent = opponent
        self._sets = HeuristicBot(rules, seed)

    def settings(self) -> dict[str, Any]:
        """The keyword settings: ``SearchBot(rules, seed, **settings)`` is an equal bot."""
        return {
            "time_budget": self.time_budget,
            "samples": self.samples,
            "fl_value": self.fl_value,
            "row_weight": self.row_weight,
            "policy": self.policy,
            "prune": self.prune,
            "opening_factor": self.opening_factor,
            "clock": self.clock,
            "opponent": self.opponent,
        }

    def reset(self, seed: int | None = None) -> None:
        """Start the random stream again from ``seed``."""
        self.rng = Random(seed)
        self._sets.reset(seed)

    def act(self, observation: Observation) -> Move:
        """The move the search advises for the observed decision."""
        obs = observation
        rules = rules_of(obs, self.rules)
        dealt = list(obs["dealt"])
        if not dealt:
            raise GameError(f"seat {obs['seat']} has nothing to play")
        if obs.get("full_set") or len(dealt) > 5:
            if rules.game is GameKind.CLASSIC:
                return self._sets.act(obs)
            sol = solve_fantasyland(dealt, rules, stay_value=self.fl_value)
            return Move.from_board(sol.board, sol.discards)
        budget = self.time_budget
        if budget is not None and len(dealt) == 5:  # the opening: 232 moves to weigh
            budget *= self.opening_factor
        advice = advise(
            obs,
            samples=self.samples,
            time_budget=budget,
            seed=self.rng.getrandbits(63),
            policy=self.policy,
            fl_value=self.fl_value,
            row_weight=self.row_weight,
            rules=rules,
            prune=self.prune,
            clock=self.clock,
            opponent=self.opponent,
        )
        return advice[0].move
