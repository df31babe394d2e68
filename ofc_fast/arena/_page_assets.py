"""The style sheet and the script of the HTML report (ofc_fast/arena/html.py).

The script builds every element with ``textContent`` (never HTML from data), reads the
deals from the page's JSON island, and on request from the deals file written next to
the page (indexed by line offsets, one line read per deal shown).
"""

from __future__ import annotations

import base64
import hashlib

__all__ = ["CSS", "JS", "SCRIPT_HASH"]

CSS = """
*{box-sizing:border-box}
body{font-family:system-ui,sans-serif;margin:0 auto;padding:1em;max-width:1100px;
color:#222;line-height:1.35}
h1{font-size:1.4em;margin:.2em 0}h2{font-size:1.15em;margin:1.2em 0 .4em}
.sub{color:#555;margin:.2em 0}
table{border-collapse:collapse}td,th{padding:.25em .55em;border-bottom:1px solid #ddd;
text-align:right;white-space:nowrap}td:first-child,th:first-child{text-align:left}
th{font-weight:600;font-size:.9em}
h1,h2,h3,p,li,figcaption{overflow-wrap:anywhere}
.wide{overflow-x:auto;max-width:100%}
#standings td:first-child{white-space:normal;overflow-wrap:anywhere;min-width:8em}
figure{margin:0;max-width:640px}#chart{width:100%;height:auto;display:block}
#chart text{font-size:13px;fill:#333}
.legend{list-style:none;padding:0;margin:.3em 0;display:flex;flex-wrap:wrap;gap:.3em 1.2em}
.swatch{display:inline-block;width:1.4em;height:.35em;vertical-align:middle;
margin-right:.4em;border-radius:2px}
figcaption{color:#555;font-size:.85em}
.pager,.stepper{display:flex;flex-wrap:wrap;align-items:center;gap:.3em .5em;
margin:.4em 0}
.pager input{width:7em}
.deal{border:1px solid #ccc;border-radius:6px;padding:.5em .7em;margin:.6em 0}
.deal h3{margin:.1em 0 .3em;font-size:1em}
.seats{display:grid;grid-template-columns:repeat(auto-fill,minmax(min(19.5em,100%),19.5em));
gap:.3em 2em}
.seat{display:grid;grid-row:span 4;grid-template-rows:subgrid;
grid-template-columns:4.2em calc(5 * (2.05em + 4px)) 2.4em;align-items:center;gap:2px .4em}
.who{grid-column:1/-1;min-width:0;overflow-wrap:anywhere;align-self:end;margin:.3em 0 .1em;
display:flex;flex-wrap:wrap;gap:.2em .5em;align-items:baseline}
.cards{white-space:nowrap}
.rl{color:#555;font-size:.85em}
.roy{text-align:right;color:#777;font-size:.9em}.roy.won{color:#176;font-weight:600}
.card,.slot{display:inline-block;width:2.05em;text-align:center;border:1px solid #888;
border-radius:3px;margin:1px;background:#fff;font-weight:600}
.slot{border:1px dashed #ccc;background:#fafafa}
.red{color:#c00}
.badge{font-size:.8em;padding:0 .35em;border-radius:3px;background:#eee}
.badge.fl{background:#e6f0ff;color:#124}.badge.next{background:#e8f6ea;color:#154}
.badge.foul{background:#fde7e7;color:#a00}.pts{font-weight:600}
.step{font-family:monospace;font-size:.9em}
@media (max-width:760px){
#chart text{font-size:17px}
#standings,#standings tbody{display:block;width:100%}
#standings tr:first-child{display:none}
#standings tr{display:block;border:1px solid #ddd;border-radius:6px;margin:.4em 0;
padding:.2em .4em}
#standings td{display:flex;justify-content:space-between;border:0;padding:.1em .2em;
text-align:right}
#standings td::before{content:attr(data-label);color:#555;margin-right:1em;flex:none}
#standings td:first-child{font-weight:600}
}
@media (max-width:360px){
body{padding:.5em}.deal{padding:.4em}
.seat{grid-template-columns:3.3em calc(5 * (2.05em + 4px)) 2em;gap:2px .3em}
}
"""

