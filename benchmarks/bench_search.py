"""Search: SearchBot's strength and speed, and rollouts per second.

    python benchmarks/bench_search.py                       # the issue's full run (long)
    python benchmarks/bench_search.py --random-deals 300 --duplicate-deals 300
    python benchmarks/bench_search.py --skip-strength       # rollouts/s only
    python benchmarks/bench_search.py --json out.json

Strength, PINEAPPLE heads-up (issue "Search in C"):

* SearchBot vs RandomBot: a ``Match`` of ``--random-deals`` deals (button rotating,
  Fantasyland carried over); points per deal of SearchBot with a 95% interval.
  SearchBot's settings here: ``--random-settings`` (JSON keyword settings, e.g.
  ``'{"opponent": "random"}'``; default ``{}``: the defaults; ``fl_value`` keyed by
  card count as JSON keys are, ``'{"fl_value": {"14": 10.5}}'``).
* SearchBot vs HeuristicBot: ``--duplicate-deals`` duplicate deals: each deal
  (seed ``deal_seed(seed, i)``, no Fantasyland carried) is played twice with the seats
  swapped, so both bots get the same cards; a duplicate deal's score is the mean of
  SearchBot's two nets; mean and 95% interval over the duplicate deals.  SearchBot's
  settings here: ``--heuristic-settings`` (default ``{}``: the defaults).
* Per match: the median time of SearchBot's decisions (thread CPU time: one core,
  whatever else the shared machine runs; and wall time), its foul rate, and
  Fantasyland entry rate (normal deals that earned Fantasyland) and stay rate
  (Fantasyland deals that earned another).  ``--budget`` sets both bots'
  ``time_budget``.

Speed: rollouts per second from a mid-deal state (PINEAPPLE heads-up, HeuristicBot
play up to the third decision of the seat left of the button, whose legal moves are
the candidates; two rounds to come for each seat); one rollout = one candidate move
completed and scored on one sampled future.  Fast, best and sequential completion
policies, and ``learned``: the sequential policy with the shipped value model placing
the searcher's cards (``SearchBot``'s default); one thread and two (cffi releases the
GIL; two threads take disjoint sample ranges).  Figures are medians over ``--reps``
repetitions; a last line gives the learned rows' ratio to the sequential ones.
Target: >= 1,000,000 fast rollouts/s on two cores.
"""

from __future__ import annotations

import json
import math
import statistics
import sys
import time
from concurrent.futures import ThreadPoolExecutor
from typing import Any

from ofc_fast import rules
from ofc_fast._native import ffi, lib
from ofc_fast.bots import HeuristicBot, RandomBot, SearchBot
from ofc_fast.cli.options import write_whole
from ofc_fast.errors import BotError, OfcError
from ofc_fast.game import Game, Match, deal_seed, play_out
from ofc_fast.learned import shipped_model
from ofc_fast.rules.compiled import compiled, compiled_fl
from ofc_fast.search import position, search_model
from ofc_fast.search._advise import _with_value
from ofc_fast.table import SEED_MAX
from ofc_fast.timing import (
    ScriptHelp,
    ScriptParser,
    at_least,
    duration,
    json_object,
    output_path,
    seed_offset,
)

PRESET = rules.PINEAPPLE


class Timed:
    """A bot wrapper that records the wall and thread CPU time of each act()."""

    def __init__(self, bot: Any) -> None:
        self.bot = bot
        self.times: list[float] = []
        self.cpu: list[float] = []

    def act(self, obs: Any) -> Any:
        t, c = time.perf_counter(), time.thread_time()
        move = self.bot.act(obs)
        self.cpu.append(time.thread_time() - c)
        self.times.append(time.perf_counter() - t)
        return move


