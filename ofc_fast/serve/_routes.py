"""The stateless endpoints: each takes the request's JSON body and returns the answer's
JSON, calling the same functions as the Python API (:func:`ofc_fast.advise`,
:func:`ofc_fast.solve_fantasyland`, :func:`ofc_fast.best_setting`,
:func:`ofc_fast.settle`, ...), so that the same inputs and seeds give the same answers.

>>> out = score({"boards": ["Qh Qd 2c / 9s 9h 9d 5c 5d / As Ks Qs Js Ts",
...                         "2h 3d 4c / 6s 6h 7d 7c 8d / Ah Ad Kh Kd 8c"],
...              "rules": "pineapple"})
>>> out["net"], out["pairs"][0]["seats"], out["pairs"][0]["rows"]
([50, -50], [1, 0], [-1, -1, -1])
"""

from __future__ import annotations

import threading
import time
from collections.abc import Mapping
from typing import Any

from .. import rules as rules_mod
from ..board import Board
from ..cards import card_str, cards_str, parse_cards
from ..errors import OfcError, SearchError
from ..fantasyland import fantasyland_cards
from ..game import ACTION_SPACE, Move
from ..ranking import category, describe, rank
from ..rules import observation_rules
from ..scoring.settlement import settle
from ..search import Advice, advise, exact_stopped_advice, make_observation, rows_of
from ..solver import Solution, best_setting, solution_dict, solve_fantasyland
from ..table import check_players, check_stacks
from ._config import ServeConfig
from ._fields import (
    CARD,
    INTEGER,
    check_items,
    get_bool,
    get_int,
    get_list,
    get_number,
    get_obj,
    get_str,
    kind,
    sized,
)
from ._problems import ApiError, at_field, refusal
from ._sizes import RANGES, SIZES, Ranges

__all__ = [
    "ROWS",
    "advice_json",
    "analyze",
    "arrange",
    "evaluate",
    "fantasyland",
    "get_game_rules",
    "get_rules",
    "move_json",
    "observation_from_json",
    "score",
]

ROWS = ("front", "middle", "back")
_DEFAULT = ServeConfig()
_CARD_FIELDS = ("dealt", "discards")
_BOARD_TEXT_IS = (
    f"a board is 'front / middle / back' text of at most {SIZES.board_text} characters"
)


def get_rules(
    body: Mapping[str, Any], default: str = "pineapple", prefix: str = ""
) -> rules_mod.RuleSet:
    """The ``rules`` field: a preset name (``ofc-fast rules`` lists them); ``prefix``:
    the object holding it (``observation``), for the field's name in an error."""
    name = get_str(body, "rules", default, max_len=SIZES.rules_text, prefix=prefix)
    with at_field(f"{prefix}.rules" if prefix else "rules"):
        return rules_mod.get(name)


def get_game_rules(body: Mapping[str, Any], what: str) -> rules_mod.RuleSet:
    """The ``rules`` field (:func:`get_rules`) where a game is played or searched: an
    OFC or Pineapple rule set, else 422 naming ``rules`` (``what``: what needs one).

    >>> get_game_rules({"rules": "classic-1-6"}, "games")
    Traceback (most recent call last):
    ...
    ofc_fast.serve._problems.ApiError: games are OFC or Pineapple; CLASSIC_1_6 is not
    """
    return _game_rules(get_rules(body), "rules", what)


def _game_rules(rules: rules_mod.RuleSet, field: str, what: str) -> rules_mod.RuleSet:
    """``rules`` where a game is played or searched (:func:`get_game_rules`): an OFC or
    Pineapple rule set, else 422 naming ``field``, the request field that gave it
    (``rules``, ``observation.rules``, ``observation.rule_set``).

    >>> _game_rules(rules_mod.get("malayan"), "observation.rules", "analyses")
    Traceback (most recent call last):
    ...
    ofc_fast.serve._problems.ApiError: analyses are OFC or Pineapple; MALAYAN is not
    """
    if rules.game.value not in ("ofc", "pineapple"):
        raise ApiError(422, field, f"{what} are OFC or Pineapple; {rules.name} is not")
    return rules


