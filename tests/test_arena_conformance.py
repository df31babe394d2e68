"""Conformance of the wire protocol: our arena with our bot client (in process, as a
subprocess and over TCP) and with a tiny independent client (tests/arena_clients/
tiny_client.py, standard library only), across every game id; every line each seat
receives is checked against the information model, using the hand history (the
referee's record) as the truth."""

from __future__ import annotations

import json
import os
import subprocess
import sys
import threading
import time
from pathlib import Path
from typing import Any, ClassVar

import pytest

from ofc_fast.arena import GAME_IDS, Arena, parse_bot_spec
from ofc_fast.arena._host import DealRecord
from ofc_fast.arena._transport import InProcessEndpoint, _StreamEndpoint
from ofc_fast.arena.history import deal_record, read_histories
from ofc_fast.arena.report import without_timings
from ofc_fast.bots import RandomBot, register, unregister
from ofc_fast.cards import card_str
from ofc_fast.game import Game

TINY = Path(__file__).parent / "arena_clients" / "tiny_client.py"
PROTOCOL_IDS = ["ofc", "ofc-pineapple", "ofc-progressive", "ofc-27"]
_SHARED_KEYS = (
    "seat",
    "players",
    "rules",
    "game",
    "lowball",
    "fantasyland",
    "boards",
    "face_down_counts",
    "discards",
    "discard_counts",
    "dealt",
    "to_discard",
    "future_cards",
    "future_discards",
    "legal_actions",
    "full_set",
)


class RecordingBot(RandomBot):
    """A random bot that keeps every observation it was given."""

    seen: ClassVar[list[dict[str, Any]]] = []

    def act(self, observation: Any) -> Any:
        RecordingBot.seen.append(json.loads(json.dumps(observation)))
        return super().act(observation)


@pytest.fixture()
def recorder() -> Any:
    RecordingBot.seen = []
    register(
        "recorder", lambda rules=None, seed=None: RecordingBot(seed=seed), replace=True
    )
    yield RecordingBot
    unregister("recorder")


def tiny(log: Path, mode: str = "good") -> str:
    return f"cmd:{sys.executable} {TINY} {log} {mode}"


def run_arena(
    game_id: str, bots: list[str], hands: int, seed: int, **kw: Any
) -> tuple[dict[str, Any], list[dict[str, Any]]]:
    lines: list[dict[str, Any]] = []

    def keep(d: DealRecord) -> None:
        lines.append(
            json.loads(
                json.dumps(
                    deal_record(
                        d.game,
                        d.hand_no,
                        d.seats,
                        deck_no=d.deck_no,
                        rotation=d.rotation,
                        decisions=d.decisions,
                    )
                )
            )
        )

    arena = Arena(
        game_id, [parse_bot_spec(b) for b in bots], hands, seed, on_deal=keep, **kw
    )
    return arena.run(), lines


