"""The ``ofc-fast`` command line: every subcommand, JSON outputs, help, errors, and the
plain-text fallback when rich is missing."""

from __future__ import annotations

import builtins
import json
import os
import subprocess
import sys
import threading
import time
from pathlib import Path
from typing import Any

import pytest
from fifo_reader import in_thread

from ofc_fast import cli
from ofc_fast.cli import options
from ofc_fast.errors import RulesError
from ofc_fast.game import Game
from ofc_fast.rules import PINEAPPLE, RuleSet

BOARD_A = "Qh Qd 2c / 9s 9h 9d 5c 5d / As Ks Qs Js Ts"
BOARD_B = "2h 3d 4c / 6s 6h 7d 7c 8d / Ah Ad Kh Kd 8c"


@pytest.fixture
def no_rich(monkeypatch: pytest.MonkeyPatch) -> None:
    real_import = builtins.__import__

    def fake_import(name: str, *args, **kwargs):
        if name == "rich" or name.startswith("rich."):
            raise ImportError("no rich here")
        return real_import(name, *args, **kwargs)

    monkeypatch.setattr(builtins, "__import__", fake_import)


def run(capsys: pytest.CaptureFixture, *argv: str) -> tuple[int, str, str]:
    code = cli.main(list(argv))
    out, err = capsys.readouterr()
    return code, out, err


def test_eval_hand(capsys: pytest.CaptureFixture) -> None:
    code, out, _ = run(capsys, "eval", "As Ks Qs Js Ts", "--json")
    info = json.loads(out)
    assert code == 0 and info["category"] == "ROYAL_FLUSH" and info["kev_rank"] == 1
    code, out, _ = run(capsys, "eval", "Qh Qd 5c")
    assert code == 0 and "Pair of Queens" in out


def test_eval_board(capsys: pytest.CaptureFixture) -> None:
    code, out, _ = run(capsys, "eval", BOARD_A, "--rules", "pineapple", "--json")
    info = json.loads(out)
    assert info["royalties"] == [7, 12, 25] and not info["foul"]
    assert info["fantasyland"] == 14
    code, out, _ = run(capsys, "eval", BOARD_A)
    assert "Royal flush" in out and "Fantasyland next deal: 13" in out


def test_score(capsys: pytest.CaptureFixture) -> None:
    code, out, _ = run(capsys, "score", BOARD_A, BOARD_B, "--json")
    info = json.loads(out)
    assert code == 0 and info["net"] == [50, -50] and info["fantasyland"] == [13, 0]
    code, out, _ = run(capsys, "score", BOARD_A, BOARD_B, "--stacks", "30", "--json")
    assert json.loads(out)["net"] == [30, -30]
    code, out, _ = run(capsys, "score", BOARD_A, BOARD_B)
    assert "+50" in out and "Net" in out


def test_rules(capsys: pytest.CaptureFixture) -> None:
    code, out, _ = run(capsys, "rules")
    assert code == 0 and "PINEAPPLE" in out and "HAWAIIAN_GARDENS" in out
    code, out, _ = run(capsys, "rules", "ofc")
    assert json.loads(out)["name"] == "OFC"


def test_rules_reads_a_rules_file_as_the_other_commands_do(
    capsys: pytest.CaptureFixture, tmp_path: Path
) -> None:
    """``ofc-fast rules thursday.json`` said "NAME: unknown rule set
    'thursday.json'", for a file ``--rules thursday.json`` plays: there was no way
    to see how a rules file is read.  It prints the file's rule set whole (keys left
    out at their defaults); a file that is no rule set is an error naming NAME."""
    path = tmp_path / "thursday.json"
    path.write_text('{"name": "thursday", "game": "pineapple", "overall_bonus": 1}')
    code, out, _ = run(capsys, "rules", str(path))
    doc = json.loads(out)
    assert code == 0 and doc["name"] == "thursday" and doc["overall_bonus"] == 1
    assert doc["game"] == "pineapple" and doc["max_players"] == 4  # a default
    assert doc["sweep_bonus"] == 3 and doc["fantasyland"] is None  # defaults
    assert set(doc) == set(RuleSet().to_dict())  # every key of a rule set
    code, out, _ = run(capsys, "rules", str(path), "--json")
    assert code == 0 and json.loads(out) == doc
    path.write_text('{"name": "thursday", "overall_bonus": 1.5}')
    code, out, err = run(capsys, "rules", str(path))
    assert code == 2 and out == ""
    assert err == (
        f"ofc-fast: error: NAME {path}: overall_bonus: expected an int, got 1.5\n"
    )


def test_rules_refuses_an_empty_name(capsys: pytest.CaptureFixture) -> None:
    """``ofc-fast rules "$NAME"`` with NAME unset listed the presets (``--json``: a
    list, where a NAME prints one rule set's object) instead of refusing the name."""
    for argv in (["rules", ""], ["rules", "", "--json"]):
        code, out, err = run(capsys, *argv)
        assert code == 2 and out == "", argv
        assert err.startswith("ofc-fast: error: NAME: ") and err.count("\n") == 1


def test_play_match(capsys: pytest.CaptureFixture, tmp_path: Path) -> None:
    jpath, hpath = tmp_path / "out.json", tmp_path / "deals.json"
    code, out, _ = run(
        capsys,
        "play",
        "--rules",
        "ofc",
        "--players",
        "3",
        "--hands",
        "40",
        "--seed",
        "1",
        "--bots",
        "random",
        "--json",
        str(jpath),
        "--history",
        str(hpath),
    )
    assert code == 0
    assert "OFC: 40 deals, 3 players, seed 1" in out and "pts/deal" in out
    result = json.loads(jpath.read_text())
    assert result["hands"] == 40 and sum(result["totals"]) == 0
    assert len(result["deals"]) == 40 and len(result["seats"]) == 3
    assert {"mean", "ci95", "foul_rate", "fantasyland_rate", "mean_royalties"} <= set(
        result["seats"][0]
    )
    hist = json.loads(hpath.read_text())
    assert len(hist["deals"]) == 40
    for h, d in zip(hist["deals"], result["deals"]):
        assert Game.replay(h).result().net == d["net"]
    # the same seed plays the same match
    code, out2, _ = run(
        capsys,
        "play",
        "--rules",
        "ofc",
        "--players",
        "3",
        "--hands",
        "40",
        "--seed",
        "1",
        "--bots",
        "random",
        "--json",
        str(jpath),
    )
    assert json.loads(jpath.read_text())["totals"] == result["totals"]


def test_printed_seed_replays_the_bots(
    capsys: pytest.CaptureFixture, tmp_path: Path
) -> None:
    """Without --seed the match draws one and prints it; the bots' seeds derive from
    it, so --seed <that seed> plays the same match, decisions included."""
    jpath = tmp_path / "out.json"
    argv = [
        "play",
        "--rules",
        "pineapple",
        "--players",
        "2",
        "--hands",
        "6",
        "--bots",
        "heuristic,random",
        "--json",
        str(jpath),
    ]
    code, _, _ = run(capsys, *argv)
    assert code == 0
    first = json.loads(jpath.read_text())
    code, _, _ = run(capsys, *argv, "--seed", str(first["seed"]))
    again = json.loads(jpath.read_text())
    assert again["totals"] == first["totals"] and again["deals"] == first["deals"]


