"""The scripts in benchmarks/ (and tools/advise_ev_sum.py, tools/fl_study.py) refuse a
degenerate count (``--pairs 0``, ``--reps 0``,
``--deals 0``) as argparse does, exit status 2 and a message naming the option,
instead of a traceback from a statistic of no run (a median of nothing, a rate per
zero deals); a ``--json PATH`` that cannot be written, an unknown ``--rules`` preset,
settings that are not a JSON object or a duration not above 0 are refused before the
run."""

from __future__ import annotations

import argparse
import json
import re
import shlex
import subprocess
import sys
from pathlib import Path

import pytest
from md_blocks import quoted_commands
from scripts import (
    ROOT,
    checkout_file,
    checkout_script,
    load_script,
    package_env,
    usage_error,
)

ZERO_COUNTS = [
    ("bench_arena.py", "--hands", "0"),
    ("bench_env.py", "--repeats", "0"),
    ("bench_game.py", "--deals", "0"),
    ("bench_parallel.py", "--empty", "0"),
    ("bench_python.py", "--n", "0"),
    ("bench_report.py", "--source-hands", "0"),
    ("bench_score_pair.py", "--reps", "0"),
    ("bench_search.py", "--random-deals", "-1"),
    ("bench_search.py", "--reps", "0"),
    ("bench_serve.py", "--analyze-requests", "0"),
    ("bench_solver.py", "--hands", "0"),
    ("bench_value.py", "--pairs", "0"),
    ("opponent_rows.py", "--deals", "0"),
    ("probe_strength.py", "--fl-deals", "0"),
    ("run.py", "--c-hands", "0"),
    ("run.py", "--reps", "0"),
    ("value_bias.py", "--pairs", "0"),
    ("tools/advise_ev_sum.py", "--deals", "0"),
    ("tools/advise_ev_sum.py", "--samples", "0"),
    ("tools/fl_study.py", "--deals", "0"),
    ("tools/fl_study.py", "--workers", "0"),
    *(
        (script, "--seed", "-5")  # a NumPy ValueError or a TableError traceback
        for script in (
            "bench_game.py",
            "bench_python.py",
            "bench_score_pair.py",
            "bench_search.py",
            "bench_solver.py",
            "bench_value.py",
            "opponent_rows.py",
            "probe_strength.py",
            "run.py",
            "value_bias.py",
            "tools/fl_study.py",
        )
    ),
]
"""(script, option, value): a script of benchmarks/, or the path of one (tools/)."""


@pytest.mark.parametrize(("script", "option", "value"), ZERO_COUNTS)
def test_a_degenerate_count_is_an_argparse_error(
    script: str,
    option: str,
    value: str,
    monkeypatch: pytest.MonkeyPatch,
    capsys: pytest.CaptureFixture,
) -> None:
    """``bench_value.py --pairs 0`` ended in ``StatisticsError: fmean requires at
    least one data point``, ``bench_game.py --deals 0`` in a ZeroDivisionError."""
    module = checkout_script(script if "/" in script else f"benchmarks/{script}")
    monkeypatch.setattr(sys, "argv", [script, option, value])
    _, err = usage_error(capsys, module.main)
    assert f"error: argument {option}: must be at least " in err
    assert f"got {value}" in err and "Traceback" not in err


def test_a_count_that_is_not_a_number_names_the_option(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture
) -> None:
    module = checkout_script("benchmarks/bench_score_pair.py")
    monkeypatch.setattr(sys, "argv", ["bench_score_pair.py", "--reps", "many"])
    _, err = usage_error(capsys, module.main)
    assert "argument --reps: expected a whole number, got 'many'" in err


JSON_SCRIPTS = [
    "bench_game.py",
    "bench_parallel.py",
    "bench_python.py",
    "bench_search.py",
    "bench_serve.py",
    "bench_solver.py",
    "bench_value.py",
    "probe_strength.py",
]


@pytest.mark.parametrize("script", JSON_SCRIPTS)
def test_a_json_path_that_cannot_be_written_is_refused_before_the_run(
    script: str,
    tmp_path,
    monkeypatch: pytest.MonkeyPatch,
    capsys: pytest.CaptureFixture,
) -> None:
    """``--json FOLDER`` (or a file in a folder that is not there) ended the run,
    minutes later, in ``IsADirectoryError`` / ``FileNotFoundError`` when the
    figures were written: they were lost."""
    module = checkout_script(f"benchmarks/{script}")
    for path, why in (
        (tmp_path, "it is a folder"),
        (tmp_path / "no" / "x.json", "no folder"),
    ):
        monkeypatch.setattr(sys, "argv", [script, "--json", str(path)])
        out, err = usage_error(capsys, module.main)
        assert (
            out == ""
            and f"error: argument --json: cannot write {str(path)!r}: {why}" in err
        )


