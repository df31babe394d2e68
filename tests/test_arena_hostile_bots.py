"""The arena against hostile and broken bots: each
test runs a bot of tests/arena_clients/hostile_bot.py and fails on the arena before
the fix.  Matches run as ``ofc-fast arena`` subprocesses with a time limit, so an
arena that hangs fails the test instead of hanging it."""

from __future__ import annotations

import contextlib
import json
import os
import socket
import subprocess
import sys
import threading
import time
from pathlib import Path
from typing import Any

import pytest
from scripts import free_port, package_env

HOSTILE = Path(__file__).parent / "arena_clients" / "hostile_bot.py"
ROOMY_MS = 10_000  # no on-time answer misses it, even on a loaded machine
SHORT_MS = 1_000
LIMIT_S = 90  # a match of these tests that runs longer is hung
DECISIONS = 3 * 5  # 3 Pineapple hands of 5 decisions for each bot
DISCONNECTED = {"stdio": "disconnected: exited with status 0", "tcp": "disconnected"}
"""Why the arena stopped asking a hostile bot that went: a ``cmd:`` bot's exit named."""


def hostile(mode: str, arg: str = "", transport: str = "-") -> str:
    return f"bad@cmd:{sys.executable} {HOSTILE} {transport} {mode} {arg}".strip()


def arena_cmd(bots: list[str], rep: Path, timeout_ms: int, *extra: str) -> list[str]:
    cmd = [sys.executable, "-m", "ofc_fast", "arena", "--rules", "pineapple"]
    for b in bots:
        cmd += ["--bot", b]
    return [
        *cmd,
        "--hands",
        "3",
        "--seed",
        "21",
        "--timeout-ms",
        str(timeout_ms),
        "--json",
        str(rep),
        *extra,
    ]


def run_match(
    tmp_path: Path,
    mode: str,
    timeout_ms: int = ROOMY_MS,
    transport: str = "stdio",
    arg: str = "",
) -> dict[str, Any]:
    """``heuristic`` against a hostile bot (a subprocess, or a TCP client); the
    report, or a failure when the arena hangs or fails."""
    rep = tmp_path / "report.json"
    client = None
    if transport == "tcp":
        port = free_port()
        bad = f"bad@tcp:{port}"
        client = subprocess.Popen(
            [sys.executable, str(HOSTILE), str(port), mode, arg],
            stdin=subprocess.DEVNULL,
            stdout=subprocess.DEVNULL,
        )
    else:
        bad = hostile(mode, arg)
    try:
        out = subprocess.run(
            arena_cmd(["heuristic", bad], rep, timeout_ms, "--quiet"),
            capture_output=True,
            text=True,
            timeout=LIMIT_S,
            env=package_env(),
        )
    finally:
        if client is not None:
            client.kill()
            client.wait(10)
    assert out.returncode == 0, out.stderr[-2000:]
    report: dict[str, Any] = json.loads(rep.read_text())
    assert report["hands"] == 3 and report["bots"][0]["faults"] == 0
    return report


@pytest.mark.parametrize(
    ("code", "why"),
    [
        ("raise SystemExit(3)", "exited with status 3"),
        ("import os; os.kill(os.getpid(), 9)", "killed by signal 9 (SIGKILL)"),
    ],
)
def test_a_cmd_bot_that_exits_at_once_is_named_with_how_it_ended(
    tmp_path: Path, code: str, why: str
) -> None:
    """Regression: a ``cmd:`` bot that exits at once (``--bot 'cmd:python
    missing.py'``) was reported only as "disconnected", its exit status or signal
    nowhere; the report and the summary say "disconnected: exited with status 3"."""
    rep = tmp_path / "report.json"
    bot = f'bad@cmd:{sys.executable} -c "{code}"'
    out = subprocess.run(
        arena_cmd(["heuristic", bot], rep, ROOMY_MS),
        capture_output=True,
        text=True,
        timeout=LIMIT_S,
        env=package_env(),
    )
    assert out.returncode == 0, out.stderr[-2000:]
    bad = json.loads(rep.read_text())["bots"][1]
    assert bad["stopped"] == f"disconnected: {why}"
    assert bad["fault_kinds"] == {"disconnect": 1} and bad["substituted"] == DECISIONS
    assert f"; disconnected: {why};" in out.stdout