def move_json(move: Move) -> dict[str, Any]:
    """A move as ``/v1/games/{id}/moves`` takes it: ``{"place": [["As", "front"], ...],
    "discard": ["2c"]}`` (cards as text, rows by name).

    >>> move_json(Move([("As", "front"), ("Kd", "back")], "2c"))
    {'place': [['As', 'front'], ['Kd', 'back']], 'discard': ['2c']}
    """
    return {
        "place": [[card_str(c), ROWS[int(r)]] for c, r in move.placements],
        "discard": [card_str(c) for c in move.discards],
    }


def advice_json(a: Advice) -> dict[str, Any]:
    """One analysed move."""
    return {
        "move": move_json(a.move),
        "text": str(a.move),
        "action": a.action,
        "ev": a.ev,
        "stderr": a.stderr,
        "exact": a.exact,
        "samples": a.samples,
        "foul": a.foul,
        "fantasyland": a.fantasyland,
        "royalties": a.royalties,
        "source": a.source,
    }


def _ids(value: Any, field: str) -> list[int]:
    """Card ids from ids or card text (one card per item, or one text of cards)."""
    if isinstance(value, str):
        with at_field(field):
            return parse_cards(value)
    sized(value, field, SIZES.cards, list, "card text or an array of cards (ids or text)")
    check_items(value, field, CARD)
    out = []
    for i, c in enumerate(value):
        if isinstance(c, str):
            with at_field(f"{field}[{i}]"):
                out.extend(parse_cards(c))
        else:
            out.append(c)  # ids: checked by advise, naming the field
    return out


_ABSENT: Any = object()
_OBS = "observation"
_OBS_INTS = ("players", "seat", "to_discard", "future_cards", "future_discards")
_PER_SEAT = RANGES.players[1]  # boards, fantasyland, face_down_counts: one per seat
_SETTINGS = ("exact", "samples", "seed", "time_budget")  # analyze's, as advise's
_TEXT_FIELDS = ("board", "dealt", "opponents", "dead")  # a position, as ofc-fast advise's
_WHOLE = _TEXT_FIELDS[:3]  # those of the position as a whole (a part of none at fault)


def observation_from_json(obs: dict[str, Any]) -> dict[str, Any]:
    """An observation as JSON (what ``Game.observation(seat)`` returns, cards as ids or
    text) with every card as an id; each field the search reads that is present must
    be of its JSON type, else a 400 naming its path (``observation.boards[1]``); the
    search checks the values."""
    for key in _OBS_INTS:
        get_int(obs, key, _ABSENT, prefix=_OBS)
    get_bool(obs, "full_set", None, prefix=_OBS)
    get_list(obs, "fantasyland", None, _PER_SEAT, _OBS, INTEGER)
    counts = get_list(obs, "face_down_counts", (), _PER_SEAT, _OBS, (list, "an array"))
    for p, seat in enumerate(counts):  # a count per row
        check_items(seat, f"{_OBS}.face_down_counts[{p}]", INTEGER)
    get_list(obs, "legal_actions", None, ACTION_SPACE, _OBS, INTEGER)
    out = dict(obs)
    for key in _CARD_FIELDS:
        if key in out:
            out[key] = _ids(out[key], f"{_OBS}.{key}")
    boards = get_list(obs, "boards", _ABSENT, _PER_SEAT, _OBS, (list, "an array"))
    if boards is not _ABSENT:
        conv = []
        for p, b in enumerate(boards):
            path = f"{_OBS}.boards[{p}]"
            if len(b) != len(ROWS):
                raise ApiError(400, path, f"{path} must be 3 rows, got {len(b)}")
            conv.append([_ids(row, f"{path}[{r}]") for r, row in enumerate(b)])
        out["boards"] = conv
    return out


