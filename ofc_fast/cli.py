r"""The ``ofc-fast`` command line.

    ofc-fast                                   # a short, readable PINEAPPLE match
    ofc-fast play --rules pineapple --players 3 --hands 1000 --seed 1 \
                  --bots heuristic,random,random --json out.json --history deals.jsonl
    ofc-fast eval "As Ks Qs Js Ts"             # a 3- or 5-card hand, or a whole board
    ofc-fast score "Qh Qd 2c / 9s 9h 9d 5c 5d / As Ks Qs Js Ts" "<board>" --rules OFC
    ofc-fast solve "Ad Ah Th Jh 6h Ts 5d 3c Tc 3s 7h Qh 3d 9s" --rules pineapple
    ofc-fast play --hands 2000 --workers 2       # independent deals on 2 processes
    ofc-fast selfplay --bots heuristic --hands 10000 --out data/ [--workers N | --ray]
    ofc-fast advise --dealt "As Kd 9h 9c 4s"   # the opening, heads-up (empty boards)
    ofc-fast advise --rules pineapple --board "Qh / 9s 9h / As Ks" --dealt "2c 5d Ts" \
                    --opponent "7c / 8d 8h / 4s 4d" [--dead "3c"] [--players 3] [--json]
    ofc-fast rules [NAME]
    ofc-fast bench [--quick]
    ofc-fast --version

Options every subcommand reads the same way:

* ``--rules``: a preset name (``ofc-fast rules`` lists them) or the path of a rules
  JSON file (``RuleSet.to_json()``, e.g. the README's ``thursday.json``);
* ``--stacks``: chips per seat, ``200`` for every seat or ``200,200,150`` one per seat;
* ``--json [PATH]``: the result as JSON, written to PATH, or printed alone on standard
  output without PATH.

On a terminal, tables and progress bars are drawn with ``rich`` when it is installed
(``pip install "ofc-fast[cli]"``), as plain text otherwise; either way they fit 80
columns.  Into a pipe or a file, tables are plain text at their full width, with
no trailing spaces (nothing is cut short).  Error messages name the option or
argument at fault.  Ctrl-C during ``play`` stops the match, prints the summary of
the deals played and still writes ``--json`` / ``--history`` (exit status 130).
"""

from __future__ import annotations

import argparse
import json
import os
import signal
import sys
import textwrap
import threading
import time
from collections.abc import Callable, Sequence
from typing import TYPE_CHECKING, Any, Literal, TypeVar

from . import rules as rules_mod
from .board import Board, Row, hand_cards
from .cards import cards_str, parse_cards
from .errors import GameError, OfcError, RulesError
from .fantasyland import fantasyland_cards
from .ranking import category, describe, kev_rank, rank
from .scoring.settlement import settle
from .table import check_players, check_seat, check_seed, check_stacks

if TYPE_CHECKING:
    from .game import Match

__all__ = ["build_parser", "load_rules", "main", "parse_stacks"]

_SHOW_DEALS = 10  # print every deal of a match this short
_WIDTH = 80  # tables and notes fit this many columns
_T = TypeVar("_T")


def _named(option: str, fn: Callable[..., _T], *args: Any, **kwargs: Any) -> _T:
    """``fn(*args, **kwargs)``, with an error message prefixed by the option (or
    argument) it came from, so messages name what the user typed."""
    try:
        return fn(*args, **kwargs)
    except OfcError as exc:
        raise type(exc)(f"{option}: {exc}") from None


def load_rules(value: str) -> rules_mod.RuleSet:
    """``--rules``: a preset name, or the path of a rules JSON file
    (:meth:`RuleSet.to_json`).  Errors name ``--rules``.

    >>> load_rules("pineapple").name
    'PINEAPPLE'
    """
    if value.lower().endswith(".json") or os.path.sep in value or os.path.isfile(value):
        try:
            with open(value, encoding="utf-8") as f:
                text = f.read()
        except OSError as exc:
            raise RulesError(f"--rules: cannot read {value!r}: {exc.strerror}") from None
        return _named(f"--rules {value}", rules_mod.RuleSet.from_json, text)
    return _named("--rules", rules_mod.get, value)


