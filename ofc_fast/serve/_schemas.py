"""The OpenAPI 3.1 document of the API (``GET /openapi.json``): every request body and
every response, problem details included, as JSON Schema (the tests validate every
response the server gives against it).

>>> doc = openapi()
>>> doc["openapi"], sorted(doc["paths"])[:3]
('3.1.0', ['/v1/analyze', '/v1/arrange', '/v1/evaluate'])
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from ..arena.history import load_schema
from ..table import FANTASYLAND_CARDS
from ._config import ServeConfig
from ._idempotency import HEADER, MAX_KEY, RUNNING_RETRY
from ._limits import IDENTITY
from ._sizes import RANGES, SIZES, Ranges

__all__ = ["OPERATIONS", "Operation", "openapi", "request_fields"]

_NUM = {"type": "number"}
_INT = {"type": "integer"}
_STR = {"type": "string"}
GAME_ID = "[A-Za-z0-9_-]{1,64}"
"""A game id as the router takes it in ``/v1/games/{id}`` (a server-made id is
``secrets.token_urlsafe(12)``); anything else is a 404."""
_BOOL = {"type": "boolean"}


def _ref(name: str) -> dict[str, Any]:
    return {"$ref": f"#/components/schemas/{name}"}


def _within(
    bounds: tuple[float, float], kind: str = "integer", **extra: Any
) -> dict[str, Any]:
    """A number field of ``kind`` within ``bounds`` (a :class:`Ranges` field)."""
    return {"type": kind, "minimum": bounds[0], "maximum": bounds[1], **extra}


def _arr(items: dict[str, Any], **extra: Any) -> dict[str, Any]:
    return {"type": "array", "items": items, **extra}


def _obj(props: dict[str, Any], required: tuple[str, ...] | None = None) -> dict[str, Any]:
    """An object; by default every property is required (responses)."""
    req = list(props) if required is None else list(required)
    return {"type": "object", "properties": props, "required": req}


_NULL = {"type": "null"}


def _nullable(prop: dict[str, Any]) -> dict[str, Any]:
    """``prop`` that null matches too.

    >>> _nullable(_INT), _nullable({"enum": ["ev"]})
    ({'type': ['integer', 'null']}, {'enum': ['ev', None]})
    """
    if "oneOf" in prop:
        return {**prop, "oneOf": [*prop["oneOf"], _NULL]}
    if isinstance(prop.get("type"), str):
        return {**prop, "type": [prop["type"], "null"]}
    if "enum" in prop:
        return {**prop, "enum": [*prop["enum"], None]}
    return {"oneOf": [prop, _NULL]}


def _request(props: dict[str, Any], required: tuple[str, ...] = ()) -> dict[str, Any]:
    """A request body: an object of these properties and no other (the server refuses
    any other field, 422 naming it: :func:`request_fields`); an optional one may be
    null, which is absent, its default used (a required one null: 400, as missing),
    as the server reads a body (:func:`~ofc_fast.serve._fields.given`)."""
    nullable = {k: v if k in required else _nullable(v) for k, v in props.items()}
    return {**_obj(nullable, required), "additionalProperties": False}


_CARD = {"oneOf": [_STR, _within(RANGES.card)]}
_CARD_LIST = _arr(_CARD, maxItems=SIZES.cards)
_CARDS = {
    "description": "cards as text ('As Kd 7c') or a list of card texts or ids 0..51",
    "oneOf": [_STR, _CARD_LIST],
}
_HAND = {
    "description": "a hand as text ('As Kd 7c') or a list of card texts or ids "
    f"0..51, at most {SIZES.hand_text} characters of card text in all",
    "oneOf": [{"type": "string", "maxLength": SIZES.hand_text}, _CARD_LIST],
}
_BOARD = {"type": "string", "maxLength": SIZES.board_text}
_BOARDS = _arr(_BOARD, maxItems=SIZES.boards)
_ROWS3 = _arr(_STR, minItems=3, maxItems=3)
_SOLUTION = _obj(
    {
        "board": _STR,
        "rows": _ROWS3,
        "discards": _arr(_STR),
        "royalties": _INT,
        "row_royalties": _arr(_INT, minItems=3, maxItems=3),
        "fouled": _BOOL,
        "stays": _BOOL,
        "next_cards": _INT,
        "value": _NUM,
    }
)
_SHOWDOWN = {  # a deal's outcome per seat (Result.summary) and its boards' rows
    "net": _arr(_INT),
    "fouls": _arr(_BOOL),
    "royalties": _arr(_arr(_INT, minItems=3, maxItems=3)),
    "fantasyland": _arr(_INT),
    "boards": _arr(_ROWS3),
}
_RULES = {
    "type": "string",
    "maxLength": SIZES.rules_text,
    "description": "a preset name (ofc-fast rules lists them)",
}
_NULLABLE_INT = _nullable(_INT)


def _hand_history() -> dict[str, Any]:
    """The schema of a hand-history line (``ofc_fast/arena/hand_history.schema.json``),
    a component of the document: without its ``$schema`` and ``$id`` (the document's
    dialect and base are its own)."""
    return {k: v for k, v in load_schema().items() if not k.startswith("$")}


def _analyze_request(ranges: Ranges) -> dict[str, Any]:
    """``AnalyzeRequest`` of a server of these ``ranges`` (its ``--max-samples`` and
    ``--max-time-budget``: :meth:`Ranges.of`)."""
    return _request(
        {
            "observation": {
                "type": "object",
                "description": "Game.observation(seat); or the text form (board, dealt, "
                "opponents, dead), not both",
            },
            "board": _BOARD,
            "dealt": {"type": "string", "maxLength": SIZES.dealt_text},
            "opponents": _arr(_BOARD, maxItems=SIZES.opponents),
            "dead": {"type": "string", "maxLength": SIZES.dead_text},
            "rules": _RULES,
            "time_budget": _within(ranges.time_budget, "number"),
            "samples": _within(ranges.samples),
            "seed": _within(ranges.seed),
            "exact": {"oneOf": [_BOOL, {"const": "auto"}]},
        },
    )


SCHEMAS: dict[str, Any] = {
    "Problem": {
        "type": "object",
        "description": "RFC 9457 problem details, with the field at fault and the "
        "OfcError class that refused the input",
        "properties": {
            "type": {
                "type": "string",
                "description": "the problem type: the full path of its page on "
                "this server (/problems/<slug>; under the server's --root-path), "
                "one string from every request",
            },
            "title": _STR,
            "status": _INT,
            "detail": _STR,
            "instance": {
                "type": "string",
                "description": "the path of the request, a reference relative to "
                "its URL (../v1/score from /v1/score)",
            },
            "field": _STR,
            "error": _STR,
        },
        "required": ["type", "title", "status", "detail"],
    },
    "Move": {
        "type": "object",
        "description": "cards placed (text or id) with their rows, and the discards",
        "properties": {
            "place": _arr(
                {
                    "type": "array",
                    "prefixItems": [_CARD, {"oneOf": [_STR, _within(RANGES.row)]}],
                    "minItems": 2,
                    "maxItems": 2,
                },
                maxItems=SIZES.cards,
            ),
            "discard": _nullable(_CARD_LIST),  # (null: absent, as in a request)
            "declare": _nullable(
                {
                    **_STR,
                    "maxLength": SIZES.declare_text,
                    "description": "a natural declared instead of setting",
                }
            ),
            "surrender": _nullable({**_BOOL, "description": "surrender the hand"}),
        },
        "required": ["place"],
        "additionalProperties": False,  # (any other: 422, as the service refuses it)
    },
    "AnalyzeRequest": _analyze_request(RANGES),
    "AnalyzedMove": _obj(
        {
            "move": _ref("Move"),
            "text": _STR,
            "action": _INT,
            "ev": _NUM,
            "stderr": _nullable(_NUM),  # (null, and the figures: a move valued by a
            "exact": _BOOL,  # learned model alone, no future sampled: source "model")
            "samples": _INT,
            "foul": _nullable({"type": "number", "minimum": 0, "maximum": 1}),
            "fantasyland": _nullable({"type": "number", "minimum": 0, "maximum": 1}),
            "royalties": _nullable({"type": "number", "minimum": 0}),
            "source": {
                "enum": ["exact", "rollouts", "model"],
                "description": "where ev comes from: exact expectimax, the mean of "
                "`samples` rollouts, or a learned value model alone (stderr, foul, "
                "fantasyland and royalties then null)",
            },
        }
    ),
    "AnalyzeResponse": _obj(
        {
            "rules": _STR,
            "seat": _INT,
            "moves": _arr(_ref("AnalyzedMove"), minItems=1),
            "exact": _BOOL,
            "samples": _INT,
            "time_budget": _NUM,
            "seed": _INT,
            "seconds": _NUM,
        }
    ),
    "FantasylandRequest": _request(
        {
            "cards": _CARDS,
            "rules": {
                **_RULES,
                "description": "a preset name with Fantasyland (ofc-fast rules lists "
                "them; a classic one has none: 422)",
            },
            "alternatives": _BOOL,
        },
        ("cards",),
    ),
    "ArrangeRequest": _request(
        {
            "cards": _CARDS,
            "rules": _RULES,
            "objective": {
                "enum": ["ev", "royalties"],
                "maxLength": SIZES.objective_text,
            },
        },
        ("cards",),
    ),
    "Solution": _SOLUTION,
    "FantasylandResponse": _obj(
        {
            "rules": _STR,
            "best": _ref("Solution"),
            "stay": {"oneOf": [_ref("Solution"), {"type": "null"}]},
            "no_stay": {"oneOf": [_ref("Solution"), {"type": "null"}]},
            "seconds": _NUM,
        }
    ),
    "ArrangeResponse": _obj(
        {
            "rules": _STR,
            "objective": _STR,
            "best": _ref("Solution"),
            "naturals": _arr(_STR),
            "seconds": _NUM,
        }
    ),
    "ScoreRequest": _request(
        {
            "boards": _BOARDS,
            "rules": _RULES,
            "button": _within(RANGES.button, description="a seat: below the boards' count"),
            "stacks": _arr(_within(RANGES.stacks), maxItems=SIZES.stacks),
        },
        ("boards",),
    ),
    "EvaluateRequest": _request(
        {
            "boards": _BOARDS,
            "hands": _arr(_HAND, maxItems=SIZES.hands),
            "rules": _RULES,
        }
    ),
    "ScoreResponse": _obj(
        {
            "rules": _STR,
            "boards": _arr(_STR),
            "fouls": _arr(_BOOL),
            "royalties": _arr(_arr(_INT)),
            "fantasyland": _arr(_INT),
            "net": _arr(_INT),
            "stacks": {"oneOf": [_arr(_INT), {"type": "null"}]},
            "pairs": _arr(
                _obj({"seats": _arr(_INT), "net": _INT, "rows": _arr(_INT), "sweep": _INT})
            ),
        }
    ),
    "EvaluateResponse": _obj(
        {
            "rules": _STR,
            "hands": _arr(
                _obj(
                    {"cards": _STR, "strength": _INT, "category": _STR, "description": _STR}
                )
            ),
            "boards": _arr(
                _obj(
                    {
                        "board": _STR,
                        "rows": _arr(_STR),
                        "strengths": _arr(_INT),
                        "royalties": _arr(_INT),
                        "foul": _BOOL,
                        "fantasyland": _INT,
                    }
                )
            ),
        }
    ),
    "GameCreate": _request(
        {
            "rules": {
                "type": "string",
                "maxLength": SIZES.rules_text,
                "description": "a preset (or its game id) whose game is OFC or Pineapple: "
                "pineapple, ofc, progressive_pineapple, ultimate_pineapple, "
                "pineapple_27 (default pineapple)",
            },
            "players": _within(
                RANGES.players,
                description="at most the rules' table (pineapple 3, ofc 4; default 2)",
            ),
            "you": _within(RANGES.you, description="your seat: below players (default 0)"),
            "bots": _arr(
                _STR,
                minItems=1,
                maxItems=SIZES.bots,
                description="the bots' names: one for every bot seat, or one per bot "
                "seat (players - 1 names; default ['heuristic'])",
            ),
            "seed": _within(RANGES.seed),
            "hands": _within(RANGES.hands),
            "fantasyland": _arr(
                {"enum": [0, *range(FANTASYLAND_CARDS[0], FANTASYLAND_CARDS[1] + 1)]},
                minItems=2,
                maxItems=SIZES.fantasyland,
                description="Fantasyland cards per seat in the first deal (0, or "
                "13..17; e.g. [14, 0]: you start in Fantasyland), one per seat "
                "(players); later deals carry it over",
            ),
        },
    ),
    "MoveRequest": {
        **_request(
            {
                "move": _ref("Move"),
                "action": _within(RANGES.action),
                "version": _within(
                    RANGES.version,
                    description="the game's version the move answers (GameState's): "
                    "the game at another is a 409 (optional)",
                ),
            }
        ),
        "oneOf": [  # one of them given, not null (null: absent)
            {"required": [name], "properties": {name: {"not": _NULL}}}
            for name in ("move", "action")
        ],
    },
    "GameState": _obj(
        {
            "id": _STR,
            "version": {
                "type": "integer",
                "description": "the moves and deals played on request, counted: a "
                "move may name the version it answers",
            },
            "rules": _STR,
            "players": _INT,
            "you": _INT,
            "seats": _arr(_STR),
            "hand_no": _INT,
            "your_turn": _BOOL,
            "is_over": _BOOL,
            "observation": {"type": "object"},
            "events": _arr(_obj({"seat": _INT, "move": _STR})),
            "match": _obj(
                {
                    "hands": _INT,
                    "max_hands": _NULLABLE_INT,
                    "totals": _arr(_INT),
                    "fantasyland": _arr(_INT),
                }
            ),
            "result": {
                **_obj(
                    {
                        **_SHOWDOWN,
                        "pairs": _arr(
                            _obj(
                                {
                                    "seats": _arr(_INT, minItems=2, maxItems=2),
                                    "net": _INT,
                                    "rows": _arr(_INT, minItems=3, maxItems=3),
                                    "sweep": _INT,
                                    "royalties": _arr(_INT, minItems=2, maxItems=2),
                                }
                            )
                        ),
                    }
                ),
                "description": "once the deal is over: each seat's net points, foul, "
                "royalties per row, Fantasyland cards next deal and board; each pair's "
                "rows and points",
            },
            "history": {
                **_nullable(_ref("HandHistory")),
                "description": "once the deal is over: its hand-history line (the "
                "format of ofc-fast play --history; POST /v1/replay reads it)",
            },
        },
        (
            "id",
            "version",
            "rules",
            "players",
            "you",
            "seats",
            "hand_no",
            "your_turn",
            "is_over",
            "observation",
            "events",
            "match",
        ),
    ),
    "HandHistory": _hand_history(),
    "ReplayRequest": _request({"text": _STR}, ("text",)),
    "NextRequest": {
        **_request({}),
        "description": "no field: the body may be left out, or be {}",
    },
    "ReplayResponse": _obj(
        {
            "deals": _arr(
                _obj(
                    {
                        "line": _INT,
                        "hand_no": _NULLABLE_INT,
                        "seats": _arr(_STR),
                        "rules": _STR,
                        "players": _INT,
                        "fantasyland": _arr(_INT),
                        "frames": _arr(
                            _obj(
                                {
                                    "boards": _arr(_ROWS3),
                                    "seat": _NULLABLE_INT,
                                    "dealt": _STR,
                                    "move": {"type": ["string", "null"]},
                                }
                            )
                        ),
                        "result": _obj(_SHOWDOWN),
                    }
                )
            ),
            "truncated": _BOOL,
        }
    ),
    "Health": _obj(
        {
            "status": {"const": "ok"},
            "version": _STR,
            "sessions": _INT,
            "busy": _INT,
            "max_time_budget": {
                "type": "number",
                "description": "the most seconds of search a request may ask "
                "(time_budget), --max-time-budget",
            },
        }
    ),
}

_PROBLEM = {"application/problem+json": {"schema": _ref("Problem")}}
_HEADERS: dict[int, dict[str, Any]] = {
    401: {
        "WWW-Authenticate": {
            "description": "Bearer: send Authorization: Bearer <key>",
            "required": True,
            "schema": _STR,
        }
    },
    503: {
        "Retry-After": {
            "description": "seconds to wait before a retry",
            "required": True,
            "schema": {"type": "integer", "minimum": 0},
        }
    },
}
"""The headers a refusal always carries, by status."""
_SOME_HEADERS: dict[int, dict[str, Any]] = {
    409: {
        "Retry-After": {
            "description": f"{RUNNING_RETRY}: the request of the {HEADER} is still "
            "running (not sent for a conflict with the game's state)",
            "required": False,
            "schema": {"type": "integer", "const": RUNNING_RETRY},
        }
    },
    415: {
        "Accept-Encoding": {
            "description": f"{IDENTITY}: the body was sent with a Content-Encoding; "
            "send it uncompressed (not sent for a media type refused)",
            "required": False,
            "schema": {"const": IDENTITY},
        }
    },
}
"""The headers some refusals of a status carry (the 409 only where the operation
takes an ``Idempotency-Key``)."""


_IDEMPOTENCY_KEY = {
    "name": HEADER,
    "in": "header",
    "required": False,
    "description": f"a key of the client's (1 to {MAX_KEY} printable ASCII characters): the "
    "same request sent again with it, by the same client, gets the first one's answer "
    "(the same game, the move played once) while the game is kept; the key with "
    "another request is a 422, with one still running a 409 (docs/serve.md)",
    "schema": {
        "type": "string",
        "minLength": 1,
        "maxLength": MAX_KEY,
        "pattern": "^[ -~]+$",
    },
}


@dataclass(frozen=True)
class Operation:
    """One operation of the API, as the server serves it: what it reads and where it
    runs decide every status it can answer (:meth:`statuses`), so ``/openapi.json``
    lists those and no other, and the server's routes take ``request``, ``pooled``
    and ``keyless`` from here (``ofc_fast.serve._app``)."""

    operation_id: str  # a generated client's name for it (snake_case, unique)
    summary: str
    response: str  # the 200's schema
    request: str | None = None  # the body's schema (None: no body read; GET)
    method: str = "POST"
    pooled: bool = False  # runs on the limiter's threads: 503 once its queue is full
    game: bool = False  # a game's (path ``{id}``): 404 for a game unknown or expired
    conflict: bool = False  # the game's state may refuse it: 409
    keyless: bool = False  # answered without the API key (a keyed server's too)
    idempotent: bool = False  # takes Idempotency-Key: 409 (its request runs), 422

    def statuses(self, keyed: bool = False) -> tuple[int, ...]:
        """The refusals this operation can give on a server with an API key
        (``keyed``) or without: 400 (a ``Host`` not the server's, a body that is not
        JSON of the expected shape), 401 (no key: ``keyed``, not ``keyless``), 404,
        408, 409, 413 and 422 (a body too slow to arrive, too large, or refused), 415
        (any POST: a browser's not declared JSON, a body compressed) and 503; 409
        and 422 where it takes an ``Idempotency-Key`` (its request still running,
        the key sent with another).

        >>> OPERATIONS["/v1/health"]["get"].statuses(keyed=True)
        (400,)
        >>> OPERATIONS["/v1/games/{id}/next"]["post"].statuses(keyed=True)
        (400, 401, 404, 408, 409, 413, 415, 422, 503)
        >>> OPERATIONS["/v1/score"]["post"].statuses()
        (400, 408, 413, 415, 422)
        """
        codes = [400]
        codes += [401] if keyed and not self.keyless else []
        codes += [404] if self.game else []
        codes += [409] if self.conflict or self.idempotent else []
        codes += [] if self.request is None else [408, 413]
        codes += [422] if self.request is not None or self.idempotent else []
        codes += [415] if self.method == "POST" else []
        codes += [503] if self.pooled else []
        return tuple(sorted(codes))

    def document(self, keyed: bool = False) -> dict[str, Any]:
        """The operation's object in ``/openapi.json`` of a server with an API key
        (``keyed``: a ``keyless`` operation says it needs none) or without."""
        op: dict[str, Any] = {
            "operationId": self.operation_id,
            "summary": self.summary,
            "responses": {
                "200": {
                    "description": "OK",
                    "content": {"application/json": {"schema": _ref(self.response)}},
                },
                **{
                    str(code): _refusal(code, self.idempotent)
                    for code in self.statuses(keyed)
                },
            },
        }
        if keyed and self.keyless:
            op["security"] = []  # (the document's bearer key not required)
        if self.request is not None:
            op["requestBody"] = {  # (one of no field may be left out)
                "required": bool(request_fields(self.request)),
                "content": {"application/json": {"schema": _ref(self.request)}},
            }
        params = []
        if self.game:
            params.append(
                {
                    "name": "id",
                    "in": "path",
                    "required": True,
                    "schema": {"type": "string", "pattern": f"^{GAME_ID}$"},
                }
            )
        if self.idempotent:
            params.append(_IDEMPOTENCY_KEY)
        if params:
            op["parameters"] = params
        return op


def _refusal(status: int, idempotent: bool = False) -> dict[str, Any]:
    """A refusal's response object: a problem document, and the headers it may carry
    (``idempotent``: of an operation that takes an ``Idempotency-Key``).

    >>> sorted(_refusal(415)["headers"]), sorted(_refusal(409, True)["headers"])
    (['Accept-Encoding'], ['Retry-After'])
    >>> "headers" in _refusal(409)
    False
    """
    out: dict[str, Any] = {"description": "a problem", "content": _PROBLEM}
    some = _SOME_HEADERS.get(status, {}) if idempotent or status != 409 else {}
    headers = {**_HEADERS.get(status, {}), **some}
    if headers:
        out["headers"] = headers
    return out


def _game(
    operation_id: str, summary: str, request: str | None = None, **flags: Any
) -> Operation:
    """An operation on one game (``/v1/games/{id}...``): its requests wait for the game
    in the queue."""
    return Operation(
        operation_id, summary, "GameState", request, pooled=True, game=True, **flags
    )


def _queued(summary: str, name: str) -> Operation:
    """A computation (``{name}Request`` in, ``{name}Response`` out), queued."""
    return Operation(
        name.lower(), summary, f"{name}Response", f"{name}Request", pooled=True
    )


OPERATIONS: dict[str, dict[str, Operation]] = {
    "/v1/health": {
        "get": Operation(
            "health", "liveness and load", "Health", method="GET", keyless=True
        )
    },
    "/v1/analyze": {"post": _queued("every legal move ranked", "Analyze")},
    "/v1/fantasyland": {"post": _queued("best Fantasyland setting", "Fantasyland")},
    "/v1/arrange": {"post": _queued("best setting of 13 cards", "Arrange")},
    "/v1/score": {
        "post": Operation("score", "settle boards", "ScoreResponse", "ScoreRequest")
    },
    "/v1/evaluate": {
        "post": Operation(
            "evaluate", "hands and boards", "EvaluateResponse", "EvaluateRequest"
        )
    },
    "/v1/replay": {"post": _queued("a hand-history file as frames", "Replay")},
    "/v1/games": {
        "post": Operation(
            "create_game",
            "start a match against the bots",
            "GameState",
            "GameCreate",
            pooled=True,
            idempotent=True,
        )
    },
    "/v1/games/{id}": {"get": _game("get_game", "your view of the game", method="GET")},
    "/v1/games/{id}/moves": {
        "post": _game(
            "play_move",
            "play your move; the bots answer",
            "MoveRequest",
            conflict=True,
            idempotent=True,
        )
    },
    "/v1/games/{id}/next": {
        "post": _game(
            "next_deal",
            "the match's next deal",
            "NextRequest",
            conflict=True,
            idempotent=True,
        )
    },
}
"""Every operation, by path template and method (lower case, as in OpenAPI)."""


def openapi(version: str = "0", config: ServeConfig | None = None) -> dict[str, Any]:
    """The document (``version``: the package's) of a server of ``config`` (default:
    :class:`ServeConfig`'s defaults): the ranges it states are that server's, and so
    is its security: with an ``api_key``, a bearer key on every operation but the
    ``keyless`` ones, and their 401s; without, none.

    >>> openapi("0", ServeConfig(api_key="k" * 16))["security"]
    [{'bearer': []}]
    >>> "security" in openapi(), "401" in openapi()["paths"]["/v1/score"]["post"]["responses"]
    (False, False)
    """
    c = config or ServeConfig()
    ranges = Ranges.of(c)
    keyed = bool(c.api_key)
    security: dict[str, Any] = {
        "securitySchemes": {"bearer": {"type": "http", "scheme": "bearer"}}
    }
    doc: dict[str, Any] = {
        "openapi": "3.1.0",
        "info": {
            "title": "ofc-fast",
            "version": version,
            "description": "Analyse OFC / Pineapple positions, solve Fantasyland, "
            "score boards, play against the bots (docs/serve.md).",
        },
        "components": {
            "schemas": {**SCHEMAS, "AnalyzeRequest": _analyze_request(ranges)},
            **(security if keyed else {}),
        },
        # relative to the document's own URL (OpenAPI 3.1, 4.8.5): its folder, the
        # host's root for /openapi.json, /ofc/ behind a proxy serving /ofc/openapi.json
        "servers": [{"url": ".", "description": "this document's server"}],
        **({"security": [{"bearer": []}]} if keyed else {}),
        "paths": {
            path: {method: op.document(keyed) for method, op in ops.items()}
            for path, ops in OPERATIONS.items()
        },
    }
    return doc


def request_fields(schema: str) -> frozenset[str]:
    """The fields a request body of ``schema`` (a name in :data:`SCHEMAS`) may hold:
    what the server takes, and refuses any other.

    >>> sorted(request_fields("ReplayRequest"))
    ['text']
    """
    return frozenset(SCHEMAS[schema]["properties"])
