"""A script that starts a process pool without ``if __name__ == "__main__":`` gets a
message that says what to do, and the README's parallel-runs block
runs as a script."""

from __future__ import annotations

import ast
import os
import subprocess
import sys
from pathlib import Path
from typing import Any

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


def _environ_without_path() -> dict[str, str]:
    """This environment less PYTHONPATH and PYTHONSAFEPATH (the tests' conftest sets it)."""
    unset = ("PYTHONPATH", "PYTHONSAFEPATH")
    return {k: v for k, v in os.environ.items() if k not in unset}


@pytest.mark.skipif(sys.platform == "win32", reason="run on a system with forkserver")
def test_the_workers_import_the_package_the_script_imported(tmp_path: Path) -> None:
    """The forkserver preloads ofc_fast with its own module path (Python ignores the
    parent's; 3.10 and 3.11 alike): a script that put a copy of ofc_fast on ``sys.path``, run from a
    folder holding another ``ofc_fast`` (a source checkout), had workers running that
    other copy.  They now import what the script imported."""
    decoy = tmp_path / "ofc_fast"
    decoy.mkdir()
    (decoy / "__init__.py").write_text("", encoding="utf-8")  # another ofc_fast
    (tmp_path / "app").mkdir()
    script = tmp_path / "app" / "where.py"
    script.write_text(WHERE, encoding="utf-8")
    root = str(Path(__import__("ofc_fast").__file__).parent.parent)
    env = _environ_without_path()
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


ENVIRON = """\
import ast
import os
import subprocess
import sys

sys.path.insert(0, sys.argv[2])  # the package under test
from ofc_fast.parallel import ProcessExecutor

VARIABLES = ("PYTHONPATH", "PYTHONSAFEPATH")


def look(_):
    bot = subprocess.run([sys.executable, sys.argv[1]], capture_output=True, text=True)
    return [os.environ.get(k) for k in VARIABLES], bot.stdout.strip() or bot.stderr


if __name__ == "__main__":
    with ProcessExecutor(2) as ex:
        (_, (environ, bot)), = ex.map_unordered(look, [0])
    print(repr(([os.environ.get(k) for k in VARIABLES], environ, bot)))
"""


ROOT_OF_PACKAGE = str(Path(__import__("ofc_fast").__file__).parent.parent)
"""Where the package under test is (put first on the scripts' path)."""


def _run_in_workers(tmp_path: Path, env: dict[str, str]) -> tuple[Any, Any, str]:
    """Run :data:`ENVIRON` (a chunk that runs ``botdir/bot.py``, which imports a module
    beside it) with ``env``: the parent's variables, the worker's, and what the bot
    printed."""
    bot = tmp_path / "botdir"
    bot.mkdir(parents=True)
    (bot / "helper.py").write_text("X = 41\n", encoding="utf-8")
    (bot / "bot.py").write_text("import helper\nprint('ok', helper.X + 1)\n", "utf-8")
    script = tmp_path / "environ.py"
    script.write_text(ENVIRON, encoding="utf-8")
    args = [str(script), str(bot / "bot.py"), ROOT_OF_PACKAGE]
    parent, worker, printed = _printed_last(args, tmp_path, env)
    return parent, worker, printed


def _printed_last(args: list[str], cwd: Path, env: dict[str, str]) -> Any:
    """Run ``python *args`` in ``cwd`` with ``env``: the value of the last line it
    printed (a Python literal)."""
    done = subprocess.run(
        [sys.executable, *args],
        capture_output=True,
        text=True,
        timeout=120,
        cwd=cwd,
        env=env,
    )
    assert done.returncode == 0, done.stderr[-3000:]
    return ast.literal_eval(done.stdout.strip().splitlines()[-1])


@pytest.mark.skipif(sys.platform == "win32", reason="run on a system with forkserver")
def test_a_worker_has_the_parents_module_path_variables(tmp_path: Path) -> None:
    """The forkserver is started with this ``sys.path`` as its PYTHONPATH: its workers
    kept it (and PYTHONSAFEPATH=1), so every Python a bot or chunk started had them.
    A worker's variables are now the parent's: here unset, then set."""
    env = _environ_without_path()
    assert _run_in_workers(tmp_path / "unset", env)[:2] == ([None, None], [None, None])
    env.update(PYTHONPATH=str(tmp_path), PYTHONSAFEPATH="1")
    want = [str(tmp_path), "1"]
    assert _run_in_workers(tmp_path / "set", env)[:2] == (want, want)


@pytest.mark.skipif(sys.platform == "win32", reason="run on a system with forkserver")
def test_a_python_a_chunk_starts_imports_the_module_beside_its_script(
    tmp_path: Path,
) -> None:
    """``python botdir/bot.py`` run by a chunk imports ``helper`` from ``botdir`` as it
    does from the parent (it failed: the worker's PYTHONSAFEPATH=1)."""
    assert _run_in_workers(tmp_path, _environ_without_path())[2] == "ok 42"


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


POOL_AFTER = """\
import multiprocessing
import os
import sys

sys.path.insert(0, sys.argv[1])  # the package under test
from ofc_fast.parallel import ProcessExecutor


def look(_):
    return os.environ.get("PYTHONPATH")


if __name__ == "__main__":
    with ProcessExecutor(2) as ex:
        list(ex.map_unordered(look, [0]))
    with multiprocessing.get_context("forkserver").Pool(1) as pool:
        print(repr(pool.map(look, [0])[0]))
"""


