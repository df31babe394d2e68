"""The least-recently-used cache a value model keeps its C contexts and expected-points
tables in (:class:`~ofc_fast.learned.model.ValueModel`).  Private to
:mod:`ofc_fast.learned.model`."""

from __future__ import annotations

import threading
from collections import OrderedDict
from collections.abc import Hashable
from typing import Generic, TypeVar

K = TypeVar("K", bound=Hashable)
V = TypeVar("V")


class Lru(Generic[K, V]):
    """The ``size`` values last asked for (:meth:`get` or :meth:`keep`) by key, the
    least recently used forgotten beyond; threads share one.

    >>> c: Lru[str, int] = Lru(2)
    >>> c.keep("a", 1), c.keep("b", 2), c.get("a"), c.keep("c", 3)
    (1, 2, 1, 3)
    >>> c.get("b") is None, c.get("a"), c.keep("a", 9), len(c)
    (True, 1, 1, 2)
    """

    def __init__(self, size: int) -> None:
        self._size = size
        self._items: OrderedDict[K, V] = OrderedDict()
        self._lock = threading.Lock()

    def __len__(self) -> int:
        return len(self._items)

    def get(self, key: K) -> V | None:
        """The value kept under ``key`` (now the most recently used), or None."""
        with self._lock:
            hit = self._items.get(key)
            if hit is not None:
                self._items.move_to_end(key)
            return hit

    def keep(self, key: K, value: V) -> V:
        """The value kept under ``key``: one another thread stored first, else
        ``value`` (now the most recently used; the least recently used beyond
        ``size`` forgotten)."""
        with self._lock:
            hit = self._items.setdefault(key, value)
            self._items.move_to_end(key)
            while len(self._items) > self._size:
                self._items.popitem(last=False)
            return hit
