"""``ofc-fast bench``: a small, self-contained timing of ofc-fast's own calls.

Times the batch calls (``rank5_batch``, ``rank3_batch``, ``eval_boards``,
``score_pairs``) and the per-call rankers on the same seeded random hands, checks
that batch and per-call results agree, and compares two rows with the docs/design.md
targets (information unless ``--strict``).  No third-party evaluator: the
comparison with peers is ``benchmarks/bench_python.py`` in a checkout.

The argparse types :func:`at_least` (counts), :func:`duration` (seconds),
:func:`output_file` (``--json PATH``, ``-`` standard output) and :func:`output_path`
(a file only), :func:`preset_name` (``--rules``) and
:func:`json_object` (keyword settings) read the options of the scripts in
benchmarks/: a bad value is refused before the run, the option named (called from
Python, each raises :class:`OptionValueError`, an OfcError argparse reports as the
option's error, defined here beside them rather than in :mod:`ofc_fast.errors`);
:func:`require_extra` names the optional extra a script needs when it is missing, and
:func:`seed_offset` derives a script's sub-seeds from its ``--seed``.  ``ofc-fast
bench`` checks its values as every ``ofc-fast`` subcommand does: one line naming
the option, exit status 2.

>>> rows = run_rows(n=200, reps=1, seed=1, skip=set())
>>> [r.label for r in rows][:2]
['rank5_batch', 'rank5_batch out=']
"""

from __future__ import annotations

import argparse
import contextlib
import copy
import gc
import importlib
import json
import math
import os
import platform
import shutil
import statistics
import sys
import time
from collections.abc import Callable, Sequence
from dataclasses import asdict, dataclass
from typing import Any, TextIO

import numpy as np
import numpy.typing as npt

from .cli.options import Parser, display_width, padded
from .errors import OfcError, quote

__all__ = [
    "TARGETS",
    "OptionValueError",
    "ScriptHelp",
    "ScriptParser",
    "at_least",
    "c_compiler",
    "duration",
    "json_object",
    "main",
    "output_file",
    "output_path",
    "preset_name",
    "require_extra",
    "seed_offset",
]


class OptionValueError(OfcError, argparse.ArgumentTypeError):
    """A value the argparse types below refuse: argparse reports it as the option's
    error (exit status 2, the option named); a Python caller gets an OfcError, for
    text that is no value of the option and for anything that is not text.

    >>> duration(None)
    Traceback (most recent call last):
    ...
    ofc_fast.timing.OptionValueError: expected seconds (text), got None
    """


def _text(value: object, need: str) -> str:
    """``value``, the text of an option's value; else OptionValueError saying what
    the option needs, ``need`` (an argparse type is given text; a Python caller may pass
    anything)."""
    if not isinstance(value, str):
        raise OptionValueError(f"expected {need} (text), got {quote(value)}")
    return value


TARGETS = {"rank5_batch": 5.0, "score_pairs": 25.0}
"""docs/design.md performance targets, ns per hand / pair (the C-loop ones are
benchmarks/bench_c.c's)."""

ROWS = ("rank5_batch", "rank3_batch", "eval_boards", "score_pairs", "rank5", "rank3")
"""The names ``--skip`` takes (``rank5_batch`` also skips its ``out=`` row)."""

WIDTH = 80
"""Every line of the report fits this many columns."""

MAX_N = 10_000_000
"""The most hands ``--n`` takes: the run holds them as arrays and as Python lists
(some GB at this size); more ended in a NumPy MemoryError traceback."""

MAX_REPS = 1_000
"""The most ``--reps`` takes: a median of more repetitions is no steadier, and
``--reps 2**70`` (a mistyped count) timed on, for ever, with no word."""


def deal(
    n: int, k: int, rng: np.random.Generator, chunk: int = 1 << 16
) -> npt.NDArray[Any]:
    """``n`` random deals of ``k`` distinct cards each, as uint8 (n, k), C-contiguous:
    each row the first ``k`` cards of an independently shuffled deck (argsort of
    random keys).

    >>> hands = deal(4, 5, np.random.default_rng(0))
    >>> hands.shape, all(len(set(h)) == 5 for h in hands.tolist())
    ((4, 5), True)
    """
    out = np.empty((n, k), dtype=np.uint8)
    for start in range(0, n, chunk):
        m = min(chunk, n - start)
        out[start : start + m] = np.argsort(rng.random((m, 52)), axis=1)[:, :k]
    return out


