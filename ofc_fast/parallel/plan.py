"""One way to split a run: independent deals cut into chunks.

A parallel run of ``hands`` deals is a sequence of **independent deals**: deal ``i``
depends only on ``(seed, i)``, so any chunk of deals can run anywhere and the results,
put back in deal order, are the same whatever the executor and the number of workers.

Deal ``i`` of a run (:func:`play_deal`):

* deck: the game seed ``deal_seed(seed, i)`` (:func:`ofc_fast.game.deal_seed`), as in
  :class:`~ofc_fast.game.Match`;
* button: ``(button + i) % players`` (a fixed rotation);
* bots: seat ``s`` plays with the seed ``bot_seed(seed, i, s) = deal_seed(deal_seed(seed,
  i), 1 + s)``: the bot is re-seeded with ``reset(seed)`` before every deal (rebuilt
  with :func:`~ofc_fast.bots.make_bot` when it has no ``reset``), so its moves depend on
  nothing but this deal;
* no Fantasyland is carried in: every deal starts with no seat in Fantasyland.  The
  Fantasyland a deal earns is counted (``fantasyland_entries``) but not played, and
  table stakes (``stacks``) are refused: chips carried from deal to deal make deal
  ``i`` depend on every deal before it, which no split can honour.

This is not :meth:`Match.play` (which carries the button rule of R-FL-6, Fantasyland and
chips from deal to deal); it is what a parallel evaluation or a self-play data set can
promise exactly.  :func:`book` adds a deal's outcome to a :class:`Match`, so a parallel
run reports through the same :class:`~ofc_fast.game.SeatStats` and ``Match.summary()``.

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
from typing import Any, TypedDict

import numpy as np

from ..bots import make_bot
from ..errors import GameError
from ..game import Game, Match, deal_seed
from ..game.engine import resolve_rules
from ..game.moves import action_for_move
from ..rules import RuleSet
from ..table import check_players, check_seat, check_seed

__all__ = [
    "DEFAULT_CHUNK",
    "ChunkResult",
    "ChunkTask",
    "DealOutcome",
    "RunSpec",
    "book",
    "bot_seed",
    "new_match",
    "play_deal",
    "run_chunk",
]

DEFAULT_CHUNK = 50
"""Deals per chunk unless told otherwise."""


def bot_seed(seed: int, i: int, seat: int) -> int:
    """The seed of the bot of ``seat`` in deal ``i`` of a run with seed ``seed``.

    >>> bot_seed(1, 0, 0) == deal_seed(deal_seed(1, 0), 1)
    True
    """
    return deal_seed(deal_seed(seed, i), 1 + seat)


class DealOutcome(TypedDict):
    """What a worker returns per deal (plain data, equal across executors)."""

    deal: int
    seed: int
    button: int
    net: list[int]
    fouls: list[bool]
    royalties: list[int]
    fantasyland: list[int]
    surrendered: list[int]
    declared: list[int]
    decisions: int


@dataclass(frozen=True)
class RunSpec:
    """Everything a worker needs to play any deal of a run, as plain data (it travels
    by pickle to processes and Ray workers): the rules as JSON, the bots as
    ``(registry name, settings)``, never as live objects."""

    rules_json: str
    players: int
    seed: int
    hands: int
    bots: tuple[tuple[str, str], ...]  #: (name, settings as JSON) per seat
    button: int = 0

    @classmethod
    def make(
        cls,
        rules: RuleSet | str,
        players: int,
        seed: int,
        hands: int,
        bots: Sequence[Any],
        button: int = 0,
    ) -> RunSpec:
        """Check and build a spec.  ``bots``: per seat (or one for every seat) a
        ``(registry name, settings)`` pair or a registered bot, which travels as
        ``(bot.name, bot.settings())`` (its own seed is not used: see ``bot_seed``).

        >>> from ofc_fast.bots import HeuristicBot
        >>> RunSpec.make("pineapple", 2, 1, 10, [HeuristicBot(samples=8)]).bots[0][0]
        'heuristic'
        """
        rs = resolve_rules(rules)
        players = check_players(players, rs)
        if isinstance(hands, bool) or not isinstance(hands, int) or hands < 0:
            raise GameError(f"hands must be an int >= 0, got {hands!r}")
        button = check_seat(button, players)
        pairs = [
            (b.name, b.settings()) if callable(getattr(b, "settings", None)) else b
            for b in bots
        ]
        if len(pairs) == 1:
            pairs *= players
        if len(pairs) != players:
            raise GameError(f"{players} seats need 1 or {players} bots, got {len(pairs)}")
        enc = tuple(
            (str(n).strip().lower(), json.dumps(dict(s), sort_keys=True)) for n, s in pairs
        )
        for i, (name, settings) in enumerate(enc):  # fail here, not in a worker
            make_bot(name, rs, bot_seed(check_seed(seed), 0, i), **json.loads(settings))
        Game(rs, players, seed=0)  # a table the rules can deal
        return cls(rs.to_json(), players, check_seed(seed), hands, enc, button)

    @property
    def rules(self) -> RuleSet:
        """The run's rule set (decoded from ``rules_json``)."""
        return _rules_of(self.rules_json)

    def chunks(self, size: int = DEFAULT_CHUNK) -> list[ChunkTask]:
        """The run cut into chunks of ``size`` deals (the last one shorter)."""
        if isinstance(size, bool) or not isinstance(size, int) or size < 1:
            raise GameError(f"chunk size must be an int >= 1, got {size!r}")
        return [
            ChunkTask(self, a, min(a + size, self.hands))
            for a in range(0, self.hands, size)
        ]