def parse_stacks(values: Sequence[str] | None, seats: int) -> list[int] | None:
    """``--stacks``: ``200`` (every seat) or ``200,200,150`` (one per seat; spaces
    between the numbers work too).  Errors name ``--stacks``.

    >>> parse_stacks(["200"], 3), parse_stacks(["200,150"], 2)
    ([200, 200, 200], [200, 150])
    """
    if values is None:
        return None
    text = ",".join(values)
    try:
        chips = [int(v) for v in text.replace(" ", ",").split(",") if v]
    except ValueError:
        raise GameError(
            f"--stacks: expected chip counts such as 200 or 200,200,150, got {text!r}"
        ) from None
    if len(chips) not in (1, seats):
        raise GameError(
            f"--stacks: {seats} seats need 1 or {seats} chip counts, got {len(chips)}"
        )
    return list(
        check_stacks(chips[0] if len(chips) == 1 else chips, seats, "--stacks") or ()
    )


def _emit_json(args: argparse.Namespace, doc: Any) -> None:
    """``--json``: alone on standard output (no PATH), or into the file PATH."""
    if args.json == "-":
        print(json.dumps(doc))
        return
    try:
        with open(args.json, "w", encoding="utf-8") as f:
            json.dump(doc, f)
    except OSError as exc:
        raise OfcError(f"--json: cannot write {args.json!r}: {exc.strerror}") from None


def _json_only(args: argparse.Namespace) -> bool:
    """True when the JSON goes to standard output: nothing else is printed."""
    return getattr(args, "json", None) == "-"


def _wrap(text: str) -> None:
    print("\n".join(textwrap.wrap(text, _WIDTH)))


def _rich_console(stderr: bool = False) -> Any:
    try:
        from rich.console import Console
    except ImportError:
        return None
    return Console(stderr=stderr)


Justify = Literal["left", "right"]
"""How a table column is aligned."""


def _table(
    title: str,
    columns: Sequence[str],
    rows: Sequence[Sequence[Any]],
    justify: Sequence[Justify] | None = None,
) -> None:
    """Print a table.  On a terminal: rich when available (cells fold, never cut
    short), aligned plain text within 80 columns otherwise; into a pipe or a file:
    plain text at its full width, no trailing spaces."""
    tty = sys.stdout.isatty()
    console = _rich_console() if tty else None
    if console is None:
        _plain_table(title, columns, rows, justify, _WIDTH if tty else None)
        return
    from rich.table import Table

    console.width = min(console.width, _WIDTH)
    table = Table(title=title, title_justify="left")
    for i, col in enumerate(columns):
        table.add_column(col, justify=(justify[i] if justify else "left"), overflow="fold")
    for row in rows:
        table.add_row(*(str(c) for c in row))
    console.print(table)


def _plain_table(
    title: str,
    columns: Sequence[str],
    rows: Sequence[Sequence[Any]],
    justify: Sequence[Justify] | None,
    width: int | None = _WIDTH,
) -> None:
    """Aligned plain text; within ``width`` columns (the last column wraps when
    needed), or at full width when ``width`` is None."""
    cells = [[str(c) for c in columns]] + [[str(c) for c in r] for r in rows]
    widths = [max(len(r[i]) for r in cells) for i in range(len(columns))]
    if width is not None:
        room = width - sum(widths[:-1]) - 2 * (len(widths) - 1)
        widths[-1] = min(widths[-1], max(room, 10))
    right = [j == "right" for j in (justify or ["left"] * len(columns))]
    if width is None:
        print(title)
    else:
        _wrap(title)
    for i, r in enumerate(cells):
        last = textwrap.wrap(r[-1], max(widths[-1], 1)) or [""]
        for k, part in enumerate(last):
            line = [c if k == 0 else "" for c in r[:-1]] + [part]
            print(
                "  ".join(
                    c.rjust(w) if rt and i else c.ljust(w)
                    for c, w, rt in zip(line, widths, right)
                ).rstrip()
            )
        if i == 0:
            print("  ".join("-" * w for w in widths))


# ------------------------------------------------------------------------- eval


def _cmd_eval(args: argparse.Namespace) -> int:
    if "/" in args.cards or "|" in args.cards:
        return _eval_board(args)
    ids = _named("CARDS", parse_cards, args.cards)
    s = _named("CARDS", rank, ids)
    info: dict[str, Any] = {
        "cards": cards_str(ids),
        "strength": s,
        "category": category(s).name,
        "description": describe(s),
    }
    if len(ids) == 5:
        info["kev_rank"] = kev_rank(s)
    if args.json:
        _emit_json(args, info)
    if not _json_only(args):
        _table("Hand", ["field", "value"], list(info.items()))
    return 0


