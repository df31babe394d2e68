"""The bot interface and what every bot may read from an observation.

A bot is any object with ``act(observation) -> Move``: it gets the plain-data
observation of the seat to act (:meth:`ofc_fast.game.Game.observation`, JSON-able)
and nothing else, never the :class:`~ofc_fast.game.Game`, so it sees exactly what
that seat may see.  Conventions the registry (:mod:`ofc_fast.bots.registry`) relies
on, so that a bot can be rebuilt by name in another process:

* the constructor takes ``rules`` (a RuleSet, a preset name or None: play by the
  rules of each observation, :func:`rules_of`) and ``seed`` (None: fresh entropy),
  then keyword-only settings;
* ``name`` is the registry name and ``settings()`` returns those keyword settings
  as JSON-able data, so ``make_bot(bot.name, rules, seed, **bot.settings())`` makes
  an equal bot;
* the same seed and the same observations give the same moves; ``reset(seed)``
  (optional) re-seeds a bot in place between matches;
* ``check_players(players)`` (optional) raises the OfcError of a table of ``players``
  seats the bot cannot play at; every maker of bots for a table calls it
  (:func:`~ofc_fast.bots.registry.check_table`: :func:`~ofc_fast.bots.make_bots`,
  the environments, the arena, the server), so that such a bot fails when it is
  made, not at its first decision;
* ``warm_up(rules, players)`` (optional) builds, before a deadline runs, what the
  first decision at a table of ``rules`` and ``players`` seats would build on the
  clock (``ofc-fast bot`` calls it after ``hello``).

An observation may hold NumPy values, as NumPy code has them (a Gymnasium dict space,
``np.asarray`` of a field): every built-in bot reads ``boards`` (as a whole, per seat
or per row), ``dealt``, ``discards``, ``legal_actions``, ``fantasyland``,
``discard_counts`` and ``face_down_counts`` given as integer arrays of any int dtype
(an empty array of any dtype: the empty list), and NumPy numbers and bools, as the
plain lists and numbers they hold: the same move for the same seed.  An array of
another dtype (floats, bools), of the wrong number of dimensions, or holding a card id
outside 0..51 or an action id outside the action space is an ObservationError (a
CardError for the card id) naming the field.

>>> from ofc_fast.bots import Bot, RandomBot
>>> isinstance(RandomBot(seed=1), Bot)
True
"""

from __future__ import annotations

import copy
from collections.abc import Callable, Mapping
from functools import wraps
from typing import TYPE_CHECKING, Any, NoReturn, Protocol, TypeVar, runtime_checkable

import numpy as np
import numpy.typing as npt

from ..errors import CardError, ObservationError, OfcError, SearchError, quote
from ..game import GameError, Move
from ..game.observation import plain_observation
from ..rules import RuleSet, observation_rules
from ..search import check_observation, check_seat, missing_fields, position
from ..table import MAX_SEATS, as_int

__all__ = ["Bot", "ObservationLike", "rules_of", "unseen_cards"]
# the built-in bots' helpers (READ_ERRORS, observation_problem, raise_bad_observation,
# names_bad_observations, observed_seat, dealt_cards, SeparateCopies) are imported
# from this module by name, not public API

ObservationLike = Mapping[str, Any]
"""What a bot reads: the plain data :meth:`ofc_fast.game.Game.observation` returns
(typed as :class:`ofc_fast.game.Observation`), or the same parsed from JSON."""

Observation = ObservationLike
"""The former name of :data:`ObservationLike` (kept); not to be confused with the
``TypedDict`` :class:`ofc_fast.game.Observation`."""


@runtime_checkable
class Bot(Protocol):
    """The bot interface: one method, the observation in, the move out.

    >>> from ofc_fast.game import Game, Move
    >>> class FirstLegal:  # any object with act() is a Bot
    ...     def act(self, observation):
    ...         return Move.from_action(observation["dealt"], observation["to_discard"],
    ...                                 observation["legal_actions"][0])
    >>> isinstance(FirstLegal(), Bot)
    True
    >>> g = Game("pineapple", players=2, seed=1)
    >>> g.play(FirstLegal().act(g.observation(g.to_act)))
    >>> g.decisions
    1
    """

    def act(self, observation: ObservationLike) -> Move:
        """The move for the seat ``observation["seat"]``, whose turn it is."""
        ...  # pragma: no cover


_BotClass = TypeVar("_BotClass", bound=type)
_Self = TypeVar("_Self", bound="SeparateCopies")


