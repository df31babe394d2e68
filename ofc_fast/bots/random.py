"""RandomBot: a uniformly random legal move.

>>> from ofc_fast import rules
>>> from ofc_fast.bots import RandomBot
>>> from ofc_fast.game import Game, play_out
>>> g = Game(rules.PINEAPPLE, players=2, seed=3)
>>> _ = play_out(g, [RandomBot(seed=1), RandomBot(seed=2)])
>>> g.is_over
True
"""

from __future__ import annotations

from random import Random
from typing import Any

from .._native._fast import plain_seat
from ..errors import BotError, RulesError, quote
from ..game import Move, random_move
from ..game.observation import plain_observation
from ..rules import RuleSet, as_rules
from ..search import given_actions
from ..table import MAX_SEATS
from .base import (
    READ_ERRORS,
    ObservationLike,
    SeparateCopies,
    dealt_cards,
    observed_seat,
    raise_bad_observation,
)
from .heuristic import seed_setting

__all__ = ["RandomBot"]


def _is_rules(value: str | RuleSet) -> bool:
    """Whether ``value`` is a rule set, or the name of one."""
    try:
        as_rules(value, "random bot")
    except RulesError:
        return False
    return True


class RandomBot(SeparateCopies):
    """A uniformly random legal move (a Fantasyland or classic set: a uniformly random
    setting of uniformly random kept cards).  ``rules`` is accepted for the registry's
    sake and not needed: the observation says everything (a name that is no rule set
    is still a RulesError, as every bot's).

    >>> from ofc_fast.game import Game
    >>> g = Game("pineapple", players=2, seed=2)
    >>> obs = g.observation(g.to_act)
    >>> a, b = RandomBot(seed=5).act(obs), RandomBot(seed=5).act(obs)
    >>> a == b, a in g.legal_moves()
    (True, True)
    """

    name = "random"

    def __init__(self, seed: int | None = None, rules: RuleSet | str | None = None) -> None:
        if isinstance(seed, (str, RuleSet)) and _is_rules(seed):  # others: (rules, seed)
            raise BotError(
                f"RandomBot(seed, rules): got rules {quote(seed)} as the seed; pass "
                "rules=... (the seed comes first, as RandomBot(2))"
            )
        if rules is not None:
            as_rules(rules, "random bot")
        self.rng = Random(seed_setting(seed, "random bot"))

    def reset(self, seed: int | None = None) -> None:
        """Start the random stream again from ``seed`` (an int 0..2**64-1, NumPy's too, or
        None; else BotError, as every bot)."""
        self.rng = Random(seed_setting(seed, "random bot"))

    def settings(self) -> dict[str, Any]:
        """No settings: ``{}``."""
        return {}

    def act(self, observation: ObservationLike) -> Move:
        """A uniformly random legal move for the observed decision (a malformed
        observation: the OfcError naming the problem, as ``names_bad_observations``)."""
        # one builtin's look: a plain observation (a Game's, JSON's) whose seat is in
        # range is played as it is; else NumPy values as plain ones (or named) and the
        # seat checked (observed_seat: out of range, or players that do not fit the
        # boards, refused by the one check), as every bot's
        seat = plain_seat(observation, MAX_SEATS)
        obs = observation if seat >= 0 else plain_observation(observation)
        try:
            # the seat's three rows, read as every bot reads them: damaged boards fail
            # here and are named by raise_bad_observation
            _front, _middle, _back = rows = obs["boards"][
                seat if seat >= 0 else observed_seat(obs)
            ]
            legal = obs.get("legal_actions")
            if legal:  # a normal decision: a uniformly random legal action id
                # n.bit_length() random bits, drawn again while they reach n: what
                # rng.choice does through Random._randbelow (the same moves from a seed),
                # without its two Python-level calls
                n = len(legal)
                k = n.bit_length()
                getrandbits = self.rng.getrandbits
                r = getrandbits(k)
                while r >= n:
                    r = getrandbits(k)
                return Move.from_action(obs["dealt"], obs["to_discard"], legal[r])
            dealt_cards(obs)  # a seat not to act: nothing to play, as every bot says
            if not obs.get("full_set"):
                given_actions(obs)  # an empty list: refused, naming legal_actions
            return random_move(obs["dealt"], rows, obs["to_discard"], self.rng)
        except READ_ERRORS as exc:  # here, not by names_bad_observations: no extra call
            raise_bad_observation(obs, exc)
