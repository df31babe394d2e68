"""Executors: where the chunks of a run are played.

* :class:`LocalExecutor` (``local``): in this process, one chunk after the other;
* :class:`ProcessExecutor` (``process``, the default for ``--workers N`` > 1): a
  :class:`concurrent.futures.ProcessPoolExecutor` with a ``forkserver`` (else
  ``spawn``) context.  A worker that dies breaks the pool (``BrokenProcessPool``): the
  pool is rebuilt and every chunk not yet returned is submitted again;
* :class:`RayExecutor` (``ray``): Ray tasks (``ray.init(address)``; ``"auto"`` joins a
  running cluster, ``None`` starts a local one) with ``max_retries``: Ray runs the task
  of a dead worker again.  At most two chunks per cluster CPU are in flight; a run
  stopped early cancels them.

Each yields ``(index, result)`` as chunks finish, in any order; a chunk is yielded
once, so a chunk that ran twice (a retry) is never counted twice.  No chunk is
submitted eight per worker or more past the first not yet yielded (:func:`may_submit`):
the results waiting for a slow or stalled chunk to be put back in order stay bounded.
Work travels as plain data (a function importable by name and a picklable argument).

>>> ex = LocalExecutor()
>>> sorted(ex.map_unordered(abs, [-2, 1]))
[(0, 2), (1, 1)]
"""

from __future__ import annotations

import ast
import collections
import inspect
import json
import multiprocessing
import os
import queue
import signal
import socket
import sys
import threading
import time
from collections.abc import Callable, Collection, Iterator, Sequence
from concurrent.futures import Future, ProcessPoolExecutor
from concurrent.futures.process import BrokenProcessPool
from multiprocessing.connection import wait as mp_wait
from typing import Any

from ..arena import sigint_deferred
from ..errors import ExecutorError, OfcError, quote
from ._counts import CHUNK_ERRORS, whole_count, worker_count
from ._forkserver_env import SAVED, set_environ

__all__ = [
    "Executor",
    "ExecutorError",
    "LocalExecutor",
    "ProcessExecutor",
    "RayExecutor",
    "check_main_guard",
    "executor_or_local",
    "make_executor",
    "unguarded_main_line",
    "unreadable_main",
]


class Executor:
    """Runs ``fn(item)`` for every item; :meth:`map_unordered` yields ``(index,
    result)`` as they finish.

    >>> with make_executor() as pool:  # workers=2: a process pool; ray="auto": Ray
    ...     sorted(pool.map_unordered(abs, [-1, -2]))
    [(0, 1), (1, 2)]
    """

    name = "executor"
    workers = 1

    def map_unordered(
        self, fn: Callable[[Any], Any], items: Sequence[Any]
    ) -> Iterator[tuple[int, Any]]:
        """Yield ``(index, fn(items[index]))`` for every item, in the order they finish."""
        raise NotImplementedError

    def close(self) -> None:
        """Release the workers."""

    def __repr__(self) -> str:
        """The executor's class, workers and settings, as a log line shows it (never
        raising: a half-made or closed one too).

        >>> ProcessExecutor(workers=2)
        <ProcessExecutor workers=2 max_restarts=5 restarts=0>
        """
        shown = {"workers": self.workers, **vars(self)}
        words = [type(self).__name__]
        words += [
            f"{key}={value!r}"
            for key, value in shown.items()
            if not key.startswith("_") and isinstance(value, (int, float, str))
        ]
        return f"<{' '.join(words)}>"

    def __enter__(self) -> Executor:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()


class LocalExecutor(Executor):
    """In this process, in order.

    >>> with LocalExecutor() as pool:
    ...     list(pool.map_unordered(abs, [-1, -2]))
    [(0, 1), (1, 2)]
    """

    name = "local"

    def map_unordered(
        self, fn: Callable[[Any], Any], items: Sequence[Any]
    ) -> Iterator[tuple[int, Any]]:
        """Run each item in turn, in order; an item that raises is the error it is
        on every executor (:func:`_chunk_failed`)."""
        for i, item in enumerate(items):
            try:
                result = fn(item)
            except CHUNK_ERRORS as exc:  # (as a worker's: a bot's own bug)
                raise _chunk_failed(i, exc) from exc
            yield i, result


