"""The request's target as the router reads it: its path, each run of slashes as one
(as nginx's ``merge_slashes``: a client joining the server URL ``http://host/`` and
the path ``/v1/health`` strictly asks for ``//v1/health``), and its depth, what a
reference relative to the request's URL climbs to reach the server's root.

>>> t = target({"path": "//v1//health", "raw_path": b"//v1//health"})
>>> t.path, t.depth, t.relative("problems/not-found"), t.absolute("problems/not-found")
('/v1/health', 1, '../problems/not-found', '/problems/not-found')
"""

from __future__ import annotations

import re
from typing import Any, NamedTuple
from urllib.parse import quote, unquote_to_bytes

__all__ = ["Target", "relative", "target"]

_RUN = re.compile("//+")
_RAW_SLASH = re.compile(b"%2[fF]")  # an encoded slash: kept encoded in the path routed
_ESCAPE = re.compile(b"%([0-9A-Fa-f]{2})")
_STRAY = re.compile(b"%(?![0-9A-Fa-f]{2})")  # a % starting no escape: no URI character
_UNRESERVED = frozenset(
    b"ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-._~"
)
_PCHAR = "/%:@!$&'()*+,;=-._~"  # (RFC 3986's path characters, and escapes as sent)


def relative(depth: int, ref: str) -> str:
    """``ref``, a path from the server's root without its first ``/``, as a reference
    relative to a URL ``depth`` folders below the root (RFC 3986, 5.2), so that it
    resolves right behind a reverse proxy serving the server under a path too; ``./``
    first at the root, where a first segment with a colon would read as a scheme.

    >>> relative(1, "problems/invalid-input"), relative(0, "a:b"), relative(0, "")
    ('../problems/invalid-input', './a:b', './')
    >>> relative(0, "problems/not-found"), relative(2, "v1/score")
    ('problems/not-found', '../../v1/score')
    """
    if depth:
        return "../" * depth + ref
    return "./" + ref if not ref or ":" in ref.split("/")[0] else ref