def time_runner(run: Callable[[], Any], reps: int) -> list[float]:
    """Seconds of each of ``reps`` calls of ``run``, the garbage collector disabled.

    >>> len(time_runner(lambda: None, 3))
    3
    """
    times: list[float] = []
    gc.collect()
    was_enabled = gc.isenabled()
    try:  # (turned off inside it: a Ctrl-C just after left it off for good)
        gc.disable()
        for _ in range(reps):
            t0 = time.perf_counter()
            run()
            times.append(time.perf_counter() - t0)
    finally:
        if was_enabled:
            gc.enable()
    return times


def rate_text(per_s: float) -> str:
    """A rate with a k / M / G suffix.

    >>> rate_text(2.5e6), rate_text(12)
    ('2.5 M', '12 ')
    """
    for div, suffix in ((1e9, "G"), (1e6, "M"), (1e3, "k")):
        if per_s >= div:
            return f"{per_s / div:.1f} {suffix}"
    return f"{per_s:.0f} "


def at_least(minimum: int, maximum: int | None = None) -> Callable[[str], int]:
    """The argparse ``type=`` of a count option (``--reps``, ``--deals``): a whole
    number of at least ``minimum`` (and at most ``maximum``, when given).  Anything
    else is refused by argparse, exit status 2, with a message naming the option,
    before a statistic of no run (a median of nothing, a rate per zero deals) ends in
    a traceback.  The scripts in benchmarks/ read their counts with it; the
    ``ofc-fast`` subcommands (``bench`` too) check theirs as it does
    (``ofc_fast.cli.options.check_count``), a refused value one line.

    >>> at_least(1)("3")
    3
    >>> at_least(1)("0")
    Traceback (most recent call last):
    ...
    ofc_fast.timing.OptionValueError: must be at least 1, got 0
    """
    from .cli.options import count_problem

    def parse(text: str) -> int:
        text = _text(text, "a whole number")
        try:
            value = int(text)
        except ValueError:
            raise OptionValueError(f"expected a whole number, got {text!r}") from None
        problem = count_problem(value, minimum, maximum)
        if problem:
            raise OptionValueError(problem)
        return value

    return parse


def duration(text: str) -> float:
    """The argparse ``type=`` of a duration option (``--seconds``): a finite number
    of seconds above 0.  Anything else is refused by argparse, the option named: 0
    or less timed nothing (a rate of 0, or an index error on no latencies), and a
    duration of 0 could mean "no limit" where the script reads it with ``or``.

    >>> duration("0.5")
    0.5
    """
    text = _text(text, "seconds")
    try:
        value = float(text)
    except ValueError:
        raise OptionValueError(f"expected seconds, got {text!r}") from None
    if not (math.isfinite(value) and value > 0):
        raise OptionValueError(f"must be seconds above 0, got {text}")
    return value


def output_file(text: str) -> str:
    """The argparse ``type=`` of an output file option (``--json PATH``): a folder,
    or a file in a folder that is not there, is refused by argparse (exit status 2,
    the option named) before the run rather than when its result is written; ``-``
    (standard output) passes.

    >>> output_file("-")
    '-'
    """
    return _output(text, standard_output=True)


def output_path(text: str) -> str:
    """The argparse ``type=`` of an output file option that writes no standard output
    (the ``--json PATH`` of most scripts in benchmarks/): as :func:`output_file`, and
    ``-`` refused rather than written as a file named ``-``.

    >>> output_path("out.json")
    'out.json'
    """
    return _output(text, standard_output=False)


def _output(text: str, standard_output: bool) -> str:
    from .cli.options import output_problem

    problem = output_problem(_text(text, "a file name"), standard_output)
    if problem:
        raise OptionValueError(problem)
    return text


def preset_name(text: str) -> str:
    """The argparse ``type=`` of a ``--rules`` option that names a preset
    (:func:`ofc_fast.rules.get`): an unknown one is refused by argparse before the
    run, the option named.

    >>> preset_name("pineapple")
    'pineapple'
    """
    from . import rules
    from .errors import RulesError

    text = _text(text, "a rule set name")
    try:
        rules.get(text)
    except RulesError as exc:
        raise OptionValueError(str(exc)) from None
    return text