class Tally:
    """SearchBot's fouls and Fantasyland entries / stays over finished games."""

    def __init__(self) -> None:
        self.boards = self.fouls = 0
        self.normal = self.entries = self.fl_deals = self.stays = 0

    def add(self, game: Game, seat: int) -> None:
        r = game.result()
        self.boards += 1
        self.fouls += bool(r.fouls[seat])
        earned = bool(r.fantasyland[seat])
        if game.fantasyland[seat]:
            self.fl_deals += 1
            self.stays += earned
        else:
            self.normal += 1
            self.entries += earned

    def to_dict(self) -> dict[str, Any]:
        return {
            "boards": self.boards,
            "foul_rate": self.fouls / max(1, self.boards),
            "fl_entry_rate": self.entries / max(1, self.normal),
            "fl_deals": self.fl_deals,
            "fl_stay_rate": self.stays / self.fl_deals if self.fl_deals else None,
        }


def _mean_ci(xs: list[float]) -> tuple[float, float | None]:
    """The mean and the half width of its 95% interval (None for one deal: unknown,
    not 0)."""
    m = statistics.fmean(xs)
    if len(xs) < 2:
        return m, None
    return m, 1.96 * statistics.stdev(xs) / math.sqrt(len(xs))


def _search(seed: int, budget: float, settings: dict[str, Any]) -> SearchBot:
    fl = settings.get("fl_value")
    if isinstance(fl, dict):  # JSON keys are text: {"14": 10.5} is {14: 10.5}
        try:
            settings = {**settings, "fl_value": {int(k): v for k, v in fl.items()}}
        except ValueError:
            raise BotError(f"fl_value: keys are card counts, got {list(fl)}") from None
    return SearchBot(PRESET, seed=seed, **{"time_budget": budget, **settings})


def _progress(label: str, done: int, xs: list[float], every: int) -> None:
    if every and done % every == 0 and len(xs) > 1:
        mean, ci = _mean_ci(xs)
        print(f"  ... {label} {done}: {mean:+.2f} +- {ci or 0:.2f}", flush=True)


def vs_random(
    deals: int,
    seed: int,
    budget: float,
    timed: Timed,
    tally: Tally,
    every: int = 0,
    until: float = math.inf,
) -> dict[str, Any]:
    m = Match(PRESET, 2, seed=seed)
    bots = [timed, RandomBot(seed_offset(seed, 1))]
    nets: list[float] = []
    for _ in range(deals):
        if nets and time.monotonic() > until:  # (one deal at least: a mean)
            break
        g = m.next_game()
        play_out(g, bots)
        r = m.record(g)
        nets.append(r.net[0])
        tally.add(g, 0)
        _progress("vs random, deals", len(nets), nets, every)
    mean, ci = _mean_ci(nets)
    return {"deals": len(nets), "points_per_deal": mean, "ci95": ci}


def vs_heuristic(
    deals: int,
    seed: int,
    budget: float,
    timed: Timed,
    tally: Tally,
    every: int = 0,
    until: float = math.inf,
) -> dict[str, Any]:
    heur = HeuristicBot(PRESET, seed=seed_offset(seed, 2))
    scores: list[float] = []
    for i in range(deals):
        if scores and time.monotonic() > until:  # (one deal at least: a mean)
            break
        s = deal_seed(seed, i)
        pair = 0.0
        for search_seat in (0, 1):
            g = Game(PRESET, 2, seed=s, button=0)
            bots = [timed, heur] if search_seat == 0 else [heur, timed]
            pair += play_out(g, bots).net[search_seat] / 2
            tally.add(g, search_seat)
        scores.append(pair)
        _progress("vs heuristic, duplicate deals", len(scores), scores, every)
    mean, ci = _mean_ci(scores)
    return {
        "duplicate_deals": len(scores),
        "points_per_deal": mean,
        "ci95": ci,
        "interval": None if ci is None else [mean - ci, mean + ci],
    }


def _mid_deal(seed: int = 11) -> tuple[Any, bytes]:
    """The position of the seat left of the button at its third decision."""
    g = Game(PRESET, 2, seed=seed)
    bot = HeuristicBot(PRESET, seed=1)
    while not (g.to_act == 1 and g.street == 2):
        g.play(bot.act(g.observation(g.to_act)))
    obs = g.observation(1)
    return position(obs, PRESET), bytes(obs["legal_actions"])


