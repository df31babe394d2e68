"""``ofc-fast serve``'s JSON API on a real server (uvicorn on 127.0.0.1): the answers
equal the Python API's for the same inputs and seeds, every response validates against
the server's own /openapi.json, the last street's foul / Fantasyland figures equal a
brute force on the independent references, games and matches (Fantasyland carried),
and the safety limits (key, body size, queue, sessions)."""

from __future__ import annotations

import asyncio
import dataclasses
import gc
import gzip
import html
import json
import logging
import os
import random
import re
import signal
import socket
import subprocess
import sys
import threading
import time
import urllib.parse
import weakref
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import pytest
import serve_paths
from scripts import checkout_file, free_port, package_env
from serve_helpers import Server, check_response, http_parser, jsonschema, template_of
from test_search_stats import brute_stats

import ofc_fast as ofc
from ofc_fast import rules
from ofc_fast.arena.history import deal_record, load_schema
from ofc_fast.cli._render import position_option
from ofc_fast.errors import OfcError
from ofc_fast.game import Game
from ofc_fast.search import advise, make_observation
from ofc_fast.serve import ServeConfig, create_app
from ofc_fast.serve import _replay as replay_mod
from ofc_fast.serve._idempotency import Keyed
from ofc_fast.serve._idempotency import keyed as request_key
from ofc_fast.serve._problems import ApiError, refusal
from ofc_fast.serve._routes import analyze, evaluate
from ofc_fast.serve._sessions import SessionStore
from ofc_fast.serve._sizes import SIZES, Sizes

P = rules.PINEAPPLE
CAP = ServeConfig().max_time_budget

Api = Callable[..., tuple[int, Any]]


@pytest.fixture(scope="module")
def server() -> Iterator[Server]:
    with Server(ServeConfig(workers=2)) as s:
        yield s


@pytest.fixture(scope="module")
def doc(server: Server) -> dict[str, Any]:
    status, _, body = server.request("GET", "/openapi.json")
    assert status == 200
    return dict(body)


@pytest.fixture()
def api(server: Server, doc: dict[str, Any]) -> Api:
    """A request whose response is checked against /openapi.json; (status, body)."""

    def call(method: str, path: str, body: Any = None, **kw: Any) -> tuple[int, Any]:
        status, headers, out = server.request(method, path, body, **kw)
        check_response(doc, method, path, status, headers, out)
        return status, out

    return call


def flat(rows: Any) -> list[int]:
    return [c for r in rows for c in r]


# ----------------------------------------------------------------- analyze


def test_analyze_observation_equals_advise(api: Api) -> None:
    g = Game("pineapple", players=3, seed=21)
    for _ in range(4):  # the opening, then a later street
        obs = g.observation(g.to_act)  # type: ignore[arg-type]
        status, out = api(
            "POST", "/v1/analyze", {"observation": obs, "samples": 24, "seed": 5}
        )
        assert status == 200
        want = advise(obs, samples=24, seed=5, time_budget=CAP)
        assert [m["action"] for m in out["moves"]] == [a.action for a in want]
        for m, a in zip(out["moves"], want):
            assert (m["ev"], m["stderr"], m["samples"], m["exact"]) == (
                a.ev,
                a.stderr,
                a.samples,
                a.exact,
            )
            assert (m["foul"], m["fantasyland"], m["royalties"]) == (
                a.foul,
                a.fantasyland,
                a.royalties,
            )
            assert ofc.Move.from_dict(m["move"]) == a.move
            assert m["text"] == str(a.move)
        g.play_action(want[0].action)
    # the same observation with cards as text gives the same answer
    obs_text = g.observation(g.to_act, cards="text")  # type: ignore[arg-type]
    a = api("POST", "/v1/analyze", {"observation": obs_text, "samples": 8, "seed": 2})[1]
    b = api(
        "POST",
        "/v1/analyze",
        {
            "observation": g.observation(g.to_act),
            "samples": 8,  # type: ignore[arg-type]
            "seed": 2,
        },
    )[1]
    assert a["moves"] == b["moves"]


def test_analyze_plays_the_rule_set_an_observation_carries(api: Api) -> None:
    """An observation of a game whose rules are no preset carries them (``rule_set``):
    analyze plays by them without a ``rules`` field, names a bad one, and a ``rules``
    field still wins."""
    table = rules.PINEAPPLE.replace(sweep_bonus=5, royalties=rules.ROYALTIES_ALT_3)
    g = Game(table, players=2, seed=4)
    obs = json.loads(json.dumps(g.observation(g.to_act)))  # type: ignore[arg-type]
    status, out = api("POST", "/v1/analyze", {"observation": obs, "samples": 8, "seed": 3})
    assert status == 200
    want = advise(g, samples=8, seed=3, time_budget=CAP)
    assert [(m["action"], m["ev"]) for m in out["moves"]] == [
        (a.action, a.ev) for a in want
    ]
    bad = {**obs, "rule_set": {**obs["rule_set"], "sweep_bonus": "lots"}}
    status, out = api("POST", "/v1/analyze", {"observation": bad, "samples": 8})
    assert status == 422 and out["field"] == "observation.rule_set", out
    status, out = api(
        "POST", "/v1/analyze", {"observation": obs, "rules": "pineapple", "samples": 8}
    )
    assert status == 200 and out["rules"] == "PINEAPPLE"


def test_analyze_plays_a_carried_rule_set_without_the_rules_name(api: Api) -> None:
    """Regression: an observation carrying its ``rule_set`` but no ``rules`` name (a
    client that sent the rules once, as a whole) got a 500 "internal error" (a
    KeyError of the name, read first); the carried rules are played, as with the
    name, and a bad one is still a 422 naming ``observation.rule_set``."""
    g = Game(rules.PINEAPPLE.replace(sweep_bonus=5), players=2, seed=4)
    named = json.loads(json.dumps(g.observation(g.to_act)))  # type: ignore[arg-type]
    obs = {k: v for k, v in named.items() if k != "rules"}
    answers = [
        api("POST", "/v1/analyze", {"observation": o, "samples": 8, "seed": 3})
        for o in (obs, named)
    ]
    assert [status for status, _ in answers] == [200, 200], answers[0]
    assert answers[0][1]["moves"] == answers[1][1]["moves"]
    obs["rule_set"] = {**obs["rule_set"], "front_trips": None, "sweep_bonus": -1}
    status, out = api("POST", "/v1/analyze", {"observation": obs, "samples": 8})
    assert (status, out["field"]) == (422, "observation.rule_set"), out


def test_analyze_refuses_a_carried_rule_set_with_a_huge_name(api: Api) -> None:
    """A carried rule set's name is bounded as everywhere rules are read (64
    characters): a 500,000-character name is a short 422 naming the field, not a name
    echoed in the reply."""
    table = rules.PINEAPPLE.replace(sweep_bonus=5)
    g = Game(table, players=2, seed=4)
    obs = json.loads(json.dumps(g.observation(g.to_act)))  # type: ignore[arg-type]
    bad = {**obs, "rule_set": {**obs["rule_set"], "name": "n" * 500_000}}
    status, out = api("POST", "/v1/analyze", {"observation": bad, "samples": 8})
    assert status == 422 and out["field"] == "observation.rule_set", out
    assert "at most 64" in json.dumps(out) and len(json.dumps(out)) < 1000


def test_a_bad_rules_name_in_an_observation_is_named_observation_rules(
    api: Api,
) -> None:
    """Without a ``rules`` field the search plays the observation's ``rules``: a bad
    one is refused naming ``observation.rules`` (the body has no ``rules``), a value
    that is no string as such, never as the text of its Python repr."""
    g = Game("pineapple", 2, seed=3)
    obs = json.loads(json.dumps(g.observation(g.to_act)))  # type: ignore[arg-type]
    for value, status, detail in (
        ("nope", 422, "unknown rule set 'nope'"),
        (5, 400, "observation.rules must be a string, got a number"),
        (["pineapple"], 400, "observation.rules must be a string, got an array"),
    ):
        body = {"observation": {**obs, "rules": value}, "samples": 4}
        got, out = api("POST", "/v1/analyze", body)
        assert (got, out["field"]) == (status, "observation.rules"), out
        assert out["detail"].startswith(detail), out
    body = {"observation": {**obs, "rules": "nope"}, "rules": "pineapple", "samples": 4}
    assert api("POST", "/v1/analyze", body)[0] == 200  # the body's rules win


def test_a_bad_observation_field_is_named_by_its_path() -> None:
    """A bad ``observation.boards`` or ``observation.legal_actions`` was a 422 whose
    ``field`` was ``observation`` (only the detail named the key): every key the
    search reads, given a value of the wrong JSON type, is refused naming its own path
    (``observation.boards[1]``, ``observation.legal_actions[0]``)."""
    g = Game("pineapple", 2, seed=3)
    obs = json.loads(json.dumps(g.observation(g.to_act)))  # type: ignore[arg-type]
    boards = obs["boards"]
    # what the search does not read (a client may send the observation as it got it)
    unread = {"button", "game", "lowball", "to_act", "is_over", "street"}
    unread |= {"discard_counts", "face_down"}
    cases: list[tuple[str, Any, str]] = [
        *[(key, "x", f"observation.{key}") for key in sorted(set(obs) - unread)],
        ("seat", None, "observation.seat"),
        ("to_discard", 1.5, "observation.to_discard"),
        ("full_set", 1, "observation.full_set"),
        ("boards", [boards[0], "x"], "observation.boards[1]"),
        ("boards", [boards[0], [[], []]], "observation.boards[1]"),
        ("boards", [boards[0], [[], [], "Zz"]], "observation.boards[1][2]"),
        ("face_down_counts", [[0, 0, 0], 0], "observation.face_down_counts[1]"),
        ("fantasyland", [0, "x"], "observation.fantasyland[1]"),
        ("legal_actions", {"a": 1}, "observation.legal_actions"),
        ("legal_actions", ["4"], "observation.legal_actions[0]"),
        ("legal_actions", [], "observation.legal_actions"),
        ("dealt", [47, {}], "observation.dealt[1]"),
    ]
    for key, value, field in cases:
        with pytest.raises(ApiError) as info:
            analyze({"observation": {**obs, key: value}, "samples": 4})
        assert info.value.field == field, (key, value, info.value.field, str(info.value))
        assert info.value.status in (400, 422)
    assert analyze({"observation": obs, "samples": 4})["moves"]


def test_an_observation_missing_a_field_is_named_by_its_path() -> None:
    """An observation without ``seat`` (or any other field the search reads) was a 422
    whose ``field`` was ``observation`` (only the detail named the key): it names the
    missing field's path (``observation.seat``); of several, the first the search
    reads, the detail listing them all."""
    g = Game("pineapple", 2, seed=3)
    obs = json.loads(json.dumps(g.observation(g.to_act)))  # type: ignore[arg-type]
    read = ["players", "seat", "boards", "fantasyland", "face_down_counts"]
    read += ["dealt", "discards", "to_discard", "future_cards", "future_discards"]
    for key in read:
        body = {"observation": {k: v for k, v in obs.items() if k != key}, "samples": 4}
        with pytest.raises(ApiError) as info:
            analyze(body)
        assert (info.value.status, info.value.field) == (422, f"observation.{key}")
        assert key in str(info.value)
    both = {k: v for k, v in obs.items() if k not in ("seat", "dealt")}
    with pytest.raises(ApiError) as info:
        analyze({"observation": both, "samples": 4})
    assert info.value.field == "observation.seat"
    assert "seat" in str(info.value) and "dealt" in str(info.value)


@pytest.mark.parametrize("key", ["board", "dealt", "opponents", "dead"])
def test_analyze_refuses_an_observation_and_the_text_form_together(
    api: Api, key: str
) -> None:
    """An ``observation`` with ``board``, ``dealt``, ``opponents`` or ``dead`` beside
    it was answered for the observation, the text form's field ignored, silently: a
    client that meant the text position got advice on another.  It is a 422 naming
    the text field."""
    g = Game("pineapple", 2, seed=3)
    obs = json.loads(json.dumps(g.observation(g.to_act), default=int))
    text: dict[str, Any] = {"board": "Qh / 9s 9h / As Ks", "dealt": "2c 5d Ts"}
    text |= {"opponents": ["7c / 8d 8h / 4s 4d"], "dead": "3c"}
    body = {"observation": obs, key: text[key], "samples": 4}
    status, out = api("POST", "/v1/analyze", body)
    assert (status, out["field"]) == (422, key), out
    assert "observation" in out["detail"], out


def test_analyze_text_form_equals_advise(api: Api) -> None:
    body = {
        "rules": "pineapple",
        "board": "Qh / 9s 9h / As Ks",
        "dealt": "2c 5d Ts",
        "opponents": ["7c / 8d 8h / 4s 4d"],
        "dead": "3c",
        "samples": 32,
        "seed": 9,
    }
    status, out = api("POST", "/v1/analyze", body)
    assert status == 200 and out["rules"] == "PINEAPPLE"
    obs = make_observation(P, body["board"], body["dealt"], body["opponents"], body["dead"])
    want = advise(obs, samples=32, seed=9, time_budget=CAP)
    assert [(m["action"], m["ev"], m["foul"]) for m in out["moves"]] == [
        (a.action, a.ev, a.foul) for a in want
    ]


def test_bad_stacks_are_refused_naming_stacks(api: Api) -> None:
    """``score``'s chip counts are their own field: a wrong count of them or a
    negative one names ``stacks``, not the boards; one that is no integer is a value
    of the wrong type, a 400 naming it (docs/serve.md)."""
    boards = [
        "Qh Qd 2c / 9s 9h 9d 5c 5d / As Ks Qs Js Ts",
        "2h 3d 4c / 6s 6h 7d 7c 8d / Ah Ad Kh Kd 8c",
    ]
    for stacks in ([100], [100, 100, 100], [-1, 100]):
        status, out = api("POST", "/v1/score", {"boards": boards, "stacks": stacks})
        assert (status, out["field"], out["error"]) == (422, "stacks", "TableError"), out
    status, out = api("POST", "/v1/score", {"boards": boards, "stacks": ["a", 100]})
    assert (status, out["field"]) == (400, "stacks[0]"), out
    status, out = api("POST", "/v1/score", {"boards": boards, "stacks": [100, 100]})
    assert status == 200 and sum(out["stacks"]) == 200


def test_a_bad_card_in_the_text_form_names_its_field(api: Api) -> None:
    """Each text of the position is its own field: a card that is no card is refused
    naming the field that holds it, not ``board`` whatever it is."""
    base = {
        "board": "Qh / 9s 9h / As Ks",
        "dealt": "2c 5d Ts",
        "opponents": ["7c / 8d 8h / 4s 4d", "/ /"],
        "dead": "3c",
        "samples": 4,
    }
    for field, value, named in (
        ("board", "Zz / 9s 9h / As Ks", "board"),
        ("dealt", "2c 5d Zz", "dealt"),
        ("dead", "3c Zz", "dead"),
        ("opponents", ["7c / 8d 8h / 4s 4d", "Zz / /"], "opponents[1]"),
        ("opponents", ["7c / 8d 8h / 4s 4d", "Qs /"], "opponents[1]"),
    ):
        status, out = api("POST", "/v1/analyze", {**base, field: value})
        assert (status, out["field"]) == (422, named), (field, value, out)
    assert api("POST", "/v1/analyze", base)[0] == 200


def test_a_position_the_library_refuses_names_the_text_field_at_fault(
    api: Api,
) -> None:
    """Regression: a text-form position the library refused (a card shown twice, a row
    too full) was named ``board`` whatever part the library named (``dealt holds 2c,
    a card shown twice``): each part is named by the text field that holds it, and an
    observation's board row by its path."""
    five = "2d 3d 4d 5d 6d"
    part = {"board": "2c / 3c 4c / 5c 6c", "dealt": "2d 3d 4d"}
    one = ["2s / 3s 4s / 5s 6s"]
    for body, named in (
        ({"board": "/ /", "dealt": "2c 3c 4c 5c 6c", "opponents": ["2c / /"]}, "dealt"),
        ({"board": "/ /", "dealt": five, "dead": "2d"}, "dead"),
        (
            {"board": "/ /", "dealt": five, "opponents": ["/ /", "/ /"], "dead": "3d"},
            "dead",
        ),
        ({"board": "2c 3c 4c 5c / /", "dealt": "2d 3d 4d"}, "board"),
        ({**part, "opponents": ["2s 3s 4s 5s / /"]}, "opponents[0]"),
        ({**part, "opponents": [*one, "2c / 3h / 4h 5h 6h"]}, "opponents[1]"),
        ({**part, "opponents": [*one, "/ / 2h 3h 4h 5h 6h 7h"]}, "opponents[1]"),
        ({**part, "dealt": "2d 3d 4d 5d", "opponents": one}, "board"),  # the whole
    ):
        status, out = api("POST", "/v1/analyze", {**body, "samples": 4})
        assert (status, out["field"]) == (422, named), (body, out)
    obs = Game("pineapple", 2, seed=1).observation(1)
    obs["boards"][1][2] = [99]
    status, out = api("POST", "/v1/analyze", {"observation": obs, "samples": 4})
    assert (status, out["field"]) == (422, "observation.boards[1][2]"), out


def test_a_position_the_text_form_cannot_seat_names_the_field_at_fault(
    api: Api,
) -> None:
    """An analysis of too many or no opponents, of no card dealt, or under rules that
    are no OFC or Pineapple was refused naming ``board`` (the position as a whole):
    the refusal names the field to change."""
    base = {"board": "/ /", "dealt": "2c 5d Ts Qs Kh", "opponents": ["/ /"], "samples": 4}
    for field, value in (
        ("opponents", ["/ /"] * 3),  # Pineapple seats 3 at most
        ("opponents", []),
        ("dealt", ""),
        ("rules", "classic-1-6"),
    ):
        status, out = api("POST", "/v1/analyze", {**base, field: value})
        assert (status, out["field"]) == (422, field), (field, value, out)
    status, out = api(
        "POST",
        "/v1/analyze",
        {
            "observation": Game("pineapple", 2, seed=1).observation(0),
            "rules": "classic-1-6",
        },
    )
    assert (status, out["field"]) == (422, "rules"), out
    assert api("POST", "/v1/analyze", {**base, "opponents": ["/ /"] * 2})[0] == 200


@pytest.mark.parametrize(
    "message, field, option",
    [
        ("observation: discards holds 99, not a card id 0..51", "dead", "--dead: holds 99"),
        ("make_observation: dead holds 2c, a card shown twice", "dead", "--dead: holds 2c"),
        ("observation: dealt holds 2c, a card shown twice", "dealt", "--dealt: holds 2c"),
        ("observation: board 0 row 0 holds too many cards", "board", "--board: front row"),
        (
            "observation: board 2 row 1 holds too many cards",
            "opponents[1]",
            "--opponent (seat 2): middle row",
        ),
        (
            "make_observation: the boards fit no point of the deal",
            "board",  # the position as a whole
            "--board, --dealt, --opponent: the boards fit",
        ),
    ],
)
def test_the_text_form_and_advise_name_the_same_input_for_a_part(
    message: str, field: str, option: str
) -> None:
    """The service's text form and ``ofc-fast advise`` take a position alike (board,
    dealt, opponents, dead): a refusal naming the observation's ``discards`` (the cards
    given as ``dead``) named the text field ``dead`` but the options ``--board,
    --dealt, --opponent`` (the position as a whole), not ``--dead``."""
    sent = ("board", "dealt", "opponents")
    assert refusal(OfcError(message), "board", text=sent).field == field
    assert position_option(message).startswith(option)


@pytest.mark.parametrize("setting", [{"samples": 300}, {"seed": 5}, {"seed": 0}])
def test_analyze_exact_true_refuses_samples_and_seed_naming_them(
    api: Api, setting: dict[str, int]
) -> None:
    """``"exact": true`` with ``"samples": 300`` or ``"seed": 5`` answered the exact
    values (0 samples): the field ignored, silently.  It is a 422 naming the field
    (``ofc-fast advise --exact yes --samples 300`` is refused alike)."""
    body = {
        "board": "Qh Qd / 9s 9h 9d 5c 5d / As Ks Qs Js",
        "dealt": "2d 3d 4d",
        "opponents": ["2c 3c / 4c 6c 7c 8c 2h / 8h 9c Tc Jc"],
        "exact": True,
    }
    (name,) = setting
    status, out = api("POST", "/v1/analyze", {**body, **setting})
    assert (status, out["field"], out["error"]) == (422, name, "SearchError"), out
    assert "exact" in out["detail"]
    status, out = api("POST", "/v1/analyze", body)
    assert status == 200 and out["exact"] and out["samples"] == 0, out
    status, auto = api("POST", "/v1/analyze", {**body, **setting, "exact": "auto"})
    assert status == 200 and auto["moves"] == out["moves"], auto