def json_object(text: str) -> dict[str, Any]:
    """The argparse ``type=`` of an option that takes keyword settings as a JSON
    object (``--random-settings '{"samples": 64}'``): anything else is refused by
    argparse before the run, the option named.

    >>> json_object('{"samples": 64}')
    {'samples': 64}
    """
    text = _text(text, "a JSON object")
    try:
        value = json.loads(text)
    except (ValueError, RecursionError) as exc:  # (RecursionError: nested too deep)
        raise OptionValueError(f"not JSON ({exc})") from None
    if not isinstance(value, dict):
        raise OptionValueError(f"expected a JSON object, got {text!r}")
    return value


def seed_offset(seed: int, k: int) -> int:
    """``seed + k`` modulo 2**64: the sub-seed ``k`` of a script's ``--seed`` (its bots',
    its repetitions'), a seed (0..2**64-1) even from ``--seed 18446744073709551615``,
    where ``seed + k`` was refused partway through the run; ``seed + k`` itself below.

    >>> seed_offset(2026, 1), seed_offset(2**64 - 1, 2)
    (2027, 1)
    """
    from .table import SEED_MAX

    return (seed + k) & SEED_MAX


def c_compiler(choice: str | None = None) -> str | None:
    """The C compiler a C benchmark builds with: ``choice`` (``run.py --cc``), else
    ``$CC``, else ``gcc`` or ``cc`` where on the PATH; None where there is none.  A
    ``choice`` or ``$CC`` that names no program there (or a command with arguments,
    ``ccache gcc``) is refused (OfcError naming ``--cc`` or ``CC``): the figures would
    come from another compiler than asked.

    >>> c_compiler("/no/such/cc")
    Traceback (most recent call last):
    ...
    ofc_fast.errors.OfcError: --cc: no compiler '/no/such/cc' (not found on PATH)
    """
    for source, cc in (("--cc", choice), ("CC", os.environ.get("CC"))):
        if cc:
            if shutil.which(cc) is None:
                why = (
                    "one program is taken, no arguments: a wrapper or flags "
                    "(ccache gcc, gcc -O2) go in a script named here"
                    if len(cc.split()) > 1
                    else "not found on PATH"
                )
                raise OfcError(f"{source}: no compiler {cc!r} ({why})")
            return cc
    return next((cc for cc in ("gcc", "cc") if shutil.which(cc)), None)


def require_extra(extra: str, *modules: str) -> None:
    """Import ``modules`` (what a script of benchmarks/ or examples/ needs from the
    optional ``extra``), or, for the first one missing, exit with status 2 and one line
    on standard error saying which extra to install, instead of a
    ``ModuleNotFoundError`` traceback partway through the run.

    >>> require_extra("rl", "numpy")
    """
    for module in modules:
        try:
            importlib.import_module(module)
        except ImportError:
            prog = os.path.basename(sys.argv[0]) or "python"
            print(
                f"{prog}: needs the {extra} extra ({module} is not installed): "
                f"pip install 'ofc-fast[{extra}]'",
                file=sys.stderr,
            )
            raise SystemExit(2) from None


class ScriptHelp(argparse.HelpFormatter):
    """The ``formatter_class`` of the scripts in benchmarks/ and tools/: the ``--help``
    of each option that has a default ends with it, ``(default: 5)``, a list's items
    as they are typed (``(default: 14 15)``), an option without a help text too.  Not
    for a flag, an option whose default is ``None`` or empty (its help says what
    leaving it out does), or a help text that places its ``%(default)s`` itself.

    >>> ap = argparse.ArgumentParser(prog="x", formatter_class=ScriptHelp)
    >>> _ = ap.add_argument("--reps", type=int, default=5, help="repetitions")
    >>> _ = ap.add_argument("--cards", type=int, nargs="+", default=[14, 15])
    >>> _ = ap.add_argument("--quick", action="store_true", help="a small run")
    >>> text = " ".join(ap.format_help().split())
    >>> "repetitions (default: 5)" in text, "[CARDS ...] (default: 14 15)" in text
    (True, True)
    >>> "a small run (default" in text
    False
    """

    def add_argument(self, action: argparse.Action) -> None:
        """``action``'s line, its default said (on a copy: the parser's is kept)."""
        default = action.default
        if not (
            not action.option_strings
            or action.help is argparse.SUPPRESS
            or default is None
            or default is argparse.SUPPRESS
            or isinstance(default, bool)
            or default in ("", [], (), {})
            or "%(default)" in (action.help or "")
        ):
            if isinstance(default, (list, tuple)):
                shown = " ".join(str(item) for item in default)
            else:
                shown = str(default)
            said = f"(default: {shown.replace('%', '%%')})"
            action = copy.copy(action)
            action.help = f"{action.help} {said}" if action.help else said
        super().add_argument(action)


