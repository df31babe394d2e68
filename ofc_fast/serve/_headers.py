"""The request headers that say how a body is sent: its media type, charset and
``Content-Encoding``, each refused with a 415 where the server would misread it.

>>> check_coding({b"content-encoding": b"identity"})
"""

from __future__ import annotations

import codecs

from ._limits import IDENTITY
from ._problems import ApiError

__all__ = ["check_charset", "check_coding", "check_media_type"]


def check_media_type(headers: dict[bytes, bytes]) -> None:
    """415 for a browser's request (it carries ``Origin``) whose body is not declared
    ``application/json``: a page on another site may send a JSON text as
    ``text/plain`` (a form, ``fetch`` in no-cors mode) without a CORS preflight, and
    this server grants none, so such a page cannot declare JSON.  Clients without
    ``Origin`` (curl, scripts) may declare anything.

    >>> check_media_type({b"content-type": b"text/plain"})
    >>> check_media_type({b"origin": b"http://127.0.0.1:8000",
    ...                    b"content-type": b"application/json; charset=utf-8"})
    >>> check_media_type({b"origin": b"https://x.example", b"content-type": b"text/plain"})
    Traceback (most recent call last):
    ...
    ofc_fast.serve._problems.ApiError: a browser's request body must be declared application/json
    """
    if b"origin" not in headers:
        return
    media = headers.get(b"content-type", b"").split(b";")[0].strip().lower()
    if media != b"application/json":
        raise ApiError(
            415,
            "Content-Type",
            "a browser's request body must be declared application/json",
        )


def check_charset(headers: dict[bytes, bytes]) -> None:
    """415 for a body declared in a charset other than UTF-8 (``Content-Type:
    application/json; charset=latin-1``): JSON is UTF-8 (RFC 8259, 8.1) and the
    server reads every body so, where a body in another charset would be refused as
    not UTF-8 or, its bytes UTF-8 too, read as another text than the client meant.

    Any name of UTF-8 (``utf8``) or of US-ASCII, its subset (``us-ascii``), is read.

    >>> check_charset({b"content-type": b'application/json; charset="UTF-8"'})
    >>> check_charset({b"content-type": b"application/json; charset=us-ascii"})
    >>> check_charset({b"content-type": b"application/json; charset=latin-1"})
    Traceback (most recent call last):
    ...
    ofc_fast.serve._problems.ApiError: charset latin-1: send the body in UTF-8 (or no charset)
    """
    for param in headers.get(b"content-type", b"").split(b";")[1:]:
        name, _, value = param.partition(b"=")
        charset = value.strip().strip(b'"').decode("latin-1")
        if name.strip().lower() == b"charset" and _codec(charset) not in _UTF_8_CODECS:
            raise ApiError(
                415,
                "Content-Type",
                f"charset {charset[:40]}: send the body in UTF-8 (or no charset)",
            )


_UTF_8_CODECS = frozenset({"utf-8", "ascii"})
"""The codecs (:func:`codecs.lookup` names) of the charsets a body is read in: UTF-8
and US-ASCII, whose every text is the same UTF-8 bytes."""


def _codec(charset: str) -> str | None:
    """The :func:`codecs.lookup` name of ``charset`` (``"utf-8"`` for ``utf8``), or
    None for a name no codec has (or one longer than any charset's: 40, RFC 2978)."""
    if len(charset) > 40:
        return None
    try:
        return codecs.lookup(charset).name
    except (LookupError, ValueError):  # ValueError: a NUL in the name
        return None


def check_coding(headers: dict[bytes, bytes]) -> None:
    """415 for a body sent with a ``Content-Encoding`` (gzip, ...): the server reads
    bodies as they are, and says so in ``Accept-Encoding`` (RFC 9110, 15.5.16), where
    it would otherwise report compressed bytes as a body that is not UTF-8.

    >>> check_coding({b"content-encoding": b"identity"})
    >>> check_coding({b"content-encoding": b"gzip"})
    Traceback (most recent call last):
    ...
    ofc_fast.serve._problems.ApiError: Content-Encoding gzip: send the body uncompressed
    """
    coding = headers.get(b"content-encoding", IDENTITY.encode()).strip().lower()
    if coding != IDENTITY.encode():
        raise ApiError(
            415,
            "Content-Encoding",
            f"Content-Encoding {coding.decode('latin-1')[:40]}: send the body uncompressed",
            headers={"accept-encoding": IDENTITY},
        )
