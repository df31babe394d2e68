"""Games against the bots, kept in memory: a :class:`GameSession` is a match (deals at
one table, Fantasyland and the button carried from deal to deal) where one seat is the
client's and the others are built-in bots; a :class:`SessionStore` keeps at most
``max_sessions`` of them, each for ``session_ttl`` seconds after its last request.

>>> store = SessionStore(max_sessions=2, ttl=60)
>>> s = store.create({"rules": "pineapple", "players": 2, "seed": 7, "bots": ["random"]})
>>> st = s.state()
>>> st["your_turn"], len(st["observation"]["dealt"])
(True, 5)
"""

from __future__ import annotations

import asyncio
import secrets
import threading
import time
from collections import OrderedDict
from collections.abc import Callable, Iterable, Iterator
from contextlib import contextmanager
from typing import Any

from ..arena.history import deal_record
from ..bots import Bot, bot_key, bot_names, make_bot
from ..bots.registry import check_table
from ..cards import cards_str
from ..game import Game, Match, Move
from ..game.moves import MOVE_KEYS
from ._config import ServeConfig
from ._fields import (
    CARD,
    INTEGER,
    ROW,
    check_item,
    check_known,
    get_bool,
    get_int,
    get_list,
    get_str,
)
from ._idempotency import Keyed, Replies
from ._limits import PerLoop
from ._problems import ApiError, at_field
from ._routes import get_game_rules
from ._sizes import RANGES, SIZES

__all__ = ["GameSession", "SessionStore"]

_BOT_SETTINGS: dict[str, dict[str, Any]] = {"search": {"samples": 48, "time_budget": None}}
_MAX_EVENTS = 64
_KEPT_REPLIES = 8
"""Answers of a game's keyed moves and deals kept (a key older is a new request)."""


