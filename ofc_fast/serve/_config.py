"""The settings of a server: where it listens, its key and its limits.

>>> ServeConfig().host, ServeConfig().max_body
('127.0.0.1', 1048576)
>>> ServeConfig().workers == default_workers() >= 4
True
"""

from __future__ import annotations

import ipaddress
import os
import re
from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import IO

from ..errors import OfcError, quote, quote_path, whole_count
from ..files import open_input
from ..parallel import cpu_count, worker_count
from ..parallel.cli import MAX_WORKERS_PER_CPU

__all__ = ["API_KEY_ENV", "ServeConfig", "api_key"]

LOCAL_HOSTS = ("127.0.0.1", "localhost", "::1")
"""Addresses a server may bind without an API key."""

_HOST_NAME = re.compile(r"[A-Za-z0-9.:-]{1,253}")
_ROOT_PATH = re.compile(r"(/(?!\.\.?(?:/|$))[A-Za-z0-9._~-]+){0,16}")  # ("": the root)

WORKERS_PER_CPU = MAX_WORKERS_PER_CPU
"""Default computations at once per CPU the process may use (see :func:`default_workers`),
and the most: as every command's ``--workers`` (``ofc-fast play --workers``)."""

MAX_QUEUE = 1024
"""The most requests that may wait (``--queue``): uvicorn refuses connections beyond
4 x (workers + queue), which a larger queue would lift."""


def default_workers() -> int:
    """The default of ``--workers``: 4 per CPU.  A search's
    ``time_budget`` is wall-clock time, so a request that had to queue behind busy
    workers would wait several budgets; with more workers than CPUs the searches run
    at once and share the CPUs, each answering within its budget with fewer samples
    (its answer reports ``samples`` and ``stderr``).  Measured on 2 CPUs, 8 clients
    each asking for 0.2 s: 2 workers answered in 0.85 s (p50), 8 in 0.27 s
    (docs/serve.md).

    >>> default_workers() == 4 * cpu_count()
    True
    """
    return WORKERS_PER_CPU * cpu_count()


