"""``ofc-fast bot`` against a hostile or merely buggy host: every host field is checked
against the protocol's bounds, a line that is not the protocol stops the client with one
line on stderr (exit 2, never a traceback), unknown messages are skipped, and the
arena's deadline reaches the bot, whose search fits into it."""

from __future__ import annotations

import json
import os
import re
import socket
import subprocess
import sys
import threading
import time
from pathlib import Path
from typing import Any

import pytest

from ofc_fast.arena import client as client_mod
from ofc_fast.arena.client import BotClient, pipe_margin, play_bot, run_stream
from ofc_fast.bots import SearchBot, make_bot
from ofc_fast.errors import ObservationError, ProtocolError
from ofc_fast.game import Game

ROOT = Path(__file__).resolve().parent.parent
HELLO = {"t": "hello", "proto": 1, "game_id": "ofc-pineapple", "seat_count": 2}
START = {"t": "hand-start", "hand_no": 0, "seat": 1}


def deal(seat: int, cards: list[str]) -> dict[str, Any]:
    ev = {"event": "deal", "seat": seat, "cards": cards, "count": len(cards)}
    return {"t": "event", "hand_no": 0, "ev": ev}


ACT5 = {
    "t": "act",
    "hand_no": 0,
    "seat": 1,
    "decision": {"kind": "place", "place": 5, "discard": 0},
}
OPENING = [HELLO, START, deal(1, ["2c", "6s", "6h", "2h", "6c"])]


def lines(*msgs: Any) -> bytes:
    return b"".join(
        (m if isinstance(m, bytes) else json.dumps(m).encode()) + b"\n" for m in msgs
    )


def _small_memory() -> None:  # pragma: no cover - runs in the child
    """The bot process gets 3 GiB of address space: an allocation of gigabytes (the
    old client on seat_count 10**7) fails there instead of eating the machine."""
    import resource

    resource.setrlimit(resource.RLIMIT_AS, (3 << 30, 3 << 30))


def run_bot(
    data: bytes, *args: str, timeout: float = 60
) -> subprocess.CompletedProcess[bytes]:
    env = dict(os.environ)  # the installed package (conftest: PYTHONSAFEPATH)
    return subprocess.run(
        [sys.executable, "-m", "ofc_fast", "bot", *args],
        input=data,
        capture_output=True,
        timeout=timeout,
        env=env,
        preexec_fn=_small_memory if sys.platform.startswith("linux") else None,
    )


def one_line_error(proc: subprocess.CompletedProcess[bytes], *words: str) -> str:
    err = proc.stderr.decode()
    assert proc.returncode == 2, err
    assert "Traceback" not in err
    assert err.count("\n") == 1 and err.startswith("ofc-fast: error: "), err
    for w in words:
        assert w in err, err
    return err


# -- bounds: no huge allocation
def test_hello_with_ten_million_seats_is_a_one_line_error() -> None:
    hello = {**HELLO, "seat_count": 10**7}
    t0 = time.perf_counter()
    proc = run_bot(lines(hello, START), "random")
    one_line_error(proc, "host line 1", "seat_count", "2..3")
    assert time.perf_counter() - t0 < 30
    with pytest.raises(ProtocolError, match="seat_count"):  # (in process: after the
        BotClient(make_bot("random", seed=0)).feed(hello)  # child showed it is safe)


def test_seat_count_bounds_follow_the_game() -> None:
    c = BotClient(make_bot("random", seed=0))
    with pytest.raises(ProtocolError, match=r"2\.\.3"):
        c.feed({**HELLO, "seat_count": 4})  # pineapple seats 2..3
    assert BotClient(make_bot("random")).feed({**HELLO, "game_id": "ofc", "seat_count": 4})
    with pytest.raises(ProtocolError, match=r"2\.\.4"):  # an unknown game: 2..4
        BotClient(make_bot("random"), log=lambda _: None).feed(
            {**HELLO, "game_id": "holdem", "seat_count": 5}
        )


