"""The compiled C library (``ofc_fast._native._ofc``) and the one mapping of its
status codes to exceptions.

``ffi`` and ``lib`` are the cffi module's; :func:`status_error` builds the exception
of a C status code: its class from :data:`ERRORS`, its message from the C
``ofc_status_string()`` (the one text of each code; for the few codes whose C text
speaks of C internals, such as a NULL pointer, the Python layer's own words), after
the caller's context.

>>> status_error(lib.OFC_E_CARD, "rank5")
CardError('rank5: card id outside 0..51')
"""

from __future__ import annotations

from typing import Any

from ..errors import (
    BoardError,
    CardError,
    GameError,
    ModelError,
    MoveError,
    OfcError,
    RulesError,
    SearchError,
    StrengthError,
)

try:
    from ._ofc import ffi, lib
except ModuleNotFoundError as exc:  # the source tree, without its compiled extension
    if exc.name != __name__ + "._ofc":
        raise
    raise ImportError(
        f"ofc_fast is imported from {__file__.rsplit('_native', 1)[0]}, a source tree "
        f"without the compiled extension: run from another directory (the installed "
        f"package is then used), or build it here with: pip install -e ."
    ) from None

__all__ = [
    "ERRORS",
    "E_CARD",
    "E_COUNT",
    "E_DUPLICATE",
    "MOVE_REASONS",
    "OK",
    "check_error",
    "ffi",
    "lib",
    "move_error",
    "status_error",
    "status_string",
]

OK: int = lib.OFC_OK
E_CARD: int = lib.OFC_E_CARD
E_DUPLICATE: int = lib.OFC_E_DUPLICATE
E_COUNT: int = lib.OFC_E_COUNT

ERRORS: dict[int, type[Exception]] = {
    lib.OFC_E_CARD: CardError,
    lib.OFC_E_DUPLICATE: CardError,
    lib.OFC_E_COUNT: CardError,
    lib.OFC_E_STRENGTH: StrengthError,
    lib.OFC_E_RULES: RulesError,
    lib.OFC_E_MEMORY: MemoryError,
    lib.OFC_E_VALUE: OfcError,
    lib.OFC_E_BUDGET: SearchError,
    lib.OFC_E_STOPPED: SearchError,
    lib.OFC_E_SEAT: GameError,
    lib.OFC_E_MAX_PLAYERS: RulesError,
    lib.OFC_E_SURRENDER: RulesError,
    lib.OFC_E_CONFLICT: BoardError,
    lib.OFC_E_NO_NATURALS: RulesError,
    lib.OFC_E_NATURAL: BoardError,
    lib.OFC_E_HIDDEN: BoardError,
    lib.OFC_E_STACKS: GameError,
    lib.OFC_E_GAME_OVER: MoveError,
    lib.OFC_E_NOT_DEALT: MoveError,
    lib.OFC_E_ROW_FULL: MoveError,
    lib.OFC_E_DISCARDS: MoveError,
    lib.OFC_E_ACTION: MoveError,
    lib.OFC_E_FULL_SET: MoveError,
    lib.OFC_E_NOT_CLASSIC: MoveError,
    lib.OFC_E_SEATS: GameError,
    lib.OFC_E_DECK: GameError,
    lib.OFC_E_DESTINATION: MoveError,
    lib.OFC_E_NOT_OVER: GameError,
    lib.OFC_E_STATE: GameError,
    lib.OFC_E_NO_DECISION: GameError,
    lib.OFC_E_MODEL_MAGIC: ModelError,
    lib.OFC_E_MODEL_VERSION: ModelError,
    lib.OFC_E_MODEL_TRUNCATED: ModelError,
    lib.OFC_E_MODEL_CHECKSUM: ModelError,
    lib.OFC_E_MODEL_SHAPE: ModelError,
    lib.OFC_E_MODEL_VALUE: ModelError,
    lib.OFC_E_MODEL_NO_NET: ModelError,
}
"""The exception class of every C status code (``OFC_E_*`` of every public header)."""

MOVE_REASONS: dict[int, str] = {
    lib.OFC_E_GAME_OVER: "game_over",
    lib.OFC_E_NOT_DEALT: "not_dealt",
    lib.OFC_E_DUPLICATE: "duplicate",
    lib.OFC_E_COUNT: "missing",
    lib.OFC_E_ROW_FULL: "row_full",
    lib.OFC_E_DISCARDS: "discard_count",
    lib.OFC_E_ACTION: "bad_action",
    lib.OFC_E_FULL_SET: "bad_action",
    lib.OFC_E_NOT_CLASSIC: "declare",
    lib.OFC_E_NATURAL: "declare",
    lib.OFC_E_SURRENDER: "surrender",
}
"""``MoveError.reason`` of the engine's codes for an illegal move (others: "bad_move")."""


_PYTHON_TEXT: dict[int, str] = {
    lib.OFC_E_COUNT: "wrong number of cards, or a count or range out of bounds",
    lib.OFC_E_RULES: "a rule set with a field out of range",
    lib.OFC_E_VALUE: "a value argument out of range",
    lib.OFC_E_STACKS: f"a stack outside 0..{lib.OFC_STACK_MAX}",
}
"""The Python layer's words for the codes whose C text speaks of C internals (a NULL
pointer, a C macro name), which no Python caller can pass or see."""


def status_string(status: int) -> str:
    """The C library's message of a status code (``ofc_status_string``).

    >>> status_string(lib.OFC_E_DUPLICATE)
    'the same card twice'
    """
    return ffi.string(lib.ofc_status_string(status)).decode()


def _text(status: int) -> str:
    """The message of a status for a Python caller: :data:`_PYTHON_TEXT`'s words, else
    C's, with the number when C does not know the code.

    >>> _text(lib.OFC_E_COUNT)
    'wrong number of cards, or a count or range out of bounds'
    """
    if status in _PYTHON_TEXT:
        return _PYTHON_TEXT[status]
    text = status_string(status)
    return f"{text} {status}" if text == status_string(1) else text


def status_error(
    status: int, context: str = "", default: type[Exception] = OfcError
) -> Exception:
    """The exception of a nonzero C status: the class :data:`ERRORS` gives, or
    ``default`` (the caller's domain: SearchError, GameError ...) for an unknown code
    and for the generic ``OFC_E_VALUE``; the message ``"<context>: <message>"``.

    >>> status_error(lib.OFC_E_BUDGET, "search_exact")
    SearchError('search_exact: the exact search tree does not fit the node budget')
    """
    text = _text(status)
    message = f"{context}: {text}" if context else text
    cls = ERRORS.get(status, OfcError)
    return (default if cls is OfcError else cls)(message)


def check_error(status: int, why: Any, context: str, default: type[Exception]) -> Exception:
    """:func:`status_error` of a C state check (``ofc_game_state_check``,
    ``ofc_vecenv_slot_check``) that set ``why`` (a ``char **``) to the invariant the
    state breaks: the message ``"<context>: <why>: <message>"``."""
    problem = ffi.string(why[0]).decode() if why[0] != ffi.NULL else "its state"
    return status_error(status, f"{context}: {problem}", default)


def move_error(status: int, context: str = "") -> MoveError:
    """The MoveError of an engine status for an illegal move: message as
    :func:`status_error`, ``reason`` from :data:`MOVE_REASONS`.

    >>> move_error(lib.OFC_E_ROW_FULL).reason
    'row_full'
    """
    text = _text(status)
    return MoveError(
        f"{text}: {context}" if context else text, MOVE_REASONS.get(status, "bad_move")
    )