def rollout_args(policy: str) -> tuple[Any, ...]:
    """``ofc_search_rollouts``' arguments up to the seed, for the mid-deal position
    under one of the benchmark's policies."""
    pos, actions = _mid_deal()
    model = search_model(PRESET)
    value = shipped_model(PRESET, 2) if policy == "learned" else None
    return (
        compiled(PRESET),
        compiled_fl(PRESET),
        *_with_value(PRESET, model.c_model(), value),
        pos,
        actions,
        len(actions),
        {
            "fast": lib.OFC_COMPLETE_FAST,
            "best": lib.OFC_COMPLETE_BEST,
            "sequential": lib.OFC_COMPLETE_SEQUENTIAL,
            "learned": lib.OFC_COMPLETE_SEQUENTIAL,
        }[policy],
    )


def rollouts_per_second(
    policy: str, threads: int, reps: int, seconds: float
) -> dict[str, Any]:
    args = rollout_args(policy)
    actions = args[5]
    per_call = 64 if policy == "fast" else 16

    def work(first: int, calls: int) -> None:
        s = ffi.new("double[]", len(actions))
        q = ffi.new("double[]", len(actions))
        for c in range(calls):
            lib.ofc_search_rollouts(*args, 7, first + c * per_call, per_call, s, q)

    t = time.perf_counter()
    work(0, 1)
    calls = max(1, int(seconds / max(1e-6, time.perf_counter() - t)))
    rates = []
    with ThreadPoolExecutor(threads) as pool:
        for _ in range(reps):
            t = time.perf_counter()
            list(pool.map(lambda i: work(i * 10**9, calls), range(threads)))
            dt = time.perf_counter() - t
            rates.append(threads * calls * per_call * len(actions) / dt)
    return {
        "policy": policy,
        "threads": threads,
        "moves": len(actions),
        "rollouts_per_s": statistics.median(rates),
        "min": min(rates),
        "max": max(rates),
    }


def _strength(
    label: str, deals: int, seed: int, args: Any, settings: dict[str, Any], play: Any
) -> dict[str, Any]:
    """One match (vs_random or vs_heuristic) with its own SearchBot, times and tally."""
    timed, tally = Timed(_search(seed, args.budget, settings)), Tally()
    r = play(
        deals,
        seed,
        args.budget,
        timed,
        tally,
        args.report_every,
        time.monotonic() + 60 * args.max_minutes,
    )
    r["settings"] = {**timed.bot.settings()}
    r["decision_ms_median"] = 1000 * statistics.median(timed.times or [0.0])
    r["decision_cpu_ms_median"] = 1000 * statistics.median(timed.cpu or [0.0])
    r["decisions"] = len(timed.times)
    r["tally"] = t = tally.to_dict()
    n = r.get("deals", r.get("duplicate_deals"))
    low_high = r.get("interval")  # (None: one deal, no interval)
    extra = f" (95% interval {low_high[0]:+.2f} .. {low_high[1]:+.2f})" if low_high else ""
    ci = math.nan if r["ci95"] is None else r["ci95"]
    stay = "n/a" if t["fl_stay_rate"] is None else f"{t['fl_stay_rate']:.1%}"
    print(
        f"{label}, {n} {'duplicate ' if 'interval' in r else ''}deals: "
        f"{r['points_per_deal']:+.2f} +- {ci:.2f} points/deal{extra}\n"
        f"  settings {json.dumps(settings)}: median {r['decision_cpu_ms_median']:.1f} ms "
        f"CPU ({r['decision_ms_median']:.1f} ms wall) a decision ({r['decisions']} "
        f"decisions), foul rate {t['foul_rate']:.1%}, Fantasyland entry "
        f"{t['fl_entry_rate']:.1%}, stay {stay} ({t['fl_deals']} Fantasyland deals)",
        flush=True,
    )
    return r