class SeparateCopies:
    """The built-in bots' base: ``copy.copy(bot)`` is a separate bot, with its own
    random stream (and caches), as ``copy.deepcopy`` and pickling give, so that the
    copy's decisions never change the original's later moves.

    >>> import copy
    >>> from ofc_fast.bots import RandomBot
    >>> bot = RandomBot(seed=5)
    >>> copy.copy(bot).rng is bot.rng
    False
    """

    def __copy__(self: _Self) -> _Self:
        return copy.deepcopy(self)

    def __repr__(self) -> str:
        """The bot's class, its rules (None: each observation's) and its keyword
        settings, as a log line or a test failure shows the bot.

        >>> from ofc_fast.bots import HeuristicBot, RandomBot
        >>> RandomBot(seed=5)
        <RandomBot>
        >>> HeuristicBot("pineapple", samples=8)  # doctest: +ELLIPSIS
        <HeuristicBot rules=PINEAPPLE samples=8 arrangements=10 ...>
        """
        rules = getattr(self, self._rules_attribute, None)
        words = [type(self).__name__]
        words += [] if rules is None else [f"rules={getattr(rules, 'name', rules)}"]
        try:  # (a repr must not raise: a half-made bot, one with no settings())
            settings = self.settings()  # type: ignore[attr-defined]
        except Exception:
            settings = {}
        words += [f"{k}={v!r}" for k, v in settings.items()]
        return f"<{' '.join(words)}>"

    _rules_attribute = "rules"
    """The attribute holding the bot's own rules (None: each observation's)."""

    if TYPE_CHECKING:  # (every built-in bot has it: a list of them is a list of Bots)

        def act(self, observation: ObservationLike) -> Move:
            """The move for the seat ``observation["seat"]``, whose turn it is."""
            ...


def observation_problem(observation: object) -> OfcError | None:
    """What is wrong with an observation a bot cannot read, as the error to raise (an
    :class:`~ofc_fast.errors.ObservationError`, a GameError, the class
    :func:`ofc_fast.search.advise` raises for one too, or a CardError): not a dict, no
    ``"rules"``, or what :func:`ofc_fast.search.advise` refuses in it (its checks name
    the field, or the fields that do not fit together); None when none of these is
    wrong.

    >>> observation_problem({"x": 1})
    ObservationError('observation: rules must be given (missing field(s) rules)')
    """
    if not isinstance(observation, Mapping):
        return ObservationError(
            "a bot acts on an observation dict (Game.observation), got "
            f"{quote(observation)}"
        )
    if "rules" not in observation:
        return missing_fields(["rules"])
    try:
        check_observation(observation)
        # fields that do not fit together (the rounds to come, a card twice), as
        # advise finds them; a position it does not search is no malformation
        position(observation, rules_of(observation))
    except (ObservationError, CardError) as exc:
        return exc
    except OfcError as exc:
        return None if isinstance(exc, SearchError) else exc
    except (KeyError, IndexError, TypeError, AttributeError):  # nothing it can name
        return None
    return None


READ_ERRORS = (KeyError, IndexError, TypeError, AttributeError, ValueError, OverflowError)
"""What reading a malformed observation raises in a bot's ``act`` (ValueError: a
number that is not one, a negative card; OverflowError: ``int()`` of an infinity; an
OfcError, a ValueError too, passes as it is)."""


def raise_bad_observation(observation: object, exc: BaseException) -> NoReturn:
    """Raise, for ``exc`` (one of :data:`READ_ERRORS`, an OfcError too) that a bot's
    ``act`` met, the :class:`~ofc_fast.errors.OfcError` naming what is wrong with
    ``observation`` (:func:`observation_problem`), ``exc`` chained; ``exc`` itself
    when it is an ObservationError already or the observation shows nothing wrong
    (a bug of the bot, or a move the position refuses)."""
    if isinstance(exc, ObservationError):
        raise exc
    problem = observation_problem(observation)
    if problem is None:
        raise exc
    raise problem from exc


def names_bad_observations(cls: _BotClass) -> _BotClass:
    """Class decorator of the built-in bots: an ``act`` that fails on a malformed
    observation (hand-built, or damaged) with one of :data:`READ_ERRORS` (or an
    OfcError) raises instead the :class:`~ofc_fast.errors.OfcError` that names the
    problem (:func:`raise_bad_observation`: the checks of
    :func:`ofc_fast.search.advise`, an ObservationError or a CardError, as ``advise``
    raises), the original chained.  First, ``act`` gets the observation as the one
    reader of NumPy values gives it (``ofc_fast.game.observation.plain_observation``:
    arrays as the lists they hold, a bad array the ObservationError naming its field;
    RandomBot calls it in its ``act``).  The check runs only when ``act`` fails; a
    well-formed observation costs one call (RandomBot, whose decision takes about a
    microsecond, catches in its ``act`` instead).

    >>> from ofc_fast.bots import HeuristicBot
    >>> HeuristicBot().act({"rules": "pineapple"})
    Traceback (most recent call last):
    ...
    ofc_fast.errors.ObservationError: observation: players must be given (missing field(s) ...
    """
    act: Callable[[Any, ObservationLike], Move] = cls.act  # type: ignore[attr-defined]

    @wraps(act)
    def checked_act(self: Any, observation: ObservationLike) -> Move:
        obs = plain_observation(observation)  # NumPy values as plain ones, or named
        try:
            return act(self, obs)
        except READ_ERRORS as exc:
            raise_bad_observation(obs, exc)

    cls.act = checked_act  # type: ignore[attr-defined]
    return cls