class GameSession:
    """One client's match against the bots (see the module doc).  Every method runs
    under the session's lock (requests of one game are served one at a time); the
    server takes ``turn`` first, on its event loop, so that the requests waiting for
    a busy game wait there and not on a worker thread other games need."""

    def __init__(
        self, sid: str, body: dict[str, Any], time_cap: float = ServeConfig.max_time_budget
    ) -> None:
        rules = get_game_rules(body, "games")
        players = get_int(body, "players", 2, RANGES.players[0], rules.max_players)
        you = get_int(body, "you", 0, RANGES.you[0], players - 1)
        seed = get_int(body, "seed", None, *RANGES.seed)
        self.hands = get_int(body, "hands", None, *RANGES.hands)
        given = get_list(body, "bots", ["heuristic"], SIZES.bots, items=(str, "a string"))
        registry = bot_names()
        known = ", ".join(registry)
        if not given:
            raise ApiError(422, "bots", f"bots: names of {known}, one or one per seat")
        names: list[str] = []  # the registry's names ("Heuristic": heuristic)
        for i, name in enumerate(given):  # the server's own bots: never an import spec
            shown = f"bots[{i}]"
            with at_field(shown):  # read as make_bot reads it
                names.append(bot_key(name))
            if names[i] not in registry:
                raise ApiError(422, shown, f"{shown}: {name[:40]!r} is no bot of {known}")
        others = [s for s in range(players) if s != you]
        if len(names) not in (1, len(others)):
            raise ApiError(422, "bots", f"bots: give 1 name or {len(others)} (one per bot)")
        fantasyland = get_list(body, "fantasyland", None, SIZES.fantasyland, items=INTEGER)
        with at_field("fantasyland", nested=True):  # the seed and seats: checked above
            self.match = Match(rules, players, seed=seed, fantasyland=fantasyland)
        self.id = sid
        self.owner = ""  # the client that created it (SessionStore.create)
        self.time_cap = time_cap
        self.you = you
        self.seeded = seed is not None  # the client's own seed, its to know
        self.seats: list[str] = ["you"] * players
        self.bots: dict[int, Bot] = {}
        for i, seat in enumerate(others):
            name = names[0] if len(names) == 1 else names[i]
            self.seats[seat] = name
            with at_field(f"bots[{0 if len(names) == 1 else i}]"):  # (refused: now)
                self.bots[seat] = make_bot(
                    name,
                    rules,
                    seed=(self.match.seed + 1 + seat) % 2**64,
                    **_BOT_SETTINGS.get(name, {}),
                )
                check_table(self.bots[seat], players)
        self.lock = threading.Lock()
        self._turn = PerLoop(asyncio.Lock)
        self.replies = Replies(_KEPT_REPLIES)  # of keyed moves and deals
        self.created: Keyed | None = None  # the key it was created with
        self.touched = time.monotonic()
        self.requests = 0  # requests running on it (SessionStore.using): kept meanwhile
        self.version = 0  # the moves and deals played on request, counted
        self.events: list[dict[str, Any]] = []
        self.last_record: dict[str, Any] | None = None
        self.game: Game = self.match.next_game()
        self._advance()

    @property
    def turn(self) -> asyncio.Lock:
        """What the game's requests take, one at a time, on the event loop serving
        them (see the class doc): the running loop's own (:class:`PerLoop`)."""
        return self._turn.get()

    # -- play
    def _advance(self) -> None:
        """Bots play until it is the client's turn or the deal is over, their searches
        within ``time_cap`` seconds in all (the observation's ``deadline``: a search
        bot searches less, or plays the heuristic's move, once it nears)."""
        g = self.game
        deadline = time.monotonic() + self.time_cap
        while not g.is_over and g.to_act != self.you:
            seat = g.to_act
            assert seat is not None
            obs = g.observation(seat)
            move = self.bots[seat].act({**obs, "deadline": deadline})
            g.play(move, seat=seat)
            self.events.append({"seat": seat, "move": _seen(move, obs["face_down"])})
            del self.events[:-_MAX_EVENTS]
        if g.is_over and self.last_record is None:
            self.match.record(g)
            record = deal_record(g, self.match.hands_played - 1, self.seats)
            if not self.seeded:  # the server's: a deal's seed gives the match's (the
                # mix that derives it is invertible), so every later deal; the deck
                # alone replays the deal
                record["history"]["seed"] = None
            self.last_record = record

    def play(self, body: dict[str, Any]) -> dict[str, Any]:
        """``POST /v1/games/{id}/moves``: the client's move (``move``: the JSON of
        ``Move.to_dict`` with cards as ids or text and rows by name, or ``action``: an
        action id), then the bots' moves.  A refused move leaves the game as it was.
        ``version`` (optional): the state's the move answers; another (a request
        changed the game since, two moves raced) is a 409 naming it."""
        expected = get_int(body, "version", None, *RANGES.version)
        if expected is not None and expected != self.version:
            raise ApiError(
                409,
                "version",
                f"the move is for version {expected} of the game, which is at version "
                f"{self.version} (another request changed it): read the game again",
            )
        g = self.game
        if g.is_over:  # (next deals on, unless it was the match's last deal)
            over = (
                self._match_over() or "the deal is over: POST /v1/games/{id}/next deals on"
            )
            raise ApiError(409, None, over)
        if g.to_act != self.you:  # pragma: no cover - _advance leaves it the client's
            raise ApiError(409, None, f"seat {g.to_act} is to act")
        if "action" in body and "move" in body:  # one would be ignored
            raise ApiError(422, "move", "give move or action, not both")
        if "action" in body:
            action = get_int(body, "action", low=RANGES.action[0], high=RANGES.action[1])
            with at_field("action"):
                g.play_action(action)
        elif "move" not in body:  # (neither: the one required is either)
            raise ApiError(
                400,
                "move",
                "move (an object {place, discard}) or action (an action id) is required",
            )
        else:
            raw = body.get("move")
            if not isinstance(raw, dict):
                raise ApiError(400, "move", "move must be an object {place, discard}")
            check_known(raw, MOVE_KEYS, prefix="move")
            pair = (list, "an array [card, row]")
            place = get_list(raw, "place", (), SIZES.cards, prefix="move", items=pair)
            for i, placed in enumerate(place):
                path = f"move.place[{i}]"
                if len(placed) != 2:
                    raise ApiError(
                        400,
                        path,
                        f"{path} must be a [card, row] pair, got {len(placed)} items",
                    )
                check_item(placed[0], f"{path}[0]", CARD)
                check_item(placed[1], f"{path}[1]", ROW)
            get_list(raw, "discard", None, SIZES.cards, prefix="move", items=CARD)
            get_bool(raw, "surrender", None, prefix="move")
            get_str(raw, "declare", None, max_len=SIZES.declare_text, prefix="move")
            with at_field("move", nested=True):  # the part at fault: move.place[2]
                g.play(Move.from_dict(raw), seat=self.you)
        # the events restart only once the move is played: a refused one changes nothing
        self.events = [{"seat": self.you, "move": str(g.moves[-1])}]
        self.version += 1
        self._advance()
        return self.state()

    def next_deal(self) -> dict[str, Any]:
        """``POST /v1/games/{id}/next``: the match's next deal (Fantasyland carried)."""
        if not self.game.is_over:
            raise ApiError(409, None, "the deal is not over yet")
        over = self._match_over()
        if over is not None:
            raise ApiError(409, None, over)
        self.events = []
        self.last_record = None
        self.game = self.match.next_game()
        self.version += 1
        self._advance()
        return self.state()

    def _match_over(self) -> str | None:
        """What a 409 says once the match has played its ``hands`` deals (a move or a
        deal more is refused), else None.

        >>> s = GameSession("g", {"bots": ["random"], "hands": 1, "seed": 1})
        >>> while s._match_over() is None:
        ...     _ = s.play({"action": s.game.legal_actions()[0]})
        >>> s.game.is_over, s._match_over()
        (True, 'the match of 1 deal is over: POST /v1/games starts another')
        """
        if self.hands is None or self.match.hands_played < self.hands:
            return None
        deals = f"{self.hands} deal{'s' if self.hands != 1 else ''}"
        return f"the match of {deals} is over: POST /v1/games starts another"

    # -- what the client sees
    def state(self) -> dict[str, Any]:
        """``GET /v1/games/{id}``: the client's observation and, once the deal is over,
        the showdown, the result and the deal's hand history."""
        g = self.game
        obs = g.observation(self.you)
        out: dict[str, Any] = {
            "id": self.id,
            "version": self.version,
            "rules": g.rules.name,
            "players": g.players,
            "you": self.you,
            "seats": list(self.seats),
            "hand_no": self.match.hands_played - (1 if g.is_over else 0),
            "your_turn": g.to_act == self.you,
            "is_over": g.is_over,
            "observation": obs,
            "events": list(self.events),
            "match": {
                "hands": self.match.hands_played,
                "max_hands": self.hands,
                "totals": list(self.match.totals),
                "fantasyland": list(self.match.fantasyland),
            },
        }
        if g.is_over:
            out["result"] = _showdown(g)
            out["history"] = self.last_record
        return out


