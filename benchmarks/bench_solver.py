#!/usr/bin/env python3
"""Benchmark of the exact solvers: medians and worst cases over random hands.

Lines (10,000 random hands each by default, the same hands for every run of a seed):

* ``arranger ev``         -- ``best_setting(13 cards, CLASSIC_1_6, "ev")``
* ``arranger royalties``  -- ``best_setting(13 cards, OFC, "royalties")``
* ``fantasyland 14``      -- ``solve_fantasyland(14 cards, PINEAPPLE)``
* ``fantasyland 15/16``   -- PROGRESSIVE_PINEAPPLE
* ``fantasyland 17``      -- ``solve_fantasyland(17 cards, PROGRESSIVE_PINEAPPLE)``
* ``... +alternatives``   -- the same with ``alternatives=True`` (14 and 17 cards)

For each hand the C entry point is called directly through cffi (compiled rules and
tables built once) and timed twice: thread CPU time (what the search costs, immune
to other processes on a shared machine) and wall clock.  The whole Python call
(card parsing, the C call, building the Solution and its Board) is timed separately
on the same hands.  Reported: median, 99th percentile and maximum of the CPU time,
the worst case re-timed (the 20 slowest hands solved 5 more times, each keeping its
fastest time: in a virtual machine the CPU clock also runs while the host serves
others), the median wall time of the C call, and the median of the Python call, in
milliseconds; then the targets (docs/design.md, medians: 14 cards <= 1 ms, 17 cards
<= 50 ms, 13-card arranger <= 1 ms) with PASS / FAIL.

Usage::

    python benchmarks/bench_solver.py                # 10,000 hands a line
    python benchmarks/bench_solver.py --hands 1000   # quicker
    python benchmarks/bench_solver.py --json out.json
"""

from __future__ import annotations

import json
import sys
import time

import numpy as np

from ofc_fast import rules as R  # the installed package (pip install . or -e .)
from ofc_fast._native import ffi, lib
from ofc_fast.cli.options import write_whole
from ofc_fast.rules.compiled import compiled, compiled_fl
from ofc_fast.solver import best_setting, ev_tables, solve_fantasyland, stay_values
from ofc_fast.table import SEED_MAX
from ofc_fast.timing import ScriptHelp, ScriptParser, at_least, output_path

TARGETS = {
    "arranger ev": 1.0,
    "arranger royalties": 1.0,
    "fantasyland 14": 1.0,
    "fantasyland 17": 50.0,
}


def hands(n_cards: int, count: int, seed: int) -> list[bytes]:
    rng = np.random.Generator(np.random.PCG64([seed, n_cards]))
    return [bytes(rng.permutation(52)[:n_cards].astype(np.uint8)) for _ in range(count)]


def time_c(call, deals: list[bytes]) -> tuple[np.ndarray, np.ndarray, float]:
    """CPU and wall times of every hand, and the worst case re-timed: the 20 slowest
    hands are solved 5 more times each and keep their fastest time (a virtual
    machine's CPU clock also counts time the host gave to others)."""
    cpu = np.empty(len(deals))
    wall = np.empty(len(deals))

    def one(cards: bytes) -> tuple[float, float]:
        w0 = time.perf_counter_ns()
        c0 = time.thread_time_ns()
        status = call(cards)
        c1 = time.thread_time_ns()
        w1 = time.perf_counter_ns()
        assert status == 0, status
        return (c1 - c0) / 1e6, (w1 - w0) / 1e6

    for i, cards in enumerate(deals):
        cpu[i], wall[i] = one(cards)
    slowest = np.argsort(cpu)[-20:]
    worst = max(min(one(deals[i])[0] for _ in range(5)) for i in slowest)
    return cpu, wall, worst


def time_py(call, deals: list[bytes]) -> np.ndarray:
    out = np.empty(len(deals))
    for i, cards in enumerate(deals):
        ids = list(cards)
        t0 = time.perf_counter_ns()
        call(ids)
        out[i] = (time.perf_counter_ns() - t0) / 1e6
    return out