@pytest.fixture(scope="module")
def clean_points(tmp_path_factory: pytest.TempPathFactory) -> list[int]:
    report = run_match(tmp_path_factory.mktemp("clean"), "good")
    assert report["bots"][1]["faults"] == 0, json.dumps(report["bots"][1])
    return [b["points"] for b in report["bots"]]


# -- a deeply nested line is one garbage line, never the reader's death


@pytest.mark.parametrize("transport", ["stdio", "tcp"])
def test_nested_json_line_is_one_garbage_fault(
    tmp_path: Path, transport: str, clean_points: list[int]
) -> None:
    """Before: RecursionError killed the reader; the bot was charged two timeouts
    and killed although it answered."""
    report = run_match(tmp_path, "nest", SHORT_MS, transport)
    bad = report["bots"][1]
    assert bad["fault_kinds"] == {"garbage": 1} and bad["substituted"] == 0
    assert [b["points"] for b in report["bots"]] == clean_points


@pytest.mark.parametrize("timeout_ms", [SHORT_MS, 0])
@pytest.mark.parametrize("transport", ["stdio", "tcp"])
def test_nested_json_then_exit_never_hangs(
    tmp_path: Path, transport: str, timeout_ms: int
) -> None:
    """The issue's reproducer: join, a nested line, exit.  Before: with
    ``--timeout-ms 0`` the arena waited forever and wrote no report."""
    report = run_match(tmp_path, "nest-exit", timeout_ms, transport)
    bad = report["bots"][1]
    assert bad["fault_kinds"] == {"garbage": 1, "disconnect": 1}
    assert bad["substituted"] == DECISIONS and bad["stopped"] == DISCONNECTED[transport]


# -- a flood is bounded and counted

_FLOOD_DRIVER = r"""
import json, resource, sys, time
from ofc_fast.arena import Arena, parse_bot_spec
from ofc_fast.bots import RandomBot, register

class Slow(RandomBot):  # keeps the arena away from the flooding bot's lines
    def act(self, observation):
        time.sleep(0.2)
        return super().act(observation)

register("slow", lambda rules=None, seed=None: Slow(seed=seed), replace=True)
Arena("ofc-pineapple", [parse_bot_spec("random")] * 2, 2).run()  # imports: scipy...
arena = Arena("ofc-pineapple", [parse_bot_spec("slow"), parse_bot_spec(sys.argv[1])],
              2, seed=3, timeout_ms=20000)
before = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss
report = arena.run()
after = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss
print(json.dumps({"growth_kib": after - before, "peak_kib": after,
                  "faults": [b["fault_kinds"] for b in report["bots"]],
                  "substituted": report["bots"][1]["substituted"]}))
"""


def test_a_flood_of_ignorable_lines_is_bounded_and_a_fault() -> None:
    """A bot that answers on time while flooding 60 KB ``{"t":"noise"}`` lines: the
    arena's peak RSS grows by a bounded amount, and the flood is a fault.  Before: the
    arena queued every line (1.09 GB in 20 s) and counted nothing."""
    out = subprocess.run(
        [sys.executable, "-c", _FLOOD_DRIVER, hostile("noise")],
        capture_output=True,
        text=True,
        timeout=LIMIT_S,
    )
    assert out.returncode == 0, out.stderr[-2000:]
    res = json.loads(out.stdout.splitlines()[-1])
    print(f"peak RSS {res['peak_kib'] / 1024:.0f} MiB, growth {res['growth_kib']} KiB")
    assert res["growth_kib"] < 24 * 1024, res  # 4.9 MiB measured; before: 52 MiB
    assert res["faults"][0] == {} and res["faults"][1].get("flood", 0) >= 1, res
    assert set(res["faults"][1]) == {"flood"} and res["substituted"] == 0, res


def test_talking_never_holds_the_arena_past_a_deadline(tmp_path: Path) -> None:
    """A bot that never answers but keeps sending small lines: each decision still
    times out at its deadline, and after two the bot is killed.  Before: a line
    waiting at the deadline was read instead, without end."""
    t0 = time.monotonic()
    report = run_match(tmp_path, "chatter", SHORT_MS)
    assert time.monotonic() - t0 < 60
    bad = report["bots"][1]
    assert bad["fault_kinds"].get("timeout") == 2 and bad["substituted"] == DECISIONS
    assert set(bad["fault_kinds"]) <= {"timeout", "flood"}
    assert bad["stopped"] == "killed: 2 missed deadlines in a row"


