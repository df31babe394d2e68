"""Raw request paths for the HTTP service (dots, ``%2E``, ``%2F``, ``%25``, runs of
slashes, ``..`` past the root, Unicode, control bytes, very long ones), sent in process
to an app with and without a root (the ASGI server's ``root_path``, the config's
``root_path``) and an API key, and the properties every answer must have, checked
against a strict RFC 3986 resolver written here (used by tests/test_serve_malformed.py
and the atheris harness tests/fuzz/fuzz_paths.py).

Properties: no 5xx and no exception out of the app; a path not in its normal form is
a 308 to it (``Location``: under the root, the query kept, a URI of its own normal
form: no second redirect); a refusal is a problem
document whose ``type`` is one of the documented ``<root>/problems/<slug>``; its ``instance``,
resolved against the request's URL, is the path routed (under the root, never above
it); a keyed endpoint, however spelled, needs the key.
"""

from __future__ import annotations

import asyncio
import json
import re
from collections.abc import Callable
from typing import Any
from urllib.parse import unquote_to_bytes

from ofc_fast.serve import ServeConfig, create_app

KEY = "paths-key-12345"
SLUGS = {
    "bad-request",
    "unauthorized",
    "not-found",
    "method-not-allowed",
    "conflict",
    "too-large",
    "unsupported-media-type",
    "invalid-input",
    "internal-error",
    "busy",
}
KEYLESS = {"/v1/health"}
PIECES = [
    b"/", b"//", b"///", b".", b"..", b"%2E", b"%2e", b"%2E%2E", b".%2E", b"%2F",
    b"%2f", b"%25", b"%252F", b"%", b"%G1", b"v1", b"health", b"score", b"games",
    b"abc", b"moves", b"next", b"openapi.json", b"problems", b"not-found", b"app.js",
    b"ofc", b"?", b"?x=1", b"#", b";", b":", b"a:b", b"%3F", b"%23", b"%20",
    b" ", b"\x00", b"\x7f", b"\r\n", b"\t", "é".encode(), b"\xff\xfe", b"%C3%A9",
    b"%FF", b"\\", b"*", b"x" * 300,
]  # fmt: skip
APPS = {
    (key, root): create_app(
        ServeConfig(api_key=key, root_path=root, max_time_budget=0.05, max_sessions=4)
    )
    for key in (None, KEY)
    for root in ("", "/ofc")
}
LOOP = asyncio.new_event_loop()


ENDPOINTS = [
    "/v1/score", "/v1/health", "/v1/games/abc/moves", "/v1/analyze", "/openapi.json",
    "/problems/not-found", "/", "/v1/x", "/app.js",
]  # fmt: skip
SPELLINGS = [b"/", b"//", b"/./", b"/x/../", b"/%2E/", b"/x/%2E%2E/", b"/../", b"%2F"]