class Target(NamedTuple):
    """``path``: what the router reads (percent-decoded, each run of slashes one);
    ``depth``: the folders between the request's URL and the server's root (its
    slashes as sent, a run as one, less one: an encoded slash, ``%2F``, is none).
    A run counts as one folder since resolvers differ on one (Python's ``urljoin``
    drops its empty segments, RFC 3986 keeps them), and a reference climbing one
    folder from ``/ofc//v1/score`` gives ``/ofc/v1/score`` by the first and
    ``/ofc//v1/score``, the same path to nginx and to this server, by the second.
    ``sent``: the path as sent, its percent-encoding kept (a run of slashes one),
    what a URL reference to it is written with ("" : ``path`` encoded); ``root``:
    the path the server's root has for its clients ("": the host's root; ``/ofc``
    behind a reverse proxy serving it there), what the ASGI server gives as its
    ``root_path``, else the server's setting (``ServeConfig.root_path``);
    ``folder``: the folder a client resolves a reference against (its path up to
    its last ``/``, written as ``sent``, its dot segments removed: :func:`_dots`;
    "": ``path``'s own); ``asked``: the path as sent, below the root, without its
    query (where the server gave no ``raw_path``, its decoded ``path`` quoted);
    ``query``: its query as sent (the scope's ``query_string``)."""

    path: str
    depth: int
    sent: str = ""
    root: str = ""
    folder: str = ""
    asked: str = ""
    query: bytes = b""

    def absolute(self, ref: str) -> str:
        """``ref`` (a path from the server's root, without its first ``/``) as a
        reference of its full path (``/problems/not-found``, ``/ofc/...`` under a
        ``root``, percent-encoded: an ASGI ``root_path`` is decoded): the same from
        every request, whatever its depth.

        >>> Target("/a/b/c/d", 3, root="/ofc").absolute("problems/not-found")
        '/ofc/problems/not-found'
        >>> Target("/x", 0, root="/p x").absolute("problems/not-found")
        '/p%20x/problems/not-found'
        """
        return f"{quote(self.root, safe=_PCHAR.replace('%', ''))}/{ref}"

    def normal(self, slashes: bool = False) -> bool:
        """Whether the request's path, as sent (:attr:`asked`, below the root), is its
        normal form (:attr:`sent`: no dot segment nor escape of an unreserved
        character such as ``%2E``, and, with ``slashes``, no run of slashes, else
        read as one, as nginx's; a character it holds unquoted, ``"``, is as its
        escape), the URL a reference relative to it (a problem's
        ``instance``, a page's links) is resolved against as written (True for a
        path not starting with ``/``: ``*``).

        >>> target({"path": "/", "raw_path": b"/x/.."}).normal()
        False
        >>> target({"path": "/", "raw_path": b"/"}).normal(), target({"path": "//"}).normal()
        (True, True)
        >>> t = target({"path": "//", "raw_path": b"//"})
        >>> t.normal(), t.normal(slashes=True)
        (True, False)
        """
        asked = self.asked if slashes else _RUN.sub("/", self.asked)
        sent = quote(asked.encode("latin-1"), safe=_PCHAR)  # (a quote is no change)
        return not asked.startswith("/") or sent == self.sent

    def location(self) -> str:
        """The full path of the request's normal form (:attr:`sent`, under the
        :attr:`root`: :meth:`absolute`, as a problem's ``type``), then its
        :attr:`query` (percent-encoded where it holds no URI character, a ``%``
        starting no escape too): a redirect's
        ``Location`` from a path not :meth:`normal`, whose relative references a
        strict resolver (``%2E`` no dot) and a normalising one read apart.

        >>> target({"path": "/", "raw_path": b"/v1/./score", "query_string": b"a b"}).location()
        '/v1/score?a%20b'
        >>> Target("/", 0, "/", "/ofc").location()
        '/ofc/'
        """
        to = _RUN.sub("/", self.absolute(self.sent[1:]))  # (never //host: another's)
        query = quote(_STRAY.sub(b"%25", self.query), safe=_PCHAR + "?")
        return f"{to}?{query}" if query else to

    def strict(self) -> str:
        """The path as sent as a strict resolver reads it (RFC 3986, 5.2.4, its
        ``%2E`` no dot), each run of slashes one, then percent-decoded but ``%2F``:
        what a client means by a path under ``/v1/`` (``/v1/%2E%2E`` is ``/`` to the
        router, under ``/v1/`` to a client); :attr:`path` for one not starting with
        ``/``.

        >>> target({"path": "/", "raw_path": b"/v1/%2E%2E"}).strict()
        '/v1/..'
        >>> target({"path": "/v1/health", "raw_path": b"//v1/x/../%68ealth"}).strict()
        '/v1/health'
        """
        if not self.asked.startswith("/"):
            return self.path
        kept = _RAW_SLASH.sub(
            b"%252F", _removed(_RUN.sub("/", self.asked)).encode("latin-1")
        )
        return unquote_to_bytes(kept).decode("utf-8", "replace")

    def relative(self, ref: str) -> str:
        """``ref`` (a path from the server's root, without its first ``/``) relative
        to the request's URL (:func:`relative`)."""
        return relative(self.depth, ref)

    def instance(self) -> str:
        """The request's own path relative to its URL: a problem's ``instance``,
        written as sent (an encoded ``?``, ``#``, ``/`` or space stays encoded, so
        that it resolves to the path asked for, never to a query or a fragment),
        from its :attr:`folder`, climbing no further than where the two part (a resolver
        keeping a run's empty segments, or reading ``%2E%2E`` in the URL as ``..``,
        or neither, reaches the same path: RFC 3986, 6.2.2.2 and 5.2.4).

        >>> target({"path": "/v1/games/a?b/moves", "raw_path": b"/v1/games/a%3Fb/moves"}).instance()
        'moves'
        >>> Target("/v1/games/a b", 2).instance(), Target("/v1/", 2, folder="/v1/x/").instance()
        ('a%20b', '../')
        """
        safe = _PCHAR.replace("%", "")
        ref = self.sent or quote(self.path, safe=safe)
        folder = self.folder if self.sent else quote(self.folder, safe=safe)
        have = (folder or ref[: ref.rfind("/") + 1]).split("/")[1:-1]
        want = ref.split("/")[1:] if ref.startswith("/") else [ref]
        common = 0
        while common < min(len(have), len(want) - 1) and have[common] == want[common]:
            common += 1
        return relative(len(have) - common, "/".join(want[common:]))


