"""Every docstring example of the installed package runs and gives what it shows."""

from __future__ import annotations

import contextlib
import doctest
import importlib
import inspect
import pkgutil
from types import ModuleType

import pytest

import ofc_fast

# Every module, the private ones too (a package's helpers live in its ``_modules``),
# but the entry point and the compiled layer ``ofc_fast._native``.
MODULES = sorted(
    m.name
    for m in pkgutil.walk_packages(ofc_fast.__path__, "ofc_fast.")
    if not m.name.endswith(".__main__") and not m.name.startswith("ofc_fast._native")
)


# Packages of optional extras a module may need (ofc_fast.env.sb3: rl-train).
OPTIONAL = {"stable_baselines3": "rl-train", "sb3_contrib": "rl-train", "torch": "rl-train"}


def _module(name: str) -> ModuleType:
    """The module ``name``; the test skips, saying what to install, when it needs an
    optional extra that is not installed."""
    try:
        return importlib.import_module(name)
    except ImportError as exc:
        top = (exc.name or "").split(".")[0]
        if top not in OPTIONAL:
            raise
        pytest.skip(f"{name} needs {top}: pip install .[{OPTIONAL[top]}]")


@pytest.mark.parametrize("name", ["ofc_fast"] + MODULES)
def test_docstring_examples(name: str) -> None:
    module = _module(name)
    result = doctest.testmod(module, optionflags=doctest.ELLIPSIS)
    assert result.failed == 0, f"{result.failed} doctest(s) failed in {name}"


# The modules whose every exported class and function shows an example (the
# package's names, the core's modules, the environments and their trainer adapters,
# the parallel runs, the arena, the bots and the game flow; an example that needs an
# optional extra skips with its module, one that needs a running Ray cluster or a
# host to talk to is marked ``# doctest: +SKIP``).
EXAMPLED = [
    "ofc_fast", "ofc_fast.cards", "ofc_fast.ranking", "ofc_fast.board", "ofc_fast.batch",
    "ofc_fast.fantasyland", "ofc_fast.solver", "ofc_fast.table", "ofc_fast.encoding",
    "ofc_fast.rules", "ofc_fast.rules.compiled", "ofc_fast.rules.game_ids",
    "ofc_fast.scoring", "ofc_fast.search", "ofc_fast.env", "ofc_fast.env.gym",
    "ofc_fast.env.aec", "ofc_fast.env.sb3", "ofc_fast.env.imitation",
    "ofc_fast.parallel", "ofc_fast.parallel.selfplay", "ofc_fast.parallel.tournament",
    "ofc_fast.parallel.cli", "ofc_fast.serve", "ofc_fast.serve.cli",
    "ofc_fast.learned", "ofc_fast.cli", "ofc_fast.cli.options", "ofc_fast.timing",
    "ofc_fast.arena", "ofc_fast.arena.client", "ofc_fast.arena.history",
    "ofc_fast.arena.html", "ofc_fast.arena.report", "ofc_fast.arena.cli",
    "ofc_fast.bots", "ofc_fast.bots.base", "ofc_fast.bots.heuristic",
    "ofc_fast.bots.model", "ofc_fast.bots.policy", "ofc_fast.bots.random",
    "ofc_fast.bots.registry", "ofc_fast.bots.search", "ofc_fast.bots.value",
    "ofc_fast.game", "ofc_fast.game.history", "ofc_fast.game.match",
    "ofc_fast.game.moves", "ofc_fast.game.observation", "ofc_fast.game.result",
    "ofc_fast.game.state",
]  # fmt: skip


@pytest.mark.parametrize("name", EXAMPLED)
def test_every_public_class_and_function_shows_an_example(name: str) -> None:
    """Each class and function these modules export has a short example in its
    docstring, as the project's style asks (``Board``, ``Game``, ``Match``, ``settle``,
    ``score_pairs``, ``RuleSet``, ``encode``, ... had none; so had ``ProcessExecutor``,
    ``RayExecutor``, ``selfplay``, ``run_arena``, ``export_policy``, ``Arena``,
    ``HeuristicBot``, ``make_bot``, ``moves_for``, ``play_out``, ...); the test above
    runs them."""
    module = _module(name)
    names = [
        n
        for n in module.__all__
        if (inspect.isclass(obj := getattr(module, n)) or callable(obj))
        and not (inspect.isclass(obj) and issubclass(obj, BaseException))
        # a type alias of typing's (learned.ModelSpec = Any) has typing's docstring
        and getattr(obj, "__module__", "ofc_fast").startswith("ofc_fast")
    ]
    bare = [n for n in names if ">>>" not in (inspect.getdoc(getattr(module, n)) or "")]
    assert bare == []


def test_the_bot_client_examples_need_no_port_free_on_the_machine() -> None:
    """Regression: ``test_docstring_examples[ofc_fast.arena.client]`` failed once on a
    busy machine and passed alone: its ``play_bot(connect=1)`` example took port 1 to
    have no listener, which another process on the machine may hold.  The example now
    holds a port of its own, never listening; run here with a listener on port 1."""
    import socket
    import threading

    listener = socket.socket()
    listener.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)  # (a TIME_WAIT)
    try:
        listener.bind(("127.0.0.1", 1))
    except OSError as exc:
        listener.close()
        pytest.skip(f"binds 127.0.0.1:1 ({exc.strerror}): run on a machine as root")
    with listener:
        listener.listen()

        def hang_up() -> None:
            try:
                conn, _ = listener.accept()
                conn.close()
            except OSError:  # (closed: nothing connected)
                pass

        waiter = threading.Thread(target=hang_up, daemon=True)
        waiter.start()
        module = importlib.import_module("ofc_fast.arena.client")
        try:
            result = doctest.testmod(module, optionflags=doctest.ELLIPSIS)
        finally:  # (wakes the accept still waiting, so that port 1 is let go)
            with contextlib.suppress(OSError):
                listener.shutdown(socket.SHUT_RDWR)
            waiter.join(10)
    assert result.failed == 0, f"{result.failed} doctest(s) failed with port 1 taken"
