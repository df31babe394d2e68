"""The HTML match report: one self-contained file (no network at view time) with the
standings and their intervals, a chart of cumulative points per bot (inline SVG),
and every deal's boards drawn as cards with a stepper through the decisions.

>>> page = html_report({"game_id": "ofc", "hands": 0, "seed": 1, "bots": []}, [])
>>> page.startswith("<!DOCTYPE html>") and "http" not in page.split("<body>")[1]
True
"""

from __future__ import annotations

import html
import json
from collections.abc import Sequence
from pathlib import Path
from typing import Any

from ..errors import ArenaError
from .history import read_histories

__all__ = ["cumulative_points", "html_report", "write_html_report"]

_COLOURS = ("#1f77b4", "#d62728", "#2ca02c", "#9467bd")

_CSS = """
body{font-family:system-ui,sans-serif;margin:1.5em;color:#222}
table{border-collapse:collapse}td,th{padding:.2em .6em;border-bottom:1px solid #ddd;
text-align:right}td:first-child,th:first-child{text-align:left}
.deal{border:1px solid #ccc;border-radius:6px;padding:.5em;margin:.6em 0}
.seat{margin:.2em 0}.row{display:inline-block;margin-right:1em;min-width:9em}
.card{display:inline-block;border:1px solid #888;border-radius:3px;padding:0 .2em;
margin:1px;background:#fff;font-weight:600}.red{color:#c00}.foul{color:#c00}
.step{font-family:monospace;margin:0 .5em}
"""

_JS = r"""
(function(){
  const data = JSON.parse(document.getElementById('deals-data').textContent);
  const SUIT = {c:'\u2663', d:'\u2666', h:'\u2665', s:'\u2660'};
  const ROWS = ['top', 'middle', 'bottom'];
  function card(t){
    const s = document.createElement('span');
    s.className = 'card' + ((t[1] === 'd' || t[1] === 'h') ? ' red' : '');
    s.textContent = t[0] + SUIT[t[1]];
    return s;
  }
  function render(el, deal, k){
    const boards = deal.seats.map(() => [[], [], []]);
    for (let i = 0; i < k; i++) {
      const m = deal.moves[i];
      m.place.forEach(p => boards[m.seat][p[1]].push(p[0]));
    }
    const box = el.querySelector('.boards');
    box.textContent = '';
    deal.seats.forEach((name, s) => {
      const div = document.createElement('div');
      div.className = 'seat';
      const label = document.createElement('b');
      const fl = deal.fl[s] ? ' (FL ' + deal.fl[s] + ')' : '';
      label.textContent = 'seat ' + s + ' ' + name + fl + ': ';
      div.appendChild(label);
      boards[s].forEach((row, r) => {
        const span = document.createElement('span');
        span.className = 'row';
        span.title = ROWS[r];
        row.forEach(c => span.appendChild(card(c)));
        div.appendChild(span);
      });
      if (k === deal.moves.length) {
        const res = document.createElement('span');
        const sign = deal.points[s] > 0 ? '+' : '';
        res.textContent = (deal.fouls[s] ? ' FOUL ' : ' ') + sign + deal.points[s];
        if (deal.fouls[s]) res.className = 'foul';
        div.appendChild(res);
      }
      box.appendChild(div);
    });
    const m = k > 0 ? deal.moves[k - 1] : null;
    const discarded = m && m.discard.length ? ', discarded ' + m.discard.join(' ') : '';
    el.querySelector('.step').textContent = 'decision ' + k + '/' + deal.moves.length +
      (m ? ' (seat ' + m.seat + discarded + ')' : '');
  }
  document.querySelectorAll('.deal').forEach(el => {
    const deal = data[Number(el.dataset.index)];
    let k = deal.moves.length;
    const go = d => { k = Math.max(0, Math.min(deal.moves.length, k + d)); render(el, deal, k); };
    el.querySelector('.first').addEventListener('click', () => go(-1e9));
    el.querySelector('.prev').addEventListener('click', () => go(-1));
    el.querySelector('.next').addEventListener('click', () => go(1));
    el.querySelector('.last').addEventListener('click', () => go(1e9));
    render(el, deal, k);
  });
})();
"""


def cumulative_points(
    report: dict[str, Any], deals: Sequence[dict[str, Any]]
) -> dict[str, list[int]]:
    """Per bot name, its running total after each deal."""
    names = [b["name"] for b in report.get("bots", [])]
    totals = dict.fromkeys(names, 0)
    out: dict[str, list[int]] = {n: [] for n in names}
    for d in deals:
        for s, name in enumerate(d["seats"]):
            totals[name] = totals.get(name, 0) + d["points"][s]
        for n in names:
            out[n].append(totals[n])
    return out


