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

import time
from random import Random
from typing import Any

from ..errors import BotError, ObservationError, OfcError, quote
from ..game import Move
from ..learned.model import ModelSpec, spec_setting
from ..rules import PINEAPPLE, RuleSet, RulesLike
from ..search import (
    Opponent,
    advise,
    check_settings,
    in_range,
    opponent_weight,
    search_model,
)
from ..solver import StayValue
from ._sets import (
    decision,
    fl_setting,
    model_errors,
    model_seats,
    model_setting,
    table_model,
)
from ._warm import rehearse, warm_seats, warm_table
from .base import ObservationLike, SeparateCopies, names_bad_observations
from .heuristic import HeuristicBot, rules_setting, seed_setting

__all__ = ["MIN_SEARCH", "SearchBot"]

MIN_SEARCH = 0.002
"""Under a deadline, the least budget (s) worth a search; with less the bot plays the
heuristic's move."""
_OVERRUN = 0.04  # what a search may overrun its budget by, before one is measured
_SHARE = 0.8  # of the time left, what the search may plan on (the rest: load spikes)
_DECAY = 0.97  # per decision, how fast an old overrun is forgotten
_WARM_UP_LIMIT = 2.0  # seconds after which warm_up starts no more rehearsals, and by
# which the searches of all but the first end (a rehearsal at a large own budget: 14
# budgets a deal and more, past an arena's wait for the join)
_BUDGET_MAX = 1e6  # advise's largest time_budget (s): the opening's, a deadline's capped
_REHEARSALS = (0.01, 0.03)  # the warm-up's budgets per decision (s), then the bot's