def observed_seat(observation: ObservationLike, most: int = MAX_SEATS) -> int:
    """The observed seat, whose board the bot plays: an int within 0..players-1, with
    ``players`` an int within 2..``most`` (the most seats the table's rules allow)
    and one board per player, else the ObservationError naming the field, as
    :func:`ofc_fast.search.advise` raises (:func:`ofc_fast.search.check_seat`, which
    a quick test of plain ints spares on a well-formed observation): every built-in
    bot's check of every decision, so that no seat reads another seat's board.

    >>> from ofc_fast.game import Game
    >>> obs = Game("pineapple", players=2, seed=1).observation(0)
    >>> observed_seat(dict(obs, seat=-1))
    Traceback (most recent call last):
    ...
    ofc_fast.errors.ObservationError: observation: seat must be an int within 0..1, got -1
    """
    seat = observation["seat"]
    players = observation["players"]
    if (
        type(seat) is int  # (a bool's type is bool)
        and type(players) is int
        and 0 <= seat < players <= most
        and players > 1
        and len(observation["boards"]) == players
    ):
        return seat
    return check_seat(observation, most)


def dealt_cards(observation: ObservationLike, most: int = MAX_SEATS) -> list[int]:
    """The cards dealt to the observed seat (:func:`observed_seat`, ``most``: the
    most seats the table's rules allow), to play; GameError "seat N has nothing to
    play" when none are (the observation of a seat that is not to act): every
    built-in bot's one check and message.

    >>> from ofc_fast.game import Game
    >>> g = Game("pineapple", players=2, seed=1)
    >>> dealt_cards(g.observation(1 - g.to_act))
    Traceback (most recent call last):
    ...
    ofc_fast.errors.GameError: seat 0 has nothing to play
    """
    seat = observed_seat(observation, most)
    dealt = list(observation["dealt"])
    if not dealt:
        raise GameError(f"seat {seat} has nothing to play")
    return dealt


def rules_of(
    observation: ObservationLike, own: RuleSet | None = None, memo: list[Any] | None = None
) -> RuleSet:
    """The rule set to play ``observation`` under: the one it carries under
    ``"rule_set"`` (a game whose rules are not exactly a preset, e.g. a custom rule set
    named ``"custom"``, is played by its exact rules), else the bot's own ``own`` when
    the names agree, else the preset named ``"rules"``.  ``memo``: a list the bot
    keeps, so that each distinct carried rule set is parsed once
    (:func:`ofc_fast.rules._lookup.observation_rules`).

    >>> import json
    >>> from ofc_fast import Game, rules
    >>> table = rules.PINEAPPLE.replace(sweep_bonus=4)
    >>> obs = json.loads(json.dumps(Game(table, seed=1).observation(1)))
    >>> rules_of(obs) == table
    True
    """
    return observation_rules(observation, own, memo)


def _card_bit(card: object) -> int:
    """The bit of card id ``card`` in a mask of the 52 cards, bit 52 for any id above
    51 (a NumPy integer as the Python int it is: a uint8 shifted stayed a uint8 and
    lost the card); TypeError for what is no integer, ValueError for a negative id."""
    c = as_int(card)
    if c is None:
        raise TypeError(f"a card id is an integer, got {quote(card)}")
    return 1 << min(c, 52)


def unseen_cards(observation: ObservationLike) -> npt.NDArray[Any]:
    """Cards the seat to act has not seen anywhere (every board's visible cards, its
    dealt cards, its own discards), ascending, as uint8 (a malformed observation, a
    card id outside 0..51 among them: the OfcError naming the problem, as a bot's).

    >>> from ofc_fast import rules
    >>> from ofc_fast.game import Game
    >>> obs = Game(rules.PINEAPPLE, 2, seed=1).observation(1)
    >>> len(unseen_cards(obs))
    47
    """
    seen = 0
    observation = plain_observation(observation)
    try:
        for board in observation["boards"]:
            for row in board:
                for card in row:
                    seen |= _card_bit(card)
        for card in observation["dealt"]:
            seen |= _card_bit(card)
        for card in observation["discards"]:
            seen |= _card_bit(card)
        if seen >> 52:
            raise CardError(f"observation: card ids above 51 in {quote(observation)}")
    except READ_ERRORS as exc:
        raise_bad_observation(observation, exc)
    return np.array([c for c in range(52) if not seen >> c & 1], dtype=np.uint8)
