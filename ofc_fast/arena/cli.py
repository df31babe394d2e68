"""The arena's subcommands of ``ofc-fast``: ``bot``, ``arena``, ``replay``, ``report``
(registered by :func:`add_commands`; ``ofc_fast.cli`` calls it)."""

from __future__ import annotations

import argparse
import json
import socket
import sys
from typing import Any

from ..errors import ArenaError

__all__ = ["add_commands"]


def _cmd_bot(args: argparse.Namespace) -> int:
    from ..bots import make_bot
    from .client import BotClient, run_stdio, run_stream
    from .games import resolve_arena_rules

    rules = resolve_arena_rules(args.rules) if args.rules else None
    client = BotClient(make_bot(args.name, rules, seed=args.seed))
    if args.connect is None:
        run_stdio(client)
        return 0
    try:
        sock = socket.create_connection(("127.0.0.1", args.connect), timeout=30)
    except OSError as exc:
        raise ArenaError(f"cannot connect to 127.0.0.1:{args.connect}: {exc}") from None
    sock.settimeout(None)
    with sock:
        run_stream(client, sock.recv, sock.sendall)
    return 0


def _cmd_arena(args: argparse.Namespace) -> int:
    from .history import deal_record
    from .host import Arena, DealRecord, parse_bot_spec

    specs = [parse_bot_spec(b) for b in args.bot]
    # closed in the finally below (on_deal writes to it while the arena runs)
    hist = open(args.history, "w", encoding="utf-8") if args.history else None  # noqa: SIM115

    def on_deal(d: DealRecord) -> None:
        if hist is not None:
            hist.write(
                json.dumps(
                    deal_record(
                        d.game,
                        d.hand_no,
                        d.seats,
                        deck_no=d.deck_no,
                        rotation=d.rotation,
                        decisions=d.decisions,
                    ),
                    separators=(",", ":"),
                )
                + "\n"
            )

    def on_progress(line: dict[str, Any]) -> None:
        print(json.dumps(line, separators=(",", ":")), file=sys.stderr, flush=True)

    try:
        arena = Arena(
            args.rules,
            specs,
            args.hands,
            args.seed,
            timeout_ms=args.timeout_ms or None,
            fault_policy=args.fault_policy,
            duplicate=args.duplicate,
            on_deal=on_deal,
            on_progress=on_progress if args.progress_json else None,
            progress_every=args.progress_every,
        )
        from ..parallel.cli import executor_of, wants_parallel

        if wants_parallel(
            args
        ):  # built-in bots on workers (ofc_fast/parallel/tournament.py)
            from ..parallel.tournament import run_arena

            with executor_of(args) as ex:
                report = run_arena(arena, ex, chunk_size=args.chunk_size or 50)
        else:
            report = arena.run()
    finally:
        if hist is not None:
            hist.close()
    text = json.dumps(report, indent=1)
    if args.json:
        with open(args.json, "w", encoding="utf-8") as f:
            f.write(text + "\n")
    if args.json != "-" and not args.quiet:
        _print_standings(report)
    if args.json == "-" or (not args.json and args.quiet):
        print(text)
    return 0


def _print_standings(report: dict[str, Any]) -> None:
    print(
        f"{report['game_id']}: {report['hands']} hands, seed {report['seed']}"
        + (f", forfeited by {report['forfeited_by']}" if report["forfeited_by"] else "")
    )
    for b in report["bots"]:
        ci = b["points_per_hand_ci95"]
        mean = b["points_per_hand_mean"]
        print(
            f"  {b['name']:<20} {b['points']:+7d} pts  "
            f"{'-' if mean is None else f'{mean:+.3f}'}"
            f"{'' if ci is None else f' ± {ci:.3f}'}/hand  fouls {b['fouls']}  "
            f"FL {b['fantasylands']}  faults {b['faults']}"
        )
    dup = report.get("duplicate")
    if dup:
        for p in dup["pairs"]:
            ci = p["difference_per_deck_ci95"]
            print(
                f"  duplicate {p['a']} - {p['b']}: {p['difference_per_deck_mean']:+.3f}"
                f"{'' if ci is None else f' ± {ci:.3f}'} per deck ({dup['decks']} decks)"
            )


