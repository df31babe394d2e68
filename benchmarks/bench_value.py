r"""Duplicate strength of the learned value model (docs/learned.md).

    python benchmarks/bench_value.py --pairs 300 --match value:heuristic
    python benchmarks/bench_value.py --pairs 200 --match search:search-rollouts

Each deal pair plays deal ``i`` (seed ``deal_seed(seed, i)``, button ``i % 2``) twice
with the two bots' seats swapped, so both bots see the same cards; a pair's score is
bot A's mean net over its two seats, and the figure is the mean over pairs with a
Student-t 95% interval (``ofc_fast.arena._stats``).  Also per bot: fouls, Fantasyland
entries and royalties on these normal deals, and the median CPU time of its normal
decisions (one core).  Bots: ``value`` (ValueBot), ``heuristic`` (HeuristicBot),
``random``, ``search`` (SearchBot, the shipped model), ``search-rollouts``
(SearchBot(model=None)); the search bots get ``--budget`` seconds of CPU time per
decision (the opening three times that).
"""

from __future__ import annotations

import argparse
import json
import statistics
import sys
import time
from concurrent.futures import ProcessPoolExecutor
from typing import Any

from ofc_fast import rules
from ofc_fast.arena._stats import t_half_width
from ofc_fast.bots import HeuristicBot, RandomBot, SearchBot, ValueBot
from ofc_fast.game import Game, deal_seed

PRESET = rules.PINEAPPLE


def make(name: str, seed: int, budget: float) -> Any:
    """A bot by benchmark name."""
    if name == "value":
        return ValueBot(PRESET, seed)
    if name == "heuristic":
        return HeuristicBot(PRESET, seed)
    if name == "random":
        return RandomBot(seed)
    if name in ("search", "search-rollouts"):
        model = "auto" if name == "search" else None
        return SearchBot(PRESET, seed, time_budget=budget, model=model)
    raise SystemExit(f"unknown bot {name!r}")


class _Timed:
    """Keeps the CPU time of each normal decision."""

    def __init__(self, bot: Any) -> None:
        self.bot, self.ms = bot, []

    def act(self, obs: Any) -> Any:
        t0 = time.thread_time()
        move = self.bot.act(obs)
        if len(obs["dealt"]) <= 5 and not obs.get("full_set"):
            self.ms.append(1000 * (time.thread_time() - t0))
        return move


def pair(job: tuple[str, str, int, int, float]) -> dict[str, Any]:
    """Deal pair ``i``: A in seat 0 then in seat 1."""
    a, b, seed, i, budget = job
    out: dict[str, Any] = {"net": [], "ms_a": [], "ms_b": []}
    for flip in (0, 1):
        bots = [
            _Timed(make(a, 2 * i + flip, budget)),
            _Timed(make(b, 10**6 + 2 * i + flip, budget)),
        ]
        seats = bots if flip == 0 else bots[::-1]
        g = Game(PRESET, players=2, seed=deal_seed(seed, i), button=i % 2)
        while g.to_act is not None:
            s = g.to_act
            g.play(seats[s].act(g.observation(s)))
        r = g.result()
        sa = flip  # A's seat
        out["net"].append(r.net[sa])
        for who, seat in (("a", sa), ("b", 1 - sa)):
            out.setdefault(f"foul_{who}", []).append(bool(r.fouls[seat]))
            out.setdefault(f"fl_{who}", []).append(r.fantasyland[seat] > 0)
            out.setdefault(f"roy_{who}", []).append(sum(r.royalties[seat]))
        out["ms_a"] += bots[0].ms
        out["ms_b"] += bots[1].ms
    return out


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--pairs", type=int, default=200, help="deal pairs")
    ap.add_argument("--match", default="value:heuristic", help="A:B bot names")
    ap.add_argument("--seed", type=int, default=2026)
    ap.add_argument("--budget", type=float, default=0.04, help="search seconds/decision")
    ap.add_argument("--workers", type=int, default=1)
    ap.add_argument("--json", metavar="PATH", help="write every figure here")
    args = ap.parse_args(argv)
    a, _, b = args.match.partition(":")
    jobs = [(a, b, args.seed, i, args.budget) for i in range(args.pairs)]
    t0 = time.perf_counter()
    if args.workers > 1:
        with ProcessPoolExecutor(args.workers) as pool:
            res = list(pool.map(pair, jobs, chunksize=4))
    else:
        res = [pair(j) for j in jobs]
    diffs = [statistics.fmean(r["net"]) for r in res]
    hw = t_half_width(diffs)
    out: dict[str, Any] = {
        "match": args.match,
        "pairs": args.pairs,
        "seed": args.seed,
        "budget": args.budget,
        "a_minus_b": statistics.fmean(diffs),
        "ci95": hw,
        "seconds": round(time.perf_counter() - t0, 1),
    }
    for who, name in (("a", a), ("b", b)):
        ms = sorted(x for r in res for x in r[f"ms_{who}"])
        out[name if name != a or who == "a" else f"{name} (B)"] = {
            "fouls": statistics.fmean(x for r in res for x in r[f"foul_{who}"]),
            "fantasyland": statistics.fmean(x for r in res for x in r[f"fl_{who}"]),
            "royalties": statistics.fmean(x for r in res for x in r[f"roy_{who}"]),
            "median_ms": ms[len(ms) // 2] if ms else None,
            "p90_ms": ms[int(0.9 * len(ms))] if ms else None,
        }
    print(
        f"{a} vs {b}: {out['a_minus_b']:+.2f} +- {hw if hw is not None else float('nan'):.2f} "
        f"points/deal ({args.pairs} duplicate deal pairs, 95% t interval)"
    )
    for key in (a, b) if a != b else (a, f"{a} (B)"):
        s = out[key]
        print(
            f"  {key:<16} fouls {s['fouls']:6.1%}  Fantasyland {s['fantasyland']:6.1%}  "
            f"royalties {s['royalties']:5.2f}  median {s['median_ms']:.2f} ms  "
            f"p90 {s['p90_ms']:.2f} ms"
        )
    if args.json:
        with open(args.json, "w") as fh:
            json.dump(out, fh, indent=1)
    return 0


if __name__ == "__main__":
    sys.exit(main())