def _dots(path: str) -> tuple[str, str, int]:
    """``path`` without its dot segments (RFC 3986, 5.2.4: ``.`` and ``..``; one
    above the root stays at the root; a ``..`` after a run of slashes climbs its
    empty segment, as a browser or curl reads it), then each run of slashes one,
    the folder a client resolves a reference against from it: its path up to its
    last ``/``, so too (``/v1/health/..`` asks for ``/v1/``, from the folder
    ``/v1/health/``), and that folder's depth.  A path not starting with ``/``
    (``*``) is as it is.

    >>> _dots("/v1/../v1/health"), _dots("/./v1/health"), _dots("/../a/.")
    (('/v1/health', '/v1/', 1), ('/v1/health', '/v1/', 1), ('/a/', '/a/', 1))
    >>> _dots("/v1/health/.."), _dots("/v1/x"), _dots("*")
    (('/v1/', '/v1/health/', 2), ('/v1/x', '/v1/', 1), ('*', '', 0))
    >>> _dots("/v1//../health"), _dots("//v1//x/..")
    (('/v1/health', '/v1/', 1), ('/v1/', '/v1/x/', 2))
    """
    if not path.startswith("/"):
        return path, "", 0
    folder = _RUN.sub("/", _removed(path[: path.rfind("/") + 1]))
    return _RUN.sub("/", _removed(path)), folder, max(folder.count("/") - 1, 0)


def _unreserved(match: re.Match[bytes]) -> bytes:
    """An escape, decoded where it encodes an unreserved character (RFC 3986, 2.3:
    the same character, 6.2.2.2: ``%2E`` is ``.``, ``%7E`` is ``~``), else as sent
    (``%2F``, ``%3F``, ``%20``: reserved, or no URI character).

    >>> _ESCAPE.sub(_unreserved, b"/%2E%2e/%41%2F%7e%20")
    b'/../A%2F~%20'
    """
    byte = int(match.group(1), 16)
    return bytes((byte,)) if byte in _UNRESERVED else match.group(0)


def _removed(path: str) -> str:
    """``path`` (starting with ``/``) without its dot segments (:func:`_dots`)."""
    if "." not in path:
        return path
    out: list[str] = []
    segments = path[1:].split("/")
    for segment in segments[:-1]:
        if segment not in (".", ".."):
            out.append(segment)
        elif segment == ".." and out:
            out.pop()  # (an empty one of a run too)
    last = segments[-1]
    if last == ".." and out:
        out.pop()
    out.append("" if last in (".", "..") else last)  # (the folder it names)
    return "/" + "/".join(out)


def _below(path: str, root: str) -> str:
    """``path`` from ``root`` on, where ``root`` is one of its folders (else as it is).

    >>> _below("/ofc/v1/score", "/ofc"), _below("/ofc", "/ofc"), _below("/ofcx", "/ofc")
    ('/v1/score', '/', '/ofcx')
    """
    rest = path[len(root) :]
    if not path.startswith(root) or rest[:1] not in ("", "/"):
        return path
    return rest or "/"


