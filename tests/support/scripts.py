"""Scripts of a source checkout (benchmarks/, tools/) loaded as modules by the tests."""

from __future__ import annotations

import importlib.util
import json
import os
import socket
import subprocess
import sys
from collections.abc import Callable
from pathlib import Path
from types import ModuleType
from typing import Any

import pytest

ROOT = Path(__file__).resolve().parents[2]


def load_script(path: Path, name: str | None = None) -> ModuleType:
    """The module a script file defines, executed once per call."""
    spec = importlib.util.spec_from_file_location(name or path.stem, path)
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    sys.modules[spec.name] = module  # as an import would: a dataclass looks it up
    spec.loader.exec_module(module)
    return module


def checkout_script(relative: str) -> ModuleType:
    """A script of the source checkout (``benchmarks/bench_search.py``), or a skip
    where the tests run without one."""
    return load_script(checkout_file(relative))


def checkout_file(relative: str) -> Path:
    """A file of the source checkout (``docs/cli.md``, ``tools/x.py``), or a skip where
    the tests run without one (the installed-wheel run of tools/check_dist.sh)."""
    path = ROOT / relative
    if not path.exists():
        pytest.skip(f"needs a source checkout (git clone: {relative})")
    return path


def package_env() -> dict[str, str]:
    """The environment of a subprocess that imports the package under test (first on
    its path, whatever is installed)."""
    env = dict(os.environ)
    package_root = str(Path(__import__("ofc_fast").__file__).parent.parent)
    env["PYTHONPATH"] = os.pathsep.join([package_root, env.get("PYTHONPATH", "")])
    return env


def last_json_line(code: str) -> Any:
    """The JSON of the last line that ``python -c code`` prints in a fresh interpreter
    that imports the package under test (the process must exit with status 0)."""
    out = subprocess.run(
        [sys.executable, "-c", code],
        capture_output=True,
        text=True,
        timeout=120,
        check=True,
        env=package_env(),
    ).stdout
    return json.loads(out.splitlines()[-1])


def free_port() -> int:
    """A TCP port of 127.0.0.1 that nothing listens on now (for a server or a ``tcp:``
    seat the test starts next)."""
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return int(probe.getsockname()[1])


def run_as_script(tmp_path: Path, name: str, code: str) -> subprocess.CompletedProcess[str]:
    """``code`` written to ``tmp_path/name`` and run by this Python as a script in
    ``tmp_path``, the package under test first on its path (a process pool's workers
    then import it too); the finished process, its output as text."""
    path = tmp_path / name
    path.write_text(code, encoding="utf-8")
    env = package_env()
    return subprocess.run(
        [sys.executable, str(path)],
        capture_output=True,
        text=True,
        timeout=120,
        cwd=tmp_path,
        env=env,
    )


def usage_error(
    capsys: pytest.CaptureFixture[str], main: Callable[..., Any], *args: Any
) -> tuple[str, str]:
    """``main(*args)`` (a script's ``main``: without ``args`` it reads ``sys.argv``)
    stopped with exit status 2, argparse's usage error; its standard output and
    standard error."""
    with pytest.raises(SystemExit) as info:
        main(*args)
    assert info.value.code == 2
    out, err = capsys.readouterr()
    return out, err


def refuse_writes_in(monkeypatch: pytest.MonkeyPatch, folder: Path) -> None:
    """``os.open`` for writing in ``folder`` fails with Permission denied (a folder
    that takes no files: read-only, another user's), as root may write anywhere."""
    opened = os.open

    def read_only(path: Any, flags: int, *args: Any, **kwargs: Any) -> int:
        if Path(path).parent == folder and flags & (os.O_WRONLY | os.O_RDWR):
            raise PermissionError(13, "Permission denied", str(path))
        return opened(path, flags, *args, **kwargs)

    monkeypatch.setattr(os, "open", read_only)
