"""More than 500 malformed requests (wrong types, huge arrays, duplicate or impossible
cards, unknown rules, 10 MB bodies, invalid UTF-8, deep nesting, NaN, a missing or
wrong API key): each gets a 4xx problem document that validates against
/openapi.json; the server stays up and its memory stays bounded."""

from __future__ import annotations

import json
import random
import re
import threading
import time
from collections.abc import Iterator
from typing import Any
from urllib.parse import unquote_to_bytes

import pytest
import serve_paths
from serve_helpers import Server, check_response, template_of

from ofc_fast.serve import ServeConfig

KEY = "malformed-key-123"
AUTH = {"Authorization": "Bearer " + KEY}

BASES: dict[str, dict[str, Any]] = {
    "/v1/analyze": {
        "board": "Qh / 9s 9h / As Ks",
        "dealt": "2c 5d Ts",
        "opponents": ["7c / 8d 8h / 4s 4d"],
        "samples": 4,
        "seed": 1,
        "time_budget": 0.05,
        "rules": "pineapple",
        "dead": "3c",
    },
    "/v1/fantasyland": {
        "cards": "Ad Ah Th Jh 6h Ts 5d 3c Tc 3s 7h Qh 3d 9s",
        "rules": "pineapple",
        "alternatives": False,
    },
    "/v1/arrange": {
        "cards": "As Ad Kc Kd Qh Qs Jc Jd 9h 7s 5c 3d 2h",
        "objective": "ev",
        "rules": "classic-1-6",
    },
    "/v1/score": {
        "boards": [
            "Qh Qd 2c / 9s 9h 9d 5c 5d / As Ks Qs Js Ts",
            "2h 3d 4c / 6s 6h 7d 7c 8d / Ah Ad Kh Kd 8c",
        ],
        "rules": "pineapple",
        "button": 0,
    },
    "/v1/evaluate": {"hands": ["As Ks Qs Js Ts"], "rules": "ofc"},
    "/v1/games": {
        "rules": "pineapple",
        "players": 2,
        "you": 0,
        "bots": ["random"],
        "seed": 1,
        "hands": 2,
        "fantasyland": [14, 0],
    },
    "/v1/replay": {"text": ""},
}
BAD: list[Any] = [
    True,
    1.5,
    -1,
    10**30,
    "Zz",
    "As As",
    [],
    {},
    [[[]]],
    [10**6] * 1000,
    "x" * 5000,
    "\u017f",
    "null",
    [["As", "sideways"]],
    {"$ref": "#"},
]
# (field, value) pairs that are valid after all
VALID = [("time_budget", BAD[1]), ("alternatives", BAD[0])]
DEEP = b"[" * 100_000 + b"]" * 100_000
RAW: list[bytes] = [
    b"\xff\xfe\xfa",
    b'{"cards": "\xc3\x28"}',
    DEEP,
    b'{"a":' * 50_000,
    b"not json",
    b"[1, 2]",
    b'{"samples": NaN}',
    b'{"x": Infinity}',
    b"",
    b'"text"',
    b"{" * 3,
    b'{"cards": "' + b"A" * (10 << 20) + b'"}',
]


def malformed() -> Iterator[tuple[str, str, dict[str, Any] | None, bytes | None]]:
    """(method, path, JSON body or None, raw body or None)."""
    for path, base in BASES.items():
        fields = list(base) + ["observation"] * (path == "/v1/analyze")
        for field in fields:
            for value in BAD:
                if any(field == f and value is v for f, v in VALID):
                    continue
                yield "POST", path, {**base, field: value}, None
        for raw in RAW:
            yield "POST", path, None, raw
    for path in ("/v1/games/xyz/moves", "/v1/games/xyz", "/v1/nope", "/v1/games/a/b/c"):
        yield "POST", path, {"action": 1}, None
    yield "GET", "/v1/analyze", None, None
    yield "DELETE", "/v1/score", None, None
    # impossible positions for the text form
    for dealt in ("As Kd", "As Kd Qc Jd Th 9s", "As Ad Ac Ah As"):
        yield "POST", "/v1/analyze", {"dealt": dealt}, None
    for board in ("As Ks Qs Js / / ", "2c 3c 4c 5c / / ", "/ / As Ks Qs Js Ts 9s"):
        yield "POST", "/v1/analyze", {"board": board, "dealt": "2c 5d Ts"}, None


def rss_kib() -> int:
    with open("/proc/self/status", encoding="ascii") as f:
        for line in f:
            if line.startswith("VmRSS:"):
                return int(line.split()[1])
    return 0  # pragma: no cover - not Linux


@pytest.fixture(scope="module")
def server() -> Iterator[Server]:
    with Server(ServeConfig(api_key=KEY, max_time_budget=0.2)) as s:
        yield s


def send(
    s: Server, method: str, path: str, body: Any, raw: bytes | None, headers: dict[str, str]
) -> tuple[int, dict[str, str], Any]:
    return s.request(method, path, body, raw=raw, headers=headers)