def test_a_hello_without_a_field_is_refused_naming_the_missing_field() -> None:
    """Regression: a hello with no ``proto`` field was refused as "this client speaks
    protocol 1, the host proto None" (and one with no ``game_id`` as "got None"), as
    if the host had sent a null: every missing hello field is now named as missing,
    in the one wording of the client's other field checks ("got nothing")."""
    no_proto = {k: v for k, v in HELLO.items() if k != "proto"}
    proc = run_bot(lines(no_proto), "random")
    err = one_line_error(proc, "host line 1", "hello message: 'proto' must be 1")
    assert err.rstrip().endswith("got nothing (this client speaks protocol 1)"), err
    assert "None" not in err
    cases = {
        "game_id": "hello message: 'game_id' must be text, got nothing",
        "seat_count": "hello message: 'seat_count' must be an integer 2..3, got nothing",
    }
    for field, wording in cases.items():
        with pytest.raises(ProtocolError, match=f"^{re.escape(wording)}$"):
            BotClient(make_bot("random")).feed(
                {k: v for k, v in HELLO.items() if k != field}
            )
    for sent in (None, 2, True):  # sent, but not this protocol: what it was is named
        with pytest.raises(ProtocolError, match=rf"'proto' must be 1, got {sent}"):
            BotClient(make_bot("random")).feed({**HELLO, "proto": sent})


def test_place_events_cannot_grow_a_board_past_its_rows() -> None:
    c = BotClient(make_bot("random", seed=0))
    for m in (HELLO, START):
        c.feed(m)
    top = [{"card": card, "row": "top"} for card in ("As", "Ks", "Qs", "Js")]
    ev = {"event": "place", "seat": 0, "placements": top, "discarded": [], "count": 0}
    with pytest.raises(ProtocolError, match="full"):
        c.feed({"t": "event", "ev": ev})


# -- valid JSON of the wrong shape
HOSTILE = {
    "missing seat": [HELLO, {"t": "hand-start", "hand_no": 0}],
    "1e999": [b'{"t":"hello","proto":1,"game_id":"ofc","seat_count":1e999}'],
    "float seat": [HELLO, {"t": "hand-start", "seat": 1.5}],
    "bool seat": [HELLO, {"t": "hand-start", "seat": True}],
    "list for ev": [HELLO, START, {"t": "event", "ev": [1, 2]}],
    "list for decision": [*OPENING, {**ACT5, "decision": [5, 0]}],
    "string count": [*OPENING, {**ACT5, "decision": {"place": "5", "discard": 0}}],
    "deep nesting": [HELLO, b'{"t":"event","ev":' + b"[" * 30000 + b"]" * 30000 + b"}"],
    "deep line": [b"[" * 30000 + b"]" * 30000],
    "not json": [b"{nope"],
    "no t": [b'{"x":1}'],
    "list line": [b"[1,2]"],
    "bad card": [HELLO, START, deal(1, ["Zz"])],
    "repeated card": [HELLO, START, deal(1, ["As", "As"])],
    "count mismatch": [
        HELLO,
        START,
        {"t": "event", "ev": {"event": "deal", "seat": 1, "cards": ["As"], "count": 3}},
    ],
    "act for too many": [*OPENING, {**ACT5, "decision": {"place": 7, "discard": 0}}],
    "act before hello": [ACT5],
    "event before hello": [START],
    "deadline 1e300": [*OPENING, {**ACT5, "deadline_ms": 1e300}],
    "negative deadline": [*OPENING, {**ACT5, "deadline_ms": -5}],
    "huge hand_no": [HELLO, {"t": "hand-start", "hand_no": 10**400, "seat": 0}],
    "another protocol": [{**HELLO, "proto": 2}],
    "game id a list": [{**HELLO, "game_id": ["ofc"]}],
    "over-long line": [b'{"t":"x","pad":"' + b"x" * 70000 + b'"}'],
    "wrong seat act": [*OPENING, {**ACT5, "seat": 0}],
    "fantasyland 5": [
        HELLO,
        START,
        {"t": "event", "ev": {"event": "fantasyland", "seat": 0, "cards": 5}},
    ],
}


@pytest.mark.parametrize("case", sorted(HOSTILE))
def test_wrong_shapes_give_one_line_and_exit_2(case: str) -> None:
    proc = run_bot(lines(*HOSTILE[case]), "random")
    one_line_error(proc, "host line")


def test_a_message_cut_off_by_the_end_of_input_is_a_one_line_error() -> None:
    """A last message with no newline (the host stopped half-way) was dropped without
    a word, exit status 0; it is a ProtocolError naming the line, exit status 2."""
    one_line_error(run_bot(b'{"t":"hello"', "random"), "host line 1", "cut off")
    one_line_error(run_bot(lines(HELLO) + b'{"t":"match-e', "random"), "host line 2")
    whole = run_bot(lines(HELLO) + b'{"t":"match-end"}', "random")  # but the newline
    assert whole.returncode == 0 and whole.stdout == b'{"t":"join"}\n', whole.stderr