def _eval_board(args: argparse.Namespace) -> int:
    preset = load_rules(args.rules)
    board = _named("CARDS", Board.parse, args.cards)
    e = _named("CARDS", board.evaluate, preset)
    fl = fantasyland_cards(board, preset) if preset.fantasyland is not None else 0
    if args.json:
        _emit_json(
            args,
            {
                "board": str(board),
                "rules": preset.name,
                "strengths": list(e.strengths),
                "royalties": list(e.royalties),
                "foul": e.foul,
                "fantasyland": fl,
                "rows": [describe(s) for s in e.strengths],
            },
        )
    if _json_only(args):
        return 0
    rows = [
        [
            row.name.lower(),
            cards_str(board.rows[row]),
            describe(e.strengths[row]),
            e.royalties[row],
        ]
        for row in Row
    ]
    _table(f"Board ({preset.name})", ["row", "cards", "hand", "royalty"], rows)
    print(
        f"foul: {'yes' if e.foul else 'no'}   royalties: {e.total_royalties}   "
        f"Fantasyland next deal: {fl or 'no'}"
    )
    return 0


# ------------------------------------------------------------------------ score


def _cmd_score(args: argparse.Namespace) -> int:
    preset = load_rules(args.rules)
    boards = [
        _named(f"BOARDS (board {i})", Board.parse, b) for i, b in enumerate(args.boards)
    ]
    stacks = parse_stacks(args.stacks, len(boards))
    _named("--button", check_seat, args.button, len(boards), "", "boards")
    result = _named("BOARDS", settle, boards, preset, button=args.button, stacks=stacks)
    fl = [
        fantasyland_cards(b, preset) if preset.fantasyland is not None else 0
        for b in boards
    ]
    if args.json:
        _emit_json(
            args,
            {
                "rules": preset.name,
                "boards": [str(b) for b in boards],
                "fouls": [b.is_foul(preset) for b in boards],
                "royalties": [list(b.royalties(preset)) for b in boards],
                "fantasyland": fl,
                "net": result.net,
                "stacks": result.stacks,
                "pairs": [
                    {"seats": list(p), "net": s.net, "rows": list(s.rows)}
                    for p, s in result.pairs
                ],
                "items": [i.to_dict() for i in result.items],
            },
        )
    if _json_only(args):
        return 0
    rows = []
    for seat, b in enumerate(boards):
        e = b.evaluate(preset)
        for row in Row:
            rows.append(
                [
                    seat if row == Row.FRONT else "",
                    row.name.lower(),
                    cards_str(b.rows[row]),
                    describe(e.strengths[row]),
                    e.royalties[row],
                    "FOUL" if e.foul and row == Row.FRONT else "",
                ]
            )
    _table(f"Boards ({preset.name})", ["seat", "row", "cards", "hand", "royalty", ""], rows)
    pairs = [
        [
            f"{i} v {j}",
            " ".join(f"{r:+d}" for r in s.rows),
            s.row_points,
            s.bonus,
            s.net - s.row_points - s.bonus,
            s.net,
        ]
        for (i, j), s in result.pairs
    ]
    _table(
        "Pairs (points to the first seat)",
        ["pair", "rows", "row pts", "bonus", "royalties", "net"],
        pairs,
    )
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
        preset = _named("NAME", rules_mod.get, args.name)
        if args.json:
            _emit_json(args, preset.to_dict())
        if not _json_only(args):
            print(preset.to_json(indent=2))
        return 0
    if args.json:
        _emit_json(
            args,
            [
                {
                    "name": r.name,
                    "game": r.game.value,
                    "max_players": r.max_players,
                    "description": r.description,
                }
                for r in rules_mod.PRESETS.values()
            ],
        )
    if _json_only(args):
        return 0
    _table(
        "Rule presets",
        ["name", "game", "seats", "description"],
        [
            [r.name, r.game.value, f"2-{r.max_players}", r.description]
            for r in rules_mod.PRESETS.values()
        ],
    )
    return 0