BAD_SETTINGS = [
    ("bench_value.py", "--rules", "nosuch", "unknown rule set 'nosuch'"),
    ("opponent_rows.py", "--rules", "nosuch", "unknown rule set 'nosuch'"),
    ("bench_search.py", "--random-settings", "{bad", "not JSON ("),
    ("bench_search.py", "--heuristic-settings", "[1]", "expected a JSON object"),
    ("probe_strength.py", "--config", "x=[1]", "x: expected a JSON object"),
    ("bench_value.py", "--players", "9", "PINEAPPLE seats 2 to 3 players, got 9"),
    ("bench_env.py", "--seconds", "0", "must be seconds above 0, got 0"),
    ("bench_search.py", "--seconds", "-1", "must be seconds above 0, got -1"),
    ("bench_search.py", "--budget", "1e300", "time_budget must be a positive number"),
    ("bench_serve.py", "--seconds", "nan", "must be seconds above 0, got nan"),
    ("bench_serve.py", "--score-seconds", "0", "must be seconds above 0, got 0"),
]


@pytest.mark.parametrize(("script", "option", "value", "why"), BAD_SETTINGS)
def test_a_bad_preset_or_settings_text_is_an_argparse_error(
    script: str,
    option: str,
    value: str,
    why: str,
    monkeypatch: pytest.MonkeyPatch,
    capsys: pytest.CaptureFixture,
) -> None:
    """``bench_value.py --rules nosuch`` ended in a RulesError traceback,
    ``bench_search.py --random-settings '{bad'`` in a JSONDecodeError one (after the
    speed rows), ``probe_strength.py --config 'x=[1]'`` in a TypeError one (after the
    Fantasyland deals), ``bench_value.py --players 9`` in a TableError one;
    ``bench_serve.py --score-seconds 0`` ran for 1e9 seconds (0 read with ``or``),
    ``--score-seconds -1`` ended in an IndexError on no latencies; ``bench_search.py
    --budget 1e300`` was refused as a bad ``--random-settings``, which was not given."""
    module = checkout_script(f"benchmarks/{script}")
    monkeypatch.setattr(sys, "argv", [script, option, value])
    out, err = usage_error(capsys, module.main)
    assert out == ""
    # argparse's own line, or the script's (a check after the parse, or NAME=JSON)
    own = f"error: {option}" in err and why in err
    assert f"error: argument {option}: {why}" in err or own


def test_bench_report_runs_on_a_history_longer_than_its_match(
    tmp_path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture
) -> None:
    """``bench_report.py --deals 100000`` (the README's command) repeats a 300-hand
    match's lines to 100,000 deals: ``ofc-fast report`` refused them against the
    300-hand report ("is not the history of ...: it holds 100000 deals, the report
    300 hands") and the script ended with exit status 1, measuring nothing."""
    module = checkout_script("benchmarks/bench_report.py")
    monkeypatch.setenv("PYTHONPATH", package_env()["PYTHONPATH"])  # its subprocesses
    argv = ["bench_report.py", "--deals", "5", "--source-hands", "2"]
    monkeypatch.setattr(sys, "argv", [*argv, "--dir", str(tmp_path)])
    module.main()
    out = capsys.readouterr().out
    assert out.startswith("5 deals, history ") and "peak RSS" in out
    report = json.loads((tmp_path / "r.json").read_text())
    lines = [json.loads(x) for x in (tmp_path / "h.jsonl").read_text().splitlines()]
    assert report["hands"] == len(lines) == 5
    for bot in report["bots"]:  # each bot's points: the sum over the repeated lines
        name = bot["name"]
        assert bot["points"] == sum(x["points"][x["seats"].index(name)] for x in lines)


FL_STUDY_BAD = [
    (["--rules", "nosuch"], "argument --rules: unknown rule set 'nosuch'"),
    (["--rules", "classic-1-6"], "--rules: CLASSIC_1_6 has no Fantasyland"),
    (["--cards", "99"], "argument --cards: must be at most 17, got 99"),
    (["--cards", "12"], "argument --cards: must be at least 13, got 12"),
    (["--rules", "ofc", "--stay-values"], "--stay-values: needs PINEAPPLE with --cards"),
]


@pytest.mark.parametrize(("argv", "why"), FL_STUDY_BAD)
def test_fl_study_refuses_rules_and_card_counts_it_cannot_study(
    argv: list[str], why: str, capsys: pytest.CaptureFixture
) -> None:
    """``tools/fl_study.py --cards 99`` ended in ``AssertionError: -3`` from a worker,
    ``--rules classic-1-6`` in an AttributeError (no Fantasyland), ``--rules nosuch``
    in a RulesError traceback (an exit status 1 line without the option), and
    ``--stay-values --rules ofc`` in a KeyError after the whole study."""
    module = checkout_script("tools/fl_study.py")
    out, err = usage_error(capsys, module.main, ["--deals", "1", "--workers", "1", *argv])
    assert out == "" and f"error: {why}" in err and "Traceback" not in err


