"""Matches: button movement (R-FLOW-OFC-8, R-FL-6), Fantasyland carried between deals
(R-FL-1/10, R-27-6/7), running totals, table stakes (R-STAKES-*), reproducibility."""

from __future__ import annotations

import importlib.util
import json
import math
import signal
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import Any

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from ofc_fast import fantasyland_cards, rules
from ofc_fast.bots import HeuristicBot, RandomBot
from ofc_fast.errors import RulesError, TableError
from ofc_fast.game import (
    Game,
    GameError,
    Match,
    SeatStats,
    deal_seed,
    max_fantasyland_cards,
    play_out,
)
from ofc_fast.rules.model import GameKind as Kind
from ofc_fast.table import SEED_MAX

PRESETS = [rules.get(n) for n in rules.names()]
IDS = [r.name for r in PRESETS]


def hunters(r: rules.RuleSet, players: int) -> list:
    """Fast, sound bots that value Fantasyland highly, so that it comes up often and
    its carry-over gets exercised (random bots foul nearly every board)."""
    if r.game is Kind.CLASSIC:
        return [RandomBot(s) for s in range(players)]
    return [
        HeuristicBot(r, seed=s, samples=6, arrangements=4, fl_value=40.0)
        for s in range(players)
    ]


@pytest.mark.parametrize("r", PRESETS, ids=IDS)
def test_match_carries_button_and_fantasyland(r: rules.RuleSet) -> None:
    players = 2
    m = Match(r, players, seed=7)
    bots = hunters(r, players)
    prev = None
    fl_deals = 0
    deals = 60 if r.game is not Kind.CLASSIC else 200
    played = 0
    # at least `deals`, and on until a Fantasyland deal has been carried over (bounded)
    while played < deals or (r.game is not Kind.CLASSIC and fl_deals < 2 and played < 600):
        played += 1
        g = m.next_game()
        assert m.next_game() is g
        if prev is not None:
            pg, pres = prev
            assert g.fantasyland == tuple(pres.fantasyland)  # carried over
            frozen = (
                r.fantasyland is not None
                and r.fantasyland.button_frozen
                and any(g.fantasyland)
            )
            assert g.button == (pg.button if frozen else (pg.button + 1) % players)
        fl_deals += any(g.fantasyland)
        play_out(g, bots)
        res = m.record(g)
        for s in range(players):
            n = g.fantasyland[s]
            expect = (
                fantasyland_cards(res.boards[s], r, n if n else False)
                if r.fantasyland is not None
                else 0
            )
            assert res.fantasyland[s] == expect
        prev = (g, res)
    assert sum(m.totals) == 0 and m.hands_played == played
    assert m.totals == [st.total for st in m.stats]
    if r.game is not Kind.CLASSIC:
        assert fl_deals > 0, "no Fantasyland deal: carry-over untested"
        assert sum(st.fantasyland_deals for st in m.stats) >= fl_deals
    json.dumps(m.to_dict())


def test_button_frozen_only_when_rules_say() -> None:
    r = rules.PINEAPPLE.replace(
        fantasyland=rules.PINEAPPLE.fantasyland.replace(button_frozen=False)
    )
    m = Match(r, 2, seed=3)
    bots = hunters(r, 2)
    buttons = []
    fl = 0
    for _ in range(40):
        g = m.next_game()
        buttons.append(g.button)
        fl += any(g.fantasyland)
        m.play_hand(bots)
    assert fl and buttons == [i % 2 for i in range(40)]


def test_first_deal_in_fantasyland() -> None:
    """``fantasyland`` gives the first deal's counts, checked as Game checks them; the
    deal is the one Game deals with the same seed and counts, then it carries over."""
    m = Match(rules.PINEAPPLE, 2, seed=9, fantasyland=[0, 15])
    g = m.next_game()
    same = Game(rules.PINEAPPLE, 2, seed=g.seed, fantasyland=(0, 15))
    assert g.fantasyland == m.fantasyland == (0, 15) and g.dealt == same.dealt
    play_out(g, [RandomBot(seed=1), RandomBot(seed=2)])
    m.record(g)
    assert m.fantasyland == tuple(g.result().fantasyland)
    four = rules.OFC.replace(max_players=4)
    for table, bad in (
        (rules.PINEAPPLE, [12, 0]),
        (rules.PINEAPPLE, [15]),
        (rules.PINEAPPLE, [0, "x"]),
        (rules.OFC, [17] * 4),
        (four, [17, 17, 0, 0]),
    ):
        with pytest.raises(TableError) as exc:
            Match(table, len(bad), fantasyland=bad)
        with pytest.raises(TableError) as same_exc:
            Game(table, len(bad), fantasyland=bad)
        assert str(exc.value) == str(same_exc.value)
    with pytest.raises(TableError, match="need 68 cards"):
        Match(rules.OFC, 4, fantasyland=[17] * 4)
    # 17 + 17 + 13 + 13 = 60 cards; four seats of 13 fit the deck exactly
    with pytest.raises(TableError, match=r"with Fantasyland \(17, 17, 0, 0\) need 60"):
        Game(four, 4, fantasyland=[17, 17, 0, 0])
    Game(four, 4, fantasyland=[13, 0, 0, 0])
    with pytest.raises(TableError, match="no Fantasyland"):
        Match(rules.CLASSIC_1_6, 2, fantasyland=[13, 0])


