"""One way to split a run: chains of deals cut into chunks.

A parallel run of ``hands`` chains is a sequence of **independent units**: unit ``i``
is deal ``i`` plus the Fantasyland deals it earns, and depends only on ``(seed, i)``,
so any chunk of units can run anywhere and the results, put back in order, are the
same whatever the executor and the number of workers.

Unit ``i`` of a run (:func:`play_chain`):

* deal ``(i, 0)``: the deck ``deal_seed(seed, i)`` (:func:`ofc_fast.game.deal_seed`, the
  deck of deal ``i`` of a :class:`~ofc_fast.game.Match` with that seed), button
  ``(button + i) % players`` (a fixed rotation), no seat in Fantasyland;
* while a deal ends with a seat earning Fantasyland (and ``spec.fantasyland``), the
  next deal ``(i, k)`` is played as a Match plays it: the Fantasyland carried in, the
  button moved by the rules (R-FL-6, :func:`~ofc_fast.game.match.next_button`), the
  deck ``chain_seed(seed, i, k) = deal_seed(deal_seed(deal_seed(seed, i), 0), k)``;
  at most :data:`MAX_FL_CHAIN` Fantasyland deals follow one deal (a run never hangs;
  the Fantasyland the last one earns is then counted, not played);
* bots: seat ``s`` plays deal ``(i, k)`` with the seed ``bot_seed(seed, i, s, k) =
  deal_seed(chain_seed(seed, i, k), 1 + s)``: the bot is re-seeded with
  ``reset(seed)`` before every deal (rebuilt with :func:`~ofc_fast.bots.make_bot`
  when it has no ``reset``), so its moves depend on nothing but this deal.

With ``fantasyland=False`` (``ofc-fast play --independent``) a unit is the one deal
``(i, 0)``: the Fantasyland it earns is counted (``fantasyland_entries``), not played.
Table stakes (``stacks``) are refused either way: chips carried from deal to deal
make deal ``i`` depend on every deal before it, which no split can honour.

This is not :meth:`Match.play`, where deal ``i`` follows deal ``i - 1``; it plays the
same game (Fantasyland included) in units that a parallel evaluation can promise
exactly.  :func:`book` adds a deal's outcome to a :class:`Match`, so a parallel run
reports through the same :class:`~ofc_fast.game.SeatStats` and ``Match.summary()``.

>>> spec = RunSpec.make("pineapple", 2, seed=7, hands=6, bots=[("random", {})] * 2)
>>> [(c.start, c.stop) for c in spec.chunks(4)]
[(0, 4), (4, 6)]
>>> a = run_chunk(ChunkTask(spec, 0, 6))
>>> b = run_chunk(ChunkTask(spec, 0, 3)).outcomes + run_chunk(ChunkTask(spec, 3, 6)).outcomes
>>> a.outcomes == b
True
"""

from __future__ import annotations

import json
import os
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from functools import lru_cache
from typing import Any, TypedDict

import numpy as np
import numpy.typing as npt

from ..bots import bot_key, make_bot, make_bots
from ..bots.registry import is_bot_spec
from ..errors import (
    BotError,
    ExecutorError,
    GameError,
    MoveError,
    OfcError,
    UnknownBotError,
    quote,
)
from ..game import Game, Match, deal_seed, resolve_rules
from ..game.match import book_deal, next_button
from ..game.moves import action_for_move
from ..game.playout import finish
from ..rules import RuleSet
from ..search import flag
from ..table import SEED_MAX, check_players, check_seat, check_seed
from ._counts import CHUNK_ERRORS, whole_count

__all__ = [
    "DEFAULT_CHUNK",
    "MAX_CHUNKS",
    "MAX_FL_CHAIN",
    "ChunkResult",
    "ChunkTask",
    "DealOutcome",
    "RunSpec",
    "book",
    "bot_failed",
    "bot_seed",
    "chain_seed",
    "finish_naming",
    "new_match",
    "play_chain",
    "play_deal",
    "run_chunk",
]

DEFAULT_CHUNK = 50
"""Deals per chunk unless told otherwise."""


