"""Positions: an observation dict checked and turned into the C position of the seat
to act (:func:`position`), and an observation built from boards and cards without a
Game (:func:`make_observation`)."""

from __future__ import annotations

import re
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from .._native import E_CARD, E_DUPLICATE, OK, ffi, lib
from ..board import ROW_SIZES, Board, Row, board_slots
from ..cards import CardsLike, cards_str, is_many, parse_cards
from ..errors import CardError, ObservationError, OfcError, SearchError, quote
from ..game import Game, actions_for
from ..game.observation import (
    Observation,
    observation_record,
    plain_observation,
    read_observation,
    record_rounds,
)
from ..rules import RuleSet, RulesLike, carried_rules, observation_rules
from ..rules.model import GameKind
from ..table import MAX_SEATS
from ._checks import (
    fl_count,
    flag,
    in_range,
    int_in,
    raise_status,
    rows_of,
    search_rules,
    seq,
)

__all__ = [
    "PositionPart",
    "check_observation",
    "check_seat",
    "decision_actions",
    "given_actions",
    "make_observation",
    "position",
    "position_part",
]


_OBS_FIELDS = (
    "players",
    "seat",
    "boards",
    "fantasyland",
    "face_down_counts",
    "dealt",
    "discards",
    "to_discard",
    "future_cards",
    "future_discards",
)


def _card_list(value: Any, what: str) -> list[int]:
    for c in seq(value, f"observation: {what}"):
        if not in_range(c, 0, 51, integer=True):
            raise CardError(f"observation: {what} holds {quote(c)}, not a card id 0..51")
    return list(value)


def _items(value: Any, what: str, size: int, items: str) -> list[Any]:
    """The observation's list ``what`` of ``size`` ``items``, else ObservationError
    naming it.

    >>> _items([[], []], "board 1", 3, "rows")
    Traceback (most recent call last):
    ...
    ofc_fast.errors.ObservationError: observation: board 1 must hold 3 rows, got 2
    """
    got = seq(value, f"observation: {what}")
    if len(got) != size:
        raise ObservationError(
            f"observation: {what} must hold {size} {items}, got {len(got)}"
        )
    return got


def missing_fields(missing: Sequence[str], then: str = "") -> ObservationError:
    """The error for an observation without the fields ``missing`` (``then``: what to
    do, after them), naming the first as :func:`position_part` reads a part, for a
    caller to name its own field (``ofc-fast serve``: ``observation.seat``).

    >>> missing_fields(["seat", "dealt"])
    ObservationError('observation: seat must be given (missing field(s) seat, dealt)')
    """
    return ObservationError(
        f"observation: {missing[0]} must be given (missing field(s) "
        f"{', '.join(missing)}){then}"
    )


def check_observation(obs: Mapping[str, Any], most: int = MAX_SEATS) -> None:
    """The fields position() reads, with their types and ranges
    (:class:`~ofc_fast.errors.ObservationError` / CardError naming the field);
    ``most``: the most seats the table's rules allow."""
    if not isinstance(obs, Mapping):
        raise ObservationError(
            f"an observation is a dict (Game.observation), got {quote(obs)}"
        )
    try:
        _check_fields(obs, most)
    except ObservationError:
        raise
    except SearchError as exc:  # the shared checks' words, the observation's class
        raise ObservationError(str(exc)) from None


def check_seat(obs: Mapping[str, Any], most: int = MAX_SEATS) -> int:
    """The observed ``seat``, checked with ``players`` (an int within 2..``most``,
    the most seats the table's rules allow) and ``boards`` (one per player), as
    :func:`check_observation` checks them: an ObservationError naming the field (a
    missing one: KeyError).  The bots' check of every decision
    (:func:`ofc_fast.bots.base.observed_seat` calls it when its quick test fails).

    >>> check_seat({"players": 2, "seat": -1, "boards": [[], []]})
    Traceback (most recent call last):
    ...
    ofc_fast.errors.ObservationError: observation: seat must be an int within 0..1, got -1
    """
    try:
        return _check_seat(obs, most)[0]
    except ObservationError:
        raise
    except SearchError as exc:
        raise ObservationError(str(exc)) from None


def _check_seat(obs: Mapping[str, Any], most: int) -> tuple[int, int]:
    """(seat, players) of :func:`check_seat`."""
    players = int_in(obs["players"], "observation: players", 2, most)
    seat = int_in(obs["seat"], "observation: seat", 0, players - 1)
    _items(obs["boards"], "boards", players, "entries (one per player)")
    return seat, players