def check_seat_stream(
    received: list[dict[str, Any]], deals: list[dict[str, Any]], bot_name: str
) -> int:
    """Every line one bot received against the referee's record; returns the events
    checked."""
    assert received[0]["t"] == "hello" and received[0]["proto"] == 1
    assert received[1]["t"] == "joined" and received[1]["name"] == bot_name
    assert received[-1]["t"] == "match-end"
    by_hand = {d["hand_no"]: d for d in deals}
    checked = 0
    seat = None
    game: Game | None = None
    for msg in received[2:-1]:
        t = msg["t"]
        if t == "hand-start":
            d = by_hand[msg["hand_no"]]
            seat = msg["seat"]
            assert d["seats"][seat] == bot_name
            h = d["history"]
            game = Game(
                h["rules"]["name"],
                h["players"],
                seed=h["seed"],
                button=0,
                fantasyland=h["fantasyland"],
            )
            moves = iter(h["moves"])
            hidden_fl = {s for s, n in enumerate(h["fantasyland"]) if n}
            showdown = False
            continue
        assert game is not None and seat is not None
        if t == "act":
            assert msg["seat"] == seat == game.to_act
            assert msg["decision"] == {
                "kind": "place",
                "place": len(game.dealt) - game.to_discard,
                "discard": game.to_discard,
            }
            continue
        if t == "hand-end":
            assert msg["points"] == list(game.result().net)
            continue
        assert t == "event"
        ev = msg["ev"]
        checked += 1
        kind, s = ev["event"], ev["seat"]
        if kind == "fantasyland":
            assert game.fantasyland[s] == ev["cards"] > 0
        elif kind == "deal":
            assert s == game.to_act and ev["count"] == len(game.dealt)
            want = [card_str(c) for c in game.dealt] if s == seat else []
            assert ev["cards"] == want, "another seat's dealt cards were sent"
        elif kind == "place":
            move = next(moves)
            dealt = list(game.dealt)
            game.play(move)
            discards = [card_str(c) for c in move["discard"]]
            assert ev["count"] == len(discards)
            assert ev["discarded"] == (discards if s == seat else []), "discards leaked"
            placed = sorted(card_str(c) for c, _ in move["place"])
            shown = sorted(p["card"] for p in ev["placements"])
            if s != seat and s in hidden_fl:
                assert shown == [], "a Fantasyland seat's placements leaked"
            else:
                assert shown == placed and set(shown) <= {card_str(c) for c in dealt}
        elif kind == "showdown":
            showdown = True
            b = game.boards[s]
            assert [ev["top"], ev["middle"], ev["bottom"]] == [
                [card_str(c) for c in r] for r in b.rows
            ]
            assert ev["fouled"] == game.result().fouls[s]
            nxt = game.result().fantasyland[s]
            assert ev["next_fantasyland"] == (nxt or None)
        elif kind == "score":
            assert showdown and ev["points"] == game.result().net[s]
        else:  # pragma: no cover - an event type the arena never sends
            raise AssertionError(kind)
    return checked


@pytest.fixture()
def sent(monkeypatch: pytest.MonkeyPatch) -> dict[int, list[dict[str, Any]]]:
    """Every message the arena sends, by endpoint (id of the endpoint object)."""
    out: dict[int, list[dict[str, Any]]] = {}
    for cls in (InProcessEndpoint, _StreamEndpoint):
        original = cls.send

        def send(self: Any, message: dict[str, Any], _orig: Any = original) -> bool:
            out.setdefault(id(self), []).append(json.loads(json.dumps(message)))
            return bool(_orig(self, message))

        monkeypatch.setattr(cls, "send", send)
    return out


@pytest.mark.parametrize("game_id", PROTOCOL_IDS)
def test_every_seat_sees_only_what_it_may(
    game_id: str, tmp_path: Path, recorder: Any, sent: dict[int, list[dict[str, Any]]]
) -> None:
    """Three kinds of client at one table: our client in process, the tiny
    independent client and our client as a subprocess.  Every event every seat
    received is checked (as the arena sent it, and as the tiny client read it from
    its pipe); our client's rebuilt observations equal the engine's."""
    log = tmp_path / "a.log"
    bots = ["recorder", tiny(log), f"cmd:{sys.executable} -m ofc_fast bot random"]
    deals: list[dict[str, Any]] = []
    arena = Arena(
        game_id,
        [parse_bot_spec(b) for b in bots],
        6,
        11,
        timeout_ms=20000,
        on_deal=lambda d: deals.append(
            json.loads(json.dumps(deal_record(d.game, d.hand_no, d.seats)))
        ),
    )
    report = arena.run()
    assert report["hands"] == 6 and all(b["faults"] == 0 for b in report["bots"])
    for rec in arena.records:
        assert check_seat_stream(sent[id(rec.endpoint)], deals, rec.name) > 50
    received = [json.loads(x) for x in log.read_text().splitlines()]
    assert received == sent[id(arena.records[1].endpoint)]
    check_observations(recorder.seen, deals, "recorder")