MAX_CHUNKS = 10_000_000
"""Most chunks one run is cut into: :meth:`RunSpec.chunks` lists them up front, and an
executor holds them (the command line's most ``--hands``, in chunks of one deal)."""

MAX_FL_CHAIN = 64
"""Most Fantasyland deals played after one deal of a unit (each needs a seat to stay
in Fantasyland again: a chain this long is a sign of a broken rule set)."""


def chain_seed(seed: int, i: int, k: int = 0) -> int:
    """The deck seed of deal ``(i, k)`` of a run: ``k = 0`` the unit's first deal
    (``deal_seed(seed, i)``, as deal ``i`` of a Match), ``k >= 1`` its Fantasyland
    deals.

    >>> chain_seed(1, 3) == deal_seed(1, 3) != chain_seed(1, 3, 1)
    True
    """
    base = deal_seed(seed, i)
    return base if k == 0 else deal_seed(deal_seed(base, 0), k)


def bot_seed(seed: int, i: int, seat: int, k: int = 0) -> int:
    """The seed of the bot of ``seat`` in deal ``(i, k)`` of a run with seed ``seed``.

    >>> bot_seed(1, 0, 0) == deal_seed(deal_seed(1, 0), 1)
    True
    """
    return deal_seed(chain_seed(seed, i, k), 1 + seat)


class DealOutcome(TypedDict):
    """What a worker returns per deal (plain data, equal across executors)."""

    deal: int
    seed: int
    button: int
    net: list[int]
    fouls: list[bool]
    royalties: list[list[int]]  #: per seat, its rows' (front, middle, back)
    fantasyland: list[int]
    surrendered: list[int]
    declared: list[int]
    decisions: int
    fl_deal: int  #: k: 0 the unit's first deal, k >= 1 its k-th Fantasyland deal
    in_fantasyland: list[int]  #: Fantasyland cards each seat played this deal with
    boards: list[str]  #: each seat's final board as text


