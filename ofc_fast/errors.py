"""Exceptions raised by ofc_fast: every one a ValueError subclass naming the problem."""

from __future__ import annotations

import re
import reprlib
import unicodedata
from collections.abc import Callable, Collection, Iterable, Sequence
from enum import Enum, EnumMeta
from functools import lru_cache, wraps
from typing import Any, TypeVar

import numpy as np

__all__ = [
    "ArenaError",
    "ArenaRulesError",
    "ArgumentError",
    "ArrayError",
    "BoardError",
    "BotError",
    "BotModelError",
    "CardError",
    "ExecutorError",
    "GameError",
    "GameRulesError",
    "HistoryError",
    "ModelError",
    "MoveError",
    "ObservationError",
    "OfcError",
    "ProtocolError",
    "RenderModeError",
    "RulesError",
    "SearchError",
    "SearchRulesError",
    "SelfPlayError",
    "StrengthError",
    "TableError",
    "UnknownAgentError",
    "UnknownBotError",
]


class OfcError(ValueError):
    """Base class of every error ofc_fast raises for bad input."""


class CardError(OfcError):
    """A bad card: unknown text, an id outside 0..51, a repeated card, a wrong count.

    >>> import ofc_fast as ofc
    >>> ofc.parse_card("Zz")
    Traceback (most recent call last):
    ...
    ofc_fast.errors.CardError: bad card 'Zz': expected a rank 2-9, T, J, Q, K, A (or 10) and a suit c, d, h, s
    """  # noqa: E501 - the error message as the user sees it


class BoardError(OfcError):
    """A bad board: wrong row size, unreadable text, or an incomplete board where a
    complete one is needed."""


class ArrayError(OfcError):
    """A NumPy array of the wrong type, dtype, shape or memory layout."""


class StrengthError(OfcError):
    """A strength outside the scale, or of the wrong kind (3-card where 5 is needed)."""


class RulesError(OfcError):
    """A rule set that cannot be built: unknown key, wrong type, impossible value."""


class GameError(OfcError):
    """A game that cannot be built (bad seat count, button, Fantasyland counts, too
    many cards for one deck) or a question the state cannot answer (the result of an
    unfinished deal)."""


class GameRulesError(RulesError, GameError):
    """An unknown rule set name given to a :class:`~ofc_fast.game.Game` (or a
    ``Match``, a ``VectorEnv``, a parallel run): a :class:`RulesError`, as
    :func:`ofc_fast.rules.get` raises, and a :class:`GameError`, as these raised
    before, so either ``except`` catches it.

    >>> import ofc_fast as ofc
    >>> try:
    ...     ofc.Game("pinapple")
    ... except RulesError as exc:
    ...     print(type(exc).__name__, isinstance(exc, GameError))
    GameRulesError True
    """


class TableError(GameError, BoardError):
    """A bad table parameter: a seat count, button or seat number, seed, stacks or
    Fantasyland counts out of range (:mod:`ofc_fast.table`).  ``Match``, ``Game``,
    ``VectorEnv``, ``settle`` and the command line raise it alike; it is a
    :class:`GameError` and a :class:`BoardError`, so handlers of either still catch it.

    >>> import ofc_fast as ofc
    >>> ofc.Match("pineapple", 2, button=True)
    Traceback (most recent call last):
    ...
    ofc_fast.errors.TableError: button must be a seat number (an int), got True
    """


class MoveError(GameError):
    """An illegal move; the game is left as it was.  ``reason`` names the problem for
    programs: ``"game_over"``, ``"not_your_turn"``, ``"not_dealt"``, ``"duplicate"``,
    ``"discard_count"``, ``"missing"``, ``"row_full"``, ``"declare"``,
    ``"surrender"``, ``"bad_move"``, ``"bad_action"``.

    >>> MoveError("seat 1 cannot act", "not_your_turn").reason
    'not_your_turn'
    """

    def __init__(self, message: str, reason: str = "bad_move") -> None:
        super().__init__(message)
        self.reason = reason


class ArgumentError(GameError, TypeError):
    """An argument an environment's constructor does not take: a keyword it does not
    know (the message names the class called, the keyword and the closest one it takes,
    else every one), more positional arguments than it takes, or one given both ways.
    A :class:`GameError`, and the ``TypeError`` Python raises for a bad argument.

    >>> from ofc_fast.env import VectorEnv
    >>> VectorEnv(num_env=4)
    Traceback (most recent call last):
    ...
    ofc_fast.errors.ArgumentError: VectorEnv() got an unexpected keyword argument 'num_env' ...
    """