JS = r"""
(function(){
  'use strict';
  const DATA = JSON.parse(document.getElementById('report-data').textContent);
  const META = DATA.meta;
  const SUIT = {c:'\u2663', d:'\u2666', h:'\u2665', s:'\u2660'};
  const ROWS = ['top', 'middle', 'bottom'];
  const SLOTS = [3, 5, 5];
  const PAGE = META.page;
  const embedded = new Map(DATA.deals.map(d => [d.i, d]));
  let positions = DATA.deals.map(d => d.i);
  let fromFile = null;
  let start = 0;
  let generation = 0;
  const $ = id => document.getElementById(id);

  function el(tag, cls, text){
    const e = document.createElement(tag);
    if (cls) e.className = cls;
    if (text !== undefined) e.textContent = text;
    return e;
  }
  function signed(x){ return (x > 0 ? '+' : '') + x; }
  function card(t){
    const red = t[1] === 'd' || t[1] === 'h';
    return el('span', 'card' + (red ? ' red' : ''), t[0] + (SUIT[t[1]] || t.slice(1)));
  }
  function swing(deal){ return Math.max(...deal.p.map(Math.abs)); }
  function boards(deal, k){
    const b = deal.s.map(() => [[], [], []]);
    for (let i = 0; i < k; i++) {
      const m = deal.m[i];
      const place = String(m[1]);
      for (let j = 0; j + 2 < place.length; j += 3) {
        const rows = b[m[0]];
        const row = rows && rows[Number(place[j + 2])];
        if (row) row.push(place.slice(j, j + 2));
      }
    }
    return b;
  }
  function render(sec, deal, k){
    const done = k === deal.m.length;
    const b = boards(deal, k);
    const box = sec.querySelector('.seats');
    box.textContent = '';
    deal.s.forEach((name, s) => {
      const seat = el('div', 'seat');
      const who = el('div', 'who');
      who.appendChild(el('b', '', 'seat ' + s + ' \u00b7 ' + name));
      const badge = (cls, text) => who.appendChild(el('span', 'badge ' + cls, text));
      if (deal.fl[s]) badge('fl', 'Fantasyland (' + deal.fl[s] + ' cards)');
      if (done) {
        who.appendChild(el('span', 'pts', signed(deal.p[s])));
        if (deal.f[s]) badge('foul', 'FOUL');
        if (deal.nf[s]) badge('next', '\u2192 Fantasyland next (' + deal.nf[s] + ')');
      }
      seat.appendChild(who);
      const grid = seat;
      ROWS.forEach((label, r) => {
        grid.appendChild(el('span', 'rl', label));
        const cards = el('span', 'cards');
        b[s][r].forEach(c => cards.appendChild(card(c)));
        for (let j = b[s][r].length; j < SLOTS[r]; j++) {
          cards.appendChild(el('span', 'slot', '\u00a0'));
        }
        grid.appendChild(cards);
        const roy = done ? deal.r[s][r] : null;
        const text = roy === null ? '' : roy ? '+' + roy : '0';
        const cell = el('span', 'roy' + (roy ? ' won' : ''), text);
        cell.title = 'royalty, ' + label;
        grid.appendChild(cell);
      });
      box.appendChild(seat);
    });
    const m = k > 0 ? deal.m[k - 1] : null;
    let what = '';
    if (m) {
      const dis = m[2] ? ', discarded ' + (String(m[2]).match(/../g) || []).join(' ') : '';
      what = ' (seat ' + m[0] + dis + (m[3] ? ', ' + m[3] : '') + ')';
    }
    sec.querySelector('.step').textContent = 'decision ' + k + '/' + deal.m.length + what;
  }
  function fail(sec, what, e){
    sec.querySelector('.seats').textContent = 'This deal cannot be ' + what + ': ' + e.message;
  }
  function section(pos){
    const sec = el('section', 'deal');
    sec.id = 'deal-' + pos;
    sec.dataset.index = String(pos);
    sec.appendChild(el('h3', '', 'Deal ' + (pos + 1)));
    const nav = el('div', 'stepper');
    [['first', '\u00ab'], ['prev', '\u2039 prev'], ['next', 'next \u203a'], ['last', '\u00bb']]
      .forEach(([cls, text]) => {
        const b = nav.appendChild(el('button', cls, text));
        // (a glyph is all a screen reader would say)
        b.setAttribute('aria-label', (cls === 'prev' ? 'previous' : cls) + ' decision');
      });
    nav.appendChild(el('span', 'step', ''));
    sec.appendChild(nav);
    sec.appendChild(el('div', 'seats'));
    return sec;
  }
  function attach(sec, deal){
    sec.querySelector('h3').textContent = 'Deal ' + (deal.i + 1) + ' \u00b7 hand ' + deal.h;
    let k = deal.m.length;
    const go = d => {
      k = Math.max(0, Math.min(deal.m.length, k + d));
      try { render(sec, deal, k); } catch (e) { fail(sec, 'drawn', e); }
    };
    sec.querySelector('.first').addEventListener('click', () => go(-1e9));
    sec.querySelector('.prev').addEventListener('click', () => go(-1));
    sec.querySelector('.next').addEventListener('click', () => go(1));
    sec.querySelector('.last').addEventListener('click', () => go(1e9));
    go(0);
  }
  async function readDeal(pos){
    const o = fromFile.offsets;
    return JSON.parse(await fromFile.file.slice(o[pos + 1], o[pos + 2]).text());
  }
  function show(){
    const gen = ++generation;
    const list = $('deal-list');
    list.textContent = '';
    const slice = positions.slice(start, start + PAGE);
    const held = fromFile || positions.length === META.deals ? '' :
      ' (' + positions.length + ' in this page)';
    $('page-info').textContent = !slice.length ? 'no deals' :
      'deals ' + (slice[0] + 1) + '\u2013' + (slice[slice.length - 1] + 1) + ' of ' +
      META.deals + held;
    $('page-prev').disabled = start === 0;
    $('page-next').disabled = start + PAGE >= positions.length;
    slice.forEach(pos => {
      const sec = section(pos);
      list.appendChild(sec);
      const deal = embedded.get(pos);
      if (deal) { attach(sec, deal); return; }
      readDeal(pos).then(d => { if (gen === generation) attach(sec, d); })
        .catch(e => fail(sec, 'read', e));
    });
  }
  function goTo(pos){
    let i = positions.findIndex(p => p >= pos);
    if (i < 0) i = Math.max(0, positions.length - 1);
    start = i;
    show();
    const sec = $('deal-' + positions[i]);
    if (sec) sec.scrollIntoView();
  }
  async function indexLines(file){
    const offsets = [0];
    const reader = file.stream().getReader();
    let at = 0;
    for (;;) {
      const {done, value} = await reader.read();
      if (done) break;
      for (let j = 0; j < value.length; j++) if (value[j] === 10) offsets.push(at + j + 1);
      at += value.length;
    }
    if (offsets[offsets.length - 1] !== at) offsets.push(at);
    return offsets;
  }
  async function load(file){
    const status = $('deals-status');
    status.textContent = 'reading ' + file.name + '\u2026';
    try {
      const offsets = await indexLines(file);
      const head = JSON.parse(await file.slice(offsets[0], offsets[1]).text());
      if (!head || head.format !== 'ofc-fast/report-deals' || head.sha256 !== META.sha256 ||
          head.deals !== META.deals || offsets.length - 2 !== META.deals)
        throw new Error('it is not the deals file of this report (' + META.file + ')');
      const shown = positions[start] || 0; // the deal first on screen, shown first again
      fromFile = {file: file, offsets: offsets};
      positions = Array.from({length: META.deals}, (_, i) => i);
      status.textContent = 'all ' + META.deals + ' deals can be shown';
      goTo(shown);
    } catch (e) {
      status.textContent = 'cannot use ' + file.name + ': ' + e.message;
    }
  }
  const swings = $('swings');
  DATA.swings.forEach(pos => {
    const deal = embedded.get(pos);
    if (!deal) return;
    const b = el('button', 'swing', 'deal ' + (pos + 1) + ' (\u00b1' + swing(deal) + ')');
    b.addEventListener('click', () => goTo(pos));
    swings.appendChild(b);
    swings.appendChild(document.createTextNode(' '));
  });
  const page = d => {
    start = Math.max(0, Math.min(start + d, positions.length - 1));
    show();
  };
  $('page-prev').addEventListener('click', () => page(-PAGE));
  $('page-next').addEventListener('click', () => page(PAGE));
  $('goto-form').addEventListener('submit', ev => {
    ev.preventDefault();
    const n = Number($('goto').value);
    if (Number.isInteger(n) && n >= 1) goTo(n - 1);
  });
  const input = $('deals-file');
  if (input) input.addEventListener('change', () => { if (input.files[0]) load(input.files[0]); });
  show();
})();
"""

SCRIPT_HASH = base64.b64encode(hashlib.sha256(JS.encode("utf-8")).digest()).decode("ascii")
"""The script's SHA-256 for the page's Content-Security-Policy (no other script runs)."""
