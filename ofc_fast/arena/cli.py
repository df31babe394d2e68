"""The arena's subcommands of ``ofc-fast``: ``bot``, ``arena``, ``replay``, ``report``
(registered by :func:`add_commands`; ``ofc_fast.cli`` looks it up)."""

from __future__ import annotations

import argparse
import io
import json
import os
import stat
import sys
from typing import IO, Any

from ..cli.options import (
    HANDS_WHY,
    MAX_HANDS,
    StopOnSigint,
    add_json_option,
    check_count,
    check_output,
    input_file,
    is_rules_file,
    is_standard_output,
    load_rules,
    named,
    one_of,
    padded,
    plus_minus,
    write_whole,
    writing,
)
from ..errors import ArenaError, counted, shown_path
from ..files import open_input
from ..rules import RuleSet
from ..table import check_seed
from ._games import resolve_arena_rules
from ._host_checks import MAX_DEADLINE_MS
from ._signals import sigterm_as_sigint
from ._stats import printable

__all__ = ["add_commands"]


def _rules_of(value: str) -> RuleSet:
    """``--rules`` of ``arena`` and ``bot``: a game id or a preset name, or a rules
    JSON file (the wire protocol names presets only).  Errors name ``--rules``."""
    rules = load_rules(value) if is_rules_file(value) else value
    return named("--rules", resolve_arena_rules, rules)


def _cmd_bot(args: argparse.Namespace) -> int:
    from .client import play_bot  # (ofc_fast/arena/client.py)

    if args.seed is not None:  # (the bots' own checks differ: numpy's is a traceback)
        check_seed(args.seed, "--seed")
    if args.time_budget is not None:  # (was "--time-budget: search bot: time_budget")
        from ..search import check_settings

        named("--time-budget", check_settings, time_budget=args.time_budget)
    if args.connect is not None:  # (-1 and 70000 were "cannot connect")
        check_count("--connect", args.connect, 1, 65535, error=ArenaError)
    elif args.token is not None:  # (it was sent on stdio, where no arena checks one)
        raise ArenaError("--token: only with --connect PORT (a tcp: seat's token)")
    elif args.rules == "-":  # (the rules would be read to the end of the protocol)
        raise ArenaError("--rules: '-' (standard input) carries the protocol; name a file")
    return play_bot(
        args.name,
        rules=None if args.rules is None else _rules_of(args.rules),
        seed=args.seed,
        connect=args.connect,
        time_budget=args.time_budget,
        token=args.token,
    )


def _cmd_arena(args: argparse.Namespace) -> int:
    # kill: stopped as by Ctrl-C for the whole run, the report and files written after
    # the match included (a kill there was SIGTERM's default: a temporary file left)
    with sigterm_as_sigint():
        return _run_arena(args)


def _run_arena(args: argparse.Namespace) -> int:
    """``ofc-fast arena``: the match of ``args``, its report and files written."""
    from ._games import check_bot_count
    from ._host import Arena, DealRecord, parse_bot_spec
    from .history import deal_record
    from .report import match_report

    specs = [parse_bot_spec(b) for b in args.bot]
    rules = _rules_of(args.rules)
    named("--bot", check_bot_count, rules, len(specs), " (one --bot each)")
    if args.seed is not None:
        check_seed(args.seed, "--seed")
    check_output("--json", args.json, standard_output=True)
    check_output("--history", args.history)
    from ..parallel.cli import check_parallel_options, executor_of, wants_parallel

    check_parallel_options(args)
    # 0: no limit, the API's None (whose wording its error would use)
    check_count("--hands", args.hands, 1, MAX_HANDS, ArenaError, HANDS_WHY)
    check_count("--timeout-ms", args.timeout_ms, 0, MAX_DEADLINE_MS, ArenaError, "a day")
    # opened when the first hand ends: a match that fails to start (a bot that is not
    # there, a program that does not run) leaves an earlier history as it was
    hist: list[IO[str]] = []

    def history_file(line: str = "") -> None:
        """Open the history file (once), then write ``line`` to it; an ArenaError
        naming ``--history`` when it cannot be opened or written (a full disk)."""
        with writing("--history", args.history, ArenaError):
            if not hist:
                hist.append(open(args.history, "w", encoding="utf-8"))  # noqa: SIM115
            if line:
                hist[0].write(line)
                hist[0].flush()

    def on_deal(d: DealRecord) -> None:
        if args.history:  # written as the hands finish: the arena keeps none
            history_file(
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
            rules,
            specs,
            args.hands,
            args.seed,
            timeout_ms=args.timeout_ms or None,
            fault_policy=args.fault_policy,
            duplicate=args.duplicate,
            on_deal=on_deal,
            on_progress=on_progress if args.progress_json else None,
            progress_every=100 if args.progress_every is None else args.progress_every,
            token=args.token,
        )
        if args.progress_every is not None and not args.progress_json:  # (checked)
            raise ArenaError("--progress-every: only with --progress-json")
        try:
            # (kill too: sigterm_as_sigint, in _cmd_arena: bots closed)
            if wants_parallel(args):  # built-in bots on workers (parallel/tournament.py)
                from ..parallel.tournament import run_arena

                with executor_of(args) as ex:
                    report = run_arena(arena, ex, chunk_size=args.chunk_size or 50)
            else:

                def on_stop() -> None:  # Ctrl-C: the hands played so far
                    arena.stop()
                    if not arena.started:  # still waiting for bots: no hand to finish
                        raise KeyboardInterrupt

                with StopOnSigint(on_stop):
                    report = arena.run()
        except KeyboardInterrupt:  # the hands booked so far (sequentially: a second
            # Ctrl-C, not the hand in progress; in parallel: the chunks back in order)
            report = match_report(arena) | {"interrupted": True}
        interrupted = report["interrupted"]
        if args.history:
            history_file()  # a match that ended before its first hand: an empty file
    finally:
        for f in hist:
            try:
                f.close()
            except OSError:  # (what a failed write left: its ArenaError is raised)
                pass
    text = json.dumps(report, indent=1)
    status = 130 if interrupted else 0
    if interrupted:
        total = arena.hands * (arena.players if arena.duplicate else 1)
        print(f"interrupted: {report['hands']} of {total} games played", file=sys.stderr)
    if args.json == "-":
        print(text)  # --json alone: the report is all that is printed
        return status
    if args.json:
        write_whole("--json", args.json, text + "\n", ArenaError)
    if not args.quiet:
        _print_standings(report)
    return status


