"""The compiled C library (``ofc_fast._ofc``) and the mapping of its status codes."""

from __future__ import annotations

from ._ofc import ffi, lib  # noqa: F401  (re-exported for the other modules)

OK = 0
E_CARD = -1
E_DUPLICATE = -2
E_COUNT = -3
E_STRENGTH = -4
E_RULES = -5

STATUS_TEXT = {
    E_CARD: "card id outside 0..51",
    E_DUPLICATE: "the same card twice",
    E_COUNT: "wrong number of cards",
    E_STRENGTH: "strength outside the scale",
    E_RULES: "rule set field out of range",
}
