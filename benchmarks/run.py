#!/usr/bin/env python3
r"""Run both ofc-fast benchmarks with one command: the C benchmark, then the Python one.

1. Builds ``benchmarks/bench_c.c`` with the library's C sources into a temporary
   directory, using exactly::

       gcc -std=c99 -O3 -Wall -Wextra -Werror -pedantic \
           -Icsrc/include -Icsrc/src -Icsrc/generated \
           benchmarks/bench_c.c csrc/src/ofc_*.c csrc/generated/ofc_*.c

   (``--cc`` or ``$CC`` picks another compiler), and runs it (default 10,000,000
   hands and 10,000,000 board pairs, 7 repetitions).
2. Runs ``benchmarks/bench_python.py`` (Python level: batch calls, per-call calls, peer
   evaluators, agreement checks) with every argument this script does not consume.

Usage::

    python benchmarks/run.py --n 200000          # the usual run
    python benchmarks/run.py --quick             # a few seconds for both
    python benchmarks/run.py --n 200000 --reps 9 --json bench.json
    python benchmarks/run.py --no-c              # Python part only
    python benchmarks/run.py --c-hands 2000000 --c-pairs 1000000 --c-reps 5

Options taken here: ``--cc``, ``--c-hands``, ``--c-pairs``, ``--c-reps``, ``--no-c``,
``--no-python``; ``--seed``, ``--reps``, ``--quick`` and ``--strict`` apply to both
parts (the C part with ``--quick`` uses 1,000,000 hands and pairs; ``--strict`` makes
a missed target of either part exit status 2).  See
``python benchmarks/bench_python.py --help`` for the rest.

Exit status: the first nonzero status of the two parts (build failure: 3).
"""

from __future__ import annotations

import argparse
import os
import subprocess
import sys
import tempfile
from pathlib import Path
from typing import Any, TextIO

from ofc_fast.errors import OfcError
from ofc_fast.table import SEED_MAX  # the installed package (pip install -e .)
from ofc_fast.timing import ScriptHelp, ScriptParser, at_least, c_compiler

ROOT = Path(__file__).resolve().parent.parent
C_SOURCES = ["benchmarks/bench_c.c"] + sorted(
    str(p.relative_to(ROOT)) for p in (ROOT / "csrc").glob("*/ofc_*.c")
)
C_FLAGS = ["-std=c99", "-O3", "-Wall", "-Wextra", "-Werror", "-pedantic"]
C_FLAGS += ["-Icsrc/include", "-Icsrc/src", "-Icsrc/generated"]


def run_c(args: argparse.Namespace, out: TextIO) -> int:
    """Build and run bench_c, its lines (and the compiler's) on ``out``."""
    cc = args.cc  # (c_compiler's, at the parse)
    if cc is None:
        print("bench_c: no C compiler found (gcc, cc or $CC); C part skipped", file=out)
        return 3
    with tempfile.TemporaryDirectory(prefix="ofc-bench-") as tmp:
        exe = str(Path(tmp) / ("bench_c.exe" if os.name == "nt" else "bench_c"))
        cmd = [cc, *C_FLAGS, *C_SOURCES, "-o", exe]
        print("$ " + " ".join(cmd), file=out, flush=True)
        build = subprocess.run(cmd, cwd=ROOT, stdout=out)
        if build.returncode != 0:
            print(f"bench_c: build failed (status {build.returncode})", file=out)
            return 3
        hands = args.c_hands or (1_000_000 if args.quick else 10_000_000)
        pairs = args.c_pairs or (1_000_000 if args.quick else 10_000_000)
        reps = args.c_reps or args.reps or (5 if args.quick else 7)
        run = [
            exe,
            "--hands",
            str(hands),
            "--pairs",
            str(pairs),
            "--reps",
            str(reps),
            "--seed",
            str(args.seed),
        ]
        if args.strict:
            run.append("--strict")
        print("$ bench_c " + " ".join(run[1:]), file=out, flush=True)
        return subprocess.run(run, cwd=ROOT, stdout=out).returncode


def python_argv(args: argparse.Namespace, rest: list[str]) -> tuple[list[str], bool]:
    """The command line of benchmarks/bench_python.py, checked by its parser (a usage
    error, exit status 2, before the C part runs), and whether it writes its JSON alone
    on standard output (``--json`` without PATH: every other line goes to standard
    error)."""
    argv = [*rest, "--seed", str(args.seed)]
    if args.reps:
        argv += ["--reps", str(args.reps)]
    if args.quick:
        argv.append("--quick")
    if args.strict:
        argv.append("--strict")
    return argv, _bench_python()._parse(argv).json == "-"


def _bench_python() -> Any:
    sys.path.insert(0, str(Path(__file__).resolve().parent))
    import bench_python  # times the installed package (pip install ".[bench]")

    return bench_python


def run_python(argv: list[str], out: TextIO) -> int:
    print("$ python benchmarks/bench_python.py " + " ".join(argv), file=out, flush=True)
    return int(_bench_python().main(argv))


class _Help(ScriptHelp, argparse.RawDescriptionHelpFormatter):
    """The scripts' --help (each default said), the description as it is written."""


def main(argv: list[str] | None = None) -> int:
    ap = ScriptParser(
        description=__doc__.split("\n\n")[0],
        formatter_class=_Help,
        allow_abbrev=False,
        epilog="Other arguments go to benchmarks/bench_python.py.",
    )
    ap.add_argument("--cc", help="C compiler (default: $CC, gcc, cc)")
    ap.add_argument(
        "--c-hands", type=at_least(1), help="hands for bench_c (default: 10000000)"
    )
    ap.add_argument(
        "--c-pairs", type=at_least(1), help="board pairs for bench_c (default: 10000000)"
    )
    ap.add_argument(
        "--c-reps", type=at_least(1), help="repetitions for bench_c (default: --reps or 7)"
    )
    ap.add_argument("--no-c", action="store_true", help="skip the C benchmark")
    ap.add_argument("--no-python", action="store_true", help="skip the Python benchmark")
    ap.add_argument(
        "--seed",
        type=at_least(0, SEED_MAX),
        default=1,
        help="random seed for both",
    )
    ap.add_argument("--reps", type=at_least(1), help="repetitions for both (default: 7)")
    ap.add_argument("--quick", action="store_true", help="small, fast run of both")
    ap.add_argument(
        "--strict",
        action="store_true",
        help="a missed performance target of either part: exit status 2",
    )
    args, rest = ap.parse_known_args(argv)
    if args.no_c and args.no_python:  # (ran nothing, silently, exit status 0)
        ap.error("--no-c with --no-python: nothing left to run")
    if args.cc is not None or not args.no_c:
        try:
            args.cc = c_compiler(args.cc)
        except OfcError as exc:
            ap.error(str(exc))
    py_argv, json_alone = (None, False) if args.no_python else python_argv(args, rest)
    out = sys.stderr if json_alone else sys.stdout

    status = 0
    if not args.no_c:
        sys.stdout.flush()
        print("=" * 30 + " C benchmark (benchmarks/bench_c.c) " + "=" * 30, file=out)
        status = run_c(args, out)
        print(file=out, flush=True)
    if py_argv is not None:
        print(
            "=" * 26 + " Python benchmark (benchmarks/bench_python.py) " + "=" * 23,
            file=out,
            flush=True,
        )
        py_status = run_python(py_argv, out)
        status = status or py_status
    return status


if __name__ == "__main__":
    from ofc_fast.cli import run_command  # (an error, a reader gone: one line)

    sys.exit(run_command(main, "run.py"))
