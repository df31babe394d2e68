"""The ``ofc-fast`` command line.

    ofc-fast eval "As Ks Qs Js Ts"
    ofc-fast score "Qh Qd 2c / 9s 9h 9d 5c 5d / As Ks Qs Js Ts" "<board>" --rules OFC
    ofc-fast rules [NAME]
    ofc-fast bench [--quick]

Tables are drawn with ``rich`` when it is installed (``pip install "ofc-fast[cli]"``),
as plain text otherwise.
"""

from __future__ import annotations

import argparse
import json
import sys
from typing import Any, Sequence

from . import rules as rules_mod
from .board import Board, Row
from .cards import cards_str, parse_cards
from .errors import OfcError
from .ranking import category, describe, kev_rank, rank
from .settlement import settle

__all__ = ["main", "build_parser"]


def _table(title: str, columns: Sequence[str], rows: Sequence[Sequence[Any]]) -> None:
    """Print a table: rich when available, aligned plain text otherwise."""
    try:
        from rich.console import Console
        from rich.table import Table
    except ImportError:
        cells = [[str(c) for c in columns]] + [[str(c) for c in r] for r in rows]
        widths = [max(len(r[i]) for r in cells) for i in range(len(columns))]
        print(title)
        for i, r in enumerate(cells):
            print("  ".join(c.ljust(w) for c, w in zip(r, widths)).rstrip())
            if i == 0:
                print("  ".join("-" * w for w in widths))
        return
    table = Table(title=title, title_justify="left")
    for col in columns:
        table.add_column(col)
    for r in rows:
        table.add_row(*(str(c) for c in r))
    Console().print(table)


def _cmd_eval(args: argparse.Namespace) -> int:
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


def _cmd_score(args: argparse.Namespace) -> int:
    preset = rules_mod.get(args.rules)
    boards = [Board.parse(b) for b in args.boards]
    result = settle(boards, preset, button=args.button)
    if args.json:
        print(json.dumps({
            "rules": preset.name,
            "boards": [str(b) for b in boards],
            "fouls": [b.is_foul(preset) for b in boards],
            "royalties": [list(b.royalties(preset)) for b in boards],
            "net": result.net,
            "pairs": [{"seats": list(p), "net": s.net, "rows": list(s.rows)}
                      for p, s in result.pairs],
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
    _table("Net", ["seat", "points"], [[i, f"{n:+d}"] for i, n in enumerate(result.net)])
    return 0


def _cmd_rules(args: argparse.Namespace) -> int:
    if args.name:
        print(rules_mod.get(args.name).to_json(indent=2))
        return 0
    _table("Rule presets", ["name", "description"],
           [[r.name, r.description] for r in rules_mod.PRESETS.values()])
    return 0


def _cmd_bench(args: argparse.Namespace) -> int:
    from . import bench
    return bench.main(args.bench_args)


def build_parser() -> argparse.ArgumentParser:
    p = argparse.ArgumentParser(prog="ofc-fast", description="Fast evaluator and rules "
                                "engine for Chinese Poker and Open Face Chinese Poker.")
    sub = p.add_subparsers(dest="command", required=True)
    e = sub.add_parser("eval", help="rank a 3- or 5-card hand",
                       description="Strength, category and description of a hand.")
    e.add_argument("cards", help='cards, e.g. "As Ks Qs Js Ts" or "Qh Qd 5c"')
    e.add_argument("--json", action="store_true", help="print JSON")
    e.set_defaults(func=_cmd_eval)
    s = sub.add_parser("score", help="score 2-4 complete boards",
                       description="Row by row results, royalties, fouls and net points "
                                   "per seat.")
    s.add_argument("boards", nargs="+", help='boards as "front / middle / back"')
    s.add_argument("--rules", default="OFC", help="preset name (see `ofc-fast rules`)")
    s.add_argument("--button", type=int, default=0, help="seat of the button")
    s.add_argument("--json", action="store_true", help="print JSON")
    s.set_defaults(func=_cmd_score)
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
    args = build_parser().parse_args(argv)
    try:
        return int(args.func(args))
    except OfcError as exc:
        print(f"ofc-fast: error: {exc}", file=sys.stderr)
        return 2