def target(scope: dict[str, Any], root: str = "") -> Target:
    """The target of an ASGI request ``scope`` of a server whose root is at
    ``root`` for its clients (:attr:`Target.root`; the scope's ``root_path``, where
    the ASGI server gives one, instead: its ``path`` and ``raw_path`` start with it,
    left out of the path routed, as ASGI says).  Where the server gives its
    ``raw_path``, a run of slashes is one of the path as sent (:func:`_dots`), the rest decoded as
    the server decoded it but an encoded slash, ``%2F``, which stays so: it is part
    of a path segment, neither a separator nor part of a run (``/v1%2Fhealth`` and
    ``/v1/%2Fhealth`` are no ``/v1/health``, whatever the server decodes it to);
    else, of the decoded ``path``, as if sent so (each character of no path, ``%``
    too, quoted).  An escape of an unreserved character is the
    character (RFC 3986, 6.2.2.2: ``%2E`` is ``.``, as the decoded ``path`` has it),
    a ``%`` starting no escape is one (``%25``: 2.4; so the normal form is a URI,
    and one of its own), and its dot segments (``.``, ``..``, ``%2E%2E``) are then
    removed (:func:`_dots`: RFC 3986, 5.2.4), before it is routed: alike with or
    without ``raw_path``.

    >>> target({"path": "/v1//health", "raw_path": b"/v1/%2Fhealth"})[:5]
    ('/v1/%2Fhealth', 1, '/v1/%2Fhealth', '', '/v1/')
    >>> target({"path": "/v1/health", "raw_path": b"/v1%2fhealth"}).path
    '/v1%2Fhealth'
    >>> target({"path": "/v1/games/a b", "raw_path": b"//v1/games/a%20b?x=1"}).sent
    '/v1/games/a%20b'
    >>> t = target({"path": "//openapi.json"})  # (no raw_path: as if sent so)
    >>> t.path, t.depth, t.sent, t.folder, t.asked
    ('/openapi.json', 0, '/openapi.json', '/', '//openapi.json')
    >>> target({"path": "/v1/../v1/health", "raw_path": b"/v1/../v1/health"})[:5]
    ('/v1/health', 1, '/v1/health', '', '/v1/')
    >>> t = target({"path": "/v1/../v1/health", "raw_path": b"/v1/%2E%2E/v1/%68ealth"})
    >>> t[:5], t.asked
    (('/v1/health', 1, '/v1/health', '', '/v1/'), '/v1/%2E%2E/v1/%68ealth')
    >>> target({"path": "/%G1/%", "raw_path": b"/%G1/%"}).sent
    '/%25G1/%25'
    >>> target({"path": "*", "raw_path": b"*"})
    Target(path='*', depth=0, sent='*', root='', folder='', asked='*', query=b'')
    >>> scope = {"path": "/ofc/v1/score", "raw_path": b"/ofc/v1/score", "root_path": "/ofc"}
    >>> target(scope)[:5]
    ('/v1/score', 1, '/v1/score', '/ofc', '/v1/')
    """
    path: str = scope.get("path", "")
    raw = scope.get("raw_path")
    mount = scope.get("root_path")
    if isinstance(mount, str) and mount.strip("/"):  # (its path holds it first)
        root = mount.rstrip("/")
        path = _below(path, root)
        if isinstance(raw, bytes):  # (as sent: ASCII, RFC 9112, 3.2)
            raw = _below(raw.decode("latin-1"), root).encode("latin-1")
    if not isinstance(raw, bytes):  # its path as if sent so ("%" too quoted)
        raw = quote(path, safe=_PCHAR.replace("%", ""), errors="surrogatepass").encode()
    asked = raw.partition(b"?")[0]  # (some servers keep the query in it)
    normal = _ESCAPE.sub(_unreserved, _STRAY.sub(b"%25", asked)).decode("latin-1")
    merged, folder, depth = _dots(normal)  # (a run of slashes one: _dots)
    sent = merged.encode("latin-1")  # (its dot segments removed: _dots)
    if sent != asked or _RAW_SLASH.search(sent):
        kept = _RAW_SLASH.sub(b"%252F", sent)  # (decoded: %2F)
        path = unquote_to_bytes(kept).decode("utf-8", "replace")
    return Target(
        path,
        depth,
        quote(sent, safe=_PCHAR),
        root,
        quote(folder.encode("latin-1"), safe=_PCHAR),  # (as sent: its bytes)
        asked.decode("latin-1"),
        scope.get("query_string") or raw.partition(b"?")[2],
    )