def _cmd_solve(args: argparse.Namespace) -> int:
    from .rules import Game as GameKind
    from .solver import cli_solve, solve_json

    preset = load_rules(args.rules)
    ids = _named("CARDS", hand_cards, args.cards, 13, 17)
    if preset.game is GameKind.CLASSIC and len(ids) != 13:
        raise RulesError(
            f"--rules: {preset.name} is classic Chinese Poker, where a hand "
            f"is 13 cards; got {len(ids)} (for a Fantasyland hand of 14-17 "
            f"cards use an OFC or Pineapple preset)"
        )
    if args.json:
        _emit_json(args, solve_json(ids, preset))
    if not _json_only(args):
        for line in cli_solve(ids, preset).splitlines():
            print(textwrap.fill(line, _WIDTH, subsequent_indent=" " * 9))
    return 0


def _cmd_advise(args: argparse.Namespace) -> int:
    from .search import cli_advise

    given = len(args.opponent or [])
    players = args.players if args.players is not None else max(2, 1 + given)
    most = load_rules(args.rules).max_players
    if not 2 <= players <= most:
        raise GameError(f"--players: {args.rules} seats 2 to {most} players, got {players}")
    if given > players - 1:
        raise GameError(
            f"--players {players}: at most {players - 1} --opponent boards, got {given}"
        )
    # the seats not given have placed nothing yet: empty boards (the opening)
    args.opponent = [*(args.opponent or []), *["/ /"] * (players - 1 - given)]
    print(cli_advise(args))
    return 0


def _add_advise(sub: Any) -> None:
    a = sub.add_parser(
        "advise",
        help="value every legal move of a position (search)",
        description="Every legal move of seat 0 with its expected points "
        "(sampled futures with best completions; exact on the "
        "last streets when affordable), best first.",
    )
    a.add_argument("--rules", default="PINEAPPLE", help="preset (default PINEAPPLE)")
    a.add_argument(
        "--board",
        default="/ /",
        help='own board "front / middle / back": rows split by "/", an empty row '
        'left blank or "-", e.g. "Qh / - / As Ks" (default "/ /": empty)',
    )
    a.add_argument("--dealt", required=True, help='the cards to place now, e.g. "2c 5d Ts"')
    a.add_argument(
        "--opponent",
        action="append",
        metavar="BOARD",
        help="an opponent's visible board, as --board (repeat per opponent; seats "
        "not given get an empty board, as at the opening)",
    )
    a.add_argument(
        "--players",
        type=int,
        default=None,
        help="seats at the table (default: 2, or one more than the --opponent boards)",
    )
    a.add_argument("--dead", default="", help="other cards known to be out (discards)")
    a.add_argument(
        "--samples",
        type=int,
        default=None,
        help="sampled futures (default 256, or the time budget)",
    )
    a.add_argument("--time", type=float, default=None, help="time budget in seconds")
    a.add_argument("--seed", type=int, default=0, help="seed of the samples (default 0)")
    a.add_argument(
        "--exact",
        choices=("auto", "yes", "no"),
        default="auto",
        help="exact expectimax: when affordable (auto), always, never",
    )
    a.add_argument(
        "--model",
        default=None,
        help='learned value model in the rollouts: "auto" (the shipped one) or a '
        "model file (default: none, rollouts only)",
    )
    a.add_argument("--top", type=int, default=0, help="print only the best N moves")
    a.add_argument("--json", action="store_true", help="print JSON")
    a.set_defaults(func=_cmd_advise)


def _cmd_bench(args: argparse.Namespace) -> int:
    from . import timing

    return timing.main(args.bench_args)


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
        from rich.progress import (
            BarColumn,
            MofNCompleteColumn,
            Progress,
            TextColumn,
            TimeElapsedColumn,
            TimeRemainingColumn,
        )

        prog = Progress(
            TextColumn("[bold]deals"),
            BarColumn(),
            MofNCompleteColumn(),
            TimeElapsedColumn(),
            TimeRemainingColumn(),
            console=console,
            transient=True,
        )
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
    title = f"Deal {index}: {rules.name}, button seat {game.button}" + (
        "".join(
            f", seat {s} in Fantasyland ({n} cards)"
            for s, n in enumerate(game.fantasyland)
            if n
        )
    )
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
        rows.append(
            [
                s,
                names[s],
                *(_row_text(r) if shown else "?" for r in b.rows),
                sum(roy) if any(roy) else "-",
                " ".join(notes),
                f"{result.net[s]:+d}",
            ]
        )
    _table(
        title,
        ["seat", "bot", "front", "middle", "back", "roy", "", "net"],
        rows,
        justify=["right", "left", "left", "left", "left", "right", "left", "right"],
    )