def _check_fields(obs: Mapping[str, Any], most: int) -> None:
    missing = [key for key in _OBS_FIELDS if key not in obs]
    if missing:
        raise missing_fields(missing)
    _seat, players = _check_seat(obs, most)
    # each error names the part at fault first (``legal_actions[0] must``), for a
    # caller to name its own field (ofc-fast serve: observation.legal_actions[0])
    boards, fl, hidden = (
        _items(obs[key], key, players, "entries (one per player)")
        for key in ("boards", "fantasyland", "face_down_counts")
    )
    for p in range(players):
        rows = _items(boards[p], f"board {p}", 3, "rows")
        counts = _items(hidden[p], f"face_down_counts[{p}]", 3, "counts (one per row)")
        for r, row in enumerate(rows):
            n = len(_card_list(row, f"board {p} row {r}"))
            down = int_in(counts[r], f"observation: face_down_counts[{p}][{r}]", 0, 5)
            if n + down > ROW_SIZES[r]:
                raise ObservationError(
                    f"observation: board {p} row {r} holds too many cards"
                )
        fl_count(fl[p], f"observation: fantasyland[{p}]")
    _card_list(obs["dealt"], "dealt")
    _card_list(obs["discards"], "discards")
    int_in(obs["to_discard"], "observation: to_discard", 0, 4)
    int_in(obs["future_cards"], "observation: future_cards", 0, 52)
    int_in(obs["future_discards"], "observation: future_discards", 0, 52)
    if obs.get("full_set") is not None:
        flag(obs["full_set"], "observation: full_set", SearchError)
    if obs.get("legal_actions") is not None:
        high = int(lib.OFC_ACTION_SPACE) - 1
        for i, a in enumerate(seq(obs["legal_actions"], "observation: legal_actions")):
            int_in(a, f"observation: legal_actions[{i}]", 0, high)


@dataclass(frozen=True)
class PositionPart:
    """The part of a position that an error of its checks names first
    (:func:`position_part`): ``key``, the observation's field (``dealt``, ``boards``,
    ``legal_actions``, ...) or :func:`make_observation`'s argument (``dead``,
    ``rules``, ``opponents``), None for the position as a whole; ``index``, the item of it (a seat's
    board and row: ``(1, 0)``); ``detail``, the message after the checker's name
    (``observation: ``); ``rest``, the message after the part."""

    key: str | None
    index: tuple[int, ...]
    detail: str
    rest: str

    @property
    def path(self) -> str | None:
        """The part as a path in the observation: ``boards[1][0]``, ``dealt``."""
        if self.key is None:
            return None
        return self.key + "".join(f"[{i}]" for i in self.index)

    @property
    def argument(self) -> str | None:
        """The argument of :func:`make_observation` that gives the part: ``board``
        (seat 0's board), ``opponents[i]`` (seat i + 1's), ``dealt``, ``dead`` (the
        observation's ``discards``), ``rules``; None for the position as a whole or a
        part it does not give (``legal_actions``).

        >>> position_part("observation: board 2 row 0 holds too many cards").argument
        'opponents[1]'
        >>> position_part("observation: discards holds 99, not a card id 0..51").argument
        'dead'
        """
        if self.key == "boards":
            seat = self.index[0]
            return "board" if seat == 0 else f"opponents[{seat - 1}]"
        return None if self.key is None else _ARGUMENTS.get(self.key)

    def said(self, name: str) -> str:
        """The error in the words of a caller that gave the position its own way:
        ``name``, its name for the input that gave the part (:attr:`argument`; where
        that is None, for the position as a whole), in place of the observation's
        name for the part; a seat's row by name.

        >>> part = position_part("observation: board 1 row 0 holds Qh, a card shown twice")
        >>> part.said("opponents[0]")
        'opponents[0]: front row holds Qh, a card shown twice'
        >>> position_part("make_observation: the boards fit no point of the deal").said(
        ...     "board, dealt, opponents")
        'board, dealt, opponents: the boards fit no point of the deal'
        """
        if self.argument is None:
            return f"{name}: {self.detail}"
        rows = self.index[1:] if self.key == "boards" else ()
        return f"{name}: {''.join(f'{Row(r).name.lower()} row ' for r in rows)}{self.rest}"


