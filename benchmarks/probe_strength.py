r"""Paired strength probe: SearchBot settings against RandomBot on identical deals.

    python benchmarks/probe_strength.py --deals 600 \\
        --config base='{}' --config slow='{"time_budget": 0.2}' --ceiling

A ``Match`` against ``RandomBot`` (``bench_search.py``) carries Fantasyland from deal
to deal, so two settings soon play different cards and their difference is as noisy
as each figure (about +-0.3 points/deal at 2,000 deals).  This probe splits a match
into the parts that do not depend on each other:

* ``N``: SearchBot's net on independent normal deals (deal ``i``: seed
  ``deal_seed(seed, i)``, button ``i % 2``, the same ``RandomBot`` stream), the same
  deals for every setting, so settings are compared deal by deal;
* ``e``: the share of those deals that earn Fantasyland;
* ``F`` and ``s``: SearchBot's net on Fantasyland deals (14 cards, set by the exact
  solver; ``--fl-deals`` of them) and the share that stay; they do not depend on the
  search settings (the solver sets Fantasyland hands).

A match is a Markov chain over normal and Fantasyland deals: Fantasyland deals are a
share ``pi = e / (1 - s + e)`` of it, and its points per deal are
``(1 - pi) N + pi F`` (printed as ``match``; it agrees with ``bench_search.py``
within its interval).  Settings are compared on ``net + lambda * entry`` per deal
(``lambda = (F - N) / (1 - s)``: an entry's worth in match points, with ``N`` of the
first setting), with a Student-t 95% interval of the paired differences.

Where the fouls come from: for each fouled board of the normal deals, the decision
after which the seat's real later cards admit no clean completion (perfect foresight,
``ofc.best_completion``), printed per setting as counts by the board's cards after
that decision (``5`` the opening, ``13`` the last one).  A foul committed on an early
decision is a risk the search took there knowingly or not; one committed on the
11-card decision was taken with only the last round to come, which the rollouts
complete exactly.

Whom the decisions face: the first of the seat's decisions taken when the opponent's
board already admitted no clean finish with the opponent's real later cards (it
fouls whatever it does), printed per setting as the share of deals where that had
happened by the decision leaving 7, 9, 11 and 13 cards, with the seat's foul rate in
those deals and in the others.

``--ceiling`` adds a bound no player reaches: SearchBot's seat set with perfect
foresight (the best completion of the 17 cards it is dealt, ``ofc.best_completion``
with the default value model), against the same random boards.
"""

from __future__ import annotations

import argparse
import json
import statistics
import sys
from concurrent.futures import ProcessPoolExecutor
from typing import Any

import ofc_fast as ofc
from ofc_fast import rules
from ofc_fast.arena._stats import t_half_width
from ofc_fast.board import Board
from ofc_fast.bots import RandomBot, SearchBot
from ofc_fast.cli.options import write_whole
from ofc_fast.errors import OfcError
from ofc_fast.game import Game, deal_seed, play_out
from ofc_fast.parallel.cli import check_workers
from ofc_fast.search import best_completion
from ofc_fast.table import SEED_MAX
from ofc_fast.timing import ScriptHelp, ScriptParser, at_least, json_object, output_path

PRESET = rules.PINEAPPLE
ROUNDS = [(5, 0)] + [(3, 1)] * 4  # PINEAPPLE: the seat's rounds (cards, discards)
RANDOM_STREAM = 10**6  # RandomBot of deal i: seed RANDOM_STREAM + i
SIZES = (5, 7, 9, 11, 13)  # cards on the board after each PINEAPPLE decision


def _record(
    net: int,
    entry: int,
    foul: bool,
    royalties: tuple[int, ...],
    committed: int = 0,
    doomed: int = 0,
) -> dict[str, Any]:
    return {
        "net": net,
        "entry": bool(entry),
        "foul": bool(foul),
        "royalties": sum(royalties),
        "committed": committed,  # a foul's board size when it became certain; 0: none
        "doomed": doomed,  # our board size after the first decision facing a doomed
        # opponent (opponent_doomed); 0: none
    }


def _result(game: Game, committed: int = 0, doomed: int = 0) -> dict[str, Any]:
    r = game.result()
    return _record(
        r.net[0], r.fantasyland[0], r.fouls[0], r.royalties[0], committed, doomed
    )


Seen = list[tuple[Any, list[int], int]]  # per decision: board before, cards, discards


