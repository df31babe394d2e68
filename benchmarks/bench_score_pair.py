"""score_pair on parsed boards: microseconds per call (target: at most 2 us).

    python benchmarks/bench_score_pair.py            # 7 runs, median and min
    python benchmarks/bench_score_pair.py --reps 15

200 random deals of 26 distinct cards split into two parsed ``Board``s; each run times
25 passes over them with ``timeit`` (``ofc.score_pair(a, b)`` under ``rules.OFC``).
"""

from __future__ import annotations

import random
import statistics
import sys
import timeit

import ofc_fast as ofc
from ofc_fast import Board
from ofc_fast.table import SEED_MAX
from ofc_fast.timing import ScriptHelp, ScriptParser, at_least


def main(argv: list[str] | None = None) -> int:
    """Print the median and the minimum of ``--reps`` runs."""
    p = ScriptParser(formatter_class=ScriptHelp, description=__doc__.split("\n\n")[0])
    p.add_argument("--reps", type=at_least(1), default=7, help="runs (median reported)")
    p.add_argument(
        "--seed", type=at_least(0, SEED_MAX), default=1, help="seed of the random pairs"
    )
    args = p.parse_args(argv)
    rng = random.Random(args.seed)
    pairs = []
    for _ in range(200):
        d = rng.sample(range(52), 26)
        pairs.append((Board(d[0:3], d[3:8], d[8:13]), Board(d[13:16], d[16:21], d[21:26])))
    score = ofc.score_pair

    def run() -> None:
        for a, b in pairs:
            score(a, b)

    per_call = [
        timeit.timeit(run, number=25) / (25 * len(pairs)) * 1e6 for _ in range(args.reps)
    ]
    print(
        f"score_pair, parsed boards: median {statistics.median(per_call):.3f} us "
        f"(min {min(per_call):.3f}, {args.reps} runs)"
    )
    return 0


if __name__ == "__main__":
    from ofc_fast.cli import run_command  # (an error, a reader gone: one line)

    sys.exit(run_command(main, "bench_score_pair.py"))
