r"""The HTML of the report page: every value written into it escaped by its type
(numbers formatted, text through :func:`html.escape`), the JSON island with ``<``,
``>``, ``&`` and every non-ASCII character as ``\u`` escapes, and a
Content-Security-Policy that lets only the page's own script run.
"""

from __future__ import annotations

import html
import json
import math
from typing import Any

from ..errors import counted
from ._digest import Digest, RunningTotals
from ._page_assets import CSS, JS, SCRIPT_HASH

__all__ = ["page"]

COLOURS = ("#1f77b4", "#d62728", "#2ca02c", "#9467bd", "#ff7f0e", "#8c564b", "#e377c2")
PAGE_SIZE = 20
_JSON_ESCAPES = str.maketrans({"<": "\\u003c", ">": "\\u003e", "&": "\\u0026"})


def esc(value: object) -> str:
    """Text for the page (an attribute or an element)."""
    return html.escape(str(value), quote=True)


def num(value: object, spec: str = "d") -> str:
    """A number formatted by ``spec`` ("-" for None), escaped like text."""
    if value is None:
        return "-"
    if isinstance(value, bool) or not isinstance(value, (int, float)):
        return esc(value)
    return esc(format(value, spec))


def json_island(value: object) -> str:
    """JSON for a ``<script type="application/json">`` element: no ``<``, ``>`` or
    ``&`` (so no ``</script>`` or ``<!--`` can end or hide the element), ASCII only
    (so no U+2028/U+2029)."""
    text = json.dumps(value, ensure_ascii=True, separators=(",", ":"), allow_nan=False)
    return text.translate(_JSON_ESCAPES)


def _ticks(lo: int, hi: int, count: int = 5) -> list[int]:
    """Round whole numbers from ``lo`` to ``hi`` (about ``count`` of them).

    >>> _ticks(0, 1, 4), _ticks(-97, 97), _ticks(0, 100_000, 4)
    ([0, 1], [-50, 0, 50], [0, 50000, 100000])
    """
    raw = max((hi - lo) / count, 1)
    base = 10 ** math.floor(math.log10(raw))
    step = next(m * base for m in (1, 2, 5, 10) if m * base >= raw)
    first = math.ceil(lo / step) * step
    return [first + k * step for k in range(int((hi - first) / step) + 1)]


def chart(totals: RunningTotals) -> str:
    """The SVG line chart of cumulative points per bot, with axes, and its legend
    below (never over the lines)."""
    w, h, left, right, top, bottom = 500, 280, 66, 14, 12, 46
    n = max(totals.count, 1)
    lo, hi = totals.low, totals.high
    if lo == hi:
        lo, hi = lo - 1, hi + 1

    def x(i: float) -> float:
        return left + (w - left - right) * i / n

    def y(v: float) -> float:
        return top + (h - top - bottom) * (hi - v) / (hi - lo)

    parts = [
        f'<svg id="chart" viewBox="0 0 {w} {h}" role="img" '
        f'aria-label="cumulative points per bot over the deals">'
    ]
    for v in _ticks(lo, hi):
        label = num(v, "+,.0f") if v else "0"
        parts.append(
            f'<line x1="{left}" y1="{y(v):.1f}" x2="{w - right}" y2="{y(v):.1f}" '
            f'stroke="{"#888" if v == 0 else "#e4e4e4"}"/>'
            f'<text x="{left - 6}" y="{y(v) + 4:.1f}" text-anchor="end">{label}'
            f"</text>"
        )
    base = h - bottom
    parts.append(
        f'<line class="x-axis" x1="{left}" y1="{base}" x2="{w - right}" '
        f'y2="{base}" stroke="#444"/>'
    )
    for v in _ticks(0, n, 4):
        parts.append(
            f'<line x1="{x(v):.1f}" y1="{base}" x2="{x(v):.1f}" y2="{base + 5}" '
            f'stroke="#444"/><text class="x-tick" x="{x(v):.1f}" y="{base + 18}" '
            f'text-anchor="middle">{num(v, ",.0f")}</text>'
        )
    parts.append(
        f'<text x="{(left + w - right) / 2:.0f}" y="{h - 4}" text-anchor="middle">'
        f"deals</text>"
        f'<text transform="translate(13 {(top + base) / 2:.0f}) rotate(-90)" '
        f'text-anchor="middle">points</text>'
    )
    points = totals.points()
    for k, _name in enumerate(totals.names):
        line = " ".join(f"{x(i):.1f},{y(v[k]):.1f}" for i, v in points)
        parts.append(
            f'<polyline class="series" fill="none" stroke="{COLOURS[k % len(COLOURS)]}" '
            f'stroke-width="2" points="{line}"/>'
        )
    parts.append("</svg>")
    legend = "".join(
        f'<li><span class="swatch" style="background:{COLOURS[k % len(COLOURS)]}">'
        f"</span>{esc(name)} ({num(totals.totals[name], '+d')})</li>"
        for k, name in enumerate(totals.names)
    )
    sampled = f"; every {totals.stride:,} deals drawn" if totals.stride > 1 else ""
    return (
        f"<figure>{''.join(parts)}<ul class='legend'>{legend}</ul><figcaption>Points "
        f"after each deal of the history ({totals.count:,} deals{sampled}).</figcaption>"
        f"</figure>"
    )