def test_a_host_closing_stdin_before_match_end_is_a_one_line_error() -> None:
    """On stdio, a host that closes before ``match-end`` ended the bot silently with
    exit status 0 (the TCP case already said so): an ArenaError, exit status 2."""
    proc = run_bot(lines(*OPENING, ACT5), "random")
    one_line_error(proc, "standard input", "closed the connection before the match ended")
    assert [json.loads(x)["t"] for x in proc.stdout.splitlines()] == ["join", "action"]
    one_line_error(run_bot(b"", "random"), "before seating this bot")


def test_deep_nesting_in_process_is_a_protocol_error() -> None:
    data = lines(HELLO, b'{"t":"event","ev":' + b"[" * 32000 + b"]" * 32000 + b"}")
    out: list[bytes] = []
    chunks = [data]
    c = BotClient(make_bot("random", seed=0))
    with pytest.raises(ProtocolError, match=r"host line 2: .*nested too deep"):
        run_stream(c, lambda n: chunks.pop() if chunks else b"", out.append)
    assert out == [b'{"t":"join"}\n']


def test_unknown_messages_events_and_fields_are_skipped() -> None:
    msgs = [
        {**HELLO, "extra": {"x": [1]}},
        {"t": "surprise", "seat": "everywhere", "ev": []},
        {**START, "note": 1e999},
        {"t": "event", "ev": {"event": "weather", "seat": 99}},
        {"t": "event", "ev": {"event": "score", "seat": 7, "points": "lots"}},
        OPENING[2],
        {**ACT5, "deadline_ms": None, "junk": [[[]]]},
        {"t": "hand-end", "points": "whatever"},
        {"t": "match-end"},
    ]
    proc = run_bot(lines(*msgs), "random")
    assert proc.returncode == 0, proc.stderr.decode()
    replies = [json.loads(x) for x in proc.stdout.splitlines()]
    assert [r["t"] for r in replies] == ["join", "action"]
    assert len(replies[1]["action"]["placements"]) == 5


# -- the deadline reaches the bot
class Recorder:
    def __init__(self) -> None:
        self.seen: list[dict[str, Any]] = []

    def act(self, obs: Any) -> Any:
        self.seen.append(dict(obs))
        return make_bot("random", seed=0).act(obs)


def test_the_deadline_reaches_the_bot_with_the_pipe_margin() -> None:
    now = [100.0]
    rec = Recorder()
    c = BotClient(rec, clock=lambda: now[0])
    for m in [{**HELLO, "timeout_ms": 2000}, *OPENING[1:]]:
        c.feed(m)
    c.feed({**ACT5, "deadline_ms": 150})  # act's deadline_ms wins
    assert rec.seen[-1]["deadline"] == pytest.approx(100.0 + 0.150 - 0.025)
    c.feed(OPENING[1])
    c.feed(OPENING[2])
    now[0] = 200.0
    c.feed(ACT5)  # none in act: hello's timeout_ms
    assert rec.seen[-1]["deadline"] == pytest.approx(200.0 + 2.0 - pipe_margin(2000))
    assert pipe_margin(2000) == pytest.approx(0.21)
    c2 = BotClient(rec)
    for m in [{**HELLO, "timeout_ms": None}, *OPENING[1:], ACT5]:
        c2.feed(m)
    assert "deadline" not in rec.seen[-1]  # no deadline at all
    c3 = BotClient(rec, strict=True)  # the arena's in-process bots: never timed
    for m in [{**HELLO, "timeout_ms": 150}, *OPENING[1:], ACT5]:
        c3.feed(m)
    assert "deadline" not in rec.seen[-1]


def search_obs(seed: int = 4) -> dict[str, Any]:
    g = Game("pineapple", players=2, seed=seed)
    return dict(g.observation(g.to_act))