class RenderModeError(GameError, TypeError):
    """A ``render_mode`` an environment does not render (its
    ``metadata["render_modes"]`` lacks it): a :class:`GameError`, and a
    ``TypeError`` as for a keyword the environment does not take, so that callers that
    try a mode and fall back on that (Stable-Baselines3's ``make_vec_env`` tries
    ``"rgb_array"``) make the environment without it.

    >>> from ofc_fast.env.gym import OfcEnv
    >>> try:
    ...     OfcEnv(render_mode="rgb_array")
    ... except TypeError as exc:
    ...     print(type(exc).__name__, isinstance(exc, GameError))
    RenderModeError True
    """


class UnknownAgentError(GameError, KeyError):
    """An agent name a PettingZoo environment does not have (``observe``,
    ``action_space``, ``observation_space``); the message lists its agents.  A
    :class:`GameError`, and a ``KeyError`` as PettingZoo's own environments raise
    (their spaces are dicts by agent), so code that catches that still does.

    >>> from ofc_fast.env import pettingzoo_env
    >>> pettingzoo_env().observe("player_9")
    Traceback (most recent call last):
    ...
    ofc_fast.errors.UnknownAgentError: unknown agent 'player_9'; the env's agents are ...
    """

    def __str__(self) -> str:
        """The message as written (``KeyError`` would show it quoted, as a key)."""
        return Exception.__str__(self)


class HistoryError(GameError):
    """A history that does not replay to what it records: ``field`` names the first
    mismatch (``"deck"``, ``"button"``, ``"result.net"``, ``"moves[3]"`` ...)."""

    def __init__(self, message: str, field: str = "") -> None:
        super().__init__(message)
        self.field = field


class BotError(OfcError):
    """A bot that cannot be made: bad settings, a bad registration, a wrong number of
    bot names for the seats."""


class UnknownBotError(BotError):
    """A bot name the registry does not know; the message lists the known names.

    >>> from ofc_fast.bots import make_bot
    >>> make_bot("genius")
    Traceback (most recent call last):
    ...
    ofc_fast.errors.UnknownBotError: unknown bot 'genius'; known bots: heuristic, random, ...
    """


_E = TypeVar("_E", bound=Enum)
_O = TypeVar("_O")


class NamedLookup(EnumMeta):
    """Metaclass of the library's enums (``class Row(IntEnum, metaclass=NamedLookup,
    error=BoardError)``): a value that is no member's (``Row(7)``, ``Row("front")``,
    ``HandCategory(99)``, a huge int, a deeply nested list) raises ``error``, an
    OfcError subclass naming the enum, the value and the values it takes, instead of
    Enum's bare ``ValueError`` (or the ``RecursionError`` of its message's repr).  A
    valid lookup is the enum's, at once; the enum's ``_missing_`` hook still has its
    word (a removed option).

    >>> from ofc_fast.board import Row
    >>> Row(7)
    Traceback (most recent call last):
    ...
    ofc_fast.errors.BoardError: 7 is not one of Row's values: 0 (FRONT), 1 (MIDDLE), 2 (BACK)
    """

    lookup_error: type[OfcError]
    """The error a value that is no member's raises (``error=`` of the class)."""

    def __new__(
        metacls,
        name: str,
        bases: tuple[type, ...],
        namespace: Any,
        *,
        error: type[OfcError] = OfcError,
        **kwargs: Any,
    ) -> NamedLookup:
        """The enum class, with ``error`` its :attr:`lookup_error`."""
        cls = super().__new__(metacls, name, bases, namespace, **kwargs)
        cls.lookup_error = error
        return cls

    def __call__(cls: type[_E], value: object, *args: Any, **kwargs: Any) -> _E:  # type: ignore[misc]
        """The member of ``value`` (Enum's lookup, a 0-d integer array taken for its
        int; with more arguments, what Enum makes of them), else :attr:`lookup_error`
        naming it."""
        if args or kwargs:
            try:  # (3.12 on: still a lookup of ``value``; before, the functional API)
                return super().__call__(value, *args, **kwargs)  # type: ignore[misc, no-any-return]
            except (ValueError, TypeError):  # (no member, or "cannot extend")
                raise cls.lookup_error(  # type: ignore[attr-defined]
                    f"{cls.__name__} takes one value, not {1 + len(args) + len(kwargs)} "
                    f"arguments: {_values_text(cls)}"
                ) from None
        try:
            return cls._value2member_map_[value]  # type: ignore[return-value]
        except KeyError:
            pass
        except TypeError:  # unhashable: a 0-d integer array is its int, on any CPython
            number = as_int(value)
            if number is not None and number in cls._value2member_map_:
                return cls._value2member_map_[number]  # type: ignore[return-value]
        found = cls._missing_(value)  # (the enum's word on a removed option)
        if isinstance(found, cls):
            return found
        also = ""
        if isinstance(value, str) and callable(getattr(cls, "parse", None)):
            also = f"; {cls.__name__}.parse reads a name"
        raise cls.lookup_error(  # type: ignore[attr-defined]
            f"{quote(value)} is not one of {cls.__name__}'s values: "
            f"{_values_text(cls)}{also}"
        )


