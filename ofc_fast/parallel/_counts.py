"""The checks of the parallel runs that need no process pool (no multiprocessing):
counts, the CPUs, what a chunk may raise.  ``ofc-fast`` builds its parsers and checks
``--workers`` with them (:mod:`ofc_fast.parallel.cli`, ``ofc-fast serve``), and the
split (``._plan``) reads them, without the executors."""

from __future__ import annotations

import os

from ..errors import ExecutorError, quote, whole_count

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
