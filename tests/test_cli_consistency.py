"""What a new user ran into on the command line and in the API: ``advise`` at the
opening without ``--opponent``, what ``advise``'s ev is, the argument order of
``score_pair``, one error class and one alias table for rule set names, piped tables,
and ``bench``'s verdict at the precision it prints."""

from __future__ import annotations

import argparse
import errno
import io
import json
import os
import re
import subprocess
import sys
from pathlib import Path

import pytest
from scripts import checkout_file, package_env

import ofc_fast as ofc
from ofc_fast import cli, rules, timing
from ofc_fast.errors import GameError, RulesError

BOARD_A = "Qh Qd 2c / 9s 9h 9d 5c 5d / As Ks Qs Js Ts"
BOARD_B = "Kc 7d 3h / Ac Ad 8c 8d 4s / 6c 6d 6h 4c 4d"


def run(capsys: pytest.CaptureFixture[str], *argv: str) -> tuple[int, str, str]:
    code = cli.main(list(argv))
    out, err = capsys.readouterr()
    return code, out, err


# -- advise at the opening


def test_advise_at_the_opening_needs_no_opponent(
    capsys: pytest.CaptureFixture[str],
) -> None:
    code, out, err = run(
        capsys, "advise", "--dealt", "As Kd 9h 9c 4s", "--samples", "8", "--top", "3"
    )
    assert code == 0, err
    assert out.startswith("PINEAPPLE: 232 legal moves")
    assert len(re.findall(r"^\s+\d+\s", out, re.M)) == 3