def _cmd_replay(args: argparse.Namespace) -> int:
    from .history import read_histories

    shown = 0
    for d in read_histories(args.file):
        if args.deal is not None and d.record["hand_no"] != args.deal:
            continue
        g = d.game
        print(
            f"hand {d.record['hand_no']} ({d.record['game_id']}), points "
            f"{d.record['points']}"
        )
        for s, b in enumerate(g.boards):
            fl = f" FL{g.fantasyland[s]}" if g.fantasyland[s] else ""
            foul = " FOUL" if g.result().fouls[s] else ""
            print(f"  seat {s} {d.record['seats'][s]}{fl}: {b}{foul}")
        shown += 1
    if args.deal is not None and not shown:
        raise ArenaError(f"{args.file} has no hand {args.deal}")
    return 0


def _cmd_report(args: argparse.Namespace) -> int:
    from .html import write_html_report

    side = write_html_report(args.report, args.history, args.output, embed=args.embed)
    print(f"wrote {args.output}" + (f" and {side}" if side else ""))
    return 0


def add_commands(sub: Any) -> None:
    """Register ``bot``, ``arena``, ``replay`` and ``report`` on a subparsers object."""
    from ..bots import bot_names
    from .games import GAME_IDS

    b = sub.add_parser(
        "bot",
        help="run a registered bot as a wire-protocol client",
        description="Play the poker-arena OFC wire protocol (v1) on "
        "stdin/stdout (logs on stderr), or over TCP with "
        "--connect.",
    )
    b.add_argument("name", help=f"a registered bot: {', '.join(bot_names())}")
    b.add_argument(
        "--rules",
        default=None,
        help="rules the bot is made with (default: the hello's game id)",
    )
    b.add_argument("--seed", type=int, default=None, help="the bot's seed")
    b.add_argument(
        "--connect",
        type=int,
        default=None,
        metavar="PORT",
        help="connect to an arena on 127.0.0.1:PORT instead of stdio",
    )
    b.set_defaults(func=_cmd_bot)

    a = sub.add_parser(
        "arena",
        help="host a match between bots over the wire protocol",
        description="Host a match: built-in bots by registry name, "
        "subprocesses (cmd:COMMAND) and TCP bots (tcp:PORT, "
        "the arena listens on 127.0.0.1). NAME@SPEC names "
        "a bot.",
    )
    a.add_argument(
        "--rules",
        default="ofc-pineapple",
        help=f"game id ({', '.join(GAME_IDS)}) or preset name",
    )
    a.add_argument(
        "--bot", action="append", required=True, help="a bot (repeat once per seat)"
    )
    a.add_argument("--hands", type=int, default=100, help="hands (decks) to play")
    a.add_argument("--seed", type=int, default=0, help="match seed")
    a.add_argument(
        "--timeout-ms", type=int, default=5000, help="per-decision deadline (0: none)"
    )
    a.add_argument(
        "--fault-policy", choices=("substitute", "forfeit"), default="substitute"
    )
    a.add_argument(
        "--duplicate", action="store_true", help="play every deck once per seat rotation"
    )
    a.add_argument("--json", metavar="PATH", help="write the report ('-': stdout)")
    a.add_argument("--history", metavar="PATH", help="write one JSON line per deal")
    a.add_argument("--progress-json", action="store_true", help="progress lines on stderr")
    a.add_argument("--progress-every", type=int, default=100)
    a.add_argument("--quiet", action="store_true")
    from ..parallel.cli import add_parallel_options

    add_parallel_options(a)  # --workers, --ray, --chunk-size: built-in bots only
    a.set_defaults(func=_cmd_arena)

    r = sub.add_parser("replay", help="replay and print the deals of a history file")
    r.add_argument("file", help="a .jsonl hand history")
    r.add_argument("--deal", type=int, default=None, help="only this hand number")
    r.set_defaults(func=_cmd_replay)

    h = sub.add_parser("report", help="write the self-contained HTML match report")
    h.add_argument("report", help="the arena's --json report")
    h.add_argument("history", help="the arena's --history file")
    h.add_argument("-o", "--output", required=True, help="the HTML file to write")
    h.add_argument("--embed", type=int, default=200, help="deals held in the page itself")
    h.set_defaults(func=_cmd_report)
