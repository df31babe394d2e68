"""The web app of ``ofc-fast serve`` in a real headless browser (Debian's chromium and
chromedriver, driven by selenium as tests/test_arena_html.py does; .ci/run installs
them and sets OFC_REQUIRE_BROWSER=1 so that a missing browser fails): whole deals
played by clicks (Pineapple heads-up, OFC 3-handed, partly by keyboard), Fantasyland
hands of 13 to 17 cards set by clicks, the advice panel, the analysis of a pasted
position, the replay of a history file, and every page at 320, 390 and 1280 px wide with no
console error and no horizontal overflow.

``OFC_SERVE_SHOTS=DIR`` keeps the screenshots there (docs/serve.md shows them)."""

from __future__ import annotations

import json
import os
import re
import time
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import pytest
from serve_helpers import Server
from test_arena_html import _driver

import ofc_fast
import ofc_fast as ofc
from ofc_fast.arena.history import deal_record
from ofc_fast.game import Game, Move
from ofc_fast.serve import ServeConfig
from ofc_fast.solver import solution_dict

WIDTHS = (320, 390, 1280)


@pytest.fixture(scope="module")
def server() -> Iterator[Server]:
    with Server(ServeConfig(workers=2)) as s:
        yield s


@pytest.fixture(scope="module")
def chromium() -> Iterator[Any]:
    """One browser for the file (it takes seconds to start); each test has a tab."""
    d = _driver()
    d.set_page_load_timeout(30)
    try:
        yield d
    finally:
        d.quit()


@pytest.fixture
def browser(chromium: Any) -> Any:
    """The browser in a new tab, the earlier tabs closed, 1280 x 1000 px, its console
    read: each test passes alone, in any order.  In the tab an earlier test left, a
    ``get`` of the same page with the same ``#page`` was no new load (its fields kept
    what the earlier test typed), the API key it stored (sessionStorage, kept by a tab)
    was sent, and its console errors failed the next page check."""
    d = chromium
    old = d.window_handles
    d.switch_to.new_window("tab")
    tab = d.current_window_handle
    for handle in old:
        d.switch_to.window(handle)
        d.close()
    d.switch_to.window(tab)
    d.set_window_size(1280, 1000)
    d.get_log("browser")
    return d


@pytest.fixture(scope="module")
def shots(tmp_path_factory: pytest.TempPathFactory) -> Path:
    out = os.environ.get("OFC_SERVE_SHOTS")
    path = Path(out) if out else tmp_path_factory.mktemp("shots")
    path.mkdir(parents=True, exist_ok=True)
    return path


def by(css: str) -> tuple[str, str]:
    return ("css selector", css)


def wait(cond: Callable[[], Any], timeout: float = 30, what: str = "") -> Any:
    deadline = time.monotonic() + timeout
    while True:
        value = cond()
        if value:
            return value
        if time.monotonic() > deadline:
            raise AssertionError(f"timed out waiting for {what or cond}")
        time.sleep(0.03)


def idle(d: Any) -> None:
    wait(
        lambda: not d.execute_script("return document.body.classList.contains('busy')"),
        what="the page to finish a request",
    )


def tid(d: Any, name: str) -> Any:
    return d.find_element(*by(f'[data-testid="{name}"]'))


def no_overflow_and_no_errors(d: Any, shots: Path, name: str) -> None:
    """At each width: no horizontal scrolling, no console error; a screenshot."""
    for w in WIDTHS:
        d.set_window_size(w, 1000)
        wait(lambda w=w: d.execute_script("return window.innerWidth") <= w, 5, "resize")
        over = d.execute_script(
            "return document.documentElement.scrollWidth - document.documentElement.clientWidth"
        )
        assert over <= 0, f"{name} at {w}px scrolls sideways by {over}px"
        height = d.execute_script("return document.documentElement.scrollHeight")
        d.set_window_size(w, min(max(600, height), 2400))
        d.save_screenshot(str(shots / f"{name}-{w}.png"))
    errors = [e for e in d.get_log("browser") if e["level"] == "SEVERE"]
    assert errors == [], errors


def start(
    d: Any,
    server: Server,
    rules: str,
    players: int,
    bots: str = "heuristic",
    fantasyland: int = 0,
) -> None:
    d.set_window_size(1280, 1000)
    d.get(server.url + "/")
    from selenium.webdriver.support.ui import Select

    Select(d.find_element(*by("#rules"))).select_by_value(rules)
    Select(d.find_element(*by("#players"))).select_by_value(str(players))
    Select(d.find_element(*by("#bots"))).select_by_value(bots)
    Select(tid(d, "start-fantasyland")).select_by_value(str(fantasyland))
    tid(d, "new-game").click()
    idle(d)


def free(d: Any, row: str) -> int:
    return len(tid(d, f"row-{row}").find_elements(*by(".card.empty")))


def play_street(d: Any, keyboard: bool = False) -> None:
    """Place cards (back first, then middle, then front) until Confirm is enabled,
    then confirm: the card left in the hand is the discard."""
    confirm = tid(d, "confirm")
    for _ in range(40):
        if confirm.is_enabled():
            break
        cards = d.find_elements(*by('[data-testid="hand-card"]'))
        assert cards, "no card to place and Confirm still disabled"
        row = next(r for r in ("back", "middle", "front") if free(d, r) > 0)
        if keyboard:
            from selenium.webdriver.common.keys import Keys

            cards[0].send_keys(Keys.ENTER)  # selects it (a button)
            d.find_element(*by("body")).send_keys(
                "123"[("front", "middle", "back").index(row)]
            )
        else:
            cards[0].click()
            tid(d, f"row-{row}").click()
    else:
        status = d.find_element(*by("#status")).text
        raise AssertionError(f"Confirm never became enabled: {status}")
    confirm.click()
    idle(d)


def confirm_opening(d: Any) -> None:
    """Place the five cards of a Pineapple opening by clicks (two back, two middle,
    one front) and click Confirm."""
    for card, row in zip(hand(d), ("back", "back", "middle", "middle", "front")):
        d.find_element(*by(f'[data-testid="hand-card"][data-card="{card}"]')).click()
        tid(d, f"row-{row}").click()
    tid(d, "confirm").click()


def play_deal(d: Any, keyboard: bool = False) -> float:
    t0 = time.perf_counter()
    for _ in range(40):
        if tid(d, "result").is_displayed():
            break
        play_street(d, keyboard)
    return time.perf_counter() - t0


def test_pineapple_heads_up_deal_by_clicks_with_advice(
    server: Server, browser: Any, shots: Path
) -> None:
    d = browser
    start(d, server, "pineapple", 2)
    assert len(d.find_elements(*by('[data-testid="hand-card"]'))) == 5
    tid(d, "advice-toggle").click()
    wait(
        lambda: len(d.find_elements(*by('[data-testid="advice-move"]'))) == 5, 30, "advice"
    )
    assert "foul" in tid(d, "advice").text and "FL" in tid(d, "advice").text
    no_overflow_and_no_errors(d, shots, "play-advice")
    seconds = play_deal(d)
    result = tid(d, "result")
    assert len(result.find_elements(*by('[data-testid="seat-result"]'))) == 2
    assert "points" in result.text and " vs " in result.text
    assert "Match after 1 deal" in tid(d, "match-score").text
    no_overflow_and_no_errors(d, shots, "showdown")
    tid(d, "advice-toggle").click()  # advice off: a plain deal, timed
    tid(d, "next-deal").click()
    idle(d)
    seconds = play_deal(d)
    assert "Match after 2 deals" in tid(d, "match-score").text
    print(f"a whole Pineapple deal through the page: {seconds:.2f} s")
    assert seconds < 30  # the target (< 5 s) is measured by benchmarks/bench_serve.py


def test_ofc_three_handed_deal_by_clicks_and_keyboard(
    server: Server, browser: Any, shots: Path
) -> None:
    d = browser
    start(d, server, "ofc", 3)
    assert len(d.find_elements(*by('[data-testid="opponent-board"]'))) == 2
    play_street(d, keyboard=True)  # the opening by keyboard
    no_overflow_and_no_errors(d, shots, "play-ofc")
    play_deal(d)
    result = tid(d, "result")
    assert len(result.find_elements(*by('[data-testid="seat-result"]'))) == 3


def test_analyse_a_pasted_position(server: Server, browser: Any, shots: Path) -> None:
    d = browser
    d.set_window_size(1280, 1000)
    d.get(server.url + "/#analyse")
    tid(d, "analyse-board").send_keys("Qh / 9s 9h / As Ks")
    tid(d, "analyse-dealt").send_keys("2c 5d")
    d.find_element(*by('[data-testid="picker-card"][data-card="Ts"]')).click()  # a click
    assert tid(d, "analyse-dealt").get_attribute("value") == "2c 5d Ts"
    tid(d, "analyse-opponents").send_keys("7c / 8d 8h / 4s 4d")
    tid(d, "analyse").click()
    rows = wait(lambda: d.find_elements(*by('[data-testid="advice-move"]')), 30, "analysis")
    assert len(rows) == 27  # every legal move of a Pineapple street at 5 placed cards
    assert "%" in tid(d, "analysis").text
    no_overflow_and_no_errors(d, shots, "analyse")


def test_a_position_of_one_legal_move_is_said_so(server: Server, browser: Any) -> None:
    """Regression: a position with one legal move (OFC's last card, one row with room)
    was headed and said "1 legal moves, best first"."""
    from selenium.webdriver.support.ui import Select

    d = browser
    d.set_window_size(1280, 1000)
    d.get(server.url + "/#analyse")
    Select(d.find_element(*by("#a-rules"))).select_by_value("ofc")
    tid(d, "analyse-board").send_keys("Qh Qd / 9s 9h 9d 2c 2d / As Ks Kd Kc 3c")
    tid(d, "analyse-dealt").send_keys("4h")
    tid(d, "analyse").click()
    rows = wait(lambda: d.find_elements(*by('[data-testid="advice-move"]')), 30, "analysis")
    assert len(rows) == 1
    assert tid(d, "analysis").find_element(*by("h2")).text == "The one legal move"
    assert tid(d, "said").get_attribute("textContent").startswith("The one legal move: ")


def _luminance(css: str) -> float:
    """The relative luminance (WCAG 2.1) of a computed colour ``rgb(r, g, b)``."""
    channels = [int(x) / 255 for x in re.findall(r"\d+", css)[:3]]
    lin = [c / 12.92 if c <= 0.04045 else ((c + 0.055) / 1.055) ** 2.4 for c in channels]
    return 0.2126 * lin[0] + 0.7152 * lin[1] + 0.0722 * lin[2]


