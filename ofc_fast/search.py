"""Search: the best completion of a board, Monte Carlo advice on every legal move,
exact expectimax where it is affordable (C kernels in ``csrc/include/ofc_search.h``).

:func:`advise` values every legal move of the seat to act, from a :class:`Game` or
from an observation dict (so an engine can ask without a Game).  A move's value is
the searcher's expected points for the deal **under the search's model**: pair points
against the modelled play of every other seat, plus the value of the Fantasyland it
earns, minus a share of the Fantasyland the others earn (see :class:`SearchModel`).
It ranks the moves of one seat; it is not a fair estimate of the deal (the seats'
values do not sum to zero): the rollouts play on with the completion policy (at an
opening, a clairvoyant one) and count the searcher's own Fantasyland worth, so at the
opening both seats of one deal get positive values (docs/cli.md, "What advise's ev
means", has the measurement).  The unseen cards (the complement of
everything the seat knows: every visible card, its own dealt cards and discards) are
dealt uniformly to the rounds still to come; every candidate move is played on the
same sampled futures (common random numbers), and every seat completes its board by
a completion policy (:func:`best_completion`).  Where the whole tree is small enough
the values are exact (``exact=True`` in the result): on the last street always when
heads-up (every way to deal the opponents' last cards), on the last two Pineapple
streets when the other boards are complete.

>>> import ofc_fast as ofc
>>> g = ofc.Game("pineapple", players=2, seed=5)
>>> advice = ofc.advise(g, samples=16, seed=1)
>>> len(advice) == len(g.legal_actions()), advice[0].ev >= advice[-1].ev
(True, True)
"""

from __future__ import annotations

import math
import time
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from functools import lru_cache
from typing import Any, TypeAlias

from ._native import E_CARD, E_DUPLICATE, OK, ffi, lib, status_error
from .board import ROW_SIZES, Board
from .cards import CardsLike, cards_str, parse_cards
from .errors import CardError, OfcError, SearchError, quote
from .game import Game, Move, actions_for, move_for_action
from .game.observation import observation_record, read_observation, record_rounds
from .learned.model import ModelSpec, ValueModel, resolve_model
from .rules import RuleSet
from .rules import get as get_rules
from .rules.compiled import compiled, compiled_fl
from .rules.model import Game as GameKind
from .solver import StayValue, ev_tables, stay_values

__all__ = [
    "EXACT_NODES_DEFAULT",
    "EXACT_NODES_MAX",
    "MAX_SAMPLES",
    "OPPONENTS",
    "POLICIES",
    "Advice",
    "Completion",
    "Opponent",
    "SearchModel",
    "advise",
    "best_completion",
    "cli_advise",
    "make_observation",
    "opponent_weight",
    "position",
    "search_model",
]

POLICIES = ("auto", "best", "fast", "sequential")
"""Completion policies of the rollouts: ``best`` (exact best completion, clairvoyant),
``fast`` (fixed discards: the lowest cards; rows searched when at most 4,096 fills,
else greedy; clairvoyant), ``sequential`` (the searcher places each round without
seeing the cards after it; csrc/include/ofc_search.h), ``auto`` (best when the searcher has
at most one round left, fast for an opening with more than 60 moves, else
sequential)."""
Opponent: TypeAlias = str | float
"""An opponent model: a name of :data:`OPPONENTS` or a number within 0..1."""
OPPONENTS = ("best", "random")
"""How the rollouts complete the other seats' boards: ``best`` (the completion policy:
a strong opponent that sees its cards to come), ``random`` (uniformly random legal
play, as :class:`~ofc_fast.bots.RandomBot`: against a player that fouls most boards
the searcher's own royalties and Fantasyland are what pays); a number ``w`` within
0..1: each sampled future, each other seat plays at random with probability ``w``
(``"best"`` is 0, ``"random"`` is 1).  Exact search models ``best`` only: with any
other model the advice is sampled (``exact=True`` raises SearchError)."""
_OPPONENT_WEIGHTS = {"best": 0.0, "random": 1.0}
EXACT_NODES_DEFAULT = 3_000_000
"""Largest exact tree (ofc_search_exact_cost) ``exact="auto"`` searches without a
time budget (about a quarter of a second)."""
MAX_SAMPLES = 1_000_000_000
"""Most sampled futures :func:`advise` takes (hours of search on the largest decision)."""
EXACT_NODES_MAX = 120_000_000
"""Largest exact tree ``exact=True`` searches without a time budget (about ten
seconds); a larger one raises SearchError."""
_EXACT_NODES_PER_SECOND = 12_000_000  # measured: tools-free estimate for time budgets
_BATCH = 16
_CLOCKS: dict[str, Callable[[], float]] = {
    "wall": time.perf_counter,
    "cpu": time.thread_time,
}
_KEEP = 8  # prune=True: halve the candidates after each batch down to this many
_SWITCH = 30  # auto policy, an opening: fast screening until this many moves are left
_NO_CARD = 0xFF


# ------------------------------------------------------------------ the model


