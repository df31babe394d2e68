"""The Ray executor on a local Ray cluster (``ray.init(num_cpus=2)``, one session for
the module: Ray starts slowly).  Marked ``ray``; skipped when Ray is not installed,
except that with OFC_REQUIRE_RAY=1 (CI) a missing Ray fails."""

from __future__ import annotations

import json
import os
import tempfile
import time
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import pytest
from test_parallel import check_a_stalled_chunk_holds_back_the_rest

from ofc_fast.cli import main
from ofc_fast.parallel import (
    LocalExecutor,
    ProcessExecutor,
    RayExecutor,
    RunSpec,
    play_parallel,
    run_chunk,
)
from ofc_fast.parallel._chaos import KillOnce
from ofc_fast.parallel.selfplay import selfplay

pytestmark = pytest.mark.ray

SPEC = RunSpec.make(
    "pineapple",
    3,
    seed=21,
    hands=30,
    bots=[("heuristic", {"samples": 4}), ("random", {}), ("heuristic", {"samples": 6})],
)


@pytest.fixture(scope="module")
def ray_session() -> Iterator[Any]:
    try:
        import ray
    except ImportError:
        if os.environ.get("OFC_REQUIRE_RAY") == "1":
            pytest.fail("OFC_REQUIRE_RAY=1 but Ray is not installed (pip install '.[ray]')")
        pytest.skip('Ray is not installed: pip install ".[ray]"')
    # Ray puts the driver's working directory on its workers' sys.path: start it from a
    # scratch directory, so that workers import the installed package, not a source
    # tree without its compiled extension.
    here = os.getcwd()
    os.chdir(tempfile.mkdtemp(prefix="ofc-ray-"))
    try:
        ray.init(num_cpus=2, include_dashboard=False, log_to_driver=False)
        yield ray
    finally:
        ray.shutdown()
        os.chdir(here)


@pytest.fixture(scope="module")
def local_run() -> Any:
    return play_parallel(SPEC, LocalExecutor(), chunk_size=30, history=True)


def test_local_process_and_ray_give_the_same_run(ray_session: Any, local_run: Any) -> None:
    ex = RayExecutor()
    assert ex.workers == 2
    on_ray = play_parallel(SPEC, ex, chunk_size=4, history=True)
    with ProcessExecutor(2) as pex:
        on_pool = play_parallel(SPEC, pex, chunk_size=7, history=True)
    for other in (on_ray, on_pool):
        assert other.outcomes == local_run.outcomes
        assert other.lines == local_run.lines
        assert other.match.to_dict() == local_run.match.to_dict()
    assert os.getpid() not in on_ray.pids


def test_a_ray_worker_that_dies_is_retried(
    ray_session: Any, local_run: Any, tmp_path: Path
) -> None:
    marker = tmp_path / "killed"
    ex = RayExecutor(max_retries=3)
    tasks = SPEC.chunks(5)
    got = dict(ex.map_unordered(KillOnce(str(marker), run_chunk), tasks))
    assert marker.exists()  # a worker really killed itself
    assert sorted(got) == list(range(len(tasks)))
    outcomes = [o for i in range(len(tasks)) for o in got[i].outcomes]
    # every unit once, in order, each with its Fantasyland deals (fl_deal 1, 2, ...)
    assert [o["deal"] for o in outcomes if o["fl_deal"] == 0] == list(range(30))
    assert outcomes == local_run.outcomes


def test_selfplay_on_ray_writes_the_local_bytes(ray_session: Any, tmp_path: Path) -> None:
    spec = RunSpec.make(
        "pineapple", 2, seed=4, hands=9, bots=[("heuristic", {})], fantasyland=False
    )
    selfplay(spec, tmp_path / "local", shard_size=4, progress=False)
    selfplay(spec, tmp_path / "ray", RayExecutor(), shard_size=4, progress=False)
    files = [p.name for p in sorted((tmp_path / "local").iterdir())]
    assert files == [p.name for p in sorted((tmp_path / "ray").iterdir())]
    for name in files:
        assert (tmp_path / "local" / name).read_bytes() == (
            tmp_path / "ray" / name
        ).read_bytes()