def test_a_problem_type_s_page_logs_no_error_and_its_link_can_be_read(
    server: Server, browser: Any
) -> None:
    """Regression: a problem type's page (``/problems/not-found``, a problem's
    ``type``) had no icon of its own, so the browser asked for /favicon.ico, a 404 in
    its console; and its link to the API was the browser's blue on the page's dark
    green (contrast 1.6:1, WCAG asks 4.5:1)."""
    from ofc_fast.serve._problems import TITLES

    d = browser
    d.set_window_size(390, 800)
    for kind in TITLES.values():
        d.get(f"{server.url}/problems/{kind.slug}")
        colours = d.execute_script(
            "const a = document.querySelector('a');"
            "return [getComputedStyle(a).color, getComputedStyle(document.body).backgroundColor]"
        )
        light, dark = sorted(map(_luminance, colours), reverse=True)
        assert (light + 0.05) / (dark + 0.05) >= 4.5, (kind.slug, colours)
    assert [e for e in d.get_log("browser") if e["level"] == "SEVERE"] == []


def test_enter_in_a_position_field_analyses_it(server: Server, browser: Any) -> None:
    """Regression: Enter in the board, dealt or dead cards field did nothing (the
    fields are in no form), so a keyboard user typed a position and then walked the
    Tabs to Analyse.  Now Enter there analyses; in the opponents' lines it still
    begins a new line (one board a line)."""
    from selenium.webdriver.common.keys import Keys

    d = browser
    d.set_window_size(1280, 1000)
    d.get(server.url + "/#analyse")
    tid(d, "analyse-opponents").send_keys("7c / 8d 8h / 4s 4d", Keys.ENTER)
    assert tid(d, "analysis").get_attribute("hidden") is not None  # a new line only
    assert tid(d, "analyse-opponents").get_attribute("value").endswith("\n")
    tid(d, "analyse-board").send_keys("Qh / 9s 9h / As Ks")
    tid(d, "analyse-dealt").send_keys("2c 5d Ts", Keys.ENTER)
    rows = wait(lambda: d.find_elements(*by('[data-testid="advice-move"]')), 30, "analysis")
    assert len(rows) == 27  # the position typed, analysed: every legal move


def test_replay_a_history_file(
    server: Server, browser: Any, shots: Path, tmp_path: Path
) -> None:
    lines = []
    for i in range(2):
        g = Game("pineapple", 3, seed=30 + i)
        while not g.is_over:
            g.play_action(g.legal_actions()[-1])
        lines.append(json.dumps(deal_record(g, i, ["ann", "bob", "cy"])))
    path = tmp_path / "deals.jsonl"
    path.write_text("\n".join(lines) + "\n")
    d = browser
    d.set_window_size(1280, 1000)
    d.get(server.url + "/#replay")
    tid(d, "replay-file").send_keys(str(path))
    step = wait(lambda: d.find_elements(*by('[data-testid="replay-step"]')), 30, "replay")
    assert "The deal starts" in step[0].text
    nxt = tid(d, "replay-next")
    moves = 0
    while nxt.is_enabled():
        nxt.click()
        moves += 1
    assert moves == len(Game.replay(json.loads(lines[0])["history"]).moves)
    assert "Move " + str(moves) + " of " + str(moves) in tid(d, "replay-step").text
    no_overflow_and_no_errors(d, shots, "replay")
    from selenium.webdriver.support.ui import Select

    Select(tid(d, "replay-deal")).select_by_index(1)
    assert "The deal starts" in tid(d, "replay-step").text


def test_stepping_a_replay_by_keyboard_to_its_end_keeps_the_focus(
    server: Server, browser: Any, tmp_path: Path
) -> None:
    """Regression: Enter on Next (or Prev) stepped to the last (or first) move, which
    disables that button, and the focus fell to the page: a keyboard user's next Tab
    began at its top.  Now the focus goes to the other button, and steps back."""
    from selenium.webdriver.common.keys import Keys

    d = browser
    d.set_window_size(1280, 1000)
    d.get(server.url + "/#replay")
    path = _history_file(tmp_path / "one.jsonl", ["ann", "bob"], 1)
    tid(d, "replay-file").send_keys(str(path))
    wait(lambda: d.find_elements(*by('[data-testid="replay-step"]')), 30, "replay")
    tid(d, "replay-next").send_keys("")  # the focus on Next
    moves = len(Game.replay(json.loads(path.read_text())["history"]).moves)
    for _ in range(moves):
        assert d.switch_to.active_element.get_attribute("data-testid") == "replay-next"
        d.switch_to.active_element.send_keys(Keys.ENTER)
    assert f"Move {moves} of {moves}" in tid(d, "replay-step").text
    assert not tid(d, "replay-next").is_enabled()
    assert d.switch_to.active_element.get_attribute("data-testid") == "replay-prev"
    for _ in range(moves):
        d.switch_to.active_element.send_keys(Keys.ENTER)
    assert tid(d, "replay-step").text.startswith("Move 0 of")
    assert d.switch_to.active_element.get_attribute("data-testid") == "replay-next"


def test_the_replay_of_a_served_game_names_each_seat_grammatically(
    server: Server, browser: Any, tmp_path: Path
) -> None:
    """A served game's history names the player's seat "you": the Replay read "Move 1
    of N: you was dealt ... and played ...".  Each move now names the seat by number,
    its name in brackets: "seat 0 (you) was dealt ...", whatever the name."""
    status, _, st = server.request("POST", "/v1/games", {"seed": 7, "bots": ["random"]})
    assert status == 200, st
    while not st["is_over"]:
        action = {"action": st["observation"]["legal_actions"][0]}
        status, _, st = server.request("POST", f"/v1/games/{st['id']}/moves", action)
        assert status == 200, st
    history = st["history"]
    assert "you" in history["seats"], history["seats"]
    path = tmp_path / "served.jsonl"
    path.write_text(json.dumps(history) + "\n")
    game = Game.replay(history["history"])
    g = Game.replay({**history["history"], "moves": [], "result": None})
    said = []
    for move in game.moves:  # the sentence of each move, from the deal itself
        seat, dealt = g.to_act, ofc.cards_str(g.dealt)
        g.play(move)
        said.append(
            f"seat {seat} ({history['seats'][seat]}) was dealt {dealt} and played {move}."
        )
    d = browser
    d.set_window_size(1280, 1000)
    d.get(server.url + "/#replay")
    tid(d, "replay-file").send_keys(str(path))
    wait(lambda: d.find_elements(*by('[data-testid="replay-step"]')), 30, "replay")
    n = len(game.moves)
    for k, sentence in enumerate(said, 1):
        tid(d, "replay-next").click()
        assert tid(d, "replay-step").text == f"Move {k} of {n}: {sentence}"


def test_a_click_on_a_row_over_a_placed_card_places_the_picked_card(
    server: Server, browser: Any
) -> None:
    """Regression: clicking a row where a card placed this street sits (the row's
    middle) took that card back instead of placing the picked one."""
    d = browser
    start(d, server, "pineapple", 2, "random")
    for _ in range(4):
        d.find_elements(*by('[data-testid="hand-card"]'))[0].click()
        tid(d, "row-back").click()  # the 4th lands on a placed card (the row's middle)
    assert len(tid(d, "row-back").find_elements(*by('[data-testid="placed-card"]'))) == 4
    placed = tid(d, "row-back").find_elements(*by('[data-testid="placed-card"]'))
    placed[0].click()  # no card picked: a click on a placed card takes it back
    assert len(d.find_elements(*by('[data-testid="hand-card"]'))) == 2


def hand(d: Any) -> list[str]:
    cards = d.find_elements(*by('[data-testid="hand-card"]'))
    return [str(c.get_attribute("data-card")) for c in cards]


@pytest.mark.parametrize(
    ("rules", "players", "cards"),
    [("pineapple", 2, 14), ("ofc", 3, 13), ("pineapple", 3, 17)],
)
def test_a_fantasyland_hand_set_by_clicks(
    server: Server, browser: Any, shots: Path, rules: str, players: int, cards: int
) -> None:
    """The first deal in Fantasyland (the setup's "First deal"): all the cards at once,
    13 clicked onto the rows as the exact solver sets them, the rest discarded; the
    server records that board and the page shows the Python API's settlement."""
    d = browser
    start(d, server, rules, players, fantasyland=cards)
    dealt = wait(lambda: hand(d), 10, "the Fantasyland hand")
    line = d.find_element(*by("#status")).text
    assert len(dealt) == cards and f"Fantasyland: set 13 of your {cards} cards" in line
    no_overflow_and_no_errors(d, shots, f"play-fantasyland-{cards}")  # all in the hand
    d.set_window_size(1280, 1000)
    best = ofc.solve_fantasyland(dealt, getattr(ofc.rules, rules.upper()))
    assert not best.fouled
    # the advice panel shows the solver's best setting
    tid(d, "advice-toggle").click()
    board = solution_dict(best)["board"]
    wait(lambda: "Best setting: " + board in tid(d, "advice").text, 30, "the advice")
    tid(d, "advice-toggle").click()
    rows = [ofc.cards_str(r).split() for r in best.board.rows]  # front, middle, back
    t0 = time.perf_counter()
    for name, row in reversed(list(zip(("front", "middle", "back"), rows))):
        for card in row:
            d.find_element(*by(f'[data-testid="hand-card"][data-card="{card}"]')).click()
            tid(d, f"row-{name}").click()
    left = hand(d)
    assert sorted(left) == sorted(ofc.cards_str(best.discards).split())
    assert len(left) == cards - 13
    confirm = tid(d, "confirm")
    assert confirm.is_enabled()
    assert ("discard" in confirm.text) == (cards > 13)
    confirm.click()
    idle(d)
    result = wait(lambda: tid(d, "result").is_displayed() and tid(d, "result"), 30)
    seconds = time.perf_counter() - t0
    # the board the server recorded is the one clicked, the rest discarded
    gid = d.execute_script("return play.state.id")
    status, _, st = server.request("GET", f"/v1/games/{gid}")
    assert status == 200 and st["is_over"]
    you = st["you"]
    got = [sorted(r.split()) for r in st["result"]["boards"][you]]
    assert got == [sorted(r) for r in rows]
    g = Game.replay(st["history"]["history"])
    assert g.fantasyland[you] == cards
    (move,) = [m for m in g.moves if isinstance(m, Move) and len(m.placements) == 13]
    assert sorted(move.discards) == sorted(ofc.parse_cards(left))  # the card(s) left
    # the points shown are the Python API's settlement of the same boards
    boards = [" / ".join(r) for r in st["result"]["boards"]]
    net = ofc.settle(boards, g.rules, button=g.button).net
    assert list(net) == st["result"]["net"] == list(g.result().net)
    texts = [e.text for e in result.find_elements(*by('[data-testid="seat-result"]'))]
    shown = [int(m.group(1)) for t in texts if (m := re.search(r": ([+-]?\d+) points", t))]
    assert len(shown) == players and shown == list(net)
    no_overflow_and_no_errors(d, shots, f"fantasyland-showdown-{cards}")
    print(f"a {cards}-card Fantasyland hand set through the page: {seconds:.2f} s")


