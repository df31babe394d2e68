"""Game-flow throughput: decisions per second of whole matches.

    python benchmarks/bench_game.py                 # default set, 5 repetitions
    python benchmarks/bench_game.py --quick         # a few seconds
    python benchmarks/bench_game.py --json out.json
    python benchmarks/bench_game.py --reads         # lock-free reads vs locked, A/B
    python benchmarks/bench_game.py --against OLD   # hot calls here vs tree OLD, A/B

A decision is one move of one seat (a 5-card opening, a Pineapple round, one OFC
card, a Fantasyland or classic set).  Each row times complete deals through
``Match.play``: shuffling and dealing, ``observation(seat)`` for every decision, the
bot's ``act``, ``play`` (full validation), scoring with ``settle`` and the
Fantasyland / button carry-over.  The "actions" rows are the reinforcement-learning
path: ``legal_actions()`` and ``play_action()`` with a uniformly random action, no
observation dict; the "moves" row is ``play(choice(legal_moves()))``; the
"observation" row counts ``observation(seat)`` calls.  The first row is the C engine
alone (``benchmarks/bench_game_c.c``, built here with the C compiler): random playouts
to the end with the settlement, one core.  Figures are medians over ``--reps``
repetitions (min and max shown).  Targets (issue "Game flow in C", PINEAPPLE 3 seats):
C playouts >= 5,000,000 decisions/s, actions >= 300,000, moves >= 60,000,
observation >= 500,000 calls/s, Match with random bots >= 200,000.
"""

from __future__ import annotations

import json
import platform
import random
import statistics
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

import ofc_fast as ofc
from ofc_fast import rules
from ofc_fast.bots import HeuristicBot, RandomBot
from ofc_fast.cli.options import write_whole
from ofc_fast.errors import OfcError
from ofc_fast.game import Game, Match
from ofc_fast.game.threads import consistent
from ofc_fast.table import SEED_MAX
from ofc_fast.timing import (
    ScriptHelp,
    ScriptParser,
    at_least,
    c_compiler,
    output_path,
    seed_offset,
)

TARGET = 20_000


def _match_run(
    preset: rules.RuleSet, players: int, deals: int, seed: int, bot: str
) -> tuple[int, float]:
    m = Match(preset, players, seed=seed)
    bots: list[RandomBot | HeuristicBot]
    if bot == "random":
        bots = [RandomBot(seed_offset(seed, s)) for s in range(players)]
    else:
        bots = [HeuristicBot(preset, seed=seed_offset(seed, s)) for s in range(players)]
    decisions = 0

    def count(game: Game, _result: Any) -> None:
        nonlocal decisions
        decisions += game.decisions

    t = time.perf_counter()
    m.play(bots, deals, on_deal=count)
    return decisions, time.perf_counter() - t


def _deals_run(
    preset: rules.RuleSet,
    players: int,
    deals: int,
    seed: int,
    decide: Callable[[Game, random.Random], None],
) -> tuple[int, float]:
    """Whole random deals, each decision made by ``decide(game, rng)``."""
    rng = random.Random(seed)
    decisions = 0
    t = time.perf_counter()
    for i in range(deals):
        g = Game(preset, players, seed=seed_offset(seed, i))
        while not g.is_over:
            decide(g, rng)
            decisions += 1
        g.result()
    return decisions, time.perf_counter() - t


def _actions_run(
    preset: rules.RuleSet, players: int, deals: int, seed: int, bot: str
) -> tuple[int, float]:
    """``play_action(choice(legal_actions()))``: the reinforcement-learning path."""
    return _deals_run(
        preset,
        players,
        deals,
        seed,
        lambda g, rng: g.play_action(rng.choice(g.legal_actions())),
    )


def _moves_run(
    preset: rules.RuleSet, players: int, deals: int, seed: int, bot: str
) -> tuple[int, float]:
    """``play(choice(legal_moves()))``: every legal move listed, one played."""
    return _deals_run(
        preset, players, deals, seed, lambda g, rng: g.play(rng.choice(g.legal_moves()))
    )