class _Watched:
    """A bot whose decisions are kept: the seat's board before each, its cards and
    discards (``seen``), and the other seat's board at that moment (``other``)."""

    def __init__(self, bot: Any) -> None:
        self.bot = bot
        self.seen: Seen = []
        self.other: list[Any] = []

    def act(self, obs: Any) -> Any:
        seat = obs["seat"]
        self.seen.append((obs["boards"][seat], list(obs["dealt"]), int(obs["to_discard"])))
        self.other.append(obs["boards"][1 - seat])
        return self.bot.act(obs)


def _cards(board: Any) -> int:
    return sum(len(r) for r in board)


def no_clean_finish(board: Any, later: Seen) -> bool:
    """Whether ``board`` fouls however the cards of the ``later`` decisions are kept
    and placed (perfect foresight: ``best_completion``)."""
    if not later:
        return bool(Board.from_ids(*(tuple(r) for r in board)).evaluate(PRESET).foul)
    cards = [c for _, dealt, _ in later for c in dealt]
    rounds = [(len(dealt), k) for _, dealt, k in later]
    return bool(best_completion(board, cards, PRESET, rounds=rounds).foul)


def committed(seen: Seen) -> int:
    """The cards on the board after the first decision from which the real later
    cards admit no clean completion (13, the final board's, when each did)."""
    for d, (board, _, _) in enumerate(seen[1:]):
        if no_clean_finish(board, seen[d + 1 :]):
            return _cards(board)
    return 13


def opponent_doomed(me: _Watched, opponent: Seen) -> int:
    """The cards on ``me``'s board after the first of its decisions taken when the
    other seat's board already admitted no clean finish with that seat's real later
    cards (0: none was); ``opponent``: the other seat's decisions."""
    for (board, dealt, k), other in zip(me.seen, me.other):
        later = [d for d in opponent if _cards(d[0]) >= _cards(other)]
        if _cards(other) and no_clean_finish(other, later):
            return _cards(board) + len(dealt) - k
    return 0


def normal_deal(seed: int, i: int, settings: dict[str, Any]) -> dict[str, Any]:
    """Deal ``i``: SearchBot (seat 0, ``settings``) against RandomBot, no Fantasyland."""
    g = Game(PRESET, players=2, seed=deal_seed(seed, i), button=i % 2)
    bot = _Watched(SearchBot(PRESET, seed=i, **settings))
    other = _Watched(RandomBot(RANDOM_STREAM + i))
    play_out(g, [bot, other])
    foul = g.result().fouls[0]
    return _result(g, committed(bot.seen) if foul else 0, opponent_doomed(bot, other.seen))


def fantasyland_deal(seed: int, i: int) -> dict[str, Any]:
    """Deal ``i`` with SearchBot in a 14-card Fantasyland."""
    g = Game(
        PRESET,
        players=2,
        seed=deal_seed(seed ^ 0x464C, i),
        button=i % 2,
        fantasyland=(14, 0),
    )
    play_out(g, [SearchBot(PRESET, seed=i), RandomBot(RANDOM_STREAM + i)])
    return _result(g)


class _Recorder:
    """Plays at random and keeps every card it is dealt (the cards a seat is dealt
    do not depend on its play: ceiling_deal checks it with two recorders)."""

    def __init__(self, seed: int) -> None:
        self.cards: list[int] = []
        self.bot = RandomBot(seed)

    def act(self, obs: Any) -> Any:
        self.cards += list(obs["dealt"])
        return self.bot.act(obs)


def ceiling_deal(seed: int, i: int) -> dict[str, Any]:
    """Deal ``i`` with seat 0 set with perfect foresight."""
    recs = []
    for own in (0, 1):
        g = Game(PRESET, players=2, seed=deal_seed(seed, i), button=i % 2)
        recs.append(_Recorder(own))
        play_out(g, [recs[-1], RandomBot(RANDOM_STREAM + i)])
    rec = recs[0]
    if recs[1].cards != rec.cards:
        raise RuntimeError(f"deal {i}: the cards dealt depend on the seat's play")
    best = best_completion([[], [], []], rec.cards, PRESET, rounds=ROUNDS)
    score = ofc.score_pair(best.board, g.boards[1], PRESET)
    return _record(score.net, best.fantasyland, score.fouls[0], score.royalties[0])