def raw_path(pick: Callable[[int], int]) -> bytes:
    """A raw path chosen by ``pick(n)`` (an int in ``[0, n)``): pieces at random, or
    an endpoint's path, each slash of it spelled another way at times (a run, a dot
    segment, ``x/..``, ``..`` past the root, an encoded slash), pieces after it."""
    if pick(3) == 0:
        first = [b"/", b"", b"/v1/", b"//", b"/../"][pick(5)]
        return first + b"".join(PIECES[pick(len(PIECES))] for _ in range(pick(14)))
    parts = ENDPOINTS[pick(len(ENDPOINTS))].encode().split(b"/")
    slash = [b"/" if pick(3) else SPELLINGS[pick(len(SPELLINGS))] for _ in parts[1:]]
    path = parts[0] + b"".join(s + p for s, p in zip(slash, parts[1:]))
    return path + b"".join(PIECES[pick(len(PIECES))] for _ in range(pick(3) // 2))


def _split(ref: str) -> tuple[str | None, str | None, str, str | None, str | None]:
    m = re.fullmatch(
        r"(?:([^:/?#]+):)?(?://([^/?#]*))?([^?#]*)(?:\?([^#]*))?(?:#(.*))?", ref
    )
    assert m is not None
    return m.group(1), m.group(2), m.group(3), m.group(4), m.group(5)


def remove_dots(path: str) -> str:
    """RFC 3986, 5.2.4, as written there."""
    out: list[str] = []
    while path:
        if path.startswith("../") or path.startswith("./"):
            path = path[path.index("/") + 1 :]
        elif path.startswith("/./") or path == "/.":
            path = "/" + path[3:]
        elif path.startswith("/../") or path == "/..":
            path = "/" + path[4:]
            if out:
                out.pop()
        elif path in (".", ".."):
            path = ""
        else:
            cut = path.find("/", 1)
            cut = len(path) if cut < 0 else cut
            out.append(path[:cut])
            path = path[cut:]
    return "".join(out)


def resolve(base_path: str, ref: str) -> str:
    """The path of ``ref`` resolved against a URL of path ``base_path`` (RFC 3986,
    5.2.2, strict: a scheme or authority of its own would leave the server)."""
    scheme, authority, path, _, _ = _split(ref)
    assert scheme is None and authority is None, ref
    if not path:
        return base_path
    if path.startswith("/"):
        return remove_dots(path)
    return remove_dots(base_path[: base_path.rfind("/") + 1] + path)


def _decoded(path: str) -> str:
    """``path`` (its bytes as latin-1) percent-decoded but an encoded slash, each run
    of slashes as one."""
    kept = re.sub("%2[fF]", "%252F", re.sub("//+", "/", path))
    return unquote_to_bytes(kept.encode("latin-1")).decode("utf-8", "replace")


def send(app: Any, scope: dict[str, Any]) -> tuple[int, dict[bytes, bytes], bytes]:
    """``app``'s answer to a bodiless request of ``scope``."""
    sent: list[dict[str, Any]] = []

    async def receive() -> dict[str, Any]:
        return {"type": "http.request", "body": b"", "more_body": False}

    async def out(message: dict[str, Any]) -> None:
        sent.append(message)

    LOOP.run_until_complete(app(scope, receive, out))
    start = sent[0]
    return start["status"], dict(start["headers"]), b"".join(m["body"] for m in sent[1:])


def check(pick: Callable[[int], int]) -> None:
    """Sends one generated request and asserts the properties (module docstring)."""
    raw = raw_path(pick)
    key, config_root = [(None, ""), (None, "/ofc"), (KEY, ""), (KEY, "/ofc")][pick(4)]
    mount = ["", "/px"][pick(2)]  # the ASGI server's root_path
    root = mount.rstrip("/") or config_root  # the server's root for its clients
    raw_in_scope = (
        mount + raw.decode("latin-1") if mount and pick(2) else raw.decode("latin-1")
    )
    path, _, query = raw.partition(b"?")
    scope = {
        "type": "http",
        "method": ["GET", "POST", "HEAD"][pick(3)],
        "path": unquote_to_bytes(mount.encode() + path).decode("utf-8", "replace"),
        "raw_path": raw_in_scope.encode("latin-1"),
        "root_path": mount,
        "query_string": query,
        "client": ("127.0.0.1", 1),
        "headers": [(b"host", b"127.0.0.1")]
        + ([(b"authorization", f"Bearer {KEY}".encode())] if key and pick(2) else []),
    }
    keyed = bool(key) and len(scope["headers"]) == 1
    status, headers, body = send(APPS[(key, config_root)], scope)
    what = (raw, mount, config_root, key, scope["method"], status, body[:300])
    assert status < 500, what
    asked = raw.decode("latin-1").partition("?")[0]
    if not asked.startswith("/"):
        return  # (no path of the server: "*" or garbage, refused)
    url = root + asked  # the path the client asked for, the root's included
    routed = _decoded(remove_dots(re.sub("//+", "/", asked)))  # strictly: %2E no dot
    if keyed and routed.startswith("/v1/") and routed not in KEYLESS:
        assert status == 401, ("a keyed endpoint answered without the key", *what)
    spelled = _decoded(remove_dots(re.sub("//+", "/", unquote_dots(asked))))
    if keyed and spelled.startswith("/v1/") and spelled not in KEYLESS:
        assert status in (401, 404), ("a keyed endpoint answered without the key", *what)
    # a run of slashes as one folder, as the server documents (_target.Target)
    url, asked = re.sub("//+", "/", url), re.sub("//+", "/", asked)
    inside = remove_dots(url) == root + remove_dots(asked)  # (else: a client's URL
    # climbing above the root, not one of this server's)
    if status == 308:  # to its normal form, under the root, the query kept
        to = headers[b"location"].decode("ascii")
        _check_moved(raw, root, to, what)
        path, _, query = to[0 if mount else len(root) :].encode().partition(b"?")
        again = {**scope, "raw_path": path, "query_string": query}
        again["path"] = unquote_to_bytes(path).decode("utf-8", "replace")
        status = send(APPS[(key, config_root)], again)[0]
        assert status != 308, ("redirected again", to, *what)  # (the form is normal)
        return
    if status < 400:
        if headers.get(b"content-type", b"").startswith(b"text/html") and inside:
            _check_page(url, root, body.decode(), what)
        return
    assert headers[b"content-type"] == b"application/problem+json", what
    doc = json.loads(body) if scope["method"] != "HEAD" else {}
    if not doc:
        return
    assert doc["status"] == status, what
    where = re.fullmatch("no (?:endpoint|page) (.*)", doc["detail"], re.DOTALL)
    assert doc["type"] in {f"{root}/problems/{slug}" for slug in SLUGS}, (doc, *what)
    if "instance" not in doc:
        return
    if not inside:
        return
    at = resolve(url, doc["instance"])
    assert _under(at, root), ("instance above the root", doc, *what)
    got = _decoded(at[len(root) :] or "/")
    assert got in (routed, spelled), ("instance is not the path asked", doc, *what)
    if where is not None:  # (a 404 names the path routed, its first 100 characters:
        # its %2E read as a dot, RFC 3986 6.2.2.2, as the server routes it)
        assert where.group(1) == spelled[:100], ("routed elsewhere", doc, *what)


def _check_moved(raw: bytes, root: str, to: str, what: tuple[Any, ...]) -> None:
    """A 308's ``Location`` is the full path of the request's normal form (each
    escape of an unreserved character decoded, RFC 3986 6.2.2.2; its dot segments
    removed, 5.2.4, a ``..`` after ``//`` climbing the empty segment, as the server
    documents; then each run of slashes one) under the root (never a ``//host``),
    its query as sent, itself with no dot segment nor run of slashes."""
    path, _, query = to.partition("?")
    asked, _, sent = raw.decode("latin-1").partition("?")
    unreserved = re.sub("%([0-9A-Fa-f]{2})", _unreserved, asked)
    normal = re.sub("//+", "/", remove_dots(unreserved))
    assert path.startswith(root + "/") and not path.startswith("//"), ("moved out", *what)
    assert _decoded(path[len(root) :]) == _decoded(normal), ("moved elsewhere", to, *what)
    sent_bytes = unquote_to_bytes(sent.encode("latin-1"))
    assert unquote_to_bytes(query) == sent_bytes, ("query lost", to, *what)
    segments = path.split("/")
    assert "//" not in path and not {".", ".."} & set(segments), ("not normal", to, *what)
    uri = re.fullmatch(r"(?:[-\w.~!$&'()*+,;=:@/?]|%[0-9A-Fa-f]{2})*", to)  # (RFC 3986)
    assert uri is not None, ("no URI", to, *what)


_UNRESERVED = frozenset(
    "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-._~"
)


def _unreserved(m: re.Match[str]) -> str:
    """An escape, as its character where that is unreserved (RFC 3986, 2.3)."""
    char = chr(int(m.group(1), 16))
    return char if char in _UNRESERVED else m.group(0)


def _check_page(url: str, root: str, page: str, what: tuple[Any, ...]) -> None:
    """An HTML page's links resolve to the server's own files under the root; a
    problem type's page names a documented type."""
    for ref in re.findall(r'(?:href|src)="([^"]*)"', page):
        if not ref.startswith(("data:", "#")):
            at = resolve(url, ref)
            assert at in (f"{root}/app.css", f"{root}/app.js", f"{root}/openapi.json"), (
                "a link of the page resolves elsewhere",
                ref,
                *what,
            )
    for name in re.findall("type <code>([^<]*)</code>", page):
        assert name in {f"{root}/problems/{slug}" for slug in SLUGS}, (name, *what)


def _under(path: str, root: str) -> bool:
    return path == root or path.startswith(root + "/")


def unquote_dots(path: str) -> str:
    """``path`` with an encoded dot (``%2E``, RFC 3986, 2.3: unreserved) as one."""
    return re.sub("%2[eE]", ".", path)
