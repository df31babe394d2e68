"""The match report and progress lines, in the protocol's report shape
(``schema_version`` 1, ``family`` "ofc"), plus what this arena adds: fault kinds,
substituted decisions and, for duplicate matches, the paired differences.

Only the ``*_ms`` fields of ``decisions`` are not reproducible from the seed
(:func:`without_timings` drops them for comparisons).  :func:`read_report` reads one
back, checked against ``report.schema.json`` (the fields ``ofc-fast report`` uses).
"""

from __future__ import annotations

import io
import json
from functools import cache
from pathlib import Path
from typing import IO, TYPE_CHECKING, Any

from ..errors import ArenaError, counted, quote, quote_path, shown_path
from ..files import open_input
from ..lazy import lazy_module
from ._schema import parse, problem
from ._stats import int_half_width, latency_summary
from .history import FORMAT as HISTORY_FORMAT

if TYPE_CHECKING:  # (the host imports this module)
    from .. import arena as _arena
else:
    _arena = lazy_module("ofc_fast.arena")

__all__ = [
    "MAX_REPORT_BYTES",
    "REPORT_SCHEMA_PATH",
    "SCHEMA_VERSION",
    "ReadOnce",
    "check_report",
    "match_report",
    "read_report",
    "source_name",
]

SCHEMA_VERSION = 1
REPORT_SCHEMA_PATH = Path(__file__).with_name("report.schema.json")
MAX_REPORT_BYTES = 16 << 20
"""The largest report file read (a report of four bots is about 3 KiB)."""


@cache
def _report_schema() -> dict[str, Any]:
    schema: dict[str, Any] = json.loads(REPORT_SCHEMA_PATH.read_text(encoding="utf-8"))
    return schema


def bot_name_limit() -> int:
    """The longest bot name a report holds (``report.schema.json``; a hand history's
    seat names are held to the same): the arena names no seat longer."""
    bot = _report_schema()["properties"]["bots"]["items"]
    limit: int = bot["properties"]["name"]["maxLength"]
    return limit


def check_report(report: object) -> dict[str, Any]:
    """``report`` itself when it has the fields a match report needs, of the right
    types and ranges (``report.schema.json``), and holds together as every arena run
    writes it (:func:`_inconsistency`: unique bot names, one a seat, ...); ArenaError
    naming the first field that does not.

    >>> check_report({"schema_version": 1, "family": "ofc", "game_id": "ofc",
    ...               "hands": 0, "seed": 1, "bots": [{"name": "a", "fouls": "<b>"},
    ...                                               {"name": "b"}]})
    Traceback (most recent call last):
    ...
    ofc_fast.errors.ArenaError: report: bots[0].points: missing
    """
    if not isinstance(report, dict):  # (problem() would call it "the line")
        raise ArenaError(f"report: expected a JSON object, got {quote(report)}")
    found = problem(report, _report_schema())
    if found:
        raise ArenaError(f"report: {found}")
    assert isinstance(report, dict)  # the schema says so
    found = _inconsistency(report)
    if found:
        raise ArenaError(f"report: {found}")
    return report


def _inconsistency(report: dict[str, Any]) -> str | None:
    """Where ``report`` (of the schema's shape) says what no arena run writes, or
    None: a bot name twice, a ``seat_count`` not the number of bots (one a seat), a
    bot's ``hands`` not the report's (every bot plays every hand), duplicate
    ``rotations`` not the number of bots, more ``decks`` than the hands hold, a
    duplicate bot or pair's bot that is none of the bots, a forfeit no run makes
    (:func:`_forfeit_problem`)."""
    bots = report["bots"]
    names = [b["name"] for b in bots]
    if len(set(names)) != len(names):
        return f"bots: a name appears twice in {names}"
    seats = report.get("seat_count", len(bots))
    if seats != len(bots):
        return (
            f"seat_count: {seats} seats, but {counted(len(bots), 'bot')} in bots (the "
            "arena seats one bot a seat)"
        )
    for i, b in enumerate(bots):
        if b.get("hands", report["hands"]) != report["hands"]:
            return (
                f"bots[{i}].hands: {b['hands']}, not the report's hands "
                f"({report['hands']}): every bot plays every hand"
            )
    dup = report.get("duplicate") or {}
    rotations, decks = dup.get("rotations", len(bots)), dup.get("decks", 0)
    if rotations != len(bots):
        return (
            f"duplicate.rotations: {rotations}, but {counted(len(bots), 'bot')} in bots "
            "(a deck is played once a rotation of the seats)"
        )
    if decks * rotations > report["hands"]:
        return (
            f"duplicate.decks: {decks} decks of {rotations} rotations, more hands than "
            f"the report's {report['hands']}"
        )
    strangers = [
        (f"duplicate.bots[{i}].name", b["name"]) for i, b in enumerate(dup.get("bots", []))
    ]
    for i, p in enumerate(dup.get("pairs", [])):
        if p["a"] == p["b"]:
            return f"duplicate.pairs[{i}]: {quote(p['a'])} paired with itself"
        strangers += [(f"duplicate.pairs[{i}].{k}", p[k]) for k in ("a", "b")]
    for where, name in strangers:
        if name not in names:
            return f"{where}: {quote(name)} is none of the bots"
    return _forfeit_problem(report)


