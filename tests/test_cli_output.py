"""The command line behaves as a user expects.

``--version``; ``--json [PATH]`` the same in every subcommand; ``--rules`` takes a
rules JSON file (the README's own example); ``--stacks`` in the README's form
everywhere; ``solve`` refuses classic rules with more than 13 cards; ``bench`` lists
missed targets as MISS only with ``--strict``, rejects unknown ``--skip`` names, times
only ofc-fast's own calls and prints nothing wider than 80 columns;
Ctrl-C in ``play`` prints the summary so far and still writes ``--json``; error
messages name options; tables fit 80 columns; intervals use Student's t (SciPy) or
say they are the normal approximation.
"""

from __future__ import annotations

import builtins
import json
import math
import os
import re
import signal
import subprocess
import sys
import time
from pathlib import Path
from typing import Any

import pytest
from scripts import checkout_file, package_env

import ofc_fast as ofc
from ofc_fast import cli, timing
from ofc_fast.game import SeatStats

BOARD_A = "Qh Qd 2c / 9s 9h 9d 5c 5d / As Ks Qs Js Ts"
BOARD_B = "2h 3d 4c / 6s 6h 7d 7c 8d / Ah Ad Kh Kd 8c"
FL_HAND = "Ad Ah Th Jh 6h Ts 5d 3c Tc 3s 7h Qh 3d 9s"


def run(capsys: pytest.CaptureFixture, *argv: str) -> tuple[int, str, str]:
    code = cli.main(list(argv))
    out, err = capsys.readouterr()
    return code, out, err


@pytest.fixture
def no_module(monkeypatch: pytest.MonkeyPatch):
    """Block imports: after ``no_module("rich")``, ``import rich`` (and submodules) fail."""
    real_import = builtins.__import__
    blocked: set[str] = set()

    def fake_import(name: str, *args, **kwargs):
        if name.split(".")[0] in blocked:
            raise ImportError(f"no {name} here")
        return real_import(name, *args, **kwargs)

    monkeypatch.setattr(builtins, "__import__", fake_import)
    return blocked.add


def test_version(capsys: pytest.CaptureFixture) -> None:
    with pytest.raises(SystemExit) as info:
        cli.main(["--version"])
    assert info.value.code == 0
    assert capsys.readouterr().out.strip() == f"ofc-fast {ofc.__version__}"


# ----------------------------------------------------------------- --json

JSON_COMMANDS = {
    "eval": ["eval", "As Ks Qs Js Ts"],
    "eval-board": ["eval", BOARD_A],
    "score": ["score", BOARD_A, BOARD_B],
    "rules": ["rules"],
    "rules-name": ["rules", "ofc"],
    "solve": ["solve", FL_HAND],
    "play": ["play", "--hands", "2", "--seed", "3", "--bots", "random"],
    "advise": ["advise", "--dealt", "As Kd 9h 9c 4s", "--samples", "4", "--seed", "1"],
}


@pytest.mark.parametrize("name", sorted(JSON_COMMANDS))
def test_json_same_in_every_subcommand(
    capsys: pytest.CaptureFixture, tmp_path: Path, name: str
) -> None:
    """``--json`` alone: only JSON on stdout; ``--json PATH``: the same document in
    the file, and the usual text on stdout."""
    argv = JSON_COMMANDS[name]
    code, out, _ = run(capsys, *argv, "--json")
    assert code == 0
    alone = json.loads(out)  # nothing but the document
    path = tmp_path / "out.json"
    code, out, _ = run(capsys, *argv, "--json", str(path))
    assert code == 0 and out.strip()  # the usual text output
    if name != "rules-name":  # (whose usual output is JSON itself)
        with pytest.raises(json.JSONDecodeError):
            json.loads(out)
    written = json.loads(path.read_text())
    for doc in (alone, written):  # timings differ between two runs
        if isinstance(doc, dict):
            doc.pop("seconds", None)
    assert alone == written


JSON_KEYS = {
    "eval": {"cards", "strength", "category", "description", "kev_rank", "rules"},
    "eval-board": {
        *("board", "cards", "rules", "strengths", "categories", "descriptions", "rows"),
        *("royalties", "foul", "fantasyland"),
    },
    "score": {
        *("rules", "boards", "fouls", "royalties", "fantasyland", "net", "stacks"),
        *("pairs", "items"),
    },
    "rules": {"name", "game", "max_players", "description"},
    "solve": {"rules", "cards", "best", "stay", "no_stay"},
    "play": {
        *("rules", "players", "seed", "hands", "totals", "button", "fantasyland"),
        *("stacks", "start_stacks", "keep_nets", "seats", "rule_set", "bots"),
        *("seconds", "decisions", "interrupted", "mode", "executor", "deals"),
    },
    "advise": {
        *("action", "move", "ev", "stderr", "exact", "samples", "foul"),
        *("fantasyland", "royalties", "model", "source"),
    },
    "bench": {"machine", "version", "params", "targets_ns", "rows", "agreement"},
}
"""The keys of each command's ``--json`` (of each item, for a list: ``rules``,
``advise``); ``rules NAME`` is ``RuleSet.to_json()``, ``arena``'s report has its
schema (``report.schema.json``)."""

_BENCH = ["bench", "--quick", "--skip", "rank5_batch,rank3_batch,eval_boards,score_pairs"]


@pytest.mark.parametrize("name", sorted(JSON_KEYS))
def test_every_json_has_the_documented_keys(
    capsys: pytest.CaptureFixture, name: str
) -> None:
    """Regression: the JSON of ``score``, ``advise``, ``rules`` and ``bench`` was
    documented nowhere in docs/cli.md (nor ``play``'s ``button``, ``stacks``, ...:
    "..."), and no test held any command's keys, so a script reading them had no
    promise; each command's keys are now pinned here and named in its item of "The
    JSON of each command"."""
    argv = _BENCH if name == "bench" else JSON_COMMANDS[name]
    code, out, _ = run(capsys, *argv, "--json")
    assert code == 0
    doc = json.loads(out)
    items = doc if isinstance(doc, list) else [doc]
    assert items and all(set(item) == JSON_KEYS[name] for item in items), name
    docs = checkout_file("docs/cli.md").read_text(encoding="utf-8")
    text = docs.split("## The JSON of each command")[1]
    text = text.split("\n## ")[0]
    command = argv[0]
    (item,) = [i for i in text.split("\n- ") if i.startswith(f"`{command}`")]
    missing = [k for k in sorted(JSON_KEYS[name]) if f"`{k}`" not in item]
    assert not missing, f"docs/cli.md: {command}'s JSON item lacks {missing}"


def test_every_command_with_json_has_its_keys_pinned() -> None:
    """A new command with ``--json`` gets its keys pinned in :data:`JSON_KEYS` (the
    arena's report: by its schema)."""
    commands = cli.build_parser().commands
    with_json = {name for name, p in commands.items() if "json" in p.options}
    pinned = {JSON_COMMANDS.get(name, _BENCH)[0] for name in JSON_KEYS}
    assert with_json - {"arena"} <= pinned, with_json - pinned


@pytest.mark.parametrize("name", sorted(JSON_COMMANDS))
def test_an_empty_json_name_is_refused_in_every_subcommand(
    capsys: pytest.CaptureFixture, name: str
) -> None:
    """``--json ""`` (``--json "$OUT"`` with OUT unset) wrote no JSON anywhere, exit
    status 0, in every subcommand; it is refused before any work, as ``selfplay --out
    ""`` is (``play --history ""`` too)."""
    code, out, err = run(capsys, *JSON_COMMANDS[name], "--json", "")
    assert (code, out) == (2, "")
    assert err == "ofc-fast: error: --json: a file is needed, got an empty name\n"
    if name == "play":
        code, out, err = run(capsys, *JSON_COMMANDS[name], "--history", " ")
        assert err == "ofc-fast: error: --history: a file is needed, got an empty name\n"


@pytest.mark.skipif(not os.path.isfile("/proc/version"), reason="run on Linux (/proc)")
@pytest.mark.parametrize("option", ["--json", "--history"])
def test_an_existing_file_that_takes_no_writing_is_refused_before_the_match(
    capsys: pytest.CaptureFixture, monkeypatch: pytest.MonkeyPatch, option: str
) -> None:
    """``play --json FILE`` (``--history FILE`` of a parallel run) where FILE exists
    but cannot be written (read-only, not the user's; ``/proc/version`` even for
    root) played the whole match, then failed writing it; as a folder that takes no
    new file, it is refused before the match."""
    import ofc_fast.parallel.cli as parallel_cli

    def played(*args: object, **kwargs: object) -> None:
        raise AssertionError("the match was played")

    monkeypatch.setattr(ofc.Match, "next_game", played)
    monkeypatch.setattr(parallel_cli, "play_run", played)
    with pytest.raises(OSError):  # (what the command ran into at the end)
        open("/proc/version", "a").close()
    argv = ["play", "--hands", "2", "--seed", "3", "--bots", "random"]
    for parallel in ([], ["--workers", "1"]):
        code, out, err = run(capsys, *argv, *parallel, option, "/proc/version")
        assert (code, out) == (2, ""), parallel
        assert err.startswith(f"ofc-fast: error: {option}: cannot write '/proc/version'")
        assert err.count("\n") == 1


def _refused_before_the_match(
    capsys: pytest.CaptureFixture, monkeypatch: pytest.MonkeyPatch, path: Path
) -> str:
    """``play --json path``'s error, the match never played."""

    def played(*args: object, **kwargs: object) -> None:
        raise AssertionError("the match was played")

    monkeypatch.setattr(ofc.Match, "next_game", played)
    code, out, err = run(
        capsys, "play", "--hands", "2", "--bots", "random", "--json", str(path)
    )
    assert (code, out) == (2, "")
    assert err.startswith(f"ofc-fast: error: --json: cannot write {str(path)!r}: ")
    return err


