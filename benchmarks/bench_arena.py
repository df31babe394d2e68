"""Arena figures: the overhead per decision of a stdio bot and of a TCP bot, and
hands per second with two built-in bots through the protocol.

    python benchmarks/bench_arena.py [--hands N] [--tcp-only]

1. Overhead: a subprocess bot that answers every ``act`` at once with the filler
   placement (tests/arena_clients/tiny_client.py, standard library only) against a
   second copy of it; the per-decision wall time the arena measures (send ``act``,
   the bot reads, answers, the arena reads and checks) is the arena's and the pipe's
   overhead.  Reported: the median in microseconds.
2. TCP: ``ofc-fast bot random --connect PORT`` (a subprocess) against the built-in
   ``random``; the p50 and p99 of the TCP bot's decision times (send ``act`` to
   reading the answer), which is where Nagle's algorithm showed (~40 ms a decision
   before both ends set ``TCP_NODELAY``).
3. Throughput: ``random`` against ``random`` (built-in, in process, every message
   encoded and decoded as a line) and ``heuristic`` against ``random``.
"""

from __future__ import annotations

import socket
import statistics
import subprocess
import sys
import time
from pathlib import Path

from ofc_fast.arena import Arena, parse_bot_spec
from ofc_fast.timing import ScriptHelp, ScriptParser, at_least

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


def tcp_latency(hands: int) -> tuple[float, float, int]:
    """(p50, p99) in ms of a TCP bot's decisions, and its faults (tests/
    test_arena_hostile_bots.py runs this too)."""
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        port = probe.getsockname()[1]
    bot = subprocess.Popen(
        [sys.executable, "-m", "ofc_fast", "bot", "random", "--connect", str(port)],
        stderr=subprocess.DEVNULL,
    )
    try:
        arena = Arena(
            "ofc-pineapple",
            [parse_bot_spec("random"), parse_bot_spec(f"tcp:{port}")],
            hands,
            seed=1,
            timeout_ms=10_000,
        )
        report = arena.run()
    finally:
        bot.wait(60)
    ms = sorted(arena.records[1].latencies_ms)
    p99 = ms[min(len(ms) - 1, round(0.99 * (len(ms) - 1)))]
    return statistics.median(ms), p99, report["bots"][1]["faults"]


def throughput(bots: list[str], hands: int) -> float:
    arena = Arena(
        "ofc-pineapple", [parse_bot_spec(b) for b in bots], hands, seed=1, timeout_ms=None
    )
    t0 = time.perf_counter()
    arena.run()
    return hands / (time.perf_counter() - t0)


def main() -> None:
    p = ScriptParser(formatter_class=ScriptHelp, description=__doc__.splitlines()[0])
    p.add_argument(
        "--hands",
        type=at_least(1),
        default=200,
        help="hands per measurement (the heuristic row: a quarter, at least 10)",
    )
    p.add_argument("--tcp-only", action="store_true", help="only the TCP latency")
    args = p.parse_args()
    p50, p99, _ = tcp_latency(args.hands)
    print(f"tcp bot, decision time: p50 {p50:.2f} ms, p99 {p99:.2f} ms")
    if args.tcp_only:
        return
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
    from ofc_fast.cli import run_command  # (an error, a reader gone: one line)

    sys.exit(run_command(main, "bench_arena.py"))
