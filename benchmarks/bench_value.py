r"""Duplicate strength of the learned value model (docs/learned.md).

    python benchmarks/bench_value.py --pairs 300 --match value:heuristic
    python benchmarks/bench_value.py --pairs 200 --match search:search-rollouts
    python benchmarks/bench_value.py --rules ofc --players 3 --match search:search-rollouts

Heads-up, each deal pair plays deal ``i`` (seed ``deal_seed(seed, i)``, button
``i % 2``) twice with the two bots' seats swapped, so both bots see the same cards; a
pair's score is bot A's mean net over its two seats.  With ``--players`` n > 2 the deal
is played n times with A in seat r and B in every other seat, and once with B in every
seat: the deal's score is the mean over r of A's net in seat r less B's net in that
seat among its own kind (for n = 2 this is the heads-up score, since B's two nets
against itself sum to 0).  The figure is the mean over deals with a Student-t 95%
interval (``ofc_fast.arena._stats``).  A normal deal's points leave out what its
Fantasyland entries are worth; ``--carry N`` adds them: after a deal that sends a seat
to Fantasyland, the next deal (seed ``deal_seed(seed + k, i)``, ``seed + k`` modulo
2**64; the same in every seating) is played with those Fantasyland hands, and so on up
to N deals, each adding its points to the deal's (what a match would pay for the deal
and its sequels); the figure of the normal deals alone is printed too, from the same
games.  Also per bot: fouls, Fantasyland entries and royalties on these normal deals,
and the median CPU time of its normal decisions (one core).  Bots: ``value`` (ValueBot),
``heuristic`` (HeuristicBot), ``random``, ``search`` (SearchBot, the shipped model),
``search-rollouts`` (SearchBot(model=None)), ``search-self`` (SearchBot(opponent="self"):
the other seats modelled as playing like its own rollouts), ``search-oracle`` (the
learned search told the other seat's final board before it is played: a bound on what
any model of the opponent could add; heads-up against ``random`` only), and ``value@PATH`` /
``search@PATH``: ValueBot / SearchBot with the model file at PATH instead of the
shipped one (to compare two models, ``--match search@new.ofcvm:search``); the search
bots get ``--budget`` seconds of CPU time per decision (the opening three times that).

``--compare C`` also plays bot C in A's place on the same deals (B's bots with the
same seeds), and prints A less C, deal by deal, with its interval: two bots compared
through a third, e.g. ``--match search:random --compare search-rollouts``.  Against
``random`` the opponent's boards are then the same for both (RandomBot's moves depend
on its own cards and seed only); against another bot, its cards and seeds are.
"""

from __future__ import annotations

import copy
import json
import statistics
import sys
import time
from concurrent.futures import ProcessPoolExecutor
from typing import Any

from ofc_fast import rules
from ofc_fast.arena._stats import t_half_width
from ofc_fast.bots import HeuristicBot, RandomBot, SearchBot, ValueBot, make_bot
from ofc_fast.bots.registry import model_spec
from ofc_fast.cli.options import write_whole
from ofc_fast.errors import BotError, OfcError, TableError, UnknownBotError
from ofc_fast.game import Game, deal_seed, play_out
from ofc_fast.parallel.cli import check_workers
from ofc_fast.table import SEED_MAX, check_players
from ofc_fast.timing import (
    ScriptHelp,
    ScriptParser,
    at_least,
    duration,
    output_path,
    preset_name,
    seed_offset,
)

PRESET = rules.PINEAPPLE  # --rules replaces it in every worker (see pair())

BOTS = (
    "value",
    "heuristic",
    "random",
    "search",
    "search-rollouts",
    "search-self",
    "search-oracle",
    "value@PATH",
    "search@PATH",
)
"""The bot names :func:`make` takes."""


def _is_bot(name: str) -> bool:
    """Whether ``name`` is one of :data:`BOTS` (``value@PATH``: the registry's spec,
    :func:`~ofc_fast.bots.registry.model_spec`, any non-empty PATH)."""
    return name in BOTS or model_spec(name) is not None


def split_match(text: str) -> tuple[str, str] | None:
    r"""``--match A:B``'s two bot names: split at the first colon with a bot name on
    each side, so that a model path keeps its own colons (``value@C:\m.ofcvm:random``),
    else at the first colon (:func:`make` then names the unknown bot); None without
    two non-empty sides.

    >>> split_match(r"value@C:\m.ofcvm:random")
    ('value@C:\\m.ofcvm', 'random')
    """
    for i, ch in enumerate(text):
        if ch == ":" and _is_bot(text[:i]) and _is_bot(text[i + 1 :]):
            return text[:i], text[i + 1 :]
    a, colon, b = text.partition(":")
    return (a, b) if colon and a and b else None


