"""The protocol's pieces against references written here: framing and the 64 KiB
limit, the filler placement, action checking, game ids, redaction, the report's
Student-t interval, the document's example transcript's messages."""

from __future__ import annotations

import json
import math
from random import Random
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from ofc_fast.arena import GAME_IDS, game_id_of, resolve_arena_rules, rules_for_game_id
from ofc_fast.arena._events import redact
from ofc_fast.arena._host import parse_bot_spec
from ofc_fast.arena._protocol import (
    MAX_LINE,
    ActionFault,
    FaultKind,
    LineSplitter,
    decode,
    encode,
    filler_move,
    parse_action,
)
from ofc_fast.arena._stats import latency_summary, t_half_width
from ofc_fast.arena.client import BotClient
from ofc_fast.bots import make_bot
from ofc_fast.errors import ArenaError, ProtocolError
from ofc_fast.rules import PINEAPPLE, PRESETS, RuleSet

RANKS, SUITS = "23456789TJQKA", "cdhs"


def text(card: int) -> str:
    return RANKS[card // 4] + SUITS[card % 4]


def ref_filler(dealt: list[int], place: int, sizes: list[int]) -> tuple[list, list]:
    """The document's filler, written out: ascending, bottom, else middle, else top."""
    order = sorted(dealt)
    free = {"bottom": 5 - sizes[2], "middle": 5 - sizes[1], "top": 3 - sizes[0]}
    out = []
    for c in order[:place]:
        for row in ("bottom", "middle", "top"):
            if free[row]:
                free[row] -= 1
                out.append((text(c), row))
                break
    return out, [text(c) for c in order[place:]]


@settings(max_examples=200, deadline=None)
@given(st.integers(0, 2**32), st.integers(0, 2))
def test_filler_matches_the_document(seed: int, discard: int) -> None:
    rng = Random(seed)
    cards = rng.sample(range(52), 13)
    sizes = [rng.randint(0, 3), rng.randint(0, 5), rng.randint(0, 5)]
    room = 13 - sum(sizes)
    place = rng.randint(1, min(room, 5) if room else 1) if room else 0
    dealt = cards[: place + discard]
    rows = [cards[5 : 5 + sizes[0]], cards[5 : 5 + sizes[1]], cards[5 : 5 + sizes[2]]]
    m = filler_move(dealt, place, rows)
    names = {0: "top", 1: "middle", 2: "bottom"}
    want_p, want_d = ref_filler(dealt, place, sizes)
    assert sorted((text(c), names[int(r)]) for c, r in m.placements) == sorted(want_p)
    assert sorted(text(c) for c in m.discards) == sorted(want_d)


def test_the_document_transcript_filler_decisions() -> None:
    """The wire bot of the document's example transcript plays the filler: our
    filler makes the same placements from the same cards."""
    m = filler_move(["2c", "6s", "6h", "2h", "6c"], 5, [[], [], []])
    assert [text(c) for c, r in m.placements] == ["2c", "2h", "6c", "6h", "6s"]
    assert {int(r) for _, r in m.placements} == {2}
    m = filler_move(["3s", "8c", "5s"], 2, [[], [1, 2, 3, 4], [0, 5, 6, 7, 8]])
    assert [(text(c), int(r)) for c, r in m.placements] == [("3s", 1), ("5s", 0)]
    assert [text(c) for c in m.discards] == ["8c"]


def test_framing() -> None:
    assert encode({"t": "join"}) == b'{"t":"join"}\n'
    with pytest.raises(ProtocolError):
        encode({"t": "x", "pad": "y" * MAX_LINE})
    for bad in (b"nope", b"[1]", b'{"x":1}', b'{"t":3}', b"x" * (MAX_LINE + 1)):
        with pytest.raises(ProtocolError):
            decode(bad)
    assert decode(b'{"t":"later","new":[1,2]}\r\n') == {"t": "later", "new": [1, 2]}


@settings(max_examples=100, deadline=None)
@given(st.lists(st.binary(max_size=200), max_size=10), st.integers(1, 50))
def test_line_splitter_cuts_anywhere(lines: list[bytes], chunk: int) -> None:
    clean = [ln.replace(b"\n", b"") for ln in lines]
    stream = b"".join(ln + b"\n" for ln in clean)
    s = LineSplitter()
    got = []
    for i in range(0, len(stream), chunk):
        got += s.feed(stream[i : i + chunk])
    assert got == [ln.rstrip(b"\r") for ln in clean]


def test_overlong_line_is_skipped_to_its_newline() -> None:
    s = LineSplitter()
    big = b"y" * (MAX_LINE + 10)
    assert s.feed(big[:40000]) == []
    assert s.feed(big[40000:] + b'\n{"t":"a"}\n') == [None, b'{"t":"a"}']
    assert s.feed(b"x" * MAX_LINE + b"\n") == [b"x" * MAX_LINE]  # at the limit is fine


def test_parse_action_checks_the_shape_and_the_cards() -> None:
    dealt = [0, 51, 20]
    ok = {
        "t": "action",
        "action": {
            "placements": [{"card": "2c", "row": "top"}, {"card": "As", "row": "bottom"}],
            "discards": ["7c"],
        },
    }
    m = parse_action(ok, dealt, 2, 1)
    assert m.discards == (20,) and len(m.placements) == 2
    cases = [
        ({"t": "action"}, FaultKind.MALFORMED),
        ({"t": "action", "action": {"placements": "x"}}, FaultKind.MALFORMED),
        (
            {
                "t": "action",
                "action": {"placements": [{"card": "2c", "row": "left"}], "discards": []},
            },
            FaultKind.MALFORMED,
        ),
        (
            {
                "t": "action",
                "action": {"placements": [{"card": "ZZ", "row": "top"}], "discards": []},
            },
            FaultKind.MALFORMED,
        ),
        *(  # a row that is no text: malformed, not a TypeError (unhashable)
            (
                {
                    "t": "action",
                    "action": {"placements": [{"card": "2c", "row": row}], "discards": []},
                },
                FaultKind.MALFORMED,
            )
            for row in ([], {}, ["top"], None, 0)
        ),
        (
            {
                "t": "action",
                "action": {
                    "placements": [{"card": "2c", "row": "top"}],
                    "discards": ["7c", "As"],
                },
            },
            FaultKind.ILLEGAL,
        ),
        (
            {
                "t": "action",
                "action": {
                    "placements": [
                        {"card": "2c", "row": "top"},
                        {"card": "2c", "row": "top"},
                    ],
                    "discards": ["7c"],
                },
            },
            FaultKind.ILLEGAL,
        ),
        (
            {
                "t": "action",
                "action": {
                    "placements": [
                        {"card": "Kd", "row": "top"},
                        {"card": "As", "row": "top"},
                    ],
                    "discards": ["7c"],
                },
            },
            FaultKind.ILLEGAL,
        ),
    ]
    for msg, kind in cases:
        with pytest.raises(ActionFault) as exc:
            parse_action(msg, dealt, 2, 1)
        assert exc.value.kind == kind


def test_game_ids() -> None:
    assert {
        g: rules_for_game_id(g).name
        for g in ("ofc", "ofc-pineapple", "ofc-progressive", "ofc-27")
    } == {
        "ofc": "OFC",
        "ofc-pineapple": "PINEAPPLE",
        "ofc-progressive": "PROGRESSIVE_PINEAPPLE",
        "ofc-27": "PINEAPPLE_27",
    }
    assert sorted(GAME_IDS.values()) == sorted(PRESETS)
    for gid in GAME_IDS:
        assert game_id_of(rules_for_game_id(gid)) == gid
    with pytest.raises(ArenaError):
        rules_for_game_id("holdem-nl")
    with pytest.raises(ArenaError, match="'MINE' are not a preset"):
        game_id_of(PINEAPPLE.replace(name="MINE", sweep_bonus=0))
    assert resolve_arena_rules("Progressive-Pineapple").name == "PROGRESSIVE_PINEAPPLE"


def test_a_renamed_preset_is_the_preset() -> None:
    """A rules file of a preset under another name or description (labels only:
    ``rules.LABEL_FIELDS``, "a renamed preset plays the preset's game") was refused by
    ``ofc-fast arena --rules`` and ``ofc-fast bot --rules``: "rules 'thursday' are not
    a preset"."""
    for preset in PRESETS.values():
        for mine in (
            preset.replace(name="thursday"),
            preset.replace(name="thursday", description="our home game"),
            RuleSet.from_json(preset.replace(name="x", description="").to_json()),
        ):
            assert mine != preset
            assert game_id_of(mine) == game_id_of(preset)
            assert resolve_arena_rules(mine) is preset


def test_rules_named_as_a_preset_but_edited_say_what_differs() -> None:
    """A rules file of ``ofc-fast rules pineapple`` edited (sweep_bonus 4), its name
    kept, was refused as "rules 'PINEAPPLE' are not a preset": a preset's name said to
    be no preset, with no word of why."""
    edited = RuleSet.from_json(
        PINEAPPLE.to_json().replace('"sweep_bonus": 3', '"sweep_bonus": 4')
    )
    assert edited.name == "PINEAPPLE" and edited != PINEAPPLE
    for call in (game_id_of, resolve_arena_rules):
        with pytest.raises(ArenaError) as info:
            call(edited)
        assert "differ from the preset PINEAPPLE in sweep_bonus):" in str(info.value)
    # two fields changed: both named; a rule set of no preset's name: as before
    both = edited.replace(name="PINEAPPLE", description="", overall_bonus=1)
    with pytest.raises(ArenaError, match=r"PINEAPPLE in sweep_bonus, overall_bonus\):"):
        game_id_of(both)
    with pytest.raises(ArenaError, match=r"^rules 'MINE' are not a preset: the wire"):
        game_id_of(edited.replace(name="MINE", description=""))


def test_the_arena_refuses_what_is_no_rules_as_every_taker_of_rules() -> None:
    """``Arena(5, ...)``, ``Arena(None, ...)`` or a dict of rules read ``str(rules)``
    as a preset name ("unknown rule set '5'", "'None'"), where every other function
    that takes rules says what it takes; ``play_bot(rules="")`` played without
    rules, where ``ofc-fast bot --rules ''`` refuses the empty name."""
    from ofc_fast.arena import Arena
    from ofc_fast.arena.client import play_bot

    spec = parse_bot_spec("random")
    for bad in (5, None, {"sweep_bonus": 3}, b"ofc", ["pineapple"]):
        for call in (resolve_arena_rules, lambda r: Arena(r, [spec, spec], 1)):
            with pytest.raises(ArenaError) as info:
                call(bad)
            assert "rules must be a RuleSet, a preset name or a game id" in str(info.value)
            assert "unknown rule set" not in str(info.value)
    with pytest.raises(ArenaError, match="unknown rule set ''"):
        play_bot("random", rules="", connect=1)  # (no arena there: never reached)


def test_rules_the_arena_cannot_resolve_are_a_rules_error() -> None:
    """``Game("pinapple")`` raises a GameRulesError and ``advise(rules="pinapple")`` a
    SearchRulesError, both RulesErrors; ``Arena("pinapple", ...)`` an ArenaError
    alone, which ``except RulesError`` missed: now an ArenaRulesError, both."""
    from ofc_fast.arena import Arena
    from ofc_fast.errors import ArenaRulesError, RulesError

    spec = parse_bot_spec("random")
    for bad in ("pinapple", "", 5, None):
        for call in (resolve_arena_rules, lambda r: Arena(r, [spec, spec], 1)):
            with pytest.raises(RulesError) as info:
                call(bad)
            assert isinstance(info.value, ArenaError)
            assert type(info.value) is ArenaRulesError
    # rules of no preset: the wire protocol's limit, an ArenaError as before
    with pytest.raises(ArenaError) as info:
        resolve_arena_rules(PINEAPPLE.replace(sweep_bonus=0))
    assert not isinstance(info.value, RulesError)


def test_documented_difference_pineapple_stay() -> None:
    """_games.py documents it: our PINEAPPLE (ofc-pineapple) also stays on a middle full
    house; the document's ofc-pineapple stays on top trips or bottom quads only."""
    fl = rules_for_game_id("ofc-pineapple").fantasyland
    assert fl is not None and fl.stay_middle is not None
    assert rules_for_game_id("ofc-progressive").fantasyland.stay_middle is None


def test_redaction_table() -> None:
    deal = {"event": "deal", "seat": 1, "cards": ["As"], "count": 1}
    place = {
        "event": "place",
        "seat": 1,
        "placements": [{"card": "As", "row": "top"}],
        "discarded": ["2c"],
        "count": 1,
    }
    assert redact(deal, 1, False) == deal and redact(deal, 0, False)["cards"] == []
    assert redact(place, 0, False) == {**place, "discarded": []}
    assert redact(place, 0, True) == {**place, "discarded": [], "placements": []}
    assert redact(place, 1, True) == place
    for ev in (
        {"event": "fantasyland", "seat": 1, "cards": 14},
        {"event": "score", "seat": 1, "points": 3},
    ):
        assert redact(ev, 0, True) == ev


def test_bot_specs() -> None:
    assert parse_bot_spec("heuristic").kind == "builtin"
    assert parse_bot_spec("builtin:random").target == "random"
    assert parse_bot_spec("tcp:9000").target == "9000"
    assert parse_bot_spec("x@cmd:a b@c").target == "a b@c"
    for bad in ("", "tcp:port", "ftp:1", "cmd:"):
        with pytest.raises(ArenaError):
            parse_bot_spec(bad)


def test_student_t_interval_against_tables() -> None:
    xs = [3.0, -1.0, 4.0, 1.0, -5.0, 9.0, 2.0, -6.0, 5.0, 3.0]
    m = sum(xs) / 10
    sd = math.sqrt(sum((x - m) ** 2 for x in xs) / 9)
    assert t_half_width(xs) == pytest.approx(2.2621571627409915 * sd / math.sqrt(10))
    assert t_half_width([1.0]) is None and t_half_width([]) is None
    s = latency_summary([float(x) for x in range(1, 101)])
    assert s["count"] == 100 and s["max_ms"] == 100 and s["p50_ms"] == pytest.approx(50.5)
    assert latency_summary([])["p99_ms"] is None


def test_the_report_of_a_long_match_takes_no_list_of_its_numbers() -> None:
    """The report at the end of a long match (the points of each hand and the time of
    each decision, kept in arrays of 8 bytes a number) made a list of Python floats
    of each (32 bytes a number): a million hands took 17 s and twice the memory of the
    match.  Its figures are the same, from the kept sums and a sorted copy."""
    import tracemalloc
    from array import array

    from ofc_fast.arena import Arena
    from ofc_fast.arena.report import match_report

    arena = Arena("pineapple", [parse_bot_spec("random")] * 2, hands=1, seed=1)
    arena.run()
    rng, n = Random(5), 100_000
    for rec in arena.records:
        pts = [rng.randint(-30, 30) for _ in range(n)]
        rec.points = array("q", pts)
        rec.points_total, rec.points_squares = sum(pts), sum(x * x for x in pts)
        rec.latencies_ms = array("d", (rng.random() for _ in range(9 * n)))
    first = arena.records[0]
    match_report(arena)  # (its imports, scipy's, before the count)
    tracemalloc.start()
    try:
        report = match_report(arena)
        peak = tracemalloc.get_traced_memory()[1]
    finally:
        tracemalloc.stop()
    kept = len(first.latencies_ms) * 8  # (one bot's decision times)
    assert peak < 1.5 * kept, f"{peak / kept:.1f} times one bot's decision times"
    pts = [float(x) for x in first.points]
    m = sum(pts) / n
    sd = math.sqrt(sum((x - m) ** 2 for x in pts) / (n - 1))
    times = sorted(first.latencies_ms)
    bot = report["bots"][0]
    assert bot["hands"] == n and bot["points"] == sum(first.points)
    assert bot["points_per_hand_mean"] == pytest.approx(m, rel=1e-12)
    assert bot["points_per_hand_ci95"] == pytest.approx(1.96 * sd / math.sqrt(n), rel=1e-3)
    d = bot["decisions"]
    assert d["count"] == 9 * n and d["max_ms"] == times[-1]
    assert d["mean_ms"] == pytest.approx(sum(times) / len(times), rel=1e-12)
    at = (len(times) - 1) * 0.99  # (linear between the closest ranks)
    lo = int(at)
    p99 = times[lo] + (times[lo + 1] - times[lo]) * (at - lo)
    assert d["p99_ms"] == pytest.approx(p99, rel=1e-12)
    assert d["p50_ms"] == pytest.approx(
        (times[len(times) // 2 - 1] + times[len(times) // 2]) / 2
    )


def test_a_duplicate_match_keeps_no_finished_deck() -> None:
    """A duplicate match kept the sums of every deck it played to its end (a list and
    two dict entries, about 300 bytes a deck: more than the rest of the match).  A
    finished deck now goes into running sums; the summary is the same."""
    from ofc_fast.arena import Arena

    deals: list[Any] = []
    arena = Arena(
        "pineapple",
        [parse_bot_spec("random")] * 3,
        hands=12,
        seed=4,
        duplicate=True,
        on_deal=deals.append,
    )
    dup = arena.run()["duplicate"]
    assert len(arena.deck_points) == len(arena.deck_rotations) == 0
    decks: dict[int, list[int]] = {}
    for d in deals:  # each bot's points per deck, summed over its 3 rotations
        row = decks.setdefault(d.deck_no, [0, 0, 0])
        for s, name in enumerate(d.seats):
            row[arena.names.index(name)] += d.game.result().net[s]
    assert dup["decks"] == len(decks) == 12

    def mean_ci(xs: list[int]) -> tuple[float, float]:
        m = sum(xs) / len(xs)
        sd = math.sqrt(sum((x - m) ** 2 for x in xs) / (len(xs) - 1))
        return m, 2.200985160082949 * sd / math.sqrt(len(xs))  # t(0.975, 11)

    for k, bot in enumerate(dup["bots"]):
        m, ci = mean_ci([row[k] for row in decks.values()])
        assert bot["points_per_deck_mean"] == pytest.approx(m, rel=1e-12)
        assert bot["points_per_deck_ci95"] == pytest.approx(ci, rel=1e-9)
    pairs = [(0, 1), (0, 2), (1, 2)]
    assert [(p["a"], p["b"]) for p in dup["pairs"]] == [
        (arena.names[a], arena.names[b]) for a, b in pairs
    ]
    for p, (a, b) in zip(dup["pairs"], pairs):
        m, ci = mean_ci([row[a] - row[b] for row in decks.values()])
        assert p["difference_per_deck_mean"] == pytest.approx(m, rel=1e-12)
        assert p["difference_per_deck_ci95"] == pytest.approx(ci, rel=1e-9)


def test_an_arena_without_scipy_is_refused_before_its_first_hand(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """The report's intervals need scipy (the ``arena`` extra).  Without it the arena
    played every hand (each written to ``--history``) and only then failed, with no
    report: the whole match was lost.  In parallel (``run_arena``) too."""
    import sys

    from ofc_fast.arena import Arena
    from ofc_fast.parallel.tournament import run_arena

    monkeypatch.setitem(sys.modules, "scipy", None)  # (import scipy: ImportError)
    played: list[object] = []
    for run in (Arena.run, run_arena):
        with pytest.raises(ArenaError, match=r"scipy: pip install 'ofc-fast\[arena\]'"):
            run(  # type: ignore[operator]
                Arena(
                    "ofc-pineapple",
                    [parse_bot_spec("random")] * 2,
                    3,
                    on_deal=played.append,
                )
            )
    assert played == []


def test_progress_lines_match_the_hands_and_cost_the_same_at_any_hand() -> None:
    """``--progress-json`` standings summed and re-read every hand played at every
    line (0.45 s a line at a million hands: a million-hand match with a line every
    100 hands spent 37 minutes on them): they come from sums kept as the hands end,
    and match the hands (Student t from tables)."""
    import time

    from ofc_fast.arena import Arena
    from ofc_fast.arena.report import progress_line

    t_975 = {1: 12.706204736174704, 2: 4.302652729749464, 3: 3.182446305284263}
    lines: list[dict] = []
    deals: list = []
    arena = Arena(
        "ofc-pineapple",
        [parse_bot_spec("heuristic"), parse_bot_spec("random")],
        4,
        seed=3,
        on_deal=deals.append,
        on_progress=lines.append,
        progress_every=1,
    )
    arena.run()
    assert [line["hands_done"] for line in lines] == [1, 2, 3, 4]
    for k, line in enumerate(lines, 1):
        for row in line["standings"]:
            xs = [d.game.result().net[d.seats.index(row["name"])] for d in deals[:k]]
            m = sum(xs) / k
            assert row["points"] == sum(xs) and row["points_per_hand_mean"] == m
            if k == 1:
                assert row["points_per_hand_ci95"] is None
                continue
            sd = math.sqrt(sum((x - m) ** 2 for x in xs) / (k - 1))
            ci = t_975[k - 1] * sd / math.sqrt(k)
            assert row["points_per_hand_ci95"] == pytest.approx(ci, rel=1e-9)
    for r in arena.records:  # a million hands more: +5 and -3 in turn
        r.points.extend([5, -3] * 500_000)
        r.points_total += 1_000_000
        r.points_squares += 17_000_000
    # (its own CPU time: a loaded machine stalled the wall clock 40 ms of the 50)
    t0 = time.thread_time()
    line = progress_line(arena, 10**6)
    assert time.thread_time() - t0 < 0.05  # (0.45 s before)
    row = line["standings"][0]
    n = 1_000_004
    assert row["points"] == sum(arena.records[0].points) and n == len(
        arena.records[0].points
    )
    sd = math.sqrt(
        sum((x - row["points"] / n) ** 2 for x in arena.records[0].points) / (n - 1)
    )
    assert row["points_per_hand_ci95"] == pytest.approx(
        1.959966 * sd / math.sqrt(n), rel=1e-6
    )


def test_client_ignores_unknown_and_answers_every_act() -> None:
    c = BotClient(make_bot("heuristic", seed=3), log=lambda _: None)
    assert c.feed(
        {
            "t": "hello",
            "proto": 1,
            "game_id": "ofc-pineapple",
            "seat_count": 2,
            "timeout_ms": None,
        }
    ) == [{"t": "join"}]
    assert c.feed({"t": "surprise", "x": 1}) == []
    c.feed({"t": "hand-start", "hand_no": 0, "seat": 1})
    c.feed({"t": "event", "hand_no": 0, "ev": {"event": "weather", "seat": 0}})
    c.feed(
        {
            "t": "event",
            "hand_no": 0,
            "ev": {
                "event": "deal",
                "seat": 1,
                "cards": ["2c", "6s", "6h", "2h", "6c"],
                "count": 5,
            },
        }
    )
    (reply,) = c.feed(
        {
            "t": "act",
            "hand_no": 0,
            "seat": 1,
            "decision": {"kind": "place", "place": 5, "discard": 0},
            "deadline_ms": 5000,
        }
    )
    assert reply["t"] == "action" and len(reply["action"]["placements"]) == 5
    assert json.loads(encode(reply)) == reply


def test_client_with_an_unknown_game_plays_the_filler() -> None:
    logs: list[str] = []
    c = BotClient(make_bot("random", seed=1), log=logs.append)
    c.feed({"t": "hello", "proto": 1, "game_id": "holdem-nl", "seat_count": 2})
    c.feed({"t": "hand-start", "hand_no": 0, "seat": 0})
    c.feed(
        {
            "t": "event",
            "hand_no": 0,
            "ev": {"event": "deal", "seat": 0, "cards": ["Kd", "2c", "As"], "count": 3},
        }
    )
    (reply,) = c.feed({"t": "act", "decision": {"kind": "place", "place": 2, "discard": 1}})
    assert reply["action"] == {
        "placements": [{"card": "2c", "row": "bottom"}, {"card": "Kd", "row": "bottom"}],
        "discards": ["As"],
    }
    assert logs and "holdem-nl" in logs[0]


# The arena-to-bot lines of WIRE_PROTOCOL_OFC.md's example transcript (captured from
# the reference arena: ofc-pineapple, seed 113, the wire bot at seat 1); the two
# showdown lines are left out.
_DOC_ARENA_LINES = r"""
{"t":"hello","proto":1,"game_id":"ofc-pineapple","seat_count":2,"timeout_ms":5000}
{"t":"joined","name":"bot-2"}
{"t":"hand-start","hand_no":0,"seat":1}
{"t":"event","hand_no":0,"ev":{"event":"deal","seat":1,"cards":["2c","6s","6h","2h","6c"],"count":5}}
{"t":"event","hand_no":0,"ev":{"event":"deal","seat":0,"cards":[],"count":5}}
{"t":"act","hand_no":0,"seat":1,"decision":{"kind":"place","place":5,"discard":0},"deadline_ms":5000}
{"t":"event","hand_no":0,"ev":{"event":"place","seat":1,"placements":[{"card":"2c","row":"bottom"},{"card":"2h","row":"bottom"},{"card":"6c","row":"bottom"},{"card":"6h","row":"bottom"},{"card":"6s","row":"bottom"}],"discarded":[],"count":0}}
{"t":"event","hand_no":0,"ev":{"event":"place","seat":0,"placements":[{"card":"4s","row":"middle"},{"card":"5d","row":"top"},{"card":"Tc","row":"top"},{"card":"Kd","row":"middle"},{"card":"Ad","row":"bottom"}],"discarded":[],"count":0}}
{"t":"event","hand_no":0,"ev":{"event":"deal","seat":1,"cards":["3h","9s","5c"],"count":3}}
{"t":"act","hand_no":0,"seat":1,"decision":{"kind":"place","place":2,"discard":1},"deadline_ms":5000}
{"t":"event","hand_no":0,"ev":{"event":"place","seat":1,"placements":[{"card":"3h","row":"middle"},{"card":"5c","row":"middle"}],"discarded":["9s"],"count":1}}
{"t":"event","hand_no":0,"ev":{"event":"deal","seat":0,"cards":[],"count":3}}
{"t":"event","hand_no":0,"ev":{"event":"place","seat":0,"placements":[{"card":"Ts","row":"middle"},{"card":"Kc","row":"bottom"}],"discarded":[],"count":1}}
{"t":"event","hand_no":0,"ev":{"event":"deal","seat":1,"cards":["As","Qc","7c"],"count":3}}
{"t":"act","hand_no":0,"seat":1,"decision":{"kind":"place","place":2,"discard":1},"deadline_ms":5000}
{"t":"event","hand_no":0,"ev":{"event":"place","seat":1,"placements":[{"card":"7c","row":"middle"},{"card":"Qc","row":"middle"}],"discarded":["As"],"count":1}}
{"t":"event","hand_no":0,"ev":{"event":"deal","seat":0,"cards":[],"count":3}}
{"t":"event","hand_no":0,"ev":{"event":"place","seat":0,"placements":[{"card":"Js","row":"top"},{"card":"Ah","row":"bottom"}],"discarded":[],"count":1}}
{"t":"event","hand_no":0,"ev":{"event":"deal","seat":1,"cards":["3s","8c","5s"],"count":3}}
{"t":"act","hand_no":0,"seat":1,"decision":{"kind":"place","place":2,"discard":1},"deadline_ms":5000}
{"t":"event","hand_no":0,"ev":{"event":"place","seat":1,"placements":[{"card":"3s","row":"middle"},{"card":"5s","row":"top"}],"discarded":["8c"],"count":1}}
{"t":"event","hand_no":0,"ev":{"event":"deal","seat":0,"cards":[],"count":3}}
{"t":"event","hand_no":0,"ev":{"event":"place","seat":0,"placements":[{"card":"8h","row":"bottom"},{"card":"Th","row":"middle"}],"discarded":[],"count":1}}
{"t":"event","hand_no":0,"ev":{"event":"deal","seat":1,"cards":["Qd","Kh","Ks"],"count":3}}
{"t":"act","hand_no":0,"seat":1,"decision":{"kind":"place","place":2,"discard":1},"deadline_ms":5000}
{"t":"event","hand_no":0,"ev":{"event":"place","seat":1,"placements":[{"card":"Qd","row":"top"},{"card":"Kh","row":"top"}],"discarded":["Ks"],"count":1}}
{"t":"event","hand_no":0,"ev":{"event":"deal","seat":0,"cards":[],"count":3}}
{"t":"event","hand_no":0,"ev":{"event":"place","seat":0,"placements":[{"card":"4c","row":"bottom"},{"card":"Qs","row":"middle"}],"discarded":[],"count":1}}
{"t":"event","hand_no":0,"ev":{"event":"score","seat":1,"points":7}}
{"t":"event","hand_no":0,"ev":{"event":"score","seat":0,"points":-7}}
{"t":"hand-end","hand_no":0,"points":[-7,7]}
{"t":"match-end"}
"""


@pytest.mark.parametrize("bot", ["heuristic", "random"])
def test_our_client_on_the_documents_captured_session(bot: str) -> None:
    """Our client fed the reference arena's lines: it joins, answers every act with a
    legal action for the cards and board it has (as the arena played them), tracks
    both boards from the events, and stops at match-end."""
    client = BotClient(make_bot(bot, seed=5), log=lambda _: None)
    replies = []
    for line in _DOC_ARENA_LINES.strip().splitlines():
        msg = decode(line)
        out = client.feed(msg)
        if msg["t"] == "act":
            (reply,) = out
            dealt = list(client.dealt)
            d = msg["decision"]
            move = parse_action(reply, dealt, d["place"], d["discard"])
            board = client.boards[client.seat]
            for r, cards in enumerate(move.rows()):
                assert len(board[r]) + len(cards) <= (3, 5, 5)[r]
            replies.append(reply)
        elif msg["t"] == "hello":
            assert out == [{"t": "join"}]
        else:
            assert out == []
    assert len(replies) == 5 and client.done
    as_text = [[sorted(text(c) for c in row) for row in b] for b in client.boards]
    assert as_text[1] == [
        sorted(["5s", "Qd", "Kh"]),
        sorted(["3h", "5c", "7c", "Qc", "3s"]),
        sorted(["2c", "2h", "6c", "6h", "6s"]),
    ]
    assert as_text[0] == [
        sorted(["5d", "Tc", "Js"]),
        sorted(["4s", "Kd", "Ts", "Th", "Qs"]),
        sorted(["Ad", "Kc", "Ah", "8h", "4c"]),
    ]
    assert client.discard_counts == [4, 4] and [text(c) for c in client.discards] == [
        "9s",
        "As",
        "8c",
        "Ks",
    ]


def test_an_arena_of_more_hands_than_hand_numbers_is_refused() -> None:
    """Regression: ``Arena(rules, bots, hands=2**70)`` was taken, and its hand numbers
    past 2**53 (JSON integers a double holds exactly) would be refused by every bot
    client; more hands than that (counting a duplicate match's rotations) is now an
    ArenaError naming the bound, and NumPy's ints are counts (they were refused)."""
    import numpy as np

    from ofc_fast.arena import Arena

    bots = [parse_bot_spec("a@random"), parse_bot_spec("b@random")]
    for hands, duplicate in ((2**70, False), (2**53 + 2, False), (2**52 + 1, True)):
        with pytest.raises(ArenaError, match=r"^hands must be at most \d+, got"):
            Arena("pineapple", bots, hands=hands, duplicate=duplicate)
    Arena("pineapple", bots, hands=2**53 + 1)  # hand numbers 0..2**53
    report = Arena("pineapple", bots, np.int64(2), 1, progress_every=np.uint8(1)).run()
    assert report["hands"] == 2


def test_a_game_id_that_is_no_text_is_an_arena_error() -> None:
    """Regression: ``rules_for_game_id(<a list nested 5000 deep>)`` raised
    ``RecursionError`` and ``rules_for_game_id(10**5000)`` Python's int-to-string
    ``ValueError`` (the id was read through ``str()``); both are now the ArenaError
    of an unknown game id, the value quoted short."""
    deep: list[Any] = []
    inner = deep
    for _ in range(5000):
        inner.append([])
        inner = inner[0]
    for game_id in (deep, 10**5000, None, b"ofc-pineapple"):
        with pytest.raises(ArenaError, match=r"^unknown game id .{1,42}; known: ofc,"):
            rules_for_game_id(game_id)  # type: ignore[arg-type]
    assert rules_for_game_id("ofc-pineapple") is PINEAPPLE


@pytest.mark.parametrize("how", ["pickle", "copy", "deepcopy"])
def test_a_played_arena_pickles_and_copies_as_a_new_match(how: str) -> None:
    """Regression: after ``run()``, ``pickle.dumps(arena)`` and ``copy.deepcopy(arena)``
    raised TypeError "cannot pickle '_thread.RLock' object", and ``copy.copy(arena)``
    shared the original's bots and records (its ``run()`` then refused, "an Arena
    plays one match").  A copy is now a new Arena of the same settings, not yet
    played: its run plays the same match again."""
    import copy
    import pickle

    from ofc_fast.arena import Arena

    bots = [parse_bot_spec("ann@random"), parse_bot_spec("bob@heuristic")]
    arena = Arena("pineapple", bots, hands=3, seed=5, duplicate=True, token=None)
    report = arena.run()
    again = {
        "pickle": lambda: pickle.loads(pickle.dumps(arena)),
        "copy": lambda: copy.copy(arena),
        "deepcopy": lambda: copy.deepcopy(arena),
    }[how]()
    assert again.records == [] and again.hands_done == 0 and arena.records
    for k in ("specs", "hands", "seed", "duplicate", "timeout_ms", "fault_policy"):
        assert getattr(again, k) == getattr(arena, k), k
    again_report = again.run()
    assert [b["points"] for b in again_report["bots"]] == [
        b["points"] for b in report["bots"]
    ]
