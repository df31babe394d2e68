"""The least-recently-used cache a value model keeps its C contexts and expected-points
tables in (:class:`~ofc_fast.learned.model.ValueModel`), and the model files read
are kept in.  Private to
:mod:`ofc_fast.learned.model`."""

from __future__ import annotations

import threading
from collections import OrderedDict
from collections.abc import Hashable
from typing import Generic, TypeVar

K = TypeVar("K", bound=Hashable)
V = TypeVar("V")


class Lru(Generic[K, V]):
    """The ``size`` values last asked for (:meth:`get`, :meth:`keep` or :meth:`put`) by key, the
    least recently used forgotten beyond; threads share one.

    >>> c: Lru[str, int] = Lru(2)
    >>> c.keep("a", 1), c.keep("b", 2), c.get("a"), c.keep("c", 3)
    (1, 2, 1, 3)
    >>> c.get("b") is None, c.get("a"), c.keep("a", 9), len(c)
    (True, 1, 1, 2)
    >>> c.put("a", 9), c.get("a"), len(c)
    (None, 9, 2)
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

    def put(self, key: K, value: V) -> None:
        """Keep ``value`` under ``key``, in place of what was kept there (now the
        most recently used; the least recently used beyond ``size`` forgotten)."""
        with self._lock:
            self._items[key] = value
            self._used(key)

    def keep(self, key: K, value: V) -> V:
        """The value kept under ``key``: one another thread stored first, else
        ``value`` (now the most recently used; the least recently used beyond
        ``size`` forgotten)."""
        with self._lock:
            hit = self._items.setdefault(key, value)
            self._used(key)
            return hit

    def _used(self, key: K) -> None:
        """``key`` made the most recently used, the least recently used beyond
        ``size`` forgotten (the lock held)."""
        self._items.move_to_end(key)
        while len(self._items) > self._size:
            self._items.popitem(last=False)