def test_fl_study_names_a_preset_as_the_rules_do(capsys: pytest.CaptureFixture) -> None:
    """A game id or a lower-case name is the preset: the same line name, the same
    deals (seeded by the preset's index) as its upper-case name."""
    module = checkout_script("tools/fl_study.py")
    rows = []
    for name in ("ofc-pineapple", "PINEAPPLE"):
        assert module.main(["--deals", "3", "--workers", "1", "--cards", "14",
                            "--rules", name]) == 0  # fmt: skip
        rows.append(capsys.readouterr().out.splitlines()[2])
    assert rows[0].startswith("| PINEAPPLE | 14 | 3 |")
    assert rows[0].split("|")[:10] == rows[1].split("|")[:10]  # the timings differ


@pytest.mark.parametrize(
    ("option", "value", "why"),
    [
        ("--policy", "nosuch", "argument --policy: invalid choice: 'nosuch'"),
        ("--fl-value", "nan", "--fl-value: fl_value: nan is not a finite number"),
        ("--fl-value", "1e9", "--fl-value: fl_value: 1000000000.0 is not a finite"),
    ],
)
def test_advise_ev_sum_refuses_a_bad_policy_or_fantasyland_value(
    option: str,
    value: str,
    why: str,
    monkeypatch: pytest.MonkeyPatch,
    capsys: pytest.CaptureFixture,
) -> None:
    """``tools/advise_ev_sum.py --policy nosuch`` and ``--fl-value nan`` ended in a
    SearchError traceback (exit status 1) at the first advise call."""
    module = checkout_script("tools/advise_ev_sum.py")
    argv = ["advise_ev_sum.py", "--deals", "1", "--samples", "1", option, value]
    monkeypatch.setattr(sys, "argv", argv)
    out, err = usage_error(capsys, module.main)
    assert out == "" and f"error: {why}" in err and "Traceback" not in err


def test_run_py_refuses_a_compiler_that_is_not_there(
    capsys: pytest.CaptureFixture,
) -> None:
    """``benchmarks/run.py --cc /no/such/cc`` built and timed with gcc instead, exit
    status 0: figures of another compiler than the one asked for."""
    module = checkout_script("benchmarks/run.py")
    out, err = usage_error(capsys, module.main, ["--cc", "/no/such/cc", "--no-python"])
    assert out == "" and "error: --cc: no compiler '/no/such/cc'" in err


def test_run_py_refuses_a_bad_python_option_before_the_c_part(
    capsys: pytest.CaptureFixture,
) -> None:
    """An option for benchmarks/bench_python.py (``--n 0``, a typo) was refused only
    after the C part had built and run (minutes at its default sizes)."""
    module = checkout_script("benchmarks/run.py")
    for bad in (["--n", "0"], ["--nosuch"]):
        out, err = usage_error(
            capsys,
            module.main,
            ["--c-hands", "10", "--c-pairs", "10", "--c-reps", "1", *bad],
        )
        assert "C benchmark" not in out and bad[0] in err


@pytest.mark.parametrize(
    ("script", "argv", "why"),
    [
        ("run.py", ["--no-c", "--no-python"], "--no-c with --no-python"),
        ("bench_search.py", ["--skip-speed", "--skip-strength"],
         "--skip-speed with --skip-strength"),
        ("bench_search.py", ["--skip-speed", "--random-deals", "0", "--duplicate-deals",
                             "0"], "--skip-speed with no deals to play"),
    ],
)  # fmt: skip
def test_a_run_with_every_part_skipped_is_refused(
    script: str, argv: list[str], why: str, capsys: pytest.CaptureFixture
) -> None:
    """``run.py --no-c --no-python`` and ``bench_search.py --skip-speed
    --skip-strength`` (or no deals to play) printed nothing and exited 0, as if a
    benchmark had run and passed."""
    module = checkout_script(f"benchmarks/{script}")
    out, err = usage_error(capsys, module.main, argv)
    assert out == "" and f"error: {why}: nothing left to run" in err


def test_run_py_strict_honours_the_c_targets(
    monkeypatch: pytest.MonkeyPatch, capfd: pytest.CaptureFixture
) -> None:
    """``run.py --strict``: a C row that missed its target printed MISS, yet the exit
    status stayed 0 (only the Python part's misses counted).  One hand and one pair
    per row miss every target (a single clock reading costs more than 3 ns); the
    build is unoptimised to keep the test short."""
    module = checkout_script("benchmarks/run.py")
    if module.c_compiler() is None:
        pytest.skip("needs a C compiler: install gcc")
    flags = [f for f in module.C_FLAGS if f != "-O3"] + ["-O0"]
    monkeypatch.setattr(module, "C_FLAGS", flags)
    tiny = ["--no-python", "--c-hands", "1", "--c-pairs", "1", "--c-reps", "1"]
    assert module.main([*tiny, "--strict"]) == 2
    out = capfd.readouterr().out
    assert "bench_c --hands 1 --pairs 1 --reps 1 --seed 1 --strict" in out
    assert "MISS (" in out and "targets missed: 3 (--strict: exit status 2)" in out
    assert module.main(tiny) == 0
    assert "targets missed: 3 (information" in capfd.readouterr().out