def _context() -> Any:
    """The ``forkserver`` start method where there is one, else ``spawn``.

    With forkserver, workers fork from a server that has already imported ofc_fast: a
    fast start, and no state of this process leaks in."""
    if "forkserver" not in multiprocessing.get_all_start_methods():
        return multiprocessing.get_context("spawn")
    ctx = multiprocessing.get_context("forkserver")
    _start_forkserver(ctx)
    return ctx


PRELOAD = ["ofc_fast.parallel._forkserver_env", "ofc_fast.parallel._plan", "ofc_fast.bots"]
"""What the forkserver imports once for all its workers (where it finds this copy);
the first sets back in the forkserver the variables it started with changed."""

WORKER_ENV = ("PYTHONPATH",)
"""The variables the forkserver starts with changed, set back in it at once."""

_START_LOCK = threading.Lock()
"""Held while this process's environment is changed to start the forkserver."""


def _preload() -> list[str]:
    """What the forkserver preloads: :data:`PRELOAD`, except where its working
    directory (first on its ``sys.path``, any Python without ``PYTHONSAFEPATH``)
    holds another ofc_fast than this one: nothing, and each worker imports ofc_fast
    itself with this process's ``sys.path``.  Not a search of ``sys.path``: an
    editable install's ofc_fast is found by its own finder, not on the path."""
    from importlib.machinery import PathFinder

    ours = os.path.join(os.path.dirname(os.path.dirname(__file__)), "__init__.py")
    found = PathFinder.find_spec("ofc_fast", [os.getcwd()])
    origin = None if found is None else found.origin
    if origin is None:  # (none there, or a namespace folder: not a package of its own)
        return list(PRELOAD)
    return list(PRELOAD) if os.path.realpath(origin) == os.path.realpath(ours) else []


def _start_forkserver(ctx: Any) -> None:
    """Start this process's forkserver (once) with this process's module path.

    The forkserver imports :data:`PRELOAD` with its own ``sys.path`` (Python ignores
    the parent's): its working directory first, then ``PYTHONPATH`` and the
    installed packages, not the script's folder nor what the script put on
    ``sys.path``, so its workers could run another copy of ofc_fast than this process.
    It is started with this ``sys.path`` as its ``PYTHONPATH``, and the first module
    it preloads sets its environment back to this process's (so that every process
    it starts, a user's own forkserver pool included, has this environment).  This
    process's environment is changed only while the forkserver starts (or, each pool
    start, is found running), under a lock; another thread that reads ``os.environ``
    in that moment (without the lock) still sees the change: Python starts the
    forkserver with ``os.environ`` as it is, so the window cannot be closed.
    Where the forkserver preloads nothing (:func:`_preload`) it is started with this
    environment as it is."""
    from multiprocessing import forkserver, resource_tracker

    preload = _preload()
    ctx.set_forkserver_preload(preload)
    resource_tracker.ensure_running()  # (started by the forkserver's start if not)
    if not preload:  # (the workers get this sys.path from this process)
        forkserver.ensure_running()
        return
    path = [os.path.abspath(p or os.curdir) for p in sys.path]  # ("": this folder)
    path = [p for p in path if os.path.exists(p)]  # (not a path hook's key)
    with _START_LOCK:
        saved = {key: os.environ.get(key) for key in WORKER_ENV}
        try:  # (set inside it: a Ctrl-C between left them changed for good)
            os.environ[SAVED] = json.dumps(saved)
            os.environ["PYTHONPATH"] = os.pathsep.join(path)
            forkserver.ensure_running()  # (a no-op once it runs)
        finally:
            set_environ({**saved, SAVED: None})


def _init_worker(environ: dict[str, str | None]) -> None:
    """A process pool worker's initializer: its :data:`WORKER_ENV` variables are the
    parent's ``environ`` when the pool starts (the forkserver has those of its own
    start, :func:`_start_forkserver`), so that a Python a chunk starts has the
    parent's environment; Ctrl-C is the parent's to
    handle (it stops the workers), not a traceback printed by every worker; and a
    worker whose parent is gone (killed) exits, where it would wait for work for
    ever."""
    set_environ(environ)
    signal.signal(signal.SIGINT, signal.SIG_IGN)
    parent = multiprocessing.parent_process()
    if parent is not None:
        threading.Thread(target=_exit_with, args=(parent,), daemon=True).start()


def _exit_with(parent: Any) -> None:
    """Wait for ``parent`` to end, then end this process (SIGTERM, as a pool that
    stops its workers does)."""
    parent.join()
    os.kill(os.getpid(), signal.SIGTERM)