def check_observations(
    seen: list[dict[str, Any]], deals: list[dict[str, Any]], name: str
) -> None:
    """The observations our client rebuilt from the events equal the engine's."""
    it = iter(seen)
    n = 0
    for d in deals:
        h = d["history"]
        g = Game(
            h["rules"]["name"],
            h["players"],
            seed=h["seed"],
            button=0,
            fantasyland=h["fantasyland"],
        )
        for m in h["moves"]:
            s = g.to_act
            if d["seats"][s] == name:
                want = g.observation(s)
                got = next(it)
                for key in _SHARED_KEYS:
                    assert got[key] == want[key], (key, d["hand_no"])
                n += 1
            g.play(m)
    assert n == len(seen) > 0


def test_fantasyland_hands_hide_the_set(
    tmp_path: Path, sent: dict[int, list[dict[str, Any]]]
) -> None:
    """A match long enough to reach Fantasyland (progressive, strong bots): the set
    stays hidden from the other seat until the showdown; seats keep their places
    through Fantasyland hands and rotate otherwise."""
    log = tmp_path / "t.log"
    deals: list[dict[str, Any]] = []
    arena = Arena(
        "ofc-progressive",
        [parse_bot_spec("heuristic"), parse_bot_spec(tiny(log))],
        30,
        3,
        timeout_ms=20000,
        on_deal=lambda d: deals.append(
            json.loads(json.dumps(deal_record(d.game, d.hand_no, d.seats)))
        ),
    )
    report = arena.run()
    assert any(any(d["history"]["fantasyland"]) for d in deals), "no Fantasyland hand"
    for rec in arena.records:
        check_seat_stream(sent[id(rec.endpoint)], deals, rec.name)
    assert report["bots"][0]["fantasylands"] > 0
    for before, d in zip(deals, deals[1:]):
        kept = any(d["history"]["fantasyland"])
        assert (d["seats"] == before["seats"]) is kept


@pytest.mark.parametrize("game_id", sorted(set(GAME_IDS) - set(PROTOCOL_IDS)))
def test_our_own_game_ids(game_id: str, recorder: Any) -> None:
    report, deals = run_arena(game_id, ["recorder", "random"], hands=2, seed=5)
    assert report["game_id"] == game_id and report["hands"] == 2
    check_observations(recorder.seen, deals, "recorder")


def test_tcp_bot_and_same_seed_same_report(tmp_path: Path) -> None:
    from scripts import free_port

    port = free_port()

    def once() -> dict[str, Any]:
        proc = subprocess.Popen(
            [
                sys.executable,
                "-m",
                "ofc_fast",
                "bot",
                "random",
                "--seed",
                "4",
                "--connect",
                str(port),
            ],
            stderr=subprocess.DEVNULL,
        )
        try:
            report, _ = run_arena(
                "ofc",
                ["heuristic", f"tcp:{port}", tiny(tmp_path / "x.log")],
                hands=4,
                seed=9,
            )
        finally:
            proc.wait(30)
        return report

    a, b = once(), once()
    assert a["hands"] == 4 and all(x["faults"] == 0 for x in a["bots"])
    assert without_timings(a) == without_timings(b)


def test_history_lines_validate_and_replay(tmp_path: Path) -> None:
    jsonschema = pytest.importorskip(
        "jsonschema", reason='pip install ".[test]" (jsonschema)'
    )
    from ofc_fast.arena.history import load_schema

    _, deals = run_arena("ofc-pineapple", ["random", "heuristic"], hands=5, seed=2)
    schema = load_schema()
    path = tmp_path / "h.jsonl"
    path.write_text("".join(json.dumps(d) + "\n" for d in deals))
    for d in deals:
        jsonschema.validate(d, schema)
    bad = dict(deals[0], points=[1])
    with pytest.raises(jsonschema.ValidationError):
        jsonschema.validate(bad, schema)
    replayed = list(read_histories(path))
    assert [r.record["hand_no"] for r in replayed] == list(range(5))
    assert all(r.game.is_over for r in replayed)