def test_over_500_malformed_requests_get_4xx_problems(server: Server) -> None:
    doc = server.request("GET", "/openapi.json")[2]
    cases = list(malformed())
    # a missing or wrong key, on every endpoint, with an otherwise good body
    for path, base in BASES.items():
        for hdrs in (
            {},
            {"Authorization": "Bearer wrong"},
            {"Authorization": KEY},
            {"Authorization": "Bearer " + KEY + "x"},
            {"Authorization": "bearer"},
        ):
            cases.append(("POST", path, base, None, hdrs))  # type: ignore[arg-type]
    assert len(cases) >= 500, len(cases)
    start = None
    for i, case in enumerate(cases):
        method, path, body, raw = case[:4]
        hdrs = case[4] if len(case) > 4 else AUTH  # type: ignore[misc]
        status, headers, out = send(server, method, path, body, raw, hdrs)
        where = (method, path, json.dumps(body)[:120] if body else (raw or b"")[:40])
        assert 400 <= status < 500, (where, status, out)
        assert headers["content-type"] == "application/problem+json", where
        assert out["status"] == status and out["title"] and out["detail"], where
        try:
            described = method.lower() in doc["paths"][template_of(doc, path)]
        except AssertionError:  # a path the API does not have: 404
            described = False
        if described:
            check_response(doc, method, path, status, headers, out)
        if i == len(cases) // 3:
            start = rss_kib()
    end = rss_kib()
    assert start is not None
    assert end - start < 40_000, f"RSS grew {end - start} KiB over {len(cases)} requests"
    assert server.request("GET", "/v1/health")[0] == 200  # still up
    ok = server.request("POST", "/v1/score", BASES["/v1/score"], headers=AUTH)
    assert ok[0] == 200


def _array_fields(
    doc: dict[str, Any], schema: dict[str, Any]
) -> Iterator[tuple[str, bool]]:
    """(name, text too) of each array-typed property of a request ``schema`` (a
    ``$ref`` followed): ``text too`` when the field also takes a string (cards)."""
    if "$ref" in schema:
        schema = doc["components"]["schemas"][schema["$ref"].rsplit("/", 1)[1]]
    for name, prop in schema.get("properties", {}).items():
        kinds = [prop, *prop.get("oneOf", [])]
        types = [t for k in kinds for t in _types(k)]  # (optional fields: or null)
        if "array" in types:
            yield name, "string" in types


def _types(schema: dict[str, Any]) -> list[str]:
    """The JSON types a schema's ``type`` names (a name or a list of names)."""
    kind = schema.get("type", [])
    return [kind] if isinstance(kind, str) else list(kind)


def test_every_array_field_refuses_an_object_string_or_number(server: Server) -> None:
    """Every array-typed field of every request, as /openapi.json lists them (the
    move's ``place`` and ``discard`` included), refuses an object, a number and (where
    no card text is taken) a string with a 4xx problem naming the field: ``"discard":
    {}`` was taken as "no discards" (200), ``"discard": 5`` as card id 5, ``"discard":
    "Ad"`` as that card, and ``"place": {}`` named only ``move``.  A ``place`` item
    that is no [card, row] array names ``move.place[i]`` (``"As"`` was read as card
    ``A``, row ``s``)."""
    doc = server.request("GET", "/openapi.json")[2]
    cases: list[tuple[str, dict[str, Any], str, Any]] = []
    for path, base in BASES.items():
        schema = doc["paths"][path]["post"]["requestBody"]["content"]["application/json"]
        for name, text_too in _array_fields(doc, schema["schema"]):
            for bad in ({}, 5, True) + (() if text_too else ("As",)):
                cases.append((path, {**base, name: bad}, name, bad))
    game, moves, place = _a_game(server)
    fields = list(_array_fields(doc, doc["components"]["schemas"]["Move"]))
    assert sorted(n for n, _ in fields) == ["discard", "place"]
    for name, _ in fields:
        for bad in ({}, 5, True, game["observation"]["dealt"][0]):
            move = {"place": place, "discard": [], name: bad}
            cases.append((moves, {"move": move}, f"move.{name}", bad))
    for bad in ("As", {"card": "As"}, 5):
        cases.append((moves, {"move": {"place": [place[0], bad]}}, "move.place[1]", bad))
    for path, body, field, bad in cases:
        status, headers, out = server.request("POST", path, body, headers=AUTH)
        where = (path, field, bad)
        assert 400 <= status < 500, (where, status, out)
        assert headers["content-type"] == "application/problem+json", where
        assert out["field"] == field, (where, out)
    # the game is still at its first decision: the move itself plays
    ok = server.request(
        "POST", moves, {"move": {"place": place, "discard": []}}, headers=AUTH
    )
    assert ok[0] == 200, ok


