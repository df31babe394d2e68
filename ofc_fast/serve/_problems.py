"""Errors as RFC 9457 problem details (``application/problem+json``): every refusal of
the API is an :class:`ApiError` with a status, a title, a detail, the request field at
fault and, when the library refused the input, the name of the ``OfcError`` class.

>>> e = ApiError(422, "cards", "bad card 'Xx'", error="CardError")
>>> body = e.body("/v1/evaluate")
>>> body["status"], body["field"], body["error"], body["type"]
(422, 'cards', 'CardError', '/problems/invalid-input')
"""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager
from typing import Any

from ..errors import OfcError

__all__ = ["TITLES", "ApiError", "at_field"]

TITLES: dict[int, tuple[str, str]] = {
    400: ("bad-request", "The request is not valid JSON of the expected shape"),
    401: ("unauthorized", "A valid API key is required"),
    404: ("not-found", "No such resource"),
    405: ("method-not-allowed", "Method not allowed"),
    409: ("conflict", "The request does not fit the resource's state"),
    413: ("too-large", "The request body is too large"),
    415: ("unsupported-media-type", "The request body must be JSON"),
    422: ("invalid-input", "The input was refused"),
    503: ("busy", "The server is at its concurrency limit"),
}
"""Per status: the ``type`` slug (``/problems/<slug>``) and the ``title``."""


class ApiError(Exception):
    """A refusal: ``status`` (4xx / 503), ``field`` (the request field at fault, dotted,
    e.g. ``observation.dealt``, or None), ``detail`` (what is wrong), ``error`` (the
    OfcError class that refused it, or None) and extra response ``headers``."""

    def __init__(
        self,
        status: int,
        field: str | None,
        detail: str,
        *,
        error: str | None = None,
        headers: dict[str, str] | None = None,
    ) -> None:
        super().__init__(detail)
        self.status = status
        self.field = field
        self.detail = detail
        self.error = error
        self.headers = headers or {}

    def body(self, instance: str) -> dict[str, Any]:
        """The problem document (RFC 9457 members plus ``field`` and ``error``)."""
        slug, title = TITLES.get(self.status, ("error", "Error"))
        out: dict[str, Any] = {
            "type": f"/problems/{slug}",
            "title": title,
            "status": self.status,
            "detail": self.detail[:500],
            "instance": instance[:200],
        }
        if self.field is not None:
            out["field"] = self.field
        if self.error is not None:
            out["error"] = self.error
        return out


@contextmanager
def at_field(field: str | None, status: int = 422) -> Iterator[None]:
    """Turns an :class:`~ofc_fast.errors.OfcError` raised inside into an
    :class:`ApiError` naming ``field`` and the error's class.

    >>> from ofc_fast import parse_cards
    >>> try:
    ...     with at_field("cards"):
    ...         parse_cards("Xx")
    ... except ApiError as e:
    ...     print(e.status, e.field, e.error)
    422 cards CardError
    """
    try:
        yield
    except OfcError as exc:
        raise ApiError(status, field, str(exc), error=type(exc).__name__) from None
