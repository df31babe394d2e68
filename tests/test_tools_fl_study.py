"""tools/fl_study.py's figures: the standard error of a line's mean royalties."""

from __future__ import annotations

import json
import math
import statistics
from pathlib import Path

import pytest
from scripts import checkout_script


def test_the_standard_error_of_the_royalties_is_the_sample_ones(
    tmp_path: Path, capsys: pytest.CaptureFixture
) -> None:
    """The ``±`` of "mean roy" divided the population variance (by n, not n - 1):
    too small by sqrt(n / (n - 1)), 0.00 for a line of one deal.  A line's deals
    are the first deals of a longer line (the same seed), so each deal's royalties
    are the differences of the sums of the runs of 1, 2 and 3 deals."""
    module = checkout_script("tools/fl_study.py")
    rows = []
    for deals in (1, 2, 3):
        out = tmp_path / f"{deals}.json"
        argv = ["--deals", str(deals), "--workers", "1", "--cards", "15"]
        assert module.main([*argv, "--rules", "pineapple", "--json", str(out)]) == 0
        rows.append(json.loads(out.read_text())[0])
    sums = [r["mean_royalties"] * r["deals"] for r in rows]
    each = [sums[0], sums[1] - sums[0], sums[2] - sums[1]]
    assert len(set(each)) > 1  # (else no spread to measure)
    assert rows[0]["royalties_se"] is None
    assert math.isclose(rows[2]["royalties_se"], statistics.stdev(each) / math.sqrt(3))
    lines = capsys.readouterr().out.splitlines()
    assert f"| {each[0]:.2f} ± nan |" in next(x for x in lines if x.startswith("| PINE"))
