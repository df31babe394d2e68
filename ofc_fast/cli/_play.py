"""``ofc-fast play``: a match between bots, deal by deal in this process, or as a
parallel run of independent units (``--workers`` / ``--ray``, ``ofc_fast.parallel``);
Ctrl-C stops between two deals (registered by :func:`add_commands`)."""

from __future__ import annotations

import argparse
import contextlib
import json
import sys
import time
from functools import partial
from typing import TYPE_CHECKING, Any

from ..errors import GameError, counted
from ..rules import RuleSet
from ..table import check_match_stacks, check_players, check_seat, check_seed
from ._render import Justify, interval_method, pct, print_deal, progress, table, wrap
from .options import (
    HANDS_WHY,
    MAX_HANDS,
    SpooledList,
    StopOnSigint,
    add_bots_option,
    add_json_option,
    add_rules_option,
    add_stacks_option,
    atomic_text,
    check_count,
    check_output,
    emit_json,
    json_only,
    load_rules,
    named,
    parse_stacks,
    plus_minus,
    split_list,
    write_json,
    writing,
)

if TYPE_CHECKING:
    from ..game import Match

__all__ = ["add_commands"]

SHOW_DEALS = 10  # print every deal of a match this short
SEAT_JUSTIFY: tuple[Justify, ...] = ("right", "left") + ("right",) * 6
"""The columns of a summary per seat: seat, bot, then its figures."""


def seat_columns(fantasyland: str) -> list[str]:
    """The columns of a summary per seat, ``fantasyland`` the title of its share of
    Fantasyland deals."""
    return ["seat", "bot", "pts/deal", "95% CI", "total", "fouls", fantasyland, "roy/deal"]


def seat_row(seat: int, name: str, d: dict[str, Any], fantasyland: str) -> list[Any]:
    """A row of a summary per seat (:func:`seat_columns`): ``d`` the seat's
    :meth:`Match.summary`, ``fantasyland`` the key of its share of Fantasyland deals.

    >>> seat_row(1, "random", {"mean": 2, "ci95": None, "total": 4, "foul_rate": 0.5,
    ...     "fantasyland_rate": 0, "mean_royalties": 1}, "fantasyland_rate")
    [1, 'random', '+2.00', '-', '+4', '50.0%', '0.0%', '1.00']
    """
    ci = d["ci95"]
    return [
        seat,
        name,
        f"{d['mean']:+.2f}",
        f"{plus_minus()}{ci:.2f}" if ci is not None else "-",
        f"{d['total']:+d}",
        pct(d["foul_rate"]),
        pct(d[fantasyland]),
        f"{d['mean_royalties']:.2f}",
    ]


def print_speed(decisions: int, elapsed: float) -> None:
    """The last line of a summary of ``play``: decisions, seconds, decisions/s."""
    print(
        f"{decisions:,} decisions in {elapsed:.2f} s "
        f"({decisions / max(elapsed, 1e-9):,.0f} decisions/s)"
    )


