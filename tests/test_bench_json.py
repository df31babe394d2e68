"""The ``--json PATH`` of the scripts in benchmarks/ (and tools/fl_study.py) is written
whole or not at all: PATH holds an earlier run's figures or this run's, never a cut
JSON text."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest
from scripts import checkout_file, checkout_script, package_env


class _Interrupted(BaseException):
    """Ctrl-C (or a kill) while the figures are being written."""


JSON_RUNS = [
    ("benchmarks/bench_game.py", ["--deals", "4", "--heuristic-deals", "1", "--reps",
                                  "1", "--only", "pineapple 3p,"]),
    ("benchmarks/bench_search.py", ["--skip-speed", "--random-deals", "1",
                                    "--duplicate-deals", "0", "--budget", "0.002"]),
    ("benchmarks/bench_solver.py", ["--hands", "1"]),
    ("benchmarks/bench_value.py", ["--pairs", "1", "--match", "heuristic:random"]),
    ("benchmarks/probe_strength.py", ["--deals", "1", "--fl-deals", "1"]),
    ("tools/fl_study.py", ["--deals", "1", "--workers", "1", "--cards", "14",
                           "--rules", "pineapple"]),
]  # fmt: skip


@pytest.mark.parametrize(("script", "argv"), JSON_RUNS)
def test_json_figures_are_written_whole_or_not_at_all(
    script: str, argv: list[str], tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """``--json PATH`` opened PATH for writing (emptying the figures of an earlier run)
    and wrote the JSON into it piece by piece: a Ctrl-C, a kill or a full disk at that
    moment left a cut JSON text.  The figures are written to a temporary file renamed
    over PATH (ofc_fast.files.atomic_write): PATH holds the old figures or the new
    ones.  The encoder of the indented figures is stopped after its first piece.
    bench_parallel.py and bench_serve.py write theirs the same way (their runs need
    worker processes or a server that import the script: too long a test)."""
    module = checkout_script(script)
    out = tmp_path / "figures.json"
    out.write_text('{"old": 1}\n')
    encode = json.JSONEncoder.iterencode

    def stopped(self: json.JSONEncoder, o: object, _one_shot: bool = False) -> Any:
        if self.indent is None:  # (a setting printed in a report line)
            yield from encode(self, o, _one_shot)
            return
        yield next(iter(encode(self, o, _one_shot)))
        raise _Interrupted

    monkeypatch.setattr(json.JSONEncoder, "iterencode", stopped)
    monkeypatch.setattr(sys, "argv", [Path(script).name, *argv, "--json", str(out)])
    with pytest.raises(_Interrupted):
        module.main()
    assert out.read_text() == '{"old": 1}\n'
    assert [p.name for p in tmp_path.iterdir()] == ["figures.json"]  # no stray file
    monkeypatch.setattr(json.JSONEncoder, "iterencode", encode)
    assert module.main() in (0, None)
    assert json.loads(out.read_text()) != {"old": 1}


@pytest.mark.skipif(not os.path.exists("/dev/full"), reason="run on Linux (/dev/full)")
@pytest.mark.parametrize(("script", "argv"), JSON_RUNS)
def test_json_that_cannot_be_written_is_one_line(script: str, argv: list[str]) -> None:
    """``python benchmarks/bench_game.py --json /dev/full`` (a full disk at the end of
    a run) ended in a traceback, ``ofc_fast.errors.OfcError: --json: cannot write
    ...``: one line ``SCRIPT: error: --json: cannot write '/dev/full': No space left on
    device``, exit status 2, as ``ofc-fast bench --json /dev/full``."""
    path = checkout_file(script)
    done = subprocess.run(
        [sys.executable, str(path), *argv, "--json", "/dev/full"],
        capture_output=True,
        text=True,
        env=package_env(),
        timeout=300,
    )
    assert done.returncode == 2 and "Traceback" not in done.stderr, done.stderr
    why = os.strerror(28)  # ENOSPC
    line = f"{path.name}: error: --json: cannot write '/dev/full': {why}"
    assert done.stderr.splitlines()[-1] == line