IN_FLIGHT = 2
"""Chunks in flight per worker (pool process or cluster CPU) at a time."""

WINDOW = 8
"""Chunks per worker from the first chunk not yet returned: a chunk further on waits."""

CANCEL_GRACE = 0.5
"""Seconds a Ray run stopped early gives its cancelled tasks to stop before their
workers are stopped (:meth:`RayExecutor._cancel`)."""


def may_submit(index: int, in_flight: Collection[int], workers: int) -> bool:
    """Whether chunk ``index`` (chunks are submitted in index order) may be submitted
    now, with the chunks ``in_flight`` (submitted, not yet returned): fewer than
    :data:`IN_FLIGHT` per worker are, and ``index`` is less than :data:`WINDOW` per
    worker past the first chunk not yet returned.  A chunk that is slow or stalls (a
    worker stopped) holds back those after it, so that the results waiting for it to
    be put back in order (:func:`~ofc_fast.parallel.in_order`) are bounded whatever
    it does.

    >>> may_submit(5, [2], workers=1), may_submit(10, [2], workers=1)  # window: 2..9
    (True, False)
    >>> may_submit(4, [2, 3], workers=1)  # two in flight: wait for one
    False
    """
    return (
        len(in_flight) < IN_FLIGHT * workers
        and index < min(in_flight, default=index) + WINDOW * workers
    )


def _chunk_failed(index: int, exc: BaseException) -> OfcError:
    """The error of chunk ``index`` that raised ``exc`` in a worker: an
    :class:`OfcError` as it is, anything else (a bot that raised, a chunk that
    cannot be pickled) an :class:`ExecutorError` naming it."""
    if isinstance(exc, OfcError):
        return exc
    return ExecutorError(f"chunk {index} raised {exc!r}")


def _exits(procs: Sequence[Any]) -> str:
    """How the workers of a broken pool ended (those it terminated itself left out)."""
    codes = sorted(
        {p.exitcode for p in procs} - {None, 0, -signal.SIGTERM}, key=lambda c: (c < 0, c)
    )
    return ", ".join(
        f"killed by {signal.Signals(-c).name}" if c < 0 else f"exit status {c}"
        for c in codes
    )


def _outliving(procs: Sequence[Any], timeout: float) -> list[Any]:
    """The processes of ``procs`` still running after ``timeout`` seconds (read from
    their sentinels: the pool's own thread may be reaping them)."""
    left = {p.sentinel: p for p in procs}
    deadline = time.monotonic() + timeout
    while left:
        for s in mp_wait(list(left), max(0.0, deadline - time.monotonic())):
            del left[s]
        if time.monotonic() >= deadline:
            break
    return list(left.values())