def test_play_ray_from_the_command_line(ray_session: Any, tmp_path: Path) -> None:
    docs = []
    for extra in (["--workers", "1"], ["--ray"]):
        out = tmp_path / f"{len(docs)}.json"
        assert (
            main(
                [
                    "play",
                    "--hands",
                    "6",
                    "--seed",
                    "2",
                    "--players",
                    "2",
                    "--bots",
                    "random",
                    "--quiet",
                    "--json",
                    str(out),
                    *extra,
                ]
            )
            == 0
        )
        doc = json.loads(out.read_text())
        doc.pop("seconds")
        docs.append(doc)
    assert (docs[0].pop("executor"), docs[1].pop("executor")) == ("local", "ray")
    assert docs[0] == docs[1]


def marking(
    root: Path, seconds: tuple[float, float] = (0.0, 0.0)
) -> tuple[Path, Callable[[int], int]]:
    """A folder, and a chunk function that sleeps ``seconds[0]`` (chunk 0) or
    ``seconds[1]`` (the others), marks its chunk run in the folder and returns its
    index (a closure: Ray pickles it by value)."""
    marks = root / "marks"
    marks.mkdir()

    def mark(i: int) -> int:
        time.sleep(seconds[min(i, 1)])
        (marks / str(i)).touch()
        return i

    return marks, mark


def test_ray_keeps_at_most_two_chunks_per_cpu_in_flight(
    ray_session: Any, tmp_path: Path
) -> None:
    # every chunk marks a file when it runs; while the caller holds the first result,
    # only the chunks already submitted can run: a run of 40 must not submit them all
    started, mark = marking(tmp_path)
    ex = RayExecutor()
    items = list(range(40))
    results = ex.map_unordered(mark, items)
    first = next(results)
    time.sleep(3)  # far more than 2 workers need for 40 trivial tasks
    assert len(list(started.iterdir())) <= 2 * ex.workers
    rest = dict(results)
    assert sorted([first[0], *rest]) == items
    assert all(rest[i] == i for i in rest)


def test_a_stalled_ray_task_does_not_pile_up_results(
    ray_session: Any, tmp_path: Path
) -> None:
    """As the process pool (test_parallel.py): the chunks after one that stalls are
    held back, so that the results waiting for it stay bounded."""
    check_a_stalled_chunk_holds_back_the_rest(RayExecutor(), tmp_path)


def test_a_ray_run_let_go_stops_its_chunks_in_flight(
    ray_session: Any, tmp_path: Path
) -> None:
    # a run whose caller lets go (Ctrl-C, an error, a generator closed) must not leave
    # its chunks in flight running on the cluster, as the process pool stops its workers
    done, slow = marking(tmp_path, (1.0, 3.0))
    results = RayExecutor().map_unordered(slow, list(range(8)))
    assert next(results) == (0, 0)
    results.close()
    time.sleep(5)  # past the end of every chunk that was in flight
    assert [p.name for p in done.iterdir()] == ["0"]


def test_a_ray_executor_copies_and_pickles_on_a_real_cluster(ray_session: Any) -> None:
    """A RayExecutor's repr names it, and its copies (``copy.copy``, ``deepcopy``,
    pickle: a multiprocessing or Ray task's argument) keep its settings, take this
    process's Ray module, run tasks on the cluster, and never own it: closing a copy
    of the executor that started Ray leaves Ray running (the stand-in Ray module's
    test in test_object_protocols.py, here on a real cluster)."""
    import copy
    import pickle

    ex = RayExecutor(max_retries=2)
    assert "RayExecutor" in repr(ex) and "2" in repr(ex)
    ex._owned = True  # (as if it had started the cluster: the module's session did)
    try:
        for dup in (copy.copy(ex), copy.deepcopy(ex), pickle.loads(pickle.dumps(ex))):
            assert type(dup) is RayExecutor and dup is not ex
            assert (dup.max_retries, dup.workers) == (2, ex.workers)
            assert dup.ray is ray_session and not dup._owned
            assert sorted(dup.map_unordered(abs, [-1, -2])) == [(0, 1), (1, 2)]
            dup.close()
            assert ray_session.is_initialized()
    finally:
        ex._owned = False  # (the module's fixture shuts Ray down)
