"""Every script of benchmarks/, tools/ and examples/ says each option's default in its
``--help`` (``python benchmarks/bench_env.py --help`` did not say 5 repeats of 2 s;
``python examples/train_ppo.py --help`` said neither what ``--minutes`` is nor its 10); the C
benchmarks (benchmarks/*.c) say their usage on ``--help`` and refuse an argument they
do not take as argparse does."""

from __future__ import annotations

import argparse
import os
import re
import runpy
import shutil
import subprocess
import sys
from pathlib import Path
from typing import NoReturn

import pytest
from c_programs import COMPILER, build, compile_library
from scripts import ROOT, checkout_file, checkout_script, usage_error

import ofc_fast.timing

_PARSES = re.compile(r"\.parse_(?:known_)?args\(|\brun_cases\(")


def _scripts() -> list[str]:
    """The scripts that read options: benchmarks/*.py, tools/*.py and examples/*.py
    that parse."""
    if not (ROOT / "benchmarks").is_dir():
        return []
    paths = [*ROOT.glob("benchmarks/*.py"), *ROOT.glob("tools/*.py")]
    paths += ROOT.glob("examples/*.py")
    return sorted(
        str(p.relative_to(ROOT))
        for p in paths
        if _PARSES.search(p.read_text(encoding="utf-8"))
    )


class _Parsed(Exception):
    """Raised in place of a script's parse, carrying its parser."""


def _parser(script: str, monkeypatch: pytest.MonkeyPatch) -> argparse.ArgumentParser:
    """The parser ``script`` builds when run (``python SCRIPT``), taken at its parse,
    before anything runs (its check for an optional extra passed over)."""

    def taken(self: argparse.ArgumentParser, *args: object, **kwargs: object) -> None:
        raise _Parsed(self)

    path = checkout_file(script)
    with monkeypatch.context() as m:
        m.syspath_prepend(str(path.parent))  # as `python SCRIPT` does
        m.setattr(ofc_fast.timing, "require_extra", lambda *names: None)
        m.setattr(argparse.ArgumentParser, "parse_known_args", taken)
        m.setattr(sys, "argv", [str(path)])
        with pytest.raises(_Parsed) as parsed:
            runpy.run_path(str(path), run_name="__main__")
    parser = parsed.value.args[0]
    assert isinstance(parser, argparse.ArgumentParser)
    return parser


def _default_text(default: object) -> str | None:
    """How a default reads as a command-line value: None where there is none to say
    (no default, a flag, an empty one)."""
    if default is None or default == argparse.SUPPRESS or isinstance(default, bool):
        return None
    if default in ("", [], (), {}):
        return None
    if isinstance(default, (list, tuple)):
        return " ".join(str(item) for item in default)
    if isinstance(default, Path):  # (a folder of the checkout, named from its root)
        return default.relative_to(ROOT).as_posix()
    return str(default)