@dataclass(frozen=True)
class ServeConfig:
    """Settings of ``ofc-fast serve`` (every limit bounds what one client can make the
    server do).

    ``workers``: computations (searches, solves, bot moves) run at once, each on its own
    thread (the C search releases the GIL; default :func:`default_workers`, and at
    most that: 4 per CPU); ``queue``: requests that may wait for one, or for their
    game (beyond: 503 with ``Retry-After``; at most :data:`MAX_QUEUE`);
    ``max_body``: bytes of a request body (beyond: 413); ``max_time_budget``: seconds
    any one request may search (``time_budget`` is capped here, and a request giving
    only ``samples`` stops at it);
    ``max_samples``: sampled futures per analysis; ``max_sessions``: games kept at
    once (when full, the least recently used game of the client that holds the most
    goes first); ``max_sessions_per_client``: games one client (its remote address)
    keeps at once (a new one beyond drops that client's own least recently used
    game, never another client's; at most ``max_sessions`` in effect);
    ``session_ttl``: seconds a game lives
    without a request; ``api_key``: the bearer token every ``/v1`` request but
    ``/v1/health`` must carry (None: no key; required off the local host; left out
    of the repr, which a log may print);
    ``allowed_hosts``: names, besides the local ones and ``host``, that a server
    without a key answers ``/v1`` requests for in their ``Host`` header (see
    :func:`host_allowed`; a server with a key answers any);
    ``forwarded_allow_ips``: the addresses (or networks, ``10.0.0.0/8``; ``*``: any)
    of reverse proxies whose ``X-Forwarded-For`` names the client (its address then
    tells clients apart); () believes no such header (uvicorn's own default believes
    it from 127.0.0.1), so a caller cannot pass for another client.  ``ofc-fast
    serve`` hands it to uvicorn; an app run by another server takes that server's
    setting instead.  ``root_path``: the path a reverse proxy serves the server
    under (``/ofc``, or ``/ofc/``, read as ``/ofc``; "": the host's root), where a
    problem's ``type`` names its page from (``/ofc/problems/not-found``); an ASGI
    server's own ``root_path`` counts instead where it gives one.

    >>> config = ServeConfig(workers=2, max_time_budget=0.5).check()
    >>> config.workers, config.queue, config.max_time_budget
    (2, 32, 0.5)
    """

    host: str = "127.0.0.1"
    port: int = 8000
    api_key: str | None = field(default=None, repr=False)  # a secret: not in logs
    workers: int = field(default_factory=default_workers)
    queue: int = 32
    max_body: int = 1 << 20
    max_time_budget: float = 2.0
    max_samples: int = 4096
    max_sessions: int = 256
    max_sessions_per_client: int = 64
    session_ttl: float = 1800.0
    retry_after: int = 1
    allowed_hosts: tuple[str, ...] = ()
    forwarded_allow_ips: tuple[str, ...] = ()
    root_path: str = ""

    def __post_init__(self) -> None:
        root = self.root_path  # "/ofc/" as "/ofc", as an ASGI server's own root_path
        if isinstance(root, str) and root.endswith("/"):  # ("/" alone: the root, "")
            object.__setattr__(self, "root_path", root.rstrip("/"))

    def check(self, options: Mapping[str, str] | None = None) -> ServeConfig:
        """Itself, or OfcError naming the first bad setting (a non-local host without
        an API key among them): by its field name, or by ``options[name]`` where
        ``options`` maps it (``ofc-fast serve`` names its command-line options).

        >>> ServeConfig(queue=-1).check({"queue": "--queue"})
        Traceback (most recent call last):
        ...
        ofc_fast.errors.OfcError: --queue: must be at least 0, got -1
        """
        named = options or {}

        def label(name: str) -> str:  # an option as every refused value names it,
            return f"{named[name]}:" if name in named else name  # "--port: must be"

        if not isinstance(self.host, str) or not self.host.strip():  # (an unset variable)
            raise OfcError(
                f"{label('host')} must be an address or a host name, got {quote(self.host)}"
            )
        if self.host not in LOCAL_HOSTS and not self.api_key:
            raise OfcError(
                f"--host {self.host}: binding an address other than {', '.join(LOCAL_HOSTS)} needs "
                f"--api-key (or --api-key-file, or {API_KEY_ENV} in the environment; "
                "clients send it as 'Authorization: Bearer KEY')"
            )
        if self.api_key is not None:
            _usable_key(self.api_key, label("api_key"))
        # threads, the same bound as every command's --workers: the same check; each
        # count kept as the int it is (a NumPy integer would reach the JSON documents)
        counted = {"workers": worker_count(self.workers, named.get("workers", "workers"))}
        for name, low, most in (  # (queue: connections are 4 x (workers + queue),
            ("queue", 0, MAX_QUEUE),  # uvicorn's limit)
            ("max_body", 1024, None),
            ("max_samples", 1, None),
            ("max_sessions", 1, None),
            ("max_sessions_per_client", 1, None),
            ("port", 0, 65535),
            ("retry_after", 0, None),
        ):  # (every count in the one wording: "--queue: must be at least 0, got -1")
            value = getattr(self, name)
            counted[name] = whole_count(value, named.get(name, name), low, OfcError, most)
        for name, n in counted.items():
            object.__setattr__(self, name, n)  # (frozen: the same count, as an int)
        hosts, chars = self.allowed_hosts, "(letters, digits, '.', '-', ':')"
        if not isinstance(hosts, tuple) or not all(isinstance(h, str) for h in hosts):
            raise OfcError(
                f"{label('allowed_hosts')} must be a tuple of host names {chars}, "
                f"got {quote(hosts)}"
            )
        for h in hosts:  # the bad one alone: the value the user typed
            if not _HOST_NAME.fullmatch(h):
                raise OfcError(
                    f"{label('allowed_hosts')} must be a host name {chars}, got {quote(h)}"
                )
        _check_proxies(self.forwarded_allow_ips, label("forwarded_allow_ips"))
        root = self.root_path
        if not isinstance(root, str) or not _ROOT_PATH.fullmatch(root):
            raise OfcError(
                f"{label('root_path')} must be a path ('/' and segments of letters, "
                f"digits and -._~ but . and ..: /ofc), or '', got {quote(root)}"
            )
        for name, high, want in (
            ("max_time_budget", 600.0, "> 0 and <= 600"),
            ("session_ttl", float("inf"), "> 0"),
        ):
            value = getattr(self, name)
            if (
                isinstance(value, bool)
                or not isinstance(value, (int, float))
                or not 0 < value <= high  # NaN fails too
            ):
                raise OfcError(f"{label(name)} must be seconds {want}, got {quote(value)}")
        return self