def test_a_card_array_beyond_its_limit_says_so(server: Server) -> None:
    """A card array of more than 52 items (``cards``, ``observation.dealt``, a board's
    row) was refused as "cards must be an array of cards, got an array": it is an
    array, one too long, and the refusal says how long it may be, as for every other
    field beyond its ``maxItems``."""
    doc = server.request("GET", "/openapi.json")[2]
    limit = doc["components"]["schemas"]["FantasylandRequest"]["properties"]["cards"]
    most = max(k.get("maxItems", 0) for k in limit.get("oneOf", [limit]))
    ids = list(range(52)) + [0]
    obs = {"players": 2, "seat": 0, "dealt": ids, "boards": [[ids, [], []], [[], [], []]]}
    for path, body, field in (
        ("/v1/fantasyland", {"cards": ids}, "cards"),
        ("/v1/arrange", {"cards": ids}, "cards"),
        ("/v1/analyze", {"observation": obs}, "observation.dealt"),
        ("/v1/analyze", {"observation": {**obs, "dealt": []}}, "observation.boards[0][0]"),
    ):
        status, headers, out = server.request("POST", path, body, headers=AUTH)
        assert (status, out["field"]) == (400, field), (path, out)
        assert out["detail"] == f"{field} has 53 items, at most {most}", out
        check_response(doc, "POST", path, status, headers, out)


def test_an_integer_of_thousands_of_digits_is_said_to_be_one(server: Server) -> None:
    """A body holding an integer of 5,000 digits (valid JSON) was refused as "the body
    is not JSON: Exceeds the limit (4300 digits) for integer string conversion ...; use
    sys.set_int_max_str_digits() to increase the limit": the interpreter's advice to
    its own programmer.  The refusal says what the body holds."""
    doc = server.request("GET", "/openapi.json")[2]
    for raw in (
        b'{"seed": 1' + b"0" * 5000 + b"}",
        b'{"stacks": [-' + b"9" * 4400 + b", 1]}",
    ):
        status, headers, out = server.request("POST", "/v1/score", raw=raw, headers=AUTH)
        assert status == 400, out
        assert "not JSON" not in out["detail"] and "sys." not in out["detail"], out
        assert "digits" in out["detail"], out
        check_response(doc, "POST", "/v1/score", status, headers, out)


def test_a_number_of_a_vast_exponent_is_read_as_its_value(server: Server) -> None:
    """A number whose exponent has 20 digits or more (``5e-99999999999999999999``,
    ``0e99999999999999999999``: valid JSON, both below every float) was a 500: the exact
    reading of a whole-looking number raised.  ``0e...`` is 0, a whole number, as
    ``0.0`` is; ``5e-...`` is a fraction (of an integer field: a 400 naming it)."""
    doc = server.request("GET", "/openapi.json")[2]
    boards = BASES["/v1/score"]["boards"]
    for number, status, field in (
        ("0e99999999999999999999", 200, None),
        ("-0.0E-99999999999999999999", 200, None),
        ("5e-99999999999999999999", 400, "button"),
        ("-1.5e-123456789012345678901234567890", 400, "button"),
    ):
        raw = f'{{"boards": {json.dumps(boards)}, "button": {number}}}'
        got, headers, out = server.request(
            "POST", "/v1/score", raw=raw.encode(), headers=AUTH
        )
        assert got == status, (number, out)
        assert got == 200 or out["field"] == field, (number, out)
        check_response(doc, "POST", "/v1/score", got, headers, out)


def test_a_whole_number_beyond_every_float_is_refused_as_written_out(
    server: Server,
) -> None:
    """``1e400`` in an integer field was a 400 ("must be an integer, got a number"),
    though it is a whole number, and the same value written out in full a 422 ("must be
    within ..."): docs/serve.md gives a wrong type 400 and a value out of range 422.
    Both forms now get the same answer: a 422 naming the field out of its range, and a
    400 for a number of more digits than the interpreter reads, as written out."""
    doc = server.request("GET", "/openapi.json")[2]
    boards = json.dumps(BASES["/v1/score"]["boards"])
    for short, full, status in (
        ("1e400", "1" + "0" * 400, 422),
        ("-2.5E400", "-25" + "0" * 399, 422),
        ("1e5000", "1" + "0" * 5000, 400),
        ("1e99999999999999999999", "1" + "0" * 5000, 400),
    ):
        answers = []
        for number in (short, full):
            raw = f'{{"boards": {boards}, "button": {number}}}'.encode()
            got, headers, out = server.request("POST", "/v1/score", raw=raw, headers=AUTH)
            check_response(doc, "POST", "/v1/score", got, headers, out)
            answers.append((got, out.get("field")))
        assert answers[0] == answers[1] == (status, "button" if status == 422 else None), (
            short,
            answers,
        )