_SLOW_FIRST_FETCH = """
window.__pending = 0;
window.__delays = [arguments[0]];  // the first request's answer comes this late (ms)
const real = window.fetch;
window.fetch = async (...args) => {
  const late = window.__delays.shift() || 0;
  window.__pending++;
  try {
    const res = await real(...args);
    await new Promise((ok) => setTimeout(ok, late));
    return res;
  } finally {
    window.__pending--;
  }
};
"""


def settled(d: Any) -> None:
    """Wait until no request of the page is in flight (after _SLOW_FIRST_FETCH)."""
    wait(lambda: d.execute_script("return window.__pending === 0"), 30, "the answers")


def test_a_late_answer_to_an_earlier_analysis_does_not_replace_the_latest(
    server: Server, browser: Any
) -> None:
    """Regression: two clicks on Analyse, the first answered last: the page showed the
    first position's moves under the second position's form."""
    from selenium.webdriver.support.ui import Select

    d = browser
    d.set_window_size(1280, 1000)
    d.get(server.url + "/#analyse")
    d.execute_script(_SLOW_FIRST_FETCH, 1500)
    tid(d, "analyse-board").send_keys("Qh / 9s 9h / As Ks")
    tid(d, "analyse-dealt").send_keys("2c 5d Ts")  # Pineapple: 27 moves
    tid(d, "analyse").click()
    Select(d.find_element(*by("#a-rules"))).select_by_value("ofc")
    tid(d, "analyse-dealt").clear()
    tid(d, "analyse-dealt").send_keys("2c")  # OFC, one card: a row of three with room
    tid(d, "analyse").click()
    settled(d)
    assert tid(d, "analysis").text.startswith("3 legal moves"), tid(d, "analysis").text
    assert len(d.find_elements(*by('[data-testid="advice-move"]'))) == 3


def _history_file(path: Path, seats: list[str], deals: int) -> Path:
    lines = []
    for i in range(deals):
        g = Game("pineapple", len(seats), seed=60 + i)
        while not g.is_over:
            g.play_action(g.legal_actions()[0])
        lines.append(json.dumps(deal_record(g, i, seats)))
    path.write_text("\n".join(lines) + "\n")
    return path


def _renumbered(line: str, deals: int) -> str:
    """A history of ``deals`` copies of the deal ``line`` (a JSON record), numbered
    0.. in order, as a match's hands are (a line written twice is refused)."""
    record = json.loads(line)
    return "".join(json.dumps({**record, "hand_no": i}) + "\n" for i in range(deals))


def test_replay_shows_the_file_chosen_last_and_forgets_a_refused_one(
    server: Server, browser: Any, tmp_path: Path
) -> None:
    """Regression: a file chosen while another was being read could be replaced by
    the earlier one's deals when that answer came last, and after a refused file the
    previous file's deals stayed listed and Next / the arrows showed them again."""
    from selenium.webdriver.common.keys import Keys

    d = browser
    d.set_window_size(1280, 1000)
    d.get(server.url + "/#replay")
    d.execute_script(_SLOW_FIRST_FETCH, 1500)
    first = _history_file(tmp_path / "first.jsonl", ["ann", "bob", "cy"], 2)
    last = _history_file(tmp_path / "last.jsonl", ["dee", "eve"], 1)
    tid(d, "replay-file").send_keys(str(first))
    tid(d, "replay-file").send_keys(str(last))
    settled(d)
    options = tid(d, "replay-deal").find_elements(*by("option"))
    assert len(options) == 1  # last.jsonl's one deal, not first.jsonl's two
    assert "dee" in tid(d, "replay-frame").text and "ann" not in tid(d, "replay-frame").text
    tid(d, "replay-next").click()
    assert "Move 1 of" in tid(d, "replay-step").text
    bad = tmp_path / "bad.jsonl"
    bad.write_text("not a hand history\n")
    tid(d, "replay-file").send_keys(str(bad))
    settled(d)
    frame = tid(d, "replay-frame")
    assert frame.text.startswith("Error: "), frame.text
    assert tid(d, "replay-deal").find_elements(*by("option")) == []
    assert not tid(d, "replay-next").is_enabled()
    assert not tid(d, "replay-prev").is_enabled()
    d.find_element(*by("body")).send_keys(Keys.ARROW_RIGHT)
    assert tid(d, "replay-frame").text.startswith("Error: ")


def test_a_history_file_not_in_utf8_is_refused_naming_its_line_and_byte(
    server: Server, browser: Any, tmp_path: Path
) -> None:
    """Regression: the page read a file's bytes as UTF-8 with U+FFFD for each byte that
    is not: a history saved in Latin-1 replayed with its names mangled ("Jos\ufffd"), and
    one saved in UTF-16 (Windows Notepad's "Unicode") was "not JSON", where ``ofc-fast
    replay`` says "line 2: not UTF-8 (byte 0xe9 at offset ...)".  The page says so too;
    an earlier bad line is still said first, and a bad byte past the lines the page
    sends does not matter."""
    good = _history_file(tmp_path / "good.jsonl", ["ann", "bob"], 2).read_bytes()
    one, two = good.splitlines(keepends=True)
    latin = one + two.replace(b'"ann"', '"Jos\u00e9"'.encode("latin-1"))
    at = latin.split(b"\n")[1].index(b"\xe9")  # where the byte is in its line
    cases = {  # the file -> what the page says, worked out from its bytes
        "latin.jsonl": (
            latin,
            f"line 2: not UTF-8 (byte 0xe9 at offset {at})",
        ),
        "utf16.jsonl": (
            good.decode().encode("utf-16"),
            "line 1: not UTF-8 (byte 0xff at offset 0)",
        ),
        "cut.jsonl": (  # its last character cut off: no newline
            one + two[:-1] + b"\xc3",
            f"line 2: not UTF-8 (byte 0xc3 at offset {len(two) - 1})",
        ),
        "first.jsonl": (b"{not json\n" + latin, "line 1: not JSON"),
    }
    d = browser
    d.set_window_size(1280, 1000)
    d.get(server.url + "/#replay")
    for name, (data, said) in cases.items():
        (tmp_path / name).write_bytes(data)
        tid(d, "replay-file").send_keys(str(tmp_path / name))
        wait(lambda: "Reading" not in tid(d, "replay-frame").text, 30, "the file read")
        shown = tid(d, "replay-frame").text
        assert shown.startswith("Error: line ") and said in shown, (name, shown)
        assert tid(d, "replay-deal").find_elements(*by("option")) == []
    later = tmp_path / "later.jsonl"  # the bad byte in a line the page does not send
    later.write_bytes(_renumbered(one.decode(), 202).encode() + b"\xe9\n")
    tid(d, "replay-file").send_keys(str(later))
    note = wait(lambda: d.find_elements(*by('[data-testid="replay-truncated"]')), 30)
    assert "first 200 deals" in note[0].text


def test_a_placed_card_is_taken_back_by_keyboard(server: Server, browser: Any) -> None:
    """Regression: Enter on a card placed this street (a button inside a row) reached
    the row's own Enter handler, which cancelled the button's click: by keyboard a
    placed card could not be taken back."""
    from selenium.webdriver.common.keys import Keys

    d = browser
    start(d, server, "pineapple", 2, "random")
    dealt = hand(d)
    d.find_elements(*by('[data-testid="hand-card"]'))[0].send_keys(Keys.ENTER)
    d.find_element(*by("body")).send_keys("3")  # to the back row
    (placed,) = tid(d, "row-back").find_elements(*by('[data-testid="placed-card"]'))
    assert placed.get_attribute("data-card") == dealt[0]
    placed.send_keys(Keys.ENTER)
    assert tid(d, "row-back").find_elements(*by('[data-testid="placed-card"]')) == []
    assert sorted(hand(d)) == sorted(dealt)


def test_a_card_taken_back_by_keyboard_keeps_the_focus_on_it(
    server: Server, browser: Any
) -> None:
    """Regression: Enter on a card placed this street took it back but dropped the
    focus to the page (its button in the row was gone): the card, picked again in the
    hand, took a walk of Tabs from the top.  Now the focus is on that card in the hand,
    picked, so that a digit puts it in another row at once."""
    from selenium.webdriver.common.keys import Keys

    d = browser
    start(d, server, "pineapple", 2, "random")
    first = hand(d)[0]
    d.find_elements(*by('[data-testid="hand-card"]'))[0].send_keys(Keys.ENTER)
    d.switch_to.active_element.send_keys("3")  # to the back row
    (placed,) = tid(d, "row-back").find_elements(*by('[data-testid="placed-card"]'))
    placed.send_keys(Keys.ENTER)  # taken back
    focused = d.switch_to.active_element
    assert focused.get_attribute("data-testid") == "hand-card"
    assert focused.get_attribute("data-card") == first
    assert focused.get_attribute("aria-pressed") == "true"
    focused.send_keys("2")  # the focused card, straight to the middle row
    (moved,) = tid(d, "row-middle").find_elements(*by('[data-testid="placed-card"]'))
    assert moved.get_attribute("data-card") == first


