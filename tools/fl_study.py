#!/usr/bin/env python3
"""Fantasyland study: how often the exact solver stays, what it scores, how fast.

For 14, 15, 16 and 17 Fantasyland cards under PINEAPPLE and PROGRESSIVE_PINEAPPLE,
deal DEALS random hands (default 100,000 per line), solve each with
``ofc_solve_fantasyland`` (the C entry point behind ``ofc_fast.solve_fantasyland``)
and report:

* stay %       -- the share of hands the solver keeps Fantasyland with, playing the
                  default stay value (ofc_fast.solver.STAY_VALUE_DEFAULT);
* stay % (roy) -- the same for a player who maximises royalties alone and stays when
                  that costs nothing (a setting with the most royalties stays);
* can stay %   -- the share of hands with at least one legal setting that stays;
* mean roy     -- mean royalties of the settings played (default stay value), with
                  its standard error, and mean roy (roy): the most royalties;
* foul-free %  -- the share of hands set without a foul (the solver fouls only when
                  no legal setting exists, which never happens under these rules);
* time         -- median, 99th percentile and largest time of one solve (the C call
                  of the default solve), in milliseconds of thread CPU time (a wall
                  clock on a shared machine counts other processes' time slices).

Every hand is solved twice: once plainly and once with the alternatives (best
setting that stays, best that does not, at stay value 0), which give the
royalties-only figures; the two must agree on the best value, so the study is also
a consistency check.  Deals
are the first n cards of numpy PCG64 permutations seeded from (SEED, rules, n,
chunk): the figures (not the timings) are the same for any number of workers.

``--stay-values`` adds OFC with 13 cards and prints the fixed point behind
STAY_VALUE_DEFAULT: V(k) = mean royalties of a k-card hand + P(stay) * V(next).

Usage::

    python tools/fl_study.py                 # 100,000 deals per line (minutes)
    python tools/fl_study.py --deals 2000    # a quick run
    python tools/fl_study.py --json out.json --workers 2
"""

from __future__ import annotations

import json
import math
import multiprocessing as mp
import sys
import time
from pathlib import Path

import numpy as np

ROOT = Path(__file__).resolve().parent.parent
SEED = 20240611
CHUNK = 2_000
CARDS = (14, 15, 16, 17)
RULES = ("PINEAPPLE", "PROGRESSIVE_PINEAPPLE")


def _setup():
    # the installed package (pip install . or -e .)
    from ofc_fast import rules as R
    from ofc_fast._native import ffi, lib
    from ofc_fast.rules.compiled import compiled, compiled_fl
    from ofc_fast.solver import ev_tables, stay_values

    return R, compiled, ffi, lib, compiled_fl, ev_tables, stay_values


def run_chunk(job: tuple[str, int, int, int, int]) -> dict:
    """Solve `count` deals of chunk `index` for (rules, n); sums and times."""
    rules_name, n, index, count, seed = job
    R, compiled, ffi, lib, compiled_fl, ev_tables, stay_values = _setup()
    rules = R.get(rules_name)
    cr, cfl, ev = compiled(rules), compiled_fl(rules), ev_tables(rules)
    sv = ffi.new("double[5]", list(stay_values(rules)))
    zero = ffi.new("double[5]", [0.0] * 5)
    stay_k = (
        int(rules.fantasyland.stay_cards)
        if isinstance(rules.fantasyland.stay_cards, int)
        else None
    )
    rng = np.random.Generator(
        np.random.PCG64([seed, RULES_INDEX.get(rules_name, 9), n, index])
    )
    out = ffi.new("ofc_fl_solution *")
    alt = ffi.new("ofc_fl_solution *")
    acc = {
        "deals": 0,
        "stay": 0,
        "stay0": 0,
        "can_stay": 0,
        "roy": 0.0,
        "roy2": 0.0,
        "roy0": 0.0,
        "foul": 0,
        "times": [],
        "mismatch": 0,
        "roy_by_stay": 0.0,
    }
    for _ in range(count):
        cards = bytes(rng.permutation(52)[:n].astype(np.uint8))
        t0 = time.thread_time_ns()
        status = lib.ofc_solve_fantasyland(cr, cfl, ev, cards, n, sv, 0, out)
        acc["times"].append((time.thread_time_ns() - t0) / 1e6)
        assert status == 0, status
        assert (
            lib.ofc_solve_fantasyland(
                cr, cfl, ev, cards, n, zero, lib.OFC_SOLVE_ALTERNATIVES, alt
            )
            == 0
        )
        b = out.best
        acc["deals"] += 1
        acc["stay"] += b.stays
        acc["roy"] += b.royalties
        acc["roy2"] += b.royalties**2
        acc["foul"] += b.foul
        # Royalties alone: stays when a setting with the most royalties stays.
        stay_roy = alt.best_stay.royalties if alt.best_stay.found else -1 << 30
        no_roy = alt.best_no_stay.royalties if alt.best_no_stay.found else -1 << 30
        acc["stay0"] += stay_roy >= no_roy
        acc["roy0"] += max(stay_roy, no_roy)
        acc["can_stay"] += alt.best_stay.found
        # The plain solve must equal the better alternative under the same values.
        if stay_k is not None:
            v_stay = (
                alt.best_stay.royalties + sv[stay_k - 13]
                if alt.best_stay.found
                else -math.inf
            )
            v_no = alt.best_no_stay.royalties if alt.best_no_stay.found else -math.inf
            acc["mismatch"] += abs(max(v_stay, v_no) - b.value) > 1e-9
    return acc


