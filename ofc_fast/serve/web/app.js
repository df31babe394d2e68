// ofc-fast web app: plain JavaScript, no build step, nothing fetched but this server's
// own API (/v1). Every text from the server goes in with textContent, never as HTML.
"use strict";

const RANKS = "23456789TJQKA";
const SUITS = "cdhs";
const SYMBOL = { c: "\u2663", d: "\u2666", h: "\u2665", s: "\u2660" };
const SPOKEN_RANK = { T: "10", J: "jack", Q: "queen", K: "king", A: "ace" };
const SPOKEN_SUIT = { c: "clubs", d: "diamonds", h: "hearts", s: "spades" };
const ROWS = ["front", "middle", "back"];
const SIZES = { front: 3, middle: 5, back: 5 };

const $ = (id) => document.getElementById(id);

function el(tag, attrs, ...children) {
  const node = document.createElement(tag);
  for (const [k, v] of Object.entries(attrs || {})) {
    if (k === "class") node.className = v;
    else if (k === "text") node.textContent = v;
    else if (k.startsWith("on")) node.addEventListener(k.slice(2), v);
    else node.setAttribute(k, v);
  }
  for (const c of children) if (c != null) node.append(c);
  return node;
}

function cardText(c) {
  return typeof c === "number" ? RANKS[c >> 2] + SUITS[c & 3] : String(c);
}

function cardsOf(text) {
  return String(text || "").split(/[\s,]+/).filter((x) => x && x !== "-");
}

// A card as a screen reader says it: "As" is "ace of spades".
function cardName(card) {
  const t = cardText(card);
  const rank = t.slice(0, -1);
  const suit = t.slice(-1).toLowerCase();
  return (SPOKEN_RANK[rank] || rank) + " of " + (SPOKEN_SUIT[suit] || suit);
}

// A card face: a <span> (an image to a screen reader), or a <button> when clickable;
// its label is the card's spoken name unless attrs give one.
function cardEl(card, attrs, tag) {
  const t = cardText(card);
  const suit = t.slice(-1).toLowerCase();
  const own = { class: "card suit-" + suit, "data-card": t, "aria-label": cardName(t) };
  if (!tag) own.role = "img";
  const node = el(tag || "span", Object.assign(own, attrs || {}));
  node.append(el("span", { class: "rank", text: t.slice(0, -1) }), el("span", { class: "pip", text: SYMBOL[suit] || suit }));
  return node;
}

function rowEl(cards, size, extra) {
  const row = el("div", Object.assign({ class: "row" }, extra || {}));
  for (const c of cards) row.append(cardEl(c));
  for (let i = cards.length; i < size; i++) row.append(el("span", { class: "card empty", "aria-hidden": "true" }));
  return row;
}

// ------------------------------------------------------------------ the API

let apiKey = sessionStorage.getItem("ofc-api-key") || "";

// How long the page waits for an answer, in seconds: a search stops at the server's
// max_time_budget (GET /v1/health; 2 until it answers, --max-time-budget's default), a
// request may queue behind a few others, and ANSWER_SLACK covers the rest (the
// network, a replay). No answer by then is said so, and every button works again.
const ANSWER_SLACK = 5;
let maxTimeBudget = 2;

function answerSeconds() {
  return ANSWER_SLACK + 3 * maxTimeBudget;
}

// A request that got no answer: the server may still have done it (a move played).
function unanswered(text) {
  const err = new Error(text);
  err.unanswered = true;
  return err;
}

