"""Run a match of independent deals on an executor and put it back together in order.

>>> from ofc_fast.parallel import RunSpec, play_parallel
>>> spec = RunSpec.make("pineapple", 2, seed=3, hands=8, bots=[("random", {})])
>>> run = play_parallel(spec, chunk_size=3)
>>> run.match.hands_played, sum(run.match.totals), len(run.outcomes)
(8, 0, 8)
"""

from __future__ import annotations

import json
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field

from ..game import Match
from ._executors import Executor, executor_or_local
from ._plan import (
    DEFAULT_CHUNK,
    ChunkResult,
    DealOutcome,
    RunSpec,
    book,
    new_match,
    run_chunk,
)

__all__ = ["ParallelRun", "in_order", "play_parallel"]


@dataclass
class ParallelRun:
    """A finished run: the :class:`Match` the deals were booked into (in deal order),
    every deal's outcome and, when asked for, its hand-history line.

    >>> spec = RunSpec.make("pineapple", players=2, seed=7, hands=4,
    ...                     bots=[("random", {}), ("random", {})])
    >>> run = play_parallel(spec, chunk_size=2)
    >>> len(run.outcomes), sum(s.total for s in run.match.stats)
    (4, 0)
    """

    spec: RunSpec
    match: Match
    outcomes: list[DealOutcome] = field(default_factory=list)
    lines: list[str] = field(default_factory=list)
    pids: set[int] = field(default_factory=set)


def in_order(results: Iterator[tuple[int, ChunkResult]]) -> Iterator[ChunkResult]:
    """Chunks in index order from chunks in any order (each index once)."""
    waiting: dict[int, ChunkResult] = {}
    nxt = 0
    for i, res in results:
        waiting[i] = res
        while nxt in waiting:
            yield waiting.pop(nxt)
            nxt += 1


def numbered(lines: list[str], first: int) -> list[str]:
    """Hand-history lines numbered ``first``, ``first + 1``, ... in their order
    (``hand_no`` and ``deck_no``, as ``play`` in one process numbers its deals): a
    worker writes a unit's Fantasyland deals under the unit's index, which a history
    reader refuses as a line written twice (``hand 14 again``); the driver, booking
    the deals in order, knows each one's place in the run.

    >>> numbered(['{"hand_no":3,"deck_no":3,"x":1}', '{"hand_no":3,"deck_no":3,"x":2}'], 7)
    ['{"hand_no":7,"deck_no":7,"x":1}', '{"hand_no":8,"deck_no":8,"x":2}']
    """
    out = []
    for n, line in enumerate(lines, first):
        record = json.loads(line)
        if record["hand_no"] != n:
            record["hand_no"] = record["deck_no"] = n
            line = json.dumps(record, separators=(",", ":"))
        out.append(line)
    return out


def play_parallel(
    spec: RunSpec,
    executor: Executor | None = None,
    *,
    chunk_size: int = DEFAULT_CHUNK,
    history: bool = False,
    on_chunk: Callable[[ChunkResult], None] | None = None,
    keep: bool = True,
) -> ParallelRun:
    """Play every deal of ``spec`` on ``executor`` (default: in this process), in
    chunks of ``chunk_size`` deals; ``history``: keep the hand-history lines;
    ``on_chunk(result)`` is called per chunk in deal order (progress, writing);
    ``keep=False``: the run keeps no outcome nor line, only its match, without the
    nets per deal (``on_chunk`` writes them as they come: a long run's memory does not
    grow with its deals).

    >>> spec = RunSpec.make("pineapple", players=2, seed=7, hands=4,
    ...                     bots=[("random", {}), ("random", {})])
    >>> run = play_parallel(spec, chunk_size=2)  # in this process
    >>> [s.deals for s in run.match.stats]
    [4, 4]
    """
    ex = executor_or_local(executor)
    tasks = [
        c.__class__(c.spec, c.start, c.stop, history=history)
        for c in spec.chunks(chunk_size)
    ]
    run = ParallelRun(spec, new_match(spec, keep_nets=keep))
    for res in in_order(ex.map_unordered(run_chunk, tasks)):
        first = run.match.hands_played  # (a unit's Fantasyland deals: after it)
        if res.lines and (first != res.start or any(o["fl_deal"] for o in res.outcomes)):
            res.lines = numbered(res.lines, first)
        for o in res.outcomes:
            book(run.match, o)
        if keep:
            run.outcomes.extend(res.outcomes)
            run.lines.extend(res.lines)
        run.pids.add(res.pid)
        if on_chunk is not None:
            on_chunk(res)
    return run