def main(argv: list[str] | None = None) -> int:
    ap = ScriptParser(formatter_class=ScriptHelp, description=__doc__.split("\n\n")[0])
    ap.add_argument(
        "--random-deals", type=at_least(0), default=2000, help="deals against RandomBot"
    )
    ap.add_argument(
        "--duplicate-deals",
        type=at_least(0),
        default=2000,
        help="duplicate deals against HeuristicBot",
    )
    ap.add_argument(
        "--budget",
        type=duration,
        default=0.04,
        help="SearchBot's time_budget: seconds of CPU time a decision "
        "(the opening: opening_factor times as much)",
    )
    ap.add_argument(
        "--random-settings",
        type=json_object,
        default="{}",
        help="SearchBot's keyword settings (JSON) against RandomBot",
    )
    ap.add_argument(
        "--heuristic-settings",
        type=json_object,
        default="{}",
        help="SearchBot's keyword settings (JSON) against HeuristicBot",
    )
    ap.add_argument(
        "--max-minutes",
        type=float,
        default=math.inf,
        help="stop each match after this many minutes and report the deals played",
    )
    ap.add_argument(
        "--report-every",
        type=at_least(0),
        default=100,
        help="print the running figure every N deals (0: never)",
    )
    ap.add_argument(
        "--seed", type=at_least(0, SEED_MAX), default=2026, help="seed of the deals"
    )
    ap.add_argument(
        "--reps",
        type=at_least(1),
        default=5,
        help="repetitions of each rollouts/s row (median reported)",
    )
    ap.add_argument(
        "--seconds", type=duration, default=0.5, help="seconds per rollout repetition"
    )
    ap.add_argument(
        "--skip-strength", action="store_true", help="no matches (only rollouts/s)"
    )
    ap.add_argument(
        "--skip-speed", action="store_true", help="no rollouts/s rows (only the matches)"
    )
    ap.add_argument(
        "--json", type=output_path, metavar="PATH", help="write the figures as JSON"
    )
    args = ap.parse_args(argv)
    if not args.max_minutes > 0:
        ap.error(f"--max-minutes: must be above 0, got {args.max_minutes}")
    no_deals = args.random_deals == args.duplicate_deals == 0
    if args.skip_speed and (args.skip_strength or no_deals):  # (ran nothing, status 0)
        why = "--skip-strength" if args.skip_strength else "no deals to play"
        ap.error(f"--skip-speed with {why}: nothing left to run")
    for option, settings in (
        ("--budget", {}),  # (the settings' own time_budget, if any, in its place)
        ("--random-settings", args.random_settings),
        ("--heuristic-settings", args.heuristic_settings),
    ):
        try:  # the bots made once here: a bad setting before the speed rows
            _search(0, args.budget, settings)
        except (OfcError, TypeError) as exc:
            ap.error(f"{option}: {exc}")
    out: dict[str, Any] = {"rules": PRESET.name, "budget": args.budget}
    if not args.skip_speed:
        out["rollouts"] = [
            rollouts_per_second(p, t, args.reps, args.seconds)
            for p in ("fast", "best", "sequential", "learned")
            for t in (1, 2)
        ]
        for r in out["rollouts"]:
            print(
                f"rollouts/s {r['policy']:<10} {r['threads']} thread(s): "
                f"{r['rollouts_per_s']:>12,.0f}  (min {r['min']:,.0f}, max {r['max']:,.0f};"
                f" {r['moves']} moves)",
                flush=True,
            )
        rate = {(r["policy"], r["threads"]): r["rollouts_per_s"] for r in out["rollouts"]}
        for t in (1, 2):
            print(
                f"learned / sequential, {t} thread(s): "
                f"{rate['learned', t] / rate['sequential', t]:.3f} of the rollouts/s",
                flush=True,
            )
    if not args.skip_strength:
        matches = [
            (
                "vs_random",
                "SearchBot vs RandomBot",
                args.random_deals,
                args.random_settings,
                vs_random,
                args.seed,
            ),
            (
                "vs_heuristic",
                "SearchBot vs HeuristicBot",
                args.duplicate_deals,
                args.heuristic_settings,
                vs_heuristic,
                seed_offset(args.seed, 1),
            ),
        ]
        for key, label, deals, settings, play, seed in matches:
            if deals:
                out[key] = _strength(label, deals, seed, args, settings, play)
    if args.json:
        write_whole("--json", args.json, json.dumps(out, indent=1))
    return 0


if __name__ == "__main__":
    from ofc_fast.cli import run_command  # (an error, a reader gone: one line)

    sys.exit(run_command(main, "bench_search.py"))
