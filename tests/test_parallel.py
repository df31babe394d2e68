"""Parallel runs (ofc_fast.parallel): the split, the local and process executors, a
killed worker, self-play shards and resuming.  Ray: tests/test_parallel_ray.py."""

from __future__ import annotations

import json
import os
import re
import signal
import subprocess
import sys
import time
from pathlib import Path
from typing import Any

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from scripts import refuse_writes_in

from ofc_fast import rules as rules_mod
from ofc_fast.arena.history import read_histories
from ofc_fast.bots import make_bot
from ofc_fast.cli import main
from ofc_fast.errors import GameError
from ofc_fast.game import Game, action_for_move, deal_seed, play_out
from ofc_fast.parallel import (
    ChunkTask,
    ExecutorError,
    LocalExecutor,
    ProcessExecutor,
    RayExecutor,
    RunSpec,
    exclusive,
    in_order,
    make_executor,
    play_parallel,
    run_chunk,
)
from ofc_fast.parallel._chaos import HoldUntil
from ofc_fast.parallel.selfplay import SelfPlayError, selfplay

HEUR = ("heuristic", {"samples": 4, "arrangements": 3})


def _spec(
    hands: int = 24,
    players: int = 2,
    seed: int = 11,
    button: int = 0,
    bots=(HEUR, ("random", {})),
    fantasyland: bool = False,
) -> RunSpec:
    """A run; independent deals unless ``fantasyland`` (test_parallel_chains.py tests
    the units of a deal and its Fantasyland deals)."""
    return RunSpec.make(
        "pineapple",
        players,
        seed=seed,
        hands=hands,
        bots=list(bots),
        button=button,
        fantasyland=fantasyland,
    )


# -- the split, against an independent reference of what deal i is


def _reference_deal(
    rules: str, players: int, seed: int, i: int, button: int, bots: list[tuple[str, dict]]
) -> Game:
    """Deal i as the README defines it, written from the definition: deck seed
    deal_seed(seed, i), button (button + i) % players, no Fantasyland, and freshly
    made bots seeded deal_seed(deal_seed(seed, i), 1 + seat)."""
    g = Game(rules, players, seed=deal_seed(seed, i), button=(button + i) % players)
    fresh = [
        make_bot(n, rules, deal_seed(deal_seed(seed, i), 1 + s), **st)
        for s, (n, st) in enumerate(bots)
    ]
    play_out(g, fresh)
    return g


def test_deals_match_the_reference_definition() -> None:
    bots = [HEUR, ("random", {}), HEUR]
    spec = _spec(hands=9, players=3, seed=5, button=2, bots=bots)
    res = run_chunk(ChunkTask(spec, 0, 9, history=True))
    for i, (o, line) in enumerate(zip(res.outcomes, res.lines)):
        g = _reference_deal("pineapple", 3, 5, i, 2, bots)
        assert o["deal"] == i and o["seed"] == deal_seed(5, i)
        assert o["net"] == list(g.result().net)
        assert o["button"] == g.button
        assert json.loads(line)["history"] == json.loads(json.dumps(g.history()))


@pytest.mark.parametrize("sizes", [(1, 24), (5, 7), (24, 3)])
def test_results_do_not_depend_on_the_chunking(sizes: tuple[int, int]) -> None:
    spec = _spec()
    a = play_parallel(spec, chunk_size=sizes[0], history=True)
    b = play_parallel(spec, chunk_size=sizes[1], history=True)
    assert a.outcomes == b.outcomes and a.lines == b.lines
    assert a.match.to_dict() == b.match.to_dict()
    assert [o["deal"] for o in a.outcomes] == list(range(24))


@settings(max_examples=25, deadline=None)
@given(
    seed=st.integers(0, 2**64 - 1),
    hands=st.integers(1, 12),
    cuts=st.lists(st.integers(1, 11), max_size=4),
    table=st.sampled_from(
        [("pineapple", 2), ("pineapple", 3), ("ofc", 4), ("classic_1_6", 4)]
    ),
    button=st.integers(0, 3),
)
def test_any_cut_of_a_run_gives_its_deals(
    seed: int, hands: int, cuts: list[int], table: tuple[str, int], button: int
) -> None:
    """Property: chunks cut anywhere, played in any order, give deal i exactly as the
    whole run does."""
    rules, players = table
    spec = RunSpec.make(
        rules,
        players,
        seed=seed,
        hands=hands,
        bots=[("random", {})],
        button=button % players,
        fantasyland=False,
    )
    whole = run_chunk(ChunkTask(spec, 0, hands, history=True))
    edges = sorted({0, hands, *(c for c in cuts if c < hands)})
    parts = [
        run_chunk(ChunkTask(spec, a, b, history=True))
        for a, b in reversed(list(zip(edges, edges[1:])))
    ]
    parts.reverse()
    assert [o for p in parts for o in p.outcomes] == whole.outcomes
    assert [x for p in parts for x in p.lines] == whole.lines


def test_match_totals_are_the_sum_of_the_deals() -> None:
    run = play_parallel(_spec(hands=12), chunk_size=5)
    for s in range(2):
        assert run.match.totals[s] == sum(o["net"][s] for o in run.outcomes)
        assert run.match.stats[s].net == [o["net"][s] for o in run.outcomes]
        assert run.match.stats[s].fouls == sum(o["fouls"][s] for o in run.outcomes)
    assert run.match.hands_played == 12


def test_in_order_reorders() -> None:
    items = [(2, "c"), (0, "a"), (1, "b"), (3, "d")]
    assert list(in_order(iter(items))) == ["a", "b", "c", "d"]  # type: ignore[arg-type]


def test_bad_specs_are_refused() -> None:
    with pytest.raises(GameError, match="seats 2 to"):
        RunSpec.make("pineapple", 7, seed=1, hands=3, bots=[HEUR])
    with pytest.raises(GameError, match="need 1 or 2 bots"):
        RunSpec.make("pineapple", 2, seed=1, hands=3, bots=[HEUR] * 3)
    with pytest.raises(GameError, match="seed"):
        RunSpec.make("pineapple", 2, seed=-1, hands=3, bots=[HEUR])
    with pytest.raises(GameError, match="chunk size"):
        _spec().chunks(0)
    from ofc_fast.errors import BotError

    with pytest.raises(BotError):
        RunSpec.make("pineapple", 2, seed=1, hands=3, bots=[("heuristic", {"nope": 1})])


def test_run_spec_refuses_bots_that_cannot_play_at_its_table() -> None:
    """RunSpec.make("ofc", 4, ..., bots=[("value", {})]) was made, and its value
    bots raised only at their first decision in a worker (no model ships for OFC at
    4 seats); settings holding ``seed``, ``rules`` or ``name`` raised Python's
    TypeError.  Both are BotErrors when the spec is made, naming the problem."""
    from ofc_fast.errors import BotError

    with pytest.raises(BotError, match=r"value bot: .*OFC with 4 players"):
        RunSpec.make("ofc", 4, seed=1, hands=3, bots=[("value", {})])
    assert RunSpec.make("ofc", 2, seed=1, hands=3, bots=[("value", {})]).players == 2
    for key in ("seed", "rules", "name"):
        with pytest.raises(BotError, match=f"settings\\[1\\]: '{key}'"):
            RunSpec.make("pineapple", 2, 1, 3, [("random", {}), ("random", {key: 1})])


@pytest.mark.parametrize(
    ("bot", "expected"),
    [
        (
            ("heuristic", {"samples": np.int64(4)}),
            r"bots\[1\] 'heuristic': settings must be JSON",
        ),
        (("random", {"x": object()}), r"bots\[1\] 'random': settings must be JSON"),
        ("heuristic", r"bots\[1\]: a \(registry name, settings\) pair .* got 'heuristic'"),
        (("heuristic", [4]), r"bots\[1\]: a registry name \(str\) and settings \(a dict\)"),
        (object(), r"bots\[1\]: a \(registry name, settings\) pair"),
    ],
)
def test_a_bot_that_cannot_travel_to_the_workers_is_a_bot_error(
    bot: object, expected: str
) -> None:
    """Settings that are not JSON data (a NumPy int from a sweep) or a seat that is
    not a (name, settings) pair raised a bare TypeError or ValueError ('too many
    values to unpack') from RunSpec.make; each is a BotError naming the seat."""
    from ofc_fast.errors import BotError

    with pytest.raises(BotError, match=expected):
        RunSpec.make("pineapple", 2, seed=1, hands=3, bots=[HEUR, bot])


# -- the process pool


def test_process_pool_gives_the_local_result() -> None:
    spec = _spec(hands=20)
    local = play_parallel(spec, LocalExecutor(), chunk_size=20, history=True)
    with ProcessExecutor(2) as ex:
        proc = play_parallel(spec, ex, chunk_size=3, history=True)
    assert proc.outcomes == local.outcomes and proc.lines == local.lines
    assert proc.match.to_dict() == local.match.to_dict()
    assert len(proc.pids) == 2 and os.getpid() not in proc.pids  # really elsewhere


@pytest.mark.parametrize("how", ["copy", "deepcopy", "pickle"])
def test_a_copy_of_a_process_executor_leaves_its_pool_alone(how: str) -> None:
    """Regression: once a ProcessExecutor had run, ``copy.deepcopy`` (and pickling) of
    it raised TypeError "cannot pickle '_thread.lock' object", having duplicated the
    pool's pipes on the way: the original's next run failed with OSError "Bad file
    descriptor"; ``copy.copy`` shared the pool, and closing the copy shut the
    original's ("cannot schedule new futures after shutdown").  A copy is now the
    settings with a pool of its own, started on first use."""
    import copy
    import gc
    import pickle

    copier = {
        "copy": copy.copy,
        "deepcopy": copy.deepcopy,
        "pickle": lambda x: pickle.loads(pickle.dumps(x)),
    }[how]
    with ProcessExecutor(2, max_restarts=3) as ex:
        assert sorted(ex.map_unordered(abs, [-1, -2])) == [(0, 1), (1, 2)]
        again = copier(ex)
        assert type(again) is ProcessExecutor and again._pool is None
        assert (again.workers, again.max_restarts) == (2, 3)
        again.close()
        del again
        gc.collect()
        assert sorted(ex.map_unordered(abs, [-3, -4])) == [(0, 3), (1, 4)]


def test_a_killed_process_worker_loses_nothing() -> None:
    spec = _spec(hands=60)
    local = play_parallel(spec, chunk_size=60)
    tasks = spec.chunks(2)
    seen: list[int] = []
    results = {}
    killed = None
    with ProcessExecutor(2) as ex:
        for i, res in ex.map_unordered(run_chunk, tasks):
            seen.append(i)
            results[i] = res
            if killed is None:
                killed = ex.worker_pids()[0]
                os.kill(killed, signal.SIGKILL)
        assert ex.restarts >= 1
    assert killed is not None
    assert sorted(seen) == list(range(len(tasks)))  # every chunk once, none doubled
    outcomes = [o for i in range(len(tasks)) for o in results[i].outcomes]
    assert [o["deal"] for o in outcomes] == list(range(60))
    assert outcomes == local.outcomes