def test_the_page_s_keys_work_beside_a_checkbox_and_never_with_ctrl_or_alt(
    server: Server, browser: Any, tmp_path: Path
) -> None:
    """Regression: the keys 1 / 2 / 3 and the arrows did nothing while the focus was on
    the Advice checkbox or the file input (skipped as if typed into a text field: a
    keyboard user who had just toggled the advice or chosen a file had to Tab away),
    and Ctrl+2 (the browser's "second tab"), Alt+1 and Alt+ArrowLeft (Back) placed a
    card or stepped the replay as they went to the browser.  Now a key with Ctrl, Alt
    or Meta is the browser's, and the page's keys work but in a text field or a select."""
    from selenium.webdriver.common.action_chains import ActionChains
    from selenium.webdriver.common.keys import Keys

    d = browser
    start(d, server, "pineapple", 2, "random")
    first = hand(d)[0]
    d.find_elements(*by('[data-testid="hand-card"]'))[0].click()  # picked
    for modifier, key in ((Keys.CONTROL, "2"), (Keys.ALT, "1"), (Keys.META, "3")):
        ActionChains(d).key_down(modifier).send_keys(key).key_up(modifier).perform()
    assert d.find_elements(*by('[data-testid="placed-card"]')) == []
    toggle = tid(d, "advice-toggle")
    d.execute_script("arguments[0].focus()", toggle)  # (not toggled: no advice asked)
    toggle.send_keys("1")
    (placed,) = tid(d, "row-front").find_elements(*by('[data-testid="placed-card"]'))
    assert placed.get_attribute("data-card") == first
    d.get(server.url + "/#replay")
    path = _history_file(tmp_path / "one.jsonl", ["ann", "bob"], 1)
    tid(d, "replay-file").send_keys(str(path))
    wait(lambda: d.find_elements(*by('[data-testid="replay-step"]')), 30, "replay")
    d.execute_script("arguments[0].focus()", tid(d, "replay-file"))
    ActionChains(d).key_down(Keys.ALT).send_keys(Keys.ARROW_RIGHT).key_up(
        Keys.ALT
    ).perform()
    assert tid(d, "replay-step").text.startswith("Move 0 of")
    ActionChains(d).send_keys(Keys.ARROW_RIGHT).perform()  # to the file input
    assert d.switch_to.active_element.get_attribute("data-testid") == "replay-file"
    assert tid(d, "replay-step").text.startswith("Move 1 of")