def _signed(x: float | None) -> str:
    """A mean as the standings print it: ``+1.250``, or ``-`` when there is none (no
    hand, no deck played)."""
    return "-" if x is None else f"{x:+.3f}"


def _bot_cells(b: dict[str, Any]) -> list[str]:
    """One bot's standing as the columns of its row: its name, points, mean (and
    its confidence interval) per hand, fouls and Fantasylands."""
    ci = b["points_per_hand_ci95"]
    margin = "" if ci is None else f" {plus_minus()} {ci:.3f}"
    return [
        printable(b["name"]),
        f"{b['points']:+d}",
        f"{_signed(b['points_per_hand_mean'])}{margin}",
        f"fouls {b['fouls']}",
        f"FL {b['fantasylands']}",
    ]


def _bot_line(b: dict[str, Any], cells: list[str]) -> str:
    """One bot's standing, its ``cells`` padded to their columns' widths (so that the
    rows line up, whatever the names and numbers); its faults by kind, and when the
    arena stopped asking it (killed, disconnected) and filled in its decisions, say
    so."""
    kinds = b.get("fault_kinds") or {}
    faults = f"faults {b['faults']}" + (
        f" ({', '.join(f'{k} {v}' for k, v in kinds.items())})" if kinds else ""
    )
    name, points, mean, fouls, fl = cells
    line = f"  {name} {points} pts  {mean}/hand  {fouls}  {fl}  {faults}"
    if b.get("stopped"):
        line += f"; {b['stopped']}"
    if b.get("substituted"):
        line += f"; {counted(b['substituted'], 'decision')} substituted"
    return line


def _print_standings(report: dict[str, Any]) -> None:
    dup = report.get("duplicate")
    if dup:
        rotations = dup["rotations"]
        decks = report["hands"] // rotations
        played = (
            f"{counted(decks, 'hand')} (duplicate: {counted(report['hands'], 'game')}, "
            f"{counted(rotations, 'seating')})"
        )
    else:
        played = counted(report["hands"], "hand")
    forfeit = report["forfeited_by"]  # (names as replay prints them: no escape codes)
    print(
        f"{report['game_id']}: {played}, seed {report['seed']}"
        + (f", forfeited by {printable(forfeit)}" if forfeit else "")
        + (" (interrupted)" if report.get("interrupted") else "")
    )
    cells = padded(
        [_bot_cells(b) for b in report["bots"]],
        right=[False, True, True],
        minimum=[20, 7],  # (the usual names and points: columns that stay put)
    )
    for b, row in zip(report["bots"], cells):
        print(_bot_line(b, row))
    dup = report.get("duplicate")
    if dup:
        for p in dup["pairs"]:
            ci = p["difference_per_deck_ci95"]
            margin = "" if ci is None else f" {plus_minus()} {ci:.3f}"
            print(
                f"  duplicate {printable(p['a'])} - {printable(p['b'])}: "
                f"{_signed(p['difference_per_deck_mean'])}"
                f"{margin} per deck ({counted(dup['decks'], 'deck')})"
            )