@pytest.mark.parametrize(
    ("script", "missing", "argv", "extra"),
    [
        ("benchmarks/bench_env.py", "gymnasium", ["--repeats", "1", "--seconds", "0.01"], "rl"),
        ("benchmarks/bench_env.py", "pettingzoo", ["--repeats", "1", "--seconds", "0.01"], "rl"),
        ("benchmarks/bench_rl_train.py", "sb3_contrib", ["--repeats", "1"], "rl-train"),
        ("benchmarks/bench_rl_train.py", "torch", ["--repeats", "1"], "rl-train"),
        ("examples/train_ppo.py", "torch", ["--minutes", "0.01"], "rl-train"),
        ("examples/train_ppo.py", "sb3_contrib", ["--minutes", "0.01"], "rl-train"),
    ],
)  # fmt: skip
def test_rl_scripts_name_the_missing_extra(
    tmp_path: Path, script: str, missing: str, argv: list[str], extra: str
) -> None:
    """bench_env.py, bench_rl_train.py and examples/train_ppo.py ended in a
    ModuleNotFoundError traceback (bench_env.py after timing its VectorEnv rows)
    without the rl / rl-train extra; they stop at once with one line naming the extra,
    exit status 2.  The module is made missing by a None in sys.modules."""
    path = checkout_file(script)
    code = (
        f"import runpy, sys; sys.modules[{missing!r}] = None; "
        f"sys.argv = [{path.name!r}, *{argv!r}]; "
        f"sys.path.insert(0, {str(path.parent)!r}); "  # as `python SCRIPT` does
        f"runpy.run_path({str(path)!r}, run_name='__main__')"
    )
    done = subprocess.run(
        [sys.executable, "-c", code],
        cwd=tmp_path,
        env=package_env(),
        capture_output=True,
        text=True,
        timeout=300,
    )
    # The first module of the script's list that is missing here: the one made
    # missing, or one this environment lacks (the README suite runs without torch).
    first = next(m for m in _RL_MODULES[path.name] if m == missing or not _installed(m))
    assert (done.returncode, done.stdout) == (2, ""), done.stderr
    assert done.stderr == (
        f"{path.name}: needs the {extra} extra ({first} is not installed): "
        f"pip install 'ofc-fast[{extra}]'\n"
    )


# The modules each script checks for, in its order (require_extra's arguments).
_RL_TRAIN = ("torch", "gymnasium", "stable_baselines3", "sb3_contrib")
_RL_MODULES = {
    "bench_env.py": ("gymnasium", "pettingzoo"),
    "bench_rl_train.py": _RL_TRAIN,
    "train_ppo.py": _RL_TRAIN,
}


def _installed(module: str) -> bool:
    import importlib.util

    return importlib.util.find_spec(module) is not None


SEED_TOP = str(2**64 - 1)


@pytest.mark.parametrize(
    ("script", "argv"),
    [
        ("bench_search.py", ["--skip-speed", "--random-deals", "1", "--duplicate-deals",
                             "1", "--budget", "0.01", "--report-every", "0"]),
        # heuristic seats reach Fantasyland in the first two deals: a carried deal
        ("bench_value.py", ["--pairs", "2", "--match", "heuristic:heuristic",
                            "--carry", "1"]),
        ("bench_game.py", ["--deals", "20", "--heuristic-deals", "2", "--reps", "2",
                           "--only", "pineapple 3p,"]),
    ],
)  # fmt: skip
def test_the_top_seed_runs_to_the_end(
    script: str, argv: list[str], capsys: pytest.CaptureFixture
) -> None:
    """``--seed 18446744073709551615`` passed the seed check, then the scripts added to
    it (``seed + 1`` for a bot, ``seed + k`` for a carried Fantasyland deal) and ended
    in a TableError partway through the run; a sub-seed now wraps modulo 2**64."""
    module = checkout_script(f"benchmarks/{script}")
    assert module.main([*argv, "--seed", SEED_TOP]) in (0, None)
    assert "Traceback" not in capsys.readouterr().err


def test_seed_offset_is_seed_plus_k_modulo_2_64() -> None:
    """The sub-seeds of the scripts: ``seed + k`` (an ordinary seed's results are
    unchanged), wrapped modulo 2**64 at the top."""
    from ofc_fast.timing import seed_offset

    assert [seed_offset(2026, k) for k in (0, 1, 2)] == [2026, 2027, 2028]
    assert seed_offset(2**64 - 1, 1) == 0 and seed_offset(2**64 - 2, 1000) == 998