@pytest.mark.skipif(sys.platform == "win32", reason="run on a system with forkserver")
def test_a_users_forkserver_pool_has_the_parents_module_path(tmp_path: Path) -> None:
    """The forkserver our ProcessExecutor started kept this ``sys.path`` as its
    PYTHONPATH: a user's own forkserver pool (started after, from the same server)
    had it, and every Python it started loaded this interpreter's paths.  Its
    workers now have the parent's PYTHONPATH: unset, then set."""
    script = tmp_path / "after.py"
    script.write_text(POOL_AFTER, encoding="utf-8")
    env = _environ_without_path()
    for want in (None, str(tmp_path)):
        if want is not None:
            env["PYTHONPATH"] = want
        assert _printed_last([str(script), ROOT_OF_PACKAGE], tmp_path, env) == want


def test_the_forkserver_preloads_where_the_working_directory_has_no_ofc_fast(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Under an editable install ofc_fast is found by its own finder, not on
    ``sys.path``: the forkserver preloaded nothing (a slow first result).  It now
    preloads the package unless the working directory holds another ofc_fast."""
    from multiprocessing import forkserver, resource_tracker

    from ofc_fast.parallel import _executors

    preloads: list[list[str]] = []

    class Context:  # (records what the forkserver is told to preload)
        def set_forkserver_preload(self, names: list[str]) -> None:
            preloads.append(list(names))

    def preload() -> list[str]:
        _executors._start_forkserver(Context())
        return preloads[-1]

    monkeypatch.setattr(forkserver, "ensure_running", lambda: None)
    monkeypatch.setattr(resource_tracker, "ensure_running", lambda: None)
    want = ["ofc_fast.parallel._forkserver_env", "ofc_fast.parallel._plan", "ofc_fast.bots"]
    package = Path(_executors.__file__).resolve().parent.parent
    # (as an editable install: no folder of sys.path holds ofc_fast)
    path = [p for p in sys.path if not (Path(p or ".") / "ofc_fast").is_dir()]
    monkeypatch.setattr(sys, "path", path)
    monkeypatch.chdir(tmp_path)
    assert preload() == want
    monkeypatch.chdir(package.parent)  # (this ofc_fast)
    assert preload() == want
    (tmp_path / "ofc_fast").mkdir()
    (tmp_path / "ofc_fast" / "__init__.py").write_text("", encoding="utf-8")
    monkeypatch.chdir(tmp_path)  # (another ofc_fast)
    assert preload() == []


REGISTERED_IN_MAIN = """\
from ofc_fast.bots import RandomBot, register
from ofc_fast.parallel import RunSpec, make_executor, play_parallel


def coin(rules=None, seed=None):
    return RandomBot(seed)


if __name__ == "__main__":
    register("coin", coin)
    spec = RunSpec.make("pineapple", players=2, seed=7, hands=4, bots=[("coin", {})])
    with make_executor(workers=2) as pool:
        play_parallel(spec, pool, chunk_size=2)
"""


def test_a_bot_registered_in_the_parent_only_is_explained(tmp_path: Path) -> None:
    """A bot registered under ``if __name__ == "__main__":`` (or in a notebook) is
    known to the script, whose ``RunSpec.make`` accepts it, not to the workers, which
    said "unknown bot 'coin'; known bots: heuristic, random, ..." of the bot the
    script had just registered.  The error says that the workers do not know it and
    how to register it so that they do."""
    done = run_as_script(tmp_path, "registered.py", REGISTERED_IN_MAIN)
    assert done.returncode == 1
    last = done.stderr.strip().splitlines()[-1]
    assert last.startswith("ofc_fast.errors.UnknownBotError: unknown bot 'coin'"), last
    assert "at the main script's top level" in last and "module:attribute" in last, last


def test_a_ctrl_c_as_the_forkserver_s_environment_is_set_sets_it_back(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """Regression: the forkserver's start set this process's ``PYTHONPATH`` (to its
    ``sys.path``) and the variable that saves the old one, and only then entered the
    ``try`` that sets them back: a Ctrl-C landing in between left them changed for
    the rest of the process, so every Python it started later ran with this
    ``sys.path``.  Here KeyboardInterrupt is raised as ``PYTHONPATH`` is set."""
    from multiprocessing import forkserver, resource_tracker

    from ofc_fast.parallel import _executors, _forkserver_env

    class Environ:  # os.environ, whose PYTHONPATH is set as a Ctrl-C comes
        def __getattr__(self, name: str) -> Any:
            return getattr(os.environ, name)

        def __setitem__(self, key: str, value: str) -> None:
            os.environ[key] = value
            if key == "PYTHONPATH":
                raise KeyboardInterrupt

    class Os:  # the os module, with that environment
        environ = Environ()

        def __getattr__(self, name: str) -> Any:
            return getattr(os, name)

    class Context:
        def set_forkserver_preload(self, names: list[str]) -> None:
            assert names  # (the environment is changed only for a preload)

    monkeypatch.setattr(forkserver, "ensure_running", lambda: None)
    monkeypatch.setattr(resource_tracker, "ensure_running", lambda: None)
    monkeypatch.setattr(_executors, "_preload", lambda: ["ofc_fast.bots"])
    monkeypatch.setenv("PYTHONPATH", "before")
    monkeypatch.setattr(_executors, "os", Os())
    with pytest.raises(KeyboardInterrupt):
        _executors._start_forkserver(Context())
    changed = os.environ.get("PYTHONPATH"), os.environ.get(_forkserver_env.SAVED)
    monkeypatch.undo()
    os.environ.pop(_forkserver_env.SAVED, None)
    assert changed == ("before", None)