def _cmd_play(args: argparse.Namespace) -> int:
    from .bots import make_bots
    from .game import Match

    preset = load_rules(args.rules)
    players = args.players if args.players is not None else min(3, preset.max_players)
    _named("--players", check_players, players, preset)
    _named("--button", check_seat, args.button, players, "")
    if args.hands < 1:
        raise GameError(f"--hands: must be at least 1, got {args.hands}")
    names = [  # specs (policy:PATH, module:attribute) keep their case
        n.strip() if ":" in n else n.strip().lower()
        for n in args.bots.split(",")
        if n.strip()
    ]
    stacks = parse_stacks(args.stacks, players)
    if args.seed is not None:
        check_seed(args.seed, "--seed")
    # what Match still checks is whether the seats fit one deck
    match = _named(
        "--players",
        Match,
        preset,
        players,
        seed=args.seed,
        stacks=stacks,
        button=args.button,
        keep_nets=False,
    )
    from .parallel.cli import wants_parallel

    if args.independent and not wants_parallel(args):
        raise GameError(
            "--independent: a parallel run's mode; add --workers N or --ray (a plain "
            "play is the sequential Match, with Fantasyland)"
        )
    if wants_parallel(args):  # --workers / --ray: units of deals (ofc_fast/parallel)
        return _play_parallel(args, preset, players, names, match.seed, stacks)
    # the bots' seeds derive from the match seed, the one printed: it replays the match
    bots = _named("--bots", make_bots, names, players, preset, seed=match.seed)
    names = names * players if len(names) == 1 else names
    quiet = args.quiet or _json_only(args)
    show = (
        args.show
        if args.show is not None
        else (args.hands if args.hands <= _SHOW_DEALS else 0)
    )
    deals: list[dict[str, Any]] = []
    hist_file = None
    hist_jsonl = bool(args.history and args.history.endswith(".jsonl"))
    histories: list[dict[str, Any]] = []
    if args.history:
        try:
            # closed in the finally below, after the last deal is written
            hist_file = open(args.history, "w", encoding="utf-8")  # noqa: SIM115
        except OSError as exc:
            raise OfcError(
                f"--history: cannot write {args.history!r}: {exc.strerror}"
            ) from None
    advance, close = _progress(args.hands, not quiet and show == 0 and args.hands >= 50)
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
            if hist_jsonl:  # one hand-history line per deal (ofc_fast/arena/history.py)
                from .arena.history import deal_record

                hist_file.write(json.dumps(deal_record(game, i - 1, names)) + "\n")
            else:
                histories.append(game.history())
        if i <= show and not quiet:
            _print_deal(i, game, result, names)
        advance()

    t0 = time.perf_counter()
    stop = _StopOnSigint()
    try:
        with stop:
            for _ in range(args.hands):  # deal by deal: Ctrl-C stops between two deals
                if match.is_over or stop.requested:
                    break
                match.play(bots, 1, on_deal=on_deal)
    except KeyboardInterrupt:  # a second Ctrl-C: stop at once
        stop.requested = True
    finally:
        close()
        if hist_file is not None:
            if not hist_jsonl:
                json.dump(
                    {
                        "rules": preset.name,
                        "players": players,
                        "seed": match.seed,
                        "bots": names,
                        "deals": histories,
                    },
                    hist_file,
                )
            hist_file.close()
    elapsed = time.perf_counter() - t0
    summary = match.summary()
    interrupted = stop.requested
    if interrupted:
        print(
            f"interrupted: {match.hands_played} of {args.hands} deals played",
            file=sys.stderr,
        )
    if not quiet:
        cols = ["seat", "bot", "pts/deal", "95% CI", "total", "fouls", "in FL", "roy/deal"]
        just: list[Justify] = [
            "right",
            "left",
            "right",
            "right",
            "right",
            "right",
            "right",
            "right",
        ]
        if match.stacks is not None:
            cols.append("stack")
            just.append("right")
        rows = []
        for s, d in enumerate(summary):
            ci = d["ci95"]
            row = [
                s,
                names[s],
                f"{d['mean']:+.2f}",
                f"±{ci:.2f}" if ci is not None else "-",
                f"{d['total']:+d}",
                _pct(d["foul_rate"]),
                _pct(d["fantasyland_rate"]),
                f"{d['mean_royalties']:.2f}",
            ]
            if match.stacks is not None:
                row.append(d["stack"])
            rows.append(row)
        _table(
            f"{preset.name}: {match.hands_played} deals, {players} players, seed "
            f"{match.seed}",
            cols,
            rows,
            justify=just,
        )
        _wrap(
            f"Points per deal with a 95% confidence interval ({_interval_method()}); "
            f"fouls and deals played in Fantasyland as shares of the deals; mean "
            f"royalties per deal."
        )
        print(
            f"{decisions:,} decisions in {elapsed:.2f} s "
            f"({decisions / max(elapsed, 1e-9):,.0f} decisions/s)"
        )
        if match.is_over and match.hands_played < args.hands:
            print("the match ended early: fewer than two seats have chips left")
    if args.json:
        _emit_play_json(
            args, match, preset, names, elapsed, decisions, deals, interrupted=interrupted
        )
    return 130 if interrupted else 0


