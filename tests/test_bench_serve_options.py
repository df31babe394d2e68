"""benchmarks/bench_serve.py refuses a server setting before it starts the server."""

from __future__ import annotations

import json
import sys
from pathlib import Path
from types import SimpleNamespace

import pytest
from scripts import checkout_script, usage_error


def test_workers_beyond_the_servers_cap_are_refused(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture
) -> None:
    """``bench_serve.py --workers 100000`` started ``ofc-fast serve``, which refused
    it, and ended with "the server did not start", exit status 1; it is refused as
    ``ofc-fast serve`` refuses it (4 per CPU), before the server starts."""
    from ofc_fast.parallel import _counts

    module = checkout_script("benchmarks/bench_serve.py")
    monkeypatch.setattr(_counts, "cpu_count", lambda: 2)
    monkeypatch.setattr(module, "start_server", lambda *a: pytest.fail("it started"))
    monkeypatch.setattr(sys, "argv", ["bench_serve.py", "--workers", "9"])
    out, err = usage_error(capsys, module.main)
    assert out == "" and "error: --workers: must be at most 8, got 9 (4 per CPU" in err


@pytest.mark.parametrize(
    ("argv", "named"),
    [
        (["--workers", "2", "--only", "score"], "--only, --workers"),
        (["--only=analyze"], "--only"),
        (["--seconds", "60"], "--seconds"),  # (its default, given)
        (["--analyze-req", "3"], "--analyze-requests"),
    ],
)
def test_compare_frameworks_refuses_the_servers_options(
    argv: list[str],
    named: str,
    monkeypatch: pytest.MonkeyPatch,
    capsys: pytest.CaptureFixture,
) -> None:
    """``bench_serve.py --compare-frameworks --workers 2 --only score`` ran the
    framework comparison (no ofc-fast server: neither option means anything there)
    as if neither was given; the options of the server's measurements are refused
    with it, each named, exit status 2."""
    module = checkout_script("benchmarks/bench_serve.py")
    monkeypatch.setattr(module, "compare_frameworks", lambda *a: pytest.fail("it ran"))
    monkeypatch.setattr(module, "start_server", lambda *a: pytest.fail("it started"))
    monkeypatch.setattr(sys, "argv", ["bench_serve.py", "--compare-frameworks", *argv])
    out, err = usage_error(capsys, module.main)
    assert out == ""
    assert f"error: argument --compare-frameworks: not allowed with {named} (" in err


def test_compare_frameworks_takes_its_own_options(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture
) -> None:
    """``--score-seconds`` and ``--json`` are the comparison's; the server's options
    left out keep their defaults for a run without ``--compare-frameworks``."""
    module = checkout_script("benchmarks/bench_serve.py")
    ran: list[float] = []
    monkeypatch.setattr(module, "compare_frameworks", lambda s: ran.append(s) or {})
    out = tmp_path / "f.json"
    argv = ["--compare-frameworks", "--score-seconds", "0.5", "--json", str(out)]
    monkeypatch.setattr(sys, "argv", ["bench_serve.py", *argv])
    module.main()
    assert ran == [0.5] and json.loads(out.read_text())["frameworks"] == {}
    capsys.readouterr()
    server = SimpleNamespace(pid=0, terminate=lambda: None, wait=lambda t: None)
    monkeypatch.setattr(module, "start_server", lambda port, workers: server)
    monkeypatch.setattr(module, "bench_analyze", lambda port, n: {"requests": n})
    monkeypatch.setattr(module, "bench_memory", lambda port, pid, s: {"seconds": s})
    argv = ["bench_serve.py", "--only", "analyze", "--only", "memory"]
    monkeypatch.setattr(sys, "argv", argv)
    module.main()
    result = json.loads(capsys.readouterr().out)
    assert result["analyze"] == {"requests": 6} and result["memory"] == {"seconds": 60}