def test_search_fits_the_deadline_and_falls_back_when_none_is_left() -> None:
    bot = SearchBot(seed=0, time_budget=2.0)  # alone it would think 6 s on the opening
    bot.warm_up()
    for ms in (150, 300):  # the arena deadlines a search bot must meet
        obs = search_obs()
        t0 = time.monotonic()
        obs["deadline"] = t0 + ms / 1000
        move = bot.act(obs)
        took = time.monotonic() - t0
        assert took < ms / 1000, (ms, took)
        assert len(move.placements) == 5
    obs = search_obs()
    obs["deadline"] = time.monotonic() - 1.0  # already missed: the fast move
    t0 = time.monotonic()
    fallback = bot.act(obs)
    assert time.monotonic() - t0 < 0.5 and len(fallback.placements) == 5
    with pytest.raises(ObservationError, match="deadline"):  # a malformed observation
        bot.act({**search_obs(), "deadline": "soon"})


def test_warm_up_measures_the_overruns_and_keeps_the_random_stream() -> None:
    a, b = SearchBot(seed=3, samples=16), SearchBot(seed=3, samples=16)
    a.warm_up()
    assert set(a.overruns()) == {3, 5} and all(v >= 0 for v in a.overruns().values())
    assert a.act(search_obs(7)) == b.act(search_obs(7))


def test_warm_up_of_a_large_budget_ends_within_its_limit() -> None:
    """A rehearsal deal at the bot's own budget took 14 budgets and more (two seats:
    3 at each opening, 1 a street): ``SearchBot(time_budget=1.0).warm_up()`` 13 s,
    ``ofc-fast bot search --time-budget 3`` 40 s, past the arena's 30 s wait for its
    join ('killed: no join in time').  The searches of the rehearsals after the
    first end by the 2 s limit (the rest of a deal: the heuristic's moves)."""
    bot = SearchBot(seed=0, time_budget=1.0)
    t0 = time.monotonic()
    bot.warm_up()
    took = time.monotonic() - t0
    assert took < 6.0, took  # 2 s and an overrun; 14 s at least before
    assert set(bot.overruns()) == {3, 5}


def test_time_budget_option() -> None:
    msgs = [*OPENING, ACT5, {"t": "match-end"}]
    proc = run_bot(lines(*msgs), "search", "--time-budget", "0.01")
    assert proc.returncode == 0, proc.stderr.decode()
    assert json.loads(proc.stdout.splitlines()[1])["t"] == "action"
    one_line_error(
        run_bot(lines(*msgs), "heuristic", "--time-budget", "1"), "--time-budget"
    )
    one_line_error(run_bot(lines(*msgs), "search", "--time-budget", "-1"), "--time-budget")


