"""Fuzz the HTTP surface of ``ofc-fast serve`` (ofc_fast.serve._app) in process: every
endpoint and method, with bodies that are raw fuzzer bytes, or a valid request with one
field replaced by anything JSON can hold, with or without the API key.

Contract: never a 500 (an uncaught error is a bug, whatever the input); every refusal
is a 4xx ``application/problem+json`` document whose ``status`` is the response's and,
for an operation of ``/openapi.json``, one the document lists for it; a 200 carries a
JSON object.
"""

from __future__ import annotations

import asyncio
import json
import re
import sys
from typing import Any

import atheris
from _common import any_object, main

with atheris.instrument_imports():
    from ofc_fast.serve import ServeConfig, create_app
    from ofc_fast.serve._schemas import openapi

KEY = "fuzz-key-12345"
APP = create_app(
    ServeConfig(
        api_key=KEY, max_time_budget=0.05, max_samples=8, max_sessions=8, max_body=1 << 16
    )
)
LOOP = asyncio.new_event_loop()
# per operation (a path's pattern and its method), the statuses the app's own
# /openapi.json lists (a keyed server's: its 401s)
LISTED = {
    (re.compile("^" + re.sub(r"\{[^}]+\}", "[^/]+", path) + "$"), method.upper()): {
        int(code) for code in op["responses"]
    }
    for path, ops in openapi(config=APP.config)["paths"].items()
    for method, op in ops.items()
}
BASES: dict[str, dict[str, Any]] = {
    "/v1/analyze": {
        "board": "Qh / 9s 9h / As Ks",
        "dealt": "2c 5d Ts",
        "opponents": ["7c / 8d 8h / 4s 4d"],
        "samples": 2,
        "seed": 1,
    },
    "/v1/fantasyland": {
        "cards": "Ad Ah Th Jh 6h Ts 5d 3c Tc 3s 7h Qh 3d 9s",
        "alternatives": False,
    },
    "/v1/arrange": {"cards": "As Ad Kc Kd Qh Qs Jc Jd 9h 7s 5c 3d 2h"},
    "/v1/score": {
        "boards": [
            "Qh Qd 2c / 9s 9h 9d 5c 5d / As Ks Qs Js Ts",
            "2h 3d 4c / 6s 6h 7d 7c 8d / Ah Ad Kh Kd 8c",
        ]
    },
    "/v1/evaluate": {"hands": ["As Ks Qs Js Ts"], "boards": []},
    "/v1/games": {"players": 2, "bots": ["random"], "seed": 1},
    "/v1/replay": {"text": ""},
}
PATHS = [
    *BASES,
    "/v1/health",
    "/openapi.json",
    "/",
    "/app.js",
    "/v1/games/abc/moves",
    "/v1/games/abc",
    "/v1/games/abc/next",
    "/v1/x",
    "/nope",
]
METHODS = ["POST", "GET", "PUT", "HEAD", "DELETE"]
GAME_ID: list[str] = []


async def call(
    method: str, path: str, body: bytes, headers: list[tuple[bytes, bytes]]
) -> tuple[int, bytes, bytes]:
    messages = [{"type": "http.request", "body": body, "more_body": False}]
    sent: list[dict[str, Any]] = []

    async def receive() -> dict[str, Any]:
        return messages.pop(0) if messages else {"type": "http.disconnect"}

    async def send(message: dict[str, Any]) -> None:
        sent.append(message)

    scope = {
        "type": "http",
        "method": method,
        "path": path,
        "headers": headers,
        "client": ("127.0.0.1", 1),
        "query_string": b"",
    }
    await APP(scope, receive, send)
    start = sent[0]
    ctype = dict(start["headers"]).get(b"content-type", b"")
    return start["status"], ctype, b"".join(m.get("body", b"") for m in sent[1:])


def test_one_input(data: bytes) -> None:
    fdp = atheris.FuzzedDataProvider(data)
    path = fdp.PickValueInList(PATHS)
    if "abc" in path and GAME_ID and fdp.ConsumeBool():
        path = path.replace("abc", GAME_ID[-1])
    method = (
        fdp.PickValueInList(METHODS)
        if fdp.ConsumeIntInRange(0, 7) == 0
        else ("GET" if path in ("/v1/health", "/openapi.json", "/", "/app.js") else "POST")
    )
    mode = fdp.ConsumeIntInRange(0, 3)
    if mode == 0:
        body = fdp.ConsumeBytes(fdp.ConsumeIntInRange(0, 400))
    else:
        doc: Any = dict(BASES.get(path, {"move": {"place": [["As", "front"]]}}))
        if mode >= 2 and doc:
            doc[fdp.PickValueInList(sorted(doc) + ["observation", "rules", "action"])] = (
                any_object(fdp)
            )
        elif mode == 1:
            doc = any_object(fdp)
        try:
            body = json.dumps(doc, default=repr).encode("utf-8", "surrogatepass")
        except (RecursionError, TypeError, ValueError):  # not writable as JSON
            body = b"[" * 5000
    headers = [(b"content-type", b"application/json")]
    if fdp.ConsumeIntInRange(0, 5):
        headers.append((b"authorization", b"Bearer " + KEY.encode()))
    elif fdp.ConsumeBool():
        headers.append((b"authorization", fdp.ConsumeBytes(30)))
    status, ctype, payload = LOOP.run_until_complete(call(method, path, body, headers))
    assert status != 500, (method, path, body[:200], payload[:300])
    for (pattern, listed_method), listed in LISTED.items():
        if listed_method == ("GET" if method == "HEAD" else method) and pattern.match(path):
            assert status in listed, (method, path, status, sorted(listed), payload[:300])
    if method == "HEAD":  # GET's status and headers, never a body
        assert payload == b"", (status, payload[:300])
        assert status < 400 or ctype == b"application/problem+json", (status, ctype)
    elif status >= 400:
        assert 400 <= status < 600 and ctype == b"application/problem+json", (status, ctype)
        assert json.loads(payload)["status"] == status
    elif path.startswith("/v1/"):
        out = json.loads(payload)
        assert isinstance(out, dict)
        if path == "/v1/games" and "id" in out:
            GAME_ID.append(out["id"])
            del GAME_ID[:-4]


if __name__ == "__main__":
    main(test_one_input)
    sys.exit(0)
