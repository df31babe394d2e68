"""Arena matches (and duplicate tournaments) of built-in bots on an executor.

The schedule is that of :class:`~ofc_fast.arena.Arena`: hand ``h`` plays deck ``h``
(non-duplicate) or, with ``duplicate``, deck ``d`` is played once per seat rotation
``r`` (hand ``d * players + r``).  In a parallel run every hand is **independent**:
button at seat 0, bot ``b`` at seat ``(b + r) % players`` with ``r`` the rotation
(duplicate) or ``h % players`` (non-duplicate), no Fantasyland carried in and bot ``b``
seeded ``bot_seed(seed, h, b)`` (:func:`ofc_fast.parallel._plan.bot_seed`).  The
bots act on ``observation`` directly in the worker (no wire round trip), timed there;
a bot that raises is a ``crash`` fault, an illegal move an ``illegal`` one (the filler
placement is played for it), and a built-in bot's time is never a fault, as in the
sequential arena.  The driver books the hands in deal order through the arena's fault
policy (:meth:`~ofc_fast.arena.Arena.record_played`): with ``forfeit`` the match ends
at the first fault; with ``substitute`` a crash ends the bot for the rest of the
match, so the chunks after it, played meanwhile with the bot still in, are played
again with its decisions filled in.
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
import time
from collections.abc import Callable
from dataclasses import dataclass, replace
from typing import Any, cast

from ..arena import sigint_deferred
from ..errors import ArenaError, BotError, MoveError
from ..game import Game, Move, deal_seed
from ._executors import Executor, executor_or_local
from ._plan import DEFAULT_CHUNK, ChunkResult, RunSpec, Seats, bot_seed, outcome
from ._run import in_order

__all__ = ["run_arena"]


@dataclass(frozen=True)
class ArenaTask:
    """Hands ``start`` to ``stop - 1`` of an arena schedule."""

    spec: RunSpec  #: bots per bot index (not per seat), hands = schedule length
    names: tuple[str, ...]
    duplicate: bool
    start: int
    stop: int
    forfeit: bool = False  #: the fault policy ``forfeit``: stop at the first fault
    dead: tuple[int, ...] = ()  #: bots that crashed before ``start`` (filled in)


def _hand(task: ArenaTask, h: int) -> tuple[int, int, list[int]]:
    """(deck, rotation, bot per seat) of hand ``h``."""
    n = task.spec.players
    deck, r = divmod(h, n) if task.duplicate else (h, h % n)
    return deck, r, [(s - r) % n for s in range(n)]


def _decide(bot: Any, g: Game, dead: bool) -> tuple[str | None, float | None]:
    """Play a built-in bot's decision in ``g`` as the sequential arena takes it: the
    filler placement when the bot is ``dead`` (crashed before), raises (a ``crash``) or
    plays an illegal move; never faulted for its time.  Returns the decision's fault
    (``substituted``: filled in for a dead bot) and its time in ms."""
    from ..arena import FaultKind, bot_crashed, filler_move

    s = g.to_act
    assert s is not None
    fault: str | None = "substituted"
    ms = None
    if not dead:
        t0 = time.perf_counter()
        try:
            move = bot.act(g.observation(s))
            if not isinstance(move, Move):  # (as the arena's in-process client)
                raise BotError(f"the bot's act returned {type(move).__name__}")
        except BaseException as exc:  # (SystemExit too: the bot's, never the run's)
            if not bot_crashed(exc):
                raise
            fault = FaultKind.CRASH
        ms = round((time.perf_counter() - t0) * 1000, 3)
        if fault != FaultKind.CRASH:
            try:
                g.play(move)
                return None, ms
            except MoveError:
                fault = FaultKind.ILLEGAL
    g.play(filler_move(g.dealt, len(g.dealt) - g.to_discard, g.boards[s].rows))
    return fault, ms


def _reset_of(bot: Any, name: str) -> Callable[[int], object]:
    """The ``reset(seed)`` of a bot of a parallel arena (re-seeded per hand); an
    ArenaError naming its ``--bot`` spec when it has none."""
    reset = getattr(bot, "reset", None)
    if not callable(reset):
        raise ArenaError(
            f"--bot: bot {name!r} has no reset(seed): a parallel "
            f"arena re-seeds every bot per hand"
        )
    return cast("Callable[[int], object]", reset)


def run_arena_chunk(task: ArenaTask) -> ChunkResult:
    """Play hands of an arena schedule (what the workers run)."""
    from ..arena import FaultKind
    from ..arena.history import deal_record

    spec = task.spec
    seats = Seats(spec)
    out = ChunkResult(task.start, task.stop, [])
    dead = set(task.dead)
    for h in range(task.start, task.stop):
        deck, r, seating = _hand(task, h)
        for b, bot in enumerate(seats.bots):
            _reset_of(bot, spec.bots[b][0])(bot_seed(spec.seed, h, b))
        g = Game(spec.rules, spec.players, seed=deal_seed(spec.seed, deck), button=0)
        decisions: list[dict[str, Any]] = []
        while not g.is_over:
            s = g.to_act
            assert s is not None
            b = seating[s]
            fault, ms = _decide(seats.bots[b], g, b in dead)
            if fault == FaultKind.CRASH:
                dead.add(b)
            decisions.append({"seat": s, "ms": ms, "fault": fault})
        out.outcomes.append(outcome(h, g))
        out.lines.append(
            json.dumps(
                deal_record(
                    g,
                    h,
                    [task.names[b] for b in seating],
                    deck_no=deck,
                    rotation=r if task.duplicate else 0,
                    decisions=decisions,
                ),
                separators=(",", ":"),
            )
        )
        if task.forfeit and any(d["fault"] in FaultKind.ALL for d in decisions):
            break  # the match ends in this hand: the driver books none after it
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
    ``on_progress`` as :meth:`~ofc_fast.arena.Arena.run` calls it); ``on_hand`` too,
    with the same :class:`~ofc_fast.arena.DealRecord`, in order.

    >>> from ofc_fast.arena import Arena, parse_bot_spec
    >>> from ofc_fast.parallel import LocalExecutor
    >>> arena = Arena("pineapple", [parse_bot_spec("random")] * 2, hands=4, seed=2)
    >>> seen = []
    >>> report = run_arena(arena, LocalExecutor(), chunk_size=2, on_hand=seen.append)
    >>> report["hands"], [deal.hand_no for deal in seen]
    (4, [0, 1, 2, 3])
    """
    from ..arena import BotRecord, DealRecord
    from ..arena.report import match_report, progress_line

    ex = executor_or_local(executor)  # (before the arena is claimed)
    arena.claim()  # (a second match of one Arena: its records would be mixed)
    external = [s.label for s in arena.specs if s.kind != "builtin"]
    if external:
        raise ArenaError(
            f"--workers/--ray run built-in bots only; {', '.join(external)} "
            f"must stay on this machine: run without --workers/--ray"
        )
    n = arena.players
    total = arena.hands * (n if arena.duplicate else 1)
    try:  # (the bots are made here: an unknown name said nothing of --bot)
        spec = RunSpec.make(
            arena.rules, n, arena.seed, total, [(s.target, {}) for s in arena.specs]
        )
    except BotError as exc:
        raise ArenaError(f"--bot: {exc}") from None
    for bot, (name, _) in zip(Seats(spec).bots, spec.bots):  # not in a worker
        _reset_of(bot, name)
    forfeit = arena.fault_policy == "forfeit"
    tasks = [
        ArenaTask(spec, tuple(arena.names), arena.duplicate, c.start, c.stop, forfeit)
        for c in spec.chunks(chunk_size)
    ]
    # the workers hold the bots: no endpoint on this side
    arena.records = [
        BotRecord(name, s, None)  # type: ignore[arg-type]
        for name, s in zip(arena.names, arena.specs)
    ]
    while tasks:  # once more (the chunks left) each time a bot crashed
        dead = tasks[0].dead
        chunks = ex.map_unordered(run_arena_chunk, tasks)
        try:
            for k, res in enumerate(in_order(chunks)):
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
                        if not arena.record_played(deal):  # (calls its on_deal)
                            return match_report(arena)  # forfeited
                        if on_hand is not None:
                            on_hand(deal)
                        if arena.on_progress is not None and (
                            arena.hands_done % arena.progress_every == 0
                            or arena.hands_done == total
                        ):  # as Arena.run: every progress_every hands, after the last
                            arena.on_progress(progress_line(arena, total))
                now = tuple(b for b, r in enumerate(arena.records) if r.dead)
                if now != dead:  # the later chunks were played with the bot alive
                    tasks = [replace(t, dead=now) for t in tasks[k + 1 :]]
                    break
            else:
                tasks = []
        finally:  # (Ctrl-C while a hand was booked, a forfeit: the workers stop now)
            close = getattr(chunks, "close", None)  # (a generator's; an iterator: none)
            if close is not None:
                close()
    return match_report(arena)