def test_duplicate_plays_each_deck_in_every_rotation() -> None:
    report, deals = run_arena(
        "ofc-pineapple", ["heuristic", "random"], hands=6, seed=1, duplicate=True
    )
    assert report["hands"] == 12
    dup = report["duplicate"]
    per_deck: dict[int, list[int]] = {}
    for d in deals:
        g = d["history"]
        same = [x for x in deals if x["deck_no"] == d["deck_no"]]
        assert len(same) == 2 and {tuple(x["seats"]) for x in same} == {
            ("heuristic", "random"),
            ("random", "heuristic"),
        }
        assert all(x["history"]["deck"] == g["deck"] for x in same)
        row = per_deck.setdefault(d["deck_no"], [0, 0])
        for s, name in enumerate(d["seats"]):
            row[["heuristic", "random"].index(name)] += d["points"][s]
    diffs = [a - b for a, b in per_deck.values()]
    mean = sum(diffs) / len(diffs)
    assert dup["decks"] == 6 and dup["pairs"][0][
        "difference_per_deck_mean"
    ] == pytest.approx(mean)
    var = sum((x - mean) ** 2 for x in diffs) / (len(diffs) - 1)
    t_975_5 = 2.5705818366147395  # Student t, 5 degrees of freedom (tables)
    assert dup["pairs"][0]["difference_per_deck_ci95"] == pytest.approx(
        t_975_5 * (var / len(diffs)) ** 0.5
    )