@dataclass(frozen=True)
class RunSpec:
    """Everything a worker needs to play any deal of a run, as plain data (it travels
    by pickle to processes and Ray workers): the rules as JSON, the bots as
    ``(registry name, settings)``, never as live objects.

    >>> spec = RunSpec.make("pineapple", players=2, seed=7, hands=4,
    ...                     bots=[("random", {}), ("random", {})])
    >>> spec.hands, spec.players
    (4, 2)
    """

    rules_json: str
    players: int
    seed: int
    hands: int
    bots: tuple[tuple[str, str], ...]  #: (name, settings as JSON) per seat
    button: int = 0
    fantasyland: bool = True  #: play the Fantasyland deals a deal earns (a chain)

    @classmethod
    def make(
        cls,
        rules: RuleSet | str,
        players: int,
        seed: int,
        hands: int,
        bots: Sequence[Any],
        button: int = 0,
        fantasyland: bool = True,
    ) -> RunSpec:
        """Check and build a spec.  ``bots``: per seat (or one for every seat) a
        ``(registry name, settings)`` pair or a registered bot, which travels as
        ``(bot.name, bot.settings())`` (its own seed is not used: see ``bot_seed``).
        ``fantasyland``: each unit plays the Fantasyland deals its deal earns (False:
        independent deals, the Fantasyland earned counted, not played).  ``hands``:
        0..2**64 (NumPy's ints too; deal indices are 64-bit:
        :func:`~ofc_fast.game.deal_seed`), else GameError naming it.

        >>> from ofc_fast.bots import HeuristicBot
        >>> RunSpec.make("pineapple", 2, 1, 10, [HeuristicBot(samples=8)]).bots[0][0]
        'heuristic'
        """
        rs = resolve_rules(rules)
        players = check_players(players, rs)
        hands = whole_count(hands, "hands", 0, GameError, most=SEED_MAX + 1)  # deal_seed
        button = check_seat(button, players)
        enc = [_encode_bot(i, b) for i, b in enumerate(bots)]
        if len(enc) == 1:
            enc *= players
        if len(enc) != players:
            raise GameError(f"{players} seats need 1 or {players} bots, got {len(enc)}")
        make_bots(  # fail here, not in a worker (a bot that cannot play this table too)
            [name for name, _ in enc],
            players,
            rs,
            check_seed(seed),
            [json.loads(settings) for _, settings in enc],
        )
        fantasyland = flag(fantasyland, "fantasyland", GameError)
        Game(rs, players, seed=0)  # a table the rules can deal
        if fantasyland:
            Match(rs, players, seed=0)  # every seat in Fantasyland fits one deck
        return cls(
            rs.to_json(), players, check_seed(seed), hands, tuple(enc), button, fantasyland
        )

    def __post_init__(self) -> None:
        """Check a spec however it is built (``RunSpec(...)``, ``dataclasses.replace``,
        :meth:`make`) with :meth:`make`'s checks of plain data: the rules' JSON, the
        seats, seed, hands, button and ``fantasyland``, and a ``(name, settings as a
        JSON object)`` pair of text per seat; an OfcError naming the field otherwise
        (the bots themselves are made in the workers)."""
        if not isinstance(self.rules_json, str):
            raise GameError(
                f"rules_json: the rules as JSON text, got {quote(self.rules_json)}"
            )
        rs = _rules_of(self.rules_json)  # RulesError
        players = check_players(self.players, rs)
        for name, value in (
            ("players", players),
            ("seed", check_seed(self.seed)),
            ("hands", whole_count(self.hands, "hands", 0, GameError, most=SEED_MAX + 1)),
            ("button", check_seat(self.button, players)),
            ("fantasyland", flag(self.fantasyland, "fantasyland", GameError)),
            ("bots", _checked_bots(self.bots, players)),
        ):
            object.__setattr__(self, name, value)  # (NumPy's ints as ints)

    @property
    def rules(self) -> RuleSet:
        """The run's rule set (decoded from ``rules_json``)."""
        return _rules_of(self.rules_json)

    def chunks(self, size: int = DEFAULT_CHUNK) -> list[ChunkTask]:
        """The run cut into chunks of ``size`` deals (the last one shorter)."""
        size = whole_count(size, "chunk size", error=GameError)
        count = -(-self.hands // size)
        if count > MAX_CHUNKS:
            raise GameError(
                f"chunk size: {self.hands} hands in chunks of {size} are {count} "
                f"chunks, and a run is cut into at most {MAX_CHUNKS}: chunks of at "
                f"least {-(-self.hands // MAX_CHUNKS)} deals"
            )
        return [
            ChunkTask(self, a, min(a + size, self.hands))
            for a in range(0, self.hands, size)
        ]


def _encode_bot(i: int, bot: Any) -> tuple[str, str]:
    """Bot ``i`` of :meth:`RunSpec.make` as ``(registry name, settings as JSON)``: a
    registered bot's ``(name, settings())`` or a ``(name, settings)`` pair; a
    BotError naming it otherwise, or when its settings are not JSON data (they travel
    to the workers as JSON)."""
    if callable(getattr(bot, "settings", None)):
        pair = (getattr(bot, "name", None), bot.settings())
    elif isinstance(bot, (tuple, list)) and len(bot) == 2:
        pair = (bot[0], bot[1])
    else:
        raise BotError(
            f"bots[{i}]: a (registry name, settings) pair or a registered bot is "
            f"needed, got {quote(bot)}"
        )
    name, settings = pair
    if not isinstance(name, str) or not isinstance(settings, Mapping):
        raise BotError(
            f"bots[{i}]: a registry name (str) and settings (a dict) are needed, "
            f"got {quote(name)} and {quote(settings)}"
        )
    try:
        text = json.dumps(dict(settings), sort_keys=True)
    except (TypeError, ValueError) as exc:
        raise BotError(
            f"bots[{i}] {name!r}: settings must be JSON data (they travel to the "
            f"workers as JSON): {exc}"
        ) from None
    return bot_name(name), text


def _checked_bots(bots: object, players: int) -> tuple[tuple[str, str], ...]:
    """A spec's ``bots`` as :meth:`RunSpec.make` encodes them: per seat a registry
    name and its settings as a JSON object, both text; else BotError naming it."""
    pairs = tuple(bots) if isinstance(bots, (tuple, list)) else None
    if pairs is None or len(pairs) != players:
        raise BotError(
            f"bots: {players} (registry name, settings as JSON) pairs, one per seat, "
            f"are needed, got {quote(bots)}"
        )
    for i, pair in enumerate(pairs):
        ok = isinstance(pair, tuple) and len(pair) == 2
        ok = ok and all(isinstance(x, str) for x in pair)
        try:
            ok = ok and isinstance(json.loads(pair[1]), dict)
        except (ValueError, RecursionError):  # not JSON, or nested too deep to read
            ok = False
        if not ok:
            raise BotError(
                f"bots[{i}]: a (registry name, settings as a JSON object) pair of "
                f"text is needed, got {quote(pair)}"
            )
    return pairs


def bot_name(name: str) -> str:
    """A bot's name as a run keeps it: a registry name as the registry keys it
    (:func:`~ofc_fast.bots.bot_key`: lower case, BotError for an empty one), a
    ``module:attribute`` or ``policy:PATH`` spec as it is (an attribute or a path has
    its case)."""
    return name.strip() if is_bot_spec(name) else bot_key(name)


@lru_cache(maxsize=64)
def _rules_of(text: str) -> RuleSet:
    """The rule set of a spec's ``rules_json``, decoded once while in use (the 64
    last asked for: a process running many rule sets keeps no more)."""
    return RuleSet.from_json(text)


@dataclass(frozen=True)
class ChunkTask:
    """Deals ``start`` to ``stop - 1`` of a run.  ``history``: return each deal's
    hand-history line; ``selfplay``: return the decisions as arrays."""

    spec: RunSpec
    start: int
    stop: int
    history: bool = False
    selfplay: bool = False


@dataclass
class ChunkResult:
    """What a chunk gives back (plain data and NumPy arrays)."""

    start: int
    stop: int
    outcomes: list[DealOutcome]
    lines: list[str] = field(default_factory=list)  #: hand-history JSON lines
    arrays: dict[str, npt.NDArray[Any]] | None = None  #: self-play decisions
    pid: int = 0  #: the worker's process id


class Seats:
    """The bots of a chunk, re-seeded per deal."""

    def __init__(self, spec: RunSpec) -> None:
        self.spec = spec
        self.rules = spec.rules
        try:
            self.bots = [make_bot(n, self.rules, 0, **json.loads(s)) for n, s in spec.bots]
        except UnknownBotError as exc:  # (RunSpec.make, in the driver, knew every name)
            raise UnknownBotError(
                f"{exc}; this worker (process {os.getpid()}) does not know a bot the run "
                f"was made with: a bot registered after import (under `if __name__ == "
                f'"__main__":`, in a notebook) is known to that process only; register '
                f"it at the main script's top level (a process pool's workers import the "
                f"script again), or name it as module:attribute (any executor)"
            ) from None

    def for_deal(self, i: int, k: int = 0) -> list[Any]:
        for s, (name, settings) in enumerate(self.spec.bots):
            seed = bot_seed(self.spec.seed, i, s, k)
            reset = getattr(self.bots[s], "reset", None)
            if callable(reset):
                reset(seed)
            else:
                self.bots[s] = make_bot(name, self.rules, seed, **json.loads(settings))
        return self.bots


def _placement(move: Any) -> npt.NDArray[Any]:
    """Per card: -1 not in the move, 0/1/2 front/middle/back, 3 discarded."""
    out = np.full(52, -1, dtype=np.int8)
    for c, d in zip(move.cards, move.destinations):
        out[c] = d
    return out


class _Decisions:
    """Self-play columns of a chunk."""

    def __init__(self) -> None:
        from .. import encoding

        self.encoding = encoding
        self.cols: dict[str, list[Any]] = {
            k: []
            for k in (
                "obs",
                "mask",
                "action",
                "placement",
                "seat",
                "deal",
                "step",
                "reward",
            )
        }

    def add(self, deal: int, step: int, obs: Mapping[str, Any], move: Any) -> None:
        c = self.cols
        c["obs"].append(np.asarray(self.encoding.encode(obs), dtype=np.float32))
        c["mask"].append(np.asarray(self.encoding.action_mask(obs), dtype=bool))
        full = bool(obs.get("full_set")) or not obs.get("legal_actions")
        c["action"].append(
            -1 if full else action_for_move(move, obs["dealt"], obs["to_discard"])
        )
        c["placement"].append(_placement(move))
        c["seat"].append(obs["seat"])
        c["deal"].append(deal)
        c["step"].append(step)
        c["reward"].append(None)  # filled in by finish()

    def finish(self, first: int, net: Sequence[int]) -> None:
        rew, seats = self.cols["reward"], self.cols["seat"]
        for k in range(first, len(rew)):
            rew[k] = net[seats[k]]

    def arrays(self) -> dict[str, npt.NDArray[Any]]:
        c = self.cols
        n = len(c["seat"])

        def stack(key: str, dtype: Any, width: int) -> npt.NDArray[Any]:
            return np.stack(c[key]).astype(dtype) if n else np.zeros((0, width), dtype)

        return {
            "obs": stack("obs", np.float32, 0),
            "mask": stack("mask", bool, 0),
            "placement": stack("placement", np.int8, 52),
            "action": np.asarray(c["action"], dtype=np.int32),
            "seat": np.asarray(c["seat"], dtype=np.int8),
            "deal": np.asarray(c["deal"], dtype=np.int64),
            "step": np.asarray(c["step"], dtype=np.int16),
            "reward": np.asarray(c["reward"], dtype=np.float32),
        }


def play_deal(
    spec: RunSpec,
    i: int,
    bots: Sequence[Any],
    decisions: _Decisions | None = None,
    *,
    k: int = 0,
    button: int | None = None,
    fantasyland: Sequence[int] | None = None,
) -> Game:
    """Play deal ``(i, k)`` of the run with ``bots`` already seeded for it; ``button``
    and ``fantasyland``: those of a Fantasyland deal (``k >= 1``, see
    :func:`play_chain`)."""
    g = Game(
        spec.rules,
        spec.players,
        seed=chain_seed(spec.seed, i, k),
        button=(spec.button + i) % spec.players if button is None else button,
        fantasyland=fantasyland,
    )
    first = len(decisions.cols["seat"]) if decisions is not None else 0
    step = 0
    while not g.is_over:
        s = g.to_act
        assert s is not None
        obs = g.observation(s)
        try:  # (as finish_naming: the bot's move, chosen and played)
            move = bots[s].act(obs)
            if decisions is not None:
                decisions.add(i, step, obs, move)
            g.play(move)
        except MoveError as exc:  # its illegal move (or a MoveError of its own): named
            raise bot_failed(i, s, spec.bots[s][0], exc, k) from None
        except OfcError:  # (the bot's own named error, as it is)
            raise
        except CHUNK_ERRORS as exc:
            raise bot_failed(i, s, spec.bots[s][0], exc, k) from exc
        step += 1
    if decisions is not None:
        decisions.finish(first, g.result().net)
    return g


def bot_failed(
    deal: int, seat: int, bot: str, exc: BaseException, fl_deal: int = 0
) -> OfcError:
    """The error of ``bot`` at ``seat`` that raised ``exc`` (its own bug, or
    ``sys.exit()``; a MoveError: its illegal move, a MoveError still, of the same
    ``reason``) in deal ``deal`` (the index from 0: a parallel run's unit, a
    match's deal; ``fl_deal``: a parallel run's Fantasyland deal of that unit), naming
    the deal as a user reads it, counted from 1 as ``play`` prints its deals and
    ``play --json`` numbers them (``deal``, ``fl_deal``), the seat and the bot: the one
    wording of a parallel run (a chunk's failure names no more than its chunk) and of
    a match in one process (:func:`finish_naming`).

    >>> bot_failed(3, 1, "mybot:Bot", RuntimeError("boom"))
    ExecutorError("deal 4, seat 1 (bot 'mybot:Bot') raised RuntimeError('boom')")
    >>> bot_failed(0, 1, "mybot:Bot", MoveError("card Ah was not dealt", "not_dealt"))
    MoveError("deal 1, seat 1 (bot 'mybot:Bot') played an illegal move: card Ah was not dealt")
    """
    where = f"deal {deal + 1}" + (f" (its Fantasyland deal {fl_deal})" if fl_deal else "")
    if isinstance(exc, MoveError):
        said = f"{where}, seat {seat} (bot {bot!r}) played an illegal move: {exc}"
        return MoveError(said, exc.reason)
    return ExecutorError(f"{where}, seat {seat} (bot {bot!r}) raised {exc!r}")


def finish_naming(game: Game, bots: Sequence[Any], deal: int, names: Sequence[str]) -> None:
    """Let ``bots`` (named ``names``, one per seat) finish ``game``, ``deal`` of a match
    played in one process (``ofc-fast play``: :meth:`Match.play`'s ``finish_deal``,
    ``names`` bound): a bot that raises, or calls ``sys.exit()``, is
    :func:`bot_failed`'s ExecutorError, and its illegal move its MoveError, as in a
    parallel run; another OfcError and Ctrl-C stay as they are."""

    def illegal(seat: int, exc: MoveError) -> OfcError:  # the bot's own MoveError
        return bot_failed(deal, seat, names[seat], exc)

    try:
        finish(game, bots, illegal)
    except OfcError:
        raise
    except CHUNK_ERRORS as exc:
        s = game.to_act
        assert s is not None  # (the seat whose bot raised: its move was not played)
        raise bot_failed(deal, s, names[s], exc) from exc


def play_chain(
    spec: RunSpec, i: int, seats: Seats, decisions: _Decisions | None = None
) -> list[Game]:
    """Play unit ``i``: deal ``(i, 0)`` and, when ``spec.fantasyland``, the Fantasyland
    deals it earns (see the module's notes); the games in play order."""
    games = [play_deal(spec, i, seats.for_deal(i), decisions)]
    while spec.fantasyland and len(games) <= MAX_FL_CHAIN:
        last = games[-1]
        fl = last.result().fantasyland
        if not any(fl):
            break
        k = len(games)
        button = next_button(spec.rules, last.button, spec.players, fl)
        games.append(
            play_deal(
                spec,
                i,
                seats.for_deal(i, k),
                decisions,
                k=k,
                button=button,
                fantasyland=fl,
            )
        )
    return games


def outcome(i: int, g: Game, k: int = 0) -> DealOutcome:
    r = g.result()
    return DealOutcome(
        deal=i,
        seed=g.seed or 0,
        button=g.button,
        net=list(r.net),
        fouls=list(r.fouls),
        royalties=[list(x) for x in r.royalties],
        fantasyland=list(r.fantasyland),
        surrendered=list(r.surrendered),
        declared=sorted(r.declared),
        decisions=g.decisions,
        fl_deal=k,
        in_fantasyland=list(r.in_fantasyland),
        boards=[str(b) for b in r.boards],
    )


def run_chunk(task: ChunkTask) -> ChunkResult:
    """Play a chunk (what every executor runs, in whatever process)."""
    spec = task.spec
    seats = Seats(spec)
    decisions = _Decisions() if task.selfplay else None
    names = [n for n, _ in spec.bots]
    out = ChunkResult(task.start, task.stop, [], pid=os.getpid())
    for i in range(task.start, task.stop):
        for k, g in enumerate(play_chain(spec, i, seats, decisions)):
            out.outcomes.append(outcome(i, g, k))
            if task.history:
                from ..arena.history import deal_record

                out.lines.append(
                    json.dumps(deal_record(g, i, names), separators=(",", ":"))
                )
    if decisions is not None:
        out.arrays = decisions.arrays()
    return out


def new_match(spec: RunSpec, keep_nets: bool = True) -> Match:
    """An empty :class:`Match` to :func:`book` the deals of ``spec`` into;
    ``keep_nets``: it keeps every deal's net per seat (``SeatStats.net``; False: only
    the sums its summary reads, a long run's memory does not grow with its deals)."""
    return Match(
        spec.rules, spec.players, seed=spec.seed, button=spec.button, keep_nets=keep_nets
    )


def book(match: Match, outcome: DealOutcome) -> None:
    """Add one deal's outcome to ``match`` (totals and :class:`SeatStats`, with the
    Fantasyland it was played in; the button moves one seat: see the module's
    notes), at once as :meth:`Match.record` books a deal: a Ctrl-C books it whole or
    not at all."""
    book_deal(match, outcome, button=(match.button + 1) % match.players)
