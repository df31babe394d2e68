"""The compiled C library (``ofc_fast._ofc``) and the mapping of its status codes."""

from __future__ import annotations

try:
    from ._ofc import ffi, lib  # noqa: F401  (re-exported for the other modules)
except ModuleNotFoundError as exc:  # the source tree, without its compiled extension
    if exc.name != __package__ + "._ofc":
        raise
    raise ImportError(
        f"ofc_fast is imported from {__file__.rsplit('_native', 1)[0]}, a source tree "
        f"without the compiled extension: run from another directory (the installed "
        f"package is then used), or build it here with: pip install -e .") from None

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