@dataclass(frozen=True)
class SearchModel:
    """What a finished board is worth beyond its points (csrc/include/ofc_search.h).

    ``fl_value[k]``: the worth of a Fantasyland of ``k`` cards next deal, by default
    :data:`ofc_fast.solver.STAY_VALUE_DEFAULT` (the Fantasyland study,
    ``tools/fl_study.py``: the expected royalties of a ``k``-card Fantasyland set by
    the exact solver plus the chance to stay times the worth of staying, under
    PINEAPPLE); override with ``fl_value=`` (a number for any count, or
    ``{cards: value}``).  ``row_weight``: the weight of each row's expected points
    against a typical opponent in a completion's objective (0: royalties and
    Fantasyland only).  ``opp_random``: the opponent model of the rollouts, the
    probability that another seat completes its board by uniformly random play (as
    :class:`~ofc_fast.bots.RandomBot`) rather than by the completion policy (see
    :data:`OPPONENTS`).

    >>> from ofc_fast import rules
    >>> search_model(rules.PINEAPPLE).fl_value[14]
    14.5
    >>> search_model(rules.PINEAPPLE, fl_value=0).fl_value[14]
    0.0
    """

    fl_value: tuple[float, ...]
    row_weight: float
    opp_random: float = 0.0

    def c_model(self) -> Any:  # cdata 'ofc_search_model *'
        """The C struct (cached per model)."""
        return _c_model(self)


@lru_cache(maxsize=64)
def _c_model(model: SearchModel) -> Any:
    c = ffi.new("ofc_search_model *")
    c.fl_value = list(model.fl_value)
    c.row_weight = model.row_weight
    c.opp_random = model.opp_random
    if lib.ofc_search_model_check(c) != OK:
        raise SearchError(f"search model out of range: {model}")
    return c


def opponent_weight(opponent: Opponent) -> float:
    """The ``opp_random`` of an opponent model (:data:`OPPONENTS`): ``"best"`` 0.0,
    ``"random"`` 1.0, a number within 0..1 itself.

    >>> opponent_weight("random"), opponent_weight(0.25)
    (1.0, 0.25)
    """
    if isinstance(opponent, str):
        if opponent in _OPPONENT_WEIGHTS:
            return _OPPONENT_WEIGHTS[opponent]
    elif in_range(opponent, 0, 1):
        return float(opponent)
    raise SearchError(
        f"opponent must be 'best', 'random' or a number within 0..1, got {quote(opponent)}"
    )


def in_range(value: Any, low: float, high: float, integer: bool = False) -> bool:
    """True when ``value`` is a number (an int when ``integer``; never a bool) within
    low..high; NaN, arrays and anything else are False, never an exception.

    >>> in_range(0.5, 0, 1), in_range(True, 0, 1), in_range(2.0, 0, 5, integer=True)
    (True, False, False)
    """
    if isinstance(value, bool) or not isinstance(value, (int, float)):
        return False
    if integer and not isinstance(value, int):
        return False
    return low <= value <= high


def _check_row_weight(row_weight: Any) -> None:
    if not in_range(row_weight, 0, 1e6):
        raise SearchError(
            f"row_weight must be a number within 0..1e6, got {quote(row_weight)}"
        )


def search_model(
    rules: RuleSet,
    fl_value: StayValue = None,
    row_weight: float = 1.0,
    opponent: Opponent = "best",
) -> SearchModel:
    """The model of a rule set: Fantasyland values as :func:`ofc_fast.solver.stay_values`
    reads them (None, a number, or ``{cards: value}``), 0 for no Fantasyland or a rule
    set without one; ``opponent``: see :data:`OPPONENTS`."""
    if not isinstance(rules, RuleSet):
        raise SearchError(f"search_model takes a RuleSet, got {quote(rules)}")
    _check_row_weight(row_weight)
    opp = opponent_weight(opponent)
    values = [0.0] * int(lib.OFC_SEARCH_FL_VALUES)
    if rules.fantasyland is not None:
        try:
            five = stay_values(rules, fl_value)
        except OfcError as exc:
            raise SearchError(str(exc).replace("stay_value", "fl_value")) from None
        values[13:18] = five
    return SearchModel(tuple(values), float(row_weight), opp)


# ------------------------------------------------------------ best completion


@dataclass(frozen=True)
class Completion:
    """A completed board: ``board`` (a :class:`Board`), ``value`` (royalties +
    Fantasyland value + row term; -1000 when fouled), ``foul``, ``fantasyland`` (the
    cards it earns next deal) and ``leaves`` (boards examined)."""

    board: Board
    value: float
    foul: bool
    fantasyland: int
    leaves: int


_POLICY_IDS = {
    "best": int(lib.OFC_COMPLETE_BEST),
    "fast": int(lib.OFC_COMPLETE_FAST),
    "sequential": int(lib.OFC_COMPLETE_SEQUENTIAL),
}


def _policy(policy: str, sequential: bool = False) -> int:
    names = tuple(_POLICY_IDS)[: 3 if sequential else 2]
    if isinstance(policy, str) and policy in names:
        return _POLICY_IDS[policy]
    raise SearchError(f"policy must be one of {names} here, got {quote(policy)}")