def _play_parallel(
    args: argparse.Namespace,
    preset: rules_mod.RuleSet,
    players: int,
    names: list[str],
    seed: int,
    stacks: list[int] | None,
) -> int:
    """``play --workers N`` / ``--ray``: a run of units, each a deal and the
    Fantasyland deals it earns (``--independent``: the deal alone, its Fantasyland
    counted, not played); no chips carried between deals (ofc_fast/parallel/plan.py).
    The same on every executor."""
    from .parallel.cli import play_run

    if stacks is not None:
        raise GameError(
            "--stacks: table stakes carry chips from deal to deal, which a "
            "parallel run (--workers, --ray) of independent units cannot; "
            "drop --workers/--ray or --stacks"
        )
    names = names * players if len(names) == 1 else names
    quiet = args.quiet or _json_only(args)
    t0 = time.perf_counter()
    run, executor = play_run(
        args,
        preset,
        players,
        names,
        seed,
        history=bool(args.history),
        progress=not quiet and args.hands >= 50 and sys.stderr.isatty(),
    )
    elapsed = time.perf_counter() - t0
    match = run.match
    decisions = sum(o["decisions"] for o in run.outcomes)
    if args.history:
        try:
            with open(args.history, "w", encoding="utf-8") as f:
                if args.history.endswith(".jsonl"):
                    f.writelines(line + "\n" for line in run.lines)
                else:
                    json.dump(
                        {
                            "rules": preset.name,
                            "players": players,
                            "seed": seed,
                            "bots": names,
                            "deals": [json.loads(line)["history"] for line in run.lines],
                        },
                        f,
                    )
        except OSError as exc:
            raise OfcError(
                f"--history: cannot write {args.history!r}: {exc.strerror}"
            ) from None
    chains = run.spec.fantasyland
    if not quiet:
        fl_key = "fantasyland_rate" if chains else "fantasyland_entry_rate"
        rows = [
            [
                s,
                names[s],
                f"{d['mean']:+.2f}",
                f"±{d['ci95']:.2f}" if d["ci95"] is not None else "-",
                f"{d['total']:+d}",
                _pct(d["foul_rate"]),
                _pct(d[fl_key]),
                f"{d['mean_royalties']:.2f}",
            ]
            for s, d in enumerate(match.summary())
        ]
        what = (
            f"{match.hands_played} deals ({args.hands} deals and the Fantasyland "
            f"deals they earned)"
            if chains
            else f"{match.hands_played} independent deals"
        )
        _table(
            f"{preset.name}: {what}, {players} players, seed {seed}, {executor}",
            [
                "seat",
                "bot",
                "pts/deal",
                "95% CI",
                "total",
                "fouls",
                "in FL" if chains else "FL earned",
                "roy/deal",
            ],
            rows,
            justify=["right", "left", "right", "right", "right", "right", "right", "right"],
        )
        _wrap(
            (
                "Each deal with the Fantasyland deals it earns (--workers/--ray): "
                "Fantasyland is played, deals played in Fantasyland as a share of "
                "the deals. "
                if chains
                else "Independent deals (--independent): no Fantasyland is played, "
                "the Fantasyland earned is shown as a share of the deals. "
            )
            + f"Points per deal with a 95% confidence interval ({_interval_method()})."
        )
        print(
            f"{decisions:,} decisions in {elapsed:.2f} s "
            f"({decisions / max(elapsed, 1e-9):,.0f} decisions/s)"
        )
    if args.json:
        deals = [
            {
                "deal": o["deal"] + 1,
                "seed": o["seed"],
                "net": o["net"],
                "fouls": o["fouls"],
                "royalties": o["royalties"],
                "fantasyland": o["fantasyland"],
                "in_fantasyland": o["in_fantasyland"],
                "fl_deal": o["fl_deal"],
                "button": o["button"],
            }
            for o in run.outcomes
        ]
        _emit_play_json(
            args,
            match,
            preset,
            names,
            elapsed,
            decisions,
            deals,
            interrupted=False,
            mode="fantasyland-chains" if chains else "independent",
            executor=executor,
        )
    return 0


