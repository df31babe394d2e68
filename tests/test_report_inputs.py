"""The report's inputs under attack: hand histories and
match reports are checked against their schemas before anything is written, every
bad file gets a named error (HistoryError, ArenaError) and a one-line CLI error, the
page escapes what it writes, and a long history gives a bounded page in bounded memory.
The browser half of the page's checks is tests/test_arena_html.py."""

from __future__ import annotations

import copy
import io
import json
import random
import re
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest
from md_blocks import fenced_blocks
from report_data import deals, report_of, write
from scripts import checkout_file

from ofc_fast.arena.history import (
    MAX_LINE_BYTES,
    check_record,
    load_schema,
    read_histories,
)
from ofc_fast.arena.html import html_report, sidecar_path, write_html_report
from ofc_fast.arena.report import REPORT_SCHEMA_PATH, check_report, read_report
from ofc_fast.cli import main
from ofc_fast.errors import ArenaError, HistoryError, OfcError


@pytest.fixture(scope="module")
def lines() -> list[dict[str, Any]]:
    return deals(4)


def _nested(depth: int) -> str:
    return "[" * depth + "]" * depth


def _line(rec: dict[str, Any], **edit: Any) -> dict[str, Any]:
    out = copy.deepcopy(rec)
    out.update(edit)
    return out


def _history_cases(rec: dict[str, Any]) -> dict[str, Any]:
    """Bad history lines (the issue's and the other fields the page uses), each a
    dict, a JSON text or raw bytes."""
    text = json.dumps(rec)
    deep = _nested(50_000)
    deep_history = json.dumps({**rec, "history": "@"}).replace('"@"', deep)
    deep_moves = json.dumps({**rec, "history": {**rec["history"], "moves": "@"}})
    return {
        "invalid UTF-8": text.encode().replace(b'"heuristic"', b'"heur\xffistic"', 1),
        "empty seats": _line(rec, seats=[]),
        "50,000-deep history": deep_history,
        "50,000-deep moves": deep_moves.replace('"@"', deep),
        "hand_no text": _line(rec, hand_no="<img src=x onerror=alert(1)>"),
        "hand_no bool": _line(rec, hand_no=True),
        "hand_no float": _line(rec, hand_no=1.5),
        "hand_no negative": _line(rec, hand_no=-5),
        "seats of ints": _line(rec, seats=[1, 2]),
        "one seat too many": _line(rec, seats=["a", "b", "c"], points=[0, 0, 0]),
        "points text": _line(rec, points=["<svg onload=alert(1)>", 0]),
        "points not the replay's": _line(rec, points=[999, -999]),
        "history a list": _line(rec, history=[]),
        "moves an object": _line(rec, history={**rec["history"], "moves": {}}),
        "lone surrogate": text.replace('"heuristic"', '"\\ud800"', 1),
        "NaN": text.replace('"hand_no": 0', '"hand_no": NaN', 1),
        "not an object": "[1, 2]",
        "not JSON": "{'format': 1}",
        "too long": '{"format": "' + "x" * MAX_LINE_BYTES + '"}',
        "huge int": text.replace('"hand_no": 0', '"hand_no": ' + "9" * 5000, 1),
    }


def test_history_errors_are_named(lines: list[dict[str, Any]], tmp_path: Path) -> None:
    """Every bad line raises HistoryError naming the file and line (before:
    UnicodeDecodeError, RecursionError, IndexError or nothing at all)."""
    good = lines[0]
    for name, bad in _history_cases(good).items():
        _, hist = write(tmp_path, report_of(lines), [good, bad])
        with pytest.raises(HistoryError, match=r"h\.jsonl, line 2: ") as err:
            list(read_histories(hist))
        assert "\n" not in str(err.value), name
        assert len(str(err.value)) < 400, name


def test_a_hand_written_twice_is_refused_naming_its_line(
    lines: list[dict[str, Any]], tmp_path: Path
) -> None:
    """A history with a line written twice (hand 1 again, or hand 0) was read whole:
    ``replay`` printed every copy, ``report`` refused it only where the count of
    deals differed.  Two matches appended, each from hand 0, are still read."""
    assert [r["hand_no"] for r in lines] == [0, 1, 2, 3]
    for rows, said in (
        ([0, 1, 1, 2], "line 3: hand_no: hand 1 again (line 2)"),
        ([0, 0, 1], "line 2: hand_no: hand 0 again (line 1)"),
        ([0, 2, 1], "line 3: hand_no: hand 1 after hand 2 (line 2)"),
    ):
        _, hist = write(tmp_path, report_of(lines), [lines[r] for r in rows])
        with pytest.raises(HistoryError) as err:
            list(read_histories(hist))
        assert str(err.value).startswith(f"{hist}, {said}: "), err.value
    _, hist = write(tmp_path, report_of(lines), [*lines, *lines[:2]])
    assert [d.line for d in read_histories(hist)] == [1, 2, 3, 4, 5, 6]