class ProcessExecutor(Executor):
    """A process pool of ``workers`` processes on this machine.  ``max_restarts``: how
    many times one run (one :meth:`map_unordered`) rebuilds a broken pool (a worker
    killed) before giving up (an int >= 0, else ExecutorError when made);
    ``restarts`` counts the last run's.  At most two chunks per worker are in flight
    at a time (:func:`may_submit`); Ctrl-C (``KeyboardInterrupt``), or a chunk that
    raises, stops the workers at once (the workers ignore SIGINT themselves: it is the
    parent's).

    >>> with ProcessExecutor(workers=2) as pool:  # (a script: under the __main__ guard)
    ...     sorted(pool.map_unordered(abs, [-1, -2, -3]))
    [(0, 1), (1, 2), (2, 3)]
    >>> pool.restarts
    0
    """

    name = "process"

    def __init__(self, workers: int, max_restarts: int = 5) -> None:
        self.workers = worker_count(workers, "workers")
        self.max_restarts = whole_count(max_restarts, "max_restarts", least=0)
        self.restarts = 0
        self._pool: ProcessPoolExecutor | None = None

    def _new_pool(self) -> ProcessPoolExecutor:
        check_main_guard()
        self._pool = ProcessPoolExecutor(
            self.workers,
            mp_context=_context(),
            initializer=_init_worker,
            initargs=({key: os.environ.get(key) for key in WORKER_ENV},),
        )
        return self._pool

    def _processes(self) -> list[Any]:
        procs = getattr(self._pool, "_processes", None) or {}
        return list(procs.values())

    def worker_pids(self) -> list[int]:
        """Process ids of the live workers (for monitoring, and the fault tests)."""
        return [p.pid for p in self._processes() if p.is_alive()]

    def map_unordered(
        self, fn: Callable[[Any], Any], items: Sequence[Any]
    ) -> Iterator[tuple[int, Any]]:
        """Run in the pool; work lost to a crashed worker is submitted again.

        Finished futures come back through a queue fed by their done callbacks, not
        :func:`concurrent.futures.wait`: Ctrl-C inside ``wait`` can leave a future's
        lock held, and shutting the pool down then hangs for ever."""
        left = set(range(len(items)))
        self.restarts = 0  # (the limit is each run's own)
        pools: list[ProcessPoolExecutor] = []  # those of this run (a broken one rebuilt)
        try:
            while left:
                pools.append(self._pool or self._new_pool())
                yield from self._run(fn, items, left)
        except BaseException:  # Ctrl-C, a chunk that raised, a caller that stopped
            if self._pool in pools:  # (not a later run's, when closed late)
                self._stop()
            raise

    def _run(
        self, fn: Callable[[Any], Any], items: Sequence[Any], left: set[int]
    ) -> Iterator[tuple[int, Any]]:
        """One pool's run of the chunks ``left`` (each removed as it is yielded); a
        broken pool is restarted and its run ends early.

        Ctrl-C is held back while the pool's or a future's locks may be held
        (submitting, waiting, reading a result): a KeyboardInterrupt raised in there
        could leave one held, and the pool's shutdown would then wait for it for
        ever.  It is handled between two results (or at once, while waiting)."""
        pool = self._pool or self._new_pool()  # (made by map_unordered)
        todo = collections.deque(sorted(left))  # (popleft: a pop(0) was quadratic)
        finished: queue.SimpleQueue[Future[Any]] = queue.SimpleQueue()
        running: dict[Future[Any], int] = {}
        while todo or running:
            with sigint_deferred() as interrupted:
                while todo and may_submit(todo[0], running.values(), self.workers):
                    i = todo.popleft()
                    try:
                        f = pool.submit(fn, items[i])
                    except BrokenProcessPool:
                        self._restart(running.values())
                        return
                    running[f] = i
                    f.add_done_callback(finished.put)
                done = self._next(finished, interrupted)
                if done is not None:
                    i = running.pop(done)
                    try:
                        result = done.result()
                    except BrokenProcessPool:
                        self._restart([i, *running.values()])
                        return
                    except CHUNK_ERRORS as exc:  # the chunk raised, or could not travel
                        raise _chunk_failed(i, exc) from exc
            if done is None:  # Ctrl-C, and its handler only asked to stop: go on
                continue
            left.discard(i)
            yield i, result

    def _restart(self, in_flight: Collection[int]) -> None:
        """Rebuild the broken pool, whose chunks ``in_flight`` (submitted, not
        returned) run again; past :attr:`max_restarts`, ExecutorError naming them."""
        self.restarts += 1
        procs = self._processes()
        if self._pool is not None:
            self._pool.shutdown(wait=True, cancel_futures=True)
            self._pool = None
        if self.restarts > self.max_restarts:
            from ..errors import counted

            how = _exits(procs)
            chunks = ", ".join(str(i) for i in sorted(in_flight))
            if chunks:
                chunks = f", the last time with chunk{'s' * (len(in_flight) > 1)} {chunks}"
                chunks += " in flight"
            raise ExecutorError(
                f"the process pool broke {counted(self.restarts, 'time')} (a worker died"
                f"{f': {how}' if how else ''}; out of memory, a bot that exits, or a "
                f"worker that cannot start){chunks}; giving up"
            )

    def _stop(self) -> None:
        """Stop the workers now (the chunks they play are dropped) and shut down."""
        self._break()
        self.close()

    def _break(self) -> None:
        """Stop every worker, and break the pool for sure.

        A worker stopped (or killed) in the middle of sending a result leaves the
        pool's reader waiting for the rest of it for ever; once every worker is gone,
        this process's end of the result pipe is closed too, so that the reader meets
        the pipe's end: the pool counts as broken, and its shutdown returns."""
        procs = _outliving(self._processes(), 0)
        for stop in ("terminate", "kill"):  # SIGTERM, then SIGKILL after 5 s
            for p in procs:
                getattr(p, stop)()
            procs = _outliving(procs, 5.0)
        # (the pool's SimpleQueue of results; its reader is the pool's thread's)
        writer = getattr(getattr(self._pool, "_result_queue", None), "_writer", None)
        if writer is not None:
            writer.close()

    def _next(
        self, finished: queue.SimpleQueue[Future[Any]], interrupted: Callable[[], bool]
    ) -> Future[Any] | None:
        """The next future done, or None once ``interrupted()`` (Ctrl-C came).  A
        worker gone while nothing comes back for a second more (killed while sending
        its result: the pool waits for the rest of it for ever) breaks the pool, so
        its chunks run again."""
        gone = False
        check = time.monotonic() + 1.0
        while True:
            try:
                return finished.get(timeout=0.1)
            except queue.Empty:
                if interrupted():
                    return None
                if time.monotonic() < check:
                    continue
                check = time.monotonic() + 1.0
                procs = self._processes()
                if gone:
                    self._break()
                gone = len(_outliving(procs, 0)) < len(procs)

    def __getstate__(self) -> dict[str, Any]:
        """Pickling and copies (``copy.copy`` too): the settings without the pool, so
        that a copy starts workers of its own on first use, and neither closing it nor
        its garbage ever touches this executor's pool (pipes, processes, locks)."""
        return {**self.__dict__, "_pool": None}

    def close(self) -> None:
        """Shut the pool down, cancelling what has not started."""
        if self._pool is not None:
            self._pool.shutdown(wait=True, cancel_futures=True)
            self._pool = None