def test_advise_players_fills_the_table_with_empty_boards(
    capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    import ofc_fast.search as search

    seen: list[int] = []
    real = search.make_observation

    def spy(*args, **kwargs):
        obs = real(*args, **kwargs)
        seen.append(obs["players"])
        assert all(b == [[], [], []] for b in obs["boards"][1:])
        return obs

    monkeypatch.setattr(search, "make_observation", spy)
    for argv, players in ((["--players", "3"], 3), ([], 2)):
        code, _, err = run(
            capsys, "advise", "--dealt", "As Kd 9h 9c 4s", "--samples", "4", *argv
        )
        assert code == 0, err
        assert seen.pop() == players
    code, _, err = run(capsys, "advise", "--dealt", "As Kd 9h 9c 4s", "--players", "5")
    assert code == 2 and "--players: PINEAPPLE seats 2 to 3 players, got 5" in err
    code, _, err = run(
        capsys,
        "advise",
        "--dealt",
        "As Kd 9h 9c 4s",
        "--players",
        "2",
        "--opponent",
        "/ /",
        "--opponent",
        "/ /",
    )
    assert code == 2 and "at most 1 --opponent boards, got 2" in err


def test_advise_help_documents_the_board_syntax(capsys: pytest.CaptureFixture[str]) -> None:
    with pytest.raises(SystemExit):
        cli.main(["advise", "--help"])
    text = " ".join(capsys.readouterr().out.split())
    assert '"front / middle / back"' in text and 'split by "/"' in text
    assert '"-"' in text and "--players" in text and "empty board" in text


# -- what advise's ev is


def test_advise_names_its_ev_for_what_it_is(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, _ = run(capsys, "advise", "--dealt", "As Kd 9h 9c 4s", "--samples", "4")
    assert code == 0
    note = " ".join(out.split())
    assert "ev: points against the modelled opponent play" in note
    assert "not a fair estimate of the deal" in note
    doc = " ".join((ofc.Advice.__doc__ or "").split())
    assert "expected points for the deal" not in doc
    assert "against the modelled opponent play" in doc


# -- consistency


def test_score_pair_with_the_rules_first_points_at_the_argument_order() -> None:
    for args in ((rules.OFC, BOARD_A, BOARD_B), ("OFC", BOARD_A, BOARD_B)):
        with pytest.raises(RulesError, match=r"score_pair takes \(a, b, rules\)"):
            ofc.score_pair(*args)  # type: ignore[arg-type]
    assert ofc.score_pair(BOARD_A, BOARD_B, "ofc").net == 44  # the README's pair


@pytest.mark.parametrize("make", [ofc.Game, ofc.Match], ids=["Game", "Match"])
def test_an_unknown_rule_set_name_is_a_rules_error(make) -> None:
    with pytest.raises(RulesError, match="unknown rule set 'pinapple'") as info:
        make("pinapple")
    assert isinstance(info.value, GameError)  # what it raised before: still caught


# The four game ids of the poker-arena protocol document, written out here.
DOCUMENT_IDS = {
    "ofc": "OFC",
    "ofc-pineapple": "PINEAPPLE",
    "ofc-progressive": "PROGRESSIVE_PINEAPPLE",
    "ofc-27": "PINEAPPLE_27",
}


def test_rules_get_takes_the_arena_game_ids() -> None:
    from ofc_fast.arena import GAME_IDS, resolve_arena_rules, rules_for_game_id

    for gid, name in DOCUMENT_IDS.items():
        assert rules.get(gid) is rules.PRESETS[name]
        assert rules.get(gid.upper()) is rules.PRESETS[name]
    for gid in GAME_IDS:  # one table: every id the arena takes, rules.get takes
        assert rules.get(gid) is rules_for_game_id(gid) is resolve_arena_rules(gid)
        assert ofc.Game(gid).rules is rules.get(gid)
    assert rules.get("ofcfast-ultimate-pineapple") is rules.ULTIMATE_PINEAPPLE
    with pytest.raises(RulesError, match="or a game id: ofc, ofc-pineapple"):
        rules.get("ofc-pineappel")


def test_piped_tables_are_whole_and_have_no_trailing_spaces(
    capsys: pytest.CaptureFixture[str],
) -> None:
    """What `ofc-fast play ... | cat` prints (capsys is no terminal)."""
    pytest.importorskip("rich", reason='pip install ".[test]" (rich)')
    code, out, _ = run(
        capsys,
        "play",
        "--hands",
        "3",
        "--seed",
        "1",
        "--bots",
        "heuristic,random,random",
        "--stacks",
        "200",
        "--show",
        "0",
    )
    assert code == 0
    assert "heuris…" not in out and "…" not in out
    rows = [ln for ln in out.splitlines() if ln.split()[:2] == ["0", "heuristic"]]
    assert len(rows) == 1 and "roy/deal" in out and "stack" in out
    assert not [ln for ln in out.splitlines() if ln != ln.rstrip()]
    assert not any(ch in out for ch in "┏┃━│")  # plain text, not rich's box drawing


def test_piped_score_table_has_no_trailing_spaces(
    capsys: pytest.CaptureFixture[str],
) -> None:
    """`ofc-fast score ... | cat`: the boards' last column (the foul marker) is empty
    when nobody fouls, and its rule under the header was two trailing spaces."""
    code, out, _ = run(capsys, "score", BOARD_A, BOARD_B, "--rules", "OFC")
    assert code == 0 and "royalty" in out
    assert not [ln for ln in out.splitlines() if ln != ln.rstrip()]


@pytest.mark.parametrize(
    ("seconds", "verdict"), [(5.04e-6, "pass"), (5.0e-6, "pass"), (5.06e-6, "slower")]
)
def test_bench_judges_the_target_at_the_printed_precision(
    seconds: float, verdict: str
) -> None:
    row = timing.Row("rank5_batch", "hand", 1000, (seconds,))
    assert timing.TARGETS["rank5_batch"] == 5.0
    assert row.verdict(strict=False) == verdict
    line = timing.format_table([row], strict=False)[-1]
    shown = float(line.split()[3])
    assert (shown <= 5.0) == (verdict == "pass")  # the verdict agrees with the figure


def test_every_cli_table_sizes_its_columns_as_a_terminal_shows_them(
    capsys: pytest.CaptureFixture[str],
) -> None:
    """Regression: the tables of ``eval``, ``score`` and ``play`` (plain text) sized a
    column by code points, so a cell of wide characters (``北京``) pushed its row's
    next columns right of the header's; ``bench``'s ``n`` of 10,000,000 widened its
    row past the header.  Both take their columns' widths from the one mechanism
    (``ofc_fast.cli.options.padded``): the header and every row line up."""
    from ofc_fast.cli._render import plain_table
    from ofc_fast.cli.options import display_width

    plain_table("T", ["seat", "net"], [["北京北京", -5], ["x", 1_234_567]], None, None)
    lines = capsys.readouterr().out.splitlines()[1:]
    # where each line's second column starts, in terminal columns
    starts = {display_width(x[: x.rindex(" ") + 1]) for x in lines}
    assert len(lines) == 4 and starts == {len("--------  ")}, lines
    rows = [timing.Row("rank5_batch", "hand", n, (5e-6,)) for n in (1000, 10_000_000, 10)]
    table = timing.format_table(rows, strict=False)
    ends = {
        display_width(x[: x.index(" hand") if "hand" in x else x.index(" unit")])
        for x in [table[0], *table[2:]]
    }
    assert len(ends) == 1, table
    assert len(table[1]) == len(table[0]), table


def test_docs_cli_states_each_exit_status_of_bench(
    capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    """``bench`` exits with 1 when the batch and per-call results disagree, a status
    docs/cli.md did not give (only 2, ``--strict``'s): each status it returns is in
    its section, with the line that says why."""
    text = checkout_file("docs/cli.md").read_text(encoding="utf-8")
    section = " ".join(text.split("## `bench`")[1].split("\n## ")[0].split())
    real = timing._calls

    def disagreeing(n: int, seed: int):
        calls, _ = real(n, seed)
        return calls, lambda: ["rank5"]

    monkeypatch.setattr(timing, "_calls", disagreeing)
    argv = ["bench", "--n", "50", "--reps", "1", "--skip", "rank5_batch,eval_boards"]
    code, out, _ = run(capsys, *argv)
    assert out.splitlines()[-1] == "agreement: FAILED: rank5"
    assert code == 1 and "`agreement: FAILED: ...`" in section
    assert f"exit status {code}" in section
    assert "MISS` and exit status 2" in section  # (--strict's)


@pytest.mark.parametrize(
    ("option", "value"), [("--samples", "0"), ("--time", "-1"), ("--seed", "-1")]
)
def test_advise_errors_name_the_option(
    capsys: pytest.CaptureFixture[str], option: str, value: str
) -> None:
    """``advise --time -1`` said ``time_budget must be a positive number``: the
    search's keyword, not the option typed (docs/cli.md: errors name the option)."""
    code, out, err = run(capsys, "advise", "--dealt", "As Kd 9h 9c 4s", option, value)
    assert code == 2 and out == ""
    assert err.startswith(f"ofc-fast: error: {option}: ") and err.count("\n") == 1


COMMANDS = [
    "play", "eval", "score", "solve", "advise", "rules", "bench", "bot", "arena",
    "replay", "report", "selfplay", "serve",
]  # fmt: skip


def test_every_command_is_checked_against_the_docs() -> None:
    """The commands whose options these tests compare with docs/cli.md are those the
    parser has: a command added (by a module of ``cli.COMMAND_MODULES``) without its
    options in the page would have passed unchecked."""
    assert sorted(COMMANDS) == sorted(cli.build_parser().commands)


def _help_options(capsys: pytest.CaptureFixture[str], command: str) -> set[str]:
    """The long options ``ofc-fast COMMAND --help`` lists."""
    with pytest.raises(SystemExit):
        cli.main([command, "--help"])
    out = capsys.readouterr().out
    listed = re.findall(r"^\s+(?:-\w(?: [A-Z_]+)?, )?(--[a-z][\w-]*)", out, re.M)
    return set(listed) - {"--help"}


@pytest.mark.parametrize("command", COMMANDS)
def test_docs_cli_names_every_option_of_every_command(
    capsys: pytest.CaptureFixture[str], command: str
) -> None:
    """docs/cli.md documents each command's options, as ``--help`` lists them: the
    page described ``advise``'s and ``bench``'s only (``--model`` was in ``--help``
    only; ``play --button``, ``arena --progress-every``, ``report --output`` in no
    page), and names no option the command lacks.  The options every subcommand shares
    are described once, above."""
    text = checkout_file("docs/cli.md").read_text(encoding="utf-8")
    shared = text.split("## Options that mean the same everywhere")[1].split("\n## ")[0]
    if f"## `{command}`" in text:  # a section of its own
        section = text.split(f"## `{command}`")[1].split("\n## ")[0]
    else:  # its item of the list of every command's options
        items = text.split("## Every command's options")[1].split("\n## ")[0]
        section = items.split(f"\n- `{command}")[1].split("\n- `")[0]
    options = _help_options(capsys, command)
    missing = sorted(o for o in options if f"`{o}" not in section + shared)
    assert missing == []
    named = set(re.findall(r"`(--[a-z][\w-]*)", section))
    assert sorted(named - options) == []


def test_docs_cli_states_the_defaults_each_parser_has() -> None:
    """A default docs/cli.md states in its list of every command's options (``--hands
    N`` (default 5)) is the parser's, or the one its ``--help`` states where the
    parser's is None (the command then picks it)."""
    text = checkout_file("docs/cli.md").read_text(encoding="utf-8")
    items = text.split("## Every command's options")[1].split("\n## ")[0]
    sub = next(
        a for a in cli.build_parser()._actions if isinstance(a, argparse._SubParsersAction)
    )
    checked = 0
    for item in items.split("\n- `")[1:]:
        command = item.split()[0].strip("`:")
        actions = {o: a for a in sub.choices[command]._actions for o in a.option_strings}
        stated = re.findall(r"`(--[\w-]+)[^`]*` \([^()]*?default:? `?([\w.-]+)`?", item)
        for option, value in stated:
            action, checked = actions[option], checked + 1
            if action.default is not None:
                assert str(action.default) == value, (command, option)
            elif value.isdigit():  # the command picks it: as its --help says
                assert re.search(rf"default:? {value}\b", action.help or ""), option
    assert checked > 20


# The options whose --help says their default in words: the value is the machine's
# (4 per CPU) or stands for a word (0: every move).
DEFAULT_IN_WORDS = {("serve", "--workers"): "4 per CPU", ("advise", "--top"): "every move"}


def test_every_option_with_a_default_says_it_in_its_help() -> None:
    """docs/cli.md says ``ofc-fast COMMAND --help`` prints each command's options as
    the page lists them, defaults included; ``arena --help`` said nothing of 100
    hands, seed 0 or 5000 ms, ``report --help`` of 200 deals embedded, ``play`` and
    ``score`` of button 0, ``advise --top`` of every move, and ``serve --log-level``
    had no help at all.  Each option with a default (no flag, no empty one) says it
    in its help: ``(default 100)``, as a number a user types (``2`` for 2.0)."""
    sub = next(
        a for a in cli.build_parser()._actions if isinstance(a, argparse._SubParsersAction)
    )
    unsaid = []
    for command, parser in sub.choices.items():
        for action in parser._actions:
            default = action.default
            if not action.option_strings or action.help == argparse.SUPPRESS:
                continue
            if default in (None, argparse.SUPPRESS, "", []) or isinstance(default, bool):
                continue
            option = action.option_strings[-1]
            if isinstance(default, float) and default.is_integer():
                default = int(default)
            said = DEFAULT_IN_WORDS.get((command, option), str(default))
            if not re.search(rf"\bdefault\b[^)]*?{re.escape(said)}", action.help or ""):
                unsaid.append(f"{command} {option} ({said}): {action.help!r}")
    assert unsaid == []


def test_docs_cli_shows_both_forms_of_an_error(capsys: pytest.CaptureFixture[str]) -> None:
    """docs/cli.md said every error is one line ``ofc-fast: error: ...``; a command
    line argparse cannot read is its usage, then ``ofc-fast play: error: ...``.  The
    page quotes both forms, as they are printed."""
    text = " ".join(checkout_file("docs/cli.md").read_text(encoding="utf-8").split())
    with pytest.raises(SystemExit) as exc:
        cli.main(["play", "--hands", "abc"])
    err = capsys.readouterr().err.splitlines()
    assert exc.value.code == 2 and err[0].startswith("usage: ofc-fast play")
    assert f"its usage, then `{err[-1]}`" in text
    code, _, err1 = run(capsys, "play", "--hands", "0")
    assert code == 2 and len(err1.splitlines()) == 1
    assert f"is one line, `{err1.strip()}`" in text


REFUSED_VALUE = re.compile(r"ofc-fast: error: (--[a-z-]+): must be [^\n]*, got [^\n]+\n")
"""docs/cli.md's one-line form of a value a command refuses: ``ofc-fast: error:
--hands: must be at least 1, got 0``."""


@pytest.mark.parametrize(
    ("argv", "option"),
    [
        (["play", "--hands", "-1"], "--hands"),
        (["serve", "--port", "99999"], "--port"),
        (["serve", "--port", "-1"], "--port"),
        (["serve", "--workers", "0"], "--workers"),
        (["serve", "--workers", "100000"], "--workers"),
        (["serve", "--queue", "5000"], "--queue"),
        (["serve", "--max-time-budget", "nan"], "--max-time-budget"),
        (["serve", "--max-games", "0"], "--max-games"),
        (["serve", "--forwarded-allow-ips", "proxy"], "--forwarded-allow-ips"),
        (["serve", "--host", ""], "--host"),
        (["serve", "--host", " ", "--api-key", "a-long-key"], "--host"),
    ],
)
def test_serve_refuses_a_value_in_the_form_of_every_command(
    capsys: pytest.CaptureFixture[str], argv: list[str], option: str
) -> None:
    """``ofc-fast serve --port 99999`` said ``ofc-fast: error: --port must be within
    0..65535, got 99999``: not the form every other command refuses a value in
    (``play --hands -1``: ``--hands: must be ...``)."""
    code, out, err = run(capsys, *argv)
    m = REFUSED_VALUE.fullmatch(err)
    assert code == 2 and out == "" and m is not None, err
    assert m.group(1) == option


@pytest.mark.parametrize(
    "command", ["play", "eval", "score", "solve", "advise", "selfplay"]
)
def test_rules_help_names_what_docs_cli_says_rules_takes(
    capsys: pytest.CaptureFixture[str], tmp_path: Path, command: str
) -> None:
    """docs/cli.md: ``--rules`` takes a preset name, an arena game id or a rules
    file, everywhere; ``--help`` named no game id, which the commands take."""
    with pytest.raises(SystemExit):
        cli.main([command, "--help"])
    help_text = " ".join(capsys.readouterr().out.split())
    assert "game id" in help_text and "rules JSON file" in help_text
    page = " ".join(checkout_file("docs/cli.md").read_text(encoding="utf-8").split())
    assert "a game id of the arena (`ofc-pineapple`, `ofc-27`" in page
    out = [str(tmp_path / "data")] if command == "selfplay" else []
    code, _, err = run(capsys, command, *_TINY[command], *out, "--rules", "ofc-27")
    assert code == 0, err


# Spellings of preset names and game ids docs/cli.md gives, and the preset each
# names (written out here); and spellings it gives as unknown.
_SPELT = {
    "progressive-pineapple": "PROGRESSIVE_PINEAPPLE",
    '"Classic 2 4"': "CLASSIC_2_4",
    "OFC-Pineapple": "PINEAPPLE",
}
_UNKNOWN = ["progressivepineapple", "ofc_pineapple"]


def test_docs_cli_states_how_a_preset_name_may_be_spelt(
    capsys: pytest.CaptureFixture[str],
) -> None:
    """docs/cli.md said case, ``-`` and ``_`` do not matter in a preset name, but a
    ``-`` or a space stands for an ``_``, which cannot be left out (``--rules
    progressivepineapple`` is an unknown rule set), and a game id keeps its ``-``.  The
    page's spellings do what it says of them; an unknown one lists the names."""
    page = " ".join(checkout_file("docs/cli.md").read_text(encoding="utf-8").split())
    item = page[page.index("- `--rules`:") : page.index("- `--stacks`:")]
    assert "do not matter" not in item
    for spelt, name in _SPELT.items():
        assert f"`{spelt}`" in item, spelt
        code, out, err = run(capsys, "rules", spelt.strip('"'))
        assert code == 0 and json.loads(out)["name"] == name, err
    for spelt in _UNKNOWN:
        assert f"`{spelt}` is an unknown rule set" in item, spelt
        code, _, err = run(capsys, "rules", spelt)
        assert code == 2 and f"unknown rule set '{spelt}'" in err
        assert all(name in err for name in [*rules.names(), "ofc-pineapple"]), err


_TINY = {
    "play": ["--hands", "1", "--players", "2", "--quiet"],
    "eval": [BOARD_A],
    "score": [BOARD_A, BOARD_B],
    "solve": ["Ad Ah Th Jh 6h Ts 5d 3c Tc 3s 7h Qh 3d 9s"],
    "advise": ["--dealt", "As Kd 9h 9c 4s", "--samples", "2", "--top", "1"],
    "selfplay": ["--hands", "1", "--quiet", "--out"],
}
"""The smallest run of each command (selfplay's --out is added by the test)."""


# -- "-" as an input file: standard input


def _stdin(monkeypatch: pytest.MonkeyPatch, data: bytes) -> None:
    monkeypatch.setattr("sys.stdin", io.TextIOWrapper(io.BytesIO(data)))


@pytest.fixture(scope="module")
def match_files(tmp_path_factory: pytest.TempPathFactory) -> dict[str, Path]:
    """An arena match's report and history, the OFC preset's rules file."""
    d = tmp_path_factory.mktemp("match")
    files = {"report": d / "r.json", "history": d / "h.jsonl", "rules": d / "ofc.json"}
    argv = ["arena", "--bot", "random", "--bot", "random", "--hands", "3", "--seed", "2"]
    assert (
        cli.main([*argv, f"--json={files['report']}", "--history", str(files["history"])])
        == 0
    )
    files["rules"].write_text(rules.get("OFC").to_json(), encoding="utf-8")
    return files


@pytest.mark.parametrize(
    ("argv", "fed"),
    [
        (["replay", "{history}"], "history"),
        (["replay", "{history}", "--deal", "2"], "history"),
        (["rules", "{rules}"], "rules"),
        (["eval", "As Ks Qs", "--rules", "{rules}", "--json"], "rules"),
        (["score", BOARD_A, BOARD_B, "--rules", "{rules}", "--json"], "rules"),
    ],
)
def test_a_dash_reads_the_file_from_standard_input(
    capsys: pytest.CaptureFixture[str],
    monkeypatch: pytest.MonkeyPatch,
    match_files: dict[str, Path],
    argv: list[str],
    fed: str,
) -> None:
    """``cat deals.jsonl | ofc-fast replay -`` said "FILE: cannot read -: No such file
    or directory" (and ``--rules -``: "unknown rule set '-'"): ``-`` is standard
    input, as Unix commands read it; the output is the file's."""
    named = [a.format(**{k: str(v) for k, v in match_files.items()}) for a in argv]
    code, from_file, err = run(capsys, *named)
    assert code == 0, err
    _stdin(monkeypatch, match_files[fed].read_bytes())
    dashed = [a.format(**{k: "-" for k in match_files}) for a in argv]
    code, from_stdin, err = run(capsys, *dashed)
    assert code == 0 and err == "", err
    assert from_stdin == from_file and from_file.strip()


@pytest.mark.parametrize("fed", ["report", "history"])
def test_report_reads_either_file_from_standard_input(
    capsys: pytest.CaptureFixture[str],
    monkeypatch: pytest.MonkeyPatch,
    match_files: dict[str, Path],
    tmp_path: Path,
    fed: str,
) -> None:
    """``ofc-fast report - HISTORY`` (or ``REPORT -``) writes the page the files
    make; both ``-`` is refused, naming both arguments."""
    paths = [str(match_files["report"]), str(match_files["history"])]
    assert cli.main(["report", *paths, "-o", str(tmp_path / "a.html")]) == 0
    _stdin(monkeypatch, match_files[fed].read_bytes())
    paths[["report", "history"].index(fed)] = "-"
    assert cli.main(["report", *paths, "-o", str(tmp_path / "b.html")]) == 0
    assert (tmp_path / "a.html").read_bytes() == (tmp_path / "b.html").read_bytes()
    capsys.readouterr()
    code, _, err = run(capsys, "report", "-", "-", "-o", str(tmp_path / "c.html"))
    assert code == 2 and err.startswith("ofc-fast: error: REPORT, HISTORY: "), err


@pytest.mark.parametrize(
    ("argv", "option", "fed"),
    [  # {x}: the file x; {x2}: a hard link of x; fed: the file on standard input
        (["report", "{report}", "-", "-o", "{history}"], "--output", "history"),
        (["report", "-", "{history}", "-o", "{report}"], "--output", "report"),
        (["report", "{report}", "{history}", "-o", "{history2}"], "--output", None),
        (["rules", "-", "--json", "{rules}"], "--json", "rules"),
        (["rules", "{rules}", "--json", "{rules}"], "--json", None),
        (["eval", "As Ks Qs", "--rules", "-", "--json", "{rules}"], "--json", "rules"),
        (["play", "--rules", "{rules2}", "--history", "{rules}"], "--history", None),
        (
            ["play", "--bots", "random,value@{history}", "--json", "{history}"],
            "--json",
            None,
        ),
        (
            [
                "arena",
                "--bot",
                "me@search@{history}",
                "--bot",
                "random",
                "--history",
                "{history2}",
            ],
            "--history",
            None,
        ),
        (
            ["advise", "--dealt", "9h", "--model", "{history}", "--json", "{history2}"],
            "--json",
            None,
        ),
    ],
)
def test_an_output_that_is_an_input_is_refused(
    capsys: pytest.CaptureFixture[str],
    monkeypatch: pytest.MonkeyPatch,
    match_files: dict[str, Path],
    tmp_path: Path,
    argv: list[str],
    option: str,
    fed: str | None,
) -> None:
    """``ofc-fast report r.json - -o h.jsonl < h.jsonl`` wrote the page over the
    deals it read (and ``--json`` over a rules file read as ``-`` or through a hard
    link): an output that is an input, by any name, is refused before any work."""
    import os
    import shutil

    files = {k: tmp_path / v.name for k, v in match_files.items()}
    for k, v in match_files.items():
        shutil.copy(v, files[k])
        os.link(files[k], tmp_path / f"link-{v.name}")
    names = {k: str(v) for k, v in files.items()}
    names |= {f"{k}2": str(tmp_path / f"link-{v.name}") for k, v in files.items()}
    before = {k: v.read_bytes() for k, v in files.items()}
    with open(files[fed or "rules"], "rb") as stdin:  # (< FILE, as a shell opens it)
        monkeypatch.setattr("sys.stdin", io.TextIOWrapper(stdin))
        code, _, err = run(capsys, *[a.format(**names) for a in argv])
    assert code == 2 and err.startswith(f"ofc-fast: error: {option}: "), err
    assert "would be written over" in err and err.count("\n") == 1, err
    assert {k: v.read_bytes() for k, v in files.items()} == before


def test_serve_reads_its_key_from_standard_input(monkeypatch: pytest.MonkeyPatch) -> None:
    """``ofc-fast serve --api-key-file -`` (a key from a secrets manager's pipe, never
    in ``ps``) takes the first line of standard input."""
    from ofc_fast.serve import cli as serve_cli

    seen: list[object] = []
    monkeypatch.setattr(serve_cli, "run_server", lambda config, *a: seen.append(config))
    _stdin(monkeypatch, b"s3cret-key-from-a-pipe\nnot the key\n")
    assert cli.main(["serve", "--port", "0", "--api-key-file", "-"]) == 0
    assert [getattr(c, "api_key", None) for c in seen] == ["s3cret-key-from-a-pipe"]


def test_a_dash_with_standard_input_closed_names_the_argument(
    capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    """``ofc-fast replay - <&-``: no standard input to read, said of FILE."""
    monkeypatch.setattr("sys.stdin", None)
    code, _, err = run(capsys, "replay", "-")
    assert code == 2 and err.startswith("ofc-fast: error: FILE: '-': "), err
    code, _, err = run(capsys, "play", "--rules", "-")
    assert code == 2 and err.startswith("ofc-fast: error: --rules: '-': "), err


class _FailingInput(io.RawIOBase):
    """A standard input whose every read fails with EIO (a hung-up terminal, a
    failing disk)."""

    def readable(self) -> bool:
        return True

    def readinto(self, buffer: object) -> int:
        raise OSError(errno.EIO, os.strerror(errno.EIO))


def test_a_line_read_from_standard_input_leaves_the_rest(
    monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    """Regression: ``serve --api-key-file -`` takes the first line of standard input
    and leaves the rest for another reader; read through a buffering wrapper, it took
    a whole chunk (up to 8 KiB) and the rest was lost.  The ``-`` file, a line read,
    hands standard input on where the line ends; and its ``fileno()`` is standard
    input's (the report's never-write-over-an-input check reads it)."""
    from ofc_fast.cli.options import input_file

    path = tmp_path / "in"
    path.write_bytes(b"key-one\nthe rest\n")
    with open(path, "rb") as f:
        monkeypatch.setattr(sys, "stdin", io.TextIOWrapper(f))
        dash = input_file("-")
        assert not isinstance(dash, str)
        assert dash.readline(4096) == b"key-one\n"
        assert dash.fileno() == f.fileno()
        assert sys.stdin.buffer.read() == b"the rest\n"


@pytest.mark.parametrize(
    ("argv", "option"),
    [
        (["replay", "-"], "FILE"),
        (["rules", "-"], "NAME"),
        (["play", "--hands", "1", "--rules", "-"], "--rules"),
        (["report", "-", "{history}", "-o", "{out}"], "REPORT"),
        (["report", "{report}", "-", "-o", "{out}"], "HISTORY"),
        (["serve", "--port", "0", "--api-key-file", "-"], "--api-key-file"),
    ],
)
def test_a_dash_whose_standard_input_fails_to_read_says_so(
    argv: list[str],
    option: str,
    match_files: dict[str, Path],
    tmp_path: Path,
    capsys: pytest.CaptureFixture[str],
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """Regression: ``ofc-fast replay - 0> FILE`` (standard input that cannot be
    read: EBADF, EIO) printed ``ofc-fast: error: [Errno 9] Bad file descriptor``,
    naming neither the argument nor standard input (``report``: the same; ``rules
    -``: "cannot read '-'"): every ``-`` reads standard input one way, and a failed
    read is one line naming the argument, standard input and the cause, exit 2."""
    from ofc_fast.serve import cli as serve_cli

    monkeypatch.setattr(serve_cli, "run_server", lambda *a: pytest.fail("served"))
    monkeypatch.setattr("sys.stdin", io.TextIOWrapper(io.BufferedReader(_FailingInput())))
    names = {k: str(v) for k, v in match_files.items()} | {"out": str(tmp_path / "r.html")}
    code, _, err = run(capsys, *[a.format(**names) for a in argv])
    assert code == 2 and err == (
        f"ofc-fast: error: {option}: cannot read '-' (standard input): "
        f"{os.strerror(errno.EIO)}\n"
    ), err
    assert not (tmp_path / "r.html").exists()


@pytest.mark.parametrize(
    ("argv", "said"),
    [
        (["replay", "-"], "FILE: cannot read '-' (standard input)"),
        (["bot", "random"], "cannot read standard input"),  # (the bot's host)
    ],
)
def test_a_standard_input_that_is_write_only_says_so(
    tmp_path: Path, argv: list[str], said: str
) -> None:
    """Regression: ``ofc-fast replay - 0> FILE`` (standard input open for writing
    only) printed ``ofc-fast: error: [Errno 9] Bad file descriptor``, and so did
    ``ofc-fast bot random 0> FILE``; each names standard input (and the argument)
    and the cause, exit status 2."""
    with open(tmp_path / "written", "wb") as stdin:
        done = subprocess.run(
            [sys.executable, "-m", "ofc_fast", *argv],
            stdin=stdin,
            capture_output=True,
            text=True,
            env=package_env(),
            timeout=120,
        )
    assert done.returncode == 2 and done.stderr == (
        f"ofc-fast: error: {said}: {os.strerror(errno.EBADF)}\n"
    ), done.stderr


def test_bot_refuses_rules_from_the_standard_input_it_plays_on(
    capsys: pytest.CaptureFixture[str],
) -> None:
    """``ofc-fast bot random --rules -`` would read the arena's messages as rules:
    standard input carries the protocol (without ``--connect``)."""
    code, _, err = run(capsys, "bot", "random", "--rules", "-")
    assert code == 2 and err.startswith("ofc-fast: error: --rules: '-' (standard input)")


@pytest.mark.parametrize(
    "argv",
    [
        ["play", "--stacks", "9" * 5000],  # (past int()'s 4,300 digits)
        ["play", "--stacks", "lots" * 1000],
        ["play", "--bots", "random," * 1000],
        ["play", "--stacks", "100,," + "1" * 5000],
        ["play", "--bots", "x" * 5000],  # an unknown bot (UnknownBotError)
        ["arena", "--bot", "x" * 900, "--bot", "random"],  # (a seat's name: 1,000)
    ],
)
def test_a_long_bad_list_is_quoted_short(
    capsys: pytest.CaptureFixture[str], argv: list[str]
) -> None:
    """``ofc-fast play --stacks <5,000 digits>`` printed all 5,000 in its one-line
    error (as ``--bots 'random,random,...,'``): the value is quoted short, as every
    other refused value is."""
    code, out, err = run(capsys, *argv)
    assert code == 2 and out == "" and err.count("\n") == 1, err
    assert err.startswith(f"ofc-fast: error: {argv[1]}: ") and len(err) < 300, err


ADVISE = ["advise", "--rules", "pineapple", "--board"]


@pytest.mark.parametrize(
    ("symbols", "letters"),
    [
        (["eval", "A♠ K♠ Q♠"], ["eval", "As Ks Qs"]),
        (
            ["score", "Q♥ Q♦ 2♣ / 9♠ 9♥ 9♦ 5♣ 5♦ / A♠ K♠ Q♠ J♠ T♠", BOARD_B],
            ["score", BOARD_A, BOARD_B],
        ),
        (
            ["solve", "A♦ A♥ T♥ J♥ 6♥ T♠ 5♦ 3♣ T♣ 3♠ 7♥ Q♥ 3♦ 9♠"],
            ["solve", "Ad Ah Th Jh 6h Ts 5d 3c Tc 3s 7h Qh 3d 9s"],
        ),
        (
            [*ADVISE, "Q♥ / 9♠ 9♥ / A♠ K♠", "--dealt", "2♣ 5♦ T♠", "--opponent"]
            + ["7♣ / 8♦ 8♥ / 4♠ 4♦", "--dead", "3♣"],
            [*ADVISE, "Qh / 9s 9h / As Ks", "--dealt", "2c 5d Ts", "--opponent"]
            + ["7c / 8d 8h / 4s 4d", "--dead", "3c"],
        ),
    ],
)
def test_suit_symbols_typed_in_a_c_locale_are_cards(
    symbols: list[str], letters: list[str]
) -> None:
    r"""``LC_ALL=C ofc-fast eval "A♠ K♠ Q♠"`` said "bad card 'A\udce2\udc99\udca0'":
    Python read the UTF-8 typed as ASCII; the cards and boards are read as the UTF-8
    typed, and give what their letters give."""
    unset = ("PYTHONIOENCODING", "LANG", "LC_ALL", "LC_CTYPE")
    env = {k: v for k, v in package_env().items() if k not in unset}
    env.update({"PYTHONUTF8": "0", "LC_ALL": "C"})
    seed = ["--seed", "1", "--samples", "8"] if symbols[0] == "advise" else []
    out = [
        subprocess.run(
            [sys.executable, "-m", "ofc_fast", *argv, *seed, "--json"],
            capture_output=True,
            timeout=120,
            env=env,
        )
        for argv in (symbols, letters)
    ]
    assert [p.returncode for p in out] == [0, 0], out[0].stderr
    assert json.loads(out[0].stdout) == json.loads(out[1].stdout)


# -- a choice is read in any case, as the library reads one


def _choice_options() -> list[tuple[str, str, tuple[str, ...]]]:
    """(command, option, choices) of every option with ``choices=`` in ``ofc-fast``."""
    found = []
    for name, command in cli.build_parser().commands.items():
        for action in command._actions:
            if action.option_strings and action.choices:
                found.append((name, action.option_strings[-1], tuple(action.choices)))
    return found


def test_every_choice_option_is_found() -> None:
    """The options the tests below read (so that they cannot pass on none)."""
    found = {(name, option) for name, option, _ in _choice_options()}
    assert {("serve", "--log-level"), ("arena", "--fault-policy")} <= found
    assert ("advise", "--exact") in found


@pytest.mark.parametrize(
    ("argv", "dest", "want"),
    [
        (["serve", "--log-level", "INFO"], "log_level", "info"),
        (["serve", "--log-level", " Warning "], "log_level", "warning"),
        (
            ["arena", "--bot", "random", "--fault-policy", "Forfeit"],
            "fault_policy",
            "forfeit",
        ),
        (["advise", "--dealt", "As", "--exact", "YES"], "exact", "yes"),
    ],
)
def test_a_choice_is_read_in_any_case(argv: list[str], dest: str, want: str) -> None:
    """``ofc-fast serve --log-level INFO`` said "invalid choice: 'INFO'", where the
    library reads a word in any case (``rules.get("ofc")``): the option's value is
    the choice as the option spells it."""
    assert getattr(cli.build_parser().parse_args(argv), dest) == want


def test_every_choice_option_takes_its_choices_in_capitals(
    capsys: pytest.CaptureFixture[str],
) -> None:
    """Each option with choices (those of commands to come too) takes each in
    capitals: the word is read before ``--help``, which then ends the parse."""
    parser = cli.build_parser()
    for name, option, choices in _choice_options():
        for word in choices:
            with pytest.raises(SystemExit) as stop:
                parser.parse_args([name, option, word.upper(), "--help"])
            assert stop.value.code == 0, (name, option, capsys.readouterr().err)
    capsys.readouterr()


def test_train_reads_its_opponent_in_any_case(capsys: pytest.CaptureFixture[str]) -> None:
    """``python -m ofc_fast.learned.train --opponent Random``: read as ``random``."""
    from ofc_fast.learned import train

    with pytest.raises(SystemExit) as stop:
        train.main(["--opponent", "Random", "--help"])
    assert stop.value.code == 0, capsys.readouterr().err


def test_train_help_says_what_each_option_is_and_its_default(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """``python -m ofc_fast.learned.train --help`` said nothing of ``--players``,
    ``--seed``, ``--epochs``, ``--eval-samples`` and ``--quiet`` but their names, and
    no option's default (4000 ``--deals``, 16 ``--samples``, the pineapple rules):
    each option says what it is, and the default ``train()`` takes."""
    import inspect

    from ofc_fast.learned import train

    class Parsed(Exception):
        """Raised in place of the parse, carrying the parser."""

    def taken(self: argparse.ArgumentParser, *args: object, **kwargs: object) -> None:
        raise Parsed(self)

    monkeypatch.setattr(argparse.ArgumentParser, "parse_known_args", taken)
    with pytest.raises(Parsed) as parsed:
        train.main([])
    parser = parsed.value.args[0]
    helps = {}  # option -> its --help lines, thousands written without commas
    options = [a for a in parser._actions if not isinstance(a, argparse._HelpAction)]
    assert [a.option_strings for a in options if not (a.help or "").strip()] == []
    for action in options:
        formatter = parser._get_formatter()
        formatter.add_argument(action)
        text = " ".join(formatter.format_help().split())
        helps[action.option_strings[0]] = re.sub(r"(\d),(\d{3})\b", r"\1\2", text)
    defaults = {"--rules": "pineapple"}
    for name, param in inspect.signature(train.train).parameters.items():
        if isinstance(param.default, (int, float, str, tuple)) and name != "progress":
            shown = param.default
            if isinstance(shown, tuple):
                shown = ",".join(str(w) for w in shown)
            defaults["--" + name.replace("_", "-")] = str(shown)
    assert len(defaults) >= 15 and defaults.keys() <= helps.keys()
    unsaid = [
        (option, value)
        for option, value in defaults.items()
        if not re.search(rf"\bdefault:? {re.escape(value)}\)", helps[option])
    ]
    assert unsaid == []


@pytest.mark.parametrize("word", ["loud", "x" * 5000])
def test_a_bad_choice_lists_the_choices(
    capsys: pytest.CaptureFixture[str], word: str
) -> None:
    """A word that names no choice is the parser's error listing them, the word
    quoted short; ``--help`` still shows them."""
    with pytest.raises(SystemExit) as stop:
        cli.build_parser().parse_args(["serve", "--log-level", word])
    err = capsys.readouterr().err
    assert stop.value.code == 2
    last = err.splitlines()[-1]
    assert last.startswith(
        "ofc-fast serve: error: argument --log-level: must be one of debug, info, "
        "warning, error, got '"
    ), err
    assert len(last) < 200, last
    with pytest.raises(SystemExit):
        cli.build_parser().parse_args(["serve", "--help"])
    assert "{debug,info,warning,error}" in capsys.readouterr().out


@pytest.mark.parametrize("command", ["play", "arena"])
@pytest.mark.parametrize("history", ["/dev/stdout", "{out}"])
def test_a_history_on_standard_output_beside_json_alone_is_refused(
    tmp_path: Path, command: str, history: str
) -> None:
    """``play --json --history /dev/stdout > out.txt`` (or the file standard output
    is, by its name) opened the file again over the JSON: the deals were lost, the
    file a part of each.  --json alone writes there: the history is refused."""
    out = tmp_path / "out.txt"
    seats = ["--bots", "random"] if command == "play" else ["--bot", "random"] * 2
    argv = [command, *seats, "--hands", "1", "--json", "--history", history]
    with open(out, "w", encoding="utf-8") as f:
        done = subprocess.run(
            [sys.executable, "-m", "ofc_fast", *[a.format(out=out) for a in argv]],
            stdout=f,
            stderr=subprocess.PIPE,
            text=True,
            env=package_env(),
            timeout=120,
        )
    assert done.returncode == 2 and done.stderr.count("\n") == 1, done.stderr
    assert done.stderr.startswith("ofc-fast: error: --history: "), done.stderr
    assert out.read_text(encoding="utf-8") == ""


@pytest.mark.parametrize("command", ["play", "arena"])
def test_a_history_on_the_null_device_beside_json_to_it_is_no_clash(command: str) -> None:
    """``--json --history /dev/null`` with standard output also ``/dev/null`` (a
    script that keeps neither) was refused as the JSON's file: a device keeps nothing
    to write over, so the match runs (exit 0)."""
    if not os.path.exists(os.devnull) or os.devnull != "/dev/null":
        pytest.skip("run on a POSIX system with /dev/null")
    seats = ["--bots", "random"] if command == "play" else ["--bot", "random"] * 2
    argv = [command, *seats, "--hands", "1", "--json", "--history", os.devnull]
    with open(os.devnull, "w", encoding="utf-8") as null:
        done = subprocess.run(
            [sys.executable, "-m", "ofc_fast", *argv],
            stdout=null,
            stderr=subprocess.PIPE,
            stdin=subprocess.DEVNULL,
            text=True,
            env=package_env(),
            timeout=120,
        )
    assert done.returncode == 0, done.stderr


def test_outputs_that_keep_nothing_and_the_word_auto_are_no_clash(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    """Two outputs on the null device (``--json /dev/null --history /dev/null``) were
    refused as one file, and ``advise --model auto --json auto`` took the word
    ``auto`` (the shipped model) for a model file the JSON would be written over;
    both run.  Two names of one new file, and a long path, are still refused, the
    path quoted short."""
    monkeypatch.chdir(tmp_path)
    (tmp_path / "auto").write_text("{}", encoding="utf-8")
    if os.devnull == "/dev/null":
        null = ["--json", os.devnull, "--history", os.devnull]
        assert cli.main(["play", "--bots", "random", "--hands", "1", *null]) == 0
    dealt = ["--dealt", "As Kd 9h 9c 4s", "--samples", "4", "--seed", "1"]
    assert cli.main(["advise", *dealt, "--model", "auto", "--json", "auto"]) == 0
    capsys.readouterr()
    long = "d" * 150 + "/" + "e" * 150 + ".json"
    (tmp_path / long).parent.mkdir()
    two = ["--json", long, "--history", f"./{long}"]
    assert cli.main(["play", "--bots", "random", "--hands", "1", *two]) == 2
    err = capsys.readouterr().err
    assert "--history: " in err and "is the --json file too" in err
    assert long not in err and len(err) < 400, err


def test_two_outputs_into_one_pipe_are_refused() -> None:
    """``--json /dev/stdout --history /dev/stdout | cat`` wrote both documents into
    the one pipe, run together (no JSON a reader could load), once outputs were
    compared as regular files only: one pipe is one file, and is refused."""
    if not os.path.exists("/dev/stdout"):
        pytest.skip("run on a system with /dev/stdout")
    outs = ["--json", "/dev/stdout", "--history", "/dev/stdout", "--quiet"]
    done = subprocess.run(
        [
            sys.executable,
            "-m",
            "ofc_fast",
            "play",
            "--bots",
            "random",
            "--hands",
            "1",
            *outs,
        ],
        capture_output=True,
        stdin=subprocess.DEVNULL,
        text=True,
        env=package_env(),
        timeout=120,
    )
    assert done.returncode == 2 and done.stdout == "", done
    assert "--history: '/dev/stdout' is the --json file too" in done.stderr


@pytest.mark.parametrize("long", [False, True])
def test_a_file_a_command_cannot_read_or_write_is_quoted_one_way(
    capsys: pytest.CaptureFixture[str],
    match_files: dict[str, Path],
    tmp_path: Path,
    long: bool,
) -> None:
    """``replay FILE`` and ``report REPORT HISTORY`` said ``cannot read no such.jsonl``
    (the name bare, where it ends unseen), ``--rules`` and ``--api-key-file``
    ``cannot read 'no such.json'``, and ``report -o /dev/full`` ``cannot write
    /dev/full`` where ``--json`` says ``cannot write '/dev/full'``: every file a
    command cannot read or write is named quoted, a long name (here 300 characters,
    which ``--rules`` printed whole) cut alike."""
    folder = tmp_path / ("d" * 300 if long else "no such")
    missing = str(folder / "f.json")
    rep, hist = str(match_files["report"]), str(match_files["history"])
    page = str(tmp_path / "p.html")
    cases = [
        (["replay", missing], "FILE: cannot read "),
        (["report", missing, hist, "-o", page], "REPORT: cannot read the report "),
        (["report", rep, missing, "-o", page], "HISTORY: cannot read "),
        (["rules", missing], "NAME: cannot read "),
        (["play", "--rules", missing], "--rules: cannot read "),
        (["serve", "--api-key-file", missing], "--api-key-file: cannot read "),
    ]
    shown = set()
    for argv, said in cases:
        code, out, err = run(capsys, *argv)
        assert code == 2 and out == "" and err.count("\n") == 1, (argv, err)
        assert err.startswith(f"ofc-fast: error: {said}'"), (argv, err)
        name = err[len(f"ofc-fast: error: {said}") :].rsplit(": ", 1)[0]
        shown.add(name)
        assert len(name) <= 200 and name.endswith("f.json'"), (argv, err)
    assert len(shown) == 1, shown
    if not long:
        assert shown == {repr(missing)}
    code, _, err = run(capsys, "report", rep, hist, "-o", "/dev/full")
    assert code == 2 and err.startswith(
        "ofc-fast: error: --output: cannot write '/dev/full':"
    )


# -- a bot that fails in one process, as with --workers


@pytest.mark.parametrize(
    ("bot", "raised"),
    [("crasher", r"RuntimeError\('boom'\)"), ("quitter", r"SystemExit\(0\)")],
)
def test_a_bot_that_fails_in_one_process_is_named_as_in_a_parallel_run(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], bot: str, raised: str
) -> None:
    """``ofc-fast play`` in one process with a bot that raised ended in a traceback
    (exit status 1), one that called ``sys.exit(0)`` silently with exit status 0 (no
    summary, no ``--json``); ``--workers`` named the deal, the seat and the bot (exit
    status 2).  Both say the same now, and write the same files: the deals played
    before it in ``--history``, no ``--json``.  A Python caller of ``Match.play``
    still gets the bot's own exception."""
    spec = f"ofc_fast.parallel._chaos:{bot}"
    args = ["play", "--players", "2", "--hands", "20", "--seed", "1", "--quiet"]
    args += ["--bots", f"{spec},random"]
    errs, played = [], []
    for parallel in ([], ["--workers", "1", "--chunk-size", "1"]):
        hist, report = tmp_path / f"h{len(errs)}.jsonl", tmp_path / f"r{len(errs)}.json"
        extra = ["--history", str(hist), f"--json={report}"]
        code, out, err = run(capsys, *args, *extra, *parallel)
        assert (code, out, report.exists()) == (2, "", False), (err, parallel)
        errs.append(err)
        played.append(
            [json.loads(line)["hand_no"] for line in hist.read_text().splitlines()]
        )
    said = rf"ofc-fast: error: deal (\d+), seat 0 \(bot '{re.escape(spec)}'\) raised {raised}\n"
    found = re.fullmatch(said, errs[0])
    assert found and errs[1] == errs[0], errs
    # deal N (counted from 1) is hand_no N - 1: the one after the deals played
    assert played[0] == played[1] == list(range(int(found[1]) - 1)), played
    from ofc_fast.bots import make_bots
    from ofc_fast.game import Match

    match = Match("pineapple", 2, seed=1)
    with pytest.raises(SystemExit if bot == "quitter" else RuntimeError):
        match.play(make_bots([spec, "random"], 2, "pineapple", seed=1), 20)


def test_a_bot_that_plays_an_illegal_move_is_named_as_one_that_raises(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """A ``--bots`` bot's illegal move said "seat 0 (FaultyBot): the move puts ..."
    in one process (its class, no deal) and the engine's words alone with
    ``--workers`` (no deal, seat or bot): both name the deal, the seat and the bot
    as typed, as for a bot that raises, and keep the engine's words (exit status 2,
    no ``--json``)."""
    spec = "ofc_fast.parallel._chaos:cheater"
    args = ["play", "--players", "2", "--hands", "5", "--seed", "1", "--quiet"]
    args += ["--bots", f"random,{spec}"]
    errs = []
    for parallel in ([], ["--workers", "1", "--chunk-size", "1"]):
        report = tmp_path / f"r{len(errs)}.json"
        code, out, err = run(capsys, *args, f"--json={report}", *parallel)
        assert (code, out, report.exists()) == (2, "", False), (err, parallel)
        errs.append(err)
    said = (
        rf"ofc-fast: error: deal 1, seat 1 \(bot '{re.escape(spec)}'\) played an "
        r"illegal move: the move puts more cards in a row than it has room for: the "
        r"front row of seat 1 takes 3 cards; the move would put 5 there\n"
    )
    assert re.fullmatch(said, errs[0]) and errs[1] == errs[0], errs


def test_a_bot_that_raises_a_move_error_is_named_alike_with_workers(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    """A bot whose ``act`` raised a MoveError of its own (a search of its own that
    played an illegal move) was named with its deal, seat and bot in one process,
    and said the MoveError's words alone with ``--workers``: named alike now."""
    module = tmp_path / "own_move_error_bot.py"
    module.write_text(
        "from ofc_fast.errors import MoveError\n\n\n"
        "class Bot:\n"
        "    def __init__(self, rules=None, seed=None):\n"
        "        pass\n\n"
        "    def act(self, observation):\n"
        "        raise MoveError('card Ah was not dealt', 'not_dealt')\n"
    )
    monkeypatch.syspath_prepend(str(tmp_path))
    args = ["play", "--players", "2", "--hands", "2", "--seed", "1", "--quiet"]
    args += ["--bots", "random,own_move_error_bot:Bot"]
    errs = [run(capsys, *args, *parallel) for parallel in ([], ["--workers", "1"])]
    said = (
        "ofc-fast: error: deal 1, seat 1 (bot 'own_move_error_bot:Bot') played an "
        "illegal move: card Ah was not dealt\n"
    )
    assert errs == [(2, "", said)] * 2, errs


def test_finish_hands_the_bots_own_illegal_move_to_its_caller() -> None:
    """Regression: ``ofc-fast play`` named a bot's illegal move (deal, seat, bot) by
    reading the ``__context__`` of play_out's "seat S (class): ..." MoveError, which
    its ``raise ... from None`` only happened to keep: raised any other way, the deal,
    seat and bot were lost.  finish hands the seat and the bot's own MoveError to its
    caller's ``illegal`` and raises what that makes; play_out's words are the same."""
    from ofc_fast.errors import MoveError
    from ofc_fast.game.state import finish, play_out

    own = MoveError("card Ah was not dealt", "not_dealt")

    class Refused:  # every move: the bot's own MoveError
        def act(self, observation: object) -> None:
            raise own

    seen: list[tuple[int, MoveError]] = []
    made = GameError("named by the caller")

    def illegal(seat: int, exc: MoveError) -> GameError:
        seen.append((seat, exc))
        return made

    game = ofc.Game("pineapple", 2, seed=3)
    first = game.to_act
    with pytest.raises(GameError) as raised:
        finish(game, [Refused(), Refused()], illegal)
    assert raised.value is made and seen == [(first, own)] and seen[0][1] is own
    assert game.to_act == first  # the game as it was
    with pytest.raises(MoveError) as default:
        play_out(game, [Refused(), Refused()])
    assert str(default.value) == f"seat {first} (Refused): card Ah was not dealt"
    assert default.value.reason == "not_dealt" and default.value.__cause__ is None
    assert default.value.__suppress_context__