def test_a_body_of_vast_whole_numbers_never_holds_the_event_loop() -> None:
    """A 1 MiB body of ``1e4000, 1e4000, ...`` (150,000 whole numbers of 4,001 digits,
    7 bytes each) held the event loop for minutes, and would have made 250 MB of
    integers: each was read as its exact integer, 1.3 ms apiece, so one request
    stopped the server answering anyone.  A few are still their exact values (the
    ``decimal`` module's, here), but the whole numbers such a body writes make at most
    as many digits in all as the body limit's bytes: the request is a 400 at once,
    and a health check sent meanwhile answers."""
    from decimal import Decimal

    from ofc_fast.serve._app import _parse

    literals = ["1e4000", "-7E+3999", "12e300", "3.5e2000", "1.25e2", "40e-1", "1e22"]
    values = _parse(('{"a": [' + ", ".join(literals) + "]}").encode())["a"]
    assert values == [int(Decimal(t)) for t in literals]
    assert all(type(v) is int for v in values)
    count = (1 << 20) // len("1e4000,") - 16
    raw = b'{"hands": [' + b",".join([b"1e4000"] * count) + b"]}"
    with Server(ServeConfig(workers=1)) as s:
        answers: list[Any] = []
        worker = threading.Thread(
            target=lambda: answers.append(
                s.request("POST", "/v1/evaluate", raw=raw, timeout=60)
            )
        )
        started = time.monotonic()
        worker.start()
        time.sleep(0.2)  # the big request is read and parsed meanwhile
        health = s.request("GET", "/v1/health", timeout=30)
        worker.join(60)
        assert health[0] == 200
        assert answers and answers[0][0] == 400, answers[:1]
        assert "digits in all" in answers[0][2]["detail"], answers[0][2]
        assert time.monotonic() - started < 30
        raw = b'{"hands": [' + b",".join([b"1e4000"] * 200) + b"]}"  # 800,200 digits
        status, _, out = s.request("POST", "/v1/evaluate", raw=raw)
        assert (status, out["field"]) == (400, "hands"), out  # read: 200 hands


def test_a_body_of_too_many_values_is_refused_before_it_queues() -> None:
    """An analysis whose observation (the one object left open) held 200,000 empty
    arrays in a key the search never reads (within the 1 MiB body limit) was kept,
    parsed, while it waited in the queue: 20 MB of Python objects a request, so 17
    queued requests took the server from 61 to 407 MiB (a default server on 16 CPUs
    holds 96).  No request of the API needs 10,000 JSON values: more is a 400 at
    once, and an observation as ``Game.observation`` returns it is answered."""
    from ofc_fast.game import Game

    game = Game("pineapple", 2, seed=3)
    obs = json.loads(json.dumps(game.observation(game.to_act), default=int))
    with Server(ServeConfig(workers=1)) as s:
        body = {"observation": {**obs, "x": [[]] * 200_000}, "samples": 4}
        status, _, out = s.request("POST", "/v1/analyze", body)
        assert status == 400 and "values" in out["detail"], out
        status, _, out = s.request(
            "POST", "/v1/analyze", {"observation": obs, "samples": 4}
        )
        assert status == 200, out
        hands = [list(range(52))] * 64  # the most items a request's fields take
        status, _, out = s.request("POST", "/v1/evaluate", {"hands": hands})
        assert (status, out["field"]) == (422, "hands[0]"), out  # 52 cards: no hand


_NOT_INT: list[Any] = [True, 1.5, "1", None, [1], {}]
_NOT_CARD: list[Any] = [True, 1.5, None, [1], {}]
_NOT_TEXT: list[Any] = [True, 1, 1.5, None, ["x"], {}]


def test_a_request_sent_without_a_body_is_told_its_body_is_empty(server: Server) -> None:
    """Regression: a POST sent with no body (or only whitespace), as a client that
    forgot it does, got a 400 saying "the body is not JSON: Expecting value: line 1
    column 1 (char 0)", the parser's words for a body the client never sent.  Now
    the detail says the body is empty and what to send; ``next``, which takes no
    field, still takes an empty body."""
    for path in ("/v1/games", "/v1/score", "/v1/analyze"):
        for raw in (b"", b" \r\n\t", b"\xef\xbb\xbf"):  # none, whitespace, a BOM alone
            status, headers, out = server.request("POST", path, raw=raw, headers=AUTH)
            assert status == 400, (path, raw, out)
            assert headers["content-type"] == "application/problem+json"
            assert out["detail"].startswith("the body is empty: send a JSON object"), out
    game = server.request("POST", "/v1/games", {"seed": 1}, headers=AUTH)[2]
    status, _, out = server.request(
        "POST", f"/v1/games/{game['id']}/next", raw=b"", headers=AUTH
    )
    assert status == 409, out  # (the deal is on: read, refused for the game's state)


