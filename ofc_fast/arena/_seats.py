"""The seats' names and labels as the arena writes them (its report, its history,
the standings): unique, valid Unicode and within the report's limit, whatever the
command line gave."""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING

from ..errors import ArenaError, quote, unicode_problem
from .report import bot_name_limit

if TYPE_CHECKING:
    from ._host import BotSpec

__all__ = ["seat_names", "valid_text"]


def valid_text(text: str) -> str:
    r"""``text`` (a seat's name, a bot's command) as valid Unicode, which the
    report's and the history's readers accept: a byte of the command line that no
    UTF-8 decodes (read by Python as a lone surrogate, ``"\udce9"``) as its escape
    ``\xe9``, any other lone surrogate as ``\ud800``.

    >>> valid_text("caf\udce9.py"), valid_text("café"), valid_text("a\ud800")
    ('caf\\xe9.py', 'café', 'a\\ud800')
    """
    if unicode_problem(text) is None:
        return text
    try:
        typed = text.encode("utf-8", "surrogateescape")  # the bytes of the command line
    except UnicodeEncodeError:
        return text.encode("utf-8", "backslashreplace").decode("utf-8")
    return typed.decode("utf-8", "backslashreplace")


def seat_names(specs: Sequence[BotSpec]) -> list[str]:
    """Each seat's name: its own, else a built-in bot's spec, else ``bot-N`` (a
    repeated one numbered ``NAME-2``, ...), as :func:`valid_text`; ArenaError for a
    name longer than the report holds (its report and history: unreadable)."""
    out: list[str] = []
    for i, s in enumerate(specs):
        base = valid_text(s.name or (s.target if s.kind == "builtin" else f"bot-{i + 1}"))
        name, k = base, 2
        while name in out:
            name, k = f"{base}-{k}", k + 1
        if len(name) > bot_name_limit():
            raise ArenaError(
                f"--bot: a seat's name holds at most {bot_name_limit()} characters, "
                f"got {len(name)}: {quote(name)} (of {quote(s.label)})"
            )
        out.append(name)
    return out