def lines(count: int, seed: int) -> list[dict]:
    rows = []
    setting = ffi.new("ofc_setting *")
    sol = ffi.new("ofc_fl_solution *")

    def arranger(name: str, rules: R.RuleSet, objective: str) -> None:
        cr, ev = compiled(rules), ev_tables(rules)
        code = lib.OFC_OBJECTIVE_EV if objective == "ev" else lib.OFC_OBJECTIVE_ROYALTIES
        deals = hands(13, count, seed)
        cpu, wall, worst = time_c(
            lambda c: lib.ofc_best_setting(cr, ev, c, code, setting), deals
        )
        py = time_py(lambda c: best_setting(c, rules, objective), deals)
        rows.append(summary(name, cpu, wall, worst, py))

    def fantasyland(name: str, rules: R.RuleSet, n: int, alternatives: bool) -> None:
        cr, cfl, ev = compiled(rules), compiled_fl(rules), ev_tables(rules)
        sv = ffi.new("double[5]", list(stay_values(rules)))
        flags = lib.OFC_SOLVE_ALTERNATIVES if alternatives else 0
        deals = hands(n, count, seed)
        cpu, wall, worst = time_c(
            lambda c: lib.ofc_solve_fantasyland(cr, cfl, ev, c, n, sv, flags, sol), deals
        )
        py = time_py(
            lambda c: solve_fantasyland(c, rules, alternatives=alternatives), deals
        )
        rows.append(summary(name, cpu, wall, worst, py))

    arranger("arranger ev", R.CLASSIC_1_6, "ev")
    arranger("arranger royalties", R.OFC, "royalties")
    fantasyland("fantasyland 14", R.PINEAPPLE, 14, False)
    fantasyland("fantasyland 15", R.PROGRESSIVE_PINEAPPLE, 15, False)
    fantasyland("fantasyland 16", R.PROGRESSIVE_PINEAPPLE, 16, False)
    fantasyland("fantasyland 17", R.PROGRESSIVE_PINEAPPLE, 17, False)
    fantasyland("fantasyland 14 +alternatives", R.PINEAPPLE, 14, True)
    fantasyland("fantasyland 17 +alternatives", R.PROGRESSIVE_PINEAPPLE, 17, True)
    return rows


def summary(
    name: str, cpu: np.ndarray, wall: np.ndarray, worst: float, py: np.ndarray
) -> dict:
    return {
        "line": name,
        "hands": len(cpu),
        "median_ms": float(np.median(cpu)),
        "p99_ms": float(np.percentile(cpu, 99)),
        "max_ms": float(cpu.max()),
        "worst_retimed_ms": worst,
        "median_wall_ms": float(np.median(wall)),
        "median_python_ms": float(np.median(py)),
    }


def render(rows: list[dict]) -> str:
    out = [
        "| line | hands | median | p99 | worst | worst (re-timed) | median (wall) "
        "| median (Python call) |",
        "|---|---|---|---|---|---|---|---|",
    ]
    for r in rows:
        out.append(
            f"| {r['line']} | {r['hands']:,} | {r['median_ms']:.3f} | "
            f"{r['p99_ms']:.3f} | {r['max_ms']:.3f} | {r['worst_retimed_ms']:.3f} | "
            f"{r['median_wall_ms']:.3f} | {r['median_python_ms']:.3f} |"
        )
    out.append("")
    out.append(
        "milliseconds; median / p99 / worst: thread CPU time of the C call; worst "
        "(re-timed): the 20 slowest hands solved 5 more times, fastest of each"
    )
    for r in rows:
        target = TARGETS.get(r["line"])
        if target is not None:
            ok = r["median_ms"] <= target and r["median_python_ms"] <= target
            out.append(
                f"target {r['line']}: median <= {target:g} ms -- "
                f"{'PASS' if ok else 'FAIL'} (C {r['median_ms']:.3f} ms, "
                f"Python call {r['median_python_ms']:.3f} ms)"
            )
    return "\n".join(out)


def main(argv: list[str] | None = None) -> int:
    p = ScriptParser(formatter_class=ScriptHelp, description=__doc__.split("\n\n")[0])
    p.add_argument(
        "--hands", type=at_least(1), default=10_000, help="random hands per line"
    )
    p.add_argument(
        "--seed",
        type=at_least(0, SEED_MAX),
        default=20240611,
        help="seed of the random hands",
    )
    p.add_argument("--json", type=output_path, help="also write the rows as JSON")
    args = p.parse_args(argv)
    rows = lines(args.hands, args.seed)
    print(render(rows))
    if args.json:
        write_whole("--json", args.json, json.dumps(rows, indent=1))
    failed = any(r["median_ms"] > TARGETS[r["line"]] for r in rows if r["line"] in TARGETS)
    return 1 if failed else 0


if __name__ == "__main__":
    from ofc_fast.cli import run_command  # (an error, a reader gone: one line)

    sys.exit(run_command(main, "bench_solver.py"))