def _seen(move: Move, face_down: bool) -> str:
    """A bot's move as the client sees it (as its observation shows the boards): the
    cards placed face up, and only how many it discarded (discards are never shown,
    R-FLOW-PIN-4) or set face down (a Fantasyland hand, OFC's last rounds: shown once
    the deal is over).

    >>> _seen(Move([("As", "front"), ("Kd", "back")], "2c"), False)
    'As / - / Kd, 1 card discarded'
    >>> _seen(Move([("As", "front"), ("Kd", "back")], "2c"), True)
    '2 cards face down, 1 card discarded'
    """
    if move.surrender or move.declare is not None:  # a public action
        return str(move)

    def cards(n: int) -> str:
        return f"{n} card{'s' if n != 1 else ''}"

    text = f"{cards(len(move.placements))} face down" if face_down else ""
    text = text or str(Move(move.placements))
    n = len(move.discards)
    return text + (f", {cards(n)} discarded" if n else "")


def _showdown(g: Game) -> dict[str, Any]:
    r = g.result()
    return {
        **r.summary(),
        "boards": [[cards_str(row) for row in b.rows] for b in r.boards],
        "pairs": [
            {
                "seats": list(p),
                "net": s.net,
                "rows": list(s.rows),
                "sweep": s.sweep,
                "royalties": [sum(s.royalties[0]), sum(s.royalties[1])],
            }
            for p, s in r.settlement.pairs
        ],
    }


