"""What one seat may see: the :class:`Observation` record and its reader.

The C engine writes a seat's view into an ``ofc_observation`` (``csrc/include/ofc_game.h``);
this module turns it into the plain, JSON-able dict bots and programs read: a game
reads it in one call (``ofc_fast._native._fast.observe``: the C builtin of
``_speedups`` on CPython, its portable twin elsewhere), a record in hand through
:func:`read_observation`.  Callers
without a game (the search from a dict, the arena client) fill the same record with
:func:`observation_record` -- C completes it from the rules' schedule -- and read it
with :func:`read_observation` and :func:`record_rounds`: the deal's schedule is worked
out in C only.
The information model: a seat sees its own board, dealt cards and discards; of the
other seats only their face-up cards (face-down cards are counted, not shown, until
the deal is over; a surrendered hand is never shown) and how many cards they
discarded; never the deck.

An observation may also come from NumPy code (a Gymnasium dict space, ``np.asarray``
of a field): its card lists, counts and legal action ids as integer arrays of any
dtype, its numbers as NumPy scalars.  :func:`plain_observation`, the one reader of
such values, turns them into the plain lists and numbers a game's observation holds,
at the entry of every bot (``names_bad_observations``, ``RandomBot.act``) and of the
search (:func:`ofc_fast.search.advise`, :func:`ofc_fast.search.position`), so that
no bot or search meets an array (whose truth value NumPy refuses) and each reads the
same position from either form.
"""

from __future__ import annotations

import operator
from collections.abc import Mapping, Sequence
from functools import lru_cache
from typing import Any, Literal, TypedDict

import numpy as np
import numpy.typing as npt

from .._native import OK, ffi, lib
from .._native._fast import plain as _plain_values
from .._native._fast import plain_copy
from .._native._portable import read_record
from ..board import ROW_SIZES
from ..cards import card_str
from ..errors import CardError, GameError, ObservationError, OfcError, TableError, quote
from ..rules import carried_rules
from ..rules.compiled import game_struct
from ..rules.model import RuleSet
from ..rules.presets import RulesLike
from ..table import as_int, check_fantasyland
from .moves import ACTION_SPACE

__all__ = ["Observation", "ObservationResult", "RuleSetDict"]


class ObservationResult(TypedDict):
    """The scored deal, in an observation once the deal is over.

    >>> from ofc_fast.game import Game
    >>> g = Game("pineapple", players=2, seed=3)
    >>> while not g.is_over:
    ...     g.play_action(g.legal_actions()[0])
    >>> result = g.observation(0)["result"]
    >>> sorted(result), sum(result["net"])
    (['declared', 'fantasyland', 'fouls', 'net', 'royalties', 'surrendered'], 0)
    """

    net: list[int]
    fouls: list[bool]
    royalties: list[list[int]]
    fantasyland: list[int]
    declared: dict[str, str]
    surrendered: list[int]


class _ScheduleDict(TypedDict):
    """A royalty or win-bonus schedule (:class:`~ofc_fast.rules.model.Schedule`)."""

    front_pair: list[int]
    front_trips: list[int]
    middle: list[int]
    back: list[int]


class _NaturalDict(TypedDict):
    """A natural (:class:`~ofc_fast.rules.model.Natural`)."""

    name: str
    units: int


class _LowballDict(TypedDict):
    """A 2-7 middle (:class:`~ofc_fast.rules.model.Lowball`)."""

    limit: int
    royalties: list[int]
    nuts: int


class _FantasylandDict(TypedDict):
    """Fantasyland (:class:`~ofc_fast.rules.model.Fantasyland`); hand categories by
    name (``"QUADS"``), each entry a ``[front, cards]`` pair (``["QQ", 14]``)."""

    entry: list[list[str | int]]
    lowball_entry: int
    lowball_both: int
    stay_front: str | None
    stay_middle: str | None
    stay_back: str | None
    stay_cards: int | Literal["entry", "same"]
    button_frozen: bool


class _PoolDict(TypedDict):
    """A pool (:class:`~ofc_fast.rules.model.Pool`)."""

    ante: int
    sweep_extra: int