def test_the_restart_limit_is_each_run_s_own() -> None:
    """``max_restarts`` bounds the rebuilds of one run: an executor kept for many runs
    (a training's steps, a long session) counted every run's lost worker together,
    and the run after the limit failed though it lost a single worker."""
    spec = _spec(hands=8)
    local = play_parallel(spec, chunk_size=8)
    with ProcessExecutor(1, max_restarts=1) as ex:
        for _ in range(3):
            tasks = spec.chunks(2)
            results = {}
            for i, res in ex.map_unordered(run_chunk, tasks):
                results[i] = res
                if len(results) == 1:  # one worker lost in each run
                    os.kill(ex.worker_pids()[0], signal.SIGKILL)
            assert ex.restarts == 1
            outcomes = [o for i in range(len(tasks)) for o in results[i].outcomes]
            assert outcomes == local.outcomes


class _Reads(list):
    """A list that records which items were read (an executor reads ``items[i]`` when
    it submits chunk ``i``)."""

    def __init__(self, items: Any) -> None:
        super().__init__(items)
        self.read: list[int] = []

    def __getitem__(self, i: Any) -> Any:
        self.read.append(i)
        return super().__getitem__(i)


def check_a_stalled_chunk_holds_back_the_rest(ex: Any, tmp_path: Path) -> None:
    """Chunk 0 stalls (as on a stopped worker) while the other workers play on: ``ex``
    submits no chunk 8 per worker or more past it, so that the results waiting to be
    put back in deal order are bounded; once it is released, every chunk comes back
    once and, in order, they are the local run's."""
    spec = _spec(hands=48)
    tasks = _Reads(spec.chunks(1))
    window = 8 * ex.workers  # (docs/parallel.md)
    assert len(tasks) > 2 * window
    release = tmp_path / "release"
    results = ex.map_unordered(HoldUntil(str(release), tasks[0], run_chunk), tasks)
    tasks.read.clear()
    try:
        early = [next(results) for _ in range(window - 1)]  # all but chunk 0 may come
        assert sorted(i for i, _ in early) == list(range(1, window))
        assert max(tasks.read) == window - 1  # chunk 0 in flight: none further
    finally:  # (a failure does not leave chunk 0's worker waiting)
        release.touch()
    ordered = list(in_order(iter([*early, *results])))
    local = play_parallel(spec, chunk_size=48)
    assert [o for res in ordered for o in res.outcomes] == local.outcomes


def test_a_stalled_process_worker_does_not_pile_up_results(tmp_path: Path) -> None:
    """Only the chunks in flight were capped: a chunk that stalled (its worker
    stopped with ``kill -STOP``) let every later chunk's result pile up in the parent
    until it came back (``play --workers`` grew without bound)."""
    with ProcessExecutor(2) as ex:
        check_a_stalled_chunk_holds_back_the_rest(ex, tmp_path)


def test_a_chunk_that_raises_or_kills_its_worker_is_a_named_error() -> None:
    """A chunk that raised in a worker (a bot's own bug) came back as the bare
    exception, and one that cannot travel as a raw pickling error, where Ray names the
    chunk; a worker that always exits said only 'out of memory, or a worker that
    cannot start'.  Each is an ExecutorError naming the cause, and the workers stop."""
    from ofc_fast.parallel import ExecutorError

    with ProcessExecutor(2) as ex:
        with pytest.raises(ExecutorError, match=r"chunk 2 raised ValueError\("):
            list(ex.map_unordered(int, ["1", "2", "x", "4"]))
        assert ex.worker_pids() == []  # stopped, not left running the rest
        with pytest.raises(
            ExecutorError, match=r"chunk 0 raised \w+\(.*(pickle|local object)"
        ):
            list(ex.map_unordered(abs, [lambda: 0]))
    with (
        ProcessExecutor(1, max_restarts=1) as ex,
        pytest.raises(ExecutorError, match=r"broke 2 times .*exit status 3"),
    ):
        list(ex.map_unordered(os._exit, [3]))


def test_a_chunk_that_kills_its_worker_every_time_is_named() -> None:
    """A chunk whose worker died on every try (a bot calling ``os._exit``) gave up
    with "the process pool broke 6 times (a worker died: exit status 7...)": not
    which chunk, among many that ran well.  The chunks in flight at the last break
    are named: with one worker (two chunks in flight), chunk 2 and no chunk before."""
    from ofc_fast.parallel import ExecutorError

    items = ["1", "2", "__import__('os')._exit(7)", "4", "5"]
    with (
        ProcessExecutor(1, max_restarts=2) as ex,
        pytest.raises(ExecutorError, match="exit status 7") as info,
    ):
        list(ex.map_unordered(eval, items))
    said = re.search(r"chunks? ([\d, ]+) in flight", str(info.value))
    assert said is not None, str(info.value)
    assert min(int(n) for n in said.group(1).split(", ")) == 2, str(info.value)


def test_a_run_given_no_executor_names_it(tmp_path: Path) -> None:
    """``play_parallel(spec, "process")`` (or a worker count, ``2``) failed with
    AttributeError: 'str' object has no attribute 'map_unordered'; ``selfplay`` only
    after making its output folder (``learned.train.train`` too).  Each is an
    ExecutorError naming the argument, before anything is written."""
    from ofc_fast.arena import Arena, parse_bot_spec
    from ofc_fast.learned.train import train
    from ofc_fast.parallel import ExecutorError
    from ofc_fast.parallel.tournament import run_arena

    spec = RunSpec.make("pineapple", 2, seed=1, hands=2, bots=[("random", {})])
    shards = RunSpec.make(
        "pineapple", 2, seed=1, hands=2, bots=[("random", {})], fantasyland=False
    )
    arena = Arena("pineapple", [parse_bot_spec("random")] * 2, hands=2, seed=1)
    out = tmp_path / "shards"
    bad: Any
    for bad in ("process", 2):
        said = r"^executor: an Executor \(make_executor\(workers=N\)\), got "
        said += re.escape(repr(bad)) + "$"
        with pytest.raises(ExecutorError, match=said):
            play_parallel(spec, bad)
        with pytest.raises(ExecutorError, match=said):
            selfplay(shards, out, bad, progress=False)
        assert not out.exists()
        with pytest.raises(ExecutorError, match=said):
            run_arena(arena, bad)
        with pytest.raises(ExecutorError, match=said):
            train("pineapple", tmp_path / "model", executor=bad, progress=False)
        assert not (tmp_path / "model").exists()


def test_a_chunk_that_raises_in_this_process_is_the_same_named_error() -> None:
    """``--workers 1`` (the local executor) let a chunk's exception out as it was (a
    bot's RuntimeError: a traceback and exit status 1 from ``ofc-fast play``), where
    ``--workers 2`` and Ray give an ExecutorError naming the chunk: the same run,
    the same error, on every executor."""
    with pytest.raises(ExecutorError, match=r"^chunk 2 raised ValueError\(") as info:
        list(LocalExecutor().map_unordered(int, ["1", "2", "x", "4"]))
    assert isinstance(info.value.__cause__, ValueError)  # (its traceback kept)
    seats = r"^PINEAPPLE seats 2 to 3 players, got 9$"  # an OfcError: as it is
    with pytest.raises(GameError, match=seats):
        list(
            LocalExecutor().map_unordered(
                lambda n: RunSpec.make("pineapple", n, 1, 1, [("random", {})]), [9]
            )
        )


def test_a_bot_that_raises_fails_play_alike_on_every_executor(
    capsys: pytest.CaptureFixture[str],
) -> None:
    """``ofc-fast play --workers 1`` with a bot that raises ended in a traceback (exit
    status 1), ``--workers 2`` in one line naming the chunk (exit status 2)."""
    args = ["play", "--players", "2", "--hands", "20", "--seed", "1", "--quiet"]
    args += ["--bots", "ofc_fast.parallel._chaos:crasher,random"]
    errs = []
    for workers in ("1", "2"):
        assert main([*args, "--workers", workers]) == 2
        errs.append(capsys.readouterr().err)
    bot = re.escape("'ofc_fast.parallel._chaos:crasher'")
    said = (
        rf"ofc-fast: error: deal \d+, seat 0 \(bot {bot}\) raised RuntimeError\('boom'\)\n"
    )
    assert re.fullmatch(said, errs[0]) and errs[1] == errs[0], errs


