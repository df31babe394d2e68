"""What the HTML report keeps of a stream of deals, in bounded memory: the running
totals per bot (every deal counted, a bounded sample kept for the chart), the first
deals and the largest swings in the compact form the page draws, and, optionally,
every deal in that form written to a sidecar file the page can load.
"""

from __future__ import annotations

import hashlib
import heapq
import json
from collections.abc import Sequence
from typing import IO, Any

from ..cards import card_str
from ..game import Game
from .history import ImportedDeal

__all__ = ["Digest", "RunningTotals"]

SIDECAR_FORMAT = "ofc-fast/report-deals"
SIDECAR_VERSION = 1


class RunningTotals:
    """Per bot name, its points after each deal: ``samples`` keeps the totals after
    deal ``k`` for every ``k`` divisible by ``stride``, the stride doubling whenever more
    than ``limit`` samples are kept (None: every deal); ``low``/``high`` are exact."""

    def __init__(self, names: Sequence[str], limit: int | None = None) -> None:
        self.names = list(names)
        self.limit = limit
        self.totals = dict.fromkeys(self.names, 0)
        self.count = 0
        self.stride = 1
        self.samples: list[tuple[int, tuple[int, ...]]] = []
        self.low = self.high = 0
        self.last: tuple[int, tuple[int, ...]] = (0, ())

    def add(self, seats: Sequence[str], points: Sequence[int]) -> None:
        """Counts one deal."""
        for name, p in zip(seats, points):
            if name in self.totals:  # a name the report does not know is not drawn
                self.totals[name] += p
        now = tuple(self.totals[n] for n in self.names)
        self.count += 1
        if now:
            self.low, self.high = min(self.low, *now), max(self.high, *now)
        if self.count % self.stride == 0:
            self.samples.append((self.count, now))
            if self.limit is not None and len(self.samples) > self.limit:
                self.samples = self.samples[1::2]
                self.stride *= 2
        self.last = (self.count, now)

    def points(self) -> list[tuple[int, tuple[int, ...]]]:
        """(deal count, totals) from 0 deals to the last one, sampled."""
        start = [(0, tuple(0 for _ in self.names))]
        if self.count and (not self.samples or self.samples[-1][0] != self.count):
            return start + self.samples + [self.last]
        return start + self.samples


def acting_seats(deal: ImportedDeal) -> list[int]:
    """The seat that made each move of a deal."""
    history = deal.record["history"]
    start = {k: v for k, v in history.items() if k != "result"}
    g = Game.replay(start | {"rules": deal.game.rules, "moves": []})
    out: list[int] = []
    for m in history["moves"]:
        out.append(g.to_act)  # type: ignore[arg-type]  # an int while moves remain
        g.play(m)
    return out


def _cards(ids: Sequence[int]) -> str:
    return "".join(card_str(c) for c in ids)


def compact_deal(position: int, deal: ImportedDeal) -> dict[str, Any]:
    """The deal as the page draws it: ``i`` its position in the file, ``h`` its hand
    number, ``s`` seat names, ``p`` points, ``fl`` Fantasyland cards this deal, ``nf``
    Fantasyland earned for the next, ``f`` fouls, ``r`` royalties per seat and row
    (top, middle, bottom), ``m`` the moves as ``[seat, placed, discarded, note]``:
    placed as card text and row digit (``"As0Kd2"``), discarded as card text."""
    rec, h = deal.record, deal.record["history"]
    result = deal.game.result()
    moves = []
    for seat, m in zip(acting_seats(deal), h["moves"]):
        note = f"declares {m['declare']}" if m.get("declare") else ""
        note = "surrenders" if m.get("surrender") else note
        moves.append(
            [
                seat,
                "".join(f"{card_str(c)}{r}" for c, r in m["place"]),
                _cards(m.get("discard", [])),
                note,
            ]
        )
    return {
        "i": position,
        "h": rec["hand_no"],
        "s": list(rec["seats"]),
        "p": list(rec["points"]),
        "fl": list(deal.game.fantasyland),
        "nf": list(result.fantasyland),
        "f": list(result.fouls),
        "r": [list(r) for r in result.royalties],
        "m": moves,
    }


class Digest:
    """The bounded summary of a stream of deals for the page: ``totals`` (the chart),
    ``first`` (the first ``embed`` deals), the ``notable`` largest swings, and every
    deal written to ``sidecar`` (an open text file) when one is given."""

    def __init__(
        self,
        names: Sequence[str],
        *,
        embed: int | None,
        notable: int = 10,
        chart_points: int | None = 600,
        sidecar: IO[str] | None = None,
    ) -> None:
        self.totals = RunningTotals(names, chart_points)
        self.embed = embed
        self.notable = notable
        self.first: list[dict[str, Any]] = []
        self._swings: list[tuple[int, int, dict[str, Any]]] = []
        self.sidecar = sidecar
        self.sha = hashlib.sha256()

    @property
    def count(self) -> int:
        """Deals added."""
        return self.totals.count

    def add(self, deal: ImportedDeal) -> None:
        """Counts one deal."""
        pos = self.count
        self.totals.add(deal.record["seats"], deal.record["points"])
        compact = compact_deal(pos, deal)
        if self.sidecar is not None:
            line = json.dumps(compact, separators=(",", ":")) + "\n"
            self.sha.update(line.encode("utf-8"))
            self.sidecar.write(line)
        if self.embed is None or pos < self.embed:
            self.first.append(compact)
            return
        swing = max(abs(p) for p in compact["p"])
        item = (swing, -pos, compact)
        if len(self._swings) < self.notable:
            heapq.heappush(self._swings, item)
        elif self.notable and item[:2] > self._swings[0][:2]:
            heapq.heapreplace(self._swings, item)

    def embedded(self) -> list[dict[str, Any]]:
        """The deals the page holds, in file order."""
        return self.first + sorted((c for *_, c in self._swings), key=lambda c: c["i"])

    def largest_swings(self) -> list[int]:
        """Positions of the ``notable`` deals with the largest swings (any position),
        largest first."""
        everything = [(max(abs(p) for p in c["p"]), -c["i"]) for c in self.embedded()]
        return [-neg for _, neg in sorted(everything, reverse=True)[: self.notable]]

    def header(self) -> dict[str, Any]:
        """The sidecar's first line: format, deal count and the SHA-256 of the deal
        lines (the page checks that a loaded file is its own)."""
        return {
            "format": SIDECAR_FORMAT,
            "version": SIDECAR_VERSION,
            "deals": self.count,
            "sha256": self.sha.hexdigest(),
        }