def run_play(args: argparse.Namespace) -> int:
    from ..bots import make_bots
    from ..bots.registry import is_bot_spec
    from ..game import Match

    preset = load_rules(args.rules)
    players = args.players if args.players is not None else min(3, preset.max_players)
    named("--players", check_players, players, preset)
    named("--button", check_seat, args.button, players, "")
    from ..parallel.cli import wants_parallel

    # (a parallel run's limit, and its reason: check_parallel_options)
    most = None if wants_parallel(args) else MAX_HANDS
    check_count("--hands", args.hands, 1, most, why=HANDS_WHY)
    if args.show is not None:
        check_count("--show", args.show, 0)
    if args.show and args.quiet:  # (no deal was printed, silently)
        raise GameError("--show: --quiet prints no deal: drop --show or --quiet")
    if args.show and json_only(args):
        raise GameError(
            "--show: --json without PATH prints the JSON alone, no deal: write it to a "
            "file (--json PATH) or drop --show"
        )
    names = [  # specs (value@PATH, policy:PATH, module:attribute) keep their case
        n if is_bot_spec(n) else n.lower()
        for n in split_list("--bots", args.bots, "bot name")
    ]
    stacks = parse_stacks(args.stacks, players)
    check_match_stacks(stacks, "--stacks")
    if args.seed is not None:
        check_seed(args.seed, "--seed")
    check_output("--history", args.history)  # before the match (--json: ofc-fast's)
    # what Match still checks is whether the seats fit one deck
    match = named(
        "--players",
        Match,
        preset,
        players,
        seed=args.seed,
        stacks=stacks,
        button=args.button,
        keep_nets=False,
    )
    if match.is_over:  # (it played no deal, and said so only after the match)
        raise GameError(
            f"--stacks: a match needs two seats with chips, got {stacks}: it would "
            "play no deal"
        )
    for option, given, what in (
        ("--independent", args.independent, "mode"),
        ("--chunk-size", args.chunk_size is not None, "task size"),  # (was ignored)
    ):
        if given and not wants_parallel(args):
            raise GameError(
                f"{option}: a parallel run's {what}; add --workers N or --ray (a plain "
                "play is the sequential Match, with Fantasyland)"
            )
    # the bots' seeds derive from the match seed, the one printed: it replays the match
    # (make_bots refuses a bot that cannot play these seats: before any deal)
    bots = named("--bots", make_bots, names, players, preset, seed=match.seed)
    from ..arena import sigterm_as_sigint

    if wants_parallel(args):  # --workers / --ray: units of deals (ofc_fast/parallel)
        with sigterm_as_sigint():  # kill: stopped as by Ctrl-C, files written
            return play_parallel(args, preset, players, names, match.seed, stacks)
    names = names * players if len(names) == 1 else names
    quiet = args.quiet or json_only(args)
    show = (
        args.show
        if args.show is not None
        else (args.hands if args.hands <= SHOW_DEALS else 0)
    )
    # kill: stopped as by Ctrl-C, and a second kill while the files are written is a
    # second Ctrl-C (not SIGTERM's default: the history left in its temporary file)
    with sigterm_as_sigint(), contextlib.ExitStack() as files:  # (closed however it ends)
        # each deal is written as it ends (--json: to a temporary file until the summary
        # is known), none is kept: a long match's memory does not grow with --hands
        head = {"rules": preset.name, "players": players, "seed": match.seed, "bots": names}
        deals = files.enter_context(SpooledList()) if args.json else None
        hist = (
            files.enter_context(HistoryFile(args.history, head)) if args.history else None
        )
        advance, close = progress(args.hands, not quiet and show == 0 and args.hands >= 50)
        decisions = 0

        def on_deal(game: Any, result: Any) -> None:
            nonlocal decisions
            decisions += game.decisions
            i = match.hands_played
            if deals is not None:
                deals.append(deal_json(i, game.seed, result.to_dict(), None))
            if hist is not None:
                if (
                    hist.histories is None
                ):  # one hand-history line per deal (arena/history.py)
                    from ..arena.history import deal_record

                    hist.write(json.dumps(deal_record(game, i - 1, names)))
                else:
                    hist.append(game.history())
            if i <= show and not quiet:
                print_deal(i, game, result, names)
            advance()

        from ..parallel import finish_naming

        t0 = time.perf_counter()
        stop = StopOnSigint()
        try:
            with stop:  # (kill too: sigterm_as_sigint, above)
                match.play(  # deal by deal: Ctrl-C stops between two deals
                    bots,
                    args.hands,
                    on_deal,
                    stop=lambda: stop.requested,
                    finish_deal=partial(finish_naming, names=names),  # as --workers
                )
        except KeyboardInterrupt:  # a second Ctrl-C: stop at once
            stop.requested = True
        finally:
            close()
        elapsed = time.perf_counter() - t0
        interrupted = stop.requested
        if interrupted:
            print(
                f"interrupted: {match.hands_played} of {args.hands} deals played",
                file=sys.stderr,
            )
        if not quiet:
            cols = seat_columns("in FL")
            just = list(SEAT_JUSTIFY)
            if match.stacks is not None:
                cols.append("stack")
                just.append("right")
            rows = []
            for s, d in enumerate(match.summary()):  # (--quiet: not computed)
                row = seat_row(s, names[s], d, "fantasyland_rate")
                if match.stacks is not None:
                    row.append(d["stack"])
                rows.append(row)
            table(
                f"{preset.name}: {counted(match.hands_played, 'deal')}, {players} "
                "players, seed "
                f"{match.seed}",
                cols,
                rows,
                justify=just,
            )
            wrap(
                f"Points per deal with a 95% confidence interval ({interval_method()}); "
                f"fouls and deals played in Fantasyland as shares of the deals; mean "
                f"royalties per deal."
            )
            print_speed(decisions, elapsed)
            if match.is_over and match.hands_played < args.hands:
                print("the match ended early: fewer than two seats have chips left")
        if deals is not None:
            run: dict[str, Any] = {
                "seconds": elapsed,
                "decisions": decisions,
                "interrupted": interrupted,
            }
            # (the keys of a parallel run's JSON too: one shape)
            emit_play_json(
                args, match, preset, names, deals, **run, mode="match", executor=None
            )
        return 130 if interrupted else 0