class ScriptParser(Parser):
    """The argument parser of the scripts in benchmarks/ and tools/: it reads a word
    that starts with ``-`` and a digit as a value, as ``ofc-fast`` does
    (:class:`ofc_fast.cli.options.Parser`): ``--fl-value -1e9`` (argparse took
    ``-1e9`` for an option: "expected one argument").  Abbreviated options are taken
    as argparse takes them.

    >>> ap = ScriptParser(prog="x", formatter_class=ScriptHelp)
    >>> _ = ap.add_argument("--fl-value", type=float)
    >>> ap.parse_args(["--fl-value", "-1e9"]).fl_value
    -1000000000.0
    """

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        kwargs.setdefault("allow_abbrev", True)
        super().__init__(*args, **kwargs)


def machine_info() -> dict[str, Any]:
    """CPU count and model, platform and Python of this machine."""
    cpu = platform.processor() or "?"
    with contextlib.suppress(OSError), open("/proc/cpuinfo", encoding="utf-8") as fh:
        cpu = next(
            (line.split(":", 1)[1].strip() for line in fh if line.startswith("model name")),
            cpu,
        )
    return {
        "cpus": os.cpu_count(),
        "cpu": cpu,
        "platform": platform.platform(),
        "python": f"{platform.python_implementation()} {platform.python_version()}",
    }


def per_unit_ns(times: Sequence[float], n: int) -> tuple[float, float]:
    """(median, minimum) nanoseconds per unit of repetitions that took ``times``
    seconds for ``n`` units each.

    >>> per_unit_ns([2e-6, 1e-6, 3e-6], 10)
    (200.0, 100.0)
    """
    return statistics.median(times) / n * 1e9, min(times) / n * 1e9


@dataclass(frozen=True)
class Row:
    """One timed call: ``times`` in seconds for ``n`` units each repetition."""

    label: str
    unit: str
    n: int
    times: tuple[float, ...]

    @property
    def median_ns(self) -> float:
        """Median time per unit, in nanoseconds."""
        return per_unit_ns(self.times, self.n)[0]

    @property
    def min_ns(self) -> float:
        """Fastest time per unit, in nanoseconds."""
        return per_unit_ns(self.times, self.n)[1]

    def verdict(self, strict: bool) -> str:
        """The verdict against its target: "pass", "MISS" (--strict), "slower" or "".

        "" when it has no target.  Judged at the precision the table prints (one
        decimal), so a median printed as "5.0" meets a target of 5 ns.

        >>> Row("rank5_batch", "hand", 1000, (5.04e-6,)).verdict(False)
        'pass'
        """
        target = TARGETS.get(self.label)
        if target is None:
            return ""
        if round(self.median_ns, 1) <= target:
            return "pass"
        return "MISS" if strict else "slower"


def _calls(
    n: int, seed: int
) -> tuple[dict[str, tuple[str, Callable[[], Any]]], Callable[[], list[str]]]:
    """The timed calls by row label, and the agreement check over the same data."""
    import ofc_fast as ofc

    rng = np.random.default_rng(seed)
    hands5, hands3 = deal(n, 5, rng), deal(n, 3, rng)
    pairs = deal(n, 26, rng)
    a, b = np.ascontiguousarray(pairs[:, :13]), np.ascontiguousarray(pairs[:, 13:])
    lists5, lists3 = hands5.tolist(), hands3.tolist()
    out = np.empty(n, dtype=np.int32)
    rules = ofc.rules.OFC
    rank5, rank3 = ofc.rank5, ofc.rank3
    calls: dict[str, tuple[str, Callable[[], Any]]] = {
        "rank5_batch": ("hand", lambda: ofc.rank5_batch(hands5)),
        "rank5_batch out=": ("hand", lambda: ofc.rank5_batch(hands5, out=out)),
        "rank3_batch": ("hand", lambda: ofc.rank3_batch(hands3)),
        "eval_boards": ("board", lambda: ofc.eval_boards(a, rules)),
        "score_pairs": ("pair", lambda: ofc.score_pairs(a, b, rules, out=out)),
        "rank5": ("hand", lambda: [rank5(h) for h in lists5]),
        "rank3": ("hand", lambda: [rank3(h) for h in lists3]),
    }

    def agreement() -> list[str]:
        """Names of the checks that failed: batch == per call on every hand, and
        score_pairs == score_pair on the first pairs."""
        failed = []
        if ofc.rank5_batch(hands5).tolist() != [rank5(h) for h in lists5]:
            failed.append("rank5_batch vs rank5")
        if ofc.rank3_batch(hands3).tolist() != [rank3(h) for h in lists3]:
            failed.append("rank3_batch vs rank3")
        k = min(n, 200)
        nets = ofc.score_pairs(a[:k], b[:k], rules).tolist()
        singles = [
            ofc.score_pair(ofc.Board.from_cards(x), ofc.Board.from_cards(y), rules).net
            for x, y in zip(a[:k].tolist(), b[:k].tolist())
        ]
        if nets != singles:
            failed.append("score_pairs vs score_pair")
        return failed

    return calls, agreement