def _values_text(cls: type[Enum]) -> str:
    """An enum's values for an error message, ``0 (FRONT), 1 (MIDDLE), 2 (BACK)`` (made
    when a :class:`NamedLookup` error needs it, never on a valid lookup)."""
    return ", ".join(f"{m.value!r} ({m.name})" for m in cls)


def as_int(value: object) -> int | None:
    """``value`` as a Python int when it is an integer, a Python or a NumPy one (a
    NumPy integer scalar, or a 0-d integer array, which NumPy itself takes for an
    int: ``operator.index``), never a bool, else None: the one test of "an int" of
    table parameters (:mod:`ofc_fast.table`) and of rule fields
    (:class:`~ofc_fast.rules.RuleSet`).

    >>> as_int(np.uint64(7)), as_int(np.array(7)), as_int(True), as_int(7.0)
    (7, 7, None, None)
    """
    if type(value) is int:  # the common case, at once (a bool's type is bool)
        return value
    if type(value) is np.ndarray and value.ndim == 0 and value.dtype.kind in "iu":
        return int(value)  # (a 0-d bool array is kind "b", no int; a masked one: None)
    if isinstance(value, bool) or not isinstance(value, (int, np.integer)):
        return None
    return int(value)


def count_problem(value: int, minimum: int, maximum: int | None = None) -> str | None:
    """Why ``value`` is no count from ``minimum`` to ``maximum`` (no limit: None),
    or ``None``: the one wording of a count's refusal, the command line's options'
    and the Python checks' alike.

    >>> count_problem(0, 1)
    'must be at least 1, got 0'
    """
    if value < minimum:
        return f"must be at least {minimum}, got {quote(int(value))}"
    if maximum is not None and value > maximum:
        return f"must be at most {maximum}, got {quote(int(value))}"
    return None


def counted(n: int, noun: str, plural: str | None = None, spec: str = "") -> str:
    """``n`` and its noun, singular for one (``plural``: default ``noun + "s"``;
    ``spec``: how ``n`` is formatted): every count a message or a report prints goes
    through here (the arena's reports, the parallel runs, serve's refusals).

    >>> counted(1, "hand"), counted(0, "deck"), counted(2, "retry", "retries")
    ('1 hand', '0 decks', '2 retries')
    """
    return f"{n:{spec}} {noun if n == 1 else plural or noun + 's'}"


def whole_count(
    value: object,
    what: str,
    least: int = 1,
    error: type[OfcError] | None = None,
    most: int | None = None,
    noun: str | None = None,
) -> int:
    """``value`` as a count >= ``least`` (an int or a numpy integer, not a bool) and,
    where the count has a bound (``most``: a run's hands, whose deal indices are
    64-bit), <= ``most``, else ``error`` naming ``what``: the one count check of the
    parallel runs (workers, a Ray cluster's CPUs: >= 1, 0 CPUs would run no task, for
    ever; retries and restarts: >= 0; a run's hands, chunk and shard sizes: GameError),
    in the words of the command line's counts (``count_problem``: ``--workers 0`` and
    ``workers=0`` are refused alike); ``error`` None: ExecutorError.  The one count
    check of the Python API: serve's settings, the value models' counts, a Match's
    hands too.  ``noun`` (with ``most``): a refusal that names the count's kind and
    its range in one wording, whatever is wrong (the seat counts of
    :mod:`ofc_fast.table`'s checks: ``players: a seat count must be an int 0..256``).

    >>> whole_count(0, "workers")
    Traceback (most recent call last):
    ...
    ofc_fast.errors.ExecutorError: workers: must be at least 1, got 0
    >>> whole_count(2**70, "hands", 0, OfcError, most=2**64)
    Traceback (most recent call last):
    ...
    ofc_fast.errors.OfcError: hands: must be at most 18446744073709551616, got 1180591620717411303424
    """  # noqa: E501 - the error, verbatim
    n = as_int(value)
    problem = (
        f"must be a whole number, got {quote(value)}"
        if n is None
        else count_problem(n, least, most)
    )
    if problem and noun is not None:
        problem = f"{noun} must be an int {least}..{most}, got {quote(value)}"
    if problem:
        raise (error or ExecutorError)(f"{what}: {problem}")
    assert n is not None
    return n