def test_benchmarks_readme_names_the_c_rows_bench_c_prints() -> None:
    """benchmarks/README.md's table of the C rows said the ``rank5 loop`` row calls
    ``ofc_rank5_unchecked`` (bench_c times ``ofc_rank5_inline`` there, and the exported
    function in a ``rank5 call`` row the table left out), and that the ``board pair``
    row is checked against the 25 ns target (only ``ofc_score_pairs`` is)."""
    source = checkout_file("benchmarks/bench_c.c").read_text(encoding="utf-8")
    text = checkout_file("benchmarks/README.md").read_text(encoding="utf-8")
    section = text[text.index("## The C rows") :]
    section = section[: section.index("\n## ")]
    table: dict[str, str] = {}
    for line in section.splitlines():
        cells = line.split(" | ")
        if line.startswith("| `") and len(cells) == 2:
            for name in re.findall(r"`([^`]+)`", cells[0]):
                table[name] = cells[1]
    printed = re.findall(r'print_row\("([^"]+)", "\w+", r, ([\d.]+)\)', source)
    assert len(printed) == 8
    targets = set()
    for label, target in printed:
        row = re.split(r":| \(", label)[0]
        assert row in table, f"{row!r} (bench_c) is not in the table"
        for function in re.findall(r"ofc_\w+", label):
            assert function == row or function in table[row], (row, function)
        if float(target):
            targets.add(row)
    numbers = text[text.index("### How the numbers are computed") :]
    claim = re.search(r"checked on the C\s+(.*?)\s+rows?\b", numbers, re.S)
    assert claim is not None
    assert set(re.findall(r"`([^`]+)`", claim.group(1))) == targets - {
        "rank5 loop",
        "rank3 loop",
    }


def test_bench_game_only_runs_a_row_or_says_none_matches(
    capsys: pytest.CaptureFixture,
) -> None:
    """``bench_game.py --only nomatch`` timed nothing and still printed "target: >=
    20,000 decisions/s ... (met)", exit status 0; a run of only the heuristic row, or
    of only the ``observation()`` calls row, said the random-bot target was met too."""
    module = checkout_script("benchmarks/bench_game.py")
    out, err = usage_error(capsys, module.main, ["--only", "nomatch", "--reps", "1"])
    assert out == "" and "error: --only: no row's label contains 'nomatch'" in err
    argv = ["--only", "heuristic bots", "--reps", "1", "--heuristic-deals", "1"]
    assert module.main(argv) == 0
    out = capsys.readouterr().out
    assert "pineapple 3p, heuristic bots" in out and "(not measured)" in out
    # observation() calls are no decisions (docs/design.md quotes this run): the
    # random-bot target was "met" by a run that timed no decision
    argv = ["--only", "pineapple 3p, observation", "--reps", "1", "--deals", "10"]
    assert module.main(argv) == 0
    out = capsys.readouterr().out
    assert "pineapple 3p, observation() calls" in out and "(not measured)" in out


def test_opponent_rows_refuses_a_bot_without_a_model_before_the_run(
    capsys: pytest.CaptureFixture,
) -> None:
    """``opponent_rows.py --rules pineapple-27 --bot value`` ended in a BotError
    traceback (no value model ships for those rules) at the first decision."""
    module = checkout_script("benchmarks/opponent_rows.py")
    out, err = usage_error(
        capsys, module.main, ["--rules", "pineapple-27", "--bot", "value", "--deals", "1"]
    )
    assert out == "" and "error: --bot value: value bot: no value model ships" in err


def test_opponent_rows_of_one_clean_board_prints_without_an_interval(
    capsys: pytest.CaptureFixture,
) -> None:
    """Deal 0 of seed 11 leaves one clean board (HeuristicBot fouls the other): the
    interval of one board ended in ``StatisticsError: stdev requires at least two data
    points``, after the whole run."""
    module = checkout_script("benchmarks/opponent_rows.py")
    assert module.main(["--deals", "1", "--seed", "11"]) == 0
    out = capsys.readouterr().out
    assert "fouls 50.0%" in out and "+- nan (0 against their own rows)" in out


def test_bench_serve_examples_give_each_measurement_its_own_duration() -> None:
    """bench_serve.py's docstring showed ``--only score --seconds 5``: ``--seconds`` is
    the memory measurement's load, so that run timed /v1/score for the default 10 s
    (``--score-seconds``)."""
    module = checkout_script("benchmarks/bench_serve.py")
    reads = {"score": {"--score-seconds"}, "memory": {"--seconds"}}
    examples = [
        line.split("#")[0].split()
        for line in module.__doc__.splitlines()
        if line.strip().startswith("python benchmarks/bench_serve.py")
    ]
    assert examples
    for words in examples:
        only = {words[i + 1] for i, w in enumerate(words) if w == "--only"}
        durations = {w for w in words if w in ("--seconds", "--score-seconds")}
        if only:
            assert durations <= set().union(*(reads.get(m, set()) for m in only)), words


