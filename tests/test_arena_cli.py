"""The arena's command line as a user meets it: the one-line summary, ``--json``, help
texts, ``replay``'s rows, duplicate match counts, the report written through a rename,
and a match that keeps no deal in memory."""

from __future__ import annotations

import argparse
import errno
import gc
import io
import json
import os
import stat
import subprocess
import sys
import threading
from pathlib import Path
from typing import Any

import pytest

from ofc_fast.arena import Arena, parse_bot_spec
from ofc_fast.game import Game

TINY = Path(__file__).parent / "arena_clients" / "tiny_client.py"
RANKS = "23456789TJQKA"
SUITS = "cdhs"


def cli(*args: str, timeout: int = 120) -> subprocess.CompletedProcess[str]:
    from scripts import package_env

    out = subprocess.run(
        [sys.executable, "-m", "ofc_fast", *args],
        capture_output=True,
        text=True,
        timeout=timeout,
        env=package_env(),  # (the package under test, not whichever is installed)
    )
    assert out.returncode == 0, out.stderr[-2000:]
    return out


def test_summary_says_a_bot_was_killed_and_its_substitutions() -> None:
    """A bot that hangs at its 4th decision is killed after two missed deadlines; the
    summary said only "faults 2" (the JSON: 12 substituted)."""
    out = cli(
        "arena",
        "--bot",
        "heuristic",
        "--bot",
        f"tiny@cmd:{sys.executable} {TINY} - hang",
        "--hands",
        "3",
        "--seed",
        "21",
        "--timeout-ms",
        "1000",
    )
    (line,) = [x for x in out.stdout.splitlines() if x.strip().startswith("tiny")]
    assert "faults 2 (timeout 2)" in line
    assert "killed: 2 missed deadlines in a row" in line
    assert "12 decisions substituted" in line
    (other,) = [x for x in out.stdout.splitlines() if x.strip().startswith("heuristic")]
    assert "substituted" not in other and "killed" not in other


def test_a_long_seat_name_keeps_the_standings_columns_aligned() -> None:
    """Regression: a seat name longer than 20 characters (``value@/some/long/path/
    model.ofcvm``, ``NAME@cmd:...``) pushed its row's points, mean and fouls to the
    right of every other row's; the name column is now as wide as the longest name."""
    long_name = "a_seat_name_of_forty_characters_and_more"
    out = cli(
        "arena",
        "--bot",
        "random",
        "--bot",
        f"{long_name}@cmd:{sys.executable} -m ofc_fast bot random",
        "--hands",
        "2",
        "--seed",
        "1",
    )
    rows = [x for x in out.stdout.splitlines() if " pts " in x]
    assert len(rows) == 2 and rows[1].lstrip().startswith(long_name), out.stdout
    for column in (" pts ", "/hand", " fouls "):
        assert rows[0].index(column) == rows[1].index(column), out.stdout
    assert rows[1].startswith(f"  {long_name} "), out.stdout  # one space, not cut


@pytest.mark.parametrize(
    "names",
    [
        ["北京北京北京北京北京北京", "random"],  # wide: two columns each
        ["e\u0301" * 22, "random"],  # combining accents: none
        ["".join(chr(0xFF41 + ord(c) - 97) for c in "heuristic"), "random"],  # fullwidth
        ["heuristic", "random"],
    ],
    ids=["wide", "combining", "fullwidth", "ascii"],
)
@pytest.mark.parametrize("points", [5, 1_234_567, -98_765_432])
def test_the_standings_columns_line_up_as_a_terminal_shows_them(
    capsys: pytest.CaptureFixture[str], names: list[str], points: int
) -> None:
    """Regression: ``arena --bot 北京北京@random`` (a name of wide East Asian
    characters, or one with combining accents) sized the name column by code points,
    so its row's points and mean stood further right (or left) on the terminal than
    the other rows'; points of 1,000,000 or more (or a long negative) widened their
    row past the others.  Every column is as wide as its widest cell as a terminal
    shows it."""
    from ofc_fast.arena.cli import _print_standings
    from ofc_fast.cli.options import display_width

    bots = [
        {
            "name": name,
            "points": points if i == 0 else -5,
            "points_per_hand_mean": (points if i == 0 else -5) / 3,
            "points_per_hand_ci95": 12.5,
            "fouls": 1,
            "fantasylands": 0,
            "faults": 0,
        }
        for i, name in enumerate(names)
    ]
    report = {"game_id": "ofc-pineapple", "hands": 3, "seed": 1, "forfeited_by": None}
    _print_standings(report | {"bots": bots})
    rows = capsys.readouterr().out.splitlines()[1:]
    assert len(rows) == 2 and rows[0].startswith(f"  {names[0]} "), rows
    for column in (" pts ", "/hand", " fouls ", " FL ", " faults "):
        at = {display_width(row[: row.index(column)]) for row in rows}
        assert len(at) == 1, (column, rows)


def test_json_alone_prints_only_the_report() -> None:
    out = cli("arena", "--bot", "random", "--bot", "random", "--hands", "2", "--json")
    report = json.loads(out.stdout)
    assert report["hands"] == 2 and report["family"] == "ofc"


def _subparsers() -> dict[str, argparse.ArgumentParser]:
    from ofc_fast.cli import build_parser

    parser = build_parser()
    (sub,) = [a for a in parser._actions if isinstance(a, argparse._SubParsersAction)]
    return dict(sub.choices)


def test_every_arena_option_has_help_and_commands_a_description() -> None:
    subs = _subparsers()
    for name in ("arena", "bot", "replay", "report"):
        p = subs[name]
        assert p.description, f"{name} has no description"
        for action in p._actions:
            assert action.help, f"{name} {action.option_strings or action.dest}: no help"


def test_replay_prints_rows_front_middle_back_high_to_low(tmp_path: Path) -> None:
    hist = tmp_path / "h.jsonl"
    cli(
        "arena",
        "--bot",
        "random",
        "--bot",
        "heuristic",
        "--hands",
        "4",
        "--history",
        str(hist),
        "--quiet",
    )
    out = cli("replay", str(hist))
    boards = [json.loads(x)["history"] for x in hist.read_text().splitlines() if x.strip()]
    seat_lines = [x for x in out.stdout.splitlines() if x.startswith("  seat ")]
    assert len(seat_lines) == 2 * len(boards)
    key = {f"{r}{s}": RANKS.index(r) * 4 + SUITS.index(s) for r in RANKS for s in SUITS}
    unsorted_rows = 0
    for i, line in enumerate(seat_lines):
        h = boards[i // 2]
        game = Game.replay(h)
        rows = line.split(": ", 1)[1].replace(" FOUL", "").split(" / ")
        want = [sorted(r) for r in game.boards[i % 2].rows]
        got = [r.split() for r in rows]
        assert [sorted(key[c] for c in r) for r in got] == want  # front, middle, back
        for r in got:
            assert [key[c] for c in r] == sorted((key[c] for c in r), reverse=True)
        unsorted_rows += sum(
            list(r) != sorted(r, reverse=True) for r in game.boards[i % 2].rows
        )
    assert unsorted_rows > 0  # placement order differs from the printed order


def test_duplicate_summary_counts_hands_and_games() -> None:
    out = cli(
        "arena", "--bot", "random", "--bot", "heuristic", "--hands", "3", "--duplicate"
    )
    first = out.stdout.splitlines()[0]
    assert first.startswith("ofc-pineapple: 3 hands (duplicate: 6 games, 2 seatings)")


@pytest.mark.skipif(
    not hasattr(os, "link"),
    reason="needs hard links (os.link): run on Linux, macOS or Windows NTFS",
)
def test_json_report_goes_through_a_rename(tmp_path: Path) -> None:
    """The report replaces the file (a new inode), never rewrites it in place: a
    hard link to the old file keeps the old text."""
    rep, old = tmp_path / "r.json", tmp_path / "old.json"
    rep.write_text("previous report\n")
    os.link(rep, old)
    args = ["arena", "--bot", "random", "--bot", "random", "--hands", "2", "--quiet"]
    cli(*args, "--json", str(rep))
    assert old.read_text() == "previous report\n"
    umask = os.umask(0)
    os.umask(umask)
    assert rep.stat().st_mode & 0o777 == 0o666 & ~umask
    assert json.loads(rep.read_text())["hands"] == 2
    assert sorted(p.name for p in tmp_path.iterdir()) == ["old.json", "r.json"]


def test_the_arena_keeps_no_game_per_hand() -> None:
    """Before: every hand's Game stayed in ``arena.deals`` (about 9.6 KB a hand)."""
    seen: list[int] = []

    def on_deal(d: Any) -> None:
        seen.append(d.hand_no)

    arena = Arena(
        "ofc-pineapple",
        [parse_bot_spec("random"), parse_bot_spec("random")],
        20,
        seed=4,
        duplicate=True,
        on_deal=on_deal,
    )
    report = arena.run()
    gc.collect()
    games = [o for o in gc.get_objects() if isinstance(o, Game)]
    assert len(games) <= 1 and seen == list(range(40))
    assert report["hands"] == 40 and report["duplicate"]["decks"] == 20


@pytest.mark.parametrize(
    "bad",
    [
        ["--bot", "nosuch", "--bot", "random"],
        ["--bot", "random", "--bot", "random", "--hands", "0"],
        ["--bot", "random", "--bot", "random", "--seed", "-1"],
        ["--bot", "random"],
        ["--bot", "random", "--bot", "random", "--workers", "0"],
    ],
)
def test_a_refused_match_leaves_an_existing_history_alone(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], bad: list[str]
) -> None:
    """A match the arena refuses (a typo in a bot's name, a bad count) wrote nothing,
    but ``--history`` was opened first, so the previous match's history was emptied."""
    from ofc_fast.cli import main

    hist = tmp_path / "deals.jsonl"
    hist.write_text('{"previous": "match"}\n')
    assert main(["arena", *bad, "--history", str(hist), "--quiet"]) == 2
    assert "ofc-fast: error: " in capsys.readouterr().err
    assert hist.read_text() == '{"previous": "match"}\n'