def play_parallel(
    args: argparse.Namespace,
    preset: RuleSet,
    players: int,
    names: list[str],
    seed: int,
    stacks: list[int] | None,
) -> int:
    """``play --workers N`` / ``--ray``: a run of units, each a deal and the
    Fantasyland deals it earns (``--independent``: the deal alone, its Fantasyland
    counted, not played); no chips carried between deals (ofc_fast/parallel/_plan.py).
    The same on every executor."""
    from ..parallel.cli import play_run

    for option, given, why in (
        ("--stacks", stacks is not None, "table stakes carry chips from deal to deal"),
        ("--show", bool(args.show), "a deal is printed as it ends"),  # (was ignored)
    ):
        if given:
            raise GameError(
                f"{option}: {why}, which a parallel run (--workers, --ray) of "
                f"independent units cannot; drop --workers/--ray or {option}"
            )
    names = names * players if len(names) == 1 else names
    quiet = args.quiet or json_only(args)
    with contextlib.ExitStack() as files:  # (closed however the run ends)
        # each chunk's deals are written as they come back (--json: to a temporary file
        # until the summary is known), none is kept: memory does not grow with --hands
        head = {"rules": preset.name, "players": players, "seed": seed, "bots": names}
        deals = files.enter_context(SpooledList()) if args.json else None
        hist = (
            files.enter_context(HistoryFile(args.history, head)) if args.history else None
        )
        decisions = units = 0
        last_unit = -1

        def on_chunk(res: Any) -> None:
            nonlocal decisions, units, last_unit
            for o in res.outcomes:
                decisions += o["decisions"]
                units += o["deal"] != last_unit  # (a unit's deals come together)
                last_unit = o["deal"]
                if deals is not None:
                    outcome = {k: v for k, v in o.items() if k != "declared"}  # (seats)
                    deals.append(deal_json(o["deal"] + 1, o["seed"], outcome, o["fl_deal"]))
            for line in res.lines:  # (--history only)
                assert hist is not None
                if hist.histories is None:
                    hist.write(line)
                else:
                    hist.append(json.loads(line)["history"])

        t0 = time.perf_counter()
        run, executor, interrupted = play_run(
            args,
            preset,
            players,
            names,
            seed,
            history=bool(args.history),
            progress=not quiet and args.hands >= 50 and sys.stderr.isatty(),
            on_chunk=on_chunk,
        )
        elapsed = time.perf_counter() - t0
        match = run.match
        if interrupted:
            print(f"interrupted: {units} of {args.hands} deals played", file=sys.stderr)
        chains = run.spec.fantasyland
        if not quiet:
            fl_key = "fantasyland_rate" if chains else "fantasyland_entry_rate"
            rows = [seat_row(s, names[s], d, fl_key) for s, d in enumerate(match.summary())]
            what = (
                f"{counted(match.hands_played, 'deal')} ({counted(units, 'deal')} and "
                f"the Fantasyland deals {'it' if units == 1 else 'they'} earned)"
                if chains
                else f"{counted(match.hands_played, 'independent deal')}"
            )
            table(
                f"{preset.name}: {what}, {players} players, seed {seed}, {executor}",
                seat_columns("in FL" if chains else "FL earned"),
                rows,
                justify=SEAT_JUSTIFY,
            )
            wrap(
                (
                    "Each deal with the Fantasyland deals it earns (--workers/--ray): "
                    "Fantasyland is played, deals played in Fantasyland as a share of "
                    "the deals. "
                    if chains
                    else "Independent deals (--independent): no Fantasyland is played, "
                    "the Fantasyland earned is shown as a share of the deals. "
                )
                + f"Points per deal with a 95% confidence interval ({interval_method()})."
            )
            print_speed(decisions, elapsed)
        if deals is not None:
            mode = "fantasyland-chains" if chains else "independent"
            stats: dict[str, Any] = {
                "seconds": elapsed,
                "decisions": decisions,
                "interrupted": interrupted,
            }
            emit_play_json(
                args, match, preset, names, deals, **stats, mode=mode, executor=executor
            )
        return 130 if interrupted else 0