def run_rows(n: int, reps: int, seed: int, skip: set[str]) -> list[Row]:
    """Time every row not skipped (a row name of :data:`ROWS` skips the rows that
    start with it)."""
    return _time(_calls(n, seed)[0], n, reps, skip)


def _time(
    calls: dict[str, tuple[str, Callable[[], Any]]], n: int, reps: int, skip: set[str]
) -> list[Row]:
    return [
        Row(label, unit, n, tuple(time_runner(call, reps)))
        for label, (unit, call) in calls.items()
        if label.split()[0] not in skip
    ]


def format_table(rows: Sequence[Row], strict: bool) -> list[str]:
    """The report's table, at most :data:`WIDTH` columns for the usual counts (each
    column as wide as its widest cell: a larger ``n`` widens its column, not a row)."""
    cells = padded(
        [["call", "n", "unit", "median ns", "min ns", "per s", "target", "result"]]
        + [_row_cells(r, strict) for r in rows],
        right=[False, True, False, True, True, True],
        minimum=[16, 8, 5, 10, 8, 8, 10, 6],
    )
    lines = [" ".join(c[:6]) + "  " + " ".join(c[6:]) for c in cells]
    return [lines[0], "-" * display_width(lines[0])] + [x.rstrip() for x in lines[1:]]


def _row_cells(r: Row, strict: bool) -> list[str]:
    """One timed call's cells in :func:`format_table`."""
    target = TARGETS.get(r.label)
    return [
        r.label,
        f"{r.n:,}",
        r.unit,
        f"{r.median_ns:.1f}",
        f"{r.min_ns:.1f}",
        rate_text(1e9 / r.median_ns),
        f"<= {target:g} ns" if target is not None else "",
        r.verdict(strict),
    ]


def _parse(argv: Sequence[str] | None) -> argparse.Namespace:
    ap = Parser(
        prog="ofc-fast bench",
        description="Time ofc-fast's own calls (batch and per call) on seeded random "
        "hands and check that they agree.  Peer evaluators: "
        "benchmarks/bench_python.py in a checkout.",
    )
    ap.add_argument(
        "--n",
        type=int,
        default=None,
        help="hands (and board pairs) to time (default 200000; --quick 20000; at "
        f"most {MAX_N:,}: the hands are held in memory, as Python lists too)",
    )
    ap.add_argument(
        "--reps",
        type=int,
        default=None,
        help="repetitions per row, median and min reported (default 7; --quick 3; "
        f"at most {MAX_REPS:,})",
    )
    ap.add_argument("--seed", type=int, default=1, help="random seed (default 1)")
    ap.add_argument(
        "--skip", default=None, help=f"comma-separated rows to skip: {', '.join(ROWS)}"
    )
    ap.add_argument(
        "--quick",
        action="store_true",
        help="a small run (about a second): the defaults of --n and --reps, not "
        "with both of them",
    )
    ap.add_argument(
        "--strict",
        action="store_true",
        help="report a missed target as MISS and exit with status 2 "
        "(without it a slower row is information)",
    )
    ap.add_argument(
        "--json",
        nargs="?",
        const="-",
        default=None,
        metavar="PATH",
        help="the results as JSON: written to PATH, or alone on standard "
        "output without PATH (the report then goes to standard error)",
    )
    args = ap.parse_args(argv)
    # a value refused: one line naming the option (OfcError), as every subcommand's
    from .cli.options import check_count, check_output, split_list
    from .errors import OfcError
    from .table import check_seed

    # (given: split_list, which refuses an empty item, --skip '' as every comma list)
    skips = [] if args.skip is None else split_list("--skip", args.skip, "row", OfcError)
    args.skip = set(skips)
    unknown = sorted(args.skip - set(ROWS))
    if unknown:
        raise OfcError(
            f"--skip: unknown name(s) {', '.join(unknown)}; choose from {', '.join(ROWS)}"
        )
    if args.skip == set(ROWS):  # (the table was empty, the agreement still "all OK")
        raise OfcError("--skip: every row is skipped, nothing would be timed: keep one")
    if args.quick and args.n is not None and args.reps is not None:  # (its JSON: quick)
        raise OfcError(
            "--quick: sets only the defaults of --n and --reps, and both are given: "
            "drop --quick or one of them"
        )
    if args.n is None:
        args.n = 20_000 if args.quick else 200_000
    if args.reps is None:
        args.reps = 3 if args.quick else 7
    check_count("--n", args.n, 1, MAX_N, OfcError, "the hands are held in memory")
    check_count("--reps", args.reps, 1, MAX_REPS, OfcError, "more is no steadier")
    check_seed(args.seed, "--seed")
    check_output("--json", args.json, standard_output=True)
    return args


