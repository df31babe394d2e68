"""The portable twins of the fast-call builtins (``_speedups.c``): the same functions,
the same results, written over the cffi module.  ``ofc_fast._native._fast`` picks
them where ``_speedups`` is not built (PyPy) or not wanted (``OFC_FAST_PORTABLE=1``);
the differential tests hold both to the same answers.

>>> rank5([51, 47, 43, 39, 35]) == lib.ofc_rank5_unchecked(51, 47, 43, 39, 35)
True
>>> rank5("As Ks Qs Js Ts")      # not a list of ids: the caller parses it
-1
"""

from __future__ import annotations

import struct
from collections.abc import Sequence
from itertools import chain
from typing import Any, TypeAlias, TypeVar

from . import ffi, lib

_T = TypeVar("_T")

Booked: TypeAlias = "list[Any] | None"
"""The moves a game booked, the list :func:`place` and :func:`act` append an accepted
move to (None: none)."""


def distinct_ids(seq: object, /) -> bool:
    """True when ``seq`` is a list or tuple of distinct int card ids 0..51 (exact
    ints: not bools), any length up to 52.

    >>> distinct_ids([0, 51]), distinct_ids((1, 1)), distinct_ids([True])
    (True, False, False)
    """
    if type(seq) is not list and type(seq) is not tuple:
        return False
    return not seq or (
        set(map(type, seq)) == {int}
        and min(seq) >= 0
        and max(seq) <= 51
        and len(set(seq)) == len(seq)
    )


def card_ids(seq: object, /) -> tuple[int, ...] | None:
    """``seq`` as a tuple when it is a list or tuple of 1 to 5 distinct int card ids,
    else None (the caller then parses it, or explains what is wrong).

    >>> card_ids([3, 1]), card_ids([]), card_ids("As")
    ((3, 1), None, None)
    """
    if not distinct_ids(seq) or not 1 <= len(seq) <= 5:  # type: ignore[arg-type]
        return None
    return tuple(seq)  # type: ignore[arg-type]


_LIST_TYPE = frozenset((list,))
_PLAIN_TYPES = frozenset((int, bool, type(None), list, str, float, dict))


def plain(obs: object, /) -> bool:
    """True when ``obs`` is a dict whose values are all of plain types (exact int,
    bool, None, list, str, float or dict), whose ``boards`` is a list of lists of
    lists and whose ``face_down_counts`` is a list of lists: nothing that
    ``ofc_fast.game.observation.plain_observation`` would turn into a plain value (a
    Game's observation, or JSON's; the rows' items are not looked at).  False sends
    the caller to its full reading.

    >>> plain({"boards": [[[1], [], []]], "face_down_counts": [[0, 0, 0]]})
    True
    >>> plain({"boards": [[(1,), [], []]], "face_down_counts": [[0, 0, 0]]})
    False
    """
    if type(obs) is not dict or not _PLAIN_TYPES.issuperset(map(type, obs.values())):
        return False
    boards = obs.get("boards")
    counts = obs.get("face_down_counts")
    if type(boards) is not list or type(counts) is not list:
        return False
    return _LIST_TYPE.issuperset(map(type, boards)) and _LIST_TYPE.issuperset(
        map(type, chain(counts, chain.from_iterable(boards)))
    )


def plain_seat(obs: object, most: int, /) -> int:
    """The observed seat of ``obs`` when :func:`plain` is True and its ``seat`` and
    ``players`` are ints (no bool) with 0 <= seat < players, 2 <= players <= ``most``
    and one board per player (``ofc_fast.bots.base.observed_seat``'s quick test); else
    -1, which sends the caller to ``plain_observation`` and ``observed_seat``.

    >>> obs = {"boards": [[[], [], []]] * 2, "face_down_counts": [], "players": 2}
    >>> plain_seat({**obs, "seat": 1}, 6), plain_seat({**obs, "seat": True}, 6)
    (1, -1)
    """
    if not plain(obs):
        return -1
    assert type(obs) is dict  # (plain: a dict)
    seat, players = obs.get("seat"), obs.get("players")
    if (
        type(seat) is int
        and type(players) is int
        and 0 <= seat < players <= most
        and players > 1
        and len(obs["boards"]) == players
    ):
        return seat
    return -1


def plain_copy(value: Any, /) -> Any:
    """A copy of plain JSON-like data (the rule set an observation carries): new dicts
    and lists (exact ones) all the way down, the other values as they are.

    >>> table = {"royalties": {"back": [0, 2]}, "name": "custom"}
    >>> copy = plain_copy(table)
    >>> copy == table, copy["royalties"]["back"] is table["royalties"]["back"]
    (True, False)
    """
    if type(value) is dict:
        return {k: plain_copy(v) for k, v in value.items()}
    if type(value) is list:
        return [plain_copy(v) for v in value]
    return value


def rank5(cards: object, /) -> int:
    """The strength of 5 distinct int card ids (a list or tuple), else -1."""
    if distinct_ids(cards) and len(cards) == 5:  # type: ignore[arg-type]
        return int(lib.ofc_rank5_unchecked(*cards))  # type: ignore[misc]
    return -1