class RuleSetDict(TypedDict):
    """A rule set as the plain dict a rules file holds (:meth:`RuleSet.to_dict`;
    :meth:`RuleSet.from_dict` reads it): an observation's ``rule_set``.  Enums are
    their values (``"pineapple"``), tuples lists, the parts dicts or None.

    >>> from ofc_fast.game import Game
    >>> from ofc_fast.rules import OFC
    >>> g = Game(OFC.replace(sweep_bonus=4), players=2, seed=1)
    >>> rule_set = g.observation(0)["rule_set"]
    >>> rule_set["sweep_bonus"], rule_set["game"], rule_set["royalties"]["back"][-1]
    (4, 'ofc', 25)
    """

    name: str
    description: str
    game: str
    max_players: int
    face_down_final: int
    sweep_bonus: int
    majority_bonus: int
    majority_rule: str
    overall_bonus: int
    sweep_multiplier: int
    sweep_all_multiplier: int
    sweep_all_bonus: int
    royalties: _ScheduleDict
    win_bonus: _ScheduleDict
    lowball: _LowballDict | None
    order: str
    foul_pays_sweep: bool
    house: bool
    pool: _PoolDict | None
    single_winner: int
    surrender_cost: int | None
    aces_bet: list[int] | None
    naturals: list[_NaturalDict]
    naturals_rule: str
    stakes: str
    settlement_start: str
    fantasyland: _FantasylandDict | None


class _ObservationBase(TypedDict):
    seat: int  #: the observing seat
    players: int
    button: int
    rules: str  #: the rule set's name
    game: str  #: "classic", "ofc" or "pineapple"
    lowball: bool  #: a 2-7 middle
    to_act: int | None  #: the seat whose decision it is (None: over)
    is_over: bool
    street: int  #: 0 = first decision, then 1, 2, ...
    fantasyland: list[int]  #: Fantasyland cards per seat this deal
    boards: list[list[list[int]]]  #: per seat [front, middle, back] cards seen
    face_down_counts: list[list[int]]  #: per seat and row, placed cards not shown
    discards: list[int]  #: the observer's own discards
    discard_counts: list[int]  #: per seat, cards discarded so far
    dealt: list[int]  #: cards to place now (observer to act), else []
    to_discard: int  #: how many of ``dealt`` to discard
    future_cards: int  #: cards the observer still gets after this
    future_discards: int  #: discards it still makes after this
    legal_actions: list[int] | None  #: action ids (None: not to act, or a full set)
    full_set: bool  #: this decision sets 13-17 cards at once
    face_down: bool  #: this decision's cards are placed face down


class Observation(_ObservationBase, total=False):
    """One seat's view of a deal (:meth:`ofc_fast.Game.observation`).

    >>> import ofc_fast as ofc
    >>> obs = ofc.Game("pineapple", players=2, seed=1).observation(1)
    >>> obs["to_act"], len(obs["dealt"]), obs["face_down_counts"][0]
    (1, 5, [0, 0, 0])
    """

    result: ObservationResult  #: present once the deal is over
    #: present when the rules are not exactly a preset (named by ``rules``): the rule
    #: set as the dict a rules file holds (``RuleSet.from_dict`` reads it)
    rule_set: RuleSetDict


def template(players: int, button: int, rules: RuleSet) -> dict[str, Any]:
    """The keys of an observation in order, the per-deal constants filled in (those
    of the table and of its ``rules``: name, game, lowball; the other values are
    placeholders): what ``ofc_fast._native._fast.observe`` copies and fills."""
    return {
        "seat": 0,
        "players": players,
        "button": button,
        "rules": rules.name,
        "game": rules.game.value,
        "lowball": rules.lowball is not None,
        "to_act": None,
        "is_over": False,
        "street": 0,
        "fantasyland": None,
        "boards": None,
        "face_down_counts": None,
        "discards": None,
        "discard_counts": None,
        "dealt": None,
        "to_discard": 0,
        "future_cards": 0,
        "future_discards": 0,
        "legal_actions": None,
        "full_set": False,
        "face_down": False,
    }


