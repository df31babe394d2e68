"""Parallel runs: matches, tournaments and self-play data on one core, a process pool
or a Ray cluster, with the same results on each.

* ``._plan``: the split (units of a deal and the Fantasyland deals it earns, chunks,
  per-deal seeds), what a worker runs (:func:`run_chunk`) and how a deal is booked
  into a :class:`~ofc_fast.game.Match`;
* ``._executors``: ``local``, ``process`` and ``ray`` (:func:`make_executor`);
* ``._counts``: the count checks and :func:`cpu_count` (no multiprocessing);
* ``._run``: :func:`play_parallel`, the results in deal order;
* :mod:`.selfplay`: self-play shards, their manifest, resuming;
* ``._progress``: the progress bar (deals/s, ETA);
* ``._chaos``: fault injection for the tests.

The names are imported when first asked for (:mod:`ofc_fast.lazy`): ``ofc-fast``
builds its parsers from :mod:`ofc_fast.parallel.cli` without the executors
(multiprocessing, concurrent.futures) nor the arena host.

>>> from ofc_fast.parallel import RunSpec, play_parallel, make_executor
>>> spec = RunSpec.make("pineapple", 2, seed=1, hands=4, bots=[("random", {})])
>>> with make_executor(workers=1) as ex:
...     run = play_parallel(spec, ex, chunk_size=2)
>>> run.match.hands_played
4
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from ..lazy import lazy_exports

__all__ = [
    "DEFAULT_CHUNK",
    "MAX_FL_CHAIN",
    "Executor",
    "ExecutorError",
    "LocalExecutor",
    "ParallelRun",
    "ProcessExecutor",
    "RayExecutor",
    "RunSpec",
    "bot_seed",
    "chain_seed",
    "make_executor",
    "play_parallel",
]

if TYPE_CHECKING:
    from ._counts import cpu_count as cpu_count  # for serve
    from ._counts import worker_count as worker_count  # for serve
    from ._executors import (
        Executor,
        ExecutorError,
        LocalExecutor,
        ProcessExecutor,
        RayExecutor,
        make_executor,
    )
    from ._executors import executor_or_local as executor_or_local  # learned.train
    from ._lock import exclusive as exclusive  # for learned.train
    from ._plan import (
        DEFAULT_CHUNK,
        MAX_FL_CHAIN,
        RunSpec,
        bot_seed,
        chain_seed,
    )
    from ._plan import ChunkResult as ChunkResult
    from ._plan import ChunkTask as ChunkTask
    from ._plan import DealOutcome as DealOutcome
    from ._plan import book as book
    from ._plan import finish_naming as finish_naming  # for cli play
    from ._plan import new_match as new_match
    from ._plan import play_chain as play_chain
    from ._plan import play_deal as play_deal
    from ._plan import run_chunk as run_chunk
    from ._progress import Progress as Progress  # for learned.train
    from ._run import ParallelRun, play_parallel
    from ._run import in_order as in_order
else:  # (mypy reads the names above: one it lacks stays an error)
    __getattr__, __dir__ = lazy_exports(
        globals(),
        {
            "._executors": (
                "Executor",
                "ExecutorError",
                "LocalExecutor",
                "ProcessExecutor",
                "RayExecutor",
                "executor_or_local",
                "make_executor",
            ),
            "._lock": ("exclusive",),
            "._plan": (
                "DEFAULT_CHUNK",
                "MAX_FL_CHAIN",
                "ChunkResult",
                "ChunkTask",
                "DealOutcome",
                "RunSpec",
                "book",
                "bot_seed",
                "chain_seed",
                "finish_naming",
                "new_match",
                "play_chain",
                "play_deal",
                "run_chunk",
            ),
            "._progress": ("Progress",),
            "._run": ("ParallelRun", "in_order", "play_parallel"),
            "._counts": ("cpu_count", "worker_count"),
        },
    )