def test_an_existing_file_whose_temporary_file_cannot_be_made_is_refused_before_the_match(
    capsys: pytest.CaptureFixture, monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    """``play --json FILE`` where FILE exists and takes writing but the new file
    written beside it cannot be made passed the check, played the whole match, then
    failed writing it. Here the writer's temporary file (``files.temporary_path``, the
    one place its name comes from) is put in a folder that does not exist, which
    binds even for root (the read-only folder below does not)."""
    import ofc_fast.files

    path = tmp_path / "out.json"
    path.write_text("old")
    gone = tmp_path / "no-such-folder"
    monkeypatch.setattr(
        ofc_fast.files, "temporary_path", lambda target: gone / f".{target.name}.tmp"
    )
    err = _refused_before_the_match(capsys, monkeypatch, path)
    assert "No such file or directory" in err
    assert path.read_text() == "old" and os.listdir(tmp_path) == [path.name]


@pytest.mark.skipif(
    os.name != "posix" or os.geteuid() == 0,
    reason="run on a machine where a folder's permissions bind (not as root)",
)
def test_an_existing_file_in_a_read_only_folder_is_refused_before_the_match(
    capsys: pytest.CaptureFixture, monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    """A writable file in a folder that takes no new file (chmod 555) passed the
    check; the writer, which makes a new file beside it, failed after the match."""
    path = tmp_path / "out.json"
    path.write_text("old")
    tmp_path.chmod(0o555)
    try:
        _refused_before_the_match(capsys, monkeypatch, path)
    finally:
        tmp_path.chmod(0o755)


@pytest.mark.skipif(not os.path.exists("/dev/full"), reason="run on Linux (/dev/full)")
@pytest.mark.parametrize("suffix", [".json", ".jsonl"])
def test_a_history_that_fills_the_disk_names_history(
    capsys: pytest.CaptureFixture, tmp_path: Path, suffix: str
) -> None:
    """``play --history FILE`` on a disk that fills up during the match (``/dev/full``)
    was ``ofc-fast: error: [Errno 28] No space left on device``, naming no option; as
    a parallel run's, the error names ``--history`` and its file."""
    history = tmp_path / f"deals{suffix}"
    history.symlink_to("/dev/full")
    argv = ["play", "--hands", "30", "--seed", "3", "--bots", "random", "--quiet"]
    for parallel in ([], ["--workers", "1"]):
        code, out, err = run(capsys, *argv, *parallel, "--history", str(history))
        assert (code, out) == (2, ""), parallel
        assert err == (
            f"ofc-fast: error: --history: cannot write {str(history)!r}: "
            f"{os.strerror(28)}\n"
        ), parallel


@pytest.mark.skipif(not os.path.exists("/dev/full"), reason="run on Linux (/dev/full)")
def test_bench_json_that_fills_the_disk_names_json(capsys: pytest.CaptureFixture) -> None:
    """``bench --json /dev/full`` was ``ofc-fast: error: [Errno 28] No space left on
    device``, naming no option, where ``play``'s and the others' name ``--json``."""
    code, _, err = run(capsys, "bench", "--n", "100", "--reps", "1", "--json", "/dev/full")
    assert code == 2
    assert err.endswith(
        f"ofc-fast: error: --json: cannot write '/dev/full': {os.strerror(28)}\n"
    )


@pytest.mark.skipif(not os.path.exists("/dev/full"), reason="run on Linux (/dev/full)")
def test_a_report_page_that_fills_the_disk_names_output(
    capsys: pytest.CaptureFixture, tmp_path: Path
) -> None:
    """``report REPORT HISTORY -o /dev/full`` was ``ofc-fast: error: cannot write
    /dev/full: ...``, naming no option, where every other output names its own
    (``--json: cannot write ...``)."""
    report, history = str(tmp_path / "r.json"), str(tmp_path / "h.jsonl")
    argv = ["arena", "--bot", "random", "--bot", "random", "--hands", "2", "--quiet"]
    assert run(capsys, *argv, "--json", report, "--history", history)[0] == 0
    code, _, err = run(capsys, "report", report, history, "-o", "/dev/full")
    assert (code, err) == (
        2,
        f"ofc-fast: error: --output: cannot write '/dev/full': {os.strerror(28)}\n",
    )


def test_solve_json_content(capsys: pytest.CaptureFixture) -> None:
    code, out, _ = run(capsys, "solve", FL_HAND, "--json")
    doc = json.loads(out)
    best = ofc.solve_fantasyland(FL_HAND, ofc.rules.PINEAPPLE)
    assert doc["best"]["board"] == str(best.board)
    assert doc["best"]["royalties"] == best.royalties and doc["best"]["stays"]
    code, out, _ = run(
        capsys,
        "solve",
        "As Ad Kc Kd Qh Qs Jc Jd 9h 7s 5c 3d 2h",
        "--rules",
        "classic-1-6",
        "--json",
    )
    doc = json.loads(out)
    ev = ofc.best_setting("As Ad Kc Kd Qh Qs Jc Jd 9h 7s 5c 3d 2h", ofc.rules.CLASSIC_1_6)
    assert doc["best_ev"]["board"] == str(ev.board)


def test_solve_without_fantasyland_shows_no_stay_value(
    capsys: pytest.CaptureFixture, tmp_path: Path
) -> None:
    """``ofc-fast solve`` under rules without Fantasyland printed "stay value by next
    cards: 13: 9.5, ..." for a stay those rules do not have: it says "no
    Fantasyland" alone, and shows the values where there is Fantasyland."""
    path = tmp_path / "nofl.json"
    path.write_text(ofc.rules.PINEAPPLE.replace(fantasyland=None, name="nofl").to_json())
    code, out, _ = run(capsys, "solve", FL_HAND, "--rules", str(path))
    assert code == 0 and out.startswith("rules: nofl, 14 cards (no Fantasyland)\n"), out
    assert "stay" not in out
    code, out, _ = run(capsys, "solve", FL_HAND)
    assert code == 0 and "(Fantasyland; stay value by next cards: 13: " in out


def test_solve_refuses_classic_with_more_than_13_cards(
    capsys: pytest.CaptureFixture,
) -> None:
    for preset in ("classic-1-6", "classic-2-4", "malayan"):
        code, _, err = run(capsys, "solve", FL_HAND, "--rules", preset)
        assert code == 2 and "--rules:" in err and "13 cards; got 14" in err, err
    code, _, err = run(capsys, "solve", "As Ks", "--rules", "pineapple")
    assert code == 2 and "CARDS: expected 13 to 17 cards, got 2" in err


# ---------------------------------------------------------------- --rules


def _readme_rules_file(tmp_path: Path) -> Path:
    """The README's example, run as written (it writes thursday.json)."""
    text = Path(__file__).resolve().parent.parent / "README.md"
    if not text.exists():
        pytest.skip("needs the README.md of a source checkout (git clone)")
    readme = text.read_text(encoding="utf-8")
    start = readme.index("table = ofc.rules.PINEAPPLE.replace(")
    code = readme[start : readme.index("```", start)]
    cwd = os.getcwd()
    os.chdir(tmp_path)
    try:
        exec(compile("import ofc_fast as ofc\n" + code, "README.md", "exec"), {})
    finally:
        os.chdir(cwd)
    return tmp_path / "thursday.json"


def test_rules_path_is_the_readme_file(
    capsys: pytest.CaptureFixture, tmp_path: Path
) -> None:
    path = _readme_rules_file(tmp_path)
    table = ofc.RuleSet.from_json(path.read_text())
    code, out, _ = run(capsys, "score", BOARD_A, BOARD_B, "--rules", str(path), "--json")
    doc = json.loads(out)
    assert code == 0 and doc["rules"] == "Thursday game"
    assert doc["net"] == ofc.settle([BOARD_A, BOARD_B], table).net == [51, -51]
    for argv in (
        ["eval", BOARD_A],
        ["solve", FL_HAND],
        ["play", "--hands", "1", "--seed", "1", "--bots", "random"],
    ):
        code, out, _ = run(capsys, *argv, "--rules", str(path))
        assert (code == 0 and "Thursday game" in out) or argv[0] == "solve", argv
    code, out, _ = run(
        capsys,
        "play",
        "--hands",
        "1",
        "--seed",
        "1",
        "--bots",
        "random",
        "--rules",
        str(path),
        "--json",
    )
    assert json.loads(out)["rule_set"] == table.to_dict()


def test_rules_path_errors(capsys: pytest.CaptureFixture, tmp_path: Path) -> None:
    missing = tmp_path / "missing.json"
    code, _, err = run(capsys, "eval", BOARD_A, "--rules", str(missing))
    assert code == 2 and err.startswith("ofc-fast: error: --rules: cannot read")
    bad = tmp_path / "bad.json"
    bad.write_text('{"sweep_bonus": "three"}')
    code, _, err = run(capsys, "eval", BOARD_A, "--rules", str(bad))
    assert code == 2 and "--rules" in err and "sweep_bonus" in err, err
    assert cli.load_rules("classic-2-4") is ofc.rules.CLASSIC_2_4


def test_rules_file_read_is_bounded(capsys: pytest.CaptureFixture, tmp_path: Path) -> None:
    """``--rules /dev/zero`` read until MemoryError (a traceback, after eating the
    memory): a rules file is read up to 1 MiB, a longer one refused."""
    big = tmp_path / "big.json"
    big.write_text(" " * (1 << 20) + ofc.rules.OFC.to_json(), encoding="utf-8")
    code, out, err = run(capsys, "eval", BOARD_A, "--rules", str(big))
    assert code == 2 and out == ""
    assert err == (
        f"ofc-fast: error: --rules: {str(big)!r} is longer than 1048576 characters: "
        "not a rules file\n"
    )
    small = tmp_path / "small.json"  # a whole rules file still reads
    small.write_text(" " * 1000 + ofc.rules.OFC.to_json(), encoding="utf-8")
    assert run(capsys, "eval", BOARD_A, "--rules", str(small))[0] == 0


@pytest.mark.parametrize("cards", ["Qh Qd 5c", "As Ks Qs Js Ts"])
def test_eval_of_a_hand_refuses_a_bad_rules_option(
    capsys: pytest.CaptureFixture, tmp_path: Path, cards: str
) -> None:
    """``eval "Qh Qd 5c" --rules nosuch`` (or a rules file that is not there) printed
    the hand and exit status 0: only a board read --rules."""
    code, out, err = run(capsys, "eval", cards, "--rules", "nosuch")
    assert code == 2 and out == ""
    assert err.startswith("ofc-fast: error: --rules: unknown rule set 'nosuch'")
    missing = tmp_path / "missing.json"
    code, out, err = run(capsys, "eval", cards, "--rules", str(missing))
    assert code == 2 and err.startswith("ofc-fast: error: --rules: cannot read")


# --------------------------------------------------------------- --stacks


def test_stacks_in_the_readme_form(capsys: pytest.CaptureFixture) -> None:
    forms = (["30,40"], ["30", "40"], ["30, 40"])
    results = []
    for form in forms:
        code, out, _ = run(capsys, "score", BOARD_A, BOARD_B, "--stacks", *form, "--json")
        results.append(json.loads(out)["stacks"])
    assert results[0] == results[1] == results[2]
    expected = ofc.settle([BOARD_A, BOARD_B], ofc.rules.OFC, stacks=[30, 40]).stacks
    assert results[0] == expected
    code, out, _ = run(
        capsys,
        "play",
        "--hands",
        "2",
        "--seed",
        "1",
        "--bots",
        "random",
        "--players",
        "3",
        "--stacks",
        "200,200,200",
        "--json",
    )
    doc = json.loads(out)
    assert doc["start_stacks"] == [200, 200, 200] and sum(doc["stacks"]) == 600
    code, out, _ = run(
        capsys,
        "play",
        "--hands",
        "2",
        "--seed",
        "1",
        "--bots",
        "random",
        "--players",
        "3",
        "--stacks",
        "200",
        "--json",
    )
    assert json.loads(out)["start_stacks"] == [200, 200, 200]
    assert cli.parse_stacks(None, 3) is None


SELFPLAY = ["selfplay", "--hands", "2", "--out", "no-such-run"]  # (refused before it)


@pytest.mark.parametrize(
    "argv, message",
    [
        (
            ["play", "--stacks", "100,100"],
            "--stacks: 3 seats need 1 or 3 chip counts, got 2",
        ),
        (["play", "--stacks", "-5"], "--stacks: chip counts must be >= 0, got -5\n"),
        (
            ["score", BOARD_A, BOARD_B, "--stacks", "-5"],
            "--stacks: chip counts must be >= 0, got -5\n",  # (not "(-5, -5)")
        ),
        (
            ["score", BOARD_A, BOARD_B, "--stacks=-5,3"],
            "--stacks: chip counts must be >= 0, got (-5, 3)\n",
        ),
        # without "=": a value, as "-5" is (argparse took "-5,3" for an option)
        (
            ["score", BOARD_A, BOARD_B, "--stacks", "-5,3"],
            "--stacks: chip counts must be >= 0, got (-5, 3)\n",
        ),
        (
            ["play", "--players", "2", "--stacks", "200", "-5,-3"],
            "--stacks: 2 seats need 1 or 2 chip counts, got 3\n",
        ),
        (
            ["play", "--players", "2", "--stacks", "600000000,600000000"],
            "--stacks: a match moves chips between seats, so at most 1000000000",
        ),
        (["play", "--stacks", "lots"], "--stacks: expected chip counts"),
        (["score", BOARD_A, BOARD_B, "--stacks", "1,2,3"], "--stacks: 2 seats need 1 or 2"),
        (["play", "--rules", "nope"], "--rules: unknown rule set 'nope'"),
        (["play", "--bots", "genius"], "--bots: unknown bot 'genius'"),
        (["play", "--players", "9"], "--players: PINEAPPLE seats 2 to 3 players, got 9"),
        (["play", "--button", "7"], "--button: 7 is not a seat of 3 players"),
        (["play", "--hands", "0"], "--hands: must be at least 1"),
        (["play", "--seed", "-1"], "--seed: must be 0..2**64-1, got -1"),
        (["play", "--seed", str(2**64)], "--seed: must be 0..2**64-1"),
        (["score", BOARD_A, BOARD_B, "--button", "5"], "--button: 5 is not a seat"),
        (["eval", "Zz Ks"], "CARDS: bad card 'Zz'"),
        (["eval", "As Ks / Qs Js Ts / 2c"], "CARDS: incomplete board (2/3/1 cards)"),
        (["score", BOARD_A, "As"], "BOARDS (board 1): bad board"),
        (["score", BOARD_A, BOARD_A], "BOARDS: "),
        (["rules", "nope"], "NAME: unknown rule set"),
        (["play", "--show", "-1"], "--show: must be at least 0, got -1"),
        (["play", "--chunk-size", "5"], "--chunk-size: a parallel run's task size; add"),
        (
            ["advise", "--dealt", "As Kd 9h 9c 4s", "--top", "-1"],
            "--top: must be at least 0,",
        ),
        # a parallel run named "--bots/--players" for either (play names the one)
        ([*SELFPLAY, "--players", "9"], "--players: PINEAPPLE seats 2 to 3 players"),
        ([*SELFPLAY, "--bots", "nope"], "--bots: unknown bot 'nope'"),
        ([*SELFPLAY, "--bots", "random,random,random"], "--bots: 2 seats need 1 or 2"),
        (["play", "--workers", "2", "--bots", "nope"], "--bots: unknown bot 'nope'"),
        # no model ships for the rules: before the match (the first decision said
        # "pass model=", which no option does, and named no option)
        (
            ["play", "--rules", "pineapple-27", "--bots", "value"],
            "--bots: value bot: no value model ships for PINEAPPLE_27; play another bot",
        ),
        (
            [
                "play",
                "--rules",
                "pineapple-27",
                "--workers",
                "2",
                "--players",
                "2",
                "--bots",
                "heuristic,value",
            ],
            "--bots: value bot: no value model ships for PINEAPPLE_27; play another bot",
        ),
        # models ship for OFC at 2 and 3 seats: at 4 the first decision said so,
        # naming no option
        *(
            (
                ["play", "--rules", "ofc", "--players", "4", *more, "--bots", "value"],
                "--bots: value bot: no value model ships for OFC with 4 players; play",
            )
            for more in ([], ["--workers", "2"])
        ),
    ],
)
def test_errors_name_the_option(
    capsys: pytest.CaptureFixture, argv: list[str], message: str
) -> None:
    code, _, err = run(capsys, *argv)
    assert code == 2 and err.startswith(f"ofc-fast: error: {message}"), err
    for python_name in ("solve_fantasyland", "settle(", "Match(", "parse_cards", "Board."):
        assert python_name not in err
    assert "()" not in err  # ``eval`` of an incomplete board said evaluate()


# ------------------------------------------------------------------ bench


def test_bench_rejects_unknown_skip_names(capsys: pytest.CaptureFixture) -> None:
    code, _, err = run(capsys, "bench", "--skip", "rank3,rank5_btach,treys")
    assert code == 2
    assert err.startswith("ofc-fast: error: --skip: unknown name(s) rank5_btach, treys")


def test_bench_skip_refuses_an_empty_row_name(capsys: pytest.CaptureFixture) -> None:
    """Regression: ``ofc-fast bench --skip ''`` was taken as no --skip and timed every
    row (an empty value bypassed the comma-list parser); like every comma list it is
    now refused in one line naming --skip, exit status 2."""
    for value in ("", "rank3,"):
        code, _, err = run(capsys, "bench", "--skip", value)
        assert code == 2, value
        assert err.startswith("ofc-fast: error: --skip: an empty row in "), err


def test_bench_refuses_more_hands_than_memory_holds(
    capsys: pytest.CaptureFixture,
) -> None:
    """``ofc-fast bench --n 1000000000000`` ended in NumPy's MemoryError traceback
    (4.55 TiB asked for), exit status 1."""
    code, _, err = run(capsys, "bench", "--n", str(10**12))
    assert code == 2
    assert err.startswith(f"ofc-fast: error: --n: must be at most 10000000, got {10**12}")


def test_bench_refuses_to_skip_every_row(capsys: pytest.CaptureFixture) -> None:
    """``ofc-fast bench --skip`` of every row timed nothing, printed an empty table and
    still said ``agreement: all OK``, exit status 0."""
    code, out, err = run(capsys, "bench", "--skip", ",".join(timing.ROWS))
    assert code == 2 and out == ""
    assert (
        err
        == "ofc-fast: error: --skip: every row is skipped, nothing would be timed: keep one\n"
    )


@pytest.mark.parametrize(
    "argv, message",
    [
        (["play", "--bots", "heuristic,"], "--bots: an empty bot name in 'heuristic,'"),
        (["play", "--bots", "random,,random"], "--bots: an empty bot name in"),
        (["selfplay", "--bots", ",random", "--hands", "2", "--out", "OUT"], "--bots: an"),
        (["play", "--stacks", "200,", "--players", "2"], "--stacks: an empty chip count"),
        (["score", BOARD_A, BOARD_B, "--stacks", "100,,100"], "--stacks: an empty chip"),
        (["bench", "--skip", "rank3,"], "--skip: an empty row in 'rank3,'"),
        (
            ["serve", "--port", "0", "--forwarded-allow-ips", "127.0.0.1,,::1"],
            "--forwarded-allow-ips: an empty address in '127.0.0.1,,::1'",
        ),
    ],
)
def test_comma_separated_options_refuse_an_empty_item(
    capsys: pytest.CaptureFixture, tmp_path: Path, argv: list[str], message: str
) -> None:
    """``play --bots heuristic,`` played (the empty name dropped: one name for every
    seat), ``--stacks 200,`` gave every seat 200 and ``bench --skip rank3,`` skipped
    rank3: an empty item of a comma-separated option was dropped silently (``serve
    --forwarded-allow-ips 'a,,b'`` too: it split the list itself)."""
    out = tmp_path / "out"
    code, printed, err = run(capsys, *[str(out) if a == "OUT" else a for a in argv])
    assert code == 2 and printed == "" and err.startswith(f"ofc-fast: error: {message}")
    assert not out.exists()


@pytest.mark.parametrize("stacks", ["0", "0,0,50"])
def test_play_refuses_stacks_that_play_no_deal(
    capsys: pytest.CaptureFixture, stacks: str
) -> None:
    """``ofc-fast play --stacks 0`` played no deal, printed a table of zeros and exited
    0 ("the match ended early"): fewer than two seats had chips from the start."""
    code, out, err = run(capsys, "play", "--stacks", stacks, "--players", "3")
    assert code == 2 and out == ""
    assert err.startswith("ofc-fast: error: --stacks: a match needs two seats with chips")


BENCH_TINY = ["bench", "--n", "500", "--reps", "1"]


def test_bench_times_our_calls_only_and_fits_80_columns(
    capsys: pytest.CaptureFixture,
) -> None:
    code, out, err = run(capsys, *BENCH_TINY, "--skip", "rank3")
    assert code == 0 and err == "" and "agreement: all OK" in out
    assert max(len(line) for line in out.splitlines()) <= 80
    table = out[out.index("call ") : out.index("agreement")]
    assert "rank5_batch" in table and "score_pairs" in table
    assert "rank3 " not in table and "rank3_batch" in table  # --skip rank3: that row only
    for peer in ("phevaluator", "treys", "eval7", "pokerkit"):
        assert peer not in out
    assert "MISS" not in out


def test_bench_reports_misses_only_with_strict(
    capsys: pytest.CaptureFixture, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Targets nobody can meet (a femtosecond) are information without --strict.

    The exit status is then 0; with --strict they are MISS lines and status 2.  (A tiny
    smoke run: no figure is checked.)"""
    monkeypatch.setitem(timing.TARGETS, "rank5_batch", 1e-6)
    monkeypatch.setitem(timing.TARGETS, "score_pairs", 1e-6)
    code, out, _ = run(capsys, *BENCH_TINY)
    assert code == 0 and "MISS" not in out and "slower than the target" in out
    assert max(len(line) for line in out.splitlines()) <= 80
    code, out, _ = run(capsys, *BENCH_TINY, "--strict")
    assert code == 2 and "  MISS rank5_batch" in out and "  MISS score_pairs" in out
    assert max(len(line) for line in out.splitlines()) <= 80


def test_bench_json_path_that_cannot_be_written_is_refused_before_the_timing(
    capsys: pytest.CaptureFixture, tmp_path: Path
) -> None:
    """``ofc-fast bench --json FOLDER`` timed every row, then ended in ``ofc-fast:
    error: [Errno 21] Is a directory``: the option not named, the figures lost."""
    code, out, err = run(capsys, *BENCH_TINY, "--json", str(tmp_path))
    assert code == 2 and out == ""
    assert (
        err == f"ofc-fast: error: --json: cannot write {str(tmp_path)!r}: it is a folder\n"
    )


@pytest.mark.parametrize(
    "argv, message",
    [
        (["--n", "0", "--json"], "--n: must be at least 1, got 0"),
        (["--reps", "0", "--json"], "--reps: must be at least 1, got 0"),
        (["--seed", "-1", "--json"], "--seed: must be 0..2**64-1, got -1"),
        (["--json", "/no/such/folder/b.json"], "--json: cannot write"),
        (["--skip", "nope", "--json"], "--skip: unknown name(s) nope"),
    ],
)
def test_bench_refuses_a_value_in_one_line_as_every_subcommand(
    capsys: pytest.CaptureFixture, argv: list[str], message: str
) -> None:
    """``bench --n 0 --json`` printed its usage and ``ofc-fast bench: error: argument
    --n: ...`` where ``play --hands 0 --json`` (and every other subcommand) prints one
    line, ``ofc-fast: error: --hands: ...``; ``bench --seed -1`` ended in NumPy's
    ValueError traceback after the table's header."""
    code, out, err = run(capsys, *BENCH_TINY, *argv)
    assert code == 2 and out == ""
    assert err.startswith(f"ofc-fast: error: {message}"), err
    assert len(err.splitlines()) == 1 and "usage:" not in err


@pytest.mark.parametrize("silent", [["--quiet"], ["--json"]])
def test_play_refuses_show_where_nothing_is_printed(
    capsys: pytest.CaptureFixture, tmp_path: Path, silent: list[str]
) -> None:
    """``ofc-fast play --quiet --show 3`` (or ``--json --show 3``, the JSON alone on
    standard output) printed no deal, silently; ``--json PATH`` leaves standard
    output to the deals, and ``--show 0`` prints none anyway."""
    play = ["play", "--hands", "2", "--seed", "1", "--bots", "random"]
    code, out, err = run(capsys, *play, *silent, "--show", "1")
    assert code == 2 and out == ""
    assert err.startswith("ofc-fast: error: --show: ") and silent[0] in err, err
    assert len(err.splitlines()) == 1
    assert run(capsys, *play, *silent, "--show", "0")[0] == 0
    code, out, _ = run(capsys, *play, "--json", str(tmp_path / "p.json"), "--show", "1")
    assert code == 0 and "Deal 1: PINEAPPLE" in out


def test_bench_refuses_a_huge_reps(
    capsys: pytest.CaptureFixture, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Regression: ``ofc-fast bench --reps 1180591620717411303424`` (a mistyped
    ``--reps``) was taken and timed on for ever, with no word; it is refused, one
    line naming ``--reps`` and its limit, exit status 2, as ``--n`` is."""
    monkeypatch.setattr(timing, "time_runner", lambda *a: pytest.fail("it was timed"))
    code = cli.main(["bench", "--quick", "--reps", str(2**70)])
    out, err = capsys.readouterr()
    assert code == 2 and out == ""
    assert err == (
        f"ofc-fast: error: --reps: must be at most {timing.MAX_REPS}, got {2**70} "
        "(more is no steadier)\n"
    )


def test_bench_refuses_quick_with_both_n_and_reps(capsys: pytest.CaptureFixture) -> None:
    """``ofc-fast bench --quick --n 200000 --reps 7`` ignored ``--quick`` (it only
    sets the defaults of ``--n`` and ``--reps``) while its JSON recorded ``"quick":
    true``; with one of them ``--quick`` still sets the other."""
    code, out, err = run(capsys, "bench", "--quick", "--n", "500", "--reps", "1")
    assert code == 2 and out == ""
    assert err.startswith("ofc-fast: error: --quick: "), err
    assert "--n" in err and "--reps" in err and len(err.splitlines()) == 1
    assert timing._parse(["--quick", "--n", "500"]).reps == 3


# ----------------------------------------------------------------- Ctrl-C


@pytest.mark.parametrize("sig", [signal.SIGINT, signal.SIGTERM], ids=["ctrl-c", "kill"])
def test_ctrl_c_in_play_prints_the_summary_and_writes_json(
    tmp_path: Path, sig: signal.Signals
) -> None:
    """Ctrl-C, and SIGTERM (``kill``) as Ctrl-C (it ended the process at once, no
    summary, no ``--json``, exit status -15), stop between two deals."""
    out_json = tmp_path / "result.json"
    hist = tmp_path / "deals.jsonl"
    proc = subprocess.Popen(
        [
            sys.executable,
            "-m",
            "ofc_fast",
            "play",
            "--hands",
            "1000000",
            "--seed",
            "5",
            "--bots",
            "random",
            "--players",
            "2",
            "--json",
            str(out_json),
            "--history",
            str(hist),
        ],
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
        cwd=tmp_path,
    )
    try:
        deadline = time.monotonic() + 60
        while time.monotonic() < deadline:  # wait until some deals are on record
            # (--history is written into a temporary file beside it, renamed at the end)
            spool = [p for p in tmp_path.iterdir() if p.name.startswith(".deals.jsonl.")]
            if spool and spool[0].stat().st_size > 20_000:
                break
            time.sleep(0.1)
        proc.send_signal(sig)
        out, err = proc.communicate(timeout=60)
    finally:
        if proc.poll() is None:
            proc.kill()
    assert proc.returncode == 130, (out, err)
    doc = json.loads(out_json.read_text())
    played = doc["hands"]
    assert doc["interrupted"] is True and 0 < played < 1_000_000
    assert f"interrupted: {played} of 1000000 deals played" in err
    assert f"PINEAPPLE: {played} deals, 2 players, seed 5" in out
    assert sum(doc["totals"]) == 0 and len(doc["deals"]) == played
    lines = hist.read_text().splitlines()
    assert len(lines) == played and json.loads(lines[-1])
    assert sorted(os.listdir(tmp_path)) == ["deals.jsonl", "result.json"]


def _killed_in(module: str, function: str, argv: list[str], folder: Path) -> None:
    """Run ``ofc-fast argv`` in ``folder`` with SIGTERM sent from inside ``module``'s
    ``function`` (called after the match): a Ctrl-C, exit status 130, one line, the
    3 deals of ``deals.jsonl`` written whole and no other file (no temporary one)."""
    script = (
        "import importlib, os, signal, sys\n"
        "from ofc_fast.cli import main\n"
        f"mod = importlib.import_module({module!r})\n"
        f"original = getattr(mod, {function!r})\n"
        "def kill_then_call(*args):\n"
        "    os.kill(os.getpid(), signal.SIGTERM)\n"
        "    return original(*args)\n"
        f"setattr(mod, {function!r}, kill_then_call)\n"
        "sys.exit(main(sys.argv[1:]))\n"
    )
    proc = subprocess.run(
        [sys.executable, "-c", script, *argv],
        capture_output=True,
        text=True,
        cwd=folder,
        env=package_env(),
        timeout=120,
    )
    assert proc.returncode == 130, (proc.returncode, proc.stderr)
    assert proc.stderr.splitlines()[-1] == "ofc-fast: interrupted", proc.stderr
    assert os.listdir(folder) == ["deals.jsonl"]
    assert len((folder / "deals.jsonl").read_text().splitlines()) == 3


def test_kill_while_play_writes_its_files_leaves_no_temporary_file(
    tmp_path: Path,
) -> None:
    """Regression: SIGTERM (``kill``; the second of two, or one that came as the last
    deal ended) while ``play`` printed its summary and wrote ``--history`` ended the
    process at once (exit by signal 15): the deals played lost, a hidden
    ``.deals.jsonl.PID....tmp`` left beside them.  It is a Ctrl-C there too: one line,
    exit status 130, the history written whole, no temporary file."""
    argv = ["play", "--hands", "3", "--seed", "5", "--history", "deals.jsonl"]
    _killed_in("ofc_fast.cli._play", "print_speed", argv, tmp_path)


def test_kill_while_arena_writes_its_files_leaves_no_temporary_file(
    tmp_path: Path,
) -> None:
    """Regression: SIGTERM (``kill``) while ``arena`` wrote its ``--json`` report after
    the match ended the process at once (exit by signal 15, a temporary file possibly
    left): only the match was covered.  As in ``play`` it is a Ctrl-C for the whole
    run: one line, exit status 130, the history written whole, no temporary file."""
    argv = ["arena", "--bot", "random", "--bot", "random", "--hands", "3", "--quiet"]
    argv += ["--history", "deals.jsonl", "--json", "report.json"]
    _killed_in("ofc_fast.arena.cli", "write_whole", argv, tmp_path)


def test_ctrl_c_while_the_command_line_starts_is_one_line(
    capsys: pytest.CaptureFixture, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Ctrl-C while ``ofc-fast`` builds its parser (it imports every command's
    module: a second on a busy machine) ended in a KeyboardInterrupt traceback, not
    the one line and exit status 130 docs/cli.md gives a Ctrl-C."""

    def interrupted() -> None:
        raise KeyboardInterrupt

    monkeypatch.setattr(cli, "build_parser", interrupted)
    code, out, err = run(capsys, "rules")
    assert (code, out, err) == (128 + signal.SIGINT, "", "ofc-fast: interrupted\n")


# ----------------------------------------------------------- 80 columns

WIDE = [
    ["play", "--hands", "3", "--seed", "2", "--players", "3", "--stacks", "500"],
    [
        "play",
        "--rules",
        "classic-1-6",
        "--players",
        "4",
        "--hands",
        "2",
        "--seed",
        "1",
        "--bots",
        "random",
    ],
    ["play", "--hands", "60", "--seed", "2", "--bots", "random"],
    ["score", BOARD_A, BOARD_B, "--stacks", "30,40"],
    ["eval", BOARD_A],
    ["eval", "As Ks Qs Js Ts"],
    ["rules"],
    ["solve", FL_HAND],
]


@pytest.mark.parametrize("rich", [False, True], ids=["plain", "rich"])
@pytest.mark.parametrize("argv", WIDE, ids=lambda a: "-".join(a[:2]))
def test_tables_fit_80_columns(
    capsys: pytest.CaptureFixture,
    monkeypatch: pytest.MonkeyPatch,
    no_module,
    rich: bool,
    argv: list[str],
) -> None:
    """On a terminal (into a pipe tables keep their full width: test_cli_consistency.py)."""
    if rich:
        pytest.importorskip("rich", reason='pip install ".[test]" (rich)')
    else:
        no_module("rich")
    monkeypatch.setattr(sys.stdout, "isatty", lambda: True)
    monkeypatch.setenv("TERM", "dumb")  # rich on a terminal without colour codes
    code, out, _ = run(capsys, *argv)
    assert code == 0
    long = [ln for ln in out.splitlines() if len(ln) > 80]
    assert not long, long


@pytest.mark.parametrize("argv", [["eval", "As Ks Qs Js Ts"], ["rules"]])
def test_no_color_on_a_terminal_writes_no_escape_codes(
    capsys: pytest.CaptureFixture, monkeypatch: pytest.MonkeyPatch, argv: list[str]
) -> None:
    """``NO_COLOR=1 ofc-fast eval ...`` on a colour terminal still wrote the rich
    table's bold header and italic title (``ESC[1m``, ``ESC[3m``): NO_COLOR
    (no-color.org) asks for text without them."""
    pytest.importorskip("rich", reason='pip install ".[test]" (rich)')
    monkeypatch.setattr(sys.stdout, "isatty", lambda: True)
    monkeypatch.setenv("TERM", "xterm-256color")
    monkeypatch.delenv("FORCE_COLOR", raising=False)
    monkeypatch.setenv("NO_COLOR", "1")
    code, out, _ = run(capsys, *argv)
    assert code == 0 and out.strip()
    assert "\x1b" not in out, repr(out[:200])


# -------------------------------------------------------------- intervals

# 97.5% quantiles of Student's t from printed tables, by degrees of freedom.
T_TABLE = {1: 12.706, 2: 4.303, 4: 2.776, 9: 2.262, 29: 2.045}


def _stats(values: list[int]) -> SeatStats:
    st = SeatStats()
    for v in values:
        st.add(v, False, 0, False, False, False, False, False)
    return st


@pytest.mark.parametrize("df", sorted(T_TABLE))
def test_interval_uses_student_t(df: int) -> None:
    pytest.importorskip("scipy", reason='pip install ".[test]" (scipy)')
    values = [(7 * i) % 11 - 5 for i in range(df + 1)]
    st = _stats(values)
    se = st.sd / math.sqrt(len(values))
    assert st.ci95 == pytest.approx(T_TABLE[df] * se, rel=5e-4)


def test_default_match_interval_is_about_16() -> None:
    """The issue's case: the default 5-deal run printed about +-11.7 with 1.96; with
    t (4 degrees of freedom) the same data give 2.776 / 1.96 = 1.42 times that."""
    pytest.importorskip("scipy", reason='pip install ".[test]" (scipy)')
    st = _stats([12, -20, 3, 25, -8])
    se = st.sd / math.sqrt(5)
    assert st.ci95 / se == pytest.approx(2.776, rel=5e-4)


def test_play_without_scipy_names_the_extra_that_brings_it(
    capsys: pytest.CaptureFixture, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Regression: ``play``'s summary without SciPy said ``pip install scipy for
    Student's t``, unlike every other missing-extra hint, which names the project's
    extra: it says ``pip install 'ofc-fast[cli]'`` (pyproject's cli extra brings
    SciPy)."""
    import importlib.util

    find_spec = importlib.util.find_spec
    monkeypatch.setattr(
        importlib.util,
        "find_spec",
        lambda name, *a: None if name == "scipy" else find_spec(name, *a),
    )
    code, out, _ = run(capsys, "play", "--hands", "2", "--seed", "1", "--bots", "random")
    text = " ".join(out.split())  # (the note is wrapped to 80 columns)
    assert code == 0
    assert "normal approximation; pip install 'ofc-fast[cli]' for Student's t" in text
    assert "pip install scipy" not in text


def test_interval_falls_back_to_the_normal_approximation(
    capsys: pytest.CaptureFixture, no_module
) -> None:
    no_module("scipy")
    st = _stats([12, -20, 3, 25, -8])
    assert st.ci95 == pytest.approx(1.96 * st.sd / math.sqrt(5), rel=1e-12)
    assert _stats([1]).ci95 == math.inf
    code, out, _ = run(capsys, "play", "--hands", "2", "--seed", "1", "--bots", "random")
    # the CLI checks for SciPy without importing it: the note reflects the install
    import importlib.util

    assert code == 0 and "Student's t" in out
    installed = importlib.util.find_spec("scipy") is not None
    assert ("normal approximation" in " ".join(out.split())) is not installed, out


def test_bench_json_like_every_subcommand(
    capsys: pytest.CaptureFixture, tmp_path: Path
) -> None:
    """``bench --json``: only the JSON on stdout (the report on stderr); with a PATH
    the file (and the report on stdout)."""
    code, out, err = run(capsys, *BENCH_TINY, "--json")
    doc = json.loads(out)
    assert code == 0 and doc["params"]["n"] == 500 and "agreement: all OK" in err
    path = tmp_path / "bench.json"
    code, out, _ = run(capsys, *BENCH_TINY, "--json", str(path))
    assert code == 0 and "agreement: all OK" in out
    assert json.loads(path.read_text())["params"] == doc["params"]


# ------------------------------------------------------- a reader gone away


def run_with_reader_gone(
    tmp_path: Path, argv: list[str], gone: str, program: list[str] | None = None
) -> subprocess.CompletedProcess[str]:
    """``ofc-fast ARGV`` (or ``program`` ARGV) with ``gone`` (stdout or stderr) a pipe
    whose reader has gone before the first line is written; the other stream
    captured."""
    read_end, write_end = os.pipe()
    os.close(read_end)
    streams = {"stdout": subprocess.PIPE, "stderr": subprocess.PIPE, gone: write_end}
    try:
        return subprocess.run(
            [*(program or [sys.executable, "-m", "ofc_fast"]), *argv],
            **streams,
            text=True,
            timeout=120,
            cwd=tmp_path,
            env=package_env(),
        )
    finally:
        os.close(write_end)


@pytest.mark.skipif(not os.path.exists("/dev/full"), reason="run on Linux (/dev/full)")
@pytest.mark.parametrize(
    "argv",
    [
        ["eval", "As Ks Qs Js Ts"],
        ["eval", "As Ks Qs Js Ts", "--json"],
        ["rules", "ofc"],
        ["play", "--hands", "2", "--seed", "1", "--bots", "random"],
        ["--version"],
        ["play", "--help"],
        ["bench", "--help"],
    ],
)
@pytest.mark.parametrize("buffered", [False, True])
def test_a_full_standard_output_is_one_error_line(
    tmp_path: Path, argv: list[str], buffered: bool
) -> None:
    """``ofc-fast eval ... > /dev/full`` said ``ofc-fast: error: [Errno 28] No space
    left on device``, naming no output (``--json /dev/full`` names --json): the error
    names standard output, exit status 2, nothing else on standard error.  With
    standard output buffered (no PYTHONUNBUFFERED, as in a user's shell) it failed
    where the output was flushed at the end: two tracebacks, exit status 120.
    ``--version`` and ``--help`` unbuffered were lost without a word, exit status 0
    (argparse drops an error of writing them)."""
    env = {k: v for k, v in package_env().items() if k != "PYTHONUNBUFFERED"}
    env |= {} if buffered else {"PYTHONUNBUFFERED": "1"}
    with open("/dev/full", "w") as full:
        proc = subprocess.run(
            [sys.executable, "-m", "ofc_fast", *argv],
            stdout=full,
            stderr=subprocess.PIPE,
            text=True,
            timeout=120,
            cwd=tmp_path,
            env=env,
        )
    assert proc.returncode == 2, proc.stderr
    assert proc.stderr == ("ofc-fast: error: standard output: No space left on device\n"), (
        proc.stderr
    )


@pytest.mark.skipif(os.name != "posix", reason="run on POSIX (a file size limit)")
def test_a_json_file_at_the_size_limit_is_named_not_standard_output(
    tmp_path: Path,
) -> None:
    """``ofc-fast play --hands 20 --json o.json > /dev/null`` with a file size limit
    (``ulimit -f 4``) said ``ofc-fast: error: standard output: File too large``: the
    temporary file of the deals, dropped after the --json error, raised again on
    closing and its error replaced the real one.  The error names --json."""
    import resource

    def limited() -> None:  # (Python ignores SIGXFSZ: a write past it is EFBIG)
        resource.setrlimit(resource.RLIMIT_FSIZE, (4096, 4096))

    argv = ["play", "--hands", "20", "--seed", "1", "--quiet", "--json", "o.json"]
    proc = subprocess.run(
        [sys.executable, "-m", "ofc_fast", *argv],
        stdout=subprocess.DEVNULL,
        stderr=subprocess.PIPE,
        text=True,
        timeout=120,
        cwd=tmp_path,
        env=package_env() | {"PYTHONDONTWRITEBYTECODE": "1"},
        preexec_fn=limited,
    )
    assert (proc.returncode, proc.stderr) == (
        2,
        f"ofc-fast: error: --json: cannot write 'o.json': {os.strerror(27)}\n",
    ), proc.stderr


@pytest.mark.skipif(os.name != "posix", reason="run on a POSIX system (a C locale)")
@pytest.mark.parametrize("option", ["--json", "--history"])
def test_an_output_named_outside_ascii_in_a_c_locale(tmp_path: Path, option: str) -> None:
    """In a C locale that Python does not coerce to UTF-8 (file names as ASCII bytes),
    ``ofc-fast play --json résumé.json`` crashed with a UnicodeEncodeError traceback
    (exit status 1) making the temporary file beside it: the file is written."""
    env = {**package_env(), "LC_ALL": "C", "PYTHONCOERCECLOCALE": "0", "PYTHONUTF8": "0"}
    target = tmp_path / "r\u00e9sum\u00e9.json"
    argv = ["play", "--hands", "1", "--seed", "1", "--bots", "random", "--quiet"]
    proc = subprocess.run(
        [sys.executable, "-m", "ofc_fast", *argv, option, os.fsencode(target)],
        capture_output=True,
        timeout=120,
        cwd=tmp_path,
        env=env,
    )
    assert proc.returncode == 0, proc.stderr
    assert json.loads(target.read_bytes())
    assert sorted(p.name for p in tmp_path.iterdir()) == [target.name]


ON_LINUX = pytest.mark.skipif(
    not sys.platform.startswith("linux"),
    reason="run on Linux (SIGPIPE, and poll() telling a pipe's reader gone)",
)


@ON_LINUX
@pytest.mark.parametrize(
    "argv",
    [
        ["rules"],
        ["eval", "As Ks Qs Js Ts"],
        ["play", "--hands", "2", "--bots", "random", "--seed", "1"],
        ["play", "--hands", "2", "--bots", "random", "--quiet", "--history", "/dev/stdout"],
        ["arena", "--bot", "random", "--bot", "random", "--hands", "2", "--quiet"]
        + ["--history", "/dev/stdout"],
    ],
    ids=["rules", "eval", "play", "play-history", "arena-history"],
)
def test_a_reader_that_goes_away_ends_quietly(tmp_path: Path, argv: list[str]) -> None:
    """``ofc-fast rules | head -1``: the reader of standard output is gone when
    the command writes.  That ended in a BrokenPipeError (``ofc-fast: error:
    [Errno 32] Broken pipe``, exit status 2, or "Exception ignored" at the exit);
    a command stopped by SIGPIPE in a shell ends quietly with 128 + 13.  So does
    a ``--history /dev/stdout | head -1`` (it was ``--history: cannot write
    '/dev/stdout': Broken pipe``, exit status 2)."""
    proc = run_with_reader_gone(tmp_path, argv, "stdout")
    assert proc.stderr == ""
    assert proc.returncode == 128 + signal.SIGPIPE


@ON_LINUX
@pytest.mark.parametrize(
    "script, argv",
    [
        ("presets_table.py", []),
        ("count_public_names.py", []),
        ("advise_ev_sum.py", ["--deals", "1", "--samples", "4"]),
    ],
)
def test_a_tool_whose_reader_goes_away_ends_quietly(
    tmp_path: Path, script: str, argv: list[str]
) -> None:
    """``python tools/presets_table.py | head -1`` (and the other tools that print)
    ended in a BrokenPipeError traceback; they end as ``ofc-fast`` does."""
    tool = checkout_file(f"tools/{script}")
    proc = run_with_reader_gone(tmp_path, argv, "stdout", [sys.executable, str(tool)])
    assert "Traceback" not in proc.stderr and "Broken pipe" not in proc.stderr
    assert proc.returncode == 128 + signal.SIGPIPE


@ON_LINUX
def test_a_reader_of_progress_lines_that_goes_away_ends_quietly(tmp_path: Path) -> None:
    """``ofc-fast arena ... --progress-json 2>&1 >/dev/null | head -1``: the
    progress lines go to standard error; its reader gone, the arena ended in a
    BrokenPipeError (exit status 1) instead of as the reader of standard output."""
    argv = ["arena", "--bot", "random", "--bot", "random", "--hands", "2"]
    proc = run_with_reader_gone(tmp_path, [*argv, "--progress-json", "--quiet"], "stderr")
    assert proc.stdout == ""
    assert proc.returncode == 128 + signal.SIGPIPE


@pytest.mark.skipif(
    sys.platform == "win32", reason="run on POSIX (closes a file descriptor)"
)
@pytest.mark.parametrize("closed", [1, 2], ids=["stdout", "stderr"])
@pytest.mark.parametrize(
    "argv",
    [["rules"], ["play", "--hands", "60", "--bots", "random", "--seed", "1"]],
    ids=["rules", "play"],
)
def test_a_closed_standard_stream_is_no_traceback(
    tmp_path: Path, argv: list[str], closed: int
) -> None:
    """``ofc-fast rules >&-`` (and ``2>&-``: Python then has no ``sys.stdout`` /
    ``sys.stderr``) ended in ``AttributeError: 'NoneType' object has no attribute
    'isatty'``, exit status 1; what goes to the closed stream is discarded."""
    proc = subprocess.run(
        [sys.executable, "-m", "ofc_fast", *argv],
        capture_output=True,
        text=True,
        timeout=120,
        cwd=tmp_path,
        env=package_env(),
        preexec_fn=lambda: os.close(closed),
    )
    assert proc.returncode == 0, (proc.stdout, proc.stderr)
    if closed == 1:
        assert proc.stdout == proc.stderr == ""  # no error message either
    else:
        assert proc.stderr == "" and proc.stdout.strip()  # the usual output


@pytest.mark.parametrize(
    "argv",
    [
        ["play", "--hands", "3", "--show", "0", "--bots", "random", "--seed", "1"],
        ["arena", "--bot", "random", "--bot", "random", "--hands", "4", "--seed", "1"],
    ],
)
@pytest.mark.parametrize("env_var", [("PYTHONIOENCODING", "ascii"), ("LC_ALL", "C")])
def test_an_ascii_standard_output_gets_plus_minus_not_a_traceback(
    tmp_path: Path, argv: list[str], env_var: tuple[str, str]
) -> None:
    r"""``PYTHONIOENCODING=ascii ofc-fast play --hands 3 --show 0`` (or a C locale)
    crashed on the table's "±" with a UnicodeEncodeError traceback, then printed it
    as the escape ``\xb1``: where the output's encoding lacks "±" the confidence
    interval is written ``+/-`` (``play``'s table, ``arena``'s standings)."""
    unset = ("PYTHONIOENCODING", "LANG", "LC_ALL", "LC_CTYPE")
    env = {k: v for k, v in package_env().items() if k not in unset}
    env.update({"PYTHONUTF8": "0", env_var[0]: env_var[1]})
    proc = subprocess.run(
        [sys.executable, "-m", "ofc_fast", *argv],
        capture_output=True,
        timeout=120,
        cwd=tmp_path,
        env=env,
    )
    assert proc.returncode == 0, proc.stderr.decode("ascii", "replace")
    assert proc.stderr == b""
    assert proc.stdout.isascii() and b"\\" not in proc.stdout, proc.stdout
    assert re.search(rb"\+/- ?\d+\.\d+", proc.stdout), proc.stdout


DEALT = "As Kd 9h 9c 4s"


@pytest.mark.parametrize(
    "argv, message",
    [
        (["--dealt", DEALT, "--dead", "Zz"], "--dead: bad card 'Zz'"),
        (["--dealt", DEALT, "--board", "garbage"], "--board: bad board 'garbage'"),
        (["--dealt", "Zz Kd"], "--dealt: bad card 'Zz'"),
        (["--dealt", DEALT, "--opponent", "Zz / /"], "--opponent: bad card 'Zz'"),
        (["--dealt", DEALT, "--samples", "0"], "--samples: must be an int within 1.."),
        (["--dealt", DEALT, "--seed", "-1"], "--seed: must be 0..2**64-1, got -1"),
        # too many seats from the --opponent boards alone: no --players was typed
        (
            ["--dealt", DEALT, *["--opponent", "/ /"] * 3],
            "--opponent: 3 opponent boards make 4 seats, and PINEAPPLE seats 2 to 3",
        ),
        (
            ["--dealt", DEALT, "--rules", "pineapple", "--players", "4"],
            "--players: PINEAPPLE seats 2 to 3 players, got 4",
        ),
    ],
)
def test_advise_errors_name_the_option_once(
    capsys: pytest.CaptureFixture, argv: list[str], message: str
) -> None:
    """``advise --dead Zz`` said "bad card 'Zz'" without naming which of --board,
    --dealt, --opponent or --dead held it, and ``--samples 0`` named the option and
    then the keyword again (``--samples: samples must be ...``)."""
    code, out, err = run(capsys, "advise", *argv)
    assert code == 2 and out == ""
    assert err.startswith(f"ofc-fast: error: {message}"), err


@pytest.mark.parametrize(
    "argv, message",
    [
        (["--dealt", "As Kd 9h 9c"], "--board, --dealt, --opponent: the boards and dealt"),
        (["--board", "Qh / 9s 9h / As Ks", "--dealt", "As Kd 2c"], "--dealt: holds As,"),
        (
            ["--board", "Qh / 9s 9h / As Ks", "--dealt", "2c 5d Ts", "--dead", "Ks"],
            "--dead: holds Ks",
        ),
        (
            ["--rules", "ofc", "--board", "Qh / 9s / As", "--dealt", "2c"]
            + ["--opponent", "Qh / 8s / Ad"],
            "--opponent (seat 1): front row holds Qh, a card shown twice",
        ),
        (["--dealt", ""], "--dealt: holds no card"),
        (
            [
                "--dealt",
                DEALT,
                "--dead",
                " ".join([f"{r}{s}" for r in "235678TJQ" for s in "cdhs"] + ["Kc", "4c"])
                + " 4d 4h",  # 40 cards: 7 left unseen, 29 to deal
            ],
            "--dead: holds 40 cards: 7 unseen cards are left for the 29 the rounds to come",
        ),
        (["--dealt", DEALT, "--rules", "classic-1-6"], "--rules: must be OFC or Pineapple"),
        (["--dealt", DEALT, "--model", "no-such.ofcvm"], "--model: value model"),
        (["--dealt", DEALT, "--exact", "yes"], "--exact: exact search needs"),
        (
            ["--board", "Qh Qd / 9s 9h 9d 5c / As Ks Qs", "--dealt", "2d 3d 4d"]
            + ["--opponent", "2c 3c / 4c 6c 7c 8c / 8h 9c Tc"]
            + ["--exact", "yes", "--time", "0.0001"],
            "--exact: the exact tree has",
        ),
    ],
)
def test_advise_position_errors_name_the_options_typed(
    capsys: pytest.CaptureFixture, argv: list[str], message: str
) -> None:
    """A position that does not fit together said ``observation: dealt holds As, a
    card shown twice`` or ``make_observation: seat 0 has no cards dealt``: the Python
    API's names, where the user typed --board, --dealt, --opponent, --dead, --rules
    or --model; ``--exact yes`` where it cannot be had named no option."""
    code, out, err = run(capsys, "advise", *argv)
    assert code == 2 and out == ""
    assert err.startswith(f"ofc-fast: error: {message}"), err
    assert "observation" not in err and "\n" not in err.rstrip("\n")


def test_advise_model_short_of_a_net_names_model(
    capsys: pytest.CaptureFixture, tmp_path: Path
) -> None:
    """A --model file with no net for a board the search values by it said ``value
    model only5... has no net for boards of 7 cards``: the one model error of advise
    that named no option (a missing file says ``--model: value model ...``)."""
    path = only5_model(tmp_path)
    code, out, err = run(
        capsys,
        "advise",
        "--dealt",
        "As Kd Qc Jd Th",
        "--model",
        str(path),
        "--samples",
        "4",
    )
    assert code == 2 and out == ""
    assert err.startswith("ofc-fast: error: --model: value model "), err
    assert "has no net for boards of 7 cards" in err and err.count("--model:") == 1, err


@pytest.mark.parametrize("board", ["-/-/-", "-|-|-", "-/9s 9h/As Ks Qs"])
def test_advise_board_written_with_dashes_alone(
    capsys: pytest.CaptureFixture, board: str
) -> None:
    """``advise --board "-/-/-"`` (empty rows written ``-``, as docs/cli.md shows,
    without spaces) was refused, ``argument --board: expected one argument``:
    argparse took the word for an option; it is the board ``"- / - / -"``."""
    spaced = " / ".join(board.replace("|", "/").split("/"))
    dealt = "2c 5d Th" if "9s" in board else "As Kd 9c 8d 4s"
    common = ["--dealt", dealt, "--samples", "4", "--seed", "1", "--json"]
    code, out, err = run(capsys, "advise", f"--board={spaced}", *common)
    assert code == 0, err
    assert run(capsys, "advise", "--board", board, *common) == (0, out, "")


def only5_model(folder: Path) -> Path:
    """A PINEAPPLE heads-up model file with a net for boards of 5 cards only."""
    import numpy as np

    from ofc_fast.learned import FEATURES, write_model

    path = folder / "only5.ofcvm"
    zero_net = [(np.zeros((1, FEATURES)), np.zeros(1))]
    write_model(str(path), [(5, zero_net)], ofc.rules.PINEAPPLE, 2)
    return path


@pytest.mark.parametrize(
    "bot, command",
    [("value", ["play"]), ("search", ["play"]), ("value", ["selfplay", "--out", "d"])],
)
def test_play_bots_model_short_of_a_net_names_bots(
    capsys: pytest.CaptureFixture,
    monkeypatch: pytest.MonkeyPatch,
    tmp_path: Path,
    bot: str,
    command: list[str],
) -> None:
    """``play --bots value@only5.ofcvm`` (or ``selfplay``) said ``ofc-fast: error:
    value bot: value model ... has no net for boards of 7 cards`` at its first
    decision, naming no option (a model that ships for no such table says ``--bots:
    value bot: ...``)."""
    monkeypatch.chdir(tmp_path)
    spec = f"{bot}@{only5_model(tmp_path)}"
    argv = [*command, "--players", "2", "--hands", "1", "--bots", spec, "--quiet"]
    code, _, err = run(capsys, *argv)
    assert code == 2
    assert err.startswith(f"ofc-fast: error: --bots: {bot} bot: value model "), err
    assert "has no net for boards of" in err and err.count("\n") == 1, err


@pytest.mark.parametrize(
    "extra, option",
    [
        (["--samples", "300"], "--samples"),
        (["--model", "auto"], "--model"),
        (["--seed", "5"], "--seed"),  # (the exact values draw nothing at random)
    ],
)
def test_advise_refuses_sampling_options_with_exact_yes(
    capsys: pytest.CaptureFixture, extra: list[str], option: str
) -> None:
    """``advise --exact yes --samples 300`` (or ``--model auto``, or ``--seed 5``)
    printed the exact values, 0 samples, no value model: the option ignored, silently;
    then its error said "an exact search (exact True) ... let exact be 'auto'", the
    Python API's values, where the user typed ``--exact yes``."""
    position = ["--board", "Qh Qd / 9s 9h 9d 5c 5d / As Ks Qs Js", "--dealt", "2d 3d 4d"]
    position += ["--opponent", "2c 3c / 4c 6c 7c 8c 2h / 8h 9c Tc Jc"]
    code, out, err = run(capsys, "advise", *position, "--exact", "yes", *extra)
    assert code == 2 and out == ""
    said = err.removeprefix(f"ofc-fast: error: {option}: ")  # (the search's rule)
    # in the options as typed, not the Python values (``exact True``, ``'auto'``)
    assert said != err and said.startswith("an exact search (--exact yes)"), err
    assert f"leave {option} out, or use --exact auto" in said, err
    assert "True" not in err and "'auto'" not in err and " exact be" not in err, err
    assert len(err.splitlines()) == 1
    code, out, _ = run(capsys, "advise", *position, "--exact", "auto", *extra, "--json")
    assert code == 0 and json.loads(out)


@pytest.mark.parametrize(
    "command",
    [
        ["play", "--hands", "2"],
        ["arena", "--bot", "random", "--bot", "random", "--hands", "2"],
    ],
)
def test_json_and_history_in_one_file_are_refused(
    capsys: pytest.CaptureFixture, tmp_path: Path, command: list[str]
) -> None:
    """``ofc-fast play --json s.json --history s.json`` (or ``arena``) wrote the deals,
    then the JSON over them: the history lost, exit status 0."""
    path = tmp_path / "s.json"
    other = f"{tmp_path}/./s.json"  # the same file, written otherwise
    code, out, err = run(
        capsys, *command, "--quiet", "--json", str(path), "--history", other
    )
    assert code == 2 and out == "" and not path.exists()
    assert err.startswith("ofc-fast: error: --history: ") and "--json" in err, err
    assert len(err.splitlines()) == 1


@pytest.mark.parametrize("history", ["h.jsonl", "h.json"])
def test_parallel_play_streams_its_deals(
    capsys: pytest.CaptureFixture,
    monkeypatch: pytest.MonkeyPatch,
    tmp_path: Path,
    history: str,
) -> None:
    """``play --workers N --json --history`` kept every deal's outcome and history
    line in memory (``run.outcomes``, ``run.lines``) until the run ended: memory
    grew with ``--hands``, where one process writes each deal as it ends."""
    import ofc_fast.parallel as parallel

    runs: list[object] = []
    real = parallel.ParallelRun.__init__

    def kept(self: object, *args: object, **kwargs: object) -> None:
        real(self, *args, **kwargs)  # type: ignore[arg-type]
        runs.append(self)

    monkeypatch.setattr(parallel.ParallelRun, "__init__", kept)
    hands = 23
    out_json, hist = tmp_path / "out.json", tmp_path / history
    argv = ["play", "--hands", str(hands), "--seed", "5", "--bots", "random"]
    argv += ["--workers", "1", "--chunk-size", "4", "--independent"]
    code, _, _ = run(capsys, *argv, "--json", str(out_json), "--history", str(hist))
    assert code == 0 and runs
    assert all(not r.outcomes and not r.lines for r in runs)  # type: ignore[attr-defined]
    doc = json.loads(out_json.read_text(encoding="utf-8"))
    assert [d["deal"] for d in doc["deals"]] == list(range(1, hands + 1))
    assert doc["decisions"] > 0
    text = hist.read_text(encoding="utf-8")
    if history.endswith(".jsonl"):
        assert [json.loads(x)["hand_no"] for x in text.splitlines()] == list(range(hands))
    else:
        assert len(json.loads(text)["deals"]) == hands


def _fail_before_any_deal(
    monkeypatch: pytest.MonkeyPatch, no_module: Any, parallel: bool
) -> list[str]:
    """The options of a ``play`` that fails before its first deal: a parallel run
    without Ray (``--ray auto``), one process whose first deal raises."""
    if parallel:
        no_module("ray")
        return ["--ray", "auto"]

    def fail(*args: object, **kwargs: object) -> None:
        raise ofc.GameError("the bot failed")

    monkeypatch.setattr(ofc.Match, "next_game", fail)
    return []


@pytest.mark.parametrize("parallel", [False, True])
@pytest.mark.parametrize("name", ["keep.json", "keep.jsonl"])
def test_a_play_that_fails_before_any_deal_leaves_the_history_file(
    capsys: pytest.CaptureFixture,
    monkeypatch: pytest.MonkeyPatch,
    no_module: Any,
    tmp_path: Path,
    parallel: bool,
    name: str,
) -> None:
    """``play --ray auto --history keep.json`` without Ray (exit 2) replaced the
    user's keep.json with an empty history: it is written whole, at the end."""
    keep = tmp_path / name
    keep.write_text('{"precious": true}\n', encoding="utf-8")
    options = _fail_before_any_deal(monkeypatch, no_module, parallel)
    argv = ["play", "--hands", "4", "--quiet", *options, "--history", str(keep)]
    code, out, err = run(capsys, *argv)
    assert code == 2 and out == "" and err.startswith("ofc-fast: error: "), err
    assert keep.read_text(encoding="utf-8") == '{"precious": true}\n'
    assert os.listdir(tmp_path) == [name]  # (no temporary file left)


@pytest.mark.parametrize("parallel", [False, True])
def test_a_play_that_fails_leaves_no_temporary_file_open(
    capsys: pytest.CaptureFixture,
    monkeypatch: pytest.MonkeyPatch,
    no_module: Any,
    tmp_path: Path,
    parallel: bool,
) -> None:
    """The temporary files of ``play --json PATH --history PATH`` (the deals, the
    histories) were closed only by a run that ended: one that raised left them open
    (a ResourceWarning)."""
    import gc
    import warnings

    options = _fail_before_any_deal(monkeypatch, no_module, parallel)
    argv = ["play", "--hands", "4", "--quiet", *options]
    argv += ["--json", str(tmp_path / "o.json"), "--history", str(tmp_path / "h.json")]
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always", ResourceWarning)
        code, _, _ = run(capsys, *argv)
        gc.collect()
    assert code == 2
    assert not [w for w in caught if issubclass(w.category, ResourceWarning)]
    assert os.listdir(tmp_path) == []


@pytest.mark.parametrize("name", ["h.json", "h.jsonl"])
def test_a_play_that_fails_after_two_deals_writes_their_history(
    capsys: pytest.CaptureFixture,
    monkeypatch: pytest.MonkeyPatch,
    tmp_path: Path,
    name: str,
) -> None:
    """``play --history`` is written whole at the end (docs/cli.md): a match whose
    third deal raises still writes the two deals it played."""
    real = ofc.Match.next_game  # (each deal of `play` begins with it)
    calls: list[int] = []

    def play(self: ofc.Match, *args: Any, **kwargs: Any) -> Any:
        calls.append(1)
        if len(calls) == 3:
            raise ofc.GameError("the bot failed")
        return real(self, *args, **kwargs)

    monkeypatch.setattr(ofc.Match, "next_game", play)
    history = tmp_path / name
    code, _, err = run(capsys, "play", "--hands", "5", "--quiet", "--history", str(history))
    assert code == 2 and err == "ofc-fast: error: the bot failed\n"
    text = history.read_text(encoding="utf-8")
    if name.endswith(".jsonl"):
        assert [json.loads(x)["hand_no"] for x in text.splitlines()] == [0, 1]
    else:
        assert len(json.loads(text)["deals"]) == 2
    assert os.listdir(tmp_path) == [name]


def test_advise_stopped_exact_search_advises_the_options(
    capsys: pytest.CaptureFixture, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Regression: ``ofc-fast advise --exact yes --time T`` stopped at its budget told
    the user advise's Python words ("give a larger one, or none to search to the
    end", "exact True"); it now names the options: a larger ``--time`` or none,
    ``--exact yes`` / ``auto``."""
    from ofc_fast.search import _advise

    monkeypatch.setattr(_advise, "_EXACT_NODES_PER_SECOND_FAST", 10**12)  # admitted
    code, out, err = run(
        capsys,
        "advise",
        "--rules",
        "ofc",
        "--board",
        "8s 6h / Qc Kc As 2s / Qh 5c 6s Qs Kh",
        "--dealt",
        "Ac",
        "--opponent",
        "4s Ah / 4c Td 5s 7c 9d / 2h 9c 7s 3d",
        "--opponent",
        "2c Th Kd / Tc Jh 7h / 2d 6d Ks 9h 8h",
        "--exact",
        "yes",
        "--time",
        "0.05",
    )
    assert code == 2 and out == "" and "stopped before its end" in err, err
    assert "--time" in err and "none to search" not in err and "exact True" not in err


@pytest.mark.parametrize(
    ("extra", "head"),
    [
        ([], "PINEAPPLE: 1 deal, 2 players, seed 3"),
        (
            ["--workers", "1"],
            "PINEAPPLE: 1 deal (1 deal and the Fantasyland deals it earned)",
        ),
    ],
)
def test_a_one_deal_match_says_one_deal(
    capsys: pytest.CaptureFixture, extra: list[str], head: str
) -> None:
    """Regression: ``ofc-fast play --hands 1`` headed its summary "PINEAPPLE: 1 deals",
    and with ``--workers`` "1 deals (1 deals and the Fantasyland deals they earned)";
    the counts go through ``errors.counted`` as the other commands' do."""
    argv = ["play", "--hands", "1", "--players", "2", "--seed", "3", "--bots", "random"]
    code, out, _ = run(capsys, *argv, *extra)
    assert code == 0
    assert head in out and "1 deals" not in out