def _check_proxies(proxies: object, label: str) -> None:
    """OfcError naming ``label`` unless ``proxies`` is a tuple of IP addresses and
    networks (``10.0.0.0/8``, host bits zero), or ``("*",)``: uvicorn would take any
    other text as a name no client address ever equals, and trust nobody silently.

    >>> _check_proxies(("127.0.0.1", "10.0.0.0/8", "::1"), "x")
    >>> try:
    ...     _check_proxies(("10.0.0.1/8",), "x")
    ... except OfcError as exc:
    ...     print(exc)
    x must be IP addresses or networks (10.0.0.0/8), or '*', got '10.0.0.1/8'
    """
    want = f"{label} must be IP addresses or networks (10.0.0.0/8), or '*'"
    if not isinstance(proxies, tuple) or not all(isinstance(p, str) for p in proxies):
        raise OfcError(f"{want}, got {quote(proxies)}")
    if proxies == ("*",):
        return
    for p in proxies:
        try:
            ipaddress.ip_network(p) if "/" in p else ipaddress.ip_address(p)
        except ValueError:
            raise OfcError(f"{want}, got {quote(p)}") from None


def host_name(header: bytes) -> str:
    """The host of a ``Host`` header, lower-case, without its port or brackets, or
    the one trailing dot of a fully qualified name (``localhost.`` is ``localhost``).

    >>> host_name(b"LocalHost:8000"), host_name(b"[::1]:8000"), host_name(b"127.0.0.1")
    ('localhost', '::1', '127.0.0.1')
    >>> host_name(b"localhost.:8000"), host_name(b"ofc.lan."), host_name(b"x..")
    ('localhost', 'ofc.lan', 'x.')
    """
    text = header.decode("latin-1").strip().lower()
    if text.startswith("["):
        return text[1 : text.find("]")] if "]" in text else text
    name = text.rsplit(":", 1)[0] if text.count(":") == 1 else text
    return name.removesuffix(".")


def checked_config(config: object) -> ServeConfig:
    """``config`` checked (:meth:`ServeConfig.check`; None: the defaults), or OfcError
    naming it when it is no ServeConfig (``create_app(True)`` raised AttributeError).

    >>> checked_config(None).port
    8000
    >>> checked_config({"port": 1})
    Traceback (most recent call last):
    ...
    ofc_fast.errors.OfcError: config: expected a ServeConfig, got {'port': 1}
    """
    if config is None:
        config = ServeConfig()
    if not isinstance(config, ServeConfig):
        raise OfcError(f"config: expected a ServeConfig, got {quote(config)}")
    return config.check()


def host_names(config: ServeConfig) -> frozenset[str]:
    """The names a server without a key answers ``/v1`` requests for
    (:func:`host_allowed`): the local ones, the address it binds and ``allowed_hosts``,
    each as :func:`host_name` reads a ``Host`` header (lower-case, no trailing dot).

    >>> sorted(host_names(ServeConfig(allowed_hosts=("OFC.lan.",))))
    ['127.0.0.1', '::1', 'localhost', 'ofc.lan']
    """
    names = (*LOCAL_HOSTS, config.host, *config.allowed_hosts)
    return frozenset(host_name(h.encode("latin-1")) for h in names)