_QUOTE_LIMIT = 60


def quote(value: object, limit: int = _QUOTE_LIMIT) -> str:
    """A short, safe ``repr`` of a bad input for an error message: at most ``limit``
    characters (a longer text ends in ``...``), never an exception of its own (huge
    ints, deep nesting, a failing ``__repr__``).

    >>> len(quote("x" * 10**6)) <= 60
    True
    >>> quote(10 ** 5000)
    '<an int of 16610 bits>'
    """
    if isinstance(value, int) and not isinstance(value, bool) and value.bit_length() > 128:
        return f"<an int of {value.bit_length()} bits>"
    try:
        text = (_SHORT if limit <= _QUOTE_LIMIT else _short_repr(limit)).repr(value)
    except Exception:
        text = f"<{type(value).__name__} object>"
    return text if len(text) <= limit else text[: limit - 3] + "..."


PATH_LIMIT = 200
"""The most characters of a file's path :func:`quote_path` shows."""


def quote_path(path: object) -> str:
    r""":func:`quote` for a file's path a user gave (a model file, a policy): whole up
    to :data:`PATH_LIMIT` characters, so a usual path reads as typed; past that its
    middle cut (its start and its file's name kept); control characters escaped.

    >>> print(quote_path("/models/a\x1b[31m.ofcvm"), len(quote_path("/d" * 1000)) <= 200)
    '/models/a\x1b[31m.ofcvm' True
    """
    return quote(str(path), PATH_LIMIT)


def shown_path(path: object) -> str:
    r"""A file's path as an error names it where it is named bare (``FILE: deals.jsonl,
    line 3: ...``): as typed where every character is printable and it is at most
    :data:`PATH_LIMIT` long (and not empty, nor blank); else quoted (:func:`quote_path`): no control
    character (a terminal's escape codes, a new line) reaches the terminal.

    >>> print(shown_path("deals.jsonl"), shown_path("a\nb.jsonl"))
    deals.jsonl 'a\nb.jsonl'
    """
    text = str(path)
    bare = text.strip() and text.isprintable() and len(text) <= PATH_LIMIT
    return text if bare else quote_path(text)  # ('': an empty name, said as such)


def built_repr(method: Callable[[_O], str]) -> Callable[[_O], str]:
    """``method`` (a class's ``__repr__``) that never raises on an object its
    ``__init__`` left half-built (it raised partway, or the object is
    ``cls.__new__(cls)``): where the repr reads an attribute the object lacks, it is
    ``<Class, not fully built: no name>`` (an AttributeError of another object is
    the repr's own error, raised as it is).

    >>> class Pair:
    ...     @built_repr
    ...     def __repr__(self) -> str:
    ...         return f"<Pair {self.a} {self.b}>"
    >>> p = Pair(); p.a = 1
    >>> p
    <Pair, not fully built: no b>
    """

    @wraps(method)
    def __repr__(self: _O) -> str:
        try:
            return method(self)
        except AttributeError as exc:
            if exc.obj is not self:
                raise
            return f"<{type(self).__name__}, not fully built: no {exc.name}>"

    return __repr__


def _short_repr(limit: int = _QUOTE_LIMIT) -> reprlib.Repr:
    r = reprlib.Repr()
    r.maxlevel = 3
    r.maxstring = r.maxother = r.maxlong = limit
    r.maxlist = r.maxtuple = r.maxdict = r.maxset = r.maxfrozenset = r.maxdeque = 8
    r.maxarray = 8
    return r


_SHORT = _short_repr()