def _int_in(value: Any, what: str, low: int, high: int) -> int:
    """``value`` as an int within low..high (an int, not a bool), else SearchError."""
    if not in_range(value, low, high, integer=True):
        raise SearchError(f"{what} must be an int within {low}..{high}, got {quote(value)}")
    return int(value)


def _flag(value: Any, what: str) -> bool:
    """``value`` as a bool (True or False, not a number or an array), else SearchError."""
    if not isinstance(value, bool):
        raise SearchError(f"{what} must be True or False, got {quote(value)}")
    return value


def _fl_count(value: Any, what: str) -> int:
    """A Fantasyland count: 0 (a normal hand) or 13..17 cards, else SearchError."""
    n = _int_in(value, what, 0, 17)
    if 0 < n < 13:
        raise SearchError(f"{what} must be 0 or 13..17, got {n}")
    return n


def _seq(value: Any, what: str) -> list[Any]:
    """``value`` as a list (from a list or a tuple), else SearchError."""
    if not isinstance(value, (list, tuple)):
        raise SearchError(f"{what} must be a list, got {quote(value)}")
    return list(value)


def _raise(status: int, fn: str) -> None:
    if status == lib.OFC_E_COUNT:  # here a position problem, not a bad hand
        raise SearchError(
            f"{fn}: the cards dealt and to come do not fill the free slots "
            f"({status_error(status)})"
        )
    raise status_error(status, fn, SearchError)


def _c_board(rows: Sequence[Sequence[int]]) -> bytes:
    out = bytearray([_NO_CARD] * 13)
    start = 0
    for r, row in enumerate(rows):
        if len(row) > ROW_SIZES[r]:
            raise SearchError(f"row {r} holds {len(row)} cards, at most {ROW_SIZES[r]}")
        for i, c in enumerate(row):
            out[start + i] = int(c)
        start += ROW_SIZES[r]
    return bytes(out)


def _rows_of(board: str | Board | Sequence[Sequence[int]]) -> list[list[int]]:
    """Rows from "front / middle / back" text (cards or '-' for empty), a Board or
    three lists of card ids."""
    if isinstance(board, Board):
        return [list(board.front), list(board.middle), list(board.back)]
    if isinstance(board, str):
        parts = board.split("/")
        if len(parts) != 3:
            raise SearchError(f"a board is 'front / middle / back', got {quote(board)}")
        return [parse_cards(p.replace("-", " ")) if p.strip() else [] for p in parts]
    rows = _seq(board, "a board (text, a Board or three rows of cards)")
    if len(rows) != 3:
        raise SearchError(f"a board has three rows, got {len(rows)}")
    return [parse_cards(r) for r in rows]


def best_completion(
    board: str | Board | Sequence[Sequence[int]],
    cards: CardsLike,
    rules: RuleSet,
    *,
    rounds: Sequence[tuple[int, int]] | None = None,
    fantasyland: int = 0,
    policy: str = "best",
    model: SearchModel | None = None,
) -> Completion:
    """The completion of largest value of a partial board with the cards still to
    come: ``rounds`` lists (cards dealt, cards discarded) per round in order (default:
    one round keeping every card); ``fantasyland``: the Fantasyland count of this hand
    (0: a normal hand, entry rule).  Exact for ``policy="best"``.

    >>> from ofc_fast import rules
    >>> c = best_completion("Qh Qd / 9s 9h 9d 5c / As Ks Qs Js", "2c 5d Ts", rules.PINEAPPLE,
    ...                     model=search_model(rules.PINEAPPLE, fl_value=0, row_weight=0))
    >>> str(c.board), c.value, c.fantasyland
    ('Qh Qd 2c / 9s 9h 9d 5c 5d / As Ks Qs Js Ts', 44.0, 14)
    """
    if not isinstance(rules, RuleSet):
        raise SearchError(f"best_completion takes a RuleSet, got {quote(rules)}")
    rows = _rows_of(board)
    ids = parse_cards(cards)
    rounds = [(len(ids), 0)] if rounds is None else _round_list(rounds)
    if model is None:
        model = search_model(rules)
    elif not isinstance(model, SearchModel):
        raise SearchError(f"model must be a SearchModel, got {quote(model)}")
    fantasyland = _fl_count(fantasyland, "fantasyland")
    out = ffi.new("ofc_completion_result *")
    st = lib.ofc_best_completion(
        compiled(rules),
        compiled_fl(rules),
        ev_tables(rules),
        model.c_model(),
        _c_board(rows),
        bytes(ids),
        len(rounds),
        bytes(n for n, _ in rounds),
        bytes(k for _, k in rounds),
        fantasyland,
        _policy(policy),
        out,
    )
    if st != OK:
        _raise(st, "best_completion")
    b = list(out.board)
    return Completion(
        Board(b[:3], b[3:8], b[8:]),
        float(out.value),
        bool(out.foul),
        int(out.next_fl),
        int(out.leaves),
    )