def test_the_line_buffer_keeps_its_bounds() -> None:
    """Direct: lines past PENDING_LINES are dropped and reported once; the end of the
    stream is queued past the bound."""
    from ofc_fast.arena._transport import PENDING_LINES, Endpoint

    ep = Endpoint()
    for _ in range(PENDING_LINES + 50):
        ep._admit(b'{"t":"noise"}')
    ep._end()
    items = list(ep.pending())
    assert [k for k, _ in items].count("msg") == PENDING_LINES
    assert [k for k, _ in items][-2:] == ["flood", "eof"] and ep.dropped == 50


# -- actions are matched to their act


@pytest.mark.parametrize("transport", ["stdio", "tcp"])
def test_every_answer_sent_twice_costs_nothing(
    tmp_path: Path, transport: str, clean_points: list[int]
) -> None:
    """Before: over TCP the repeated answer was taken for the next decision (6-10
    illegal faults of 15, varying from run to run)."""
    report = run_match(tmp_path, "double", ROOMY_MS, transport)
    assert report["bots"][1]["faults"] == 0 and report["bots"][1]["substituted"] == 0
    assert [b["points"] for b in report["bots"]] == clean_points


def test_stale_seq_is_dropped_and_echoed_fields_accepted(
    tmp_path: Path, clean_points: list[int]
) -> None:
    """A bot echoing ``seq``/``hand_no``/``seat`` that repeats its previous answer
    (previous ``seq``) before each new one: nothing is a fault."""
    report = run_match(tmp_path, "echo", ROOMY_MS)
    assert report["bots"][1]["faults"] == 0 and report["bots"][1]["substituted"] == 0
    assert [b["points"] for b in report["bots"]] == clean_points


def test_a_row_that_is_no_text_is_one_malformed_fault(tmp_path: Path) -> None:
    """An answer placing a card in ``"row": []`` (a list, or an object: no row name)
    stopped the arena with a traceback (TypeError: unhashable type: 'list'), exit
    status 1, no report and the bots left to the end of the process.  It is a
    ``malformed`` answer like ``"row": "left"``: the filler is played, the match
    goes on."""
    report = run_match(tmp_path, "row-list", ROOMY_MS)
    bad = report["bots"][1]
    assert (bad["fault_kinds"], bad["substituted"]) == ({"malformed": 1}, 1)


def test_an_action_naming_another_seat_and_hand_is_refused(tmp_path: Path) -> None:
    """``seat: 99, hand_no: -5``: before, accepted silently."""
    report = run_match(tmp_path, "misaddressed", ROOMY_MS)
    bad = report["bots"][1]
    assert bad["fault_kinds"] == {"malformed": DECISIONS}
    assert bad["substituted"] == DECISIONS


# -- bot processes


def _alive(pid: int) -> bool:
    try:
        with open(f"/proc/{pid}/stat") as f:
            return f.read().rsplit(")", 1)[1].split()[0] != "Z"
    except FileNotFoundError:
        return False
    except OSError:  # pragma: no cover - no /proc
        try:
            os.kill(pid, 0)
        except ProcessLookupError:
            return False
        return True


def _gone(pid: int, within_s: float = 5.0) -> bool:
    end = time.monotonic() + within_s
    while _alive(pid):
        if time.monotonic() > end:
            os.kill(pid, 9)
            return False
        time.sleep(0.05)
    return True


@pytest.mark.skipif(
    not hasattr(os, "fork"), reason="needs fork (os.fork): run on Linux or macOS"
)
@pytest.mark.parametrize("timeout_ms", [SHORT_MS, 0])
def test_a_bot_whose_grandchild_holds_stdout_is_one_disconnect(
    tmp_path: Path, timeout_ms: int
) -> None:
    """The bot forks a grandchild that keeps its stdout open, then exits.  Before: two
    timeouts (with a deadline) or a wait for the grandchild's whole life (without),
    and the grandchild outlived the arena."""
    pid_file = tmp_path / "grandchild.pid"
    t0 = time.monotonic()
    try:
        report = run_match(tmp_path, "fork", timeout_ms, arg=str(pid_file))
    finally:
        gone = _gone(int(pid_file.read_text()))  # killed here if the arena did not
    assert time.monotonic() - t0 < 60
    bad = report["bots"][1]
    assert bad["fault_kinds"] == {"disconnect": 1} and bad["substituted"] == DECISIONS - 3
    assert gone


