"""Match reports and hand histories read as files against the JSON Schemas the
package ships (``report.schema.json``, ``hand_history.schema.json``): what the schema
allows is read, what it does not is refused with an OfcError naming the field (and
the line), and the numbers of a file are those its writer could have written."""

from __future__ import annotations

import copy
import functools
import gzip
import io
import json
import os
import re
import sys
from decimal import Decimal
from pathlib import Path
from typing import Any

import pytest
from fifo_reader import in_thread
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from report_data import NAMES, deals, report_of, write

from ofc_fast.arena.history import MAX_LINE_BYTES, SCHEMA_PATH, read_histories
from ofc_fast.arena.html import write_html_report
from ofc_fast.arena.report import REPORT_SCHEMA_PATH, read_report
from ofc_fast.cli import main
from ofc_fast.errors import ArenaError, HistoryError, OfcError

SEED_LIMIT = 2**64
"""The seeds a match is dealt from: 0 to 2**64 - 1 (docs/arena.md, ``--seed``)."""
SAFE_INTEGER = 2**53 - 1
"""The largest count a page's script reads exactly (a JavaScript number)."""


@pytest.fixture(scope="module")
def lines() -> list[dict[str, Any]]:
    return deals(2)


def _jsonschema_valid(schema_path: Path, doc: object) -> bool | None:
    """Whether the reference validator finds ``doc`` valid (None without it)."""
    try:
        import jsonschema
    except ImportError:
        return None
    schema = json.loads(schema_path.read_text(encoding="utf-8"))
    return bool(jsonschema.Draft202012Validator(schema).is_valid(doc))


@pytest.mark.parametrize(
    ("field", "value", "taken"),
    [
        ("seed", 0, True),
        ("seed", SEED_LIMIT - 1, True),
        ("seed", SEED_LIMIT, False),
        ("seed", -1, False),
        ("seed", 10**30, False),
        ("hands", SAFE_INTEGER, True),
        ("hands", SAFE_INTEGER + 1, False),
        ("hands", 10**100, False),
    ],
)
def test_a_report_number_its_match_cannot_have_is_refused(
    field: str, value: int, taken: bool, lines: list[dict[str, Any]], tmp_path: Path
) -> None:
    """A report whose ``seed`` is no seed a match is dealt from (past 2**64 - 1, or
    negative) or whose ``hands`` is past what the page counts exactly was read as a
    match's report; the schema and the reader now both refuse it, naming the field."""
    report = {**report_of(lines), field: value}
    if field == "hands":  # (every bot plays every hand: its hands are the report's)
        report["bots"] = [{**b, "hands": value} for b in report["bots"]]
    path = tmp_path / "r.json"
    path.write_text(json.dumps(report), encoding="utf-8")
    assert _jsonschema_valid(REPORT_SCHEMA_PATH, report) in (None, taken)
    if taken:
        assert read_report(path)[field] == value
        return
    with pytest.raises(ArenaError) as caught:
        read_report(path)
    assert str(caught.value).startswith(f"{path}: report: {field}: expected at ")


def _history_file(tmp_path: Path, text: str) -> Path:
    path = tmp_path / "h.jsonl"
    path.write_text(text + "\n", encoding="utf-8")
    return path


def _report_file(tmp_path: Path, text: str) -> Path:
    path = tmp_path / "r.json"
    path.write_text(text, encoding="utf-8")
    return path


def test_a_key_given_twice_is_refused_naming_it(
    lines: list[dict[str, Any]], tmp_path: Path
) -> None:
    """A history line or a report giving one key twice in an object was read with the
    last value (``"hand_no": 0, ..., "hand_no": 7``: another tool may read the
    first): refused, naming the key and the line, as the rules and the service do."""
    line = json.dumps(lines[0])
    cases = {
        "hand_no": line[:-1] + ', "hand_no": 0}',
        "players": line.replace('"history": {', '"history": {"players": 2, ', 1),
    }
    for key, text in cases.items():
        assert json.loads(text) is not None  # what a lenient reader takes
        hist = _history_file(tmp_path, text)
        with pytest.raises(HistoryError) as caught:
            list(read_histories(hist))
        said = f"{hist}, line 1: key {key!r} is given twice in one object"
        assert str(caught.value).startswith(said), caught.value
    report = json.dumps(report_of(lines))
    rep = _report_file(tmp_path, '{"hands": 999, ' + report[1:])
    with pytest.raises(ArenaError) as caught:
        read_report(rep)
    assert str(caught.value).startswith(f"{rep}: key 'hands' is given twice")


@pytest.mark.parametrize("token", ["NaN", "Infinity", "-Infinity"])
def test_nan_and_infinity_are_refused_as_no_json(
    token: str, lines: list[dict[str, Any]], tmp_path: Path
) -> None:
    """``NaN`` and ``Infinity`` are no JSON numbers (RFC 8259, 6), but a report or a
    history line holding one in a field the reader does not check (as Python's
    ``json.dumps`` writes a nan) was read: refused, naming the token and the line."""
    line = json.dumps({**lines[0], "note": float("nan")}).replace("NaN", token)
    hist = _history_file(tmp_path, line)
    with pytest.raises(HistoryError) as caught:
        list(read_histories(hist))
    assert str(caught.value) == f"{hist}, line 1: not JSON ({token} is not JSON)"
    report = json.dumps({**report_of(lines), "note": float("nan")})
    rep = _report_file(tmp_path, report.replace("NaN", token))
    with pytest.raises(ArenaError) as caught:
        read_report(rep)
    assert str(caught.value) == f"{rep}: not JSON ({token} is not JSON)"