def _round_list(rounds: Any) -> list[tuple[int, int]]:
    """(cards dealt, cards discarded) pairs of ints within range (the C call checks
    that they fill the board)."""
    out = []
    for item in _seq(rounds, "rounds"):
        pair = _seq(item, "a round (cards dealt, cards discarded)")
        if len(pair) != 2:
            raise SearchError(
                f"a round is (cards dealt, cards discarded), got {quote(item)}"
            )
        n = _int_in(pair[0], "a round's cards", 0, int(lib.OFC_SEARCH_MAX_ROUND_CARDS))
        out.append((n, _int_in(pair[1], "a round's discards", 0, n)))
    if len(out) > int(lib.OFC_SEARCH_MAX_ROUNDS):
        raise SearchError(
            f"at most {int(lib.OFC_SEARCH_MAX_ROUNDS)} rounds, got {len(out)}"
        )
    return out


# ------------------------------------------------------------------- positions


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
    for c in _seq(value, f"observation: {what}"):
        if not in_range(c, 0, 51, integer=True):
            raise CardError(f"observation: {what} holds {quote(c)}, not a card id 0..51")
    return list(value)


def _check_observation(obs: Mapping[str, Any]) -> None:
    """The fields position() reads, with their types and ranges (SearchError /
    CardError naming the field)."""
    missing = [key for key in _OBS_FIELDS if key not in obs]
    if missing:
        raise SearchError(f"observation: missing field(s) {', '.join(missing)}")
    players = _int_in(obs["players"], "observation: players", 2, 4)
    _int_in(obs["seat"], "observation: seat", 0, players - 1)
    per_seat = [
        _seq(obs[key], f"observation: {key}")
        for key in ("boards", "fantasyland", "face_down_counts")
    ]
    if any(len(v) != players for v in per_seat):
        raise SearchError(
            "observation: boards, fantasyland and face_down_counts need one entry "
            f"per player ({players})"
        )
    boards, fl, hidden = per_seat
    for p in range(players):
        rows = _seq(boards[p], f"observation: board {p}")
        counts = _seq(hidden[p], f"observation: face_down_counts[{p}]")
        if len(rows) != 3 or len(counts) != 3:
            raise SearchError(
                f"observation: board {p} and its face-down counts need 3 rows"
            )
        for r, row in enumerate(rows):
            n = len(_card_list(row, f"board {p} row {r}"))
            down = _int_in(counts[r], f"observation: face_down_counts[{p}][{r}]", 0, 5)
            if n + down > ROW_SIZES[r]:
                raise SearchError(f"observation: board {p} row {r} holds too many cards")
        _fl_count(fl[p], f"observation: fantasyland[{p}]")
    _card_list(obs["dealt"], "dealt")
    _card_list(obs["discards"], "discards")
    _int_in(obs["to_discard"], "observation: to_discard", 0, 4)
    _int_in(obs["future_cards"], "observation: future_cards", 0, 52)
    _int_in(obs["future_discards"], "observation: future_discards", 0, 52)
    if obs.get("full_set") is not None:
        _flag(obs["full_set"], "observation: full_set")
    if obs.get("legal_actions") is not None:
        for a in _seq(obs["legal_actions"], "observation: legal_actions"):
            _int_in(a, "observation: a legal action", 0, int(lib.OFC_ACTION_SPACE) - 1)


def position(obs: Mapping[str, Any], rules: RuleSet) -> Any:  # cdata 'ofc_search_pos *'
    """The C position of the seat to act in an observation.  Other seats' face-down
    cards count as free slots filled by the rounds that placed them (a Fantasyland
    set: one round of its cards); their discards stay among the unseen cards."""
    _check_observation(obs)
    if obs.get("full_set") or len(obs["dealt"]) > 5:
        raise SearchError(
            "advise covers normal decisions; a full set (Fantasyland, "
            "classic) is solved by solve_fantasyland / best_setting"
        )
    if not obs["dealt"]:
        raise SearchError(f"seat {obs['seat']} has no decision to make")
    if rules.game is GameKind.CLASSIC:
        raise SearchError("advise needs OFC or Pineapple rules")
    from .bots.base import unseen_cards  # here: the bots package imports this module

    known = (
        [c for b in obs["boards"] for r in b for c in r]
        + list(obs["dealt"])
        + list(obs["discards"])
    )
    if len(set(known)) != len(known):
        twice = sorted({c for c in known if known.count(c) > 1})
        raise CardError(f"advise: the observation shows {cards_str(twice)} twice")
    pos = ffi.new("ofc_search_pos *")
    seat, players = int(obs["seat"]), int(obs["players"])
    pos.players, pos.seat = players, seat
    pos.n_dealt, pos.k = len(obs["dealt"]), int(obs["to_discard"])
    pos.dealt[0 : len(obs["dealt"])] = list(obs["dealt"])
    unseen = unseen_cards(obs)
    pos.n_unseen = len(unseen)
    pos.unseen[0 : len(unseen)] = unseen.tolist()
    # the rounds still to come per seat, from the C schedule (the observation's
    # boards and counts completed into an ofc_observation)
    record = observation_record(
        rules,
        seat,
        obs["boards"],
        obs["dealt"],
        fantasyland=obs["fantasyland"],
        face_down_counts=obs["face_down_counts"],
        error=SearchError,
    )
    said = (obs["to_discard"], obs["future_cards"], obs["future_discards"])
    if said != (record.k, record.future_cards, record.future_discards):
        raise SearchError(
            f"advise: the observation's to_discard, future_cards and future_discards "
            f"{said} are not the rounds to come of its deal "
            f"{(record.k, record.future_cards, record.future_discards)}"
        )
    for p, rounds in enumerate(record_rounds(record)):
        rows = obs["boards"][p]
        s = pos.seats[p]
        s.board = list(_c_board(rows))
        s.in_fl = int(obs["fantasyland"][p])
        if len(rounds) > int(lib.OFC_SEARCH_MAX_ROUNDS):
            raise SearchError(
                f"advise: seat {p} has {len(rounds)} rounds to come, at most "
                f"{int(lib.OFC_SEARCH_MAX_ROUNDS)}"
            )
        s.rounds = len(rounds)
        for i, (n, k) in enumerate(rounds):
            s.round_n[i], s.round_k[i] = n, k
    st = lib.ofc_search_pos_check(pos)
    if st in (E_CARD, E_DUPLICATE):
        _raise(st, "advise: the observation's cards")
    if st != OK:
        raise SearchError(
            "advise: the observation's boards, dealt cards and rounds to "
            "come do not fit together (or too few unseen cards for them)"
        )
    return pos