class SessionStore:
    """At most ``max_sessions`` games, each dropped ``ttl`` seconds after its last
    request: memory stays bounded whatever clients do.  Each game belongs to the
    client that created it (``client``: its remote address), which keeps at most
    ``per_client`` at once (None: ``max_sessions``): a new game beyond drops that
    client's own least recently used one, never another client's; when the store is
    full, the least recently used game of the client that holds the most goes.  So a
    script creating games by the hundred evicts only its own.  A game a request is
    using (:meth:`using`) is never dropped, nor does it expire, while it runs: the
    next game in that order goes instead, and where every one is in use the new game
    is a 503 (``Retry-After``: ``retry_after`` seconds).  ``time_cap``: seconds the
    bots may search per request (``ServeConfig.max_time_budget``).

    >>> store = SessionStore(max_sessions=4, ttl=60, per_client=2)
    >>> mine = store.create({"bots": ["random"]}, client="10.0.0.1").id
    >>> _ = [store.create({"bots": ["random"]}, client="10.0.0.2") for _ in range(5)]
    >>> store.get(mine).owner, len(store)
    ('10.0.0.1', 3)
    """

    def __init__(
        self,
        max_sessions: int = 256,
        ttl: float = 1800.0,
        clock: Callable[[], float] = time.monotonic,
        time_cap: float = ServeConfig.max_time_budget,
        per_client: int | None = None,
        retry_after: int = ServeConfig.retry_after,
    ) -> None:
        self.max_sessions = max_sessions
        self.retry_after = retry_after
        self.per_client = min(
            max_sessions if per_client is None else per_client, max_sessions
        )
        self.time_cap = time_cap
        self.ttl = ttl
        self.clock = clock
        self._items: OrderedDict[str, GameSession] = OrderedDict()
        # each client's games, least recently used first
        self._owned: dict[str, OrderedDict[str, None]] = {}
        # the first answers of keyed creations: one per game kept (dropped with it),
        # one per creation running
        self._created = Replies()
        self._lock = threading.Lock()

    def __len__(self) -> int:
        """The games kept, those idle longer than ``ttl`` left out (dropped now)."""
        with self._lock:
            self._expire(self.clock())
            return len(self._items)

    def _drop(self, sid: str) -> None:
        s = self._items.pop(sid)
        if s.created is not None:
            self._created.forget(s.created)
        owner = s.owner
        games = self._owned[owner]
        del games[sid]
        if not games:
            del self._owned[owner]

    def _share(self, games: OrderedDict[str, None]) -> tuple[int, float]:
        """How much a client holds: its games, then how long its least recently used
        one has been idle (the larger goes first)."""
        return len(games), -self._items[next(iter(games))].touched

    def _expire(self, now: float) -> None:
        gone = []
        for sid, s in self._items.items():  # least recently used first
            if now - s.touched <= self.ttl:
                break
            if not s.requests:
                gone.append(sid)
        for sid in gone:
            self._drop(sid)

    def _make_room(self, holders: Iterable[OrderedDict[str, None]], whose: str) -> None:
        """Drop the least recently used game no request is using of the first of
        ``holders`` (clients' games) that has one; a 503 where none has (``whose``:
        the games, for its detail)."""
        for games in holders:
            sid = next((g for g in games if not self._items[g].requests), None)
            if sid is not None:
                self._drop(sid)
                return
        raise ApiError(
            503,
            None,
            f"{whose} has a request running, and a new game would drop one: retry",
            headers={"retry-after": str(self.retry_after)},
        )

    def open(
        self, body: dict[str, Any], client: str = "", key: Keyed | None = None
    ) -> dict[str, Any]:
        """``POST /v1/games``: a new game's first state; with a ``key``
        (``Idempotency-Key``), the first state of the game the client created with it,
        while the store keeps that game, instead of another game.

        >>> store, k = SessionStore(), Keyed("10.0.0.1", "k1", "digest")
        >>> a = store.open({"bots": ["random"]}, "10.0.0.1", k)
        >>> store.open({"bots": ["random"]}, "10.0.0.1", k) == a, len(store)
        (True, 1)
        """
        if key is not None:
            with self._lock:
                self._expire(self.clock())
                found = self._created.find(key)
                if found is not None:
                    self._touch(found["id"])
                    return found
                self._created.keep(key)  # running: the same key meanwhile is a 409
        try:
            s = GameSession(secrets.token_urlsafe(12), body, self.time_cap)
            return self._add(s, client, key)
        except BaseException:
            if key is not None:
                with self._lock:
                    self._created.forget(key)
            raise

    def create(self, body: dict[str, Any], client: str = "") -> GameSession:
        """A new game (``POST /v1/games``) of ``client`` (see the class doc)."""
        s = GameSession(secrets.token_urlsafe(12), body, self.time_cap)
        self._add(s, client)
        return s

    def _add(self, s: GameSession, client: str, key: Keyed | None = None) -> dict[str, Any]:
        """Keep the new game ``s`` of ``client``; its first state, kept for ``key``
        while the game is (:meth:`open`)."""
        s.owner = client
        first = s.state()
        with self._lock:
            now = self.clock()
            s.touched = now
            self._expire(now)
            games = self._owned.get(client)
            if games is not None and len(games) >= self.per_client:
                whose = f"each of this client's games ({len(games)}, its most at once)"
                self._make_room([games], whose)
            elif len(self._items) >= self.max_sessions:
                most = sorted(self._owned.values(), key=self._share, reverse=True)
                self._make_room(
                    most, f"each of the games kept ({len(self._items)}, the most)"
                )
            self._items[s.id] = s
            self._owned.setdefault(client, OrderedDict())[s.id] = None
            if key is not None:
                s.created = key
                self._created.keep(key, first)
        return first

    def get(self, sid: str) -> GameSession:
        """The game ``sid`` (404 when unknown or expired); marks it used."""
        with self._lock:
            self._expire(self.clock())
            return self._touch(sid)

    @contextmanager
    def using(self, sid: str) -> Iterator[GameSession]:
        """The game ``sid`` (404 when unknown or expired, :meth:`get`) for a request
        that runs on it: the game is kept while it runs (never dropped for a new
        game, never expired), so that what the request answers is what the game
        holds; marked used as the request starts and as it ends.

        >>> store = SessionStore(max_sessions=1)
        >>> sid = store.create({"bots": ["random"]}).id
        >>> with store.using(sid):
        ...     try:
        ...         store.create({"bots": ["random"]})
        ...     except ApiError as exc:
        ...         print(exc.status, exc.headers, exc.detail[:35])
        503 {'retry-after': '1'} each of this client's games (1, its
        """
        with self._lock:
            self._expire(self.clock())
            s = self._touch(sid)
            s.requests += 1
        try:
            yield s
        finally:
            with self._lock:
                s.requests -= 1
                self._touch(sid)

    def _touch(self, sid: str) -> GameSession:
        """The game ``sid``, marked used (the store's lock held)."""
        s = self._items.get(sid)
        if s is None:
            raise ApiError(404, "id", f"no game {sid[:40]!r} (unknown or expired)")
        s.touched = self.clock()
        self._items.move_to_end(sid)
        self._owned[s.owner].move_to_end(sid)
        return s