@pytest.mark.parametrize("written", ["1.0", "1e0", "0.1e1", "100E-2"])
def test_a_whole_number_written_with_a_fraction_is_read_as_the_integer(
    written: str, lines: list[dict[str, Any]], tmp_path: Path
) -> None:
    """JSON has one number type and JSON Schema's ``integer`` admits ``1.0`` and
    ``1e0`` (the schemas' validators take them), but the readers refused them:
    ``hand_no: expected integer, got 1.0``.  They are read as the integer 1."""
    line = json.dumps(lines[1]).replace('"hand_no": 1', f'"hand_no": {written}', 1)
    assert _jsonschema_valid(SCHEMA_PATH, json.loads(line)) in (None, True)
    (deal,) = read_histories(_history_file(tmp_path, line))
    assert deal.record == lines[1]
    assert type(deal.record["hand_no"]) is int
    report = json.dumps(report_of(lines)).replace('"seed": 1', f'"seed": {written}')
    read = read_report(_report_file(tmp_path, report))
    assert read == report_of(lines) and type(read["seed"]) is int


_SCALARS = st.one_of(
    st.none(),
    st.booleans(),
    st.integers(-(2**70), 2**70),
    st.sampled_from([-1, 0, 3, 51, 52, SAFE_INTEGER + 1, SEED_LIMIT]),
    st.floats(allow_nan=False, allow_infinity=False),
    st.integers(-(2**60), 2**60).map(float),  # whole numbers written "3.0", "1e+18"
    st.text(max_size=4),
    st.just([]),
    st.just({}),
)


def _mutated(data: st.DataObject, doc: Any) -> Any:
    """``doc`` with one value somewhere replaced, or one key added to an object."""
    out = copy.deepcopy(doc)
    node = out
    while isinstance(node, (dict, list)) and node:
        key = data.draw(
            st.sampled_from(sorted(node) if isinstance(node, dict) else range(len(node)))
        )
        if isinstance(node, dict) and data.draw(st.integers(0, 9)) == 0:
            node[data.draw(st.sampled_from(["x", "seed", "rules"]))] = data.draw(_SCALARS)
            return out
        if not isinstance(node[key], (dict, list)) or data.draw(st.booleans()):
            node[key] = data.draw(_SCALARS)
            return out
        node = node[key]
    return out


def _exact(text: str) -> Any:
    """The value of a JSON text: a number written with a fraction or an exponent is
    the number written (``4.6e+16``: 46000000000000000, not the float nearest it),
    an int where it is whole, else the float nearest it."""

    def number(literal: str) -> int | float:
        written = Decimal(literal)
        whole = written == written.to_integral_value()
        return int(written) if whole else float(literal)

    return json.loads(text, parse_float=number)


_BEYOND_SCHEMA = (
    r"entries for \d players|appears twice|^line 1: history: |are not the replay's"
    r"|is not that of the deal's rules"
    r"|: report: (seat_count|bots\[\d\]\.hands|forfeited_by): "
    r"|of a deal of \d players"
)
"""The refusals of what the schemas take (the schemas' descriptions): a seat and a
point total per player, a decision's seat and the rotation among the players, unique
bot names, a deal that replays, a report's bots one a seat, each playing every
hand, its forfeit by one of them."""