@pytest.mark.parametrize("option", ["--json", "--history"])
def test_an_output_in_a_missing_folder_is_refused_before_the_match(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], option: str
) -> None:
    """``--json`` in a folder that does not exist failed only after the whole match,
    with the temporary file's name (``.../.arena-x1y2.json.tmp``) in the message."""
    from ofc_fast.cli import main

    missing = tmp_path / "no-such-folder" / "out.json"
    args = ["arena", "--bot", "random", "--bot", "random", "--hands", "2", "--quiet"]
    args += ["--progress-json", "--progress-every", "1"]  # a line per hand played
    assert main([*args, option, str(missing)]) == 2
    (line,) = capsys.readouterr().err.splitlines()  # no progress line: nothing played
    assert line.startswith(f"ofc-fast: error: {option}: ") and str(missing) in line
    assert ".tmp" not in line


@pytest.mark.parametrize("seed", ["-1", str(2**64)])
def test_bot_refuses_a_seed_out_of_range_in_one_line(
    capsys: pytest.CaptureFixture[str], seed: str
) -> None:
    """``ofc-fast bot heuristic --seed -1`` ended in numpy's ValueError traceback
    (``random`` took the seed without a word); every other ``--seed`` is 0..2**64-1."""
    from ofc_fast.cli import main

    for name in ("heuristic", "random"):
        assert main(["bot", name, "--seed", seed]) == 2
        err = capsys.readouterr().err
        assert err == f"ofc-fast: error: --seed: must be 0..2**64-1, got {seed}\n"


@pytest.mark.parametrize("port", ["-1", "0", "70000"])
def test_bot_refuses_a_port_that_is_none(
    capsys: pytest.CaptureFixture[str], port: str
) -> None:
    """``ofc-fast bot random --connect 70000`` (or -1) said "cannot connect ...:
    Connection refused" (or "Servname not supported"), as if no arena listened."""
    from ofc_fast.cli import main

    assert main(["bot", "random", "--connect", port]) == 2
    err = capsys.readouterr().err
    assert err.startswith("ofc-fast: error: --connect: must be ") and port in err
    assert "cannot connect" not in err


