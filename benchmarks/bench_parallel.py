"""Parallel runs: speed-up of the process pool over one process, and Ray's overhead.

    python benchmarks/bench_parallel.py                # 2,000 deals, 3 repetitions
    python benchmarks/bench_parallel.py --deals 200 --reps 1 --no-ray   # a smoke test
    python benchmarks/bench_parallel.py --json out.json

Rows (medians over ``--reps``, min and max shown):

* ``local``: a ``--deals``-deal HeuristicBot match (PINEAPPLE, 2 seats, default
  settings) through :func:`ofc_fast.parallel.play_parallel` in this process;
* ``process x2``: the same run on a 2-worker process pool, pool start-up included
  (a fresh pool every repetition); its speed-up over ``local`` (target >= 1.7x on 2
  cores);
* ``ray x2``: the same run on a local Ray cluster (``ray.init(num_cpus=2)``, start-up
  excluded), when Ray is installed;
* ``process x2, warm pool``: the same on a pool already started (a long run's view);
* overhead per chunk: ``--empty`` chunks of zero deals through each executor (the cost
  of shipping a task and its result; the pool's start-up excluded).

The first line is the machine's own ceiling: two processes of pure Python
arithmetic against one, in the same pool (2.0x on two idle cores).  Every parallel run
is checked against the local one (identical per-deal results) and
the load average is printed: on a shared machine, other work slows both sides.
"""

from __future__ import annotations

import json
import os
import statistics
import sys
import time
from collections.abc import Callable
from typing import Any

from ofc_fast.cli.options import write_whole
from ofc_fast.parallel import (
    ChunkTask,
    LocalExecutor,
    ProcessExecutor,
    RunSpec,
    play_parallel,
    run_chunk,
)
from ofc_fast.timing import ScriptHelp, ScriptParser, at_least, output_path


def _timed(fn: Callable[[], Any]) -> tuple[float, Any]:
    t0 = time.perf_counter()
    out = fn()
    return time.perf_counter() - t0, out


def _row(name: str, times: list[float], extra: str = "") -> dict[str, Any]:
    med = statistics.median(times)
    print(
        f"{name:<26} median {med:8.3f} s  (min {min(times):.3f}, max {max(times):.3f})"
        f"{extra}",
        flush=True,
    )
    return {"name": name, "median_s": med, "min_s": min(times), "max_s": max(times)}


def _burn(n: int) -> int:
    """Pure Python work: the machine's own ceiling for two processes."""
    total = 0
    for i in range(n):
        total += i * i
    return total


def _calibrate(n: int = 5_000_000) -> float:
    """Speed-up of two processes over one on ``_burn`` (2.0 on two idle cores; less
    when other work holds the CPUs)."""
    t1, _ = _timed(lambda: [_burn(n), _burn(n)])
    with ProcessExecutor(2) as ex:
        list(ex.map_unordered(_burn, [1, 1]))
        t2, _ = _timed(lambda: list(ex.map_unordered(_burn, [n, n])))
    return t1 / t2


def _warm_rows(
    label: str,
    short: str,
    ex: Any,
    spec: RunSpec,
    args: Any,
    ref: Any,
    local_t: list[float],
    rows: list[dict[str, Any]],
) -> None:
    """Time the run on executor ``ex`` with its workers started (checked against the
    local result), then the overhead of ``--empty`` empty chunks."""
    empty = [ChunkTask(spec, 0, 0) for _ in range(args.empty)]
    list(ex.map_unordered(run_chunk, empty[:4]))  # start the workers
    times = []
    for _ in range(args.reps):
        t, run = _timed(lambda: play_parallel(spec, ex, chunk_size=args.chunk))
        assert run.outcomes == ref, f"{short} disagrees with the local run"
        times.append(t)
    sp = statistics.median(local_t) / statistics.median(times)
    rows.append(_row(label, times, f"  speed-up {sp:.2f}x"))
    t, _ = _timed(lambda: list(ex.map_unordered(run_chunk, empty)))
    print(f"{short + ' overhead/chunk':<26} {1e3 * t / args.empty:8.3f} ms", flush=True)
    rows.append({"name": f"{short} overhead per chunk", "ms": 1e3 * t / args.empty})


def main() -> int:
    ap = ScriptParser(formatter_class=ScriptHelp, description=__doc__.split("\n\n")[0])
    ap.add_argument("--deals", type=at_least(1), default=2000, help="deals per run")
    ap.add_argument("--chunk", type=at_least(1), default=50, help="deals per chunk")
    ap.add_argument(
        "--reps", type=at_least(1), default=3, help="repetitions (median reported)"
    )
    ap.add_argument(
        "--empty", type=at_least(1), default=200, help="empty chunks for the overhead"
    )
    ap.add_argument("--no-ray", action="store_true", help="skip the Ray rows")
    ap.add_argument(
        "--json", type=output_path, metavar="PATH", help="write the figures as JSON"
    )
    args = ap.parse_args()
    spec = RunSpec.make(  # independent deals: the README's figures (one deal per unit)
        "pineapple",
        2,
        seed=2026,
        hands=args.deals,
        bots=[("heuristic", {})],
        fantasyland=False,
    )
    print(
        f"{args.deals} deals, HeuristicBot x2, PINEAPPLE, chunks of {args.chunk}; "
        f"{os.cpu_count()} CPUs; load average before {os.getloadavg()}",
        flush=True,
    )
    ceiling = _calibrate()
    print(
        f"machine ceiling: two processes of pure Python run {ceiling:.2f}x one", flush=True
    )
    rows: list[dict[str, Any]] = [{"name": "ceiling", "speedup": ceiling}]
    local_t, ref = [], None
    for _ in range(args.reps):
        t, run = _timed(lambda: play_parallel(spec, LocalExecutor(), chunk_size=args.chunk))
        local_t.append(t)
        ref = run.outcomes
    rows.append(_row("local", local_t))
    proc_t = []
    for _ in range(args.reps):

        def in_pool() -> Any:
            with ProcessExecutor(2) as ex:
                return play_parallel(spec, ex, chunk_size=args.chunk)

        t, run = _timed(in_pool)
        assert run.outcomes == ref, "the process pool disagrees with the local run"
        proc_t.append(t)
    speedup = statistics.median(local_t) / statistics.median(proc_t)
    rows.append(_row("process x2", proc_t, f"  speed-up {speedup:.2f}x"))
    with ProcessExecutor(2) as ex:
        _warm_rows("process x2, warm pool", "process", ex, spec, args, ref, local_t, rows)
    if not args.no_ray:
        try:
            import ray
        except ImportError:
            print("NOTE: Ray not installed (pip install '.[ray]'): no Ray rows")
        else:
            from ofc_fast.parallel import RayExecutor

            ray.init(num_cpus=2, include_dashboard=False, log_to_driver=False)
            try:
                _warm_rows("ray x2", "ray", RayExecutor(), spec, args, ref, local_t, rows)
            finally:
                ray.shutdown()
    print(f"load average after {os.getloadavg()}")
    if args.json:
        doc = {
            "deals": args.deals,
            "chunk": args.chunk,
            "rows": rows,
            "speedup_process_2": speedup,
            "loadavg": os.getloadavg(),
        }
        write_whole("--json", args.json, json.dumps(doc, indent=1))
    return 0


if __name__ == "__main__":
    from ofc_fast.cli import run_command  # (an error, a reader gone: one line)

    sys.exit(run_command(main, "bench_parallel.py"))