@names_bad_observations
class SearchBot(SeparateCopies):
    """Search on every decision (see the module doc).

    ``time_budget``: seconds per normal decision (None: no limit, then ``samples``
    decides); ``samples``: sampled futures per decision (None: as many as the budget
    allows; with a number and no budget the bot is reproducible on any machine);
    ``fl_value`` / ``row_weight``: the value model (:class:`ofc_fast.search.SearchModel`);
    ``policy``: completion policy (:data:`ofc_fast.search.POLICIES`); ``prune``: drop
    the worse half of the moves after each batch of samples; ``opening_factor``: the
    opening (5 cards, up to 232 moves) gets this many time budgets, at most 1e6 s
    (the later, smaller decisions keep the median time per decision at about one
    budget);
    ``clock``: the budget counts this thread's ``"cpu"`` time (default: the same
    strength on a busy machine) or ``"wall"`` time (a real-time limit); ``opponent``:
    how the search models the other seats (:data:`ofc_fast.search.OPPONENTS`):
    ``"best"`` (default: they complete their boards well), ``"random"`` (they play
    uniformly random legal moves, as :class:`RandomBot`), ``"self"`` (they play as
    the bot's own rollouts do: round by round, blind to their cards to come, placed
    by the learned model where one is set), or a number within 0..1 (the chance
    that a seat plays at random in each sampled future).  The bot only
    sees observations: the model is a setting, not a guess about who is playing.
    ``model``: the learned value model that places the bot's own cards inside the
    rollouts and screens the opening (:data:`ofc_fast.learned.ModelSpec`): ``"auto"``
    (default: the model shipped for the rule set and seat count, and the rollout-only
    search where none ships), a path (kept absolute), a
    :class:`~ofc_fast.learned.ValueModel`, its bytes as ``{"name": ..., "base64":
    ...}`` or its file with its checksum, ``{"path": ..., "checksum": ...}``; None
    is the rollout-only search, the same decisions as before the learned model for the
    same seed and samples.  On every table a model ships for, the learned search is
    ahead of the rollout-only one in duplicate play with the Fantasyland deals carried
    (docs/learned.md).  A model file that is missing, damaged (when the bot is made,
    or since) or of other rules than the table's is a
    :class:`~ofc_fast.errors.BotModelError`, as :class:`ValueBot`'s.

    **Deadlines.** An observation with a ``"deadline"`` (the :func:`time.monotonic`
    time by which :meth:`act` must return; the protocol client sets it from the
    arena's ``deadline_ms``, less its margin for the pipe) caps the search: the
    budget becomes 80% of the time left (the rest absorbs load spikes) less what a
    search has overrun its budget by on this machine (measured: the largest recent
    overrun per decision size, decaying), on the wall clock; when that leaves under
    :data:`MIN_SEARCH` seconds the bot plays the heuristic's move (about a
    millisecond) rather than miss.  Fantasyland and classic sets (the exact solver,
    the arranger: milliseconds) are not capped.
    :meth:`warm_up` builds the tables and measures the overruns before the first
    deadline.

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
        model: ModelSpec = "auto",
    ) -> None:
        self.rules = rules_setting(rules, "search bot")
        seed = seed_setting(seed, "search bot")
        model = model_setting(model, "search bot", self.rules)
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
            # fl_value is checked alike under any rules (the observation's, when None)
            search_model(self.rules or PINEAPPLE, fl_value, row_weight)
        except OfcError as exc:
            raise BotError(f"search bot: {exc}") from None
        self.seed = seed
        self.rng = Random(seed)
        self.time_budget = None if time_budget is None else float(time_budget)
        self.samples = None if samples is None else int(samples)
        self.fl_value = fl_setting(fl_value)
        self.row_weight = float(row_weight)
        self.policy = policy
        self.prune = bool(prune)  # checked: True or False, NumPy's too
        self.opening_factor = float(opening_factor)
        self.clock = clock
        self.opponent = opponent if isinstance(opponent, str) else float(opponent)
        self.model = model
        self._carried: list[Any] = []  # the last carried rule set (rules_of memo)
        self._sets = HeuristicBot(rules, seed)
        self._overrun: dict[int, float] = {}  # dealt cards -> recent largest overrun (s)

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
            "model": spec_setting(self.model),
        }

    def reset(self, seed: int | None = None) -> None:
        """Start the random stream again from ``seed`` (then the bot's ``seed``, so
        that ``make_bot(bot.name, rules, bot.seed, **bot.settings())`` rebuilds it)."""
        self.seed = seed = seed_setting(seed, "search bot")
        self.rng = Random(seed)
        self._sets.reset(seed)

    def check_players(self, players: int) -> None:
        """The BotModelError a decision at ``players`` seats would raise when the
        bot's model was trained for another seat count (``model="auto"`` searches
        without one where none ships), as :func:`~ofc_fast.bots.make_bots` checks
        the bots it makes, before any deal; a bot made without rules is checked at a
        decision."""
        if self.model != "auto":  # (where none ships, "auto" is the rollout search)
            table_model(self.model, self.rules, players, "search bot")

    def warm_up(self, rules: RulesLike | None = None, players: int | None = None) -> None:
        """Build the tables the first decision needs and measure how far a search
        overruns its budget here: rehearsal deals of a copy at budgets of 10 ms, 30 ms
        and the bot's own (the overrun depends on where the budget cuts the search:
        pruning switches policy part way), as many as start within 2 s, the searches
        of all but the first ending by then too, as under a deadline (the rest of a
        deal: the heuristic's moves), so that a large budget warms up as fast; ``rules``,
        else the bot's own, else PINEAPPLE; ``players`` seats, else the seat count
        the bot's model file was trained for, else 2.  This bot's random stream is
        untouched.  ``ofc-fast bot`` calls it before joining (about a second).

        >>> bot = SearchBot(seed=0)
        >>> bot.warm_up()
        >>> sorted(bot.overruns())
        [3, 5]
        """
        who = "search bot warm_up"
        table = warm_table(rules, self.rules, who)
        if players is None:
            seats = model_seats(self.model, "search bot")
        else:
            seats = warm_seats(players, table, who)
        start = time.monotonic()
        end = None  # the first rehearsal's (10 ms searches) builds the tables, however slow
        self._sets.warm_up(table)
        for budget in (*_REHEARSALS, self.time_budget or _REHEARSALS[-1]):
            if self._overrun and time.monotonic() - start > _WARM_UP_LIMIT:
                break  # a slow or busy machine: what was measured will do
            settings = {**self.settings(), "time_budget": budget, "samples": None}
            copy = SearchBot(table, 0, **{**settings, "clock": "wall", "model": self.model})
            copy._overrun = self._overrun  # the copy's searches measure for this bot
            rehearse(_Timed(copy, end), table, seats)
            end = start + _WARM_UP_LIMIT

    def overruns(self) -> dict[int, float]:
        """Seconds a search overran its budget, recently at most, by the number of
        dealt cards (what the deadline logic keeps back)."""
        return dict(self._overrun)

    def act(self, observation: ObservationLike) -> Move:
        """The move the search advises for the observed decision."""
        obs = observation
        rules, full = decision(obs, self.rules, self._sets, self.fl_value, self._carried)
        if full is not None:
            return full
        dealt = list(obs["dealt"])
        budget = self.time_budget
        if budget is not None and len(dealt) == 5:  # the opening: 232 moves to weigh
            budget = min(budget * self.opening_factor, _BUDGET_MAX)
        clock = self.clock
        deadline = obs.get("deadline")
        if deadline is not None:
            if not in_range(deadline, -1e300, 1e300):
                raise ObservationError(
                    "observation: deadline must be a time.monotonic() number (or "
                    f"None), got {quote(deadline)}"
                )
            left = (deadline - time.monotonic()) * _SHARE
            left -= self._overrun.get(len(dealt), _OVERRUN)
            if left < MIN_SEARCH:
                return self._sets.act(obs)  # a fast move rather than a missed deadline
            # (no budget of its own: the deadline's, within advise's largest)
            budget, clock = min(left, _BUDGET_MAX if budget is None else budget), "wall"
        return self._search(obs, rules, budget, clock, deadline is not None)

    def _search(
        self,
        obs: ObservationLike,
        rules: RuleSet,
        budget: float | None,
        clock: str,
        timed: bool,
    ) -> Move:
        """The advised move; ``timed``: book how far the search overran ``budget``."""
        t0 = time.monotonic()
        with model_errors("search bot"):  # the model's file, or rules not its own
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
                clock=clock,
                opponent=self.opponent,
                model=self.model,
            )
        if timed and budget is not None:
            key = len(obs["dealt"])
            over = time.monotonic() - t0 - budget
            self._overrun[key] = max(over, _DECAY * self._overrun.get(key, over))
        return advice[0].move


class _Timed:
    """A rehearsal seat: the copy's every decision under a deadline, so that it
    measures its overruns as under a real one: ``end`` (a :func:`time.monotonic`
    time), or None for a far one."""

    def __init__(self, bot: SearchBot, end: float | None = None) -> None:
        self.bot, self.end = bot, end

    def act(self, observation: ObservationLike) -> Move:
        end = time.monotonic() + 60.0 if self.end is None else self.end
        return self.bot.act({**observation, "deadline": end})