def test_cli_arena_with_stdio_bots(tmp_path: Path) -> None:
    rep, hist = tmp_path / "r.json", tmp_path / "h.jsonl"
    out = subprocess.run(
        [
            sys.executable,
            "-m",
            "ofc_fast",
            "arena",
            "--rules",
            "pineapple",
            "--bot",
            "heuristic",
            "--bot",
            f"me@cmd:{sys.executable} -m ofc_fast bot random",
            "--hands",
            "3",
            "--seed",
            "7",
            "--json",
            str(rep),
            "--history",
            str(hist),
            "--progress-json",
            "--progress-every",
            "1",
        ],
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert out.returncode == 0, out.stderr
    report = json.loads(rep.read_text())
    assert [b["name"] for b in report["bots"]] == ["heuristic", "me"]
    progress = [json.loads(x) for x in out.stderr.splitlines() if x.startswith("{")]
    assert [p["hands_done"] for p in progress] == [1, 2, 3]
    assert len(hist.read_text().splitlines()) == 3
    shown = subprocess.run(
        [sys.executable, "-m", "ofc_fast", "replay", str(hist), "--deal", "1"],
        capture_output=True,
        text=True,
        timeout=60,
    )
    assert shown.returncode == 0 and shown.stdout.startswith("hand 1 ")


def _cut_as_threads_start(monkeypatch: pytest.MonkeyPatch) -> subprocess.Popen[bytes]:
    """The process of a ``cmd:`` bot whose endpoint a KeyboardInterrupt cut as its
    reader and writer threads had started (its watcher not yet)."""
    from ofc_fast.arena import _transport

    started: list[subprocess.Popen[bytes]] = []

    class Recorded(subprocess.Popen):  # type: ignore[type-arg]
        def __init__(self, *args: Any, **kwargs: Any) -> None:
            super().__init__(*args, **kwargs)
            started.append(self)

    start_threads = _StreamEndpoint._start_threads

    def interrupted(self: Any, *args: Any, **kwargs: Any) -> None:
        start_threads(self, *args, **kwargs)
        raise KeyboardInterrupt

    monkeypatch.setattr(_transport.subprocess, "Popen", Recorded)
    monkeypatch.setattr(_StreamEndpoint, "_start_threads", interrupted)
    command = f"{sys.executable} -c 'import sys; sys.stdin.read()'"
    with pytest.raises(KeyboardInterrupt):
        _transport.ProcessEndpoint(command)
    monkeypatch.undo()
    (proc,) = started
    return proc


@pytest.mark.skipif(sys.platform == "win32", reason="run on POSIX (process groups)")
def test_a_ctrl_c_as_a_cmd_bot_s_threads_start_kills_the_bot(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """Regression: a Ctrl-C that landed while a ``cmd:`` bot's endpoint started its
    reader, writer and watcher threads (``Thread.start`` waits for each) left the bot
    process running with nobody to end it: in a session of its own, out of the
    terminal's Ctrl-C, its stdin held open by the writer thread.  The bot is now
    killed.  Here KeyboardInterrupt is raised as the threads have started."""
    proc = _cut_as_threads_start(monkeypatch)
    end = time.monotonic() + 5
    while proc.poll() is None and time.monotonic() < end:
        time.sleep(0.01)
    alive = proc.poll() is None
    if alive:
        os.killpg(proc.pid, 9)
        proc.wait()
    assert not alive, "the bot process runs on"


@pytest.mark.skipif(sys.platform == "win32", reason="run on POSIX (process groups)")
def test_a_ctrl_c_as_a_cmd_bot_s_threads_start_leaves_no_zombie_thread_or_pipe(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """Regression: a Ctrl-C that landed while a ``cmd:`` bot's endpoint started its
    threads killed the bot but left it a zombie that nobody reaped, and its writer
    thread waiting for ever, holding the endpoint and the pipe to the bot's stdin: a
    process that started arenas and stopped them so piled up a zombie, a thread and
    a pipe each time.  The endpoint now reaps the bot, and both threads end."""
    before = set(threading.enumerate())
    proc = _cut_as_threads_start(monkeypatch)
    end = time.monotonic() + 5
    while proc.returncode is None and time.monotonic() < end:  # (reaped, not by us)
        time.sleep(0.01)
    reaped = proc.returncode is not None
    started = set(threading.enumerate()) - before
    for t in started:
        t.join(max(end - time.monotonic(), 0.0))
    running = [t.name for t in started if t.is_alive()]
    if not reaped:
        proc.wait()
    assert reaped, "the killed bot is a zombie nobody reaps"
    assert not running, running
    assert proc.stdin is not None and proc.stdin.closed
    assert proc.stdout is not None and proc.stdout.closed


@pytest.mark.skipif(sys.platform == "win32", reason="run on POSIX (process groups)")
def test_a_ctrl_c_as_a_cmd_bot_s_process_starts_leaves_no_process_behind(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """Regression: a Ctrl-C that landed as a ``cmd:`` bot's process started (inside
    ``subprocess.Popen``, once it had forked: it cannot tell the child it made) left
    the bot with nobody to end or reap it, a zombie once its stdin closed, one per
    arena stopped so.  Ctrl-C is now held back until the bot is started and watched,
    then the bot is killed and reaped.  Here SIGINT comes as Popen returns."""
    import signal

    from ofc_fast.arena import _transport

    started: list[subprocess.Popen[bytes]] = []

    class Interrupted(subprocess.Popen):  # type: ignore[type-arg]
        def __init__(self, *args: Any, **kwargs: Any) -> None:
            super().__init__(*args, **kwargs)
            started.append(self)
            os.kill(os.getpid(), signal.SIGINT)  # (raised at the next bytecode)

    monkeypatch.setattr(_transport.subprocess, "Popen", Interrupted)
    command = f"{sys.executable} -c 'import sys; sys.stdin.read()'"
    with pytest.raises(KeyboardInterrupt):
        _transport.ProcessEndpoint(command)
    monkeypatch.undo()
    (proc,) = started
    end = time.monotonic() + 5
    while proc.returncode is None and time.monotonic() < end:  # (reaped, not by us)
        time.sleep(0.01)
    reaped = proc.returncode is not None
    if not reaped:
        os.killpg(proc.pid, 9)
        proc.wait()
    assert reaped, "the bot was left to run on, or to be a zombie"