def _forfeit_problem(report: dict[str, Any]) -> str | None:
    """Where ``report``'s ``forfeited_by`` says what no arena run writes, or None: a
    bot it does not name, one with no fault (a bot forfeits at its first), a forfeit
    under another fault policy than ``forfeit``, or none under ``forfeit`` where a bot
    has a fault."""
    who = report.get("forfeited_by")
    policy = report.get("fault_policy", "forfeit")
    if who is None:
        faulted = [b["name"] for b in report["bots"] if b["faults"]]
        if faulted and "fault_policy" in report and policy == "forfeit":
            return (
                f"forfeited_by: null, but {quote(faulted[0])} has a fault under "
                "fault_policy 'forfeit' (its first fault forfeits the match)"
            )
        return None
    bot = next((b for b in report["bots"] if b["name"] == who), None)
    if bot is None:
        return f"forfeited_by: {quote(who)} is none of the bots"
    if policy != "forfeit":
        return (
            f"forfeited_by: {quote(who)}, but fault_policy is {quote(policy)} (a bot "
            "forfeits only under 'forfeit')"
        )
    if bot["faults"] == 0:
        return f"forfeited_by: {quote(who)} has no fault (a bot forfeits at its first)"
    return None


def read_report(source: str | Path | IO[bytes]) -> dict[str, Any]:
    """The match report in a file (a path or an open binary file;
    :func:`check_report`); ArenaError naming the file and the problem when it cannot
    be read or is not a report.

    >>> import io
    >>> read_report(io.BytesIO(b'{"schema_version": 1, "family": "ofc"'))
    Traceback (most recent call last):
    ...
    ofc_fast.errors.ArenaError: the report: not JSON (Expecting ',' delimiter: line 1 column 38 (char 37))
    """  # noqa: E501 - the error message as the user sees it
    if not isinstance(source, (str, Path)):
        return _report_of(
            source.read(MAX_REPORT_BYTES + 1), source_name(source, "the report")
        )
    try:
        with open_input(source) as f:  # (a FIFO: not waited on for ever)
            return _report_of(f.read(MAX_REPORT_BYTES + 1), shown_path(source))
    except OSError as exc:
        raise ArenaError(
            f"cannot read the report {quote_path(source)}: {exc.strerror}"
        ) from None


class ReadOnce(io.BytesIO):
    """The bytes of a file that gives them once (a pipe: ``<(gunzip -c r.json.gz)``,
    a FIFO), read into memory, named by its path (:func:`source_name`).

    >>> once = ReadOnce(b"{}", "/dev/fd/63")
    >>> once.read(), once.name
    (b'{}', '/dev/fd/63')
    """

    def __init__(self, data: bytes, name: str) -> None:
        super().__init__(data)
        self.name = name


def source_name(source: str | Path | IO[bytes], default: str) -> str:
    """How errors name a report or a history read from ``source``: a path as
    :func:`~ofc_fast.errors.shown_path` shows it, a :class:`ReadOnce` by its path,
    any other open file ``default`` (``"standard input"``).

    >>> source_name(ReadOnce(b"{}", "/dev/fd/63"), "x"), source_name(io.BytesIO(), "x")
    ('/dev/fd/63', 'x')
    """
    if isinstance(source, ReadOnce):
        return shown_path(source.name)
    return shown_path(source) if isinstance(source, (str, Path)) else default


def _report_of(data: bytes, path: str) -> dict[str, Any]:
    if not data.strip():  # (a failed ``--json - > r.json``)
        raise ArenaError(
            f"{path}: empty ({len(data)} bytes): not a report (ofc-fast arena --json "
            "writes one)"
        )
    if len(data) > MAX_REPORT_BYTES:
        raise ArenaError(
            f"{path}: longer than {MAX_REPORT_BYTES} bytes: not a report{_history(data)}"
        )
    try:
        return check_report(parse(data, ArenaError))
    except ArenaError as exc:
        raise ArenaError(f"{path}: {exc}{_history(data)}") from None