def test_a_list_item_of_the_wrong_type_is_a_400_naming_it(server: Server) -> None:
    """docs/serve.md: a field of the wrong type is a 400 naming its path.  Items of
    ``score``'s ``stacks`` and of a game's ``fantasyland`` that were no integers
    (``["a", 1]``, ``[null, 0]``, ``[true, 0]``) were 422 TableErrors saying "got
    None" or "got ('a', 1)" (Python, not JSON); an observation's
    ``face_down_counts[0][1]`` too; a move's ``place`` pair of a null card or row, and a
    ``discard`` of null, 422s saying "bad card None", a pair of three items "got [9,
    'front', 3]", ``surrender: 1`` "must be True or False".  Every list field of every route,
    each item of each wrong type (a boolean, a fraction, a string where no text is
    taken, null, an array, an object): a 400 naming the item, no Python in the detail.
    A whole number written ``14.0`` is the integer (JSON Schema's ``integer``)."""
    doc = server.request("GET", "/openapi.json")[2]
    first = {k: v for k, v in BASES["/v1/games"].items() if k != "fantasyland"}
    game, moves, place = _a_game(server)
    obs = json.loads(json.dumps(game["observation"]))
    boards = obs["boards"]
    score, evaluate = BASES["/v1/score"], BASES["/v1/evaluate"]
    cards = str(BASES["/v1/fantasyland"]["cards"]).split(" ")
    # (path, body with the bad item x, the item's path, the wrong values)
    table: list[tuple[str, Any, str, list[Any]]] = [
        ("/v1/score", lambda x: {**score, "stacks": [x, 100]}, "stacks[0]", _NOT_INT),
        (
            "/v1/score",
            lambda x: {**score, "boards": [*score["boards"], x]},
            "boards[2]",
            _NOT_TEXT,
        ),
        (
            "/v1/games",
            lambda x: {**first, "fantasyland": [x, 0]},
            "fantasyland[0]",
            _NOT_INT,
        ),
        ("/v1/games", lambda x: {**first, "bots": [x]}, "bots[0]", _NOT_TEXT),
        (
            "/v1/evaluate",
            lambda x: {**evaluate, "hands": [["As", "Ks", "Qs", x]]},
            "hands[0][3]",
            _NOT_CARD,
        ),
        ("/v1/evaluate", lambda x: {"boards": [x]}, "boards[0]", _NOT_TEXT),
        ("/v1/fantasyland", lambda x: {"cards": [*cards, x]}, "cards[14]", _NOT_CARD),
        ("/v1/arrange", lambda x: {"cards": [x, *cards[:12]]}, "cards[0]", _NOT_CARD),
        (
            "/v1/analyze",
            lambda x: {**BASES["/v1/analyze"], "opponents": [x]},
            "opponents[0]",
            _NOT_TEXT,
        ),
        (
            "/v1/analyze",
            lambda x: {"observation": {**obs, "fantasyland": [0, x]}},
            "observation.fantasyland[1]",
            _NOT_INT,
        ),
        (
            "/v1/analyze",
            lambda x: {"observation": {**obs, "legal_actions": [x]}},
            "observation.legal_actions[0]",
            _NOT_INT,
        ),
        (
            "/v1/analyze",
            lambda x: {"observation": {**obs, "face_down_counts": [[0, x, 0], [0, 0, 0]]}},
            "observation.face_down_counts[0][1]",
            _NOT_INT,
        ),
        (
            "/v1/analyze",
            lambda x: {"observation": {**obs, "boards": [[[x], [], []], boards[1]]}},
            "observation.boards[0][0][0]",
            _NOT_CARD,
        ),
        (
            "/v1/analyze",
            lambda x: {"observation": {**obs, "dealt": [*obs["dealt"], x]}},
            f"observation.dealt[{len(obs['dealt'])}]",
            _NOT_CARD,
        ),
        (
            "/v1/analyze",
            lambda x: {"observation": {**obs, "discards": [x]}},
            "observation.discards[0]",
            _NOT_CARD,
        ),
        (
            moves,
            lambda x: {"move": {"place": [[x, "front"], *place[1:]]}},
            "move.place[0][0]",
            _NOT_CARD,
        ),
        (
            moves,
            lambda x: {"move": {"place": [[place[0][0], x], *place[1:]]}},
            "move.place[0][1]",
            _NOT_CARD,
        ),
        (
            moves,
            lambda x: {"move": {"place": place, "discard": [x]}},
            "move.discard[0]",
            _NOT_CARD,
        ),
        (
            moves,
            lambda x: {"move": {"place": [x, *place[1:]]}},
            "move.place[0]",
            [[place[0][0]], [*place[0], 3], []],  # no [card, row] pair
        ),
        (
            moves,
            lambda x: {"move": {"place": place, "surrender": x}},
            "move.surrender",
            [1, "true", [], {}],
        ),
        (
            moves,
            lambda x: {"move": {"place": place, "declare": x}},
            "move.declare",
            [1, True, [], {}],
        ),
    ]
    python = re.compile(r"\b(None|True|False)\b|[(\[]'|\(\d+,|\d, '")
    for path, body, field, values in table:
        for bad in values:
            status, headers, out = server.request("POST", path, body(bad), headers=AUTH)
            where = (path, field, bad)
            assert (status, out.get("field")) == (400, field), (where, out)
            assert not python.search(out["detail"]), (where, out)
            check_response(doc, "POST", path, status, headers, out)
    # whole numbers written with a fraction are those integers; the game is unmoved
    for path, body in (
        ("/v1/score", {**score, "stacks": [100.0, 1e2]}),
        ("/v1/games", {**first, "fantasyland": [14.0, 0]}),
        (moves, {"move": {"place": place, "discard": []}}),
    ):
        status, _, out = server.request("POST", path, body, headers=AUTH)
        assert status == 200, (path, out)


