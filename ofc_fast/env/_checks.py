"""The checks of a :class:`~ofc_fast.env.VectorEnv`'s settings that its adapters share:
the number of environments, the opponents, the bots' settings, a finite number (a choice
among a few texts: :func:`ofc_fast.errors.choice`), and the error of buffers too big to
allocate."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

import numpy as np

from .._native import ffi, lib
from ..errors import GameError, choice, quote

STATUS_HINTS = {
    int(lib.OFC_E_ACTION): " (a full set has no action id: pass a placement)",
    int(lib.OFC_E_GAME_OVER): " (autoreset is off: reset())",
    int(lib.OFC_E_COUNT): " (no placement given for an action of -1)",
    int(lib.OFC_E_DESTINATION): " (one destination 0..3 per dealt card)",
}
"""What to do about an engine status of a VectorEnv's step, in this API's terms (the
message is C's)."""

OPPONENTS = ("self", "random")
"""Built-in opponent modes; any bot name of :func:`ofc_fast.bots.bot_names` also works,
and so does a bot spec (``value@PATH``, ``policy:PATH``, ``module:attribute``)."""


def check_finite(value: object, what: str) -> float:
    """``value`` as a float when it is a finite number within +-1e6 (a NumPy number
    too; not a bool or text), else GameError naming ``what``."""
    if isinstance(value, (np.integer, np.floating)):
        value = value.item()  # a NumPy number: its Python value
    if (
        isinstance(value, bool)
        or not isinstance(value, (int, float))
        or not abs(value) <= 1e6
    ):
        raise GameError(f"{what} must be a finite number, got {quote(value)}")
    return float(value)


def check_num_envs(value: object) -> int:
    """``value`` as a number of environments (an int or NumPy int, 1..2**24), else
    GameError."""
    if isinstance(value, (bool, np.bool_)) or not isinstance(value, (int, np.integer)):
        raise GameError(f"num_envs must be an int, got {quote(value)}")
    num_envs = int(value)  # a NumPy int too, as players and learner take
    if not 1 <= num_envs <= 1 << 24:
        raise GameError(f"num_envs must be 1..16777216, got {quote(num_envs)}")
    return num_envs


def check_opponents(
    value: object, what: str = "opponents", modes: Sequence[str] = OPPONENTS, also: str = ""
) -> str:
    """The other seats' play: one of ``modes``, a registered bot's name or a bot spec
    (``value@PATH``, ``policy:PATH``, ``module:attribute``), else GameError naming ``what`` and the
    choices (and ``also``: what else the caller takes)."""
    from ..bots import bot_names
    from ..bots.registry import is_bot_spec

    if is_bot_spec(value):  # value@PATH, policy:PATH or module:attribute (make_bot)
        return str(value).strip()
    names = tuple(modes) + tuple(n for n in bot_names() if n not in OPPONENTS)
    specs = ", a bot spec (value@PATH, search@PATH, policy:PATH, module:attribute)" + also
    return choice(value, names, what, specs, GameError)


def check_bot_settings(value: object, opponents: str) -> dict[str, Any]:
    """The bot opponents' settings (a copy; None: none), else GameError naming
    ``bot_settings``: not a dict of names (the bot's keywords: text), settings given
    where no bot plays (``opponents`` ``"self"`` or ``"random"``, which would ignore
    them), or ``rules`` or ``seed`` (the environment's to give)."""
    if not isinstance(value, (dict, type(None))) or not all(
        isinstance(key, str) for key in value or ()
    ):
        raise GameError(f"bot_settings must be a dict of names, got {quote(value)}")
    if value and opponents in OPPONENTS:
        raise GameError(
            f"bot_settings {sorted(map(str, value))} given, but opponents "
            f"{opponents!r} are played by no bot (a bot name or spec takes them)"
        )
    taken = sorted({"rules", "seed"} & set(value or ()))
    if taken:
        raise GameError(
            f"bot_settings may not set {', '.join(taken)}: the environment gives each "
            "bot its rules and a seed derived from its own"
        )
    return dict(value or {})


def buffers_error(num_envs: int, slots: Any, arrays: Mapping[str, object]) -> GameError:
    """The GameError of a VectorEnv of ``num_envs`` environments whose buffers could
    not be allocated (a MemoryError): it names ``num_envs`` and the bytes needed, one
    environment's C ``slots`` and NumPy ``arrays`` (its attributes) times
    ``num_envs``."""
    unique = {id(a): a for a in arrays.values() if isinstance(a, np.ndarray)}
    one = ffi.sizeof(slots) + sum(a.nbytes for a in unique.values())  # (each once)
    need = one * num_envs
    return GameError(
        f"num_envs={num_envs}: the environments' buffers need {need} bytes "
        f"({need / 2**30:.1f} GiB), more than this process could allocate; "
        f"use fewer environments"
    )