def make_observation(
    rules: RuleSet,
    board: str | Board | Sequence[Sequence[int]],
    dealt: CardsLike,
    opponents: Sequence[str | Board | Sequence[Sequence[int]]] = (),
    dead: CardsLike = (),
    *,
    fantasyland: int = 0,
) -> dict[str, Any]:
    """An observation for :func:`advise` without a Game: seat 0 holds ``board`` and
    must place ``dealt`` (OFC / Pineapple: 5 cards onto an empty board, else 1 card /
    3 cards keeping 2); ``opponents``: the other seats' visible boards (their
    missing cards still to come); ``dead``: any other cards known to be out (own
    discards, cards seen elsewhere).  Boards: "front / middle / back" text ("-" or
    nothing for an empty row), a Board, or three lists of card ids.

    >>> from ofc_fast import rules
    >>> obs = make_observation(rules.PINEAPPLE, "Qh / 9s 9h / As Ks", "2c 5d Ts",
    ...                        ["7c / 8d 8h / 4s 4d"])
    >>> obs["to_discard"], obs["future_cards"], obs["future_discards"]
    (1, 9, 3)
    """
    if rules.game is GameKind.CLASSIC:
        raise SearchError("make_observation needs OFC or Pineapple rules")
    own = _rows_of(board)
    others = [_rows_of(b) for b in opponents]
    players = 1 + len(others)
    if not 2 <= players <= rules.max_players:
        raise SearchError(
            f"{rules.name} seats 2..{rules.max_players} players, got {players}"
        )
    cards = parse_cards(dealt)
    if not cards:
        raise SearchError("make_observation: seat 0 has no cards dealt")
    _fl_count(fantasyland, "make_observation: fantasyland")
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
        rules.name,
        rules.game.value,
        rules.lowball is not None,
        None,
    )
    obs["discards"] = parse_cards(dead)  # every card known to be out (any number)
    return dict(obs)


def cli_advise(args: Any) -> str:
    """Text (or JSON) for ``ofc-fast advise``: the advice on a position given as
    boards and cards (see :func:`make_observation`)."""
    import json

    rules = get_rules(args.rules)
    obs = make_observation(
        rules, args.board, args.dealt, args.opponent or [], args.dead or ""
    )
    t0 = time.perf_counter()
    modes: dict[str, str | bool] = {"auto": "auto", "yes": True, "no": False}
    advice = advise(
        obs,
        rules=rules,
        samples=args.samples,
        time_budget=args.time,
        seed=args.seed,
        exact=modes[args.exact],
        model=getattr(args, "model", None),
    )
    seconds = time.perf_counter() - t0
    if args.json:
        return json.dumps([a.as_dict() for a in advice], indent=1)
    lines = [
        f"{rules.name}: {len(advice)} legal moves, {seconds * 1000:.1f} ms"
        + (f", value model {advice[0].model}" if advice and advice[0].model else ""),
        f"{'#':>3}  {'move':<34} {'ev':>8} {'+-':>6}  {'exact':<5} {'samples':>7} "
        f"{'foul%':>5} {'FL%':>5} {'roy':>5}",
    ]
    for i, a in enumerate(advice[: args.top] if args.top else advice):
        lines.append(
            f"{i + 1:>3}  {a.move!s:<34} {a.ev:>+8.3f} {a.stderr:>6.3f}  "
            f"{'yes' if a.exact else 'no':<5} {a.samples:>7} "
            f"{100 * a.foul:>5.1f} {100 * a.fantasyland:>5.1f} {a.royalties:>5.2f}"
        )
    lines.append(_EV_NOTE)
    return "\n".join(lines)


