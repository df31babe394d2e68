"""Arena matches (and duplicate tournaments) of built-in bots on an executor.

The schedule is that of :class:`~ofc_fast.arena.Arena`: hand ``h`` plays deck ``h``
(non-duplicate) or, with ``duplicate``, deck ``d`` is played once per seat rotation
``r`` (hand ``d * players + r``).  In a parallel run every hand is **independent**:
button at seat 0, bot ``b`` at seat ``(b + r) % players`` with ``r`` the rotation
(duplicate) or ``h % players`` (non-duplicate), no Fantasyland carried in and bot ``b``
seeded ``bot_seed(seed, h, b)`` (:func:`ofc_fast.parallel._plan.bot_seed`).  The
bots act on ``observation`` directly in the worker (no wire round trip), so the report
has no decision times and no faults: a bot that raises (or plays an illegal move)
stops the match with an :class:`~ofc_fast.errors.ArenaError` naming it and the hand.
The sequential arena's fault policy cannot be followed chunk by chunk: a crash there
ends the bot for the rest of the match (every later decision filled in) or, with
``forfeit``, the match itself, and the chunks after it are played at the same time.
Results are the same on every executor; they differ from a sequential
``Arena.run()``, which carries Fantasyland and moves seats only between hands without
Fantasyland.

External bots (``cmd:``, ``tcp:``) cannot be split this way: a subprocess or a TCP
connection belongs to the process that opened it, and an external program may keep
state from hand to hand that a split would break.  They stay on the driver (run the
arena without ``--workers``/``--ray``).

>>> from ofc_fast.arena import Arena, parse_bot_spec
>>> arena = Arena("ofc-pineapple", [parse_bot_spec("random"), parse_bot_spec("random")],
...               hands=3, seed=5, duplicate=True)
>>> report = run_arena(arena)
>>> report["hands"], report["duplicate"]["decks"]
(6, 3)
"""

from __future__ import annotations

import json
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from ..errors import ArenaError
from ..game import Game, deal_seed
from ._executors import Executor, LocalExecutor
from ._plan import DEFAULT_CHUNK, ChunkResult, RunSpec, Seats, bot_seed, outcome
from ._run import in_order
from ._signals import sigint_deferred

__all__ = ["run_arena"]


@dataclass(frozen=True)
class ArenaTask:
    """Hands ``start`` to ``stop - 1`` of an arena schedule."""

    spec: RunSpec  #: bots per bot index (not per seat), hands = schedule length
    names: tuple[str, ...]
    duplicate: bool
    start: int
    stop: int


def _hand(task: ArenaTask, h: int) -> tuple[int, int, list[int]]:
    """(deck, rotation, bot per seat) of hand ``h``."""
    n = task.spec.players
    deck, r = divmod(h, n) if task.duplicate else (h, h % n)
    return deck, r, [(s - r) % n for s in range(n)]


def run_arena_chunk(task: ArenaTask) -> ChunkResult:
    """Play hands of an arena schedule (what the workers run)."""
    from ..arena.history import deal_record

    spec = task.spec
    seats = Seats(spec)
    out = ChunkResult(task.start, task.stop, [])
    for h in range(task.start, task.stop):
        deck, r, seating = _hand(task, h)
        for b, bot in enumerate(seats.bots):
            reset = getattr(bot, "reset", None)
            if not callable(reset):
                raise ArenaError(
                    f"bot {spec.bots[b][0]!r} has no reset(seed): a parallel "
                    f"arena re-seeds every bot per hand"
                )
            reset(bot_seed(spec.seed, h, b))
        g = Game(spec.rules, spec.players, seed=deal_seed(spec.seed, deck), button=0)
        order: list[int] = []
        while not g.is_over:
            s = g.to_act
            assert s is not None
            order.append(s)
            try:
                g.play(seats.bots[seating[s]].act(g.observation(s)))
            except Exception as exc:  # (not a fault here: see the module doc)
                raise ArenaError(
                    f"bot {task.names[seating[s]]!r} failed in hand {h}: {exc!r}; a "
                    f"parallel arena counts no faults: run without --workers/--ray "
                    f"to count it as one"
                ) from None
        out.outcomes.append(outcome(h, g))
        out.lines.append(
            json.dumps(
                deal_record(
                    g,
                    h,
                    [task.names[b] for b in seating],
                    deck_no=deck,
                    rotation=r if task.duplicate else 0,
                    decisions=[{"seat": m, "ms": None, "fault": None} for m in order],
                ),
                separators=(",", ":"),
            )
        )
    return out


def run_arena(
    arena: Any,
    executor: Executor | None = None,
    *,
    chunk_size: int = DEFAULT_CHUNK,
    on_hand: Callable[[Any], None] | None = None,
) -> dict[str, Any]:
    """Play an :class:`~ofc_fast.arena.Arena` of built-in bots on ``executor`` and return
    its report (the arena's ``on_deal`` is called per hand, in order, and its
    ``on_progress`` as :meth:`~ofc_fast.arena.Arena.run` calls it)."""
    from ..arena import BotRecord, DealRecord
    from ..arena.report import match_report, progress_line

    external = [s.label for s in arena.specs if s.kind != "builtin"]
    if external:
        raise ArenaError(
            f"--workers/--ray run built-in bots only; {', '.join(external)} "
            f"must stay on this machine: run without --workers/--ray"
        )
    n = arena.players
    total = arena.hands * (n if arena.duplicate else 1)
    spec = RunSpec.make(
        arena.rules, n, arena.seed, total, [(s.target, {}) for s in arena.specs]
    )
    tasks = [
        ArenaTask(spec, tuple(arena.names), arena.duplicate, c.start, c.stop)
        for c in spec.chunks(chunk_size)
    ]
    # the workers hold the bots: no endpoint on this side
    arena.records = [
        BotRecord(name, s, None)  # type: ignore[arg-type]
        for name, s in zip(arena.names, arena.specs)
    ]
    ex = executor or LocalExecutor()
    chunks = ex.map_unordered(run_arena_chunk, tasks)
    try:
        for res in in_order(chunks):
            for line in res.lines:
                rec = json.loads(line)
                deal = DealRecord(
                    rec["hand_no"],
                    rec["deck_no"],
                    rec["rotation"],
                    list(rec["seats"]),
                    Game.replay(rec["history"]),
                    list(rec["decisions"]),
                )
                with sigint_deferred():  # a hand is booked whole, or not at all
                    arena.record(deal)  # books it and calls the arena's on_deal
                    if on_hand is not None:
                        on_hand(deal)
                    if arena.on_progress is not None and (
                        arena.hands_done % arena.progress_every == 0
                        or arena.hands_done == total
                    ):  # as Arena.run: every progress_every hands, and after the last
                        arena.on_progress(progress_line(arena, total))
    finally:  # (Ctrl-C while a hand was booked: the workers stop now)
        close = getattr(chunks, "close", None)  # (a generator's; an iterator has none)
        if close is not None:
            close()
    return match_report(arena)