@pytest.mark.parametrize("kind", ["history line", "report"])
@settings(max_examples=400, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(data=st.data())
def test_the_readers_take_what_their_schemas_take(
    kind: str, lines: list[dict[str, Any]], data: st.DataObject
) -> None:
    """For documents mutated at random, the reader takes exactly what the shipped
    schema takes (jsonschema, the reference validator, on the text's value),
    but for the rules a schema cannot say (:data:`_BEYOND_SCHEMA`); what it takes is
    the document's value, which reads back the same when written again."""
    jsonschema = pytest.importorskip("jsonschema", reason='pip install ".[test]"')
    schema_path, good = (
        (SCHEMA_PATH, lines[1])
        if kind == "history line"
        else (REPORT_SCHEMA_PATH, report_of(lines))
    )

    def read(text: str) -> dict[str, Any]:
        if kind == "report":
            return read_report(io.BytesIO(text.encode()))
        (deal,) = read_histories(io.BytesIO(f"{text}\n".encode()))
        return deal.record

    schema = json.loads(schema_path.read_text(encoding="utf-8"))
    text = json.dumps(_mutated(data, good))
    exact = _exact(text)
    theirs = jsonschema.Draft202012Validator(schema).is_valid(exact)
    try:
        value = read(text)
    except OfcError as exc:
        assert not theirs or re.search(_BEYOND_SCHEMA, str(exc)), exc
        return
    assert theirs, text
    assert value == exact
    assert read(json.dumps(value)) == value


def _pair(mean: object, ci95: object) -> dict[str, Any]:
    return {
        "decks": 1,
        "pairs": [
            {
                "a": NAMES[0],
                "b": NAMES[1],
                "difference_per_deck_mean": mean,
                "difference_per_deck_ci95": ci95,
            }
        ],
    }


@pytest.mark.parametrize(
    ("where", "edit"),
    [
        ("bots[0].points_per_hand_mean", lambda b, v: b.update(points_per_hand_mean=v)),
        ("bots[0].points_per_hand_ci95", lambda b, v: b.update(points_per_hand_ci95=v)),
        ("bots[0].decisions.p99_ms", lambda b, v: b["decisions"].update(p99_ms=v)),
        ("duplicate.pairs[0].difference_per_deck_mean", None),
    ],
)
def test_a_report_number_past_what_a_page_shows_is_refused(
    where: str, edit: Any, lines: list[dict[str, Any]], tmp_path: Path
) -> None:
    """A mean, an interval or a time written as an integer of 400 digits (JSON has no
    limit) passed the schema, and ``ofc-fast report`` stopped with a traceback
    (``OverflowError: int too large to convert to float``) formatting it; the schema
    bounds them to the numbers a page's script reads exactly (2**53 - 1), refused
    naming the field, as is 2**53."""
    for value, taken in ((SAFE_INTEGER, True), (SAFE_INTEGER + 1, False), (10**400, False)):
        report = report_of(lines)
        if edit is None:
            report["duplicate"] = _pair(value, 1.5)
        else:
            edit(report["bots"][0], value)
        rep, hist = write(tmp_path, report, lines)
        assert _jsonschema_valid(REPORT_SCHEMA_PATH, report) in (None, taken)
        page = tmp_path / "p.html"
        if taken:
            write_html_report(rep, hist, page)
            assert page.exists()
            continue
        with pytest.raises(ArenaError) as caught:
            write_html_report(rep, hist, page)
        assert str(caught.value).startswith(f"{rep}: report: {where}: expected at "), (
            caught.value
        )


@pytest.mark.parametrize(
    ("encode", "said"),
    [
        (gzip.compress, "compressed with gzip: decompress it first (gunzip)"),
        (lambda b: b.decode().encode("utf-16"), "UTF-16 text: save it as UTF-8"),
    ],
    ids=["gzip", "utf-16 (PowerShell's >)"],
)
def test_a_compressed_or_utf16_file_says_what_it_is(
    encode: Any, said: str, lines: list[dict[str, Any]], tmp_path: Path
) -> None:
    """A history compressed with gzip (``deals.jsonl.gz``) or a report saved by
    Windows PowerShell's ``>`` (UTF-16, after a byte-order mark) was refused as
    ``not UTF-8 (byte 0x8b at offset 1)``: the error says what the file is and
    what to do (neither is read: the files are UTF-8 text)."""
    rep, hist = write(tmp_path, report_of(lines), lines)
    for path, error, where in ((hist, HistoryError, ", line 1"), (rep, ArenaError, "")):
        path.write_bytes(encode(path.read_bytes()))
        with pytest.raises(error) as caught:
            list(read_histories(path)) if error is HistoryError else read_report(path)
        message = str(caught.value)
        assert message.startswith(f"{path}{where}: not UTF-8 (byte "), message
        assert message.endswith(f"): {said}"), message


@pytest.mark.parametrize("seed", [SEED_LIMIT, SEED_LIMIT * 10**5])
def test_a_history_seed_no_deal_is_dealt_from_is_refused_by_the_schema(
    seed: int, lines: list[dict[str, Any]], tmp_path: Path
) -> None:
    """``hand_history.schema.json`` took a ``history.seed`` past 2**64 - 1 (no deal is
    dealt from one), which only the replay refused (``history: the history's table
    cannot be set up: ...``): the schema bounds it, and the reader names the field."""
    line = {**lines[0], "history": {**lines[0]["history"], "seed": seed}}
    assert _jsonschema_valid(SCHEMA_PATH, line) in (None, False)
    hist = _history_file(tmp_path, json.dumps(line))
    with pytest.raises(HistoryError) as caught:
        list(read_histories(hist))
    assert str(caught.value).startswith(f"{hist}, line 1: history.seed: expected at most")
    assert caught.value.field == "history.seed"
    top = {**lines[0], "history": {**lines[0]["history"], "seed": SEED_LIMIT - 1}}
    assert _jsonschema_valid(SCHEMA_PATH, top) in (None, True)


@pytest.mark.parametrize("data", [b"", b"\n", b" \r\n\t"])
def test_an_empty_report_file_is_said_to_be_empty(
    data: bytes, lines: list[dict[str, Any]], tmp_path: Path
) -> None:
    """A report file of 0 bytes (``ofc-fast arena --json - > r.json`` that failed) or
    of blanks was ``not JSON (Expecting value: line 1 column 1 (char 0))``: it is
    said to be empty, with what writes a report."""
    rep, hist = write(tmp_path, report_of(lines), lines)
    rep.write_bytes(data)
    with pytest.raises(ArenaError) as caught:
        read_report(rep)
    assert str(caught.value) == (
        f"{rep}: empty ({len(data)} bytes): not a report (ofc-fast arena --json writes one)"
    )


@pytest.mark.parametrize(
    "points", [SAFE_INTEGER + 1, -(10**4000)], ids=["2**53", "-10**4000"]
)
def test_a_bot_s_points_past_what_a_page_counts_are_refused(
    points: int, lines: list[dict[str, Any]], tmp_path: Path
) -> None:
    """A bot's ``points`` of 4,000 digits (no match of at most 2**53 - 1 hands scores
    them) passed ``read_report``; they are bounded as the other totals are."""
    report = report_of(lines)
    report["bots"][1]["points"] = points
    assert _jsonschema_valid(REPORT_SCHEMA_PATH, report) in (None, False)
    rep = _report_file(tmp_path, json.dumps(report))
    with pytest.raises(ArenaError) as caught:
        read_report(rep)
    assert str(caught.value).startswith(f"{rep}: report: bots[1].points: expected at ")
    report["bots"][1]["points"] = -SAFE_INTEGER
    assert read_report(_report_file(tmp_path, json.dumps(report))) == report


def test_a_report_read_from_a_pipe_is_read_once(
    lines: list[dict[str, Any]], tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """``ofc-fast report <(gunzip -c r.json.gz) h.jsonl`` (a report in a pipe, which
    gives its bytes once) was checked, then read again for the page, empty:
    ``/dev/fd/63: not JSON (Expecting value ...)``.  The pipe is read once, as
    standard input is, and a history of another match names the pipe."""
    if not Path("/dev/fd").is_dir() or sys.platform == "win32":
        pytest.skip("run on Linux (/dev/fd)")
    rep, hist = write(tmp_path, report_of(lines), lines)
    for report, said in ((report_of(lines), None), (report_of(lines[:1]), "hands")):
        r, w = os.pipe()
        os.write(w, json.dumps(report).encode())
        os.close(w)
        pipe = f"/dev/fd/{r}"
        try:
            code = main(["report", pipe, str(hist), "-o", str(tmp_path / "p.html")])
        finally:
            os.close(r)
        err = capsys.readouterr().err
        if said is None:
            assert code == 0 and (tmp_path / "p.html").exists(), err
        else:
            assert code == 2
            assert err.startswith(
                f"ofc-fast: error: {hist} is not the history of {pipe}"
            ), err


@pytest.mark.parametrize(("stack", "said"), [(-1, "least"), (10**9 + 1, "most")])
def test_a_history_stack_no_table_seats_is_refused_by_the_schema(
    stack: int, said: str, lines: list[dict[str, Any]], tmp_path: Path
) -> None:
    """``hand_history.schema.json`` took any ``history.stacks`` (a seat's chips:
    0 to 1,000,000,000, ``ofc_fast.table``), which only the replay refused (``history:
    the history's table cannot be set up``): the schema bounds them, named."""
    line = {**lines[0], "history": {**lines[0]["history"], "stacks": [5, stack]}}
    assert _jsonschema_valid(SCHEMA_PATH, line) in (None, False)
    hist = _history_file(tmp_path, json.dumps(line))
    with pytest.raises(HistoryError) as caught:
        list(read_histories(hist))
    assert str(caught.value).startswith(
        f"{hist}, line 1: history.stacks[1]: expected at {said}"
    ), caught.value
    taken = {**lines[0], "history": {**lines[0]["history"], "stacks": [0, 10**9]}}
    assert _jsonschema_valid(SCHEMA_PATH, taken) in (None, True)


def test_a_history_of_lines_ending_in_a_carriage_return_says_so(
    lines: list[dict[str, Any]], tmp_path: Path
) -> None:
    """A history whose lines end in a carriage return alone (CR: classic Mac OS, some
    editors' "line endings" setting) was one long line, refused as ``cut off: the
    last line ends with no newline (a run killed while writing it?)``: the error says
    the lines end in CR."""
    hist = tmp_path / "h.jsonl"
    hist.write_bytes(b"".join(json.dumps(line).encode() + b"\r" for line in lines))
    with pytest.raises(HistoryError) as caught:
        list(read_histories(hist))
    assert str(caught.value).startswith(
        f"{hist}, line 1: its lines end in a carriage return alone (CR), not a newline "
        "(LF or CRLF): not JSON ("
    ), caught.value


@pytest.mark.parametrize("tail", [b"\r\xff\xfe", b"\xff\xfe\r\n", b"\xff\xfe"])
def test_gzip_bytes_holding_a_cr_or_no_lf_are_said_to_be_gzip(
    tail: bytes, tmp_path: Path
) -> None:
    """The bytes of a gzip file are random past its header (its time stamp, the
    compressed data): where they held a CR byte, or no LF byte at all, the history
    reader said "its lines end in a carriage return alone" or "cut off" instead of
    what the file is (the test above failed for one gzip run in a few)."""
    path = tmp_path / "h.jsonl"
    path.write_bytes(b"\x1f\x8b\x08\x00\x00\x00\x00\x00" + tail)
    with pytest.raises(HistoryError) as caught:
        list(read_histories(path))
    message = str(caught.value)
    assert message.startswith(f"{path}, line 1: not UTF-8 (byte 0x8b at offset 1)"), message
    assert message.endswith("compressed with gzip: decompress it first (gunzip)"), message


def test_a_long_history_of_lines_ending_in_a_carriage_return_says_so(
    lines: list[dict[str, Any]], tmp_path: Path
) -> None:
    """A history of CR-ended lines longer than a line may be (any of a few hundred
    deals) was refused as ``line 1: longer than 1048576 bytes`` alone, the line ends
    unsaid: the error says them there too."""
    hist = tmp_path / "h.jsonl"
    one = b"".join(json.dumps(line).encode() + b"\r" for line in lines)
    hist.write_bytes(one * (MAX_LINE_BYTES // len(one) + 2))
    with pytest.raises(HistoryError) as caught:
        list(read_histories(hist))
    assert str(caught.value).startswith(
        f"{hist}, line 1: its lines end in a carriage return alone (CR), not a newline "
        f"(LF or CRLF): longer than {MAX_LINE_BYTES} bytes"
    ), caught.value


@pytest.mark.parametrize(
    "counter",
    ["fouls", "fantasylands", "scoops", "royalties", "faults", "substituted", "count"],
)
def test_a_bot_s_counter_past_what_a_page_counts_is_refused_from_python_too(
    counter: str, lines: list[dict[str, Any]], tmp_path: Path
) -> None:
    """A bot's counters (fouls, faults, decisions.count, ...) had no bound:
    ``html_report`` of a report dict with ``fouls`` of 5,000 digits raised a plain
    ``ValueError: Exceeds the limit (4300 digits)`` formatting it, and a file of
    4,000 digits made a page.  They are bounded (2**53 - 1) as the other totals are,
    for a dict and a file alike, naming the field."""
    from ofc_fast.arena.html import html_report

    where = "decisions.count" if counter == "count" else counter
    for value, taken in (
        (SAFE_INTEGER, True),
        (SAFE_INTEGER + 1, False),
        (10**5000, False),
    ):
        report = report_of(lines)
        bot = report["bots"][1]
        (bot["decisions"] if counter == "count" else bot)[counter] = value
        if value < 10**4000:  # (jsonschema's message of one more is a ValueError)
            assert _jsonschema_valid(REPORT_SCHEMA_PATH, report) in (None, taken)
        if taken:
            assert html_report(report, lines).startswith("<!DOCTYPE html>")
            continue
        with pytest.raises(ArenaError) as caught:
            html_report(report, lines)
        assert str(caught.value).startswith(f"report: bots[1].{where}: expected at most")
        if value < 10**4000:  # (a file's integer of more digits is refused as such)
            rep = _report_file(tmp_path, json.dumps(report))
            with pytest.raises(ArenaError) as caught:
                read_report(rep)
            assert str(caught.value).startswith(
                f"{rep}: report: bots[1].{where}: expected at most"
            )


def test_a_compressed_history_holding_a_cr_byte_is_said_to_be_compressed(
    lines: list[dict[str, Any]], tmp_path: Path
) -> None:
    """A gzip history whose compressed bytes hold a CR (13: here its header's
    modification time, a matter of the second it was compressed) was said to have
    ``its lines end in a carriage return alone (CR)`` before ``not UTF-8 ...:
    compressed with gzip``: a file that is no UTF-8 text is said to be that alone."""
    hist = tmp_path / "h.jsonl.gz"
    data = b"".join(json.dumps(line).encode() + b"\n" for line in lines)
    hist.write_bytes(gzip.compress(data, mtime=13))
    assert b"\r" in hist.read_bytes()
    with pytest.raises(HistoryError) as caught:
        list(read_histories(hist))
    message = str(caught.value)
    assert message.startswith(f"{hist}, line 1: not UTF-8 (byte "), message
    assert message.endswith("): compressed with gzip: decompress it first (gunzip)")


@pytest.mark.skipif(not hasattr(os, "mkfifo"), reason="run on POSIX: os.mkfifo")
def test_a_fifo_nothing_writes_to_is_read_as_empty_after_a_bounded_wait(
    lines: list[dict[str, Any]],
    tmp_path: Path,
    monkeypatch: pytest.MonkeyPatch,
    capsys: pytest.CaptureFixture[str],
) -> None:
    """``mkfifo p; ofc-fast replay p``, ``ofc-fast report p h.jsonl`` or ``serve
    --api-key-file p`` (a FIFO that no process writes to) waited in open() for a
    writer for ever, where ``--rules p`` gave up after ``FIFO_WAIT`` seconds: every
    file the commands read waits as long, then reads as empty (a report: refused as
    empty, naming it)."""
    import ofc_fast.files

    monkeypatch.setattr(ofc_fast.files, "FIFO_WAIT", 0.5)
    rep, hist = write(tmp_path, report_of(lines), lines)
    fifo = tmp_path / "p"
    os.mkfifo(fifo)
    page = str(tmp_path / "p.html")
    cases = [
        (["replay", str(fifo)], 0, f"no deals in {fifo}\n"),
        (["report", str(fifo), str(hist), "-o", page], 2, f"REPORT: {fifo}: empty ("),
        (
            ["report", str(rep), str(fifo), "-o", page],
            2,
            f"{fifo} is not the history of {rep}: it holds 0 deals",
        ),
        (
            ["serve", "--api-key-file", str(fifo), "--port", "0"],
            2,
            f"--api-key-file: {str(fifo)!r} holds no key on its first line",
        ),
    ]
    for args, code, said in cases:
        got, took = in_thread(fifo, functools.partial(main, args))
        out, err = capsys.readouterr()
        assert got == code, (args, err)
        assert 0.45 <= took < 30
        assert said in (out if code == 0 else err), (args, out, err)


def _named(bot: dict[str, Any], name: str) -> dict[str, Any]:
    return {**bot, "name": name}


_SELF_CONTRADICTIONS: dict[str, tuple[Any, str]] = {
    "no bot": (lambda r: r.update(bots=[]), "bots: expected at least 2 items, got 0"),
    "one bot": (lambda r: r.update(bots=r["bots"][:1]), "bots: expected at least 2 items"),
    "five bots": (
        lambda r: r.update(bots=[_named(r["bots"][0], f"b{i}") for i in range(5)]),
        "bots: expected at most 4 items, got 5",
    ),
    "seat_count": (
        lambda r: r.update(seat_count=3),
        "seat_count: 3 seats, but 2 bots in bots (the arena seats one bot a seat)",
    ),
    "a bot's hands": (
        lambda r: r["bots"][1].update(hands=1),
        "bots[1].hands: 1, not the report's hands (2): every bot plays every hand",
    ),
    "a pair's stranger": (
        lambda r: (
            r.update(duplicate=_pair(1.0, None)) or r["duplicate"]["pairs"][0].update(b="x")
        ),
        "duplicate.pairs[0].b: 'x' is none of the bots",
    ),
    "a bot paired with itself": (
        lambda r: (
            r.update(duplicate=_pair(1.0, None))
            or r["duplicate"]["pairs"][0].update(b=NAMES[0])
        ),
        f"duplicate.pairs[0]: {NAMES[0]!r} paired with itself",
    ),
    "duplicate rotations": (
        lambda r: r.update(duplicate={**_pair(1.0, None), "rotations": 3}),
        "duplicate.rotations: 3, but 2 bots in bots",
    ),
    "duplicate decks": (
        lambda r: r.update(duplicate={**_pair(1.0, None), "decks": 999}),
        "duplicate.decks: 999 decks of 2 rotations, more hands than the report's 2",
    ),
    "a duplicate bot's stranger": (
        lambda r: r.update(
            duplicate={
                **_pair(1.0, None),
                "bots": [
                    {"name": "x", "points_per_deck_mean": 0, "points_per_deck_ci95": 0}
                ],
            }
        ),
        "duplicate.bots[0].name: 'x' is none of the bots",
    ),
    "a name twice": (
        lambda r: r["bots"][1].update(name=NAMES[0]),
        "bots: a name appears twice in",
    ),
    "forfeited by a stranger": (
        lambda r: r.update(forfeited_by="x"),
        "forfeited_by: 'x' is none of the bots",
    ),
    "forfeited by a bot of no fault": (
        lambda r: r.update(forfeited_by=NAMES[1], fault_policy="forfeit"),
        f"forfeited_by: {NAMES[1]!r} has no fault (a bot forfeits at its first)",
    ),
    "forfeited under substitute": (
        lambda r: (
            r.update(forfeited_by=NAMES[1], fault_policy="substitute")
            or r["bots"][1].update(faults=1)
        ),
        f"forfeited_by: {NAMES[1]!r}, but fault_policy is 'substitute' (a bot "
        "forfeits only under 'forfeit')",
    ),
    "a fault under forfeit, no forfeit": (
        lambda r: r.update(fault_policy="forfeit") or r["bots"][0].update(faults=1),
        f"forfeited_by: null, but {NAMES[0]!r} has a fault under fault_policy "
        "'forfeit' (its first fault forfeits the match)",
    ),
    "a fault policy no arena has": (
        lambda r: r.update(fault_policy="retry"),
        "fault_policy: expected one of ['substitute', 'forfeit'], got 'retry'",
    ),
    "forfeited by a number": (
        lambda r: r.update(forfeited_by=1),
        "forfeited_by: expected string or null, got 1",
    ),
}


@pytest.mark.parametrize("case", sorted(_SELF_CONTRADICTIONS))
def test_a_report_no_arena_run_writes_is_refused_naming_the_field(
    case: str,
    lines: list[dict[str, Any]],
    tmp_path: Path,
    capsys: pytest.CaptureFixture[str],
) -> None:
    """A report that says what no arena run writes (``"bots": []``, a ``seat_count``
    that is not the number of bots, a bot's ``hands`` that are not the report's, a
    duplicate pair of a bot it does not name, a ``forfeited_by`` naming no bot of the
    match, or under ``"fault_policy": "substitute"``) made a page, exit status 0: it is
    refused naming the field, by ``ofc-fast report`` and ``html_report`` alike
    (what an arena run writes: :func:`test_every_arena_report_is_read`)."""
    from ofc_fast.arena.html import html_report

    edit, said = _SELF_CONTRADICTIONS[case]
    report = report_of(lines)
    edit(report)
    rep, hist = write(tmp_path, report, lines)
    page = tmp_path / "p.html"
    assert main(["report", str(rep), str(hist), "-o", str(page)]) == 2
    err = capsys.readouterr().err
    assert err.startswith(f"ofc-fast: error: REPORT: {rep}: report: {said}"), err
    assert not page.exists()
    with pytest.raises(ArenaError) as caught:
        html_report(report, lines)
    assert str(caught.value).startswith(f"report: {said}")


_KEYS_NO_TEXT: dict[str, tuple[Any, str]] = {
    "the report's": (lambda r: r.update({1: "x"}), "report: 1: "),
    "a bot's": (lambda r: r["bots"][0].update({None: 1}), "report: bots[0].None: "),
    "a bot's decisions'": (
        lambda r: r["bots"][1]["decisions"].update({2.5: 1}),
        "report: bots[1].decisions.2.5: ",
    ),
    "a duplicate pair's": (
        lambda r: (
            r.update(duplicate=_pair(1.0, None))
            or r["duplicate"]["pairs"][0].update({(1, 2): 0})
        ),
        "report: duplicate.pairs[0].(1, 2): ",
    ),
}


@pytest.mark.parametrize("case", sorted(_KEYS_NO_TEXT))
def test_a_report_dict_with_a_key_that_is_no_text_is_refused(
    case: str, lines: list[dict[str, Any]]
) -> None:
    """``html_report`` of a report dict holding a key that is no text (``{1: "x"}``,
    which no JSON text holds: ``json.dumps`` writes it ``"1"``) made the page, the
    key ignored: it is refused naming it, as a report read from a file would be."""
    from ofc_fast.arena.html import html_report
    from ofc_fast.arena.report import check_report

    edit, said = _KEYS_NO_TEXT[case]
    report = copy.deepcopy(report_of(lines))
    edit(report)
    for check in (check_report, lambda r: html_report(r, lines)):
        with pytest.raises(ArenaError) as caught:
            check(report)
        assert str(caught.value) == f"{said}a key that is no text (JSON's keys are)"


def test_a_history_dict_with_a_key_that_is_no_text_is_refused(
    lines: list[dict[str, Any]],
) -> None:
    """A history line given as a dict with a key that is no text (``{7: 0}``) was
    refused as ``'7': not a known field``, a key it does not hold: the key is named
    as it is, and said to be no text."""
    from ofc_fast.arena.html import html_report

    line = {**lines[1], 7: 0}
    with pytest.raises(HistoryError) as caught:
        html_report(report_of(lines), [lines[0], line])
    assert str(caught.value) == "7: a key that is no text (JSON's keys are)"


@pytest.mark.parametrize("duplicate", [False, True])
@pytest.mark.parametrize("bots", [2, 3, 4])
def test_every_arena_report_is_read(bots: int, duplicate: bool) -> None:
    """What an arena run writes for every bot count it seats (2 to 4), duplicate or
    not, passes :func:`check_report`'s checks of a report against itself: one bot a
    seat, each playing every hand of the report."""
    from ofc_fast.arena import Arena, parse_bot_spec

    arena = Arena(
        "ofc", [parse_bot_spec("random")] * bots, hands=1, seed=bots, duplicate=duplicate
    )
    report = json.loads(json.dumps(arena.run()))
    assert len(report["bots"]) == report["seat_count"] == bots
    assert {b["hands"] for b in report["bots"]} == {report["hands"]}
    assert read_report(io.BytesIO(json.dumps(report).encode())) == report


@pytest.mark.parametrize(
    ("field", "value", "said"),
    [
        ("decisions", [{"seat": 0}, {"seat": 3}], "decisions[1].seat: seat 3 of a deal"),
        ("decisions", [{"seat": 2, "ms": 1.5}], "decisions[0].seat: seat 2 of a deal"),
        ("rotation", 2, "rotation: rotation 2 of a deal"),
    ],
)
def test_a_history_seat_or_rotation_past_its_players_is_refused(
    field: str, value: Any, said: str, lines: list[dict[str, Any]], tmp_path: Path
) -> None:
    """In a line of 2 players, ``"decisions": [{"seat": 3}]`` or ``"rotation": 2``
    (a duplicate match of 2 bots plays rotations 0 and 1) was read: refused, naming
    the field and the players; the seats and rotations the players have are read."""
    players = lines[0]["history"]["players"]
    assert players == 2
    hist = _history_file(tmp_path, json.dumps({**lines[0], field: value}))
    with pytest.raises(HistoryError) as caught:
        list(read_histories(hist))
    assert str(caught.value) == (
        f"{hist}, line 1: {said} of {players} players "
        f"({said.split(' ')[1]}s 0 to {players - 1})"
    )
    assert caught.value.field == said.split(":")[0]
    good = [{"seat": 0}, {"seat": 1}] if field == "decisions" else 1
    (deal,) = read_histories(_history_file(tmp_path, json.dumps({**lines[0], field: good})))
    assert deal.record[field] == good


@pytest.mark.parametrize(
    ("doc", "shown"), [("[1]", "[1]"), ('"report"', "'report'"), ("null", "None")]
)
def test_a_report_that_is_no_json_object_is_not_called_a_line(
    doc: str, shown: str, tmp_path: Path
) -> None:
    """A report file holding ``[1]`` (no JSON object) was refused as ``report: the
    line: expected object``, a hand history's words: it names the report."""
    rep = _report_file(tmp_path, doc)
    with pytest.raises(ArenaError) as caught:
        read_report(rep)
    assert str(caught.value) == f"{rep}: report: expected a JSON object, got {shown}"


def test_a_utf8_line_cut_inside_a_character_is_said_to_be_cut_off(
    lines: list[dict[str, Any]], tmp_path: Path
) -> None:
    """A history with raw UTF-8 (rewritten by ``jq -c``) whose last line a killed run
    cut inside a character (``Zo`` and the first byte of its last letter) was said to
    be "not UTF-8" alone, as a gzip file is, no longer "cut off": a cut character at a
    line's end is not another encoding."""
    hist = tmp_path / "h.jsonl"
    whole = json.dumps(lines[0], ensure_ascii=False).encode() + b"\n"
    cut = json.dumps({**lines[0], "note": "Zo\u00eb"}, ensure_ascii=False).encode()
    hist.write_bytes(whole + cut[: cut.index(b"\xc3") + 1])
    with pytest.raises(HistoryError) as caught:
        list(read_histories(hist))
    assert str(caught.value).startswith(
        f"{hist}, line 2: cut off: the last line ends with no newline"
    ), caught.value
    assert "not UTF-8 (byte 0xc3" in str(caught.value), caught.value


def test_html_report_refuses_the_deals_of_another_match(
    lines: list[dict[str, Any]],
) -> None:
    """``html_report(report, deals)`` of deals that are not the report's match (more
    deals than its hands, a bot's points that are not the report's) made a page whose
    totals contradict its standings, where ``ofc-fast report`` and
    ``write_html_report`` refuse such files: the dicts are refused alike."""
    from ofc_fast.arena.html import html_report

    report = report_of(lines)
    total = sum(d["points"][0] for d in lines)
    cases = [
        (report_of(lines[:1]), lines, "it holds 2 deals, the report 1 hand"),
        (
            {
                **report,
                "bots": [{**report["bots"][0], "points": total + 1}, *report["bots"][1:]],
            },
            lines,
            f"{NAMES[0]} has {total} points in it, {total + 1} in the report",
        ),
    ]
    for rep, deals_given, said in cases:
        with pytest.raises(ArenaError) as caught:
            html_report(rep, deals_given)
        assert str(caught.value) == f"deals: not the history of the report: {said}"
    assert html_report(report, lines).startswith("<!DOCTYPE html>")


@pytest.mark.parametrize(
    "where, key",
    [("report", "schema_version"), ("history", "version"), ("history", "history.version")],
)
def test_a_file_of_a_newer_format_version_says_so_whatever_else_it_holds(
    tmp_path: Path, lines: list[dict[str, Any]], where: str, key: str
) -> None:
    """Regression: a report or a hand history written by a later ofc-fast (a format
    version above the one this release reads, with a field this release does not
    know) was refused as ``'added': not a known field``, or ``version: expected 1,
    got 2``, never saying that the file is newer than this ofc-fast: the version is
    now read first and named as newer, with the way out (upgrade)."""
    report, deal = copy.deepcopy(report_of(lines)), copy.deepcopy(lines[0])
    outer = report if where == "report" else deal
    inner = outer["history"] if key.startswith("history.") else outer
    field = key.rsplit(".", 1)[-1]
    inner[field] += 1
    inner["added"] = True  # (a newer format holds fields this one does not know)
    rep, hist = write(tmp_path, report, [deal, *lines[1:]])
    with pytest.raises(OfcError) as err:
        if where == "report":
            read_report(rep)
        else:
            list(read_histories(hist))
    message = str(err.value)
    assert f"{key}: version {inner[field]} is newer than" in message, message
    assert "pip install -U ofc-fast" in message


def test_an_integer_constant_that_is_no_version_is_not_called_newer() -> None:
    """Regression (review): the newer-version check read every integer ``const`` of a
    schema as a format version, so a fixed integer field above its constant (such as
    the service's retry seconds, were its schema checked here) was called "newer than
    this ofc-fast"; only the keys that hold a file's format version are versions."""
    from ofc_fast.arena._schema import problem

    fixed = {"properties": {"retry": {"type": "integer", "const": 3}}}
    assert problem({"retry": 5}, fixed) == "retry: expected 3, got 5"
    version = {"properties": {"version": {"type": "integer", "const": 1}}}
    assert "version 5 is newer than" in str(problem({"version": 5}, version))