RULES_INDEX = {"PINEAPPLE": 0, "PROGRESSIVE_PINEAPPLE": 1, "OFC": 2}


def study(lines: list[tuple[str, int]], deals: int, workers: int, seed: int) -> list[dict]:
    jobs = []
    for rules_name, n in lines:
        for index, start in enumerate(range(0, deals, CHUNK)):
            jobs.append((rules_name, n, index, min(CHUNK, deals - start), seed))
    results: dict[tuple[str, int], dict] = {}
    with mp.Pool(workers) as pool:
        for job, acc in zip(jobs, pool.imap(run_chunk, jobs)):
            key = (job[0], job[1])
            if key not in results:
                results[key] = acc
                continue
            total = results[key]
            for k, v in acc.items():
                total[k] = total[k] + v
    rows = []
    for (rules_name, n), a in results.items():
        d = a["deals"]
        mean = a["roy"] / d
        # the sample variance (d - 1): a standard error of one deal is not known
        var = max(a["roy2"] - d * mean**2, 0.0) / (d - 1) if d > 1 else math.nan
        t = np.array(a["times"])
        rows.append(
            {
                "rules": rules_name,
                "cards": n,
                "deals": d,
                "stay_pct": 100 * a["stay"] / d,
                "stay0_pct": 100 * a["stay0"] / d,
                "can_stay_pct": 100 * a["can_stay"] / d,
                "mean_royalties": mean,
                "royalties_se": None if d < 2 else math.sqrt(var / d),
                "mean_royalties0": a["roy0"] / d,
                "foul_free_pct": 100 * (d - a["foul"]) / d,
                "median_ms": float(np.median(t)),
                "p99_ms": float(np.percentile(t, 99)),
                "max_ms": float(t.max()),
                "mismatches": a["mismatch"],
            }
        )
    return rows


def table(rows: list[dict]) -> str:
    head = (
        "| rules | cards | deals | stay % | stay % (roy) | can stay % | mean roy "
        "| mean roy (roy) | foul-free % | median ms | p99 ms | max ms |"
    )
    lines = [head, "|" + "---|" * 12]
    for r in rows:
        lines.append(
            f"| {r['rules']} | {r['cards']} | {r['deals']:,} | {r['stay_pct']:.2f} "
            f"| {r['stay0_pct']:.2f} | {r['can_stay_pct']:.2f} "
            f"| {r['mean_royalties']:.2f} ± {_se(r['royalties_se'])} "
            f"| {r['mean_royalties0']:.2f} | {r['foul_free_pct']:.2f} "
            f"| {r['median_ms']:.3f} | {r['p99_ms']:.3f} | {r['max_ms']:.3f} |"
        )
    return "\n".join(lines)