def make(name: str, seed: int, budget: float) -> Any:
    """A bot by benchmark name (``value@PATH``, ``search@PATH``: the registry's spec,
    made by :func:`~ofc_fast.bots.make_bot`)."""
    spec = model_spec(name)
    if spec is not None:
        settings = {"time_budget": budget} if spec[0] == "search" else {}
        return make_bot(name, PRESET, seed, **settings)
    if name == "value":
        return ValueBot(PRESET, seed)
    if name == "heuristic":
        return HeuristicBot(PRESET, seed)
    if name == "random":
        return RandomBot(seed)
    if name == "search-oracle":
        return _Oracle(seed, budget)
    if name in ("search", "search-rollouts", "search-self"):
        model = None if name == "search-rollouts" else "auto"
        opponent = "self" if name == "search-self" else "best"
        return SearchBot(PRESET, seed, time_budget=budget, model=model, opponent=opponent)
    raise UnknownBotError(f"unknown bot {name!r}; known bots: {', '.join(BOTS)}")


def check_oracle(players: int, opponent: Any) -> None:
    """``search-oracle``'s condition: heads-up, against a RandomBot (whose final board
    is known in advance); BotError otherwise."""
    if players != 2 or not isinstance(opponent, RandomBot):
        raise BotError("search-oracle plays heads-up against random only")


class _Oracle:
    """``search-oracle``: the learned search told the other seat's final board before
    it is played, a bound on what any model of the opponent could add (heads-up
    against ``random`` only, whose moves depend on its own cards and seed alone, so
    its final board is known in advance): each observation shows that board in place
    of the other seat's current one."""

    def __init__(self, seed: int, budget: float) -> None:
        self.search = SearchBot(PRESET, seed, time_budget=budget)
        self.final: Any = None

    def act(self, obs: Any) -> Any:
        other = 1 - obs["seat"]
        boards, hidden = list(obs["boards"]), list(obs["face_down_counts"])
        fl = list(obs["fantasyland"])
        # shown and finished: none of it face down, nothing to come (a Fantasyland
        # hand is set face down, and the search would deal it)
        boards[other], hidden[other], fl[other] = self.final, [0, 0, 0], 0
        shown = {"boards": boards, "face_down_counts": hidden, "fantasyland": fl}
        return self.search.act({**obs, **shown})


def _final_board(deal: Any, opponent: Any, seat: int) -> Any:
    """The other seat's final board in ``deal()``, played by a copy of ``opponent``
    (a RandomBot, heads-up) whatever ``seat`` plays."""
    g = deal()
    check_oracle(g.players, opponent)
    bots = [RandomBot(0), RandomBot(0)]
    bots[1 - seat] = copy.deepcopy(opponent)
    play_out(g, bots)
    return g.observation(seat)["boards"][1 - seat]


class _Timed:
    """Keeps the CPU time of each normal decision: every decision of a seat not in
    Fantasyland (a classic hand's one decision of 13 cards included)."""

    def __init__(self, bot: Any) -> None:
        self.bot, self.ms = bot, []

    def act(self, obs: Any) -> Any:
        t0 = time.thread_time()
        move = self.bot.act(obs)
        if not obs["fantasyland"][obs["seat"]]:
            self.ms.append(1000 * (time.thread_time() - t0))
        return move


def pair(job: tuple[str, str, int, int, float, str, int, int]) -> dict[str, Any]:
    """Deal ``i``: A in each seat among B's (and, for 3+ seats, B among B's)."""
    a, b, seed, i, budget, table, players, carry = job
    global PRESET
    PRESET = rules.get(table)
    out: dict[str, Any] = {"net": [], "net0": [], "ms_a": [], "ms_b": []}
    base = play(b, b, -1, seed, i, budget, players, carry, out) if players > 2 else None
    for r in range(players):
        net = play(a, b, r, seed, i, budget, players, carry, out)
        for key, k in (("net", 0), ("net0", 1)):
            out[key].append(net[k][r] - (base[k][r] if base is not None else 0))
    return out


