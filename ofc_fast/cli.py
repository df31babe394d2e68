"""The ``ofc-fast`` command line.

    ofc-fast                                   # a short, readable PINEAPPLE match
    ofc-fast play --rules pineapple --players 3 --hands 1000 --seed 1 \\
                  --bots heuristic,random,random --json out.json --history deals.jsonl
    ofc-fast eval "As Ks Qs Js Ts"             # a 3- or 5-card hand, or a whole board
    ofc-fast score "Qh Qd 2c / 9s 9h 9d 5c 5d / As Ks Qs Js Ts" "<board>" --rules OFC
    ofc-fast solve "Ad Ah Th Jh 6h Ts 5d 3c Tc 3s 7h Qh 3d 9s" --rules pineapple
    ofc-fast advise --rules pineapple --board "Qh / 9s 9h / As Ks" --dealt "2c 5d Ts" \\
                    --opponent "7c / 8d 8h / 4s 4d" [--dead "3c"] [--json]
    ofc-fast rules [NAME]
    ofc-fast bench [--quick]

Tables and progress bars are drawn with ``rich`` when it is installed
(``pip install "ofc-fast[cli]"``), as plain text otherwise.
"""

from __future__ import annotations

import argparse
import json
import sys
import time
from typing import Any, Callable, Optional, Sequence

from . import rules as rules_mod
from .board import Board, Row
from .cards import cards_str, parse_cards
from .errors import OfcError
from .fantasyland import fantasyland_cards
from .ranking import category, describe, kev_rank, rank
from .settlement import settle

__all__ = ["main", "build_parser"]

_SHOW_DEALS = 10  # print every deal of a match this short


def _rich_console(stderr: bool = False) -> Any:
    try:
        from rich.console import Console
    except ImportError:
        return None
    return Console(stderr=stderr)


def _table(title: str, columns: Sequence[str], rows: Sequence[Sequence[Any]],
           justify: Optional[Sequence[str]] = None) -> None:
    """Print a table: rich when available, aligned plain text otherwise."""
    console = _rich_console()
    if console is None:
        cells = [[str(c) for c in columns]] + [[str(c) for c in r] for r in rows]
        widths = [max(len(r[i]) for r in cells) for i in range(len(columns))]
        right = [j == "right" for j in (justify or ["left"] * len(columns))]
        print(title)
        for i, r in enumerate(cells):
            print("  ".join(c.rjust(w) if rt and i else c.ljust(w)
                            for c, w, rt in zip(r, widths, right)).rstrip())
            if i == 0:
                print("  ".join("-" * w for w in widths))
        return
    from rich.table import Table

    table = Table(title=title, title_justify="left")
    for i, col in enumerate(columns):
        table.add_column(col, justify=(justify[i] if justify else "left"))  # type: ignore
    for row in rows:
        table.add_row(*(str(c) for c in row))
    console.print(table)


# ------------------------------------------------------------------------- eval

def _cmd_eval(args: argparse.Namespace) -> int:
    if "/" in args.cards or "|" in args.cards:
        return _eval_board(args)
    ids = parse_cards(args.cards)
    s = rank(ids)
    info: dict[str, Any] = {"cards": cards_str(ids), "strength": s,
                            "category": category(s).name, "description": describe(s)}
    if len(ids) == 5:
        info["kev_rank"] = kev_rank(s)
    if args.json:
        print(json.dumps(info))
    else:
        _table("Hand", ["field", "value"], list(info.items()))
    return 0


def _eval_board(args: argparse.Namespace) -> int:
    preset = rules_mod.get(args.rules)
    board = Board.parse(args.cards)
    e = board.evaluate(preset)
    fl = fantasyland_cards(board, preset) if preset.fantasyland is not None else 0
    if args.json:
        print(json.dumps({"board": str(board), "rules": preset.name,
                          "strengths": list(e.strengths), "royalties": list(e.royalties),
                          "foul": e.foul, "fantasyland": fl,
                          "rows": [describe(s) for s in e.strengths]}))
        return 0
    rows = [[row.name.lower(), cards_str(board.rows[row]), describe(e.strengths[row]),
             e.royalties[row]] for row in Row]
    _table(f"Board ({preset.name})", ["row", "cards", "hand", "royalty"], rows)
    print(f"foul: {'yes' if e.foul else 'no'}   royalties: {e.total_royalties}   "
          f"Fantasyland next deal: {fl or 'no'}")
    return 0