def test_an_integer_too_long_to_read_is_said_as_such(
    lines: list[dict[str, Any]], tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """A history line (or a report) holding an integer of more than 4,300 digits was
    "not JSON (Exceeds the limit (4300 digits) for integer string conversion ...":
    the interpreter's words, which point at ``sys.set_int_max_str_digits()``."""
    said = "an integer of 5000 digits, which no field takes"
    rep, hist = write(tmp_path, report_of(lines), [lines[0]])
    hist.write_text('{"hand_no": ' + "9" * 5000 + "}\n", encoding="utf-8")
    with pytest.raises(HistoryError) as err:
        list(read_histories(hist))
    assert str(err.value) == f"{hist}, line 1: {said}"
    assert main(["replay", str(hist)]) == 2
    assert capsys.readouterr().err.endswith(f" {hist}, line 1: {said}\n")
    rep.write_text('{"hands": -' + "1" * 5000 + "}", encoding="utf-8")
    with pytest.raises(ArenaError, match=f"^{re.escape(str(rep))}: {said}$"):
        read_report(rep)


@pytest.mark.parametrize("command", ["report", "replay"])
def test_bad_history_is_a_one_line_cli_error(
    command: str,
    lines: list[dict[str, Any]],
    tmp_path: Path,
    capsys: pytest.CaptureFixture[str],
) -> None:
    """`ofc-fast report` and `ofc-fast replay` on a bad history: exit 2, one line on
    stderr, no traceback, no page."""
    for name, bad in _history_cases(lines[0]).items():
        rep, hist = write(tmp_path, report_of(lines), [lines[0], bad])
        page = tmp_path / "out.html"
        args = [command, str(rep), str(hist), "-o", str(page)]
        code = main(args if command == "report" else [command, str(hist)])
        err = capsys.readouterr().err
        assert code == 2, name
        assert err.startswith("ofc-fast: error: ") and err.count("\n") == 1, (name, err)
        assert "line 2" in err, (name, err)
        assert not page.exists() and not sidecar_path(page).exists(), name
        assert sorted(p.name for p in tmp_path.iterdir()) == ["h.jsonl", "r.json"], name


def test_replay_prints_the_deals_before_a_bad_line_as_docs_report_says(
    lines: list[dict[str, Any]], tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """docs/report.md said replay, like report, checks the files before writing
    anything; it streams: the deals before the first bad line are printed."""
    _, hist = write(tmp_path, report_of(lines), [lines[0], _line(lines[0], seats=[])])
    assert main(["replay", str(hist)]) == 2
    out, err = capsys.readouterr()
    assert out.startswith(f"hand {lines[0]['hand_no']} ") and "line 2" in err
    page = checkout_file("docs/report.md").read_text(encoding="utf-8")
    assert "prints the deals before the first bad line" in " ".join(page.split())


def test_docs_report_shows_the_errors_report_prints(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    """The errors docs/report.md shows are those ``ofc-fast report`` prints for such
    files (``...``: the rest of the line); it showed them without the argument the file
    came in (``HISTORY: deals.jsonl, line 7: ...``)."""
    page = checkout_file("docs/report.md").read_text(encoding="utf-8")
    (shown,) = fenced_blocks(page, "text")
    good = deals(7)
    text = json.dumps(good[1]).encode()
    bad_byte = text[:136] + b"\xff" + text[137:]
    hostile = report_of(good)
    hostile["bots"][0]["fouls"] = "<svg onload=alert(1)>"
    cases = [  # the page's order: (history lines, report)
        ([*good[:6], _line(good[6], hand_no="<img src=x onerror=alert(1)>")], None),
        ([good[0], bad_byte], None),
        ([good[0], "[" * 50_000 + "]" * 50_000], None),
        ([good[0], _line(good[1], seats=[])], None),
        (good, hostile),
    ]
    monkeypatch.chdir(tmp_path)
    assert len(shown.splitlines()) == len(cases)
    for line, (history, report) in zip(shown.splitlines(), cases):
        rep, hist = write(tmp_path, report or report_of(good), history)
        rep.replace("report.json"), hist.replace("deals.jsonl")
        assert main(["report", "report.json", "deals.jsonl", "-o", "page.html"]) == 2
        err = capsys.readouterr().err.rstrip("\n")
        wanted = ".*".join(re.escape(part) for part in line.split("..."))
        assert re.fullmatch(wanted, err), (line, err)


def _report_cases(report: dict[str, Any]) -> dict[str, Any]:
    bot = report["bots"][0]
    hostile = "<svg onload=alert(1)>"
    return {
        "fouls text": {**report, "bots": [{**bot, "fouls": hostile}, report["bots"][1]]},
        "fantasylands text": {**report, "bots": [{**bot, "fantasylands": hostile}]},
        "scoops list": {**report, "bots": [{**bot, "scoops": [hostile]}]},
        "royalties float": {**report, "bots": [{**bot, "royalties": 1.5}]},
        "faults bool": {**report, "bots": [{**bot, "faults": True}]},
        "p50 text": {**report, "bots": [{**bot, "decisions": {"p50_ms": hostile}}]},
        "decks text": {**report, "duplicate": {"decks": hostile, "pairs": []}},
        "pair name int": {
            **report,
            "duplicate": {
                "decks": 1,
                "pairs": [
                    {
                        "a": 1,
                        "b": "x",
                        "difference_per_deck_mean": 0,
                        "difference_per_deck_ci95": 0,
                    }
                ],
            },
        },
        "hands text": {**report, "hands": hostile},
        "same name twice": {**report, "bots": [bot, bot]},
        "no bots": {k: v for k, v in report.items() if k != "bots"},
        "a list": [report],
        "schema version 2": {**report, "schema_version": 2},
        "infinite mean": {
            **report,
            "bots": [{**bot, "points_per_hand_mean": float("inf")}],
        },
    }


def test_report_errors_are_named(lines: list[dict[str, Any]], tmp_path: Path) -> None:
    """Every report field the page writes is checked: ArenaError naming it (before,
    `fouls`, `fantasylands`, `scoops`, `royalties`, `faults`, `decks` were
    written unescaped and unchecked)."""
    for name, bad in _report_cases(report_of(lines)).items():
        with pytest.raises(ArenaError, match="report: "):
            check_report(bad)
        rep = tmp_path / "r.json"
        rep.write_text(json.dumps(bad))
        # (json.dumps writes an infinite mean as Infinity, no JSON: refused as such)
        said = r"not JSON \(Infinity is not JSON\)" if "infinite" in name else "report: "
        with pytest.raises(ArenaError, match=rf"r\.json: {said}"):
            read_report(rep)
        with pytest.raises(ArenaError):
            html_report(bad, lines)
        assert name


@pytest.mark.parametrize(
    "data",
    [b"\xff{}", b"[" * 50_000, b"{}", b"", b"x" * (16 * 2**20 + 1)],
    ids=["not UTF-8", "deep", "empty object", "empty", "too long"],
)
def test_bad_report_file(data: bytes, tmp_path: Path) -> None:
    rep = tmp_path / "r.json"
    rep.write_bytes(data)
    with pytest.raises(ArenaError, match=r"r\.json: "):
        read_report(rep)


def _mutations(rec: Any, rng: random.Random) -> Any:
    """``rec`` with one value somewhere replaced by something of another type."""
    out = copy.deepcopy(rec)
    node, path = out, []
    while isinstance(node, (dict, list)) and node and rng.random() < 0.75:
        key = rng.choice(list(node)) if isinstance(node, dict) else rng.randrange(len(node))
        path.append(key)
        if not isinstance(node[key], (dict, list)) or rng.random() < 0.3:
            node[key] = rng.choice(
                [
                    None,
                    True,
                    -1,
                    0,
                    2**60,
                    1.5,
                    "",
                    "<b>",
                    [],
                    {},
                    [0, 0, 0, 0, 0],
                    "x" * 300,
                ]
            )
            return out
        node = node[key]
    return out


def test_schema_checker_agrees_with_jsonschema(lines: list[dict[str, Any]]) -> None:
    """The package's schema checker (no dependency) accepts exactly what the
    reference validator (jsonschema, a test requirement) accepts, on the schema of a
    history line and of a report, for a thousand mutated documents each."""
    jsonschema = pytest.importorskip(
        "jsonschema", reason='pip install ".[test]" (jsonschema)'
    )
    rng = random.Random(20)
    cases = [
        (load_schema(), lines[1], check_record),
        (json.loads(REPORT_SCHEMA_PATH.read_text()), report_of(lines), check_report),
    ]
    for schema, good, check in cases:
        validator = jsonschema.Draft202012Validator(schema)
        assert validator.is_valid(good)
        check(good)
        for _ in range(1000):
            doc = _mutations(good, rng)
            try:
                check(doc)
                ours = True
            except OfcError:
                ours = False
            theirs = validator.is_valid(doc)
            if ours != theirs:
                # the package's extra rules: one entry per seat, seats among the
                # players, unique bot names, a report's bots one a seat, each playing
                # every hand, its forfeit by one of them
                assert theirs and not ours, doc
                beyond = (
                    r"entries for|appears twice|seat_count: |bots\[\d\]\.hands: "
                    r"|of a deal of \d players|forfeited_by: "
                )
                with pytest.raises(OfcError, match=beyond):
                    check(doc)


def test_page_escapes_every_text_value(lines: list[dict[str, Any]]) -> None:
    """Names, game id, rules and the forfeit are text in the page; in the JSON island
    no `<`, `>`, `&`, U+2028 or U+2029 is left (before, a seat name
    `<!--<script>` stopped the page's script; the island escaped only `</`)."""
    tag = "<x-inj a='1' b=\"2\">&amp;\u2028\u2029<!--<script>"
    names = (f"h{tag}", f"r{tag}")
    lines = [_line(d, seats=list(names)) for d in lines]
    report = report_of(lines, names)
    report.update(game_id=f"g{tag}", rules=f"R{tag}", forfeited_by=names[1])
    report["bots"][1]["faults"] = 1  # (a bot forfeits at its first fault)
    page = html_report(report, lines)
    assert "<x-inj" not in page and "<!--" not in page
    island = page.split("id='report-data'>", 1)[1].split("</script>", 1)[0]
    for ch in "<>&\u2028\u2029":
        assert ch not in island
    data = json.loads(island)
    assert data["deals"][0]["s"] == list(names)
    assert page.count("&lt;x-inj a=&#x27;1&#x27; b=&quot;2&quot;&gt;") >= 5


def _many(lines: list[dict[str, Any]], n: int) -> list[dict[str, Any]]:
    """``n`` history lines: ``lines`` over and over, renumbered."""
    return [_line(lines[i % len(lines)], hand_no=i, deck_no=i) for i in range(n)]


# VmHWM, the peak of this process's own memory (ru_maxrss would also count the parent
# it was forked from)
_MEASURE = """
import sys
from ofc_fast.arena.html import write_html_report
write_html_report(sys.argv[1], sys.argv[2], sys.argv[3], embed=20)
status = open("/proc/self/status").read()
print(status.split("VmHWM:")[1].split()[0])
"""


def _measure(tmp: Path, lines: list[dict[str, Any]], n: int) -> tuple[int, int]:
    """(page bytes, peak RSS in KiB) of `ofc-fast report` on ``n`` deals, in a fresh
    process."""
    tmp.mkdir()
    rep, hist = write(tmp, report_of(_many(lines, n)), _many(lines, n))
    out = subprocess.run(
        [sys.executable, "-c", _MEASURE, str(rep), str(hist), str(tmp / "p.html")],
        capture_output=True,
        text=True,
        timeout=300,
        check=True,
    )
    return (tmp / "p.html").stat().st_size, int(out.stdout)


@pytest.mark.skipif(
    not Path("/proc/self/status").exists(), reason="needs /proc/self/status: run on Linux"
)
def test_report_on_a_long_history_is_bounded(
    lines: list[dict[str, Any]], tmp_path: Path
) -> None:
    """Three times the deals: the same page and the same peak memory (before,
    108,000 deals took 2.7 GB, 27 KB a deal, and wrote a 111 MB page); every deal
    is in the deals file next to the page, with a header the page checks."""
    small_page, small_rss = _measure(tmp_path / "a", lines, 600)
    big_page, big_rss = _measure(tmp_path / "b", lines, 1800)
    assert big_page < small_page * 1.05, (small_page, big_page)
    assert big_rss - small_rss < 6 * 1024, (small_rss, big_rss)  # KiB; 32 MB before
    side = (tmp_path / "b" / "p.deals.jsonl").read_text().splitlines()
    head = json.loads(side[0])
    assert head["format"] == "ofc-fast/report-deals" and head["deals"] == 1800
    assert [json.loads(x)["h"] for x in side[1:]] == list(range(1800))


def test_small_history_needs_no_deals_file(
    lines: list[dict[str, Any]], tmp_path: Path
) -> None:
    rep, hist = write(tmp_path, report_of(lines), lines)
    assert write_html_report(rep, hist, tmp_path / "p.html") is None
    assert sorted(p.name for p in tmp_path.iterdir()) == ["h.jsonl", "p.html", "r.json"]
    assert (tmp_path / "p.html").stat().st_mode & 0o777 == 0o666 & ~_umask()


def _umask() -> int:
    import os

    mask = os.umask(0)
    os.umask(mask)
    return mask


def test_page_never_overwrites_an_input(
    lines: list[dict[str, Any]], tmp_path: Path
) -> None:
    rep, hist = write(tmp_path, report_of(lines), lines)
    before = hist.read_bytes()
    for output in (hist, rep, tmp_path / "h.html"):  # h.html's deals file: h.deals.jsonl
        side = sidecar_path(output)
        if output != hist and output != rep:
            hist.rename(side)
            hist = side
        with pytest.raises(ArenaError, match="is an input of the report"):
            write_html_report(rep, hist, output)
    assert hist.read_bytes() == before


def test_page_never_overwrites_an_open_input_or_a_hard_link(
    lines: list[dict[str, Any]], tmp_path: Path
) -> None:
    """A history read from an open file (``ofc-fast report r.json - -o h.html <
    h.deals.jsonl``) or through a hard link was written over by the page's deals file
    (the page): only the paths of the inputs were compared."""
    rep, hist = write(tmp_path, report_of(lines), lines)
    side = sidecar_path(tmp_path / "h.html")
    hist.rename(side)
    before = side.read_bytes()
    with open(side, "rb") as f, pytest.raises(ArenaError, match="is an input of"):
        write_html_report(rep, f, tmp_path / "h.html", embed=0)
    (tmp_path / "link.html").hardlink_to(rep)
    with pytest.raises(ArenaError, match="is an input of the report"):
        write_html_report(rep, side, tmp_path / "link.html")
    assert side.read_bytes() == before and not (tmp_path / "h.html").exists()


def test_report_output_onto_an_input_names_output(
    lines: list[dict[str, Any]], tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """``ofc-fast report r.json h.jsonl -o r.json`` said "r.json is an input of the
    report" without naming the option to change."""
    from ofc_fast.cli import main

    rep, hist = write(tmp_path, report_of(lines), lines)
    before = rep.read_bytes()
    assert main(["report", str(rep), str(hist), "-o", str(rep)]) == 2
    assert capsys.readouterr().err == (
        f"ofc-fast: error: --output: {str(rep)!r} is the REPORT file: the report would "
        "be written over; name another file\n"
    )
    assert rep.read_bytes() == before


def test_report_never_writes_its_deals_file_over_the_history_on_standard_input(
    lines: list[dict[str, Any]],
    tmp_path: Path,
    monkeypatch: pytest.MonkeyPatch,
    capsys: pytest.CaptureFixture[str],
) -> None:
    """Regression: ``ofc-fast report r.json - -o h.html < h.deals.jsonl`` wrote the
    page's deals file over the history it was reading on standard input (exit 0,
    "wrote h.html and h.deals.jsonl": the history lost) once ``-`` was read through a
    wrapper without a file descriptor; it is refused again, the history intact."""
    rep, hist = write(tmp_path, report_of(lines), lines)
    side = sidecar_path(tmp_path / "h.html")
    hist.rename(side)
    before = side.read_bytes()
    with open(side, "rb") as f:
        monkeypatch.setattr(sys, "stdin", io.TextIOWrapper(f))
        code = main(
            ["report", str(rep), "-", "-o", str(tmp_path / "h.html"), "--embed", "0"]
        )
    assert code == 2
    assert "is an input of the report" in capsys.readouterr().err
    assert side.read_bytes() == before and not (tmp_path / "h.html").exists()


@pytest.mark.skipif(sys.platform == "win32", reason="run on POSIX (a symbolic link)")
def test_page_over_a_link_writes_the_file_it_leads_to(
    lines: list[dict[str, Any]], tmp_path: Path
) -> None:
    """``ofc-fast report ... -o page.html``, where page.html is a symbolic link,
    replaced the link with a regular file (the file it led to kept the old page), as
    the deals file next to it did its link; now each link stays one and the file it
    leads to gets the contents, as every other output of ofc-fast (``atomic_file``)."""
    many = _many(lines, 20)  # (the first and 10 largest swings in the page)
    rep, hist = write(tmp_path, report_of(many), many)
    real = tmp_path / "real"
    real.mkdir()
    for name in ("p.html", "p.deals.jsonl"):
        (real / name).write_text("old", encoding="utf-8")
        (tmp_path / name).symlink_to(real / name)
    side = write_html_report(rep, hist, tmp_path / "p.html", embed=1)
    assert side == tmp_path / "p.deals.jsonl"
    for name in ("p.html", "p.deals.jsonl"):
        assert (tmp_path / name).is_symlink(), name
    assert (real / "p.html").read_text(encoding="utf-8").startswith("<!DOCTYPE html>")
    head, *body = (real / "p.deals.jsonl").read_text(encoding="utf-8").splitlines()
    assert json.loads(head)["deals"] == 20 == len(body)
    assert sorted(p.name for p in real.iterdir()) == ["p.deals.jsonl", "p.html"]


@pytest.mark.skipif(sys.platform == "win32", reason="run on POSIX (file modes)")
def test_a_replaced_page_keeps_its_permissions(
    lines: list[dict[str, Any]], tmp_path: Path
) -> None:
    """A 0600 page (or deals file) written over by ``ofc-fast report`` became 0644
    (the umask's): a private report was made readable by everyone."""
    many = _many(lines, 20)
    rep, hist = write(tmp_path, report_of(many), many)
    for name in ("p.html", "p.deals.jsonl"):
        (tmp_path / name).write_text("old", encoding="utf-8")
        (tmp_path / name).chmod(0o600)
    write_html_report(rep, hist, tmp_path / "p.html", embed=1)
    for name in ("p.html", "p.deals.jsonl"):
        assert (tmp_path / name).stat().st_mode & 0o777 == 0o600, name
        assert (tmp_path / name).read_text(encoding="utf-8") != "old"


@pytest.mark.skipif(not Path("/dev/null").exists(), reason="run on POSIX (/dev/null)")
def test_a_page_to_dev_null_makes_no_file_in_dev(
    lines: list[dict[str, Any]], tmp_path: Path
) -> None:
    """``ofc-fast report ... -o /dev/null`` (to check the files) made
    ``/dev/null.deals.jsonl`` (as root; otherwise it failed: Permission denied), even
    for a history the page holds whole.  A page written in place (a device, a FIFO,
    ``/dev/stdout``) now has no deals file next to it."""
    many = _many(lines, 20)
    rep, hist = write(tmp_path, report_of(many), many)
    stray = Path("/dev/null.deals.jsonl")
    assert not stray.exists()
    try:
        for embed in (200, 1):
            assert write_html_report(rep, hist, "/dev/null", embed=embed) is None
            assert not stray.exists()
    finally:
        stray.unlink(missing_ok=True)  # (what the writer left there, as root)


def test_a_page_of_some_deals_does_not_say_it_holds_all(
    lines: list[dict[str, Any]],
) -> None:
    """``html_report(report, deals, embed=1)`` (no deals file) said "All 20 deals are
    in this page" of a page that holds the first deal and the 10 largest swings."""
    many = _many(lines, 20)
    page = html_report(report_of(many), many, embed=1)
    note = page.split("<p id='deals-note'>", 1)[1].split("</p>", 1)[0]
    assert (
        note
        == "This page holds the first 1 deal and the 10 largest swings after them, of 20 deals."
    )
    assert "id='deals-file'" not in page  # (no file to load)


def test_what_play_writes_given_as_the_report_is_named_as_such(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """Regression: ``ofc-fast play --json p.json --history p.jsonl`` then ``ofc-fast
    report p.json p.jsonl -o r.html`` (the hand history of ``play`` is the arena's,
    as the docs say) said only ``REPORT: p.json: report: schema_version: missing``;
    the error now says that the file is what ``play`` writes and which command writes
    a report, for ``play --json`` and for ``play --history`` to a ``.json`` file."""
    result, hist, whole = (tmp_path / n for n in ("p.json", "p.jsonl", "h.json"))
    for argv in (
        ["--json", str(result), "--history", str(hist)],
        ["--history", str(whole)],
    ):
        assert main(["play", "--hands", "2", "--seed", "3", "--quiet", *argv]) == 0
    for given in (result, whole):
        assert main(["report", str(given), str(hist), "-o", str(tmp_path / "r.html")]) == 2
        err = capsys.readouterr().err
        assert (
            err.startswith(f"ofc-fast: error: REPORT: {given}: ") and err.count("\n") == 1
        )
        assert err.endswith(
            ": it is what ofc-fast play writes (--json, or --history to a .json file), "
            "not a match report: ofc-fast arena --json writes one\n"
        ), err
    assert not (tmp_path / "r.html").exists()


@pytest.mark.parametrize("indent", [None, 1], ids=["one line", "as arena writes it"])
def test_a_report_and_a_history_swapped_are_named_as_such(
    lines: list[dict[str, Any]],
    tmp_path: Path,
    capsys: pytest.CaptureFixture[str],
    indent: int | None,
) -> None:
    """``ofc-fast report h.jsonl r.json`` (the two files swapped) said ``REPORT:
    h.jsonl: not JSON (Extra data: line 2 column 1 (char 2532))``, and ``ofc-fast
    replay r.json`` (a report, as ``arena --json`` writes it) said ``line 1: not JSON
    (Expecting property name enclosed in double quotes ...)``: nothing said which file
    was which."""
    rep, hist = write(tmp_path, report_of(lines), lines)
    rep.write_text(json.dumps(report_of(lines), indent=indent), encoding="utf-8")
    page = tmp_path / "p.html"
    assert main(["report", str(hist), str(rep), "-o", str(page)]) == 2
    err = capsys.readouterr().err
    assert err.startswith(f"ofc-fast: error: REPORT: {hist}: ") and err.count("\n") == 1
    assert "it is a hand history (ofc-fast arena --history)" in err, err
    assert main(["replay", str(rep)]) == 2
    err = capsys.readouterr().err
    assert (
        err.startswith(f"ofc-fast: error: FILE: {rep}, line 1: ") and err.count("\n") == 1
    )
    assert "a match report (ofc-fast arena --json)" in err, err
    assert not page.exists()


def test_replay_and_report_print_no_control_character_of_a_file(
    lines: list[dict[str, Any]], tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """A seat name holding a terminal escape sequence (a history "from anyone") was
    printed as it is by ``ofc-fast replay`` (here: set the window title, clear the
    screen, turn the text red), as was its game id, and a bot name of a report by
    ``ofc-fast report``'s error naming it.  Such a name is now printed escaped, as
    Python writes it (a game id that is not the rules': in the error refusing it)."""
    evil = "ev\x1b]0;PWNED\x07\x1b[2J\x1b[31mil\u202e"
    deal = _line(lines[0], game_id=evil)
    rep, hist = write(tmp_path, report_of([deal], deal["seats"]), [deal])
    assert main(["replay", str(hist)]) == 2
    err = capsys.readouterr().err
    assert f"game_id: {evil!r} is not" in err, err
    assert all(c.isprintable() for c in err.replace("\n", "")), repr(err)
    deal = _line(lines[0], seats=[evil, lines[0]["seats"][1]])
    rep, hist = write(tmp_path, report_of([deal], deal["seats"]), [deal])
    assert main(["replay", str(hist)]) == 0
    out = capsys.readouterr().out
    assert f"seat 0 {evil!r}:" in out, out
    assert all(c.isprintable() for c in out.replace("\n", "")), repr(out)
    other = report_of([deal], deal["seats"])
    other["bots"][0]["points"] += 1
    rep.write_text(json.dumps(other), encoding="utf-8")
    assert main(["report", str(rep), str(hist), "-o", str(tmp_path / "p.html")]) == 2
    err = capsys.readouterr().err
    assert f": {evil!r} has " in err, err
    assert all(c.isprintable() for c in err.replace("\n", "")), repr(err)


def test_a_history_of_other_bots_is_not_the_report_s(tmp_path: Path) -> None:
    """A history whose seats are bots the report does not name was taken for the
    report's when the hand counts and the points per bot agreed (here: a tied deal,
    0 points each), and the page drew deals of bots missing from its standings."""
    from ofc_fast.arena import Arena, parse_bot_spec
    from ofc_fast.arena.history import deal_record

    tied: list[dict[str, Any]] = []

    def keep(d: Any) -> None:
        record = deal_record(d.game, d.hand_no, d.seats, deck_no=d.deck_no)
        if not tied and record["points"] == [0, 0]:
            tied.append(record)

    Arena("pineapple", [parse_bot_spec("random")] * 2, 60, seed=3, on_deal=keep).run()
    (deal,) = tied
    deal = _line(deal, hand_no=0, deck_no=0)
    rep, hist = write(tmp_path, report_of([deal], ["ann", "bob"]), [deal])
    with pytest.raises(ArenaError) as caught:
        write_html_report(rep, hist, tmp_path / "p.html")
    assert str(caught.value) == (
        f"{hist} is not the history of {rep}: its deal 1 seats 'random', a bot the "
        "report does not name"
    )
    assert not (tmp_path / "p.html").exists()


def test_files_saved_with_a_byte_order_mark_are_read(
    lines: list[dict[str, Any]], tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """A history or a report saved with a UTF-8 byte-order mark (Windows Notepad
    saves one) was refused: ``line 1: not JSON (Unexpected UTF-8 BOM ...)``, by
    ``ofc-fast replay``, ``ofc-fast report`` and ``POST /v1/replay`` alike."""
    from ofc_fast.serve._replay import replay

    bom = "\ufeff"
    rep, hist = write(tmp_path, report_of(lines), lines)
    plain = hist.read_text(encoding="utf-8")
    rep.write_text(bom + rep.read_text(encoding="utf-8"), encoding="utf-8")
    hist.write_text(bom + plain, encoding="utf-8")
    assert hist.read_bytes().startswith(b"\xef\xbb\xbf")
    assert [d.record for d in read_histories(hist)] == lines
    assert read_report(rep)["hands"] == len(lines)
    assert main(["replay", str(hist)]) == 0, capsys.readouterr().err
    assert capsys.readouterr().out.count("\nhand ") == len(lines) - 1
    assert main(["report", str(rep), str(hist), "-o", str(tmp_path / "p.html")]) == 0
    served = replay({"text": bom + plain})["deals"]
    assert [d["hand_no"] for d in served] == [rec["hand_no"] for rec in lines]


@pytest.mark.parametrize("game_id", ["x", "ofc", "PINEAPPLE"])
def test_a_game_id_that_is_not_the_rules_is_refused(
    game_id: str, lines: list[dict[str, Any]], tmp_path: Path
) -> None:
    """A line's ``game_id`` was never checked: edited to "x", ``ofc-fast replay``
    printed ``hand 0 (x), ...`` for a Pineapple deal.  It must be the game id of the
    line's rules (Pineapple: "ofc-pineapple"), refused like any bad field."""
    assert {rec["game_id"] for rec in lines} == {"ofc-pineapple"}
    assert {rec["history"]["rules"]["name"] for rec in lines} == {"PINEAPPLE"}
    _, hist = write(
        tmp_path, report_of(lines), [lines[0], _line(lines[1], game_id=game_id)]
    )
    with pytest.raises(HistoryError) as err:
        list(read_histories(hist))
    assert str(err.value) == (
        f"{hist}, line 2: game_id: {game_id!r} is not that of the deal's rules, "
        "'ofc-pineapple'"
    )
    assert err.value.field == "game_id"


@pytest.mark.parametrize(
    ("name", "description", "entry"),
    [
        ("thursday", None, [["qq", 14]]),  # written another way: no preset's then
        ("thursday", None, None),  # a preset renamed: named by its name then
        ("PINEAPPLE", "my table", None),  # described anew: likewise
        ("PINEAPPLE", None, [["qq", 14]]),
    ],
)
def test_a_line_an_earlier_version_named_by_its_rules_name_is_read(
    name: str,
    description: str | None,
    entry: list[list[Any]] | None,
    lines: list[dict[str, Any]],
    tmp_path: Path,
) -> None:
    """Earlier versions wrote the rules' name as ``game_id`` for rules that were no
    preset's to them: Pineapple renamed "thursday" or described anew (before a
    renamed preset was the preset), or with its Fantasyland entry written "qq"
    (before thresholds were spelled one way).  Those rules are Pineapple's now, so
    the game_id check wanted "ofc-pineapple" and refused every old line.  The rules'
    name is read; another game_id still is not."""
    rules_data = copy.deepcopy(lines[0]["history"]["rules"])
    assert rules_data["fantasyland"]["entry"] == [["QQ", 14]]
    rules_data["name"] = name
    if description is not None:
        rules_data["description"] = description
    if entry is not None:
        rules_data["fantasyland"]["entry"] = entry
    old = _line(
        lines[0], game_id=name, history={**lines[0]["history"], "rules": rules_data}
    )
    _, hist = write(tmp_path, report_of(lines), [old])
    assert [d.record["game_id"] for d in read_histories(hist)] == [name]
    for wrong in ("x", "ofc", "thursdays"):
        _, hist = write(tmp_path, report_of(lines), [_line(old, game_id=wrong)])
        with pytest.raises(HistoryError, match=r"game_id: .* is not that of the deal's"):
            list(read_histories(hist))