@lru_cache(maxsize=256)
def table_template(
    players: int, button: int, rules: RuleSet
) -> tuple[dict[str, Any], dict[str, Any] | None]:
    """The observation template of a table (shared: ``_fast.observe`` only copies
    it) and the rule set its observations carry when its rules are not exactly a
    preset (:func:`~ofc_fast.rules._lookup.carried_rules`; shared too, never
    written: every observation holds a copy, :func:`own_rule_set`), else None."""
    return template(players, button, rules), carried_rules(rules)


def own_rule_set(obs: dict[str, Any]) -> dict[str, Any]:
    """An observation that shares nothing writable with the game: the rule set it
    carries (one dict per game, in the template) copied, so that a bot writing into
    its observation changes no other seat's view."""
    rule_set = obs.get("rule_set")
    if rule_set is not None:
        obs["rule_set"] = plain_copy(rule_set)
    return obs


def read_observation(
    raw: bytes,
    rules: RuleSet,
    legal: Sequence[int] | None,
    rule_set: dict[str, Any] | None = None,
) -> Observation:
    """The dict of the bytes of an ``ofc_observation`` of a table of ``rules`` (``result``
    is added by the caller once the deal is over); ``legal`` the observer's legal action
    ids, or None;
    ``rule_set``, when not None, under ``"rule_set"``
    (:func:`ofc_fast.rules._lookup.carried_rules`).  A game reads its record with
    ``ofc_fast._native._fast.observe`` (the same dict, in C on CPython); this reader
    serves the vector environment, callers with a record of
    :func:`observation_record`, and the tests."""
    base = template(raw[_PLAYERS], raw[_BUTTON], rules)
    obs = read_record(raw, base, legal)
    if rule_set is not None:  # a copy: a bot writing into it changes no other view
        obs["rule_set"] = plain_copy(rule_set)
    return obs  # type: ignore[return-value]


_PLAYERS = ffi.offsetof("ofc_observation", "players")
_BUTTON = ffi.offsetof("ofc_observation", "button")
_ROW_START = (0, 3, 8)
_COMPLETE_ERRORS = {
    lib.OFC_E_SEATS: "the seats, button or Fantasyland counts do not fit the rules",
    lib.OFC_E_COUNT: (
        "the boards and dealt cards fit no point of the deal's schedule (cards per "
        "row, cards placed so far, or the number of cards dealt)"
    ),
    lib.OFC_E_RULES: "the rules deal no game",
    lib.OFC_E_DISCARDS: (
        "a seat's discards (discard_counts, or the observer's discards) are more "
        "than its decisions so far discard under the rules"
    ),
}


def _items(
    value: object, what: str, error: type[OfcError], size: int | None = None
) -> Sequence[Any]:
    """``value`` as a sequence (a list, a tuple; not text) of ``size`` items if given,
    else ``error`` naming ``what``."""
    if (
        isinstance(value, (str, bytes))
        or not isinstance(value, Sequence)
        or (size is not None and len(value) != size)
    ):
        need = "a list" if size is None else f"a list of {size}"
        raise error(f"observation: {what} must be {need}, got {quote(value)}")
    return value


def _card(value: object, what: str, error: type[OfcError], seen: int) -> int:
    """``seen`` (a bit per card) with ``value`` added; ``error`` naming ``what`` when
    ``value`` is no card id 0..51 (a bool, text, 52, the C empty slot 255) or is
    already in ``seen``."""
    try:
        card = -1 if isinstance(value, bool) else operator.index(value)  # type: ignore[arg-type]
    except TypeError:
        card = -1
    if not 0 <= card <= 51:
        raise error(f"observation: {what} holds {quote(value)}, not a card id 0..51")
    if seen >> card & 1:
        raise error(f"observation: {what} holds {card_str(card)}, a card shown twice")
    return seen | 1 << card


def _byte(value: object, what: str, error: type[OfcError]) -> int:
    """``value`` as an int 0..255 (a Python or NumPy int, :func:`ofc_fast.table.as_int`:
    never a bool), else ``error`` naming ``what``."""
    n = as_int(value)
    if n is None or not 0 <= n <= 255:
        raise error(f"observation: {what} must be a small int, got {quote(value)}")
    return n