def test_replay_says_when_the_file_holds_more_deals_than_it_shows(
    server: Server, browser: Any, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Regression: of a file longer than the deals one replay returns, the page listed
    the first ones and said nothing of the rest."""
    from ofc_fast.serve import _replay

    monkeypatch.setattr(_replay, "MAX_DEALS", 2)  # the server runs in this process
    d = browser
    d.set_window_size(1280, 1000)
    d.get(server.url + "/#replay")
    tid(d, "replay-file").send_keys(
        str(_history_file(tmp_path / "three.jsonl", ["a", "b"], 3))
    )
    note = wait(lambda: d.find_elements(*by('[data-testid="replay-truncated"]')), 10)
    assert "first 2 deals" in note[0].text
    assert len(tid(d, "replay-deal").find_elements(*by("option"))) == 2
    tid(d, "replay-next").click()
    assert tid(d, "replay-truncated").is_displayed()  # on every frame
    tid(d, "replay-file").send_keys(
        str(_history_file(tmp_path / "two.jsonl", ["a", "b"], 2))
    )
    wait(lambda: "two.jsonl" not in tid(d, "replay-frame").text, 30, "the file read")
    wait(lambda: d.find_elements(*by('[data-testid="replay-step"]')), 30, "the replay")
    assert d.find_elements(*by('[data-testid="replay-truncated"]')) == []


def test_by_keyboard_the_focus_stays_in_the_hand(server: Server, browser: Any) -> None:
    """Regression: picking a card with Enter, or placing it with 1 / 2 / 3, redrew the
    hand and dropped the focus to the page: each next card took a walk of Tabs from
    the top of the page.  Now the focus stays on the hand (the same card, else the
    first one left), so Enter and a digit place card after card."""
    from selenium.webdriver.common.keys import Keys

    d = browser
    start(d, server, "pineapple", 2, "random")
    d.find_elements(*by('[data-testid="hand-card"]'))[0].send_keys(Keys.ENTER)
    assert d.switch_to.active_element.get_attribute("data-testid") == "hand-card"
    assert d.switch_to.active_element.get_attribute("aria-pressed") == "true"
    for digit, row in (("3", "back"), ("2", "middle"), ("1", "front")):
        d.switch_to.active_element.send_keys(digit)
        assert (
            len(tid(d, f"row-{row}").find_elements(*by('[data-testid="placed-card"]'))) == 1
        )
        focused = d.switch_to.active_element
        assert focused.get_attribute("data-testid") == "hand-card"  # the next card
        focused.send_keys(Keys.ENTER)
    assert len(hand(d)) == 2  # five dealt, three placed


def test_a_game_the_server_dropped_is_said_gone_and_a_new_one_starts(
    browser: Any,
) -> None:
    """Regression: once the server had dropped the game (idle too long, or evicted by
    the same client's newer games), the page kept its board with Confirm enabled, and
    every retry got the same "no game ... (id)" 404.  It now says the game is gone,
    clears the board, and New game starts one."""
    with Server(ServeConfig(max_sessions_per_client=1)) as s:
        d = browser
        start(d, s, "pineapple", 2, "random")
        s.request("POST", "/v1/games", {"bots": ["random"]})  # the page's game goes
        confirm_opening(d)
        idle(d)
        status = d.find_element(*by("#status")).text
        assert "no longer on the server" in status and "new game" in status, status
        assert not d.find_element(*by("#table")).is_displayed()
        assert d.find_elements(*by('[data-testid="opponent-board"]')) == []
        tid(d, "new-game").click()
        idle(d)
        assert len(hand(d)) == 5 and tid(d, "confirm").is_displayed()


def test_advice_ticked_with_no_game_never_shows_an_empty_box_or_a_gone_game_s_moves(
    browser: Any,
) -> None:
    """Regression: ticking Advice with no game on the page (before the first, or once
    the server had dropped the game) showed the advice panel as it was: an empty box,
    or the moves advised for the game gone.  It now says the advice appears when it is
    the player's turn."""
    with Server(ServeConfig(max_sessions_per_client=1)) as s:
        d = browser
        d.get(s.url + "/")
        tid(d, "advice-toggle").click()
        said = "Advice appears when it is your turn."
        wait(lambda: tid(d, "advice").text == said, 5, "the advice panel's words")
        tid(d, "new-game").click()  # (start() would load the page anew: unticked)
        idle(d)
        wait(lambda: d.find_elements(*by('[data-testid="advice-move"]')), 30, "advice")
        s.request("POST", "/v1/games", {"bots": ["random"]})  # the page's game goes
        confirm_opening(d)
        idle(d)
        assert "no longer on the server" in d.find_element(*by("#status")).text
        tid(d, "advice-toggle").click()  # off, and on again
        tid(d, "advice-toggle").click()
        assert tid(d, "advice").is_displayed()
        assert d.find_elements(*by('[data-testid="advice-move"]')) == []
        assert tid(d, "advice").text == said


def test_every_control_reached_by_tab_shows_the_focus_ring(
    server: Server, browser: Any
) -> None:
    """Regression: a card placed this street (a button: Enter takes it back) kept its
    gold "placed" outline when focused, the page's focus ring overridden: a keyboard
    user tabbing over the placed cards could not see which one held the focus (the
    footer's link had only the browser's dark ring on the dark felt).  Every control
    Tab reaches now shows the one focus ring."""
    from selenium.webdriver.common.keys import Keys

    d = browser
    start(d, server, "pineapple", 2, "random")
    hand(d)  # (the hand dealt)
    d.find_elements(*by('[data-testid="hand-card"]'))[0].send_keys(Keys.ENTER)
    d.find_element(*by("body")).send_keys("3")  # a card placed: a button in the row
    d.execute_script("document.activeElement.blur()")
    ring = "rgb(127, 211, 255) 3px solid"
    seen = []
    for _ in range(40):
        d.switch_to.active_element.send_keys(Keys.TAB)
        seen.append(
            d.execute_script(
                "const e = document.activeElement, s = getComputedStyle(e);"
                "return [e.getAttribute('data-testid') || e.id || e.tagName,"
                " s.outlineColor + ' ' + s.outlineWidth + ' ' + s.outlineStyle]"
            )
        )
    names = {name for name, _ in seen}
    assert {"placed-card", "hand-card", "row-back", "new-game", "A"} <= names, seen
    assert [x for x in seen if x[0] != "BODY" and x[1] != ring] == [], seen


def test_a_server_that_cannot_be_reached_is_said_so(browser: Any) -> None:
    """Regression: with the server gone, every button said only the browser's own
    words for a failed fetch ("Error: Failed to fetch" in Chromium, "Load failed" in
    Safari); it now says the server cannot be reached, and the page stays usable."""
    d = browser
    with Server(ServeConfig()) as s:
        start(d, s, "pineapple", 2, "random")
    tid(d, "new-game").click()  # the server has stopped
    idle(d)
    status = d.find_element(*by("#status")).text
    assert status.startswith("Error: the server cannot be reached"), status
    assert tid(d, "new-game").is_enabled() and len(hand(d)) == 5


_SPOKEN = {"T": "10", "J": "jack", "Q": "queen", "K": "king", "A": "ace"}
_SUITS = {"c": "clubs", "d": "diamonds", "h": "hearts", "s": "spades"}


def _spoken(card: str) -> str:
    return f"{_SPOKEN.get(card[0], card[0])} of {_SUITS[card[1]]}"


def test_a_screen_reader_hears_each_card_and_what_each_row_holds(
    server: Server, browser: Any
) -> None:
    """Regression: a row is a button to a screen reader, which says only its label,
    and the label was "back row" whatever the row held; a card was its text ("Qs"),
    a placed card's took no account of what Enter does, and a board's cards were
    unlabelled spans.  Now each card is its spoken name, each row says its cards and
    its room, a placed card says it is taken back."""
    d = browser
    start(d, server, "pineapple", 2, "random")
    first = hand(d)[0]
    card = d.find_element(*by(f'[data-testid="hand-card"][data-card="{first}"]'))
    assert card.accessible_name == _spoken(first)
    assert tid(d, "row-back").accessible_name == "back row: empty, 5 free"
    card.click()
    tid(d, "row-back").click()
    assert tid(d, "row-back").accessible_name == f"back row: {_spoken(first)}, 4 free"
    placed = tid(d, "row-back").find_element(*by('[data-testid="placed-card"]'))
    assert placed.accessible_name == f"take back {_spoken(first)}"
    seen = d.find_elements(*by('[data-testid="opponent-board"] .card[data-card]'))
    assert seen, "the bot has placed its cards"
    for c in seen:
        assert (c.aria_role, c.accessible_name) == (
            "image",
            _spoken(c.get_attribute("data-card")),
        )


def test_a_screen_reader_hears_each_replay_step_analysis_and_advice(
    server: Server, browser: Any, tmp_path: Path
) -> None:
    """Regression: each step of a replay, an analysis and the advice were drawn in
    new elements, which no screen reader says (a live region must be on the page
    before it changes): a player stepping by Enter or the arrows, or asking for an
    analysis or advice, heard nothing.  Now a status region, on the page from its
    start, says each step's text, the analysis's count of moves and best move, and
    the advice's best move."""
    from selenium.webdriver.common.keys import Keys

    d = browser
    d.set_window_size(1280, 1000)
    d.get(server.url + "/#replay")
    said = d.find_element(*by('[data-testid="said"]'))  # before any file
    assert said.aria_role == "status"
    tid(d, "replay-file").send_keys(str(_history_file(tmp_path / "h.jsonl", ["a", "b"], 1)))
    step = wait(lambda: d.find_elements(*by('[data-testid="replay-step"]')), 30, "replay")
    assert said.get_attribute("textContent") == step[0].text
    assert step[0].text.startswith("Move 0 of ")
    tid(d, "replay-next").send_keys(Keys.ENTER)
    text = tid(d, "replay-step").text
    assert text.startswith("Move 1 of ") and said.get_attribute("textContent") == text
    d.find_element(*by('[data-page="analyse"]')).click()
    tid(d, "analyse-dealt").send_keys("As Kd Qc Jd Th", Keys.ENTER)
    rows = wait(lambda: d.find_elements(*by('[data-testid="advice-move"]')), 30, "analysis")
    best = rows[0].find_elements(*by("td"))
    heard = said.get_attribute("textContent")
    ev = best[2].text.split()[0]  # (its standard error after it)
    assert heard == f"{len(rows)} legal moves, best first: {best[1].text}, EV {ev}."
    start(d, server, "pineapple", 2, "random")  # the Play page's advice, heard too
    tid(d, "advice-toggle").click()
    rows = wait(lambda: d.find_elements(*by('[data-testid="advice-move"]')), 30, "advice")
    best = rows[0].find_elements(*by("td"))
    said = d.find_element(*by('[data-testid="said"]'))
    ev = best[2].text.split()[0]
    assert said.get_attribute("textContent") == f"Advice: {best[1].text}, EV {ev}."


def test_seat_names_without_spaces_never_widen_the_page(
    server: Server, browser: Any, shots: Path, tmp_path: Path
) -> None:
    """Regression: a history file's seat names (the server keeps 40 characters of
    each) with no space in them made the replay's boards wider than a 390 px screen,
    which then scrolled sideways; such text now breaks anywhere."""
    d = browser
    d.set_window_size(390, 1000)
    d.get(server.url + "/#replay")
    f = _history_file(tmp_path / "long.jsonl", ["W" * 40, "M" * 40], 1)
    tid(d, "replay-file").send_keys(str(f))
    wait(lambda: "Move 0" in tid(d, "replay-frame").text, what="the replay")
    while tid(d, "replay-next").is_enabled():  # the last frame adds each seat's points
        tid(d, "replay-next").click()
    assert "W" * 40 in tid(d, "replay-frame").text.replace("\n", "")
    no_overflow_and_no_errors(d, shots, "replay-long-names")


def _answer_prompt(d: Any, text: str) -> None:
    """Type ``text`` into the page's prompt once it shows, and accept it."""
    from selenium.common.exceptions import NoAlertPresentException

    def shown() -> Any:
        try:
            return d.switch_to.alert
        except NoAlertPresentException:
            return None

    alert = wait(shown, 10, "the prompt for the key")
    alert.send_keys(text)
    alert.accept()


def test_a_key_a_browser_cannot_send_is_asked_for_again(browser: Any) -> None:
    """Regression: a key typed with a character beyond Latin-1 ("€", a pasted curly
    quote) made every request fail in the browser before it left, worded as the
    browser's fetch error, and the key stayed stored for the tab: no later request
    asked for it again.  Now the page says so, forgets it, and the next click asks."""
    key = "k" * 16
    with Server(ServeConfig(api_key=key)) as s:
        d = browser
        d.get(s.url + "/")
        tid(d, "new-game").click()
        _answer_prompt(d, key + "\u20ac")
        idle(d)
        status = d.find_element(*by("#status")).text
        assert status == "Error: the API key holds a character a browser cannot send: " + (
            "enter it again"
        ), status
        tid(d, "new-game").click()
        _answer_prompt(d, key)  # asked again
        idle(d)
        assert len(hand(d)) == 5


def test_a_whole_deal_by_keyboard_never_drops_the_focus_to_the_page(
    server: Server, browser: Any
) -> None:
    """Regression: by keyboard, Confirm (disabled till the next street's cards are
    placed), the last card placed (the hand then empty) and Next deal (removed) each
    dropped the focus to the page, so every street began with a walk of Tabs from the
    top.  Now the focus goes on where play does: the hand, Confirm, Next deal."""
    from selenium.webdriver.common.keys import Keys

    d = browser
    start(d, server, "pineapple", 2, "random")
    d.find_elements(*by('[data-testid="hand-card"]'))[0].send_keys("")  # focus the hand
    focused = d.switch_to.active_element
    for _ in range(5):  # the streets, by the focused element alone
        while not tid(d, "confirm").is_enabled():
            assert focused.get_attribute("data-testid") == "hand-card"
            focused.send_keys(Keys.ENTER)
            row = next(r for r in ("back", "middle", "front") if free(d, r) > 0)
            d.switch_to.active_element.send_keys(
                "123"[("front", "middle", "back").index(row)]
            )
            focused = d.switch_to.active_element
        if focused.get_attribute("data-testid") == "hand-card":  # the discard: Tab on
            focused.send_keys(Keys.TAB)
            focused = d.switch_to.active_element
        assert focused.get_attribute("data-testid") == "confirm"
        focused.send_keys(Keys.ENTER)
        idle(d)
        focused = d.switch_to.active_element
    assert tid(d, "result").is_displayed()
    assert focused.get_attribute("data-testid") == "next-deal"
    focused.send_keys(Keys.ENTER)
    idle(d)
    assert d.switch_to.active_element.get_attribute("data-testid") == "hand-card"


def test_a_history_file_beyond_the_body_limit_replays_its_first_deals(
    server: Server, browser: Any, tmp_path: Path
) -> None:
    """Regression: the page sent a history file whole, and one of more than some 400
    deals (an arena's or a selfplay's) went beyond the server's 1 MiB body limit: a
    413 where docs/serve.md promises the first 200 deals and a note that there are
    more.  The page now sends only the lines the server replays, and one more."""
    from ofc_fast.serve._replay import MAX_DEALS

    one = _history_file(tmp_path / "one.jsonl", ["ann", "bob"], 1).read_text()
    big = tmp_path / "big.jsonl"
    big.write_text(_renumbered(one, 500))
    assert big.stat().st_size > ServeConfig().max_body
    d = browser
    d.set_window_size(1280, 1000)
    d.get(server.url + "/#replay")
    tid(d, "replay-file").send_keys(str(big))
    wait(lambda: "Reading" not in tid(d, "replay-frame").text, 30, "the file read")
    note = d.find_elements(*by('[data-testid="replay-truncated"]'))
    assert note and f"first {MAX_DEALS} deals" in note[0].text, tid(d, "replay-frame").text
    assert len(tid(d, "replay-deal").find_elements(*by("option"))) == MAX_DEALS
    js = (Path(ofc_fast.__file__).parent / "serve" / "web" / "app.js").read_text()
    assert f"const REPLAY_LINES = {MAX_DEALS + 1};" in js  # the page's, kept equal


def test_a_history_of_long_lines_replays_the_first_deals_the_body_holds(
    server: Server, browser: Any, tmp_path: Path
) -> None:
    """Regression: the page sent a file's first 201 lines, which of long lines (seats
    named by their long commands, as an arena's may be) are more than the server's
    1 MiB body: a 413 where docs/serve.md promises the first deals of a file of any
    size.  The page sends the lines the body holds, and says the file holds more."""
    seats = ["cmd:" + c * 996 for c in "xyz"]  # (the longest names a history takes)
    one = _history_file(tmp_path / "one.jsonl", seats, 1).read_text()
    long = tmp_path / "long.jsonl"
    long.write_text(_renumbered(one, 201))
    assert len(json.dumps({"text": long.read_text()})) > ServeConfig().max_body
    d = browser
    d.set_window_size(1280, 1000)
    d.get(server.url + "/#replay")
    tid(d, "replay-file").send_keys(str(long))
    wait(lambda: "Reading" not in tid(d, "replay-frame").text, 30, "the file read")
    shown = len(tid(d, "replay-deal").find_elements(*by("option")))
    assert 100 < shown < 201, tid(d, "replay-frame").text
    note = d.find_elements(*by('[data-testid="replay-truncated"]'))
    assert note and f"first {shown} deals" in note[0].text, tid(d, "replay-frame").text


def test_a_refused_analysis_or_replay_is_said_to_a_screen_reader(
    server: Server, browser: Any, tmp_path: Path
) -> None:
    """Regression: the Analyse and Replay pages showed a refusal (422) as a plain
    paragraph, which a screen reader did not say: to its user the click did nothing.
    Each is now an alert."""
    d = browser
    d.set_window_size(1280, 1000)
    d.get(server.url + "/#analyse")
    tid(d, "analyse-dealt").send_keys("Zz")
    tid(d, "analyse").click()
    wait(lambda: "Analysing" not in tid(d, "analysis").text, 30, "the analysis")
    (error,) = tid(d, "analysis").find_elements(*by("p"))
    assert (error.aria_role, error.text[:7]) == ("alert", "Error: "), error.text
    bad = tmp_path / "bad.jsonl"
    bad.write_text("not a hand history\n")
    d.get(server.url + "/?again#replay")
    tid(d, "replay-file").send_keys(str(bad))
    wait(lambda: "Reading" not in tid(d, "replay-frame").text, 30, "the file read")
    (error,) = tid(d, "replay-frame").find_elements(*by("p"))
    assert (error.aria_role, error.text[:7]) == ("alert", "Error: "), error.text


def test_by_keyboard_the_card_picker_keeps_the_focus(server: Server, browser: Any) -> None:
    """Regression: Enter on a card of the Analyse page's picker sent the focus to the
    text field it filled, so each next card took a walk of Tabs through the form and
    the picker again.  By keyboard the focus now stays on the picker (a click still
    goes back to the field)."""
    from selenium.webdriver.common.keys import Keys

    d = browser
    d.set_window_size(1280, 1000)
    d.get(server.url + "/#analyse")
    tid(d, "analyse-dealt").click()  # the field the picked cards go to
    ace = d.find_element(*by('[data-testid="picker-card"][data-card="As"]'))
    ace.send_keys(Keys.ENTER)
    assert d.switch_to.active_element.get_attribute("data-card") == "As"
    d.switch_to.active_element.send_keys(Keys.TAB)  # the next card: the king of spades
    d.switch_to.active_element.send_keys(Keys.ENTER)
    assert tid(d, "analyse-dealt").get_attribute("value") == "As Ks"
    d.find_element(*by('[data-testid="picker-card"][data-card="Qs"]')).click()
    assert d.switch_to.active_element.get_attribute("id") == "a-dealt"
    assert tid(d, "analyse-dealt").get_attribute("value") == "As Ks Qs"


def test_a_picked_card_starts_the_new_opponent_line_typed(
    server: Server, browser: Any
) -> None:
    """Regression: the opponents' boards are one a line, but a card picked after Enter
    (a new opponent's line begun) went onto the line before: the picker trimmed the
    field's end, the new line too, so a second opponent built by clicks joined the
    first one's back row (and the analysis read one opponent)."""
    from selenium.webdriver.common.keys import Keys

    d = browser
    d.set_window_size(1280, 1000)
    d.get(server.url + "/#analyse")
    field = tid(d, "analyse-opponents")
    field.send_keys("7c / 8d 8h / 4s 4d", Keys.ENTER)
    for card in ("Qs", "Js"):
        d.find_element(*by(f'[data-testid="picker-card"][data-card="{card}"]')).click()
    assert field.get_attribute("value") == "7c / 8d 8h / 4s 4d\nQs Js"
    field.send_keys("  ")  # spaces typed after a card: one space still parts the next
    d.find_element(*by('[data-testid="picker-card"][data-card="Ts"]')).click()
    assert field.get_attribute("value") == "7c / 8d 8h / 4s 4d\nQs Js Ts"


def test_the_page_asks_no_more_search_than_the_server_allows(browser: Any) -> None:
    """Regression: the page asked for fixed seconds of search (the advice 0.3, the
    Analyse page 0.5 by default), so on a server started with a lower
    ``--max-time-budget`` the advice and every analysis were refused (422).  The
    page now reads the server's cap from /v1/health and asks no more."""
    with Server(ServeConfig(max_time_budget=0.1)) as s:
        d = browser
        d.set_window_size(1280, 1000)
        d.get(s.url + "/#analyse")
        tid(d, "analyse-board").send_keys("Qh / 9s 9h / As Ks")
        tid(d, "analyse-dealt").send_keys("2c 5d Ts")
        tid(d, "analyse").click()
        wait(lambda: "Analysing" not in tid(d, "analysis").text, 30, "the analysis")
        assert len(d.find_elements(*by('[data-testid="advice-move"]'))) == 27, tid(
            d, "analysis"
        ).text
        d.find_element(*by('.tab[data-page="play"]')).click()
        tid(d, "advice-toggle").click()
        tid(d, "new-game").click()
        idle(d)
        advice = tid(d, "advice")
        wait(lambda: "Analysing" not in advice.text, 30, "the advice")
        assert advice.find_elements(*by('[data-testid="advice-move"]')), advice.text


def test_a_request_never_answered_is_said_so_and_the_page_stays_usable(
    browser: Any,
) -> None:
    """Regression: a request whose answer never came left the page busy for ever, and
    New game then did nothing at all.  The page waits 5 s plus three times the
    server's ``max_time_budget`` (GET /v1/health), says the server did not answer,
    and New game works again."""
    with Server(ServeConfig(max_time_budget=0.01)) as s:
        d = browser
        start(d, s, "pineapple", 2, "random")
        d.execute_async_script("health.then(arguments[arguments.length - 1])")
        d.execute_script("window.__fetch = window.fetch;")
        d.execute_script("window.fetch = () => new Promise(() => {});")
        t0 = time.monotonic()
        tid(d, "new-game").click()
        tid(d, "new-game").click()  # while the first waits: nothing
        wait(
            lambda: not d.execute_script("return document.body.classList.contains('busy')"),
            15,
            "the page to give up on the request",
        )
        assert 4.5 < time.monotonic() - t0 < 12
        status = d.find_element(*by("#status")).text
        assert status == "Error: the server did not answer within 5 s: try again", status
        d.execute_script("window.fetch = window.__fetch;")
        tid(d, "new-game").click()
        idle(d)
        assert len(hand(d)) == 5
        assert d.find_element(*by("#status")).text.startswith("Your turn"), status


def test_choosing_the_same_history_file_again_reads_it_again(
    server: Server, browser: Any, tmp_path: Path
) -> None:
    """Regression: the same file chosen again (fixed on disk after a refusal) fired no
    change event, so the page kept showing the refusal."""
    d = browser
    d.set_window_size(1280, 1000)
    d.get(server.url + "/#replay")
    path = tmp_path / "deals.jsonl"
    path.write_text("not a hand history\n")
    tid(d, "replay-file").send_keys(str(path))
    wait(lambda: tid(d, "replay-frame").text.startswith("Error: "), 30, "the refusal")
    _history_file(path, ["ann", "bob"], 1)
    tid(d, "replay-file").send_keys(str(path))
    step = wait(lambda: d.find_elements(*by('[data-testid="replay-step"]')), 30, "replay")
    assert "The deal starts" in step[0].text
    assert "ann" in tid(d, "replay-frame").text
    assert len(tid(d, "replay-deal").find_elements(*by("option"))) == 1


def test_a_history_file_larger_than_a_browser_string_replays_its_first_deals(
    server: Server, browser: Any, tmp_path: Path
) -> None:
    """Regression: the page read the chosen file whole before sending its first 201
    lines, and of a file beyond the browser's longest string (some 512 MiB in
    Chromium; a long self-play run) the read gave an empty text: "no deal in the
    file".  It reads a chunk at a time and stops at the lines it sends.  The file is
    sparse: 600 MiB long, a few hundred KiB on disk."""
    path = _history_file(tmp_path / "big.jsonl", ["ann", "bob"], 205)
    os.truncate(path, 600 << 20)
    d = browser
    d.set_window_size(1280, 1000)
    d.get(server.url + "/#replay")
    tid(d, "replay-file").send_keys(str(path))
    note = wait(lambda: d.find_elements(*by('[data-testid="replay-truncated"]')), 30)
    assert "first 200 deals" in note[0].text
    assert len(tid(d, "replay-deal").find_elements(*by("option"))) == 200
    assert "ann" in tid(d, "replay-frame").text


# The page's requests to a game's moves reach the server, which plays them, but their
# answer never reaches the page: it never comes (a timeout) or the connection fails.
_MOVE_ANSWER_LOST = """
window.__fetch = window.fetch;
window.__lost = arguments[0];  // "timeout" or "network", for the next move only
window.fetch = async (request, ...rest) => {
  const res = await window.__fetch(request, ...rest);
  const how = window.__lost;
  if (!how || !String(request.url || request).endsWith("/moves")) return res;
  window.__lost = "";
  await res.text();  // the server has answered: the move is played
  if (how === "network") throw new TypeError("Failed to fetch");
  return new Promise(() => {});
};
"""


@pytest.mark.parametrize("lost", ["timeout", "network"])
def test_a_move_whose_answer_was_lost_shows_the_server_s_game(
    browser: Any, lost: str
) -> None:
    """Regression: a move the server played but whose answer never reached the page
    (the page's wait ran out, or the connection broke) left the page on its own
    guess: the street still placed and Confirm enabled, which sent the move again
    and got it refused, the cards of the next street never shown.  The page now
    reads the game again and shows the server's."""
    with Server(ServeConfig(max_time_budget=0.01)) as s:
        d = browser
        start(d, s, "pineapple", 2, "random")
        d.execute_async_script("health.then(arguments[arguments.length - 1])")
        d.execute_script(_MOVE_ANSWER_LOST, lost)
        confirm_opening(d)
        wait(
            lambda: not d.execute_script("return document.body.classList.contains('busy')"),
            20,
            "the page to give up on the answer",
        )
        gid = d.execute_script("return play.state.id")
        status, _, st = s.request("GET", f"/v1/games/{gid}")
        assert status == 200 and st["your_turn"] and len(st["events"]) == 2  # played
        dealt = sorted(ofc.cards_str([c]) for c in st["observation"]["dealt"])
        assert sorted(hand(d)) == dealt  # the next street's cards, not the last one's
        assert d.find_elements(*by('[data-testid="placed-card"]')) == []
        mine = st["observation"]["boards"][st["you"]]
        for name, row in zip(("front", "middle", "back"), mine):
            shown = tid(d, f"row-{name}").find_elements(*by(".card[data-card]"))
            assert sorted(c.get_attribute("data-card") for c in shown) == sorted(
                ofc.cards_str([c]) for c in row
            )
        line = d.find_element(*by("#status")).text
        assert line.startswith("Error: ") and "as the server holds it" in line, line
        assert "Your turn" in line, line
        play_deal(d)  # and play goes on from the server's game
        assert tid(d, "result").is_displayed()


def test_a_game_that_cannot_be_read_again_is_read_by_the_next_confirm(
    browser: Any,
) -> None:
    """A move played whose answer was lost, and the server unreachable when the page
    reads the game again: the page says so, and the next Confirm reads the game (it
    sends no move the server may have played already) and shows the server's."""
    with Server(ServeConfig(max_time_budget=0.01)) as s:
        d = browser
        start(d, s, "pineapple", 2, "random")
        d.execute_script(
            """
            window.__fetch = window.fetch;
            window.__down = false;
            window.fetch = async (request, ...rest) => {
              if (window.__down) throw new TypeError("Failed to fetch");
              const res = await window.__fetch(request, ...rest);
              if (!String(request.url || request).endsWith("/moves")) return res;
              await res.text();  // played, then the network goes
              window.__down = true;
              throw new TypeError("Failed to fetch");
            };
            """
        )
        confirm_opening(d)
        idle(d)
        line = d.find_element(*by("#status")).text
        assert "could not be read again" in line and "Confirm" in line, line
        d.execute_script("window.__down = false;")
        tid(d, "confirm").click()
        idle(d)
        gid = d.execute_script("return play.state.id")
        status, _, st = s.request("GET", f"/v1/games/{gid}")
        assert status == 200 and len(st["events"]) == 2  # the move, played once
        dealt = sorted(ofc.cards_str([c]) for c in st["observation"]["dealt"])
        assert sorted(hand(d)) == dealt
        line = d.find_element(*by("#status")).text
        assert line.startswith("The game is shown as the server holds it. Your turn"), line


def test_a_new_game_whose_answer_was_lost_is_the_same_game_when_asked_again(
    browser: Any,
) -> None:
    """A "new game" the server made but whose answer never reached the page left a
    game the page never learned of, and New game again made a second.  The page sends
    one ``Idempotency-Key`` per new game and the same key when asked again after a
    lost answer: the server answers with the game it made; the next New game, once
    answered, is another game with another key."""
    with Server(ServeConfig(max_time_budget=0.01)) as s:
        d = browser
        start(d, s, "pineapple", 2, "random")
        first = d.execute_script("return play.state.id")
        d.execute_script(
            """
            window.__fetch = window.fetch;
            window.__keys = [];
            window.__lost = true;
            window.fetch = async (request, ...rest) => {
              const res = await window.__fetch(request, ...rest);
              if (!String(request.url || request).endsWith("/v1/games")) return res;
              window.__keys.push(request.headers.get("Idempotency-Key"));
              if (!window.__lost) return res;
              window.__lost = false;
              await res.text();  // the server made the game: its answer is lost
              throw new TypeError("Failed to fetch");
            };
            """
        )
        tid(d, "new-game").click()
        idle(d)
        assert len(s.app.sessions) == 2  # the game made, its id never shown
        tid(d, "new-game").click()
        idle(d)
        made = [sid for sid in s.app.sessions._items if sid != first]
        assert len(s.app.sessions) == 2 and made == [
            d.execute_script("return play.state.id")
        ]
        tid(d, "new-game").click()  # answered before: a new game
        idle(d)
        keys = d.execute_script("return window.__keys")
        assert keys[0] == keys[1] != keys[2] and re.fullmatch("[0-9a-f]{32}", keys[2]), keys
        assert len(s.app.sessions) == 3


def test_the_page_works_under_a_reverse_proxy_s_path(browser: Any) -> None:
    """Regression: the page named its files and the API from the server's root
    (``/app.js``, ``/v1/games``), so behind a reverse proxy that serves it under a
    path (nginx ``location /ofc/ { proxy_pass http://127.0.0.1:8000/; }``) it loaded
    no script and no style, and sent every request past the proxy.  Now each URL is
    relative to the page: under ``/ofc/`` a game is played and a position analysed."""
    server = Server(ServeConfig(workers=2))
    app = server.app

    async def proxy(scope: dict[str, Any], receive: Any, send: Any) -> None:
        # what the proxy passes on: /ofc/x as /x, and nothing else
        path = scope.get("path", "")
        if scope["type"] == "lifespan" or path.startswith("/ofc/"):
            if scope["type"] != "lifespan":
                scope = {**scope, "path": path[len("/ofc") :], "raw_path": None}
            await app(scope, receive, send)
            return
        await send({"type": "http.response.start", "status": 502, "headers": []})
        await send({"type": "http.response.body", "body": b"not proxied"})

    server.server.config.app = proxy
    d = browser
    with server:
        d.set_window_size(1280, 1000)
        d.get(server.url + "/ofc/")
        tid(d, "new-game").click()
        wait(lambda: hand(d), 10, "the dealt cards")
        assert len(hand(d)) == 5
        assert (
            d.execute_script(
                "return getComputedStyle(document.querySelector('header')).display"
            )
            == "flex"
        )  # the style sheet, loaded
        d.find_element(*by('[data-page="analyse"]')).click()
        tid(d, "analyse-dealt").send_keys("As Kd Qc Jd Th")
        tid(d, "analyse").click()
        rows = wait(
            lambda: d.find_elements(
                *by('[data-testid="analysis"] [data-testid="advice-move"]')
            ),
            30,
            "the analysis",
        )
        assert rows
    errors = [e for e in d.get_log("browser") if e["level"] == "SEVERE"]
    assert errors == [], errors


def shown_page(d: Any) -> str:
    """The page shown (play, analyse, replay), its tab marked; "" if none is (the
    browser has left the app)."""
    pages = d.find_elements(*by("main > section:not([hidden])"))
    tabs = d.find_elements(*by('.tab[aria-current="page"]'))
    names = [str(t.get_attribute("data-page")) for t in tabs]
    assert [p.get_attribute("id") for p in pages] == ["page-" + n for n in names]
    return names[0] if len(names) == 1 else ""


def test_back_and_forward_go_through_the_pages_shown(server: Server, browser: Any) -> None:
    """Regression: a tab (Play, Analyse, Replay) replaced the page's address, so Back
    left the app, its game in progress gone with it, instead of going to the page
    shown before.  Each page shown is now an entry of the tab's history: Back and
    Forward step through them, the game kept."""
    d = browser
    start(d, server, "pineapple", 2, "random")
    dealt = hand(d)
    for page in ("play", "analyse", "replay", "replay"):  # (the page shown: no entry)
        d.find_element(*by(f'.tab[data-page="{page}"]')).click()
    assert d.current_url == server.url + "/#replay" and shown_page(d) == "replay"
    for address, page in (("/#analyse", "analyse"), ("/", "play")):
        d.back()
        wait(lambda page=page: shown_page(d) == page, 5, f"Back to {page}")
        assert d.current_url == server.url + address
    assert hand(d) == dealt and tid(d, "confirm").is_displayed()  # the same game
    d.forward()
    wait(lambda: shown_page(d) == "analyse", 5, "Forward to analyse")


# The page's requests but GET /v1/health answered by something other than the server
# (a proxy's or a gateway's page): [status, status text, body, Content-Type].
_NOT_THE_SERVER = """
window.__fetch = window.fetch;
window.__answer = arguments[0];
window.fetch = async (request, ...rest) => {
  const a = window.__answer;
  if (!a || String(request.url || request).endsWith("/v1/health")) {
    return window.__fetch(request, ...rest);
  }
  return new Response(a[2], {status: a[0], statusText: a[1], headers: {"Content-Type": a[3]}});
};
"""


def test_an_answer_that_is_not_the_server_s_json_is_said_by_its_status(
    server: Server, browser: Any
) -> None:
    """Regression: an answer with no problem JSON (a reverse proxy's HTML page for a
    502, whose status text HTTP/2 leaves empty) was said as the status text: "Error: "
    and nothing; and such a page answered with 200 (a proxy's sign-in page) was taken
    for the game: the page said the browser's "Cannot read properties of undefined"
    and kept it as its game, whose every later request went to v1/games/undefined.
    Each is now said by its status, and the page keeps no such game."""
    from selenium.webdriver.common.keys import Keys

    page = "<!doctype html><title>Bad gateway</title><h1>502</h1>"
    d = browser
    d.get(server.url + "/#analyse")
    d.execute_script(_NOT_THE_SERVER, [502, "", page, "text/html"])
    tid(d, "analyse-dealt").send_keys("As Kd Qc Jd Th", Keys.ENTER)
    wait(lambda: "Analysing" not in tid(d, "analysis").text, 10, "the answer")
    assert tid(d, "analysis").text == "Error: the server answered HTTP 502"
    d.execute_script("window.__answer = arguments[0]", [200, "", page, "text/html"])
    d.find_element(*by('.tab[data-page="play"]')).click()
    tid(d, "new-game").click()
    idle(d)
    status = d.find_element(*by("#status")).text
    assert status == "Error: the server's answer is not JSON (HTTP 200, text/html)", status
    assert d.execute_script("return play.state") is None
    assert not d.find_element(*by("#table")).is_displayed()
    d.execute_script("window.__answer = null")
    tid(d, "new-game").click()
    idle(d)
    assert len(hand(d)) == 5


# The left edge of each character of an element's text, in the order of its text.
_CHARACTER_LEFTS = """
const out = [];
const walker = document.createTreeWalker(arguments[0], NodeFilter.SHOW_TEXT);
for (let n = walker.nextNode(); n; n = walker.nextNode()) {
  for (let i = 0; i < n.length; i++) {
    const r = document.createRange();
    r.setStart(n, i);
    r.setEnd(n, i + 1);
    out.push(r.getBoundingClientRect().left);
  }
}
return out;
"""


def test_a_seat_name_written_right_to_left_keeps_its_points_after_it(
    server: Server, browser: Any, tmp_path: Path
) -> None:
    """Regression: a history's seat name in Hebrew or Arabic drew the text after it
    into its right-to-left order: the last move's heading "<name>: -6" was drawn
    "6- :<name>", the sign after the points and the colon before the name.  Each
    name is now set apart (its own direction), the points after it, left to right."""
    seats = ["ann", "\u05e9\u05dc\u05d5\u05dd 12", "\u0633\u0627\u0645"]
    path = _history_file(tmp_path / "rtl.jsonl", seats, 1)
    net = Game.replay(json.loads(path.read_text())["history"]).result().net
    d = browser
    d.get(server.url + "/#replay")
    tid(d, "replay-file").send_keys(str(path))
    wait(lambda: d.find_elements(*by('[data-testid="replay-step"]')), 30, "replay")
    while tid(d, "replay-next").is_enabled():
        tid(d, "replay-next").click()
    heads = tid(d, "replay-frame").find_elements(*by("h3"))
    assert len(heads) == 3
    for head, name, points in zip(heads, seats, net):
        text = f"{name}: {points:+d}" if points else f"{name}: 0"
        assert head.get_attribute("textContent").startswith(text), text
        left = d.execute_script(_CHARACTER_LEFTS, head)
        n = len(name)  # the name, then ": ", then the points: drawn in that order
        assert max(left[:n]) < left[n] < left[n + 2], (name, left)
        assert left[n + 2 : len(text)] == sorted(left[n + 2 : len(text)]), (name, left)


def test_a_page_s_address_opens_it_at_its_top(server: Server, browser: Any) -> None:
    """Regression: ``/#analyse`` (a bookmark, a link, the address typed) named the
    Analyse button as well as the page: the browser scrolled to that button, and on a
    phone the page opened with its tabs and its first fields above the screen.  Each
    page's address now opens it at its top, loaded or typed into the address bar."""
    d = browser
    d.set_window_size(390, 700)
    for page in ("analyse", "replay", "analyse", "play"):  # a load, then hash changes
        d.get(f"{server.url}/#{page}")
        wait(lambda page=page: shown_page(d) == page, 5, page)
        assert d.execute_script("return window.scrollY") == 0, page
    d.get(server.url + "/#analyse")
    assert tid(d, "analyse-board").location["y"] < 700


def test_an_analysis_answered_after_clear_is_neither_shown_nor_said(
    server: Server, browser: Any
) -> None:
    """Regression: Clear while an analysis was on its way hid the panel, but the late
    answer was drawn in it and said to a screen reader ("27 legal moves, best
    first: ..."), of a position no longer on the page."""
    d = browser
    d.get(server.url + "/#analyse")
    d.execute_script(_SLOW_FIRST_FETCH, 1500)
    tid(d, "analyse-board").send_keys("Qh / 9s 9h / As Ks")
    tid(d, "analyse-dealt").send_keys("2c 5d Ts")
    tid(d, "analyse").click()
    d.find_element(*by("#a-clear")).click()
    settled(d)
    assert not tid(d, "analysis").is_displayed()
    assert tid(d, "analysis").find_elements(*by('[data-testid="advice-move"]')) == []
    assert "legal moves" not in tid(d, "said").get_attribute("textContent")


_SLOW_HEALTH = """
window.__pending = 0;
const real = window.fetch;
window.fetch = async (req, ...rest) => {
  window.__pending++;
  try {
    const res = await real(req, ...rest);
    if (String(req.url || req).endsWith("/v1/health")) {
      await new Promise((ok) => setTimeout(ok, 1500));
    }
    return res;
  } finally {
    window.__pending--;
  }
};
"""


def test_clear_while_the_server_s_health_is_awaited_drops_the_analysis(
    server: Server, browser: Any
) -> None:
    """Regression: Analyse waits for the server's health (its most seconds of search)
    before it asks; Clear in that wait hid the panel, and when the health came the
    panel was shown again, "Analysing...", for ever (its answer dropped as stale)."""
    d = browser
    d.execute_cdp_cmd("Page.addScriptToEvaluateOnNewDocument", {"source": _SLOW_HEALTH})
    d.get(server.url + "/#analyse")
    tid(d, "analyse-board").send_keys("Qh / 9s 9h / As Ks")
    tid(d, "analyse-dealt").send_keys("2c 5d Ts")
    tid(d, "analyse").click()
    d.find_element(*by("#a-clear")).click()
    assert not tid(d, "analysis").is_displayed()
    settled(d)
    time.sleep(0.5)  # the analysis the health let go (before the fix) is drawn by now
    assert not tid(d, "analysis").is_displayed()
    assert "Analysing" not in tid(d, "analysis").get_attribute("textContent")


def test_back_to_the_page_or_a_reload_shows_the_game_in_progress(
    server: Server, browser: Any
) -> None:
    """Regression: the page is sent with ``Cache-Control: no-store``, so a browser keeps
    no copy of it: after the API link (or any page) and Back, or a reload, it came
    anew, "Start a new game", the game in progress and its match gone from it though
    the server held them.  The page keeps its game's id for the tab and shows the
    game again, its street's placements dropped; one the server no longer holds is
    said gone, once."""
    d = browser
    start(d, server, "pineapple", 2, "random")
    play_street(d)
    gid = d.execute_script("return play.state.id")
    dealt, board = hand(d), tid(d, "row-back").get_attribute("aria-label")
    d.find_elements(*by('[data-testid="hand-card"]'))[0].click()
    tid(d, "row-front").click()  # placed, not confirmed: dropped
    d.find_element(*by('footer a[href="openapi.json"]')).click()
    wait(lambda: d.current_url.endswith("/openapi.json"), 10, "the API's page")
    for leave in (d.back, d.refresh):
        leave()
        wait(lambda: hand(d) == dealt, 10, "the game shown again")
        assert d.execute_script("return play.state.id") == gid
        assert tid(d, "row-back").get_attribute("aria-label") == board
        assert free(d, "front") == 3 and tid(d, "confirm").is_displayed()
        assert d.find_element(*by("#status")).text.startswith("Your turn"), leave
    with Server(ServeConfig(max_sessions_per_client=1)) as s:
        start(d, s, "pineapple", 2, "random")
        s.request("POST", "/v1/games", {"bots": ["random"]})  # the page's game goes
        d.refresh()
        wait(lambda: "no longer on the server" in d.find_element(*by("#status")).text, 10)
        assert hand(d) == [] and not d.find_element(*by("#table")).is_displayed()
        d.refresh()  # said once: forgotten
        status = d.find_element(*by("#status")).text
        assert status.startswith("Start a new game"), status


def test_the_replay_of_a_fantasyland_deal_says_who_is_in_fantasyland(
    server: Server, browser: Any, tmp_path: Path
) -> None:
    """Regression: the replay of a deal with a seat in Fantasyland said nothing of it:
    that seat's one move of 14 cards, set at once, was shown as any other, where the
    Play page heads such a board "- Fantasyland".  The replay heads it so too, at
    every move."""
    import random

    g = Game("pineapple", 3, seed=7, fantasyland=[0, 14, 0])
    rng = random.Random(7)
    while not g.is_over:
        g.play(g.random_move(rng))
    path = tmp_path / "fl.jsonl"
    path.write_text(json.dumps(deal_record(g, 0, ["ann", "bob", "cy"])) + "\n")
    d = browser
    d.get(server.url + "/#replay")
    tid(d, "replay-file").send_keys(str(path))
    wait(lambda: d.find_elements(*by('[data-testid="replay-step"]')), 30, "replay")
    for _ in range(2):  # the deal's start, then its first move
        heads = [h.text for h in tid(d, "replay-frame").find_elements(*by("h3"))]
        assert heads == ["ann", "bob \u2014 Fantasyland", "cy"], heads
        tid(d, "replay-next").click()


def test_a_move_slow_to_be_answered_is_said_waited_for(
    server: Server, browser: Any
) -> None:
    """Regression: while a move's answer was slow to come (the bots' moves, a busy
    server) the status line still said "Your turn: place 5 cards." and nothing else
    changed but the mouse pointer: on a phone the Confirm seemed to do nothing.  The
    status says the page is waiting for the server, until the answer is shown."""
    d = browser
    start(d, server, "pineapple", 2, "random")
    d.execute_script(_SLOW_FIRST_FETCH, 2000)  # the move's answer, 2 s late
    confirm_opening(d)
    status = d.find_element(*by("#status"))
    wait(lambda: status.text == "Waiting for the server\u2026", 1.5, "the wait said")
    settled(d)
    idle(d)
    assert status.text.startswith("Your turn: place 2 cards."), status.text


def test_new_game_clicked_while_a_move_is_awaited_says_it_did_nothing(
    server: Server, browser: Any
) -> None:
    """Regression: New game clicked while a move's answer was still awaited did nothing
    and said nothing (the status only "Waiting for the server\u2026", as before the
    click): the page runs one request at a time and dropped the click in silence.  The
    status now says the click did nothing and to click again once the server answers;
    the awaited move is then shown, the game the same."""
    d = browser
    start(d, server, "pineapple", 2, "random")
    first = d.execute_script("return play.state.id")
    d.execute_script(_SLOW_FIRST_FETCH, 2000)  # the move's answer, 2 s late
    confirm_opening(d)
    status = d.find_element(*by("#status"))
    wait(lambda: d.execute_script("return play.busy"), 1.5, "the move asked")
    tid(d, "new-game").click()
    said = status.text
    assert said.startswith("Waiting for the server\u2026 ") and "click again" in said, said
    settled(d)
    idle(d)
    assert d.execute_script("return play.state.id") == first  # no game was started
    assert status.text.startswith("Your turn: place 2 cards."), status.text


def test_a_refusal_names_its_field_once(server: Server, browser: Any) -> None:
    """Regression: a refusal whose words begin with the field they are about was shown
    with that field again after them: "Error: dealt: give the cards dealt to the seat
    to act (dealt)".  The field is named once; words that do not name it still get
    it in brackets."""
    d = browser
    d.get(server.url + "/#analyse")
    tid(d, "analyse").click()  # no dealt cards
    box = tid(d, "analysis")
    wait(lambda: "Analysing" not in box.text, 10, "the refusal")
    _, _, st = server.request(
        "POST", "/v1/analyze", {"board": "/ /", "dealt": "", "opponents": ["/ /"]}
    )
    assert st["field"] == "dealt" and st["detail"].startswith("dealt: ")  # the premise
    assert box.text == "Error: " + st["detail"], box.text
    tid(d, "analyse-board").send_keys("Qh / 9s 9h / As Ks Ks")
    tid(d, "analyse-dealt").send_keys("2c 5d Ts")
    tid(d, "analyse").click()
    wait(lambda: "Analysing" not in box.text, 10, "the refusal")
    assert box.text.startswith("Error: ") and box.text.endswith(" (board)"), box.text


def test_a_digit_on_a_card_of_the_hand_places_that_card(
    server: Server, browser: Any
) -> None:
    """Regression: with the focus on a card of the hand, not picked (Tab to it), 1 / 2 /
    3 said "Pick a card from your hand first.": the card in the focus ring was not
    the one the digit meant.  It now places that card; a card picked first (Enter,
    a click) is still the one placed."""
    from selenium.webdriver.common.keys import Keys

    d = browser
    start(d, server, "pineapple", 2, "random")
    dealt = hand(d)
    cards = d.find_elements(*by('[data-testid="hand-card"]'))
    d.execute_script("arguments[0].focus()", cards[1])  # in the focus ring, not picked
    d.switch_to.active_element.send_keys("3")
    (placed,) = tid(d, "row-back").find_elements(*by('[data-testid="placed-card"]'))
    assert placed.get_attribute("data-card") == dealt[1]
    picked = d.find_element(*by(f'[data-testid="hand-card"][data-card="{dealt[0]}"]'))
    picked.send_keys(Keys.ENTER)  # picked, then the focus on another card
    other = d.find_element(*by(f'[data-testid="hand-card"][data-card="{dealt[2]}"]'))
    d.execute_script("arguments[0].focus()", other)
    d.switch_to.active_element.send_keys("2")
    (placed,) = tid(d, "row-middle").find_elements(*by('[data-testid="placed-card"]'))
    assert placed.get_attribute("data-card") == dealt[0]


def test_the_seconds_of_search_offered_are_those_the_server_allows(
    browser: Any,
) -> None:
    """Regression: on a server with a lower ``--max-time-budget`` (0.3 here), the
    Analyse page still offered 0.5, 1 and 2 seconds of search, 0.5 chosen, and asked
    for 0.3 whatever was chosen: the page said one search and did another, and 2 s
    gave the same answer as 0.5.  Seconds beyond the server's most are no longer
    offered; its most is, chosen."""
    with Server(ServeConfig(max_time_budget=0.3)) as s:
        d = browser
        d.get(s.url + "/#analyse")
        d.execute_async_script("health.then(arguments[arguments.length - 1])")
        options = d.find_elements(*by("#a-time option"))
        offered = [(o.get_attribute("value"), o.is_enabled()) for o in options]
        assert offered == [
            ("0.2", True),
            ("0.3", True),
            ("0.5", False),
            ("1", False),
            ("2", False),
        ], offered
        assert d.find_element(*by("#a-time")).get_attribute("value") == "0.3"
        assert "most" in options[1].text