@pytest.mark.parametrize("name", ["deals.JSONL", "deals.Jsonl"])
def test_a_history_ending_in_jsonl_in_capitals_is_json_lines(
    capsys: pytest.CaptureFixture, tmp_path: Path, name: str
) -> None:
    """``play --history deals.JSONL`` wrote one whole JSON history, which ``replay``
    then refused, telling to name a PATH ending in .jsonl: the suffix is read in any
    case, as ``--rules``'s ``.json`` is."""
    path = tmp_path / name
    argv = ["play", "--hands", "3", "--seed", "3", "--bots", "random", "--quiet"]
    assert run(capsys, *argv, "--history", str(path))[0] == 0
    lines = [json.loads(line) for line in path.read_text().splitlines()]
    assert [line["format"] for line in lines] == ["ofc-fast/hand-history"] * 3
    assert run(capsys, "replay", str(path))[0] == 0


def test_play_history_jsonl_and_stacks(
    capsys: pytest.CaptureFixture, tmp_path: Path
) -> None:
    hpath = tmp_path / "deals.jsonl"
    code, out, _ = run(
        capsys,
        "play",
        "--rules",
        "pineapple",
        "--players",
        "2",
        "--hands",
        "30",
        "--seed",
        "3",
        "--bots",
        "random",
        "--stacks",
        "20",
        "--history",
        str(hpath),
        "--show",
        "2",
    )
    assert code == 0 and "Deal 1:" in out and "Deal 3:" not in out and "stack" in out
    lines = hpath.read_text().splitlines()
    assert 1 <= len(lines) <= 30
    line = json.loads(lines[0])  # a hand-history line (ofc_fast/arena/history.py)
    assert line["format"] == "ofc-fast/hand-history" and line["seats"] == ["random"] * 2
    g = Game.replay(line["history"])
    assert g.is_over and g.stacks == (20, 20) and list(g.result().net) == line["points"]