# ------------------------------------------------------------------------ score

def _cmd_score(args: argparse.Namespace) -> int:
    preset = rules_mod.get(args.rules)
    boards = [Board.parse(b) for b in args.boards]
    stacks = args.stacks
    if stacks is not None and len(stacks) == 1:
        stacks = stacks * len(boards)
    result = settle(boards, preset, button=args.button, stacks=stacks)
    fl = [fantasyland_cards(b, preset) if preset.fantasyland is not None else 0
          for b in boards]
    if args.json:
        print(json.dumps({
            "rules": preset.name,
            "boards": [str(b) for b in boards],
            "fouls": [b.is_foul(preset) for b in boards],
            "royalties": [list(b.royalties(preset)) for b in boards],
            "fantasyland": fl,
            "net": result.net,
            "stacks": result.stacks,
            "pairs": [{"seats": list(p), "net": s.net, "rows": list(s.rows)}
                      for p, s in result.pairs],
            "items": [i.to_dict() for i in result.items],
        }))
        return 0
    rows = []
    for seat, b in enumerate(boards):
        e = b.evaluate(preset)
        for row in Row:
            rows.append([seat if row == Row.FRONT else "", row.name.lower(),
                         cards_str(b.rows[row]), describe(e.strengths[row]),
                         e.royalties[row], "FOUL" if e.foul and row == Row.FRONT else ""])
    _table(f"Boards ({preset.name})", ["seat", "row", "cards", "hand", "royalty", ""], rows)
    pairs = [[f"{i} v {j}", " ".join(f"{r:+d}" for r in s.rows), s.row_points, s.bonus,
              s.net - s.row_points - s.bonus, s.net] for (i, j), s in result.pairs]
    _table("Pairs (points to the first seat)", ["pair", "rows", "row pts", "bonus",
                                                 "royalties", "net"], pairs)
    cols = ["seat", "points", "Fantasyland"]
    table = [[i, f"{n:+d}", fl[i] or "-"] for i, n in enumerate(result.net)]
    if result.stacks is not None:
        cols.append("stack")
        for i, r in enumerate(table):
            r.append(result.stacks[i])
    _table("Net", cols, table)
    return 0


# ------------------------------------------------------------------------ rules

def _cmd_rules(args: argparse.Namespace) -> int:
    if args.name:
        print(rules_mod.get(args.name).to_json(indent=2))
        return 0
    _table("Rule presets", ["name", "game", "seats", "description"],
           [[r.name, r.game.value, f"2-{r.max_players}", r.description]
            for r in rules_mod.PRESETS.values()])
    return 0


def _cmd_solve(args: argparse.Namespace) -> int:
    from .solver import cli_solve

    print(cli_solve(args.cards, args.rules))
    return 0


def _cmd_advise(args: argparse.Namespace) -> int:
    from .search import cli_advise

    print(cli_advise(args))
    return 0


def _add_advise(sub: Any) -> None:
    a = sub.add_parser("advise", help="value every legal move of a position (search)",
                       description="Every legal move of seat 0 with its expected points "
                                   "(sampled futures with best completions; exact on the "
                                   "last streets when affordable), best first.")
    a.add_argument("--rules", default="PINEAPPLE", help="preset (default PINEAPPLE)")
    a.add_argument("--board", default="/ /", help='own board "front / middle / back" '
                                                  '(default: empty)')
    a.add_argument("--dealt", required=True, help="the cards to place now")
    a.add_argument("--opponent", action="append",
                   help="an opponent's visible board (repeat per opponent)")
    a.add_argument("--dead", default="", help="other cards known to be out (discards)")
    a.add_argument("--samples", type=int, default=None, help="sampled futures (default "
                                                             "256, or the time budget)")
    a.add_argument("--time", type=float, default=None, help="time budget in seconds")
    a.add_argument("--seed", type=int, default=0, help="seed of the samples (default 0)")
    a.add_argument("--exact", choices=("auto", "yes", "no"), default="auto",
                   help="exact expectimax: when affordable (auto), always, never")
    a.add_argument("--top", type=int, default=0, help="print only the best N moves")
    a.add_argument("--json", action="store_true", help="print JSON")
    a.set_defaults(func=_cmd_advise)