def observation_record(
    rules: RulesLike,
    seat: int,
    boards: Sequence[Sequence[Sequence[int]]],
    dealt: Sequence[int] = (),
    *,
    button: int = 0,
    fantasyland: Sequence[int] | None = None,
    face_down_counts: Sequence[Sequence[int]] | None = None,
    discard_counts: Sequence[int] | None = None,
    discards: Sequence[int] = (),
    error: type[OfcError] = GameError,
) -> Any:  # cdata 'ofc_observation *'
    """The ``ofc_observation`` of ``seat`` for a caller without a game: the boards
    (visible cards per seat and row), the seat's dealt cards and own discards, the
    counts it knows, completed in C from the rules' schedule
    (``ofc_observation_complete``): the pending decision (``k``, ``full``,
    ``face_down``, ``street``), its future and every seat's rounds still to come.
    A card id outside 0..51 (or not an int), a card given twice, an observer's
    ``discard_counts`` entry other than the number of ``discards``, and a position
    the schedule cannot reach raise ``error`` (naming the field).

    >>> from ofc_fast import rules
    >>> o = observation_record(rules.PINEAPPLE, 0, [[[1], [2, 3], [4, 5]], [[], [], []]],
    ...                        [6, 7, 8])
    >>> o.k, o.future_cards, record_rounds(o)
    (1, 9, [[(3, 1), (3, 1), (3, 1)], [(5, 0), (3, 1), (3, 1), (3, 1), (3, 1)]])
    """
    players = len(_items(boards, "boards", error))
    if not 2 <= players <= lib.OFC_GAME_MAX_SEATS:
        raise error(f"observation: 2 to {lib.OFC_GAME_MAX_SEATS} boards, got {players}")
    for what, per_seat in (
        ("fantasyland", fantasyland),
        ("face_down_counts", face_down_counts),
        ("discard_counts", discard_counts),
    ):
        if per_seat is not None:
            _items(per_seat, what, error, players)
    if (
        len(_items(dealt, "dealt", error)) > lib.OFC_GAME_MAX_DEALT
        or len(_items(discards, "discards", error)) > 4
    ):
        raise error("observation: too many dealt cards or discards")
    seen = 0
    o = ffi.new("ofc_observation *")
    ffi.memmove(o.board, b"\xff" * ffi.sizeof(o.board), ffi.sizeof(o.board))
    seat = _byte(seat, "seat", error)
    if seat >= players:
        raise error(f"observation: seat {seat} is not a seat of {players} players")
    o.seat = seat
    o.players = players
    o.button = _byte(button, "button", error)
    for s, rows in enumerate(boards):
        _items(rows, f"board {s}", error, 3)
        if face_down_counts is not None:
            _items(face_down_counts[s], f"face_down_counts[{s}]", error, 3)
        for r, row in enumerate(rows):
            if len(_items(row, f"board {s} row {r}", error)) > ROW_SIZES[r]:
                raise error(f"observation: board {s} row {r} holds too many cards")
            o.count[s][r] = len(row)
            for i, card in enumerate(row):
                seen = _card(card, f"board {s} row {r}", error, seen)
                o.board[s][_ROW_START[r] + i] = card
            if face_down_counts is not None:
                o.face_down_count[s][r] = _byte(face_down_counts[s][r], "a count", error)
        if fantasyland is not None:
            o.fl[s] = _byte(fantasyland[s], "a Fantasyland count", error)
        if discard_counts is not None:
            o.discard_count[s] = _byte(discard_counts[s], "a discard count", error)
    for card in dealt:
        seen = _card(card, "dealt", error, seen)
    for card in discards:
        seen = _card(card, "discards", error, seen)
    if discard_counts is not None and o.discard_count[seat] != len(discards):
        raise error(  # (was replaced by the cards' count, silently)
            f"observation: discard_counts[{seat}] (the observer's) is "
            f"{o.discard_count[seat]}, but discards holds {len(discards)} cards"
        )
    o.discard_count[seat] = len(discards)
    o.discards[0 : len(discards)] = list(discards)
    o.n = len(dealt)
    o.dealt[0 : len(dealt)] = list(dealt)
    status = lib.ofc_observation_complete(game_struct(rules), o)
    if status == lib.OFC_E_SEATS:  # why, where the table needs more than one deck
        try:
            check_fantasyland(list(o.fl)[:players], players, rules)
        except TableError as exc:
            raise error(f"observation: {exc}") from None
    if status != OK:
        raise error(f"observation: {_COMPLETE_ERRORS.get(status, f'status {status}')}")
    return o


