"""The HTML match report in a real headless browser (Debian's chromium and
chromedriver, driven by selenium; .ci/run installs them when missing): the page
loads with no console error, shows every deal, and the stepper moves; hostile
histories and reports run no script; the layout holds at 390 px and 1280 px; the deals file loads
on demand.

OFC_REQUIRE_BROWSER=1 fails instead of skipping when there is no browser;
OFC_SCREENSHOTS=DIR saves the layout test's screenshots there."""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest
from report_data import deals, report_of, write

from ofc_fast.arena.html import cumulative_points, html_report, write_html_report
from ofc_fast.errors import OfcError


@pytest.fixture(scope="module")
def match_files(tmp_path_factory: pytest.TempPathFactory) -> tuple[Path, Path, int]:
    tmp = tmp_path_factory.mktemp("html")
    rep, hist = tmp / "r.json", tmp / "h.jsonl"
    out = subprocess.run(
        [
            sys.executable,
            "-m",
            "ofc_fast",
            "arena",
            "--rules",
            "ofc-progressive",
            "--bot",
            "heuristic",
            "--bot",
            "random",
            "--hands",
            "8",
            "--seed",
            "4",
            "--json",
            str(rep),
            "--history",
            str(hist),
            "--quiet",
        ],
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert out.returncode == 0, out.stderr
    return rep, hist, 8


def test_page_is_self_contained(
    match_files: tuple[Path, Path, int], tmp_path: Path
) -> None:
    rep, hist, n = match_files
    page = tmp_path / "r.html"
    out = subprocess.run(
        [sys.executable, "-m", "ofc_fast", "report", str(rep), str(hist), "-o", str(page)],
        capture_output=True,
        text=True,
        timeout=60,
    )
    assert out.returncode == 0, out.stderr
    text = page.read_text()
    for needle in ("http://", "https://", "src=", "href="):
        assert needle not in text
    island = text.split("id='report-data'>", 1)[1].split("</script>", 1)[0]
    assert len(json.loads(island)["deals"]) == n


def test_cumulative_points_are_running_totals() -> None:
    report: dict[str, Any] = {"bots": [{"name": "a"}, {"name": "b"}]}
    deals = [
        {"seats": ["a", "b"], "points": [3, -3]},
        {"seats": ["b", "a"], "points": [5, -5]},
    ]
    assert cumulative_points(report, deals) == {"a": [3, -2], "b": [-3, 2]}


def _driver() -> Any:
    webdriver = pytest.importorskip(
        "selenium.webdriver", reason='pip install ".[test]" (selenium)'
    )
    chromium = shutil.which("chromium") or shutil.which("chromium-browser")
    driver_bin = shutil.which("chromedriver")
    if not chromium or not driver_bin:
        if os.environ.get("OFC_REQUIRE_BROWSER"):
            pytest.fail("chromium and chromedriver are required (OFC_REQUIRE_BROWSER)")
        pytest.skip(
            "install chromium and chromedriver (Debian: apt-get install chromium "
            "chromium-driver; .ci/run does)"
        )
    from selenium.webdriver.chrome.service import Service

    opts = webdriver.ChromeOptions()
    opts.binary_location = chromium
    for arg in (
        "--headless=new",
        "--no-sandbox",
        "--disable-dev-shm-usage",
        "--disable-gpu",
    ):
        opts.add_argument(arg)
    opts.set_capability("goog:loggingPrefs", {"browser": "ALL"})
    return webdriver.Chrome(service=Service(driver_bin), options=opts)


def test_in_a_headless_browser(match_files: tuple[Path, Path, int], tmp_path: Path) -> None:
    rep, hist, n = match_files
    page = tmp_path / "r.html"
    deals = [json.loads(x) for x in hist.read_text().splitlines()]
    page.write_text(html_report(json.loads(rep.read_text()), deals))
    driver = _driver()
    try:
        from selenium.webdriver.common.by import By

        driver.set_page_load_timeout(30)
        driver.get(page.as_uri())
        errors = [e for e in driver.get_log("browser") if e["level"] == "SEVERE"]
        assert errors == []
        sections = driver.find_elements(By.CSS_SELECTOR, "section.deal")
        assert len(sections) == n
        assert len(driver.find_elements(By.CSS_SELECTOR, "#standings tr")) == 3
        assert len(driver.find_elements(By.CSS_SELECTOR, "#chart polyline")) == 2
        first = sections[0]
        moves = len(deals[0]["history"]["moves"])
        step = first.find_element(By.CLASS_NAME, "step")
        cards = lambda: len(first.find_elements(By.CLASS_NAME, "card"))  # noqa: E731
        assert step.text.startswith(f"decision {moves}/{moves}") and cards() == 26
        first.find_element(By.CLASS_NAME, "first").click()
        assert step.text.startswith(f"decision 0/{moves}") and cards() == 0
        first.find_element(By.CLASS_NAME, "next").click()
        assert step.text.startswith(f"decision 1/{moves}") and cards() == 5
        first.find_element(By.CLASS_NAME, "next").click()
        assert step.text.startswith(f"decision 2/{moves}") and cards() == 10
        first.find_element(By.CLASS_NAME, "prev").click()
        assert step.text.startswith(f"decision 1/{moves}")
        errors = [e for e in driver.get_log("browser") if e["level"] == "SEVERE"]
        assert errors == []
    finally:
        driver.quit()


@pytest.fixture(scope="module")
def browser() -> Any:
    driver = _driver()
    driver.set_page_load_timeout(30)
    yield driver
    driver.quit()


def _severe(driver: Any) -> list[Any]:
    return [e for e in driver.get_log("browser") if e["level"] == "SEVERE"]


def _sideways(driver: Any, width: int) -> int:
    """How far the page scrolls sideways in a viewport ``width`` wide (under mobile
    emulation ``window.innerWidth`` grows with the page: no measure of it)."""
    over: int = driver.execute_script("return document.documentElement.scrollWidth")
    return over - width


def _viewport(driver: Any, width: int, height: int = 900) -> None:
    driver.execute_cdp_cmd(
        "Emulation.setDeviceMetricsOverride",
        {"width": width, "height": height, "deviceScaleFactor": 1, "mobile": width < 600},
    )


PWN = "window.__pwned = 1; document.title = 'pwned'"
PAYLOADS = (
    f'<img src=x onerror="{PWN}">',
    "<!--<script>",
    f"</script><script>{PWN}</script>",
    f'<svg onload="{PWN}"></svg>',
    "\u2028\u2029'\"&amp;",
)


def _hostile_cases() -> dict[str, tuple[dict[str, Any], list[dict[str, Any]], bool]]:
    """Case name -> (report, history lines, whether the page must be refused)."""
    names = ("h" + "".join(PAYLOADS), "r<!--<script>")
    lines = deals(4)
    named = [{**d, "seats": list(names)} for d in lines]
    report = report_of(lines)
    hostile_hand = [{**lines[0], "hand_no": PAYLOADS[0]}, *lines[1:]]
    fouls = {**report["bots"][0], "fouls": PAYLOADS[3]}
    forfeiter = report_of(named, names)
    forfeiter["bots"][0]["faults"] = 1  # (a bot forfeits at its first fault)
    texts = {
        **forfeiter,
        "game_id": PAYLOADS[2],
        "rules": PAYLOADS[0],
        "forfeited_by": names[0],  # (every payload: one of the bots, as a forfeit is)
        "duplicate": {
            "decks": 1,
            "pairs": [
                {
                    "a": names[0],
                    "b": names[1],
                    "difference_per_deck_mean": 0.5,
                    "difference_per_deck_ci95": 1.0,
                }
            ],
        },
    }
    return {
        "hand_no": (report, hostile_hand, True),
        "report fouls": ({**report, "bots": [fouls, report["bots"][1]]}, lines, True),
        "seat names": (report_of(named, names), named, False),
        "every text field": (texts, named, False),
    }


@pytest.mark.parametrize(
    "case", ["hand_no", "report fouls", "seat names", "every text field"]
)
def test_hostile_inputs_run_no_script(browser: Any, case: str, tmp_path: Path) -> None:
    """An `<img onerror>` in `hand_no` and an `<svg onload>` in
    `fouls` ran in the browser, and a seat name with `<!--<script>` stopped the page's
    script.  Now the bad types are refused before anything is written, and text (names,
    game id, rules, forfeit, duplicate pairs) shows as text: no injected script runs and
    the page's own script draws every deal."""
    from selenium.webdriver.common.by import By

    report, lines, refused = _hostile_cases()[case]
    rep, hist = write(tmp_path, report, lines)
    page = tmp_path / "r.html"
    if refused:
        with pytest.raises(OfcError):
            write_html_report(rep, hist, page)
        assert not page.exists()
        return
    write_html_report(rep, hist, page)
    browser.get(page.as_uri())
    assert browser.execute_script("return window.__pwned") is None
    assert browser.title == f"{report['game_id']}: {report['hands']} hands, seed 1"
    sections = browser.find_elements(By.CSS_SELECTOR, "section.deal")
    assert len(sections) == len(lines)
    step = sections[0].find_element(By.CLASS_NAME, "step").text
    assert step.startswith("decision "), step  # the page's own script ran
    who = sections[0].find_element(By.CSS_SELECTOR, ".who b").get_attribute("textContent")
    assert who == f"seat 0 \u00b7 {lines[0]['seats'][0]}"
    standings = browser.find_element(By.ID, "standings").get_attribute("textContent")
    assert report["bots"][0]["name"] in standings
    browser.execute_script("document.querySelectorAll('button').forEach(b => b.click())")
    assert browser.execute_script("return window.__pwned") is None
    assert browser.title == f"{report['game_id']}: {report['hands']} hands, seed 1"


def _rects(driver: Any, css: str) -> list[dict[str, float]]:
    return driver.execute_script(
        "return [...document.querySelectorAll(arguments[0])]"
        ".map(e => e.getBoundingClientRect().toJSON())",
        css,
    )


@pytest.mark.parametrize("width", [320, 390, 1280])
def test_layout(browser: Any, width: int, tmp_path: Path) -> None:
    """Row labels, royalties per row, Fantasyland markers, rows
    aligned across seats, a chart with an x axis and a legend clear of it, p50 and p99
    latency; no horizontal overflow at 320 and 390 px."""
    from selenium.webdriver.common.by import By

    lines = deals(8)
    report = report_of(lines)
    rep, hist = write(tmp_path, report, lines)
    write_html_report(rep, hist, tmp_path / "r.html")
    _viewport(browser, width, 2400)
    try:
        browser.get((tmp_path / "r.html").as_uri())
        if os.environ.get("OFC_SCREENSHOTS"):
            browser.save_screenshot(
                str(Path(os.environ["OFC_SCREENSHOTS"]) / f"{width}.png")
            )
        assert _severe(browser) == []
        assert _sideways(browser, width) <= 0
        heads = [
            e.get_attribute("textContent")
            for e in browser.find_elements(By.CSS_SELECTOR, "#standings th")
        ]
        assert "p50 ms" in heads and "p99 ms" in heads
        first = browser.find_element(By.CSS_SELECTOR, "#standings tr:nth-child(2)")
        cells = [
            e.get_attribute("textContent") for e in first.find_elements(By.TAG_NAME, "td")
        ]
        assert (
            cells[heads.index("p50 ms")] == "0.25"
            and cells[heads.index("p99 ms")] == "1.75"
        )
        sections = browser.find_elements(By.CSS_SELECTOR, "section.deal")
        assert len(sections) == len(lines)
        for sec, rec in zip(sections, lines):
            labels = [
                e.get_attribute("textContent")
                for e in sec.find_elements(By.CLASS_NAME, "rl")
            ]
            assert labels == ["top", "middle", "bottom"] * 2
            roys = [
                e.get_attribute("textContent")
                for e in sec.find_elements(By.CLASS_NAME, "roy")
            ]
            want = [
                f"+{v}" if v else "0"
                for seat in rec["history"]["result"]["royalties"]
                for v in seat
            ]
            assert roys == want
            badges = sec.get_attribute("textContent")
            for s, n in enumerate(rec["history"]["fantasyland"]):
                assert (f"Fantasyland ({n} cards)" in badges) == bool(n), s
            for n in rec["history"]["result"]["fantasyland"]:
                assert (f"Fantasyland next ({n})" in badges) == bool(n)
        assert any(d["history"]["fantasyland"][0] for d in lines)
        assert any(d["history"]["result"]["fantasyland"][0] for d in lines)
        # rows line up: the same left edge for every row of every seat, and side by
        # side (1280 px) the same height for the same row of both seats
        for k in range(len(lines)):  # badges on one seat or not
            rows = _rects(browser, f"#deal-{k} .cards")
            assert len({round(r["left"]) for r in rows[:3]}) == 1
            assert len({round(r["left"]) for r in rows[3:]}) == 1
            if width == 1280:
                tops = [round(r["top"]) for r in rows]
                assert tops[:3] == tops[3:], k
            else:
                assert rows[0]["left"] == rows[3]["left"]
        # nothing of a seat sticks out of its box, and the seats do not overlap
        assert browser.execute_script(
            "return [...document.querySelectorAll('.seat')].every(s => {"
            " const box = s.getBoundingClientRect();"
            " return [...s.children].every(c => c.getBoundingClientRect().right"
            " <= box.right + 1); })"
        )
        seats = _rects(browser, ".seat")
        if width == 1280:
            assert all(a["right"] <= b["left"] for a, b in zip(seats[::2], seats[1::2]))
        # and every deal's seats in the same columns
        lefts = {round(r["left"]) for r in _rects(browser, ".seat")}
        assert len(lefts) == (2 if width == 1280 else 1), lefts
        chart = _rects(browser, "#chart")[0]
        legend = _rects(browser, ".legend")[0]
        assert legend["top"] >= chart["bottom"]
        ticks = [
            e.get_attribute("textContent")
            for e in browser.find_elements(By.CSS_SELECTOR, "#chart .x-tick")
        ]
        assert len(ticks) >= 2 and ticks[0] == "0"
        assert browser.find_elements(By.CSS_SELECTOR, "#chart .x-axis")
        assert len(browser.find_elements(By.CSS_SELECTOR, ".legend li")) == 2
    finally:
        browser.execute_cdp_cmd("Emulation.clearDeviceMetricsOverride", {})


def test_deals_file_loads_on_demand(browser: Any, tmp_path: Path) -> None:
    """The page holds the first deals and the largest swings; the
    deals file written next to it shows any other deal once loaded, and a file that
    is not its own is refused."""
    from selenium.webdriver.common.by import By
    from selenium.webdriver.support.ui import WebDriverWait

    lines = deals(30, fl_every=0)
    rep, hist = write(tmp_path, report_of(lines), lines)
    side = write_html_report(rep, hist, tmp_path / "r.html", embed=3)
    assert side == tmp_path / "r.deals.jsonl"
    browser.get((tmp_path / "r.html").as_uri())
    shown = lambda: [  # noqa: E731
        int(e.get_attribute("data-index"))
        for e in browser.find_elements(By.CSS_SELECTOR, "section.deal")
    ]
    swings = sorted(range(3, 30), key=lambda i: (-max(map(abs, lines[i]["points"])), i))[
        :10
    ]
    assert shown() == [0, 1, 2, *sorted(swings)]
    status = browser.find_element(By.ID, "deals-status")
    browser.find_element(By.ID, "deals-file").send_keys(str(hist))  # not the deals file
    WebDriverWait(browser, 10).until(lambda d: "cannot use" in status.text)
    browser.find_element(By.ID, "deals-file").send_keys(str(side))
    WebDriverWait(browser, 10).until(lambda d: "all 30 deals" in status.text)
    box = browser.find_element(By.ID, "goto")
    box.clear()
    box.send_keys("27\n")
    WebDriverWait(browser, 10).until(
        lambda d: "hand 26" in d.find_element(By.ID, "deal-26").text
    )
    assert shown() == list(range(26, 30))
    sec = browser.find_element(By.ID, "deal-26")
    moves = len(lines[26]["history"]["moves"])
    assert sec.find_element(By.CLASS_NAME, "step").text.startswith(
        f"decision {moves}/{moves}"
    )
    assert len(sec.find_elements(By.CLASS_NAME, "card")) == 26
    browser.find_element(By.ID, "page-prev").click()
    assert shown() == list(range(6, 26))
    assert _severe(browser) == []
    # a deals file edited after the fact: its bad lines are named, the rest still show
    tampered = tmp_path / "t.deals.jsonl"
    body = side.read_text().splitlines()
    body[1 + 10] = '{"i": 10, "s": 7, "m": "<b>x</b>"}'
    body[1 + 11] = 'not json <img src=x onerror="window.__pwned=1">'
    tampered.write_text("\n".join(body) + "\n")
    browser.find_element(By.ID, "deals-file").send_keys(str(tampered))
    WebDriverWait(browser, 10).until(lambda d: "all 30 deals" in status.text)
    box.clear()
    box.send_keys("11\n")
    WebDriverWait(browser, 10).until(
        lambda d: "cannot be" in d.find_element(By.ID, "deal-11").text
    )
    assert "cannot be" in browser.find_element(By.ID, "deal-10").text
    assert "hand 12" in browser.find_element(By.ID, "deal-12").text
    assert browser.execute_script("return window.__pwned") is None


def test_an_interrupted_match_says_so_on_its_page() -> None:
    """The page of a match stopped by Ctrl-C (``"interrupted": true``) looked like
    that of a finished match of fewer hands (the standings print ``(interrupted)``).
    Its title line says interrupted; a finished match's says nothing of it."""
    lines = deals(2)
    finished = report_of(lines) | {"interrupted": False}
    sub = "<p class='sub'>"
    tagline = html_report(finished, lines).split(sub, 1)[1].split("</p>", 1)[0]
    assert "interrupted" not in tagline
    cut = finished | {"interrupted": True}
    tagline = html_report(cut, lines).split(sub, 1)[1].split("</p>", 1)[0]
    assert "interrupted" in tagline


@pytest.mark.parametrize("width", [390, 800, 1280])
def test_bots_named_by_model_paths_never_widen_the_page(
    browser: Any, width: int, tmp_path: Path
) -> None:
    """A bot is named by its spec (``--bot value@/home/.../final.ofcvm``): a name of no
    spaces.  Its legend entry scrolled the page sideways at 390 px, and the standings
    at 800 and 1280 px (at 800 px even with names like ``heuristic``: the table is
    wider than the page above 760 px).  Now the page never scrolls sideways: a long
    name breaks, and a table wider than the page scrolls in its own box."""
    from selenium.webdriver.common.by import By

    names = (
        "value@/home/alice/experiments/ofc/runs/2026-12-01-long-run/final.ofcvm",
        "policy:/home/alice/experiments/ofc/policies/ppo-selfplay-7/policy.zip",
    )
    lines = [{**d, "seats": list(names)} for d in deals(2)]
    rep, hist = write(tmp_path, report_of(lines, names), lines)
    write_html_report(rep, hist, tmp_path / "r.html")
    _viewport(browser, width)
    try:
        browser.get((tmp_path / "r.html").as_uri())
        assert _severe(browser) == []
        over = _sideways(browser, width)
        assert over <= 0, f"the page scrolls sideways by {over}px at {width}px"
        cells = browser.find_elements(By.CSS_SELECTOR, "#standings td:first-child")
        assert [c.get_attribute("textContent") for c in cells] == list(names)
        legend = browser.find_element(By.CLASS_NAME, "legend").get_attribute("textContent")
        assert all(name in legend for name in names)
    finally:
        browser.execute_cdp_cmd("Emulation.clearDeviceMetricsOverride", {})


def test_loading_the_deals_file_keeps_the_deal_shown(browser: Any, tmp_path: Path) -> None:
    """Regression: the page's first deal shown after the deals file was loaded was read
    from the new list of every deal at the old list's place: after a click on a largest
    swing (deal 20, say, the 6th deal the page held), loading the file showed deals 6 to
    25.  It shows the deal that was first on screen, and those after it."""
    from selenium.webdriver.common.by import By
    from selenium.webdriver.support.ui import WebDriverWait

    lines = deals(30, fl_every=0)
    rep, hist = write(tmp_path, report_of(lines), lines)
    side = write_html_report(rep, hist, tmp_path / "r.html", embed=3)
    assert side is not None
    browser.get((tmp_path / "r.html").as_uri())
    buttons = browser.find_elements(By.CSS_SELECTOR, "#swings button")
    pos, swing = max((int(b.text.split()[1]) - 1, b) for b in buttons)  # the latest
    assert pos > 12  # not its own place among the 13 deals held (0, 1, 2, swings)
    swing.click()
    first = lambda: browser.find_element(By.CSS_SELECTOR, "section.deal")  # noqa: E731
    assert first().get_attribute("data-index") == str(pos)
    browser.find_element(By.ID, "deals-file").send_keys(str(side))
    status = browser.find_element(By.ID, "deals-status")
    WebDriverWait(browser, 10).until(lambda d: "all 30 deals" in status.text)
    shown = [
        int(e.get_attribute("data-index"))
        for e in browser.find_elements(By.CSS_SELECTOR, "section.deal")
    ]
    assert shown == list(range(pos, min(pos + 20, 30)))
    assert _severe(browser) == []


def test_a_report_of_no_deals_says_it_holds_none() -> None:
    """Regression: the page of a match stopped before its first hand said "All 0 deals
    are in this page."; it says the history holds no deal."""
    page = html_report(report_of([]) | {"interrupted": True}, [])
    note = page.split("<p id='deals-note'>", 1)[1].split("</p>", 1)[0]
    assert note == "The history holds no deal."


def test_the_stepper_s_buttons_name_what_they_do(browser: Any, tmp_path: Path) -> None:
    """Regression: a deal's stepper buttons were named by their glyphs alone ("«",
    "»"), all a screen reader said of them.  Each names the decision it goes to."""
    from selenium.webdriver.common.by import By

    lines = deals(1)
    rep, hist = write(tmp_path, report_of(lines), lines)
    write_html_report(rep, hist, tmp_path / "r.html")
    browser.get((tmp_path / "r.html").as_uri())
    stepper = browser.find_element(By.CSS_SELECTOR, "section.deal .stepper")
    names = [b.accessible_name for b in stepper.find_elements(By.TAG_NAME, "button")]
    assert names == [
        "first decision",
        "previous decision",
        "next decision",
        "last decision",
    ]