def _emit_play_json(
    args: argparse.Namespace,
    match: Match,
    preset: rules_mod.RuleSet,
    names: list[str],
    elapsed: float,
    decisions: int,
    deals: list[dict[str, Any]],
    **extra: Any,
) -> None:
    """The ``--json`` record of ``ofc-fast play``: the match, its rules and bots,
    timing, ``extra`` fields, then the deals."""
    _emit_json(
        args,
        {
            **match.to_dict(),
            "rule_set": preset.to_dict(),
            "bots": names,
            "seconds": elapsed,
            "decisions": decisions,
            **extra,
            "deals": deals,
        },
    )


class _StopOnSigint:
    """While active (main thread only), the first Ctrl-C only asks to stop (so the
    deal in progress finishes and the records stay consistent); a second one raises
    KeyboardInterrupt as usual."""

    def __init__(self) -> None:
        self.requested = False
        self._previous: Any = None

    def _handle(self, signum: int, frame: Any) -> None:
        if self.requested:
            raise KeyboardInterrupt
        self.requested = True

    def __enter__(self) -> _StopOnSigint:
        if threading.current_thread() is threading.main_thread():
            self._previous = signal.signal(signal.SIGINT, self._handle)
        return self

    def __exit__(self, *exc: object) -> None:
        if self._previous is not None:
            signal.signal(signal.SIGINT, self._previous)


def _interval_method() -> str:
    """How SeatStats.ci95 is computed here: Student's t needs SciPy."""
    import importlib.util

    if importlib.util.find_spec("scipy") is not None:
        return "Student's t"
    return "normal approximation; pip install scipy for Student's t"


# ----------------------------------------------------------------------- parser

_RULES_HELP = "a preset name (see `ofc-fast rules`) or the path of a rules JSON file"
_STACKS_HELP = (
    "chips per seat for table stakes (R-STAKES-*): 200 for every seat, or "
    "200,200,150 one per seat"
)


def _json_option(parser: argparse.ArgumentParser) -> None:
    """The same --json in every subcommand."""
    parser.add_argument(
        "--json",
        nargs="?",
        const="-",
        default=None,
        metavar="PATH",
        help="the result as JSON: written to PATH, or alone on standard "
        "output without PATH",
    )


