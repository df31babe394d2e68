"""The parallel options of ``ofc-fast play`` and ``ofc-fast arena`` (``--workers``,
``--ray``, ``--chunk-size``) and the ``selfplay`` subcommand (registered by
:func:`add_commands`; ``ofc_fast.cli`` looks it up)."""

from __future__ import annotations

import argparse
import os
import sys
from collections.abc import Callable, Sequence
from typing import TYPE_CHECKING, Any

from ..cli.options import (
    MAX_HANDS,
    add_bots_option,
    add_rules_option,
    check_count,
    check_folder,
    load_rules,
    named,
    split_list,
)
from ..errors import GameError, OfcError
from ..rules import RuleSet
from ..table import check_fantasyland, check_players, check_seed
from ._counts import MAX_WORKERS_PER_CPU as MAX_WORKERS_PER_CPU  # (serve reads it here)
from ._counts import worker_count
from ._plan import DEFAULT_CHUNK, RunSpec, bot_name

if TYPE_CHECKING:  # (the executors, multiprocessing among them: when a run starts)
    from ._executors import Executor

__all__ = ["add_commands"]


def add_parallel_options(parser: argparse.ArgumentParser, chunks: bool = True) -> None:
    """``--workers N``, ``--ray [ADDRESS]``, ``--chunk-size`` (``chunks=False``: a
    command whose task is fixed, which refuses it, naming it)."""
    parser.add_argument(
        "--workers",
        type=int,
        default=None,
        metavar="N",
        help=f"play in N processes (1: in this process; at most {MAX_WORKERS_PER_CPU} "
        "per CPU; with --ray alone: the local cluster's CPUs); see the README's "
        "parallel runs",
    )
    parser.add_argument(
        "--ray",
        nargs="?",
        const="local",
        default=None,
        metavar="ADDRESS",
        help="run on Ray: ADDRESS of a cluster (auto: the one `ray "
        "start --head` started; no ADDRESS or local: a local cluster); needs "
        "pip install 'ofc-fast[ray]'",
    )
    parser.add_argument(
        "--chunk-size",
        type=int,
        default=None,
        metavar="DEALS",
        help=f"deals per task (default {DEFAULT_CHUNK})"
        if chunks
        else "refused: a self-play task is one shard (--shard-size)",
    )


def wants_parallel(args: argparse.Namespace) -> bool:
    """``--workers`` or ``--ray`` given: a run of independent deals."""
    return (
        getattr(args, "workers", None) is not None or getattr(args, "ray", None) is not None
    )


MAX_PLANNED_HANDS = MAX_HANDS
"""``--hands`` of a run planned up front (``--workers``, ``--ray``, ``selfplay``) is at
most this many (:data:`ofc_fast.cli.options.MAX_HANDS`, every run's limit): every chunk
is listed before the first is played (a ``play`` writes each chunk's deals as it comes
back, and keeps none)."""


def check_workers(workers: int | None) -> None:
    """``--workers``: 1 to :data:`MAX_WORKERS_PER_CPU` per CPU (None: not given), for
    every command that takes it (``python -m ofc_fast.learned.train`` too): the
    executors' own check (:func:`~ofc_fast.parallel._counts.worker_count`), so the
    command line and ``ProcessExecutor(workers=N)`` refuse the same counts, in the
    same words."""
    if workers is not None:
        worker_count(workers, "--workers")


def check_parallel_options(args: argparse.Namespace, planned: bool | None = None) -> None:
    """``--workers`` (1 to :data:`MAX_WORKERS_PER_CPU` per CPU), ``--chunk-size`` (at
    least 1; unless ``planned``, with ``--workers`` or ``--ray``) and, for a run whose
    deals are ``planned`` up front (default: a parallel run), ``--hands`` (at most
    :data:`MAX_PLANNED_HANDS`).  Errors name the option."""
    check_workers(args.workers)
    if args.workers is not None and args.ray not in (None, "local"):  # (was ignored)
        raise GameError(
            f"--workers: caps only the local cluster --ray alone starts; --ray "
            f"{args.ray} runs on its cluster's CPUs: drop --workers or the address"
        )
    if args.chunk_size is not None:
        check_count("--chunk-size", args.chunk_size)
        if planned is None and not wants_parallel(args):  # (it would be ignored)
            raise GameError(
                "--chunk-size: only a run on --workers or --ray is played in chunks"
            )
    if wants_parallel(args) if planned is None else planned:
        check_count(
            "--hands",
            args.hands,
            1,
            MAX_PLANNED_HANDS,
            why="parallel runs and selfplay plan every deal up front",
        )


def executor_of(args: argparse.Namespace) -> Executor:
    """The executor the options ask for (errors name the option)."""
    check_parallel_options(args)
    return make_executor(args.workers, args.ray)


def make_executor(workers: int | None, ray: str | None) -> Executor:
    """:func:`ofc_fast.parallel.make_executor`, its module (multiprocessing) imported
    as a run starts, not as ``ofc-fast`` builds its parser."""
    from ._executors import make_executor as executor

    return executor(workers, ray)


def _spec(
    rules: RuleSet,
    players: int,
    seed: int,
    hands: int,
    names: Sequence[str],
    button: int,
    fantasyland: bool,
) -> RunSpec:
    """The run of the options (``--players``, ``--seed`` and ``--button`` checked
    before); errors name ``--bots``."""
    try:
        return RunSpec.make(
            rules,
            players,
            seed,
            hands,
            [(n, {}) for n in names],
            button=button,
            fantasyland=fantasyland,
        )
    except OfcError as exc:
        raise type(exc)(f"--bots: {exc}") from None