def test_reproducible_from_one_seed() -> None:
    def run(seed: int) -> tuple:
        m = Match(rules.PROGRESSIVE_PINEAPPLE, 3, seed=seed, keep_nets=True)
        m.play([RandomBot(s) for s in range(3)], hands=80)
        return tuple(m.totals), tuple(m.stats[0].net), m.fantasyland, m.button

    assert run(11) == run(11)
    assert run(11) != run(12)
    assert Match(rules.OFC, 2).seed != Match(rules.OFC, 2).seed


@pytest.mark.parametrize("r", [rules.OFC, rules.PINEAPPLE, rules.HAWAIIAN_GARDENS], ids=str)
def test_table_stakes(r: rules.RuleSet) -> None:
    players = min(3, r.max_players)
    m = Match(r, players, seed=5, stacks=40)
    start = list(m.stacks)
    bots = [RandomBot(s) for s in range(players)]
    deals = 0
    while not m.is_over and deals < 400:
        before = list(m.stacks)
        res = m.play_hand(bots)
        deals += 1
        assert all(x >= 0 for x in m.stacks)
        assert m.stacks == [b + n for b, n in zip(before, res.net)]
        for s in range(players):  # nobody loses more than he has (R-STAKES-1)
            assert -res.net[s] <= before[s]
    assert sum(m.stacks) == sum(start)
    assert [a - b for a, b in zip(m.stacks, start)] == m.totals
    if m.is_over:
        assert sum(1 for x in m.stacks if x > 0) < 2
        with pytest.raises(GameError):
            m.next_game()
        assert m.play(bots, 5) is m.stats and m.hands_played == deals