@pytest.mark.parametrize("players", [2, 3])
def test_analyze_last_street_foul_and_fantasyland_equal_brute_force(
    api: Api, players: int
) -> None:
    """Every other board complete: 0 or 1, the references' verdict on the board the
    move makes (exact and sampled)."""
    rng = random.Random(40 + players)
    met = set()
    for _ in range(6):
        deck = list(range(52))
        rng.shuffle(deck)
        opps = [deck[13 * i : 13 * i + 13] for i in range(players - 1)]
        at = 13 * (players - 1)
        mine = sorted(deck[at : at + 11], key=lambda c: c // 4)
        own = [mine[:2], mine[2:6], mine[6:]]
        dealt = deck[at + 11 : at + 14]
        text = lambda rows: " / ".join(ofc.cards_str(r) or "-" for r in rows)  # noqa: E731
        for exact in (True, False):
            status, out = api(
                "POST",
                "/v1/analyze",
                {
                    "board": text(own),
                    "dealt": ofc.cards_str(dealt),
                    "opponents": [text([o[:3], o[3:8], o[8:]]) for o in opps],
                    "exact": exact,
                    **({} if exact else {"samples": 4, "seed": 1}),
                },
            )
            assert status == 200
            for m in out["moves"]:
                assert m["exact"] is exact
                assert m["foul"] in (0, 1) and m["fantasyland"] in (0, 1)
                board = [list(r) for r in own]
                for card, row in m["move"]["place"]:
                    board[("front", "middle", "back").index(row)].append(
                        ofc.parse_card(card)
                    )
                assert (m["foul"], m["fantasyland"], m["royalties"]) == brute_stats(
                    flat(board)
                )
                met.add((m["foul"], m["fantasyland"]))
    assert len(met) >= 2


# ------------------------------------------------------------ other endpoints


def test_fantasyland_arrange_score_evaluate_equal_the_python_api(api: Api) -> None:
    cards = "Ad Ah Th Jh 6h Ts 5d 3c Tc 3s 7h Qh 3d 9s Kc Kd 2s"
    status, out = api("POST", "/v1/fantasyland", {"cards": cards, "rules": "pineapple"})
    s = ofc.solve_fantasyland(cards, P, alternatives=True)
    assert status == 200
    assert out["best"]["board"] == str(s.board) and out["best"]["value"] == s.value
    assert out["best"]["stays"] == s.stays and out["best"]["royalties"] == s.royalties
    assert out["stay"]["board"] == str(s.best_stay.board)  # type: ignore[union-attr]

    hand = "As Ad Kc Kd Qh Qs Jc Jd 9h 7s 5c 3d 2h"
    for objective in ("ev", "royalties"):
        status, out = api(
            "POST", "/v1/arrange", {"cards": hand.split(), "objective": objective}
        )
        b = ofc.best_setting(hand, rules.CLASSIC_1_6, objective)
        assert status == 200 and out["best"]["board"] == str(b.board)
        assert out["best"]["value"] == b.value

    boards = [
        "Qh Qd 2c / 9s 9h 9d 5c 5d / As Ks Qs Js Ts",
        "2h 3d 4c / 6s 6h 7d 7c 8d / Ah Ad Kh Kd 8c",
        "Jc Jh 3s / Tc Th 4d 4s 2d / 7s 8h 9c Td Jd",
    ]
    status, out = api("POST", "/v1/score", {"boards": boards, "rules": "ofc", "button": 1})
    st = ofc.settle(boards, rules.OFC, button=1)
    assert status == 200 and out["net"] == st.net
    assert [p["rows"] for p in out["pairs"]] == [list(s.rows) for _, s in st.pairs]
    assert out["royalties"][0] == list(ofc.Board.parse(boards[0]).royalties(rules.OFC))

    status, out = api(
        "POST",
        "/v1/evaluate",
        {"hands": ["As Ks Qs Js Ts", ["Qh", "Qd", 3]], "boards": boards[:1]},
    )
    assert status == 200
    assert out["hands"][0]["strength"] == ofc.rank5("As Ks Qs Js Ts")
    assert out["hands"][1]["strength"] == ofc.rank3([42, 41, 3])
    assert out["boards"][0]["fantasyland"] == 14 and out["boards"][0]["foul"] is False


# the classic presets (13 cards set at once) have no Fantasyland (docs/rules.md)
_NO_FANTASYLAND = (
    "classic-1-6",
    "classic-2-4",
    "malayan",
    "vietnamese",
    "singapore",
    "hawaiian-gardens",
)


@pytest.mark.parametrize("name", _NO_FANTASYLAND)
def test_fantasyland_refuses_rules_without_fantasyland_naming_rules(
    api: Api, name: str
) -> None:
    """``/v1/fantasyland`` solved 14 cards under a classic rule set (200), a hand no
    deal of theirs gives, with ``stay`` / ``no_stay`` that mean nothing there: it is a
    422 naming ``rules``, and a rule set with Fantasyland still solves."""
    cards = "Ad Ah Th Jh 6h Ts 5d 3c Tc 3s 7h Qh 3d 9s"
    for n in (13, 14):
        body = {"cards": cards.split()[:n], "rules": name}
        status, out = api("POST", "/v1/fantasyland", body)
        assert (status, out["field"]) == (422, "rules"), out
        assert "Fantasyland" in out["detail"]
    status, out = api("POST", "/v1/fantasyland", {"cards": cards, "rules": "ofc"})
    assert status == 200, out


def test_health_openapi_and_static_pages(server: Server, api: Api) -> None:
    assert api("GET", "/v1/health")[1]["status"] == "ok"
    for path, ctype in (
        ("/", "text/html"),
        ("/app.js", "text/javascript"),
        ("/app.css", "text/css"),
    ):
        status, headers, body = server.request("GET", path)
        assert status == 200 and headers["content-type"].startswith(ctype)
        text = body.decode() if isinstance(body, bytes) else json.dumps(body)
        assert "http://" not in text and "https://" not in text  # nothing fetched
        csp = headers["content-security-policy"]
        assert "default-src 'self'" in csp
        # no <base> to re-point the page's relative URLs, no form to post elsewhere
        assert "base-uri 'none'" in csp and "form-action 'none'" in csp


def test_head_is_a_get_without_the_body(server: Server) -> None:
    """RFC 9110: a server supports HEAD wherever it supports GET (monitors probe
    /v1/health with it); the answer is GET's status and headers, with no body."""
    sid = server.request("POST", "/v1/games", {"bots": ["random"], "seed": 3})[2]["id"]
    for path in ("/v1/health", f"/v1/games/{sid}", "/", "/openapi.json"):
        got = server.request("GET", path)
        status, headers, body = server.request("HEAD", path)
        assert (status, body) == (200, None), path
        assert headers["content-type"] == got[1]["content-type"], path
        if path != "/v1/health":  # its "busy" count may differ between the two
            assert headers["content-length"] == got[1]["content-length"], path
    status, headers, body = server.request("HEAD", "/v1/score")
    assert (status, headers["allow"], body) == (405, "POST", None)
    assert headers["content-type"] == "application/problem+json"
    assert server.request("HEAD", "/v1/games/nope")[0] == 404


def test_a_405_allows_head_wherever_get_is_allowed(server: Server) -> None:
    """RFC 9110 (15.5.6): a 405's Allow lists the methods the resource supports, and
    every GET resource answers HEAD; a POST resource lists only POST."""
    sid = server.request("POST", "/v1/games", {"bots": ["random"], "seed": 3})[2]["id"]
    for path, allow in (
        ("/v1/health", "GET, HEAD"),
        (f"/v1/games/{sid}", "GET, HEAD"),
        ("/", "GET, HEAD"),
        ("/openapi.json", "GET, HEAD"),
        ("/v1/score", "POST"),
        (f"/v1/games/{sid}/moves", "POST"),
    ):
        status, headers, _ = server.request("DELETE", path)
        assert (status, headers["allow"]) == (405, allow), path
        listed = {m.strip() for m in allow.split(",")}
        for method in listed:  # each method listed is answered, none with 405
            assert server.request(method, path, {})[0] != 405, (method, path)


def test_options_asterisk_answers_for_the_whole_server(server: Server) -> None:
    """RFC 9110 (9.3.7): ``OPTIONS *`` asks about the server as a whole; it was a 404
    "no page *". It is a 204 with no content whose Allow lists the methods the
    server answers somewhere (each really answered, none with a 405), and another
    method on ``*`` is a 405 that allows OPTIONS."""
    status, headers, body = server.request("OPTIONS", "*")
    assert (status, body) == (204, None)
    assert "content-length" not in headers and "content-type" not in headers
    assert {m.strip() for m in headers["allow"].split(",")} == {
        "GET",
        "HEAD",
        "POST",
        "OPTIONS",
    }
    for method, path in (("GET", "/v1/health"), ("HEAD", "/"), ("POST", "/v1/score")):
        assert server.request(method, path, {})[0] != 405, (method, path)
    status, headers, body = server.request("GET", "*")
    assert (status, headers["allow"]) == (405, "OPTIONS")
    assert headers["content-type"] == "application/problem+json"
    assert server.request("OPTIONS", "/v1/health")[0] == 405  # a resource: as before


# ------------------------------------------------------------------- games


def test_a_whole_deal_gives_the_result_and_its_hand_history(api: Api) -> None:
    jsonschema = pytest.importorskip(
        "jsonschema", reason='pip install ".[test]" (jsonschema)'
    )
    status, st = api(
        "POST",
        "/v1/games",
        {"rules": "ofc", "players": 3, "seed": 12, "bots": ["random", "heuristic"]},
    )
    assert status == 200 and st["seats"] == ["you", "random", "heuristic"]
    gid = st["id"]
    assert api("GET", f"/v1/games/{gid}")[1]["observation"] == st["observation"]
    while not st["is_over"]:
        obs = st["observation"]
        status, st = api(
            "POST", f"/v1/games/{gid}/moves", {"action": obs["legal_actions"][-1]}
        )
        assert status == 200
    rec = st["history"]
    jsonschema.Draft202012Validator(load_schema()).validate(rec)
    g = Game.replay(rec["history"])
    assert list(g.result().net) == st["result"]["net"] == rec["points"]
    assert st["match"]["totals"] == st["result"]["net"]
    # moves after the end, and a move of someone else's cards
    assert api("POST", f"/v1/games/{gid}/moves", {"action": 0})[0] == 409
    status, st2 = api("POST", f"/v1/games/{gid}/next")
    assert status == 200 and st2["hand_no"] == 1 and not st2["is_over"]
    status, bad = api(
        "POST",
        f"/v1/games/{gid}/moves",
        {"move": {"place": [["As", "front"]], "discard": []}},
    )
    assert status == 422 and bad["field"] == "move" and bad["error"] == "MoveError"


def test_openapi_types_the_result_of_a_deal(doc: dict[str, Any], api: Api) -> None:
    """Regression: /openapi.json gave a finished game's ``result`` (and a replayed
    deal's) as any object, so a client generated from it had no field of it to read:
    now each field docs/serve.md names is required and typed (the api fixture checks
    every answer against it), and a result of the wrong shape fails the schema."""
    showdown = {"net", "fouls", "royalties", "fantasyland", "boards"}
    schemas = doc["components"]["schemas"]
    game = schemas["GameState"]["properties"]["result"]
    assert set(game["required"]) == showdown | {"pairs"}, game
    pair = game["properties"]["pairs"]["items"]
    assert set(pair["required"]) == {"seats", "net", "rows", "sweep", "royalties"}
    deal = schemas["ReplayResponse"]["properties"]["deals"]["items"]
    assert set(deal["properties"]["result"]["required"]) == showdown
    status, st = api("POST", "/v1/games", {"players": 3, "seed": 4, "bots": ["random"]})
    while not st["is_over"]:
        action = {"action": st["observation"]["legal_actions"][0]}
        status, st = api("POST", f"/v1/games/{st['id']}/moves", action)
    result = st["result"]
    validator = jsonschema.Draft202012Validator({**game, "components": doc["components"]})
    validator.validate(st["result"])
    for field, wrong in (("net", ["1", "-1", "0"]), ("boards", ["As Ks Qs / - / -"])):
        with pytest.raises(jsonschema.ValidationError):
            validator.validate({**result, field: wrong})
    status, replayed = api("POST", "/v1/replay", {"text": json.dumps(st["history"])})
    assert status == 200
    assert replayed["deals"][0]["result"]["net"] == st["result"]["net"]


def test_openapi_gives_a_finished_game_s_history_its_schema(
    doc: dict[str, Any], api: Api
) -> None:
    """Regression: /openapi.json gave a finished game's ``history`` as any object,
    though it is a hand-history line (docs/serve.md: the format of ``ofc-fast play
    --history``); now it is that line's schema, so a history without its deck or of
    another format fails it."""
    state = {**doc["components"]["schemas"]["GameState"], "components": doc["components"]}
    validator = jsonschema.Draft202012Validator(state)
    status, st = api("POST", "/v1/games", {"seed": 6, "bots": ["random"]})
    while not st["is_over"]:
        action = {"action": st["observation"]["legal_actions"][0]}
        status, st = api("POST", f"/v1/games/{st['id']}/moves", action)
    validator.validate(st)
    rec = st["history"]
    assert {"format", "hand_no", "seats", "points", "history"} <= set(rec)
    deal = {k: v for k, v in rec["history"].items() if k != "deck"}
    for wrong in (
        {**rec, "format": "other"},
        {**rec, "history": deal},
        {**rec, "points": 1},
    ):
        with pytest.raises(jsonschema.ValidationError):
            validator.validate({**st, "history": wrong})
    validator.validate({**st, "history": None})  # (a deal still on: none)


_MASK = 2**64 - 1
_GOLDEN = 0x9E3779B97F4A7C15
_MIX = (0xBF58476D1CE4E5B9, 0x94D049BB133111EB)


def _mix64(z: int) -> int:
    """SplitMix64's finalizer (csrc/src/ofc_rng.c), written from its definition."""
    z = ((z ^ (z >> 30)) * _MIX[0]) & _MASK
    z = ((z ^ (z >> 27)) * _MIX[1]) & _MASK
    return z ^ (z >> 31)


def _unmix64(z: int) -> int:
    """The inverse of :func:`_mix64` (each step is a bijection of 64-bit words)."""

    def unshift(y: int, k: int) -> int:
        x = y
        for _ in range(64 // k + 1):
            x = y ^ (x >> k)
        return x

    z = unshift(z, 31)
    z = (z * pow(_MIX[1], -1, 2**64)) & _MASK
    z = unshift(z, 27)
    z = (z * pow(_MIX[0], -1, 2**64)) & _MASK
    return unshift(z, 30)


def _next_deal_seed(seed: int) -> int:
    """Deal 1's seed from deal 0's: deal i of a match is dealt from
    mix64(key + (i + 1) * golden), key the match seed's, and mix64 inverts."""
    key = (_unmix64(seed) - _GOLDEN) & _MASK
    return _mix64((key + 2 * _GOLDEN) & _MASK)


def test_a_deal_s_history_does_not_reveal_the_server_s_later_deals(api: Api) -> None:
    """A deal's history is shown once it is over; with the seed the server drew for
    the match, it carried deal 0's seed, from which a client computes every later
    deal of the match (its cards, the bots'). It carries the deck (enough to replay
    the deal) and no seed; a client's own seed stays in it."""
    for body in ({"bots": ["random"], "seed": 21}, {"bots": ["random"]}):
        seeds = []
        status, st = api("POST", "/v1/games", body)
        for _ in range(2):
            while not st["is_over"]:
                action = st["observation"]["legal_actions"][0]
                st = api("POST", f"/v1/games/{st['id']}/moves", {"action": action})[1]
            hist = st["history"]["history"]
            assert list(Game.replay(hist).result().net) == st["result"]["net"]
            seeds.append(hist["seed"])
            st = api("POST", f"/v1/games/{st['id']}/next")[1]
        if "seed" in body:  # the client's: kept (and the reference predicts deal 1)
            assert seeds[1] == _next_deal_seed(seeds[0]), seeds
        else:
            assert seeds == [None, None], seeds


def _best_for_fantasyland(api: Api, obs: dict[str, Any]) -> dict[str, Any]:
    """The move of highest Fantasyland chance (then EV), from /v1/analyze's stats."""
    out = api("POST", "/v1/analyze", {"observation": obs, "samples": 16, "seed": 3})[1]
    best = max(out["moves"], key=lambda m: (m["fantasyland"] - m["foul"], m["ev"]))
    return dict(best["move"])


def test_a_match_carries_fantasyland_and_the_client_sets_it(api: Api) -> None:
    status, st = api(
        "POST",
        "/v1/games",
        {"rules": "pineapple", "players": 2, "seed": 3, "bots": ["random"], "hands": 12},
    )
    gid = st["id"]
    for _ in range(12):
        while not st["is_over"]:
            st = api(
                "POST",
                f"/v1/games/{gid}/moves",
                {"move": _best_for_fantasyland(api, st["observation"])},
            )[1]
        earned = st["result"]["fantasyland"][0]
        st = api("POST", f"/v1/games/{gid}/next")[1]
        if earned:
            break
    else:
        pytest.fail("no Fantasyland in 12 deals")
    obs = st["observation"]
    assert st["match"]["fantasyland"][0] == earned == obs["fantasyland"][0]
    assert obs["full_set"] and len(obs["dealt"]) == earned
    fl = api("POST", "/v1/fantasyland", {"cards": obs["dealt"], "rules": "pineapple"})[1]
    rows = fl["best"]["rows"]
    move = {
        "place": [
            [c, r]
            for r, text in zip(("front", "middle", "back"), rows)
            for c in text.split()
        ],
        "discard": fl["best"]["discards"],
    }
    st = api("POST", f"/v1/games/{gid}/moves", {"move": move})[1]
    while not st["is_over"]:  # the bot plays on; our set is on the table face down
        st = api(
            "POST",
            f"/v1/games/{gid}/moves",
            {"action": st["observation"]["legal_actions"][0]},
        )[1]
    got = [sorted(ofc.parse_cards(r)) for r in st["result"]["boards"][0]]
    assert got == [sorted(ofc.parse_cards(r)) for r in rows]


def test_a_game_can_start_with_a_seat_in_fantasyland(api: Api) -> None:
    body = {"rules": "pineapple", "players": 2, "seed": 5, "bots": ["random"]}
    status, st = api("POST", "/v1/games", {**body, "fantasyland": [14, 0]})
    assert status == 200 and st["match"]["fantasyland"] == [14, 0]
    obs = st["observation"]
    g = ofc.Match(P, 2, seed=5, fantasyland=(14, 0)).next_game()  # the same deal
    assert obs["full_set"] and obs["fantasyland"] == [14, 0] and obs["to_discard"] == 1
    assert obs["dealt"] == list(g.dealt) and len(obs["dealt"]) == 14
    ofc3 = {"rules": "ofc", "players": 3, "fantasyland": [0, 0, 13], "you": 2}
    obs3 = api("POST", "/v1/games", ofc3)[1]["observation"]
    assert obs3["full_set"] and len(obs3["dealt"]) == 13 and obs3["to_discard"] == 0
    # refused by the table validator Match and Game share, naming the field (the
    # seat's item where one is at fault)
    for bad, status_, field in (
        ([12, 0], 422, "fantasyland[0]"),
        ([14], 422, "fantasyland"),
        ([14, 0, 0], 422, "fantasyland"),
        (["14", 0], 400, "fantasyland[0]"),  # no integer: the wrong type
        ([True, 0], 400, "fantasyland[0]"),
        ("14", 400, "fantasyland"),
        (14, 400, "fantasyland"),
    ):
        status, out = api("POST", "/v1/games", {**body, "fantasyland": bad})
        assert (status, out["field"]) == (status_, field), (bad, out)
        if status == 422:
            with pytest.raises(OfcError) as exc:
                ofc.Match(P, 2, fantasyland=bad)
            assert out["error"] == type(exc.value).__name__ == "TableError"
    status, out = api(
        "POST", "/v1/games", {"rules": "ofc", "players": 4, "fantasyland": [17] * 4}
    )
    assert (status, out["field"], out["error"]) == (422, "fantasyland", "TableError")


def test_replay_cuts_a_long_seat_name_between_whole_characters() -> None:
    """POST /v1/replay cut each seat name to its first 40 code points, splitting a
    family emoji (man ZWJ woman ZWJ girl: 5 code points) to a dangling joiner, a letter
    from its combining accent, a flag from its second regional indicator. A name is
    cut before the character (as a reader sees it) that would cross the 40."""
    family = "\U0001f468\u200d\U0001f469\u200d\U0001f467"
    accented = "e\u0301"  # e + COMBINING ACUTE ACCENT
    flag = "\U0001f1eb\U0001f1f7"  # FR
    g = ofc.Game("pineapple", 3, seed=5)
    while not g.is_over:
        g.play_action(g.legal_actions()[0])
    names = ["x" + family * 10, "a" + accented * 20, "a" + flag * 20]
    out = replay_mod.replay({"text": json.dumps(deal_record(g, 0, names))})
    # by hand: 1 + 7 * 5 = 36 code points (an 8th family ends at 41); 1 + 19 * 2 = 39
    # (the 20th "e" is the 40th, its accent the 41st); 1 + 19 * 2 = 39 likewise.
    assert out["deals"][0]["seats"] == [
        "x" + family * 7,
        "a" + accented * 19,
        "a" + flag * 19,
    ]
    # an unknown field's name in a 422 problem is cut alike (its field pointer)
    from ofc_fast.serve._fields import check_known
    from ofc_fast.serve._problems import ApiError

    with pytest.raises(ApiError) as err:
        check_known({"x" + family * 10: 1}, ("a",))
    assert err.value.field == "x" + family * 7


def test_replay_steps_through_a_history_file(api: Api, tmp_path: Any) -> None:
    hist = tmp_path / "h.jsonl"
    out = subprocess.run(
        [
            sys.executable,
            "-m",
            "ofc_fast",
            "play",
            "--rules",
            "pineapple",
            "--players",
            "3",
            "--hands",
            "3",
            "--seed",
            "2",
            "--history",
            str(hist),
            "--json",
        ],
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert out.returncode == 0, out.stderr
    status, res = api("POST", "/v1/replay", {"text": hist.read_text()})
    assert status == 200 and len(res["deals"]) == 3
    for line, deal in zip(hist.read_text().splitlines(), res["deals"]):
        g = Game.replay(json.loads(line)["history"])
        assert len(deal["frames"]) == len(g.moves) + 1
        last = deal["frames"][-1]["boards"]
        assert last == [[ofc.cards_str(r) for r in b.rows] for b in g.boards]
        assert deal["result"]["net"] == list(g.result().net)
    status, bad = api("POST", "/v1/replay", {"text": '{"format": 1}\n'})
    assert status == 422 and bad["error"] == "HistoryError"


def test_the_page_and_docs_name_the_history_form_replay_reads(api: Api) -> None:
    """The Replay page's file label and docs/serve.md said a file "from ofc-fast play
    --history" replays, but ``play --history PATH.json`` (its default form: one JSON
    document) is refused: the server reads JSON lines (``PATH.jsonl``), and both say
    so, as ``ofc-fast replay`` does."""
    g = Game("pineapple", 2, seed=1)
    while not g.is_over:
        g.play_action(g.legal_actions()[0])
    whole = json.dumps({"rules": "PINEAPPLE", "deals": [g.history()]})
    status, out = api("POST", "/v1/replay", {"text": whole})
    assert (status, out["field"]) == (422, "text") and ".jsonl" in out["detail"], out
    page = (Path(ofc.__file__).parent / "serve" / "web" / "index.html").read_text("utf-8")
    label = page.split('id="replay-file"')[0].rsplit("<label>", 1)[1]
    assert "play --history FILE.jsonl" in label, label
    docs = checkout_file("docs/serve.md").read_text(encoding="utf-8")
    said = docs.split("`replay` takes")[1].split("\n\n")[0]  # its paragraph
    assert "play --history FILE.jsonl" in " ".join(said.split()), said


def _history_text(deals: int) -> str:
    """A history file of ``deals`` finished Pineapple deals, one JSON line each."""
    lines = []
    for seed in range(deals):
        g = Game("pineapple", 2, seed=seed)
        while not g.is_over:
            g.play_action(g.legal_actions()[0])
        lines.append(json.dumps(deal_record(g, seed, ["a", "b"])))
    return "\n".join(lines) + "\n"


def test_replay_says_truncated_only_when_deals_were_left_out(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    monkeypatch.setattr(replay_mod, "MAX_DEALS", 2)
    exactly = replay_mod.replay({"text": _history_text(2) + "\n \n"})
    assert len(exactly["deals"]) == 2 and exactly["truncated"] is False
    longer = replay_mod.replay({"text": _history_text(3)})
    assert len(longer["deals"]) == 2 and longer["truncated"] is True


# -------------------------------------------------------------- safe by default


def test_bad_input_is_a_problem_naming_field_and_class(api: Api) -> None:
    cases = [
        ("/v1/fantasyland", {"cards": "As As Kd"}, 422, "cards", "CardError"),
        (
            "/v1/fantasyland",
            {"cards": "As Kd", "rules": "nope"},
            422,
            "rules",
            "RulesError",
        ),
        ("/v1/score", {"boards": ["x", "As Kd / / "]}, 422, "boards[0]", "BoardError"),
        ("/v1/score", {"boards": ["As Kd / / ", "Qh / / "]}, 422, "boards", "BoardError"),
        (
            "/v1/analyze",
            {"observation": {"seat": 0}},
            422,
            "observation.players",
            "SearchError",
        ),
        ("/v1/analyze", {"board": "/ /", "dealt": "As Zz"}, 422, "dealt", "CardError"),
        (
            "/v1/analyze",
            {"dealt": "As Kd Qc Jd Th", "samples": 10**9},
            422,
            "samples",
            None,
        ),
        (
            "/v1/analyze",
            {"dealt": "As Kd Qc Jd Th", "time_budget": 99},
            422,
            "time_budget",
            None,
        ),
        ("/v1/evaluate", {"hands": [[1, 2]]}, 422, "hands[0]", "CardError"),
        ("/v1/games", {"players": 9}, 422, "players", None),
        ("/v1/games", {"bots": ["nobody"]}, 422, "bots[0]", None),
        # a model file spec (make_bot's value@PATH) is no bot of the server's
        ("/v1/games", {"bots": ["value@/etc/passwd"]}, 422, "bots[0]", None),
        ("/v1/games", {"bots": ["random", "search@/etc/passwd"]}, 422, "bots[1]", None),
        ("/v1/arrange", {"cards": 7}, 400, "cards", None),
    ]
    for path, body, status, field, error in cases:
        got, out = api("POST", path, body)
        assert (got, out.get("field"), out.get("error")) == (status, field, error), (
            path,
            out,
        )
        assert out["status"] == status and out["detail"]
    assert api("GET", "/v1/games/nope")[0] == 404


@pytest.mark.parametrize("fantasyland", [[0, 0], [0, 14]])
def test_the_bots_moves_shown_hide_their_discards_and_face_down_cards(
    api: Api, fantasyland: list[int]
) -> None:
    """A game's ``events`` gave each bot move's text whole: its Pineapple discards
    (face down, R-FLOW-PIN-4) and a Fantasyland hand set face down, which the
    client's observation hides (``discard_counts``, ``face_down_counts``).  Every
    card an event names is now one the observation shows face up on that seat's
    board; the rest are counted."""
    body = {"bots": ["heuristic"], "seed": 5, "fantasyland": fantasyland}
    status, st = api("POST", "/v1/games", body)
    discarded = face_down = 0
    while status == 200:
        obs = st["observation"]
        for event in st["events"]:
            if event["seat"] == st["you"]:
                continue
            named = set(re.findall(r"\b[2-9TJQKA][cdhs]\b", event["move"]))
            board = obs["boards"][event["seat"]]
            shown = {ofc.card_str(c) for row in board for c in row}
            if not st["is_over"]:  # the showdown turns every card face up
                assert named <= shown, (event, shown)
            discarded += "discarded" in event["move"]
            face_down += "face down" in event["move"]
        if st["is_over"]:
            break
        action = {"action": obs["legal_actions"][0]}
        status, st = api("POST", f"/v1/games/{st['id']}/moves", action)
    assert st["is_over"] and discarded > 0
    assert face_down == (1 if fantasyland[1] else 0)


def test_a_refused_move_leaves_the_game_as_it_was(api: Api) -> None:
    status, start = api("POST", "/v1/games", {"seed": 1, "bots": ["random"]})
    assert status == 200 and start["your_turn"] and start["events"]  # the bot moved
    path = f"/v1/games/{start['id']}"
    refused = [
        {"action": 999},
        {"action": "1"},
        {"move": "As front"},
        {"move": {"place": [["As", "sideways"]]}},
        {"move": {"place": []}},
    ]
    for body in refused:
        status, out = api("POST", path + "/moves", body)
        assert status in (400, 422), out
        assert api("GET", path) == (200, start)


def test_a_library_refusal_names_the_part_of_the_field_at_fault(api: Api) -> None:
    """A move or an observation the library refused named only the top-level field
    (``move``, ``observation``) though the library's error says which part is wrong
    (``place[2]: bad card 'Xx'``, ``observation: seat must be ...``): the problem's
    ``field`` is now that part's path in the body."""
    status, start = api("POST", "/v1/games", {"seed": 2, "bots": ["random"]})
    assert status == 200
    cards = [ofc.card_str(c) for c in start["observation"]["dealt"]]
    rows = ["front", "front", "back", "back", "back"]
    place = [[c, r] for c, r in zip(cards, rows)]
    moves = [
        ({"place": [*place[:2], ["Xx", "back"], *place[3:]]}, "move.place[2]"),
        ({"place": [*place[:3], [cards[3], "sideways"], place[4]]}, "move.place[3]"),
        ({"place": place[:4], "discard": [99]}, "move.discard[0]"),
        ({"place": place[:4]}, "move"),  # a card left out: no one part at fault
    ]
    for move, field in moves:
        status, out = api("POST", f"/v1/games/{start['id']}/moves", {"move": move})
        assert (status, out["field"], out["error"]) == (422, field, "MoveError"), out
    obs = json.loads(json.dumps(Game("pineapple", 2, seed=3).observation(0), default=int))
    observations = [
        ({"seat": 5}, "observation.seat"),
        ({"dealt": [1, 2, 3, 4, 99]}, "observation.dealt"),
        ({"fantasyland": [0, 99]}, "observation.fantasyland[1]"),
        (
            {"face_down_counts": [[0, 0, 0], [0, 9, 0]]},
            "observation.face_down_counts[1][1]",
        ),
    ]
    for change, field in observations:
        body = {"observation": {**obs, **change}, "samples": 4}
        status, out = api("POST", "/v1/analyze", body)
        assert (status, out["field"]) == (422, field), out
    status, out = api("POST", "/v1/games", {"fantasyland": [0, 12]})
    assert (status, out["field"], out["error"]) == (422, "fantasyland[1]", "TableError")


@pytest.mark.parametrize(
    "change, field",
    [
        ({"legal_actions": [999]}, "observation.legal_actions[0]"),
        ({"legal_actions": [0, -1]}, "observation.legal_actions[1]"),
        ({"face_down_counts": [[0, 0, 0], [0, 0]]}, "observation.face_down_counts[1]"),
        ({"boards": [[[], [], []], [[], [], []], [[], [], []]]}, "observation.boards"),
        ({"fantasyland": [0, 0, 0]}, "observation.fantasyland"),
        ({"face_down_counts": [[0, 0, 0]]}, "observation.face_down_counts"),
    ],
)
def test_an_observation_value_the_search_refuses_names_its_item(
    change: dict[str, Any], field: str
) -> None:
    """``"legal_actions": [999]`` was refused naming only ``observation`` (the
    search said "a legal action must be ..."), and so were a seat's face-down counts
    of 2 rows and per-seat lists of a length other than the players': each names the
    item (or the list) at fault, as the other observation refusals do."""
    obs = json.loads(json.dumps(Game("pineapple", 2, seed=3).observation(0), default=int))
    with pytest.raises(ApiError) as info:
        analyze({"observation": {**obs, **change}, "samples": 4})
    assert (info.value.status, info.value.field) == (422, field), str(info.value)


def test_an_observation_s_legal_actions_are_its_decision_s_each_once() -> None:
    """``legal_actions`` holding an id of no legal move of the decision was a 422
    naming ``observation`` ("advise: that action id is not legal here", which id
    unsaid), and one holding an id twice was answered with that move twice: each is
    refused naming the item."""
    g = Game("pineapple", 2, seed=3)
    obs = json.loads(json.dumps(g.observation(g.to_act), default=int))
    legal = obs["legal_actions"]
    illegal = min(set(range(ofc.game.ACTION_SPACE)) - set(legal))
    for given, field in (
        ([legal[0], illegal], "observation.legal_actions[1]"),
        ([legal[0], legal[1], legal[0]], "observation.legal_actions[2]"),
    ):
        with pytest.raises(ApiError) as info:
            analyze({"observation": {**obs, "legal_actions": given}, "samples": 4})
        assert (info.value.status, info.value.field) == (422, field), str(info.value)
    out = analyze({"observation": {**obs, "legal_actions": legal[:3]}, "samples": 4})
    assert sorted(m["action"] for m in out["moves"]) == legal[:3]


@pytest.mark.parametrize(
    "rules_name", ["pineapple", "ofc", "pineapple_27", "progressive_pineapple"]
)
def test_a_game_the_value_bot_accepts_plays_to_the_end(api: Api, rules_name: str) -> None:
    """A game is refused (422 naming the item, ``bots[1]``, as every other bot
    refusal does) or every move of a whole deal is answered: the value bot never
    fails mid-deal, leaving the game stuck at its turn."""
    rng = random.Random(7)
    body = {"rules": rules_name, "players": 3, "you": 2, "bots": ["value"], "seed": 4}
    status, st = api("POST", "/v1/games", body)
    if rules_name not in ("pineapple", "ofc"):  # models ship for these (docs/learned.md)
        assert (status, st.get("field"), st.get("error")) == (422, "bots[0]", "BotError")
        status, st = api("POST", "/v1/games", {**body, "bots": ["random", "value"]})
        assert (status, st.get("field"), st.get("error")) == (422, "bots[1]", "BotError")
        return
    assert status == 200, st
    while not st["is_over"]:
        action = rng.choice(st["observation"]["legal_actions"])
        status, st = api("POST", f"/v1/games/{st['id']}/moves", {"action": action})
        assert status == 200, st
    assert st["history"] is not None and sum(st["result"]["net"]) == 0


def test_served_search_bots_search_within_the_max_time_budget() -> None:
    """``--max-time-budget`` bounds the search of every request, the bots' moves in a
    game too (docs/serve.md): under a cap too short for any search, the search bots
    play what a search bot plays when its deadline leaves no time, the heuristic's
    move, so a deal goes exactly as against heuristic bots of the same seeds."""
    cap = 0.01
    app = create_app(ServeConfig(max_time_budget=cap))
    body = {"rules": "pineapple", "players": 3, "you": 2, "seed": 11}
    served = app.sessions.create({**body, "bots": ["search"]})
    reference = SessionStore().create({**body, "bots": ["heuristic"]})
    while not reference.game.is_over:
        assert served.events == reference.events
        action = {"action": reference.game.legal_actions()[-1]}
        t0 = time.monotonic()
        served.play(action)
        assert time.monotonic() - t0 < cap + 1.0  # the bots' moves: milliseconds
        reference.play(action)
    assert served.game.is_over and served.state()["result"] == reference.state()["result"]


def test_evaluate_bounds_the_card_text_of_a_hand_it_parses_on_the_event_loop() -> None:
    """A hand is at most 5 cards: a megabyte of card text in one hand (which held the
    event loop for a third of a second) is a 400 before it is parsed."""
    for hand in ("As " * 300_000, ["As " * 50_000] * 5, ["As"] * 6 + ["Kd " * 1000]):
        with pytest.raises(ApiError) as err:
            evaluate({"hands": ["Qh Qd 5c", hand]})
        assert (err.value.status, err.value.field) == (400, "hands[1]")
    long_form = "10s 10h 10d 10c 9s, "  # the longest spelling of five cards
    out = evaluate({"hands": [long_form, long_form.split(), [0, 5, 10, 15, 16]]})
    assert [h["category"] for h in out["hands"]] == [
        "QUADS",
        "QUADS",
        "STRAIGHT",
    ]


def test_the_game_request_schema_admits_the_rules_a_game_accepts(
    api: Api, doc: dict[str, Any]
) -> None:
    schema = {**doc["components"]["schemas"]["GameCreate"], "components": doc["components"]}
    names = ("pineapple", "OFC", "progressive_pineapple", "pineapple_27", "ofc-pineapple")
    for name in names:
        body = {"rules": name, "bots": ["random"], "seed": 1}
        status, out = api("POST", "/v1/games", body)
        assert status == 200, out
        jsonschema.Draft202012Validator(schema).validate(body)


def test_analyze_keeps_the_default_samples_within_max_samples() -> None:
    config = ServeConfig(max_samples=16, max_time_budget=5.0)
    body = {"board": "Qh / 9s 9h / As Ks", "dealt": "2c 5d Ts", "seed": 3}
    out = analyze(body, config)
    assert out["samples"] <= 16
    assert all(m["samples"] <= 16 for m in out["moves"])


def _access_lines(caplog: pytest.LogCaptureFixture) -> list[str]:
    """The access-log lines of the request to ``/v1/x...``."""
    records = [r for r in caplog.records if r.name == "ofc_fast.serve.access"]
    return [m for m in (r.getMessage() for r in records) if "/v1/x" in m]


def test_the_access_log_escapes_control_characters_of_the_path(
    server: Server, caplog: pytest.LogCaptureFixture
) -> None:
    caplog.set_level(logging.INFO, logger="ofc_fast.serve.access")
    forged = '127.0.0.1 "GET /v1/health" 200 64 0.1ms'
    status, _, _ = server.request("GET", "/v1/x%0D%0A" + forged.replace(" ", "%20"))
    assert status == 404
    deadline = time.monotonic() + 10  # the line is written once the answer is sent
    while not (lines := _access_lines(caplog)) and time.monotonic() < deadline:
        time.sleep(0.01)
    assert lines, "no access-log line of the request"
    assert all("\n" not in m and "\r" not in m for m in lines)
    assert any("/v1/x\\r\\n127.0.0.1" in m for m in lines), lines


def test_the_access_log_escapes_the_client_a_forwarded_for_header_names(
    server: Server, caplog: pytest.LogCaptureFixture
) -> None:
    """Regression: the access log wrote the client's address as the request gave it,
    and behind a proxy that is the ``X-Forwarded-For`` header's text (a byte of
    0x80-0xFF read as Latin-1): a NEL (0x85), a line break to ``str.splitlines``
    and to log viewers, or a C1 terminal control (0x9b) went into the log raw,
    forging a line.  Now the client is escaped as the path is."""
    caplog.set_level(logging.INFO, logger="ofc_fast.serve.access")
    forged = '10.9.8.7 "GET /v1/health" 200 64 0.1ms'
    # (the test server believes the header from 127.0.0.1: uvicorn's default)
    hdrs = {"X-Forwarded-For": "10.0.0.1\x85" + forged + "\x9b"}
    assert server.request("GET", "/v1/x-forwarded", headers=hdrs)[0] == 404
    deadline = time.monotonic() + 10  # the line is written once the answer is sent
    while not (lines := _access_lines(caplog)) and time.monotonic() < deadline:
        time.sleep(0.01)
    mine = [m for m in lines if "/v1/x-forwarded" in m]
    assert mine, lines
    assert all(m.isascii() and len(m.splitlines()) == 1 for m in mine), mine
    assert any(m.startswith("10.0.0.1\\x8510.9.8.7") for m in mine), mine


def test_a_cross_site_form_or_no_cors_post_is_refused(
    server: Server, doc: dict[str, Any]
) -> None:
    """A page on another site can POST a JSON text as text/plain (a form, or fetch in
    no-cors mode) without a CORS preflight; a browser request (it carries Origin) must
    declare its body application/json, which another site cannot do without a
    preflight this server never grants."""
    body = json.dumps({"bots": ["random"], "seed": 1}).encode()
    before = server.request("GET", "/v1/health")[2]["sessions"]
    for ctype in ("text/plain;charset=UTF-8", "application/x-www-form-urlencoded"):
        headers = {"Origin": "https://elsewhere.example", "Content-Type": ctype}
        status, hs, out = server.request("POST", "/v1/games", raw=body, headers=headers)
        check_response(doc, "POST", "/v1/games", status, hs, out)
        assert status == 415 and out["field"] == "Content-Type", out
    assert server.request("GET", "/v1/health")[2]["sessions"] == before  # no game made
    page = {"Origin": server.url, "Content-Type": "application/json"}  # the web app
    assert server.request("POST", "/v1/games", raw=body, headers=page)[0] == 200
    curl = {"Content-Type": "application/x-www-form-urlencoded"}  # curl -d, no Origin
    assert server.request("POST", "/v1/games", raw=body, headers=curl)[0] == 200


def test_a_keyless_server_answers_only_its_own_host_names(
    server: Server, doc: dict[str, Any]
) -> None:
    """DNS rebinding: a page on another site whose name resolves to 127.0.0.1 is
    same-origin with the server to the browser, so Origin and Content-Type checks
    pass, but its requests carry its own name in Host. A server without a key answers
    only local names, its bound address and --allowed-host names; with a key, any."""
    body = {
        "boards": [
            "Qh Qd 2c / 9s 9h 9d 5c 5d / As Ks Qs Js Ts",
            "2h 3d 4c / 6s 6h 7d 7c 8d / Ah Ad Kh Kd 8c",
        ]
    }
    before = server.request("GET", "/v1/health")[2]["sessions"]
    for host in (f"rebind.example:{server.port}", "127.0.0.1.evil.example", "[::2]"):
        hdrs = {"Host": host, "Origin": f"http://{host}"}
        for method, path, payload in (
            ("POST", "/v1/games", {"bots": ["random"]}),
            ("POST", "/v1/score", body),
            ("GET", "/v1/health", None),
        ):
            status, hs, out = server.request(method, path, payload, headers=hdrs)
            check_response(doc, method, path, status, hs, out)
            assert status == 400 and out["field"] == "Host", (host, path, out)
    assert server.request("GET", "/v1/health")[2]["sessions"] == before  # no game made
    for host in (f"localhost:{server.port}", f"LOCALHOST:{server.port}", "[::1]:80"):
        assert server.request("GET", "/v1/health", headers={"Host": host})[0] == 200
    assert server.request("GET", "/", headers={"Host": "rebind.example"})[0] == 200
    with Server(ServeConfig(allowed_hosts=("ofc.lan",))) as s:
        assert s.request("GET", "/v1/health", headers={"Host": "ofc.lan:8"})[0] == 200
        assert s.request("GET", "/v1/health", headers={"Host": "x.lan"})[0] == 400
        # a fully qualified name (one trailing dot) is the same name; two are not
        for host, status in (("ofc.lan.:8", 200), ("ofc.lan..", 400), ("x.lan.", 400)):
            assert s.request("GET", "/v1/health", headers={"Host": host})[0] == status
    with Server(ServeConfig(allowed_hosts=("ofc.lan.",))) as s:  # given qualified
        assert s.request("GET", "/v1/health", headers={"Host": "ofc.lan"})[0] == 200
    with Server(ServeConfig(api_key="k" * 16)) as s:
        key = {"Authorization": "Bearer " + "k" * 16, "Host": "ofc.example.com"}
        assert s.request("POST", "/v1/score", body, headers=key)[0] == 200
    for bad in (["ofc.lan"], ("a b",), ("",), (1,)):
        with pytest.raises(OfcError, match="allowed_hosts"):
            ServeConfig(allowed_hosts=bad).check()  # type: ignore[arg-type]


def test_a_keyless_server_answers_its_names_with_a_trailing_dot(server: Server) -> None:
    """``curl -H 'Host: localhost.:8000'``: a fully qualified name, the same host as
    ``localhost``, was refused (400, field Host) by a server without a key."""
    for host in (f"localhost.:{server.port}", "LOCALHOST.", "127.0.0.1.:80"):
        status, _, out = server.request("GET", "/v1/health", headers={"Host": host})
        assert status == 200, (host, out)
    for host in (f"localhost..:{server.port}", "rebind.example.", "."):
        status, _, out = server.request("GET", "/v1/health", headers={"Host": host})
        assert status == 400 and out["field"] == "Host", (host, out)


def test_a_cross_site_post_to_next_is_refused_as_every_post_is(
    server: Server, doc: dict[str, Any]
) -> None:
    """``POST /v1/games/{id}/next`` takes no body, yet a page on another site can send
    it (a form, a no-cors fetch) without a preflight: as every POST, a browser's must
    declare application/json (the docs), else 415 before the game is touched."""
    game = server.request("POST", "/v1/games", {"bots": ["random"], "seed": 1})[2]
    path = f"/v1/games/{game['id']}/next"
    for ctype in ("text/plain;charset=UTF-8", "application/x-www-form-urlencoded"):
        headers = {"Origin": "https://elsewhere.example", "Content-Type": ctype}
        status, hs, out = server.request("POST", path, raw=b"", headers=headers)
        check_response(doc, "POST", path, status, hs, out)
        assert (status, out["field"]) == (415, "Content-Type"), out
    page = {"Origin": server.url, "Content-Type": "application/json"}  # the web app
    status, _, out = server.request("POST", path, raw=b"", headers=page)
    assert status == 409 and "not over" in out["detail"], out  # reached the game
    assert server.request("POST", path, raw=b"")[0] == 409  # curl: no Origin


def test_an_unknown_body_field_is_refused_naming_it(api: Api, doc: dict[str, Any]) -> None:
    """A typo (``sample`` for ``samples``) was ignored and the default used (256
    samples): every body field the server does not take is a 422 naming it, with the
    known name it is closest to, and /openapi.json says so of every request body."""
    status, out = api("POST", "/v1/analyze", {"dealt": "As Kd Qc Jd Th", "sample": 4})
    assert (status, out["field"]) == (422, "sample"), out
    assert "did you mean 'samples'" in out["detail"], out
    game = api("POST", "/v1/games", {"bots": ["random"], "seed": 1})[1]
    bodies = {
        "/v1/analyze": {"dealt": "As Kd Qc Jd Th"},
        "/v1/fantasyland": {"cards": "Ad Ah Th Jh 6h Ts 5d 3c Tc 3s 7h Qh 3d 9s"},
        "/v1/arrange": {"cards": "As Ad Kc Kd Qh Qs Jc Jd 9h 7s 5c 3d 2h"},
        "/v1/score": {
            "boards": [
                "Qh Qd 2c / 9s 9h 9d 5c 5d / As Ks Qs Js Ts",
                "2h 3d 4c / 6s 6h 7d 7c 8d / Ah Ad Kh Kd 8c",
            ]
        },
        "/v1/evaluate": {"hands": ["As Ks Qs Js Ts"]},
        "/v1/replay": {"text": _history_text(1)},
        "/v1/games": {"bots": ["random"], "seed": 1},
        f"/v1/games/{game['id']}/moves": {
            "action": game["observation"]["legal_actions"][0]
        },
    }
    # fields one endpoint takes and another does not: each refused where not taken
    extras = {
        "/v1/fantasyland": "objective",
        "/v1/arrange": "alternatives",
        "/v1/score": "hands",
        "/v1/evaluate": "button",
    }
    assert len(doc["paths"]) - 3 == len(bodies)  # every POST taking a body
    for path, body in bodies.items():
        for extra in (extras.get(path), "zz_unknown"):
            if extra is None:
                continue
            status, out = api("POST", path, {**body, extra: 1})
            assert (status, out["field"]) == (422, extra), (path, out)
            assert f"unknown field '{extra}'" in out["detail"], out
        if path.endswith("/moves"):  # move and action: one would be ignored
            status, out = api("POST", path, {**body, "move": {"place": []}})
            assert (status, out["field"]) == (422, "move"), out
        status, out = api("POST", path, body)  # without it: taken
        assert status == 200, (path, out)
        schema = doc["paths"][template_of(doc, path)]["post"]["requestBody"]
        ref = schema["content"]["application/json"]["schema"]["$ref"]
        request = doc["components"]["schemas"][ref.rsplit("/", 1)[1]]
        assert request["additionalProperties"] is False, ref
        assert set(body) <= set(request["properties"]), ref


def test_a_query_string_is_refused_never_read_as_nothing(
    server: Server, api: Api, doc: dict[str, Any]
) -> None:
    """A field sent in the query string (``POST /v1/analyze?samples=4``) was read by
    nothing and its default taken (256 samples), where the same field unknown in the
    body is refused: no operation takes query parameters, so every one refuses a
    query string (once, or a parameter repeated), a 400 quoting it, before it runs."""
    game = api("POST", "/v1/games", {"bots": ["random"], "seed": 1})[1]
    body = {"dealt": "As Kd Qc Jd Th", "samples": 4}
    assert api("POST", "/v1/analyze", body)[0] == 200
    for query in ("samples=4", "seed=1&seed=2", "x"):
        for template, ops in doc["paths"].items():
            path = template.replace("{id}", game["id"])
            for method in ops:
                sent = body if template == "/v1/analyze" else {}
                status, out = api(method.upper(), f"{path}?{query}", sent)
                assert status == 400, (path, query, out)
                assert f"query string '{query}'" in out["detail"], out
    state = api("GET", f"/v1/games/{game['id']}")[1]
    assert state["version"] == 0 and state["events"] == game["events"]  # none ran
    assert server.request("GET", "/?lang=en")[0] == 200  # the page: no API request


def test_every_request_field_is_documented(doc: dict[str, Any], api: Api) -> None:
    """docs/serve.md names every body field an endpoint takes (each request schema of
    /openapi.json, which takes no other): ``alternatives`` of ``/v1/fantasyland`` was
    taken but not described.  With it false the answer has no ``stay`` / ``no_stay``."""
    path = os.path.join(os.path.dirname(__file__), "..", "docs", "serve.md")
    if not os.path.exists(path):
        pytest.skip("needs a source checkout (git clone: docs/)")
    with open(path, encoding="utf-8") as f:
        page = f.read()
    for name, schema in doc["components"]["schemas"].items():
        if schema.get("additionalProperties") is False:  # a request body
            for field in schema["properties"]:
                assert f"`{field}`" in page or f'"{field}"' in page, (name, field)
    cards = "Ad Ah Th Jh 6h Ts 5d 3c Tc 3s 7h Qh 3d 9s"
    status, out = api("POST", "/v1/fantasyland", {"cards": cards, "alternatives": False})
    assert status == 200 and out["stay"] is None and out["no_stay"] is None, out
    status, out = api("POST", "/v1/fantasyland", {"cards": cards})
    assert status == 200 and out["stay"] is not None and out["no_stay"] is not None


def test_a_field_beyond_its_size_is_the_documented_400(api: Api) -> None:
    """docs/serve.md's list of 400s left out a text or list longer than its field
    takes: each is a 400 naming the field, as the page now says."""
    board = "Qh Qd 2c / 9s 9h 9d 5c 5d / As Ks Qs Js Ts"
    for path, body, field in (
        ("/v1/evaluate", {"hands": ["As Ks Qs Js Ts"] * 65}, "hands"),
        ("/v1/evaluate", {"boards": [board] * 5}, "boards"),
        ("/v1/analyze", {"dealt": "As Kd Qc", "opponents": ["/ /"] * 4}, "opponents"),
        ("/v1/score", {"boards": [board, board + " " * 200]}, "boards[1]"),
    ):
        status, out = api("POST", path, body)
        assert (status, out["field"]) == (400, field), (path, out)
    path = os.path.join(os.path.dirname(__file__), "..", "docs", "serve.md")
    if os.path.exists(path):
        with open(path, encoding="utf-8") as f:
            errors = f.read().split("## Errors")[1].split("## The API")[0]
        refusals = " ".join(errors.split("\n400:")[1].split("; 401:")[0].split())
        assert "longer than its field takes" in refusals, refusals
        assert "64 `hands`, 4 `boards`, 3 `opponents`" in refusals, refusals


def test_next_out_of_turn_is_the_documented_409(api: Api) -> None:
    """docs/serve.md gave 409 only for a move after the deal is over; ``next`` before
    the deal is over, and after the match's last deal (``hands``), is one too."""
    status, st = api("POST", "/v1/games", {"rules": "ofc", "bots": ["random"], "hands": 1})
    gid = st["id"]
    status, out = api("POST", f"/v1/games/{gid}/next")
    assert (status, out["detail"]) == (409, "the deal is not over yet"), out
    while not st["is_over"]:
        action = {"action": st["observation"]["legal_actions"][0]}
        status, st = api("POST", f"/v1/games/{gid}/moves", action)
    assert api("POST", f"/v1/games/{gid}/moves", {"action": 0})[0] == 409
    status, out = api("POST", f"/v1/games/{gid}/next")
    assert status == 409 and "over" in out["detail"], out
    status, out = api("POST", "/v1/games", {"hands": 10_001})
    assert (status, out["field"]) == (422, "hands"), out
    path = os.path.join(os.path.dirname(__file__), "..", "docs", "serve.md")
    if os.path.exists(path):
        with open(path, encoding="utf-8") as f:
            page = " ".join(f.read().split())
        assert "409: a move after the deal is over or" in page
        assert "`next` before the deal is over or once" in page
        assert "`hands` deals, 1 to 10,000" in page


def test_next_refuses_a_body_field_as_every_endpoint_does(
    api: Api, doc: dict[str, Any]
) -> None:
    """``POST /v1/games/{id}/next`` never read its body: ``{"hands": 5}`` dealt on as
    if it were not sent, where every other endpoint refuses a field it does not take
    (422 naming it).  It takes no field: no body, or ``{}``, deals on; a field is a
    422 naming it, a body that is not a JSON object a 400, the game left as it was;
    /openapi.json says so (an optional body of no property)."""
    st = api("POST", "/v1/games", {"rules": "ofc", "bots": ["random"], "seed": 2})[1]
    gid = st["id"]
    for sent in (None, {}):  # each deals on, once the deal is over
        while not st["is_over"]:
            action = {"action": st["observation"]["legal_actions"][0]}
            st = api("POST", f"/v1/games/{gid}/moves", action)[1]
        for body, status, field in (({"hands": 5}, 422, "hands"), ([1], 400, None)):
            got, out = api("POST", f"/v1/games/{gid}/next", body)
            assert (got, out.get("field")) == (status, field), out
        assert api("GET", f"/v1/games/{gid}")[1] == st  # the game as it was
        status, st = api("POST", f"/v1/games/{gid}/next", sent)
        assert status == 200 and not st["is_over"], st
    op = doc["paths"]["/v1/games/{id}/next"]["post"]
    assert op["requestBody"]["required"] is False
    ref = op["requestBody"]["content"]["application/json"]["schema"]["$ref"]
    request = doc["components"]["schemas"][ref.rsplit("/", 1)[1]]
    assert (request["properties"], request["additionalProperties"]) == ({}, False)


def test_a_move_after_the_match_s_last_deal_does_not_send_the_client_to_next(
    api: Api,
) -> None:
    """Regression: a move once the match had played its ``hands`` deals was a 409
    saying "POST /v1/games/{id}/next deals on", and that request was the 409 "the
    match of 1 deals is over": the client was sent to a request bound to fail.  A
    move after a deal that is not the match's last still points to ``next``."""
    for hands in (1, 2):
        status, st = api("POST", "/v1/games", {"bots": ["random"], "hands": hands})
        gid = st["id"]
        while not st["is_over"]:
            action = {"action": st["observation"]["legal_actions"][0]}
            status, st = api("POST", f"/v1/games/{gid}/moves", action)
        status, out = api("POST", f"/v1/games/{gid}/moves", {"action": 0})
        assert status == 409, out
        status, after = api("POST", f"/v1/games/{gid}/next")
        if hands == 1:  # the match is over: next is refused, and the move said so
            assert status == 409, after
            assert "/next" not in out["detail"], out
            assert f"match of {hands} deal" in out["detail"], out
        else:  # a deal follows: next deals it, as the move said
            assert status == 200, after
            assert "/next" in out["detail"], out


def test_body_limit_is_413(server: Server, doc: dict[str, Any]) -> None:
    big = b'{"cards": "' + b"A" * (2 << 20) + b'"}'
    status, headers, out = server.request("POST", "/v1/fantasyland", raw=big)
    assert status == 413 and headers["content-type"] == "application/problem+json"
    check_response(doc, "POST", "/v1/fantasyland", status, headers, out)


def _dribbled(port: int, head: str) -> tuple[int, dict[str, str], bytes, float]:
    """Send ``head`` (a request line and headers declaring a body), then its body a
    byte every 0.1 s, never all of it, till the server closes the connection (5 s at
    most): the response's (status, headers, body) and the seconds it stayed open."""
    t0 = time.monotonic()
    reply = b""
    with socket.create_connection(("127.0.0.1", port), timeout=0.1) as sock:
        sock.sendall(head.encode())
        while time.monotonic() - t0 < 5:
            try:
                sock.sendall(b" ")
                got = sock.recv(65536)
            except TimeoutError:
                continue
            except OSError:  # the server closed it (a reset, some byte unread)
                break
            if not got:
                break
            reply += got
    took = time.monotonic() - t0
    raw_head, _, payload = reply.partition(b"\r\n\r\n")
    status_line, *lines = raw_head.decode().split("\r\n")
    headers = {
        k.strip().lower(): v.strip() for k, _, v in (x.partition(":") for x in lines)
    }
    return int(status_line.split()[1]), headers, payload, took


def test_a_body_sent_a_byte_at_a_time_is_a_408_within_the_body_s_seconds(
    server: Server, doc: dict[str, Any], monkeypatch: pytest.MonkeyPatch
) -> None:
    """Regression: a client that sent its body a byte a second held its connection
    as long as it liked (a 1 MiB body: 12 days), and enough of them (64) kept every
    other client out.  Now the body must arrive within ``body_seconds(max_body)`` of
    the headers (94 s at 1 MiB; 0.5 s here): a 408 problem after that, the connection
    closed."""
    from ofc_fast.serve import _limits

    monkeypatch.setattr(_limits, "BODY_SECONDS", 0.5)
    monkeypatch.setattr(_limits, "BODY_RATE", float("inf"))  # (no seconds for its size)
    head = (
        "POST /v1/score HTTP/1.1\r\nHost: 127.0.0.1\r\n"
        "Content-Type: application/json\r\nContent-Length: 100\r\n\r\n"
    )
    status, headers, payload, took = _dribbled(server.port, head)
    assert status == 408, (took, headers, payload)
    assert took < 3, took  # its seconds, then closed: not held till the client stops
    out = json.loads(payload)
    check_response(doc, "POST", "/v1/score", 408, headers, out)
    assert "0.5 s" in out["detail"], out


def test_a_body_the_server_never_reads_closes_the_connection_once_answered(
    server: Server, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Regression: a request answered without its body being read (a GET's body, a
    path with no endpoint, a 413) left the connection open while the server read and
    dropped the rest: 100 MB declared and sent a byte a second held it for ever.
    Now the rest is dropped only till ``body_seconds(max_body)`` (0.5 s here) from the
    headers; then the response says ``Connection: close`` and the connection is
    closed once it is sent.  A client sending a whole body too large, at once,
    still reads its 413 (``test_body_limit_is_413``)."""
    from ofc_fast.serve import _limits

    monkeypatch.setattr(_limits, "BODY_SECONDS", 0.5)
    monkeypatch.setattr(_limits, "BODY_RATE", float("inf"))  # (no seconds for its size)
    big = "Content-Length: 100000000\r\n\r\n"
    for method, path, status in (
        ("GET", "/v1/health", 200),
        ("POST", "/v1/no-such-endpoint", 404),
        ("POST", "/v1/score", 413),
    ):
        head = f"{method} {path} HTTP/1.1\r\nHost: 127.0.0.1\r\n{big}"
        got, headers, _, took = _dribbled(server.port, head)
        assert (got, headers.get("connection")) == (status, "close"), (path, headers)
        assert took < 2.5, (path, took)
    # a body read to its end keeps the connection for the next request
    assert server.request("GET", "/v1/health")[1].get("connection") != "close"


def test_a_body_is_given_seconds_for_the_largest_body_the_server_takes() -> None:
    """Regression (review): a body was given 30 s whatever ``--max-body`` allowed: at
    100 MiB an honest upload needed 3.4 MB/s, and at 1 MiB a 280 kbit/s uplink got a
    408.  A body now has 30 s plus the server's largest body at 16 KiB/s (128 kbit/s),
    and a 408 names those seconds; and the timer is one per message, not a Task."""
    import time

    from ofc_fast.serve._limits import BodyWatch, body_seconds

    assert body_seconds(1 << 20) == 94.0
    assert body_seconds(100 << 20) == 30 + 6400
    scope = {"headers": [(b"content-length", b"5")]}
    left = BodyWatch(scope, None, None, body_seconds(100 << 20)).deadline - time.monotonic()
    assert 6420 < left <= 6430


def test_api_key_is_required_and_compared() -> None:
    with Server(ServeConfig(api_key="k" * 16)) as s:
        doc = s.request("GET", "/openapi.json")[2]  # the keyed server's own
        assert s.request("GET", "/v1/health")[0] == 200  # liveness needs no key
        body = {
            "boards": [
                "Qh Qd 2c / 9s 9h 9d 5c 5d / As Ks Qs Js Ts",
                "2h 3d 4c / 6s 6h 7d 7c 8d / Ah Ad Kh Kd 8c",
            ]
        }
        for hdrs in (
            {},
            {"Authorization": "Bearer " + "k" * 15 + "j"},
            {"Authorization": "k" * 16},
        ):
            status, headers, out = s.request("POST", "/v1/score", body, headers=hdrs)
            assert status == 401 and headers["www-authenticate"] == "Bearer"
            check_response(doc, "POST", "/v1/score", status, headers, out)
        ok = s.request(
            "POST", "/v1/score", body, headers={"Authorization": "Bearer " + "k" * 16}
        )
        assert ok[0] == 200


def test_a_401_says_what_is_wrong_with_the_key() -> None:
    """Every 401 said "missing or wrong bearer token": a client that sent its key
    bare (``Authorization: KEY``) or under another scheme (``Token KEY``, ``Basic``)
    was told its key might be wrong, and one that sent none that it might have.  Now
    the detail says which it is, never quoting the header (it may hold the key)."""
    key = "k" * 16
    body = {"boards": ["2h 3d 4c / 6s 6h 7d 7c 8d / Ah Ad Kh Kd 8c"] * 2}
    cases = [  # (headers, words the detail holds)
        ({}, ("no", "key")),
        ({"Authorization": ""}, ("no", "key")),
        ({"Authorization": key}, ("Bearer", "scheme")),
        ({"Authorization": "Token " + key}, ("Bearer", "scheme")),
        ({"Authorization": "Basic " + "a" * 16}, ("Bearer", "scheme")),
        ({"Authorization": "Bearer " + "k" * 15 + "j"}, ("not", "key")),
        ({"Authorization": "Bearer"}, ("not", "key")),
    ]
    with Server(ServeConfig(workers=1, api_key=key)) as s:
        details = {}
        for hdrs, words in cases:
            status, headers, out = s.request("POST", "/v1/score", body, headers=hdrs)
            assert status == 401 and headers["www-authenticate"] == "Bearer", out
            assert out["field"] == "Authorization", out
            assert all(w in out["detail"] for w in words), (hdrs, out["detail"])
            assert "k" * 15 not in out["detail"] and "aaaa" not in out["detail"], out
            details[words] = out["detail"]
        assert len(set(details.values())) == 3, details  # one for each case


def test_the_bearer_scheme_is_matched_in_any_case() -> None:
    """RFC 9110 (11.1): the authentication scheme is case-insensitive and (11.4) one
    or more spaces separate it from the credentials; the key itself is exact."""
    key = "k" * 16
    body = {"hands": ["As Ks Qs Js Ts"]}
    with Server(ServeConfig(api_key=key)) as s:
        doc = s.request("GET", "/openapi.json")[2]  # the keyed server's own
        for auth, want in (
            ("bearer " + key, 200),
            ("BEARER " + key, 200),
            ("Bearer  " + key, 200),
            ("Bearer " + key.upper(), 401),
            ("Basic " + key, 401),
            ("Bearer" + key, 401),
            ("bearer", 401),
        ):
            headers = {"Authorization": auth}
            status, got, out = s.request("POST", "/v1/evaluate", body, headers=headers)
            assert status == want, auth
            check_response(doc, "POST", "/v1/evaluate", status, got, out)


def test_off_localhost_needs_a_key() -> None:
    with pytest.raises(OfcError, match="api-key"):
        ServeConfig(host="0.0.0.0").check()
    out = subprocess.run(
        [sys.executable, "-m", "ofc_fast", "serve", "--host", "0.0.0.0"],
        capture_output=True,
        text=True,
        timeout=60,
    )
    assert out.returncode == 2 and "--api-key" in out.stderr


@pytest.mark.parametrize("source", ["file", "environment"])
def test_the_key_can_come_from_a_file_or_the_environment(
    source: str, tmp_path: Any, monkeypatch: pytest.MonkeyPatch
) -> None:
    """``--api-key KEY`` shows in ``ps`` to every user of the machine; the key file
    (its first line) and OFC_FAST_API_KEY do not.  The server then requires it, off
    127.0.0.1 too."""
    from ofc_fast.cli import main
    from ofc_fast.serve import cli as serve_cli

    key = "f1le-or-env-key-0123"
    path = tmp_path / "key"
    path.write_text(key + "\n# a comment line\n")
    if source == "file":
        args = ["--api-key-file", str(path)]
        monkeypatch.setenv("OFC_FAST_API_KEY", "")
    else:
        args = []
        monkeypatch.setenv("OFC_FAST_API_KEY", key)
    served: list[ServeConfig] = []
    monkeypatch.setattr(serve_cli, "run_server", lambda c, *_: served.append(c))
    # --port 0: a port the system picks, so that the test passes whatever ports the
    # machine's other programs hold (the default, 8000, may be one)
    assert main(["serve", "--host", "0.0.0.0", "--port", "0", *args]) == 0
    assert served[0].api_key == key
    with Server(served[0]) as s:  # its own socket on 127.0.0.1, the config's key
        body = {"hands": ["As Ks Qs"]}
        for headers, want in (
            ({}, 401),
            ({"Authorization": f"Bearer {key}x"}, 401),
            ({"Authorization": f"Bearer {key}"}, 200),
        ):
            assert s.request("POST", "/v1/evaluate", body, headers=headers)[0] == want


def test_a_bad_key_file_is_a_one_line_error_exit_2(
    tmp_path: Any, capsys: pytest.CaptureFixture[str]
) -> None:
    from ofc_fast.cli import main

    empty = tmp_path / "empty"
    empty.write_text("\n\n")
    binary = tmp_path / "binary"
    binary.write_bytes(b"\xff\xfe key")
    for path, says in (
        (tmp_path / "missing", "No such file"),
        (tmp_path, "Is a directory"),
        (empty, "holds no key"),
        (binary, "not UTF-8"),
    ):
        assert main(["serve", "--api-key-file", str(path)]) == 2
        err = capsys.readouterr().err
        assert err.count("\n") == 1 and "--api-key-file" in err and says in err, err
    with pytest.raises(SystemExit) as exc:  # one key or the other, never both
        main(["serve", "--api-key", "k" * 16, "--api-key-file", str(empty)])
    assert exc.value.code == 2
    assert "not allowed with" in capsys.readouterr().err


def test_a_full_queue_answers_503_with_retry_after(doc: dict[str, Any]) -> None:
    slow = {"dealt": "As Kd Qc Jd Th", "opponents": ["/ /"], "time_budget": 1.0}
    with Server(ServeConfig(workers=1, queue=1, max_time_budget=1.0)) as s:
        results: list[tuple[int, dict[str, str], Any]] = []

        def one() -> None:
            results.append(s.request("POST", "/v1/analyze", slow))

        threads = [threading.Thread(target=one) for _ in range(4)]
        for t in threads:
            t.start()
            time.sleep(0.05)
        for t in threads:
            t.join(30)
        codes = sorted(r[0] for r in results)
        assert codes.count(200) == 2 and codes.count(503) == 2, codes
        for status, headers, out in results:
            check_response(doc, "POST", "/v1/analyze", status, headers, out)
            if status == 503:
                assert headers["retry-after"] == "1"


def test_a_full_queue_of_one_worker_says_one_computation() -> None:
    """Regression: a server of one worker (``--workers 1``) answered a full queue
    "1 computations running and 1 waiting: retry"; a count of one now takes its
    noun in the singular: "1 computation running and 0 waiting: retry"."""
    slow = {"dealt": "As Kd Qc Jd Th", "opponents": ["/ /"], "time_budget": 0.5}
    with Server(ServeConfig(workers=1, queue=0, max_time_budget=0.5)) as s:
        first = threading.Thread(target=s.request, args=("POST", "/v1/analyze", slow))
        first.start()
        deadline = time.monotonic() + 10
        while s.request("GET", "/v1/health")[2]["busy"] == 0:
            assert time.monotonic() < deadline, "the first analysis never started"
            time.sleep(0.01)
        status, _, out = s.request("POST", "/v1/analyze", slow)
        first.join(30)
    assert status == 503, out
    assert out["detail"] == "1 computation running and 0 waiting: retry", out


def test_a_busy_game_never_holds_the_workers_other_games_need() -> None:
    """Requests of one game are served one at a time; those waiting for their game
    must not each hold a worker thread, or a few requests on one busy game (a bot
    thinking, a slow client retrying) would keep every other client waiting.  The
    test holds game A's lock (a long bot move) while more requests than there are
    workers ask for A: a request of game B still answers at once."""
    with Server(ServeConfig(workers=2, queue=8)) as s:
        a = s.request("POST", "/v1/games", {"bots": ["random"], "seed": 1})[2]["id"]
        b = s.request("POST", "/v1/games", {"bots": ["random"], "seed": 2})[2]["id"]
        results: list[int] = []
        game_a = s.app.sessions.get(a)
        with game_a.lock:
            threads = [
                threading.Thread(
                    target=lambda: results.append(s.request("GET", f"/v1/games/{a}")[0])
                )
                for _ in range(6)
            ]
            for t in threads:
                t.start()
            time.sleep(0.5)  # every request of A has arrived and waits
            t0 = time.monotonic()
            status, _, out = s.request("GET", f"/v1/games/{b}", timeout=10)
            took = time.monotonic() - t0
            assert status == 200 and out["id"] == b, out
            assert took < 2.0, f"game B waited {took:.1f} s behind game A"
            assert results == []  # A's requests still wait for A
        for t in threads:
            t.join(30)
        assert results == [200] * 6  # and are all answered once A is free


def test_requests_waiting_for_a_busy_game_count_in_the_queue(
    doc: dict[str, Any],
) -> None:
    """A request waiting for its game (another of the game's requests running) was
    not counted in ``--queue``: a client could pile up any number on one game.  With
    one worker and a queue of 2, the game's running request and two waiting fill the
    server, and the next requests get the documented 503 problem at once."""
    with Server(ServeConfig(workers=1, queue=2)) as s:
        sid = s.request("POST", "/v1/games", {"bots": ["random"], "seed": 3})[2]["id"]
        path = f"/v1/games/{sid}"
        results: list[tuple[int, dict[str, str], Any]] = []
        game = s.app.sessions.get(sid)
        with game.lock:  # the game's first request runs (a long bot move) and waits
            threads = [
                threading.Thread(target=lambda: results.append(s.request("GET", path)))
                for _ in range(6)
            ]
            for t in threads:
                t.start()
                time.sleep(0.05)
            deadline = time.monotonic() + 10
            while len(results) < 3 and time.monotonic() < deadline:
                time.sleep(0.02)
            time.sleep(0.2)  # no fourth answer comes while the game is busy
            assert sorted(r[0] for r in results) == [503] * 3, results
        for t in threads:
            t.join(30)
        assert sorted(r[0] for r in results) == [200] * 3 + [503] * 3
        for status, headers, out in results:
            check_response(doc, "GET", path, status, headers, out)
            if status == 503:
                assert headers["retry-after"] == "1"
                assert headers["content-type"] == "application/problem+json"
        assert s.request("GET", "/v1/health")[2]["busy"] == 0


def _wait_for(test: Callable[[], bool], seconds: float = 10) -> bool:
    deadline = time.monotonic() + seconds
    while not test() and time.monotonic() < deadline:
        time.sleep(0.02)
    return test()


def test_a_request_whose_client_went_away_leaves_the_queue() -> None:
    """A request waiting in the queue (for a worker, or for its game) whose client
    went away (its wait ran out, it closed the connection) stayed there and was run
    for nobody: clients that give up kept the server busy (4 analyses of 1 s each
    with one worker: 4 s) and every other client waiting.  With the only worker held
    (game A's request waits for its lock), three analyses and two more requests of A
    wait; their clients close their connections: they leave the queue at once, and
    A's first request is still answered."""
    with Server(ServeConfig(workers=1, queue=8)) as s:
        sid = s.request("POST", "/v1/games", {"bots": ["random"], "seed": 4})[2]["id"]
        game, limiter = s.app.sessions.get(sid), s.app.limiter
        analyze_body = json.dumps({"dealt": "As Ks Qs Js Ts", "samples": 8}).encode()
        results: list[int] = []
        with game.lock:
            first = threading.Thread(
                target=lambda: results.append(s.request("GET", f"/v1/games/{sid}")[0])
            )
            first.start()
            assert _wait_for(lambda: limiter.pending == 1)
            socks = []
            for request in [
                *[("POST", "/v1/analyze", analyze_body)] * 3,
                *[("GET", f"/v1/games/{sid}", b"")] * 2,
            ]:
                sock = socket.create_connection(("127.0.0.1", s.port))
                head = f"{request[0]} {request[1]} HTTP/1.1\r\nHost: 127.0.0.1\r\n"
                head += f"Content-Length: {len(request[2])}\r\n\r\n"
                sock.sendall(head.encode() + request[2])
                socks.append(sock)
            assert _wait_for(lambda: limiter.pending == 6), limiter.pending
            for sock in socks:
                sock.close()
            assert _wait_for(lambda: limiter.pending == 1), limiter.pending
            assert results == []  # the first still waits for the game
        first.join(30)
        assert results == [200]
        assert _wait_for(lambda: limiter.pending == 0), limiter.pending
        assert s.request("GET", "/v1/health")[2]["busy"] == 0


def test_a_disconnected_analysis_frees_its_worker_within_about_one_batch() -> None:
    """An analysis whose client went away once it runs held its worker till its search
    ended: up to the server's ``--max-time-budget`` (here 30 s: 4,096 samples of an
    opening take far longer than one batch).  The service now stops it after the
    batch of 16 samples it is sampling (docs/serve.md states the bound this pins):
    the worker is free within about a batch, and the server answers on."""
    budget = 30.0
    with Server(ServeConfig(workers=1, queue=4, max_time_budget=budget)) as s:
        limiter = s.app.limiter
        body = json.dumps({"dealt": "As Kd Qc Jd Th", "samples": 4096, "exact": False})
        sock = socket.create_connection(("127.0.0.1", s.port))
        head = "POST /v1/analyze HTTP/1.1\r\nHost: 127.0.0.1\r\n"
        head += f"Content-Length: {len(body)}\r\n\r\n"
        sock.sendall(head.encode() + body.encode())
        assert _wait_for(lambda: limiter.pending == 1, 10)
        time.sleep(0.3)  # well into its search
        t0 = time.monotonic()
        sock.close()  # the client goes while its analysis runs
        assert _wait_for(lambda: limiter.pending == 0, budget + 10)
        held = time.monotonic() - t0
        assert held <= 3.0, f"the worker was held {held:.2f} s of a {budget} s budget"
        status, _, out = s.request("POST", "/v1/score", {"boards": _FOUR_BOARDS[:2]})
        assert status == 200, out  # the server answers on


def test_sessions_expire_and_stay_bounded() -> None:
    now = [0.0]
    store = SessionStore(max_sessions=3, ttl=10, clock=lambda: now[0])
    ids = [store.create({"seed": i, "bots": ["random"]}).id for i in range(5)]
    assert len(store) == 3  # the two least recently used went first
    with pytest.raises(Exception, match="unknown or expired"):
        store.get(ids[0])
    now[0] = 5.0
    store.get(ids[4])  # used: lives on
    now[0] = 12.0
    assert store.get(ids[4]).id == ids[4]
    with pytest.raises(Exception, match="unknown or expired"):
        store.get(ids[3])
    assert len(store) == 1


def test_the_session_count_leaves_out_expired_games() -> None:
    now = [0.0]
    store = SessionStore(max_sessions=8, ttl=10, clock=lambda: now[0])
    for seed in range(3):
        store.create({"seed": seed, "bots": ["random"]})
    assert len(store) == 3
    now[0] = 11.0  # every game idle longer than the ttl: what /v1/health counts
    assert len(store) == 0


def _loopback_clients(*addresses: str) -> None:
    """Skip unless every address is a loopback one this machine can send from (Linux
    routes all of 127.0.0.0/8 to the loopback interface; macOS only 127.0.0.1)."""
    for address in addresses:
        with socket.socket() as s:
            try:
                s.bind((address, 0))
            except OSError:
                pytest.skip(f"run on a machine where {address} is a local address (Linux)")


def test_one_client_s_games_never_evict_another_client_s() -> None:
    """The store kept the games most recently used by anyone, so one client creating
    ``max_sessions`` games made every other client's game a 404.  A client (its
    remote address) now keeps at most ``max_sessions_per_client`` and, beyond, loses
    its own least recently used game; when the store is full, the client holding the
    most loses its least recently used one."""
    a, b, c = "127.0.0.1", "127.0.0.2", "127.0.0.3"
    _loopback_clients(a, b, c)
    config = ServeConfig(workers=2, max_sessions=4, max_sessions_per_client=3)
    with Server(config) as s:

        def create(source: str) -> str:
            status, _, out = s.request(
                "POST", "/v1/games", {"bots": ["random"]}, source=source
            )
            assert status == 200, out
            return str(out["id"])

        def alive(sid: str, source: str) -> bool:
            status = s.request("GET", f"/v1/games/{sid}", source=source)[0]
            assert status in (200, 404)
            return status == 200

        theirs = create(b)
        mine = [create(a) for _ in range(10)]  # a script making games by the dozen
        assert alive(theirs, b)
        assert [alive(sid, a) for sid in mine] == [False] * 7 + [True] * 3
        # full (1 + 3): c's two new games each take one of a's, the biggest holder's
        others = [create(c) for _ in range(2)]
        assert alive(theirs, b) and all(alive(sid, c) for sid in others)
        assert [alive(sid, a) for sid in mine] == [False] * 9 + [True]
        status, _, health = s.request("GET", "/v1/health")
        assert status == 200 and health["sessions"] == 4


def test_a_request_that_waited_for_a_game_dropped_meanwhile_is_a_404(
    doc: dict[str, Any],
) -> None:
    """A request waiting in the queue for its game while the game was dropped (the
    client's newer game took its place) still ran on it, and answered 200 with an id
    that then answered 404: it is the 404 of a game no longer kept."""
    with Server(ServeConfig(workers=2, max_sessions_per_client=1)) as s:
        status, _, first = s.request("POST", "/v1/games", {"bots": ["random"]})
        assert status == 200, first
        sid = first["id"]
        game = s.app.sessions.get(sid)
        answers: list[tuple[int, dict[str, str], Any]] = []
        game.lock.acquire()  # the game busy: its requests wait for it
        try:
            threads = [
                threading.Thread(
                    target=lambda: answers.append(s.request("GET", f"/v1/games/{sid}"))
                )
                for _ in range(2)
            ]
            for t in threads:
                t.start()
            deadline = time.monotonic() + 20
            while s.app.limiter.pending < 2:  # one on a worker, one in the queue
                assert time.monotonic() < deadline, "the requests did not arrive"
                time.sleep(0.01)
            status, _, second = s.request("POST", "/v1/games", {"bots": ["random"]})
            assert status == 200, second  # on the other worker: drops the first game
        finally:
            game.lock.release()
        for t in threads:
            t.join(20)
        assert s.request("GET", f"/v1/games/{sid}")[0] == 404
        assert len(answers) == 2
        for status, headers, out in answers:
            assert (status, out["field"]) == (404, "id"), out
            check_response(doc, "GET", f"/v1/games/{sid}", status, headers, out)


def test_a_game_is_never_dropped_while_its_own_request_runs(doc: dict[str, Any]) -> None:
    """A game dropped while its own move ran (the client's newer game took its place,
    ``max_sessions_per_client``): the move answered 200, and the game was gone, the
    next request a 404: a move the client was told was played, lost.  A game whose
    request runs is never dropped: a new game that would take its place, every game
    it could take being in use, is the documented 503 with ``Retry-After``; the move
    is kept, and once it is answered a new game replaces the old one as before."""
    with Server(ServeConfig(workers=2, max_sessions_per_client=1)) as s:
        status, _, first = s.request("POST", "/v1/games", {"bots": ["random"], "seed": 5})
        assert status == 200, first
        sid = first["id"]
        game = s.app.sessions.get(sid)
        running, release = threading.Event(), threading.Event()
        play = game.play

        def slow_play(body: dict[str, Any]) -> dict[str, Any]:  # the bots think long
            running.set()
            release.wait(30)
            return play(body)

        game.play = slow_play  # type: ignore[method-assign]
        action = first["observation"]["legal_actions"][0]
        moved: list[tuple[int, dict[str, str], Any]] = []
        mover = threading.Thread(
            target=lambda: moved.append(
                s.request("POST", f"/v1/games/{sid}/moves", {"action": action})
            )
        )
        mover.start()
        try:
            assert running.wait(30), "the move did not start"
            status, headers, out = s.request("POST", "/v1/games", {"bots": ["random"]})
        finally:
            release.set()
            mover.join(30)
        assert [m[0] for m in moved] == [200], moved
        got, _, state = s.request("GET", f"/v1/games/{sid}")
        assert (got, state.get("version")) == (200, 1), state  # the move answered is kept
        assert status == 503 and headers["retry-after"] == "1", out
        check_response(doc, "POST", "/v1/games", status, headers, out)
        status, _, out = s.request("POST", "/v1/games", {"bots": ["random"]})
        assert status == 200, out
        assert s.request("GET", f"/v1/games/{sid}")[0] == 404  # replaced, as before


def test_a_full_store_drops_a_game_no_request_is_using() -> None:
    """When the store is full, the least recently used game of the client holding the
    most goes, unless a request is using it: then that client's next one that is
    idle, or another client's; with every game in use, a 503."""
    store = SessionStore(max_sessions=3, ttl=60, per_client=3)
    a = [store.create({"bots": ["random"], "seed": i}, client="a").id for i in range(2)]
    b = store.create({"bots": ["random"]}, client="b").id
    with store.using(a[0]):
        c = store.create({"bots": ["random"]}, client="c").id  # a[1] goes, not a[0]
        assert store.get(a[0]).id == a[0]
        with pytest.raises(ApiError, match="unknown or expired"):
            store.get(a[1])
        with store.using(b), store.using(c):
            with pytest.raises(ApiError) as busy:
                store.create({"bots": ["random"]}, client="d")
            assert busy.value.status == 503 and "retry-after" in busy.value.headers
    assert [store.get(sid).id for sid in (a[0], b, c)] == [a[0], b, c]  # all kept
    d = store.create({"bots": ["random"]}, client="d").id  # idle again: one goes
    assert len(store) == 3 and store.get(d).id == d


def _keyed(key: str) -> dict[str, str]:
    return {"Idempotency-Key": key}


def test_a_new_game_sent_again_with_its_idempotency_key_is_the_same_game(
    doc: dict[str, Any],
) -> None:
    """A ``POST /v1/games`` whose answer never came (the client's wait ran out, the
    connection broke) had made a game the client never learned of, counted against
    its games till it expired, and sending it again made a second.  Sent with an
    ``Idempotency-Key``, the same request again from the same client is answered as
    the first was (the same game) and the client's games do not grow; the key with
    another body is a 422 and a key that is no key a 400, both naming the header;
    another client's same key is its own; the key goes with its game."""
    a, b = "127.0.0.1", "127.0.0.2"
    _loopback_clients(a, b)
    with Server(ServeConfig(workers=2, max_sessions_per_client=2)) as s:

        def post(body: Any, key: str, source: str = a) -> tuple[int, Any]:
            status, hs, out = s.request(
                "POST", "/v1/games", body, headers=_keyed(key), source=source
            )
            check_response(doc, "POST", "/v1/games", status, hs, out)
            return status, out

        body = {"bots": ["random"], "players": 3}
        first = post(body, "new-game-1")
        assert first[0] == 200
        sid = first[1]["id"]
        for _ in range(3):  # the retries of a lost answer
            assert post({"players": 3, "bots": ["random"]}, "new-game-1") == first
        assert len(s.app.sessions) == 1
        assert post(body, "new-game-1", source=b)[1]["id"] != sid  # b's own key
        assert len(s.app.sessions) == 2
        status, out = post({**body, "players": 2}, "new-game-1")
        assert (status, out["field"]) == (422, "Idempotency-Key"), out
        assert "another request" in out["detail"]
        for bad in ["", " ", "x" * 256, "caf\u00e9", "a\x01b"]:
            raw = json.dumps(body).encode()
            status, hs, out = s.request(
                "POST",
                "/v1/games",
                raw=raw,
                headers={"Idempotency-Key": bad.encode("utf-8").decode("latin-1")},
            )
            if bad == "a\x01b" and http_parser() == "httptools":  # (its parser refuses a
                assert status == 400  # control byte in a header before the app reads
                continue  # it: uvicorn's own plain 400)
            check_response(doc, "POST", "/v1/games", status, hs, out)
            assert (status, out["field"]) == (400, "Idempotency-Key"), (bad, out)
        assert post(body, "x" * 255)[0] == 200  # a's second game
        assert len(s.app.sessions) == 3
        # a's third game drops its first, and the key with it: the key is new again
        assert post(body, "new-game-3")[0] == 200
        assert s.request("GET", f"/v1/games/{sid}")[0] == 404
        again = post(body, "new-game-1")
        assert again[0] == 200 and again[1]["id"] != sid
        store = s.app.sessions
        assert len(store._created) <= len(store) == 3  # one key at most per game kept


def test_a_keyed_body_nested_near_the_parse_limit_is_a_4xx_never_a_500(
    server: Server, doc: dict[str, Any]
) -> None:
    """A body nested just within what the parser takes was read again to tell a keyed
    request from another, deeper in the stack, and that overflowed: a 500.  Every
    depth is now a 4xx problem, with a key as without."""
    for depth in range(900, 1001):
        raw = b'{"bots": ' + b"[" * depth + b"]" * depth + b"}"
        for hdrs in ({}, _keyed(f"deep-{depth}")):
            status, hs, out = server.request("POST", "/v1/games", raw=raw, headers=hdrs)
            check_response(doc, "POST", "/v1/games", status, hs, out)
            assert status in (400, 422), (depth, hdrs, out)


def test_of_two_moves_racing_for_one_version_one_is_played_the_other_a_409(
    doc: dict[str, Any],
) -> None:
    """Two moves sent at once for the same decision (two tabs, a script's threads):
    the second was judged against the game the first left, and an ``action`` id
    that fit the next street was played there too.  A move naming the ``version``
    of the state it answers is played at that version only: of two racing, one is
    played and the other is a 409 naming ``version``; the game plays one move."""
    with Server(ServeConfig(workers=4)) as s:
        st = s.request("POST", "/v1/games", {"bots": ["random"], "seed": 11})[2]
        path = f"/v1/games/{st['id']}"
        assert st["version"] == 0
        for street in range(3):
            body = {"action": st["observation"]["legal_actions"][0], "version": street}
            answers: list[tuple[int, dict[str, str], Any]] = []
            racing = [
                threading.Thread(
                    target=lambda out, b: out.append(s.request("POST", path + "/moves", b)),
                    args=(answers, body),
                )
                for _ in range(4)
            ]
            for t in racing:
                t.start()
            for t in racing:
                t.join(60)
            for status, hs, out in answers:
                check_response(doc, "POST", path + "/moves", status, hs, out)
            assert sorted(a[0] for a in answers) == [200, 409, 409, 409], answers
            for status, _, out in answers:
                if status == 409:
                    assert out["field"] == "version" and "read the game" in out["detail"]
                else:
                    st = out
            assert st["version"] == street + 1
            placed = sum(map(len, st["observation"]["boards"][0]))
            assert placed == [5, 7, 9][street]  # one move a street, no more
            assert s.request("GET", path)[2] == st


def test_a_move_sent_again_with_its_idempotency_key_is_played_once(
    doc: dict[str, Any],
) -> None:
    """A move whose answer was lost, sent again, was played again where it still fit
    (an ``action`` id on the next street) or refused though it had been played.  With
    an ``Idempotency-Key`` the move sent again, also while the first still runs, gets
    the first's answer and the game plays it once; ``/next`` alike."""
    with Server(ServeConfig(workers=2)) as s:

        def post(path: str, body: Any, key: str) -> tuple[int, Any]:
            status, hs, out = s.request("POST", path, body, headers=_keyed(key))
            check_response(doc, "POST", path, status, hs, out)
            return status, out

        st = s.request("POST", "/v1/games", {"bots": ["random"], "seed": 9})[2]
        path = f"/v1/games/{st['id']}"
        for street in range(5):
            move = {"action": st["observation"]["legal_actions"][0]}
            answers: list[tuple[int, Any]] = []
            racing = [
                threading.Thread(
                    target=lambda out, *a: out.append(post(*a)),
                    args=(answers, path + "/moves", move, f"m{street}"),
                )
                for _ in range(2)
            ]
            for t in racing:
                t.start()
            for t in racing:
                t.join(60)
            assert answers[0] == answers[1] and answers[0][0] == 200, answers
            st = answers[0][1]
            status, now = s.request("GET", path)[::2]
            assert now["observation"]["boards"] == st["observation"]["boards"]
            placed = sum(map(len, now["observation"]["boards"][0]))
            assert placed == [5, 7, 9, 11, 13][street]  # one move a street, no more
        assert st["is_over"]
        status, out = post(path + "/moves", {"action": 1}, "m4")  # m4: another request
        assert (status, out["field"]) == (422, "Idempotency-Key"), out
        nxt = post(path + "/next", None, "n1")
        assert nxt[0] == 200 and post(path + "/next", None, "n1") == nxt
        assert s.request("GET", path)[2]["match"]["hands"] == 1  # one deal dealt on


def test_the_scope_of_an_idempotency_key_is_the_one_docs_serve_md_states(
    api: Api,
) -> None:
    """docs/serve.md said a key sent with "another endpoint" is a 422, but a new
    game's key sent with a move, or a move's key with another game's move, was that
    move played (the keys of new games and each game's moves and deals are apart).
    The page now states that scope, which this pins: a 422 for another request of
    the key's kind (another game's body, ``next`` for a move's key of the game)."""
    key = {"headers": _keyed("k-scope")}
    a = api("POST", "/v1/games", {"bots": ["random"], "seed": 1}, **key)[1]
    b = api("POST", "/v1/games", {"bots": ["random"], "seed": 2})[1]
    status, out = api("POST", "/v1/games", {"bots": ["random"], "seed": 3}, **key)
    assert (status, out["field"]) == (422, "Idempotency-Key"), out
    for game in (a, b):  # the new game's key: a new key for a move of either game
        move = {"action": game["observation"]["legal_actions"][0]}
        status, out = api("POST", f"/v1/games/{game['id']}/moves", move, **key)
        assert (status, out["version"]) == (200, 1), out
    status, out = api("POST", f"/v1/games/{a['id']}/next", None, **key)
    assert (status, out["field"]) == (422, "Idempotency-Key"), out
    with open(checkout_file("docs/serve.md"), encoding="utf-8") as f:
        page = " ".join(f.read().split())
    assert "another body, or another endpoint" not in page
    assert (
        "a key names one of the client's new games, and, apart, one of each game's "
        "moves and deals" in page
    )


def _serve(*options: str) -> tuple[subprocess.Popen[str], int]:
    """``ofc-fast serve --port 0 OPTIONS`` (the package under test) started, and the
    port it listens on, once it answers."""
    proc = subprocess.Popen(
        [sys.executable, "-m", "ofc_fast", "serve", "--port", "0", *options],
        stdout=subprocess.DEVNULL,
        stderr=subprocess.PIPE,
        text=True,
        env={**package_env(), "PYTHONUNBUFFERED": "1"},
    )
    assert proc.stderr is not None
    banner = proc.stderr.readline()
    found = re.match(r"ofc-fast serve: http://127\.0\.0\.1:(\d+)/ ", banner)
    assert found, banner
    port = int(found.group(1))
    _wait_until_healthy(port)
    return proc, port


@pytest.mark.parametrize("trusted", [False, True])
def test_a_forwarded_for_header_is_believed_only_from_the_proxies_given(
    trusted: bool,
) -> None:
    """By default uvicorn believes ``X-Forwarded-For`` from 127.0.0.1, so a
    local caller sending that header passed for any client it named: it could keep
    games beyond ``--max-games-per-client`` under names of its own, or drop another
    client's.  ``ofc-fast serve`` believes the header only from the proxies given with
    ``--forwarded-allow-ips``: by default a client is its peer address."""
    options = ["--forwarded-allow-ips", "127.0.0.1"] if trusted else []
    proc, port = _serve("--max-games-per-client", "1", *options)
    try:
        ids = []
        for client in ("10.9.8.7", "10.9.8.6"):  # two names, one real address
            status, body = _request(
                port, "POST", "/v1/games", {"bots": ["random"]}, {"X-Forwarded-For": client}
            )
            assert status == 200, body
            ids.append(body["id"])
        alive = [_request(port, "GET", f"/v1/games/{i}")[0] == 200 for i in ids]
        # one client keeps one game: the first goes unless the header is believed
        assert alive == [trusted, True]
    finally:
        proc.terminate()
        _, err = proc.communicate(timeout=20)
    # the access log names the client as its games are counted
    who = "10.9.8.7" if trusted else "127.0.0.1"
    assert f'{who} "POST /v1/games" 200' in err, err


def _request(
    port: int,
    method: str,
    path: str,
    body: Any = None,
    headers: dict[str, str] | None = None,
) -> tuple[int, Any]:
    """(status, JSON body) of a request on a fresh connection."""
    import http.client

    conn = http.client.HTTPConnection("127.0.0.1", port, timeout=30)
    try:
        data = None if body is None else json.dumps(body).encode()
        conn.request(method, path, body=data, headers=headers or {})
        resp = conn.getresponse()
        return resp.status, json.loads(resp.read())
    finally:
        conn.close()


def test_serve_command_logs_access_and_stops_on_sigterm(tmp_path: Any) -> None:
    port = free_port()
    proc = subprocess.Popen(
        [sys.executable, "-m", "ofc_fast", "serve", "--port", str(port)],
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
        env={**os.environ, "PYTHONUNBUFFERED": "1"},
    )
    try:
        import http.client

        deadline = time.monotonic() + 30
        while True:
            try:
                conn = http.client.HTTPConnection("127.0.0.1", port, timeout=5)
                conn.request("GET", "/v1/health")
                assert conn.getresponse().status == 200
                conn.close()
                break
            except OSError:
                assert time.monotonic() < deadline, "the server did not start"
                time.sleep(0.1)
        proc.send_signal(signal.SIGTERM)
        _, err = proc.communicate(timeout=20)
    finally:
        if proc.poll() is None:
            proc.kill()
    # uvicorn stops gracefully, then re-raises the signal it caught (exit by SIGTERM)
    assert proc.returncode in (0, -signal.SIGTERM), err
    assert '"GET /v1/health" 200' in err  # the access log
    assert "Application shutdown complete" in err and "Finished server process" in err


def test_serve_on_port_0_names_the_port_it_listens_on() -> None:
    """``ofc-fast serve --port 0`` (a free port, the system's pick) printed
    ``http://127.0.0.1:0/``, and at ``--log-level warning`` nothing said which port
    uvicorn took: the banner names the port the server really listens on."""
    proc = subprocess.Popen(
        [
            sys.executable,
            "-m",
            "ofc_fast",
            "serve",
            "--port",
            "0",
            "--log-level",
            "warning",
        ],
        stdout=subprocess.DEVNULL,
        stderr=subprocess.PIPE,
        text=True,
    )
    try:
        assert proc.stderr is not None
        banner = proc.stderr.readline()
        found = re.match(r"ofc-fast serve: http://127\.0\.0\.1:(\d+)/ ", banner)
        assert found, banner
        port = int(found.group(1))
        assert port != 0
        _wait_until_healthy(port)
    finally:
        proc.terminate()
        proc.communicate(timeout=20)


def _status_of(port: int, path: str) -> tuple[int, str]:
    """(status, content type) of a GET on a fresh connection."""
    import http.client

    conn = http.client.HTTPConnection("127.0.0.1", port, timeout=5)
    try:
        conn.request("GET", path)
        resp = conn.getresponse()
        resp.read()
        return resp.status, resp.getheader("content-type") or ""
    finally:
        conn.close()


def _wait_until_healthy(port: int) -> None:
    """Wait (30 s at most) until a server started in a subprocess answers
    ``GET /v1/health`` with 200 on ``port``."""
    deadline = time.monotonic() + 30
    while True:
        try:
            assert _status_of(port, "/v1/health")[0] == 200
            return
        except OSError:
            assert time.monotonic() < deadline, "the server did not start"
            time.sleep(0.1)


def test_beyond_the_connection_limit_uvicorn_answers_a_plain_503() -> None:
    """What docs/serve.md says of the one refusal that is not ours: ``ofc-fast serve``
    has uvicorn refuse a request once max(64, 4 x (workers + queue)) connections are
    open, its own counted: uvicorn itself answers 503 ``text/plain``; a connection
    that never sends a request counts until its client closes it (uvicorn times out
    only idle keep-alive ones)."""
    port = free_port()
    cmd = [sys.executable, "-m", "ofc_fast", "serve", "--port", str(port)]
    proc = subprocess.Popen(
        [*cmd, "--workers", "1", "--queue", "1", "--log-level", "error"],
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
    )
    idle: list[socket.socket] = []
    try:
        _wait_until_healthy(port)
        idle = [socket.create_connection(("127.0.0.1", port)) for _ in range(62)]
        time.sleep(0.3)
        assert _status_of(port, "/v1/health")[0] == 200  # the 63rd connection
        idle.append(socket.create_connection(("127.0.0.1", port)))
        time.sleep(6)  # longer than the keep-alive timeout (5 s): still counted
        assert _status_of(port, "/v1/health") == (503, "text/plain; charset=utf-8")
        for s in idle:
            s.close()
        deadline = time.monotonic() + 10  # until uvicorn has seen them close
        while _status_of(port, "/v1/health")[0] != 200:
            assert time.monotonic() < deadline, "still refused after the others closed"
            time.sleep(0.1)
    finally:
        for s in idle:
            s.close()
        proc.terminate()
        proc.wait(20)


def test_unparseable_http_gets_uvicorn_s_plain_400_as_the_doc_says(
    server: Server,
) -> None:
    """The other refusal that is not ours (docs/serve.md): a request uvicorn cannot
    parse never reaches the app, and uvicorn answers a plain-text 400 itself."""
    for head in (
        b"POST /v1/score HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Length: abc\r\n\r\n{}",
        b"GET /v1/health HTTP/1.1\r\nHost: 127.0.0.1\r\nno colon\r\n\r\n",
    ):
        with socket.create_connection(("127.0.0.1", server.port), timeout=10) as conn:
            conn.sendall(head)
            data = b""
            while chunk := conn.recv(65536):  # uvicorn closes the connection
                data += chunk
        assert data.startswith(b"HTTP/1.1 400 "), data
        assert b"text/plain" in data and data.endswith(b"Invalid HTTP request received.")
    path = os.path.join(os.path.dirname(__file__), "..", "docs", "serve.md")
    if not os.path.exists(path):
        pytest.skip("needs docs/ of a source checkout (git clone)")
    with open(path, encoding="utf-8") as f:
        doc = " ".join(f.read().split())
    said = '400 `text/plain` ("Invalid HTTP request received.")'
    assert "Every refusal but two (below)" in doc and said in doc


def test_a_key_given_twice_in_a_body_is_400(server: Server, doc: dict[str, Any]) -> None:
    """Parsers differ on which of two values of one key counts (Python's keeps the
    last, others the first): a body giving a key twice is refused, at any depth."""
    bodies = (
        b'{"cards": "As Ks Qs Js Ts 9s 8s 7s 6s 5s 4s 3s 2s Ah", "cards": "2c"}',
        b'{"cards": "As Ks Qs Js Ts 9s 8s 7s 6s 5s 4s 3s 2s Ah",'
        b' "rules": {"name": "x", "name": "y"}}',
    )
    for raw in bodies:
        status, headers, out = server.request("POST", "/v1/fantasyland", raw=raw)
        assert status == 400 and headers["content-type"] == "application/problem+json"
        assert out["field"] in ("cards", "rules.name"), out
        assert "repeated" in out["detail"], out
        check_response(doc, "POST", "/v1/fantasyland", status, headers, out)
    once = b'{"cards": "As Ks Qs Js Ts 9s 8s 7s 6s 5s 4s 3s 2s Ah"}'
    assert server.request("POST", "/v1/fantasyland", raw=once)[0] == 200


def test_a_key_given_twice_is_named_by_its_path(server: Server) -> None:
    """Regression: a body giving a key twice was a 400 with no ``field``, worded "the
    body is not JSON" (it is JSON): ``field`` is the key's path in the body, and the
    detail says it is repeated."""
    for raw, path in (
        (b'{"a": 1, "a": 2}', "a"),
        (
            b'{"samples": 4, "observation": {"seat": 0, "x": [], "seat": 1}}',
            "observation.seat",
        ),
        (b'{"hands": ["As Ks Qs"], "boards": [{"x": {"y": 1, "y": 1}}]}', "boards[0].x.y"),
        (b'{"hands": [[], {"k": 1}, {"k": 1, "k": 2}], "hands": []}', "hands"),
    ):
        status, _, out = server.request("POST", "/v1/evaluate", raw=raw)
        assert (status, out.get("field")) == (400, path), (raw, out)
        assert out["detail"].startswith(f"{path} is repeated"), out
        assert "not JSON" not in out["detail"], out


def _floats(value: Any) -> Any:
    """``value`` with every int (not bool) a float, which JSON writes as ``4.0``."""
    if isinstance(value, dict):
        return {k: _floats(v) for k, v in value.items()}
    if isinstance(value, list):
        return [_floats(v) for v in value]
    if isinstance(value, int) and not isinstance(value, bool):
        return float(value)
    return value


def test_a_whole_number_written_4_0_is_the_integer_4(
    server: Server, doc: dict[str, Any]
) -> None:
    """JSON has one number type, and the ``integer`` of /openapi.json (JSON Schema
    2020-12) admits ``4.0``: every integer field (scalars, card ids, chip counts,
    Fantasyland cards, an action) answers it as it answers ``4``."""
    boards = [
        "Qh Qd 2c / 9s 9h 9d 5c 5d / As Ks Qs Js Ts",
        "2h 3d 4c / 6s 6h 7d 7c 8d / Ah Ad Kh Kd 8c",
    ]
    game = {"bots": ["random"], "players": 2, "you": 1, "seed": 5, "hands": 3}
    cases = [
        ("/v1/analyze", {"board": "Qh / 9s 9h / As Ks", "dealt": "2c 5d Ts", "samples": 8}),
        (
            "/v1/analyze",
            {"board": "/ /", "dealt": "As Kd 7c 2h 3s", "samples": 16, "seed": 2**40},
        ),
        ("/v1/score", {"boards": boards, "button": 1, "stacks": [100, 100]}),
        ("/v1/evaluate", {"hands": [[51, 47, 43, 39, 35]]}),
        ("/v1/fantasyland", {"cards": list(range(0, 52, 4)) + [1]}),
        ("/v1/games", {**game, "fantasyland": [0, 14]}),
        ("/v1/games", game),
    ]
    volatile = ("id", "seconds")
    for path, body in cases:
        floated = _floats(body)
        schema = doc["paths"][path]["post"]["requestBody"]["content"]["application/json"]
        validator = jsonschema.Draft202012Validator(
            {**schema["schema"], "components": doc["components"]}
        )
        assert validator.is_valid(floated), (path, floated)  # the schema admits it
        status, _, want = server.request("POST", path, body)
        assert status == 200, (path, want)
        status, _, got = server.request("POST", path, raw=json.dumps(floated).encode())
        assert status == 200, (path, got)
        for key in volatile:
            want.pop(key, None), got.pop(key, None)
        assert got == want, path
    # a seed beyond a float's 53 bits: the literal's own value, not its nearest float
    text = json.dumps({**game, "seed": 2**64 - 1})
    want = server.request("POST", "/v1/games", raw=text.encode())[2]
    raw = text.replace(str(2**64 - 1), f"{2**64 - 1}.0").encode()
    got = server.request("POST", "/v1/games", raw=raw)[2]
    assert got["observation"] == want["observation"], got
    # an action written 4.0 plays as 4 (two games of one seed, one move each)
    states = [server.request("POST", "/v1/games", game)[2] for _ in range(2)]
    action = states[0]["observation"]["legal_actions"][-1]
    after = [
        server.request("POST", f"/v1/games/{states[0]['id']}/moves", {"action": action}),
        server.request(
            "POST",
            f"/v1/games/{states[1]['id']}/moves",
            raw=b'{"action": %d.0}' % action,
        ),
    ]
    assert [a[0] for a in after] == [200, 200], after
    assert after[0][2]["observation"] == after[1][2]["observation"]


_HANDSHAKE = (
    b"GET /v1/health HTTP/1.1\r\nHost: 127.0.0.1\r\nUpgrade: websocket\r\n"
    b"Connection: Upgrade\r\nSec-WebSocket-Key: dGhlIHNhbXBsZSBub25jZQ==\r\n"
    b"Sec-WebSocket-Version: 13\r\n\r\n"
)


def test_a_websocket_handshake_is_refused_with_a_problem_never_a_500(
    caplog: pytest.LogCaptureFixture,
) -> None:
    """The server offers no WebSocket; where uvicorn can speak it (wsproto or
    websockets installed) a handshake reaches the app, which must answer it: an app
    that returns without a word has uvicorn log an error and answer 500."""
    pytest.importorskip("wsproto", reason="pip install wsproto (uvicorn's WebSockets)")
    with Server(ServeConfig(workers=1)) as s, caplog.at_level(logging.ERROR):
        with socket.create_connection(("127.0.0.1", s.port), timeout=10) as conn:
            conn.sendall(_HANDSHAKE)
            data = b""
            while b"}" not in data and (chunk := conn.recv(65536)):
                data += chunk  # the whole response: its body is one JSON object
            head, _, body = data.partition(b"\r\n\r\n")
        status = int(head.split()[1])
        assert status == 404, head
        assert b"content-type: application/problem+json" in head.lower(), head
        assert json.loads(body)["detail"] == "no WebSocket endpoint /v1/health"
        assert s.request("GET", "/v1/health")[0] == 200  # still up
    assert not [r for r in caplog.records if r.levelno >= logging.ERROR], caplog.text


def test_a_websocket_handshake_is_closed_where_no_response_can_answer_it() -> None:
    """An ASGI server without the ``websocket.http.response`` extension gets the
    handshake closed (it answers 403), not an app that returned without a word."""
    from ofc_fast.serve import create_app

    sent: list[dict[str, Any]] = []

    async def receive() -> dict[str, Any]:
        return {"type": "websocket.connect"}

    async def send(message: dict[str, Any]) -> None:
        sent.append(message)

    scope = {"type": "websocket", "path": "/v1/health", "headers": []}
    asyncio.run(create_app(ServeConfig(workers=1))(scope, receive, send))
    assert [m["type"] for m in sent] == ["websocket.close"]


def test_a_problem_s_title_is_true_of_every_refusal_of_its_status(server: Server) -> None:
    """Every 400 was titled "The request is not valid JSON of the expected shape", a
    ``Host`` or ``Idempotency-Key`` refused too, and every 415 "The request body must
    be JSON", a JSON body compressed or declared in another charset too: a title is
    its type's summary, one per status, and now each says what any refusal of its
    status may be (the body, a header, the query), ``detail`` which one it is."""
    body = {"hands": ["As Ks Qs"]}
    kinds = {
        400: [
            ({}, b"{"),  # not JSON
            ({"Host": "rebind.example"}, None),  # a header
            ({"Origin": server.url, "Content-Type": "application/json"}, b"[]"),
        ],
        415: [
            ({"Content-Encoding": "gzip"}, gzip.compress(json.dumps(body).encode())),
            ({"Content-Type": "application/json; charset=latin-1"}, None),
            ({"Origin": server.url, "Content-Type": "text/plain"}, None),
        ],
    }
    seen: dict[int, str] = {}
    for status, cases in kinds.items():
        titles = set()
        for headers, raw in cases:
            got, _, out = server.request(
                "POST", "/v1/evaluate", body, raw=raw, headers=headers
            )
            assert got == status, (headers, out)
            titles.add(out["title"])
        (seen[status],) = titles  # one per status
        claims = {400: "JSON", 415: "must be JSON"}[status]
        assert claims not in seen[status], seen  # not true of a header or a coding
    got, _, out = server.request("POST", "/v1/evaluate?x=1", body)
    assert (got, out["title"]) == (400, seen[400]), out


def test_a_compressed_body_is_415_naming_content_encoding(
    server: Server, doc: dict[str, Any]
) -> None:
    """RFC 9110 (15.5.16): a body in a content coding the server does not read is a
    415 with ``Accept-Encoding`` (not a 400 calling gzip's bytes 'not UTF-8')."""
    body = json.dumps({"hands": ["As Ks Qs Js Ts"]}).encode()
    for coding in ("gzip", "br", "GZIP"):
        status, headers, out = server.request(
            "POST",
            "/v1/evaluate",
            raw=gzip.compress(body),
            headers={"Content-Encoding": coding},
        )
        assert (status, out["field"]) == (415, "Content-Encoding"), out
        assert headers["accept-encoding"] == "identity"
        check_response(doc, "POST", "/v1/evaluate", status, headers, out)
    headers = {"Content-Encoding": "identity"}
    assert server.request("POST", "/v1/evaluate", raw=body, headers=headers)[0] == 200


def test_a_body_declared_in_a_charset_other_than_utf_8_is_415_naming_it(
    server: Server, doc: dict[str, Any]
) -> None:
    """JSON is UTF-8 (RFC 8259, 8.1), and the server reads every body as UTF-8: a body
    declared ``charset=utf-16`` was a 400 "the body is not UTF-8 (byte 0)", one
    declared ``latin-1`` whose bytes are UTF-8 too read as UTF-8 (200), another text
    than the client meant.  A charset other than UTF-8 is a 415 naming it."""
    text = json.dumps({"hands": ["As Ks Qs Js Ts"]})
    for charset, codec in (
        ("utf-16", "utf-16"),
        ("latin-1", "latin-1"),
        ('"ISO-8859-1"', "latin-1"),
    ):
        declared = {"Content-Type": f"application/json; charset={charset}"}
        raw = text.encode(codec)
        status, headers, out = server.request(
            "POST", "/v1/evaluate", raw=raw, headers=declared
        )
        assert (status, out["field"]) == (415, "Content-Type"), out
        assert charset.strip('"') in out["detail"], out
        check_response(doc, "POST", "/v1/evaluate", status, headers, out)
    for ctype in ("application/json; charset=utf-8", 'application/json;charset="UTF-8"'):
        headers = {"Content-Type": ctype}
        got = server.request("POST", "/v1/evaluate", raw=text.encode(), headers=headers)
        assert got[0] == 200, got


def test_a_body_declared_in_a_utf_8_alias_or_us_ascii_is_read(
    server: Server, doc: dict[str, Any]
) -> None:
    """``charset=utf8`` (a common alias of UTF-8) and ``charset=us-ascii`` (a subset of
    UTF-8: every US-ASCII body is the same UTF-8 text) were refused with 415; they are
    read as UTF-8.  A charset of no known name is still a 415 naming it."""
    text = json.dumps({"hands": ["As Ks Qs Js Ts"]}).encode("ascii")
    for charset in ("utf8", "UTF8", "utf_8", '"utf8"', "us-ascii", "US-ASCII", "ascii"):
        headers = {"Content-Type": f"application/json; charset={charset}"}
        got = server.request("POST", "/v1/evaluate", raw=text, headers=headers)
        assert got[0] == 200, (charset, got)
    for charset in ("no-such-charset", "utf-8-sig", "x" * 300):
        declared = {"Content-Type": f"application/json; charset={charset}"}
        status, headers, out = server.request(
            "POST", "/v1/evaluate", raw=text, headers=declared
        )
        assert (status, out["field"]) == (415, "Content-Type"), out
        assert charset[:40] in out["detail"], out
        check_response(doc, "POST", "/v1/evaluate", status, headers, out)


def test_a_body_that_starts_with_a_byte_order_mark_is_read(
    api: Api, server: Server
) -> None:
    """A JSON file saved with a byte order mark (Notepad, Windows PowerShell) and
    posted as it is (``curl -d @body.json``) was a 400 in Python's words, "Unexpected
    UTF-8 BOM (decode using utf-8-sig)": the mark is read as none (RFC 8259, 8.1 lets
    a parser ignore it), the body answered as without it; a second one is still a
    body that is not JSON."""
    body = {"hands": ["As Ks Qs Js Ts"], "boards": [_BOARD_A]}
    text = json.dumps(body).encode("utf-8")
    plain = api("POST", "/v1/evaluate", body)
    assert plain[0] == 200, plain
    assert api("POST", "/v1/evaluate", raw=b"\xef\xbb\xbf" + text) == plain
    status, out = api("POST", "/v1/evaluate", raw=b"\xef\xbb\xbf" * 2 + text)
    assert status == 400 and out["detail"].startswith("the body is not JSON"), out
    game = api("POST", "/v1/games", {"seed": 1}, raw=b"\xef\xbb\xbf{}")
    assert game[0] == 200 and game[1]["id"], game


def test_each_operation_documents_exactly_the_refusals_it_gives(
    server: Server, doc: dict[str, Any], monkeypatch: pytest.MonkeyPatch
) -> None:
    """A client generated from /openapi.json must be able to trust its responses: the
    document listed 401, 404, 413 and 422 on ``GET /v1/health`` (none can happen), 409
    on ``GET /v1/games/{id}`` and 503 on ``score`` and ``evaluate`` (answered on the
    event loop, never queued).  Here, for every operation, requests of each kind (a
    foreign ``Host``, no key, an unknown game, a deal in the wrong state, a body too
    large or never sent whole, not JSON, a field it does not take, a browser's body
    not declared JSON, a full queue) and a few malformed ones get refusals, each
    listed for the operation, and together they give every status listed.  Left
    out, as docs/serve.md says: 405 (another method: no operation of the
    document), uvicorn's own plain 400 and 503, and 500 (a bug, never an answer to bad input)."""
    from ofc_fast.serve import _limits

    monkeypatch.setattr(_limits, "BODY_SECONDS", 0.2)  # (a body never sent whole: 408)
    key = "k" * 16
    auth = {"Authorization": "Bearer " + key}
    with Server(ServeConfig(api_key=key, workers=1, queue=1, max_body=4096)) as keyed:
        # a game whose deal is over, and one still on (for /moves and /next)
        ofc_game = {"rules": "ofc", "seed": 5}
        st = keyed.request("POST", "/v1/games", ofc_game, headers=auth)[2]
        over = st["id"]
        while not st["is_over"]:
            action = {"action": st["observation"]["legal_actions"][-1]}
            st = keyed.request("POST", f"/v1/games/{over}/moves", action, headers=auth)[2]
        on = keyed.request("POST", "/v1/games", {"seed": 6}, headers=auth)[2]["id"]
        big = b'{"text": "' + b"x" * 8192 + b'"}'  # beyond max_body, fits a socket buffer
        browser = {"Origin": keyed.url, "Content-Type": "text/plain", **auth}
        # a keyed creation of {} still running (409), a key of "on" used for another
        # request (422: /next, which reads no body, too)
        store = keyed.app.sessions
        store._created.keep(Keyed("127.0.0.1", "running", _digest("/v1/games", {})))
        store.get(on).replies.keep(Keyed("127.0.0.1", "used", "another request"), {})
        kinds: list[tuple[Server, str | None, dict[str, str], bytes | None]] = [
            (server, None, {"Host": "rebind.example"}, None),  # 400 (keyless server)
            (keyed, None, {}, None),  # 401
            (keyed, "nope", auth, None),  # 404
            (keyed, over, auth, b'{"action": 0}'),  # 409 after the deal
            (keyed, on, auth, b"{}"),  # 409 before its end (/next)
            (keyed, on, auth, big),  # 413
            (keyed, on, {**auth, "Content-Length": "100"}, b"{}"),  # 408: 98 never sent
            (keyed, on, auth, b'{"a": '),  # 400
            (keyed, on, auth, b"[1, 2]"),  # 400
            (keyed, on, auth, b'{"unknown_field": 1}'),  # 422
            (keyed, on, browser, b"{}"),  # 415
            (keyed, on, {**auth, "Content-Encoding": "gzip"}, b"{}"),  # 415
            (keyed, on, {**auth, "Idempotency-Key": "running"}, b"{}"),  # 409
            (keyed, on, {**auth, "Idempotency-Key": "used"}, b"{}"),  # 422
        ]
        # each response against its own server's document: the keyed one lists 401s
        docs = {id(server): doc, id(keyed): keyed.request("GET", "/openapi.json")[2]}
        seen: dict[tuple[str, str], set[int]] = {}
        for template, ops in doc["paths"].items():
            for method in ops:
                got = seen.setdefault((template, method), set())
                for full in (False, True):  # then every worker and queue place taken
                    if full:
                        keyed.app.limiter.pending = 2
                    try:
                        for s, sid, hdrs, raw in kinds:
                            path = template.replace("{id}", sid or on)
                            body = None if method == "get" else (raw or b"{}")
                            status, hs, out = s.request(
                                method.upper(), path, raw=body, headers=hdrs
                            )
                            check_response(docs[id(s)], method, path, status, hs, out)
                            got.add(status)
                    finally:
                        keyed.app.limiter.pending = 0
    for (template, method), got in seen.items():
        responses = docs[id(keyed)]["paths"][template][method]["responses"]
        listed = {int(code) for code in responses}
        assert got | {200} == listed | {200}, (template, method, sorted(got))


def _digest(operation: str, body: Any) -> str:
    """What tells a keyed request from another: the digest the server takes."""
    k = request_key([(b"idempotency-key", b"k")], "-", operation, body)
    assert k is not None
    return k.digest


def test_the_headers_a_client_acts_on_are_documented(doc: dict[str, Any]) -> None:
    """A 503 carries ``Retry-After`` (when to retry) and a 401 ``WWW-Authenticate``
    (the scheme): /openapi.json listed neither, so a generated client could not read
    them.  Each response's header is now listed for its status, on every operation
    that gives it."""
    with Server(ServeConfig(api_key="k" * 16, retry_after=3)) as s:
        s.app.limiter.pending = s.app.limiter.workers + s.app.limiter.queue
        try:
            auth = {"Authorization": "Bearer " + "k" * 16}
            busy = s.request("POST", "/v1/games", {}, headers=auth)
        finally:
            s.app.limiter.pending = 0
        keyless = s.request("POST", "/v1/score", {"boards": []})
    for (status, headers, _), name in (
        (busy, "retry-after"),
        (keyless, "www-authenticate"),
    ):
        assert name in headers, (status, headers)
        for ops in doc["paths"].values():
            for op in ops.values():
                response = op["responses"].get(str(status))
                if response is not None:
                    listed = {h.lower(): v for h, v in response.get("headers", {}).items()}
                    assert listed.get(name, {}).get("required"), (status, name, op)
    assert busy[0] == 503 and busy[1]["retry-after"] == "3" and keyless[0] == 401


def test_every_operation_has_a_unique_operation_id(doc: dict[str, Any]) -> None:
    """Client generators name a method by its ``operationId`` and some need one
    (openapi-python-generator stops without it, OpenAPI::Client makes no method): the
    document gave none."""
    ids = [op.get("operationId") for ops in doc["paths"].values() for op in ops.values()]
    assert all(isinstance(i, str) and re.fullmatch(r"[a-z][a-z0-9_]*", i) for i in ids), ids
    assert len(set(ids)) == len(ids) == 11, ids


def test_the_game_id_s_pattern_is_documented_and_is_the_router_s(server: Server) -> None:
    """/openapi.json said only that a game id is a string, while the server routes
    only ids of 1 to 64 of ``A-Z a-z 0-9 _ -``: a generated client could not tell a
    bad id from a game gone.  The path parameter carries the router's pattern, every
    id the server makes fits it, and an id outside it is a 404 problem."""
    doc = server.request("GET", "/openapi.json")[2]
    for path, ops in doc["paths"].items():
        for op in ops.values():
            for param in op.get("parameters", []):
                if param["in"] == "path":
                    pattern = re.compile(param["schema"]["pattern"])
                    assert path.startswith("/v1/games/{id}")
    made = [
        server.request("POST", "/v1/games", {"bots": ["random"], "seed": n})[2]["id"]
        for n in range(20)
    ]
    assert all(pattern.fullmatch(i) for i in made), made
    for bad in ("a" * 65, "a.b", "%C3%A9", f"{made[0]}%0A", f"{made[0]}/next%0A"):
        assert not pattern.fullmatch(bad)
        status, headers, _ = server.request("GET", f"/v1/games/{bad}")
        assert status == 404 and headers["content-type"] == "application/problem+json"


_BOARD_A = "Qh Qd 2c / 9s 9h 9d 5c 5d / As Ks Qs Js Ts"
_BOARD_B = "2h 3d 4c / 6s 6h 7d 7c 8d / Ah Ad Kh Kd 8c"


def _pad(text: str, n: int) -> str:
    return text + " " * (n - len(text))


# each size limit of a request field: (the field of ofc_fast.serve._sizes.Sizes, the
# limit docs/serve.md states, the endpoint, its request schema, a body at size n)
_SIZE_LIMITS: list[tuple[str, int, str, str, Callable[[int], dict[str, Any]]]] = [
    ("hands", 64, "/v1/evaluate", "EvaluateRequest", lambda n: {"hands": ["As Kd 7c"] * n}),
    (
        "hand_text",
        64,
        "/v1/evaluate",
        "EvaluateRequest",
        lambda n: {"hands": [_pad("As", n)]},
    ),
    (
        "boards",
        4,
        "/v1/score",
        "ScoreRequest",
        lambda n: {"boards": [_BOARD_A, _BOARD_B] * (n // 2) + [_BOARD_A] * (n % 2)},
    ),
    (
        "board_text",
        200,
        "/v1/score",
        "ScoreRequest",
        lambda n: {"boards": [_pad(_BOARD_A, n), _BOARD_B]},
    ),
    (
        "stacks",
        4,
        "/v1/score",
        "ScoreRequest",
        lambda n: {"boards": [_BOARD_A, _BOARD_B], "stacks": [100] * n},
    ),
    (
        "opponents",
        3,
        "/v1/analyze",
        "AnalyzeRequest",
        lambda n: {"dealt": "As Kd", "opponents": ["/ /"] * n, "samples": 1},
    ),
    (
        "dealt_text",
        200,
        "/v1/analyze",
        "AnalyzeRequest",
        lambda n: {"dealt": _pad("As Kd 7c 6c 2h", n), "samples": 1},
    ),
    (
        "dead_text",
        400,
        "/v1/analyze",
        "AnalyzeRequest",
        lambda n: {"dealt": "As Kd 7c 6c 2h", "dead": _pad("3c", n), "samples": 1},
    ),
    (
        "rules_text",
        64,
        "/v1/score",
        "ScoreRequest",
        lambda n: {"boards": [_BOARD_A, _BOARD_B], "rules": "x" * n},
    ),
    (
        "objective_text",
        20,
        "/v1/arrange",
        "ArrangeRequest",
        lambda n: {"cards": list(range(13)), "objective": "x" * n},
    ),
    (
        "declare_text",
        64,
        "/v1/games/{id}/moves",
        "MoveRequest",
        lambda n: {"move": {"place": [], "declare": "x" * n}},
    ),
    ("fantasyland", 4, "/v1/games", "GameCreate", lambda n: {"fantasyland": [0] * n}),
    (
        "bots",
        3,
        "/v1/games",
        "GameCreate",
        lambda n: {"rules": "ofc", "players": 4, "bots": ["random"] * n},
    ),
    (
        "cards",
        52,
        "/v1/fantasyland",
        "FantasylandRequest",
        lambda n: {"cards": [i % 52 for i in range(n)]},
    ),
]


def _largest_table() -> int:
    """The most seats of any preset a served game plays (OFC or Pineapple)."""
    games = [p for p in rules.PRESETS.values() if p.game.value in ("ofc", "pineapple")]
    return max(p.max_players for p in games)


def test_a_bad_bot_name_is_named_by_its_item(api: Api) -> None:
    """Regression: ``bots`` holding a number or a name of no bot was a 422 naming
    ``bots`` as a whole, though docs/serve.md answers a field of the wrong type with a
    400 naming its path: a number is a 400 naming its item, and an unknown name a 422
    naming its item and the bots there are."""
    for bots, status, field in (
        (["random", 5], 400, "bots[1]"),
        (["heuristic", "serach"], 422, "bots[1]"),
        (["module:Bot"], 422, "bots[0]"),
        ([], 422, "bots"),
    ):
        got, out = api("POST", "/v1/games", {"players": 3, "bots": bots})
        assert (got, out.get("field")) == (status, field), (bots, out)
    got, out = api("POST", "/v1/games", {"players": 3, "bots": ["random", "serach"]})
    assert "'serach'" in out["detail"] and "heuristic" in out["detail"], out
    assert (
        api("POST", "/v1/games", {"players": 3, "bots": ["random", "heuristic"]})[0] == 200
    )


def test_a_bot_name_is_read_as_make_bot_reads_it(api: Api) -> None:
    """``make_bot("Heuristic")`` is the heuristic bot (the registry reads a name
    whatever its case and surrounding spaces), but ``POST /v1/games`` refused
    ``"Heuristic"`` in ``bots``: it takes the names the library takes and answers
    with the registry's own."""
    body = {"players": 3, "bots": ["Heuristic", " RANDOM "], "seed": 3}
    status, out = api("POST", "/v1/games", body)
    assert status == 200, out
    assert out["seats"] == ["you", "heuristic", "random"], out
    status, out = api("POST", "/v1/games", {"players": 3, "bots": ["Random", " "]})
    assert (status, out["field"]) == (422, "bots[1]"), out


def test_the_bots_bound_is_in_openapi_and_a_table_s_own_is_named(
    api: Api, doc: dict[str, Any]
) -> None:
    """/openapi.json stated no bound on ``bots`` of ``POST /v1/games``, while the
    server refused more names than seats: it states the most any table takes (one
    per seat but the client's at the largest table of any game the server plays),
    and a smaller table's own bound (one name, or ``players - 1``) is a 422 naming
    it."""
    most = _largest_table()
    bots = doc["components"]["schemas"]["GameCreate"]["properties"]["bots"]
    assert bots["maxItems"] == most - 1 and bots["minItems"] == 1
    status, out = api("POST", "/v1/games", {"players": 2, "bots": ["random"] * 2})
    assert (status, out["field"]) == (422, "bots") and "give 1 name or 1" in out["detail"]
    status, out = api(
        "POST", "/v1/games", {"rules": "ofc", "players": 4, "bots": ["random"] * most}
    )
    assert (status, out["field"]) == (400, "bots"), out
    assert f"at most {most - 1}" in out["detail"]


def test_the_fantasyland_bound_is_the_largest_table_s_seats(
    api: Api, doc: dict[str, Any]
) -> None:
    """/openapi.json said a game's ``fantasyland`` holds up to 64 counts, while the
    match takes one per seat: it states the seats of the largest table any game has
    (the client generated from it sends no list the server must refuse), and a
    table's own count is a 422 naming the field."""
    most = _largest_table()
    fl = doc["components"]["schemas"]["GameCreate"]["properties"]["fantasyland"]
    assert (fl["minItems"], fl["maxItems"]) == (2, most)
    body = {"rules": "ofc", "players": most, "bots": ["random"]}
    assert api("POST", "/v1/games", {**body, "fantasyland": [0] * most})[0] == 200
    status, out = api("POST", "/v1/games", {**body, "fantasyland": [0] * (most + 1)})
    assert (status, out["field"]) == (400, "fantasyland"), out
    status, out = api("POST", "/v1/games", {"bots": ["random"], "fantasyland": [0] * 3})
    assert (status, out["field"]) == (422, "fantasyland"), out


def _size_errors(errors: Any) -> list[Any]:
    """The maxItems / maxLength errors among ``errors`` (a oneOf's too)."""
    out = []
    for e in errors:
        out += [e] if e.validator in ("maxItems", "maxLength") else []
        out += _size_errors(e.context)
    return out


def test_every_size_limit_is_in_openapi_and_the_server_takes_it(
    api: Api, doc: dict[str, Any]
) -> None:
    """/openapi.json stated no maxItems / maxLength of a request field, so a client
    generated from it sent what the server refuses: for every size the server checks
    (each field of ``Sizes``), a request at the limit passes the schema and the
    server's check, one beyond is refused by both (400, the field named).  A
    move's ``declare`` had a limit of its own, 1,000 characters, stated nowhere: it
    is ``Sizes.declare_text`` too."""
    # every size the server checks is here ...
    checked = {name for name, *_ in _SIZE_LIMITS}
    assert checked == {f.name for f in dataclasses.fields(Sizes)}
    serve = Path(ofc.__file__).parent / "serve"
    for source in serve.glob("*.py"):  # ... is one of them, never a number of its own
        calls = re.findall(r"get_(?:str|list)\([^()]*\)", source.read_text())
        assert not [c for c in calls if re.search(r", \d+\b|max_len=\d", c)], source
    for name, limit, path, schema_name, body_of in _SIZE_LIMITS:
        assert getattr(SIZES, name) == limit, name
        schema = {**doc, "$ref": f"#/components/schemas/{schema_name}"}
        validator = jsonschema.Draft202012Validator(schema)
        at, beyond = body_of(limit), body_of(limit + 1)
        assert not _size_errors(validator.iter_errors(at)), name
        assert _size_errors(validator.iter_errors(beyond)), name
        if "{id}" in path:  # a game's: a new one
            path = path.replace("{id}", api("POST", "/v1/games", {"seed": 1})[1]["id"])
        status, out = api("POST", path, at)
        assert status != 400, (name, out)
        status, out = api("POST", path, beyond)
        assert status == 400, (name, out)
        assert f"at most {limit}" in out["detail"] or "must be" in out["detail"]


def _number_fields(
    doc: dict[str, Any], schema: dict[str, Any], at: str
) -> Iterator[tuple[str, dict[str, Any]]]:
    """Every number field of a request ``schema`` (``$ref`` followed, ``oneOf``
    branches walked): its place (``stacks[]``, ``move.place[][0]``...) and schema."""
    if "$ref" in schema:
        schema = doc["components"]["schemas"][schema["$ref"].rsplit("/", 1)[1]]
    enum = [v for v in schema.get("enum", []) if v is not None]  # (null: absent)
    numbers = [v for v in enum if isinstance(v, int) and not isinstance(v, bool)]
    if {"integer", "number"} & set(_types(schema)) or (enum and numbers == enum):
        yield at, schema
    for name, sub in schema.get("properties", {}).items():
        yield from _number_fields(doc, sub, f"{at}.{name}" if at else name)
    if "items" in schema:
        yield from _number_fields(doc, schema["items"], f"{at}[]")
    for i, sub in enumerate(schema.get("prefixItems", [])):
        yield from _number_fields(doc, sub, f"{at}[{i}]")
    for sub in schema.get("oneOf", []):
        yield from _number_fields(doc, sub, at)


def _types(schema: dict[str, Any]) -> list[str]:
    """The JSON types a schema's ``type`` names (a name, or a list: an optional field
    of a request is nullable)."""
    kind = schema.get("type", [])
    return [kind] if isinstance(kind, str) else list(kind)


def _bounds(schema: dict[str, Any]) -> tuple[list[float], list[float]]:
    """The values a number field's schema states it takes at its bounds, and those
    just past them."""
    if "enum" in schema:
        taken = sorted(v for v in schema["enum"] if v is not None)
        past = [v + d for v in taken for d in (-1, 1) if v + d not in taken]
        return taken, past
    step = 1 if "integer" in _types(schema) else 1e-4
    low, high = schema["minimum"], schema["maximum"]
    return [low, high], [low - step, high + step]


_FOUR_BOARDS = [
    " / ".join(ofc.cards_str(range(b * 13 + lo, b * 13 + hi)) for lo, hi in rows)
    for b in range(4)
    for rows in [((0, 3), (3, 8), (8, 13))]
]


def _game_dealt(api: Api, card: int | None = None) -> tuple[str, list[int]]:
    """A new game (2 players, pineapple) whose first street deals ``card``: its id and
    the cards dealt."""
    for seed in range(2000):
        status, st = api("POST", "/v1/games", {"seed": seed, "bots": ["random"]})
        assert status == 200, st
        dealt = st["observation"]["dealt"]
        if card is None or card in dealt:
            return st["id"], dealt
    raise AssertionError(f"no seed deals card {card}")  # pragma: no cover


def _placed(dealt: list[int], card: Any) -> list[list[Any]]:
    """Every dealt card to the back, ``card`` (an id, maybe of no card) first."""
    return [[card, 2]] + [[c, 2] for c in dealt if c != card][:4]


_Request = Callable[[Api, Any], tuple[str, dict[str, Any]]]


def _body(path: str, make: Callable[[Any], dict[str, Any]]) -> _Request:
    return lambda api, v: (path, make(v))


def _move(make: Callable[[list[int], Any], dict[str, Any]], deal: bool) -> _Request:
    """A move of a new game (``deal``: one whose first street deals the value, a
    card)."""

    def request(api: Api, v: Any) -> tuple[str, dict[str, Any]]:
        sid, dealt = _game_dealt(api, v if deal and v in range(52) else None)
        return f"/v1/games/{sid}/moves", {"move": make(dealt, v)}

    return request


def _versioned(api: Api, v: Any) -> tuple[str, dict[str, Any]]:
    """A move of a new game (version 0) naming version ``v``."""
    sid, dealt = _game_dealt(api)
    return f"/v1/games/{sid}/moves", {
        "move": {"place": _placed(dealt, dealt[0])},
        "version": v,
    }


def _action(api: Api, v: Any) -> tuple[str, dict[str, Any]]:
    """Action ``v`` of a new game; action 0 on its second street (on the first, 0 sets
    all five cards in front: 242, all five in back, comes first)."""
    path = f"/v1/games/{_game_dealt(api)[0]}/moves"
    if v == 0:
        assert api("POST", path, {"action": 242})[0] == 200
    return path, {"action": v}


_ANALYZE = {"dealt": "As Ks Qs Js Ts", "samples": 2, "time_budget": 0.05}
_NUMBER_FIELDS: dict[tuple[str, str], tuple[_Request, str]] = {
    ("AnalyzeRequest", "time_budget"): (
        _body("/v1/analyze", lambda v: {**_ANALYZE, "time_budget": v}),
        "time_budget",
    ),
    ("AnalyzeRequest", "samples"): (
        _body("/v1/analyze", lambda v: {**_ANALYZE, "samples": v}),
        "samples",
    ),
    ("AnalyzeRequest", "seed"): (
        _body("/v1/analyze", lambda v: {**_ANALYZE, "seed": v}),
        "seed",
    ),
    ("FantasylandRequest", "cards[]"): (
        _body("/v1/fantasyland", lambda v: {"cards": [v, *range(20, 33)]}),
        "cards",
    ),
    ("ArrangeRequest", "cards[]"): (
        _body("/v1/arrange", lambda v: {"cards": [v, *range(20, 32)]}),
        "cards",
    ),
    ("ScoreRequest", "button"): (
        _body("/v1/score", lambda v: {"boards": _FOUR_BOARDS, "button": v, "rules": "ofc"}),
        "button",
    ),
    ("ScoreRequest", "stacks[]"): (
        _body("/v1/score", lambda v: {"boards": _FOUR_BOARDS[:2], "stacks": [v, 0]}),
        "stacks",
    ),
    ("EvaluateRequest", "hands[][]"): (
        _body("/v1/evaluate", lambda v: {"hands": [[v, 20, 21]]}),
        "hands[0]",
    ),
    ("GameCreate", "players"): (
        _body("/v1/games", lambda v: {"rules": "ofc", "players": v, "bots": ["random"]}),
        "players",
    ),
    ("GameCreate", "you"): (
        _body(
            "/v1/games",
            lambda v: {"rules": "ofc", "players": 4, "you": v, "bots": ["random"]},
        ),
        "you",
    ),
    ("GameCreate", "seed"): (
        _body("/v1/games", lambda v: {"seed": v, "bots": ["random"]}),
        "seed",
    ),
    ("GameCreate", "hands"): (
        _body("/v1/games", lambda v: {"hands": v, "bots": ["random"]}),
        "hands",
    ),
    ("GameCreate", "fantasyland[]"): (
        _body("/v1/games", lambda v: {"fantasyland": [v, 0], "bots": ["random"]}),
        "fantasyland[0]",
    ),
    ("MoveRequest", "action"): (_action, "action"),
    ("MoveRequest", "version"): (_versioned, "version"),
    ("MoveRequest", "move.place[][0]"): (
        _move(lambda dealt, v: {"place": _placed(dealt, v)}, deal=True),
        "move.place[0]",
    ),
    ("MoveRequest", "move.place[][1]"): (
        _move(
            lambda d, v: {"place": [[d[0], v], [d[1], 0], [d[2], 0], [d[3], 2], [d[4], 2]]},
            deal=False,
        ),
        "move.place[0]",
    ),
    ("MoveRequest", "move.discard[]"): (
        _move(lambda dealt, v: {"place": _placed(dealt, dealt[0]), "discard": [v]}, False),
        "move.discard[0]",
    ),
}
"""Per number field of a request: a request holding a value there, and the field a
refusal of the value names."""
_NO_DISCARD_TAKEN = {("MoveRequest", "move.discard[]")}  # a first street discards none
_AT_ITS_VERSION = {("MoveRequest", "version")}  # a new game is at 0: another is a 409


def test_every_number_field_states_the_range_the_server_takes(
    api: Api, doc: dict[str, Any]
) -> None:
    """/openapi.json stated no range of a number field (``players``, ``you``, ``seed``,
    ``samples``, ``time_budget``, ...), though the server refuses a value out of one
    (``{"players": 9}``: 422): every number field of every request body states its
    range (``minimum`` / ``maximum``, or ``enum``); a value at each bound passes the
    schema and the server, one just past it is refused by both, with a 4xx problem
    naming the field."""
    found = set()
    for ops in doc["paths"].values():
        for op in ops.values():
            ref = op.get("requestBody", {}).get("content", {})
            for media in ref.values():
                name = media["schema"]["$ref"].rsplit("/", 1)[1]
                schema = doc["components"]["schemas"][name]
                found |= {(name, at) for at, _ in _number_fields(doc, schema, "")}
    assert found == set(_NUMBER_FIELDS)
    for (name, at), (request, field) in _NUMBER_FIELDS.items():
        schema = doc["components"]["schemas"][name]
        number = dict(f for f in _number_fields(doc, schema, ""))[at]
        assert "enum" in number or {"minimum", "maximum"} <= set(number), (name, at)
        validator = jsonschema.Draft202012Validator(
            {**doc, "$ref": f"#/components/schemas/{name}"}
        )
        taken, past = _bounds(number)
        for value in past:
            path, body = request(api, value)
            assert list(validator.iter_errors(body)), (name, at, value)
            status, out = api("POST", path, body)
            assert 400 <= status < 500 and out["field"] == field, (name, at, value, out)
        if (name, at) in _NO_DISCARD_TAKEN:
            continue
        for value in taken:
            path, body = request(api, value)
            assert not list(validator.iter_errors(body)), (name, at, value)
            status, out = api("POST", path, body)
            conflict = (name, at) in _AT_ITS_VERSION and value != 0
            assert status == (409 if conflict else 200), (name, at, value, out)


def test_the_stated_samples_and_time_budget_ranges_are_the_server_s_own() -> None:
    """A server of ``--max-samples 64 --max-time-budget 0.5`` states those bounds in
    its /openapi.json, and refuses a value past them naming the field."""
    config = ServeConfig(max_samples=64, max_time_budget=0.5)
    doc = json.loads(create_app(config)._openapi)
    props = doc["components"]["schemas"]["AnalyzeRequest"]["properties"]
    assert (props["samples"]["minimum"], props["samples"]["maximum"]) == (1, 64)
    assert props["time_budget"]["maximum"] == 0.5
    for field, value in (("samples", 65), ("time_budget", 0.51)):
        with pytest.raises(ApiError) as exc:
            analyze({"dealt": "As Ks Qs Js Ts", field: value}, config)
        assert (exc.value.status, exc.value.field) == (422, field)


def test_an_optional_field_given_as_null_is_absent(api: Api, doc: dict[str, Any]) -> None:
    """``null`` counted as "absent" only for fields whose default is None (``seed``,
    ``samples``...): ``time_budget``, ``button``, ``players`` or ``rules`` given as
    null were a 400, and /openapi.json marked none of them nullable.  An optional
    field given as null is now absent, its default used (the answer is the one without
    it); a required one null is a 400 naming it; the document says both."""
    boards = [
        "Qh Qd 2c / 9s 9h 9d 5c 5d / As Ks Qs Js Ts",
        "2h 3d 4c / 6s 6h 7d 7c 8d / Ah Ad Kh Kd 8c",
    ]
    text = {"board": "Qh / 9s 9h / As Ks", "dealt": "2c 5d Ts", "samples": 4, "seed": 1}
    cases = [
        ("/v1/score", {"boards": boards}, ("button", "rules", "stacks")),
        ("/v1/evaluate", {"hands": ["As Ks Qs Js Ts"]}, ("rules", "boards")),
        ("/v1/analyze", text, ("time_budget", "rules", "exact", "opponents", "dead")),
        ("/v1/arrange", {"cards": "As Ad Kc Kd Qh Qs Jc Jd 9h 7s 5c 3d 2h"}, ("rules",)),
    ]
    volatile = ("seconds", "time_budget")
    for path, base, fields in cases:
        status, want = api("POST", path, base)
        assert status == 200, want
        for field in fields:
            status, got = api("POST", path, {**base, field: None})
            assert status == 200, (path, field, got)
            assert {k: v for k, v in got.items() if k not in volatile} == {
                k: v for k, v in want.items() if k not in volatile
            }, (path, field)
    status, game = api("POST", "/v1/games", {"players": None, "you": None, "seed": 5})
    assert status == 200 and (game["players"], game["you"]) == (2, 0), game
    for path, body, field in (
        ("/v1/score", {"boards": None}, "boards"),
        ("/v1/fantasyland", {"cards": None}, "cards"),
        ("/v1/replay", {"text": None}, "text"),
        ("/v1/analyze", {"dealt": None}, "dealt"),
    ):
        status, out = api("POST", path, body)
        assert (status, out["field"]) == (400, field), (path, out)
    schemas = doc["components"]["schemas"]
    for name, schema in schemas.items():
        if not name.endswith(("Request", "Create")):
            continue
        for field, prop in schema["properties"].items():
            check = jsonschema.Draft202012Validator(
                {**prop, "components": doc["components"]}
            )
            assert check.is_valid(None) != (field in schema["required"]), (name, field)


def test_the_document_lists_the_retry_after_and_accept_encoding_the_server_sends(
    server: Server, doc: dict[str, Any]
) -> None:
    """/openapi.json left out two headers the server sends: ``Retry-After`` on the
    409 for a keyed request still running, and ``Accept-Encoding`` on the 415 for a
    compressed body.  Each operation that can send one lists it, with a schema its
    value (as sent) validates against."""
    status, headers, _ = server.request(
        "POST",
        "/v1/evaluate",
        raw=gzip.compress(b"{}"),
        headers={"Content-Encoding": "gzip"},
    )
    assert status == 415
    sent = {"415": ("accept-encoding", headers["accept-encoding"])}
    store = server.app.sessions
    body = {"seed": 41}
    store._created.keep(Keyed("127.0.0.1", "held", _digest("/v1/games", body)))
    status, headers, _ = server.request(
        "POST", "/v1/games", body, headers={"Idempotency-Key": "held"}
    )
    assert status == 409
    sent["409"] = ("retry-after", headers["retry-after"])
    for path, ops in doc["paths"].items():
        for method, op in ops.items():
            for code, (name, value) in sent.items():
                if code not in op["responses"]:
                    continue
                listed = {
                    k.lower(): v
                    for k, v in op["responses"][code].get("headers", {}).items()
                }
                assert name in listed, (path, method, code, name)
                schema = listed[name]["schema"]
                typed = int(value) if schema.get("type") == "integer" else value
                jsonschema.Draft202012Validator(schema).validate(typed)


def test_rules_that_do_not_fit_an_observation_are_named_rules(api: Api) -> None:
    """A Pineapple observation analysed under ``"rules": "ofc"`` (or an OFC one whose
    own ``rules`` key says Pineapple) was a 422 naming ``observation``: the rules that
    deal other rounds than the observation's are the field at fault, ``rules`` (or the
    observation's ``rules``)."""
    for game, other in (("pineapple", "ofc"), ("ofc", "pineapple")):
        g = Game(game, 2, seed=3)
        obs = g.observation(g.to_act)
        with pytest.raises(OfcError):  # the library refuses the pair too
            advise(obs, rules=other, samples=2)
        for body, field in (
            ({"observation": obs, "rules": other}, "rules"),
            ({"observation": {**obs, "rules": other.upper()}}, "observation.rules"),
        ):
            status, out = api("POST", "/v1/analyze", {**body, "samples": 2})
            assert (status, out["field"]) == (422, field), (game, out)
            assert other.upper() in out["detail"], out
        assert api("POST", "/v1/analyze", {"observation": obs, "samples": 2})[0] == 200


def test_an_observation_s_rules_of_no_ofc_game_are_named_where_given(api: Api) -> None:
    """An observation whose own ``rules`` (or ``rule_set``) are a classic Chinese
    Poker preset was a 422 naming ``observation`` as a whole, "advise needs OFC or
    Pineapple rules", where the same rules in the body's ``rules`` are named ``rules``:
    now the field that gave them is named, with the same words."""
    g = Game("pineapple", 2, seed=3)
    obs = g.observation(g.to_act)
    for name in ("classic-1-6", "malayan"):
        rule_set = rules.get(name)
        assert rule_set.game.value not in ("ofc", "pineapple")  # (the premise)
        for body, field in (
            ({"observation": obs, "rules": name}, "rules"),
            ({"observation": {**obs, "rules": name}}, "observation.rules"),
            (
                {"observation": {**obs, "rule_set": rule_set.to_dict()}},
                "observation.rule_set",
            ),
        ):
            status, out = api("POST", "/v1/analyze", {**body, "samples": 2})
            assert (status, out["field"]) == (422, field), (name, out)
            assert out["detail"] == f"analyses are OFC or Pineapple; {rule_set.name} is not"


def test_a_text_form_refusal_speaks_of_the_fields_sent(api: Api) -> None:
    """A text-form position the library refused named the right field
    (``opponents[0]``) but kept the library's words for an input the caller did not
    send: "observation: board 1 row 0 holds Qh, a card shown twice".  The detail now
    speaks of the fields sent, as ``ofc-fast advise`` speaks of its options
    ("--opponent (seat 1): front row holds Qh, ...")."""
    part = {"board": "2c / 3c 4c / 5c 6c", "dealt": "2d 3d 4d"}
    for body, field, detail in (
        (
            {"board": "Qh / 9s 9h / As Ks", "dealt": "2c 5d Ts", "opponents": ["Qh / /"]},
            "opponents[0]",
            "opponents[0]: front row holds Qh, a card shown twice",
        ),
        (
            {"board": "/ /", "dealt": "2c 3c 4c 5c 6c", "opponents": ["2c / /"]},
            "dealt",
            "dealt: holds 2c, a card shown twice",
        ),
        (
            {"board": "/ /", "dealt": "2d 3d 4d 5d 6d", "dead": "2d"},
            "dead",
            "dead: holds 2d, a card shown twice",
        ),
        ({**part, "dealt": "2d 3d 4d 5d", "opponents": ["/ /"]}, "board", None),
    ):
        status, out = api("POST", "/v1/analyze", {**body, "samples": 4})
        assert (status, out["field"]) == (422, field), (body, out)
        assert "observation" not in out["detail"], out
        if detail is None:  # the position as a whole: its text fields
            assert out["detail"].startswith("board, dealt, opponents: "), out
        else:
            assert out["detail"] == detail, out


def test_a_null_nested_in_an_observation_or_a_move_is_absent(api: Api) -> None:
    """A top-level ``null`` was "absent" everywhere, but one nested in an observation or
    a move followed each field's own reading: ``observation.rules: null`` was a 400
    where leaving it out plays the default, ``observation.fantasyland: null`` a 422
    "must be a list, got None", ``move.surrender: null`` a 422 where leaving it out
    plays the move.  A field of an observation or a move given as null is now absent
    too: the answer is the one to the same object without it (docs/serve.md)."""

    def answer(status: int, out: Any) -> Any:
        if status != 200:
            return status, out["field"]
        return status, [(m["action"], m["ev"]) for m in out["moves"]]

    g = Game("pineapple", 2, seed=3)
    obs = json.loads(json.dumps(g.observation(g.to_act), default=int))
    fixed = {"samples": 8, "seed": 1}
    for key in obs:
        left_out = {k: v for k, v in obs.items() if k != key}
        want = answer(*api("POST", "/v1/analyze", {"observation": left_out, **fixed}))
        got = api("POST", "/v1/analyze", {"observation": {**obs, key: None}, **fixed})
        assert answer(*got) == want, (key, got)
    for key in ("place", "discard", "declare", "surrender"):
        answers = []
        for move in ({key: None}, {}):
            status, game = api("POST", "/v1/games", {"seed": 5})
            assert status == 200, game
            place = [[c, r] for c, r in zip(game["observation"]["dealt"], ROWS_DEALT)]
            body = {"move": {"place": place, **move}} if key != "place" else {"move": move}
            status, out = api("POST", f"/v1/games/{game['id']}/moves", body)
            answers.append((status, out.get("field"), out.get("observation")))
        assert answers[0] == answers[1], (key, answers)


ROWS_DEALT = ("back", "back", "middle", "middle", "front")
"""Rows for the five cards of a Pineapple game's first street."""


def test_a_whole_position_refusal_names_the_text_fields_sent(api: Api) -> None:
    """A text-form position refused as a whole (no part of it at fault) was named
    ``board``, its detail "board, dealt, opponents: ...", even where the caller sent no
    ``board`` (it defaults to an empty one): the field is the first of the position's
    text fields the caller sent, and the detail names those it sent."""
    schedule = "the boards and dealt cards fit no point of the deal"
    for body, sent in (
        ({"dealt": "2d 3d 4d 5d"}, ["dealt"]),
        ({"dealt": "2d 3d 4d 5d", "opponents": ["/ /"]}, ["dealt", "opponents"]),
        ({"board": "/ /", "dealt": "2d 3d 4d 5d"}, ["board", "dealt"]),
        (
            {"board": "/ /", "dealt": "2d 3d 4d 5d", "opponents": ["/ /"], "dead": "7c"},
            ["board", "dealt", "opponents"],
        ),
    ):
        status, out = api("POST", "/v1/analyze", {**body, "samples": 4})
        assert (status, out["field"]) == (422, sent[0]), (body, out)
        assert out["detail"].startswith(f"{', '.join(sent)}: {schedule}"), (body, out)


def test_a_boolean_in_an_integer_list_is_the_wrong_type(api: Api) -> None:
    """``observation.legal_actions: ["4"]`` was a 400 (the wrong type, named by its
    path) but ``[true]`` a 422 from the search ("must be an int within 0..242, got
    True"): a boolean passed the check of an integer item, as Python's bool is an int.
    It is the wrong type too (JSON's boolean is no number), as ``seat: true`` is."""
    g = Game("pineapple", 2, seed=3)
    obs = json.loads(json.dumps(g.observation(g.to_act), default=int))
    for key, value, field in (
        ("legal_actions", [obs["legal_actions"][0], True], "observation.legal_actions[1]"),
        ("fantasyland", [0, False], "observation.fantasyland[1]"),
        ("seat", True, "observation.seat"),
    ):
        body = {"observation": {**obs, key: value}, "samples": 4}
        status, out = api("POST", "/v1/analyze", body)
        assert (status, out["field"]) == (400, field), out
        assert "boolean" in out["detail"], out


def _curl_commands(page: str) -> list[list[tuple[str, str, dict[str, str], Any, int]]]:
    """Per ```bash block of ``page`` that runs ``curl``: (method, path, headers, body,
    status the page shows) of each command as written, the status that of the problem
    document (```json with a ``status``) right after the block, else 200."""
    import shlex

    text = checkout_file(page).read_text(encoding="utf-8")
    blocks = []
    for part in text.split("```bash\n")[1:]:
        block, _, after = part.partition("\n```\n")
        if "curl " not in block:
            continue
        shown = after.split("```")[1] if after.startswith("```json") else ""
        problem = re.search(r'"status": (\d+)', shown)
        status = int(problem.group(1)) if problem else 200
        words = shlex.split(block, comments=True)
        commands = []
        while "curl" in words:
            words = words[words.index("curl") + 1 :]
            end = words.index("curl") if "curl" in words else len(words)
            method, path, headers, body = "GET", "", {}, None
            args = iter(words[:end])
            for word in args:
                if word == "-X":
                    method = next(args)
                elif word == "-H":
                    name, _, value = next(args).partition(":")
                    headers[name.strip()] = value.strip()
                elif word == "-d":
                    method, body = "POST", json.loads(next(args))
                elif word.startswith("localhost:8000/"):
                    path = word[len("localhost:8000") :]
            commands.append((method, path, headers, body, status))
        blocks.append(commands)
    return blocks


def test_every_curl_example_of_the_docs_runs_as_written(api: Api) -> None:
    """docs/serve.md's game example moved ``As Kd 7c 7d 2s`` in the game of seed 7,
    which deals ``Js 6c Kh Qs 4c``: run as written it was a 422. Every ``curl``
    command of docs/serve.md and the README, run in order (``k3J...`` the game the
    block made, a deal played out before ``next``), answers what the page shows; one
    with an ``Idempotency-Key``, sent again, the same game."""
    count = 0
    for page in ("docs/serve.md", "README.md"):
        for commands in _curl_commands(page):
            game, state = None, {"is_over": True}
            for method, path, headers, body, shown in commands:
                path = path.replace("k3J...", str(game))
                if path.endswith("/next"):  # the deal played out first
                    while not state["is_over"]:
                        act = {"action": state["observation"]["legal_actions"][0]}
                        status, state = api("POST", path[: -len("next")] + "moves", act)
                        assert status == 200, state
                status, out = api(method, path, body, headers=headers)
                assert status == shown, (page, method, path, body, out)
                if path == "/v1/games":
                    game, state = (game or out["id"]), out
                    if headers:
                        again = api(method, path, body, headers=headers)
                        assert again == (status, out), again
                elif "/v1/games/" in path:
                    state = out
                count += 1
    assert count >= 12


def test_a_served_bot_that_cannot_play_at_the_table_is_refused_when_made() -> None:
    """A game's bots are checked for its seat count by the bot's own
    ``check_players`` (as ``make_bots``), not by a list of the server's: a
    registered bot that plays only heads-up, asked for a 3-seat game, was made and
    failed at its first decision; now a 422 naming the item, ``bots[1]``, and the
    bot's own words."""
    from ofc_fast.bots import RandomBot, register, unregister
    from ofc_fast.errors import BotError
    from ofc_fast.serve._sessions import GameSession as Session

    class HeadsUp(RandomBot):
        def check_players(self, players: int) -> None:
            if players != 2:
                raise BotError(f"heads-up bot: plays 2 seats, not {players}")

    register("headsup", lambda rules=None, seed=None: HeadsUp(seed))
    try:
        body = {"rules": "pineapple", "players": 3, "you": 0, "bots": ["random", "headsup"]}
        with pytest.raises(ApiError) as info:
            Session("s1", body)
        assert (info.value.status, info.value.field, info.value.error) == (
            422,
            "bots[1]",
            "BotError",
        )
        assert "heads-up bot: plays 2 seats, not 3" in str(info.value)
        assert (
            Session("s2", {**body, "players": 2, "bots": ["headsup"]}).seats[1] == "headsup"
        )
    finally:
        unregister("headsup")


def _needs_key(doc: dict[str, Any], op: dict[str, Any]) -> bool:
    """OpenAPI 3.1 (4.8.10.1 / 4.8.30): an operation's ``security`` overrides the
    document's; a requirement list is met without credentials when it is empty or
    holds an empty requirement ``{}``."""
    required = op.get("security", doc.get("security", []))
    return bool(required) and {} not in required


@pytest.mark.parametrize("key", [None, "k" * 16])
def test_the_document_states_the_security_the_server_has(key: str | None) -> None:
    """/openapi.json said ``security: [{}, {"bearer": []}]`` (a key optional) and
    listed a 401 on every operation but health whatever the server: a keyed server's
    document said no key was needed, a keyless one's listed 401s that never happen.
    Now each operation the server answers without a key says so, and lists a 401
    exactly where the server gives one to a request without a key."""
    with Server(ServeConfig(workers=1, api_key=key)) as s:
        status, _, doc = s.request("GET", "/openapi.json")
        assert status == 200
        if key is None:
            assert "securitySchemes" not in doc["components"], doc["components"]
        else:
            assert doc["components"]["securitySchemes"]["bearer"]["scheme"] == "bearer"
        for template, ops in doc["paths"].items():
            path = template.replace("{id}", "x" * 16)
            for method, op in ops.items():
                got, headers, out = s.request(method.upper(), path, {})
                gave_401 = got == 401
                assert _needs_key(doc, op) == gave_401, (key, template, got, out)
                assert ("401" in op["responses"]) == gave_401, (key, template)
                check_response(doc, method, path, got, headers, out)
        assert (key is not None) == _needs_key(doc, doc["paths"]["/v1/score"]["post"])
        assert not _needs_key(doc, doc["paths"]["/v1/health"]["get"])


def test_every_problem_type_resolves_to_its_page_behind_a_prefix_too() -> None:
    """A problem's ``type`` was ``/problems/<slug>``, a 404 on the server itself, and
    behind the reverse proxy docs/serve.md shows (``location /ofc/``) it resolved to
    the host's root, outside the proxied path.  RFC 9457 (3.1.1): the type resolved
    against the request's URL should give its documentation; now each type any
    response can carry resolves to a page (no key needed) naming its status and
    title, one URL per type from every depth, and the type is that page's full path
    (under ``/ofc/`` too: test_a_problem_s_type_is_one_string_from_every_depth)."""
    key = "k" * 16
    auth = {"Authorization": "Bearer " + key}
    big = b'{"text": "' + b"x" * 8192 + b'"}'
    with Server(ServeConfig(api_key=key, workers=1, queue=1, max_body=4096)) as s:
        game = s.request("POST", "/v1/games", {"seed": 6}, headers=auth)[2]["id"]
        gzipped = {**auth, "Content-Encoding": "gzip"}
        cases: list[tuple[str, str, bytes | None, dict[str, str]]] = [
            ("POST", "/v1/score", b"{", auth),  # 400
            ("POST", "/v1/score", b"{}", {}),  # 401
            ("GET", "/nope", None, {}),  # 404 at the root
            ("GET", "/a/b/c/d", None, {}),  # 404, deeper
            ("POST", f"/v1/games/{'x' * 16}/moves", b"{}", auth),  # 404
            ("GET", "/v1/score", None, auth),  # 405
            ("POST", f"/v1/games/{game}/next", b"{}", auth),  # 409
            ("POST", "/v1/replay", big, auth),  # 413
            ("POST", "/v1/score", b"{}", gzipped),  # 415
            ("POST", "/v1/score", b'{"nope": 1}', auth),  # 422
            ("POST", "/v1/analyze", b"{}", auth),  # 503 (every place taken)
        ]
        problems: list[tuple[str, dict[str, Any]]] = []
        for method, path, raw, hdrs in cases:
            s.app.limiter.pending = 2 if path == "/v1/analyze" else 0
            try:
                status, _, out = s.request(method, path, raw=raw, headers=hdrs)
            finally:
                s.app.limiter.pending = 0
            assert status == out["status"], (path, out)
            problems.append((path, out))
        # a 500 (a bug) is never an answer to a request: its document as the app makes it
        problems.append(("/v1/score", ApiError(500, None, "x").body("/v1/score")))
        seen = {out["status"] for _, out in problems}
        assert seen == {400, 401, 404, 405, 409, 413, 415, 422, 500, 503}, seen
        pages: dict[int, set[str]] = {}
        for path, out in problems:
            url = urllib.parse.urljoin(s.url + path, out["type"])
            page = urllib.parse.urlsplit(url).path
            pages.setdefault(out["status"], set()).add(page)
            assert out["type"] == page, (path, out["type"])  # (its full path)
            for method in ("HEAD", "GET"):
                status, headers, body = s.request(method, page)  # no key
                assert status == 200, (page, status)
                assert headers["content-type"] == "text/html; charset=utf-8", page
            assert isinstance(body, bytes), page  # (not JSON)
            text = body.decode()
            assert f"{out['status']} " in text, page
            assert html.escape(out["title"]) in text, (page, out["title"])
        assert all(len(urls) == 1 for urls in pages.values()), pages  # one per type
        assert len({u for urls in pages.values() for u in urls}) == len(pages)


def test_a_problem_s_type_is_one_string_from_every_depth() -> None:
    """A problem's ``type`` was relative to the request's URL, so it grew with the
    path's depth (``problems/not-found`` from ``/a``, ``../../../problems/not-found``
    from ``/a/b/c/d``, thousands of characters from a deep enough path): a client
    comparing types (RFC 9457, 3.1.1 recommends a full path of a relative one for
    this) found the same problem under a different type from each endpoint.  Now it
    is the full path of the type's page, one string from every depth; behind a
    reverse proxy serving the server under ``/ofc/`` it is ``/ofc/problems/...``
    where the server is told so (``--root-path /ofc``, or the ASGI server's own
    ``root_path``, which made every route a 404)."""
    deep = "/a" * 2000
    cases = [  # (method, path, body, the type's page)
        ("GET", "/nope", None, "/problems/not-found"),
        ("GET", "/a/b/c/d", None, "/problems/not-found"),
        ("GET", deep, None, "/problems/not-found"),
        ("GET", "//a//b//c", None, "/problems/not-found"),
        ("GET", "/v1/games/" + "x" * 16, None, "/problems/not-found"),
        ("POST", "/v1/games/" + "x" * 16 + "/moves", {}, "/problems/not-found"),
        ("GET", "/v1/score", None, "/problems/method-not-allowed"),
        ("GET", "/v1/games/" + "x" * 16 + "/next", None, "/problems/method-not-allowed"),
        ("POST", "/v1/score", {"nope": 1}, "/problems/invalid-input"),
    ]
    with Server(ServeConfig(workers=1)) as s, Server(ServeConfig(root_path="/ofc")) as o:
        for method, path, body, page in cases:
            status, _, out = s.request(method, path, body)
            assert out["type"] == page, (path[:40], out["type"][:80])
            url = urllib.parse.urljoin(s.url + path, out["type"])
            assert url == s.url + page, (path[:40], url[:80])
            assert s.request("GET", page)[0] == 200, page
            # behind the proxy under /ofc/ (which passes /ofc/x on as /x)
            status, _, out = o.request(method, path, body)
            assert out["type"] == "/ofc" + page, (path[:40], out["type"][:80])
            proxied = urllib.parse.urljoin("https://proxy.example/ofc" + path, out["type"])
            assert proxied == "https://proxy.example/ofc" + page, (path[:40], proxied)
    # an ASGI server given the root path itself (uvicorn --root-path /ofc) hands the
    # app /ofc/v1/health: answered, and a problem's type is under /ofc too
    served = Server(ServeConfig(workers=1))
    served.server.config.root_path = "/ofc"
    with served as u:
        status, _, out = u.request("GET", "/v1/health")
        assert status == 200 and out["status"] == "ok", out
        for method, path, body, page in cases:
            status, _, out = u.request(method, path, body)
            assert out["type"] == "/ofc" + page, (path[:40], out["type"][:80])
            if len(path) < 100:  # (its instance: the path below the root it reached)
                base = "https://proxy.example/ofc" + path
                want = "https://proxy.example/ofc" + re.sub("/+", "/", path)
                assert urllib.parse.urljoin(base, out["instance"]) == want, out
                url = _rfc_join(base, out["instance"])
                assert re.sub("(?<!:)/+", "/", url) == want, (out, url)
    with pytest.raises(OfcError, match=r"^root_path must be a path"):
        ServeConfig(root_path="ofc/").check()


def test_the_document_s_server_is_where_it_was_fetched_behind_a_prefix_too(
    server: Server, doc: dict[str, Any]
) -> None:
    """/openapi.json had no ``servers``: a client generated from it calls its paths
    (``/v1/...``) at the host's root, outside the path a reverse proxy serves the
    server under (docs/serve.md: ``location /ofc/``).  OpenAPI 3.1 (4.8.5): a
    relative server URL is resolved against the document's own URL, and each path is
    appended to it (here without a doubled slash)."""
    (entry,) = doc["servers"]

    def api_url(document: str, path: str) -> str:
        base = urllib.parse.urljoin(document, entry["url"])
        return base.rstrip("/") + path

    for document, want in (
        ("http://127.0.0.1:8000/openapi.json", "http://127.0.0.1:8000/v1/health"),
        ("https://proxy.example/ofc/openapi.json", "https://proxy.example/ofc/v1/health"),
    ):
        assert api_url(document, "/v1/health") == want, document
    url = urllib.parse.urlsplit(api_url(server.url + "/openapi.json", "/v1/health"))
    assert url.path == "/v1/health" and url.port == server.port
    assert server.request("GET", url.path)[0] == 200


def test_a_body_with_two_byte_order_marks_is_refused_in_our_words(api: Api) -> None:
    """A body starting with two byte order marks (a file with a mark saved again by
    a tool adding its own) was a 400 in Python's words, "the body is not JSON:
    Unexpected UTF-8 BOM (decode using utf-8-sig)", naming a function of Python no
    client calls: it now says what is wrong with the body."""
    text = json.dumps({"hands": ["As Ks Qs Js Ts"]}).encode("utf-8")
    for marks in (2, 3):
        status, out = api("POST", "/v1/evaluate", raw=b"\xef\xbb\xbf" * marks + text)
        assert status == 400, out
        detail = out["detail"]
        assert "utf-8-sig" not in detail.lower() and "Unexpected" not in detail, detail
        assert "byte order mark" in detail, detail


def test_a_run_of_slashes_in_the_path_is_one_as_behind_nginx() -> None:
    """A client generated from /openapi.json that joins the server URL
    ``http://host/`` and the path ``/v1/health`` strictly asks for ``//v1/health``:
    it was a 404 (nginx, by default, reads a run of slashes as one).  Now every route
    (the API, a game's, /openapi.json) reads so, and an HTML page (the web page, a
    problem's page) is a 308 to its path, where its relative links resolve; an
    encoded slash (``%2F``) is part of no run, and a keyed route asked for with a run
    still needs the key."""
    key = "k" * 16
    auth = {"Authorization": "Bearer " + key}
    board = "Qh Qd 2c / 9s 9h 9d 5c 5d / As Ks Qs Js Ts"
    score = {"boards": [board, "2h 3d 4c / 6s 6h 7d 7c 8d / Ah Ad Kh Kd 8c"]}
    with Server(ServeConfig(workers=1, api_key=key)) as s:
        game = s.request("POST", "/v1/games", {"seed": 6}, headers=auth)[2]["id"]

        def strict(base: str, path: str) -> str:  # the server URL and a path, joined
            return urllib.parse.urlsplit(s.url + base + path).path

        for method, path, body in (
            ("GET", "/v1/health", None),
            ("GET", "/openapi.json", None),
            ("GET", "/", None),
            ("GET", "/app.js", None),
            ("GET", "/problems/not-found", None),
            ("POST", "/v1/score", score),
            ("GET", f"/v1/games/{game}", None),
        ):
            want = s.request(method, path, body, headers=auth)
            assert want[0] == 200, (path, want)
            for sent in (strict("/", path), path.replace("/", "//"), "///" + path[1:]):
                got = s.request(method, sent, body, headers=auth)
                if want[1]["content-type"].startswith("text/html"):  # a page: sent
                    # to its path, where its relative links resolve (strictly too)
                    assert (got[0], got[1].get("location")) == (308, path), sent
                    got = s.request(method, path, body, headers=auth)
                assert got[0] == 200, (sent, got)
                assert got[1]["content-type"] == want[1]["content-type"], sent
                if path not in ("/v1/health", f"/v1/games/{game}"):  # (seconds, ttl)
                    assert got[2] == want[2], sent
        # a run needs the key where the path does; health and the pages, none
        for method, sent in (("POST", "//v1/games"), ("POST", "/v1//score")):
            status, _, out = s.request(method, sent, {})
            assert status == 401, (sent, out)
        assert s.request("GET", "//v1//health")[0] == 200
        # an encoded slash is no separator of a run: /v1/%2Fhealth is no /v1/health
        for sent in ("/v1/%2Fhealth", "/v1/%2F/health", f"/v1/games/%2F{game}"):
            status, _, out = s.request("GET", sent, headers=auth)
            assert status == 404, (sent, out)
            # its type resolves against the URL as sent (a %2F is no folder)
            url = urllib.parse.urljoin(s.url + sent, out["type"])
            assert url == s.url + "/problems/not-found", (sent, out["type"])


def test_an_encoded_slash_is_no_path_separator_on_any_server() -> None:
    """``GET /v1%2Fhealth`` answered 200 under uvicorn, which decodes ``%2F`` into a
    ``/`` of the path it hands the app: a path segment ``v1/health`` read as two (a
    ``/`` in an id made a route of another), and an app in-process given the path
    as sent answered 404.  Now an encoded slash is part of its segment wherever the
    server gives the path as sent: a 404 naming the path as sent, on uvicorn and
    in-process alike, the key still asked for where the path is keyed."""
    key = "k" * 16
    sent_paths = [
        ("GET", "/v1%2Fhealth"),
        ("GET", "/v1%2fhealth"),
        ("GET", "/problems%2Fnot-found"),
        ("GET", "/v1/games%2Fabcdefgh"),
        ("POST", "/v1%2Fscore"),
    ]
    with Server(ServeConfig(workers=1)) as s, Server(ServeConfig(api_key=key)) as k:
        for method, path in sent_paths:
            for server in (s, k):
                auth = {"Authorization": "Bearer " + key} if server is k else {}
                status, headers, out = server.request(method, path, {}, headers=auth)
                assert status == 404, (path, out)
                assert headers["content-type"] == "application/problem+json", path
                # named as sent: a %2F in any case reads as one
                assert urllib.parse.unquote(path) not in out["detail"], out
                assert path.lower() in out["detail"].lower(), out
            status, _, out = k.request(method, path, {})  # no key
            assert status in (401, 404), (path, out)
    # in-process, a server giving the path decoded (as uvicorn does) and as sent
    sent: list[dict[str, Any]] = []

    async def receive() -> dict[str, Any]:
        return {"type": "http.request", "body": b"{}"}

    async def send(message: dict[str, Any]) -> None:
        sent.append(message)

    for method, path in sent_paths:
        sent.clear()
        scope = {
            "type": "http",
            "method": method,
            "path": urllib.parse.unquote(path),
            "raw_path": path.encode(),
            "query_string": b"",
            "headers": [(b"host", b"127.0.0.1"), (b"content-type", b"application/json")],
        }
        asyncio.run(create_app(ServeConfig(workers=1))(scope, receive, send))
        assert sent[0]["status"] == 404, (path, sent)


def _rfc_join(base: str, ref: str) -> str:
    """``ref``, a relative-path reference, resolved against ``base`` as RFC 3986 (5.2)
    says: empty segments kept (Python's ``urljoin`` drops them), dot segments
    removed (5.2.4)."""
    parts = urllib.parse.urlsplit(base)
    path = parts.path[: parts.path.rfind("/") + 1] + ref
    return f"{parts.scheme}://{parts.netloc}" + serve_paths.remove_dots(path)


def test_a_problem_s_instance_resolves_to_the_request_behind_a_prefix_too() -> None:
    """A problem's ``instance`` was the request's absolute path (``/v1/score``), which
    behind a reverse proxy serving the server under ``/ofc/`` (docs/serve.md) resolved
    to the host's root: ``https://h/v1/score``, not the ``https://h/ofc/v1/score``
    asked for.  Now it is relative to the request's URL, as ``type`` is (RFC 9457,
    3.1.5: a URI reference), and resolves, directly or under ``/ofc/``, to the path
    asked for (a run of slashes as one), from every depth."""
    with Server(ServeConfig(workers=1)) as s:
        status, _, doc = s.request("GET", "/openapi.json")
        game = s.request("POST", "/v1/games", {"seed": 6})[2]["id"]
        bad_move = {"move": {"place": [["Xx", "front"]]}}
        cases: list[tuple[str, str, Any, str]] = [
            ("POST", "/v1/score", {"nope": 1}, "/v1/score"),  # 422
            ("GET", "/v1/score", None, "/v1/score"),  # 405
            ("POST", "/v1/evaluate", {"hands": ["Xx"]}, "/v1/evaluate"),  # 422
            ("POST", f"/v1/games/{game}/moves", bad_move, f"/v1/games/{game}/moves"),
            ("GET", f"/v1/games/{'x' * 16}", None, f"/v1/games/{'x' * 16}"),  # 404
            ("GET", "/nope", None, "/nope"),  # 404 at the root
            ("GET", "/a:b", None, "/a:b"),  # (a first segment with a colon)
            ("POST", "/", None, "/"),  # 405 at the root
            ("POST", "//v1/score", {"nope": 1}, "/v1/score"),  # a run: as one
            # encoded as sent: the decoded ? # / and space made a query, a fragment,
            # another folder, or no URI reference at all
            ("POST", "/v1/games/a%3Fb/moves", bad_move, "/v1/games/a%3Fb/moves"),
            ("GET", "/v1/games/%23x", None, "/v1/games/%23x"),
            ("POST", "/v1/games/a%2Fb/moves", bad_move, "/v1/games/a%2Fb/moves"),
            ("GET", "/v1/games/a%20b", None, "/v1/games/a%20b"),
        ]
        for method, path, body, asked in cases:
            status, headers, out = s.request(method, path, body)
            assert 400 <= status < 500 and out["status"] == status, (path, out)
            if path.startswith("/v1/") and status != 405:  # (an operation's answer)
                check_response(doc, method, path, status, headers, out)
            for base in (s.url, "https://proxy.example/ofc"):
                url = urllib.parse.urljoin(base + path, out["instance"])
                assert url == base + asked, (path, out["instance"])
                # by RFC 3986 too: the path asked for, a run of slashes as one
                url = _rfc_join(base + path, out["instance"])
                assert re.sub("/+", "/", url[len(base) :]) == asked, (path, url)
        # a 500 (never an answer to a request): its document as the app makes it
        out = ApiError(500, None, "x").body(f"/v1/games/{game}/next")
        url = urllib.parse.urljoin(f"https://h/ofc/v1/games/{game}/next", out["instance"])
        assert url == f"https://h/ofc/v1/games/{game}/next"


def test_a_long_path_s_problem_gives_no_instance_cut_short() -> None:
    """A problem's ``instance`` was cut to 200 characters, so that for a longer path
    it resolved to another path (``/a/a/.../a`` cut short: the host's ``/a``, or a
    folder above the server behind a reverse proxy).  Where it does not fit, it is
    now left out (RFC 9457: optional); a shorter one resolves to the path asked."""
    with Server(ServeConfig(workers=1)) as s:
        for path in ("/a" * 150, "/v1/games/" + "x" * 250, "/v1/" + "y/" * 60 + "z"):
            status, _, out = s.request("GET", path)
            assert status == 404, (path[:50], out)
            for base in (s.url, "https://proxy.example/ofc"):
                if "instance" in out:
                    url = urllib.parse.urljoin(base + path, out["instance"])
                    assert url == base + path, (path[:50], out["instance"])
            assert len(json.dumps(out)) < 1000 + len("../") * path.count("/"), path[:50]
        status, _, out = s.request("GET", "/a" * 40)
        assert urllib.parse.urljoin(s.url + "/a" * 40, out["instance"]) == s.url + "/a" * 40


def test_a_problem_type_s_page_names_the_type_its_problems_carry() -> None:
    """Each problem type's page said its type was ``problems/<slug>``, where its
    problems carry ``/problems/<slug>`` (``/ofc/problems/<slug>`` under
    ``--root-path /ofc`` or an ASGI server's own root path): a client reading the
    page to match a type found none.  It now names the type as the problems carry
    it, and its links still resolve to the server's files, behind ``/ofc/`` too."""
    mounted = Server(ServeConfig(workers=1))
    mounted.server.config.root_path = "/ofc"  # (uvicorn --root-path /ofc)
    with (
        Server(ServeConfig(workers=1)) as s,
        Server(ServeConfig(workers=1, root_path="/ofc")) as o,
        mounted as m,
    ):
        for server, root in ((s, ""), (o, "/ofc"), (m, "/ofc")):
            for method, path in (("GET", "/nope"), ("GET", "/v1/score")):
                status, _, out = server.request(method, path)
                assert out["type"].startswith(root + "/problems/"), out
                page_path = out["type"][len(root) :]  # (the proxy strips its prefix)
                got, headers, body = server.request("GET", page_path)
                assert got == 200, (out["type"], got)
                text = body.decode()
                named = re.findall(r"type <code>([^<]*)</code>", text)
                assert named == [html.escape(out["type"])], (out["type"], named)
                for base in (server.url, "https://proxy.example/ofc"):
                    links = {
                        urllib.parse.urljoin(base + page_path, html.unescape(h))
                        for h in re.findall(r'href="([^"]*)"', text)
                    }
                    files = {base + "/app.css", base + "/openapi.json"}
                    assert links == files | {"data:,"}, links  # (its icon: none asked)


def _without_dots(path: str) -> str:
    """RFC 3986's remove_dot_segments (5.2.4) of an absolute path, by its steps."""
    out = ""
    while path:
        if path.startswith(("/./", "/../")) or path in ("/.", "/.."):
            climb = path.startswith("/..")
            path = "/" + path[(4 if climb else 3) :]
            if climb:
                out = out[: out.rfind("/")] if "/" in out else ""
        else:
            end = path.find("/", 1)
            segment = path if end < 0 else path[:end]
            out += segment
            path = path[len(segment) :]
    return out or "/"


def test_dot_segments_are_removed_before_routing_and_instance_resolves_to_them() -> None:
    """``GET /./v1/health`` or ``/v1/../v1/health`` (``curl --path-as-is``, a client
    joining paths by hand) was a 404, whose ``instance`` resolved by RFC 3986 to
    another path than the one asked for.  Now a path's dot segments are removed, as
    RFC 3986 (5.2.4) and nginx read them (the key still asked for where the path
    reached is keyed), and the request is a 308 to that path (its method and body
    kept), where a refusal's ``instance`` resolves to it, directly and behind a
    proxy under ``/ofc/``."""
    assert _without_dots("/a/b/../c/./d/..") == "/a/c/"  # (the reference itself)
    key = "k" * 16
    auth = {"Authorization": "Bearer " + key}

    def moved(method: str, path: str, body: Any = None) -> tuple[int, Any, Any]:
        status, headers, _ = s.request(method, path, body, headers=auth)
        assert (status, headers["location"]) == (308, _without_dots(path)), path
        return s.request(method, headers["location"], body, headers=auth)

    with Server(ServeConfig(workers=1, api_key=key)) as s:
        want = s.request("GET", "/v1/health")
        for path in (
            "/./v1/health",
            "/v1/../v1/health",
            "/v1/./health",
            "/v1/x/../health",
            "/../v1/health",
            "/v1/score/../health",
        ):
            status, headers, out = moved("GET", path)
            assert status == 200 and out["status"] == want[2]["status"], (path, out)
        for method, path in (("POST", "/v1/health/../score"), ("POST", "/./v1/games")):
            status, _, out = s.request(method, path, {})
            assert status == 401, (path, out)  # the key, as the path reached needs
        assert moved("GET", "/problems/../openapi.json")[0] == 200
        for method, path in (
            ("GET", "/v1/health/."),
            ("GET", "/v1/health/.."),
            ("GET", "/v1/x/../nope"),
            ("GET", "/a/./b/../c"),
            ("POST", "/v1/x/../score"),
            ("GET", "/v1/games/../games/" + "x" * 16),
        ):
            status, _, out = moved(method, path, {"nope": 1})
            assert 400 <= status < 500, (path, out)
            asked = _without_dots(path)
            for base in (s.url, "https://proxy.example/ofc"):
                url = urllib.parse.urljoin(base + asked, out["instance"])
                assert url == base + asked, (path, out["instance"], url)
                assert _rfc_join(base + asked, out["instance"]) == base + asked, path
    # one above the server's root stays at the root (RFC 3986, as resolvers do)
    with Server(ServeConfig(workers=1)) as s:
        status, headers, _ = s.request("GET", "/../nope")
        assert (status, headers["location"]) == (308, "/nope")


_UNRESERVED = frozenset(
    "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-._~"
)


def _normalised(path: str) -> str:
    """RFC 3986's normal form of a path as this server routes it: each percent-encoded
    unreserved character decoded (6.2.2.2), its dot segments removed (5.2.4,
    :func:`_without_dots`: a ``..`` after ``//`` climbs the empty segment), then each
    run of slashes one, other escapes as sent."""
    out, i = "", 0
    while i < len(path):
        char = chr(int(path[i + 1 : i + 3], 16)) if path[i] == "%" else path[i]
        if path[i] == "%" and char in _UNRESERVED:
            out, i = out + char, i + 3
        else:
            out, i = out + path[i], i + 1
    return re.sub("/+", "/", _without_dots(out))


def test_percent_encoded_dots_and_unreserved_characters_are_normalised_first() -> None:
    """``GET /v1/%2E%2E/v1/health`` was a 404 under uvicorn (which gives the path as
    sent) naming ``/v1/../v1/health``, its ``instance`` ``../../../v1/%2E%2E/v1/
    health``, which a browser (reading ``%2E%2E`` as ``..``) resolves elsewhere, while
    a server giving no ``raw_path`` routed it to ``/v1/health``.  Now a percent-encoded
    unreserved character is the character (RFC 3986, 6.2.2.2), decoded before the
    dot segments are removed, the same with or without ``raw_path``; ``%2F`` stays;
    the request is a 308 to that normal form."""
    assert _normalised("/v1/%2e%2E/%7Ex/%2F/.") == "/~x/%2F/"  # (the reference)
    assert _normalised("/v1//../a//b") == "/v1/a/b"
    key = "k" * 16
    auth = {"Authorization": "Bearer " + key}
    paths = (
        ("GET", "/v1/%2E%2E/v1/health"),
        ("GET", "/v1/%2e/health"),
        ("GET", "/%2E/v1/%68ealth"),
        ("GET", "/v1/x/.%2E/health"),
        ("POST", "/v1/health/%2E%2E/score"),  # (a keyed endpoint reached)
        ("GET", "/v1/x/%2E%2E/nope"),
        ("GET", "/v1/%7Ea/%2e%2e/%41"),
        ("GET", "/v1/%2E%2E%2Fhealth"),  # (..%2F: no dot segment)
        ("GET", "/v1/a%2F%2E%2E/health"),
        ("POST", "/%2E%2E/v1/games/%2E%2E/score"),
        ("GET", "/v1//../health"),  # (.. climbs the empty segment, as RFC 3986)
        ("GET", "/v1//x/%2E%2E/nope"),
        ("GET", "//%2E%2E//v1//nope"),
    )
    with Server(ServeConfig(workers=1, api_key=key)) as s:
        for method, path in paths:
            asked = _normalised(path)
            want = s.request(method, asked, {}, headers=auth)
            status, headers, _ = s.request(method, path, {}, headers=auth)
            # sent to its normal form (a 308, its method and body kept), the one URL
            # a strict resolver (%2E no dot) and a browser (%2E%2E as ..) read alike
            assert (status, headers.get("location")) == (308, asked), (path, asked)
            if asked in ("/v1/score", "/v1/games"):
                assert s.request(method, path, {})[0] == 401, path  # the key, still
            status, _, out = s.request(method, headers["location"], {}, headers=auth)
            assert status == want[0], (path, asked, out)
            if status < 400:
                continue
            named = out["detail"].rpartition(" ")[2].split("/")
            assert "%2E" not in out["detail"] and not {".", ".."} & set(named), out
            assert out["detail"] == want[2]["detail"], (path, out)
            for base in (s.url, "https://proxy.example/ofc"):
                url = urllib.parse.urljoin(base + asked, out["instance"])
                assert _normalised(url[len(base) :]) == asked, (path, url)
                url = _rfc_join(base + asked, out["instance"])
                assert _normalised(url[len(base) :]) == asked, (path, out["instance"])
    # in-process: a server giving raw_path (as uvicorn) and one giving none alike
    sent: list[dict[str, Any]] = []

    async def receive() -> dict[str, Any]:
        return {"type": "http.request", "body": b"{}"}

    async def send(message: dict[str, Any]) -> None:
        sent.append(message)

    app = create_app(ServeConfig(workers=1))
    for method, path in paths:
        answers = []
        for raw in (path.encode(), None):
            sent.clear()
            scope = {
                "type": "http",
                "method": method,
                "path": urllib.parse.unquote(path),
                "raw_path": raw,
                "query_string": b"",
                "headers": [(b"host", b"127.0.0.1")],
            }
            asyncio.run(app(scope, receive, send))
            moved = dict(sent[0]["headers"]).get(b"location")
            answers.append((sent[0]["status"], moved, sent[1]["body"]))
        if "%2F" not in path:  # (decoded without raw_path: a separator)
            assert answers[0] == answers[1], (path, answers)


def _served_in_process(app: Any, requests: list[tuple[str, str, Any]]) -> list[int]:
    """The statuses of ``requests`` (method, path, JSON body or None) sent to ``app``
    in-process, one after the other in one event loop."""
    statuses: list[int] = []

    async def serve() -> None:
        for method, path, body in requests:
            raw = b"" if body is None else json.dumps(body).encode()
            sent: list[dict[str, Any]] = []

            bodies = [{"type": "http.request", "body": raw, "more_body": False}]

            async def receive(bodies: list[Any] = bodies) -> dict[str, Any]:
                if not bodies:  # (the client stays: no disconnect)
                    await asyncio.Event().wait()
                return dict(bodies.pop())

            async def send(message: dict[str, Any], sent: list[Any] = sent) -> None:
                sent.append(message)

            scope = {
                "type": "http",
                "method": method,
                "path": path,
                "raw_path": path.encode(),
                "query_string": b"",
                "client": ("127.0.0.1", 1),
                "headers": [
                    (b"host", b"127.0.0.1"),
                    (b"content-type", b"application/json"),
                ],
            }
            await app(scope, receive, send)
            statuses.append(sent[0]["status"])

    asyncio.run(serve())
    return statuses


def test_an_app_dropped_without_a_shutdown_frees_its_games_and_threads_at_once() -> None:
    """Regression: an app dropped without the ASGI lifespan's shutdown (a test's, or
    a server's that sends none) kept its games and its worker threads until a full
    garbage collection, as its routes held the app (a reference cycle): 20 such apps
    left their 40 ``ofc-serve`` threads running.  Each is freed as it is dropped."""
    boards = [
        "Qh Qd 2c / 9s 9h 9d 5c 5d / As Ks Qs Js Ts",
        "2h 3h 4h / 5s 6s 7s 8s Td / Ac Ad Ah 7c 7d",
    ]
    requests = [
        ("GET", "/v1/health", None),
        ("POST", "/v1/games", {"bots": ["random"], "seed": 1}),
        ("POST", "/v1/score", {"boards": boards}),
    ]
    before = set(threading.enumerate())
    gc.collect()
    gc.disable()  # (what a full collection would free is not what this checks)
    try:
        apps = []
        for _ in range(20):
            app = create_app(ServeConfig(workers=2))
            assert _served_in_process(app, requests) == [200, 200, 200]
            apps.append(weakref.ref(app))
            del app
        kept = sum(ref() is not None for ref in apps)
        started = [
            t for t in set(threading.enumerate()) - before if t.name.startswith("ofc-serve")
        ]
        deadline = time.monotonic() + 5  # (a worker ends once its pool is freed)
        for t in started:
            t.join(max(deadline - time.monotonic(), 0.0))
        running = [t.name for t in started if t.is_alive()]
    finally:
        gc.enable()
    assert kept == 0, f"{kept} of 20 apps dropped are kept until a full collection"
    assert started and not running, running


async def _ask(app: Any, method: str, path: str, body: Any = None) -> tuple[int, Any]:
    """(status, JSON body) of one request sent to ``app`` in the running event loop."""
    messages = [
        {"type": "http.request", "body": json.dumps(body).encode() if body else b""}
    ]
    sent: list[dict[str, Any]] = []

    async def receive() -> dict[str, Any]:
        if messages:
            return messages.pop()
        await asyncio.Event().wait()  # (the client stays)
        raise AssertionError  # pragma: no cover

    async def send(message: dict[str, Any]) -> None:
        sent.append(message)

    headers = [(b"host", b"127.0.0.1"), (b"content-type", b"application/json")]
    scope = {"type": "http", "method": method, "path": path, "query_string": b""}
    await app({**scope, "headers": headers}, receive, send)
    return int(sent[0]["status"]), json.loads(sent[1]["body"])


def _lifespan(app: Any, *requests: tuple[str, str, Any]) -> list[tuple[int, Any]]:
    """The answers of ``requests`` (method, path, body), sent at once, within one ASGI
    lifespan of ``app`` (startup, then shutdown), in an event loop of its own."""

    async def serve() -> list[tuple[int, Any]]:
        inbox: asyncio.Queue[dict[str, Any]] = asyncio.Queue()
        outbox: asyncio.Queue[dict[str, Any]] = asyncio.Queue()
        running = asyncio.ensure_future(app({"type": "lifespan"}, inbox.get, outbox.put))
        await inbox.put({"type": "lifespan.startup"})
        assert (await outbox.get())["type"] == "lifespan.startup.complete"
        answers = await asyncio.gather(*(_ask(app, *r) for r in requests))
        await inbox.put({"type": "lifespan.shutdown"})
        await running
        return list(answers)

    return asyncio.run(serve())


def test_an_app_served_again_after_a_lifespan_shutdown_still_computes() -> None:
    """Regression: an app whose ASGI lifespan had shut down (its server stopped, or a
    test client's block ended) answered every computation of its next lifespan (a
    second test's client, a server started again) with 500 "internal error": its
    worker threads were gone for good.  Each lifespan's startup serves anew, in its
    own event loop, requests waiting for a worker too."""
    app = create_app(ServeConfig(workers=1))
    cards = "As Ad Kc Kd Qh Qs Jc Jd 9h 7s 5c 3d 2h"
    arrange = ("POST", "/v1/arrange", {"cards": cards, "rules": "classic-1-6"})
    for _ in range(2):  # 2 of the 3 wait for the worker
        assert [status for status, _ in _lifespan(app, *[arrange] * 3)] == [200] * 3


def test_a_game_kept_across_lifespans_serves_requests_at_once() -> None:
    """Regression: a game kept from an app's earlier lifespan (a server started again
    on the same app, a test's next client) answered requests sent to it at once with
    500 "internal error" (its lock, made in the earlier event loop, is bound to it:
    "bound to a different event loop"); they are served one at a time again."""
    app = create_app(ServeConfig(workers=1))
    ((status, game),) = _lifespan(app, ("POST", "/v1/games", {"bots": ["random"]}))
    assert status == 200, game
    read = ("GET", f"/v1/games/{game['id']}", None)
    for _ in range(2):  # the game's requests wait for each other in each loop
        answers = _lifespan(app, *[read] * 3)
        assert [status for status, _ in answers] == [200] * 3, answers


def test_a_request_after_the_lifespan_shutdown_is_refused_503() -> None:
    """Regression: a computation that reached an app after its ASGI lifespan had shut
    down (and no new startup: a request still arriving as the server stops) answered
    500 "internal error" (its worker threads were gone); it is refused 503, a problem
    document with Retry-After, as the other refusals of a busy server."""
    app = create_app(ServeConfig(workers=1))
    _lifespan(app)  # startup, then shutdown
    cards = "As Ad Kc Kd Qh Qs Jc Jd 9h 7s 5c 3d 2h"
    arrange = {"cards": cards, "rules": "classic-1-6"}
    status, problem = asyncio.run(_ask(app, "POST", "/v1/arrange", arrange))
    assert status == 503, problem
    assert problem["status"] == 503 and "shutting down" in problem["detail"], problem
