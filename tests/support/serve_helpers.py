"""A real ofc-fast server (uvicorn, on a free port of 127.0.0.1, in a thread) for the
serve tests, a small HTTP client over http.client, and the check of a response
against the server's own /openapi.json.  ``OFC_SERVE_HTTP`` and ``OFC_SERVE_LOOP`` pick
uvicorn's HTTP parser and event loop (default ``auto``: httptools and uvloop where
installed, else h11 and asyncio; CI runs the serve tests on each)."""

from __future__ import annotations

import http.client
import json
import os
import re
import socket
import threading
import time
from typing import Any

import pytest

uvicorn = pytest.importorskip("uvicorn", reason='pip install ".[test]" (uvicorn)')
jsonschema = pytest.importorskip("jsonschema", reason='pip install ".[test]" (jsonschema)')

from ofc_fast.serve import ServeConfig, create_app  # noqa: E402


def http_parser() -> str:
    """The HTTP parser the test servers run on: ``OFC_SERVE_HTTP``'s, or ``auto``'s
    pick (httptools where it is installed, as uvicorn picks)."""
    chosen = os.environ.get("OFC_SERVE_HTTP", "auto")
    if chosen != "auto":
        return chosen
    try:
        import httptools  # noqa: F401
    except ImportError:
        return "h11"
    return "httptools"


class Server:
    """``with Server(config) as s:`` serves on ``s.port`` until the block ends."""

    def __init__(self, config: ServeConfig | None = None) -> None:
        self.app = create_app(config)
        self.sock = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
        self.sock.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
        self.sock.bind(("127.0.0.1", 0))
        self.port = self.sock.getsockname()[1]
        cfg = uvicorn.Config(
            self.app,
            http=os.environ.get("OFC_SERVE_HTTP", "auto"),  # CI: httptools too
            loop=os.environ.get("OFC_SERVE_LOOP", "auto"),
            log_level="warning",
            access_log=False,
            lifespan="on",
            timeout_graceful_shutdown=5,
        )
        self.server = uvicorn.Server(cfg)
        self.thread = threading.Thread(
            target=self.server.run, kwargs={"sockets": [self.sock]}, daemon=True
        )

    def __enter__(self) -> Server:
        self.thread.start()
        deadline = time.monotonic() + 20
        while not self.server.started:
            if time.monotonic() > deadline:  # pragma: no cover
                raise RuntimeError("the server did not start")
            time.sleep(0.02)
        return self

    def __exit__(self, *exc: object) -> None:
        self.server.should_exit = True
        self.thread.join(20)
        self.sock.close()

    @property
    def url(self) -> str:
        return f"http://127.0.0.1:{self.port}"

    def request(
        self,
        method: str,
        path: str,
        body: Any = None,
        *,
        raw: bytes | None = None,
        headers: dict[str, str] | None = None,
        timeout: float = 60,
        source: str | None = None,
    ) -> tuple[int, dict[str, str], Any]:
        """(status, headers with lower-case names, JSON body or None); ``source``: the
        local address to send from (another client, e.g. ``127.0.0.2``)."""
        conn = http.client.HTTPConnection(
            "127.0.0.1",
            self.port,
            timeout=timeout,
            source_address=None if source is None else (source, 0),
        )
        try:
            data = (
                raw
                if raw is not None
                else (None if body is None else json.dumps(body).encode())
            )
            hdrs = {"Content-Type": "application/json", **(headers or {})}
            conn.request(method, path, body=data, headers=hdrs)
            resp = conn.getresponse()
            payload = resp.read()
            hs = {k.lower(): v for k, v in resp.getheaders()}
        finally:
            conn.close()
        try:
            parsed = json.loads(payload) if payload else None
        except ValueError:
            parsed = payload
        return resp.status, hs, parsed


def template_of(doc: dict[str, Any], path: str) -> str:
    """The OpenAPI path template a concrete path matches."""
    for tpl in doc["paths"]:
        rx = "^" + re.sub(r"\{[^}]+\}", "[^/]+", tpl) + "$"
        if re.match(rx, path):
            return tpl
    raise AssertionError(f"{path} is not in /openapi.json")


def check_response(
    doc: dict[str, Any],
    method: str,
    path: str,
    status: int,
    headers: dict[str, str],
    body: Any,
) -> None:
    """The response is described by the document: its status is listed, it carries
    the headers listed as required, its content type is the one listed and its body
    validates against the listed schema."""
    op = doc["paths"][template_of(doc, path.split("?")[0])][method.lower()]
    assert str(status) in op["responses"], (method, path, status, body)
    for name, header in op["responses"][str(status)].get("headers", {}).items():
        assert name.lower() in headers or not header.get("required"), (path, status, name)
    content = op["responses"][str(status)]["content"]
    ctype = headers["content-type"].split(";")[0]
    assert ctype in content, (path, status, ctype)
    schema = {**content[ctype]["schema"], "components": doc["components"]}
    jsonschema.Draft202012Validator(schema).validate(body)
