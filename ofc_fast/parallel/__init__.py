"""Parallel runs: matches, tournaments and self-play data on one core, a process pool
or a Ray cluster, with the same results on each.

* :mod:`.plan`: the split (units of a deal and the Fantasyland deals it earns, chunks,
  per-deal seeds), what a worker runs (:func:`run_chunk`) and how a deal is booked
  into a :class:`~ofc_fast.game.Match`;
* :mod:`.executors`: ``local``, ``process`` and ``ray`` (:func:`make_executor`);
* :mod:`.run`: :func:`play_parallel`, the results in deal order;
* :mod:`.selfplay`: self-play shards, their manifest, resuming;
* :mod:`.progress`: the progress bar (deals/s, ETA);
* :mod:`.chaos`: fault injection for the tests.

>>> from ofc_fast.parallel import RunSpec, play_parallel, make_executor
>>> spec = RunSpec.make("pineapple", 2, seed=1, hands=4, bots=[("random", {})])
>>> with make_executor(workers=1) as ex:
...     run = play_parallel(spec, ex, chunk_size=2)
>>> run.match.hands_played
4
"""

from __future__ import annotations

from .executors import (
    Executor,
    ExecutorError,
    LocalExecutor,
    ProcessExecutor,
    RayExecutor,
    make_executor,
)
from .plan import (
    DEFAULT_CHUNK,
    MAX_FL_CHAIN,
    ChunkResult,
    ChunkTask,
    DealOutcome,
    RunSpec,
    book,
    bot_seed,
    chain_seed,
    new_match,
    play_chain,
    play_deal,
    run_chunk,
)
from .run import ParallelRun, in_order, play_parallel

__all__ = [
    "DEFAULT_CHUNK",
    "MAX_FL_CHAIN",
    "ChunkResult",
    "ChunkTask",
    "DealOutcome",
    "Executor",
    "ExecutorError",
    "LocalExecutor",
    "ParallelRun",
    "ProcessExecutor",
    "RayExecutor",
    "RunSpec",
    "book",
    "bot_seed",
    "chain_seed",
    "in_order",
    "make_executor",
    "new_match",
    "play_chain",
    "play_deal",
    "play_parallel",
    "run_chunk",
]