@pytest.mark.skipif(
    not hasattr(os, "setsid"), reason="needs os.setsid: run on Linux or macOS"
)
def test_a_grandchild_out_of_the_bot_s_group_holds_no_thread_nor_pipe(
    tmp_path: Path,
) -> None:
    """Regression: a bot that forked a grandchild in a session of its own (out of the
    group the arena kills), which kept the bot's stdout open, then exited, was one
    disconnect, but the arena's reader thread and its end of the pipe stayed for
    the grandchild's whole life, after ``Arena.run()`` returned: a process that ran
    many matches piled them up.  The reader now gives up once the bot has exited
    and its grace is over."""
    from ofc_fast.arena import Arena, parse_bot_spec

    pid_file = tmp_path / "grandchild.pid"
    bots = [parse_bot_spec("heuristic"), parse_bot_spec(hostile("escape", str(pid_file)))]
    before = set(threading.enumerate())
    fds = set(os.listdir("/proc/self/fd")) if os.path.isdir("/proc/self/fd") else set()
    try:
        report = Arena("pineapple", bots, 3, seed=21, timeout_ms=ROOMY_MS).run()
        end = time.monotonic() + 5
        started = set(threading.enumerate()) - before
        for t in started:
            t.join(max(end - time.monotonic(), 0.0))
        running = [t.name for t in started if t.is_alive()]
        left = set(os.listdir("/proc/self/fd")) - fds if fds else set()
    finally:
        pid = int(pid_file.read_text())
        with contextlib.suppress(ProcessLookupError):
            os.kill(pid, 9)  # (out of the arena's reach: its own session)
        _gone(pid)
    bad = report["bots"][1]
    assert bad["fault_kinds"] == {"disconnect": 1} and bad["substituted"] == DECISIONS - 3
    assert not running, running
    assert not left, [os.readlink(f"/proc/self/fd/{fd}") for fd in left]


@pytest.mark.skipif(
    not os.path.isdir("/proc/self"), reason="needs /proc (Linux): run on Linux"
)
@pytest.mark.parametrize("mode", ["escape", "escape-start"])
def test_a_grandchild_in_a_session_of_its_own_ends_with_the_match(
    tmp_path: Path, mode: str
) -> None:
    """Regression: a ``cmd:`` bot's grandchild that started a session of its own
    (``cmd:sh -c 'setsid sleep 1000 & exec ofc-fast bot random'``, or a bot that
    forks one and exits mid-match) ran on after ``ofc-fast arena`` had exited: a
    tournament leaked a process a match.  The arena now kills every process that
    carries the bot's mark in its environment, once the bot has exited or the match
    is over."""
    from ofc_fast.arena import Arena, parse_bot_spec

    pid_file = tmp_path / "grandchild.pid"
    bots = [parse_bot_spec("heuristic"), parse_bot_spec(hostile(mode, str(pid_file)))]
    report = Arena("pineapple", bots, 3, seed=21, timeout_ms=ROOMY_MS).run()
    assert _gone(int(pid_file.read_text()), within_s=2.0)  # (killed here if not)
    assert report["bots"][1]["faults"] == (mode == "escape")


@pytest.mark.skipif(
    not os.path.isdir("/proc/self"), reason="needs /proc (Linux): run on Linux"
)
def test_a_process_started_without_the_mark_outlives_the_match(tmp_path: Path) -> None:
    """Regression (review): a process a bot starts to outlive the match (an ssh
    ControlMaster, a tmux server, a model server shared by later matches) was killed
    with it once the arena killed every process carrying the bot's mark.  Each bot is
    told its mark's name, ``OFC_FAST_ARENA_MARK``; a process started without that
    variable (``env -u "$OFC_FAST_ARENA_MARK" daemon``) is left running."""
    from ofc_fast.arena import Arena, parse_bot_spec

    pid_file = tmp_path / "daemon.pid"
    bots = [
        parse_bot_spec("heuristic"),
        parse_bot_spec(hostile("keep-start", str(pid_file))),
    ]
    report = Arena("pineapple", bots, 3, seed=21, timeout_ms=ROOMY_MS).run()
    pid = int(pid_file.read_text())
    try:
        time.sleep(0.3)  # (a kill would have landed by now: the arena has returned)
        assert _alive(pid) and report["bots"][1]["faults"] == 0
    finally:
        _gone(pid, within_s=0)