def build_parser() -> argparse.ArgumentParser:
    """The ``ofc-fast`` argument parser with every subcommand."""
    from . import __version__
    from .bots import bot_names  # the registry names --bots accepts

    p = argparse.ArgumentParser(
        prog="ofc-fast",
        description="Fast evaluator and rules engine for Chinese Poker and Open Face "
        "Chinese Poker. Without a command: a short PINEAPPLE match between "
        "bots (ofc-fast play).",
    )
    p.add_argument("--version", action="version", version=f"ofc-fast {__version__}")
    sub = p.add_subparsers(dest="command", metavar="COMMAND")
    pl = sub.add_parser(
        "play",
        help="simulate a match between bots",
        description="Simulate a match between bots and print a summary per seat: points "
        "per deal with a 95% confidence interval, foul rate, share of deals "
        "played in Fantasyland and mean royalties. Short matches "
        f"(<= {_SHOW_DEALS} deals) print every deal.",
    )
    pl.add_argument(
        "--rules", default="PINEAPPLE", help=_RULES_HELP + " (default PINEAPPLE)"
    )
    pl.add_argument(
        "--players",
        type=int,
        default=None,
        help="seats (default: 3, or the rules' maximum when smaller)",
    )
    pl.add_argument("--hands", type=int, default=5, help="deals to play (default 5)")
    pl.add_argument(
        "--seed",
        type=int,
        default=None,
        help="seed of the whole match (default: random, printed)",
    )
    pl.add_argument(
        "--bots",
        default="heuristic",
        help="comma-separated bot per seat, or one for all: "
        f"{', '.join(bot_names())} (default heuristic)",
    )
    pl.add_argument("--stacks", nargs="+", default=None, metavar="CHIPS", help=_STACKS_HELP)
    pl.add_argument("--button", type=int, default=0, help="button of the first deal")
    pl.add_argument(
        "--show",
        type=int,
        default=None,
        help="print the first N deals (default: all of a short match)",
    )
    _json_option(pl)
    pl.add_argument(
        "--history",
        metavar="PATH",
        help="write every deal's history (Game.replay() input): JSON, or "
        "one JSON object per line when PATH ends in .jsonl",
    )
    pl.add_argument("--quiet", action="store_true", help="print nothing but errors")
    from .parallel.cli import add_parallel_options

    add_parallel_options(pl)  # --workers, --ray, --chunk-size (ofc_fast/parallel/cli.py)
    pl.add_argument(
        "--independent",
        action="store_true",
        help="with --workers/--ray: play independent deals, counting the Fantasyland "
        "a deal earns without playing it (default: each deal with its Fantasyland "
        "deals)",
    )
    pl.set_defaults(func=_cmd_play)
    e = sub.add_parser(
        "eval",
        help="rank a 3- or 5-card hand, or evaluate a board",
        description="Strength, category and description of a hand; with a "
        "board 'front / middle / back': each row, royalties, "
        "foul and Fantasyland.",
    )
    e.add_argument("cards", help='cards, e.g. "As Ks Qs Js Ts", "Qh Qd 5c", or a board')
    e.add_argument("--rules", default="OFC", help=_RULES_HELP + " (default OFC)")
    _json_option(e)
    e.set_defaults(func=_cmd_eval)
    s = sub.add_parser(
        "score",
        help="score 2-4 complete boards",
        description="Row by row results, royalties, fouls, Fantasyland and "
        "net points per seat.",
    )
    s.add_argument("boards", nargs="+", help='boards as "front / middle / back"')
    s.add_argument("--rules", default="OFC", help=_RULES_HELP + " (default OFC)")
    s.add_argument("--button", type=int, default=0, help="seat of the button")
    s.add_argument("--stacks", nargs="+", default=None, metavar="CHIPS", help=_STACKS_HELP)
    _json_option(s)
    s.set_defaults(func=_cmd_score)
    so = sub.add_parser(
        "solve",
        help="best setting of 13-17 cards (Fantasyland, classic)",
        description="The exact solver: the best setting of a Fantasyland "
        "hand of 13 to 17 cards (with the stay and no-stay "
        "alternatives), or of a classic 13-card hand by "
        "expected points.",
    )
    so.add_argument(
        "cards", help='13 to 17 cards, e.g. "Ad Ah Th Jh 6h Ts 5d 3c Tc 3s 7h Qh 3d 9s"'
    )
    so.add_argument(
        "--rules", default="PINEAPPLE", help=_RULES_HELP + " (default PINEAPPLE)"
    )
    _json_option(so)
    so.set_defaults(func=_cmd_solve)
    _add_advise(sub)
    r = sub.add_parser(
        "rules",
        help="list the rule presets or show one",
        description="Without NAME: the presets; with NAME: its JSON.",
    )
    r.add_argument("name", nargs="?", help="a preset to print as JSON")
    _json_option(r)
    r.set_defaults(func=_cmd_rules)
    b = sub.add_parser(
        "bench",
        help="time ofc-fast's own calls",
        description="Timing of ofc-fast's own calls (ofc_fast/timing.py).",
        add_help=False,
    )
    b.add_argument("bench_args", nargs=argparse.REMAINDER)
    b.set_defaults(func=_cmd_bench)
    from .arena.cli import add_commands as add_arena_commands

    add_arena_commands(sub)  # bot, arena, replay, report (ofc_fast/arena/cli.py)
    from .parallel.cli import add_commands as add_parallel_commands

    add_parallel_commands(sub, bot_names())  # selfplay (ofc_fast/parallel/cli.py)
    from .serve.cli import add_commands as add_serve_commands

    add_serve_commands(sub)  # serve (ofc_fast/serve/cli.py)
    return p


def main(argv: Sequence[str] | None = None) -> int:
    """Run the ``ofc-fast`` command line; returns the exit status."""
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
    except KeyboardInterrupt:
        print("ofc-fast: interrupted", file=sys.stderr)
        return 130
    except OfcError as exc:
        print(f"ofc-fast: error: {exc}", file=sys.stderr)
        return 2
    except OSError as exc:
        print(f"ofc-fast: error: {exc}", file=sys.stderr)
        return 2