def test_a_match_holds_at_most_the_stack_limit_in_all() -> None:
    """Match(stacks=STACK_MAX) (the limit of one seat's stack) was taken, and the
    deal after the first a seat won was a TableError ("at most 1000000000 chips a
    seat, got 1000000006"): chips move between seats, so one seat can come to hold
    them all.  A match refuses more than the limit in all, and one of exactly the
    limit plays on."""
    from ofc_fast.table import STACK_MAX

    for stacks in (STACK_MAX, [STACK_MAX, 1], [STACK_MAX // 2 + 1] * 2):
        with pytest.raises(TableError, match=r"stacks: .*at most 1000000000 chips in all"):
            Match(rules.PINEAPPLE, 2, seed=1, stacks=stacks)
    m = Match(rules.PINEAPPLE, 3, seed=1, stacks=[STACK_MAX - 4, 2, 2])
    m.play([RandomBot(s) for s in range(3)], hands=30)
    assert sum(m.stacks) == STACK_MAX and max(m.stacks) <= STACK_MAX
    data = {**m.to_dict(), "stacks": [STACK_MAX, 1, 0]}
    with pytest.raises(TableError, match="in all"):
        Match.from_dict(data)


def test_play_stops_when_chips_run_out() -> None:
    m = Match(rules.OFC, 2, seed=1, stacks=(3, 3))
    m.play([RandomBot(1), RandomBot(2)], hands=10_000)
    assert m.is_over and m.hands_played < 10_000


@pytest.mark.parametrize("r", [rules.OFC, rules.HAWAIIAN_GARDENS], ids=str)
def test_a_seat_without_chips_is_dealt_in_for_nothing(r: rules.RuleSet) -> None:
    """docs/rules.md Q-5: in a 4-seat match a seat whose chips ran out (or never had
    any) is still dealt in and its nets are 0; the match goes on between the others
    until fewer than two have chips."""
    m = Match(r, 4, seed=2, stacks=(0, 1, 6, 30))
    bots = [RandomBot(s) for s in range(4)]
    while not m.is_over and m.hands_played < 300:
        before = list(m.stacks)
        res = m.play_hand(bots)
        assert sum(res.net) == 0 and len(res.boards) == 4
        assert all(n == 0 for n, b in zip(res.net, before) if b == 0)
        assert all(x >= 0 for x in m.stacks) and sum(m.stacks) == 37
    assert m.is_over and sum(1 for x in m.stacks if x > 0) == 1


def test_record_and_errors() -> None:
    m = Match("pineapple", 2, seed=1)
    g = m.next_game()
    with pytest.raises(GameError):
        m.record(Game(rules.PINEAPPLE, 2, seed=1))
    with pytest.raises(GameError):
        m.record(g)  # not over yet
    play_out(g, [RandomBot(1), RandomBot(2)])
    m.record(g)
    with pytest.raises(GameError):
        m.play([RandomBot(1)], 1)
    for kwargs in (
        dict(players=4),
        dict(players=2, stacks=(1,)),
        dict(players=2, button=5),
        dict(players=2, seed="s"),
    ):
        with pytest.raises(GameError):
            Match(rules.PINEAPPLE, **kwargs)
    with pytest.raises(GameError):  # 4 seats x 17 cards: more than a deck
        Match(rules.PINEAPPLE.replace(max_players=4), 4)
    assert max_fantasyland_cards(rules.ULTIMATE_PINEAPPLE) == 17
    assert max_fantasyland_cards(rules.CLASSIC_1_6) == 0


def test_seat_stats_confidence_interval() -> None:
    st = SeatStats()
    values = [3, -1, 4, -1, 5, -9, 2, 6]
    for v in values:
        st.add(v, False, 0, False, False, False, False, True)
    mean = sum(values) / len(values)
    sd = math.sqrt(sum((v - mean) ** 2 for v in values) / (len(values) - 1))
    assert st.mean == mean and abs(st.sd - sd) < 1e-12
    # Student's t with 7 degrees of freedom (printed t tables: 2.365), or the normal
    # approximation without SciPy (both cases: tests/test_cli_output.py)
    quantile = 2.365 if importlib.util.find_spec("scipy") else 1.96
    assert abs(st.ci95 - quantile * sd / math.sqrt(len(values))) < 5e-4 * sd
    assert SeatStats().ci95 == float("inf")
    assert st.to_dict()["deals"] == 8 and st.net == values


def test_on_deal_callback_and_summary() -> None:
    m = Match(rules.OFC, 3, seed=2, stacks=[50, 60, 70])
    seen = []
    m.play(
        [RandomBot(s) for s in range(3)],
        15,
        on_deal=lambda g, res: seen.append((g.seed, res.net)),
    )
    assert len(seen) == m.hands_played
    summary = m.summary()
    assert [d["seat"] for d in summary] == [0, 1, 2]
    assert all("stack" in d and "ci95" in d and "foul_rate" in d for d in summary)
    assert repr(m).startswith("<Match OFC")


@pytest.mark.parametrize(
    "bots",
    [["random", "random"], [None, RandomBot(seed=1)], 5, "rr"],
)
def test_match_play_refuses_what_are_not_bots(bots: object) -> None:
    """Bot names, None or a number in place of bots are a GameError naming the seat,
    not an AttributeError (no act()) or a TypeError (no len()) mid-deal; the match
    is left untouched."""
    m = Match(rules.PINEAPPLE, seed=1)
    with pytest.raises(GameError, match="bot"):
        m.play(bots)  # type: ignore[arg-type]
    with pytest.raises(GameError, match="bot"):
        m.play_hand(bots)  # type: ignore[arg-type]
    assert m.hands_played == 0 and m._pending is None


@pytest.mark.parametrize("hands", [-1, 1.0, "2", True, None])
def test_match_play_refuses_bad_hand_counts(hands: object) -> None:
    m = Match(rules.PINEAPPLE, seed=1)
    with pytest.raises(GameError, match="hands"):
        m.play([RandomBot(seed=1), RandomBot(seed=2)], hands=hands)  # type: ignore[arg-type]
    assert m.hands_played == 0


def test_match_play_hands_numpy_int() -> None:
    m = Match(rules.PINEAPPLE, seed=1)
    m.play([RandomBot(seed=1), RandomBot(seed=2)], hands=np.int64(2))
    assert m.hands_played == 2


def test_match_play_refuses_on_deal_that_is_not_callable() -> None:
    """A non-callable ``on_deal`` was called after the first deal was booked (a
    TypeError with the match one deal on); now a GameError before any deal."""
    m = Match(rules.PINEAPPLE, seed=1)
    with pytest.raises(GameError, match="on_deal"):
        m.play([RandomBot(seed=1), RandomBot(seed=2)], hands=2, on_deal=5)  # type: ignore[arg-type]
    assert m.hands_played == 0


def test_record_without_a_pending_deal_is_a_game_error() -> None:
    """record(None) before any next_game() (or after the deal was booked) passed the
    "is it the pending deal" test, as None is None, and raised AttributeError."""
    m = Match(rules.PINEAPPLE, 2, seed=1)
    with pytest.raises(GameError, match="next_game"):
        m.record(None)  # type: ignore[arg-type]
    g = m.next_game()
    play_out(g, [RandomBot(seed=1), RandomBot(seed=2)])
    m.record(g)
    with pytest.raises(GameError, match="next_game"):
        m.record(None)  # type: ignore[arg-type]
    assert m.hands_played == 1


def test_match_refuses_a_keep_nets_that_is_no_bool() -> None:
    """Match(keep_nets="no") was read by its truth value (every net kept), as any
    object was; keep_nets is True or False, else a GameError naming it."""
    for bad in ("no", "false", 0, 1, None, 1.5, [False]):
        with pytest.raises(GameError, match="keep_nets"):
            Match(rules.PINEAPPLE, 2, seed=1, keep_nets=bad)  # type: ignore[arg-type]
    assert Match(rules.PINEAPPLE, 2, seed=1, keep_nets=True).keep_nets is True


@pytest.mark.parametrize("key", ["hands", "seed"])
@pytest.mark.parametrize("bad", [None, "3", 3.5, True, -1, 2**64])
def test_match_from_dict_names_a_bad_seed_or_deal_count(key: str, bad: object) -> None:
    """Match.from_dict said "hands must be an int >= 0, got None" of hands "3" (it
    quoted its own conversion), took 2**64 hands (the next deal then a GameError about a
    deal index) and a seed of None (a new random seed: not the deals of the saved
    match).  Each is a GameError naming the field and the value given."""
    m = Match(rules.PINEAPPLE, 2, seed=1)
    data = {**m.to_dict(), key: bad}
    with pytest.raises(GameError, match=rf"Match.from_dict: {key}: .*got {bad!r}"):
        Match.from_dict(data)
    seats = [{**d, "deals": 2**64 - 1} for d in m.to_dict()["seats"]]  # every seat dealt
    last = Match.from_dict({**m.to_dict(), "hands": 2**64 - 1, "seats": seats})
    assert last.next_game().seed == deal_seed(1, 2**64 - 1)


@settings(max_examples=25, deadline=None)
@given(
    preset=st.sampled_from(PRESETS),
    sweep_bonus=st.none() | st.integers(0, 12),
    sweep_multiplier=st.none() | st.integers(1, 4),
    strict=st.booleans(),
    stacks=st.none() | st.integers(20, 300),
)
def test_match_dict_round_trips_its_rules_and_state(
    preset: rules.RuleSet,
    sweep_bonus: int | None,
    sweep_multiplier: int | None,
    strict: bool,
    stacks: int | None,
) -> None:
    """``Match.to_dict()`` stored only the rules' name: a match under rules that are no
    preset (``replace``, a rules file) came back as the preset, or not at all.  The
    saved match, read back through JSON, has the same rules and plays on the same
    deals as the match that never stopped."""
    changes: dict[str, object] = {}
    if sweep_bonus is not None:
        changes["sweep_bonus"] = sweep_bonus
    if sweep_multiplier is not None:
        changes["sweep_multiplier"] = sweep_multiplier
    if strict:
        changes["order"] = rules.OrderRule.STRICT
    table = preset.replace(**changes) if changes else preset
    players = 3 if table.max_players >= 3 else 2
    m = Match(table, players, seed=11, stacks=stacks)
    m.play([RandomBot(s) for s in range(players)], 2)
    back = Match.from_dict(json.loads(json.dumps(m.to_dict())))
    assert back.rules == table and back.rules.to_dict() == table.to_dict()
    assert back.to_dict() == m.to_dict()
    m.play([RandomBot(s) for s in range(players)], 2)
    back.play([RandomBot(s) for s in range(players)], 2)
    assert back.to_dict() == m.to_dict()


def test_match_dict_with_a_name_alone_is_the_preset() -> None:
    """An older file (a name, no ``rule_set``) still reads as the preset of that name;
    one whose rules were custom says so instead of guessing."""
    m = Match(rules.PINEAPPLE, 2, seed=3)
    m.play([RandomBot(0), RandomBot(1)], 1)
    old = m.to_dict()
    del old["rule_set"]
    assert Match.from_dict(old).rules is rules.PINEAPPLE
    assert m.to_dict()["rule_set"] is None  # a preset: its name says it all
    custom = Match(rules.PINEAPPLE.replace(sweep_bonus=6), 2, seed=3).to_dict()
    del custom["rule_set"]
    with pytest.raises(GameError, match="unknown rule set 'custom'"):
        Match.from_dict(custom)
    for key, bad, match in (
        ("totals", [1], "totals must be a list of 2"),
        ("hands", -1, r"hands: must be 0..2\*\*64-1"),
        ("rule_set", {"sweep_bonus": "x"}, "rule_set"),
        ("seats", [{"deals": "x"}, {}], r"seats\[0\]: deals must be an int"),
    ):
        with pytest.raises((GameError, RulesError), match=match):
            Match.from_dict({**m.to_dict(), key: bad})


@pytest.mark.parametrize("how", ["copy", "deepcopy", "pickle"])
def test_a_copied_match_books_its_deals_alone(how: str) -> None:
    """``copy.copy(match)`` was shallow: a deal booked on the copy changed the
    original's totals, stacks and statistics (as a Game's copies never do).  Every
    copy is independent: the original's saved state is as before, and the copy plays
    on as the original would."""
    import copy
    import pickle

    def bots() -> list[RandomBot]:
        return [RandomBot(seed=1), RandomBot(seed=2)]

    m = Match(rules.PINEAPPLE, 2, seed=4, stacks=200, keep_nets=True)
    m.play(bots(), hands=2)
    m.next_game()  # a pending deal, copied too
    before = json.dumps(m.to_dict())
    nets = [list(s.net) for s in m.stats]
    twin = {
        "copy": copy.copy,
        "deepcopy": copy.deepcopy,
        "pickle": lambda x: pickle.loads(pickle.dumps(x)),
    }[how](m)
    twin.play(bots(), hands=3)
    assert json.dumps(m.to_dict()) == before and [s.net for s in m.stats] == nets
    assert twin.hands_played == 5 and twin.next_game() is not m.next_game()
    m.play(bots(), hands=3)
    assert m.to_dict() == twin.to_dict()


def test_match_with_a_pending_deal_pickles_and_plays_on_the_same() -> None:
    import pickle
    import random

    m = Match(rules.PINEAPPLE, 2, seed=4, stacks=200)
    g = m.next_game()
    rng = random.Random(1)
    g.play(g.random_move(rng))
    again = pickle.loads(pickle.dumps(m))
    h = again.next_game()
    assert h == g and h is not g
    while not g.is_over:
        move = g.random_move(rng)
        g.play(move)
        h.play(move)
    assert m.record(g) == again.record(h)
    assert again.totals == m.totals and again.stacks == m.stacks


def _edited_pickle(edit: Callable[[Match], object]) -> Match:
    """A pickle of a played match (with stacks, nets and a pending deal) after
    ``edit`` changed its fields, unpickled."""
    import pickle

    m = Match(rules.PINEAPPLE, 2, seed=4, stacks=200, keep_nets=True)
    m.play([RandomBot(seed=1), RandomBot(seed=2)], hands=2)
    m.next_game()
    edit(m)
    loaded: Match = pickle.loads(pickle.dumps(m))
    return loaded


@pytest.mark.parametrize(
    ("edit", "match"),
    [
        (
            lambda m: setattr(m, "totals", ["x", 0]),
            "a pickled Match: totals must hold ints",
        ),
        (lambda m: setattr(m, "totals", [1, 2, 3]), "totals must be a list of 2"),
        (lambda m: m.totals.__setitem__(0, 5), r"totals: seat 0 has 5, seats\[0\]"),
    ],
)
def test_a_match_pickle_with_edited_totals_is_refused(
    edit: Callable[[Match], object], match: str
) -> None:
    """An edited Match pickle loaded as it was: its totals ['x', 0] a TypeError in
    the next record(), totals no seat's running total went unnoticed."""
    with pytest.raises(GameError, match=match):
        _edited_pickle(edit)


@pytest.mark.parametrize(
    ("edit", "match"),
    [
        (lambda m: setattr(m.stats[0], "fouls", "2"), r"seats\[0\]: fouls must be an int"),
        (lambda m: setattr(m.stats[1], "net", [1, "x"]), r"seats\[1\]: net must be a list"),
        (lambda m: setattr(m, "stats", [m.stats[0]]), "seats must be a list of 2"),
        (lambda m: setattr(m, "stats", [{}, {}]), "stats must be a list of SeatStats"),
    ],
)
def test_a_match_pickle_with_edited_seat_stats_is_refused(
    edit: Callable[[Match], object], match: str
) -> None:
    """A seat's fouls '2' in a pickle loaded, then summary() raised a TypeError."""
    with pytest.raises(GameError, match=match):
        _edited_pickle(edit)


@pytest.mark.parametrize(
    ("edit", "match"),
    [
        (lambda m: setattr(m, "stacks", [10**9, 10**9]), "at most 1000000000 chips in all"),
        (lambda m: setattr(m, "stacks", [-1, 401]), "chip counts must be >= 0"),
        (lambda m: setattr(m, "stacks", None), "start_stacks without stacks"),
        (lambda m: setattr(m, "button", 2), "button 2 is not a seat"),
    ],
)
def test_a_match_pickle_with_edited_stacks_or_table_is_refused(
    edit: Callable[[Match], object], match: str
) -> None:
    """Stacks of 2e9 chips in all loaded and were dealt (the C engine holds at most
    STACK_MAX); a TableError names them at unpickling, as Match(...) does."""
    with pytest.raises(TableError, match=match):
        _edited_pickle(edit)


def test_a_match_pickle_with_another_pending_deal_is_refused() -> None:
    """A pending deal that is not the match's next one (another seed) was booked."""

    def edit(m: Match) -> None:
        m._pending = Game(rules.PINEAPPLE, 2, seed=99, button=m.button, stacks=m.stacks)

    with pytest.raises(GameError, match="its pending deal is not its next deal"):
        _edited_pickle(edit)
    assert _edited_pickle(lambda m: None).next_game().seed == deal_seed(4, 2)


def test_a_play_json_record_plays_on(tmp_path: Path) -> None:
    """``ofc-fast play --json`` writes the match's keys beside the run's (``bots``,
    ``deals``, ...): Match.from_dict reads the record and plays on with the deals of a
    match never stopped (a refusal of unknown keys broke this)."""
    from ofc_fast import cli

    out = tmp_path / "play.json"
    argv = ["play", "--players", "2", "--hands", "3", "--seed", "5", "--bots", "random"]
    assert cli.main([*argv, "--quiet", "--json", str(out)]) == 0
    record = json.loads(out.read_text())
    assert {"bots", "deals", "seconds"} <= set(record)
    m = Match.from_dict(record)
    assert m.to_dict()["hands"] == 3 and m.next_game().seed == deal_seed(5, 3)


def test_match_from_dict_refuses_start_stacks_without_stacks() -> None:
    data = Match(rules.PINEAPPLE, 2, seed=1).to_dict()
    with pytest.raises(TableError, match="start_stacks without stacks"):
        Match.from_dict({**data, "start_stacks": [100, 100]})


def test_match_from_dict_refuses_totals_that_are_not_the_seats_totals() -> None:
    """Totals [5, -5] over seats whose totals are 0 were taken as they were."""
    m = Match(rules.PINEAPPLE, 2, seed=1)
    m.play([RandomBot(seed=1), RandomBot(seed=2)], hands=2)
    data = m.to_dict()
    seat0 = data["seats"][0]["total"]
    with pytest.raises(TableError, match=rf"totals: seat 0 has {seat0 + 5}, seats\[0\]"):
        Match.from_dict({**data, "totals": [seat0 + 5, -seat0 - 5]})


def test_match_from_dict_refuses_stacks_that_disagree_with_the_totals() -> None:
    """A saved match whose seat 0 stack was edited by 7 chips loaded silently: the
    chips no longer matched the start stacks plus the points won, and every later
    stack and summary was off by 7."""
    m = Match(rules.PINEAPPLE, 2, seed=2, stacks=[150, 250])
    m.play([RandomBot(seed=1), RandomBot(seed=2)], hands=3)
    data = m.to_dict()
    assert data["totals"][0] != 0
    assert data["stacks"] == [150 + data["totals"][0], 250 + data["totals"][1]]
    assert Match.from_dict(data) == m
    edited = [data["stacks"][0] + 7, data["stacks"][1] - 7]  # the sum of chips kept
    want = 150 + data["totals"][0]
    with pytest.raises(TableError, match=rf"stacks: seat 0 has {edited[0]}, .* {want}$"):
        Match.from_dict({**data, "stacks": edited})
    with pytest.raises(TableError, match=r"stacks: seat 0 has 150, "):
        Match.from_dict({**data, "stacks": [150, 250]})  # as if no deal was played


@pytest.mark.parametrize(
    ("seat", "edit", "message"),
    [
        (
            1,
            {"deals": 2**70},
            rf"seats\[1\]: deals must be the match's hands \(4\), got {2**70}",
        ),
        (0, {"deals": 5}, r"seats\[0\]: deals must be the match's hands \(4\), got 5$"),
        (1, {"fouls": 5}, r"seats\[1\]: fouls must be at most its deals \(4\), got 5$"),
        (0, {"naturals": 9}, r"naturals must be at most its deals \(4\)"),
        (0, {"fantasyland_stays": 1}, r"stays must be at most its fantasyland_deals \(0\)"),
        (0, {"royalties": 10**400}, r"royalties must be at most .*\(393204\)"),
        (1, {"sum_sq": 2**200}, r"sum_sq must be at most .*got <an int of 201 bits>"),
    ],
)
def test_match_from_dict_refuses_seat_counts_past_its_deals(
    seat: int, edit: dict[str, int], message: str
) -> None:
    """A saved match whose seat had 2**70 deals in 4 hands loaded, then summary()
    raised SciPy's TypeError; 5 fouls in 4 deals gave a foul rate of 125%.  Every
    seat is dealt every deal, and each count is of some of its deals."""
    m = Match(rules.PINEAPPLE, 2, seed=3)
    m.play([RandomBot(seed=1), RandomBot(seed=2)], hands=4)
    data = m.to_dict()
    seats = [dict(d) for d in data["seats"]]
    seats[seat].update(edit)
    with pytest.raises(GameError, match=message):
        Match.from_dict({**data, "seats": seats})


def test_match_from_dict_refuses_totals_that_do_not_sum_to_zero() -> None:
    """Totals [9, -3] (seat 0's total and its seat figures both edited) loaded,
    though every deal's nets sum to 0: points came from nowhere."""
    m = Match(rules.PINEAPPLE, 2, seed=2)
    m.play([RandomBot(seed=1), RandomBot(seed=2)], hands=3)
    data = m.to_dict()
    assert sum(data["totals"]) == 0 and Match.from_dict(data) == m
    totals = [data["totals"][0] + 12, data["totals"][1]]
    seats = [{**data["seats"][0], "total": totals[0]}, data["seats"][1]]
    with pytest.raises(TableError, match=r"totals must sum to 0, got .*\(sum 12\)$"):
        Match.from_dict({**data, "totals": totals, "seats": seats})


def test_match_from_dict_refuses_a_total_no_deals_add_up_to() -> None:
    """Totals of 10**400 and -10**400 (seat figures alike) loaded, then summary()
    raised Python's OverflowError (an int too large for a float): a deal's net is
    an int32, so 4 deals are at most 4 * 2**31 points either way."""
    m = Match(rules.PINEAPPLE, 2, seed=3)
    m.play([RandomBot(seed=1), RandomBot(seed=2)], hands=4)
    data = m.to_dict()
    big = 10**400
    seats = [{**data["seats"][0], "total": big}, {**data["seats"][1], "total": -big}]
    with pytest.raises(GameError, match=rf"seats\[0\]: total .*\({4 * 2**31}\)"):
        Match.from_dict({**data, "totals": [big, -big], "seats": seats})
    most = 4 * 2**31  # the largest a saved total may be, and its summary reads
    seats = [
        {**d, "total": t, "sum_sq": most * 2**31} for d, t in zip(seats, (most, -most))
    ]
    loaded = Match.from_dict({**data, "totals": [most, -most], "seats": seats})
    assert [s["mean"] for s in loaded.summary()] == [2**31, -(2**31)]


def test_matches_compare_by_state_as_games_do() -> None:
    """``m == copy.deepcopy(m)`` was False (identity), while games compare by value."""
    import copy
    import pickle

    m = Match(rules.PINEAPPLE, 2, seed=3, stacks=100, keep_nets=True)
    m.play([RandomBot(seed=1), RandomBot(seed=2)], hands=2)
    m.next_game()
    assert m == copy.deepcopy(m) == pickle.loads(pickle.dumps(m)) == copy.copy(m)
    other = copy.deepcopy(m)
    other.play([RandomBot(seed=1), RandomBot(seed=2)], hands=1)
    assert m != other and m != m.to_dict()
    with pytest.raises(TypeError, match="unhashable"):
        hash(m)


def test_match_to_dict_shares_no_list_with_the_match() -> None:
    """``to_dict()["start_stacks"]`` was the match's own list: editing the saved
    record changed the match's start stacks (and every later record)."""
    m = Match(rules.PINEAPPLE, 2, seed=1, stacks=100)
    twin = Match(rules.PINEAPPLE, 2, seed=1, stacks=100)
    d = m.to_dict()
    for key in ("start_stacks", "stacks", "totals", "fantasyland"):
        d[key][0] = 5
    assert m.to_dict() == twin.to_dict() and m == twin


def test_match_play_stop_is_asked_before_each_deal() -> None:
    """``stop()`` (``ofc-fast play``'s Ctrl-C) is asked before every deal, the first
    one too: the match stops between two deals, the deals played all booked."""
    m = Match(rules.PINEAPPLE, seed=1)
    asked: list[int] = []

    def stop() -> bool:
        asked.append(m.hands_played)
        return len(asked) > 3

    dealt: list[int] = []
    m.play(
        [RandomBot(seed=1), RandomBot(seed=2)],
        10,
        on_deal=lambda g, r: dealt.append(m.hands_played),
        stop=stop,
    )
    assert asked == [0, 1, 2, 3] and dealt == [1, 2, 3]
    assert m.hands_played == 3 and m._pending is None
    m.play([RandomBot(seed=1), RandomBot(seed=2)], 5, stop=lambda: True)
    assert m.hands_played == 3


def test_match_play_stop_without_a_truth_value_is_named() -> None:
    """Regression: Match.play(stop=...) whose stop() returned a NumPy array of several
    items raised NumPy's ValueError ("The truth value of an array with more than one
    element is ambiguous"); it is a GameError naming stop, the match untouched."""
    m = Match(rules.PINEAPPLE, seed=1)
    before = m.to_dict()
    with pytest.raises(GameError, match="stop must return True or False"):
        m.play([RandomBot(seed=1), RandomBot(seed=2)], 2, stop=lambda: np.array([1, 0]))
    assert m.to_dict() == before
    m.play([RandomBot(seed=1), RandomBot(seed=2)], 2, stop=lambda: np.bool_(False))
    assert m.hands_played == 2


def test_match_play_finish_deal_plays_each_deal_with_its_index() -> None:
    """``finish_deal(game, bots, deal)`` plays each deal out in place of the bots'
    plain moves, ``deal`` counted from 0; the deals are those of a match without it."""
    bots = [RandomBot(seed=1), RandomBot(seed=2)]
    calls: list[tuple[int, int | None, bool]] = []

    def finish_deal(game: Game, given: Sequence[Any], deal: int) -> None:
        calls.append((deal, game.seed, given is bots))
        play_out(game, given)

    m = Match(rules.PINEAPPLE, seed=4)
    m.play(bots, 3, finish_deal=finish_deal)
    plain = Match(rules.PINEAPPLE, seed=4)
    plain.play([RandomBot(seed=1), RandomBot(seed=2)], 3)
    assert calls == [(i, deal_seed(4, i), True) for i in range(3)]
    assert m.totals == plain.totals and m.hands_played == 3


@pytest.mark.parametrize("hook", ["stop", "finish_deal"])
def test_match_play_refuses_hooks_that_are_not_callable(hook: str) -> None:
    """A ``stop`` or ``finish_deal`` that cannot be called is a GameError naming it,
    before any deal (as ``on_deal``)."""
    m = Match(rules.PINEAPPLE, seed=1)
    with pytest.raises(GameError, match=f"^{hook} must be callable"):
        m.play([RandomBot(seed=1), RandomBot(seed=2)], hands=2, **{hook: 5})
    assert m.hands_played == 0 and m._pending is None


@pytest.mark.skipif(not hasattr(signal, "setitimer"), reason="run on POSIX (setitimer)")
def test_a_ctrl_c_inside_record_books_the_deal_whole_or_not_at_all() -> None:
    """Regression: ``Match.record`` cleared the pending deal, then added each seat's
    points to the totals and statistics one by one, then moved the deal count and the
    button: a Ctrl-C (KeyboardInterrupt from a signal handler) landing in between left
    about one interrupted booking in ten half-made (totals that do not sum to 0, one
    seat's statistics a deal ahead, the deal gone and not counted, so the next deal
    was dealt again).  Here a timer raises KeyboardInterrupt into bookings until
    150 were cut; after each the deal is booked whole (its nets, taken from its result,
    in every total) or still pending, and booked again."""
    from interrupts import CutCalls, ctrl_c_timer, interrupted

    m = Match(rules.PINEAPPLE, 3, seed=7, keep_nets=True)
    bots = [RandomBot(seed=s) for s in range(3)]
    expected = [0, 0, 0]  # the booked deals' nets, per seat
    calls = CutCalls(150, cap=20_000)  # (about one booking in eight is cut)
    with ctrl_c_timer() as armed:
        for deals in calls:
            g = m.next_game()
            play_out(g, bots)
            net = g.result().net
            calls.cuts += interrupted(armed, m.record, g)
            if m.next_game() is g:  # not booked: book it now
                m.record(g)
            expected = [t + n for t, n in zip(expected, net)]
            books = [(x.deals, x.total, len(x.net)) for x in m.stats]
            assert m.hands_played == deals, calls
            assert m.totals == expected and books == [(deals, t, deals) for t in expected]
    assert calls.cuts == calls.target, calls  # the timer did land inside the bookings


@pytest.mark.parametrize("hands", [2**70, 2**64 + 1, np.uint64(2**64 - 1)])
def test_a_count_of_hands_past_the_64_bit_deal_index_is_refused(hands: Any) -> None:
    """Regression: ``Match.play(bots, hands=2**70)`` started a loop that could never
    end (deal indices are 64-bit); a count past the deals left is now GameError."""
    m = Match("pineapple", seed=1)
    m.hands_played = 2  # (as a saved match played on: two deals less are left)
    with pytest.raises(GameError, match=r"hands must be at most 18446744073709551614"):
        # (stop: a count taken would end at once, not run for ever)
        m.play([RandomBot(seed=1), RandomBot(seed=2)], hands=hands, stop=lambda: True)
    assert m.hands_played == 2 and m.play([RandomBot(1), RandomBot(2)], np.uint8(1))
    m.hands_played = SEED_MAX  # the last deal index: one deal is left, not two
    with pytest.raises(GameError, match=r"hands must be at most 1\b"):
        m.play([RandomBot(seed=1), RandomBot(seed=2)], hands=2, stop=lambda: True)
    m.play([RandomBot(seed=1), RandomBot(seed=2)], hands=1)
    assert m.hands_played == SEED_MAX + 1
    m.play([RandomBot(seed=1), RandomBot(seed=2)], hands=0)
    with pytest.raises(GameError, match=r"hands must be at most 0\b"):
        m.play([RandomBot(seed=1), RandomBot(seed=2)], hands=1, stop=lambda: True)
