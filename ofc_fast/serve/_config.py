"""The settings of a server: where it listens, its key and its limits.

>>> ServeConfig().host, ServeConfig().max_body
('127.0.0.1', 1048576)
>>> ServeConfig().workers == default_workers() >= 4
True
"""

from __future__ import annotations

import os
from dataclasses import dataclass, field

from ..errors import OfcError

__all__ = ["ServeConfig"]

LOCAL_HOSTS = ("127.0.0.1", "localhost", "::1")
"""Addresses a server may bind without an API key."""

WORKERS_PER_CPU = 4
"""Default computations at once per CPU the process may use (see :func:`default_workers`)."""


def _cpus() -> int:
    """CPUs this process may run on (its affinity mask where the platform has one).

    >>> _cpus() >= 1
    True
    """
    affinity = getattr(os, "sched_getaffinity", None)
    return len(affinity(0)) if affinity is not None else os.cpu_count() or 1


def default_workers() -> int:
    """The default of ``--workers``: 4 per CPU.  A search's
    ``time_budget`` is wall-clock time, so a request that had to queue behind busy
    workers would wait several budgets; with more workers than CPUs the searches run
    at once and share the CPUs, each answering within its budget with fewer samples
    (its answer reports ``samples`` and ``stderr``).  Measured on 2 CPUs, 8 clients
    each asking for 0.2 s: 2 workers answered in 0.85 s (p50), 8 in 0.27 s
    (docs/serve.md).

    >>> default_workers() == 4 * _cpus()
    True
    """
    return WORKERS_PER_CPU * _cpus()


@dataclass(frozen=True)
class ServeConfig:
    """Settings of ``ofc-fast serve`` (every limit bounds what one client can make the
    server do).

    ``workers``: computations (searches, solves, bot moves) run at once, each on its own
    thread (the C search releases the GIL; default :func:`default_workers`);
    ``queue``: requests that may wait for one (beyond: 503 with ``Retry-After``);
    ``max_body``: bytes of a request body (beyond: 413); ``max_time_budget``: seconds
    any one request may search (``time_budget`` is capped here, and a request giving
    only ``samples`` stops at it);
    ``max_samples``: sampled futures per analysis; ``max_sessions``: games kept at
    once (the least recently used goes first); ``session_ttl``: seconds a game lives
    without a request; ``api_key``: the bearer token every ``/v1`` request but
    ``/v1/health`` must carry (None: no key; required off the local host).
    """

    host: str = "127.0.0.1"
    port: int = 8000
    api_key: str | None = None
    workers: int = field(default_factory=default_workers)
    queue: int = 32
    max_body: int = 1 << 20
    max_time_budget: float = 2.0
    max_samples: int = 4096
    max_sessions: int = 256
    session_ttl: float = 1800.0
    retry_after: int = 1

    def check(self) -> ServeConfig:
        """Itself, or OfcError naming the first bad setting (a non-local host without
        an API key among them)."""
        if self.host not in LOCAL_HOSTS and not self.api_key:
            raise OfcError(
                f"--host {self.host}: binding an address other than 127.0.0.1 needs "
                "--api-key (clients send it as 'Authorization: Bearer KEY')"
            )
        if self.api_key is not None and len(self.api_key) < 8:
            raise OfcError("--api-key: use a key of at least 8 characters")
        for name, low in (
            ("workers", 1),
            ("queue", 0),
            ("max_body", 1024),
            ("max_samples", 1),
            ("max_sessions", 1),
            ("port", 0),
            ("retry_after", 0),
        ):
            value = getattr(self, name)
            if isinstance(value, bool) or not isinstance(value, int) or value < low:
                raise OfcError(f"{name} must be an integer >= {low}, got {value!r}")
        if self.port > 65535:
            raise OfcError(f"port must be within 0..65535, got {self.port}")
        for name, high, want in (
            ("max_time_budget", 600.0, "within 0..600"),
            ("session_ttl", float("inf"), "> 0"),
        ):
            value = getattr(self, name)
            if (
                isinstance(value, bool)
                or not isinstance(value, (int, float))
                or not 0 < value <= high  # NaN fails too
            ):
                raise OfcError(f"{name} must be seconds {want}, got {value!r}")
        return self