def _is_main_test(test: ast.expr) -> bool:
    """``__name__ == "__main__"`` (either way round)."""
    if not (isinstance(test, ast.Compare) and len(test.ops) == 1):
        return False
    sides = [test.left, test.comparators[0]]
    names = [x.id for x in sides if isinstance(x, ast.Name)]
    texts = [x.value for x in sides if isinstance(x, ast.Constant)]
    return (
        isinstance(test.ops[0], ast.Eq) and names == ["__name__"] and texts == ["__main__"]
    )


def unguarded_main_line() -> tuple[str, int] | None:
    """(path, line) of the main script's statement that is running this call outside
    an ``if __name__ == "__main__":`` block, or None (guarded, or no script: ``python
    -c``, a notebook).  A ``forkserver``/``spawn`` worker imports the main script
    again: an unguarded statement that starts a pool would run again in every worker,
    which then dies, and the pool breaks."""
    main = sys.modules.get("__main__")
    path = getattr(main, "__file__", None)
    if main is None or not isinstance(path, str) or not path.endswith(".py"):
        return None
    line = None
    frame = inspect.currentframe()
    while frame is not None:  # the outermost frame of the script's own top level
        if frame.f_globals is vars(main) and frame.f_code.co_name == "<module>":
            line = frame.f_lineno
        frame = frame.f_back
    if line is None:
        return None
    try:
        with open(path, encoding="utf-8") as f:
            tree = ast.parse(f.read())
    except (OSError, SyntaxError, ValueError, UnicodeDecodeError):
        return None
    for node in tree.body:
        end = getattr(node, "end_lineno", None) or node.lineno
        guarded = isinstance(node, ast.If) and _is_main_test(node.test)
        if guarded and node.lineno <= line <= end:
            return None
    return path, line


def unreadable_main() -> str | None:
    """The ``__file__`` of a main script that a ``forkserver``/``spawn`` worker cannot
    import again, as it is no file (``"<stdin>"``: ``python - <<EOF``, ``python <
    run.py``), or None (a file, a module run with ``-m``, no script: ``python -c``, a
    notebook)."""
    main = sys.modules.get("__main__")
    if main is None or getattr(main, "__spec__", None) is not None:
        return None  # (-m: the workers import it by name)
    path = getattr(main, "__file__", None)
    if not isinstance(path, str):
        return None
    # (as multiprocessing finds it: a relative path from the first working directory)
    start = getattr(multiprocessing.process, "ORIGINAL_DIR", None) or ""
    return None if os.path.isfile(os.path.join(start, path)) else path


def check_main_guard() -> None:
    """ExecutorError saying what to do when a process pool is started by a script's
    top-level code without the ``if __name__ == "__main__":`` guard, or by a script
    that is no file (read from standard input), which its workers cannot import."""
    path = unreadable_main()
    if path is not None:
        raise ExecutorError(
            f"the main script is {path!r}, not a file: a process pool starts its "
            f"workers with forkserver/spawn, which import the main script again and "
            f"cannot; save it to a .py file (its pool started under "
            f'`if __name__ == "__main__":`), or run with workers=1'
        )
    where = unguarded_main_line()
    if where is not None:
        raise ExecutorError(
            f"{where[0]}, line {where[1]}: a process pool starts its workers with "
            f"forkserver/spawn, which import this script again and would run this "
            f"line in every worker; put the code that starts the run under "
            f'`if __name__ == "__main__":` (see the README\'s parallel runs)'
        )