_RULES_CACHE: dict[str, RuleSet] = {}


def _rules_of(text: str) -> RuleSet:
    rs = _RULES_CACHE.get(text)
    if rs is None:
        rs = _RULES_CACHE[text] = RuleSet.from_json(text)
    return rs


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
    arrays: dict[str, np.ndarray] | None = None  #: self-play decisions
    pid: int = 0  #: the worker's process id


class Seats:
    """The bots of a chunk, re-seeded per deal."""

    def __init__(self, spec: RunSpec) -> None:
        self.spec = spec
        self.rules = spec.rules
        self.bots = [make_bot(n, self.rules, 0, **json.loads(s)) for n, s in spec.bots]

    def for_deal(self, i: int) -> list[Any]:
        for s, (name, settings) in enumerate(self.spec.bots):
            seed = bot_seed(self.spec.seed, i, s)
            reset = getattr(self.bots[s], "reset", None)
            if callable(reset):
                reset(seed)
            else:
                self.bots[s] = make_bot(name, self.rules, seed, **json.loads(settings))
        return self.bots


def _placement(move: Any) -> np.ndarray:
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

    def arrays(self) -> dict[str, np.ndarray]:
        c = self.cols
        n = len(c["seat"])

        def stack(key: str, dtype: Any, width: int) -> np.ndarray:
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
    spec: RunSpec, i: int, bots: Sequence[Any], decisions: _Decisions | None = None
) -> Game:
    """Play deal ``i`` of the run with ``bots`` already seeded for it."""
    g = Game(
        spec.rules,
        spec.players,
        seed=deal_seed(spec.seed, i),
        button=(spec.button + i) % spec.players,
    )
    first = len(decisions.cols["seat"]) if decisions is not None else 0
    step = 0
    while not g.is_over:
        s = g.to_act
        assert s is not None
        obs = g.observation(s)
        move = bots[s].act(obs)
        if decisions is not None:
            decisions.add(i, step, obs, move)
        g.play(move)
        step += 1
    if decisions is not None:
        decisions.finish(first, g.result().net)
    return g


def outcome(i: int, g: Game) -> DealOutcome:
    r = g.result()
    return DealOutcome(
        deal=i,
        seed=g.seed or 0,
        button=g.button,
        net=list(r.net),
        fouls=list(r.fouls),
        royalties=[sum(x) for x in r.royalties],
        fantasyland=list(r.fantasyland),
        surrendered=list(r.surrendered),
        declared=sorted(r.declared),
        decisions=g.decisions,
    )


def run_chunk(task: ChunkTask) -> ChunkResult:
    """Play a chunk (what every executor runs, in whatever process)."""
    spec = task.spec
    seats = Seats(spec)
    decisions = _Decisions() if task.selfplay else None
    names = [n for n, _ in spec.bots]
    out = ChunkResult(task.start, task.stop, [], pid=os.getpid())
    for i in range(task.start, task.stop):
        g = play_deal(spec, i, seats.for_deal(i), decisions)
        out.outcomes.append(outcome(i, g))
        if task.history:
            from ..arena.history import deal_record

            out.lines.append(json.dumps(deal_record(g, i, names), separators=(",", ":")))
    if decisions is not None:
        out.arrays = decisions.arrays()
    return out


def new_match(spec: RunSpec) -> Match:
    """An empty :class:`Match` to :func:`book` the deals of ``spec`` into."""
    return Match(
        spec.rules, spec.players, seed=spec.seed, button=spec.button, keep_nets=True
    )


def book(match: Match, outcome: DealOutcome) -> None:
    """Add one deal's outcome to ``match`` (totals and :class:`SeatStats`; the button
    moves one seat, no Fantasyland is carried: see the module's notes)."""
    for s in range(match.players):
        match.totals[s] += outcome["net"][s]
        match.stats[s].add(
            outcome["net"][s],
            outcome["fouls"][s],
            outcome["royalties"][s],
            False,
            bool(outcome["fantasyland"][s]),
            s in outcome["surrendered"],
            s in outcome["declared"],
            match.keep_nets,
        )
    match.hands_played += 1
    match.button = (match.button + 1) % match.players
