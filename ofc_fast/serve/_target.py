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
_RAW_RUN = re.compile(b"//+")
_RAW_SLASH = re.compile(b"%2[fF]")  # an encoded slash: kept encoded in the path routed
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
    ``root_path``, else the server's setting (``ServeConfig.root_path``)."""

    path: str
    depth: int
    sent: str = ""
    root: str = ""

    def absolute(self, ref: str) -> str:
        """``ref`` (a path from the server's root, without its first ``/``) as a
        reference of its full path (``/problems/not-found``, ``/ofc/...`` under a
        ``root``): the same from every request, whatever its depth.

        >>> Target("/a/b/c/d", 3, root="/ofc").absolute("problems/not-found")
        '/ofc/problems/not-found'
        """
        return f"{self.root}/{ref}"

    def relative(self, ref: str) -> str:
        """``ref`` (a path from the server's root, without its first ``/``) relative
        to the request's URL (:func:`relative`)."""
        return relative(self.depth, ref)

    def instance(self) -> str:
        """The request's own path relative to its URL: a problem's ``instance``,
        written as sent (an encoded ``?``, ``#``, ``/`` or space stays encoded, so
        that it resolves to the path asked for, never to a query or a fragment).

        >>> target({"path": "/v1/games/a?b/moves", "raw_path": b"/v1/games/a%3Fb/moves"}).instance()
        '../../../v1/games/a%3Fb/moves'
        >>> Target("/v1/games/a b", 2).instance()
        '../../v1/games/a%20b'
        """
        ref = self.sent or quote(self.path, safe=_PCHAR.replace("%", ""))
        return self.relative(ref[1:] if ref.startswith("/") else ref)


def _dots(path: str) -> tuple[str, int]:
    """``path`` without its dot segments (RFC 3986, 5.2.4: ``.`` and ``..``, as
    nginx reads them; one above the root stays at the root), and the depth of the
    folder a client resolves a reference against from it: its path up to its last
    ``/``, its dot segments removed too (``/v1/health/..`` asks for ``/v1/``, from
    the folder ``/v1/health/``).  A path not starting with ``/`` (``*``) is as it is.

    >>> _dots("/v1/../v1/health"), _dots("/./v1/health"), _dots("/../a/.")
    (('/v1/health', 1), ('/v1/health', 1), ('/a/', 1))
    >>> _dots("/v1/health/.."), _dots("/v1/x"), _dots("*")
    (('/v1/', 2), ('/v1/x', 1), ('*', 0))
    """
    if not path.startswith("/"):
        return path, 0
    folder = _removed(path[: path.rfind("/") + 1])
    return _removed(path), max(folder.count("/") - 1, 0)


def _removed(path: str) -> str:
    """``path`` (starting with ``/``) without its dot segments (:func:`_dots`)."""
    if "." not in path:
        return path
    out: list[str] = []
    for segment in path[1:].split("/"):
        if segment == "..":
            out = out[:-1]
        if segment in (".", ".."):
            segment = ""  # (a last one: the folder it names, with its slash)
        elif out and out[-1] == "":
            out.pop()  # (a dot segment's place, not last: nothing)
        out.append(segment)
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
    ``raw_path``, a run of slashes is one of the path as sent, the rest decoded as
    the server decoded it but an encoded slash, ``%2F``, which stays so: it is part
    of a path segment, neither a separator nor part of a run (``/v1%2Fhealth`` and
    ``/v1/%2Fhealth`` are no ``/v1/health``, whatever the server decodes it to);
    else, a run of the decoded ``path``.  Its dot segments (``.``, ``..``) are then
    removed (:func:`_dots`: RFC 3986, 5.2.4, as nginx does), before it is routed.

    >>> target({"path": "/v1//health", "raw_path": b"/v1/%2Fhealth"})
    Target(path='/v1/%2Fhealth', depth=1, sent='/v1/%2Fhealth', root='')
    >>> target({"path": "/v1/health", "raw_path": b"/v1%2fhealth"}).path
    '/v1%2Fhealth'
    >>> target({"path": "/v1/games/a b", "raw_path": b"//v1/games/a%20b?x=1"}).sent
    '/v1/games/a%20b'
    >>> target({"path": "//openapi.json"})
    Target(path='/openapi.json', depth=0, sent='', root='')
    >>> target({"path": "/v1/../v1/health", "raw_path": b"/v1/../v1/health"})
    Target(path='/v1/health', depth=1, sent='/v1/health', root='')
    >>> target({"path": "*", "raw_path": b"*"})
    Target(path='*', depth=0, sent='*', root='')
    >>> target({"path": "/ofc/v1/score", "raw_path": b"/ofc/v1/score", "root_path": "/ofc"})
    Target(path='/v1/score', depth=1, sent='/v1/score', root='/ofc')
    """
    path: str = scope.get("path", "")
    raw = scope.get("raw_path")
    mount = scope.get("root_path")
    if isinstance(mount, str) and mount.strip("/"):  # (its path holds it first)
        root = mount.rstrip("/")
        path = _below(path, root)
        if isinstance(raw, bytes):  # (as sent: ASCII, RFC 9112, 3.2)
            raw = _below(raw.decode("latin-1"), root).encode("latin-1")
    if not isinstance(raw, bytes):
        path, depth = _dots(_RUN.sub("/", path))
        return Target(path, depth, root=root)
    asked = raw.partition(b"?")[0]  # (some servers keep the query in it)
    merged, depth = _dots(_RAW_RUN.sub(b"/", asked).decode("latin-1"))
    sent = merged.encode("latin-1")  # (its dot segments removed: _dots)
    if sent != asked or _RAW_SLASH.search(sent):
        kept = _RAW_SLASH.sub(b"%252F", sent)  # (decoded: %2F)
        path = unquote_to_bytes(kept).decode("utf-8", "replace")
    return Target(path, depth, quote(sent, safe=_PCHAR), root)
