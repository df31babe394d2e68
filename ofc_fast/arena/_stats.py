"""Figures of a match: the two-sided Student-t 95% half-width of a mean, and decision
latency summaries.

The t quantile is ``scipy.stats.t.ppf`` (scipy is the ``arena`` extra:
``pip install 'ofc-fast[arena]'``).

>>> round(t_half_width([1.0, 2.0, 3.0, 4.0]), 4)
2.0543
>>> t_half_width([5.0]) is None
True
>>> latency_summary([1.0, 2.0, 3.0])["p50_ms"]
2.0
"""

from __future__ import annotations

import importlib.util
import math
from collections.abc import Sequence
from typing import Any

import numpy as np
import numpy.typing as npt

from ..errors import ArenaError

__all__ = [
    "PairedSums",
    "check_t_quantile",
    "int_half_width",
    "latency_summary",
    "mean",
    "printable",
    "t_half_width",
    "t_quantile",
]


def printable(text: str) -> str:
    r"""A name from a file (a history's seat, a report's bot) as the arena prints it:
    as it is when every character is printable, else as Python writes it (``repr``),
    so that no control character of a file (a terminal escape sequence) reaches the
    terminal.

    >>> printable("search-2"), printable("x\x1b[2J")
    ('search-2', "'x\\x1b[2J'")
    """
    return text if text.isprintable() else repr(text)


_NO_SCIPY = "confidence intervals need scipy: pip install 'ofc-fast[arena]'"


def check_t_quantile() -> None:
    """ArenaError now when scipy (:func:`t_quantile`) is not installed: a match
    checks before its first hand, not at its report.  Looked up, not imported (its
    import takes a second: a ``tcp:`` seat's bot started at once would find no
    listener yet)."""
    if importlib.util.find_spec("scipy") is None:
        raise ArenaError(_NO_SCIPY)


def t_quantile(p: float, df: int) -> float:
    """The ``p`` quantile of Student's t with ``df`` degrees of freedom."""
    try:
        from scipy.stats import t as student_t
    except ImportError:  # pragma: no cover - the extra is installed in tests
        raise ArenaError(_NO_SCIPY) from None
    return float(student_t.ppf(p, df))


def mean(xs: Sequence[float]) -> float | None:
    """The mean of ``xs``, or ``None`` when there are none."""
    return sum(xs) / len(xs) if xs else None


def t_half_width(xs: Sequence[float], level: float = 0.95) -> float | None:
    """Half-width of the two-sided Student-t ``level`` interval of the mean of ``xs``
    (None under two observations)."""
    n = len(xs)
    if n < 2:
        return None
    m = sum(xs) / n
    return _half_width(n, sum((x - m) ** 2 for x in xs) / (n - 1), level)


def int_half_width(n: int, total: int, squares: int, level: float = 0.95) -> float | None:
    """:func:`t_half_width` of ``n`` whole numbers from their ``total`` and the sum of
    their ``squares``, kept as they come (exact ints: no pass over the numbers, for
    standings taken again and again during a match).

    >>> round(int_half_width(4, 1 + 2 + 3 + 4, 1 + 4 + 9 + 16), 4)
    2.0543
    """
    if n < 2:
        return None
    return _half_width(n, (n * squares - total * total) / (n * (n - 1)), level)


class PairedSums:
    """Running sums of rows of whole numbers, one row at a time (a duplicate match's
    decks: each bot's points over the deck's rotations), exact: ``count`` rows, per
    column its ``totals`` and ``squares``, and per pair of columns ``(a, b)``, a < b,
    the sum and the sum of squares of ``row[a] - row[b]`` (``pairs``).  What
    :func:`int_half_width` takes: no row is kept.

    >>> sums = PairedSums(2)
    >>> sums.add([3, -3]); sums.add([1, -1])
    >>> sums.count, sums.totals, sums.squares, sums.pairs
    (2, [4, -4], [10, 10], {(0, 1): [8, 40]})
    """

    def __init__(self, width: int) -> None:
        self.count = 0
        self.totals = [0] * width
        self.squares = [0] * width
        self.pairs = {(a, b): [0, 0] for a in range(width) for b in range(a + 1, width)}

    def add(self, row: Sequence[int]) -> None:
        """Count one row."""
        self.count += 1
        for k, x in enumerate(row):
            self.totals[k] += x
            self.squares[k] += x * x
        for (a, b), sums in self.pairs.items():
            d = row[a] - row[b]
            sums[0] += d
            sums[1] += d * d


def _half_width(n: int, var: float, level: float) -> float:
    """The half-width of ``n`` values of sample variance ``var``."""
    return t_quantile(0.5 + level / 2, n - 1) * math.sqrt(var / n)


def _percentile(sorted_xs: npt.NDArray[np.float64], q: float) -> float:
    """Linear interpolation between closest ranks (numpy's default)."""
    pos = (len(sorted_xs) - 1) * q
    lo = math.floor(pos)
    hi = min(lo + 1, len(sorted_xs) - 1)
    return float(sorted_xs[lo] + (sorted_xs[hi] - sorted_xs[lo]) * (pos - lo))


def latency_summary(ms: Sequence[float]) -> dict[str, Any]:
    """``count`` and ``mean_ms``/``p50_ms``/``p90_ms``/``p99_ms``/``max_ms`` (exact
    percentiles of the recorded times; None when there are none), from a sorted copy
    of 8 bytes a time (a long match's ``array`` of millions: no list of floats)."""
    if not ms:
        return {
            "count": 0,
            "mean_ms": None,
            "p50_ms": None,
            "p90_ms": None,
            "p99_ms": None,
            "max_ms": None,
        }
    xs = np.sort(np.asarray(ms, dtype=np.float64))
    return {
        "count": len(xs),
        "mean_ms": float(xs.mean()),
        "p50_ms": _percentile(xs, 0.5),
        "p90_ms": _percentile(xs, 0.9),
        "p99_ms": _percentile(xs, 0.99),
        "max_ms": float(xs[-1]),
    }