def _text_observation(
    body: Mapping[str, Any], rules: rules_mod.RuleSet, sent: tuple[str, ...]
) -> dict[str, Any]:
    board = get_str(body, "board", "/ /", max_len=SIZES.board_text)
    dealt = get_str(body, "dealt", max_len=SIZES.dealt_text)
    opponents = get_list(body, "opponents", ["/ /"], SIZES.opponents)
    for i, o in enumerate(opponents):
        if not isinstance(o, str) or len(o) > SIZES.board_text:
            raise ApiError(400, f"opponents[{i}]", _BOARD_TEXT_IS)
    dead = get_str(body, "dead", "", max_len=SIZES.dead_text)
    # each text parsed under its own name, so that a bad card names its field
    with at_field("board"):
        own = rows_of(board)
    others = []
    for i, o in enumerate(opponents):
        with at_field(f"opponents[{i}]"):
            others.append(rows_of(o))
    with at_field("dealt"):
        cards = parse_cards(dealt)
    if not cards:
        raise ApiError(422, "dealt", "dealt: give the cards dealt to the seat to act")
    with at_field("opponents"):  # the table: the seat to act and each opponent
        check_players(len(others) + 1, rules, "players (you and the opponents)")
    with at_field("dead"):
        out = parse_cards(dead)
    with at_field(sent[0], text=sent):  # the part it names, else the whole position
        return dict(make_observation(rules, own, cards, others, out))  # (the body's type)


def analyze(
    body: dict[str, Any],
    config: ServeConfig = _DEFAULT,
    stop: threading.Event | None = None,
) -> dict[str, Any]:
    """``POST /v1/analyze``: every legal move of the seat to act, best first.

    Body: ``observation`` (JSON of ``Game.observation(seat)``) or the text form
    (``board``, ``dealt``, ``opponents`` (default: one opponent with an empty board),
    ``dead``, as ``ofc-fast advise``), not both; ``rules`` (default: the observation's
    ``rule_set`` or ``rules``, else pineapple), ``time_budget``, ``samples``,
    ``seed``, ``exact`` (``true`` takes no ``samples`` nor ``seed``: 422 naming it);
    without ``samples`` or ``time_budget``, 256 samples (at most
    ``config.max_samples``).  The search stops at ``config.max_time_budget`` whatever
    ``samples`` asks (``time_budget`` defaults to that cap), and once ``stop`` is set
    (its client gone): after the batch of samples it is sampling."""
    ranges = Ranges.of(config)
    budget = get_number(body, "time_budget", config.max_time_budget, *ranges.time_budget)
    exact = body.get("exact", "auto")
    if exact != "auto" and not isinstance(exact, bool):
        raise ApiError(
            400, "exact", f"exact must be 'auto', true or false, got {kind(exact)}"
        )
    samples = get_int(body, "samples", None, *ranges.samples)
    if samples is None and exact is not True and "time_budget" not in body:
        samples = min(256, config.max_samples)
    seed = get_int(body, "seed", None, *RANGES.seed)  # (none with exact: advise's)
    obs_in = get_obj(body, "observation", None)
    sent: tuple[str, ...]
    if obs_in is not None:
        for key in _TEXT_FIELDS:  # (were ignored, silently)
            if key in body:
                raise ApiError(
                    422,
                    key,
                    f"{key}: the position is given as an observation; give it as an "
                    f"observation or as text ({', '.join(_TEXT_FIELDS)}), not both",
                )
        obs = observation_from_json(obs_in)
        if "rules" in body:
            rules, rules_field = get_rules(body), "rules"
        elif obs.get("rule_set") is not None:
            rules_field = "observation.rule_set"  # a game of rules that are no preset
            with at_field(rules_field):
                rules = observation_rules(obs)
        else:
            rules_field = "observation.rules"
            rules = get_rules(obs, prefix="observation")
        _game_rules(rules, rules_field, "analyses")  # (the field that gave them named)
        where, sent = "observation", ()
    else:  # the text form: sent, the fields of the whole position given
        rules, rules_field = get_game_rules(body, "analyses"), "rules"
        sent = tuple(key for key in _WHOLE if key in body)  # dealt, at least
        obs = _text_observation(body, rules, sent)
        where = sent[0]
    named = {**{name: name for name in _SETTINGS}, "rules": rules_field}
    t0 = time.perf_counter()
    try:
        advice = advise(
            obs,
            rules=rules,
            samples=samples,
            time_budget=budget,
            seed=seed,
            exact=exact,
            should_stop=None if stop is None else stop.is_set,
        )
    except SearchError as exc:  # named so whatever its subclass (ObservationError)
        if exact is True:  # what a client can do, not a Python caller (advise's words)
            exc = SearchError(
                str(exc).replace(
                    exact_stopped_advice(), _stopped_advice(budget, config.max_time_budget)
                )
            )
        said = str(exc).split(":", 1)[0]  # a setting (exact: ..., seed: ...), rules
        field = named.get(said, where)
        whole = field == where  # the position: the part of it the error names
        raise refusal(
            exc,
            field,
            nested=whole and obs_in is not None,
            error="SearchError",
            text=sent if whole and obs_in is None else (),
        ) from None
    except OfcError as exc:  # the part of a position at fault: observation.dealt, dealt
        raise refusal(exc, where, nested=obs_in is not None, text=sent) from None
    except (KeyError, TypeError, ValueError) as exc:  # a shape advise does not read
        raise ApiError(400, where, f"malformed {where}: {str(exc)[:200]}") from None
    return {
        "rules": rules.name,
        "seat": int(obs["seat"]),
        "moves": [advice_json(a) for a in advice],
        "exact": bool(advice) and advice[0].exact,
        "samples": max((a.samples for a in advice), default=0),
        "time_budget": budget,
        "seed": 0 if seed is None else seed,
        "seconds": time.perf_counter() - t0,
    }