def test_rules_json_files_in_the_arena_and_the_bot(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    """docs/cli.md: ``--rules`` takes a preset, a game id or a rules JSON file in
    every subcommand; ``arena`` and ``bot`` looked a file's path up as a preset name
    (``unknown rule set 'pineapple.json'``).  A file holding a preset's rules plays
    that preset; other rules cannot be named on the wire, and the error says so."""
    from ofc_fast.arena import client
    from ofc_fast.cli import main
    from ofc_fast.rules import PRESETS

    preset, custom = tmp_path / "pineapple.json", tmp_path / "custom.json"
    preset.write_text(PRESETS["PINEAPPLE"].to_json())
    custom.write_text(PRESETS["PINEAPPLE"].replace(sweep_bonus=6).to_json())
    args = ["arena", "--bot", "random", "--bot", "random", "--hands", "2", "--json"]
    assert main([*args, "--rules", str(preset)]) == 0
    report = json.loads(capsys.readouterr().out)
    assert (report["game_id"], report["rules"]) == ("ofc-pineapple", "PINEAPPLE")
    for cmd in (args, ["bot", "random"]):
        assert main([*cmd, "--rules", str(custom)]) == 2
        (line,) = capsys.readouterr().err.splitlines()
        assert "are not a preset" in line and "unknown rule set" not in line
    served: list[Any] = []  # the bot's client, instead of a game on stdin/stdout
    monkeypatch.setattr(client, "run_stdio", served.append)
    assert main(["bot", "heuristic", "--rules", str(preset)]) == 0
    assert served[0].bot.rules == PRESETS["PINEAPPLE"]


def test_a_preset_name_wins_over_a_file_of_that_name(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    """``--rules ofc`` read a file named ``ofc`` in the current folder, where there was
    one, instead of the preset (``--rules ofc --json ofc`` broke the next run); a
    path (a separator, or ``.json``) still names the file, and a file whose name is
    no preset is still read (docs/cli.md)."""
    from ofc_fast.cli import load_rules, main
    from ofc_fast.rules import PRESETS

    monkeypatch.chdir(tmp_path)
    args = ["arena", "--bot", "random", "--bot", "random", "--hands", "1"]
    assert main([*args, "--rules", "ofc", "--json", "ofc"]) == 0
    assert json.loads((tmp_path / "ofc").read_text())["rules"] == "OFC"
    capsys.readouterr()
    assert main([*args, "--rules", "ofc", "--json"]) == 0
    assert json.loads(capsys.readouterr().out)["rules"] == "OFC"
    (tmp_path / "ofc").write_text(PRESETS["PINEAPPLE"].to_json())
    (tmp_path / "thursday").write_text(PRESETS["PINEAPPLE"].to_json())
    assert load_rules("ofc") == PRESETS["OFC"]
    assert load_rules("./ofc") == load_rules("thursday") == PRESETS["PINEAPPLE"]


def test_a_rules_file_with_a_byte_order_mark_is_read(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    """A rules file saved with a UTF-8 byte-order mark (as some Windows editors
    save it) was refused: ``rules JSON: Unexpected UTF-8 BOM``."""
    from ofc_fast.arena import client
    from ofc_fast.cli import main
    from ofc_fast.rules import PRESETS

    path = tmp_path / "pineapple.json"
    path.write_bytes(b"\xef\xbb\xbf" + PRESETS["PINEAPPLE"].to_json().encode())
    args = ["arena", "--bot", "random", "--bot", "random", "--hands", "1", "--json"]
    assert main([*args, "--rules", str(path)]) == 0, capsys.readouterr().err
    assert json.loads(capsys.readouterr().out)["rules"] == "PINEAPPLE"
    served: list[Any] = []
    monkeypatch.setattr(client, "run_stdio", served.append)
    assert main(["bot", "heuristic", "--rules", str(path)]) == 0
    assert served[0].bot.rules == PRESETS["PINEAPPLE"]


@pytest.mark.parametrize(
    "command", [["arena", "--bot", "random", "--bot", "random"], ["bot", "random"]]
)
def test_an_unknown_rules_name_is_an_error_naming_rules(
    capsys: pytest.CaptureFixture[str], command: list[str]
) -> None:
    """``ofc-fast arena --rules nosuch`` said ``unknown rule set 'nosuch'``, naming no
    option (docs/cli.md: errors name the option at fault, as every other
    subcommand's ``--rules`` does)."""
    from ofc_fast.cli import main

    assert main([*command, "--rules", "nosuch"]) == 2
    (line,) = capsys.readouterr().err.splitlines()
    assert line.startswith("ofc-fast: error: --rules: unknown rule set 'nosuch'")


@pytest.mark.parametrize("ms", [24 * 3600 * 1000 + 1, 10**14])
def test_a_deadline_longer_than_the_protocol_allows_is_refused(
    capsys: pytest.CaptureFixture[str], ms: int
) -> None:
    """The wire protocol's deadlines are 1..86,400,000 ms (a day; the bot side refuses
    a hello over it); the arena took any positive ``--timeout-ms``: every ofc-fast bot
    then quit at the hello, and 10**14 ended in an OverflowError traceback (a wait
    longer than time_t)."""
    from ofc_fast.cli import main
    from ofc_fast.errors import ArenaError

    specs = [parse_bot_spec("random"), parse_bot_spec("random")]
    with pytest.raises(ArenaError, match="86400000"):
        Arena("ofc-pineapple", specs, 1, timeout_ms=ms)
    Arena("ofc-pineapple", specs, 1, timeout_ms=24 * 3600 * 1000)  # a day: taken
    args = ["arena", "--bot", "random", "--bot", "random", "--hands", "1"]
    assert main([*args, "--timeout-ms", str(ms)]) == 2
    (line,) = capsys.readouterr().err.splitlines()
    assert line.startswith("ofc-fast: error: ") and "86400000" in line


def test_a_long_match_holds_no_schedule_in_memory() -> None:
    """README: a match keeps no hand, "per bot only 8 bytes per hand and per decision
    stay for the report"; the arena built its whole schedule first, a list of a tuple
    per hand (about 80 bytes a hand: 161 MB for a duplicate match of a million
    decks).  A match of a million hands stopped after its first: little memory."""
    import tracemalloc

    class Stop(Exception):
        pass

    def stop(deal: Any) -> None:
        raise Stop

    arena = Arena(
        "ofc-pineapple",
        [parse_bot_spec("random"), parse_bot_spec("random")],
        10**6,
        on_deal=stop,
    )
    tracemalloc.start()
    try:
        with pytest.raises(Stop):
            arena.run()
        peak = tracemalloc.get_traced_memory()[1]
    finally:
        tracemalloc.stop()
    assert arena.hands_done == 1 and peak < 10 * 2**20, peak


@pytest.mark.parametrize("where", ["folder", "missing"])
def test_report_output_that_cannot_be_written_is_named(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], where: str
) -> None:
    """``ofc-fast report ... -o FOLDER`` said ``[Errno 21] Is a directory:
    '/.tmp.4215.d186afad.tmp' -> '/tmp'`` (its temporary file), and ``-o`` in a
    missing folder named the deals file (``x.deals.jsonl``), not the page."""
    from ofc_fast.cli import main

    rep, hist = tmp_path / "r.json", tmp_path / "h.jsonl"
    args = ["arena", "--bot", "random", "--bot", "random", "--hands", "1", "--quiet"]
    assert main([*args, "--json", str(rep), "--history", str(hist)]) == 0
    out = tmp_path if where == "folder" else tmp_path / "nowhere" / "x.html"
    before = sorted(p.name for p in tmp_path.iterdir())
    assert main(["report", str(rep), str(hist), "-o", str(out)]) == 2
    (line,) = capsys.readouterr().err.splitlines()
    assert line.startswith(f"ofc-fast: error: --output: cannot write {str(out)!r}")
    assert sorted(p.name for p in tmp_path.iterdir()) == before


@pytest.mark.skipif(sys.platform == "win32", reason="run on POSIX (a FIFO)")
@pytest.mark.parametrize("command", ["arena --json", "report -o"])
def test_an_output_that_is_no_regular_file_is_written_not_replaced(
    tmp_path: Path, command: str
) -> None:
    """``ofc-fast arena --json /dev/null`` and ``ofc-fast report ... -o /dev/null``
    renamed a temporary file over the path: run as root, /dev/null (or /dev/stdout,
    /dev/full) became a regular file holding the report.  A device or a FIFO is
    written to as it is."""
    from ofc_fast.cli import main

    rep, hist, fifo = tmp_path / "r.json", tmp_path / "h.jsonl", tmp_path / "out"
    args = ["arena", "--bot", "random", "--bot", "random", "--hands", "1", "--quiet"]
    assert main([*args, "--json", str(rep), "--history", str(hist)]) == 0
    os.mkfifo(fifo)
    got: list[str] = []
    reader = threading.Thread(target=lambda: got.append(fifo.read_text()), daemon=True)
    reader.start()
    if command == "arena --json":
        assert main([*args, "--json", str(fifo)]) == 0
    else:
        assert main(["report", str(rep), str(hist), "-o", str(fifo)]) == 0
    reader.join(30)
    assert stat.S_ISFIFO(fifo.stat().st_mode)  # still the FIFO
    assert got and got[0].strip()
    if command == "arena --json":
        assert json.loads(got[0])["hands"] == 1
    else:
        assert got[0].lstrip().lower().startswith("<!doctype html")
    assert sorted(p.name for p in tmp_path.iterdir()) == ["h.jsonl", "out", "r.json"]


def test_replay_of_a_whole_json_history_says_how_to_write_lines(
    capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    """``ofc-fast replay deals.json`` of ``ofc-fast play --history deals.json`` (one
    JSON document, which the replay help offered as input) said only "not an
    ofc-fast/hand-history line"."""
    from ofc_fast.cli import main

    play = ["play", "--hands", "2", "--bots", "random", "--quiet", "--history"]
    path = tmp_path / "deals.json"
    assert main([*play, str(path)]) == 0
    assert main(["replay", str(path)]) == 2
    err = capsys.readouterr().err
    assert err.startswith(
        f"ofc-fast: error: FILE: {path}, line 1: not an ofc-fast/hand-history"
    )
    assert "ending in .jsonl" in err
    lines = tmp_path / "deals.jsonl"
    assert main([*play, str(lines)]) == 0
    assert main(["replay", str(lines)]) == 0


def test_replay_of_an_empty_history_says_so(
    capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    """``ofc-fast replay empty.jsonl`` (the history of a match stopped before its
    first hand) printed nothing at all, as if it had not run."""
    from ofc_fast.cli import main

    path = tmp_path / "h.jsonl"
    path.write_text("\n", encoding="utf-8")  # (blank lines are no deals)
    assert main(["replay", str(path)]) == 0
    assert capsys.readouterr() == (f"no deals in {path}\n", "")


@pytest.mark.parametrize(
    "argv, option",
    [
        (["play", "--hands", "1", "--bots", "random", "--history", "-"], "--history"),
        (["arena", "--bot", "random", "--bot", "random", "--history", "-"], "--history"),
        (["report", "report.json", "deals.jsonl", "-o", "-"], "--output"),
    ],
)
def test_a_dash_where_no_standard_output_is_written_is_refused(
    capsys: pytest.CaptureFixture[str],
    tmp_path: Path,
    monkeypatch: pytest.MonkeyPatch,
    argv: list[str],
    option: str,
) -> None:
    """``--history -`` and ``report -o -`` (standard output, as ``--json -``) wrote a
    file named ``-`` in the current folder, the report over the history."""
    from ofc_fast.cli import main

    monkeypatch.chdir(tmp_path)
    assert main([*argv, "--quiet"] if argv[0] != "report" else argv) == 2
    err = capsys.readouterr().err
    assert err.startswith(f"ofc-fast: error: {option}: '-' (standard output) is not ")
    assert not (tmp_path / "-").exists()


def test_intervals_of_one_and_two_values_and_an_interrupted_json(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    """docs/arena.md: an interval needs two values (null for one), and Ctrl-C writes
    the report of the hands played, whole, marked interrupted.  Two values: Student's t with
    one degree of freedom is the Cauchy law, whose 0.975 quantile is tan(0.475 pi)."""
    import math

    from ofc_fast.arena import _host
    from ofc_fast.cli import main

    out = tmp_path / "r.json"
    args = ["arena", "--bot", "heuristic", "--bot", "random", "--hands", "1", "--quiet"]
    assert main([*args, "--seed", "3", "--json", str(out)]) == 0
    one = json.loads(out.read_text())
    assert [b["points_per_hand_ci95"] for b in one["bots"]] == [None, None]
    hist = tmp_path / "h.jsonl"
    dup = [*args, "--duplicate", "--seed", "3", "--json", str(out), "--history", str(hist)]
    assert main(dup) == 0
    two = json.loads(out.read_text())
    assert two["duplicate"]["pairs"][0]["difference_per_deck_ci95"] is None  # one deck
    hands = [json.loads(x) for x in hist.read_text().splitlines()]
    for b in two["bots"]:
        pts = [h["points"][h["seats"].index(b["name"])] for h in hands]
        assert len(pts) == 2
        half = math.tan(0.475 * math.pi) * abs(pts[0] - pts[1]) / 2  # sd/sqrt(2)
        assert b["points_per_hand_ci95"] == pytest.approx(half, rel=1e-9)

    def interrupted(self: Any) -> Any:
        raise KeyboardInterrupt

    monkeypatch.setattr(_host.Arena, "run", interrupted)
    assert main([*args, "--json", str(out)]) == 130
    cut = json.loads(out.read_text())  # the report of the hands played, whole
    assert cut["interrupted"] is True and cut["hands"] == 0
    assert [p.name for p in tmp_path.iterdir() if p.name.startswith(".arena-")] == []
    assert "interrupted: 0 of 1" in capsys.readouterr().err


def test_a_duplicate_match_forfeited_before_its_first_deck_prints_its_standings(
    capsys: pytest.CaptureFixture[str],
) -> None:
    """A duplicate match forfeited before one deck was played through (a bot that
    exits at once, ``--fault-policy forfeit``) has no per-deck mean: printing the
    standings raised TypeError (None formatted as a number) after the report."""
    from ofc_fast.cli import main

    quit_at_once = f"cmd:{sys.executable} -c pass"
    args = ["arena", "--bot", "random", "--bot", quit_at_once, "--hands", "2"]
    assert main([*args, "--duplicate", "--fault-policy", "forfeit"]) == 0
    printed = capsys.readouterr().out
    assert "forfeited by bot-2" in printed
    assert "duplicate random - bot-2: - per deck (0 decks)" in printed


def test_standings_print_no_control_character_of_a_bot_s_name(
    capsys: pytest.CaptureFixture[str],
) -> None:
    r"""``arena --bot $'a\e[31m@random'`` printed the name's escape sequence to the
    terminal in the standings (and a name holding a newline broke its line), in the
    forfeit and in the duplicate pairs, where ``replay`` writes such a name as Python
    does (``'a\x1b[31m'``): the standings do too."""
    from ofc_fast.cli import main

    red, broken = "a\x1b[31m", "b\nc"
    quit_at_once = f"{broken}@cmd:{sys.executable} -c pass"
    args = ["arena", "--bot", f"{red}@random", "--bot", quit_at_once, "--hands", "2"]
    assert main([*args, "--duplicate", "--fault-policy", "forfeit"]) == 0
    printed = capsys.readouterr().out
    lines = printed.splitlines()
    assert len(lines) == 4 and all(line.isprintable() for line in lines), printed
    assert f"forfeited by {broken!r}" in lines[0]
    assert lines[1].startswith(f"  {red!r} ") and lines[2].startswith(f"  {broken!r} ")
    assert lines[3].startswith(f"  duplicate {red!r} - {broken!r}: "), lines[3]


@pytest.mark.parametrize("value", ["null", "  null  "])
def test_replay_refuses_a_null_line_naming_it(
    capsys: pytest.CaptureFixture[str], tmp_path: Path, value: str
) -> None:
    """A history line ``null`` was taken for a blank line: ``ofc-fast replay`` of a
    file of it printed nothing and exited 0."""
    from ofc_fast.cli import main

    path = tmp_path / "x.jsonl"
    path.write_text(f"\n{value}\n", encoding="utf-8")
    assert main(["replay", str(path)]) == 2
    (line,) = capsys.readouterr().err.splitlines()
    assert (
        line == f"ofc-fast: error: FILE: {path}, line 2: not an ofc-fast/hand-history line"
    )


def test_a_history_cut_off_by_a_killed_run_says_so(
    capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    """A history whose last line a killed run cut half-way was named "not JSON"
    without a word of why; the error says it is cut off, after ``replay`` has printed
    the whole deals before it (exit status 2)."""
    from ofc_fast.cli import main

    rep, hist, cut = tmp_path / "r.json", tmp_path / "h.jsonl", tmp_path / "c.jsonl"
    args = ["arena", "--bot", "random", "--bot", "random", "--quiet"]
    assert main([*args, "--hands", "3", "--json", str(rep), "--history", str(hist)]) == 0
    whole = hist.read_bytes().splitlines(keepends=True)
    cut.write_bytes(b"".join(whole[:2]) + whole[2][: len(whole[2]) // 2])
    capsys.readouterr()
    assert main(["replay", str(cut)]) == 2
    out, err = capsys.readouterr()
    assert [x.split(" (")[0] for x in out.splitlines() if x.startswith("hand")] == [
        "hand 0",
        "hand 1",
    ]
    assert err.startswith(f"ofc-fast: error: FILE: {cut}, line 3: cut off: "), err
    assert "no newline" in err and err.count("\n") == 1, err
    assert main(["report", str(rep), str(cut), "-o", str(tmp_path / "p.html")]) == 2
    assert f"HISTORY: {cut}, line 3: cut off: " in capsys.readouterr().err
    cut.write_bytes(b"".join(whole).rstrip(b"\n"))  # whole, only the newline missing
    assert main(["replay", str(cut)]) == 0


@pytest.mark.parametrize("deals", [0, 1])
def test_report_refuses_a_history_of_another_hand_count(
    capsys: pytest.CaptureFixture[str], tmp_path: Path, deals: int
) -> None:
    """``ofc-fast report rep.json empty.jsonl -o page.html`` wrote a page of a match
    of 2 hands with no deal (or only one of its deals) in it."""
    from ofc_fast.cli import main

    rep, hist, other = tmp_path / "r.json", tmp_path / "h.jsonl", tmp_path / "o.jsonl"
    args = ["arena", "--bot", "random", "--bot", "random", "--quiet"]
    assert main([*args, "--hands", "2", "--json", str(rep), "--history", str(hist)]) == 0
    lines = hist.read_text(encoding="utf-8").splitlines(keepends=True)
    other.write_text("".join(lines[:deals]), encoding="utf-8")
    out = tmp_path / "page.html"
    assert main(["report", str(rep), str(other), "-o", str(out)]) == 2
    (line,) = capsys.readouterr().err.splitlines()
    assert line == (
        f"ofc-fast: error: {other} is not the history of {rep}: it holds "
        f"{['0 deals', '1 deal'][deals]}, the report 2 hands"
    )
    assert sorted(p.name for p in tmp_path.iterdir()) == ["h.jsonl", "o.jsonl", "r.json"]
    assert main(["report", str(rep), str(hist), "-o", str(out)]) == 0


@pytest.mark.skipif(not os.path.isdir("/proc/self"), reason="run on Linux (/proc)")
@pytest.mark.parametrize("command", ["report", "play"])
def test_an_output_in_a_folder_that_takes_no_file_is_refused_naming_the_option(
    capsys: pytest.CaptureFixture[str], tmp_path: Path, command: str
) -> None:
    """``ofc-fast report ... -o /proc/o.html`` failed naming its deals file
    (``/proc/o.deals.jsonl``), not ``--output``; ``play --json /proc/x.json`` failed
    only after the match."""
    from ofc_fast.cli import main

    rep, hist = tmp_path / "r.json", tmp_path / "h.jsonl"
    args = ["arena", "--bot", "random", "--bot", "random", "--hands", "1", "--quiet"]
    assert main([*args, "--json", str(rep), "--history", str(hist)]) == 0
    if command == "report":
        argv, option = ["report", str(rep), str(hist), "-o", "/proc/o.html"], "--output"
    else:
        argv, option = ["play", "--hands", "1", "--json", "/proc/o.html"], "--json"
    assert main(argv) == 2
    out, err = capsys.readouterr()
    assert out == ""
    assert err == f"ofc-fast: error: {option}: cannot write '/proc/o.html': " + (
        f"{os.strerror(2)}\n"
    )


@pytest.mark.skipif(sys.platform == "win32", reason="run on POSIX (SIGINT)")
@pytest.mark.parametrize(
    ("json_out", "parallel"),
    [("file", []), ("-", []), ("file", ["--workers", "2", "--chunk-size", "2"])],
    ids=["file", "stdout", "workers-file"],
)
def test_ctrl_c_prints_the_standings_and_writes_the_report_so_far(
    tmp_path: Path, json_out: str, parallel: list[str]
) -> None:
    """``ofc-fast arena`` stopped with Ctrl-C exited 130 with no standings and no
    ``--json`` report (only the history was kept); so did ``arena --workers 2``, which
    now reports the hands of the chunks back in order."""
    import signal
    import time

    from scripts import package_env

    hist, rep = tmp_path / "h.jsonl", tmp_path / "r.json"
    argv = [sys.executable, "-m", "ofc_fast", "arena", "--bot", "random", "--bot"]
    argv += ["random", "--hands", "1000000", "--history", str(hist), *parallel]
    argv += ["--json", str(rep) if json_out == "file" else "-"]
    proc = subprocess.Popen(
        argv, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, env=package_env()
    )
    try:
        deadline = time.monotonic() + 60
        while time.monotonic() < deadline and (
            not hist.exists() or hist.read_text(encoding="utf-8").count("\n") < 3
        ):
            time.sleep(0.05)
        proc.send_signal(signal.SIGINT)
        out, err = proc.communicate(timeout=60)
    finally:
        proc.kill()
    assert proc.returncode == 130, err
    deals = [json.loads(line) for line in hist.read_text(encoding="utf-8").splitlines()]
    assert 3 <= len(deals) < 1000000, err
    report = json.loads(rep.read_text(encoding="utf-8") if json_out == "file" else out)
    assert report["interrupted"] is True and report["hands"] == len(deals)
    for bot in report["bots"]:  # the history's points, summed
        assert bot["points"] == sum(
            d["points"][d["seats"].index(bot["name"])] for d in deals
        )
    assert f"interrupted: {len(deals)} of 1000000 games played" in err
    if json_out == "file":
        assert out.startswith(f"ofc-pineapple: {len(deals)} hands, seed 0 (interrupted)")


def test_report_refuses_a_history_whose_points_are_not_the_reports(
    capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    """A report whose bot is named otherwise than in the history (or another match's
    history of as many hands) gave a page whose chart kept that bot at 0 points while
    its standings said otherwise."""
    from ofc_fast.cli import main

    rep, hist, out = tmp_path / "r.json", tmp_path / "h.jsonl", tmp_path / "page.html"
    args = ["arena", "--bot", "random", "--bot", "random", "--quiet", "--hands", "3"]
    assert main([*args, "--json", str(rep), "--history", str(hist)]) == 0
    report = json.loads(rep.read_text(encoding="utf-8"))
    points = sum(
        json.loads(x)["points"][json.loads(x)["seats"].index("random")]
        for x in hist.read_text(encoding="utf-8").splitlines()
    )
    report["bots"][0]["name"] = "renamed"
    report["bots"][0]["points"] = points + 1
    rep.write_text(json.dumps(report), encoding="utf-8")
    assert main(["report", str(rep), str(hist), "-o", str(out)]) == 2
    (line,) = capsys.readouterr().err.splitlines()
    assert line == (
        f"ofc-fast: error: {hist} is not the history of {rep}: renamed has 0 points "
        f"in it, {points + 1} in the report"
    )
    assert not out.exists()


@pytest.mark.skipif(sys.platform == "win32", reason="run on POSIX (SIGINT)")
def test_ctrl_c_while_waiting_for_a_tcp_bot_stops_at_once(tmp_path: Path) -> None:
    """Ctrl-C while the arena waited for a ``tcp:`` bot to join ended in an
    AttributeError traceback (``match-end`` sent to a seat nobody took); it now stops
    at once with the (empty) report of the match, marked interrupted."""
    import signal
    import socket
    import time

    from scripts import free_port, package_env

    port = free_port()
    rep = tmp_path / "r.json"
    argv = [sys.executable, "-m", "ofc_fast", "arena", "--bot", f"tcp:{port}"]
    argv += ["--bot", "random", "--hands", "3", "--json", str(rep)]
    proc = subprocess.Popen(
        argv, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, env=package_env()
    )
    try:
        deadline = time.monotonic() + 60
        while time.monotonic() < deadline:  # until the arena listens (a probe: no join)
            try:
                socket.create_connection(("127.0.0.1", port), timeout=1).close()
                break
            except OSError:
                time.sleep(0.05)
        t0 = time.monotonic()
        proc.send_signal(signal.SIGINT)
        out, err = proc.communicate(timeout=60)
    finally:
        proc.kill()
    assert proc.returncode == 130, err
    assert time.monotonic() - t0 < 10  # not the 30 s wait for a join
    assert "Traceback" not in err
    report = json.loads(rep.read_text(encoding="utf-8"))
    assert report["interrupted"] is True and report["hands"] == 0
    assert out.startswith("ofc-pineapple: 0 hands, seed 0 (interrupted)")


@pytest.mark.skipif(sys.platform == "win32", reason="run on POSIX (SIGINT)")
def test_the_first_ctrl_c_stops_a_wait_with_no_deadline(tmp_path: Path) -> None:
    """With ``--timeout-ms 0`` (no deadline) the first Ctrl-C did nothing while a
    silent bot was awaited (the hand in progress never ended); a second was needed.
    The first now ends the match: exit status 130, the report marked interrupted."""
    import signal
    import time

    from scripts import package_env

    asked = tmp_path / "asked"
    bot = tmp_path / "silent.py"
    bot.write_text(
        "import sys, time\n"
        "sys.stdin.readline()\n"
        'print(\'{"t":"join"}\', flush=True)\n'
        "for line in sys.stdin:\n"
        "    if '\"act\"' in line:\n"
        f"        open({str(asked)!r}, 'w').close()\n"
        "        time.sleep(120)\n",
        encoding="utf-8",
    )
    rep = tmp_path / "r.json"
    argv = [sys.executable, "-m", "ofc_fast", "arena", "--bot", "random", "--bot"]
    argv += [f"cmd:{sys.executable} {bot}", "--timeout-ms", "0", "--hands", "3"]
    proc = subprocess.Popen(
        [*argv, "--json", str(rep)],
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
        env=package_env(),
    )
    try:
        deadline = time.monotonic() + 60
        while time.monotonic() < deadline and not asked.exists():
            time.sleep(0.05)
        assert asked.exists(), proc.stderr
        t0 = time.monotonic()
        proc.send_signal(signal.SIGINT)
        out, err = proc.communicate(timeout=20)
    finally:
        proc.kill()
        proc.wait()
    assert proc.returncode == 130, err
    assert time.monotonic() - t0 < 10 and "Traceback" not in err, err
    report = json.loads(rep.read_text(encoding="utf-8"))
    assert report["interrupted"] is True and report["hands"] == 0
    assert "interrupted: 0 of 3 games played" in err


def test_ctrl_c_ignored_by_the_caller_stays_ignored() -> None:
    """The first-Ctrl-C handler of ``play`` and ``arena`` replaced an ignored SIGINT
    (a shell script's ``ofc-fast arena ... &``): the script's Ctrl-C then stopped a
    match its shell had shielded."""
    import signal

    from ofc_fast.cli.options import StopOnSigint

    previous = signal.signal(signal.SIGINT, signal.SIG_IGN)
    try:
        with StopOnSigint():
            assert signal.getsignal(signal.SIGINT) is signal.SIG_IGN
        assert signal.getsignal(signal.SIGINT) is signal.SIG_IGN
    finally:
        signal.signal(signal.SIGINT, previous)


@pytest.mark.parametrize("port", ["99999", "\u00b2", "\u0663", "-1", "0", "00"])
def test_a_tcp_bot_port_that_is_none_is_refused_naming_bot(
    capsys: pytest.CaptureFixture[str], port: str
) -> None:
    """``--bot tcp:²`` ended in a ValueError traceback, ``tcp:٣`` (an Arabic-Indic 3)
    listened on port 3, and ``tcp:99999`` was refused without naming ``--bot``.
    ``tcp:0`` listened on a free port the system picked and told no one: the arena
    waited 30 s for a bot that could not know where to connect, then filled in every
    decision of the seat."""
    from ofc_fast.cli import main

    assert main(["arena", "--bot", "random", "--bot", f"tcp:{port}"]) == 2
    (line,) = capsys.readouterr().err.splitlines()
    assert line == (
        f"ofc-fast: error: --bot: bad spec {f'tcp:{port}'!r}: tcp:PORT needs a port "
        "number 1..65535"
    )


@pytest.mark.parametrize(
    ("spec", "said"),
    [
        ("bad", "unknown bot 'bad'; known bots: "),
        ("", "a spec must be a non-empty string, got ''"),
        ("cmd:", "bad spec 'cmd:': nothing after cmd:"),
        ("me@", "bad spec 'me@': nothing after me@"),
        ("tcp:x", "bad spec 'tcp:x': tcp:PORT needs a port number 1..65535"),
        ("n" * 1001 + "@random", "a seat's name holds at most 1000 characters, got 1001"),
        ("tcp:45211", "two seats on one port, tcp:45211; give each tcp: seat its own"),
    ],
)
def test_a_bad_bot_is_an_error_of_the_option_s_form(
    spec: str, said: str, capsys: pytest.CaptureFixture[str]
) -> None:
    """``arena --bot cmd:`` said ``bad --bot 'cmd:': ...`` and ``--bot ''`` ``a --bot
    spec must be ...``, where ``--bot bad``, and every other value a command refuses,
    is ``--bot: ...`` (docs/cli.md: ``ofc-fast: error: --hands: must be at least 1``):
    every bad ``--bot`` is one line of that form."""
    from ofc_fast.cli import main

    other = spec if spec.startswith("tcp:") else "random"  # (a port taken twice)
    assert main(["arena", "--bot", spec, "--bot", other, "--hands", "1"]) == 2
    out, err = capsys.readouterr()
    assert out == "" and err.count("\n") == 1, err
    assert err.startswith(f"ofc-fast: error: --bot: {said}"), err


def test_one_hand_one_deck_and_one_substitution_are_singular(
    capsys: pytest.CaptureFixture[str],
) -> None:
    """The standings of a one-hand match said "1 hands", a duplicate one "(1 decks)"
    and "2 games, 2 seatings" counted right only by luck."""
    from ofc_fast.cli import main

    args = ["arena", "--bot", "random", "--bot", "random", "--hands", "1"]
    assert main(args) == 0
    assert capsys.readouterr().out.splitlines()[0] == "ofc-pineapple: 1 hand, seed 0"
    assert main([*args, "--duplicate"]) == 0
    lines = capsys.readouterr().out.splitlines()
    assert lines[0] == "ofc-pineapple: 1 hand (duplicate: 2 games, 2 seatings), seed 0"
    assert lines[-1].endswith(" per deck (1 deck)")


@pytest.mark.parametrize("bots", [1, 4])
def test_a_wrong_number_of_bots_is_refused_naming_bot(
    capsys: pytest.CaptureFixture[str], bots: int
) -> None:
    """``arena --bot random`` said "ofc-pineapple seats 2 to 3 bots, got 1": not which
    option gives the bots."""
    from ofc_fast.cli import main

    assert main(["arena", *["--bot", "random"] * bots]) == 2
    assert capsys.readouterr().err == (
        f"ofc-fast: error: --bot: ofc-pineapple seats 2 to 3 bots (one --bot each), "
        f"got {bots}\n"
    )


def test_a_token_with_no_tcp_seat_is_refused(capsys: pytest.CaptureFixture[str]) -> None:
    """``arena --token s3cret`` with no ``tcp:`` bot was taken and ignored: only a tcp
    seat asks its bot for the token."""
    from ofc_fast.cli import main
    from ofc_fast.errors import ArenaError

    args = ["arena", "--bot", "random", "--bot", "random", "--hands", "1"]
    assert main([*args, "--token", "s3cret"]) == 2
    assert capsys.readouterr().err == (
        "ofc-fast: error: --token: only a tcp:PORT seat asks for one, and there is none\n"
    )
    with pytest.raises(ArenaError, match=r"^token: only a tcp:PORT seat"):
        Arena("ofc", [parse_bot_spec("random")] * 2, 1, token="s3cret")


def test_chunk_size_without_workers_is_refused(capsys: pytest.CaptureFixture[str]) -> None:
    """``arena --chunk-size 5`` without ``--workers``/``--ray`` was taken and ignored:
    a sequential match is played in no chunks."""
    from ofc_fast.cli import main

    args = ["arena", "--bot", "random", "--bot", "random", "--hands", "2"]
    assert main([*args, "--chunk-size", "5", "--quiet"]) == 2
    assert capsys.readouterr().err == (
        "ofc-fast: error: --chunk-size: only a run on --workers or --ray is played in "
        "chunks\n"
    )


def test_progress_every_without_progress_json_is_refused(
    capsys: pytest.CaptureFixture[str],
) -> None:
    """``arena --progress-every 1`` without ``--progress-json`` was taken and ignored:
    no progress line is printed without it."""
    from ofc_fast.cli import main

    args = ["arena", "--bot", "random", "--bot", "random", "--hands", "2"]
    assert main([*args, "--progress-every", "1", "--quiet"]) == 2
    assert capsys.readouterr().err == (
        "ofc-fast: error: --progress-every: only with --progress-json\n"
    )


def test_replay_and_bot_errors_name_the_argument(
    capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    """``ofc-fast replay /nonexistent.jsonl`` said ``cannot read ...``, ``replay h.jsonl
    --deal 7`` ``h.jsonl has no hand 7`` and ``ofc-fast bot nope`` ``unknown bot
    'nope'`` (with ``--time-budget``: ``--time-budget: unknown bot``), naming no
    argument, unlike every other error of ``ofc-fast``."""
    from ofc_fast.cli import build_parser, main

    missing = tmp_path / "nonexistent.jsonl"
    hist = tmp_path / "h.jsonl"
    play = ["play", "--hands", "2", "--bots", "random", "--quiet", "--seed", "1"]
    assert main([*play, "--history", str(hist)]) == 0
    cases = [
        (["replay", str(missing)], f"FILE: cannot read {str(missing)!r}: "),
        (["replay", str(hist), "--deal", "7"], f"--deal: {hist} has no hand 7"),
        (["bot", "nope"], "NAME: unknown bot 'nope'; known bots: "),
        (["bot", "nope", "--time-budget", "0.1"], "NAME: unknown bot 'nope'"),
        (["bot", "random", "--time-budget", "0.1"], "--time-budget: bot 'random': "),
    ]
    for argv, message in cases:
        assert main(argv) == 2, argv
        out, err = capsys.readouterr()
        assert out == "" and err.startswith(f"ofc-fast: error: {message}"), (argv, err)
        assert err.count("\n") == 1, err
    commands = build_parser().commands  # the usage names them so too
    assert commands["replay"].format_usage().rstrip().endswith(" FILE")
    assert " NAME" in commands["bot"].format_usage()


def test_replay_deal_says_hands_are_counted_from_0(
    capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    """``replay --deal N``'s help said ``only this hand number``, not that hands count
    from 0 (``play`` prints them from Deal 1), and ``--deal 2`` of a history of hands
    0 and 1 said only ``has no hand 2``: the help says so, and the error names the
    hands the file holds."""
    from ofc_fast.cli import build_parser, main

    hist, empty = tmp_path / "h.jsonl", tmp_path / "e.jsonl"
    play = ["play", "--hands", "2", "--bots", "random", "--quiet", "--seed", "1"]
    assert main([*play, "--history", str(hist)]) == 0
    empty.write_text("", encoding="utf-8")
    helped = " ".join(build_parser().commands["replay"].format_help().split())
    assert "--deal N only hand N (its hand_no, counted from 0" in helped, helped
    capsys.readouterr()
    assert main(["replay", str(hist), "--deal", "1"]) == 0
    assert capsys.readouterr().out.startswith("hand 1 (")
    for path, held in ((hist, "its hands are numbered 0 to 1"), (empty, "it holds none")):
        assert main(["replay", str(path), "--deal", "2"]) == 2
        assert capsys.readouterr().err == (
            f"ofc-fast: error: --deal: {path} has no hand 2 ({held})\n"
        )


@pytest.mark.parametrize("extra", [[], ["--workers", "2"]])
def test_arena_names_bot_for_a_bot_it_cannot_make(
    capsys: pytest.CaptureFixture[str], extra: list[str]
) -> None:
    """``ofc-fast arena --bot nope --bot random`` said ``unknown bot 'nope'`` (and
    ``--bot policy:/none`` ``no policy file``), naming no option, where ``play --bots
    nope`` says ``--bots: unknown bot``; so did a parallel match."""
    from ofc_fast.cli import main

    for bot, message in (("x@nope", "unknown bot 'nope'"), ("policy:/none", "no policy")):
        assert main(["arena", "--bot", bot, "--bot", "random", "--hands", "1", *extra]) == 2
        out, err = capsys.readouterr()
        assert out == "" and err.startswith(f"ofc-fast: error: --bot: {message}"), err


def test_report_errors_name_the_report_and_history_arguments(
    capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    """``ofc-fast report nope.json h.jsonl -o p.html`` said ``cannot read the report
    nope.json``, and a bad history ``h.jsonl, line 1: ...``, naming no argument,
    unlike ``replay FILE``."""
    from ofc_fast.cli import build_parser, main

    rep, hist, bad = tmp_path / "r.json", tmp_path / "h.jsonl", tmp_path / "bad.jsonl"
    args = ["arena", "--bot", "random", "--bot", "random", "--hands", "1", "--quiet"]
    assert main([*args, "--json", str(rep), "--history", str(hist)]) == 0
    bad.write_text("garbage\n", encoding="utf-8")
    missing, out = tmp_path / "nope.json", str(tmp_path / "p.html")
    cases = [
        ([str(missing), str(hist)], f"REPORT: cannot read the report {str(missing)!r}: "),
        ([str(bad), str(hist)], f"REPORT: {bad}: not JSON"),
        ([str(rep), str(missing)], f"HISTORY: cannot read {str(missing)!r}: "),
        ([str(rep), str(bad)], f"HISTORY: {bad}, line 1: not JSON"),
    ]
    for files, message in cases:
        assert main(["report", *files, "-o", out]) == 2, files
        err = capsys.readouterr().err
        assert err.startswith(f"ofc-fast: error: {message}"), (files, err)
        assert err.count("\n") == 1, err
    assert not (tmp_path / "p.html").exists()
    usage = build_parser().commands["report"].format_usage().rstrip()
    assert usage.endswith(" REPORT HISTORY")


class _ReadFails(io.BytesIO):
    """A history file that opens, then fails to read (EIO: a failing disk)."""

    def readline(self, size: int | None = -1) -> bytes:
        raise OSError(errno.EIO, os.strerror(errno.EIO))


def test_a_history_that_fails_to_read_is_named_as_the_argument(
    capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    """Regression: a history file that opened but failed to read (an I/O error of a
    failing disk; ``replay /proc/self/mem``) gave ``replay`` the bare ``ofc-fast:
    error: [Errno 5] Input/output error`` and ``report`` ``--output: cannot write
    'p.html': Input/output error``, blaming the page; now both name the file, as
    FILE and HISTORY."""
    from ofc_fast.arena import history
    from ofc_fast.cli import main

    rep, hist = tmp_path / "r.json", tmp_path / "h.jsonl"
    args = ["arena", "--bot", "random", "--bot", "random", "--hands", "1", "--quiet"]
    assert main([*args, "--json", str(rep), "--history", str(hist)]) == 0
    monkeypatch.setattr(history, "open_input", lambda *a, **k: _ReadFails())
    eio = os.strerror(errno.EIO)
    page = tmp_path / "p.html"
    cases = [
        (["replay", str(hist)], f"FILE: cannot read {str(hist)!r}: {eio}\n"),
        (
            ["report", str(rep), str(hist), "-o", str(page)],
            f"HISTORY: cannot read {str(hist)!r}: {eio}\n",
        ),
    ]
    for argv, message in cases:
        assert main(argv) == 2, argv
        assert capsys.readouterr().err == f"ofc-fast: error: {message}"
    assert not page.exists()


@pytest.mark.skipif(not os.path.exists("/dev/stdout"), reason="run on Linux (/dev/stdout)")
def test_a_report_written_to_standard_output_is_the_page_alone(tmp_path: Path) -> None:
    """Regression: ``ofc-fast report r.json h.jsonl -o /dev/stdout | gzip > p.html.gz``
    put ``wrote /dev/stdout`` after the page's ``</html>``, a line the browser showed
    at its foot; the page written to standard output is now all it holds."""
    from ofc_fast.cli import main

    rep, hist = tmp_path / "r.json", tmp_path / "h.jsonl"
    args = ["arena", "--bot", "random", "--bot", "random", "--hands", "1", "--quiet"]
    assert main([*args, "--json", str(rep), "--history", str(hist)]) == 0
    out = cli("report", str(rep), str(hist), "-o", "/dev/stdout")
    assert out.stdout.rstrip().endswith("</html>") and "wrote" not in out.stdout
    out = cli("report", str(rep), str(hist), "-o", str(tmp_path / "p.html"))
    assert out.stdout == f"wrote {tmp_path / 'p.html'}\n"


@pytest.mark.parametrize("option", ["--json", "--history"])
def test_an_output_that_is_the_rules_file_is_refused(
    capsys: pytest.CaptureFixture[str], tmp_path: Path, option: str
) -> None:
    """``--rules thursday.json --json thursday.json`` (or ``--history``) played the
    match and wrote the report (the deals) over the rules file it had read."""
    from ofc_fast.cli import main
    from ofc_fast.rules import PINEAPPLE

    rules = tmp_path / "thursday.json"
    text = PINEAPPLE.to_json()
    rules.write_text(text, encoding="utf-8")
    args = ["arena", "--rules", str(rules), "--bot", "random", "--bot", "random"]
    same = str(tmp_path / "." / "thursday.json")
    assert main([*args, "--hands", "1", option, same]) == 2
    out, err = capsys.readouterr()
    assert out == "" and err == (
        f"ofc-fast: error: {option}: {same!r} is the --rules file: the rules would be "
        "written over; name another file\n"
    )
    assert rules.read_text(encoding="utf-8") == text


def test_a_seat_name_the_report_cannot_hold_is_refused(
    capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    """``--bot NAME@random`` with a NAME of 1,001 characters played the match and wrote
    a report and a history that ``ofc-fast report`` and ``replay`` then refused
    (``bots[0].name: expected at most 1000 characters``)."""
    from ofc_fast.arena.history import load_schema, read_histories
    from ofc_fast.arena.report import read_report
    from ofc_fast.cli import main

    seats = load_schema()["properties"]["seats"]["items"]
    assert seats["maxLength"] == 1000  # the report's limit too (report.schema.json)
    rep, hist = tmp_path / "r.json", tmp_path / "h.jsonl"
    args = ["arena", "--bot", "random", "--hands", "1", "--json", str(rep)]
    longest = "n" * 1000
    assert main([*args, "--history", str(hist), "--bot", f"{longest}@random"]) == 0
    assert read_report(rep)["bots"][1]["name"] == longest
    assert [d.record["seats"] for d in read_histories(hist)] == [["random", longest]]
    capsys.readouterr()
    assert main([*args, "--bot", f"{longest}x@random"]) == 2
    out, err = capsys.readouterr()
    assert err.startswith(
        "ofc-fast: error: --bot: a seat's name holds at most 1000 characters, got 1001: "
        "'nnnn"
    )
    assert err.endswith("' (of 'builtin:random')\n") and len(err) < 200, err


@pytest.mark.skipif(not os.path.exists("/dev/full"), reason="run on Linux (/dev/full)")
@pytest.mark.parametrize("workers", [[], ["--workers", "1"]])
def test_a_history_that_cannot_be_written_names_history(
    capsys: pytest.CaptureFixture[str], tmp_path: Path, workers: list[str]
) -> None:
    """A full disk under ``--history`` (``/dev/full``: each write fails with ENOSPC)
    was "ofc-fast: error: [Errno 28] No space left on device", naming no option; it
    names ``--history`` and its file as a file that cannot be opened does (exit 2, no
    report written)."""
    from ofc_fast.cli import main

    rep = tmp_path / "r.json"
    argv = ["arena", "--bot", "random", "--bot", "random", "--hands", "2", "--quiet"]
    assert main([*argv, "--json", str(rep), "--history", "/dev/full", *workers]) == 2
    err = capsys.readouterr().err
    assert err == (
        "ofc-fast: error: --history: cannot write '/dev/full': No space left on device\n"
    )
    assert not rep.exists()


@pytest.mark.skipif(sys.platform == "win32", reason="run on POSIX (SIGTERM)")
def test_sigterm_stops_the_match_and_kills_a_bot_that_ignores_stdin(
    tmp_path: Path,
) -> None:
    """SIGTERM to ``arena`` killed it at once, and a ``cmd:`` bot (in a session of
    its own) that never reads its stdin lived on.  SIGTERM now stops the match as
    Ctrl-C does: the bot's process group is killed, the report written, status 130."""
    import signal
    import time

    from scripts import package_env

    pid_file = tmp_path / "pid"
    bot = tmp_path / "deaf.py"
    bot.write_text(
        "import os, signal, time\n"
        "signal.signal(signal.SIGTERM, signal.SIG_IGN)\n"
        f"open({str(pid_file)!r} + '.tmp', 'w').write(str(os.getpid()))\n"
        f"os.replace({str(pid_file)!r} + '.tmp', {str(pid_file)!r})\n"
        "time.sleep(300)\n",
        encoding="utf-8",
    )
    rep = tmp_path / "r.json"
    argv = [sys.executable, "-m", "ofc_fast", "arena", "--bot", "random", "--bot"]
    argv += [f"cmd:{sys.executable} {bot}", "--hands", "3", "--json", str(rep)]
    proc = subprocess.Popen(
        argv, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, env=package_env()
    )
    bot_pid = 0
    try:
        deadline = time.monotonic() + 60
        while time.monotonic() < deadline and not pid_file.exists():
            time.sleep(0.05)
        assert pid_file.exists(), proc.stderr
        bot_pid = int(pid_file.read_text(encoding="utf-8"))
        proc.send_signal(signal.SIGTERM)
        out, err = proc.communicate(timeout=30)
    finally:
        proc.kill()
        proc.wait()

    def alive(pid: int) -> bool:  # (a zombie nobody reaps counts as gone)
        try:
            stat = Path(f"/proc/{pid}/stat").read_text(encoding="utf-8")
        except OSError:
            try:
                os.kill(pid, 0)
            except ProcessLookupError:
                return False
            return True
        return stat.rsplit(")", 1)[1].split()[0] != "Z"

    try:
        deadline = time.monotonic() + 10
        while time.monotonic() < deadline and alive(bot_pid):
            time.sleep(0.05)
        assert not alive(bot_pid), "the bot outlived the arena"
    finally:
        if alive(bot_pid):
            os.kill(bot_pid, signal.SIGKILL)
    assert proc.returncode == 130, err
    assert "Traceback" not in err, err
    report = json.loads(rep.read_text(encoding="utf-8"))
    assert report["interrupted"] is True and report["hands"] == 0


@pytest.mark.skipif(sys.platform == "win32", reason="run on POSIX (SIGTERM)")
def test_sigterm_stops_a_parallel_match_as_ctrl_c_does(tmp_path: Path) -> None:
    """SIGTERM to ``arena --workers 2`` killed it with no report; it now stops the
    workers and writes the report of the hands back, marked interrupted (130)."""
    from scripts import package_env

    rep = tmp_path / "r.json"
    argv = [sys.executable, "-m", "ofc_fast", "arena", "--bot", "random", "--bot"]
    argv += ["random", "--hands", "100000", "--workers", "2", "--chunk-size", "5"]
    argv += ["--progress-json", "--progress-every", "1", "--json", str(rep)]
    proc = subprocess.Popen(
        argv, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, env=package_env()
    )
    try:
        assert proc.stderr is not None
        first = proc.stderr.readline()  # a hand was booked: the match runs
        assert first.startswith("{"), first
        proc.terminate()
        err = proc.communicate(timeout=60)[1]
    finally:
        if proc.poll() is None:  # (a failed check: never a worker left behind)
            proc.kill()
    assert (proc.returncode, "Traceback" in err) == (130, False), err
    report = json.loads(rep.read_text(encoding="utf-8"))
    assert report["interrupted"] is True and 0 < report["hands"] < 100000


def test_a_builtin_bot_that_cannot_play_at_the_table_is_refused_when_made() -> None:
    """``--bot value`` at a 4-seat OFC table (no value model ships for OFC with 4
    players) joined, crashed at its first decision and played the match as a faulted
    seat: the arena refuses it when it makes the bot (the bot's ``check_players``,
    as ``make_bots``), naming the problem, before any hand; a table a model ships for
    plays."""
    from ofc_fast.errors import ArenaError

    specs = [parse_bot_spec(s) for s in ("value", "random", "random", "random")]
    with pytest.raises(
        ArenaError, match=r"^--bot: value bot: no value model ships for OFC with 4"
    ):
        Arena("ofc", specs, 1).run()
    report = Arena("ofc", specs[:2], 1).run()
    assert [b["faults"] for b in report["bots"]] == [0, 0]


@pytest.mark.skipif(
    sys.platform != "linux", reason="needs a file name of any bytes: run on Linux"
)
def test_names_and_commands_of_bytes_no_utf8_decodes_make_readable_files(
    tmp_path: Path,
) -> None:
    r"""Regression: a ``--bot`` typed with a byte no UTF-8 decodes (a seat's name, or a
    ``cmd:`` bot's file named in Latin-1, ``caf\xe9.py``) played its match, but the
    report and the history held it as a lone surrogate: ``ofc-fast report`` and
    ``ofc-fast replay`` refused the arena's own files ("not valid Unicode")."""
    from scripts import package_env

    bot = tmp_path / "caf\udce9.py"  # (the bytes b"caf\xe9.py")
    bot.write_bytes(TINY.read_bytes())
    rep, hist, page = tmp_path / "r.json", tmp_path / "h.jsonl", tmp_path / "r.html"
    args = [
        *(sys.executable, "-m", "ofc_fast", "arena", "--hands", "2", "--seed", "3"),
        *("--bot", b"\xff<b>@random", "--bot", f"cmd:{sys.executable} {bot} - good"),
        *("--json", str(rep), "--history", str(hist), "--quiet"),
    ]
    out = subprocess.run(args, capture_output=True, timeout=120, env=package_env())
    assert out.returncode == 0, out.stderr[-2000:]
    report = json.loads(rep.read_text(encoding="utf-8"))
    assert [b["name"] for b in report["bots"]] == ["\\xff<b>", "bot-2"]
    assert report["bots"][1]["kind"].endswith("caf\\xe9.py - good")
    assert report["bots"][1]["faults"] == 0
    cli("replay", str(hist))
    cli("report", str(rep), str(hist), "-o", str(page))
    assert "\\xff&lt;b&gt;" in page.read_text(encoding="utf-8")