def test_an_unknown_move_field_is_named_by_its_path(server: Server) -> None:
    """``{"move": {"place": [...], "x": 1}}`` was refused as "bad move: unknown key(s)
    ['x']" naming ``move`` (Python list text); it is an unknown field as any other
    (a 422 naming ``move.x``, with the field it is closest to)."""
    doc = server.request("GET", "/openapi.json")[2]
    _, moves, place = _a_game(server)
    for extra, detail in (
        ({"x": 1}, "unknown field 'move.x'"),
        ({"discards": []}, "unknown field 'move.discards' (did you mean 'discard'?)"),
    ):
        body = {"move": {"place": place, **extra}}
        status, headers, out = server.request("POST", moves, body, headers=AUTH)
        field = detail.split("'")[1]
        assert (status, out["field"], out["detail"]) == (422, field, detail), out
        check_response(doc, "POST", moves, status, headers, out)


def test_a_hand_of_the_wrong_type_is_told_what_a_hand_may_be(server: Server) -> None:
    """``/v1/evaluate`` with ``hands: [1.5]`` said "hands[0] must be an array of
    cards", although a hand may also be card text: the refusal lists both."""
    doc = server.request("GET", "/openapi.json")[2]
    body = {"hands": [1.5]}
    status, headers, out = server.request("POST", "/v1/evaluate", body, headers=AUTH)
    assert (status, out["field"]) == (400, "hands[0]"), out
    assert out["detail"] == (
        "hands[0] must be card text or an array of cards (ids or text), got a number"
    ), out
    check_response(doc, "POST", "/v1/evaluate", status, headers, out)


def _a_game(server: Server) -> tuple[dict[str, Any], str, list[list[Any]]]:
    """A new game at its first decision: its JSON, its moves path, and a placement of
    the five cards dealt."""
    first = {k: v for k, v in BASES["/v1/games"].items() if k != "fantasyland"}
    game = server.request("POST", "/v1/games", first, headers=AUTH)[2]
    dealt = game["observation"]["dealt"]
    place = [[c, r] for c, r in zip(dealt, ("back", "back", "middle", "middle", "front"))]
    return game, f"/v1/games/{game['id']}/moves", place


def test_a_move_without_move_or_action_is_told_either_is_required(
    server: Server,
) -> None:
    """A game's move with neither ``move`` nor ``action`` (``{}``, ``{"version": 0}``,
    ``{"move": null}``) was told "move must be an object {place, discard}": as if a
    move were given, of the wrong type, and ``action`` were not an option.  It is a
    400 saying that either is required, as any required field's; the game is as it
    was (the same move then plays)."""
    doc = server.request("GET", "/openapi.json")[2]
    game, moves, place = _a_game(server)
    for body in ({}, {"version": game["version"]}, {"move": None}):
        status, headers, out = server.request("POST", moves, body, headers=AUTH)
        assert (status, out["field"]) == (400, "move"), out
        detail = out["detail"]
        assert "required" in detail and "action" in detail and "move" in detail, out
        assert "must be an object" not in detail, out
        check_response(doc, "POST", moves, status, headers, out)
    status, _, out = server.request("POST", moves, {"move": {"place": place}}, headers=AUTH)
    assert status == 200 and out["version"] == game["version"] + 1, out


def test_the_move_schema_holds_the_move_fields_and_no_other(server: Server) -> None:
    """``/openapi.json``'s ``Move`` had only ``place`` and ``discard`` (the service
    takes ``declare`` and ``surrender`` too) and allowed any other field, which the
    service refuses: it now lists the library's move fields and no other."""
    from ofc_fast.game import Move

    doc = server.request("GET", "/openapi.json")[2]
    move = doc["components"]["schemas"]["Move"]
    keys = set(Move([], declare="x", surrender=True).to_dict())  # (no list repeated)
    assert (set(move["properties"]), move.get("additionalProperties")) == (keys, False)


