"""Fault injection: clients that send garbage, malformed or illegal actions,
over-long lines, answer late, hang, or exit mid-hand.  Faults are counted per kind,
the match finishes, and the other bot's play is untouched (the filler the arena
substitutes is what the tiny client would have played, so the deals are the same as
a clean match's)."""

from __future__ import annotations

import io
import json
import sys
import time
from pathlib import Path
from typing import Any

import pytest

from ofc_fast.arena import Arena, parse_bot_spec
from ofc_fast.arena.report import read_report, without_timings
from ofc_fast.bots import register, unregister
from ofc_fast.errors import ArenaError

TINY = Path(__file__).parent / "arena_clients" / "tiny_client.py"


# A deadline no on-time answer misses, even with three test suites sharing two cores
# (CI's check_dist runs them at once); only the deadline tests use a short one, and
# there the late client sleeps half a deadline past it (so its stale answer arrives
# while the next decision it is asked for still has half a deadline to go).
ROOMY_MS = 10_000
SHORT_MS = 1_000
LATE_S = 1.5


def match(
    mode: str, policy: str = "substitute", timeout_ms: int = ROOMY_MS, hands: int = 3
) -> dict[str, Any]:
    bots = [
        parse_bot_spec("heuristic"),
        parse_bot_spec(f"tiny@cmd:{sys.executable} {TINY} - {mode} {LATE_S}"),
    ]
    return Arena(
        "ofc-pineapple", bots, hands, seed=21, timeout_ms=timeout_ms, fault_policy=policy
    ).run()


@pytest.fixture(scope="module")
def clean() -> dict[str, Any]:
    return match("good")