def _stopped_advice(budget: float, cap: float) -> str:
    """What a client can do about an exact search stopped at its ``time_budget``
    (``budget``), the server allowing at most ``cap`` seconds: a larger one up to the
    cap, or (at the cap) exact "auto" or false."""
    larger = (
        f"give a larger time_budget, at most this server's {cap:g} s, or "
        if budget < cap
        else f"this server's time_budget is at most {cap:g} s (the default): "
    )
    return exact_stopped_advice(larger, "true", '"auto"')


def _solution_json(s: Solution) -> dict[str, Any]:
    return {
        **solution_dict(s),
        "rows": [cards_str(r) for r in s.board.rows],
        "discards": [card_str(c) for c in s.discards],
    }


def _cards(body: Mapping[str, Any], low: int, high: int) -> list[int]:
    value = body.get("cards")
    if value is None:
        raise ApiError(400, "cards", "cards is required")
    ids = _ids(value, "cards")
    if not low <= len(ids) <= high:
        want = f"{low}" if low == high else f"{low} to {high}"
        raise ApiError(422, "cards", f"cards: {want} cards needed, got {len(ids)}")
    return ids


def fantasyland(body: dict[str, Any], config: ServeConfig = _DEFAULT) -> dict[str, Any]:
    """``POST /v1/fantasyland``: the best setting of 13 to 17 cards (exact), its value,
    whether it stays, and the best setting that stays / does not, under ``rules`` with
    Fantasyland (422 naming ``rules`` otherwise: no hand of theirs is one)."""
    rules = get_rules(body)
    if rules.fantasyland is None:
        raise ApiError(
            422,
            "rules",
            f"{rules.name} has no Fantasyland (POST /v1/arrange sets 13 cards under it)",
        )
    ids = _cards(body, 13, 17)
    alternatives = get_bool(body, "alternatives", True)
    with at_field("cards"):
        s = solve_fantasyland(ids, rules, alternatives=alternatives)
    return {
        "rules": rules.name,
        "best": _solution_json(s),
        "stay": _solution_json(s.best_stay) if s.best_stay else None,
        "no_stay": _solution_json(s.best_no_stay) if s.best_no_stay else None,
        "seconds": s.seconds,
    }


def arrange(body: dict[str, Any], config: ServeConfig = _DEFAULT) -> dict[str, Any]:
    """``POST /v1/arrange``: the best of the 72,072 settings of 13 cards
    (``objective``: ``ev`` or ``royalties``)."""
    rules = get_rules(body, "classic-1-6")
    ids = _cards(body, 13, 13)
    objective = get_str(body, "objective", "ev", max_len=SIZES.objective_text)
    with at_field("objective" if objective not in ("ev", "royalties") else "cards"):
        s = best_setting(ids, rules, objective)
    return {
        "rules": rules.name,
        "objective": objective,
        "best": _solution_json(s),
        "naturals": [n.name for n in s.naturals],
        "seconds": s.seconds,
    }


