"""The checks of the parallel runs that need no process pool (no multiprocessing):
counts, the CPUs, what a chunk may raise.  ``ofc-fast`` builds its parsers and checks
``--workers`` with them (:mod:`ofc_fast.parallel.cli`, ``ofc-fast serve``), and the
split (``._plan``) reads them, without the executors."""

from __future__ import annotations

import os

from ..errors import ExecutorError, OfcError, count_problem, quote
from ..table import as_int

__all__ = [
    "CHUNK_ERRORS",
    "MAX_WORKERS_PER_CPU",
    "cpu_count",
    "whole_count",
    "worker_count",
    "workers_most",
]

MAX_WORKERS_PER_CPU = 4
"""Worker processes are at most this many per CPU this process may use (``--workers``,
:class:`~ofc_fast.parallel.ProcessExecutor`): more only share the CPUs (and each
holds its own copy of the bots)."""


def whole_count(
    value: object,
    what: str,
    least: int = 1,
    error: type[OfcError] = ExecutorError,
    most: int | None = None,
) -> int:
    """``value`` as a count >= ``least`` (an int or a numpy integer, not a bool) and,
    where the count has a bound (``most``: a run's hands, whose deal indices are
    64-bit), <= ``most``, else ``error`` naming ``what``: the one count check of the
    parallel runs (workers, a Ray cluster's CPUs: >= 1, 0 CPUs would run no task, for
    ever; retries and restarts: >= 0; a run's hands, chunk and shard sizes: GameError),
    in the words of the command line's counts (``count_problem``: ``--workers 0`` and
    ``workers=0`` are refused alike).

    >>> whole_count(0, "workers")
    Traceback (most recent call last):
    ...
    ofc_fast.errors.ExecutorError: workers: must be at least 1, got 0
    >>> whole_count(2**70, "hands", 0, OfcError, most=2**64)
    Traceback (most recent call last):
    ...
    ofc_fast.errors.OfcError: hands: must be at most 18446744073709551616, got 1180591620717411303424
    """  # noqa: E501 - the error, verbatim
    n = as_int(value)
    problem = (
        f"must be a whole number, got {quote(value)}"
        if n is None
        else count_problem(n, least, most)
    )
    if problem:
        raise error(f"{what}: {problem}")
    assert n is not None
    return n


def workers_most(cpus: int | None = None) -> tuple[int, str]:
    """The most worker processes on ``cpus`` CPUs (default: :func:`cpu_count`),
    :data:`MAX_WORKERS_PER_CPU` per CPU, and why, as an error over it says it."""
    cpus = cpu_count() if cpus is None else cpus
    why = f"{MAX_WORKERS_PER_CPU} per CPU, {cpus} CPU{'s' * (cpus != 1)} here"
    return MAX_WORKERS_PER_CPU * cpus, why


def worker_count(value: object, what: str) -> int:
    """``value`` as a number of worker processes: a count (:func:`whole_count`) of at
    most :func:`workers_most`, else ExecutorError naming ``what``.

    >>> worker_count(2**70, "workers")
    Traceback (most recent call last):
    ...
    ofc_fast.errors.ExecutorError: workers: must be at most ...
    """
    n = whole_count(value, what)
    most, why = workers_most()
    if n > most:
        raise ExecutorError(f"{what}: must be at most {most}, got {quote(n)} ({why})")
    return n


CHUNK_ERRORS = (Exception, SystemExit)
"""What a chunk's function may raise that is the chunk's failure: an exception, or a
bot's ``sys.exit()`` (not the run's exit status; Ctrl-C stays the run's)."""


def cpu_count() -> int:
    """CPUs this process may use."""
    try:
        return len(os.sched_getaffinity(0))
    except AttributeError:  # pragma: no cover - not Linux
        return os.cpu_count() or 1