@pytest.mark.parametrize("closed", ["stdin", "stdout"])
def test_a_closed_standard_stream_is_a_one_line_error(
    closed: str, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    """``ofc-fast bot random <&-`` (Python then has no ``sys.stdin``) ended in
    ``AttributeError: 'NoneType' object has no attribute 'buffer'``."""
    from ofc_fast import cli

    monkeypatch.setattr(sys, closed, None)  # as Python starts with a closed stream
    monkeypatch.setattr(sys, f"__{closed}__", None)
    assert cli.main(["bot", "random"]) == 2
    err = capsys.readouterr().err
    name = {"stdin": "input", "stdout": "output"}[closed]
    assert err.startswith(f"ofc-fast: error: standard {name} is closed: ")
    assert err.count("\n") == 1 and "--connect PORT" in err


# -- reproducible without --seed
def arena_history(tmp_path: Path, tag: str, bot: str) -> list[Any]:
    hist = tmp_path / f"{tag}.jsonl"
    env = dict(os.environ)  # the installed package (conftest: PYTHONSAFEPATH)
    cmd = f"cmd:{sys.executable} -m ofc_fast bot {bot}"
    subprocess.run(
        [sys.executable, "-m", "ofc_fast", "arena", "--bot", cmd, "--bot", "random"]
        + ["--hands", "6", "--seed", "3", "--history", str(hist), "--quiet"],
        check=True,
        env=env,
        timeout=300,
        capture_output=True,
    )
    return [json.loads(x)["history"] for x in hist.read_text().splitlines()]


def test_heuristic_bot_is_reproducible_without_a_seed(tmp_path: Path) -> None:
    a = arena_history(tmp_path, "a", "heuristic")
    b = arena_history(tmp_path, "b", "heuristic")
    assert a == b
    assert a == arena_history(tmp_path, "c", "heuristic --seed 0")


# -- TCP: the client's socket has TCP_NODELAY
def test_tcp_client_sets_nodelay(monkeypatch: pytest.MonkeyPatch) -> None:
    seen: list[int] = []

    class Spy(socket.socket):
        def setsockopt(self, *args: Any) -> None:
            super().setsockopt(*args)
            seen.append(self.getsockopt(socket.IPPROTO_TCP, socket.TCP_NODELAY))

    def spy(address: Any, timeout: float) -> socket.socket:
        sock = Spy(socket.AF_INET, socket.SOCK_STREAM)
        sock.settimeout(timeout)
        sock.connect(address)
        return sock

    with socket.socket() as server:
        server.bind(("127.0.0.1", 0))
        server.listen(1)
        port = server.getsockname()[1]

        def host() -> None:
            conn, _ = server.accept()
            with conn:
                conn.sendall(lines(HELLO, {"t": "match-end"}))
                conn.recv(100)

        t = threading.Thread(target=host)
        t.start()
        monkeypatch.setattr(client_mod.socket, "create_connection", spy)
        assert play_bot("random", connect=port) == 0
        t.join(10)
    assert seen and seen[-1] != 0


# -- the README's recipe for a bot of your own
def readme_recipe() -> str:
    text = (ROOT / "README.md").read_text(encoding="utf-8")
    m = re.search(r"<!-- own-bot-recipe[^>]*-->\s*```py\n(.*?)```", text, re.S)
    assert m, "the README's own-bot recipe block is missing"
    return m.group(1)


@pytest.mark.skipif(
    not (ROOT / "README.md").exists(),
    reason="needs a source checkout (git clone: README.md)",
)
def test_readme_own_bot_recipe_plays_in_the_arena(tmp_path: Path) -> None:
    recipe = readme_recipe()
    assert len([x for x in recipe.splitlines() if x.strip()]) <= 8
    script = tmp_path / "mybot.py"
    script.write_text(recipe, encoding="utf-8")
    env = dict(os.environ)  # the installed package (conftest: PYTHONSAFEPATH)
    report = tmp_path / "r.json"
    subprocess.run(
        [sys.executable, "-m", "ofc_fast", "arena", "--bot"]
        + [f"me@cmd:{sys.executable} {script}", "--bot", "random", "--hands", "3"]
        + ["--json", str(report), "--quiet"],
        check=True,
        env=env,
        timeout=300,
        capture_output=True,
    )
    doc = json.loads(report.read_text())
    me = next(b for b in doc["bots"] if b["name"] == "me")
    assert me["faults"] == 0 and me["decisions"]["count"] == 15


def test_numbered_acts_are_answered_with_their_number() -> None:
    """Our arena numbers its acts (``seq``): the answer echoes seq, hand_no and seat, so
    that a late answer is never taken for the next decision; an act without seq (the
    reference arena) gets the plain v1 action."""
    c = BotClient(make_bot("random", seed=0))
    for m in OPENING:
        c.feed(m)
    (reply,) = c.feed({**ACT5, "seq": 7})
    assert (reply["seq"], reply["hand_no"], reply["seat"]) == (7, 0, 1)
    for m in OPENING[1:]:
        c.feed(m)
    (plain,) = c.feed(ACT5)
    assert set(plain) == {"t", "action"}
    with pytest.raises(ProtocolError, match="seq"):
        c.feed({**ACT5, "seq": -1})


def test_join_carries_the_token() -> None:
    c = BotClient(make_bot("random", seed=0), token="s3cret")
    assert c.feed(HELLO) == [{"t": "join", "token": "s3cret"}]
    assert BotClient(make_bot("random", seed=0)).feed(HELLO) == [{"t": "join"}]


def test_a_bot_made_for_other_rules_leaves_a_hello_of_another_game() -> None:
    """``ofc-fast bot heuristic --rules ofc`` made the bot for OFC, then silently played
    the hello's game (ofc-pineapple) with no warning.  With ``--rules`` given it now
    refuses a hello of another game, naming ``--rules`` and both games, and leaves
    without joining (no ``join`` sent; exit status 2); without it, it follows the
    hello as before."""
    from ofc_fast.errors import ArenaError
    from ofc_fast.rules import PRESETS

    c = BotClient(make_bot("random", seed=0), rules=PRESETS["OFC"])
    with pytest.raises(ArenaError, match=r"^rules: .*\bofc \(OFC\).*'ofc-pineapple'"):
        c.feed(HELLO)
    same = BotClient(make_bot("random", seed=0), rules=PRESETS["PINEAPPLE"])
    assert same.feed(HELLO) == [{"t": "join"}]
    proc = run_bot(lines(HELLO), "heuristic", "--rules", "ofc")
    one_line_error(proc, "--rules: ", "ofc (OFC)", "'ofc-pineapple'", "without joining")
    assert proc.stdout == b""
    for args in (["--rules", "pineapple"], []):
        proc = run_bot(lines(HELLO, {"t": "match-end"}), "heuristic", *args)
        assert proc.returncode == 0 and proc.stdout == b'{"t":"join"}\n', proc.stderr


def test_a_token_without_connect_is_refused(capsys: pytest.CaptureFixture[str]) -> None:
    """``ofc-fast bot random --token T`` without ``--connect`` sent the token on
    standard output, where no arena checks one (only a ``tcp:`` seat does)."""
    from ofc_fast import cli

    assert cli.main(["bot", "random", "--token", "T"]) == 2
    out, err = capsys.readouterr()
    assert out == "" and err == (
        "ofc-fast: error: --token: only with --connect PORT (a tcp: seat's token)\n"
    )


class _Buggy:
    """A bot author's bug: ``act`` raises an exception no library code raises."""

    def __init__(self, error: BaseException) -> None:
        self.error = error

    def act(self, obs: Any) -> Any:
        raise self.error


@pytest.mark.parametrize(
    "error", [RuntimeError("my bug"), AttributeError("no .foo"), ZeroDivisionError()]
)
def test_a_bot_that_raises_any_exception_is_answered_with_the_filler(
    error: BaseException,
) -> None:
    """As the class says ("when the bot raises, the client logs and answers with the
    filler placement"): before, only OfcError, ValueError, TypeError, IndexError and
    KeyError were; a RuntimeError ended ``ofc-fast bot`` with a traceback (the arena
    saw a disconnect and filled in the rest of the match)."""
    logs: list[str] = []
    c = BotClient(_Buggy(error), log=logs.append)  # type: ignore[arg-type]
    for m in OPENING:
        c.feed(m)
    (reply,) = c.feed(ACT5)
    cards = sorted(p["card"] for p in reply["action"]["placements"])
    assert cards == sorted(["2c", "6s", "6h", "2h", "6c"])  # the filler: all bottom
    assert {p["row"] for p in reply["action"]["placements"]} == {"bottom"}
    assert len(logs) == 1 and "playing the filler" in logs[0]
    with pytest.raises(type(error)):  # strict (the arena's own bots): its crash fault
        strict = BotClient(_Buggy(error), strict=True)  # type: ignore[arg-type]
        for m in [*OPENING, ACT5]:
            strict.feed(m)


def test_ctrl_c_in_a_bots_act_still_stops_the_client() -> None:
    c = BotClient(_Buggy(KeyboardInterrupt()), log=lambda _: None)  # type: ignore[arg-type]
    for m in OPENING:
        c.feed(m)
    with pytest.raises(KeyboardInterrupt):
        c.feed(ACT5)


def test_a_tcp_connection_reset_names_the_arena() -> None:
    """An arena killed mid-match resets the connection: ``ofc-fast bot --connect``
    said only ``[Errno 104] Connection reset by peer``; the ArenaError names the
    arena's address and that the connection broke."""
    import struct

    from ofc_fast.errors import ArenaError

    with socket.socket() as server:
        server.bind(("127.0.0.1", 0))
        server.listen(1)
        port = server.getsockname()[1]

        def host() -> None:  # hello, then a reset (SO_LINGER 0)
            conn, _ = server.accept()
            conn.sendall(lines(HELLO))
            conn.recv(100)
            conn.setsockopt(socket.SOL_SOCKET, socket.SO_LINGER, struct.pack("ii", 1, 0))
            conn.close()

        t = threading.Thread(target=host)
        t.start()
        with pytest.raises(ArenaError, match=f"127.0.0.1:{port}: the connection broke"):
            play_bot("random", connect=port)
        t.join(10)


def test_a_tcp_bot_the_arena_drops_says_so() -> None:
    """An arena that drops the connection before ``match-end`` (a wrong ``--token``:
    closed after the join): ``ofc-fast bot --connect`` exited 0 without a word, as
    if it had played a match; it is an ArenaError naming the arena (exit status 2)."""
    from ofc_fast.errors import ArenaError

    with socket.socket() as server:
        server.bind(("127.0.0.1", 0))
        server.listen(1)
        port = server.getsockname()[1]

        def host() -> None:  # the arena's token check, failed
            conn, _ = server.accept()
            with conn:
                conn.sendall(lines(HELLO))
                conn.recv(100)

        t = threading.Thread(target=host)
        t.start()
        with pytest.raises(ArenaError, match=f"127.0.0.1:{port} closed the connection"):
            play_bot("random", connect=port, token="guess")
        t.join(10)


def test_the_client_warms_a_bot_up_for_the_hello_seat_count(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """On ``hello`` the client called ``warm_up(rules)`` without the seat count it
    knows, so a bot warmed up for 2 seats at a 3-seat table: it passes the hello's
    ``seat_count`` as ``players=`` (the built-in bots' ``warm_up(rules, players)``),
    and still calls a bot's own ``warm_up(rules)`` that takes none."""
    from ofc_fast import rules
    from ofc_fast.bots import HeuristicBot
    from ofc_fast.bots import heuristic as heuristic_mod

    hello = {"t": "hello", "proto": 1, "game_id": "ofc-pineapple", "seat_count": 3}
    calls: list[tuple[Any, ...]] = []

    class Seated:
        def act(self, obs: Any) -> Any:  # pragma: no cover - never asked to act
            raise AssertionError

        def warm_up(self, rules: Any = None, players: Any = None) -> None:
            calls.append(("seated", rules, players))

    class Plain(Seated):
        def warm_up(self, rules: Any = None) -> None:  # type: ignore[override]
            calls.append(("plain", rules))

    for bot in (Seated(), Plain()):
        assert BotClient(bot, warm_up=True).feed(dict(hello)) == [{"t": "join"}]
    assert calls == [("seated", rules.PINEAPPLE, 3), ("plain", rules.PINEAPPLE)]
    seats: list[int] = []  # the heuristic bot rehearses at the seat count it is given
    monkeypatch.setattr(heuristic_mod, "rehearse", lambda bot, r, n=2: seats.append(n))
    BotClient(HeuristicBot(seed=0), warm_up=True).feed(dict(hello))
    HeuristicBot(seed=0).warm_up(rules.OFC)
    assert seats == [3, 2]


def test_a_bot_that_cannot_play_at_the_hello_table_leaves_without_joining() -> None:
    """``ofc-fast bot value`` at a 4-seat OFC arena (no value model ships for OFC with
    4 players) joined, then failed every decision and played the filler placement
    all match: at the hello (the table's rules and seat count known) the bot's
    ``check_players`` refuses it, as ``make_bots`` does, and it leaves without
    joining; at a table a model ships for it joins."""
    from ofc_fast.errors import ArenaError

    hello = {"t": "hello", "proto": 1, "game_id": "ofc", "seat_count": 4}
    with pytest.raises(
        ArenaError, match=r"^value bot: no value model ships for OFC with 4 players.*"
    ) as info:
        BotClient(make_bot("value", seed=0)).feed(hello)
    assert str(info.value).endswith("the bot leaves without joining")
    assert BotClient(make_bot("value", seed=0)).feed({**hello, "seat_count": 2}) == [
        {"t": "join"}
    ]


@pytest.mark.parametrize("players", [0, 1, 4, -1, True, 2.5, "2"])
def test_warm_up_refuses_a_bad_seat_count_naming_the_bot_and_warm_up(players: Any) -> None:
    """``SearchBot().warm_up(players=0)`` raised the table's bare 'PINEAPPLE seats 2
    to 3 players, got 0', naming neither the bot nor warm_up: every built-in bot with
    a warm_up now names both (its other settings' errors name the bot), still a
    TableError, before any rehearsal."""
    from ofc_fast.bots import bot_names
    from ofc_fast.errors import TableError

    warmed = {n: make_bot(n, seed=0) for n in bot_names()}
    warmed = {n: b for n, b in warmed.items() if hasattr(b, "warm_up")}
    assert {"heuristic", "search"} <= set(warmed)
    for name, bot in warmed.items():
        with pytest.raises(TableError) as err:
            bot.warm_up("pineapple", players=players)
        message = str(err.value)
        assert message.startswith(f"{name} bot warm_up: "), message
        assert "players" in message, message