def flag(value: Any, what: str, error: type[OfcError]) -> bool:
    """``value`` as a bool (True or False, NumPy's too; not a number, a text or an
    array, whose truth value would be read silently), else ``error`` naming ``what``:
    the one flag reader of the library.

    >>> flag(np.bool_(True), "prune", OfcError)
    True
    >>> flag("no", "prune", OfcError)
    Traceback (most recent call last):
    ...
    ofc_fast.errors.OfcError: prune must be True or False, got 'no'
    """
    if not isinstance(value, (bool, np.bool_)):
        raise error(f"{what} must be True or False, got {quote(value)}")
    return bool(value)


def truth(value: object, what: str, error: type[OfcError]) -> bool:
    """``bool(value)``: the answer of a caller's hook read as a truth value, where one
    that has none (a NumPy array of several items: its ``bool`` raises) is ``error``
    naming ``what``, not an error of its own type from deep inside the library.

    >>> truth(np.array([True, False]), "stop", OfcError)
    Traceback (most recent call last):
    ...
    ofc_fast.errors.OfcError: stop must return True or False, got array([ True, False]), which has no truth value (ValueError: bool() raised)
    """  # noqa: E501 - the error, verbatim
    try:
        return bool(value)
    except Exception as exc:  # (whatever its __bool__ raises)
        raise error(
            f"{what} must return True or False, got {quote(value)}, "
            f"which has no truth value ({type(exc).__name__}: bool() raised)"
        ) from None


_SEPARATORS = re.compile(r"[\s_-]+")


def _choice_key(text: str) -> str:
    """``text`` as :func:`match_choice` compares it: ``" Full-House"`` ->
    ``"full_house"``."""
    return _SEPARATORS.sub("_", text.strip().casefold())


_option_key = lru_cache(maxsize=1024)(_choice_key)  # the options: a few hundred words


def match_choice(value: object, options: Iterable[str]) -> str | None:
    """The one of ``options`` that the text ``value`` names, in any case, with
    surrounding spaces ignored and a space or ``-`` (or a run of them) for each
    ``_``, spelled as in ``options``; None when it names none (or is no text): the
    one reader of text choices (rule set fields, preset names, rows, the RL
    options), so that each reads a choice alike.

    >>> match_choice(" Quads", ("TRIPS", "QUADS")), match_choice("x", ("a",))
    ('QUADS', None)
    >>> match_choice("Full House", ("FLUSH", "FULL_HOUSE")), match_choice("two-rows", ("two_rows",))
    ('FULL_HOUSE', 'two_rows')
    """
    if isinstance(value, str):
        words = options if isinstance(options, Collection) else tuple(options)
        key = value.strip().casefold()
        if key in words:  # spelled as an option is: a lookup (a dict's, a set's)
            return key
        for option in words:  # the word as an option spells it: the common case
            if option.casefold() == key:
                return option
        key = _choice_key(key)
        for option in words:
            if _option_key(option) == key:
                return option
    return None


def choice(
    value: object,
    options: Sequence[str],
    what: str,
    also: str = "",
    error: type[OfcError] = OfcError,
) -> str:
    """``value`` as the one of ``options`` it names (:func:`match_choice`: any
    case), else ``error`` naming ``what`` and the options (and ``also``: what else
    the caller takes).

    >>> choice("Remap", ("remap", "raise"), "illegal")
    'remap'
    """
    found = match_choice(value, options)
    if found is None:
        raise error(f"{what} must be one of {', '.join(options)}{also}, got {quote(value)}")
    return found


def unicode_problem(text: str) -> str | None:
    r"""Why ``text`` is no valid Unicode (a lone surrogate, as JSON's ``"\ud800"``
    reads: each print or UTF-8 encoding of it would fail), or None: the one check of
    the readers of untrusted text (rule sets, the arena's schemas).

    >>> unicode_problem("Ünïcode"), unicode_problem("\ud800")
    (None, 'not valid Unicode (a lone surrogate)')
    """
    try:
        text.encode("utf-8")
    except UnicodeEncodeError:
        return "not valid Unicode (a lone surrogate)"
    return None


def _extends(c: str) -> bool:
    """Whether ``c`` belongs to the character before it: a joiner (U+200D), a
    combining mark or variation selector (category M*), a tag or skin-tone modifier."""
    return (
        c == "\u200d"
        or unicodedata.category(c)[0] == "M"
        or "\U000e0020" <= c <= "\U000e007f"
        or "\U0001f3fb" <= c <= "\U0001f3ff"
    )


def _regional(c: str) -> bool:
    return "\U0001f1e6" <= c <= "\U0001f1ff"