def _apply(fn: Callable[[Any], Any], item: Any) -> Any:
    """What a Ray task runs: ``fn(item)`` (any picklable callable, not only functions)."""
    return fn(item)


def _ray() -> Any:
    try:
        import ray
    except ImportError:
        raise ExecutorError("--ray needs Ray: pip install 'ofc-fast[ray]'") from None
    return ray


_CONNECT_SECONDS = 5.0  # a cluster's address that does not answer sooner is refused


def _check_answers(address: str) -> None:
    """ExecutorError naming ``--ray`` when nothing answers at ``address``
    (``"host:port"``, ``"ray://host:port"``) within :data:`_CONNECT_SECONDS`:
    ``ray.init`` has no timeout for it and retried for minutes.  ``"auto"`` and
    other forms: Ray's own checks."""
    host, sep, port = address.removeprefix("ray://").rpartition(":")
    if not sep or not port.isdigit():
        return
    host = host.strip("[]")  # (an IPv6 address, "[::1]:6379")
    try:
        socket.create_connection((host, int(port)), timeout=_CONNECT_SECONDS).close()
    except (OSError, OverflowError) as exc:  # (OverflowError: a port past 65535)
        why = getattr(exc, "strerror", None) or str(exc) or type(exc).__name__
        raise ExecutorError(
            f"--ray {address}: cannot join the cluster: nothing answers at "
            f"{host}:{port} ({why})"
        ) from None