def play_run(
    args: argparse.Namespace,
    rules: RuleSet,
    players: int,
    names: Sequence[str],
    seed: int,
    *,
    history: bool,
    progress: bool,
    on_chunk: Callable[[Any], None],
) -> tuple[Any, str, bool]:
    """``ofc-fast play`` with ``--workers`` / ``--ray``: (the ParallelRun, the executor's
    name, whether Ctrl-C stopped it).  Each chunk goes to ``on_chunk`` in deal order,
    as it comes; the run keeps none (its outcomes and lines are empty), only its match.
    After Ctrl-C the match holds the chunks that were back, in deal order, up to the
    first one missing."""
    from ..arena import sigint_deferred
    from ._plan import book, new_match
    from ._progress import Progress
    from ._run import ParallelRun, play_parallel

    fantasyland = not getattr(args, "independent", False)
    spec = _spec(rules, players, seed, args.hands, names, args.button, fantasyland)
    bar = Progress(args.hands, progress)
    done = new_match(spec, keep_nets=False)  # the chunks played, in deal order

    def took(res: Any) -> None:
        with sigint_deferred():  # booked and written whole: Ctrl-C after both
            for o in res.outcomes:
                book(done, o)
            on_chunk(res)
        bar.advance(res.stop - res.start)

    with executor_of(args) as ex:
        try:
            run = play_parallel(
                spec,
                ex,
                chunk_size=args.chunk_size or DEFAULT_CHUNK,
                history=history,
                on_chunk=took,
                keep=False,
            )
        except KeyboardInterrupt:
            return ParallelRun(spec, done), ex.name, True
        finally:
            bar.close()
        return run, ex.name, False


def _cmd_selfplay(args: argparse.Namespace) -> int:
    from .selfplay import selfplay

    rules = load_rules(args.rules)
    players = args.players if args.players is not None else min(2, rules.max_players)
    named("--players", check_players, players, rules)  # (as play's: not _spec's --bots)
    named("--players", check_fantasyland, (0,) * players, players, rules)  # one deck
    names = [bot_name(n) for n in split_list("--bots", args.bots, "bot name")]
    check_parallel_options(args, planned=True)
    check_count("--shard-size", args.shard_size)
    check_seed(args.seed, "--seed")  # (not RunSpec's, which _spec blames on --bots)
    if args.chunk_size is not None:  # (the option comes with --workers and --ray)
        raise GameError(
            "--chunk-size: a self-play task is one shard; set its deals with --shard-size"
        )
    check_folder("--out", args.out)
    spec = _spec(rules, players, args.seed, args.hands, names, 0, fantasyland=False)
    try:  # (selfplay makes it too: an OSError there would not name --out)
        os.makedirs(args.out, exist_ok=True)
    except OSError as exc:
        raise GameError(
            f"--out: cannot make the folder {args.out!r}: {exc.strerror}"
        ) from None
    from ..arena import sigterm_as_sigint

    # kill: stopped as by Ctrl-C (the shard being written dropped, the workers stopped)
    with sigterm_as_sigint(), executor_of(args) as ex:
        doc = selfplay(
            spec,
            args.out,
            ex,
            shard_size=args.shard_size,
            progress=not args.quiet and sys.stderr.isatty(),
        )
    if not args.quiet:
        from ..errors import counted

        decisions = sum(s["decisions"] for s in doc["shards"])
        print(
            f"{args.out}: {counted(len(doc['shards']), 'shard')}, "
            f"{counted(decisions, 'decision', spec=',')}"
            f"{'' if doc['complete'] else ' (incomplete)'}"
        )
    return 0


def add_commands(sub: Any) -> None:
    """Register ``selfplay`` on a subparsers object.

    >>> import argparse
    >>> parser = argparse.ArgumentParser(prog="ofc-fast")
    >>> add_commands(parser.add_subparsers())
    >>> args = parser.parse_args(["selfplay", "--hands", "10", "--out", "data"])
    >>> args.hands, args.out, args.shard_size, args.workers
    (10, 'data', 100, None)
    """
    from ..bots import bot_names  # the registry names --bots accepts

    sp = sub.add_parser(
        "selfplay",
        help="write self-play training data (NumPy shards)",
        description="Play independent deals between bots and write every decision "
        "(encoding, legal mask, action, placement, final reward) as NumPy "
        ".npz shards with hand-history .jsonl files and a manifest; running "
        "the same command again resumes an interrupted run.",
    )
    add_rules_option(sp, "PINEAPPLE")
    sp.add_argument("--players", type=int, default=None, help="seats (default 2)")
    add_bots_option(sp, bot_names())
    sp.add_argument("--hands", type=int, required=True, help="deals to play")
    sp.add_argument("--seed", type=int, default=0, help="seed of the run (default 0)")
    sp.add_argument("--out", required=True, metavar="DIR", help="output directory")
    sp.add_argument(
        "--shard-size",
        type=int,
        default=100,
        metavar="DEALS",
        help="deals per shard (default 100)",
    )
    sp.add_argument("--quiet", action="store_true", help="print nothing but errors")
    add_parallel_options(sp, chunks=False)
    sp.set_defaults(func=_cmd_selfplay)
