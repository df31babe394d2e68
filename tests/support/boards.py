"""Random complete boards for the tests: plain random splits and "sorted" boards
whose rows are more often legal, always from a seeded generator."""

from __future__ import annotations

import random


def random_board(rng: random.Random, deck: list[int] | None = None) -> list[int]:
    """13 distinct cards in row order (front 3, middle 5, back 5)."""
    pool = deck if deck is not None else list(range(52))
    return rng.sample(pool, 13)


def random_pair(rng: random.Random) -> tuple[list[int], list[int]]:
    """Two boards sharing no card."""
    cards = rng.sample(range(52), 26)
    a, b = cards[:13], cards[13:]
    if rng.random() < 0.5:  # bias towards legal boards: strong cards at the back
        a = _stacked(a, rng)
        b = _stacked(b, rng)
    return a, b


def random_table(rng: random.Random, players: int) -> list[list[int]]:
    cards = rng.sample(range(52), 13 * players)
    boards = [cards[13 * i : 13 * i + 13] for i in range(players)]
    return [_stacked(b, rng) if rng.random() < 0.5 else b for b in boards]


def _stacked(board: list[int], rng: random.Random) -> list[int]:
    """Same cards, ranks ascending front to back with a little noise."""
    cards = sorted(board, key=lambda c: (c // 4) + rng.random() * 3)
    return cards[:3] + cards[3:8] + cards[8:]