def rank3(cards: object, /) -> int:
    """The strength of 3 distinct int card ids (a list or tuple), else -1."""
    if distinct_ids(cards) and len(cards) == 3:  # type: ignore[arg-type]
        return int(lib.ofc_rank3_unchecked(*cards))  # type: ignore[misc]
    return -1


def _offsets() -> dict[str, int]:
    names = (
        "seat",
        "players",
        "button",
        "to_act",
        "is_over",
        "street",
        "fl",
        "board",
        "count",
        "face_down_count",
        "discard_count",
        "discards",
        "n",
        "k",
        "full",
        "face_down",
        "future_cards",
        "future_discards",
        "dealt",
    )
    return {name: ffi.offsetof("ofc_observation", name) for name in names}


_OFF = _offsets()
_NO_SEAT = 255
_ROOM = (lib.OFC_FRONT_CARDS, lib.OFC_MIDDLE_CARDS, lib.OFC_BACK_CARDS)


def read_record(
    raw: bytes, base: dict[str, Any], legal: Sequence[int] | None
) -> dict[str, Any]:
    """The observation dict of the bytes of an ``ofc_observation``: a copy of
    ``base`` (the keys in order and the per-deal constants: players, button, rules,
    game, lowball) with every other key read from ``raw``; ``legal`` the legal action
    ids (None: not the observer's normal decision).  The one reader of the record in
    Python (``_speedups.observe`` is its twin in C)."""
    o = _OFF
    players = raw[o["players"]]
    seats = range(players)
    board, count, hidden = o["board"], o["count"], o["face_down_count"]
    boards = []
    for s in seats:
        b, c = board + 13 * s, count + 3 * s
        boards.append(
            [
                list(raw[b : b + raw[c]]),
                list(raw[b + 3 : b + 3 + raw[c + 1]]),
                list(raw[b + 8 : b + 8 + raw[c + 2]]),
            ]
        )
    seat = raw[o["seat"]]
    to_act = raw[o["to_act"]]
    n = raw[o["n"]]
    obs = dict(base)
    obs.update(
        {
            "seat": seat,
            "to_act": None if to_act == _NO_SEAT else to_act,
            "is_over": bool(raw[o["is_over"]]),
            "street": raw[o["street"]],
            "fantasyland": list(raw[o["fl"] : o["fl"] + players]),
            "boards": boards,
            "face_down_counts": [
                list(raw[hidden + 3 * s : hidden + 3 * s + 3]) for s in seats
            ],
            "discards": list(
                raw[o["discards"] : o["discards"] + raw[o["discard_count"] + seat]]
            ),
            "discard_counts": list(raw[o["discard_count"] : o["discard_count"] + players]),
            "dealt": list(raw[o["dealt"] : o["dealt"] + n]),
            "to_discard": raw[o["k"]],
            "future_cards": raw[o["future_cards"]],
            "future_discards": raw[o["future_discards"]],
            "legal_actions": None if legal is None else list(legal),
            "full_set": bool(raw[o["full"]]),
            "face_down": bool(raw[o["face_down"]]),
        }
    )
    return obs


def _legal(n: int, k: int, count: Sequence[int]) -> list[int]:
    """The legal action ids of ``n`` cards, ``k`` discarded, onto rows holding
    ``count`` cards (``ofc_actions_legal``)."""
    room = [size - c for size, c in zip(_ROOM, count)]
    if not 1 <= n <= 5 or not 0 <= k < n or min(room) < 0:
        raise ValueError("not a normal decision")
    out = ffi.new("uint8_t[]", lib.OFC_ACTION_SPACE)
    got = lib.ofc_actions_legal(n, k, room, out, ffi.NULL)
    if got < 0:
        raise ValueError("not a normal decision")
    return list(out[0:got])


def _game(buf: object) -> Any:
    """The ``ofc_game *`` held by a bytearray (TypeError for anything else)."""
    if type(buf) is not bytearray or len(buf) != ffi.sizeof("ofc_game"):
        raise TypeError("expected the bytearray of an ofc_game")
    return ffi.from_buffer("ofc_game *", buf)


def observe(game: bytearray, seat: int, template: dict[str, Any], /) -> dict[str, Any]:
    """A seat's observation of the ``ofc_game`` held by ``game`` (one call of
    ``ofc_game_observe``), as a copy of ``template`` filled in."""
    if type(template) is not dict:
        raise TypeError("observe(): the template must be a dict")
    g = _game(game)
    if not 0 <= seat < g.players:
        raise ValueError("observe(): not a seat of the game")
    o = ffi.new("ofc_observation *")
    if lib.ofc_game_observe(g, seat, o) != 0:
        raise ValueError("observe(): the engine refused")
    own_turn = not o.is_over and o.to_act == seat and not o.full
    legal = _legal(o.n, o.k, o.count[seat]) if own_turn else None
    return read_record(bytes(ffi.buffer(o)), template, legal)


