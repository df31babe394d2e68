"""tools/advise_ev_sum.py's summary line."""

from __future__ import annotations

import pytest
from scripts import checkout_script


def test_one_deal_has_no_standard_error(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture
) -> None:
    """``--deals 1`` printed "standard error 0.00", an exact mean: one deal gives
    none."""
    module = checkout_script("tools/advise_ev_sum.py")
    argv = ["advise_ev_sum.py", "--deals", "1", "--samples", "4"]
    monkeypatch.setattr("sys.argv", argv)
    module.main()
    last = capsys.readouterr().out.splitlines()[-1]
    assert last.startswith("mean sum ") and "(standard error nan) over 1 deals" in last