@pytest.mark.parametrize("transport", ["stdio", "tcp"])
def test_a_last_answer_with_no_newline_is_read_at_the_end(
    tmp_path: Path, transport: str
) -> None:
    """A bot that writes its 4th answer with no newline at its end and exits: the
    answer was lost (the line left in the reader at the end of the stream), so that
    decision was filled in too.  It is now read: 3 + 1 decisions played by the bot,
    then one disconnect."""
    report = run_match(tmp_path, "cut-exit", ROOMY_MS, transport)
    bad = report["bots"][1]
    assert bad["fault_kinds"] == {"disconnect": 1}
    assert bad["substituted"] == DECISIONS - 4 and bad["stopped"] == DISCONNECTED[transport]


@pytest.mark.skipif(
    not hasattr(os, "fork"), reason="needs fork (os.fork): run on Linux or macOS"
)
def test_the_bots_process_group_is_killed_at_the_end(tmp_path: Path) -> None:
    """A bot that ignores match-end and has a sleeping grandchild: both are killed."""
    pid_file = tmp_path / "grandchild.pid"
    try:
        report = run_match(tmp_path, "linger", ROOMY_MS, arg=str(pid_file))
    finally:
        gone = _gone(int(pid_file.read_text()))  # killed here if the arena did not
    assert report["bots"][1]["faults"] == 0 and gone


@pytest.mark.skipif(
    not hasattr(os, "fork"), reason="needs fork (os.fork): run on Linux or macOS"
)
def test_bots_that_linger_after_match_end_share_one_grace(tmp_path: Path) -> None:
    """Three bots that ignore ``match-end``: each was given its own second to exit,
    one after the other (3 s and more at the end of every match, Ctrl-C included).
    They were all told at once, so they share one second, then are killed."""
    from ofc_fast.arena import Arena, parse_bot_spec

    spent: list[float] = []

    class Timed(Arena):
        def _finish(self) -> None:
            t0 = time.monotonic()
            super()._finish()
            spent.append(time.monotonic() - t0)

    pids = [tmp_path / f"grandchild-{i}.pid" for i in range(3)]
    bots = [parse_bot_spec(hostile("linger", str(p))) for p in pids]
    try:
        report = Timed("pineapple", bots, 1, timeout_ms=ROOMY_MS).run()
    finally:
        gone = [_gone(int(p.read_text())) for p in pids if p.exists()]
    assert report["hands"] == 1 and all(b["faults"] == 0 for b in report["bots"])
    assert gone == [True] * 3
    assert spent[0] < 2.5, f"the end of the match took {spent[0]:.1f} s"


# -- tcp seats


def _start_arena(tmp_path: Path, port: int, *extra: str) -> subprocess.Popen[str]:
    return subprocess.Popen(
        arena_cmd(
            ["heuristic", f"bad@tcp:{port}"],
            tmp_path / "report.json",
            ROOMY_MS,
            "--quiet",
            *extra,
        ),
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
    )


def _connect(port: int) -> socket.socket:
    for _ in range(300):
        try:
            return socket.create_connection(("127.0.0.1", port), timeout=10)
        except OSError:
            time.sleep(0.1)
    raise AssertionError("the arena never listened")


def _finish(arena: subprocess.Popen[str], tmp_path: Path) -> dict[str, Any]:
    try:
        _, err = arena.communicate(timeout=LIMIT_S)
    finally:
        arena.kill()
    assert arena.returncode == 0, err[-2000:]
    report: dict[str, Any] = json.loads((tmp_path / "report.json").read_text())
    return report


def _bot(port: int, token: str = "") -> subprocess.Popen[bytes]:
    where = f"{port}:{token}" if token else str(port)
    return subprocess.Popen(
        [sys.executable, str(HOSTILE), where, "good"], stdout=subprocess.DEVNULL
    )