# ---------------------------------------------------------------------- advise

_EV_NOTE = (  # under ofc-fast advise's table: what ev is
    "ev: points against the modelled opponent play, plus the Fantasyland worth; "
    "it ranks\nthese moves, it is not a fair estimate of the deal (both seats "
    "can be positive)."
)


@dataclass(frozen=True)
class Advice:
    """One legal move and its value: ``ev`` (the move's points against the modelled
    opponent play plus the Fantasyland worth: a value to rank moves by, not a fair
    estimate of the deal; see the module doc), ``stderr`` (standard error of ``ev``;
    0 when exact), ``exact`` and ``samples`` (sampled futures behind ``ev``; 0 when
    exact).  What the seat's own board does, counted in C over the same rollouts (or,
    when exact, the expectation over every draw under the completion the search
    picks): ``foul`` (the probability that it fouls), ``fantasyland`` (the probability
    that it enters or keeps Fantasyland) and ``royalties`` (its expected royalties).
    ``model``: the name of the learned value model that placed the searcher's cards in
    the rollouts (None: rollouts without one, or exact values).

    >>> import ofc_fast as ofc
    >>> a = ofc.advise(ofc.Game("pineapple", players=2, seed=5), samples=16, seed=1)[0]
    >>> 0 <= a.foul <= 1 and 0 <= a.fantasyland <= 1 and a.royalties >= 0
    True
    """

    action: int
    move: Move
    ev: float
    stderr: float
    exact: bool
    samples: int
    foul: float = 0.0
    fantasyland: float = 0.0
    royalties: float = 0.0
    model: str | None = None

    def as_dict(self) -> dict[str, Any]:
        """JSON-able: the move as text."""
        return {
            "action": self.action,
            "move": str(self.move),
            "ev": self.ev,
            "stderr": self.stderr,
            "exact": self.exact,
            "samples": self.samples,
            "foul": self.foul,
            "fantasyland": self.fantasyland,
            "royalties": self.royalties,
            "model": self.model,
        }


def _observation(
    game_or_obs: Game | Mapping[str, Any], seat: int | None, rules: RuleSet | None
) -> tuple[Mapping[str, Any], RuleSet]:
    if seat is not None:
        _int_in(seat, "seat", 0, int(lib.OFC_SEARCH_MAX_SEATS) - 1)
    if rules is not None and not isinstance(rules, RuleSet):
        raise SearchError(f"rules must be a RuleSet, got {quote(rules)}")
    if isinstance(game_or_obs, Game):
        g = game_or_obs
        if g.to_act is None:
            raise SearchError("the deal is over: nothing to advise")
        if seat is not None and seat != g.to_act:
            raise SearchError(f"seat {seat} is not to act (seat {g.to_act} is)")
        return g.observation(g.to_act), rules or g.rules
    if not isinstance(game_or_obs, Mapping):
        raise SearchError(
            f"advise takes a Game or an observation dict, got {type(game_or_obs).__name__}"
        )
    obs = game_or_obs
    if seat is not None and seat != obs.get("seat"):
        raise SearchError(
            f"the observation is seat {quote(obs.get('seat'))}'s, not seat {seat}'s"
        )
    if rules is None:
        try:
            rules = get_rules(obs["rules"])
        except (KeyError, OfcError):
            raise SearchError(
                f"unknown rules {quote(obs.get('rules'))}: pass rules="
            ) from None
    return obs, rules


def _auto_policy(pos: Any, moves: int) -> str:
    rounds = pos.seats[pos.seat].rounds
    return "best" if rounds <= 1 else "fast" if moves > 60 else "sequential"


Position: TypeAlias = Game | Mapping[str, Any]
"""What :func:`advise` takes: a :class:`~ofc_fast.game.Game`, or an observation dict of
the seat to act (:class:`~ofc_fast.game.Observation`)."""


def check_settings(
    samples: Any = None,
    time_budget: Any = None,
    exact: Any = "auto",
    policy: Any = "auto",
    seed: Any = 0,
    clock: Any = "wall",
    prune: Any = False,
    row_weight: Any = 1.0,
) -> None:
    """Checks :func:`advise`'s keyword settings (and :class:`~ofc_fast.bots.SearchBot`'s):
    SearchError naming the first bad one.

    >>> check_settings(samples=0)
    Traceback (most recent call last):
    ...
    ofc_fast.errors.SearchError: samples must be an int within 1..1,000,000,000, got 0
    """
    if samples is not None and not in_range(samples, 1, MAX_SAMPLES, integer=True):
        raise SearchError(
            f"samples must be an int within 1..{MAX_SAMPLES:,}, got {quote(samples)}"
        )
    if time_budget is not None and not (in_range(time_budget, 0, 1e6) and time_budget > 0):
        raise SearchError(
            "time_budget must be a positive number of seconds, at most 1e6, "
            f"got {quote(time_budget)}"
        )
    if not isinstance(exact, bool) and not (isinstance(exact, str) and exact == "auto"):
        raise SearchError(f"exact must be 'auto', True or False, got {quote(exact)}")
    if not (isinstance(policy, str) and policy in POLICIES):
        raise SearchError(f"policy must be one of {POLICIES}, got {quote(policy)}")
    if not in_range(seed, 0, 2**64 - 1, integer=True):
        raise SearchError(f"seed must be an int 0..2**64-1, got {quote(seed)}")
    if not (isinstance(clock, str) and clock in _CLOCKS):
        raise SearchError(f"clock must be 'wall' or 'cpu', got {quote(clock)}")
    _flag(prune, "prune")
    _check_row_weight(row_weight)