def main(argv: Sequence[str] | None = None) -> int:
    """Run ``ofc-fast bench``: 0 when batch and per-call results agree, 1 when they
    do not, 2 with ``--strict`` when a target is missed.  A value refused (``--n 0``,
    ``--json FOLDER``) is an :class:`~ofc_fast.errors.OfcError` naming the option,
    which ``ofc-fast`` prints as one line, exit status 2, before any timing.

    >>> main(["--n", "200", "--reps", "1"])  # a tiny run: the report, then the status
    ofc-fast ... bench: ...
    0
    """
    args = _parse(argv)
    if args.json != "-":
        return _run(args, sys.stdout)
    json_out = sys.stdout
    with contextlib.redirect_stdout(sys.stderr):
        return _run(args, json_out)


def print_or_write_json(doc: dict[str, Any], path: str, json_out: TextIO) -> None:
    """``--json [PATH]``: the document alone on ``json_out`` for "-", else written to
    PATH (and a line saying so on standard output)."""
    if path == "-":
        print(json.dumps(doc, indent=2), file=json_out)
        return
    from .cli.options import write_whole  # (an error names --json, as every subcommand's)

    write_whole("--json", path, json.dumps(doc, indent=2))
    print(f"wrote {path}")


def _fit(text: str) -> str:
    return text if len(text) <= WIDTH else text[: WIDTH - 3] + "..."


def _run(args: argparse.Namespace, json_out: TextIO) -> int:
    import ofc_fast as ofc

    info = machine_info()
    print(
        _fit(
            f"ofc-fast {ofc.__version__} bench: {info['python']}, {info['cpus']} "
            f"cpu(s), n={args.n:,}, reps={args.reps}, seed={args.seed}"
        )
    )
    print(_fit(f"cpu: {info['cpu']}"))
    print()
    calls, agreement = _calls(args.n, args.seed)
    rows = _time(calls, args.n, args.reps, args.skip)
    for line in format_table(rows, args.strict):
        print(line)
    print()
    missed = [r for r in rows if r.verdict(True) == "MISS"]
    for r in missed:
        text = (
            f"{r.label}: median {r.median_ns:.1f} ns/{r.unit}, target "
            f"{TARGETS[r.label]:g} ns"
        )
        print(
            _fit(f"  MISS {text}" if args.strict else f"  slower than the target: {text}")
        )
    if missed and not args.strict:
        print("  (information: the target is for a machine at rest; --strict checks it)")
    failed = agreement()
    print(_fit(f"agreement: {'all OK' if not failed else 'FAILED: ' + ', '.join(failed)}"))
    if args.json:
        doc = {
            "machine": info,
            "version": ofc.__version__,
            "params": {
                "n": args.n,
                "reps": args.reps,
                "seed": args.seed,
                "skip": sorted(args.skip),
                "quick": args.quick,
            },
            "targets_ns": TARGETS,
            "rows": [
                {
                    **asdict(r),
                    "median_ns": r.median_ns,
                    "min_ns": r.min_ns,
                    "verdict": r.verdict(args.strict),
                }
                for r in rows
            ],
            "agreement": {"ok": not failed, "failed": failed},
        }
        print_or_write_json(doc, args.json, json_out)
    if failed:
        return 1
    return 2 if missed and args.strict else 0