_COLUMNS: tuple[tuple[str, str, str], ...] = (
    ("points", "points", "+d"),
    ("per hand", "points_per_hand_mean", "+.3f"),
    ("95% CI ±", "points_per_hand_ci95", ".3f"),
    ("fouls", "fouls", "d"),
    ("FL", "fantasylands", "d"),
    ("scoops", "scoops", "d"),
    ("royalties", "royalties", "d"),
    ("faults", "faults", "d"),
    ("substituted", "substituted", "d"),
)
_TIMES = (("p50 ms", "p50_ms"), ("p99 ms", "p99_ms"))


def standings(report: dict[str, Any]) -> str:
    """The standings table (one row per bot) and the duplicate pairs."""
    head = "".join(f"<th>{esc(label)}</th>" for label, *_ in (*_COLUMNS, *_TIMES))
    rows = [f"<div class='wide'><table id='standings'><tr><th>bot</th>{head}</tr>"]
    for b in report["bots"]:
        cells = [f"<td data-label='bot'>{esc(b['name'])}</td>"]
        cells += [
            f"<td data-label='{esc(label)}'>{num(b.get(key), spec)}</td>"
            for label, key, spec in _COLUMNS
        ]
        cells += [
            f"<td data-label='{esc(label)}'>{num(b['decisions'].get(key), '.2f')}</td>"
            for label, key in _TIMES
        ]
        rows.append(f"<tr>{''.join(cells)}</tr>")
    rows.append("</table></div>")
    dup = report.get("duplicate")
    if dup:
        for p in dup["pairs"]:
            rows.append(
                f"<p>Duplicate ({counted(dup['decks'], 'deck', spec=',')}): {esc(p['a'])} &minus; "
                f"{esc(p['b'])} = {num(p['difference_per_deck_mean'], '+.3f')} ± "
                f"{num(p['difference_per_deck_ci95'], '.3f')} per deck</p>"
            )
    return "".join(rows)


def _deals_part(digest: Digest, sidecar: str | None) -> str:
    held = len(digest.embedded())
    load = ""
    if held >= digest.count:
        note = (
            "The history holds no deal."
            if digest.count == 0
            else "The deal is in this page."
            if digest.count == 1
            else f"All {counted(digest.count, 'deal', spec=',')} are in this page."
        )
    else:
        note = (
            f"This page holds the first {counted(len(digest.first), 'deal', spec=',')} "
            f"and the {counted(held - len(digest.first), 'largest swing')} after them"
        )
        if sidecar is None:  # (html_report with embed, a page to /dev/stdout)
            note += f", of {counted(digest.count, 'deal', spec=',')}."
        else:
            note += (
                f"; the file <code>{esc(sidecar)}</code>, written next to it, holds "
                f"all {digest.count:,}: load it to browse every deal."
            )
            load = (
                "<p><label>Deals file: <input type='file' id='deals-file' "
                "accept='.jsonl'></label> <span id='deals-status'></span></p>"
            )
    return (
        f"<h2>Deals ({digest.count:,})</h2><p id='deals-note'>{note}</p>{load}"
        f"<p id='swings'>Largest swings: </p>"
        f"<nav class='pager'><button id='page-prev'>&lsaquo; previous</button>"
        f"<span id='page-info'></span><button id='page-next'>next &rsaquo;</button>"
        f"<form id='goto-form'><label>deal <input type='number' id='goto' min='1' "
        f"max='{max(digest.count, 1)}'></label> <button>show</button></form></nav>"
        f"<div id='deal-list'></div>"
    )


def page(report: dict[str, Any], digest: Digest, sidecar: str | None) -> str:
    """The whole page: ``report`` checked, ``digest`` filled, ``sidecar`` the name of
    the deals file written next to the page (None: none)."""
    title = (
        f"{report['game_id']}: {counted(report['hands'], 'hand')}, seed {report['seed']}"
    )
    sub = [f"rules {esc(report['rules'])}" if report.get("rules") else ""]
    if report.get("forfeited_by"):
        sub.append(f"forfeited by {esc(report['forfeited_by'])}")
    if report.get("interrupted"):  # (as the standings print it: Ctrl-C, SIGTERM)
        sub.append("interrupted: the hands played before the match was stopped")
    data = {
        "meta": {
            "deals": digest.count,
            "page": PAGE_SIZE,
            "file": sidecar,
            "sha256": digest.header()["sha256"] if sidecar else None,
        },
        "deals": digest.embedded(),
        "swings": digest.largest_swings(),
    }
    csp = (
        "default-src 'none'; style-src 'unsafe-inline'; "
        f"script-src 'sha256-{SCRIPT_HASH}'; form-action 'none'"
    )
    return (
        "<!DOCTYPE html><html lang='en'><head><meta charset='utf-8'>"
        "<meta name='viewport' content='width=device-width,initial-scale=1'>"
        f"<meta http-equiv='Content-Security-Policy' content=\"{csp}\">"
        f"<title>{esc(title)}</title><style>{CSS}</style></head><body>"
        f"<h1>{esc(title)}</h1><p class='sub'>{' · '.join(s for s in sub if s)}</p>"
        f"<h2>Standings</h2>{standings(report)}"
        f"<h2>Cumulative points</h2>{chart(digest.totals)}"
        f"{_deals_part(digest, sidecar)}"
        f"<script type='application/json' id='report-data'>{json_island(data)}</script>"
        f"<script>{JS}</script></body></html>"
    )