def advise(
    game: Position,
    seat: int | None = None,
    *,
    samples: int | None = None,
    time_budget: float | None = None,
    seed: int = 0,
    exact: str | bool = "auto",
    policy: str = "auto",
    fl_value: StayValue = None,
    row_weight: float = 1.0,
    rules: RuleSet | None = None,
    prune: bool = False,
    clock: str = "wall",
    opponent: Opponent = "best",
    model: ModelSpec = None,
) -> list[Advice]:
    """Every legal move of the seat to act with its expected points, best first.

    ``samples``: sampled futures (default 256 without a time budget); ``time_budget``
    (seconds): sample in batches of 16 until it is spent (then the sample count, and
    so the advice, depends on the machine: pass ``samples`` to reproduce); ``clock``:
    what the budget counts, ``"wall"`` time or this thread's ``"cpu"`` time (the same
    search whatever else the machine runs);
    ``exact``: ``"auto"`` (exact when the tree fits the budget, or
    :data:`EXACT_NODES_DEFAULT` without one), True (exact, or SearchError when the
    position has no exact search or its tree is larger than the time budget allows,
    or than :data:`EXACT_NODES_MAX` without one), False (always sampled); ``policy``:
    see :data:`POLICIES`;
    ``fl_value`` / ``row_weight``: see :class:`SearchModel`; ``opponent``: how the
    rollouts complete the other seats' boards (:data:`OPPONENTS`; exact values only
    with ``"best"``); ``rules``: needed only
    for an observation of a rule set that is not a preset; ``prune``: after each
    batch of 16 samples keep sampling only the better half of the moves (down to 8;
    the others keep the values of their fewer samples, see ``Advice.samples``, and
    come after the moves that outlasted them); with the auto policy an opening
    (more than 60 moves) is screened by the fast policy until at most 30 moves are
    left, which then start again under the sequential policy; ``model``: a learned
    value model (:data:`ofc_fast.learned.ModelSpec`: ``"auto"`` the one shipped for
    the rule set and seat count, a path, a ValueModel; None: none) that places the
    searcher's cards in the sequential rollouts (csrc/include/ofc_search.h, Learned value).
    The same arguments give the same advice.

    >>> import ofc_fast as ofc
    >>> obs = ofc.Game("pineapple", players=2, seed=5).observation(1)
    >>> a = ofc.advise(obs, samples=32, seed=2)
    >>> a == ofc.advise(obs, samples=32, seed=2), a[0].samples, a[0].exact
    (True, 32, False)
    """
    check_settings(samples, time_budget, exact, policy, seed, clock, prune)
    obs, rules = _observation(game, seat, rules)
    pos = position(obs, rules)
    rows = obs["boards"][obs["seat"]]
    dealt, k = list(obs["dealt"]), int(obs["to_discard"])
    actions = list(obs.get("legal_actions") or actions_for(len(dealt), rows, k))
    model_ = search_model(rules, fl_value, row_weight, opponent)
    value = resolve_model(model, rules, int(pos.players))
    args = (
        compiled(rules),
        compiled_fl(rules),
        ev_tables(rules),
        _with_value(model_.c_model(), value),
        pos,
        bytes(actions),
        len(actions),
    )
    values = _exact(args, pos, exact, time_budget, model_.opp_random > 0)
    if values is not None:
        out = [
            Advice(a, move_for_action(a, dealt, rows, k), float(v), 0.0, True, 0, *st)
            for a, (v, st) in zip(actions, values)
        ]
        out.sort(key=lambda x: (-x.ev, x.action))
        return out
    name = _auto_policy(pos, len(actions)) if policy == "auto" else policy
    then = None
    if policy == "auto" and name == "fast" and prune and pos.seats[pos.seat].rounds > 1:
        then = int(lib.OFC_COMPLETE_SEQUENTIAL)  # screen fast, then play honestly
    stats = _sampled(
        args, _policy(name, True), seed, samples, time_budget, prune, then, _CLOCKS[clock]
    )
    ranked = sorted(zip(actions, stats), key=lambda x: (-x[1][2], -x[1][0], x[0]))
    named = None if value is None else value.name
    return [
        Advice(
            a,
            move_for_action(a, dealt, rows, k),
            float(v),
            float(se),
            False,
            n,
            *st,
            model=named,
        )
        for a, (v, se, _, n, st) in ranked
    ]