def test_run_py_json_on_standard_output_is_the_json_alone(
    capfd: pytest.CaptureFixture,
) -> None:
    """``run.py --json`` (no PATH: bench_python.py then writes the JSON alone on
    standard output, its report on standard error) put run.py's own lines (the part
    headers, the ``$ python ...`` line) and the C part's report in front of the JSON on
    standard output: ``run.py --json > out.json`` was no JSON."""
    module = checkout_script("benchmarks/run.py")
    argv = ["--n", "50", "--reps", "1", "--check-n", "20", "--slow-n", "20", "--json"]
    assert module.main(["--no-c", *argv]) == 0
    out, err = capfd.readouterr()
    assert set(json.loads(out)) >= {"params", "rows", "agreement"}
    assert "Python benchmark" in err and "$ python benchmarks/bench_python.py" in err


def test_bench_python_refuses_more_hands_than_it_can_hold(
    capsys: pytest.CaptureFixture,
) -> None:
    """``bench_python.py --n 100000000000`` ended in a NumPy ``_ArrayMemoryError``
    traceback (466 GiB of hands); it takes at most ``ofc_fast.timing.MAX_N`` hands, as
    ``ofc-fast bench`` does."""
    module = checkout_script("benchmarks/bench_python.py")
    out, err = usage_error(capsys, module.main, ["--n", "100000000000", "--reps", "1"])
    assert out == ""
    assert "argument --n: must be at most 10000000, got 100000000000" in err


def test_bench_env_rows_without_a_target_print_none(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture
) -> None:
    """bench_rl_train.py's MaskablePPO rows have no target (docs/environments.md leaves
    the column empty) but printed a target of ``0`` steps/s."""
    module = checkout_script("benchmarks/bench_env.py")
    monkeypatch.setattr(sys, "argv", ["bench_env.py", "--repeats", "1", "--seconds", "1"])
    cases = [("with a target", lambda s: 10.0, 5), ("without one", lambda s: 10.0, 0)]
    module.run_cases(cases, "test")
    lines = capsys.readouterr().out.splitlines()
    assert lines[1].split()[-2:] == ["5", "10"]  # target, runs
    assert lines[2].split()[-2:] == ["-", "10"]


@pytest.mark.parametrize("script", [s for s in JSON_SCRIPTS if s != "bench_python.py"])
def test_json_dash_is_refused_where_a_script_writes_a_file_only(
    script: str,
    tmp_path,
    monkeypatch: pytest.MonkeyPatch,
    capsys: pytest.CaptureFixture,
) -> None:
    """``--json -`` (standard output, as ``ofc-fast bench --json -`` and
    ``bench_python.py --json -`` read it) made these scripts write their figures to a
    file named ``-`` in the working directory, after the run; it is refused before the
    run, as the ``ofc-fast`` commands refuse it where they write no standard output."""
    module = checkout_script(f"benchmarks/{script}")
    monkeypatch.chdir(tmp_path)
    monkeypatch.setattr(sys, "argv", [script, "--json", "-"])
    out, err = usage_error(capsys, module.main)
    assert out == "" and not (tmp_path / "-").exists()
    assert "error: argument --json: '-' (standard output) is not written here" in err


def test_fl_study_json_dash_is_refused(capsys: pytest.CaptureFixture) -> None:
    module = checkout_script("tools/fl_study.py")
    _, err = usage_error(
        capsys, module.main, ["--deals", "1", "--workers", "1", "--json", "-"]
    )
    assert "argument --json: '-' (standard output) is not" in err


def test_fl_study_counts_a_line_named_twice_once(capsys: pytest.CaptureFixture) -> None:
    """``fl_study.py --deals 3 --cards 14 14`` (or ``--rules pineapple
    ofc-pineapple``) solved the same 3 deals twice into one line: "6 deals", and a
    standard error too small by the square root of 2."""
    module = checkout_script("tools/fl_study.py")
    argv = ["--deals", "3", "--workers", "1", "--cards", "14", "14"]
    assert module.main([*argv, "--rules", "pineapple", "ofc-pineapple"]) == 0
    lines = [x for x in capsys.readouterr().out.splitlines() if x.startswith("| PINE")]
    assert len(lines) == 1 and lines[0].startswith("| PINEAPPLE | 14 | 3 |")


