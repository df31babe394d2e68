"""benchmarks/bench_search.py's rollout rows measure what they name: the ``learned``
row runs the shipped model inside the sequential rollouts, the ``sequential`` row
runs them model-free."""

from __future__ import annotations

import json
from pathlib import Path
from types import ModuleType
from typing import Any

import pytest
from scripts import checkout_script, usage_error

from ofc_fast._native import ffi, lib


def _bench() -> ModuleType:
    return checkout_script("benchmarks/bench_search.py")


def _sums(args: tuple[Any, ...], seed: int) -> list[float]:
    n = int(args[6])
    s, q = ffi.new("double[]", n), ffi.new("double[]", n)
    rollouts: Any = lib.ofc_search_rollouts  # the benchmark's argument tuple, as is
    assert rollouts(*args, seed, 0, 16, s, q) == lib.OFC_OK
    return list(s)


def test_learned_rollouts_use_the_shipped_model() -> None:
    bench = _bench()
    learned, plain = bench.rollout_args("learned"), bench.rollout_args("sequential")
    assert learned[3].value != ffi.NULL and plain[3].value == ffi.NULL
    assert learned[7] == plain[7] == lib.OFC_COMPLETE_SEQUENTIAL
    assert learned[5:7] == plain[5:7]  # the same moves (of the same position)
    pos = ffi.sizeof("ofc_search_pos")
    assert ffi.buffer(learned[4], pos)[:] == ffi.buffer(plain[4], pos)[:]
    a, b = _sums(learned, 7), _sums(plain, 7)
    assert a == _sums(learned, 7)  # reproducible for a seed
    assert a != b  # the model places the searcher's cards


def test_rollout_rows_report_positive_rates() -> None:
    bench = _bench()
    for policy in ("sequential", "learned"):
        row = bench.rollouts_per_second(policy, 1, 1, 0.01)
        assert row["policy"] == policy and row["moves"] > 0
        assert 0 < row["min"] <= row["rollouts_per_s"] <= row["max"]


def test_settings_take_fantasyland_values_keyed_by_json_text() -> None:
    """JSON keys are text: ``{"fl_value": {"14": 10.5}}`` is SearchBot's
    ``fl_value={14: 10.5}``, the bot's stay values and its search model's."""
    bench = _bench()
    bot = bench._search(1, 0.01, {"fl_value": {"14": 10.5, "17": 20}})
    assert bot.settings()["fl_value"] == {14: 10.5, 17: 20}
    assert bench._search(1, 0.01, {"fl_value": 3.0}).settings()["fl_value"] == 3.0


BAD_SETTINGS = [
    (["--budget", "-1"], "argument --budget: must be seconds above 0, got -1"),
    (["--budget", "0"], "argument --budget: must be seconds above 0, got 0"),
    (["--max-minutes", "-1"], "--max-minutes: must be above 0, got -1.0"),
    (["--random-settings", '{"nosuch": 1}'], "--random-settings: SearchBot.__init__() got"),
    (["--heuristic-settings", '{"samples": -3}'], "--heuristic-settings: search bot: "),
    (["--random-settings", '{"fl_value": {"x": 1}}'], "--random-settings: fl_value: "),
]


@pytest.mark.parametrize(("argv", "why"), BAD_SETTINGS)
def test_a_bad_budget_or_setting_is_refused_before_the_speed_rows(
    argv: list[str], why: str, capsys: pytest.CaptureFixture[str]
) -> None:
    """``--budget -1`` and SearchBot settings it does not take (an unknown keyword, a
    bad value, a Fantasyland value keyed by no card count) ended in a BotError /
    TypeError / ValueError traceback after the rollout rows (minutes), ``--max-minutes
    -1`` in ``StatisticsError: fmean requires at least one data point``."""
    out, err = usage_error(
        capsys, _bench().main, ["--random-deals", "1", "--duplicate-deals", "1", *argv]
    )
    assert out == "" and f"error: {why}" in err and "Traceback" not in err


def test_a_match_past_its_time_limit_still_plays_one_deal() -> None:
    """A deadline already past (``--max-minutes`` shorter than a deal) ended in
    ``StatisticsError: fmean requires at least one data point``: a match now plays
    at least one deal."""
    bench = _bench()
    for play in (bench.vs_random, bench.vs_heuristic):
        timed = bench.Timed(bench._search(1, 0.001, {}))
        r = play(5, 1, 0.001, timed, bench.Tally(), 0, until=0.0)
        assert r.get("deals", r.get("duplicate_deals")) == 1


def test_one_deal_has_no_interval(tmp_path: Path, capsys: pytest.CaptureFixture) -> None:
    """A match of one deal (``--random-deals 1``, or ``--max-minutes`` ending a match
    after its first) printed ``+- 0.00`` and "95% interval +5.00 .. +5.00", an
    exact figure: the interval of one deal is unknown ("nan", null in the JSON)."""
    out = tmp_path / "s.json"
    argv = ["--skip-speed", "--random-deals", "1", "--duplicate-deals", "1"]
    assert _bench().main([*argv, "--budget", "0.002", "--json", str(out)]) == 0
    lines = [x for x in capsys.readouterr().out.splitlines() if "points/deal" in x]
    assert len(lines) == 2 and all(x.endswith(" +- nan points/deal") for x in lines)
    doc = json.loads(out.read_text())
    assert doc["vs_random"]["ci95"] is None is doc["vs_heuristic"]["ci95"]
    assert doc["vs_heuristic"]["interval"] is None