@pytest.mark.parametrize(
    "mode, kind",
    [
        ("garbage", "garbage"),
        ("illegal", "illegal"),
        ("malformed", "malformed"),
        ("overlong", "overlong"),
        ("late", "timeout"),
    ],
)
def test_faults_are_counted_and_nothing_else_changes(
    mode: str, kind: str, clean: dict[str, Any]
) -> None:
    report = match(mode, timeout_ms=SHORT_MS if mode == "late" else ROOMY_MS)
    bad = report["bots"][1]
    decisions = 3 * 5  # 3 hands of 5 decisions; every third one misbehaves
    assert report["hands"] == 3 and bad["fault_kinds"] == {kind: decisions // 3}
    assert report["bots"][0]["faults"] == 0
    same = without_timings(report)
    for b in same["bots"]:
        b.update(faults=0, fault_kinds={}, substituted=0)
    assert [b["points"] for b in same["bots"]] == [b["points"] for b in clean["bots"]]
    assert bad["decisions"]["count"] == decisions


def test_clean_match_has_no_faults(clean: dict[str, Any]) -> None:
    assert all(b["faults"] == 0 and b["substituted"] == 0 for b in clean["bots"])
    assert clean["bots"][0]["points"] != 0  # the comparisons below can see a change


def test_exit_mid_hand_is_one_disconnect(clean: dict[str, Any]) -> None:
    report = match("exit")
    bad = report["bots"][1]
    assert report["hands"] == 3 and bad["fault_kinds"] == {"disconnect": 1}
    assert bad["substituted"] == 15 - 3
    assert [b["points"] for b in report["bots"]] == [b["points"] for b in clean["bots"]]


def test_a_hanging_bot_is_killed_at_its_deadline() -> None:
    t0 = time.monotonic()
    report = match("hang", timeout_ms=SHORT_MS)
    assert time.monotonic() - t0 < 30
    bad = report["bots"][1]
    assert report["hands"] == 3 and bad["fault_kinds"] == {"timeout": 2}
    assert bad["substituted"] == 15 - 3


def test_forfeit_ends_the_match_at_the_first_fault() -> None:
    report = match("illegal", policy="forfeit")
    assert report["forfeited_by"] == "tiny" and report["hands"] == 0
    assert report["bots"][1]["faults"] == 1
    # what a forfeit writes is read back (check_report's forfeited_by checks)
    assert read_report(io.BytesIO(json.dumps(report).encode())) == report


def test_unknown_messages_are_ignored(clean: dict[str, Any]) -> None:
    report = match("unknown")
    assert all(b["faults"] == 0 for b in report["bots"])
    strip = [{**b, "kind": None} for b in without_timings(report)["bots"]]
    assert strip == [{**b, "kind": None} for b in without_timings(clean)["bots"]]


class Crasher:
    def __init__(self, error: type[Exception]) -> None:
        self.error = error

    def act(self, observation: Any) -> Any:
        raise self.error("boom")


@pytest.mark.parametrize("error", [RuntimeError, ValueError])
def test_a_crashing_builtin_bot_never_takes_the_arena_down(error: type) -> None:
    register("crasher", lambda rules=None, seed=None: Crasher(error), replace=True)
    try:
        report = Arena(
            "ofc", [parse_bot_spec("crasher"), parse_bot_spec("random")], 2, seed=1
        ).run()
    finally:
        unregister("crasher")
    assert report["hands"] == 2 and report["bots"][0]["fault_kinds"] == {"crash": 1}
    assert report["bots"][0]["substituted"] == 2 * 9


@pytest.mark.parametrize(
    "code, said",
    [
        (
            "class Bot:\n    def __init__(self, **kw):\n        raise OSError('no model')\n",
            "OSError making the bot: no model",
        ),
        ("raise RuntimeError('no model')\n", "RuntimeError importing"),
        ("x = (\n", "SyntaxError importing"),
    ],
    ids=["constructor", "import", "syntax"],
)
def test_a_bot_spec_whose_own_code_raises_is_one_line_and_exit_2(
    code: str,
    said: str,
    tmp_path: Path,
    monkeypatch: pytest.MonkeyPatch,
    capsys: pytest.CaptureFixture[str],
) -> None:
    """``--bot mod:Bot`` whose class raised in ``__init__``, or whose module raised
    (or did not compile) on import, was a traceback, exit status 1."""
    from ofc_fast import cli

    module = f"faulty_bots_{said.split()[0].lower()}"
    (tmp_path / f"{module}.py").write_text(code, encoding="utf-8")
    monkeypatch.syspath_prepend(str(tmp_path))
    argv = ["arena", "--bot", f"{module}:Bot", "--bot", "random", "--hands", "1"]
    status = cli.main(argv)
    err = capsys.readouterr().err
    assert status == 2 and err.count("\n") == 1, err
    assert err.startswith(f"ofc-fast: error: --bot: bot '{module}:Bot': {said}"), err


def test_the_seed_is_checked_when_the_arena_is_made() -> None:
    """``Arena(seed=-1)`` (or ``"7"``, ``None``) was taken, and the match failed at its
    first deal, its bots already started; a NumPy seed went into the report as it was,
    which ``json.dumps`` refused."""
    import json

    import numpy as np

    from ofc_fast.errors import TableError

    bots = [parse_bot_spec("random")] * 2
    for bad in (-1, 2**64, "7", 1.5, None):
        with pytest.raises(TableError, match=r"^seed: must be 0\.\.2\*\*64-1, got "):
            Arena("ofc", bots, 1, seed=bad)  # type: ignore[arg-type]
    report = Arena("ofc", bots, 1, seed=np.uint64(3)).run()  # type: ignore[arg-type]
    assert type(report["seed"]) is int and json.loads(json.dumps(report))["seed"] == 3


def test_duplicate_and_connect_timeout_are_checked_when_the_arena_is_made() -> None:
    """``Arena(duplicate="no")`` played a duplicate match (any truthy value was
    taken); ``connect_timeout_s=nan``, 0 or a negative number was taken, and every
    ``tcp:`` seat then timed out at once."""
    from ofc_fast.errors import ArenaError

    bots = [parse_bot_spec("random")] * 2
    for bad in ("no", "yes", 1, None):
        with pytest.raises(ArenaError, match=r"^duplicate must be True or False, got "):
            Arena("ofc", bots, 1, duplicate=bad)  # type: ignore[arg-type]
    for wrong in (float("nan"), -1, 0, 0.0, float("inf"), 2 * 86400, True, "5"):
        with pytest.raises(ArenaError, match=r"^connect_timeout_s must be seconds above"):
            Arena("ofc", bots, 1, connect_timeout_s=wrong)  # type: ignore[arg-type]
    arena = Arena("ofc", bots, 1, duplicate=False, connect_timeout_s=0.5)
    assert (arena.duplicate, arena.connect_timeout_s) == (False, 0.5)


def test_bots_that_are_no_bot_specs_are_an_arena_error() -> None:
    """``Arena("ofc", ["random", "random"], 2)`` (spec text, not ``parse_bot_spec``)
    raised AttributeError: 'str' object has no attribute 'name'; ``bots=None`` a
    TypeError."""
    from ofc_fast.errors import ArenaError

    spec = parse_bot_spec("random")
    for bots, said in (
        (
            ["random", "random"],
            r"^bots\[0\]: expected a BotSpec \(parse_bot_spec\), got 'random'",
        ),
        ([spec, 7], r"^bots\[1\]: expected a BotSpec \(parse_bot_spec\), got 7"),
        (None, r"^bots: expected a list of BotSpec, got None"),
        ("random", r"^bots: expected a list of BotSpec, got 'random'"),
    ):
        with pytest.raises(ArenaError, match=said):
            Arena("ofc", bots, 2)  # type: ignore[arg-type]


def test_a_command_that_does_not_exist() -> None:
    from ofc_fast.errors import ArenaError

    with pytest.raises(ArenaError, match="cannot start"):
        Arena(
            "ofc", [parse_bot_spec("random"), parse_bot_spec("cmd:/nonexistent/bot")], 1
        ).run()


def test_a_crash_is_a_crash_in_the_history_too() -> None:
    """A built-in bot that raised was counted a ``crash`` in the report, but its
    decision in the hand history (``--history``) said ``"fault": "disconnect"``."""
    register("crasher", lambda rules=None, seed=None: Crasher(RuntimeError), replace=True)
    deals: list[Any] = []
    try:
        report = Arena(
            "ofc",
            [parse_bot_spec("random"), parse_bot_spec("crasher")],
            1,
            seed=1,
            on_deal=deals.append,
        ).run()
    finally:
        unregister("crasher")
    assert report["bots"][1]["fault_kinds"] == {"crash": 1}
    (deal,) = deals
    faults = [
        d["fault"] for d in deal.decisions if d["seat"] == deal.seats.index("crasher")
    ]
    assert faults == ["crash"] + ["substituted"] * 8


@pytest.mark.parametrize("parallel", [False, True], ids=["sequential", "workers"])
def test_a_bot_that_returns_no_move_is_a_crash(parallel: bool) -> None:
    """A built-in bot whose ``act`` returned None had the filler played for it every
    decision of the match, and the report said no fault and nothing substituted (with
    ``--workers``: an ``illegal`` fault each time)."""
    from ofc_fast.parallel.tournament import run_arena

    class Silent:
        def reset(self, seed: Any = None) -> None:
            pass

        def act(self, observation: Any) -> Any:
            return None

    register("silent", lambda rules=None, seed=None: Silent(), replace=True)
    try:
        arena = Arena("ofc", [parse_bot_spec("random"), parse_bot_spec("silent")], 2)
        report = run_arena(arena) if parallel else arena.run()
    finally:
        unregister("silent")
    bot = report["bots"][1]
    assert (bot["fault_kinds"], bot["substituted"], bot["stopped"]) == (
        {"crash": 1},
        2 * 9,
        "crashed",
    )


@pytest.mark.parametrize("parallel", [False, True], ids=["sequential", "workers"])
@pytest.mark.parametrize("error", [SystemExit, GeneratorExit], ids=lambda e: e.__name__)
def test_a_bot_that_raises_system_exit_is_a_crash(parallel: bool, error: type) -> None:
    """A built-in bot whose ``act`` raised SystemExit (or another BaseException, such
    as GeneratorExit) ended ``ofc-fast arena`` with the bot's exit status and no
    report, sequential or with ``--workers``; Ctrl-C (KeyboardInterrupt) still stops
    the match."""
    from ofc_fast.parallel.tournament import run_arena

    class Quitter:
        def __init__(self, error: type[BaseException]) -> None:
            self.error = error

        def reset(self, seed: Any = None) -> None:
            pass

        def act(self, observation: Any) -> Any:
            raise self.error(3)

    def play(error: type[BaseException]) -> dict[str, Any]:
        register("quitter", lambda rules=None, seed=None: Quitter(error), replace=True)
        try:
            bots = [parse_bot_spec("random"), parse_bot_spec("quitter")]
            arena = Arena("ofc", bots, 2, seed=4)
            return run_arena(arena) if parallel else arena.run()
        finally:
            unregister("quitter")

    bot = play(error)["bots"][1]
    assert (bot["fault_kinds"], bot["substituted"], bot["stopped"]) == (
        {"crash": 1},
        2 * 9,
        "crashed",
    )
    with pytest.raises(KeyboardInterrupt):
        play(KeyboardInterrupt)


@pytest.mark.parametrize("again", ["run", "run_arena"])
def test_an_arena_plays_one_match(again: str) -> None:
    """A second ``run()`` (or ``run_arena``) of the same Arena appended a second set
    of bot records: its report listed four bots for two seats (each name twice, a
    report ``check_report`` refuses) and counted the first match's hands again.  It
    is an ArenaError; the first report stands."""
    from ofc_fast.errors import ArenaError
    from ofc_fast.parallel.tournament import run_arena

    arena = Arena("pineapple", [parse_bot_spec("random")] * 2, hands=2, seed=1)
    first = arena.run()
    with pytest.raises(ArenaError, match="plays one match"):
        arena.run() if again == "run" else run_arena(arena)
    assert [b["hands"] for b in first["bots"]] == [2, 2]
    assert arena.hands_done == 2 and len(arena.records) == 2
    parallel = Arena("pineapple", [parse_bot_spec("random")] * 2, hands=2, seed=1)
    run_arena(parallel)
    with pytest.raises(ArenaError, match="plays one match"):
        parallel.run() if again == "run" else run_arena(parallel)
    assert parallel.hands_done == 2 and len(parallel.records) == 2


def test_two_tcp_seats_on_one_port_are_refused_naming_it() -> None:
    """``--bot tcp:P --bot tcp:P``: the second seat could not listen, and the error
    blamed the machine ("cannot listen on 127.0.0.1: Address already in use", the
    arena's own first seat holding the port).  Refused when the arena is made."""
    from ofc_fast.errors import ArenaError

    bots = [parse_bot_spec("a@tcp:45211"), parse_bot_spec("b@tcp:045211")]
    with pytest.raises(ArenaError, match=r"^--bot: two seats on one port, tcp:45211;"):
        Arena("pineapple", bots, 1)


def test_ctrl_c_while_a_hand_is_booked_books_it_whole() -> None:
    """A KeyboardInterrupt (a second Ctrl-C, or the first from Python) that came
    while a finished hand was being booked cut it half-way: its points were in the
    bots' records but not in the hand count, the duplicate sums or the history
    (``on_deal``), so the report of the hands played disagreed with itself and with
    its history.  Ctrl-C there waits for the hand to be booked whole (as a parallel
    run books its hands)."""
    import os
    import signal

    from ofc_fast.arena.report import match_report

    if not callable(signal.getsignal(signal.SIGINT)):
        pytest.skip("run on the main thread, with Python's own SIGINT handler")

    class Interrupted(Arena):
        def book(self, *args: Any) -> None:
            super().book(*args)
            if self.hands_done == 1:  # the second hand: Ctrl-C right after its points
                os.kill(os.getpid(), signal.SIGINT)

    seen: list[int] = []
    bots = [parse_bot_spec("random")] * 2
    arena = Interrupted("pineapple", bots, 4, seed=3, duplicate=True)
    arena.on_deal = lambda d: seen.append(d.hand_no)
    with pytest.raises(KeyboardInterrupt):
        arena.run()
    report = match_report(arena)
    assert seen == [0, 1]
    assert report["hands"] == 2 and [b["hands"] for b in report["bots"]] == [2, 2]
    assert report["duplicate"]["decks"] == 1


@pytest.mark.parametrize("parallel", [False, True], ids=["sequential", "workers"])
def test_kill_with_ctrl_c_ignored_books_the_hand_whole(parallel: bool) -> None:
    """``ofc-fast arena ... &`` from a script runs with SIGINT ignored; its ``kill``
    (SIGTERM, handled as Ctrl-C) then raised KeyboardInterrupt at once, not where a
    hand is booked whole: a match stopped while a hand was written to its history
    had a report counting that hand and a history without it (``ofc-fast report``
    refused the pair: "it holds 2886 deals, the report 2887 hands")."""
    import os
    import signal

    from ofc_fast.arena import sigterm_as_sigint
    from ofc_fast.arena.report import match_report
    from ofc_fast.parallel.tournament import run_arena

    if signal.getsignal(signal.SIGTERM) is not signal.SIG_DFL:
        pytest.skip("run on the main thread, with the default SIGTERM action")
    history: list[int] = []

    def on_deal(d: Any) -> None:  # the history writer: killed as it writes hand 1
        if d.hand_no == 1:
            os.kill(os.getpid(), signal.SIGTERM)
        history.append(d.hand_no)

    bots = [parse_bot_spec("random")] * 2
    arena = Arena("pineapple", bots, 4, seed=3, on_deal=on_deal)
    previous = signal.signal(signal.SIGINT, signal.SIG_IGN)
    try:
        with pytest.raises(KeyboardInterrupt), sigterm_as_sigint():
            run_arena(arena, chunk_size=1) if parallel else arena.run()
    finally:
        signal.signal(signal.SIGINT, previous)
    report = match_report(arena)
    assert history == [0, 1]
    assert report["hands"] == 2 and [b["hands"] for b in report["bots"]] == [2, 2]


def test_stop_ends_a_wait_with_a_deadline_at_once(tmp_path: Path) -> None:
    """With a deadline, :meth:`Arena.stop` (Ctrl-C, SIGTERM) came into effect only
    after the hand in progress: a hung bot held it for its two deadlines (here 40 s)
    before the match stopped.  The wait now ends at once: the hand in progress is
    dropped, unscored, and the report of the hands played says interrupted."""
    import threading

    log = tmp_path / "seen.log"
    bots = [
        parse_bot_spec("heuristic"),
        parse_bot_spec(f"tiny@cmd:{sys.executable} {TINY} {log} hang"),
    ]
    arena = Arena("ofc-pineapple", bots, 3, seed=21, timeout_ms=20_000)

    def stop_when_hung() -> None:  # the client hangs on its 4th act
        deadline = time.monotonic() + 60
        while time.monotonic() < deadline:
            text = log.read_text(encoding="utf-8") if log.exists() else ""
            if text.count('"t":"act"') >= 4:
                break
            time.sleep(0.05)
        time.sleep(0.3)
        arena.stop()

    stopper = threading.Thread(target=stop_when_hung, daemon=True)
    stopper.start()
    t0 = time.monotonic()
    report = arena.run()
    took = time.monotonic() - t0
    stopper.join()
    assert report["interrupted"] is True and report["hands"] == 0
    assert took < 15, f"stop waited {took:.1f} s for the hand in progress"


def test_stop_ends_a_wait_for_a_chatty_bot_with_no_deadline() -> None:
    """With no deadline, a bot that never answers but keeps sending lines (each one
    ended the wait's look for :meth:`Arena.stop`) held the match forever, Ctrl-C or
    not.  The wait now ends at once: the hand dropped, the report interrupted."""
    import threading

    hostile = Path(__file__).parent / "arena_clients" / "hostile_bot.py"
    bots = [
        parse_bot_spec("heuristic"),
        parse_bot_spec(f"bad@cmd:{sys.executable} {hostile} - chatter"),
    ]
    arena = Arena("ofc-pineapple", bots, 3, seed=21, timeout_ms=None)
    reports: list[dict[str, Any]] = []
    runner = threading.Thread(target=lambda: reports.append(arena.run()), daemon=True)
    runner.start()
    time.sleep(2.0)  # the bot is asked, and chatters
    arena.stop()
    runner.join(15)
    if runner.is_alive():  # (end the stream, so that the run can end)
        arena.records[1].endpoint.kill()
        runner.join(30)
    assert reports and reports[0]["interrupted"] is True and reports[0]["hands"] == 0
    assert not runner.is_alive() and len(reports) == 1


def test_stop_ends_the_wait_for_a_tcp_seat_at_once() -> None:
    """:meth:`Arena.stop` while a ``tcp:`` seat waited for its bot to join came into
    effect only at the seat's connect deadline (here 60 s).  The wait now ends at
    once; the report, of no hand, says interrupted."""
    import socket
    import threading

    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        port = probe.getsockname()[1]
    bots = [parse_bot_spec("random"), parse_bot_spec(f"late@tcp:{port}")]
    arena = Arena("ofc-pineapple", bots, 2, connect_timeout_s=60)
    threading.Timer(1.0, arena.stop).start()
    t0 = time.monotonic()
    report = arena.run()
    took = time.monotonic() - t0
    assert report["interrupted"] is True and report["hands"] == 0
    assert took < 20, f"stop waited {took:.1f} s for the seat's connect deadline"
    assert [b["faults"] for b in report["bots"]] == [0, 0]  # (the wait not its fault)


def test_stop_ends_a_hand_of_built_in_bots_at_its_next_decision() -> None:
    """With only built-in bots (``search``: about 1.5 s a hand), :meth:`Arena.stop`
    (Ctrl-C, SIGTERM) came into effect only after the hand in progress: each bot was
    still asked every decision left in it.  As with a client bot, the hand is now
    dropped at once, unscored, and no bot is asked another decision."""
    from ofc_fast.bots import RandomBot

    asked: list[int] = []
    arenas: list[Arena] = []

    class Stopper(RandomBot):
        def act(self, observation: Any) -> Any:
            asked.append(1)
            if len(asked) == 12:  # the second hand's third decision: Ctrl-C
                arenas[0].stop()
            return super().act(observation)

    register("stopper", lambda rules=None, seed=None: Stopper(seed), replace=True)
    deals: list[Any] = []
    try:
        bots = [parse_bot_spec("stopper"), parse_bot_spec("random")]
        arenas.append(Arena("ofc", bots, 5, seed=2, on_deal=deals.append))
        report = arenas[0].run()
    finally:
        unregister("stopper")
    # ofc: 9 decisions a seat a hand; the hand of the 12th is the second one
    assert len(asked) == 12, f"asked {len(asked)} decisions, the stop came at the 12th"
    assert report["interrupted"] is True and report["hands"] == 1
    assert [d.hand_no for d in deals] == [0]


def test_a_ctrl_c_as_sigterm_as_sigint_starts_leaves_sigterm_s_default(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """Regression: ``sigterm_as_sigint()`` set its SIGTERM handler and only then
    entered the ``try`` that sets the default back: a Ctrl-C landing just after it
    was set left it for the rest of the process (a later ``kill`` raised
    KeyboardInterrupt wherever the process was, where it ended it).  Here
    KeyboardInterrupt is raised right as the handler is set."""
    import signal

    from ofc_fast.arena import _signals, sigterm_as_sigint

    if signal.getsignal(signal.SIGTERM) is not signal.SIG_DFL:
        pytest.skip("run on the main thread, with the default SIGTERM action")

    class Interrupted:  # signal, whose signal() is interrupted as it returns
        def __getattr__(self, name: str) -> Any:
            return getattr(signal, name)

        @staticmethod
        def signal(signum: int, handler: Any) -> Any:
            old = signal.signal(signum, handler)
            if handler is not signal.SIG_DFL:
                raise KeyboardInterrupt
            return old

    monkeypatch.setattr(_signals, "signal", Interrupted())
    try:
        with pytest.raises(KeyboardInterrupt), sigterm_as_sigint():
            pass
        assert signal.getsignal(signal.SIGTERM) is signal.SIG_DFL
    finally:
        signal.signal(signal.SIGTERM, signal.SIG_DFL)


NOISY = (  # a fair bot that first writes 200 KB to its stderr (more than a pipe holds)
    "import runpy, sys; sys.stderr.write('x' * 200000 + '\\n'); sys.stderr.flush(); "
    f"sys.argv = ['tiny', '-', 'good']; runpy.run_path({str(TINY)!r}, run_name='__main__')"
)


def test_bot_stderr_is_passed_discarded_or_a_file_never_a_pipe_nobody_reads(
    tmp_path: Path,
) -> None:
    """Regression: ``Arena(..., bot_stderr=subprocess.PIPE)`` gave each ``cmd:`` bot a
    stderr pipe that nobody read: a bot writing more than the pipe holds blocked, and
    was killed "no join in time" after 30 s; ``subprocess.STDOUT`` mixed its logs into
    its answers (an ``overlong`` fault) and a text raised AttributeError from inside
    subprocess.  ``bot_stderr`` is now None (passed through), ``subprocess.DEVNULL``
    or an open file descriptor, anything else an ArenaError naming it."""
    import os
    import subprocess

    def run(stderr: object) -> dict[str, Any]:
        noisy = parse_bot_spec(f'noisy@cmd:{sys.executable} -c "{NOISY}"')
        bots = [parse_bot_spec("heuristic"), noisy]
        arena = Arena("ofc-pineapple", bots, 2, seed=21, bot_stderr=stderr)  # type: ignore[arg-type]
        return arena.run()

    for bad in (subprocess.PIPE, subprocess.STDOUT, "x", -7, True, 2**70):
        with pytest.raises(ArenaError, match="bot_stderr"):
            run(bad)
    log = tmp_path / "bots.log"
    with open(log, "wb") as f:
        for stderr in (subprocess.DEVNULL, f.fileno()):
            t0 = time.monotonic()
            bot = run(stderr)["bots"][1]
            assert bot["faults"] == 0 and bot["stopped"] is None, bot
            assert time.monotonic() - t0 < 20
    assert log.read_bytes() == b"x" * 200000 + b"\n"
    closed = os.open(os.devnull, os.O_RDONLY)
    os.close(closed)
    with pytest.raises(ArenaError, match="bot_stderr"):
        run(closed)


def test_a_bot_that_closes_its_stdout_and_runs_on_is_a_disconnect_at_once() -> None:
    """Regression: a ``cmd:`` bot that closed its stdout and ran on was taken for a
    bot about to exit: the arena waited the whole exit grace (``EXIT_GRACE_S``, 1 s)
    for an exit status that never came, each time; it waits only for a process that
    is exiting, and such a bot is a plain disconnect at once (one that exits is
    still named with its status: test_arena_hostile_bots)."""
    from ofc_fast.arena._transport import EXIT_GRACE_S, ProcessEndpoint

    code = "import os, time; os.write(1, b'x\\n'); os.close(1); time.sleep(30)"
    bot = ProcessEndpoint(f'{sys.executable} -c "{code}"')
    try:
        assert bot.receive(30.0)[0] != "timeout"  # the bot runs: its line came
        start = time.monotonic()
        assert bot.receive(30.0) == ("eof", None)
        took = time.monotonic() - start
        assert bot.proc.poll() is None  # it runs on
    finally:
        bot.kill()
    assert took < EXIT_GRACE_S / 2, took