def _history(data: bytes) -> str:
    """What to add to the error of a file that is no report when it is another file of
    ofc-fast's: a hand history (its first line a deal's: ``ofc-fast report``'s two
    files swapped), or what ``ofc-fast play`` writes (``--json``, or ``--history`` to a
    ``.json`` PATH: an object holding its ``deals``, no ``schema_version``)."""
    try:
        first = parse(data.split(b"\n", 1)[0], ArenaError)
    except ArenaError:
        return ""
    if isinstance(first, dict) and first.get("format") == HISTORY_FORMAT:
        return (
            ": it is a hand history (ofc-fast arena --history); the report (--json) "
            "comes first"
        )
    if (
        isinstance(first, dict)
        and isinstance(first.get("deals"), list)
        and "schema_version" not in first
    ):
        return (
            ": it is what ofc-fast play writes (--json, or --history to a .json file), "
            "not a match report: ofc-fast arena --json writes one"
        )
    return ""


def _bot_entry(rec: _arena.BotRecord) -> dict[str, Any]:
    n = len(rec.points)  # (its sums kept as they came: no pass over a long match's)
    return {
        "name": rec.name,
        "kind": rec.spec.label,
        "points": rec.points_total,
        "points_per_hand_mean": rec.points_total / n if n else None,
        "points_per_hand_ci95": int_half_width(n, rec.points_total, rec.points_squares),
        "hands": n,
        "fouls": rec.fouls,
        "fantasylands": rec.fantasylands,
        "scoops": rec.scoops,
        "royalties": rec.royalties,
        "faults": rec.fault_count,
        "fault_kinds": {k: v for k, v in rec.faults.items() if v},
        "substituted": rec.substituted,
        "stopped": rec.stopped,
        "decisions": latency_summary(rec.latencies_ms),
    }


def duplicate_summary(arena: _arena.Arena) -> dict[str, Any]:
    """Per deck, each bot's points summed over the seat rotations; the mean per deck
    with its interval, and for each pair of bots the mean paired difference per deck
    with its interval (the variance reduction of duplicate play)."""
    sums = arena.deck_sums  # (the finished decks: all their rotations played)
    n = sums.count
    bots = [
        {
            "name": name,
            "points_per_deck_mean": sums.totals[b] / n if n else None,
            "points_per_deck_ci95": int_half_width(n, sums.totals[b], sums.squares[b]),
        }
        for b, name in enumerate(arena.names)
    ]
    pairs = [
        {
            "a": arena.names[a],
            "b": arena.names[b],
            "difference_per_deck_mean": total / n if n else None,
            "difference_per_deck_ci95": int_half_width(n, total, squares),
        }
        for (a, b), (total, squares) in sums.pairs.items()
    ]
    return {"decks": n, "rotations": arena.players, "bots": bots, "pairs": pairs}


def match_report(arena: _arena.Arena) -> dict[str, Any]:
    """The report of a finished (or forfeited, or interrupted: :meth:`Arena.stop`)
    match (what :meth:`Arena.run` returns).

    >>> from ofc_fast.arena import Arena, parse_bot_spec
    >>> arena = Arena("ofc-pineapple", [parse_bot_spec("random")] * 2, hands=1, seed=4)
    >>> _ = arena.run()
    >>> report = match_report(arena)
    >>> report["game_id"], report["hands"], [b["name"] for b in report["bots"]]
    ('ofc-pineapple', 1, ['random', 'random-2'])
    >>> check_report(report) is report
    True
    """
    from .. import __version__

    report: dict[str, Any] = {
        "schema_version": SCHEMA_VERSION,
        "family": "ofc",
        "game_id": arena.game_id,
        "hands": arena.hands_done,
        "seed": arena.seed,
        "seat_count": arena.players,
        "timeout_ms": arena.timeout_ms,
        "fault_policy": arena.fault_policy,
        "forfeited_by": arena.forfeited_by,
        "interrupted": arena.interrupted,
        "bots": [_bot_entry(r) for r in arena.records],
        "rules": arena.rules.name,
        "duplicate": None,
        "ofc_fast": __version__,
    }
    if arena.duplicate:
        report["duplicate"] = duplicate_summary(arena)
    return report


def progress_line(arena: _arena.Arena, total: int) -> dict[str, Any]:
    """The standings so far, from the sums each bot's record keeps as the hands end
    (a line takes the same time whatever the hands played)."""
    return {
        "schema_version": SCHEMA_VERSION,
        "hands_done": arena.hands_done,
        "hands_total": total,
        "standings": [
            {
                "name": r.name,
                "points": r.points_total,
                "points_per_hand_mean": (
                    r.points_total / len(r.points) if r.points else None
                ),
                "points_per_hand_ci95": int_half_width(
                    len(r.points), r.points_total, r.points_squares
                ),
            }
            for r in arena.records
        ],
    }


def without_timings(report: dict[str, Any]) -> dict[str, Any]:
    """The report without the fields that are not reproducible (decision times)."""
    out = dict(report)
    out["bots"] = [
        {**b, "decisions": {"count": b["decisions"]["count"]}} for b in report["bots"]
    ]
    return out