def play(
    a: str,
    b: str,
    seat: int,
    seed: int,
    i: int,
    budget: float,
    players: int,
    carry: int,
    out: dict[str, Any],
) -> tuple[list[int], list[int]]:
    """Deal ``i``: A in ``seat`` (-1: none), B elsewhere; records A's and one B seat's
    fouls, Fantasyland entries, royalties and decision times of the normal deal; the
    nets with those of up to ``carry`` Fantasyland deals the deal leads to, and the
    normal deal's nets alone."""
    bots = [
        _Timed(
            make(a, 2 * i + s, budget) if s == seat else make(b, 10**6 + 2 * i + s, budget)
        )
        for s in range(players)
    ]
    fl: tuple[int, ...] = (0,) * players
    total = [0] * players
    first: list[int] = []
    oracle = bots[seat].bot if seat >= 0 and isinstance(bots[seat].bot, _Oracle) else None
    for k in range(carry + 1):

        def deal(k: int = k, fl: tuple[int, ...] = fl) -> Game:
            return Game(
                PRESET,
                players=players,
                seed=deal_seed(seed_offset(seed, k), i),
                button=i % players,
                fantasyland=fl,
            )

        if oracle is not None:
            oracle.final = _final_board(deal, bots[1 - seat].bot, seat)
        g = deal()
        while g.to_act is not None:
            s = g.to_act
            g.play(bots[s].act(g.observation(s)))
        if oracle is not None and g.observation(seat)["boards"][1 - seat] != oracle.final:
            raise RuntimeError(
                "search-oracle: the opponent's board differs from its oracle"
            )
        r = g.result()
        total = [t + n for t, n in zip(total, r.net)]
        first = first or list(r.net)
        if k == 0 and seat >= 0:
            other = (seat + 1) % players
            for who, s in (("a", seat), ("b", other)):
                out.setdefault(f"foul_{who}", []).append(bool(r.fouls[s]))
                out.setdefault(f"fl_{who}", []).append(r.fantasyland[s] > 0)
                out.setdefault(f"roy_{who}", []).append(sum(r.royalties[s]))
            out["ms_a"] += bots[seat].ms
            out["ms_b"] += bots[other].ms
        fl = tuple(r.fantasyland)
        if not any(fl):
            break
    return total, first