def _boards(body: Mapping[str, Any], low: int) -> list[Board]:
    items = get_list(body, "boards", max_len=SIZES.boards)
    if len(items) < low:
        raise ApiError(
            422, "boards", f"boards: at least {low} boards needed, got {len(items)}"
        )
    out = []
    for i, b in enumerate(items):
        if not isinstance(b, str) or len(b) > SIZES.board_text:
            raise ApiError(400, f"boards[{i}]", _BOARD_TEXT_IS)
        with at_field(f"boards[{i}]"):
            out.append(Board.parse(b))
    return out


def score(body: dict[str, Any], config: ServeConfig = _DEFAULT) -> dict[str, Any]:
    """``POST /v1/score``: two to four complete boards settled as a table (pair
    scores of every pair, nets, royalties, fouls, Fantasyland), ``button`` and
    ``stacks`` optional."""
    rules = get_rules(body)
    boards = _boards(body, 2)
    button = get_int(body, "button", 0, RANGES.button[0], len(boards) - 1)
    stacks = get_list(body, "stacks", None, SIZES.stacks, items=INTEGER)
    with at_field("stacks"):  # named here: settle's own check would name the boards
        check_stacks(stacks, len(boards))
    with at_field("boards"):
        result = settle(boards, rules, button=button, stacks=stacks)
        evals = [b.evaluate(rules) for b in boards]
        fl = [
            fantasyland_cards(b, rules) if rules.fantasyland is not None else 0
            for b in boards
        ]
    return {
        "rules": rules.name,
        "boards": [str(b) for b in boards],
        "fouls": [e.foul for e in evals],
        "royalties": [list(e.royalties) for e in evals],
        "fantasyland": fl,
        "net": list(result.net),
        "stacks": None if result.stacks is None else list(result.stacks),
        "pairs": [
            {"seats": list(p), "net": s.net, "rows": list(s.rows), "sweep": s.sweep}
            for p, s in result.pairs
        ],
    }


def _check_hand_text(value: Any, field: str) -> None:
    """400 when a hand (text, or a list of card texts and ids) holds more than
    ``SIZES.hand_text`` characters of card text: five cards never need more, and
    ``evaluate`` parses on the event loop.

    >>> _check_hand_text(["10s", "10h", 3, "Kd Qd"], "hands[0]")
    >>> _check_hand_text("As " * 100, "hands[0]")
    Traceback (most recent call last):
    ...
    ofc_fast.serve._problems.ApiError: hands[0] has 300 characters of cards, at most 64
    """
    items = value if isinstance(value, list) else [value]
    size = sum(len(c) for c in items if isinstance(c, str))
    if size > SIZES.hand_text:
        raise ApiError(
            400, field, f"{field} has {size} characters of cards, at most {SIZES.hand_text}"
        )


def evaluate(body: dict[str, Any], config: ServeConfig = _DEFAULT) -> dict[str, Any]:
    """``POST /v1/evaluate``: ``hands`` (3- or 5-card hands: strength, category,
    description, always as high hands: a hand alone is no row, and only a 2-7 middle
    ranks low) and / or ``boards`` (complete boards: rows, royalties, foul,
    Fantasyland) under ``rules`` (rows and strengths: each row's high hand)."""
    rules = get_rules(body)
    hands = get_list(body, "hands", [], SIZES.hands)
    out_hands = []
    for i, h in enumerate(hands):
        _check_hand_text(h, f"hands[{i}]")
        ids = _ids(h, f"hands[{i}]")
        with at_field(f"hands[{i}]"):
            s = rank(ids)
        out_hands.append(
            {
                "cards": cards_str(ids),
                "strength": s,
                "category": category(s).name,
                "description": describe(s),
            }
        )
    out_boards = []
    for i, b in enumerate(_boards(body, 0) if "boards" in body else []):
        with at_field(f"boards[{i}]"):
            e = b.evaluate(rules)
            fl = fantasyland_cards(b, rules) if rules.fantasyland is not None else 0
        out_boards.append(
            {
                "board": str(b),
                "rows": [describe(s) for s in e.strengths],
                "strengths": list(e.strengths),
                "royalties": list(e.royalties),
                "foul": e.foul,
                "fantasyland": fl,
            }
        )
    if not hands and not out_boards:
        raise ApiError(422, "hands", "give hands and / or boards to evaluate")
    return {"rules": rules.name, "hands": out_hands, "boards": out_boards}
