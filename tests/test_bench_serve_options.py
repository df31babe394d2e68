"""benchmarks/bench_serve.py refuses a server setting before it starts the server."""

from __future__ import annotations

import sys

import pytest
from scripts import checkout_script, usage_error


def test_workers_beyond_the_servers_cap_are_refused(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture
) -> None:
    """``bench_serve.py --workers 100000`` started ``ofc-fast serve``, which refused
    it, and ended with "the server did not start", exit status 1; it is refused as
    ``ofc-fast serve`` refuses it (4 per CPU), before the server starts."""
    from ofc_fast.parallel import cli

    module = checkout_script("benchmarks/bench_serve.py")
    monkeypatch.setattr(cli, "cpu_count", lambda: 2)
    monkeypatch.setattr(module, "start_server", lambda *a: pytest.fail("it started"))
    monkeypatch.setattr(sys, "argv", ["bench_serve.py", "--workers", "9"])
    out, err = usage_error(capsys, module.main)
    assert out == "" and "error: --workers: must be at most 8, got 9 (4 per CPU" in err