def test_a_failing_bot_names_its_deal_as_play_prints_and_json_numbers_it(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """Regression: the error of a bot that raised named its deal counted from 0 ("deal
    1" for the second deal), while ``play`` prints it as Deal 2 and ``--json`` numbers
    it ``"deal": 2``.  The deals before it are in the history: it is the next one."""
    history = tmp_path / "h.jsonl"
    args = ["play", "--players", "2", "--hands", "20", "--seed", "1", "--quiet"]
    args += ["--bots", "ofc_fast.parallel._chaos:crasher,random"]
    assert main([*args, "--history", str(history)]) == 2
    before = len(history.read_text().splitlines())  # the deals it played, from 1
    said = capsys.readouterr().err
    assert said.startswith(f"ofc-fast: error: deal {before + 1}, seat 0 "), said
    assert main([*args, "--workers", "1"]) == 2
    assert capsys.readouterr().err == said


def test_a_bot_that_exits_fails_the_run_instead_of_ending_it_with_status_0(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """A bot that called ``sys.exit(0)`` in a chunk ended ``play --workers N`` and
    ``selfplay`` at once with exit status 0, no summary and no ``--json``: its
    SystemExit came back from the worker (or rose in this process) as the run's
    own.  It is the chunk's error, as any other exception of a chunk."""
    with pytest.raises(ExecutorError, match=r"^chunk 0 raised SystemExit\(0\)$"):
        list(LocalExecutor().map_unordered(sys.exit, [0]))
    with (
        ProcessExecutor(1) as ex,
        pytest.raises(ExecutorError, match=r"^chunk 0 raised SystemExit\(0\)$"),
    ):
        list(ex.map_unordered(sys.exit, [0]))
    bots = ["--bots", "ofc_fast.parallel._chaos:quitter,random", "--seed", "1"]
    for command in (["play", "--players", "2"], ["selfplay", "--out", str(tmp_path)]):
        args = [*command, *bots, "--hands", "20", "--quiet", "--workers", "1"]
        assert main(args) == 2
        err = capsys.readouterr().err
        bot = re.escape("'ofc_fast.parallel._chaos:quitter'")
        said = rf"ofc-fast: error: deal \d+, seat 0 \(bot {bot}\) raised SystemExit\(0\)\n"
        assert re.fullmatch(said, err), args


def test_a_bot_that_raises_is_named_with_its_deal_and_seat(
    capsys: pytest.CaptureFixture[str],
) -> None:
    """A bot that raised in ``play --workers N`` was reported as ``chunk 0 raised
    RuntimeError(...)``: not which of the chunk's deals, seat or bot (a chunk is 50
    deals by default).  The error names the deal, the seat and its bot.  The bot of
    seat 1 raises on its 12th decision; independent deals of Pineapple give each
    seat 5 decisions a deal, and a chunk makes its bots once: the deal of index
    (12 - 1) // 5, named counted from 1 as ``play`` prints its deals."""
    bot = "ofc_fast.parallel._chaos:late_crasher"
    deal = (12 - 1) // 5 + 1
    args = ["play", "--players", "2", "--hands", "4", "--seed", "1", "--quiet"]
    args += ["--independent", "--bots", f"random,{bot}"]
    for workers in ("1", "2"):
        assert main([*args, "--workers", workers]) == 2
        err = capsys.readouterr().err
        assert err == (
            f"ofc-fast: error: deal {deal}, seat 1 (bot {bot!r}) raised "
            f"RuntimeError('decision 12')\n"
        ), workers


def test_a_run_let_go_late_leaves_a_later_runs_workers_alone() -> None:
    """A run whose caller lets go of it (its generator closed: Ctrl-C, an error)
    stops its workers; closed only after the pool was shut down and a new run
    started, it must not stop the new run's workers."""
    ex = ProcessExecutor(1)
    first = ex.map_unordered(abs, [-1, -2, -3])
    assert next(first) == (0, 1)
    ex.close()  # a `with` block left while a traceback still holds `first`
    second = ex.map_unordered(abs, [-4, -5, -6, -7, -8, -9])
    assert next(second) == (0, 4)
    first.close()
    assert sorted(second) == [(i, 4 + i) for i in range(1, 6)] and ex.restarts == 0
    ex.close()


_HALF_A_RESULT = """
import os, struct, time
from ofc_fast.parallel import ProcessExecutor
ex = ProcessExecutor(1)
run = ex.map_unordered(time.sleep, [0.0, 60.0])
next(run)  # the pool is up, its worker sleeps in the second chunk
writer = ex._pool._result_queue._writer  # as a worker stopped while sending
os.write(writer.fileno(), struct.pack("!i", 1000) + bytes(10))  # 10 bytes of 1000
time.sleep(0.5)  # the pool's reader waits for the rest
t = time.monotonic()
run.close()  # the caller stops (Ctrl-C): the workers are stopped
print(round(time.monotonic() - t))
"""


def test_stopping_a_pool_with_half_a_result_in_its_pipe_returns() -> None:
    """Ctrl-C stops the workers; one stopped while sending its result (a self-play
    shard is megabytes) left the pool's reader waiting for the rest for ever, and
    ``selfplay --workers 2`` hung after Ctrl-C about one time in five."""
    out = subprocess.run(
        [sys.executable, "-c", _HALF_A_RESULT], capture_output=True, text=True, timeout=60
    )
    assert out.returncode == 0, out.stderr[-2000:]
    assert int(out.stdout) < 10


_KILLED_WHILE_SENDING = """
import os, signal, struct, time
from ofc_fast.parallel import ProcessExecutor
with ProcessExecutor(1) as ex:
    run = ex.map_unordered(time.sleep, [0.0, 2.0, 0.0])
    next(run)  # the pool is up, its worker sleeps in the second chunk
    writer = ex._pool._result_queue._writer
    os.write(writer.fileno(), struct.pack("!i", 1000) + bytes(10))  # 10 bytes of 1000
    time.sleep(0.3)
    os.kill(ex.worker_pids()[0], signal.SIGKILL)  # killed while sending, as it were
    print(sorted(i for i, _ in run), ex.restarts)
"""


def test_a_worker_killed_while_sending_its_result_loses_nothing() -> None:
    """A worker killed (the out-of-memory killer) in the middle of sending its result
    left the pool reading the rest of it for ever: the run hung.  The pool is now
    broken, rebuilt, and the chunks not back run again."""
    out = subprocess.run(
        [sys.executable, "-c", _KILLED_WHILE_SENDING],
        capture_output=True,
        text=True,
        timeout=60,
    )
    assert out.returncode == 0, out.stderr[-2000:]
    assert out.stdout.split() == ["[1,", "2]", "1"]


_IDLE_POOL = """
import time
from ofc_fast.parallel import ProcessExecutor
ex = ProcessExecutor(2)
list(ex.map_unordered(time.sleep, [0.0, 0.0, 0.0]))  # two workers, idle
print(*ex.worker_pids(), flush=True)
time.sleep(120)
"""


def _running(pid: int) -> bool:
    """Whether process ``pid`` exists and is no zombie."""
    try:
        return Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()[0] != "Z"
    except OSError:
        return False


@pytest.mark.skipif(not Path("/proc").is_dir(), reason="reads /proc: run on Linux")
def test_workers_end_when_their_parent_is_killed() -> None:
    """A run's process killed (SIGKILL, the out-of-memory killer) left its pool's
    workers waiting for work for ever, each holding its bots' memory: they now end
    with their parent."""
    p = subprocess.Popen([sys.executable, "-c", _IDLE_POOL], stdout=subprocess.PIPE)
    try:
        assert p.stdout is not None
        pids = [int(x) for x in p.stdout.readline().split()]
        assert len(pids) == 2 and all(_running(w) for w in pids)
    finally:
        p.kill()
        p.wait()
    for _ in range(100):  # 10 s at most
        if not any(_running(w) for w in pids):
            break
        time.sleep(0.1)
    left = [w for w in pids if _running(w)]
    for w in left:  # (not to leave them behind when the test fails)
        os.kill(w, signal.SIGKILL)
    assert left == []


def _group(pgid: int) -> list[int]:
    """Live processes (not zombies) of the process group ``pgid``, its leader
    excepted, from /proc."""
    out = []
    for d in os.listdir("/proc"):
        if d.isdigit() and int(d) != pgid:
            try:
                fields = Path(f"/proc/{d}/stat").read_text().rsplit(")", 1)[1].split()
            except OSError:
                continue
            if fields[0] != "Z" and int(fields[2]) == pgid:
                out.append(int(d))
    return out


@pytest.mark.skipif(not Path("/proc").is_dir(), reason="reads /proc: run on Linux")
def test_ctrl_c_stops_a_process_pool_run_at_once(tmp_path: Path) -> None:
    """Ctrl-C in ``play --workers 2`` (SIGINT to the terminal's process group) could
    hang for ever: the interrupt landed in ``concurrent.futures.wait`` over every
    chunk of the run, left a future's lock held, and the pool's shutdown waited on
    it.  It stops the workers, prints the summary so far and exits 130 at once."""
    out = tmp_path / "out.json"
    cmd = [sys.executable, "-m", "ofc_fast", "play", "--players", "2", "--seed", "1"]
    cmd += ["--bots", "heuristic,random", "--hands", "1000000", "--workers", "2"]
    cmd += ["--chunk-size", "10", "--quiet", "--json", str(out)]
    p = subprocess.Popen(cmd, stderr=subprocess.PIPE, start_new_session=True)
    try:
        for _ in range(300):  # the fork server and its two workers (60 s at most)
            if len(_group(p.pid)) >= 3:
                break
            time.sleep(0.2)
        time.sleep(2)  # chunks coming back
        os.killpg(p.pid, signal.SIGINT)
        err = p.communicate(timeout=30)[1].decode()
    finally:
        if p.poll() is None:
            os.killpg(p.pid, signal.SIGKILL)
            p.communicate()
    assert p.returncode == 130, err
    assert "Traceback" not in err and "interrupted:" in err
    assert json.loads(out.read_text())["interrupted"] is True
    time.sleep(0.5)
    assert _group(p.pid) == []  # no worker left behind


def test_ctrl_c_in_the_pool_s_own_calls_waits_for_a_safe_point(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """Ctrl-C raised inside the pool's own calls (a submit that starts a worker, a
    future's result) could leave one of their locks held, and stopping the pool then
    could wait for it for ever.  It is held back until the call returns: the submit
    finishes, then the run raises KeyboardInterrupt and its workers stop."""
    from concurrent.futures import ProcessPoolExecutor

    original = ProcessPoolExecutor.submit
    inside: list[str] = []

    def submit(self: Any, *args: Any, **kwargs: Any) -> Any:
        try:
            os.kill(os.getpid(), signal.SIGINT)  # Ctrl-C while the pool submits
            for _ in range(1000):  # (Python runs a handler between two bytecodes)
                pass
            return original(self, *args, **kwargs)
        except KeyboardInterrupt:
            inside.append("raised inside submit")
            raise

    monkeypatch.setattr(ProcessPoolExecutor, "submit", submit)
    ex = ProcessExecutor(1)
    try:
        with pytest.raises(KeyboardInterrupt):
            list(ex.map_unordered(abs, [-1, -2, -3]))
        assert inside == []
        assert ex.worker_pids() == []  # stopped at the safe point
    finally:
        ex.close()


def test_make_executor_choices() -> None:
    assert make_executor().name == "local" and make_executor(1).name == "local"
    ex = make_executor(2)
    assert ex.name == "process" and ex.workers == 2
    ex.close()
    from ofc_fast.parallel import ExecutorError

    with pytest.raises(ExecutorError, match="workers"):
        ProcessExecutor(0)


# -- self-play shards


def _files(d: Path) -> dict[str, bytes]:
    return {p.name: p.read_bytes() for p in sorted(d.iterdir())}


def _steps(done: Game) -> list[tuple[list[int], int, bool]]:
    """(dealt, cards to discard, full set) of every decision, by replaying the moves."""
    g = Game(done.rules, done.players, seed=done.seed, button=done.button)
    out = []
    for m in done.moves:
        obs = g.observation(g.to_act)
        out.append((list(obs["dealt"]), obs["to_discard"], bool(obs["full_set"])))
        g.play(m)
    return out


def _manifest_table() -> str:
    """The ``manifest.json`` part of ``ofc_fast.parallel.selfplay``'s docstring."""
    import ofc_fast.parallel.selfplay as selfplay_mod

    doc = selfplay_mod.__doc__ or ""
    return doc.split("* ``manifest.json``")[1].split("A shard is written")[0]


def _documented_manifest_fields() -> dict[str, list[str]]:
    """The rows of the ``manifest.json`` table in ``ofc_fast.parallel.selfplay``'s
    docstring (rendered in docs/api/parallel.md): each field with the names its text
    quotes (the keys of its value, where it is an object)."""
    rows = re.split(r"\n  ``(\w+)``  +", _manifest_table())[1:]
    return {
        field: re.findall(r"``(\w+)``", text) for field, text in zip(rows[::2], rows[1::2])
    }


def test_the_documented_manifest_fields_are_those_a_run_writes(tmp_path: Path) -> None:
    """Regression: the docs described manifest.json in words only (its format,
    version and ``complete`` not at all), checked against nothing; docs/api/parallel.md
    (the selfplay module's docstring) lists its fields, the run's settings and a shard
    entry's keys: exactly those a run writes."""
    spec = RunSpec.make("pineapple", 2, 1, 2, [("random", {})], fantasyland=False)
    manifest = selfplay(spec, tmp_path, shard_size=1, progress=False)
    documented = _documented_manifest_fields()
    assert sorted(documented) == sorted(manifest)
    run_keys = [k for k in documented["run"] if k not in ("name", "settings")]
    assert sorted(run_keys) == sorted(manifest["run"])
    assert {"name", "settings"} == set(manifest["run"]["bots"][0])
    shard_keys = [k for k in documented["shards"] if k not in ("npz", "jsonl")]
    assert sorted(shard_keys) == sorted(manifest["shards"][0])
    assert sorted(manifest["shards"][0]["files"]) == ["jsonl", "npz"]
    assert documented["format"] == documented["version"] == []  # (values, not keys)
    assert f'``"{manifest["format"]}"``' in _manifest_table()


def test_selfplay_shards_read_with_numpy_alone(tmp_path: Path) -> None:
    spec = _spec(hands=7)
    doc = selfplay(spec, tmp_path, shard_size=3, progress=False)
    assert doc["complete"] and [s["deals"] for s in doc["shards"]] == [
        [0, 3],
        [3, 6],
        [6, 7],
    ]
    deals = {
        d.record["hand_no"]: d
        for k in range(3)
        for d in read_histories(tmp_path / f"shard-{k:06d}.jsonl")
    }
    assert sorted(deals) == list(range(7))
    steps = {i: _steps(d.game) for i, d in deals.items()}
    total = 0
    for k in range(3):
        with np.load(tmp_path / f"shard-{k:06d}.npz", allow_pickle=False) as z:
            cols = {name: z[name] for name in z.files}
        n = len(cols["seat"])
        total += n
        assert cols["obs"].dtype == np.float32 and cols["obs"].shape[0] == n
        for r in range(n):
            d = deals[int(cols["deal"][r])]
            move = d.game.moves[int(cols["step"][r])]
            seat = int(cols["seat"][r])
            assert cols["reward"][r] == d.record["points"][seat]
            placement = np.full(52, -1)
            for c, dest in zip(move.cards, move.destinations):
                placement[c] = dest
            assert (cols["placement"][r] == placement).all()
            a = int(cols["action"][r])
            dealt, discards, full = steps[int(cols["deal"][r])][int(cols["step"][r])]
            if full:
                assert a == -1 and not cols["mask"][r].any()
            else:  # a normal decision: its id is legal and is the move played
                assert cols["mask"][r, a]
                assert action_for_move(move, dealt, discards) == a
    assert total == sum(s["decisions"] for s in doc["shards"])


def test_selfplay_resume_gives_the_same_bytes(tmp_path: Path) -> None:
    spec = _spec(hands=10)
    full, part = tmp_path / "full", tmp_path / "part"
    selfplay(spec, full, shard_size=3, progress=False)
    first = selfplay(spec, part, shard_size=3, progress=False, max_shards=2)
    assert not first["complete"] and len(first["shards"]) == 2
    (part / "shard-000003.npz.tmp").write_bytes(b"half a shard")  # a crash mid-write
    (part / "manifest.json.tmp").write_bytes(b"{half")  # (as earlier versions named it)
    (part / ".manifest.json.4215.d186afad.tmp").write_bytes(b"{half")
    (part / ".shard-000003.jsonl.4215.d186afad.tmp").write_bytes(b'{"half')
    listed = _files(part)
    second = selfplay(spec, part, shard_size=3, progress=False)
    assert second["complete"]
    for name in ("shard-000000.npz", "shard-000001.jsonl"):  # never rewritten
        assert _files(part)[name] == listed[name]
    assert _files(part) == _files(full)


def test_selfplay_does_not_rewrite_a_large_manifest_after_every_shard(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The manifest (every shard listed) was written again after each shard: a run of
    100,000 shards (``--hands 10000000``, the default ``--shard-size``) wrote a 35 MB
    manifest 100,000 times, hours of the driver's time.  It is written again only once
    the time since the last writing is ten times what that writing took (so while it
    is cheap, after each shard), and when the run ends: the same manifest."""
    from ofc_fast.parallel import selfplay as sp

    spec = _spec(hands=24, bots=[("random", {})])
    selfplay(spec, tmp_path / "full", shard_size=1, progress=False)
    real, saves = sp.atomic_write, []

    def slow(path: Any, data: bytes) -> None:
        if Path(path).name == "manifest.json":  # a large manifest takes its time
            saves.append(json.loads(data)["complete"])
            time.sleep(0.2)
        real(path, data)

    monkeypatch.setattr(sp, "atomic_write", slow)
    doc = selfplay(spec, tmp_path / "part", shard_size=1, progress=False)
    assert doc["complete"] and saves[-1] is True
    assert 2 <= len(saves) <= 8  # (25 before: one, then one per shard)
    assert _files(tmp_path / "part") == _files(tmp_path / "full")


def test_selfplay_refuses_another_run_in_the_same_directory(tmp_path: Path) -> None:
    selfplay(_spec(hands=2), tmp_path, shard_size=2, progress=False)
    with pytest.raises(SelfPlayError, match="another run"):
        selfplay(_spec(hands=2, seed=12), tmp_path, shard_size=2, progress=False)


def test_selfplay_into_another_run_names_the_settings_that_differ(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """Regression: ``ofc-fast selfplay --hands 300 --out data/`` into the folder of a
    ``--hands 200`` run said only that the manifest's run differs in "rules, seats,
    bots, seed, hands or shard size"; the error now names each setting that differs,
    its value in the folder and in the command."""
    out = tmp_path / "data"
    base = ["selfplay", "--bots", "random", "--out", str(out), "--quiet"]
    assert main([*base, "--hands", "2"]) == 0
    capsys.readouterr()
    assert main([*base, "--hands", "3"]) == 2
    assert capsys.readouterr().err == (
        f"ofc-fast: error: {out} holds another run (its manifest's run differs in "
        "hands: 2 there, 3 here); use another --out\n"
    )
    assert main([*base, "--hands", "2", "--rules", "ofc", "--seed", "4"]) == 2
    assert capsys.readouterr().err == (
        f"ofc-fast: error: {out} holds another run (its manifest's run differs in "
        "rules: 'PINEAPPLE' there, 'OFC' here; seed: 0 there, 4 here); use another "
        "--out\n"
    )


def test_selfplay_killed_then_resumed_from_the_command_line(tmp_path: Path) -> None:
    args = [
        "selfplay",
        "--rules",
        "pineapple",
        "--players",
        "2",
        "--bots",
        "heuristic,heuristic",
        "--hands",
        "40",
        "--seed",
        "3",
        "--shard-size",
        "2",
        "--quiet",
    ]
    main([*args, "--out", str(tmp_path / "full")])
    part = tmp_path / "part"
    proc = subprocess.Popen(
        [sys.executable, "-m", "ofc_fast", *args, "--out", str(part)],
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
    )
    deadline = time.monotonic() + 60
    listed = 0
    while time.monotonic() < deadline and proc.poll() is None:
        try:
            listed = len(json.loads((part / "manifest.json").read_text())["shards"])
        except (OSError, ValueError):
            listed = 0
        if listed >= 3:
            proc.send_signal(signal.SIGKILL)
            break
        time.sleep(0.005)
    proc.wait(30)
    doc = json.loads((part / "manifest.json").read_text())
    assert 3 <= len(doc["shards"]) < 20 and not doc["complete"], "not killed mid-run"
    assert main([*args, "--out", str(part), "--workers", "2"]) == 0
    assert _files(part) == _files(tmp_path / "full")


_TERMINATED_WHILE_WRITING = """
import os, signal, sys
from ofc_fast.cli import main
from ofc_fast.parallel import selfplay as sp
real = sp.write_npz
def write(f, arrays):
    real(f, arrays)
    os.kill(os.getpid(), signal.SIGTERM)  # `kill` while the first shard is written
sp.write_npz = write
args = ["selfplay", "--bots", "random", "--hands", "4", "--shard-size", "2", "--quiet"]
sys.exit(main([*args, "--workers", "1", "--out", sys.argv[1]]))
"""


@pytest.mark.skipif(sys.platform == "win32", reason="run on POSIX (SIGTERM)")
def test_sigterm_stops_selfplay_as_ctrl_c_does(tmp_path: Path) -> None:
    """SIGTERM (``kill``) to ``selfplay`` ended it at once (exit by signal 15), its
    shard half written left in ``--out`` as a hidden ``.tmp`` file; as ``play`` and
    ``arena``, it now stops as by Ctrl-C: the shard dropped, the manifest as it was,
    exit status 130."""
    from scripts import package_env

    out = tmp_path / "out"
    done = subprocess.run(
        [sys.executable, "-c", _TERMINATED_WHILE_WRITING, str(out)],
        capture_output=True,
        text=True,
        timeout=120,
        env=package_env(),
    )
    assert (done.returncode, done.stderr) == (130, "ofc-fast: interrupted\n")
    assert sorted(p.name for p in out.iterdir()) == [".selfplay.lock", "manifest.json"]
    assert json.loads((out / "manifest.json").read_text())["shards"] == []


# -- the command line


def _play_json(tmp_path: Path, *extra: str) -> dict:
    out = tmp_path / f"play{len(list(tmp_path.iterdir()))}.json"
    hist = out.with_suffix(".jsonl")
    assert (
        main(
            [
                "play",
                "--rules",
                "pineapple",
                "--players",
                "3",
                "--hands",
                "12",
                "--seed",
                "9",
                "--bots",
                "heuristic,random,random",
                "--quiet",
                "--json",
                str(out),
                "--history",
                str(hist),
                *extra,
            ]
        )
        == 0
    )
    doc = json.loads(out.read_text())
    for key in ("seconds",):
        doc.pop(key)
    doc["history_lines"] = hist.read_text()
    return doc


def test_play_with_workers_is_the_same_run(tmp_path: Path) -> None:
    """--independent: one deal per unit (test_parallel_chains.py: the default units)."""
    one = _play_json(tmp_path, "--workers", "1", "--independent")
    two = _play_json(tmp_path, "--workers", "2", "--chunk-size", "5", "--independent")
    assert (one.pop("executor"), two.pop("executor")) == ("local", "process")
    assert one == two
    assert one["hands"] == 12 and one["mode"] == "independent"
    assert [d["deal"] for d in one["deals"]] == list(range(1, 13))


def test_play_held_back_by_its_window_is_the_same_run(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A window of one chunk per worker (two chunks from the first not yet back)
    holds the workers back all the time: the same JSON and hand-history bytes."""
    from ofc_fast.parallel import _executors

    one = _play_json(tmp_path, "--workers", "1", "--independent")
    monkeypatch.setattr(_executors, "WINDOW", 1)
    two = _play_json(tmp_path, "--workers", "2", "--chunk-size", "1", "--independent")
    assert (one.pop("executor"), two.pop("executor")) == ("local", "process")
    assert one == two


def test_play_parallel_refuses_stacks(capsys: pytest.CaptureFixture[str]) -> None:
    assert (
        main(["play", "--hands", "3", "--workers", "2", "--stacks", "100", "--quiet"]) == 2
    )
    assert "--stacks" in capsys.readouterr().err


def test_play_parallel_refuses_show(capsys: pytest.CaptureFixture[str]) -> None:
    """``ofc-fast play --workers 2 --show 2`` printed no deal (a parallel run prints
    none), silently; ``--show 0`` (no deal printed) is what it does anyway."""
    play = ["play", "--hands", "3", "--workers", "2", "--seed", "1"]
    assert main([*play, "--show", "2"]) == 2
    out, err = capsys.readouterr()
    assert out == "" and err.startswith("ofc-fast: error: --show: a deal is printed as")
    assert "drop --workers/--ray or --show" in err
    assert main([*play, "--show", "0", "--quiet"]) == 0


# -- arena matches and duplicate tournaments


def _arena(duplicate: bool, hands: int = 6):
    from ofc_fast.arena import Arena, parse_bot_spec

    deals: list = []
    arena = Arena(
        "ofc-pineapple",
        [
            parse_bot_spec("a@heuristic"),
            parse_bot_spec("random"),
            parse_bot_spec("b@random"),
        ],
        hands=hands,
        seed=13,
        duplicate=duplicate,
        on_deal=deals.append,  # the arena keeps no deal: collect them here
    )
    arena.deals = deals  # type: ignore[attr-defined]
    return arena


@pytest.mark.parametrize("duplicate", [False, True])
def test_arena_runs_the_same_on_every_executor(duplicate: bool) -> None:
    from ofc_fast.arena.report import without_timings
    from ofc_fast.parallel.tournament import run_arena

    local = _arena(duplicate)
    rep_local = run_arena(local, LocalExecutor(), chunk_size=100)
    pooled = _arena(duplicate)
    with ProcessExecutor(2) as ex:
        rep_pool = run_arena(pooled, ex, chunk_size=4)
    assert without_timings(rep_local) == without_timings(rep_pool)
    assert [d.game.history() for d in local.deals] == [
        d.game.history() for d in pooled.deals
    ]
    hands = 6 * (3 if duplicate else 1)
    assert rep_local["hands"] == hands and len(local.deals) == hands
    assert sum(b["points"] for b in rep_local["bots"]) == 0
    for h, d in enumerate(local.deals):  # the documented schedule
        deck, r = divmod(h, 3) if duplicate else (h, h % 3)
        assert d.deck_no == deck and d.game.seed == deal_seed(13, deck)
        assert d.seats == [local.names[(s - r) % 3] for s in range(3)]
    if duplicate:
        assert rep_local["duplicate"]["decks"] == 6


@pytest.mark.skipif(sys.platform == "win32", reason="run on POSIX (SIGINT)")
def test_ctrl_c_in_a_parallel_arena_never_cuts_a_hand_half_booked() -> None:
    """Ctrl-C while ``run_arena`` booked a hand (a chunk back) stopped it half-way: a
    hand counted in the report whose ``on_deal`` (the ``--history`` line) was cut
    short.  It now stops after the hand, every hand booked whole."""
    from ofc_fast.parallel.tournament import run_arena

    arena = _arena(False)
    written: list[Any] = []

    def on_deal(deal: Any) -> None:  # Ctrl-C comes while the history is written
        os.kill(os.getpid(), signal.SIGINT)
        written.append(deal)

    arena.on_deal = on_deal
    with pytest.raises(KeyboardInterrupt):
        run_arena(arena, chunk_size=4)
    assert arena.hands_done == len(written) == 1
    (deal,) = written
    for name, rec in zip(arena.names, arena.records):
        assert list(rec.points) == [deal.game.result().net[deal.seats.index(name)]]


def test_a_parallel_arena_refuses_a_bot_without_reset_before_its_workers_start() -> None:
    """A bot class without ``reset(seed)`` was refused by the first worker to play
    a hand (the workers started, and the error named no option); it is now refused
    when the parallel match is set up, naming the ``--bot`` spec."""
    from ofc_fast.arena import Arena, parse_bot_spec
    from ofc_fast.bots import RandomBot, register, unregister
    from ofc_fast.errors import ArenaError
    from ofc_fast.parallel.tournament import run_arena

    class NoReset:
        name = "no-reset"

        def __init__(self, rules: Any = None, seed: int = 0) -> None:
            self.inner = RandomBot(seed=seed)

        def act(self, obs: Any) -> Any:
            return self.inner.act(obs)

        def settings(self) -> dict[str, Any]:
            return {}

    class NoWorkers(LocalExecutor):
        def map_unordered(self, fn: Any, tasks: Any) -> Any:
            raise AssertionError("the workers started")

    register("no-reset", NoReset)
    try:
        specs = [parse_bot_spec("random"), parse_bot_spec("no-reset")]
        arena = Arena("pineapple", specs, hands=4, seed=1)
        with pytest.raises(ArenaError) as err:
            run_arena(arena, NoWorkers())
    finally:
        unregister("no-reset")
    assert str(err.value) == (
        "--bot: bot 'no-reset' has no reset(seed): a parallel arena re-seeds "
        "every bot per hand"
    )


@pytest.mark.parametrize("bot", ["crasher", "cheater", "sleeper"])
@pytest.mark.parametrize("policy", ["substitute", "forfeit"])
def test_a_parallel_arena_counts_faults_as_the_sequential_one(
    tmp_path: Path, bot: str, policy: str
) -> None:
    """``arena --workers N`` counted no fault: a bot that raised stopped the match with
    an error whatever ``--fault-policy`` said, and ``--fault-policy`` and
    ``--timeout-ms`` were taken and ignored.  The workers now time each decision and
    the policy is applied to their faults as ``Arena.run`` applies it: the same fault
    counts, substitutions, forfeit and decision count (a built-in bot's time is never
    a fault, on either path), and the same report on every executor and chunk size."""
    from ofc_fast.arena.report import without_timings

    args = ["arena", "--bot", "random", "--bot", f"{bot}@ofc_fast.parallel._chaos:{bot}"]
    args += ["--hands", "6", "--timeout-ms", "1", "--fault-policy", policy, "--quiet"]
    reports = []
    for i, extra in enumerate(
        [[], ["--workers", "1"], ["--workers", "2", "--chunk-size", "1"]]
    ):
        out = tmp_path / f"r{i}.json"
        assert main([*args, "--json", str(out), *extra]) == 0
        reports.append(json.loads(out.read_text()))
    seq, local, pool = reports
    expected = {  # (bot's faults, substituted, hands) of the sequential match
        ("crasher", "substitute"): ({"crash": 1}, 27, 6),
        ("crasher", "forfeit"): ({"crash": 1}, 0, 0),
        ("cheater", "substitute"): ({"illegal": 6}, 6, 6),
        ("cheater", "forfeit"): ({"illegal": 1}, 0, 0),
        ("sleeper", "substitute"): ({}, 0, 6),
        ("sleeper", "forfeit"): ({}, 0, 6),
    }[bot, policy]
    for r in reports:
        b = r["bots"][1]
        assert (b["fault_kinds"], b["substituted"], r["hands"]) == expected
        assert r["forfeited_by"] == (bot if expected[0] and policy == "forfeit" else None)
        assert b["stopped"] == seq["bots"][1]["stopped"]
        assert b["decisions"]["count"] == seq["bots"][1]["decisions"]["count"]
    assert without_timings(local) == without_timings(pool)


@pytest.mark.parametrize("size", [0, -1, 2.5])
def test_a_parallel_arena_refuses_a_bad_chunk_size(size: object) -> None:
    """``run_arena(arena, chunk_size=-1)`` played no hand at all and reported an empty
    match (0 raised range()'s ValueError): the chunk size is checked as RunSpec.chunks
    checks it."""
    from ofc_fast.parallel.tournament import run_arena

    arena = _arena(False)
    with pytest.raises(
        GameError, match=r"^chunk size: must be (at least 1|a whole number), got "
    ):
        run_arena(arena, chunk_size=size)  # type: ignore[arg-type]
    assert arena.deals == []


def test_arena_workers_refuse_external_bots() -> None:
    from ofc_fast.arena import Arena, parse_bot_spec
    from ofc_fast.errors import ArenaError
    from ofc_fast.parallel.tournament import run_arena

    arena = Arena(
        "ofc-pineapple",
        [parse_bot_spec("random"), parse_bot_spec("cmd:python bot.py")],
        hands=2,
    )
    with pytest.raises(ArenaError, match="built-in bots only"):
        run_arena(arena)


def test_arena_command_with_workers(tmp_path: Path) -> None:
    reports = []
    for extra in (["--workers", "1"], ["--workers", "2", "--chunk-size", "3"]):
        out, hist = tmp_path / f"r{len(reports)}.json", tmp_path / f"h{len(reports)}.jsonl"
        assert (
            main(
                [
                    "arena",
                    "--bot",
                    "heuristic",
                    "--bot",
                    "random",
                    "--hands",
                    "5",
                    "--duplicate",
                    "--seed",
                    "3",
                    "--json",
                    str(out),
                    "--history",
                    str(hist),
                    "--quiet",
                    *extra,
                ]
            )
            == 0
        )
        reports.append((json.loads(out.read_text()), hist.read_text()))
    from ofc_fast.arena.report import without_timings

    assert without_timings(reports[0][0]) == without_timings(reports[1][0])

    def untimed(history: str) -> list[Any]:  # (each decision's ms: its time, measured)
        deals = [json.loads(line) for line in history.splitlines()]
        for d in deals:
            assert all(m["ms"] is not None for m in d["decisions"])
            d["decisions"] = [{**m, "ms": None} for m in d["decisions"]]
        return deals

    assert untimed(reports[0][1]) == untimed(reports[1][1])
    assert len([d for d in read_histories(tmp_path / "h0.jsonl")]) == 10


def test_ray_missing_is_a_named_error(monkeypatch: pytest.MonkeyPatch) -> None:
    from ofc_fast.parallel import ExecutorError, RayExecutor

    monkeypatch.setitem(sys.modules, "ray", None)  # import ray -> ImportError
    with pytest.raises(ExecutorError, match=r"pip install 'ofc-fast\[ray\]'"):
        RayExecutor()
    assert main(["play", "--hands", "2", "--ray", "--quiet"]) == 2


def test_ray_address_that_does_not_answer_is_refused_at_once(
    capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    """``--ray nosuch:1`` (a host that does not resolve, a port nothing listens on)
    waited over two minutes inside ``ray.init``, which has no timeout for joining:
    the address is tried first, with a short timeout, and refused naming --ray and
    the address (exit 2), in every command taking --ray.  No cluster is started:
    a stand-in Ray module fails the test if ray.init is asked."""
    from types import SimpleNamespace

    from ofc_fast.learned.train import main as train_main

    def no_init(*_: object, **__: object) -> None:
        raise AssertionError("ray.init was asked")

    ray = SimpleNamespace(is_initialized=lambda: False, init=no_init)
    monkeypatch.setitem(sys.modules, "ray", ray)
    for address in ("nosuch.invalid:1", "127.0.0.1:1", "ray://nosuch.invalid:10001"):
        t0 = time.monotonic()
        with pytest.raises(ExecutorError, match="nothing answers at") as info:
            RayExecutor(address)
        assert str(info.value).startswith(f"--ray {address}: cannot join the cluster")
        assert time.monotonic() - t0 < 10
    out = tmp_path / "o"
    for main_of, argv in (
        (main, ["play", "--hands", "2", "--quiet"]),
        (main, ["selfplay", "--hands", "2", "--quiet", "--out", str(out)]),
        (
            train_main,
            ["--deals", "2", "--quiet", "--opponent", "typical", "--out", str(out)],
        ),
    ):
        assert main_of([*argv, "--ray", "127.0.0.1:1"]) == 2
        err = capsys.readouterr().err
        assert "error: --ray 127.0.0.1:1: cannot join the cluster: nothing answers" in err


@pytest.mark.parametrize("command", [["play"], ["selfplay", "--out", "unused"]])
def test_workers_with_the_ray_cluster_of_an_address_is_refused(
    capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch, command: list[str]
) -> None:
    """``ofc-fast play --workers 2 --ray HOST:6379`` ran on the cluster's CPUs, the
    ``--workers`` ignored silently (it caps only the cluster ``--ray`` alone starts);
    refused before Ray is asked (not installed here)."""
    monkeypatch.setitem(sys.modules, "ray", None)  # (no cluster is joined)
    argv = [*command, "--hands", "2", "--quiet", "--workers", "2", "--ray", "auto"]
    assert main(argv) == 2
    out, err = capsys.readouterr()
    assert out == "" and err.startswith("ofc-fast: error: --workers: "), err
    assert "--ray auto" in err and len(err.splitlines()) == 1


@pytest.mark.parametrize(
    ("make", "name"),
    [
        (lambda: RayExecutor(num_cpus=0), "num_cpus"),
        (lambda: RayExecutor(num_cpus=1.5), "num_cpus"),
        (lambda: make_executor(workers=0, ray="local"), "--workers"),
        (lambda: make_executor(workers=-2, ray="auto"), "--workers"),
        (lambda: make_executor(workers=2, ray="local", num_cpus=0), "num_cpus"),
    ],
)
def test_ray_refuses_a_cluster_without_cpus(make: Any, name: str) -> None:
    """A local Ray cluster of 0 CPUs (``num_cpus=0``, or ``make_executor(workers=0,
    ray="local")``, where ``workers`` gives the CPUs) runs no task: a run on it waited
    for ever; ``make_executor(num_cpus=0)`` took 0 for "not given" (the ``workers``
    CPUs).  ExecutorError naming the value, before Ray is imported or started."""
    with pytest.raises(
        ExecutorError, match=f"^{name}: must be (at least 1|a whole number), got "
    ):
        make()


@pytest.mark.parametrize(
    ("make", "name"),
    [
        (lambda: RayExecutor(max_retries="3"), "max_retries"),
        (lambda: RayExecutor(max_retries=-1), "max_retries"),
        (lambda: RayExecutor(max_retries=1.0), "max_retries"),
        (lambda: ProcessExecutor(2, max_restarts="5"), "max_restarts"),
        (lambda: ProcessExecutor(2, max_restarts=True), "max_restarts"),
    ],
)
def test_executor_retry_counts_are_checked_when_made(make: Any, name: str) -> None:
    """A retry count that is no int >= 0 (``RayExecutor(max_retries="3")``) was kept
    and failed only at the first map (Ray's own TypeError; a pool's broken-run
    comparison): ExecutorError naming it when the executor is made, before Ray is
    imported or started."""
    with pytest.raises(
        ExecutorError, match=f"^{name}: must be (at least 0|a whole number), got "
    ):
        make()


def test_executor_counts_take_numpy_ints() -> None:
    """A numpy integer count is that int (``ProcessExecutor(np.int64(2))`` was an
    ExecutorError "must be an int >= 1, got np.int64(2)", where 2 works)."""
    ex = make_executor(np.int64(2))
    assert ex.name == "process" and ex.workers == 2 and type(ex.workers) is int
    ex.close()
    with ProcessExecutor(np.int32(1), max_restarts=np.int64(0)) as one:
        assert one.max_restarts == 0 and type(one.max_restarts) is int


def test_run_counts_and_flags_take_numpy_values() -> None:
    """``RunSpec.make(hands=np.int64(4))``, ``fantasyland=np.bool_(False)`` and
    ``play_parallel(chunk_size=np.int64(2))`` were GameErrors ("must be an int",
    "True or False") where 4, False and 2 work: NumPy's values are taken as theirs.
    Reference: the same run made of Python values."""
    plain = RunSpec.make("pineapple", 2, 1, 4, [("random", {})], fantasyland=False)
    spec = RunSpec.make(
        "pineapple", 2, 1, np.int64(4), [("random", {})], fantasyland=np.bool_(False)
    )
    assert spec == plain and type(spec.hands) is int and spec.fantasyland is False
    want = play_parallel(plain, chunk_size=2).outcomes
    assert play_parallel(spec, chunk_size=np.int64(2)).outcomes == want
    for bad, name in ((-1, "hands"), (2.0, "hands"), ("4", "hands")):
        with pytest.raises(
            GameError, match=f"^{name}: must be (at least 0|a whole number), got "
        ):
            RunSpec.make("pineapple", 2, 1, bad, [("random", {})])
    with pytest.raises(GameError, match=r"^fantasyland must be True or False"):
        RunSpec.make("pineapple", 2, 1, 4, [("random", {})], fantasyland=1)


@pytest.mark.parametrize(
    ("setting", "name"),
    [
        ({"max_shards": "1"}, "max_shards"),
        ({"max_shards": 1.5}, "max_shards"),
        ({"max_shards": -1}, "max_shards"),
        ({"shard_size": "2"}, "shard_size"),
        ({"shard_size": 0}, "shard_size"),
    ],
)
def test_selfplay_checks_its_counts_before_touching_out(
    tmp_path: Path, setting: dict[str, Any], name: str
) -> None:
    """``selfplay(max_shards="1")`` was a bare TypeError, ``max_shards=-1`` wrote all
    shards but the last, and ``shard_size="2"`` was refused as "chunk size", each
    after ``out`` was made: GameError naming the setting, before ``out`` is made."""
    spec = RunSpec.make("pineapple", 2, 1, 4, [("random", {})], fantasyland=False)
    out = tmp_path / "out"
    with pytest.raises(
        GameError, match=f"^{name}: must be (at least [01]|a whole number), got "
    ):
        selfplay(spec, out, progress=False, **setting)
    assert not out.exists()
    doc = selfplay(
        spec, out, shard_size=np.int64(2), max_shards=np.int64(1), progress=False
    )
    assert len(doc["shards"]) == 1


@pytest.mark.parametrize("workers", [0, -1, 2**70, "cpus", "over"])
def test_workers_is_one_check_on_the_command_line_and_in_the_executor(
    workers: int | str,
) -> None:
    """Regression: ``--workers`` was checked twice, by the command line
    (``check_workers``) and by ``ProcessExecutor``'s ``worker_count``, two checks
    that shared only their bound: ``ofc-fast play --workers 0`` said ``must be at
    least 1`` where ``ProcessExecutor(workers=0)`` said ``must be an int >= 1``, and
    a change to one would not have reached the other.  Now the command line calls
    the executors' check: the same counts are refused, in the same words."""
    from ofc_fast.errors import ExecutorError
    from ofc_fast.parallel._counts import worker_count, workers_most
    from ofc_fast.parallel.cli import check_workers

    most = workers_most()[0]
    n = {"cpus": most, "over": most + 1}.get(str(workers), workers)
    assert isinstance(n, int)
    try:
        worker_count(n, "--workers")
    except ExecutorError as exc:
        with pytest.raises(ExecutorError) as caught:
            check_workers(n)
        assert str(caught.value) == str(exc)
    else:
        check_workers(n)  # (a count the executor takes: the command line too)


def test_a_count_under_1_is_refused_in_one_wording(
    capsys: pytest.CaptureFixture[str],
) -> None:
    """Regression: ``ofc-fast play --workers 0`` said "--workers: must be an int >= 1,
    got 0" (as ``ProcessExecutor(0)`` and ``run_arena(chunk_size=0)`` did) where
    ``--hands 0`` said "--hands: must be at least 1, got 0": a count's refusal has
    one wording, the command line's and the Python checks' alike."""
    from ofc_fast.parallel.tournament import run_arena

    assert main(["play", "--hands", "2", "--workers", "0", "--quiet"]) == 2
    assert "--workers: must be at least 1, got 0\n" in capsys.readouterr().err
    assert main(["play", "--hands", "0", "--quiet"]) == 2
    assert "--hands: must be at least 1, got 0\n" in capsys.readouterr().err
    with pytest.raises(ExecutorError, match=r": must be at least 1, got 0$"):
        ProcessExecutor(0)
    with pytest.raises(GameError, match=r"^chunk size: must be at least 1, got 0$"):
        run_arena(_arena(False), chunk_size=0)


def test_bad_parallel_options_exit_2(
    capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    assert main(["play", "--hands", "2", "--workers", "0", "--quiet"]) == 2
    assert "--workers" in capsys.readouterr().err
    assert (
        main(["selfplay", "--hands", "2", "--out", str(tmp_path), "--shard-size", "0"]) == 2
    )
    assert "--shard-size" in capsys.readouterr().err
    assert (
        main(
            [
                "arena",
                "--bot",
                "random",
                "--bot",
                "cmd:true",
                "--hands",
                "1",
                "--workers",
                "2",
                "--quiet",
            ]
        )
        == 2
    )
    assert "built-in bots only" in capsys.readouterr().err


def test_selfplay_full_sets_have_no_action_id(tmp_path: Path) -> None:
    """Classic hands are one 13-card set per seat: action -1, no legal ids, and the
    placement holds the whole setting (13 cards: 3 front, 5 middle, 5 back)."""
    spec = RunSpec.make(
        "classic_1_6", 3, seed=8, hands=3, bots=[("heuristic", {})], fantasyland=False
    )
    selfplay(spec, tmp_path, shard_size=3, progress=False)
    with np.load(tmp_path / "shard-000000.npz") as z:
        action, mask, placement = z["action"], z["mask"], z["placement"]
        reward, seat, deal = z["reward"], z["seat"], z["deal"]
    assert len(action) == 9 and (action == -1).all() and not mask.any()
    for row in placement:
        assert [int((row == r).sum()) for r in range(4)] == [3, 5, 5, 0]
    lines = [
        json.loads(x) for x in (tmp_path / "shard-000000.jsonl").read_text().splitlines()
    ]
    assert [reward[k] for k in range(9)] == [
        lines[deal[k]]["points"][seat[k]] for k in range(9)
    ]


def test_ctrl_c_in_a_parallel_play_keeps_the_chunks_played(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    """Ctrl-C during ``play --workers N`` printed ``ofc-fast: interrupted`` and wrote
    neither ``--json`` nor ``--history`` (docs/cli.md: Ctrl-C during ``play`` prints
    the summary so far and still writes both, exit status 130).  Here the executor
    gets Ctrl-C after returning 2 chunks of 3 deals."""
    from ofc_fast.parallel import LocalExecutor
    from ofc_fast.parallel import cli as parallel_cli

    class Interrupted(LocalExecutor):
        def map_unordered(self, fn, items):  # type: ignore[no-untyped-def]
            for i, item in enumerate(items):
                if i == 2:
                    raise KeyboardInterrupt
                yield i, fn(item)

    monkeypatch.setattr(parallel_cli, "make_executor", lambda *a: Interrupted())
    out, hist = tmp_path / "out.json", tmp_path / "deals.jsonl"
    args = ["play", "--players", "2", "--bots", "random", "--hands", "12", "--seed", "4"]
    args += ["--workers", "2", "--chunk-size", "3", "--independent"]
    code = main([*args, "--json", str(out), "--history", str(hist)])
    printed, err = capsys.readouterr()
    assert code == 130
    assert "interrupted: 6 of 12 deals played" in err
    assert "6 independent deals" in printed  # the summary of what was played
    doc = json.loads(out.read_text())
    assert doc["interrupted"] is True and doc["hands"] == 6
    assert [d["deal"] for d in doc["deals"]] == [1, 2, 3, 4, 5, 6]
    lines = [json.loads(x) for x in hist.read_text().splitlines()]
    assert [x["hand_no"] for x in lines] == [0, 1, 2, 3, 4, 5]
    assert sum(doc["totals"]) == 0
    for s in range(2):  # the totals are those of the deals on record
        assert doc["totals"][s] == sum(d["net"][s] for d in doc["deals"])


@pytest.mark.parametrize("option", ["--json", "--history"])
@pytest.mark.parametrize("parallel", [[], ["--workers", "1"]])
def test_play_refuses_an_output_in_a_missing_folder_before_playing(
    tmp_path: Path,
    monkeypatch: pytest.MonkeyPatch,
    capsys: pytest.CaptureFixture[str],
    option: str,
    parallel: list[str],
) -> None:
    """``--json`` in a folder that does not exist was found out only after the match
    (the summary printed, then the error); with ``--workers`` ``--history`` too."""
    from ofc_fast.parallel import cli as parallel_cli

    def no_run(*args: object) -> None:
        raise AssertionError("the run started")

    monkeypatch.setattr(parallel_cli, "make_executor", no_run)
    missing = tmp_path / "no-such-folder" / "out.json"
    code = main(["play", "--hands", "3", *parallel, option, str(missing)])
    printed, err = capsys.readouterr()
    assert code == 2 and printed == ""  # nothing played, nothing printed
    assert err.startswith(f"ofc-fast: error: {option}: cannot write ")


@pytest.mark.parametrize("duplicate", [False, True])
def test_a_parallel_arena_writes_its_progress_lines(duplicate: bool) -> None:
    """``arena --progress-json --workers N`` printed no progress line at all: the
    parallel run never called the arena's ``on_progress``.  Lines come every
    ``progress_every`` hands and after the last, with the standings of the hands
    booked so far."""
    from ofc_fast.arena import Arena, parse_bot_spec
    from ofc_fast.parallel.tournament import run_arena

    lines: list[dict] = []
    deals: list = []
    arena = Arena(
        "ofc-pineapple",
        [parse_bot_spec("random"), parse_bot_spec("b@random")],
        hands=5,
        seed=3,
        duplicate=duplicate,
        on_deal=deals.append,
        on_progress=lines.append,
        progress_every=4,
    )
    report = run_arena(arena, LocalExecutor(), chunk_size=3)
    total = 10 if duplicate else 5  # two seatings of each deck with --duplicate
    expected = [4, 8, 10] if duplicate else [4, 5]
    assert [x["hands_done"] for x in lines] == expected
    assert {x["hands_total"] for x in lines} == {total}
    for line in lines:  # the standings: points of the hands done, from the deals
        done = deals[: line["hands_done"]]
        for row in line["standings"]:
            mine = [d.game.result().net[d.seats.index(row["name"])] for d in done]
            assert row["points"] == sum(mine)
    assert [s["points"] for s in lines[-1]["standings"]] == [
        b["points"] for b in report["bots"]
    ]


@pytest.mark.parametrize("where", ["", "a-file", "a-file/sub", "-"])
def test_selfplay_out_must_name_a_folder(
    tmp_path: Path,
    monkeypatch: pytest.MonkeyPatch,
    capsys: pytest.CaptureFixture[str],
    where: str,
) -> None:
    """``--out ""`` (an unset shell variable) wrote the shards and a manifest into the
    current folder; ``--out`` naming a file failed with ``[Errno 17] File exists``,
    naming no option, and a folder that cannot be made (under a file) with ``[Errno
    20] Not a directory``; ``--out -`` made a folder named ``-`` (every other output
    option refuses ``-`` where it writes no standard output)."""
    monkeypatch.chdir(tmp_path)
    (tmp_path / "a-file").write_text("mine\n")
    args = ["selfplay", "--bots", "random", "--hands", "2", "--out", where]
    assert main(args) == 2
    err = capsys.readouterr().err
    assert err.startswith("ofc-fast: error: --out: ") and err.count("\n") == 1
    assert sorted(p.name for p in tmp_path.iterdir()) == ["a-file"]
    assert (tmp_path / "a-file").read_text() == "mine\n"


def test_selfplay_refuses_players_whose_deal_needs_more_than_a_deck(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """``selfplay --players 4`` under Pineapple rules of ``max_players=4`` (17 cards
    a seat, 68 in all) said "--bots: the engine refused the deal: the deal needs
    more cards than the deck holds", blaming --bots: it names --players and the
    cards, as ``play`` does, and writes nothing."""
    path = tmp_path / "p4.json"
    path.write_text(rules_mod.PINEAPPLE.replace(name="P4", max_players=4).to_json())
    out = tmp_path / "o"
    argv = ["selfplay", "--rules", str(path), "--players", "4", "--hands", "2"]
    assert main([*argv, "--quiet", "--out", str(out)]) == 2
    assert capsys.readouterr().err == (
        "ofc-fast: error: --players: 4 seats of P4 need 68 cards; one deck has 52\n"
    )
    assert not out.exists()


def test_selfplay_names_out_when_its_folder_takes_no_files(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    """``selfplay --out /sys/kernel`` (a folder that exists but takes no files) said
    "[Errno 13] Permission denied: '/sys/kernel/.selfplay.lock'", naming neither the
    option nor the problem in words.  The lock file is the first file written: made
    to fail here, as root may write anywhere."""
    out = tmp_path / "run"
    out.mkdir()
    refuse_writes_in(monkeypatch, out)
    assert main(["selfplay", "--bots", "random", "--hands", "2", "--out", str(out)]) == 2
    assert capsys.readouterr().err == (
        f"ofc-fast: error: --out: cannot write in the folder {str(out)!r}: "
        "Permission denied\n"
    )
    for method in ("flock", "create"):  # the library's error, whatever the lock
        refused = pytest.raises(SelfPlayError, match=r"^out: cannot write in the folder")
        with refused, exclusive(out, method):
            pass
    assert list(out.iterdir()) == []


def test_selfplay_refuses_chunk_size_it_would_ignore(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """``selfplay --chunk-size 5`` was taken and ignored: a self-play task is a shard
    (``--shard-size``), whatever ``--chunk-size`` says."""
    args = ["selfplay", "--bots", "random", "--hands", "4", "--out", str(tmp_path / "o")]
    assert main([*args, "--chunk-size", "1"]) == 2
    err = capsys.readouterr().err
    assert err.startswith("ofc-fast: error: --chunk-size: ") and "--shard-size" in err
    assert not (tmp_path / "o").exists()


def test_selfplay_help_does_not_offer_a_chunk_size_it_refuses(
    capsys: pytest.CaptureFixture[str],
) -> None:
    """``selfplay --help`` said ``--chunk-size DEALS  deals per task (default 50)``, an
    option the command refuses; its help now says so, and play's keeps its default."""

    def chunk_help(command: str) -> str:
        with pytest.raises(SystemExit):
            main([command, "--help"])
        text = " ".join(capsys.readouterr().out.split())
        return text.split("--chunk-size DEALS ", 1)[1]

    assert chunk_help("selfplay").startswith("refused: a self-play task is one shard")
    assert chunk_help("play").startswith("deals per task (default 50)")


def test_ray_help_offers_only_the_addresses_it_takes(
    capsys: pytest.CaptureFixture[str],
) -> None:
    """``--ray --help`` said "none: a local cluster", where ``--ray none`` is taken as
    the address of a cluster named none; a local cluster is ``--ray`` alone or
    ``--ray local`` (``make_executor(ray="local")``)."""
    for command in ("play", "arena", "selfplay"):
        with pytest.raises(SystemExit):
            main([command, "--help"])
        text = " ".join(capsys.readouterr().out.split())
        said = text.split("--ray [ADDRESS] ", 1)[1].split(" --chunk-size", 1)[0]
        assert "none:" not in said and "local: a local cluster" in said, (command, said)


def test_a_pool_that_broke_once_says_one_time() -> None:
    """A pool allowed no restart said it "broke 1 times"."""
    from ofc_fast.parallel import ExecutorError

    with (
        ProcessExecutor(1, max_restarts=0) as ex,
        pytest.raises(ExecutorError, match=r"broke 1 time \(a worker died"),
    ):
        list(ex.map_unordered(os._exit, [3]))


@pytest.mark.parametrize("command", ["arena", "play", "selfplay"])
def test_a_module_attribute_bot_keeps_its_case_in_a_parallel_run(
    tmp_path: Path, command: str
) -> None:
    """``--workers 1`` with the bot ``ofc_fast.bots:RandomBot`` said "'ofc_fast.bots'
    has no attribute 'randombot'": a parallel run put every bot name in lower case,
    a ``module:attribute`` spec's attribute (and a ``policy:PATH`` spec's path) too."""
    spec = "ofc_fast.bots:RandomBot"
    argv = {
        "arena": ["arena", "--bot", "random", "--bot", spec, "--workers", "1"],
        "play": ["play", "--players", "2", "--bots", f"random,{spec}", "--workers", "1"],
        "selfplay": ["selfplay", "--bots", spec, "--out", str(tmp_path / "o")],
    }[command]
    assert main([*argv, "--hands", "2", "--quiet"]) == 0


def test_a_run_keeps_a_bot_name_as_the_registry_keys_it() -> None:
    """A run's bot names follow the registry's one rule (``bot_key``: spaces and case
    aside; an empty name the registry's BotError), a spec kept as it is."""
    from ofc_fast.bots import bot_key
    from ofc_fast.errors import BotError

    spec = "ofc_fast.bots:RandomBot"
    bots = [(" RanDom ", {}), (f" {spec} ", {})]
    run = RunSpec.make("pineapple", 2, 1, 2, bots)
    assert [name for name, _ in run.bots] == [bot_key(" RanDom "), spec]
    with pytest.raises(BotError, match="a bot name must be a non-empty string"):
        RunSpec.make("pineapple", 2, 1, 2, [(" ", {})])


def _figures(match: Any) -> dict[str, Any]:
    """A match's saved state (``to_dict()``) but its ``keep_nets`` setting: the
    figures a run books, whether it keeps each deal's nets or not."""
    return {k: v for k, v in match.to_dict().items() if k != "keep_nets"}


def test_play_parallel_keep_false_keeps_no_outcome_but_passes_each_chunk() -> None:
    """``play_parallel(keep=False)``: the run's outcomes and lines stay empty (a long
    run's memory), every chunk still goes to ``on_chunk`` in deal order, and the match
    is booked as with ``keep=True``."""
    from ofc_fast.parallel import RunSpec, play_parallel

    spec = RunSpec.make("pineapple", 2, seed=11, hands=9, bots=[("random", {})])
    kept = play_parallel(spec, chunk_size=4, history=True)
    chunks: list = []
    run = play_parallel(
        spec, chunk_size=4, history=True, on_chunk=chunks.append, keep=False
    )
    assert run.outcomes == [] and run.lines == []
    assert [o for c in chunks for o in c.outcomes] == kept.outcomes
    assert [x for c in chunks for x in c.lines] == kept.lines
    assert run.match.keep_nets is False and kept.match.keep_nets is True
    assert _figures(run.match) == _figures(kept.match)


def test_a_run_that_keeps_no_outcome_keeps_no_net_per_deal_either(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    """``play_parallel(keep=False)`` (``ofc-fast play --workers``) said its memory did
    not grow with its deals, but its match (and ``play``'s second one, of the chunks
    back) kept every deal's net per seat (``SeatStats.net``), which no summary reads:
    10,000,000 deals held tens of millions of ints.  ``keep=True`` keeps them, as the
    outcomes they come from."""
    from ofc_fast.parallel import _plan, _run

    spec = RunSpec.make("pineapple", 2, seed=11, hands=9, bots=[("random", {})])
    kept = play_parallel(spec, chunk_size=4)
    assert [s.net for s in kept.match.stats] == [
        [o["net"][s] for o in kept.outcomes] for s in range(2)
    ]
    run = play_parallel(spec, chunk_size=4, keep=False)
    assert [s.net for s in run.match.stats] == [[], []]
    assert _figures(run.match) == _figures(kept.match)
    booked: list[Any] = []
    real = _plan.book

    def spy(match: Any, outcome: Any) -> None:
        booked.append(match)
        real(match, outcome)

    monkeypatch.setattr(_run, "book", spy)
    monkeypatch.setattr(_plan, "book", spy)
    args = ["play", "--players", "2", "--bots", "random", "--hands", "9", "--seed", "4"]
    assert main([*args, "--workers", "1", "--chunk-size", "4", "--quiet"]) == 0
    capsys.readouterr()
    assert len({id(m) for m in booked}) == 2  # the run's and the chunks' back
    assert all(s.net == [] for m in booked for s in m.stats)


def test_ctrl_c_while_a_parallel_play_writes_a_chunk_keeps_the_json_whole(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    """Ctrl-C while ``play --workers N --json`` wrote a chunk's deals cut it there:
    the report's ``deals`` held part of a chunk its summary did not count.  The
    chunk is now booked and written whole, then the run stops."""
    from ofc_fast.cli import options
    from ofc_fast.parallel import LocalExecutor
    from ofc_fast.parallel import cli as parallel_cli

    monkeypatch.setattr(parallel_cli, "make_executor", lambda *a: LocalExecutor())
    real = options.SpooledList.append

    def append(self: Any, item: Any) -> None:
        if self.count == 1:  # Ctrl-C after the first deal is written
            os.kill(os.getpid(), signal.SIGINT)
        real(self, item)

    monkeypatch.setattr(options.SpooledList, "append", append)
    out = tmp_path / "out.json"
    args = ["play", "--players", "2", "--bots", "random", "--hands", "12", "--seed", "4"]
    args += ["--workers", "1", "--chunk-size", "3", "--independent", "--quiet"]
    code = main([*args, "--json", str(out)])
    capsys.readouterr()
    assert code == 130
    doc = json.loads(out.read_text())
    assert doc["interrupted"] is True
    assert [d["deal"] for d in doc["deals"]] == [1, 2, 3]  # the first chunk, whole
    assert doc["hands"] == 3
    for s in range(2):  # the totals are those of the deals on record
        assert doc["totals"][s] == sum(d["net"][s] for d in doc["deals"])


@pytest.mark.parametrize(
    "make",
    [lambda n: ProcessExecutor(n), lambda n: make_executor(workers=n)],
    ids=["ProcessExecutor", "make_executor"],
)
def test_a_worker_count_beyond_the_cpus_is_refused_as_the_command_line_does(
    make: Any, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Regression: ``ProcessExecutor(workers=2**70)`` (and ``make_executor(workers=
    10**6)``) was accepted, and its first run asked the pool for that many
    processes, while ``--workers`` refuses more than 4 per CPU; both now raise the
    command line's ExecutorError before any pool starts."""
    from ofc_fast.parallel import _counts

    monkeypatch.setattr(_counts, "cpu_count", lambda: 2)
    for n in (2**70, 9):
        with pytest.raises(
            ExecutorError, match=r"must be at most 8, got .* \(4 per CPU, 2 "
        ):
            make(n)
    with make(np.int64(8)) as ok:
        assert ok.workers == 8


@pytest.mark.parametrize(
    "make",
    [
        lambda n: RayExecutor(num_cpus=n),
        lambda n: make_executor(workers=2, ray="local", num_cpus=n),
    ],
    ids=["RayExecutor", "make_executor"],
)
def test_a_ray_cpu_count_beyond_the_cpus_is_refused_as_workers_are(
    make: Any, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Regression: ``RayExecutor(num_cpus=2**70)`` had no upper bound (while
    ``ProcessExecutor(workers=...)`` and ``--workers`` refuse more than 4 per CPU):
    it went on to import Ray and start a local cluster of that many CPUs.  It now
    raises the same ExecutorError, before Ray is imported."""
    from ofc_fast.parallel import _counts, _executors

    def no_ray() -> None:
        raise AssertionError("Ray imported before num_cpus was checked")

    monkeypatch.setattr(_counts, "cpu_count", lambda: 2)
    monkeypatch.setattr(_executors, "_ray", no_ray)
    for n in (2**70, 9):
        with pytest.raises(
            ExecutorError, match=r"^num_cpus: must be at most 8, got .* \(4 per CPU, 2 "
        ):
            make(n)


@pytest.mark.parametrize(
    "field",
    [
        {"hands": -5},
        {"hands": "x"},
        {"hands": 2.5},
        {"players": 2**70},
        {"seed": -1},
        {"button": 9},
        {"rules_json": "{"},
        {"rules_json": None},
        {"bots": None},
        {"bots": (("random", "{"),) * 2},
        {"bots": (("random", "[" * 100_000),) * 2},
        {"bots": (("random", "{}"),)},
        {"fantasyland": "no"},
    ],
    ids=repr,
)
def test_a_run_spec_built_directly_is_checked_as_make_checks_it(field: Any) -> None:
    """Regression: ``RunSpec(...)`` built directly (or by ``dataclasses.replace``) was
    not checked: ``hands=-5`` played no deal, ``fantasyland="no"`` played chains,
    ``hands="x"`` raised a bare TypeError and bad bots an ExecutorError from a worker;
    each is now the OfcError of ``RunSpec.make`` naming the field."""
    from dataclasses import replace

    from ofc_fast.errors import OfcError

    good = RunSpec.make("pineapple", 2, seed=1, hands=4, bots=[("random", {})])
    with pytest.raises(OfcError):
        replace(good, **field)
    assert replace(good, hands=np.int64(3), seed=np.uint64(5)).hands == 3  # NumPy's ints


def test_chunks_of_a_run_too_long_to_list_are_refused(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """Regression: ``RunSpec.make(..., hands=2**64-1, ...).chunks()`` listed every one
    of its 2**64 / 50 chunks (``play_parallel`` of it never started, memory ran out);
    a cut into more than MAX_CHUNKS chunks is now a GameError naming the chunk size
    that fits, and a long run in long chunks is cut as before."""
    from ofc_fast.parallel import _plan

    assert _plan.MAX_CHUNKS == 10_000_000  # (the message below)
    spec = RunSpec.make("pineapple", 2, seed=1, hands=2**64 - 1, bots=[("random", {})])
    with pytest.raises(
        GameError, match=r"^chunk size: .* chunks of at least 1844674407371 "
    ):
        spec.chunks()
    tasks = spec.chunks(2**60)
    assert [(c.start, c.stop) for c in tasks[-2:]] == [
        (14 * 2**60, 15 * 2**60),
        (15 * 2**60, 2**64 - 1),
    ]
    assert len(tasks) == 16
    monkeypatch.setattr(_plan, "MAX_CHUNKS", 10)  # the bound itself: 10 chunks, not 11
    spec = RunSpec.make("pineapple", 2, seed=1, hands=20, bots=[("random", {})])
    assert [c.stop for c in spec.chunks(2)] == list(range(2, 21, 2))
    with pytest.raises(
        GameError, match=r"are 20 chunks, .* at most 10: chunks of at least 2 "
    ):
        spec.chunks(1)


def test_the_next_chunk_is_taken_off_the_front_in_constant_time(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """Regression: ``ProcessExecutor`` took each next chunk with ``list.pop(0)``, which
    moves every chunk left: a run of millions of chunks (``--hands 10000000
    --chunk-size 1``, which the command line allows) stalled before it began, the cost
    quadratic.  The chunks wait in a deque, taken with ``popleft`` only; here a pool
    that finishes each chunk at once runs 20,000 of them, in index order."""
    import collections
    import types
    from concurrent.futures import Future

    import ofc_fast.parallel._executors as executors

    taken: list[int] = []

    class Queue(collections.deque[int]):
        def popleft(self) -> int:
            taken.append(super().popleft())
            return taken[-1]

        def pop(self, *_: Any) -> int:  # (a deque's pop() is its last; none wanted)
            raise AssertionError("a chunk was taken off the queue's end")

    class Pool:
        def submit(self, fn: Any, item: int) -> Future[int]:
            done: Future[int] = Future()
            done.set_result(fn(item))
            return done

        def shutdown(self, **_: Any) -> None:
            pass

    monkeypatch.setattr(executors, "collections", types.SimpleNamespace(deque=Queue))
    ex = ProcessExecutor(workers=1)
    ex._pool = Pool()  # type: ignore[assignment]
    got = dict(ex.map_unordered(abs, range(0, -20_000, -1)))
    assert taken == list(range(20_000))
    assert got == {i: i for i in range(20_000)}


def test_a_ray_run_stopped_early_stops_a_task_its_cancel_missed() -> None:
    """Regression: a Ray run its caller let go cancelled its chunks in flight once; a
    cancel that reached a task as Ray handed it to its worker was lost (seen once in
    CI, under load: the chunk ran to its end after the run was stopped).  Tasks still
    running after the grace are cancelled again with ``force`` (their workers
    stopped); those that stopped are left alone, with a stand-in for Ray."""
    from ofc_fast.parallel import _executors

    calls: list[tuple[str, bool]] = []

    class Ray:
        def cancel(self, ref: str, force: bool = False) -> None:
            calls.append((ref, force))

        def wait(
            self, refs: list[str], num_returns: int, timeout: float
        ) -> tuple[list[str], list[str]]:
            assert num_returns == len(refs) and timeout == _executors.CANCEL_GRACE
            return [r for r in refs if r != "missed"], [r for r in refs if r == "missed"]

    ex = RayExecutor.__new__(RayExecutor)
    ex.ray = Ray()
    ex._cancel(["done", "missed", "stopped"])
    assert calls == [
        ("done", False),
        ("missed", False),
        ("stopped", False),
        ("missed", True),
    ]
    calls.clear()
    ex._cancel([])
    assert calls == []