def main(argv: list[str] | None = None) -> int:
    ap = ScriptParser(formatter_class=ScriptHelp, description=__doc__.split("\n\n")[0])
    ap.add_argument("--pairs", type=at_least(1), default=200, help="deal pairs")
    ap.add_argument("--match", default="value:heuristic", help="A:B bot names")
    ap.add_argument(
        "--seed", type=at_least(0, SEED_MAX), default=2026, help="seed of the deals"
    )
    ap.add_argument("--budget", type=duration, default=0.04, help="search seconds/decision")
    ap.add_argument("--rules", type=preset_name, default="pineapple", help="a preset name")
    ap.add_argument("--players", type=int, default=2, help="seats at the table")
    ap.add_argument(
        "--carry",
        type=at_least(0),
        default=0,
        metavar="N",
        help="also play up to N Fantasyland deals each deal leads to, adding their points",
    )
    ap.add_argument(
        "--compare",
        metavar="C",
        help="also play bot C in A's place on the same deals; print A less C",
    )
    ap.add_argument(
        "--workers", type=at_least(1), default=1, help="processes, at most 4 per CPU"
    )
    ap.add_argument(
        "--json", type=output_path, metavar="PATH", help="write every figure here"
    )
    args = ap.parse_args(argv)
    try:  # (the ofc-fast commands' cap: each process holds its own bots)
        check_workers(args.workers)
    except OfcError as exc:
        ap.error(str(exc))
    sides = split_match(args.match)
    if sides is None:
        ap.error(f"--match: expected A:B, two bot names, got {args.match!r}")
    a, b = sides
    firsts = [a] if args.compare is None else [a, args.compare]
    jobs = [
        (x, b, args.seed, i, args.budget, args.rules, args.players, args.carry)
        for x in firsts
        for i in range(args.pairs)
    ]
    global PRESET
    PRESET = rules.get(args.rules)
    try:
        check_players(args.players, PRESET)
    except TableError as exc:
        ap.error(f"--players: {exc}")
    first = Game(PRESET, players=args.players, seed=deal_seed(args.seed, 0))
    for option, name in (("--match", a), ("--match", b), ("--compare", args.compare)):
        try:  # each bot made, and played on a first decision, before the run: a bad
            # name, model file or a model for other rules or seats
            bot = None if name is None else make(name, 0, args.budget)
            if name == "search-oracle":
                check_oracle(args.players, make(b, 0, args.budget))
            elif bot is not None:
                bot.act(first.observation(first.to_act))
        except OfcError as exc:
            ap.error(f"{option}: {exc}")
    t0 = time.perf_counter()
    if args.workers > 1:
        with ProcessPoolExecutor(args.workers) as pool:
            every = list(pool.map(pair, jobs, chunksize=4))
    else:
        every = [pair(j) for j in jobs]
    res, other = every[: args.pairs], every[args.pairs :]
    diffs = [statistics.fmean(r["net"]) for r in res]
    hw = t_half_width(diffs)
    normal = [statistics.fmean(r["net0"]) for r in res]
    out: dict[str, Any] = {
        "match": args.match,
        "rules": args.rules,
        "players": args.players,
        "carry": args.carry,
        "pairs": args.pairs,
        "seed": args.seed,
        "budget": args.budget,
        "a_minus_b": statistics.fmean(diffs),
        "ci95": hw,
        "normal_deals": {
            "a_minus_b": statistics.fmean(normal),
            "ci95": t_half_width(normal),
        },
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
        f"{a} vs {b}: {out['a_minus_b']:+.2f} +- {_half(hw)} "
        f"points/deal ({args.pairs} duplicate deals, {args.rules} {args.players} seats, "
        f"{f'up to {args.carry} Fantasyland deals carried, ' if args.carry else ''}"
        "95% t interval)"
    )
    if args.carry:
        n = out["normal_deals"]
        print(
            f"  the normal deals alone: {n['a_minus_b']:+.2f} +- {_half(n['ci95'])} points/deal"
        )
    for key in (a, b) if a != b else (a, f"{a} (B)"):
        s = out[key]
        print(
            f"  {key:<16} fouls {s['fouls']:6.1%}  Fantasyland {s['fantasyland']:6.1%}  "
            f"royalties {s['royalties']:5.2f}  median {s['median_ms']:.2f} ms  "
            f"p90 {s['p90_ms']:.2f} ms"
        )
    if other:
        out["compare"] = _compared(a, args.compare, res, other)
        c = out["compare"]
        n = c["normal_deals"]
        print(
            f"{a} less {args.compare}, each against {b} on the same deals: "
            f"{c['a_minus_c']:+.2f} +- {_half(c['ci95'])} points/deal"
            + (
                f" (normal deals alone {n['a_minus_c']:+.2f} +- {_half(n['ci95'])})"
                if args.carry
                else ""
            )
        )
        s = c[args.compare]
        print(
            f"  {args.compare:<16} fouls {s['fouls']:6.1%}  Fantasyland "
            f"{s['fantasyland']:6.1%}  royalties {s['royalties']:5.2f}  "
            f"against {b}: {c['c_minus_b']:+.2f} points/deal"
        )
    if args.json:
        write_whole("--json", args.json, json.dumps(out, indent=1))
    return 0


def _half(hw: float | None) -> str:
    """An interval's half width, 'nan' where one deal gives none."""
    return f"{hw:.2f}" if hw is not None else "nan"


def _compared(
    a: str, c: str, res: list[dict[str, Any]], other: list[dict[str, Any]]
) -> dict[str, Any]:
    """A less C deal by deal (each the mean of its nets against B), with intervals,
    and C's own fouls, Fantasyland entries and royalties."""

    def less(key: str) -> dict[str, Any]:
        d = [
            statistics.fmean(x[key]) - statistics.fmean(y[key]) for x, y in zip(res, other)
        ]
        return {"a_minus_c": statistics.fmean(d), "ci95": t_half_width(d)}

    out: dict[str, Any] = {"a": a, "c": c, **less("net"), "normal_deals": less("net0")}
    out["c_minus_b"] = statistics.fmean(statistics.fmean(y["net"]) for y in other)
    out[c] = {
        k: statistics.fmean(x for y in other for x in y[f"{f}_a"])
        for k, f in (("fouls", "foul"), ("fantasyland", "fl"), ("royalties", "roy"))
    }
    return out


if __name__ == "__main__":
    from ofc_fast.cli import run_command  # (an error, a reader gone: one line)

    sys.exit(run_command(main, "bench_value.py"))
