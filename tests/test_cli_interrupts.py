"""Ctrl-C in the first tenths of a second of an ``ofc-fast`` command, while the
command line itself loads (NumPy, the C library, the parsers of every subcommand)."""

from __future__ import annotations

import re
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest

POSIX = pytest.mark.skipif(sys.platform == "win32", reason="run on POSIX (SIGINT)")

_RUN_AS_OFC_FAST = """
from ofc_fast.__main__ import main  # (as the console script: pyproject.toml)
sys.exit(main(sys.argv[2:]))
"""


@POSIX
@pytest.mark.parametrize(
    "module",
    ["numpy", "ofc_fast.cli", "ofc_fast.rules", "ofc_fast.arena.cli", "ofc_fast.serve.cli"],
)
def test_ctrl_c_while_the_command_line_loads_is_one_line(module: str) -> None:
    """Regression: a Ctrl-C in the first 0.2-0.4 s of any ``ofc-fast`` command (as
    ``import ofc_fast`` loaded NumPy and the package, before the command's Ctrl-C
    handling was in place) printed a KeyboardInterrupt traceback and ended by the
    signal; it now says ``ofc-fast: interrupted``, exit status 130, as later.  Here
    the Ctrl-C comes as the import of each heavy part first reaches it."""
    from interrupts import CTRL_C_AT_IMPORT
    from scripts import package_env

    script = CTRL_C_AT_IMPORT + _RUN_AS_OFC_FAST
    argv = [sys.executable, "-c", script, module, "play", "--hands", "10000000"]
    done = subprocess.run(
        argv, capture_output=True, text=True, timeout=120, env=package_env()
    )
    assert (done.returncode, done.stderr) == (130, "ofc-fast: interrupted\n")


@POSIX
@pytest.mark.parametrize(
    "command",
    [
        ["play", "--hands", "10000000"],
        ["arena", "--bot", "random", "--bot", "random", "--hands", "10000000"],
        ["bench"],
        ["advise", "--dealt", "As Kd 9h 9c 4s"],
        # (solve ends within 0.2 s: its rules read from a pipe kept open, it waits)
        ["solve", "--rules", "-", "Ad Ah Th Jh 6h Ts 5d 3c Tc 3s 7h Qh 3d 9s"],
        ["serve", "--port", "0"],
    ],
    ids=lambda c: c[0],
)
def test_an_early_ctrl_c_ends_every_command_with_status_130(command: list[str]) -> None:
    """Regression: ``ofc-fast play`` (and every other command) stopped by Ctrl-C
    0.2-0.5 s after it started ended with a KeyboardInterrupt traceback, by the
    signal; each now ends with exit status 130 and no traceback, whether the Ctrl-C
    lands while it loads or once it runs.  One in the first hundredths of a second,
    while Python itself starts, is Python's own (docs/cli.md)."""
    from scripts import package_env

    stopped = 0
    for delay in (0.2, 0.3, 0.4, 0.5):
        proc = subprocess.Popen(
            [sys.executable, "-m", "ofc_fast", *command],
            stdin=subprocess.PIPE if "-" in command else subprocess.DEVNULL,
            stdout=subprocess.PIPE,
            stderr=subprocess.PIPE,
            text=True,
            env=package_env(),
        )
        try:
            time.sleep(delay)
            proc.send_signal(signal.SIGINT)
            _, err = proc.communicate(timeout=60)
        finally:
            proc.kill()
            proc.wait()
        if proc.returncode == 0:  # (done before the Ctrl-C came: a quick command)
            continue
        if proc.returncode != 130 and _before_the_package_ran(err):
            continue  # (a loaded machine: Python still starting, its site packages)
        assert proc.returncode == 130 and "Traceback" not in err, (delay, err)
        stopped += 1
    assert stopped, "no Ctrl-C came once the command had started"


def _before_the_package_ran(err: str) -> bool:
    """Whether the errors of an interrupted process say that the Ctrl-C came before
    the package's entry point ran (Python's own startup: its site packages, runpy
    finding the package): no traceback, or one whose frames in ``ofc_fast`` are only
    the top level of ``import ofc_fast`` and of ``ofc_fast.__main__``."""
    frames = re.findall(r'File "([^"]*)", line \d+, in (\S+)', err)
    return all(
        re.search(r"ofc_fast[/\\]", path) is None
        or (
            re.search(r"ofc_fast[/\\](__init__|__main__|lazy)\.py$", path)
            and func == "<module>"
        )
        for path, func in frames
    )


_TRAIN = [
    "--rules", "pineapple", "--seed", "1", "--deals", "40", "--eval-deals", "4",
    "--opponent-deals", "40", "--samples", "4", "--epochs", "2", "--quiet",
]  # fmt: skip


@POSIX
@pytest.mark.parametrize(
    "module",
    [
        "numpy",
        "ofc_fast.learned.model",
        "ofc_fast.parallel",
        "ofc_fast.learned._fit",
        "torch",
    ],
)
def test_ctrl_c_while_the_training_command_loads_is_one_line(
    module: str, tmp_path: Path
) -> None:
    """Regression: ``python -m ofc_fast.learned.train ... --out X`` (docs/learned.md)
    stopped by Ctrl-C in its first half second ended by the signal with a
    KeyboardInterrupt traceback (its imports, torch's, ran before ``main()``'s
    Ctrl-C handling); it now says ``...: interrupted``, exit status 130, as
    ``ofc-fast`` does.  Here the Ctrl-C comes as the import of each heavy part first
    reaches it, the module run as ``python -m`` runs it (runpy); one as runpy finds
    the module itself is Python's own (docs/cli.md)."""
    pytest.importorskip("torch", reason='pip install ".[learn]" (docs/learned.md)')
    from interrupts import CTRL_C_AT_IMPORT
    from scripts import package_env

    script = CTRL_C_AT_IMPORT + _RUN_AS_MODULE
    out = str(tmp_path / "model")
    argv = [sys.executable, "-c", script, module, *_TRAIN, "--out", out]
    done = subprocess.run(
        argv, capture_output=True, text=True, timeout=120, env=package_env()
    )
    said = (  # (torch: loaded by main(), whose own Ctrl-C handling says this)
        "python -m ofc_fast.learned.train: interrupted\n",
        f"interrupted before the first step: nothing was saved in {out}\n",
    )
    assert done.returncode == 130 and done.stderr in said, done.stderr


_RUN_AS_MODULE = """
import runpy  # (as python -m ofc_fast.learned.train: sys.argv[0] its path)
sys.argv = [sys.argv[0], *sys.argv[2:]]
runpy.run_module("ofc_fast.learned.train", run_name="__main__", alter_sys=True)
"""
