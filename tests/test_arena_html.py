"""The HTML match report in a real headless browser (Debian's chromium and
chromedriver, driven by selenium; .ci/run installs them when missing): the page
loads with no console error, shows every deal, and the stepper moves."""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest

from ofc_fast.arena.html import cumulative_points, html_report


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
    assert text.count("class='deal'") == n


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