def _cmd_bench(args: argparse.Namespace) -> int:
    from . import bench
    return bench.main(args.bench_args)


# ------------------------------------------------------------------------- play

def _pct(x: float) -> str:
    return f"{100 * x:.1f}%"


def _progress(total: int, enabled: bool) -> tuple[Callable[[], None], Callable[[], None]]:
    """(advance, close) for a progress display on stderr: rich when installed and
    stderr is a terminal, a few plain lines otherwise, nothing when disabled."""
    if not enabled:
        return (lambda: None), (lambda: None)
    console = _rich_console(stderr=True)
    if console is not None and console.is_terminal:
        from rich.progress import (BarColumn, MofNCompleteColumn, Progress, TextColumn,
                                   TimeElapsedColumn, TimeRemainingColumn)

        prog = Progress(TextColumn("[bold]deals"), BarColumn(), MofNCompleteColumn(),
                        TimeElapsedColumn(), TimeRemainingColumn(), console=console,
                        transient=True)
        task = prog.add_task("deals", total=total)
        prog.start()
        return (lambda: prog.advance(task)), prog.stop
    if not sys.stderr.isatty():
        return (lambda: None), (lambda: None)
    state = {"done": 0, "next": 0.1}

    def advance() -> None:
        state["done"] += 1
        if state["done"] >= state["next"] * total:
            print(f"  {state['done']}/{total} deals", file=sys.stderr)
            state["next"] += 0.1

    return advance, (lambda: None)


def _row_text(cards: Sequence[int]) -> str:
    return cards_str(sorted(cards, reverse=True)) or "-"


def _print_deal(index: int, game: Any, result: Any, names: Sequence[str]) -> None:
    rules = game.rules
    title = (f"Deal {index}: {rules.name}, button seat {game.button}"
             + ("".join(f", seat {s} in Fantasyland ({n} cards)"
                        for s, n in enumerate(game.fantasyland) if n)))
    rows = []
    for s, b in enumerate(result.boards):
        roy = result.royalties[s]
        notes = []
        if result.fouls[s]:
            notes.append("FOUL")
        if s in result.surrendered:
            notes.append("surrender")
        if s in result.declared:
            notes.append(result.declared[s])
        if result.fantasyland[s]:
            notes.append(f"FL {result.fantasyland[s]}")
        shown = s not in result.surrendered
        rows.append([s, names[s], *(_row_text(r) if shown else "?" for r in b.rows),
                     sum(roy) if any(roy) else "-", " ".join(notes),
                     f"{result.net[s]:+d}"])
    _table(title, ["seat", "bot", "front", "middle", "back", "roy", "", "net"], rows,
           justify=["right", "left", "left", "left", "left", "right", "left", "right"])