def _observation_run(
    preset: rules.RuleSet, players: int, deals: int, seed: int, bot: str
) -> tuple[int, float]:
    """observation(seat) calls over every state of ``deals // 10`` random deals."""
    rng = random.Random(seed)
    games = []
    for i in range(max(1, deals // 10)):
        g = Game(preset, players, seed=seed_offset(seed, i))
        while not g.is_over:
            games.append(g.copy())
            g.play_action(rng.choice(g.legal_actions()))
    calls = 0
    t = time.perf_counter()
    for g in games:
        for s in range(players):
            g.observation(s)
        calls += players
    return calls, time.perf_counter() - t


READS: dict[str, Callable[[Game, random.Random], Any]] = {
    "legal_moves()": lambda g, rng: g.legal_moves(),
    "legal_move_count()": lambda g, rng: g.legal_move_count(),
    "boards": lambda g, rng: g.boards,
    "moves": lambda g, rng: g.moves,
    "copy()": lambda g, rng: g.copy(),
    "random_move(rng)": lambda g, rng: g.random_move(rng),
}
"""The reads ``--reads`` times (pineapple 3p, every state of random deals)."""


def _locked_game() -> type[Game]:
    """A Game whose reads each hold the game's lock, as every read did before they
    were lock-free (the baseline of ``--reads``): the same methods, guarded by
    :func:`~ofc_fast.game.threads.consistent` instead."""
    ns: dict[str, Any] = {"__slots__": ()}
    for name in LOCK_FREE:
        attr = vars(Game)[name]
        if isinstance(attr, property):
            ns[name] = property(consistent(attr.fget.__wrapped__))  # type: ignore[union-attr]
        else:
            ns[name] = consistent(attr.__wrapped__)
    return type("LockedGame", (Game,), ns)


LOCK_FREE = ("boards", "moves", "legal_move_count", "legal_moves", "_decision", "copy")
"""The lock-free reads of :data:`READS` (``_decision``: ``random_move``'s)."""


def reads_ab(deals: int, rounds: int, seed: int) -> list[dict[str, Any]]:
    """Each of :data:`READS` over every state of ``deals`` random pineapple 3p deals,
    lock-free (B) and locked (A, :func:`_locked_game`) in turn, ``rounds`` times:
    per read, the median ns a call of each and their ratio B/A."""
    locked_cls = _locked_game()
    states: dict[str, list[Game]] = {"A": [], "B": []}
    rng = random.Random(seed)
    for i in range(deals):
        a = locked_cls(rules.PINEAPPLE, 3, seed=seed_offset(seed, i))
        b = Game(rules.PINEAPPLE, 3, seed=seed_offset(seed, i))
        while not b.is_over:
            states["A"].append(a.copy())
            states["B"].append(b.copy())
            action = rng.choice(b.legal_actions())
            a.play_action(action)
            b.play_action(action)
    times: dict[str, dict[str, list[float]]] = {n: {"A": [], "B": []} for n in READS}
    for _ in range(rounds):
        for name, read in READS.items():
            for side in ("A", "B") if rng.random() < 0.5 else ("B", "A"):
                games, r = states[side], random.Random(seed)
                t = time.process_time()  # (CPU time: a loaded machine's waits left out)
                for g in games:
                    read(g, r)
                times[name][side].append((time.process_time() - t) / len(games) * 1e9)
    return _ab_rows(times, ("read", "locked_ns", "lock_free_ns"))


def _ab_rows(
    times: dict[str, dict[str, list[float]]], keys: tuple[str, str, str]
) -> list[dict[str, Any]]:
    """Per name of ``times`` (its ns a call of sides A and B): a row of ``keys`` (the
    name's, A's, B's) holding the name, the medians of A and B, and ``ratio`` B/A."""
    out = []
    for name, t in times.items():
        a, b = statistics.median(t["A"]), statistics.median(t["B"])
        out.append({keys[0]: name, keys[1]: a, keys[2]: b, "ratio": b / a})
    return out


def _print_ab(title: str, rows: list[dict[str, Any]], heads: tuple[str, str, str]) -> None:
    """An A/B table: ``title``, then per row of :func:`_ab_rows` its name, A's and B's
    ns under ``heads`` and B/A."""
    keys = list(rows[0]) if rows else []
    print(f"{title}\n\n{heads[0]:26s} {heads[1]:>10s} {heads[2]:>10s} {'B/A':>7s}")
    for row in rows:
        name, a, b = (row[k] for k in keys[:3])
        print(f"{name:26s} {a:10,.0f} {b:10,.0f} {row['ratio']:7.2f}")


def _print_reads(args: Any) -> None:
    """``--reads``: :func:`reads_ab`'s table."""
    deals, rounds = (20, 5) if args.quick else (200, 21)
    title = (
        f"reads of pineapple 3p games ({deals} deals, every state): median ns a call "
        f"over {rounds} rounds, locked (A) and lock-free (B) in turn"
    )
    _print_ab(title, reads_ab(deals, rounds, args.seed), ("read", "locked", "lock-free"))


PARSE_CHILD = r"""
import json, sys, time, timeit
import ofc_fast
out, n = {"module": ofc_fast.__file__}, int(sys.argv[1])
for name, (setup, stmt) in json.loads(sys.argv[2]).items():
    timer = timeit.Timer(stmt, setup, timer=time.process_time)
    timer.timeit(max(1, n // 10))
    out[name] = timer.timeit(n) / n * 1e9
print(json.dumps(out))
"""
"""What ``--against`` runs in each tree: ns a call of each of :data:`PARSE_CASES`."""
_MOVE = "from ofc_fast.game import Move\n"
_VALUE = """
import random
from ofc_fast import rules
from ofc_fast.bots import ValueBot
from ofc_fast.game import Game
g, r = Game(rules.PINEAPPLE, 3, seed=1), random.Random(1)
for _ in range(4):
    g.play_action(r.choice(g.legal_actions()))
obs, bot = g.observation(g.to_act), ValueBot()
"""
PARSE_CASES = {
    "from_dict, 3 text cards": (
        _MOVE + "d = {'place': [['As', 'front'], ['Kd', 'back']], 'discard': ['2c']}",
        "Move.from_dict(d)",
    ),
    "from_dict, 3 card ids": (
        _MOVE + "d = {'place': [[51, 0], [45, 2]], 'discard': [0]}",
        "Move.from_dict(d)",
    ),
    "from_dict, 5 text cards": (
        _MOVE + "d = {'place': [['As', 0], ['Kd', 1], ['Qc', 1], ['2h', 2], ['3h', 2]]}",
        "Move.from_dict(d)",
    ),
    "play_key(PINEAPPLE)": (
        "from ofc_fast.rules import PINEAPPLE, play_key",
        "play_key(PINEAPPLE)",
    ),
    "ValueBot.act, pineapple 3p": (_VALUE, "bot.act(obs)"),
}
"""The calls ``--against`` times: name -> (setup, statement), as ``timeit`` takes them."""


def move_parse_ab(old: Path, rounds: int, calls: int, seed: int) -> list[dict[str, Any]]:
    """The calls of :data:`PARSE_CASES` in the tree ``old`` (A, a built
    checkout) and in this one (B), each in its own interpreter, in turn ``rounds``
    times: per case the median ns a call of each and their ratio B/A."""
    times: dict[str, dict[str, list[float]]] = {n: {"A": [], "B": []} for n in PARSE_CASES}
    rng = random.Random(seed)
    for _ in range(rounds):
        for side in ("A", "B") if rng.random() < 0.5 else ("B", "A"):
            tree = (old if side == "A" else ROOT).resolve()
            cmd = [sys.executable, "-c", PARSE_CHILD, str(calls), json.dumps(PARSE_CASES)]
            run = subprocess.run(cmd, cwd=tree, capture_output=True, text=True)
            if run.returncode:
                raise OfcError(f"--against: {tree}: {run.stderr.strip()[-300:]}")
            got = json.loads(run.stdout)
            if not Path(got.pop("module")).resolve().is_relative_to(tree):
                raise OfcError(
                    f"--against: {tree} imports another ofc_fast (build it there)"
                )
            for name, ns in got.items():
                times[name][side].append(ns)
    return _ab_rows(times, ("case", "old_ns", "new_ns"))


def _print_move_parse(args: Any) -> None:
    """``--against``: :func:`move_parse_ab`'s table."""
    rounds, calls = (3, 200) if args.quick else (11, 5000)
    rows = move_parse_ab(args.against, rounds, calls, args.seed)
    title = (
        f"hot calls: median ns a call over {rounds} rounds, {args.against} (A) and "
        "this tree (B) in turn"
    )
    _print_ab(title, rows, ("case", "A", "B"))


ROOT = Path(__file__).resolve().parent.parent


def c_engine(cc: str | None, deals: int, reps: int) -> dict[str, Any] | str:
    """Build benchmarks/bench_game_c.c with ``cc`` (:func:`ofc_fast.timing.c_compiler`'s)
    and run it: its figures, or why there are none (no C compiler; a build or a run
    that failed, the compiler's or the program's messages on standard error before)."""
    if cc is None:
        return "no C compiler found"
    sources = sorted(str(p) for p in (ROOT / "csrc").glob("*/ofc_*.c"))
    includes = [f"-I{ROOT / 'csrc' / layer}" for layer in ("include", "src", "generated")]
    with tempfile.TemporaryDirectory(prefix="ofc-bench-") as tmp:
        exe = str(Path(tmp) / "bench_game_c")
        main_c = str(ROOT / "benchmarks" / "bench_game_c.c")
        build = subprocess.run(
            [cc, "-std=c99", "-O3", *includes, main_c, *sources, "-o", exe]
        )
        if build.returncode != 0:
            return f"{cc} could not build benchmarks/bench_game_c.c (status {build.returncode})"
        done = subprocess.run([exe, str(deals), str(reps)], capture_output=True, text=True)
        if done.returncode != 0:
            sys.stderr.write(done.stderr)
            return f"bench_game_c failed (status {done.returncode})"
    return json.loads(done.stdout)  # type: ignore[no-any-return]


C_LABELS = (
    "C engine, pineapple 3p playouts",
    "C engine, pineapple 2p playouts",
    "C engine, copy of a state (ns)",
)
"""The rows of benchmarks/bench_game_c.c (``--only`` picks them by these labels)."""

CASES: list[tuple[str, str, int, str, Callable[..., tuple[int, float]]]] = [
    ("pineapple 3p, actions (RL path)", "PINEAPPLE", 3, "random", _actions_run),
    ("pineapple 3p, legal_moves + play", "PINEAPPLE", 3, "random", _moves_run),
    ("pineapple 3p, observation() calls", "PINEAPPLE", 3, "random", _observation_run),
    ("pineapple 3p, random bots", "PINEAPPLE", 3, "random", _match_run),
    ("pineapple 2p, random bots", "PINEAPPLE", 2, "random", _match_run),
    ("ofc 4p, random bots", "OFC", 4, "random", _match_run),
    ("ofc 3p, face-down final 3, random", "OFC_FD3", 3, "random", _match_run),
    ("pineapple 2-7 3p, random bots", "PINEAPPLE_27", 3, "random", _match_run),
    ("classic 4p, random bots", "CLASSIC_1_6", 4, "random", _match_run),
    ("ofc 4p, actions (RL path)", "OFC", 4, "random", _actions_run),
    ("pineapple 3p, heuristic bots", "PINEAPPLE", 3, "heuristic", _match_run),
]


def main(argv: list[str] | None = None) -> int:
    p = ScriptParser(formatter_class=ScriptHelp, description=__doc__.split("\n\n")[0])
    p.add_argument("--deals", type=at_least(1), default=2000, help="deals per repetition")
    p.add_argument(
        "--heuristic-deals",
        type=at_least(1),
        default=40,
        help="deals per repetition for the heuristic-bot row",
    )
    p.add_argument(
        "--reps", type=at_least(1), default=5, help="repetitions (median reported)"
    )
    p.add_argument(
        "--seed", type=at_least(0, SEED_MAX), default=1, help="seed of the deals"
    )
    p.add_argument("--quick", action="store_true", help="small run (smoke test)")
    p.add_argument("--only", default="", help="run rows whose label contains this")
    p.add_argument(
        "--reads",
        action="store_true",
        help="time Game's reads lock-free against each holding the game's lock (A/B)",
    )
    p.add_argument(
        "--against",
        type=Path,
        metavar="TREE",
        help="time hot calls (Move.from_dict, play_key, ValueBot.act) in TREE (another "
        "built checkout) and here in turn (A/B)",
    )
    p.add_argument(
        "--json", type=output_path, metavar="PATH", help="write the figures as JSON"
    )
    p.add_argument(
        "--strict",
        action="store_true",
        help=f"exit 2 when random-bot rows miss {TARGET:,} decisions/s",
    )
    args = p.parse_args(argv)
    if args.reads:
        _print_reads(args)
        return 0
    if args.against is not None:
        _print_move_parse(args)
        return 0
    labels = [*C_LABELS, *(case[0] for case in CASES)]
    if not any(args.only in label for label in labels):
        p.error(f"--only: no row's label contains {args.only!r}")
    if args.quick:
        args.deals, args.heuristic_deals, args.reps = 300, 8, 3
    wants_c = any(args.only in label for label in C_LABELS)
    try:
        cc = c_compiler() if wants_c else None
    except OfcError as exc:  # ($CC naming no program: refused before the run)
        p.error(str(exc))
    print(
        f"ofc-fast {ofc.__version__}, Python {platform.python_version()} "
        f"({platform.python_implementation()}), {platform.machine()}"
    )
    print(f"{args.reps} repetitions; median decisions/s (min .. max)\n")
    header = f"{'case':38s} {'decisions/s':>12s} {'range':>21s} {'us/decision':>12s}"
    print(header)
    print("-" * len(header))
    rows = []
    missed, measured = False, False
    if wants_c:
        c = c_engine(cc, 200_000 if not args.quick else 20_000, args.reps)
        if isinstance(c, str):
            print(f"C engine: {c}; row skipped")
        else:
            for label, key in zip(
                C_LABELS, ("playout_pineapple_3p", "playout_pineapple_2p")
            ):
                print(f"{label:38s} {c[key]:12,.0f} {'(median)':>21s} {1e6 / c[key]:12.3f}")
            print(f"{C_LABELS[2]:38s} {c['state_copy_ns']:12.1f}")
            rows.append({"case": "C engine", **c})
    for label, name, players, bot, fn in CASES:
        if args.only and args.only not in label:
            continue
        preset = (
            rules.OFC.replace(name="OFC_FD3", face_down_final=3)
            if name == "OFC_FD3"
            else rules.get(name)
        )
        deals = args.heuristic_deals if bot == "heuristic" else args.deals
        fn(preset, players, max(1, deals // 10), args.seed, bot)  # warm-up
        rates = []
        for rep in range(args.reps):
            n, dt = fn(preset, players, deals, seed_offset(args.seed, 1000 * rep), bot)
            rates.append(n / dt)
        med = statistics.median(rates)
        print(
            f"{label:38s} {med:12,.0f} {min(rates):10,.0f} ..{max(rates):9,.0f} "
            f"{1e6 / med:12.1f}",
            flush=True,
        )
        rows.append(
            {
                "case": label,
                "rules": name,
                "players": players,
                "bot": bot,
                "deals": deals,
                "median": med,
                "min": min(rates),
                "max": max(rates),
            }
        )
        if bot == "random" and name != "CLASSIC_1_6" and fn is not _observation_run:
            measured, missed = True, missed or med < TARGET  # (decisions, not calls)
    if args.json:
        doc = {
            "version": ofc.__version__,
            "python": platform.python_version(),
            "reps": args.reps,
            "rows": rows,
        }
        write_whole("--json", args.json, json.dumps(doc, indent=2))
    print(
        f"\ntarget: >= {TARGET:,} decisions/s with random bots in OFC and Pineapple "
        f"({'below' if missed else 'met' if measured else 'not measured'}); a classic "
        "decision sets a whole "
        f"13-card hand, and every 2-4 of them settle a table"
    )
    return 2 if args.strict and missed else 0


if __name__ == "__main__":
    from ofc_fast.cli import run_command  # (an error, a reader gone: one line)

    sys.exit(run_command(main, "bench_game.py"))