_ARGUMENTS = {
    "dealt": "dealt",
    "discards": "dead",
    "dead": "dead",
    "rules": "rules",
    "opponents": "opponents",
}
"""The argument of :func:`make_observation` that gives an observation's part (or names
itself), a seat's board aside: :attr:`PositionPart.argument`."""


_PART = re.compile(
    r"(?:make_)?observation: (?:(?:board (\d+)(?: row (\d))?|([a-z_]+)((?:\[\d+\])*))"
    r" (?=must |holds ))?"
)
"""An error of the position checks: ``observation: `` (or ``make_observation: ``),
then the part at fault, if any, before what is wrong with it (``must ...``,
``holds ...``); a seat's board (and row) is ``board 1 row 0``."""


def position_part(message: str) -> PositionPart | None:
    """The part of a position that ``message``, an error of :func:`check_observation`,
    :func:`make_observation` or the game's observation record, names first (None: the
    message is no such error), for a caller to name its own input instead
    (``ofc-fast advise``'s options, ``ofc-fast serve``'s request fields).

    >>> part = position_part("observation: board 1 row 0 holds Qh, a card shown twice")
    >>> part.key, part.index, part.path, part.rest
    ('boards', (1, 0), 'boards[1][0]', 'holds Qh, a card shown twice')
    >>> position_part("observation: legal_actions[0] must be an int, got 999").path
    'legal_actions[0]'
    >>> part = position_part("make_observation: the boards fit no point of the deal")
    >>> part.key, part.detail
    (None, 'the boards fit no point of the deal')
    >>> position_part("advise: the observation shows 2d twice") is None
    True
    """
    m = _PART.match(message)
    if m is None:
        return None
    seat, row, key, items = m.groups()
    if seat is not None:
        key, index = "boards", (int(seat),) + (() if row is None else (int(row),))
    else:
        index = tuple(int(i) for i in re.findall(r"\d+", items or ""))
    detail = message[message.index(": ") + 2 :]
    return PositionPart(key, index, detail, message[m.end() :])


def shown_twice(cards: Sequence[int]) -> list[int]:
    """The cards that ``cards`` holds more than once, in card order.

    >>> shown_twice([5, 1, 5, 2])
    [5]
    """
    return sorted({c for c in cards if cards.count(c) > 1})


def position(obs: Mapping[str, Any], rules: RulesLike) -> Any:  # cdata 'ofc_search_pos *'
    """The C position of the seat to act in an observation (its NumPy values read as
    the plain ones they hold: :func:`~ofc_fast.game.observation.plain_observation`).
    Other seats' face-down cards count as free slots filled by the rounds that placed
    them (a Fantasyland set: one round of its cards); their discards stay among the
    unseen cards.  An observation with no dealt cards (no decision: a seat not to act)
    is a SearchError naming ``dealt``.

    >>> from ofc_fast import Game
    >>> game = Game("pineapple", seed=1)
    >>> position(game.observation(game.to_act), "pineapple")
    <cdata 'struct ofc_search_pos *' owning ... bytes>
    """
    rules = search_rules(rules, "position")
    obs = plain_observation(obs)
    check_observation(obs, rules.max_players)
    if obs.get("full_set") or len(obs["dealt"]) > 5:
        raise SearchError(
            "advise covers normal decisions; a full set (Fantasyland, "
            "classic) is solved by solve_fantasyland / best_setting"
        )
    if not obs["dealt"]:
        raise SearchError(  # (no malformation: the view of a seat not to act)
            "observation: dealt must hold the cards the seat places, got none: "
            f"seat {obs['seat']} has nothing to play"
        )
    if rules.game is GameKind.CLASSIC:
        raise SearchError("advise needs OFC or Pineapple rules")
    known = (
        [c for b in obs["boards"] for r in b for c in r]
        + list(obs["dealt"])
        + list(obs["discards"])
    )
    twice = shown_twice(known)
    if twice:
        raise CardError(f"advise: the observation shows {cards_str(twice)} twice")
    pos = ffi.new("ofc_search_pos *")
    seat, players = int(obs["seat"]), int(obs["players"])
    pos.players, pos.seat = players, seat
    pos.n_dealt, pos.k = len(obs["dealt"]), int(obs["to_discard"])
    pos.dealt[0 : len(obs["dealt"])] = list(obs["dealt"])
    seen = set(known)  # every card the seat has seen: the rest are unseen
    unseen = [c for c in range(52) if c not in seen]
    pos.n_unseen = len(unseen)
    pos.unseen[0 : len(unseen)] = unseen
    # the rounds still to come per seat, from the C schedule (the observation's
    # boards and counts completed into an ofc_observation)
    record = observation_record(
        rules,
        seat,
        obs["boards"],
        obs["dealt"],
        fantasyland=obs["fantasyland"],
        face_down_counts=obs["face_down_counts"],
        error=ObservationError,
    )
    said = (obs["to_discard"], obs["future_cards"], obs["future_discards"])
    if said != (record.k, record.future_cards, record.future_discards):
        raise ObservationError(  # the rules first: they deal the rounds to come
            f"rules: the observation's to_discard, future_cards and future_discards "
            f"{said} are not the rounds to come of its deal under {rules.name} "
            f"{(record.k, record.future_cards, record.future_discards)}"
        )
    need = 0  # cards the rounds to come deal, every seat's
    for p, rounds in enumerate(record_rounds(record)):
        need += sum(n for n, _ in rounds)
        rows = obs["boards"][p]
        s = pos.seats[p]
        s.board = list(board_slots(rows, SearchError))
        s.in_fl = int(obs["fantasyland"][p])
        if len(rounds) > int(lib.OFC_SEARCH_MAX_ROUNDS):
            raise SearchError(
                f"advise: seat {p} has {len(rounds)} rounds to come, at most "
                f"{int(lib.OFC_SEARCH_MAX_ROUNDS)}"
            )
        s.rounds = len(rounds)
        for i, (n, k) in enumerate(rounds):
            s.round_n[i], s.round_k[i] = n, k
    if need > len(unseen):  # the discards (make_observation's dead) took them
        short = (
            f"{len(unseen)} unseen cards are left for the {need} the rounds to come deal"
        )
        raise ObservationError(
            f"observation: discards holds {len(obs['discards'])} cards: {short}"
            if obs["discards"]
            else f"observation: {short}"
        )
    st = lib.ofc_search_pos_check(pos)
    if st in (E_CARD, E_DUPLICATE):
        raise_status(st, "advise: the observation's cards")
    if st != OK:
        raise ObservationError(
            "observation: the boards, dealt cards and rounds to come do not fit together"
        )
    return pos