def _se(se: float | None) -> str:
    """A standard error, 'nan' for a line of one deal (none is known)."""
    return "nan" if se is None else f"{se:.2f}"


def stay_fixed_point(rows: list[dict]) -> dict[int, float]:
    """V(k) = R(k) + p(k) V(next): PINEAPPLE stays with 14, OFC with 13."""
    by = {(r["rules"], r["cards"]): r for r in rows}
    out: dict[int, float] = {}
    p14 = by[("PINEAPPLE", 14)]
    v14 = p14["mean_royalties"] / (1 - p14["stay_pct"] / 100)
    out[14] = v14
    for k in (15, 16, 17):
        r = by[("PINEAPPLE", k)]
        out[k] = r["mean_royalties"] + r["stay_pct"] / 100 * v14
    if ("OFC", 13) in by:
        r = by[("OFC", 13)]
        out[13] = r["mean_royalties"] / (1 - r["stay_pct"] / 100)
    return {k: round(v * 2) / 2 for k, v in sorted(out.items())}


def main(argv: list[str] | None = None) -> int:
    from ofc_fast import rules as R
    from ofc_fast.cli.options import write_whole
    from ofc_fast.errors import OfcError
    from ofc_fast.parallel import cpu_count  # (the CPUs this process may use)
    from ofc_fast.parallel.cli import check_workers
    from ofc_fast.table import SEED_MAX
    from ofc_fast.timing import (  # (before a run)
        ScriptHelp,
        ScriptParser,
        at_least,
        output_path,
        preset_name,
    )

    p = ScriptParser(formatter_class=ScriptHelp, description=__doc__.split("\n\n")[0])
    p.add_argument("--deals", type=at_least(1), default=100_000, help="deals per line")
    p.add_argument(
        "--cards",
        type=at_least(13, 17),
        nargs="+",
        default=list(CARDS),
        help="Fantasyland card counts (a line each)",
    )
    p.add_argument(
        "--rules",
        type=preset_name,
        nargs="+",
        default=list(RULES),
        help="preset names (a line each)",
    )
    p.add_argument(
        "--workers",
        type=at_least(1),
        default=cpu_count(),
        help="processes, at most 4 per CPU (default: %(default)s, the CPUs this "
        "process may use)",
    )
    p.add_argument(
        "--seed", type=at_least(0, SEED_MAX), default=SEED, help="seed of the hands"
    )
    p.add_argument(
        "--stay-values",
        action="store_true",
        help="also OFC with 13 cards; print the STAY_VALUE_DEFAULT fixed point",
    )
    p.add_argument("--json", type=output_path, help="also write the rows as JSON")
    args = p.parse_args(argv)
    try:  # (the ofc-fast commands' cap: each worker holds its own solver tables)
        check_workers(args.workers)
    except OfcError as exc:
        p.error(str(exc))
    names = [R.get(r).name for r in args.rules]  # a game id or any case: the preset
    for name in names:
        if R.get(name).fantasyland is None:
            p.error(f"--rules: {name} has no Fantasyland")
    lines = list(dict.fromkeys((name, n) for name in names for n in args.cards))  # once
    if args.stay_values:
        if not {("PINEAPPLE", k) for k in (14, 15, 16, 17)} <= set(lines):
            p.error("--stay-values: needs PINEAPPLE with --cards 14 15 16 17")
        lines += [("OFC", 13)] if ("OFC", 13) not in lines else []
    t0 = time.perf_counter()
    rows = study(lines, args.deals, args.workers, args.seed)
    print(table(rows))
    print(
        f"\n{len(rows)} lines x {args.deals:,} deals in "
        f"{time.perf_counter() - t0:.0f} s ({args.workers} workers)"
    )
    bad = sum(r["mismatches"] for r in rows)
    if bad:
        print(f"ERROR: {bad} hands where the plain and the alternatives solves disagree")
    if args.stay_values:
        print("stay value fixed point:", stay_fixed_point(rows))
    if args.json:
        write_whole("--json", args.json, json.dumps(rows, indent=1))
    return 1 if bad else 0


if __name__ == "__main__":
    from ofc_fast.cli import run_command  # (a reader gone: no BrokenPipeError)

    sys.exit(run_command(main, "fl_study.py"))
