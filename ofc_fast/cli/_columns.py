"""The columns of every table the ``ofc-fast`` command line prints (``eval``,
``score``, ``play``'s summary, ``arena``'s standings, ``bench``), which
:mod:`ofc_fast.cli.options` gives out: each column as wide as its widest cell *as a
terminal shows it* (:func:`display_width`: a wide East Asian character takes two
columns, a combining mark none), so that a name such as ``北京`` or ``é`` written
with a combining accent, or a number longer than the usual, keeps the rows aligned.
"""

from __future__ import annotations

import unicodedata
from collections.abc import Sequence

__all__ = ["column_widths", "display_width", "pad", "padded"]


def display_width(text: str) -> int:
    r"""The columns a terminal gives ``text``: two for each wide or fullwidth East
    Asian character (``unicodedata.east_asian_width`` W or F), none for a combining
    mark or a format character (a joiner), one for any other.

    >>> display_width("abc"), display_width("北京"), display_width("e\u0301")
    (3, 4, 1)
    """
    return sum(_char_width(c) for c in text)


def _char_width(c: str) -> int:
    if unicodedata.category(c) in ("Mn", "Me", "Cf"):
        return 0
    return 2 if unicodedata.east_asian_width(c) in ("W", "F") else 1


def pad(text: str, width: int, right: bool = False) -> str:
    """``text`` padded with spaces to ``width`` display columns (:func:`display_width`),
    on the left where ``right`` (right-aligned); as it is when already as wide.

    >>> pad("北", 4) + "|", pad("7", 3, right=True)
    ('北  |', '  7')
    """
    fill = " " * max(width - display_width(text), 0)
    return fill + text if right else text + fill


def column_widths(rows: Sequence[Sequence[str]], minimum: Sequence[int] = ()) -> list[int]:
    """Each column's width: its widest cell's :func:`display_width`, at least
    ``minimum[i]`` (where given)."""
    count = max((len(r) for r in rows), default=0)
    floor = list(minimum) + [0] * (count - len(minimum))
    return [
        max([floor[i]] + [display_width(r[i]) for r in rows if i < len(r)])
        for i in range(count)
    ]


def padded(
    rows: Sequence[Sequence[str]],
    right: Sequence[bool] = (),
    minimum: Sequence[int] = (),
) -> list[list[str]]:
    """``rows``' cells, each padded (:func:`pad`) to its column's width
    (:func:`column_widths`), right-aligned in the columns ``right`` marks.

    >>> padded([["名前", "+5"], ["bot", "+1000000"]], right=[False, True])
    [['名前', '      +5'], ['bot ', '+1000000']]
    """
    widths = column_widths(rows, minimum)
    flags = list(right) + [False] * (len(widths) - len(right))
    return [[pad(c, w, f) for c, w, f in zip(r, widths, flags)] for r in rows]
