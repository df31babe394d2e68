"""``ofc-fast serve``: the API and the web app on uvicorn (registered by
:func:`add_commands`; ``ofc_fast.cli`` calls it).  Needs the ``serve`` extra
(``pip install 'ofc-fast[serve]'``)."""

from __future__ import annotations

import argparse
import importlib.util
import logging
import os
import socket
import sys
from typing import Any

from ..cli.options import input_file, named, one_of, split_list
from ..errors import OfcError

__all__ = ["add_commands"]


def _uvicorn() -> Any:
    """The ``uvicorn`` module, or an OfcError saying which extra installs it (checked
    by ``ofc-fast serve`` before it binds its port and says where it serves)."""
    try:
        import uvicorn
    except ImportError:
        raise OfcError(
            "ofc-fast serve needs the serve extra: pip install 'ofc-fast[serve]'"
        ) from None
    return uvicorn


def run_server(config: Any, log_level: str = "info", sock: Any = None) -> None:
    """Serve ``config`` (a :class:`~ofc_fast.serve._config.ServeConfig`) until SIGINT or
    SIGTERM; both stop gracefully (no new connections, the requests in flight
    finish, up to 10 seconds).  ``sock``: a socket bound to the config's address
    (:func:`bind_address`), else uvicorn binds one."""
    uvicorn = _uvicorn()
    from ._app import create_app

    app = create_app(config)
    logging.basicConfig(level=log_level.upper(), format="%(asctime)s %(name)s %(message)s")
    # uvicorn's fast parser where the serve extra installed it (not on PyPy), else h11
    http = "httptools" if importlib.util.find_spec("httptools") is not None else "h11"
    server = uvicorn.Server(
        uvicorn.Config(
            app,
            host=config.host,
            port=config.port,
            http=http,
            lifespan="on",
            access_log=False,  # ours: the ofc_fast.serve.access logger, with timings
            log_level=log_level,
            timeout_graceful_shutdown=10,
            limit_concurrency=max(64, 4 * (config.workers + config.queue)),
            timeout_keep_alive=5,
            server_header=False,
            # X-Forwarded-For names the client only from the proxies given: uvicorn's
            # default believes it from 127.0.0.1, so any local caller could pass for
            # any client (the games of one are counted by its address)
            proxy_headers=bool(config.forwarded_allow_ips),
            forwarded_allow_ips=list(config.forwarded_allow_ips),
        )
    )
    server.run(sockets=None if sock is None else [sock])


def bind_address(host: str, port: int) -> socket.socket:
    """A socket bound to ``host``:``port`` for the server to listen on (port 0: one
    the system picks, read back with ``getsockname()``), set up as uvicorn's own
    (``SO_REUSEADDR`` but on Windows); an OfcError naming ``--host`` / ``--port``
    where the server cannot listen: a port in use, an address not of this machine, a
    name that does not resolve (uvicorn would log those and exit with status 3,
    after a line saying that it serves there)."""
    ipv6 = ":" in host  # uvicorn's choice of the address family
    try:
        family, kind, proto, _, address = socket.getaddrinfo(
            host,
            port,
            family=socket.AF_INET6 if ipv6 else socket.AF_INET,
            type=socket.SOCK_STREAM,
            flags=socket.AI_PASSIVE,
        )[0]
    except socket.gaierror as exc:
        raise OfcError(f"--host {host}: {exc.strerror}") from None
    sock = socket.socket(family, kind, proto)
    try:
        if os.name != "nt":  # (on Windows it would bind over a listening socket)
            sock.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
        sock.bind(address)
    except OSError as exc:
        sock.close()
        raise OfcError(
            f"--host {host} --port {port}: cannot listen there: {exc.strerror}"
        ) from None
    return sock


_OPTIONS = {
    "host": "--host",
    "port": "--port",
    "workers": "--workers",
    "queue": "--queue",
    "max_time_budget": "--max-time-budget",
    "max_samples": "--max-samples",
    "max_sessions": "--max-games",
    "max_sessions_per_client": "--max-games-per-client",
    "allowed_hosts": "--allowed-host",
    "forwarded_allow_ips": "--forwarded-allow-ips",
    "root_path": "--root-path",
}
"""The option of ``ofc-fast serve`` that sets each :class:`ServeConfig` field: a bad
setting's error names what the user typed."""