def _cmd_replay(args: argparse.Namespace) -> int:
    # the file's errors (cannot read, line N: ...) name FILE, as its usage calls it
    source = named("FILE", input_file, args.file)
    shown, hands = named("FILE", _print_deals, source, args.deal)
    where = shown_path(args.file) if source is args.file else "standard input"
    if args.deal is not None and not shown:
        held = (
            f"its hands are numbered {hands[0]} to {hands[1]}" if hands else "it holds none"
        )
        raise ArenaError(f"--deal: {where} has no hand {args.deal} ({held})")
    if not shown:  # (a match stopped before its first hand: a valid, empty history)
        print(f"no deals in {where}")
    return 0


def _print_deals(
    path: str | IO[bytes], deal: int | None
) -> tuple[int, tuple[int, int] | None]:
    """Replay and print every deal of the history file ``path`` (or an open file:
    standard input; only hand ``deal`` when given); returns the number printed, and
    the lowest and highest hand numbers of the file (None: it holds no deal)."""
    from ..cards import cards_str
    from .history import read_histories

    shown, hands = 0, None
    for d in read_histories(path):
        number = d.record["hand_no"]
        hands = (min(hands[0], number), max(hands[1], number)) if hands else (number,) * 2
        if deal is not None and number != deal:
            continue
        g = d.game
        print(
            f"hand {d.record['hand_no']} ({printable(d.record['game_id'])}), points "
            f"{d.record['points']}"
        )
        for s, b in enumerate(g.boards):
            fl = f" FL{g.fantasyland[s]}" if g.fantasyland[s] else ""
            foul = " FOUL" if g.result().fouls[s] else ""
            rows = " / ".join(cards_str(sorted(r, reverse=True)) for r in b.rows)
            print(f"  seat {s} {printable(d.record['seats'][s])}{fl}: {rows}{foul}")
        shown += 1
    return shown, hands


def _read_twice(argument: str) -> str | IO[bytes]:
    """The report ``argument`` names as a file that can be read twice
    (:func:`_cmd_report`): a regular file's path as it is; standard input, or the
    path of a pipe that gives its bytes once (``<(gunzip -c r.json.gz)``, a FIFO),
    read into memory (a report is at most MAX_REPORT_BYTES); a path that cannot be
    opened as it is (read_report says why)."""
    from .report import MAX_REPORT_BYTES, ReadOnce

    report = input_file(argument)
    if not isinstance(report, str):
        return io.BytesIO(report.read(MAX_REPORT_BYTES + 1))
    try:
        if stat.S_ISREG(os.stat(report).st_mode):
            return report
        with open_input(report) as f:  # (a FIFO: not waited on for ever)
            return ReadOnce(f.read(MAX_REPORT_BYTES + 1), report)
    except OSError:
        return report


def _cmd_report(args: argparse.Namespace) -> int:
    from ..cli.options import StandardInputError
    from ..errors import HistoryError
    from .html import write_html_report
    from .report import read_report

    check_output("--output", args.output)
    if args.report == args.history == "-":
        raise ArenaError("REPORT, HISTORY: standard input (-) can be one of them, not both")
    report = named("REPORT", _read_twice, args.report)
    history = named("HISTORY", input_file, args.history)
    # the files' errors name REPORT and HISTORY, as its usage calls them (a report is
    # at most MAX_REPORT_BYTES: read once more here to tell its errors apart)
    named("REPORT", read_report, report)
    if not isinstance(report, str):
        report.seek(0)
    page_alone = is_standard_output(args.output)  # (-o /dev/stdout: the page alone)
    try:
        side = write_html_report(report, history, args.output, embed=args.embed)
    except HistoryError as exc:
        raise HistoryError(f"HISTORY: {exc}", exc.field) from None
    except StandardInputError as exc:  # (REPORT's was read before: HISTORY's)
        raise StandardInputError(f"HISTORY: {exc}") from None
    if not page_alone:
        wrote = f"wrote {shown_path(args.output)}"
        print(wrote + (f" and {shown_path(side)}" if side else ""))
    return 0