def given_actions(obs: Mapping[str, Any]) -> Any:
    """An observation's ``legal_actions`` as given, where the search and the bots read
    them (an observation as :func:`~ofc_fast.game.observation.plain_observation`
    gives it: an array read as its list): None where it gives none (None, or no key:
    every legal action); an empty list (read as every legal action before,
    silently) holds none, which no decision has: ObservationError naming
    ``legal_actions``."""
    given = obs.get("legal_actions")
    if given is not None and not given:
        raise ObservationError(
            "observation: legal_actions must hold at least one action of the seat's "
            "decision, got none (leave it out, or None, for every legal action)"
        )
    return given


def decision_actions(obs: Mapping[str, Any]) -> list[int]:
    """The actions to value of a checked observation (:func:`position`): its
    ``legal_actions``, each a legal action of its decision and given once
    (ObservationError naming the item; an empty list, which holds none, naming
    ``legal_actions``), or every legal action where it gives none (None, or no key).

    >>> from ofc_fast import Game
    >>> obs = Game("pineapple", seed=1).observation(1)
    >>> decision_actions({**obs, "legal_actions": [4, 0]})
    Traceback (most recent call last):
    ...
    ofc_fast.errors.ObservationError: observation: legal_actions[1] holds 0, no legal action of the seat's decision
    """  # noqa: E501 - the error, verbatim
    given = given_actions(obs)
    rows = obs["boards"][obs["seat"]]
    legal = actions_for(len(obs["dealt"]), rows, int(obs["to_discard"]))
    if given is None:
        return list(legal)
    known, seen = set(legal), set()
    for i, a in enumerate(given):
        if a not in known or a in seen:
            why = "again" if a in seen else "no legal action of the seat's decision"
            raise ObservationError(f"observation: legal_actions[{i}] holds {a}, {why}")
        seen.add(a)
    return [int(a) for a in given]


