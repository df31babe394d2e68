"""Arena figures: the overhead per decision of a stdio bot, and hands per second
with two built-in bots through the protocol.

    python benchmarks/bench_arena.py [--hands N]

1. Overhead: a subprocess bot that answers every ``act`` at once with the filler
   placement (tests/arena_clients/tiny_client.py, standard library only) against a
   second copy of it; the per-decision wall time the arena measures (send ``act``,
   the bot reads, answers, the arena reads and checks) is the arena's and the pipe's
   overhead.  Reported: the median in microseconds.
2. Throughput: ``random`` against ``random`` (built-in, in process, every message
   encoded and decoded as a line) and ``heuristic`` against ``random``.
"""

from __future__ import annotations

import argparse
import statistics
import sys
import time
from pathlib import Path

from ofc_fast.arena import Arena, parse_bot_spec

TINY = Path(__file__).resolve().parents[1] / "tests" / "arena_clients" / "tiny_client.py"


def overhead(hands: int) -> float:
    cmd = f"cmd:{sys.executable} {TINY} - good"
    arena = Arena(
        "ofc-pineapple",
        [parse_bot_spec(cmd), parse_bot_spec(cmd)],
        hands,
        seed=1,
        timeout_ms=10_000,
    )
    arena.run()
    ms = [x for r in arena.records for x in r.latencies_ms]
    return statistics.median(ms) * 1000


def throughput(bots: list[str], hands: int) -> float:
    arena = Arena(
        "ofc-pineapple", [parse_bot_spec(b) for b in bots], hands, seed=1, timeout_ms=None
    )
    t0 = time.perf_counter()
    arena.run()
    return hands / (time.perf_counter() - t0)


def main() -> None:
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("--hands", type=int, default=200)
    args = p.parse_args()
    print(f"stdio bot, overhead per decision (median): {overhead(args.hands):.0f} us")
    print(
        f"random vs random through the protocol: "
        f"{throughput(['random', 'random'], args.hands):.0f} hands/s"
    )
    print(
        f"heuristic vs random through the protocol: "
        f"{throughput(['heuristic', 'random'], max(args.hands // 4, 10)):.1f} hands/s"
    )


if __name__ == "__main__":
    main()