def add_commands(sub: Any) -> None:
    """Register ``bot``, ``arena``, ``replay`` and ``report`` on a subparsers object.

    >>> parser = argparse.ArgumentParser(prog="ofc-fast")
    >>> add_commands(parser.add_subparsers(dest="command"))
    >>> args = parser.parse_args(["arena", "--bot", "random", "--bot", "search"])
    >>> args.command, args.bot
    ('arena', ['random', 'search'])
    """
    from ..bots import bot_names
    from ..bots.registry import SPECS
    from ._games import GAME_IDS

    b = sub.add_parser(
        "bot",
        help="run a registered bot as a wire-protocol client",
        description="Play the poker-arena OFC wire protocol (v1) on "
        "stdin/stdout (logs on stderr), or over TCP with "
        "--connect.",
    )
    b.add_argument(
        "name",
        metavar="NAME",
        help=f"a registered bot: {', '.join(bot_names())}; or a spec: {SPECS}",
    )
    b.add_argument(
        "--rules",
        default=None,
        help="rules the bot is made with: a game id, a preset name or a rules JSON "
        "file of a preset; a hello of another game is refused (default: the hello's "
        "game id)",
    )
    b.add_argument("--seed", type=int, default=None, help="the bot's seed (default 0)")
    b.add_argument(
        "--time-budget",
        type=float,
        default=None,
        metavar="SECONDS",
        help="search bot: seconds per decision (the arena's deadline caps it)",
    )
    b.add_argument(
        "--connect",
        type=int,
        default=None,
        metavar="PORT",
        help="connect to an arena on 127.0.0.1:PORT instead of stdio",
    )
    b.add_argument(
        "--token",
        default=None,
        help="with --connect: the token the arena's --token asks for (sent in join)",
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
        help=f"game id ({', '.join(GAME_IDS)}), preset name, or a rules JSON file "
        "of a preset (-: standard input) (default ofc-pineapple)",
    )
    a.add_argument(
        "--bot",
        action="append",
        required=True,
        help=f"a bot, once per seat: a registered one ({', '.join(bot_names())}), "
        f"cmd:COMMAND, tcp:PORT or a spec ({SPECS}); NAME@SPEC names its seat",
    )
    a.add_argument(
        "--hands",
        type=int,
        default=100,
        help="hands (decks) to play; with --duplicate each is played once per "
        "seating, so a match is hands x bots games (default 100)",
    )
    a.add_argument("--seed", type=int, default=0, help="match seed (default 0)")
    a.add_argument(
        "--timeout-ms",
        type=int,
        default=5000,
        help="per-decision deadline in ms, at most 86400000 (a day; 0: none) "
        "(default 5000)",
    )
    a.add_argument(
        "--fault-policy",
        **one_of("substitute", "forfeit"),
        default="substitute",
        help="on a bot's fault: play the filler placement for it and go on "
        "(substitute), or end the match (forfeit) (default substitute)",
    )
    a.add_argument(
        "--duplicate", action="store_true", help="play every deck once per seat rotation"
    )
    add_json_option(
        a,
        "the report as JSON: written to PATH (through a temporary file), or "
        "alone on standard output without PATH",
    )
    a.add_argument(
        "--history",
        metavar="PATH",
        help="write one JSON line per deal, as each hand ends",
    )
    a.add_argument(
        "--token",
        default=None,
        help="tcp: seats take only a bot whose join carries this token "
        "(ofc-fast bot --token)",
    )
    a.add_argument("--quiet", action="store_true", help="print no standings (errors only)")
    a.add_argument("--progress-json", action="store_true", help="progress lines on stderr")
    a.add_argument(
        "--progress-every",
        type=int,
        default=None,
        metavar="N",
        help="with --progress-json: a progress line every N hands (default 100)",
    )
    from ..parallel.cli import add_parallel_options

    add_parallel_options(a)  # --workers, --ray, --chunk-size: built-in bots only
    a.set_defaults(func=_cmd_arena)

    r = sub.add_parser(
        "replay",
        help="replay and print the deals of a history file",
        description="Replay every deal of a hand history (ofc-fast arena --history, "
        "ofc-fast play --history PATH.jsonl) through the engine, checking its points, and "
        "print the final boards: rows front / middle / back, each row's cards "
        "high to low.",
    )
    r.add_argument("file", metavar="FILE", help="a .jsonl hand history (-: standard input)")
    r.add_argument(
        "--deal",
        type=int,
        default=None,
        metavar="N",
        help="only hand N (its hand_no, counted from 0 as replay prints them: play's "
        "Deal 1 is hand 0)",
    )
    r.set_defaults(func=_cmd_replay)

    h = sub.add_parser(
        "report",
        help="write the self-contained HTML match report",
        description="Write one self-contained HTML page (no network) from an "
        "arena's --json report and its --history file.",
    )
    h.add_argument(
        "report", metavar="REPORT", help="the arena's --json report (-: standard input)"
    )
    h.add_argument(
        "history", metavar="HISTORY", help="the arena's --history file (-: standard input)"
    )
    h.add_argument(
        "-o",
        "--output",
        required=True,
        help="the HTML file to write (report.html: a history of more deals than "
        "the page holds also gets report.deals.jsonl beside it)",
    )
    h.add_argument(
        "--embed", type=int, default=200, help="deals held in the page itself (default 200)"
    )
    h.set_defaults(func=_cmd_report, reads=("report", "history"))  # (not --output)