def host_allowed(names: frozenset[str], header: bytes | None) -> bool:
    """Whether a server without a key answers a request with this ``Host`` header:
    its host is one of ``names`` (:func:`host_names`, computed once per server).
    This is what stops DNS rebinding: a page on another site whose name is made to
    resolve to 127.0.0.1 is same-origin with the server to the browser, but its
    requests carry that other name.  A request without the header (no browser sends
    one) is answered.

    >>> names = host_names(ServeConfig(allowed_hosts=("ofc.lan",)))
    >>> [host_allowed(names, h) for h in (b"localhost:8000", b"ofc.lan", b"evil.example")]
    [True, True, False]
    """
    return header is None or host_name(header) in names


API_KEY_ENV = "OFC_FAST_API_KEY"
"""The environment variable ``ofc-fast serve`` takes its key from when no option
gives one (an option's value shows in ``ps``; the environment does not)."""


KEY_MIN = 8
"""The fewest characters an API key may have."""


def _usable_key(key: str, source: str) -> str:
    """``key``, or OfcError naming ``source`` (where it came from) when it is short, or
    when no client could send it in its ``Authorization`` header: a space or a tab at
    either end (a header's value is read without them, RFC 9110, 5.5), a control
    character (refused in a header): every request would be a 401.

    >>> _usable_key("a-key-of-16-char", "--api-key")
    'a-key-of-16-char'
    >>> try:
    ...     _usable_key("a-key-of-16-char ", "--api-key")
    ... except OfcError as exc:
    ...     print(exc)
    --api-key: use a key with no space at either end, no control character: no client can send it
    """
    if not isinstance(key, str):  # (its value is not written out: it may be a secret)
        raise OfcError(f"{source}: the key must be text, got a {type(key).__name__}")
    if len(key) < KEY_MIN:
        raise OfcError(f"{source}: use a key of at least {KEY_MIN} characters")
    if key != key.strip(" \t") or any(ord(c) < 32 or ord(c) == 127 for c in key):
        raise OfcError(
            f"{source}: use a key with no space at either end, no control character: "
            "no client can send it"
        )
    return key


def api_key(
    option: str | None,
    path: str | IO[bytes] | None,
    environ: Mapping[str, str] = os.environ,
) -> str | None:
    """The server's key: ``--api-key``, else the first line of ``--api-key-file`` (a
    path, or an open binary file: ``--api-key-file -``, standard input),
    else :data:`API_KEY_ENV` (empty: none), else None.  OfcError (exit 2) for a file
    that cannot be read, is not UTF-8 or holds no key, and for a key shorter than
    :data:`KEY_MIN` characters, naming where it came from.

    >>> api_key(None, None, {"OFC_FAST_API_KEY": "s3cret-key"})
    's3cret-key'
    >>> api_key("from-option", None, {"OFC_FAST_API_KEY": "s3cret-key"})
    'from-option'
    >>> api_key(None, "/no/such/key", {})
    Traceback (most recent call last):
    ...
    ofc_fast.errors.OfcError: --api-key-file: cannot read '/no/such/key': No such file or directory
    """
    if option is not None:
        return _usable_key(option, "--api-key")
    if path is not None:
        where = quote_path(path) if isinstance(path, str) else "standard input"
        try:
            if isinstance(path, str):
                with open_input(path) as f:  # (a FIFO: not waited on for ever)
                    line = f.readline(4096)
            else:  # (its first line only: the rest may be for another reader)
                line = path.readline(4096)
            text = line.decode("utf-8-sig")  # (a BOM: Windows Notepad)
        except OSError as exc:
            raise OfcError(f"--api-key-file: cannot read {where}: {exc.strerror}") from None
        except OfcError as exc:  # (standard input that cannot be read: says why)
            raise OfcError(f"--api-key-file: {exc}") from None
        except UnicodeDecodeError:
            raise OfcError(f"--api-key-file: {where} is not UTF-8 text") from None
        key = text.strip()
        if not key:
            raise OfcError(f"--api-key-file: {where} holds no key on its first line")
        return _usable_key(key, f"--api-key-file: {where}")
    found = environ.get(API_KEY_ENV)
    return _usable_key(found, API_KEY_ENV) if found else None
