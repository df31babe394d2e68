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
(``pip install 'ofc-fast[cli]'``), as plain text otherwise; either way they fit 80
columns.  Into a pipe or a file, tables are plain text at their full width, with
no trailing spaces (nothing is cut short).  Error messages name the option or
argument at fault.  Ctrl-C during ``play`` (or ``arena``) stops the match, prints
the summary of the deals played and still writes ``--json`` / ``--history`` (exit
status 130).

The package: :mod:`ofc_fast.cli.options` (the shared options and their readers;
the value readers in ``ofc_fast.cli._values``), ``ofc_fast.cli._render`` (tables,
deals, the solver's and the search's text), the commands in ``_play`` and
``_analysis``.  Each module of :data:`COMMAND_MODULES`
(``ofc_fast.arena.cli``, ``ofc_fast.parallel.cli``, ``ofc_fast.serve.cli`` among
them) registers its subcommands through ``add_commands(subparsers)``; they are looked
up by name when the parser is built, so none of them imports this package's
``__init__``, nor it theirs.
"""

from __future__ import annotations

import argparse
import contextlib
import errno
import importlib
import io
import os
import sys
from collections.abc import Callable, Iterator, Sequence
from typing import IO

from ..bots.registry import model_spec
from ..errors import BotError, OfcError, quote_path
from ..files import closer, file_key, open_descriptor, output_key
from .options import Parser, check_output, is_rules_file, is_standard_output, name_option
from .options import load_rules as load_rules
from .options import parse_stacks as parse_stacks

__all__ = ["COMMAND_MODULES", "build_parser", "main", "run_command"]

COMMAND_MODULES = (
    "ofc_fast.cli._play",  # play
    "ofc_fast.cli._analysis",  # eval, score, solve, advise, rules, bench
    "ofc_fast.arena.cli",  # bot, arena, replay, report
    "ofc_fast.parallel.cli",  # selfplay
    "ofc_fast.serve.cli",  # serve
)
"""The modules whose ``add_commands(subparsers)`` registers the subcommands, in the
order ``ofc-fast --help`` lists them."""


def build_parser() -> Parser:
    """The ``ofc-fast`` argument parser with every subcommand.

    >>> build_parser().parse_args(["rules", "OFC"]).name
    'OFC'
    """
    from .. import __version__

    p = Parser(
        prog="ofc-fast",
        description="Fast evaluator and rules engine for Chinese Poker and Open Face "
        "Chinese Poker. Without a command: a short PINEAPPLE match between "
        "bots (ofc-fast play).",
    )
    p.add_argument("--version", action="version", version=f"ofc-fast {__version__}")
    sub = p.add_subparsers(dest="command", metavar="COMMAND")
    for name in COMMAND_MODULES:
        importlib.import_module(name).add_commands(sub)
    return p


def main(argv: Sequence[str] | None = None) -> int:
    """Run the ``ofc-fast`` command line; returns the exit status (a reader of its
    output gone away: :func:`run_command`).

    >>> main(["eval", "Qh Qd 5c", "--json"])
    {"cards": "Qh Qd 5c", "strength": 3888, "category": "ONE_PAIR", ...}
    0
    >>> main(["rules", "nosuch"])  # "ofc-fast: error: NAME: unknown rule set ..."
    2
    """
    return run_command(lambda: _run(argv))


def run_command(command: Callable[[], int | None], prog: str = "ofc-fast") -> int:
    """``command()``'s exit status (None: 0), for a command line that prints: a reader
    of standard output (or error: ``--progress-json``) that goes away early
    (``ofc-fast rules | head -1``, ``python tools/presets_table.py | head -1``) ends it
    quietly with :data:`EXIT_READER_GONE`, as a command that SIGPIPE stops in a shell,
    instead of a BrokenPipeError.  Standard output or error closed from the start
    (``>&-``; Python then has none): what goes there is discarded, as :func:`print`
    discards it, rather than a traceback.  Another broken pipe (a bot's) is one line,
    ``PROG: error: ...``, and exit status 2; so is an :class:`OfcError` that
    ``command`` does not handle itself (the scripts of benchmarks/ and tools/: a
    ``--json`` file that cannot be written at the end of a run), and an OSError it
    leaves unhandled (``--help`` or ``--version`` unbuffered ``> /dev/full``).  Ctrl-C
    (KeyboardInterrupt) that ``command`` does not handle itself, while it starts
    (``ofc-fast`` builds its parser) or runs, is one line, ``PROG: interrupted``, and
    exit status 130.

    >>> run_command(lambda: print("done"))
    done
    0
    """
    for name in ("stdout", "stderr"):
        if getattr(sys, name) is None:
            setattr(sys, name, open(os.devnull, "w", encoding="utf-8"))  # noqa: SIM115
    status = None
    try:
        with _escaping_output():
            try:
                status = int(command() or 0)
            finally:  # the output still buffered: a gone reader, a full disk show
                _flush_standard_output()  # here, not at the exit
        return status
    except KeyboardInterrupt:
        print(f"{prog}: interrupted", file=sys.stderr)
        return EXIT_INTERRUPTED
    except OfcError as exc:
        print(f"{prog}: error: {exc}", file=sys.stderr)
        return 2
    except BrokenPipeError as exc:
        gone = [f for f in (sys.stdout, sys.stderr) if _reader_gone(f)]
        if not gone:  # another pipe (a bot's)
            print(f"{prog}: error: {exc}", file=sys.stderr)
            return 2
        _discard(gone)
        return EXIT_READER_GONE
    except _StandardOutputFull as exc:
        _discard([sys.stdout])
        if status:  # the command failed, and said so (on writing to it, too)
            return status
        print(f"{prog}: error: standard output: {exc}", file=sys.stderr)
        return 2
    except OSError as exc:  # (a parser's --help or --version unbuffered > /dev/full)
        if _fills_standard_output(exc):
            _discard([sys.stdout])
        print(f"{prog}: error: {_os_problem(exc)}", file=sys.stderr)
        return 2


class _StandardOutputFull(Exception):
    """Standard output could not take what was buffered for it (``> /dev/full``, a
    full disk): its OSError's message."""


def _flush_standard_output() -> None:
    """Flush standard output; an error other than a gone reader's (BrokenPipeError)
    is a :class:`_StandardOutputFull`."""
    try:
        sys.stdout.flush()
    except BrokenPipeError:
        raise
    except OSError as exc:
        raise _StandardOutputFull(exc.strerror) from None


def _discard(streams: list[IO[str]]) -> None:
    """What is left in the buffers of ``streams`` goes, at the exit, to /dev/null
    (their reader has gone, their disk is full)."""
    fds: list[int] = []  # (/dev/null's descriptor, once opened)
    close = closer(fds)  # (made first: its call at the end runs no Python bytecode)
    try:
        devnull = open_descriptor(fds, os.devnull, os.O_WRONLY)
        for f in streams:
            with contextlib.suppress(OSError, ValueError):  # (no file under it)
                os.dup2(devnull, f.fileno())
    finally:
        close()


@contextlib.contextmanager
def _escaping_output() -> Iterator[None]:
    r"""Standard output and error, while the block runs, write a character their
    encoding lacks (``PYTHONIOENCODING=ascii``, a C locale: a table's "±") as a
    backslash escape (``\xb1``) instead of raising UnicodeEncodeError; each stream
    gets its own error handler back after."""
    changed = []
    for stream in (sys.stdout, sys.stderr):
        errors = getattr(stream, "errors", None)
        if isinstance(stream, io.TextIOWrapper) and errors != "backslashreplace":
            stream.reconfigure(errors="backslashreplace")
            changed.append((stream, errors))
    try:
        yield
    finally:
        for stream, errors in changed:  # (a stream that cannot be flushed: the
            with contextlib.suppress(OSError):  # error its flush gave is the one)
                stream.reconfigure(errors=errors)


EXIT_READER_GONE = 128 + 13
"""The exit status when the reader of standard output or error went away: 128 +
SIGPIPE."""

EXIT_INTERRUPTED = 128 + 2
"""The exit status of a command stopped by Ctrl-C: 128 + SIGINT."""


def _reader_gone(stream: IO[str]) -> bool:
    """Whether ``stream`` is a pipe whose reader has gone away (an error on it); True
    where that cannot be asked (no ``select.poll``)."""
    try:
        fd = stream.fileno()
    except (OSError, ValueError):  # no file under it (a test's capture)
        return False
    try:
        import select

        poller = select.poll()
    except (ImportError, AttributeError):  # pragma: no cover - Windows
        return True
    poller.register(fd, select.POLLOUT)
    return any(ev & (select.POLLERR | select.POLLHUP) for _, ev in poller.poll(0))


def _run(argv: Sequence[str] | None) -> int:
    """:func:`main` but for a reader of standard output gone away."""
    parser = build_parser()
    argv = list(sys.argv[1:] if argv is None else argv)
    if argv[:1] == ["--"]:  # the end of ofc-fast's options (none): the command follows
        del argv[0]
    if argv[:1] == ["bench"]:  # everything after "bench" (--help too) is the bench's
        from ._analysis import run_bench

        args = argparse.Namespace(func=run_bench, bench_args=argv[1:])
    else:
        if argv[:1] and argv[0].startswith("-") and not _top_option(argv[0]):
            if parser.begun(argv[0]):  # --vers: written whole, as a command's options
                parser.unrecognized(argv[:1])
            parser.error(  # (argparse took the option's value for the command)
                f"a command is required before {argv[0]}: choose from "
                f"{', '.join(parser.commands)} (a match: ofc-fast play {' '.join(argv)})"
            )
        args, extra = parser.parse_known_args(argv)
        if args.command is None:
            args, extra = parser.parse_known_args(["play", *argv])
        if extra:  # the command's usage and name, not ofc-fast's (argparse's own)
            parser.commands[args.command].unrecognized(extra)
    try:
        if getattr(args, "json", None) is not None:  # every --json, before any work
            check_output("--json", args.json, standard_output=True)
            history = getattr(args, "history", None)  # (play's, arena's: an output)
            if history and _same_file(args.json, history):
                raise OfcError(
                    f"--history: {quote_path(history)} is the --json file too: the JSON would "
                    "be written over the deals; name two files"
                )
            if history and args.json == "-" and is_standard_output(history):
                raise OfcError(  # (the deals in the JSON, or written over by it)
                    f"--history: {quote_path(history)} is standard output, where --json without "
                    "PATH writes the JSON alone; name a file (or --json PATH)"
                )
        _check_inputs_kept(args, parser.commands.get(getattr(args, "command", "")))
        return int(args.func(args))
    except BrokenPipeError:
        raise  # run_command's: the reader of standard output may have gone away
    except OfcError as exc:
        command = parser.commands.get(getattr(args, "command", None) or "")
        options = command.options if command is not None else {}
        message = name_option(str(exc), options)
        bots = options.get("bots") or options.get("bot")  # (play's, selfplay's, arena's)
        if isinstance(exc, BotError) and bots and not message.startswith("-"):
            message = f"{bots}: {message}"  # a bot that cannot play on (its model has
            # no net for a board it reached), in one process or in a worker
        print(f"ofc-fast: error: {message}", file=sys.stderr)
        return 2
    except OSError as exc:
        print(f"ofc-fast: error: {_os_problem(exc)}", file=sys.stderr)
        return 2


_FULL = frozenset({errno.ENOSPC, errno.EFBIG, getattr(errno, "EDQUOT", errno.ENOSPC)})
"""The errors of a write that finds no room: a full disk, a file at its size limit."""


def _os_problem(exc: OSError) -> str:
    """An OSError's message for ``ofc-fast: error:``; a write that finds no room and
    names no file is one to standard output (``> /dev/full``): every output an option
    names says its option (``--json: cannot write ...``).

    >>> _os_problem(OSError(errno.ENOSPC, "No space left on device"))
    'standard output: No space left on device'
    """
    return f"standard output: {exc.strerror}" if _fills_standard_output(exc) else str(exc)


def _fills_standard_output(exc: OSError) -> bool:
    """Whether ``exc`` is a write that found no room (:data:`_FULL`) and names no
    file: one to standard output."""
    return exc.filename is None and exc.errno in _FULL


READS = ("rules", "bots", "bot")
"""The input files a command reads (by its arguments' keywords: the ``--rules``
file, the model and policy files of ``--bots`` / ``--bot`` specs) unless it says
others (``set_defaults(reads=...)``: ``report``'s REPORT and HISTORY)."""

_HOLDS = {
    "report": "the report",
    "history": "the deals",
    "model": "the model",
    "bots": "the model",
    "bot": "the model",
}
"""What an input file holds, said when an output would be written over it (a
``--rules`` file, ``rules NAME``'s: the rules)."""


def _check_inputs_kept(args: argparse.Namespace, command: Parser | None) -> None:
    """Refuse an output (``--json PATH``, ``--history``, ``report --output``) that is
    a file the command reads (:data:`READS`), under its name, another (a hard link)
    or as standard input (``report r.json - -o h.jsonl < h.jsonl``): the input
    would be written over (:func:`ofc_fast.files.file_key`)."""
    reads = getattr(args, "reads", READS)
    for dest in ("json", "history", "output"):
        path = getattr(args, dest, None)
        key = None if dest in reads or path in (None, "-") else file_key(path)
        for source in reads if key is not None else ():
            for value in _files_read(source, getattr(args, source, None)):
                if file_key(sys.stdin if value == "-" else value) != key:
                    continue
                name = _argument_name(command, source)
                what = (
                    f"file on standard input ({name} -)" if value == "-" else f"{name} file"
                )
                raise OfcError(
                    f"{_argument_name(command, dest)}: {quote_path(path)} is the {what}: "
                    f"{_HOLDS.get(source, 'the rules')} would be written over; name "
                    "another file"
                )


def _files_read(source: str, value: object) -> list[str]:
    """The files the argument ``source`` reads for its ``value``: a ``--rules``
    file (not a preset), the model or policy file of each bot spec (``--bots
    value@m.ofcvm,random``, ``--bot me@policy:p.npz``), or the file named.

    >>> _files_read("bots", "random,value@m.ofcvm"), _files_read("rules", "OFC")
    (['m.ofcvm'], [])
    """
    if isinstance(value, list):  # (arena's --bot, once per seat)
        return [p for v in value for p in _files_read(source, v)]
    if not isinstance(value, str):
        return []
    if source in ("rules", "name"):
        return [value] if is_rules_file(value) else []
    if source == "model" and value == "auto":
        return []  # (advise --model auto: the shipped model, no file of that name)
    if source not in ("bots", "bot"):
        return [value]
    found = []
    for spec in value.split(",") if source == "bots" else [value]:
        for text in (spec, spec.partition("@")[2]):  # (arena's NAME@SPEC too)
            model = model_spec(text)
            head, _, tail = text.strip().partition(":")
            if model is not None or (head == "policy" and tail.strip()):
                found.append(model[1] if model is not None else tail.strip())
                break
    return found


def _argument_name(command: Parser | None, dest: str) -> str:
    """How ``command``'s usage names its argument ``dest``: the option
    (``--rules``), or the argument (``REPORT``)."""
    names = {} if command is None else command.options | command.arguments
    return names.get(dest, f"--{dest}")


def _same_file(a: str, b: str) -> bool:
    """Whether the outputs ``a`` and ``b`` are one file, one written over or into the
    other (``-``: standard output, none): one existing file (a hard link, a pipe such
    as ``/dev/stdout | cat`` too), or one name of no file yet; a character device
    (``/dev/null``, a terminal) keeps nothing to write over.

    >>> _same_file("out.json", "./out.json"), _same_file("-", "-")
    (True, False)
    >>> _same_file("/dev/null", "/dev/null")
    False
    """
    if "-" in (a, b):
        return False
    key = output_key(a)
    if key is not None:
        return key == output_key(b)
    return not os.path.exists(a) and os.path.realpath(a) == os.path.realpath(b)


def _top_option(arg: str) -> bool:
    """Whether ``arg`` is an option ``ofc-fast`` takes before a command (``-h``,
    ``--help``, ``--version``, written whole, or ``--``); any other needs a command
    first.

    >>> _top_option("--version"), _top_option("--vers"), _top_option("--hands")
    (True, False, False)
    """
    return arg in ("-h", "--help", "--version", "--")