def make_observation(
    rules: RulesLike,
    board: str | Board | Sequence[Sequence[int]],
    dealt: CardsLike,
    opponents: Sequence[str | Board | Sequence[Sequence[int]]] = (),
    dead: CardsLike = (),
    *,
    fantasyland: int = 0,
) -> Observation:
    """An observation (:class:`~ofc_fast.game.Observation`) for :func:`advise`
    without a Game: seat 0 holds ``board`` and
    must place ``dealt`` (OFC / Pineapple: 5 cards onto an empty board, else 1 card /
    3 cards keeping 2); ``opponents``: the other seats' visible boards (their
    missing cards still to come); ``dead``: any other cards known to be out (own
    discards, cards seen elsewhere; one on a board or dealt is refused, naming
    ``dead``).  Boards: "front / middle / back" text ("-" or nothing for an empty
    row), a Board, or three lists of card ids.

    >>> from ofc_fast import rules
    >>> obs = make_observation(rules.PINEAPPLE, "Qh / 9s 9h / As Ks", "2c 5d Ts",
    ...                        ["7c / 8d 8h / 4s 4d"])
    >>> obs["to_discard"], obs["future_cards"], obs["future_discards"]
    (1, 9, 3)
    """
    rules = search_rules(rules, "make_observation")
    if rules.game is GameKind.CLASSIC:
        raise SearchError(
            f"make_observation: rules must be OFC or Pineapple rules, got {rules.name}"
        )
    own = rows_of(board)
    if isinstance(opponents, Board) or not is_many(opponents):
        raise SearchError(
            f"opponents must be a list of the other seats' boards, got {quote(opponents)}"
        )
    others = [rows_of(b) for b in opponents]
    players = 1 + len(others)
    if not 2 <= players <= rules.max_players:  # (position_part reads opponents)
        raise SearchError(
            f"make_observation: opponents must hold 1..{rules.max_players - 1} boards "
            f"({rules.name} seats 2..{rules.max_players} players), got {len(others)}"
        )
    cards = parse_cards(dealt)
    if not cards:
        raise SearchError("make_observation: dealt holds no card: seat 0 has none to place")
    fl_count(fantasyland, "make_observation: fantasyland")
    record = observation_record(  # seat 0 acts first: the button is the last seat
        rules,
        0,
        [own, *others],
        cards,
        button=players - 1,
        fantasyland=[fantasyland] + [0] * len(others),
        error=SearchError,
    )
    obs = read_observation(
        bytes(ffi.buffer(record)),
        rules,
        None,
        carried_rules(rules),  # rules that are not exactly a preset, as a game gives them
    )
    out = parse_cards(dead, any_order=True)  # every card known to be out (any number)
    twice = shown_twice([*out, *(c for b in obs["boards"] for r in b for c in r), *cards])
    if twice:  # (advise would refuse it, without naming dead)
        raise CardError(
            f"make_observation: dead holds {cards_str(twice)}, a card shown twice"
        )
    obs["discards"] = out
    return obs.copy()


def game_observation(
    game_or_obs: Game | Mapping[str, Any], seat: int | None, rules: RulesLike | None
) -> tuple[Mapping[str, Any], RuleSet]:
    seat_max = int(lib.OFC_SEARCH_MAX_SEATS) - 1
    if seat is not None:  # a Game's: a seat of its table (not of the largest one)
        top = game_or_obs.players - 1 if isinstance(game_or_obs, Game) else seat_max
        int_in(seat, "seat", 0, top)
    rules = None if rules is None else search_rules(rules, "advise")
    if isinstance(game_or_obs, Game):
        g = game_or_obs.copy()  # one snapshot: another thread's move lands in no read
        if g.to_act is None:
            raise SearchError("the deal is over: nothing to advise")
        if seat is not None and seat != g.to_act:
            raise SearchError(f"seat {seat} is not to act (seat {g.to_act} is)")
        return g.observation(g.to_act), rules or g.rules
    if not isinstance(game_or_obs, Mapping):
        raise ObservationError(
            f"advise takes a Game or an observation dict, got {type(game_or_obs).__name__}"
        )
    obs = plain_observation(game_or_obs)  # NumPy values as plain ones, or named
    said = obs.get("seat")  # (none, or no seat number: position() names it)
    if seat is not None and in_range(said, 0, seat_max, integer=True) and said != seat:
        raise SearchError(f"the observation is seat {said}'s, not seat {seat}'s")
    if rules is None:
        try:
            rules = observation_rules(obs)
        except OfcError as exc:
            if obs.get("rule_set") is None:
                raise ObservationError(
                    f"unknown rules {quote(obs.get('rules'))}: pass rules="
                ) from None
            raise ObservationError(str(exc)) from None  # naming rule_set
        except KeyError:
            raise missing_fields(["rules"], ": pass rules=") from None
    return obs, rules