def record_rounds(o: Any) -> list[list[tuple[int, int]]]:
    """Per seat, the rounds still to come of an ``ofc_observation``: (cards,
    discards) of each decision, in deal order (see ``ofc_observation`` in
    ``csrc/include/ofc_game.h``)."""
    return [
        [(o.round_n[s][i], o.round_k[s][i]) for i in range(o.rounds[s])]
        for s in range(o.players)
    ]


def cards_as_text(obs: Any) -> Any:
    """An observation with its cards (boards, discards, dealt) written as text."""

    def texts(x: Any) -> Any:
        return [texts(v) for v in x] if isinstance(x, list) else card_str(x)

    return {
        k: (texts(v) if k in ("boards", "discards", "dealt") else v) for k, v in obs.items()
    }


# The one reader of an observation's NumPy values (the bots' and the search's entry:
# see the module doc)

_CARDS = ("card ids", 51)
_ACTIONS = ("action ids", ACTION_SPACE - 1)
_COUNTS = ("counts", None)

_LISTS: dict[str, tuple[int, tuple[str, int | None]]] = {
    # field: (levels of lists, (what its items are, the largest one or None))
    "boards": (3, _CARDS),
    "dealt": (1, _CARDS),
    "discards": (1, _CARDS),
    "legal_actions": (1, _ACTIONS),
    "fantasyland": (1, _COUNTS),
    "discard_counts": (1, _COUNTS),
    "face_down_counts": (2, _COUNTS),
}
_SCALARS = (
    "seat",
    "players",
    "button",
    "to_act",
    "street",
    "to_discard",
    "future_cards",
    "future_discards",
    "full_set",
    "face_down",
    "is_over",
    "lowball",
)
_DIMS = {1: "a one-dimensional", 2: "a two-dimensional", 3: "a three-dimensional"}


def plain_observation(observation: Any) -> Any:
    """``observation`` with its NumPy values as the plain Python values a
    :meth:`~ofc_fast.game.Game.observation` holds: ``boards``, ``dealt``,
    ``discards``, ``legal_actions``, ``fantasyland``, ``discard_counts`` and
    ``face_down_counts`` given as NumPy integer arrays (any int dtype, as a whole or
    per seat or row; an empty array of any dtype, as ``np.asarray([])`` makes) as the
    lists of ints they hold, and its NumPy scalars (``seat``, ``to_discard``,
    ``full_set``, ...) as Python's numbers and bools (a NumPy integer among a list's
    items is left as it is: every check reads it as the int it is).  The observation
    itself when it is a dict holding none (a new dict otherwise: the caller's is never
    changed; a mapping of another type is read once, by :func:`_read_once`), or
    anything but a mapping as it is (the bots' checks name it).

    An array no list of the field could stand for is an OfcError naming the field: an
    array of another dtype (floats, bools) or of the wrong number of dimensions
    (:class:`~ofc_fast.errors.ObservationError`); a card id outside 0..51
    (:class:`~ofc_fast.errors.CardError`) or an action id outside the action space
    (ObservationError).  Other malformations (text, a card given twice) are left to
    the checks that read the plain observation, as for lists.

    >>> import numpy as np
    >>> obs = {"dealt": np.array([5, 9], np.uint8), "seat": np.int64(1), "discards": []}
    >>> plain_observation(obs)
    {'dealt': [5, 9], 'seat': 1, 'discards': []}
    >>> plain_observation({"dealt": np.array([5.0, 9.0])})
    Traceback (most recent call last):
    ...
    ofc_fast.errors.ObservationError: observation: dealt must hold integer card ids, got an array of float64
    """  # noqa: E501 - the error, verbatim
    if _plain_values(observation) or not isinstance(observation, Mapping):
        return observation  # (a Game's, or JSON's: the bots' every decision; or no dict)
    if type(observation) is not dict:
        observation = _read_once(observation)
    get = observation.get
    changed: dict[str, Any] = {}
    for key, (levels, items) in _LISTS.items():
        value = get(key)
        if value is not None:
            plain = _plain(value, key, levels, items)
            if plain is not value:
                changed[key] = plain
    for key in _SCALARS:
        value = get(key)
        if isinstance(value, np.generic):
            changed[key] = value.item()
    return {**observation, **changed} if changed else observation