def _chunk(job: tuple[str, int, list[int], dict[str, Any]]) -> list[dict[str, Any]]:
    kind, seed, deals, settings = job
    if kind == "fl":
        return [fantasyland_deal(seed, i) for i in deals]
    if kind == "ceiling":
        return [ceiling_deal(seed, i) for i in deals]
    return [normal_deal(seed, i, settings) for i in deals]


def run(
    pool: ProcessPoolExecutor,
    kind: str,
    seed: int,
    deals: int,
    settings: dict[str, Any],
    workers: int,
) -> list[dict[str, Any]]:
    """The records of deals 0..deals-1, split over the workers (in deal order)."""
    parts = [list(range(w, deals, workers)) for w in range(workers)]
    out: list[dict[str, Any] | None] = [None] * deals
    for part, recs in zip(
        parts, pool.map(_chunk, [(kind, seed, p, settings) for p in parts])
    ):
        for i, rec in zip(part, recs):
            out[i] = rec
    return [r for r in out if r is not None]


def half_text(hw: float | None) -> str:
    """A 95% interval's half-width (:func:`t_half_width`) as printed: "nan" under two
    values (where the JSON holds null)."""
    return "nan" if hw is None else f"{hw:.2f}"


def summary(recs: list[dict[str, Any]], f: float, s: float) -> dict[str, float]:
    """N, e, foul and royalty rates, and the match projection."""
    n = statistics.fmean(r["net"] for r in recs)
    e = statistics.fmean(r["entry"] for r in recs)
    pi = e / (1 - s + e)
    return {
        "N": n,
        "N_ci95": t_half_width([r["net"] for r in recs]),
        "entry": e,
        "foul": statistics.fmean(r["foul"] for r in recs),
        "royalties": statistics.fmean(r["royalties"] for r in recs),
        "match": (1 - pi) * n + pi * f,
    }


def doomed_by(rec: dict[str, Any], cards: int) -> bool:
    """Whether the deal's opponent was doomed by our decision leaving ``cards``."""
    return bool(0 < rec["doomed"] <= cards)


def doom(recs: list[dict[str, Any]]) -> str:
    """Per decision of the normal deals (by the cards it leaves): the share of deals
    whose opponent's board was already doomed then, and the seat's foul rate in
    those deals and in the others."""
    parts = []
    for c in (7, 9, 11, 13):
        hit = [r["foul"] for r in recs if doomed_by(r, c)]
        miss = [r["foul"] for r in recs if not doomed_by(r, c)]
        rate = [f"{statistics.fmean(x):.1%}" if x else "-" for x in (hit, miss)]
        parts.append(
            f"{c} cards: {len(hit) / len(recs):.1%} (fouls {rate[0]}, else {rate[1]})"
        )
    return ", ".join(parts)


def split_vs(diffs: list[float], ref: list[dict[str, Any]]) -> str:
    """The paired differences split by whether the opponent's board was already
    doomed by the reference's 9-card decision (the same deals for every setting:
    the opponent's play does not depend on the seat's)."""
    parts = []
    for label, keep in (("opponent doomed by 9 cards", True), ("the others", False)):
        xs = [x for x, r in zip(diffs, ref) if doomed_by(r, 9) == keep]
        fig = f"{statistics.fmean(xs):+.2f} +- {half_text(t_half_width(xs))}" if xs else "-"
        parts.append(f"{label}: {fig} ({len(xs)} deals)")
    return "; ".join(parts)