def legal_actions(game: bytearray, /) -> list[int] | None:
    """The legal action ids of the pending normal decision of the ``ofc_game`` held
    by ``game`` (None when the deal is over or the decision is a full set)."""
    g = _game(game)
    if g.step >= g.nsteps or g.steps[g.step].full:
        return None
    s = g.steps[g.step]
    return _legal(s.n, s.k, g.count[s.seat])


def place(game: bytearray, dest: tuple[int, ...], /, *booked_move: Any) -> int:
    """``place(game, dest[, booked, move])``: ``ofc_game_apply_placement`` on the
    ``ofc_game`` held by ``game``: the engine's status (the state is unchanged on
    error); an accepted placement appends ``move`` to the list ``booked`` (None: no
    booking).  ``booked`` and ``move`` come together: 2 or 4 arguments, as the
    builtin (which does both in one C call; here a Ctrl-C may still land between the
    two)."""
    if len(booked_move) not in (0, 2):
        n = 2 + len(booked_move)
        raise TypeError(f"place() takes 2 or 4 arguments ({n} given)")
    booked, move = booked_move or (None, None)
    _check_booked(booked)
    if type(dest) is not tuple or len(dest) > lib.OFC_GAME_MAX_DEALT:
        raise TypeError("place(): dest must be a tuple of at most 17 ints")
    if not all(type(d) is int and 0 <= d <= 255 for d in dest):
        raise ValueError("place(): a destination outside 0..255")
    status = int(lib.ofc_game_apply_placement(_game(game), bytes(dest), len(dest)))
    if status == 0 and booked is not None:
        booked.append(move)
    return status


def act(game: bytearray, action: int, booked: Booked = None, /) -> int:
    """``ofc_game_apply_action`` on the ``ofc_game`` held by ``game``: the engine's
    status (the state is unchanged on error); an accepted action is appended to the
    list ``booked`` (None: no booking; as :func:`place`)."""
    _check_booked(booked)
    if type(action) is not int or not 0 <= action < lib.OFC_ACTION_SPACE:
        raise ValueError("act(): an action id outside the action space")
    status = int(lib.ofc_game_apply_action(_game(game), action))
    if status == 0 and booked is not None:
        booked.append(action)
    return status


def _check_booked(booked: object) -> None:
    """TypeError unless ``booked`` is None or a list (as the builtins)."""
    if booked is not None and type(booked) is not list:
        raise TypeError("booked must be a list or None")


def moves(
    cls: type[Any], cards: Sequence[int], table: Sequence[Any], actions: Sequence[int], /
) -> list[Any] | None:
    """For each action id ``a``, a new ``cls`` (a tuple subclass) holding ``(cards,
    table[a], None, False)``; None when an id is not an int with a tuple at
    ``table[a]`` (the caller then names the bad id)."""
    if (
        not isinstance(cls, type)
        or not issubclass(cls, tuple)
        or type(cards) is not tuple
        or type(table) is not tuple
    ):
        raise TypeError("moves(): expected a tuple type and two tuples")
    if type(actions) is not list and type(actions) is not tuple:
        return None
    size = len(table)
    for a in actions:
        if type(a) is not int or not 0 <= a < size or type(table[a]) is not tuple:
            return None
    new = tuple.__new__
    return [new(cls, (cards, table[a], None, False)) for a in actions]


def rules_handle(rules: Any, /) -> Any:
    """What :func:`score_pair` takes for a C ``ofc_rules *``: the pointer itself."""
    return rules


# ofc_pair_detail as bytes: the score (net, rows[3], sweep, row_points, bonus,
# royalty difference), then per board strengths[3], royalties[3], foul, a pad byte.
_DETAIL = struct.Struct("=i3bbiii3H3hBx3H3hBx")


def score_pair(
    cls: type[_T], a: tuple[int, ...], b: tuple[int, ...], rules: Any, /
) -> _T | None:
    """Board ``a`` against board ``b`` (13 card ids each, row order) under ``rules``
    (from :func:`rules_handle`), in one call of ``ofc_score_boards_detail``, which
    checks the 26 cards: a new ``cls`` (``PairScore``) holding the fields, set as
    ``object.__setattr__`` would (no ``__init__``); None when a board is not 13 ints
    or the scorer refused the boards (the caller then names what is wrong)."""
    if not isinstance(cls, type):
        raise TypeError("score_pair(): expected a class")
    if not all(type(x) is tuple and len(x) == 13 for x in (a, b)):
        return None
    if set(map(type, (*a, *b))) != {int} or not 0 <= min(*a, *b) <= max(*a, *b) <= 255:
        return None
    cards = bytes((*a, *b))
    d = ffi.new("ofc_pair_detail *")
    if lib.ofc_score_boards_detail(rules, cards, d):
        return None
    v = _DETAIL.unpack(ffi.buffer(d))
    p: _T = _new(cls)
    _set(
        p,
        "__dict__",
        {
            "net": v[0],
            "rows": v[1:4],
            "sweep": v[4],
            "row_points": v[5],
            "bonus": v[6],
            "royalties": (v[11:14], v[18:21]),
            "fouls": (v[14] == 1, v[21] == 1),
        },
    )
    return p


_new = object.__new__
_set = object.__setattr__
