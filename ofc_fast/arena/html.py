"""The HTML match report: one self-contained page (no network, no other file needed to
view it) with the standings, the latency p50/p99 and the intervals, a chart of
cumulative points per bot (inline SVG with axes and a legend), and the deals drawn as
boards with row labels, royalties per row and Fantasyland markers, with a stepper
through the decisions.

The history is read one deal at a time and the page holds a bounded summary: the
running totals (a bounded sample of them for the chart), the first ``embed`` deals
and the largest swings.  When a history has more deals than that,
:func:`write_html_report` also writes every deal, compact, to ``<page>.deals.jsonl``
next to the page; the page loads that file on request (a file input: nothing is
fetched) and then shows any deal.

Every input is checked first (``report.schema.json``, ``hand_history.schema.json``,
each deal replayed) and every value is escaped by its type; the page's
Content-Security-Policy lets only its own script run.

>>> bot = {"points": 0, "points_per_hand_mean": None, "points_per_hand_ci95": None,
...        "fouls": 0, "fantasylands": 0, "scoops": 0, "royalties": 0, "faults": 0,
...        "decisions": {}}
>>> page = html_report({"schema_version": 1, "family": "ofc", "game_id": "ofc",
...                     "hands": 0, "seed": 1, "bots": [{**bot, "name": "a"},
...                                                     {**bot, "name": "b"}]}, [])
>>> page.startswith("<!DOCTYPE html>") and "http" not in page.split("<body>")[1]
True
"""

from __future__ import annotations

import contextlib
import json
import os
import shutil
from collections.abc import Iterable, Iterator, Sequence
from pathlib import Path
from typing import IO, Any

from ..errors import ArenaError, counted, quote, quote_path, shown_path, whole_count
from ..files import atomic_text, file_key, temporary_file, written_in_place
from ._digest import Digest, RunningTotals
from ._page import page
from ._stats import printable
from .history import ImportedDeal, import_deal, read_histories
from .report import check_report, read_report, source_name

__all__ = ["DEFAULT_EMBED", "html_report", "write_html_report"]

DEFAULT_EMBED = 200
"""Deals :func:`write_html_report` puts in the page itself (besides the largest
swings)."""


def cumulative_points(
    report: dict[str, Any], deals: Sequence[dict[str, Any]]
) -> dict[str, list[int]]:
    """Per bot name, its running total after each deal (every deal).

    >>> cumulative_points({"bots": [{"name": "a"}, {"name": "b"}]},
    ...                   [{"seats": ["a", "b"], "points": [3, -3]}])
    {'a': [3], 'b': [-3]}
    """
    totals = RunningTotals([b["name"] for b in report.get("bots", [])])
    for d in deals:
        totals.add(d["seats"], d["points"])
    return {name: [v[k] for _, v in totals.samples] for k, name in enumerate(totals.names)}


def _digest(
    report: dict[str, Any],
    deals: Iterable[ImportedDeal],
    embed: int | None,
    sidecar: IO[str] | None = None,
) -> Digest:
    digest = Digest([b["name"] for b in report["bots"]], embed=embed, sidecar=sidecar)
    for d in deals:
        digest.add(d)
    return digest


def html_report(
    report: dict[str, Any], deals: Iterable[dict[str, Any]], *, embed: int | None = None
) -> str:
    """The page of a match report and its history lines (each checked and replayed:
    HistoryError or ArenaError naming the first bad one; ArenaError for lines that
    are not the history of the report's match, as :func:`write_html_report` refuses
    such files); ``embed``: the number of deals the page holds besides the largest
    swings (None: every deal).

    >>> from ofc_fast.arena import Arena, parse_bot_spec
    >>> from ofc_fast.arena.history import deal_record
    >>> lines = []
    >>> arena = Arena("pineapple", [parse_bot_spec("random")] * 2, hands=2, seed=1,
    ...               on_deal=lambda d: lines.append(deal_record(d.game, d.hand_no, d.seats)))
    >>> page = html_report(arena.run(), lines)
    >>> page.startswith("<!DOCTYPE html>"), "random-2" in page
    (True, True)
    """
    if embed is not None:
        _check_embed(embed)
    checked = check_report(report)
    digest = _history_digest(
        checked, _imported(deals), embed, None, "deals: not the history of the report"
    )
    return page(checked, digest, None)


def _check_embed(embed: object) -> None:
    whole_count(embed, "embed", 0, ArenaError)  # (a count of deals)


def _imported(deals: Iterable[dict[str, Any]]) -> Iterator[ImportedDeal]:
    deal = None
    for i, d in enumerate(deals, 1):
        deal = import_deal(d, i, previous=deal)
        yield deal


def sidecar_path(output: str | Path) -> Path:
    """Where :func:`write_html_report` writes the deals file of the page ``output``
    (``report.html`` -> ``report.deals.jsonl``)."""
    out = Path(output)
    return out.with_name(out.stem + ".deals.jsonl")