def _cmd_serve(args: argparse.Namespace) -> int:
    from ._config import ServeConfig, api_key

    _uvicorn()  # no banner, no bound port, without the serve extra
    key_file = args.api_key_file  # (-: standard input)
    if key_file is not None:
        key_file = named("--api-key-file", input_file, key_file)
    config = ServeConfig(
        host=args.host,
        port=args.port,
        api_key=api_key(args.api_key, key_file),
        workers=args.workers,
        queue=args.queue,
        max_time_budget=args.max_time_budget,
        max_samples=args.max_samples,
        max_sessions=args.max_games,
        max_sessions_per_client=args.max_games_per_client,
        allowed_hosts=tuple(args.allowed_host),
        forwarded_allow_ips=tuple(
            split_list(
                "--forwarded-allow-ips", args.forwarded_allow_ips, "address", OfcError
            )
            if args.forwarded_allow_ips is not None
            else ()
        ),
        root_path=args.root_path,
    ).check(_OPTIONS)
    with bind_address(config.host, config.port) as sock:
        port = sock.getsockname()[1]  # the one the system picked for --port 0
        host = f"[{config.host}]" if ":" in config.host else config.host  # RFC 3986
        where = f"http://{host}:{port}/"
        print(
            f"ofc-fast serve: {where} (API under {where}v1, Ctrl-C stops)", file=sys.stderr
        )
        run_server(config, args.log_level, sock)
    return 0


def add_commands(sub: Any) -> None:
    """Register ``serve`` on a subparsers object (``ofc-fast``'s: ``ofc-fast serve``).

    >>> import argparse
    >>> parser = argparse.ArgumentParser(prog="ofc-fast")
    >>> add_commands(parser.add_subparsers())
    >>> args = parser.parse_args(["serve", "--port", "8080", "--max-time-budget", "1"])
    >>> args.port, args.max_time_budget, args.host
    (8080, 1.0, '127.0.0.1')
    """
    from ._config import API_KEY_ENV, ServeConfig, default_workers

    s = sub.add_parser(
        "serve",
        help="the HTTP/JSON API and the web app (needs the serve extra)",
        description="Serve the JSON API under /v1 (docs/serve.md, /openapi.json) and "
        "the web app at / (play against the bots, analyse, replay). Binds 127.0.0.1; "
        f"another address needs a key (--api-key, --api-key-file or {API_KEY_ENV}).",
    )
    s.add_argument("--host", default="127.0.0.1", help="address (default 127.0.0.1)")
    s.add_argument("--port", type=int, default=8000, help="port (default 8000)")
    keys = s.add_mutually_exclusive_group()
    keys.add_argument(
        "--api-key",
        default=None,
        help="bearer token every /v1 request must carry (shows in ps: prefer "
        f"--api-key-file or the {API_KEY_ENV} environment variable)",
    )
    keys.add_argument(
        "--api-key-file",
        default=None,
        metavar="PATH",
        help="read the key from the first line of PATH (-: standard input)",
    )
    s.add_argument(
        "--workers",
        type=int,
        default=default_workers(),
        help="computations at once (threads; default and most: 4 per CPU)",
    )
    s.add_argument(
        "--queue",
        type=int,
        default=32,
        help="requests that may wait (default 32, at most 1024)",
    )
    s.add_argument(
        "--max-time-budget",
        type=float,
        default=2.0,
        help="seconds of search a request may use at most (default 2)",
    )
    s.add_argument(
        "--max-samples",
        type=int,
        default=ServeConfig.max_samples,
        help=f"samples an analysis may ask at most (default {ServeConfig.max_samples})",
    )
    s.add_argument(
        "--max-games",
        type=int,
        default=ServeConfig.max_sessions,
        help=f"games kept in memory at once (default {ServeConfig.max_sessions})",
    )
    s.add_argument(
        "--max-games-per-client",
        type=int,
        default=ServeConfig.max_sessions_per_client,
        help="games one client (remote address) keeps at once: its own least "
        f"recently used goes first (default {ServeConfig.max_sessions_per_client})",
    )
    s.add_argument(
        "--forwarded-allow-ips",
        default=None,
        metavar="IPS",
        help="comma-separated addresses or networks of reverse proxies whose "
        "X-Forwarded-For header names the client (its address counts its games; "
        "'*': any peer); default: the header is never believed",
    )
    s.add_argument(
        "--allowed-host",
        action="append",
        default=[],
        metavar="NAME",
        help="a host name, besides localhost and the bound address, that a server "
        "without --api-key answers in a request's Host header (repeatable; e.g. "
        "behind a reverse proxy)",
    )
    s.add_argument(
        "--root-path",
        default="",
        metavar="PATH",
        help="the path a reverse proxy serves the server under (e.g. /ofc), which "
        "a problem's type names its page from (default: none, the host's root)",
    )
    s.add_argument(
        "--log-level",
        default="info",
        **one_of("debug", "info", "warning", "error"),
        help="the server's log messages shown, from this level up (default info)",
    )
    s.set_defaults(func=_cmd_serve)
