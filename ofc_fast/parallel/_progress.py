"""A progress bar on standard error with deals/s and the time left: ``tqdm`` when it is
installed (``pip install 'ofc-fast[cli]'``) and standard error is a terminal, a plain
line every 10% otherwise (a log file gets no carriage returns).

>>> p = Progress(10, enabled=False)
>>> p.advance(10); p.close()
"""

from __future__ import annotations

import sys
import time
from typing import Any

__all__ = ["Progress"]


class Progress:
    """``advance(n)`` after n more deals; ``close()`` at the end."""

    def __init__(
        self, total: int, enabled: bool = True, initial: int = 0, unit: str = "deals"
    ) -> None:
        self.total, self.done, self.unit = total, initial, unit
        self.enabled = enabled
        self._bar: Any = None
        self._t0 = time.perf_counter()
        self._start = initial
        self._next = 0.1
        if not enabled or not sys.stderr.isatty():
            return
        try:
            from tqdm import tqdm
        except ImportError:
            return
        self._bar = tqdm(
            total=total,
            initial=initial,
            unit=f" {unit}",
            file=sys.stderr,
            dynamic_ncols=True,
            smoothing=0.1,
        )

    def advance(self, n: int) -> None:
        """Count ``n`` more done; redraw the bar or print a line every tenth."""
        self.done += n
        if not self.enabled:
            return
        if self._bar is not None:
            self._bar.update(n)
            return
        if self.total and self.done >= self._next * self.total:
            rate = (self.done - self._start) / max(time.perf_counter() - self._t0, 1e-9)
            eta = (self.total - self.done) / rate if rate > 0 else float("inf")
            print(
                f"  {self.done}/{self.total} {self.unit}, {rate:,.1f} {self.unit}/s, "
                f"ETA {eta:,.0f} s",
                file=sys.stderr,
                flush=True,
            )
            while self._next * self.total <= self.done:
                self._next += 0.1

    def close(self) -> None:
        """Close the progress bar."""
        if self._bar is not None:
            self._bar.close()
            self._bar = None