def test_default_is_a_short_readable_pineapple_match(
    capsys: pytest.CaptureFixture, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(sys, "argv", ["ofc-fast"])
    code, out, _ = run(capsys)
    assert code == 0
    assert out.count("Deal ") == 5 and "PINEAPPLE" in out
    assert "front" in out and "middle" in out and "back" in out
    assert "heuristic" in out


def test_quiet(capsys: pytest.CaptureFixture) -> None:
    code, out, err = run(capsys, "play", "--hands", "3", "--bots", "random", "--quiet")
    assert code == 0 and out == "" and err == ""


def test_quiet_play_imports_no_scipy(
    capsys: pytest.CaptureFixture, monkeypatch: pytest.MonkeyPatch
) -> None:
    """``play --quiet`` computed the summary it does not print: its confidence
    intervals imported SciPy (about half a second, most of a 300-deal run of random
    bots); only a printed or --json summary computes them now."""
    real_import = builtins.__import__
    asked: list[str] = []

    def recording_import(name: str, *args, **kwargs):
        if name.split(".")[0] == "scipy":
            asked.append(name)
        return real_import(name, *args, **kwargs)

    monkeypatch.setattr(builtins, "__import__", recording_import)
    argv = ("play", "--hands", "3", "--bots", "random", "--seed", "2")
    code, out, err = run(capsys, *argv, "--quiet")
    assert (code, out, err, asked) == (0, "", "", [])
    code, out, _ = run(capsys, *argv, "--json")  # (quiet too: the JSON holds them)
    assert code == 0 and all(s["ci95"] is not None for s in json.loads(out)["seats"])
    assert asked  # (the recording sees the import of the intervals)


def test_solve(capsys: pytest.CaptureFixture) -> None:
    pytest.importorskip(
        "ofc_fast.solver",
        reason="part of ofc_fast: install the whole package (pip install .)",
    )
    code, out, _ = run(
        capsys, "solve", "Ad Ah Th Jh 6h Ts 5d 3c Tc 3s 7h Qh 3d 9s", "--rules", "pineapple"
    )
    assert code == 0 and "stays (14 cards)" in out
    code, out, _ = run(
        capsys, "solve", "As Ad Kc Kd Qh Qs Jc Jd 9h 7s 5c 3d 2h", "--rules", "classic-1-6"
    )
    assert code == 0 and "classic setting" in out


def test_solve_times_a_warm_solve_and_says_so(
    capsys: pytest.CaptureFixture, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Regression: ``ofc-fast solve "<14 cards>"`` printed "time: 1.21 ms" for a solve
    that takes about 0.11 ms warm, the first call's one-time setup (tables built on
    first use) counted in; the time is now that of a warm solve, labelled so.  The
    setup is made slow here (0.3 s, first call only) so the two cannot be mixed up."""
    from ofc_fast.cli import _render

    solve, calls = _render.solve_fantasyland, []

    def first_call_slow(*args: Any, **kwargs: Any) -> Any:
        if not calls:
            time.sleep(0.3)  # (one-time setup)
        calls.append(1)
        return solve(*args, **kwargs)

    monkeypatch.setattr(_render, "solve_fantasyland", first_call_slow)
    cards = "Ad Ah Th Jh 6h Ts 5d 3c Tc 3s 7h Qh 3d 9s"
    code, out, _ = run(capsys, "solve", cards, "--rules", "pineapple")
    last = out.strip().splitlines()[-1]
    assert code == 0 and calls, out
    assert last.endswith(" ms (warm: one-time setup not counted)"), last
    assert float(last.split()[1]) < 300, last  # (the warm solve: well under 0.3 s)


@pytest.mark.parametrize("sub", ["play", "eval", "score", "rules", "solve", "bench"])
def test_help_on_each_subcommand(capsys: pytest.CaptureFixture, sub: str) -> None:
    with pytest.raises(SystemExit) as info:
        cli.main([sub, "--help"])
    assert info.value.code == 0
    out = capsys.readouterr().out
    assert out.startswith(f"usage: ofc-fast {sub}")


@pytest.mark.parametrize(
    "argv",
    [
        ["play", "--progress-every", "0"],
        ["eval", "As Ks Qs", "extra"],
        ["rules", "ofc", "extra", "--json"],
        ["bot", "random", "--url", "x"],
    ],
)
def test_an_unknown_option_shows_the_commands_usage(
    capsys: pytest.CaptureFixture, argv: list[str]
) -> None:
    """``ofc-fast play --progress-every 0`` printed ``usage: ofc-fast [-h] [--version]
    COMMAND ...`` and ``ofc-fast: error: unrecognized arguments``, where docs/cli.md
    says a command line the parser cannot read is the command's usage and error, as
    ``play --hands abc`` is."""
    unrecognized(capsys, argv)


def unrecognized(capsys: pytest.CaptureFixture, argv: list[str]) -> str:
    """The standard error of ``ofc-fast ARGV`` refused as a command's usage and
    ``unrecognized arguments``, exit status 2."""
    with pytest.raises(SystemExit) as info:
        cli.main(argv)
    assert info.value.code == 2
    err = capsys.readouterr().err
    assert err.startswith(f"usage: ofc-fast {argv[0]} "), err
    assert f"ofc-fast {argv[0]}: error: unrecognized arguments: " in err
    return err


@pytest.mark.parametrize(
    "argv, meant",
    [
        (["play", "--hand", "2", "--quiet"], "--hands"),
        (["play", "--hands", "1", "--qui"], "--quiet"),
        (["eval", "As Ks Qs", "--js=x.json"], "--json"),
        (["arena", "--bot", "random", "--bot", "random", "--progress"], "--progress-every"),
        (["advise", "--dealt", "As Kd 9h 9c 4s", "--sam", "4"], "--samples"),
        (["selfplay", "--out", "d", "--hands", "1", "--shard", "5"], "--shard-size"),
    ],
)
def test_an_abbreviated_option_is_refused_naming_the_whole_one(
    capsys: pytest.CaptureFixture,
    monkeypatch: pytest.MonkeyPatch,
    tmp_path: Path,
    argv: list[str],
    meant: str,
) -> None:
    """``ofc-fast play --hand 2`` played 2 hands (argparse took the abbreviation),
    while ``ofc-fast bench --qui`` was refused: a script's abbreviation stops working
    (or means another option) once an option that starts the same is added.  Every
    command now refuses it, naming the options it begins."""
    monkeypatch.chdir(tmp_path)  # (taken, they would write x.json, d/)
    err = unrecognized(capsys, argv)
    assert f"options are written whole: {meant}" in err, err


def test_top_level_options_are_written_whole(capsys: pytest.CaptureFixture) -> None:
    """``ofc-fast --vers`` printed the version: an abbreviation, as a command's."""
    with pytest.raises(SystemExit) as info:
        cli.main(["--vers"])
    assert info.value.code == 2
    assert "--version" in capsys.readouterr().err


@pytest.mark.parametrize("name", ["ofc", "Pineapple", "ofc-pineapple"])
def test_rules_json_refuses_a_rule_set_name_as_its_path(
    capsys: pytest.CaptureFixture,
    monkeypatch: pytest.MonkeyPatch,
    tmp_path: Path,
    name: str,
) -> None:
    """``ofc-fast rules --json ofc`` (meant: the OFC rules as JSON) wrote the list of
    presets into a file named ``ofc`` in the current folder (--json took the name as
    its PATH), and printed the list: now refused, naming the two ways to write it."""
    monkeypatch.chdir(tmp_path)
    assert cli.main(["rules", "--json", name]) == 2
    out, err = capsys.readouterr()
    assert out == "" and list(tmp_path.iterdir()) == []
    assert err.startswith(f"ofc-fast: error: --json: {name!r} is a rule set name"), err
    assert f"ofc-fast rules {name} --json" in err and f"--json ./{name}" in err
    # a file so named, written as a path: the presets list, as asked
    assert cli.main(["rules", "--json", f"./{name}"]) == 0
    capsys.readouterr()
    assert json.loads((tmp_path / name).read_text())[0]["name"] == "OFC"


@pytest.mark.parametrize(
    "argv, took",
    [
        (["eval", "--json", "As Ks Qs Js Ts"], "As Ks Qs Js Ts"),
        (["solve", "--json", "Ad Ah Th Jh 6h Ts 5d 3c Tc 3s 7h Qh 3d"], "Ad Ah Th"),
        (["replay", "--deal", "1", "--json", "x.jsonl"], None),  # (no --json: as before)
        (["advise", "--json", "out.json"], None),  # (--dealt missing: --json took no card)
    ],
)
def test_a_missing_argument_that_json_took_is_named(
    capsys: pytest.CaptureFixture, argv: list[str], took: str | None
) -> None:
    """``ofc-fast eval --json "As Ks Qs Js Ts"`` said only "the following arguments
    are required: cards": --json had taken the cards for its PATH.  The error now
    says so, and how to write it."""
    with pytest.raises(SystemExit) as info:
        cli.main(argv)
    assert info.value.code == 2
    err = capsys.readouterr().err
    if took is None:
        assert "took" not in err, err
        return
    assert "error: the following arguments are required: " in err, err
    assert f"(--json took '{took}" in err and "--json=PATH" in err, err


BOARD_A = "Qh Qd 2c / 9s 9h 9d 5c 5d / As Ks Qs Js Ts"
BOARD_B = "2h 3d 4c / 5s 6h 7d 8c Td / Jc Jd Jh Qc Kc"


def test_boards_that_stacks_took_are_named(capsys: pytest.CaptureFixture) -> None:
    """``ofc-fast score --stacks 200 BOARD BOARD`` said only "the following
    arguments are required: boards": --stacks (one or more chip counts) had taken
    the boards.  The error says so, and how to write it; ``--stacks=200`` before
    the boards, or ``--stacks 200`` after them, scores them."""
    with pytest.raises(SystemExit) as info:
        cli.main(["score", "--stacks", "200", BOARD_A, BOARD_B])
    assert info.value.code == 2
    err = capsys.readouterr().err
    assert "error: the following arguments are required: boards" in err, err
    assert f"(--stacks took '{BOARD_A[:10]}" in err and "--stacks=CHIPS" in err, err
    for argv in (["--stacks=200", BOARD_A, BOARD_B], [BOARD_A, BOARD_B, "--stacks", "200"]):
        assert cli.main(["score", *argv]) == 0
        assert "took" not in capsys.readouterr().err


def test_json_written_with_its_path_gets_no_took_hint(
    capsys: pytest.CaptureFixture,
) -> None:
    """``ofc-fast eval --json=out.json`` (the cards left out) was told "--json took
    'out.json' for its PATH: ... or write --json=PATH", which is what it wrote: the
    hint is for a PATH written as a separate word only."""
    with pytest.raises(SystemExit) as info:
        cli.main(["eval", "--json=out.json"])
    assert info.value.code == 2
    err = capsys.readouterr().err
    assert "the following arguments are required: cards" in err, err
    assert "took" not in err, err


@pytest.mark.parametrize(
    "argv, meant",
    [
        (["serve", "--api-key-fil", "k"], "--api-key-file"),
        (["serve", "--api-ke", "k"], "--api-key, --api-key-file"),
    ],
)
def test_an_abbreviated_option_of_a_group_is_refused_naming_it(
    capsys: pytest.CaptureFixture, argv: list[str], meant: str
) -> None:
    """``ofc-fast serve --api-key-fil k`` was refused with no hint, while ``serve
    --por 8001`` named --port: the options of an argument group (serve's
    --api-key / --api-key-file) are named too."""
    err = unrecognized(capsys, argv)
    assert f"options are written whole: {meant})" in err, err


def test_a_whole_top_level_option_with_a_value_is_not_called_abbreviated(
    capsys: pytest.CaptureFixture,
) -> None:
    """``ofc-fast --version=1`` was told "options are written whole: --version", as if
    it were an abbreviation: it is refused without that hint."""
    with pytest.raises(SystemExit) as info:
        cli.main(["--version=1"])
    assert info.value.code == 2
    err = capsys.readouterr().err
    assert "error:" in err and "written whole" not in err, err


def test_errors_exit_2(capsys: pytest.CaptureFixture) -> None:
    for argv in (
        ["play", "--rules", "nope"],
        ["play", "--bots", "genius"],
        ["play", "--players", "9"],
        ["play", "--hands", "0"],
        ["play", "--bots", "random,random", "--players", "3"],
        ["eval", "Zz Ks"],
        ["score", BOARD_A],
    ):
        code, _, err = run(capsys, *argv)
        assert code == 2 and err.startswith("ofc-fast: error:"), argv


def test_plain_text_without_rich(
    capsys: pytest.CaptureFixture, no_rich: None, tmp_path: Path
) -> None:
    code, out, _ = run(
        capsys,
        "play",
        "--rules",
        "pineapple",
        "--hands",
        "2",
        "--seed",
        "4",
        "--bots",
        "heuristic,random",
        "--players",
        "2",
    )
    assert code == 0
    assert "Deal 1: PINEAPPLE" in out and "----" in out and "┃" not in out
    code, out, _ = run(capsys, "score", BOARD_A, BOARD_B)
    assert code == 0 and "Pairs" in out and "┃" not in out


def test_python_dash_m(tmp_path) -> None:
    # run outside the checkout: the installed package, not the source tree
    proc = subprocess.run(
        [
            sys.executable,
            "-m",
            "ofc_fast",
            "play",
            "--hands",
            "2",
            "--bots",
            "random",
            "--seed",
            "1",
        ],
        capture_output=True,
        text=True,
        timeout=120,
        cwd=tmp_path,
    )
    assert proc.returncode == 0, proc.stderr
    assert "PINEAPPLE: 2 deals" in proc.stdout


def test_a_rules_file_that_is_not_utf8_is_one_line(
    capsys: pytest.CaptureFixture, tmp_path: Path
) -> None:
    """``--rules latin1.json`` (a file saved in another encoding) ended in a
    UnicodeDecodeError traceback, exit status 1."""
    path = tmp_path / "latin1.json"
    path.write_bytes('{"name": "Pineapple à la maison"}'.encode("latin-1"))
    code, out, err = run(capsys, "play", "--rules", str(path), "--hands", "1")
    assert code == 2 and out == ""
    assert err.startswith(f"ofc-fast: error: --rules: cannot read {str(path)!r}: ")
    assert "UTF-8" in err and err.count("\n") == 1


def _write_fifo(fifo: Path, text: str, after: float, then: float = 0.0) -> threading.Timer:
    """A writer that opens ``fifo`` ``after`` seconds from now and writes ``text``
    ``then`` seconds later (ENXIO, not a wait, if no reader is there)."""

    def write() -> None:
        fd = os.open(fifo, os.O_WRONLY | os.O_NONBLOCK)
        time.sleep(then)
        _write_and_close(fd, text)

    late = threading.Timer(after, write)
    late.start()
    return late


@pytest.mark.skipif(not hasattr(os, "mkfifo"), reason="run on POSIX: os.mkfifo")
def test_a_rules_fifo_nothing_writes_to_is_refused_after_a_bounded_wait(
    tmp_path: Path,
) -> None:
    """``--rules rules.fifo`` (a FIFO that no process writes to) waited in open() for
    a writer for ever: it is refused once the wait is over, as empty, naming
    ``--rules`` and the file; one whose writer comes and goes without a word is
    refused without the whole wait; a pipe with a writer (``--rules <(cat
    rules.json)``) still reads."""
    fifo = tmp_path / "rules.fifo"
    os.mkfifo(fifo)
    empty = (
        f"--rules: {str(fifo)!r} is empty (or a FIFO that nothing wrote to): "
        "no rules JSON in it"
    )
    got, took = in_thread(fifo, lambda: options._rules_text(str(fifo), "--rules", 0.5))
    assert isinstance(got, RulesError) and str(got) == empty
    assert 0.45 <= took < 30
    _write_fifo(fifo, "", 0.2)  # opened and closed, nothing written
    got, took = in_thread(fifo, lambda: options._rules_text(str(fifo), "--rules", 60))
    assert isinstance(got, RulesError) and str(got) == empty and took < 30
    if not Path("/dev/fd").is_dir():
        return
    table = PINEAPPLE.replace(name="thursday", sweep_bonus=4)
    read_end, write_end = os.pipe()  # as ``<(cat rules.json)``: /dev/fd/N
    try:  # the text comes after the open, from a writer that is there
        late = threading.Timer(0.2, _write_and_close, (write_end, table.to_json()))
        late.start()
        assert cli.load_rules(f"/dev/fd/{read_end}") == table
        late.join(30)
    finally:
        os.close(read_end)


@pytest.mark.skipif(not hasattr(os, "mkfifo"), reason="run on POSIX: os.mkfifo")
def test_a_rules_fifo_whose_writer_comes_after_the_reader_is_read(tmp_path: Path) -> None:
    """``mkfifo p; ofc-fast play --rules ./p & gen > p``: the writer opened the FIFO
    after ``--rules`` did, and the FIFO was refused as empty; it is read, and so is
    one whose writer opened it within the wait and writes after it."""
    fifo = tmp_path / "p"
    os.mkfifo(fifo)
    table = PINEAPPLE.replace(name="late", sweep_bonus=5)
    late = _write_fifo(fifo, table.to_json(), 0.5)
    got, _ = in_thread(fifo, lambda: cli.load_rules(f"{fifo}"))
    late.join(30)
    assert got == table
    late = _write_fifo(fifo, table.to_json(), 0.1, then=1.5)
    got, _ = in_thread(fifo, lambda: options._rules_text(str(fifo), "--rules", 0.5))
    late.join(30)
    assert got == table.to_json()


def _write_and_close(fd: int, text: str) -> None:
    os.write(fd, text.encode())
    os.close(fd)


def test_options_without_a_command_ask_for_one(capsys: pytest.CaptureFixture) -> None:
    """``ofc-fast --hands 2`` took ``2`` for the command: "invalid choice: '2'"."""
    with pytest.raises(SystemExit) as info:
        cli.main(["--hands", "2"])
    assert info.value.code == 2
    err = capsys.readouterr().err
    assert "error: a command is required before --hands: choose from play, " in err
    assert "invalid choice" not in err and "'2'" not in err


@pytest.mark.parametrize(
    "argv, message",
    [
        (["--hands", "0"], "--hands: must be at least 1, got 0\n"),
        (["--progress-every", "0"], "--progress-every: must be at least 1, got 0\n"),
        (["--progress-every", "-2"], "--progress-every: must be at least 1, got -2\n"),
        (["--timeout-ms", "-3"], "--timeout-ms: must be at least 0, got -3\n"),
        (["--token", ""], "--token: must be 1 to 256 printable ASCII characters"),
    ],
)
def test_arena_errors_name_the_option_not_the_keyword(
    capsys: pytest.CaptureFixture, argv: list[str], message: str
) -> None:
    """The arena's errors named the Python keyword (``hands must be ...``, or nothing
    at all: ``--progress-every 0`` ran as 1) instead of the option typed; a count
    said "must be a positive int" where every other count option of the command line
    says "must be at least 1"."""
    code, out, err = run(capsys, "arena", "--bot", "random", "--bot", "random", *argv)
    assert code == 2 and out == ""
    assert err.startswith(f"ofc-fast: error: {message}"), err


@pytest.mark.parametrize(
    "argv, message",
    [
        (
            ["arena", "--bot", "random", "--bot", "random", "--timeout-ms", "-3"],
            "--timeout-ms: must be at least 0, got -3",
        ),
        (
            ["advise", "--dealt", "As Kd 9h 9c 4s", "--time", "-1"],
            "--time: must be a positive number of seconds, at most 1e6, got -1.0",
        ),
        (
            ["bot", "search", "--time-budget", "-1"],
            "--time-budget: must be a positive number of seconds, at most 1e6, got -1.0",
        ),
        (
            ["advise", "--dealt", "As Kd 9h 9c 4s", "--model", ""],
            '--model: "auto" (the shipped model) or a model file, got an empty name',
        ),
    ],
)
def test_errors_use_the_command_line_wording_not_the_api_one(
    capsys: pytest.CaptureFixture, argv: list[str], message: str
) -> None:
    """``arena --timeout-ms -3`` said "... or None" (0 is no limit on the command
    line), ``advise --time -1`` said "--time: time_budget must ..." and ``bot search
    --time-budget -1`` "--time-budget: search bot: time_budget must ...", and
    ``advise --model ''`` "must be 'auto', None, a path, a ValueModel or its bytes"."""
    code, out, err = run(capsys, *argv)
    assert code == 2 and out == ""
    assert err == f"ofc-fast: error: {message}\n"


@pytest.mark.parametrize(
    "argv, message",
    [
        (["play", "--workers", "1000000"], "--workers: must be at most "),
        (
            ["arena", "--bot", "random", "--bot", "random", "--workers", "1000000"],
            "--workers",
        ),
        (
            ["selfplay", "--workers", "1000000", "--hands", "4"],
            "--workers: must be at most",
        ),
        (["play", "--workers", "2", "--hands", str(10**12)], "--hands: must be at most "),
        (["play", "--ray", "--hands", str(10**12)], "--hands: must be at most 10000000"),
        (["selfplay", "--hands", str(10**12)], "--hands: must be at most 10000000"),
    ],
)
def test_workers_and_the_hands_of_a_planned_run_are_bounded(
    capsys: pytest.CaptureFixture, tmp_path: Path, argv: list[str], message: str
) -> None:
    """``--workers 100000`` started that many processes, and ``--hands 10**12`` with
    ``--workers``/``--ray`` or in ``selfplay`` listed every chunk before the first
    deal (a MemoryError traceback, or no sign of life)."""
    out = tmp_path / "shards"
    extra = ["--out", str(out)] if argv[0] == "selfplay" else []
    code, stdout, err = run(capsys, *argv, *extra, "--quiet")
    assert code == 2 and stdout == "" and err.count("\n") == 1
    assert err.startswith(f"ofc-fast: error: {message}"), err
    assert "must be at most" in err and not out.exists()
    per_cpu = "per CPU" if "--workers" in message else "up front"
    assert per_cpu in err


@pytest.mark.parametrize(
    "argv",
    [
        ["play", "--quiet"],
        ["arena", "--bot", "random", "--bot", "random"],
        ["arena", "--bot", "random", "--bot", "random", "--duplicate"],
    ],
)
@pytest.mark.parametrize("hands", [10_000_001, 10**23])
def test_the_hands_of_a_sequential_run_are_bounded(
    capsys: pytest.CaptureFixture, argv: list[str], hands: int
) -> None:
    """``play --hands 99999999999999999999999`` (and ``arena``'s) was accepted and
    played until killed: a sequential run had no limit, a parallel one 10,000,000."""
    code, stdout, err = run(capsys, *argv, "--hands", str(hands))
    assert code == 2 and stdout == "" and err.count("\n") == 1
    assert err.startswith(
        f"ofc-fast: error: --hands: must be at most 10000000, got {hands}"
    )


@pytest.mark.parametrize("seed", ["-1", str(2**64)])
def test_selfplay_names_its_seed(
    capsys: pytest.CaptureFixture, tmp_path: Path, seed: str
) -> None:
    """``ofc-fast selfplay --seed -1`` said "--bots/--players: seed: must be ...",
    blaming options that were right."""
    out = tmp_path / "shards"
    code, _, err = run(
        capsys, "selfplay", "--hands", "2", "--seed", seed, "--out", str(out)
    )
    assert code == 2 and not out.exists()
    assert err == f"ofc-fast: error: --seed: must be 0..2**64-1, got {seed}\n"


@pytest.mark.skipif(sys.platform == "win32", reason="run on POSIX (a file size limit)")
def test_a_json_file_that_cannot_be_written_whole_leaves_the_old_one(
    tmp_path: Path,
) -> None:
    """``ofc-fast eval ... --json out.json`` on a full disk (here: a file size limit of
    40 bytes) truncated out.json, then failed: the result it held before was lost.
    It is written to a temporary file renamed over it, as the arena's ``--json``:
    the command fails naming ``--json`` and out.json is as it was."""
    import resource

    from scripts import package_env

    out = tmp_path / "out.json"
    out.write_text('{"the": "previous result, kept whole"}\n')

    def limited() -> None:  # (Python ignores SIGXFSZ: a write past it is EFBIG)
        resource.setrlimit(resource.RLIMIT_FSIZE, (40, 40))

    proc = subprocess.run(
        [sys.executable, "-m", "ofc_fast", "eval", "As Ks Qs Js Ts", "--json", str(out)],
        capture_output=True,
        text=True,
        timeout=120,
        env=package_env() | {"PYTHONDONTWRITEBYTECODE": "1"},
        preexec_fn=limited,
    )
    assert proc.returncode == 2, proc.stderr
    assert proc.stderr.startswith("ofc-fast: error: --json: cannot write "), proc.stderr
    assert out.read_text() == '{"the": "previous result, kept whole"}\n'
    assert [p.name for p in tmp_path.iterdir()] == ["out.json"]


def test_play_json_and_history_stream_the_deals(
    capsys: pytest.CaptureFixture, tmp_path: Path
) -> None:
    """``play --json PATH --history PATH.json`` in one process writes each deal as it
    ends rather than keeping them all for the end: the peak memory of a match ten
    times longer grows by less than 1 KB per extra deal (keeping them: about 12 KB a
    deal, its record and its history), and each file is the one JSON document
    ``json.dumps`` writes of what it holds (the garbage collector runs often
    meanwhile: its garbage, freed late, is no deal kept)."""
    import gc
    import tracemalloc

    def peak(hands: int) -> int:
        argv = ["play", "--hands", str(hands), "--players", "2", "--bots", "random"]
        argv += ["--seed", "3", "--quiet", "--json", str(tmp_path / "out.json")]
        argv += ["--history", str(tmp_path / "deals.json")]
        threshold = gc.get_threshold()
        gc.set_threshold(100)
        tracemalloc.start()
        try:
            assert cli.main(argv) == 0
            return tracemalloc.get_traced_memory()[1]
        finally:
            tracemalloc.stop()
            gc.set_threshold(*threshold)

    peak(3)  # (the imports and the tables, once)
    short, long = peak(30), peak(300)
    assert long - short < 270 * 1000, (short, long)
    for name in ("out.json", "deals.json"):
        text = (tmp_path / name).read_text()
        assert json.dumps(json.loads(text)) == text
        assert len(json.loads(text)["deals"]) == 300


def test_play_json_is_one_shape_in_one_process_and_in_parallel(
    capsys: pytest.CaptureFixture,
) -> None:
    """``play --json`` writes the same keys, top level and per deal, in one process
    and with ``--workers``: a deal's ``royalties`` are each seat's (front, middle,
    back) in both (a parallel run wrote each seat's total), its ``boards`` are there
    in both, and each board's royalties are the rules' for that board."""
    import ofc_fast as ofc

    argv = ["play", "--hands", "3", "--players", "2", "--bots", "random", "--seed", "5"]
    docs = []
    for extra in ([], ["--workers", "1"], ["--workers", "1", "--independent"]):
        code, out, _ = run(capsys, *argv, *extra, "--json")
        assert code == 0
        docs.append(json.loads(out))
    one = docs[0]
    assert one["mode"] == "match" and one["executor"] is None
    for doc in docs:
        assert list(doc) == list(one)
        for d in doc["deals"]:
            assert list(d) == list(one["deals"][0])
            for s, board in enumerate(d["boards"]):
                b = ofc.Board.parse(board)
                rows = (
                    [0, 0, 0]
                    if b.is_foul(ofc.rules.PINEAPPLE)
                    else b.royalties(ofc.rules.PINEAPPLE)
                )
                assert d["royalties"][s] == list(rows) and d["fouls"][s] == b.is_foul(
                    ofc.rules.PINEAPPLE
                )
        for s, seat in enumerate(doc["seats"]):
            assert seat["royalties"] == sum(sum(d["royalties"][s]) for d in doc["deals"])


def test_eval_json_is_one_shape_for_a_hand_and_a_board(
    capsys: pytest.CaptureFixture,
) -> None:
    """``eval --json`` of a board names each row as ``eval`` of that row alone names
    the hand (``categories``, ``descriptions``, ``strengths``; ``cards``, ``rules``
    in both), and a 3-card hand has its ``kev_rank`` key too (None)."""
    _, out, _ = run(capsys, "eval", BOARD_A, "--json")
    board = json.loads(out)
    rows = [r.strip() for r in BOARD_A.split("/")]
    assert board["cards"].split() == " ".join(rows).split()
    for i, row in enumerate(rows):
        _, out, _ = run(capsys, "eval", row, "--json")
        hand = json.loads(out)
        assert hand["rules"] == board["rules"] == "OFC"
        assert hand["cards"] == row
        assert (hand["strength"], hand["category"], hand["description"]) == (
            board["strengths"][i],
            board["categories"][i],
            board["descriptions"][i],
        )
        assert ("kev_rank" in hand) and (hand["kev_rank"] is None) == (i == 0)


def test_solve_json_has_best_in_every_mode(capsys: pytest.CaptureFixture) -> None:
    """``solve --json`` gives the setting it picks as ``best`` under every rule set
    (a classic game's was only ``best_ev``)."""
    cards = "Ad Ah Th Jh 6h Ts 5d 3c Tc 3s 7h Qh 3d"
    for rules in ("ofc", "classic-2-4"):
        _, out, _ = run(capsys, "solve", cards, "--rules", rules, "--json")
        doc = json.loads(out)
        assert sorted(doc["best"]["board"].replace("/", " ").split()) == sorted(
            cards.split()
        )
        assert doc.get("best_ev", doc["best"]) == doc["best"]


@pytest.mark.parametrize("option", ["--json", "--history"])
def test_play_names_the_option_when_its_temporary_file_fails(
    capsys: pytest.CaptureFixture,
    monkeypatch: pytest.MonkeyPatch,
    tmp_path: Path,
    option: str,
) -> None:
    """The deals of ``play --json`` / ``--history PATH.json`` wait in a temporary
    file: a TMPDIR that takes none is an error naming the option and the folder,
    before any deal, not a bare OSError."""
    import tempfile

    monkeypatch.setattr(tempfile, "tempdir", str(tmp_path / "gone"))
    code, _, err = run(
        capsys, "play", "--hands", "1", "--quiet", option, str(tmp_path / "out.json")
    )
    assert code == 2
    assert err.startswith(f"ofc-fast: error: {option}: cannot write a temporary file in")
    assert "gone" in err


PLAY_ONE = ["play", "--hands", "1", "--seed", "3", "--bots", "random"]


@pytest.mark.parametrize(
    "argv",
    [
        ["--", *PLAY_ONE],  # before the command
        [*PLAY_ONE, "--"],  # after the last option
        ["--", *PLAY_ONE, "--"],
    ],
)
def test_a_double_dash_ends_the_options(
    capsys: pytest.CaptureFixture, argv: list[str]
) -> None:
    """``ofc-fast -- play`` said "invalid choice: '--'" and ``ofc-fast play --hands
    1 --`` "unrecognized arguments: --": ``--`` is the end of the options, as in
    every Unix tool; the command runs as it does without it."""

    def played(*argv: str) -> tuple[int, list[str], str]:
        code, out, err = run(capsys, *argv)  # (its last line: the time it took)
        return code, out.splitlines()[:-1], err

    want = played(*PLAY_ONE)
    assert want[0] == 0 and want[1][0].startswith("Deal 1: PINEAPPLE"), want
    assert played(*argv) == want


def test_after_a_double_dash_a_word_is_an_argument(
    capsys: pytest.CaptureFixture, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """``replay -- -x.jsonl`` reads the file named ``-x.jsonl``; an option after
    ``--`` is an argument too (``play -- --hands 1``: not an option)."""
    monkeypatch.chdir(tmp_path)
    assert run(capsys, *PLAY_ONE, "--history=-x.jsonl")[0] == 0
    want = run(capsys, "replay", "./-x.jsonl")
    assert want[0] == 0 and want[1].startswith("hand 0 "), want
    assert run(capsys, "replay", "--", "-x.jsonl") == want
    assert run(capsys, "replay", "--deal", "0", "--", "-x.jsonl")[0] == 0
    with pytest.raises(SystemExit) as stop:
        cli.main(["play", "--", "--hands", "1"])
    assert stop.value.code == 2
    assert "unrecognized arguments: --hands 1\n" in capsys.readouterr().err


@pytest.mark.parametrize("word", ["-x.jsonl", "--deals.jsonl"])
def test_a_file_taken_for_an_option_is_named(
    capsys: pytest.CaptureFixture, word: str
) -> None:
    """``ofc-fast replay -x.jsonl`` said only "the following arguments are required:
    FILE": the error names the word taken for an option and how to write it."""
    with pytest.raises(SystemExit) as stop:
        cli.main(["replay", word])
    assert stop.value.code == 2
    last = capsys.readouterr().err.splitlines()[-1]
    assert last.startswith(
        "ofc-fast replay: error: the following arguments are required: FILE ("
    ), last
    assert f"'{word}'" in last and f"./{word}" in last and f"-- {word}" in last, last


@pytest.mark.parametrize("words", [["--json"], ["--deal", "2", "--verbose"]])
def test_a_mistyped_option_gets_no_hint_to_write_it_as_a_file(
    capsys: pytest.CaptureFixture, words: list[str]
) -> None:
    """``ofc-fast replay --json`` (an option replay does not have, FILE left out)
    was told "'--json' was read as an option: write -- --json, or ./--json for a
    file so named": a word with no ``.`` or ``/`` that names no file is a mistyped
    option, and the error says only what is missing."""
    with pytest.raises(SystemExit) as stop:
        cli.main(["replay", *words])
    assert stop.value.code == 2
    last = capsys.readouterr().err.splitlines()[-1]
    assert last == "ofc-fast replay: error: the following arguments are required: FILE"


def test_a_missing_option_gets_no_hint_of_a_file(capsys: pytest.CaptureFixture) -> None:
    """Only a missing positional argument gets the hint: ``arena -x`` lacks
    ``--bot``, which no word written ``./-x`` would give."""
    with pytest.raises(SystemExit):
        cli.main(["arena", "-x"])
    last = capsys.readouterr().err.splitlines()[-1]
    assert last == "ofc-fast arena: error: the following arguments are required: --bot"


def test_bench_takes_a_double_dash(capsys: pytest.CaptureFixture) -> None:
    """``ofc-fast bench --n 100 --reps 1 --`` said "unrecognized arguments: --"
    (bench reads its own options): it runs as without the ``--``."""
    code, out, err = run(capsys, "bench", "--n", "100", "--reps", "1", "--json", "--")
    assert code == 0 and json.loads(out)["params"]["n"] == 100, err


@pytest.mark.parametrize(
    "argv",
    [
        ["play", "--hands", "1", "--bots", "value@{long}"],
        ["play", "--hands", "1", "--bots", "policy:{long}"],
        ["play", "--hands", "1", "--bots", "value@{escape}"],
        ["advise", "--dealt", "As Kd 9h 9c 4s", "--model", "{long}"],
        ["advise", "--rules", "OFC", "--dealt", "As Kd 9h 9c 4s", "--model", "{model}"],
        ["advise", "--dealt", "As Kd 9h 9c 4s", "--model", "{junk}"],
    ],
)
def test_a_model_error_quotes_its_path_short(
    capsys: pytest.CaptureFixture, tmp_path: Path, argv: list[str]
) -> None:
    r"""A bot's or ``--model``'s error printed the model file's path whole (300
    characters of a long one; the escape codes of a name with ``\x1b[31m`` raw, as
    the model's name taken from it): the path is quoted short, as every bad input."""
    from ofc_fast.learned.model import MODEL_DIR

    escape = "a\x1b[31mred\nb"  # (a terminal's colour, a new line)
    model = tmp_path / f"{escape}.ofcvm"  # a pineapple model, played under OFC
    model.write_bytes((MODEL_DIR / "pineapple-2p.ofcvm").read_bytes())
    junk = tmp_path / f"{'j' * 200}.ofcvm"
    junk.write_bytes(b"junk")
    names = {
        "long": str(tmp_path / ("d" * 300) / "m.npz"),
        "escape": str(tmp_path / f"{escape}.npz"),
        "model": str(model),
        "junk": str(junk),
    }
    code, _, err = run(capsys, *[a.format(**names) for a in argv])
    assert code == 2 and err.startswith("ofc-fast: error: "), err
    assert err.count("\n") == 1 and err.isascii() and err[:-1].isprintable(), err
    assert names["long"] not in err and names["junk"] not in err, err  # (cut short)
    assert "OSError" not in err, err


@pytest.mark.parametrize(
    "argv",
    [
        ["replay", "{missing}"],
        ["replay", "{history}", "--deal", "99"],
        ["replay", "{bad}"],
        ["report", "{missing}", "{history}", "-o", "{out}"],
        ["report", "{report}", "{missing}", "-o", "{out}"],
        ["report", "{bad}", "{history}", "-o", "{out}"],
        ["report", "{report}", "{bad}", "-o", "{out}"],
        ["report", "{report}", "{empty}", "-o", "{out}"],
        ["play", "--rules", "{bad}"],
        ["rules", "{bad}"],
    ],
)
def test_a_file_name_with_control_characters_is_quoted_in_errors(
    capsys: pytest.CaptureFixture, tmp_path: Path, argv: list[str]
) -> None:
    r"""``replay``, ``report`` and ``--rules`` named their files bare in errors: a name holding a
    terminal's escape codes (``\x1b[31m``) or a new line reached the terminal as
    such (the rest in red, the one-line error on two lines)."""
    odd = "a\x1b[31mred\nb"
    history, report = tmp_path / f"h{odd}.jsonl", tmp_path / "r.json"
    argv_match = ["arena", "--bot", "random", "--bot", "random", "--hands", "2"]
    assert (
        cli.main([*argv_match, "--quiet", "--json", str(report), "--history", str(history)])
        == 0
    )
    (tmp_path / f"bad{odd}.json").write_text("{not json\n", encoding="utf-8")
    (tmp_path / f"empty{odd}.jsonl").write_text("", encoding="utf-8")
    names = {
        "missing": str(tmp_path / f"none{odd}.jsonl"),
        "history": str(history),
        "report": str(report),
        "bad": str(tmp_path / f"bad{odd}.json"),
        "empty": str(tmp_path / f"empty{odd}.jsonl"),
        "out": str(tmp_path / "page.html"),
    }
    capsys.readouterr()
    code, _, err = run(capsys, *[a.format(**names) for a in argv])
    assert code == 2 and err.startswith("ofc-fast: error: "), err
    assert err.count("\n") == 1 and err[:-1].isprintable(), err


@pytest.mark.parametrize(
    ("spec", "said"),
    [
        ("x@", "--bot: bad spec 'x@': nothing after x@"),
        ("me@cmd:", "--bot: bad spec 'me@cmd:': nothing after cmd:"),
        ("me@tcp:0", "--bot: bad spec 'me@tcp:0': tcp:PORT needs a port number"),
    ],
)
def test_a_bad_arena_bot_is_named_as_typed(
    capsys: pytest.CaptureFixture, spec: str, said: str
) -> None:
    """``arena --bot x@`` said "bad --bot '': nothing after builtin:": neither the
    spec typed nor a prefix of it (the name cut off, a builtin: never typed)."""
    code, _, err = run(capsys, "arena", "--bot", spec, "--bot", "random", "--hands", "1")
    assert code == 2 and err.startswith(f"ofc-fast: error: {said}"), err


def test_a_bot_module_not_found_is_named_once_and_short(
    capsys: pytest.CaptureFixture,
) -> None:
    """``--bots MODULE:attr`` of a module there is not printed the module's name a
    third time whole, in Python's own message (5,000 characters of a long one)."""
    module = "q" * 5000
    code, _, err = run(capsys, "play", "--hands", "1", "--bots", f"{module}:Bot")
    assert code == 2 and err.count("\n") == 1, err
    assert module[:100] not in err and "no module named" in err, err


@pytest.mark.parametrize("command", ["/x" * 300, '"/tmp/a\x1b[31m', "/tmp/a\x1b[31m"])
def test_an_arena_command_that_cannot_start_is_quoted_short(
    capsys: pytest.CaptureFixture, command: str
) -> None:
    """``arena --bot cmd:COMMAND`` that could not start printed the command whole in
    Python's message (600 characters) and one of unbalanced quotes bare (its escape
    codes raw): the command is quoted short, once."""
    code, _, err = run(capsys, "arena", "--bot", f"cmd:{command}", "--bot", "random")
    assert code == 2 and err.count("\n") == 1 and err[:-1].isprintable(), err
    assert "/x" * 100 not in err, err


def test_an_arena_bot_that_cannot_start_names_bot(capsys: pytest.CaptureFixture) -> None:
    """``arena --bot cmd:/nonexistent`` said "cannot start '/nonexistent': No such
    file or directory", and ``--bot tcp:PORT`` of a port taken "tcp:PORT: cannot
    listen ...", neither naming the option to change (as an unknown name does)."""
    import socket

    with socket.socket() as taken:
        taken.bind(("127.0.0.1", 0))
        taken.listen()
        port = taken.getsockname()[1]
        for spec, reason in (
            ("cmd:/nonexistent", "cannot start '/nonexistent'"),
            (f"tcp:{port}", f"tcp:{port}: cannot listen"),
        ):
            code, _, err = run(capsys, "arena", "--bot", spec, "--bot", "random")
            assert code == 2 and err.count("\n") == 1, err
            assert err.startswith(f"ofc-fast: error: --bot: {reason}"), err


@pytest.mark.parametrize("name", ["", " "])
def test_an_empty_file_name_is_quoted(capsys: pytest.CaptureFixture, name: str) -> None:
    """``ofc-fast replay "$FILE"`` with FILE unset said "FILE: cannot read : No such
    file or directory", the name not seen: it is quoted ('')."""
    code, _, err = run(capsys, "replay", name)
    assert code == 2 and err.startswith(f"ofc-fast: error: FILE: cannot read {name!r}: "), (
        err
    )


def test_chip_counts_of_stacks_per_seat_are_not_named_as_taken(
    capsys: pytest.CaptureFixture,
) -> None:
    """``score --stacks 200 150 BOARD BOARD`` (a count per seat) was told "--stacks
    took '150'", a right chip count: the hint names the first word that is no chip
    count (the first board), and none when every word is one."""
    with pytest.raises(SystemExit):
        cli.main(["score", "--stacks", "200", "150", BOARD_A, BOARD_B])
    err = capsys.readouterr().err
    assert f"(--stacks took '{BOARD_A[:10]}" in err and "'150'" not in err, err
    with pytest.raises(SystemExit):
        cli.main(["score", "--stacks", "200", "150"])
    err = capsys.readouterr().err
    assert "required: boards" in err and "took" not in err, err


HEAVY_MODULES = (
    "asyncio",  # the web server's (ofc_fast.serve._app)
    "ssl",
    "ofc_fast.serve._app",
    "ofc_fast.serve._routes",
    "uvicorn",
    "starlette",
    "scipy",
    "torch",
    "selenium",
    "jsonschema",
)
"""Modules no command but ``serve`` (or training, the browser tests) needs."""


PROCESS_MODULES = (
    "multiprocessing",  # the process pool's (ofc_fast.parallel._executors)
    "concurrent.futures",
    "subprocess",  # the arena's cmd: bots (ofc_fast.arena._transport)
    "ofc_fast.parallel._executors",
    "ofc_fast.arena._host",
    "ofc_fast.arena._transport",
    "ofc_fast.arena.report",
)
"""Modules of a parallel run or an arena match, which no parser needs."""


def _modules_after(argv: list[str]) -> set[str]:
    """The modules a fresh interpreter holds after ``ofc_fast.cli.main(argv)`` (of the
    package under test), which must exit with status 0."""
    from scripts import last_json_line

    status, path, modules = last_json_line(f"""if True:
        import contextlib, io, json, sys
        from ofc_fast.cli import main
        with contextlib.redirect_stdout(io.StringIO()):
            try:
                status = main({argv!r})
            except SystemExit as exc:
                status = exc.code
        here = sys.modules["ofc_fast.cli"].__file__
        print(json.dumps([status, here, sorted(sys.modules)]))
    """)
    assert status == 0
    assert path == cli.__file__  # (the package under test)
    return set(modules)


@pytest.mark.parametrize("argv", [["--help"], ["rules"], ["rules", "OFC"]])
def test_cli_imports_no_heavy_module_to_build_its_parser(argv: list[str]) -> None:
    """Every ``ofc-fast`` command imported the whole ``ofc_fast.serve`` package (its
    web-server module, asyncio and more) just to build the argument parser: some
    100 ms of each run.  ``--help`` and ``rules`` import none of the heavy modules
    (what a fresh interpreter holds after the command, not a time)."""
    loaded = _modules_after(argv)
    assert [m for m in HEAVY_MODULES if m in loaded] == []
    assert "ofc_fast.serve.cli" in loaded  # (the serve subcommand is still built)


@pytest.mark.parametrize("argv", [["--help"], ["rules", "OFC"]])
def test_help_imports_no_process_pool_nor_arena_host(argv: list[str]) -> None:
    """Regression: ``ofc-fast --help`` (and every light command) imported
    multiprocessing, concurrent.futures and the arena host with its transports
    (about 50 ms of each start), because the ``ofc_fast.parallel`` and
    ``ofc_fast.arena`` packages imported all their modules.  Their names are now
    imported when first used; the parsers of ``selfplay`` and ``arena`` are still
    built."""
    loaded = _modules_after(argv) - _dependencies_modules()
    assert [m for m in PROCESS_MODULES if m in loaded] == []
    assert {"ofc_fast.parallel.cli", "ofc_fast.arena.cli"} <= loaded


def _dependencies_modules() -> set[str]:
    """The modules a fresh interpreter holds after importing the core's dependencies
    (NumPy and cffi): not ours to spare (on CPython 3.10, NumPy's import of
    ``platform`` imports ``subprocess``)."""
    from scripts import last_json_line

    modules = last_json_line(
        "import json, sys, numpy, cffi; print(json.dumps(sorted(sys.modules)))"
    )
    return set(modules)