def write_html_report(
    report_path: str | Path | IO[bytes],
    history_path: str | Path | IO[bytes],
    output: str | Path,
    *,
    embed: int = DEFAULT_EMBED,
) -> Path | None:
    r"""Read a report and its history file (paths, or open binary files: ``ofc-fast
    report``'s standard input; one deal at a time, every deal replayed)
    and write the page to ``output`` (ArenaError naming both files when the history
    seats a bot the report does not name, or does not hold its hand count and points
    per bot); when the history has
    more deals than the page holds (the first ``embed`` and the largest swings), also
    the deals file :func:`sidecar_path` (returned; None when not written, as for a
    page written in place: ``/dev/stdout``, a FIFO).  Both files are written whole
    or not at all (:func:`~ofc_fast.files.atomic_text`: a symbolic link stays one,
    a replaced file keeps its permissions).

    >>> import json, os, tempfile
    >>> from ofc_fast.arena import Arena, parse_bot_spec
    >>> from ofc_fast.arena.history import deal_record
    >>> d = tempfile.mkdtemp()
    >>> report, history = os.path.join(d, "report.json"), os.path.join(d, "history.jsonl")
    >>> with open(history, "w") as f:
    ...     arena = Arena("pineapple", [parse_bot_spec("random")] * 2, hands=12, seed=1,
    ...                   on_deal=lambda r: f.write(json.dumps(deal_record(
    ...                       r.game, r.hand_no, r.seats, deck_no=r.deck_no)) + "\n"))
    ...     with open(report, "w") as g:
    ...         json.dump(arena.run(), g)
    >>> write_html_report(report, history, os.path.join(d, "match.html"), embed=0).name
    'match.deals.jsonl'
    >>> sorted(os.listdir(d))
    ['history.jsonl', 'match.deals.jsonl', 'match.html', 'report.json']
    """
    _check_embed(embed)
    out, side = Path(output), sidecar_path(output)
    names = [source_name(p, "standard input") for p in (report_path, history_path)]
    # (by file_key: a hard link of an input, standard input's file are inputs too)
    inputs = {file_key(p) for p in (report_path, history_path)} - {None}
    for target, what in ((out, ""), (side, " (the page's deals file)")):
        if file_key(target) in inputs:  # (output: --output on the command line)
            raise ArenaError(
                f"output: {shown_path(target)}{what} is an input of the report: write the page "
                f"elsewhere"
            )
    report = read_report(report_path)
    with _scratch(out, side) as body:
        digest = _history_digest(
            report,
            read_histories(history_path),
            embed,
            body,
            f"{names[1]} is not the history of {names[0]}",
        )
        wanted = body is not None and len(digest.embedded()) < digest.count
        text = page(report, digest, side.name if wanted else None)
        with _writing(out), atomic_text(out) as f:
            f.write(text)
            if body is not None and wanted:
                with _writing(side), atomic_text(side) as g:
                    g.write(json.dumps(digest.header(), separators=(",", ":")) + "\n")
                    body.seek(0)
                    shutil.copyfileobj(body, g)
    return side if wanted else None


def _history_digest(
    report: dict[str, Any],
    deals: Iterable[ImportedDeal],
    embed: int | None,
    sidecar: IO[str] | None,
    not_its_history: str,
) -> Digest:
    """The digest of ``deals`` (:func:`_digest`) when they are the history of
    ``report``'s match (:func:`_mismatch`, :func:`_seated`); else ArenaError saying
    ``not_its_history`` and how they differ: a file's and a caller's dicts alike."""
    strangers: list[str] = []
    digest = _digest(report, _seated(report, deals, strangers), embed, sidecar)
    mismatch = _mismatch(report, digest) or (strangers[0] if strangers else None)
    if mismatch:
        raise ArenaError(f"{not_its_history}: {mismatch}")
    return digest


def _seated(
    report: dict[str, Any], deals: Iterable[ImportedDeal], strangers: list[str]
) -> Iterator[ImportedDeal]:
    """``deals``; the first that seats a bot ``report`` does not name is said in
    ``strangers`` (a mismatch :func:`_mismatch` may not see: tied deals)."""
    names = {b["name"] for b in report["bots"]}
    for i, d in enumerate(deals, 1):
        stranger = next((s for s in d.record["seats"] if s not in names), None)
        if stranger is not None and not strangers:
            strangers.append(
                f"its deal {i} seats {quote(stranger)}, a bot the report does not name"
            )
        yield d


def _mismatch(report: dict[str, Any], digest: Digest) -> str | None:
    """How the deals of ``digest`` differ from the match of ``report`` (its hand
    count, then each bot's points), or None."""
    if digest.count != report["hands"]:
        return (
            f"it holds {counted(digest.count, 'deal')}, the report "
            f"{counted(report['hands'], 'hand')}"
        )
    for bot in report["bots"]:
        points = digest.totals.totals[bot["name"]]
        if points != bot["points"]:
            return (
                f"{printable(bot['name'])} has {points} points in it, {bot['points']} in "
                "the report"
            )
    return None


@contextlib.contextmanager
def _scratch(out: Path, side: Path) -> Iterator[IO[str] | None]:
    """Where the deals file's lines go as the history is read (its header, which
    comes first, is known at the end): a temporary file with no name in the deals
    file's folder, gone however the block ends (an OSError in the block, a full disk:
    an ArenaError naming the page); None for a page
    :func:`~ofc_fast.files.written_in_place` (a device, a FIFO, ``/dev/stdout``: no
    deals file next to it)."""
    if written_in_place(out):
        yield None
        return
    folder = os.path.dirname(os.path.realpath(side))
    with _writing(out), temporary_file(folder) as f:
        yield f


@contextlib.contextmanager
def _writing(target: Path) -> Iterator[None]:
    """An OSError writing ``target`` inside (its folder missing, a full disk) is an
    ArenaError naming it, as ``output``'s (``--output``'s on the command line)."""
    try:
        yield
    except OSError as exc:
        raise ArenaError(
            f"output: cannot write {quote_path(target)}: {exc.strerror}"
        ) from None