class RayExecutor(Executor):
    """Ray tasks.  ``address``: ``"auto"`` (a running cluster, e.g. ``ray start
    --head``), ``"ray://host:10001"`` or ``"host:6379"``, or None (this process starts
    a local cluster; ``num_cpus`` caps it: None or an int >= 1, at most as many as
    ``workers`` may be, 4 per CPU, else ExecutorError).
    When Ray is already initialised (a test's session) it is used as it is.
    ``max_retries``: runs of a task whose worker died (an int >= 0, else
    ExecutorError when made).  At most two chunks per
    worker (:attr:`workers`: the cluster's CPUs when made) are in flight at a time
    (:func:`may_submit`): a long run does not hold every task and result in the
    cluster at once.

    >>> with RayExecutor(num_cpus=2) as pool:  # doctest: +SKIP
    ...     sorted(pool.map_unordered(abs, [-1, -2]))
    [(0, 1), (1, 2)]
    >>> RayExecutor(num_cpus=0)  # (checked before Ray is imported)
    Traceback (most recent call last):
    ...
    ofc_fast.errors.ExecutorError: num_cpus: must be at least 1, got 0
    """

    name = "ray"

    def __init__(
        self, address: str | None = None, num_cpus: int | None = None, max_retries: int = 3
    ) -> None:
        if num_cpus is not None:
            num_cpus = worker_count(num_cpus, "num_cpus")  # (as workers: 4 per CPU)
        self.max_retries = whole_count(max_retries, "max_retries", least=0)
        ray = _ray()
        self.ray = ray
        self._owned = False
        if not ray.is_initialized():
            kwargs: dict[str, Any] = {"include_dashboard": False, "log_to_driver": False}
            if address is None:
                kwargs["num_cpus"] = num_cpus
            else:
                _check_answers(address)
            try:
                ray.init(address=address, **kwargs)
            except Exception as exc:  # ConnectionError, ValueError, RuntimeError...
                raise ExecutorError(
                    f"--ray {address}: cannot join the cluster: {exc}"
                ) from None
            self._owned = True
        # (at least 1: a head without CPUs whose workers are still to join)
        self.workers = max(1, int(ray.cluster_resources().get("CPU", 1)))

    def map_unordered(
        self, fn: Callable[[Any], Any], items: Sequence[Any]
    ) -> Iterator[tuple[int, Any]]:
        """Run as Ray tasks, retried ``max_retries`` times on a lost worker; at most
        two per worker (:attr:`workers`: the cluster's CPUs) in flight at a time,
        submitted in index order (:func:`may_submit`)."""
        ray = self.ray
        task = ray.remote(max_retries=self.max_retries, retry_exceptions=False)(_apply)
        fn_ref = ray.put(fn)
        refs: dict[Any, int] = {}  # in flight -> its index
        nxt = 0  # the next chunk to submit
        try:
            while True:
                while nxt < len(items) and may_submit(nxt, refs.values(), self.workers):
                    refs[task.remote(fn_ref, items[nxt])] = nxt
                    nxt += 1
                if not refs:
                    return
                done, _ = ray.wait(list(refs), num_returns=1)
                for ref in done:
                    yield refs[ref], self._result(ref, refs[ref])
                    del refs[ref]
        finally:  # stopped early (Ctrl-C, a chunk that raised, a caller that let go)
            self._cancel(list(refs))  # its chunks in flight stop, as the pool's do

    def _cancel(self, refs: list[Any]) -> None:
        """Stop the tasks ``refs``: cancelled (a KeyboardInterrupt in each running
        one), and those still running :data:`CANCEL_GRACE` seconds later (a cancel
        that reached a task as it was handed to its worker is lost, seen under load)
        cancelled again with ``force``: their workers stopped (a cancelled task is
        never retried)."""
        ray = self.ray
        for ref in refs:
            ray.cancel(ref)
        if refs:
            _, running = ray.wait(refs, num_returns=len(refs), timeout=CANCEL_GRACE)
            for ref in running:
                ray.cancel(ref, force=True)

    def _result(self, ref: Any, index: int) -> Any:
        """The result of chunk ``index``'s task ``ref`` (done), or ExecutorError."""
        ray = self.ray
        try:
            return ray.get(ref)
        except ray.exceptions.RayTaskError as exc:  # the chunk itself raised
            raise _chunk_failed(index, getattr(exc, "cause", None) or exc) from None
        except ray.exceptions.RayError as exc:  # its worker died every time
            from ..errors import counted

            raise ExecutorError(
                f"chunk {index} failed after "
                f"{counted(self.max_retries, 'retry', 'retries')}: {exc}"
            ) from None

    def __getstate__(self) -> dict[str, Any]:
        """Pickling and copies (``copy.copy`` too): the settings, not the Ray module,
        and never the ownership: closing a copy never shuts down the cluster this
        executor started."""
        return {**self.__dict__, "ray": None, "_owned": False}

    def __setstate__(self, state: dict[str, Any]) -> None:
        """A copy's settings, with this process's Ray module.  A copy used where Ray
        is not running (after its original's ``close()``, or unpickled in another
        process) starts a local Ray on its first task, as Ray does, which no
        executor owns: Ray's own exit handler stops it."""
        self.__dict__.update(state, ray=_ray())

    def close(self) -> None:
        """Disconnect from Ray if this executor started it."""
        if self._owned:
            self.ray.shutdown()
            self._owned = False


def executor_or_local(executor: object) -> Executor:
    """``executor`` when it is an :class:`Executor`, a :class:`LocalExecutor` for None,
    else ExecutorError naming it (a run's ``executor=`` argument, checked before the
    run writes anything).

    >>> executor_or_local(None).name
    'local'
    >>> executor_or_local("process")
    Traceback (most recent call last):
    ...
    ofc_fast.errors.ExecutorError: executor: an Executor (make_executor(workers=N)), got 'process'
    """
    if executor is None:
        return LocalExecutor()
    if not isinstance(executor, Executor):
        raise ExecutorError(
            f"executor: an Executor (make_executor(workers=N)), got {quote(executor)}"
        )
    return executor


def make_executor(
    workers: int | None = None, ray: str | None = None, num_cpus: int | None = None
) -> Executor:
    """The executor of the command-line options: ``ray`` (an address, ``"auto"``,
    or ``"local"`` for a cluster started here) wins; else ``process`` for ``workers``
    > 1; else ``local``.

    >>> type(make_executor()).__name__, type(make_executor(workers=1)).__name__
    ('LocalExecutor', 'LocalExecutor')
    """
    if workers is not None:  # (a local Ray cluster's CPUs too)
        workers = worker_count(workers, "--workers")
    if ray is not None:
        cpus = workers if num_cpus is None else num_cpus  # (0 is refused, not "none")
        return RayExecutor(None if ray == "local" else ray, num_cpus=cpus)
    if workers is None or workers == 1:
        return LocalExecutor()
    return ProcessExecutor(workers)