def _chart(series: dict[str, list[int]]) -> str:
    w, h, pad = 640, 240, 30
    values = [v for vs in series.values() for v in vs] or [0]
    lo, hi = min(0, *values), max(0, *values)
    span = max(hi - lo, 1)
    count = max((len(v) for v in series.values()), default=0)

    def xy(i: int, v: int) -> str:
        x = pad + (w - 2 * pad) * (i / max(count - 1, 1))
        y = h - pad - (h - 2 * pad) * ((v - lo) / span)
        return f"{x:.1f},{y:.1f}"

    zero = h - pad - (h - 2 * pad) * ((0 - lo) / span)
    parts = [
        f'<svg id="chart" width="{w}" '
        f'height="{h}" role="img" aria-label="cumulative points per bot">',
        f'<line x1="{pad}" y1="{zero:.1f}" x2="{w - pad}" y2="{zero:.1f}" stroke="#999"/>',
        f'<text x="2" y="{pad - 8}" font-size="11">{hi:+d}</text>',
        f'<text x="2" y="{h - 6}" font-size="11">{lo:+d}</text>',
    ]
    for k, (name, vs) in enumerate(series.items()):
        colour = _COLOURS[k % len(_COLOURS)]
        pts = " ".join(xy(i, v) for i, v in enumerate(vs))
        parts.append(
            f'<polyline class="series" fill="none" stroke="{colour}" '
            f'stroke-width="2" points="{pts}"/>'
        )
        parts.append(
            f'<text x="{w - pad - 120}" y="{pad + 14 * k}" fill="{colour}" '
            f'font-size="12">{html.escape(name)}</text>'
        )
    parts.append("</svg>")
    return "".join(parts)


def _fmt(x: Any, spec: str) -> str:
    return "-" if x is None else format(x, spec)


def _standings(report: dict[str, Any]) -> str:
    rows = [
        "<table id='standings'><tr><th>bot</th><th>points</th><th>per hand</th>"
        "<th>95% CI ±</th><th>fouls</th><th>FL</th><th>scoops</th><th>royalties</th>"
        "<th>faults</th><th>p50 ms</th></tr>"
    ]
    for b in report.get("bots", []):
        rows.append(
            f"<tr><td>{html.escape(str(b['name']))}</td><td>{b['points']:+d}</td>"
            f"<td>{_fmt(b['points_per_hand_mean'], '+.3f')}</td>"
            f"<td>{_fmt(b['points_per_hand_ci95'], '.3f')}</td><td>{b['fouls']}</td>"
            f"<td>{b['fantasylands']}</td><td>{b['scoops']}</td><td>{b['royalties']}</td>"
            f"<td>{b['faults']}</td><td>{_fmt(b['decisions']['p50_ms'], '.2f')}</td></tr>"
        )
    rows.append("</table>")
    dup = report.get("duplicate")
    if dup:
        for p in dup["pairs"]:
            rows.append(
                f"<p>Duplicate ({dup['decks']} decks): "
                f"{html.escape(p['a'])} &minus; {html.escape(p['b'])} = "
                f"{_fmt(p['difference_per_deck_mean'], '+.3f')} ± "
                f"{_fmt(p['difference_per_deck_ci95'], '.3f')} per deck</p>"
            )
    return "".join(rows)


def _deal_data(d: dict[str, Any]) -> dict[str, Any]:
    from ..cards import card_str

    h = d["history"]
    res = h.get("result", {})
    seats_to_act = _acting_seats(h)
    return {
        "hand_no": d["hand_no"],
        "seats": d["seats"],
        "points": d["points"],
        "fl": h["fantasyland"],
        "fouls": res.get("fouls", []),
        "moves": [
            {
                "seat": s,
                "place": [[card_str(c), r] for c, r in m["place"]],
                "discard": [card_str(c) for c in m.get("discard", [])],
            }
            for s, m in zip(seats_to_act, h["moves"])
        ],
    }


def _acting_seats(history: dict[str, Any]) -> list[int]:
    from ..game import Game

    g = Game.replay({k: v for k, v in history.items() if k != "result"} | {"moves": []})
    out: list[int] = []
    for m in history["moves"]:
        out.append(g.to_act)  # type: ignore[arg-type]  # an int while moves remain
        g.play(m)
    return out


def html_report(report: dict[str, Any], deals: Sequence[dict[str, Any]]) -> str:
    """The page of a match report and its history lines."""
    title = (
        f"{report.get('game_id')}: {report.get('hands')} hands, seed {report.get('seed')}"
    )
    data = json.dumps([_deal_data(d) for d in deals], separators=(",", ":"))
    data = data.replace("</", "<\\/")
    sections = "".join(
        f"<section class='deal' id='deal-{i}' data-index='{i}'><h3>Hand {d['hand_no']}"
        f"</h3><button class='first'>&laquo;</button><button class='prev'>&lsaquo; "
        f"prev</button><span class='step'></span><button class='next'>next &rsaquo;"
        f"</button><button class='last'>&raquo;</button><div class='boards'></div>"
        f"</section>"
        for i, d in enumerate(deals)
    )
    return (
        f"<!DOCTYPE html><html lang='en'><head><meta charset='utf-8'>"
        f"<title>{html.escape(title)}</title><style>{_CSS}</style></head><body>"
        f"<h1>{html.escape(title)}</h1><h2>Standings</h2>{_standings(report)}"
        f"<h2>Cumulative points</h2>{_chart(cumulative_points(report, deals))}"
        f"<h2>Deals ({len(deals)})</h2>{sections}"
        f"<script type='application/json' id='deals-data'>{data}</script>"
        f"<script>{_JS}</script></body></html>"
    )


def write_html_report(report_path: str, history_path: str, output: str) -> None:
    """Read a report and its history file (every deal replayed) and write the page."""
    try:
        report = json.loads(Path(report_path).read_text(encoding="utf-8"))
    except (OSError, ValueError) as exc:
        raise ArenaError(f"cannot read the report {report_path}: {exc}") from None
    deals = [d.record for d in read_histories(history_path)]
    Path(output).write_text(html_report(report, deals), encoding="utf-8")