def _read_once(observation: Mapping[Any, Any]) -> dict[Any, Any]:
    """A mapping of another type than dict (a dict subclass too) as a new dict of its
    keys and values, each read once: no later read of a field sees another value
    than the checks saw.  A key it lists yet cannot give is an ObservationError."""
    out = {}
    for key in observation:
        try:
            out[key] = observation[key]
        except KeyError:
            raise ObservationError(
                f"observation: it lists the key {quote(key)} but gives no value for it"
            ) from None
    return out


def _plain(value: Any, what: str, levels: int, items: tuple[str, int | None]) -> Any:
    """``value`` (a field ``what`` of ``levels`` levels of lists of ``items``) with its
    arrays as lists; ``value`` itself when it holds none."""
    kind = type(value)
    if kind is list or kind is tuple:
        if levels == 1:
            return value  # its items as they are (a NumPy integer: the int it is)
        inner = [_plain(v, _part(what, i), levels - 1, items) for i, v in enumerate(value)]
        return value if all(a is b for a, b in zip(inner, value)) else inner
    if isinstance(value, np.ndarray):
        return _array(value, what, levels, items)
    return value  # anything else (text, a NumPy scalar for a list): the checks name it


def _part(what: str, i: int) -> str:
    """The name of item ``i`` of the field part ``what``, as the bots' checks name it
    (``board 1 row 0``, ``face_down_counts[1]``)."""
    if what == "boards":
        return f"board {i}"
    if what.startswith("board "):
        return f"{what} row {i}"
    return f"{what}[{i}]"


def _array(
    arr: npt.NDArray[Any], what: str, levels: int, items: tuple[str, int | None]
) -> Any:
    """The plain lists of ``arr``, the field part ``what`` of ``levels`` levels of
    ``items``; the OfcError naming ``what`` when no such list is an array like it."""
    noun, high = items
    if arr.ndim == 0 or (arr.dtype.kind != "O" and arr.ndim != levels):
        raise ObservationError(
            f"observation: {what} must be a list of {noun} ({_DIMS[levels]} array), "
            f"got an array of shape {arr.shape}"
        )
    if arr.dtype.kind == "O":  # a ragged array of rows, say: its items, read as a list's
        return _plain(arr.tolist(), what, levels, items)
    if arr.dtype.kind not in "iu" and arr.size:  # (np.asarray([]) is of floats)
        raise ObservationError(
            f"observation: {what} must hold integer {noun}, got an array of {arr.dtype}"
        )
    if high is not None and arr.size and (arr.min() < 0 or arr.max() > high):
        raise _out_of_range(arr, what, noun, high)
    return arr.tolist()


def _out_of_range(arr: npt.NDArray[Any], what: str, noun: str, high: int) -> OfcError:
    """The error of the first item of ``arr`` outside 0..``high``, worded as the bots'
    checks word it for a list."""
    where = [int(i) for i in np.argwhere((arr < 0) | (arr > high))[0]]
    bad = int(arr[tuple(where)])
    for i in where[:-1]:  # the row (or list) that holds it
        what = _part(what, i)
    if noun == "card ids":
        return CardError(f"observation: {what} holds {bad}, not a card id 0..{high}")
    return ObservationError(
        f"observation: {_part(what, where[-1])} must be an int within 0..{high}, got {bad}"
    )