@pytest.mark.parametrize("script", _scripts())
def test_every_option_with_a_default_says_it_in_the_help(
    script: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Each option's lines of ``--help`` end with its default, ``(default: 5)``,
    where it has one: ``bench_env.py --help`` printed ``--repeats REPEATS`` and
    ``--seconds SECONDS``, nothing more, while the README quotes 5 repeats of 2 s."""
    parser = _parser(script, monkeypatch)
    unsaid = []
    for action in parser._actions:
        shown = _default_text(action.default)
        if not action.option_strings or action.help == argparse.SUPPRESS or not shown:
            continue
        formatter = parser._get_formatter()
        formatter.add_argument(action)
        lines = " ".join(formatter.format_help().split())
        if f"default: {shown}" not in lines:
            unsaid.append(lines)
    assert unsaid == []


def test_every_parsing_script_is_walked() -> None:
    """The walk finds the scripts (a pattern that missed them would pass)."""
    checkout_file("benchmarks")
    scripts = _scripts()
    for script in ("benchmarks/bench_env.py", "benchmarks/bench_rl_train.py"):
        assert script in scripts
    assert "examples/train_ppo.py" in scripts
    assert "tools/gen_tables.py" in scripts and len(scripts) >= 20


_SAYS_DEFAULT = re.compile(r"\(?default:.*|%\(default\)s")


@pytest.mark.parametrize("script", _scripts())
def test_every_option_says_what_it_is(script: str, monkeypatch: pytest.MonkeyPatch) -> None:
    """Each option but ``-h`` has a help text of its own: ``bench_search.py --help``
    showed ``--random-deals RANDOM_DEALS (default: 2000)``, nothing saying what the
    2000 are; a help that only says the default, ``default: the model's``, says
    nothing more."""
    parser = _parser(script, monkeypatch)
    bare = [
        "/".join(action.option_strings)
        for action in parser._actions
        if action.option_strings
        and not isinstance(action, argparse._HelpAction)
        and action.help != argparse.SUPPRESS
        and not _SAYS_DEFAULT.sub("", action.help or "").strip(" ()")
    ]
    assert bare == []


C_BENCHMARKS = {
    "bench_c": ["--hands N", "--pairs N", "--reps N", "--seed N", "--strict"],
    "bench_game_c": ["deals", "reps"],
    "bench_settle": ["deals", "reps"],
}
"""Each C program of benchmarks/ and the arguments benchmarks/README.md (and
benchmarks/bench_game.py) give it."""


@pytest.fixture(scope="module")
def c_benchmarks(tmp_path_factory: pytest.TempPathFactory) -> dict[str, Path]:
    """The C benchmarks, built (unoptimised but for -O1) against the library."""
    if COMPILER is None:
        pytest.skip("needs a C compiler: install gcc")
    sources = {name: checkout_file(f"benchmarks/{name}.c") for name in C_BENCHMARKS}
    work = tmp_path_factory.mktemp("c-benchmarks")
    library = compile_library(work)
    return {name: build(src, work, library) for name, src in sources.items()}


def _run(exe: Path, *argv: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run([str(exe), *argv], capture_output=True, text=True, timeout=120)


@pytest.mark.parametrize("name", sorted(C_BENCHMARKS))
@pytest.mark.parametrize("flag", ["--help", "-h"])
def test_c_benchmarks_say_their_usage_on_help(
    c_benchmarks: dict[str, Path], name: str, flag: str
) -> None:
    """``bench_c --help`` printed its usage on standard error, exit status 1, as for a
    mistake; ``bench_settle --help`` said "usage: bench_settle [deals > 0]" the same
    way and ``bench_game_c --help`` ran the benchmark (``atoi("--help")`` deals):
    each prints its usage and its arguments on standard output, exit status 0, and
    runs nothing."""
    done = _run(c_benchmarks[name], flag)
    assert (done.returncode, done.stderr) == (0, "")
    usage = done.stdout.splitlines()[0]
    assert usage == f"usage: {name} [-h] " + " ".join(f"[{a}]" for a in C_BENCHMARKS[name])
    listed = re.findall(r"^  (\S+)", done.stdout, re.M)
    assert listed == [a.split()[0] for a in C_BENCHMARKS[name]]


_WHOLE = "expected a whole number from"


@pytest.mark.parametrize(
    ("name", "argv", "why"),
    [
        ("bench_c", ["--nope"], "unrecognized argument '--nope'"),
        ("bench_c", ["--hands"], "expected a value after '--hands'"),
        ("bench_c", ["--hands", "5x"], f"argument --hands: {_WHOLE} 1 to "),
        ("bench_c", ["--reps", "100"], f"argument --reps: {_WHOLE} 1 to 99, got '100'"),
        ("bench_c", ["--seed", str(2**64)], f"argument --seed: {_WHOLE} 0 to {2**64 - 1}, got"),
        ("bench_c", ["7"], "unrecognized argument '7'"),
        ("bench_game_c", ["100", "-1"], f"argument reps: {_WHOLE} 1 to "),
        ("bench_game_c", ["--deals", "5"], "unrecognized argument '--deals'"),
        ("bench_game_c", ["0"], f"argument deals: {_WHOLE} 1 to {2**32 - 1}, got '0'"),
        ("bench_game_c", [str(2**32)], f"argument deals: {_WHOLE} 1 to {2**32 - 1}, got"),
        ("bench_settle", ["10abc"], f"argument deals: {_WHOLE} 1 to "),
        ("bench_settle", ["-5"], f"argument deals: {_WHOLE} 1 to "),
        ("bench_settle", ["100", "7", "extra"], "unrecognized argument 'extra'"),
        ("bench_settle", ["10", "100"], f"argument reps: {_WHOLE} 1 to 99, got '100'"),
    ],
)  # fmt: skip
def test_c_benchmarks_refuse_an_argument_they_do_not_take(
    c_benchmarks: dict[str, Path], name: str, argv: list[str], why: str
) -> None:
    """``bench_game_c 100 -1`` crashed (a median of -1 repetitions), ``bench_settle
    10abc`` timed 10 deals and ``bench_settle 100 7 extra`` ignored ``extra``; a
    ``bench_c`` mistake said only the usage, exit status 1 (a failed checksum's): each
    prints the usage and one line naming the argument on standard error, exit status
    2 as argparse, and runs nothing."""
    done = _run(c_benchmarks[name], *argv)
    assert (done.returncode, done.stdout) == (2, "")
    usage, error = done.stderr.splitlines()
    assert usage.startswith(f"usage: {name} [-h] [")
    assert error.startswith(f"{name}: error: {why}")


def test_bench_c_takes_every_seed_run_py_passes(c_benchmarks: dict[str, Path]) -> None:
    """``benchmarks/run.py --seed 0`` (its seeds are 0 to 2**64 - 1) failed in the C
    part: bench_c refused a seed of 0 or above 2**58 with its usage, exit status 1."""
    for seed in (0, 2**64 - 1):
        argv = ["--hands", "1", "--pairs", "1", "--reps", "1", "--seed", str(seed)]
        done = _run(c_benchmarks["bench_c"], *argv)
        assert (done.returncode, done.stderr) == (0, "")
        assert f", seed {seed}, 1 reps" in done.stdout.splitlines()[0]


@pytest.mark.parametrize(
    ("argv", "status"), [(["--help"], 0), (["-h"], 0), (["--quick"], 2)]
)
def test_check_dist_says_its_usage_and_refuses_an_argument(
    tmp_path: Path, argv: list[str], status: int
) -> None:
    """``tools/check_dist.sh --help`` (or any argument) was ignored: the whole check
    ran, a venv and PyPI installs in a temporary folder first, minutes.  ``--help``
    prints its header (the checks, the environment variables it reads), exit status
    0; another argument is refused, exit status 2; neither makes anything (here a
    run would have made its folder in TMPDIR, then stopped: PYTHON=false)."""
    script = checkout_file("tools/check_dist.sh")
    bash = shutil.which("bash")
    if bash is None:
        pytest.skip("needs bash: install bash")
    env = {**os.environ, "PYTHON": "false", "TMPDIR": str(tmp_path)}
    done = subprocess.run(
        [bash, str(script), *argv], capture_output=True, text=True, env=env, timeout=60
    )
    assert done.returncode == status and os.listdir(tmp_path) == []
    if status == 0:
        assert done.stdout.startswith("usage: tools/check_dist.sh [-h]\n")
        for name in (
            "sdist",
            "abi3audit",
            "PYTHON=",
            "CHECK_DIST_PYTHONS=",
            "CHECK_DIST_KEEP=",
        ):
            assert f"\n  {name}" in done.stdout
        assert done.stderr == ""
    else:
        assert done.stdout == ""
        assert done.stderr.splitlines()[1].startswith(
            f"check_dist.sh: error: unrecognized argument '{argv[0]}'"
        )


def test_bench_game_skips_a_c_engine_that_does_not_build(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    """``CC=false python benchmarks/bench_game.py`` (a compiler that fails, a build
    error) ended in a CalledProcessError traceback quoting the whole command line:
    the C row is skipped with one line saying why, as without a compiler."""
    module = checkout_script("benchmarks/bench_game.py")
    if shutil.which("false") is None:
        pytest.skip("needs false on the PATH: install coreutils")
    monkeypatch.setenv("CC", "false")
    assert module.main(["--only", "C engine", "--reps", "1"]) == 0
    out = capsys.readouterr().out
    why = "false could not build benchmarks/bench_game_c.c (status 1)"
    assert f"\nC engine: {why}; row skipped\n" in out


def _numeric(action: argparse.Action) -> bool:
    """Whether ``action`` is an option that takes one number: ``type=float``,
    ``type=int`` or a count (:func:`ofc_fast.timing.at_least`)."""
    kind = action.type
    return (
        bool(action.option_strings)
        and action.nargs is None
        and (
            kind in (float, int) or getattr(kind, "__qualname__", "").startswith("at_least")
        )
    )


@pytest.mark.parametrize("script", _scripts())
def test_a_negative_number_in_exponent_form_is_a_value(
    script: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    """``advise_ev_sum.py --fl-value -1e9`` said "expected one argument" (``-1e9`` was
    read as an option, while ``-5`` and ``-2.5`` were values, and ``ofc-fast`` takes
    ``-1e9``): each option of a number reads it as its value, taken (a float) or
    refused by its type, never as a missing value."""
    parser = _parser(script, monkeypatch)

    def refused(message: str) -> NoReturn:
        raise ValueError(message)

    monkeypatch.setattr(parser, "error", refused)
    missing = []
    for action in filter(_numeric, parser._actions):
        option = action.option_strings[-1]
        try:
            value = getattr(parser.parse_known_args([option, "-1e9"])[0], action.dest)
        except ValueError as exc:
            if "expected one argument" in str(exc):
                missing.append(f"{option}: {exc}")
        else:
            assert action.type is not float or value == -1e9
    assert missing == []


@pytest.mark.parametrize(
    ("script", "argv"),
    [
        ("benchmarks/bench_game.py", ["--only", "C engine", "--reps", "1"]),
        ("benchmarks/run.py", ["--no-python", "--c-hands", "1", "--c-pairs", "1"]),
    ],
)
def test_a_cc_that_is_not_there_is_refused(
    script: str,
    argv: list[str],
    monkeypatch: pytest.MonkeyPatch,
    capsys: pytest.CaptureFixture[str],
) -> None:
    """``CC=/no/such/cc python benchmarks/bench_game.py`` (and ``run.py``) built and
    timed with gcc instead: figures of another compiler than the one asked for.  It
    is refused before the run, one line naming CC (exit status 2), as ``run.py --cc
    /no/such/cc`` is."""
    module = checkout_script(script)
    monkeypatch.setenv("CC", "/no/such/cc")
    out, err = usage_error(capsys, module.main, argv)
    assert out == "" and "error: CC: no compiler '/no/such/cc'" in err


def test_c_benchmarks_take_an_option_and_its_value_in_one_word(
    c_benchmarks: dict[str, Path],
) -> None:
    """``bench_c --hands=5`` said "unrecognized argument '--hands=5'" while the Python
    scripts (argparse) take ``--hands=5``: the C benchmarks take it too, its value
    checked as one written apart; a flag given a value is refused, as argparse
    does."""
    argv = ["--hands=1", "--pairs=1", "--reps=1", "--seed=0"]
    done = _run(c_benchmarks["bench_c"], *argv)
    assert (done.returncode, done.stderr) == (0, "")
    assert ", seed 0, 1 reps" in done.stdout.splitlines()[0]
    for word, why in [
        ("--hands=5x", f"argument --hands: {_WHOLE} 1 to "),
        ("--hands=", f"argument --hands: {_WHOLE} 1 to "),
        ("--strict=1", "argument --strict: ignored explicit argument '1'"),
        ("--handsx=5", "unrecognized argument '--handsx=5'"),
    ]:
        done = _run(c_benchmarks["bench_c"], word)
        assert (done.returncode, done.stdout) == (2, "")
        assert done.stderr.splitlines()[1].startswith(f"bench_c: error: {why}")


def test_a_cc_with_arguments_is_refused_saying_why() -> None:
    """``CC="ccache gcc"`` (make's convention) was refused as "not found on PATH",
    which is untrue of ``gcc``: the refusal says one program is taken, with no
    arguments."""
    from ofc_fast.errors import OfcError
    from ofc_fast.timing import c_compiler

    for cc in ("ccache gcc", "gcc -O2"):
        with pytest.raises(OfcError, match=r"one program is taken, no arguments") as info:
            c_compiler(cc)
        assert "not found on PATH" not in str(info.value)