def test_hostile_bodies_of_many_values_never_stall_the_event_loop() -> None:
    """Every body was parsed whole on the event loop before its values were counted:
    a 1 MiB body of ``4.0, 4.0, ...`` (262,000 numbers, each read as its exact value)
    took 0.5 s, one of ``[], [], ...`` 0.08 s, so four clients sending them in a loop
    kept ``GET /v1/health`` waiting up to 1.1 s (0.57 s at the median).  The values
    are counted as the body is read (the arrays, strings, true, false and null before
    the parser runs, the numbers and objects as it makes them), so such a body is
    refused after its 10,001st value, and the health check answers at once."""
    n = 1 << 20
    hostile = [
        b'{"hands": [' + b",".join([item] * ((n - 20) // (len(item) + 1))) + b"]}"
        for item in (b"4.0", b"[]", b"1.5", b'""')
    ]
    assert all(len(raw) <= n for raw in hostile)
    with Server(ServeConfig(workers=1)) as s:
        stop = threading.Event()
        answers: list[tuple[int, str]] = []

        def send(raw: bytes) -> None:
            while not stop.is_set():
                status, _, out = s.request("POST", "/v1/evaluate", raw=raw, timeout=60)
                answers.append((status, out["detail"][:60]))

        clients = [threading.Thread(target=send, args=(raw,)) for raw in hostile]
        for client in clients:
            client.start()
        time.sleep(0.5)  # every client sends its body
        waits = []
        for _ in range(12):
            t0 = time.monotonic()
            assert s.request("GET", "/v1/health", timeout=60)[0] == 200
            waits.append(time.monotonic() - t0)
            time.sleep(0.02)
        stop.set()
        for client in clients:
            client.join(60)
    assert len(answers) >= 4
    assert {a[0] for a in answers} == {400}, answers[:4]
    assert all("more than 10,000 JSON values" in a[1] for a in answers), answers[:4]
    waits.sort()
    # generous: a health check alone answers within a few milliseconds
    assert waits[len(waits) // 2] < 0.4 and waits[-1] < 1.5, waits


@pytest.mark.parametrize(
    ("ref", "want"),
    [
        ("g", "/b/c/g"),
        ("./g", "/b/c/g"),
        ("g/", "/b/c/g/"),
        ("/g", "/g"),
        ("", "/b/c/d;p"),
        (".", "/b/c/"),
        ("./", "/b/c/"),
        ("..", "/b/"),
        ("../g", "/b/g"),
        ("../..", "/"),
        ("../../g", "/g"),
        ("../../../g", "/g"),
        ("/./g", "/g"),
        ("/../g", "/g"),
        ("g.", "/b/c/g."),
        ("..g", "/b/c/..g"),
        ("./../g", "/b/g"),
        ("./g/.", "/b/c/g/"),
        ("g/./h", "/b/c/g/h"),
        ("g/../h", "/b/c/h"),
        ("g;x=1/../y", "/b/c/y"),
        ("?y", "/b/c/d;p"),
        ("g#s", "/b/c/g"),
    ],
)
def test_the_path_checker_resolves_as_rfc_3986_s_examples(ref: str, want: str) -> None:
    # RFC 3986, 5.4: the references of the base http://a/b/c/d;p?q, their paths
    assert serve_paths.resolve("/b/c/d;p", ref) == want


def test_generated_raw_paths_route_below_the_root_and_need_the_key() -> None:
    # 400 raw paths (dots, %2E, %2F, %25, runs of slashes, .. past the root, Unicode,
    # control bytes, long ones), with and without a root_path in the scope and in the
    # config, with and without a key: no 5xx; a problem's type is <root>/problems/<slug>;
    # its instance resolves to the path routed, under the root; a keyed endpoint
    # reached by any spelling needs the key (tests/support/serve_paths.py)
    rng = random.Random(17)
    for _ in range(400):
        serve_paths.check(lambda n: rng.randrange(n))


def _scope(
    raw: bytes, mount: str = "", method: str = "GET", query: bytes = b""
) -> dict[str, Any]:
    path = mount.encode() + raw
    return {
        "type": "http",
        "method": method,
        "path": unquote_to_bytes(path).decode("utf-8", "replace"),
        "raw_path": path,
        "root_path": mount,
        "query_string": query,
        "client": ("127.0.0.1", 1),
        "headers": [(b"host", b"127.0.0.1")],
    }


def test_a_problem_type_encodes_an_asgi_root_path_it_holds() -> None:
    # ASGI's root_path is decoded: a space in it is %20 in a URI reference (RFC 3986)
    app = serve_paths.APPS[(None, "")]
    status, _, body = serve_paths.send(app, _scope(b"/nope", "/p x"))
    assert status == 404
    assert json.loads(body)["type"] == "/p%20x/problems/not-found"


@pytest.mark.parametrize(
    ("raw", "mount", "want"),
    [
        (b"/x/..", "", b"/"),
        (b"/%2E/", "", b"/"),
        (b"/./", "/px", b"/px/"),
        (b"/problems/./not-found", "", b"/problems/not-found"),
        # a run of slashes, one folder to a page's links: from /problems//not-found,
        # ../app.css resolved (strictly) to /problems/app.css, a 404
        (b"/problems//not-found", "", b"/problems/not-found"),
        (b"/problems///bad-request", "/px", b"/px/problems/bad-request"),
        (b"//", "", b"/"),
    ],
)
def test_a_page_asked_by_a_path_not_normal_is_redirected_to_it(
    raw: bytes, mount: str, want: bytes
) -> None:
    # a page's relative links resolve (strictly, RFC 3986 5.2) against the URL asked
    status, headers, _ = serve_paths.send(serve_paths.APPS[(None, "")], _scope(raw, mount))
    assert (status, headers[b"location"]) == (308, want)
    status, headers, page = serve_paths.send(
        serve_paths.APPS[(None, "")], _scope(want[len(mount) :], mount)
    )
    assert status == 200 and headers[b"content-type"].startswith(b"text/html")
    for ref in re.findall(r'(?:href|src)="([^"]*)"', page.decode()):
        if not ref.startswith(("data:", "#")):
            at = serve_paths.resolve(want.decode(), ref)
            assert at.startswith(mount + "/") and "/." not in at


@pytest.mark.parametrize("raw", [b"/v1/%2E%2E", b"/v1/%2e%2E/openapi.json", b"/v1/.%2E/"])
def test_a_path_under_v1_as_sent_needs_the_key_where_it_routes_elsewhere(
    raw: bytes,
) -> None:
    # a strict client (RFC 3986 5.2.4 reads no %2E as a dot) asks for a path under /v1/
    app = serve_paths.APPS[(serve_paths.KEY, "")]
    status, headers, _ = serve_paths.send(app, _scope(raw))
    assert (status, headers[b"www-authenticate"]) == (401, b"Bearer")


def test_an_instance_from_a_path_of_raw_bytes_and_an_encoded_dot_resolves_to_it() -> None:
    # the path is written as sent, byte for byte: \xff is %FF, not %C3%BF (a 308 to
    # its normal form, then its instance from there)
    raw = b"/\xff/%2E/nope"
    status, headers, _ = serve_paths.send(serve_paths.APPS[(None, "")], _scope(raw))
    assert (status, unquote_to_bytes(headers[b"location"])) == (308, b"/\xff/nope")
    to = headers[b"location"]
    status, _, body = serve_paths.send(serve_paths.APPS[(None, "")], _scope(to))
    at = serve_paths.resolve(to.decode(), json.loads(body)["instance"])
    assert (status, unquote_to_bytes(at.encode("latin-1"))) == (404, b"/\xff/nope")


@pytest.mark.parametrize(
    ("method", "raw", "query", "mount", "root", "want"),
    [
        ("POST", b"/v1/./score", b"", "", "", b"/v1/score"),
        ("GET", b"/v1/%2E//..", b"", "", "", b"/v1/"),  # (the harness's finding)
        ("GET", b"//%2enext///////../", b"", "", "", b"/.next/"),  # (.. climbs a "")
        ("HEAD", b"/v1/x/../health", b"a=1&b", "/px", "", b"/px/v1/health?a=1&b"),
        ("POST", b"/%2E%2E/v1/%73core", b" \x01", "", "/ofc", b"/ofc/v1/score?%20%01"),
        ("DELETE", b"/v1/games/%41b/../..", b"", "", "", b"/v1/"),
    ],
)
def test_a_request_by_a_path_not_normal_is_redirected_to_it_with_its_query(
    method: str, raw: bytes, query: bytes, mount: str, root: str, want: bytes
) -> None:
    # no relative instance resolves to the path routed both where %2E is no dot
    # (RFC 3986 5.2.4, curl) and where it is one (6.2.2.2, a browser): every request
    # by a path not in its normal form is sent there (308: its method and body kept)
    app = serve_paths.APPS[(None, root)]
    status, headers, body = serve_paths.send(app, _scope(raw, mount, method, query))
    assert (status, headers.get(b"location"), body) == (308, want, b"")
    status = serve_paths.send(app, _scope(raw, mount, "GET", query))[0]
    assert status == 308  # (whatever the method, the route's or not)


def test_a_key_refused_for_a_path_not_normal_gives_no_instance_to_misread() -> None:
    # the key is asked for first (a path reaching /v1/ as sent or as routed), and
    # an instance written from a URL a strict and a normalising client read apart
    # would resolve elsewhere in one of them: it is left out (RFC 9457: optional)
    app = serve_paths.APPS[(serve_paths.KEY, "")]
    for raw in (b"/v1/%2E//..", b"/v1/./score", b"/x/../v1/games"):
        status, _, body = serve_paths.send(app, _scope(raw, method="POST"))
        assert status == 401 and "instance" not in json.loads(body), (raw, body)
    status, _, body = serve_paths.send(app, _scope(b"/v1/games", method="POST"))
    assert (status, json.loads(body)["instance"]) == (401, "games")


@pytest.mark.parametrize(
    ("raw", "want"),
    [(b"/%%341/.", b"/%2541/"), (b"/v1/%G1/./x", b"/v1/%25G1/x"), (b"/a%/.", b"/a%25/")],
)
def test_a_redirect_s_location_is_a_uri_in_its_normal_form(raw: bytes, want: bytes) -> None:
    # a % starting no escape is no URI character (RFC 3986 2.4: %25): kept bare in
    # Location, /%%341/. went to /%41/, itself redirected to /A/, and a strict client
    # (Go's url.Parse) refuses /%G1
    app = serve_paths.APPS[(None, "")]
    status, headers, _ = serve_paths.send(app, _scope(raw))
    assert (status, headers[b"location"]) == (308, want)
    assert serve_paths.send(app, _scope(want))[0] != 308
