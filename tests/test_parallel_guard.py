"""A script that starts a process pool without ``if __name__ == "__main__":`` gets a
message that says what to do, and the README's parallel-runs block
runs as a script."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest
from md_blocks import fenced_blocks
from scripts import run_as_script

ROOT = Path(__file__).resolve().parent.parent
README = ROOT / "README.md"

RUN = """\
from ofc_fast.parallel import RunSpec, make_executor, play_parallel

spec = RunSpec.make("pineapple", players=2, seed=7, hands=4, bots=[("random", {})])
with make_executor(workers=2) as pool:
    run = play_parallel(spec, pool, chunk_size=2)
print("deals", run.match.hands_played)
"""


def _guarded(code: str) -> str:
    head, body = code.split("\n\n", 1)
    return (
        head
        + '\n\nif __name__ == "__main__":\n'
        + "".join("    " + line + "\n" for line in body.splitlines())
    )


def test_an_unguarded_script_is_told_to_add_the_main_guard(tmp_path: Path) -> None:
    done = run_as_script(tmp_path, "unguarded.py", RUN)
    assert done.returncode == 1
    last = done.stderr.strip().splitlines()[-1]
    assert last.startswith("ofc_fast.errors.ExecutorError: ")
    assert f"{tmp_path / 'unguarded.py'}, line 5" in last
    assert 'if __name__ == "__main__":' in last
    assert "broke" not in done.stderr  # not the pool breaking over and over


def test_a_script_read_from_standard_input_is_told_to_be_saved(tmp_path: Path) -> None:
    """``python - <<EOF`` (the script on standard input, ``__file__`` ``"<stdin>"``)
    that starts a pool: every forkserver worker tried to run ``<stdin>`` as a file,
    died with FileNotFoundError, and the pool broke six times (a screen of
    tracebacks) before a "worker that cannot start".  It is now an ExecutorError
    before any worker starts, saying what to do."""
    from scripts import package_env

    done = subprocess.run(
        [sys.executable, "-"],
        input=_guarded(RUN),
        capture_output=True,
        text=True,
        timeout=120,
        cwd=tmp_path,
        env=package_env(),
    )
    assert done.returncode == 1
    last = done.stderr.strip().splitlines()[-1]
    assert last.startswith("ofc_fast.errors.ExecutorError: the main script is '<stdin>'")
    assert "save it to a .py file" in last
    assert "FileNotFoundError" not in done.stderr and "broke" not in done.stderr


WHERE = """\
import sys
sys.path.insert(0, sys.argv[1])  # the package under test, put on the path by hand
import ofc_fast
from ofc_fast.parallel import ProcessExecutor


def where(_):
    import ofc_fast
    return ofc_fast.__file__


if __name__ == "__main__":
    with ProcessExecutor(2) as ex:
        print(ofc_fast.__file__)
        print(*sorted({r for _, r in ex.map_unordered(where, [0, 1, 2])}))
"""


@pytest.mark.skipif(
    sys.version_info < (3, 11) or sys.platform == "win32",
    reason="run on CPython 3.11+ with forkserver (PYTHONSAFEPATH)",
)
def test_the_workers_import_the_package_the_script_imported(tmp_path: Path) -> None:
    """The forkserver preloads ofc_fast with its own module path (Python 3.11's ignores
    the parent's): a script that put a copy of ofc_fast on ``sys.path``, run from a
    folder holding another ``ofc_fast`` (a source checkout), had workers running that
    other copy.  They now import what the script imported."""
    decoy = tmp_path / "ofc_fast"
    decoy.mkdir()
    (decoy / "__init__.py").write_text("", encoding="utf-8")  # another ofc_fast
    (tmp_path / "app").mkdir()
    script = tmp_path / "app" / "where.py"
    script.write_text(WHERE, encoding="utf-8")
    root = str(Path(__import__("ofc_fast").__file__).parent.parent)
    env = {k: v for k, v in os.environ.items() if k not in ("PYTHONPATH", "PYTHONSAFEPATH")}
    done = subprocess.run(
        [sys.executable, str(script), root],
        capture_output=True,
        text=True,
        timeout=120,
        cwd=tmp_path,  # (the forkserver's first path: its working directory)
        env=env,
    )
    assert done.returncode == 0, done.stderr[-3000:]
    parent, workers = done.stdout.splitlines()
    assert parent == str(Path(root) / "ofc_fast" / "__init__.py")
    assert workers == parent


def test_a_guarded_script_runs(tmp_path: Path) -> None:
    done = run_as_script(tmp_path, "guarded.py", _guarded(RUN))
    assert done.returncode == 0, done.stderr
    assert done.stdout.strip() == "deals 4"


def test_unguarded_main_line_under_pytest_is_none() -> None:
    from ofc_fast.parallel._executors import unguarded_main_line

    assert unguarded_main_line() is None  # pytest's own entry point is guarded


@pytest.mark.skipif(
    not README.exists(), reason="needs the README.md of a source checkout (git clone)"
)
def test_readme_parallel_block_runs_as_arun_as_script(tmp_path: Path) -> None:

    blocks = [
        b
        for b in fenced_blocks(README.read_text(encoding="utf-8"), "python")
        if "make_executor(workers=2)" in b
    ]
    assert len(blocks) == 1
    done = run_as_script(tmp_path, "readme_parallel.py", blocks[0])
    assert done.returncode == 0, done.stderr
