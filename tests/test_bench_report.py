"""benchmarks/bench_report.py leaves its files where ``--dir`` says, and nothing
behind without it."""

from __future__ import annotations

import sys
import tempfile
from pathlib import Path
from types import ModuleType

import pytest
from scripts import checkout_script, package_env, usage_error


def _report_script(monkeypatch: pytest.MonkeyPatch) -> ModuleType:
    module = checkout_script("benchmarks/bench_report.py")
    popen = module.subprocess.Popen  # (which subprocess.run calls too)
    monkeypatch.setattr(
        module.subprocess, "Popen", lambda *a, **k: popen(*a, **k, env=package_env())
    )
    return module


def test_without_dir_the_files_are_removed_at_the_end(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capfd: pytest.CaptureFixture
) -> None:
    """Without ``--dir`` the history, the report, the page and its deals file stayed
    in a temporary folder nobody removed: the README's ``--deals 100000`` run left
    about 290 MB in /tmp at each run (the folder named only by ``ofc-fast report``'s
    "wrote" line)."""
    module = _report_script(monkeypatch)
    monkeypatch.setattr(tempfile, "tempdir", str(tmp_path))
    argv = ["bench_report.py", "--deals", "3", "--source-hands", "2"]
    monkeypatch.setattr(sys, "argv", argv)
    module.main()
    out = capfd.readouterr().out
    assert out.startswith("3 deals, history ") and "wrote " not in out
    assert list(tmp_path.iterdir()) == []


def test_a_dir_in_a_folder_that_is_not_there_is_refused(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture
) -> None:
    """``--dir no/such/place`` (a typo) made every missing folder on the way."""
    module = _report_script(monkeypatch)
    where = tmp_path / "no" / "such"
    monkeypatch.setattr(sys, "argv", ["bench_report.py", "--dir", str(where)])
    out, err = usage_error(capsys, module.main)
    assert out == "" and f"error: --dir: no folder {str(where.parent)!r}" in err
    assert not (tmp_path / "no").exists()