def main(argv: list[str] | None = None) -> int:
    ap = ScriptParser(formatter_class=ScriptHelp, description=__doc__.split("\n\n")[0])
    ap.add_argument(
        "--deals", type=at_least(1), default=600, help="normal deals per setting"
    )
    ap.add_argument(
        "--fl-deals", type=at_least(1), default=300, help="Fantasyland deals (F, s)"
    )
    ap.add_argument(
        "--seed", type=at_least(0, SEED_MAX), default=777, help="seed of the deals"
    )
    ap.add_argument(
        "--workers", type=at_least(1), default=2, help="processes, at most 4 per CPU"
    )
    ap.add_argument(
        "--config",
        action="append",
        default=[],
        metavar="NAME=JSON",
        help="SearchBot settings to compare (repeatable; the first is the reference; "
        "NAME is not 'ceiling', the --ceiling row's)",
    )
    ap.add_argument(
        "--ceiling", action="store_true", help="add the perfect-foresight bound"
    )
    ap.add_argument(
        "--json", type=output_path, metavar="PATH", help="write every figure here"
    )
    args = ap.parse_args(argv)
    try:  # (the ofc-fast commands' cap: each process holds its own bots)
        check_workers(args.workers)
    except OfcError as exc:
        ap.error(str(exc))
    configs: list[tuple[str, dict[str, Any]]] = []
    for spec in args.config or ["defaults={}"]:
        name, equals, text = spec.partition("=")
        if not (equals and name) or name.lstrip().startswith("{"):
            ap.error(f"--config: expected NAME=JSON, got {spec!r}")
        if name in dict(configs):  # (the JSON keys the settings by name)
            ap.error(f"--config {name}: named twice")
        if name == "ceiling":
            ap.error(f"--config {name}: the name of the --ceiling row; choose another")
        try:
            configs.append((name, json_object(text or "{}")))
            SearchBot(PRESET, seed=0, **configs[-1][1])  # a bad setting: before the run
        except (argparse.ArgumentTypeError, OfcError, TypeError) as exc:
            ap.error(f"--config {name}: {exc}")
    out: dict[str, Any] = {"deals": args.deals, "fl_deals": args.fl_deals, "settings": {}}
    with ProcessPoolExecutor(args.workers) as pool:
        fl = run(pool, "fl", args.seed, args.fl_deals, {}, args.workers)
        f = statistics.fmean(r["net"] for r in fl)
        s = statistics.fmean(r["entry"] for r in fl)
        print(
            f"Fantasyland deals: F = {f:+.2f} "
            f"+- {half_text(t_half_width([r['net'] for r in fl]))}, "
            f"stay s = {s:.1%} ({len(fl)} deals)"
        )
        out.update(F=f, stay=s)
        if s >= 1:  # lambda = (F - N) / (1 - s) unbounded: no figure to give
            ap.error(
                "--fl-deals: every Fantasyland deal stayed (s = 100%): an entry's worth "
                "(F - N) / (1 - s) is unbounded; run more Fantasyland deals"
            )
        rows = [
            (name, run(pool, "normal", args.seed, args.deals, cfg, args.workers))
            for name, cfg in configs
        ]
        if args.ceiling:
            rows.append(
                ("ceiling", run(pool, "ceiling", args.seed, args.deals, {}, args.workers))
            )
    ref = rows[0][1]
    lam = (f - statistics.fmean(r["net"] for r in ref)) / (1 - s)
    print(f"{args.deals} normal deals per setting; lambda (an entry's worth) = {lam:.2f}")
    print(
        f"{'setting':<12} {'N':>13} {'entry':>6} {'foul':>6} {'roy':>5} {'match':>6} "
        f"{'vs first':>14}"
    )
    for name, recs in rows:
        sm = summary(recs, f, s)
        diffs = [
            (b["net"] + lam * b["entry"]) - (a["net"] + lam * a["entry"])
            for a, b in zip(ref, recs)
        ]
        d, dci = statistics.fmean(diffs), t_half_width(diffs)
        vs = "" if recs is ref else f"{d:+.2f} +- {half_text(dci)}"
        print(
            f"{name:<12} {sm['N']:+6.2f} +- {half_text(sm['N_ci95']):>4} {sm['entry']:6.1%} "
            f"{sm['foul']:6.1%} {sm['royalties']:5.2f} {sm['match']:+6.2f} {vs:>14}"
        )
        where = {c: sum(r["committed"] == c for r in recs) for c in SIZES}
        if name != "ceiling":
            print(
                f"{'':<12} fouls committed after the decision leaving "
                + ", ".join(f"{c} cards: {n}" for c, n in where.items())
            )
            print(f"{'':<12} opponent already doomed at the decision leaving " + doom(recs))
        if recs is not ref and name != "ceiling":
            print(f"{'':<12} vs first, " + split_vs(diffs, ref))
        out["settings"][name] = {
            **sm,
            "vs_first": d,
            "vs_first_ci95": dci,
            "committed": {str(c): n for c, n in where.items()},
            "opponent_doomed": {str(c): sum(doomed_by(r, c) for r in recs) for c in SIZES},
        }
    if args.json:
        write_whole("--json", args.json, json.dumps(out, indent=1))
    return 0


if __name__ == "__main__":
    from ofc_fast.cli import run_command  # (an error, a reader gone: one line)

    sys.exit(run_command(main, "probe_strength.py"))