def _with_value(c_model: Any, value: ValueModel | None) -> Any:
    """The C search model with a learned value model attached (a copy; the cached
    struct stays model-free)."""
    if value is None:
        return c_model
    c = ffi.new("ofc_search_model *", c_model[0])
    c.value = value.c
    return c


_Stats: TypeAlias = tuple[float, float, float]  # foul, fantasyland, royalties


def _stats_of(c: Any) -> _Stats:
    """(foul, fantasyland, royalties) of an ``ofc_search_stats``."""
    return (float(c.foul), float(c.fantasyland), float(c.royalties))


def _exact(
    args: tuple[Any, ...],
    pos: Any,
    exact: str | bool,
    time_budget: float | None,
    random_opponents: bool,
) -> list[tuple[float, _Stats]] | None:
    if exact is False or (exact == "auto" and random_opponents):
        return None
    if random_opponents:
        raise SearchError(
            "exact search models opponents that complete by the best "
            "completion (opponent='best'); another opponent model is sampled"
        )
    cost = int(lib.ofc_search_exact_cost(pos, args[-1]))
    if time_budget is not None:
        limit = int(time_budget * _EXACT_NODES_PER_SECOND)
    else:
        limit = EXACT_NODES_DEFAULT if exact == "auto" else EXACT_NODES_MAX
    if exact == "auto" and not 0 < cost <= limit:
        return None
    if cost == 0:
        raise SearchError(
            "exact search needs the searcher to have at most one round "
            "left (a Pineapple or OFC last-two-streets position)"
        )
    if cost > limit:
        raise SearchError(
            f"the exact tree has {cost:,} nodes, more than the {limit:,} "
            + ("the time budget allows" if time_budget is not None else "EXACT_NODES_MAX")
            + ": use exact='auto' or False (sampled values)"
        )
    values = ffi.new("double[]", max(1, args[-1]))
    stats = ffi.new("ofc_search_stats[]", max(1, args[-1]))
    st = lib.ofc_search_exact_stats(*(*args, limit, values, stats))
    if st != OK:
        _raise(st, "advise")
    return [(float(values[i]), _stats_of(stats[i])) for i in range(args[-1])]


def _sampled(
    args: tuple[Any, ...],
    policy: int,
    seed: int,
    samples: int | None,
    time_budget: float | None,
    prune: bool,
    then: int | None = None,
    clock: Callable[[], float] = time.perf_counter,
) -> list[tuple[float, float, int, int, _Stats]]:
    """(mean, stderr, rounds survived, samples, (foul, fantasyland, royalties) means)
    per move; with ``then``, once pruning leaves _SWITCH moves or fewer they start
    again under that policy."""
    actions, n = args[-2], args[-1]
    total, squares, counts, survived = [0.0] * n, [0.0] * n, [0] * n, [0] * n
    sums = [[0.0, 0.0, 0.0] for _ in range(n)]  # foul, fantasyland, royalties
    stats_size = ffi.sizeof("ofc_search_stats")
    out_sum = ffi.new("double[]", max(1, n))
    out_sq = ffi.new("double[]", max(1, n))
    out_stats = ffi.new("ofc_search_stats[]", max(1, n))
    target = samples if samples is not None else (None if time_budget else 256)
    active = list(range(n))
    done = 0
    start = clock()
    while True:
        batch = _BATCH if target is None else min(_BATCH, target - done)
        ffi.memmove(out_sum, bytes(8 * len(active)), 8 * len(active))
        ffi.memmove(out_sq, bytes(8 * len(active)), 8 * len(active))
        ffi.memmove(out_stats, bytes(stats_size * len(active)), stats_size * len(active))
        st = lib.ofc_search_rollouts_stats(
            *(
                *args[:-2],
                bytes(actions[i] for i in active),
                len(active),
                policy,
                seed,
                done,
                batch,
                out_sum,
                out_sq,
                out_stats,
            )
        )
        if st != OK:
            _raise(st, "advise")
        for j, i in enumerate(active):
            total[i] += out_sum[j]
            squares[i] += out_sq[j]
            counts[i] += batch
            st_j = out_stats[j]
            sums[i][0] += st_j.foul
            sums[i][1] += st_j.fantasyland
            sums[i][2] += st_j.royalties
        done += batch
        spent = clock() - start
        if (target is not None and done >= target) or (
            time_budget is not None and spent >= time_budget
        ):
            break
        if prune and len(active) > _KEEP:
            active.sort(key=lambda i: -total[i] / counts[i])
            active = sorted(active[: max(_KEEP, len(active) // 2)])
            for i in active:
                survived[i] += 1
            if then is not None and len(active) <= _SWITCH:
                policy, then = then, None
                for i in active:
                    total[i] = squares[i] = counts[i] = 0
                    sums[i] = [0.0, 0.0, 0.0]
                    survived[i] += 1
    out = []
    for i in range(n):
        c = counts[i]
        mean = total[i] / c
        var = max(0.0, squares[i] / c - mean * mean) * c / max(1, c - 1)
        stats = (sums[i][0] / c, sums[i][1] / c, sums[i][2] / c)
        out.append((mean, math.sqrt(var / c), survived[i], c, stats))
    return out