class HistoryFile:
    """``play --history PATH``, opened before the first deal (``with``), each deal
    written as it ends: a hand-history line (``.jsonl``: :meth:`write`), or its
    history (:meth:`append`) spooled until the block ends and the whole JSON history,
    ``head`` and its deals, is written; none kept in memory.  The file is written
    whole or not at all (:func:`~ofc_fast.cli.options.atomic_text`): a run that fails
    before its first deal leaves the file that was there; one stopped later (Ctrl-C,
    an error) writes the deals it played.  An OSError is an OfcError naming
    ``--history``."""

    def __init__(self, path: str, head: dict[str, Any]) -> None:
        self.path = path
        self.head = head
        self.deals = 0  # written so far
        self.histories: SpooledList | None = None
        self._files = contextlib.ExitStack()

    def __enter__(self) -> HistoryFile:
        with contextlib.ExitStack() as files:  # (all closed if one fails to open)
            if not self.path.lower().endswith(".jsonl"):  # (any case, as .json)
                self.histories = files.enter_context(SpooledList("--history"))
            with writing("--history", self.path):
                self._text = files.enter_context(atomic_text(self.path))
            self._files = files.pop_all()
        return self

    def write(self, line: str) -> None:
        """One hand-history line (``.jsonl``)."""
        with writing("--history", self.path):
            self._text.write(line + "\n")
        self.deals += 1

    def append(self, history: dict[str, Any]) -> None:
        """One deal's history (the JSON history)."""
        assert self.histories is not None
        self.histories.append(history)
        self.deals += 1

    def __exit__(self, *exc: Any) -> None:
        if exc[0] is not None and not self.deals:  # failed before any deal:
            self._files.__exit__(*exc)  # the temporary file dropped, PATH as it was
            return
        with writing("--history", self.path), self._files:
            if self.histories is not None:
                write_json(self._text, self.head, ("deals", self.histories))


DEAL_KEYS = (
    "net",
    "fouls",
    "royalties",
    "fantasyland",
    "boards",
    "button",
    "in_fantasyland",
    "surrendered",
    "declared",
)
"""The keys of a deal of ``play --json`` after ``deal`` and ``seed``, in order, the
same in one process and with ``--workers`` / ``--ray`` (docs/cli.md); then
``fl_deal``.  ``surrendered`` and ``declared`` only where a seat surrendered or
declared (``declared``: in one process)."""


def deal_json(
    deal: int, seed: int | None, result: dict[str, Any], fl_deal: int | None
) -> dict[str, Any]:
    """One deal of ``play --json``: its number (from 1), seed, the :data:`DEAL_KEYS`
    of ``result`` (:meth:`GameResult.to_dict`, or a parallel run's outcome) and
    ``fl_deal`` (a parallel run's place of the deal in its unit; one process: None).

    >>> deal_json(1, 7, {"net": [2, -2], "items": [], "button": 0}, None)
    {'deal': 1, 'seed': 7, 'net': [2, -2], 'button': 0, 'fl_deal': None}
    """
    fields = {
        k: result[k]
        for k in DEAL_KEYS
        if k in result and (result[k] or k not in ("surrendered", "declared"))
    }
    return {"deal": deal, "seed": seed, **fields, "fl_deal": fl_deal}


def emit_play_json(
    args: argparse.Namespace,
    match: Match,
    preset: RuleSet,
    names: list[str],
    deals: SpooledList,
    seconds: float,
    decisions: int,
    **extra: Any,
) -> None:
    """The ``--json`` record of ``ofc-fast play``: the match, its rules and bots,
    timing, ``extra`` fields (``interrupted``, ``mode``, ``executor``), then the
    deals."""
    emit_json(
        args,
        {
            **match.to_dict(),
            "rule_set": preset.to_dict(),
            "bots": names,
            "seconds": seconds,
            "decisions": decisions,
            **extra,
        },
        ("deals", deals),
    )


def add_commands(sub: Any) -> None:
    """Register ``play`` on a subparsers object."""
    from ..bots import bot_names  # the registry names --bots accepts
    from ..parallel.cli import add_parallel_options

    pl = sub.add_parser(
        "play",
        help="simulate a match between bots",
        description="Simulate a match between bots and print a summary per seat: points "
        "per deal with a 95% confidence interval, foul rate, share of deals "
        "played in Fantasyland and mean royalties. Short matches "
        f"(<= {SHOW_DEALS} deals) print every deal.",
    )
    add_rules_option(pl, "PINEAPPLE")
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
    add_bots_option(pl, bot_names())
    add_stacks_option(pl)
    pl.add_argument(
        "--button", type=int, default=0, help="button of the first deal (default 0)"
    )
    pl.add_argument(
        "--show",
        type=int,
        default=None,
        help="print the first N deals (default: all of a short match; not with "
        "--quiet, nor --json without PATH)",
    )
    add_json_option(pl)
    pl.add_argument(
        "--history",
        metavar="PATH",
        help="write every deal's history (Game.replay() input): JSON, its list "
        "'deals', or when PATH ends in .jsonl (in any case) one hand-history line per "
        "deal, holding it under 'history' (what ofc-fast replay reads)",
    )
    pl.add_argument("--quiet", action="store_true", help="print nothing but errors")
    add_parallel_options(pl)  # --workers, --ray, --chunk-size (ofc_fast/parallel/cli.py)
    pl.add_argument(
        "--independent",
        action="store_true",
        help="with --workers/--ray: play independent deals, counting the Fantasyland "
        "a deal earns without playing it (default: each deal with its Fantasyland "
        "deals)",
    )
    pl.set_defaults(func=run_play)