def cut_text(text: str, limit: int) -> str:
    r"""``text`` cut to at most ``limit`` code points between two whole characters as
    a reader sees them: an emoji sequence joined by U+200D, a letter and its
    combining marks or variation selector, a flag's two regional indicators are kept
    whole or dropped whole, never left dangling (the one cutter of shown names).

    >>> cut_text("ab́c", 2), cut_text("x👨‍👩", 3)
    ('a', 'x')
    >>> cut_text("🇫🇷🇩🇪", 3), cut_text("abc", 5)
    ('🇫🇷', 'abc')
    """
    if len(text) <= limit:
        return text
    end = limit
    while end > 0 and (_extends(text[end]) or text[end - 1] == "\u200d"):
        end -= 1
    run = 0
    while run < end and _regional(text[end - 1 - run]):
        run += 1
    if run % 2 and _regional(text[end]):
        end -= 1  # (a flag's first half)
    if end == 0:  # one character longer than limit (a letter of many marks)
        return text[:limit].rstrip("\u200d")
    return text[:end]


class ArenaError(OfcError):
    """An arena that cannot run: a bad ``--bot`` spec, a game id or preset the wire
    protocol cannot carry, a port that cannot be listened on, a bad report or hand
    history file."""


class ArenaRulesError(RulesError, ArenaError):
    """What ``Arena(rules)`` and :func:`ofc_fast.arena.resolve_arena_rules` cannot
    read as rules (an unknown name, a value that is no RuleSet, preset name or game
    id), caught by ``except RulesError`` as by ``except ArenaError``.

    >>> issubclass(ArenaRulesError, RulesError), issubclass(ArenaRulesError, ArenaError)
    (True, True)
    """


class ProtocolError(ArenaError):
    """A wire-protocol line that cannot be read: not JSON, not an object, too long, or
    a message missing a field it needs."""


class ExecutorError(OfcError):
    """A parallel run that cannot go on: bad ``--workers``, Ray missing or its cluster
    unreachable, a process pool that keeps breaking, a Ray task out of retries."""


class SelfPlayError(OfcError):
    """A self-play output directory that holds another run, or a damaged manifest."""


class ModelError(OfcError):
    """A learned value model that cannot be used: a missing, truncated or corrupt
    model file, another format version, a model of another rule set or feature set;
    or heuristic value model settings (``ModelSettings``) that are no numbers."""


class BotModelError(BotError, ModelError):
    """The learned model of a :class:`~ofc_fast.bots.SearchBot` or a
    :class:`~ofc_fast.bots.ValueBot` that cannot be used: a model file missing or
    damaged when the bot is made, or since, a model of other rules at a decision.
    Both bots raise it alike; it is a :class:`BotError`, as a bot's settings raise,
    and a :class:`ModelError`, as the model raises, so either ``except`` catches it.

    >>> from ofc_fast.bots import SearchBot
    >>> try:
    ...     SearchBot(model="no/such.ofcvm")
    ... except ModelError as exc:
    ...     print(type(exc).__name__, isinstance(exc, BotError))
    BotModelError True
    """


class SearchError(OfcError):
    """A position the search cannot advise on (a full set, a seat that is not to act,
    an exact search that does not fit its budget) or bad search settings."""


class SearchRulesError(RulesError, SearchError):
    """Rules the search cannot resolve (not a RuleSet, a preset name or a game id):
    a :class:`RulesError`, as :func:`ofc_fast.rules.as_rules` raises, and a
    :class:`SearchError`, as the search raised before, so either ``except`` catches it.

    >>> from ofc_fast.search import search_model
    >>> try:
    ...     search_model("no-such-game")
    ... except RulesError as exc:
    ...     print(type(exc).__name__, isinstance(exc, SearchError))
    SearchRulesError True
    """


class ObservationError(GameError, SearchError):
    """A malformed observation (hand-built or damaged): not a dict, a field missing,
    of the wrong type or out of range, or fields that do not fit together.  The
    built-in bots and :func:`ofc_fast.search.advise` raise it alike (naming the field;
    a bad card id is a :class:`CardError`); it is a :class:`GameError`, as the bots
    raised before, and a :class:`SearchError`, as ``advise`` raised before, so either
    ``except`` catches it.

    >>> import ofc_fast as ofc
    >>> try:
    ...     ofc.advise({"rules": "pineapple"})
    ... except GameError as exc:
    ...     print(type(exc).__name__, isinstance(exc, SearchError))
    ObservationError True
    """