@pytest.mark.skipif(
    sys.platform == "win32", reason="run on a POSIX system (a shell script stands in)"
)
def test_bench_serve_says_why_the_server_did_not_start(
    tmp_path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A server that exits at once (``ofc-fast serve`` without the ``serve`` extra,
    say) kept bench_serve.py waiting 30 s, then "the server did not start", its error
    message thrown away; it now stops when the server exits, with its last line."""
    module = checkout_script("benchmarks/bench_serve.py")
    fake = tmp_path / "python"
    fake.write_text(
        "#!/bin/sh\necho \"ofc-fast serve: error: pip install 'ofc-fast[serve]'\" >&2\nexit 2\n"
    )
    fake.chmod(0o755)
    monkeypatch.setattr(module.sys, "executable", str(fake))
    with pytest.raises(SystemExit) as info:
        module.start_server(module.free_port(), None)
    assert str(info.value) == (
        "the server did not start (exit status 2): "
        "ofc-fast serve: error: pip install 'ofc-fast[serve]'"
    )


def test_ofc_fast_bench_refuses_a_negative_seed() -> None:
    """``ofc-fast bench --seed -5`` (ofc_fast.timing) ended in NumPy's "expected
    non-negative integer" traceback; it is an OfcError naming the option, which the
    command prints as one line (exit status 2)."""
    from ofc_fast import timing
    from ofc_fast.errors import OfcError

    with pytest.raises(OfcError, match=r"^--seed: must be 0\.\.2\*\*64-1, got -5"):
        timing.main(["--seed", "-5", "--n", "10", "--reps", "1"])


def test_bench_report_refuses_a_dir_that_is_a_file(
    tmp_path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture
) -> None:
    """``bench_report.py --dir FILE`` ended in a FileExistsError traceback."""
    module = checkout_script("benchmarks/bench_report.py")
    file = tmp_path / "f"
    file.write_text("")
    monkeypatch.setattr(sys, "argv", ["bench_report.py", "--dir", str(file)])
    _, err = usage_error(capsys, module.main)
    assert f"error: --dir: {str(file)!r} is a file, not a folder" in err


_SCRIPT = re.compile(r"\b((?:benchmarks|examples)/\w+\.py)\b")
_PLACEHOLDER = re.compile(r"^(?:[A-Z]+(?::[A-Z]+)?|<\w+>)$")  # N, DIR, A:B, <settings>


class _Parser(Exception):
    """Raised in place of a script's parse, carrying its parser."""


def _parser_of(script: str, monkeypatch: pytest.MonkeyPatch) -> argparse.ArgumentParser:
    """The argument parser ``script``'s ``main`` builds (taken at its parse, before
    anything runs; its check for an optional extra passed over)."""

    def taken(self: argparse.ArgumentParser, *args: object, **kwargs: object) -> None:
        raise _Parser(self)

    with monkeypatch.context() as m:
        m.syspath_prepend(str(ROOT / "benchmarks"))  # as `python SCRIPT` does
        module = load_script(ROOT / script, f"quoted_{Path(script).stem}")
        if hasattr(module, "require_extra"):
            m.setattr(module, "require_extra", lambda *names: None)
        m.setattr(argparse.ArgumentParser, "parse_known_args", taken)
        m.setattr(sys, "argv", [script])
        with pytest.raises(_Parser) as parsed:
            module.main()
    parser = parsed.value.args[0]
    assert isinstance(parser, argparse.ArgumentParser)
    return parser


def test_every_benchmark_command_the_docs_quote_parses(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture
) -> None:
    """Each run of a script of benchmarks/ or examples/ that README.md,
    benchmarks/README.md, CONTRIBUTING.md or a page of docs/ quotes names options the
    script's parser has, spelled in full (an abbreviation or an option renamed since
    would stop the reader's run), and, where it holds no placeholder (``N``, ``DIR``),
    parses as it is quoted; ``run.py`` passes what it does not keep to
    ``bench_python.py``."""
    pages = ["README.md", "benchmarks/README.md", "CONTRIBUTING.md"]
    paths = [checkout_file(page) for page in pages]
    paths += sorted(checkout_file("docs").glob("*.md"))
    parsers: dict[str, argparse.ArgumentParser] = {}
    checked = 0
    for path in paths:
        for script, words, _ in quoted_commands(path.read_text(encoding="utf-8"), _SCRIPT):
            where = f"{path.name}: {script} {shlex.join(words)}"
            assert (ROOT / script).is_file(), where
            if script not in parsers:
                parsers[script] = _parser_of(script, monkeypatch)
            chain = [parsers[script]]
            if script == "benchmarks/run.py":
                chain.append(_parser_of("benchmarks/bench_python.py", monkeypatch))
            options = {o for p in chain for o in p._option_string_actions}
            named = [w.split("=")[0] for w in words if w.startswith("--")]
            assert [o for o in named if o not in options] == [], where
            if "--help" in words or any(_PLACEHOLDER.match(w) for w in words):
                continue
            rest = words
            for parser in chain:
                _, rest = parser.parse_known_args(rest)
            assert rest == [], where
            assert "error" not in capsys.readouterr().err, where
            checked += 1
    assert len(parsers) >= 15 and checked >= 50


def test_bench_serve_skips_a_framework_that_is_not_installed(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """``bench_serve.py --compare-frameworks`` without httptools or starlette (neither is
    in the ``serve`` extra's minimum, starlette in no extra) started the app anyway,
    which died with a ModuleNotFoundError, then ended in a ConnectionRefusedError
    traceback; each such peer is reported as skipped, naming what to install."""
    module = checkout_script("benchmarks/bench_serve.py")
    monkeypatch.setitem(sys.modules, "httptools", None)  # not importable
    monkeypatch.setitem(sys.modules, "starlette", None)
    started: list[object] = []
    monkeypatch.setattr(module.subprocess, "Popen", lambda *a, **k: started.append(a))
    assert module.compare_frameworks(0.1) == {
        "plain": {"skipped": "httptools is not installed: pip install httptools"},
        "starlette": {"skipped": "starlette is not installed: pip install starlette"},
    }
    assert started == []


@pytest.mark.parametrize("script", ["bench_value.py", "probe_strength.py"])
def test_workers_beyond_the_cap_of_the_ofc_fast_commands_are_refused(
    script: str, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture
) -> None:
    """``--workers 100000`` (a typo) started a process pool of 100,000 forked
    processes, each loading its own bots; the scripts take at most what the
    ``ofc-fast`` commands take (4 per CPU) and refuse more before the run."""
    from ofc_fast.parallel import _counts

    module = checkout_script(f"benchmarks/{script}")
    monkeypatch.setattr(_counts, "cpu_count", lambda: 2)  # the CPUs this process may use

    def no_pool(workers: int) -> None:
        raise AssertionError(f"a pool of {workers} processes was started")

    monkeypatch.setattr(module, "ProcessPoolExecutor", no_pool)
    out, err = usage_error(capsys, module.main, ["--workers", "9"])
    assert out == "" and "error: --workers: must be at most 8, got 9 (4 per CPU" in err


def test_fl_study_refuses_workers_beyond_the_cap(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture
) -> None:
    """``tools/fl_study.py --workers 100000`` forked a pool of 100,000 processes."""
    from ofc_fast.parallel import _counts

    module = checkout_script("tools/fl_study.py")
    monkeypatch.setattr(_counts, "cpu_count", lambda: 2)
    monkeypatch.setattr(module, "study", lambda *a: pytest.fail("a study started"))
    out, err = usage_error(capsys, module.main, ["--deals", "1", "--workers", "9"])
    assert out == "" and "error: --workers: must be at most 8, got 9 (4 per CPU" in err


def test_bench_report_takes_a_dir_whose_name_starts_with_a_dash(
    tmp_path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture
) -> None:
    """``bench_report.py --dir -1`` (a folder of the working directory) passed
    ``-1/small.jsonl`` to ``ofc-fast arena --history``, which read it as an option: a
    CalledProcessError traceback."""
    module = checkout_script("benchmarks/bench_report.py")
    monkeypatch.chdir(tmp_path)
    argv = ["bench_report.py", "--dir", "-1", "--deals", "3", "--source-hands", "2"]
    monkeypatch.setattr(sys, "argv", argv)
    popen = module.subprocess.Popen  # (which subprocess.run calls too)
    monkeypatch.setattr(
        module.subprocess, "Popen", lambda *a, **k: popen(*a, **k, env=package_env())
    )
    module.main()
    assert (tmp_path / "-1" / "report.html").is_file()
    assert "3 deals, history" in capsys.readouterr().out


def test_a_ctrl_c_as_time_runner_starts_leaves_the_collector_on(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """Regression: ``time_runner`` turns Python's garbage collector off while it
    times; a Ctrl-C landing just after it was turned off, before the ``try`` that
    turns it back on, left it off for the rest of the process (a notebook's)."""
    import gc

    from interrupts import InterruptedGc

    from ofc_fast import timing

    monkeypatch.setattr(timing, "gc", InterruptedGc)
    try:
        with pytest.raises(KeyboardInterrupt):
            timing.time_runner(lambda: None, 3)
        assert gc.isenabled()
    finally:
        gc.enable()


@pytest.mark.parametrize("value", [None, True, 2.5, float("nan"), [1], 10**400], ids=repr)
def test_the_option_types_name_a_value_that_is_no_text_as_an_ofc_error(
    value: object,
) -> None:
    """Regression: the argparse types of ofc_fast.timing, called from Python, raised a
    bare TypeError (``duration(None)``, ``at_least(1)([1])``, ``json_object(3)``), an
    AttributeError (``output_file(True)``: 'bool' object has no attribute 'strip'),
    an OverflowError (``duration(10**400)``) or argparse's ArgumentTypeError for a bad
    text; each is now OptionValueError, an OfcError that argparse still reports as
    the option's error."""
    from ofc_fast.errors import OfcError
    from ofc_fast.timing import (
        OptionValueError,
        at_least,
        duration,
        json_object,
        output_file,
        output_path,
        preset_name,
    )

    types = [at_least(1), duration, output_file, output_path, preset_name, json_object]
    for convert in types:
        with pytest.raises(OptionValueError, match=r"^expected .* \(text\), got "):
            convert(value)  # type: ignore[arg-type]
    for convert, text in zip(types, ["0", "-1", "/", "-", "nope", "[" * 100_000]):
        with pytest.raises(OfcError):
            convert(text)
    parser = argparse.ArgumentParser(prog="p")
    parser.add_argument("--seconds", type=duration)
    with pytest.raises(SystemExit):
        parser.parse_args(["--seconds", "0"])  # (argparse's error: exit status 2)