def _cmd_play(args: argparse.Namespace) -> int:
    from .bots import make_bots
    from .game import GameError
    from .game import Match

    preset = rules_mod.get(args.rules)
    players = args.players if args.players is not None else min(3, preset.max_players)
    if args.hands < 1:
        raise GameError(f"--hands must be at least 1, got {args.hands}")
    names = [n.strip().lower() for n in args.bots.split(",") if n.strip()]
    match = Match(preset, players, seed=args.seed, stacks=args.stacks, button=args.button,
                  keep_nets=False)
    # the bots' seeds derive from the match seed, the one printed: it replays the match
    bots = make_bots(names, players, preset, seed=match.seed)
    names = names * players if len(names) == 1 else names
    show = args.show if args.show is not None else (args.hands if args.hands <= _SHOW_DEALS
                                                     else 0)
    deals: list[dict[str, Any]] = []
    hist_file = None
    hist_jsonl = bool(args.history and args.history.endswith(".jsonl"))
    histories: list[dict[str, Any]] = []
    if args.history:
        hist_file = open(args.history, "w", encoding="utf-8")
    advance, close = _progress(args.hands, not args.quiet and show == 0
                               and args.hands >= 50)
    decisions = 0

    def on_deal(game: Any, result: Any) -> None:
        nonlocal decisions
        decisions += game.decisions
        i = match.hands_played
        if args.json:
            d = result.to_dict()
            d.pop("items", None)
            deals.append({"deal": i, "seed": game.seed, **d})
        if hist_file is not None:
            h = game.history()
            if hist_jsonl:
                hist_file.write(json.dumps(h) + "\n")
            else:
                histories.append(h)
        if i <= show and not args.quiet:
            _print_deal(i, game, result, names)
        advance()

    t0 = time.perf_counter()
    try:
        match.play(bots, args.hands, on_deal=on_deal)
    finally:
        close()
        if hist_file is not None:
            if not hist_jsonl:
                json.dump({"rules": preset.name, "players": players, "seed": match.seed,
                           "bots": names, "deals": histories}, hist_file)
            hist_file.close()
    elapsed = time.perf_counter() - t0
    summary = match.summary()
    if not args.quiet:
        cols = ["seat", "bot", "pts/deal", "95% CI", "total", "fouls", "in FL",
                "roy/deal"]
        just = ["right", "left", "right", "right", "right", "right", "right", "right"]
        if match.stacks is not None:
            cols.append("stack")
            just.append("right")
        rows = []
        for s, d in enumerate(summary):
            ci = d["ci95"]
            row = [s, names[s], f"{d['mean']:+.2f}",
                   f"±{ci:.2f}" if ci is not None else "-", f"{d['total']:+d}",
                   _pct(d["foul_rate"]), _pct(d["fantasyland_rate"]),
                   f"{d['mean_royalties']:.2f}"]
            if match.stacks is not None:
                row.append(d["stack"])
            rows.append(row)
        _table(f"{preset.name}: {match.hands_played} deals, {players} players, seed "
               f"{match.seed} (points per deal, 95% confidence interval; fouls and "
               f"deals played in Fantasyland as shares of the deals; mean royalties)",
               cols, rows, justify=just)
        print(f"{decisions:,} decisions in {elapsed:.2f} s "
              f"({decisions / max(elapsed, 1e-9):,.0f} decisions/s)")
        if match.is_over and match.hands_played < args.hands:
            print("the match ended early: fewer than two seats have chips left")
    if args.json:
        with open(args.json, "w", encoding="utf-8") as f:
            json.dump({**match.to_dict(), "bots": names, "seconds": elapsed,
                       "decisions": decisions, "deals": deals}, f)
    return 0


# ----------------------------------------------------------------------- parser

