"""ValueBot: the move whose after-state the learned model values most, no search.

Each normal decision scores every legal move in one C call
(``ofc_value_actions``, ``csrc/include/ofc_value.h``): the board after the move goes
through the model's net for its card count (a complete board: its expected points
and Fantasyland value, exactly), and the best is played.  Fantasyland sets are set by
the exact solver (:func:`ofc_fast.solver.solve_fantasyland`), classic hands by the
arranger (as :class:`HeuristicBot`).  ``model``: ``"auto"`` (the model shipped for
the rule set and seat count; BotError when the bot is made under rules no model
ships for, when :func:`~ofc_fast.bots.make_bots` makes it for a seat count without
one (:meth:`ValueBot.check_players`), else at a decision there), a path to a model
file (kept absolute), a :class:`~ofc_fast.learned.ValueModel`, or its bytes as
``{"name": ..., "base64": ...}`` (what ``settings()`` gives for a model read from
bytes; one read from a file it gives as ``{"path": ..., "checksum": ...}``); None
is refused.  A model file that is missing, damaged (when the bot is made, or since)
or of other rules than the table's is a :class:`~ofc_fast.errors.BotModelError`, as
:class:`SearchBot`'s.

>>> from ofc_fast import rules
>>> from ofc_fast.bots import RandomBot, ValueBot
>>> from ofc_fast.game import Game, play_out
>>> g = Game(rules.PINEAPPLE, players=2, seed=3)
>>> result = play_out(g, [ValueBot(seed=0), RandomBot(seed=1)])
>>> len(result.net)
2
"""

from __future__ import annotations

from random import Random
from typing import Any

from ..errors import BotError, OfcError
from ..game import Move, move_for_action
from ..learned.model import ModelSpec, resolve_model, shipped_model, spec_setting
from ..rules import PINEAPPLE, RuleSet
from ..rules.model import GameKind
from ..search import decision_actions, search_model
from ..solver import StayValue
from ._sets import decision, fl_setting, model_errors, model_setting, table_model
from .base import ObservationLike, SeparateCopies, names_bad_observations, unseen_cards
from .heuristic import HeuristicBot, rules_setting, seed_setting

__all__ = ["ValueBot"]


@names_bad_observations
class ValueBot(SeparateCopies):
    """Greedy on the learned value (see the module doc); ``fl_value``: the worth of
    Fantasyland next deal, as :class:`~ofc_fast.search.SearchModel` reads it.

    >>> ValueBot(seed=1).settings()["model"]
    'auto'
    """

    name = "value"

    def __init__(
        self,
        rules: RuleSet | str | None = None,
        seed: int | None = None,
        *,
        model: ModelSpec = "auto",
        fl_value: StayValue = None,
    ) -> None:
        self.rules = rules_setting(rules, "value bot")
        if model is None:  # SearchBot's rollout-only search; this bot has no other
            raise BotError(
                "value bot: model=None is no model, and a value bot plays by one: "
                "'auto', a path, a ValueModel or its bytes (SearchBot(model=None) "
                "searches without one)"
            )
        model = model_setting(model, "value bot", self.rules)
        try:
            # fl_value is checked alike under any rules (the observation's, when None)
            search_model(self.rules or PINEAPPLE, fl_value)
        except OfcError as exc:
            raise BotError(f"value bot: {exc}") from None
        own = self.rules  # (None: the observation's rules, checked at a decision)
        if model == "auto" and own is not None and not _model_ships(own):
            raise _no_model(own)
        self.seed = seed = seed_setting(seed, "value bot")
        self.model = model
        self.fl_value = fl_setting(fl_value)
        self._carried: list[Any] = []  # the last carried rule set (rules_of memo)
        self._sets = HeuristicBot(rules, seed)
        self.rng = Random(seed)

    def settings(self) -> dict[str, Any]:
        """The keyword settings: ``ValueBot(rules, seed, **settings)`` is an equal bot."""
        return {"model": spec_setting(self.model), "fl_value": self.fl_value}

    def reset(self, seed: int | None = None) -> None:
        """Start again from ``seed``, then the bot's ``seed`` (the bot draws nothing
        at random; the set arranger of classic hands does)."""
        self.seed = seed = seed_setting(seed, "value bot")
        self.rng = Random(seed)
        self._sets.reset(seed)

    def check_players(self, players: int) -> None:
        """The BotError a decision at ``players`` seats would raise when
        ``model="auto"`` ships no model for the bot's rules and that seat count, or
        its model was trained for another seat count (a BotModelError), as
        :func:`~ofc_fast.bots.make_bots` checks the bots it makes, before any deal; a
        bot made without rules is checked at a decision.

        >>> ValueBot("ofc", seed=1).check_players(4)  # doctest: +ELLIPSIS
        Traceback (most recent call last):
        ...
        ofc_fast.errors.BotError: value bot: no value model ships for OFC with 4 players; ...
        """
        own = self.rules
        if own is None or own.game is GameKind.CLASSIC:
            return
        if table_model(self.model, own, players, "value bot") is None:
            raise _no_model(own, players)  # (model="auto": None is refused)

    def act(self, observation: ObservationLike) -> Move:
        """The legal move of largest model value."""
        obs = observation
        rules, full = decision(obs, self.rules, self._sets, self.fl_value, self._carried)
        if full is not None:
            return full
        dealt = list(obs["dealt"])
        players = int(obs["players"])
        with model_errors("value bot"):  # the model's file, or rules not its own
            model = resolve_model(self.model, rules, players)
        if model is None:
            raise _no_model(rules, players)
        rows = obs["boards"][obs["seat"]]
        k = int(obs["to_discard"])
        actions = decision_actions(obs)
        fl = search_model(rules, self.fl_value).fl_value
        with model_errors("value bot"):
            values = model.action_values(
                rules, players, fl, rows, dealt, k, unseen_cards(obs), actions
            )
        best = max(range(len(actions)), key=lambda i: (values[i], -actions[i]))
        return move_for_action(actions[best], dealt, rows, k)


def _model_ships(rules: RuleSet) -> bool:
    """Whether ``model="auto"`` can play under ``rules``: a model ships for them at
    some seat count (the one at the table is checked at a decision), or they are
    classic rules (the arranger sets the hands, no model)."""
    if rules.game is GameKind.CLASSIC:
        return True
    seats = range(2, rules.max_players + 1)
    return any(shipped_model(rules, n) is not None for n in seats)


def _no_model(rules: RuleSet, players: int | None = None) -> BotError:
    """The error of a value bot with ``model="auto"`` where no model ships for
    ``rules`` (with ``players``; None: for any seat count), saying what to do."""
    seats = "" if players is None else f" with {players} players"
    return BotError(
        f"value bot: no value model ships for {rules.name}{seats}; play another bot, "
        "or train a model (python -m ofc_fast.learned.train) and give its file to "
        "the bot (the bot name value@PATH, or ValueBot(model=PATH))"
    )