// path: the API's, from the server's root (/v1/games); the request goes relative to the
// page (v1/games), so that behind a reverse proxy serving the page under a path
// (/ofc/) it goes through the proxy too, as the page's own files do.
async function api(method, path, body, extra) {
  const url = path.replace(/^\//, "");
  for (let attempt = 0; attempt < 2; attempt++) {
    const headers = { "Content-Type": "application/json", ...extra };
    if (apiKey) headers.Authorization = "Bearer " + apiKey;
    const controller = new AbortController();
    let request;
    try {
      request = new Request(url, { method, headers, signal: controller.signal, body: body === undefined ? undefined : JSON.stringify(body) });
    } catch (err) { // only the key can make it unsendable (a character beyond Latin-1)
      apiKey = "";
      sessionStorage.removeItem("ofc-api-key"); // the next request asks for it again
      throw new Error("the API key holds a character a browser cannot send: enter it again");
    }
    const answer = (async () => {
      let res;
      try {
        res = await fetch(request);
      } catch (err) { // no answer at all: each browser words it its own way ("Load failed")
        throw unanswered("the server cannot be reached: is ofc-fast serve running? (" + err.message + ")");
      }
      return [res, await res.json().catch(() => null)];
    })();
    const seconds = answerSeconds();
    let timer;
    const late = new Promise((_, reject) => {
      timer = setTimeout(() => {
        reject(unanswered("the server did not answer within " + Math.round(seconds * 10) / 10 + " s: try again"));
        controller.abort(); // the request goes: its late answer is never read
      }, seconds * 1000);
    });
    let res, data;
    try {
      [res, data] = await Promise.race([answer, late]);
    } finally {
      clearTimeout(timer);
    }
    if (res.status === 401 && attempt === 0) {
      apiKey = (window.prompt("This server needs an API key:") || "").trim();
      sessionStorage.setItem("ofc-api-key", apiKey);
      continue;
    }
    // an answer that is no JSON object (a proxy's or a gateway's page, a 502 with no
    // words where HTTP/2 has no status text) is said by its status, never as nothing or
    // as the browser's TypeError of a field it lacks
    const problem = data !== null && typeof data === "object" && !Array.isArray(data);
    const http = "HTTP " + res.status + (res.statusText ? " " + res.statusText : "");
    if (!res.ok) {
      const said = problem && (data.detail || data.title) ? String(data.detail || data.title) : "";
      // the field named after the words, unless they begin with it ("dealt: give ...")
      const named = !problem || !data.field || said.startsWith(data.field + ":") || said.startsWith(data.field + ",");
      const field = named ? "" : " (" + data.field + ")";
      const err = new Error(said ? said + field : "the server answered " + http);
      err.status = res.status; // the caller may tell a refusal from a game gone (404)
      throw err;
    }
    if (!problem) { // not the server's answer: what the server did is not known
      const type = res.headers.get("Content-Type") || "no Content-Type";
      throw unanswered("the server's answer is not JSON (" + http + ", " + type.split(";")[0] + ")");
    }
    return data;
  }
  throw new Error("unauthorized");
}

// What a screen reader says of an answer drawn in a panel (a replay's step, an
// analysis, the advice): the panel is drawn anew, and only a live region already on the page is
// heard when it changes.
function say(text) {
  $("said").textContent = text;
}

// A refusal shown in a panel: a screen reader says it at once (the Play page's go to
// its status line, which it reads too).
function errorEl(prefix, err) {
  return el("p", { class: "error", role: "alert", text: prefix + err.message });
}

// The server's health (no key needed), read as the page loads: its max_time_budget
// caps the seconds of search the page asks for (more is refused, 422), whatever
// --max-time-budget is.
let health = null;

async function timeBudget(want) {
  const h = await health;
  return h ? Math.min(want, h.max_time_budget) : want;
}

// The Analyse page's seconds of search as the server allows them: those beyond its
// max_time_budget, which the page would not ask for (timeBudget), are not offered,
// and its most is in their place, chosen where more was.
function capSearch(most) {
  const sel = $("a-time");
  const over = Number(sel.value) > most;
  const after = Array.from(sel.options).find((o) => Number(o.value) > most);
  if (after && !Array.from(sel.options).some((o) => Number(o.value) === most)) {
    sel.insertBefore(el("option", { value: String(most), text: most + " (the server's most)" }), after);
  }
  for (const o of sel.options) o.disabled = Number(o.value) > most;
  if (over) sel.value = String(most);
}

// ------------------------------------------------------------------ pages

function showPage(name) {
  for (const b of document.querySelectorAll(".tab")) {
    if (b.dataset.page === name) b.setAttribute("aria-current", "page");
    else b.removeAttribute("aria-current");
  }
  for (const p of ["play", "analyse", "replay"]) $("page-" + p).hidden = p !== name;
}

// The page the address names: its #page, else (none, or another) Play.
function addressPage() {
  const hash = location.hash.replace("#", "");
  return ["play", "analyse", "replay"].includes(hash) ? hash : "play";
}

// ------------------------------------------------------------------ play

const play = {
  state: null, // the last GameState
  placed: {}, // card text -> row name, for this street
  selected: null, // card text
  busy: false,
  waiting: null, // the timer that says an answer is slow to come
  stale: false, // a change got no answer and the game could not be read since
};

function setStatus(text) {
  $("status").textContent = text;
}

function myRows() {
  const obs = play.state.observation;
  return obs.boards[obs.seat].map((r) => r.map(cardText));
}

function handCards() {
  return play.state.observation.dealt.map(cardText).filter((c) => !(c in play.placed));
}

function toPlace() {
  const obs = play.state.observation;
  return obs.dealt.length - obs.to_discard;
}

function roomIn(row) {
  const i = ROWS.indexOf(row);
  const taken = myRows()[i].length + Object.values(play.placed).filter((r) => r === row).length;
  return SIZES[row] - taken;
}

// A new Idempotency-Key: 32 hex digits (crypto.randomUUID needs a secure context,
// which a server on a LAN address over http is not).
function newKey() {
  const bytes = crypto.getRandomValues(new Uint8Array(16));
  return Array.from(bytes, (b) => b.toString(16).padStart(2, "0")).join("");
}

// The "new game" request that got no answer yet: its body and its Idempotency-Key.
// New game sends one key per game; sent again with the same setup after a lost
// answer, it reuses the key, so the server answers with the game it may have made
// instead of making another.
let newGameAsked = null;

async function newGame() {
  const body = {
    rules: $("rules").value,
    players: Number($("players").value),
    bots: [$("bots").value],
  };
  const fl = Number($("fantasyland").value);
  if (fl) body.fantasyland = Array.from({ length: body.players }, (_, s) => (s === 0 ? fl : 0));
  const text = JSON.stringify(body);
  if (!newGameAsked || newGameAsked.body !== text) newGameAsked = { body: text, key: newKey() };
  const key = newGameAsked.key;
  await run(async () => {
    play.state = await api("POST", "/v1/games", body, { "Idempotency-Key": key });
    newGameAsked = null; // answered: the next click asks for another game
    play.stale = false;
    play.placed = {};
    play.selected = null;
    render();
  });
}

// Runs one action of the Play page. ``changes``: it changes the game on the server (a
// move, the next deal); where such a request got no answer, a 409 (the page's state is
// behind the server's) or a server error, the server may hold another state than the
// page's, so the page reads the game again and shows the server's; and while it could
// not, the next such action only reads it.
const WAIT_SAID_MS = 400;
const BUSY_SAID =
  "Waiting for the server\u2026 the page does nothing else till it answers: click again then.";

async function run(fn, changes) {
  if (play.busy) {
    // a click while an answer is awaited (New game, Next deal) is not queued: the
    // status says it did nothing, as a click that cannot act now does
    clearTimeout(play.waiting);
    setStatus(BUSY_SAID);
    return;
  }
  play.busy = true;
  document.body.classList.add("busy");
  // an answer slow to come (the bots' moves, a busy server) is said so: the status
  // line no longer says to play on as if the click had done nothing (each way out
  // below says what came)
  play.waiting = setTimeout(() => setStatus("Waiting for the server\u2026"), WAIT_SAID_MS);
  try {
    if (changes && play.stale) {
      await reread();
      setStatus("The game is shown as the server holds it. " + $("status").textContent);
    } else {
      await fn();
    }
  } catch (err) {
    if (err.status === 404 && play.state) dropGame();
    else if (changes && play.state && !play.stale && outOfStep(err)) await resync(err);
    else setStatus("Error: " + err.message);
  } finally {
    clearTimeout(play.waiting);
    play.busy = false;
    document.body.classList.remove("busy");
    updateConfirm();
    // the control a keyboard player used went (Confirm disabled till the next street's
    // cards are placed, Next deal removed): the focus goes where play goes on, not to
    // the page's top
    const a = document.activeElement;
    if (!a || a === document.body || a.disabled || a.closest("[hidden]")) focusPlay();
  }
}

// Whether a refused or unanswered change may leave the server's game other than the
// page's: no answer, a 409, or a 5xx but 503 (busy, nothing done).
function outOfStep(err) {
  return err.unanswered || err.status === 409 || (err.status >= 500 && err.status !== 503);
}

// The game as the server holds it, shown: the street's placements dropped.
async function reread() {
  play.state = await api("GET", "/v1/games/" + play.state.id);
  play.stale = false;
  play.placed = {};
  play.selected = null;
  render();
}

async function resync(err) {
  play.stale = true;
  try {
    await reread();
    setStatus("Error: " + err.message + " \u2014 the game is shown as the server holds it. " + $("status").textContent);
  } catch (again) {
    if (again.status === 404) dropGame();
    else setStatus("Error: " + err.message + " \u2014 the game could not be read again (" + again.message + "): the next Confirm or Next deal reads it first.");
  }
}

function focusPlay() {
  const st = play.state;
  const next = st && (st.your_turn ? $("hand").firstElementChild : $("next-deal"));
  if (next) next.focus();
}

// The server no longer holds the game (idle too long, or dropped for newer ones): its
// board goes, every retry would be refused, and the player is told to start anew.
function dropGame() {
  sessionStorage.removeItem(GAME_KEY);
  adviceToken++; // an analysis still coming is of the game gone
  play.state = null;
  play.stale = false;
  play.placed = {};
  play.selected = null;
  $("table").hidden = true;
  $("opponents").replaceChildren();
  $("match-score").textContent = "";
  $("result").hidden = true;
  $("advice").hidden = true;
  setStatus("This game is no longer on the server (idle too long, or dropped for newer games): start a new game.");
}

// The tab's game, kept by render: the page is sent no-store, so a browser keeps no
// copy of it, and after another page and Back, or a reload, it comes anew. Its next
// load reads the game from the server and shows it (the street's placements dropped);
// a game the server no longer holds is said gone.
const GAME_KEY = "ofc-game";

async function resume(id) {
  await run(async () => {
    try {
      play.state = await api("GET", "/v1/games/" + encodeURIComponent(id));
    } catch (err) {
      if (err.status !== 404) throw err;
      dropGame();
      return;
    }
    play.placed = {};
    play.selected = null;
    render();
  });
}

function selectCard(card) {
  play.selected = play.selected === card ? null : card;
  renderHand();
}

function placeIn(row) {
  if (!play.state || !play.state.your_turn) return;
  if (!play.selected) {
    setStatus("Pick a card from your hand first.");
    return;
  }
  if (roomIn(row) <= 0) {
    setStatus("The " + row + " row is full.");
    return;
  }
  if (Object.keys(play.placed).length >= toPlace()) {
    setStatus("You have placed every card of this street: confirm, or take one back.");
    return;
  }
  play.placed[play.selected] = row;
  play.selected = null;
  renderMine();
  renderHand();
}

function takeBack(card) {
  delete play.placed[card];
  play.selected = card;
  renderMine();
  renderHand();
  // its button in the row went with the redraw: the focus goes to the card, back in
  // the hand and picked (a digit puts it in another row), not to the page's top
  const back = Array.from($("hand").children).find((b) => b.dataset.card === card);
  if (back) back.focus();
}

function resetStreet() {
  play.placed = {};
  play.selected = null;
  renderMine();
  renderHand();
}

async function confirmStreet() {
  const st = play.state;
  if (!st || !st.your_turn || Object.keys(play.placed).length !== toPlace()) return;
  const move = {
    place: Object.entries(play.placed).map(([c, r]) => [c, r]),
    discard: handCards(),
  };
  await run(async () => {
    // the version shown: a game changed since (another tab) is a 409, and read again
    play.state = await api("POST", "/v1/games/" + st.id + "/moves", { move, version: st.version });
    play.placed = {};
    play.selected = null;
    render();
  }, true);
}

async function nextDeal() {
  await run(async () => {
    play.state = await api("POST", "/v1/games/" + play.state.id + "/next");
    play.placed = {};
    play.selected = null;
    render();
  }, true);
}

function updateConfirm() {
  const st = play.state;
  const ready = !!st && st.your_turn && !play.busy && Object.keys(play.placed).length === toPlace();
  $("confirm").disabled = !ready;
  if (ready && st.observation.to_discard > 0) {
    $("confirm").textContent = "Confirm (discard " + handCards().join(" ") + ")";
  } else {
    $("confirm").textContent = "Confirm";
  }
}

function seatName(st, seat) {
  return seat === st.you ? "You" : "Seat " + seat + " (" + st.seats[seat] + ")";
}

function renderOpponents() {
  const st = play.state;
  const box = $("opponents");
  box.replaceChildren();
  const obs = st.observation;
  for (let s = 0; s < st.players; s++) {
    if (s === st.you) continue;
    const down = obs.face_down_counts[s].reduce((a, b) => a + b, 0);
    const fl = obs.fantasyland[s] ? " \u2014 Fantasyland" : "";
    const b = el("div", { class: "board other", "data-testid": "opponent-board" },
      el("h3", { text: seatName(st, s) + fl + (down ? " (" + down + " face down)" : "") }));
    obs.boards[s].forEach((r, i) => b.append(rowEl(r, SIZES[ROWS[i]])));
    box.append(b);
  }
}

function renderMine() {
  const rows = myRows();
  ROWS.forEach((name, i) => {
    const row = document.querySelector('#my-board [data-row="' + name + '"]');
    row.replaceChildren();
    const held = rows[i].concat(Object.keys(play.placed).filter((c) => play.placed[c] === name));
    for (const c of rows[i]) row.append(cardEl(c));
    for (const [c, r] of Object.entries(play.placed)) {
      if (r === name) {
        row.append(cardEl(c, { class: "card pending suit-" + c.slice(-1), title: "take back " + c, "aria-label": "take back " + cardName(c), "data-testid": "placed-card", onclick: (e) => {
          if (play.selected) return; // a card is picked: the click places it in this row
          e.stopPropagation();
          takeBack(c);
        } }, "button"));
      }
    }
    const free = roomIn(name);
    for (let k = 0; k < free; k++) row.append(el("span", { class: "card empty", "aria-hidden": "true" }));
    // a row is a button to a screen reader, whose name is all it says of it: the cards too
    const holds = held.length ? held.map(cardName).join(", ") : "empty";
    row.setAttribute("aria-label", name + " row: " + holds + (free ? ", " + free + " free" : ", full"));
  });
  updateConfirm();
}

function renderHand() {
  const hand = $("hand");
  const active = document.activeElement;
  const focused = hand.contains(active) ? active.dataset.card : null;
  hand.replaceChildren();
  const st = play.state;
  if (st.your_turn) {
    for (const c of handCards()) {
      const b = cardEl(c, { "data-testid": "hand-card", "aria-pressed": String(play.selected === c), onclick: () => selectCard(c) }, "button");
      if (play.selected === c) b.classList.add("selected");
      hand.append(b);
    }
  }
  updateConfirm();
  // the redraw keeps a keyboard user in the hand: the same card, else the first left,
  // else (every card placed) Confirm
  if (focused) {
    const again = Array.from(hand.children).find((b) => b.dataset.card === focused) || hand.firstElementChild || $("confirm");
    if (!again.disabled) again.focus();
  }
}

function renderScore() {
  const st = play.state;
  const m = st.match;
  const parts = m.totals.map((t, s) => seatName(st, s) + " " + (t > 0 ? "+" : "") + t);
  $("match-score").textContent = "Match after " + m.hands + " deal" + (m.hands === 1 ? "" : "s") + ": " + parts.join(" \u00b7 ");
}

function renderResult() {
  const st = play.state;
  const box = $("result");
  if (!st.is_over) {
    box.hidden = true;
    box.replaceChildren();
    return;
  }
  const r = st.result;
  box.replaceChildren(el("h2", { text: "Showdown" }));
  const table = el("div", { class: "showdown" });
  for (let s = 0; s < st.players; s++) {
    const net = r.net[s];
    const card = el("div", { class: "seat-result" + (r.fouls[s] ? " fouled" : ""), "data-testid": "seat-result" },
      el("h3", { text: seatName(st, s) + ": " + (net > 0 ? "+" : "") + net + " points" }));
    r.boards[s].forEach((row, i) => {
      const roy = r.royalties[s][i];
      const line = el("div", { class: "result-row" }, rowEl(cardsOf(row), SIZES[ROWS[i]]),
        el("span", { class: "roy", text: roy ? "+" + roy : "" }));
      card.append(line);
    });
    const notes = [];
    if (r.fouls[s]) notes.push("FOUL");
    const total = r.royalties[s].reduce((a, b) => a + b, 0);
    if (total) notes.push("royalties " + total);
    if (r.fantasyland[s]) notes.push("Fantasyland next deal (" + r.fantasyland[s] + " cards)");
    card.append(el("p", { class: "notes", text: notes.join(" \u00b7 ") || "no royalties" }));
    table.append(card);
  }
  box.append(table);
  const pairs = el("ul", { class: "pairs" });
  for (const p of r.pairs) {
    const [a, b] = p.seats;
    const rows = p.rows.map((x, i) => ROWS[i] + " " + (x > 0 ? seatName(st, a) : x < 0 ? seatName(st, b) : "tie")).join(", ");
    pairs.append(el("li", { text: seatName(st, a) + " vs " + seatName(st, b) + ": " + rows + (p.sweep ? " (sweep)" : "") + " \u2192 " + (p.net > 0 ? "+" : "") + p.net + " to " + seatName(st, a) }));
  }
  box.append(pairs);
  const more = st.match.max_hands === null || st.match.hands < st.match.max_hands;
  if (more) box.append(el("button", { type: "button", class: "primary", id: "next-deal", "data-testid": "next-deal", text: "Next deal", onclick: nextDeal }));
  box.hidden = false;
}

function render() {
  const st = play.state;
  sessionStorage.setItem(GAME_KEY, st.id); // shown again on the tab's next load (resume)
  $("table").hidden = false;
  renderOpponents();
  renderMine();
  renderHand();
  renderScore();
  renderResult();
  const obs = st.observation;
  if (st.is_over) {
    const net = st.result.net[st.you];
    setStatus("Deal over: you " + (net >= 0 ? "won " : "lost ") + Math.abs(net) + " points.");
  } else if (st.your_turn) {
    const fl = obs.full_set ? "Fantasyland: set 13 of your " + obs.dealt.length + " cards. " : "";
    const disc = obs.to_discard ? " The card" + (obs.to_discard > 1 ? "s" : "") + " left in your hand " + (obs.to_discard > 1 ? "are" : "is") + " discarded." : "";
    setStatus(fl + "Your turn: place " + toPlace() + " card" + (toPlace() > 1 ? "s" : "") + "." + disc);
  }
  $("hint").hidden = !st.your_turn;
  document.querySelector("#table .actions").hidden = !st.your_turn;
  if ($("advice-toggle").checked) showAdvice();
  else $("advice").hidden = true;
}

let adviceToken = 0;

async function showAdvice() {
  const box = $("advice");
  const st = play.state;
  box.hidden = false;
  if (!st || !st.your_turn) {
    box.replaceChildren(el("p", { text: "Advice appears when it is your turn." }));
    return;
  }
  const token = ++adviceToken;
  box.replaceChildren(el("p", { class: "muted", text: "Analysing\u2026" }));
  const obs = st.observation;
  try {
    if (obs.full_set) {
      const fl = await api("POST", "/v1/fantasyland", { rules: st.rules, cards: obs.dealt.map(cardText) });
      if (token !== adviceToken) return;
      const best = "Best setting: " + fl.best.board + " \u2014 royalties " + fl.best.royalties + (fl.best.stays ? ", stays in Fantasyland" : "");
      box.replaceChildren(el("h2", { text: "Advice" }), el("p", { text: best }));
      say("Advice: " + best + ".");
      return;
    }
    const res = await api("POST", "/v1/analyze", { observation: obs, time_budget: await timeBudget(0.3), seed: 1 });
    if (token !== adviceToken) return;
    box.replaceChildren(el("h2", { text: "Advice" }), movesTable(res.moves.slice(0, 5), res.exact));
    say("Advice: " + bestSaid(res.moves));
  } catch (err) {
    if (token === adviceToken) box.replaceChildren(errorEl("No advice: ", err));
  }
}

// The best of analysed moves, as a screen reader hears it (say).
function bestSaid(moves) {
  const best = moves[0];
  return best.text + ", EV " + (best.ev >= 0 ? "+" : "") + best.ev.toFixed(2) + ".";
}

function pct(x) {
  return (100 * x).toFixed(x > 0 && x < 0.1 ? 1 : 0) + "%";
}

function movesTable(moves, exact) {
  const table = el("table", { class: "moves" });
  table.append(el("thead", {}, el("tr", {}, ...["#", "move", "EV", "foul", "FL", "roy."].map((h) => el("th", { text: h, scope: "col" })))));
  const body = el("tbody");
  moves.forEach((m, i) => {
    const ev = (m.ev >= 0 ? "+" : "") + m.ev.toFixed(2) + (m.exact ? "" : " \u00b1" + m.stderr.toFixed(2));
    body.append(el("tr", { "data-testid": "advice-move" }, el("td", { text: String(i + 1) }), el("td", { text: m.text }),
      el("td", { text: ev }), el("td", { text: pct(m.foul) }), el("td", { text: pct(m.fantasyland) }), el("td", { text: m.royalties.toFixed(1) })));
  });
  table.append(body);
  const wrap = el("div", { class: "scroll" }, table);
  wrap.append(el("p", { class: "muted", text: exact ? "Exact over every draw." : "Sampled: EV \u00b1 one standard error." }));
  return wrap;
}

// ------------------------------------------------------------------ analyse

let lastField = "a-dealt";
let analyseToken = 0; // the latest Analyse click: an earlier answer is stale

function buildPicker() {
  const box = $("picker");
  for (const s of ["s", "h", "d", "c"]) {
    const line = el("div", { class: "picker-suit" });
    for (let r = RANKS.length - 1; r >= 0; r--) {
      const t = RANKS[r] + s;
      line.append(cardEl(t, { "data-testid": "picker-card", class: "card mini suit-" + s, onclick: (e) => pick(t, e) }, "button"));
    }
    box.append(line);
  }
}

function pick(card, event) {
  const field = $(lastField);
  // the spaces at the end go, not a line break: a new opponent's line, begun with
  // Enter, takes the card (the opponents' boards are one a line)
  const v = field.value.replace(/[ \t]+$/, "");
  field.value = v && !v.endsWith("\n") ? v + " " + card : v + card;
  // a click goes back to the field, to type on; Enter or Space (a click of detail 0)
  // leaves a keyboard user on the picker, the next card a Tab or two away
  if (event.detail !== 0) field.focus();
}

async function analyse() {
  const token = ++analyseToken; // taken first: the body waits for the server's health
  const opponents = $("a-opponents").value.split("\n").map((x) => x.trim()).filter(Boolean);
  const body = {
    rules: $("a-rules").value,
    board: $("a-board").value.trim() || "/ /",
    dealt: $("a-dealt").value.trim(),
    opponents: opponents.length ? opponents : ["/ /"],
    dead: $("a-dead").value.trim(),
    time_budget: await timeBudget(Number($("a-time").value)),
    seed: 1,
  };
  if (token !== analyseToken) return; // Clear (or a later click) came while it waited
  const box = $("analysis");
  box.hidden = false;
  box.replaceChildren(el("p", { class: "muted", text: "Analysing\u2026" }));
  try {
    const res = await api("POST", "/v1/analyze", body);
    if (token !== analyseToken) return; // a later click's position is the one shown
    const title = res.moves.length === 1 ? "The one legal move" : res.moves.length + " legal moves, best first";
    box.replaceChildren(el("h2", { text: title }), movesTable(res.moves, res.exact));
    say(title + ": " + bestSaid(res.moves));
  } catch (err) {
    if (token === analyseToken) box.replaceChildren(errorEl("Error: ", err));
  }
}

// ------------------------------------------------------------------ replay

const replay = { deals: [], truncated: false, deal: 0, frame: 0, token: 0 };
// The server replays a file's first 200 deals (MAX_DEALS of ofc_fast/serve/_replay.py)
// and says whether the file holds more: the page sends those lines and one more, never
// a long file whole, which the server's body limit (1 MiB, some 400 deals) refuses.
const REPLAY_LINES = 201;

// The text up to its first line (with its line break) that take(line, at) refuses;
// at: where the line starts.
function linesWhile(text, take) {
  let end = 0;
  while (end < text.length) {
    const nl = text.indexOf("\n", end);
    const stop = nl < 0 ? text.length : nl + 1;
    if (!take(text.slice(end, stop), end)) break;
    end = stop;
  }
  return text.slice(0, end);
}

// The text up to its first n lines that are not blank.
function firstLines(text, n) {
  let count = 0;
  return linesWhile(text, (line) => {
    if (count >= n) return false;
    if (line.trim()) count++;
    return true;
  });
}

// The file's first n lines that are not blank, read a chunk at a time: a file of any
// size (a whole self-play run) costs the page only what it sends, where reading it whole
// gave an empty text beyond the browser's longest string. Past READ_CAP without n lines
// the text read so far goes, for the server to judge. The bytes are read as UTF-8, as the
// server and ofc-fast replay read a history: {text, bad}, bad where they first are not
// (badByte), else null; text has U+FFFD there.
const READ_CHUNK = 1 << 20;
const READ_CAP = 16 << 20;

async function fileHead(file, n) {
  // stream: a character cut by a chunk's end is kept; a byte-order mark is kept (the
  // server reads it as nothing), so that up to a bad byte the text is the bytes'
  const decoder = new TextDecoder("utf-8", { ignoreBOM: true });
  const strict = new TextDecoder("utf-8", { fatal: true, ignoreBOM: true });
  let text = "";
  let bad = null;
  let before = new Uint8Array(0); // the last bytes read: where a bad character may start
  let at = 0;
  for (; at < file.size && text.length < READ_CAP; at += READ_CHUNK) {
    const bytes = new Uint8Array(await file.slice(at, at + READ_CHUNK).arrayBuffer());
    if (!bad) {
      try {
        strict.decode(bytes, { stream: true });
      } catch {
        bad = badByte(text, at, before, bytes);
      }
    }
    text += decoder.decode(bytes, { stream: true });
    const last = bytes.length >= 3 ? bytes : Uint8Array.of(...before, ...bytes); // (a short last chunk)
    before = last.slice(-3); // a character begun there has 3 of its 4 bytes at most
    const head = firstLines(text, n);
    if (head.length < text.length) return { text: head, bad }; // n lines, and more beyond
  }
  if (!bad && at >= file.size) { // the whole file read: a character cut at its end?
    try {
      strict.decode();
    } catch {
      bad = badByte(text, file.size, before, new Uint8Array(0));
    }
  }
  return { text: firstLines(text + decoder.decode(), n), bad };
}

// Where the bytes stop being UTF-8 in a chunk ``bytes`` read at ``at``, the text of the
// bytes before it being ``text`` (all UTF-8), ``before`` the last bytes before: {at (in the
// text), start (of its line, in the text), line, offset (in the line's bytes), byte}, as
// ofc-fast replay names them. The first prefix a strict decoder refuses ends just past
// it; what it decodes of the rest is the text before the bad character.
function badByte(text, at, before, bytes) {
  const encoder = new TextEncoder();
  const pending = at - encoder.encode(text).length; // a character begun in ``before``
  const data = new Uint8Array(pending + bytes.length);
  data.set(before.subarray(before.length - pending));
  data.set(bytes, pending);
  const refused = (k) => {
    try {
      new TextDecoder("utf-8", { fatal: true, ignoreBOM: true }).decode(data.subarray(0, k), { stream: true });
      return false;
    } catch {
      return true;
    }
  };
  let lo = 0; // not refused
  let hi = data.length; // refused, unless the file ends inside a character
  while (hi - lo > 1) {
    const mid = (lo + hi) >> 1;
    if (refused(mid)) hi = mid;
    else lo = mid;
  }
  const valid = text + new TextDecoder("utf-8", { ignoreBOM: true }).decode(data.subarray(0, lo), { stream: true });
  const start = valid.lastIndexOf("\n") + 1;
  const offset = encoder.encode(valid.slice(start)).length;
  const line = valid.split("\n").length;
  const byte = data[encoder.encode(valid).length - (at - pending)];
  return { at: valid.length, start, line, offset, byte };
}

// The server reads a body of at most 1 MiB (docs/serve.md): REPLAY_LINES long lines
// (seats named by long commands, as an arena's may be) can be more.
const BODY_BYTES = 1 << 20;

// The first lines of text whose request body ({"text": ...}: JSON, in UTF-8) is at
// most BODY_BYTES; the first line whatever its size (the server's to refuse).
function withinBody(text) {
  const encoder = new TextEncoder();
  let size = JSON.stringify({ text: "" }).length;
  return linesWhile(text, (line, at) => {
    size += encoder.encode(JSON.stringify(line)).length - 2; // (its quotes)
    return size <= BODY_BYTES || at === 0;
  });
}

// Forget the deals shown: a file being read (or refused) replaces them.
function clearReplay() {
  say("");
  replay.deals = [];
  replay.truncated = false;
  replay.deal = 0;
  replay.frame = 0;
  $("replay-deal").replaceChildren();
  $("replay-prev").disabled = true;
  $("replay-next").disabled = true;
}

async function openReplay(file) {
  const box = $("replay-frame");
  const token = ++replay.token; // the file chosen last is the one shown
  clearReplay();
  box.hidden = false;
  box.replaceChildren(el("p", { class: "muted", text: "Reading " + file.name + "\u2026" }));
  try {
    const head = await fileHead(file, REPLAY_LINES);
    const text = withinBody(head.text);
    const bad = head.bad;
    if (bad && bad.at < text.length) { // a byte not UTF-8 in a line sent
      // the lines before it are read first, as ofc-fast replay reads them: a bad one
      // among them is the one said
      const lines = text.slice(0, bad.start);
      if (lines.trim()) await api("POST", "/v1/replay", { text: lines });
      const hex = "0x" + bad.byte.toString(16).padStart(2, "0");
      throw new Error("line " + bad.line + ": not UTF-8 (byte " + hex + " at offset " + bad.offset + ")");
    }
    const res = await api("POST", "/v1/replay", { text });
    if (token !== replay.token) return;
    replay.deals = res.deals;
    // the file holds more deals than the server returned, or than the page sent
    replay.truncated = res.truncated || head.text.slice(text.length).trim() !== "";
    const sel = $("replay-deal");
    sel.replaceChildren(...res.deals.map((d, i) => el("option", { value: String(i), text: "#" + (d.hand_no ?? i) + " (" + d.rules + ", " + d.players + " seats)" })));
    replay.deal = 0;
    replay.frame = 0;
    renderFrame();
  } catch (err) {
    if (token === replay.token) box.replaceChildren(errorEl("Error: ", err));
  }
}

function step(delta) {
  const d = replay.deals[replay.deal];
  if (!d) return;
  replay.frame = Math.max(0, Math.min(d.frames.length - 1, replay.frame + delta));
  renderFrame();
}

// A text of strings and seat names ({name}: a history file's, in any script) as
// {text, nodes}: each name a <bdi>, so that one written right to left (Hebrew, Arabic)
// never draws the text after it into its order ("name: -6" was shown "6- :name").
function withNames(...parts) {
  const text = parts.map((p) => (typeof p === "string" ? p : p.name)).join("");
  const nodes = parts.map((p) => (typeof p === "string" ? p : el("bdi", { text: p.name })));
  return { text, nodes };
}

function renderFrame() {
  const d = replay.deals[replay.deal];
  const f = d.frames[replay.frame];
  const box = $("replay-frame");
  const last = replay.frame === d.frames.length - 1;
  // "seat N (name) was dealt": a grammatical sentence whatever the name ("you": a
  // served game's history)
  const who = d.seats[f.seat] ? ["seat " + f.seat + " (", { name: d.seats[f.seat] }, ")"] : ["seat " + f.seat];
  const what = f.move === null ? ["The deal starts."] : [...who, " was dealt " + f.dealt + " and played " + f.move + "."];
  const said = withNames("Move " + replay.frame + " of " + (d.frames.length - 1) + ": ", ...what);
  box.replaceChildren(el("p", { "data-testid": "replay-step" }, ...said.nodes));
  say(said.text);
  const boards = el("div", { class: "replay-boards" });
  f.boards.forEach((b, s) => {
    // a seat in Fantasyland this deal (all its cards at once) is said so, as on Play
    const fl = d.fantasyland[s] ? " \u2014 Fantasyland" : "";
    const points = last ? ": " + (d.result.net[s] > 0 ? "+" : "") + d.result.net[s] + (d.result.fouls[s] ? " (foul)" : "") : "";
    const name = withNames({ name: d.seats[s] || "seat " + s }, fl + points);
    const node = el("div", { class: "board other" + (f.seat === s ? " acted" : "") }, el("h3", {}, ...name.nodes));
    b.forEach((row, i) => node.append(rowEl(cardsOf(row), SIZES[ROWS[i]])));
    boards.append(node);
  });
  box.append(boards);
  if (replay.truncated) {
    const note = "The file holds more deals: the first " + replay.deals.length + " deals are shown.";
    box.append(el("p", { class: "muted", "data-testid": "replay-truncated", text: note }));
  }
  const prev = $("replay-prev");
  const next = $("replay-next");
  const focused = document.activeElement;
  prev.disabled = replay.frame === 0;
  next.disabled = last;
  // the button a keyboard user stepped with, disabled at the first or last move, would
  // drop the focus to the page: it goes to the other one, which steps back
  if (focused === next && last) prev.focus();
  else if (focused === prev && prev.disabled) next.focus();
}

// ------------------------------------------------------------------ wiring

function init() {
  health = api("GET", "/v1/health").then((h) => {
    if (Number.isFinite(h.max_time_budget)) {
      maxTimeBudget = h.max_time_budget; // waits accordingly
      capSearch(h.max_time_budget);
    }
    return h;
  }).catch(() => null);
  // each page shown is an entry of the tab's history: Back goes to the page shown
  // before (the game, the analysis and the replay kept), not away from the app
  for (const b of document.querySelectorAll(".tab")) {
    b.addEventListener("click", () => {
      if (addressPage() !== b.dataset.page) history.pushState(null, "", "#" + b.dataset.page);
      showPage(b.dataset.page);
    });
  }
  $("new-game").addEventListener("click", newGame);
  $("confirm").addEventListener("click", confirmStreet);
  $("reset").addEventListener("click", resetStreet);
  // ticked with no game (none yet, or one the server dropped) the panel says when
  // advice comes, never shows itself empty or the moves of the game gone
  $("advice-toggle").addEventListener("change", () => {
    if ($("advice-toggle").checked) showAdvice();
    else $("advice").hidden = true;
  });
  for (const row of document.querySelectorAll("#my-board .row")) {
    row.addEventListener("click", () => placeIn(row.dataset.row));
    row.addEventListener("keydown", (e) => {
      if (e.target !== row) return; // a placed card's own button: Enter takes it back
      if (e.key === "Enter" || e.key === " ") {
        e.preventDefault();
        placeIn(row.dataset.row);
      }
    });
  }
  document.addEventListener("keydown", (e) => {
    // a key with Ctrl, Alt or Meta is the browser's (Ctrl+2: its second tab; Alt+Left:
    // Back); a key typed in a text field or a select is the field's; a checkbox or a
    // file input has no use for a digit or an arrow
    if (e.ctrlKey || e.altKey || e.metaKey) return;
    if (e.target.closest("textarea, select, input:not([type=checkbox]):not([type=file])")) return;
    if (!$("page-play").hidden && play.state) {
      const i = ["1", "2", "3"].indexOf(e.key);
      // none picked: a digit on a card of the hand places that card (the one in view)
      const held = e.target.closest("#hand [data-card]");
      if (i >= 0 && !play.selected && held) play.selected = held.dataset.card;
      if (i >= 0) placeIn(ROWS[i]);
    }
    if (!$("page-replay").hidden) {
      if (e.key === "ArrowLeft") step(-1);
      if (e.key === "ArrowRight") step(1);
    }
  });
  buildPicker();
  const kept = sessionStorage.getItem(GAME_KEY);
  if (kept) resume(kept);
  for (const id of ["a-board", "a-dealt", "a-opponents", "a-dead"]) $(id).addEventListener("focus", () => { lastField = id; });
  $("a-analyse").addEventListener("click", analyse);
  // Enter in a one-line field of the position analyses it, as a form would (the
  // opponents' box takes Enter for its next line)
  for (const id of ["a-board", "a-dealt", "a-dead"]) {
    $(id).addEventListener("keydown", (e) => {
      if (e.key !== "Enter" || e.isComposing) return;
      e.preventDefault();
      analyse();
    });
  }
  $("a-clear").addEventListener("click", () => {
    analyseToken++; // an answer still coming is of the position cleared: never said
    for (const id of ["a-board", "a-dealt", "a-opponents", "a-dead"]) $(id).value = "";
    $("analysis").hidden = true;
  });
  $("replay-file").addEventListener("change", (e) => {
    const file = e.target.files[0];
    e.target.value = ""; // choosing the same file again (fixed on disk) reads it again
    if (file) openReplay(file);
  });
  $("replay-deal").addEventListener("change", (e) => {
    replay.deal = Number(e.target.value);
    replay.frame = 0;
    renderFrame();
  });
  $("replay-prev").addEventListener("click", () => step(-1));
  $("replay-next").addEventListener("click", () => step(1));
  // the address's page, as loaded or gone back to
  const fromHash = () => showPage(addressPage());
  window.addEventListener("hashchange", fromHash);
  window.addEventListener("popstate", fromHash);
  fromHash();
}

init();