def build_parser() -> argparse.ArgumentParser:
    from .bots import bot_names  # the registry names --bots accepts

    p = argparse.ArgumentParser(
        prog="ofc-fast",
        description="Fast evaluator and rules engine for Chinese Poker and Open Face "
                    "Chinese Poker. Without a command: a short PINEAPPLE match between "
                    "bots (ofc-fast play).")
    sub = p.add_subparsers(dest="command", metavar="COMMAND")
    pl = sub.add_parser(
        "play", help="simulate a match between bots",
        description="Simulate a match between bots and print a summary per seat: points "
                    "per deal with a 95% confidence interval, foul rate, share of deals "
                    "played in Fantasyland and mean royalties. Short matches "
                    f"(<= {_SHOW_DEALS} deals) print every deal.")
    pl.add_argument("--rules", default="PINEAPPLE",
                    help="preset name (see `ofc-fast rules`; default PINEAPPLE)")
    pl.add_argument("--players", type=int, default=None,
                    help="seats (default: 3, or the rules' maximum when smaller)")
    pl.add_argument("--hands", type=int, default=5, help="deals to play (default 5)")
    pl.add_argument("--seed", type=int, default=None,
                    help="seed of the whole match (default: random, printed)")
    pl.add_argument("--bots", default="heuristic",
                    help="comma-separated bot per seat, or one for all: "
                         f"{', '.join(bot_names())} (default heuristic)")
    pl.add_argument("--stacks", type=int, default=None,
                    help="chips per seat: play at table stakes (R-STAKES-*)")
    pl.add_argument("--button", type=int, default=0, help="button of the first deal")
    pl.add_argument("--show", type=int, default=None,
                    help="print the first N deals (default: all of a short match)")
    pl.add_argument("--json", metavar="PATH", help="write the full result as JSON")
    pl.add_argument("--history", metavar="PATH",
                    help="write every deal's history (Game.replay() input): JSON, or "
                         "one JSON object per line when PATH ends in .jsonl")
    pl.add_argument("--quiet", action="store_true", help="print nothing but errors")
    pl.set_defaults(func=_cmd_play)
    e = sub.add_parser("eval", help="rank a 3- or 5-card hand, or evaluate a board",
                       description="Strength, category and description of a hand; with a "
                                   "board 'front / middle / back': each row, royalties, "
                                   "foul and Fantasyland.")
    e.add_argument("cards", help='cards, e.g. "As Ks Qs Js Ts", "Qh Qd 5c", or a board')
    e.add_argument("--rules", default="OFC", help="preset for a board (default OFC)")
    e.add_argument("--json", action="store_true", help="print JSON")
    e.set_defaults(func=_cmd_eval)
    s = sub.add_parser("score", help="score 2-4 complete boards",
                       description="Row by row results, royalties, fouls, Fantasyland and "
                                   "net points per seat.")
    s.add_argument("boards", nargs="+", help='boards as "front / middle / back"')
    s.add_argument("--rules", default="OFC", help="preset name (see `ofc-fast rules`)")
    s.add_argument("--button", type=int, default=0, help="seat of the button")
    s.add_argument("--stacks", type=int, nargs="+", default=None,
                   help="chips per seat (one number: every seat) for table stakes")
    s.add_argument("--json", action="store_true", help="print JSON")
    s.set_defaults(func=_cmd_score)
    so = sub.add_parser("solve", help="best setting of 13-17 cards (Fantasyland, classic)",
                        description="The exact solver: the best setting of a Fantasyland "
                                    "hand of 13 to 17 cards (with the stay and no-stay "
                                    "alternatives), or of a classic 13-card hand by "
                                    "expected points.")
    so.add_argument("cards", help='13 to 17 cards, e.g. "Ad Ah Th Jh 6h Ts 5d 3c Tc 3s '
                                  '7h Qh 3d 9s"')
    so.add_argument("--rules", default="PINEAPPLE",
                    help="preset name (default PINEAPPLE)")
    so.set_defaults(func=_cmd_solve)
    _add_advise(sub)
    r = sub.add_parser("rules", help="list the rule presets or show one",
                       description="Without NAME: the presets; with NAME: its JSON.")
    r.add_argument("name", nargs="?", help="a preset to print as JSON")
    r.set_defaults(func=_cmd_rules)
    b = sub.add_parser("bench", help="time the evaluator (and peers when installed)",
                       description="Benchmark; options are passed to ofc_fast.bench.",
                       add_help=False)
    b.add_argument("bench_args", nargs=argparse.REMAINDER)
    b.set_defaults(func=_cmd_bench)
    return p


def main(argv: Sequence[str] | None = None) -> int:
    parser = build_parser()
    argv = list(sys.argv[1:] if argv is None else argv)
    if argv[:1] == ["bench"]:  # everything after "bench" (--help too) is the bench's
        args = argparse.Namespace(func=_cmd_bench, bench_args=argv[1:])
    else:
        args = parser.parse_args(argv)
        if args.command is None:
            args = parser.parse_args(["play", *argv])
    try:
        return int(args.func(args))
    except OfcError as exc:
        print(f"ofc-fast: error: {exc}", file=sys.stderr)
        return 2
    except OSError as exc:
        print(f"ofc-fast: error: {exc}", file=sys.stderr)
        return 2