def test_a_probe_does_not_take_the_tcp_seat(tmp_path: Path) -> None:
    """A connection that closes at once (a port probe), then the real bot: the bot
    gets the seat.  Before: the probe took it and the bot was refused."""
    port = free_port()
    arena = _start_arena(tmp_path, port)
    _connect(port).close()
    silent = _connect(port)  # and one that stays, saying nothing
    bot = _bot(port)
    try:
        report = _finish(arena, tmp_path)
    finally:
        silent.close()
        bot.kill()
        bot.wait(10)
    assert report["hands"] == 3 and all(b["faults"] == 0 for b in report["bots"])


def test_silent_connections_do_not_keep_the_bot_from_the_tcp_seat(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """Eight connections that never said a word held every place of the connections
    waiting to join, and the real bot, connecting after them, was closed at once (the
    seat then waited out its connect deadline).  A connection that sends no join
    within ``JOIN_WAIT_S`` is dropped, and later ones wait to be accepted."""
    import threading

    from ofc_fast.arena import Arena, _transport, parse_bot_spec

    monkeypatch.setattr(_transport, "JOIN_WAIT_S", 1.0)
    port = free_port()
    bots = [parse_bot_spec(f"tcp:{port}"), parse_bot_spec("random")]
    arena = Arena("ofc-pineapple", bots, hands=2, connect_timeout_s=20)
    silent: list[socket.socket] = []
    bot: list[subprocess.Popen[bytes]] = []

    def crowd() -> None:  # the arena listens once run() has begun
        for _ in range(8):
            silent.append(_connect(port))
        for s in silent:  # each has been accepted (sent hello): every place is held
            s.recv(100)
        bot.append(
            subprocess.Popen(
                [sys.executable, "-m", "ofc_fast", "bot", "random", "--connect"]
                + [str(port)],
                stderr=subprocess.PIPE,
            )
        )

    helper = threading.Thread(target=crowd)
    helper.start()
    try:
        t0 = time.monotonic()
        report = arena.run()
        helper.join(30)
        _, err = bot[0].communicate(timeout=30)
    finally:
        for s in silent:
            s.close()
        for b in bot:
            b.kill()
            b.wait(10)
    assert bot[0].returncode == 0, err
    assert report["hands"] == 2 and all(b["faults"] == 0 for b in report["bots"])
    assert time.monotonic() - t0 < 15


def test_a_slow_warm_up_alone_keeps_its_place(monkeypatch: pytest.MonkeyPatch) -> None:
    """A bot that takes longer than ``JOIN_WAIT_S`` to join (a long warm-up) while
    places are free keeps its place and takes the seat: only a full set of places
    drops the silent ones (it was dropped after 10 s, a slow bot never seated)."""
    import threading

    from ofc_fast.arena import _transport

    monkeypatch.setattr(_transport, "JOIN_WAIT_S", 0.2)
    seat = _transport.TcpEndpoint(0)
    held: list[socket.socket] = []

    def slow_bot() -> None:
        conn = _connect(seat.port)
        held.append(conn)
        assert conn.recv(100).startswith(b'{"t":"hello"')
        time.sleep(1.0)  # five times JOIN_WAIT_S
        conn.sendall(b'{"t":"join"}\n')

    helper = threading.Thread(target=slow_bot)
    helper.start()
    try:
        assert seat.accept(20, hello={"t": "hello"})
    finally:
        helper.join(30)
        seat.kill()
        for conn in held:
            conn.close()


def test_a_tcp_seat_with_a_token_takes_only_that_token(tmp_path: Path) -> None:
    port = free_port()
    arena = _start_arena(tmp_path, port, "--token", "s3cret")
    wrong = _bot(port, "guess")
    assert wrong.wait(30) == 0  # dropped: its stream ends
    tokenless = _bot(port)
    assert tokenless.wait(30) == 0
    right = subprocess.Popen(  # our own client, with the token
        [sys.executable, "-m", "ofc_fast", "bot", "random", "--connect", str(port)]
        + ["--token", "s3cret"],
        stderr=subprocess.DEVNULL,
    )
    try:
        report = _finish(arena, tmp_path)
    finally:
        right.kill()
        right.wait(10)
    assert report["hands"] == 3 and all(b["faults"] == 0 for b in report["bots"])


def test_tcp_sockets_have_nodelay() -> None:
    """Nagle's algorithm held every line (~42 ms a decision)."""
    from ofc_fast.arena._transport import TcpEndpoint

    ep = TcpEndpoint(0)
    with socket.create_connection(("127.0.0.1", ep.port)) as c:
        c.sendall(b'{"t":"join"}\n')
        assert ep.accept(10.0, {"t": "hello"})
        assert ep.conn is not None
        assert ep.conn.getsockopt(socket.IPPROTO_TCP, socket.TCP_NODELAY) != 0
        assert ep.receive(5.0) == ("msg", {"t": "join"})
        ep.close(0.1)


def test_a_join_whose_token_is_no_text_is_dropped_not_a_traceback() -> None:
    r"""A candidate's join naming a token with a lone surrogate (``"\ud800"``, valid
    JSON): before, encoding it for the comparison raised UnicodeEncodeError out of
    the arena; now that candidate is dropped as a wrong token is."""
    from ofc_fast.arena._transport import TcpEndpoint

    ep = TcpEndpoint(0)
    with socket.create_connection(("127.0.0.1", ep.port)) as bad:
        bad.sendall(b'{"t":"join","token":"\\ud800"}\n')
        assert not ep.accept(1.0, {"t": "hello"}, "s3cret")  # dropped: no bot joined
        assert bad.recv(4096).startswith(b'{"t":"hello"')
        assert bad.recv(4096) == b""  # and its connection closed


def test_tcp_bot_decisions_take_no_nagle_delay() -> None:
    """Both ends: ``ofc-fast bot random --connect`` against the arena (the
    benchmark's measurement, benchmarks/bench_arena.py); the median decision (arena
    send to arena receive) stays far under Nagle's ~40 ms (43.6 ms before)."""
    from scripts import checkout_script

    bench = checkout_script("benchmarks/bench_arena.py")
    p50, _, faults = bench.tcp_latency(6)
    assert faults == 0 and p50 < 20, p50


def _seat_one_connection(payload: bytes, half_close: bool) -> tuple[bool, Any]:
    """A ``tcp:`` seat (1 s to join) and one connection that sends ``payload``
    (and, with ``half_close``, ends its stream): (seated, the seat's first item)."""
    from ofc_fast.arena._transport import TcpEndpoint

    ep = TcpEndpoint(0)
    with socket.create_connection(("127.0.0.1", ep.port)) as c:
        c.sendall(payload)
        if half_close:
            c.shutdown(socket.SHUT_WR)
        seated = ep.accept(1.0, {"t": "hello"})
        item = ep.receive(5.0)
        ep.close(0.1)
    return seated, item


def test_a_join_with_no_newline_then_the_end_takes_the_seat() -> None:
    """A connection that sends ``{"t":"join"}`` with no newline and ends its stream
    was dropped as one that sent nothing (the seat waited out its deadline): its last
    line is read at the end, as the arena reads a bot's last line."""
    assert _seat_one_connection(b'{"t":"join"}', True) == (True, ("msg", {"t": "join"}))


def test_a_join_that_waits_for_its_newline_is_named_at_the_deadline() -> None:
    """A connection that sends ``{"t":"join"}`` with no newline and waits: the seat
    waited out its deadline and said nothing of why (the report said
    ``disconnected``).  The seat ends with a ``nojoin`` naming the missing newline,
    and the report's ``stopped`` says it."""
    import threading

    from ofc_fast.arena import Arena, parse_bot_spec

    seated, (kind, why) = _seat_one_connection(b'{"t":"join"}', False)
    assert not seated and kind == "nojoin" and "no newline" in why
    port = free_port()
    arena = Arena(
        "pineapple",
        [parse_bot_spec("random"), parse_bot_spec(f"bad@tcp:{port}")],
        1,
        connect_timeout_s=2.0,
    )

    def cut_join() -> None:
        conn = _connect(port)
        conn.recv(4096)
        conn.sendall(b'{"t":"join"}')
        time.sleep(4.0)
        conn.close()

    helper = threading.Thread(target=cut_join)
    helper.start()
    try:
        bad = arena.run()["bots"][1]
    finally:
        helper.join(30)
    assert bad["fault_kinds"] == {"timeout": 1}
    assert "no join in time" in bad["stopped"] and "no newline" in bad["stopped"]
