"""Bots: always legal, seeded, and the heuristic bot is far better than random."""

from __future__ import annotations

import json
import random
from functools import partial
from typing import Any

import numpy as np
import pytest

from ofc_fast import Board, parse_cards, rules
from ofc_fast.bots import (
    BOTS,
    Bot,
    HeuristicBot,
    RandomBot,
    bot_names,
    make_bot,
    make_bots,
    register,
    unregister,
)
from ofc_fast.errors import BotError, CardError, OfcError, SearchError, UnknownBotError
from ofc_fast.game import Game, GameError, Match, Move, move_for_action, moves_for, play_out
from ofc_fast.rules.model import GameKind as Kind

PRESETS = [rules.get(n) for n in rules.names()]
IDS = [r.name for r in PRESETS]


@pytest.mark.parametrize("r", PRESETS, ids=IDS)
def test_bots_play_legal_moves_everywhere(r: rules.RuleSet) -> None:
    """Both bots finish deals of every preset, Fantasyland seats included, through
    play()'s validation, from JSON-round-tripped observations."""
    rng = random.Random(r.name)
    players = min(3, r.max_players)
    fl_options = (
        sorted({c for _, c in r.fantasyland.entry})
        if r.fantasyland is not None and r.game is not Kind.CLASSIC
        else []
    )
    for i in range(4):
        fl = [0] * players
        if fl_options and i % 2:
            fl[rng.randrange(players)] = rng.choice(fl_options)
        g = Game(r, players, seed=rng.getrandbits(30), fantasyland=tuple(fl))
        bots = [HeuristicBot(r, seed=i, samples=8, arrangements=4), RandomBot(i)]
        while not g.is_over:
            seat = g.to_act
            obs = json.loads(json.dumps(g.observation(seat)))
            g.play(bots[seat % 2].act(obs))
        assert sum(g.result().net) == 0


def test_random_bot_is_seeded() -> None:
    def run(seed: int) -> list:
        g = Game(rules.PINEAPPLE, 2, seed=5)
        play_out(g, [RandomBot(seed), RandomBot(seed + 1)])
        return [m.key() for m in g.moves]

    assert run(1) == run(1) and run(1) != run(3)


def _replayed(game: Game, rngs: list[random.Random]) -> dict[str, Any]:
    """The history of ``game``'s deal (its seed, button and seats) played again by
    ``rngs[seat].choice(legal_actions())`` at each decision: what RandomBot's
    docstring says it plays (the reference, independent of the bot)."""
    ref = Game(game.rules, game.players, seed=game.seed, button=game.button)
    while not ref.is_over:
        ref.play_action(rngs[ref.to_act].choice(ref.legal_actions()))
    return ref.history()


def test_random_bot_plays_the_choice_of_its_seeded_random() -> None:
    """RandomBot's moves are pinned, decision by decision, through play_out and
    Match.play (the loop of ofc-fast play): seat s's bot seeded n plays
    random.Random(n).choice(legal_actions()), its stream running on from deal to
    deal (so that skipping per-decision work changes no move)."""
    for preset, players in ((rules.PINEAPPLE, 2), (rules.OFC, 3), (rules.PINEAPPLE_27, 2)):
        for seed in (1, 7, 2**40 + 3):
            bots = [RandomBot(seed + s) for s in range(players)]
            rngs = [random.Random(seed + s) for s in range(players)]
            for deal in range(3):
                g = Game(preset, players, seed=seed * 10 + deal)
                play_out(g, bots)
                assert g.history() == _replayed(g, rngs), (preset.name, seed, deal)
    no_fl = rules.PINEAPPLE.replace(fantasyland=None)  # normal decisions only
    games: list[Game] = []
    Match(no_fl, 2, seed=9).play(
        [RandomBot(5), RandomBot(6)], 12, on_deal=lambda g, _r: games.append(g)
    )
    rngs = [random.Random(5), random.Random(6)]
    assert [g.history() for g in games] == [_replayed(g, rngs) for g in games]


def test_heuristic_bot_finds_its_value_model_without_reading_the_rules_again(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """Every HeuristicBot decision made the rule set's play key (a tuple of its 26
    fields, hashed) to find its cached value model, and checked its four settings
    anew: about 11 us a decision; the key is made once per rule set now."""
    from ofc_fast.bots import model

    made: list[object] = []
    real = model.play_key

    def counting(r: rules.RuleSet) -> tuple[object, ...]:
        made.append(r)
        return real(r)

    monkeypatch.setattr(model, "play_key", counting)
    table = rules.PINEAPPLE.replace(name="keyed-once")  # (plays as PINEAPPLE)
    g = Game(table, 2, seed=3)
    play_out(g, [HeuristicBot(table, seed=1, samples=4), HeuristicBot(table, seed=2)])
    assert g.is_over and g.decisions >= 10
    assert len(made) <= 1


def test_heuristic_bot_is_seeded() -> None:
    def run() -> list:
        g = Game(rules.PINEAPPLE, 2, seed=5)
        play_out(g, [HeuristicBot(seed=1, samples=8), HeuristicBot(seed=2, samples=8)])
        return [m.key() for m in g.moves]

    assert run() == run()


def test_heuristic_beats_random_and_rarely_fouls() -> None:
    """A short match (the full 2,000-deal figure is in the report and the README):
    the heuristic must win clearly and foul rarely."""
    m = Match(rules.PINEAPPLE, 2, seed=2024)
    m.play([HeuristicBot(rules.PINEAPPLE, seed=1), RandomBot(2)], hands=150)
    h, r = m.stats
    assert h.mean - h.ci95 > 3.0, (h.mean, h.ci95)
    assert h.fouls / h.deals < 0.2
    assert r.fouls / r.deals > 0.5
    assert h.royalties > 5 * max(r.royalties, 1)


def test_heuristic_takes_the_obvious_points() -> None:
    """Last card of an OFC deal: the bot completes the flush in the back rather than
    fouling or wasting it."""
    g = Game(rules.OFC, 2, seed=0)
    bot = HeuristicBot(rules.OFC, seed=0)
    obs = {
        "seat": 0,
        "players": 2,
        "button": 1,
        "rules": "OFC",
        "game": "ofc",
        "to_act": 0,
        "is_over": False,
        "street": 8,
        "fantasyland": [0, 0],
        "boards": [
            [
                parse_cards("Kh Kd 2c"),
                parse_cards("Ac Ad 7s 7d 3c"),
                parse_cards("Ah 9h 6h 4h"),
            ],
            [[], [], []],
        ],
        "face_down_counts": [[0, 0, 0], [0, 0, 0]],
        "discards": [],
        "discard_counts": [0, 0],
        "dealt": parse_cards("2h"),
        "to_discard": 0,
        "future_cards": 0,
        "future_discards": 0,
        "legal_actions": [2],
        "full_set": False,
        "face_down": False,
    }
    move = bot.act(obs)
    assert move.placements == ((parse_cards("2h")[0], 2),)
    del g


def test_heuristic_keeps_a_monster_for_the_back() -> None:
    """Opening with trips and two high cards: trips go in the back or middle, never the
    front next to an empty middle."""
    bot = HeuristicBot(rules.PINEAPPLE, seed=3)
    obs = Game(rules.PINEAPPLE, 2, seed=1).observation(1)
    obs["dealt"] = parse_cards("9c 9d 9h Ks 4d")
    obs["legal_actions"] = None  # every legal action of these dealt cards
    move = bot.act(obs)
    front = move.rows()[0]
    assert not set(parse_cards("9c 9d 9h")) <= set(front)


@pytest.mark.parametrize("n", [13, 14, 15, 16, 17])
def test_fantasyland_set_without_solver(n: int) -> None:
    """The fallback search sets 13 of n cards legally and does not foul a hand that
    obviously has a clean, rich setting."""
    cards = parse_cards("As Ks Qs Js Ts 9h 9d 9c 5h 5d Qh Qd 2c 3s 4s 6s 7s")[:n]
    r = rules.ULTIMATE_PINEAPPLE if n > 13 else rules.OFC
    g = Game(
        r,
        2,
        button=1,
        deck=cards + [c for c in range(52) if c not in cards],
        fantasyland=(n, 0),
    )
    bot = HeuristicBot(r, seed=0, use_solver=False)
    move = bot.act(g.observation(0))
    g.play(move)
    b = g.boards[0]
    assert b.is_complete and len(move.discards) == n - 13
    e = b.evaluate(r)
    assert not e.foul and sum(e.royalties) >= 25 + 12 + 7


def test_classic_bot_declares_a_natural() -> None:
    dragon = parse_cards("2c 3d 4h 5s 6c 7d 8h 9s Tc Jd Qh Ks Ac")
    deck = dragon + [c for c in range(52) if c not in dragon]
    g = Game(rules.SINGAPORE, 2, button=1, deck=deck)
    assert HeuristicBot(rules.SINGAPORE).act(g.observation(0)) == Move(declare="dragon")
    # without naturals in the rules it sets the hand
    g2 = Game(rules.CLASSIC_1_6, 2, button=1, deck=deck)
    m = HeuristicBot(rules.CLASSIC_1_6).act(g2.observation(0))
    assert len(m.placements) == 13 and not Board(*m.rows()).is_foul(rules.CLASSIC_1_6)


def test_classic_bot_surrenders_weak_hands() -> None:
    """Surrender when the hand's expected loss exceeds the cost (Hawaiian Gardens: 3 a
    player): two small pairs, no straight, no flush surrenders; a monster does not."""
    bad = parse_cards("2c 2d 3h 3s 4c 6d 7h 8s 9c Jd Qh Ks Ac")
    strong = parse_cards("As Ad Ac Kd Kh Qs Qd Jc Jh Ts 9s 8s 7s")
    r = rules.HAWAIIAN_GARDENS
    for bot in (HeuristicBot(r), HeuristicBot(r, classic_solver=False)):
        for cards, surrenders in ((bad, True), (strong, False)):
            deck = cards + [c for c in range(52) if c not in cards]
            g = Game(r, 2, button=1, deck=deck)
            assert bot.act(g.observation(0)).surrender is surrenders


def test_registry() -> None:
    assert set(BOTS) == {"random", "heuristic", "search", "value"}
    assert isinstance(make_bot("Random", seed=1), RandomBot)
    assert isinstance(make_bot("heuristic", rules.OFC), HeuristicBot)
    with pytest.raises(UnknownBotError):
        make_bot("genius")
    bots = make_bots("heuristic,random", 2, rules.OFC, seed=1)
    assert [type(b) for b in bots] == [HeuristicBot, RandomBot]
    assert len(make_bots("random", 3)) == 3
    with pytest.raises(BotError):
        make_bots(["random", "random"], 3)


def test_moves_for_is_enough_for_a_bot() -> None:
    """The ~10-line bot of the docs: the last legal move (everything to the back
    first) is always legal."""

    class BackFirst:
        def act(self, obs: dict) -> Move:
            if obs["full_set"]:
                return RandomBot(0).act(obs)
            rows = obs["boards"][obs["seat"]]
            return moves_for(obs["dealt"], rows, obs["to_discard"])[-1]

    g = Game(rules.PINEAPPLE, 3, seed=4)
    play_out(g, [BackFirst()] * 3)
    assert g.is_over


# ------------------------------------------------------------ registry and protocol


def test_unknown_bot_lists_known_names() -> None:
    with pytest.raises(UnknownBotError) as info:
        make_bot("genius")
    assert isinstance(info.value, OfcError)
    assert "'genius'" in str(info.value)
    for name in bot_names():
        assert name in str(info.value)
    with pytest.raises(UnknownBotError):
        make_bots("random,genius", 2)


@pytest.mark.parametrize(
    "name",
    [
        "x" * 5000,  # a registry name
        "nosuchmodule:" + "x" * 5000,  # a module:attribute spec
        "ofc_fast.bots:" + "x" * 5000,  # one whose attribute is missing
    ],
)
def test_a_long_bad_bot_name_is_quoted_short(name: str) -> None:
    """``make_bot("x" * 5000)`` (``ofc-fast play --bots <5,000 characters>``) put the
    whole name in its error, twice for a spec: the name is quoted short."""
    with pytest.raises(BotError) as info:
        make_bot(name)
    message = str(info.value)
    assert len(message) < 400 and "x" * 100 not in message, message


def test_bot_names_and_bad_names() -> None:
    assert bot_names() == ("heuristic", "random", "search", "value")
    for bad in ("", "  ", None, 3):
        with pytest.raises(BotError):
            make_bot(bad)  # type: ignore[arg-type]


def test_settings_round_trip() -> None:
    """A bot travels to a worker process as (name, settings) and is rebuilt equal."""
    bot = make_bot(
        "heuristic",
        rules.OFC,
        seed=4,
        samples=6,
        arrangements=3,
        optimism=0.25,
        row_weight=1.5,
    )
    settings = bot.settings()
    assert settings["samples"] == 6 and settings["optimism"] == 0.25
    assert settings["row_weight"] == 1.5 and "solver_tables" not in settings
    assert json.loads(json.dumps(settings)) == settings
    again = make_bot(bot.name, rules.OFC, 4, **settings)
    assert isinstance(again, HeuristicBot) and again.settings() == settings
    assert make_bot("heuristic").settings() == HeuristicBot().settings()
    rb = make_bot("random", seed=2)
    assert make_bot(rb.name, None, 2, **rb.settings()).settings() == {}


def test_bad_settings_are_bot_errors() -> None:
    with pytest.raises(BotError, match="samplez"):
        make_bot("heuristic", samplez=3)
    with pytest.raises(BotError):
        make_bot("random", samples=3)
    with pytest.raises(BotError):
        make_bots("random", 2, settings=[{}])
    for bad in ({"samples": 0}, {"arrangements": 0}, {"optimism": 1.5}):
        with pytest.raises(BotError):
            make_bot("heuristic", **bad)


def test_register_a_bot() -> None:
    class Last:
        name = "last"

        def __init__(
            self, rules: object = None, seed: object = None, *, back_first: bool = True
        ) -> None:
            self.back_first = back_first

        def act(self, obs: dict) -> Move:
            rows = obs["boards"][obs["seat"]]
            return moves_for(obs["dealt"], rows, obs["to_discard"])[-1]

    register("last", Last)
    try:
        assert "last" in bot_names()
        with pytest.raises(BotError, match="already registered"):
            register("Last", lambda rules=None, seed=None: RandomBot(seed))
        bots = make_bots("last,random", 2, rules.OFC, seed=3)
        assert isinstance(bots[0], Last) and isinstance(bots[0], Bot)
        g = Game(rules.OFC, 2, seed=1)
        play_out(g, bots)
        assert g.is_over
    finally:
        unregister("last")
    assert "last" not in bot_names()
    with pytest.raises(UnknownBotError):
        unregister("last")
    with pytest.raises(BotError):
        register("x", 42)  # type: ignore[arg-type]


def test_bots_satisfy_the_protocol() -> None:
    for name in bot_names():
        bot = make_bot(name, rules.PINEAPPLE, seed=1)
        assert isinstance(bot, Bot)
        assert bot.name == name
    assert not isinstance(object(), Bot)


def test_make_bots_seeds_derive_from_the_seed() -> None:
    def moves(seed: int) -> list:
        g = Game(rules.PINEAPPLE, 2, seed=9)
        play_out(g, make_bots("random", 2, seed=seed))
        return [m.key() for m in g.moves]

    assert moves(1) == moves(1) and moves(1) != moves(2)


# --------------------------------------------------------------------- determinism


@pytest.mark.parametrize(
    "preset", [rules.PINEAPPLE, rules.OFC, rules.PINEAPPLE_27], ids=lambda r: r.name
)
def test_same_seed_same_moves(preset: rules.RuleSet) -> None:
    """Same seed and same observations: the same moves (one-card OFC play takes the
    exhaustive path, Pineapple the sampled arrangements); reset() restarts."""

    def run(bots: list) -> list:
        g = Game(preset, 2, seed=11)
        play_out(g, bots)
        return [m.key() for m in g.moves]

    first = run(
        [HeuristicBot(preset, seed=5, samples=8), HeuristicBot(preset, seed=6, samples=8)]
    )
    assert first == run(
        [HeuristicBot(preset, seed=5, samples=8), HeuristicBot(preset, seed=6, samples=8)]
    )
    bots = [
        HeuristicBot(preset, seed=0, samples=8),
        HeuristicBot(preset, seed=0, samples=8),
    ]
    run(bots)
    bots[0].reset(5)
    bots[1].reset(6)
    assert run(bots) == first


@pytest.mark.parametrize(
    ("name", "settings"), [("search", {"samples": 8, "time_budget": None}), ("value", {})]
)
def test_reset_seed_rebuilds_by_name(name: str, settings: dict) -> None:
    """After ``reset(7)`` a search or value bot still showed the seed it was made
    with, so ``make_bot(bot.name, rules, bot.seed, **bot.settings())`` made another
    bot than the reset one: ``seed`` now follows the reset, and the rebuilt bot plays
    as a bot made with seed 7 does."""
    bot = make_bot(name, rules.PINEAPPLE, 1, **settings)
    bot.reset(7)
    assert bot.seed == 7
    again = make_bot(bot.name, rules.PINEAPPLE, bot.seed, **bot.settings())
    fresh = make_bot(name, rules.PINEAPPLE, 7, **settings)
    g = Game(rules.PINEAPPLE, 2, seed=5)
    while not g.is_over:
        obs = g.observation(g.to_act)
        move = fresh.act(obs)
        assert bot.act(obs) == move and again.act(obs) == move
        g.play(move)
    bot.reset(None)
    assert bot.seed is None


def test_heuristic_decisions_depend_on_the_seed() -> None:
    g = Game(rules.PINEAPPLE, 2, seed=2)
    obs = g.observation(g.to_act)
    moves = {
        HeuristicBot(rules.PINEAPPLE, seed=s, samples=2, arrangements=2).act(obs)
        for s in range(12)
    }
    assert len(moves) > 1  # few samples: the sampled futures change the choice


# ---------------------------------------------------------- bots read observations


def test_bots_never_touch_the_game(monkeypatch: pytest.MonkeyPatch) -> None:
    """Every Game and Match attribute raises while a bot acts: the bots work from the
    observation alone (boards, discards, Fantasyland sets, classic hands)."""
    games = []
    face_down = rules.OFC.replace(name="OFC_FD3", face_down_final=3)
    for preset in (rules.PINEAPPLE, face_down, rules.CLASSIC_1_6, rules.HAWAIIAN_GARDENS):
        fl = (
            (14, 0)
            if preset.fantasyland is not None and preset.game is not Kind.CLASSIC
            else (0, 0)
        )
        games.append((preset, Game(preset, 2, seed=7, fantasyland=fl)))

    def forbidden(self: object, name: str) -> object:
        raise AssertionError(f"a bot read {type(self).__name__}.{name}")

    for preset, g in games:
        bots = [HeuristicBot(preset, seed=1, samples=4, arrangements=3), RandomBot(2)]
        while not g.is_over:
            seat = g.to_act
            obs = g.observation(seat)
            with monkeypatch.context() as m:
                m.setattr(Game, "__getattribute__", forbidden)
                m.setattr(Match, "__getattribute__", forbidden)
                move = bots[seat].act(obs)
            g.play(move)


def test_move_depends_only_on_the_observation() -> None:
    """Two deals that differ only in cards the seat cannot see (the rest of the deck,
    the other seat's next cards) give the same observation and the same move."""
    deck = list(range(52))
    random.Random(3).shuffle(deck)
    g1 = Game(rules.PINEAPPLE, 2, button=1, deck=deck)
    other = deck[:5] + deck[5:10][::-1] + deck[10:][::-1]  # seat 1's cards and the
    g2 = Game(rules.PINEAPPLE, 2, button=1, deck=other)  # rest reordered
    o1, o2 = g1.observation(0), g2.observation(0)
    assert o1 == o2
    assert HeuristicBot(rules.PINEAPPLE, seed=4).act(o1) == HeuristicBot(
        rules.PINEAPPLE, seed=4
    ).act(o2)


def test_make_bot_numpy_seed_is_an_int_seed() -> None:
    """A NumPy int seed is the same seed as the plain int (random.Random refuses NumPy
    ints with a TypeError); a float or a bool seed is a BotError."""
    g = Game(rules.PINEAPPLE, seed=9)
    obs = g.observation(g.to_act)
    a = make_bot("random", rules.PINEAPPLE, seed=np.int64(7)).act(obs)
    assert a == make_bot("random", rules.PINEAPPLE, seed=7).act(obs)
    for bad in (1.5, True, "7"):
        with pytest.raises(BotError, match="seed"):
            make_bot("random", rules.PINEAPPLE, seed=bad)  # type: ignore[arg-type]
    two = make_bots("random", np.int64(2), seed=np.int64(7))
    assert [b.act(obs) for b in two] == [b.act(obs) for b in make_bots("random", 2, seed=7)]


@pytest.mark.parametrize(
    ("names", "players", "settings", "match"),
    [
        (["heuristic", None], 2, None, "bot names"),  # was silently two heuristic bots
        (["heuristic", 5], 2, None, "bot names"),
        (5, 2, None, "bot names"),
        ("random", 10**9, None, "players"),  # was a billion bots
        ("random", 0, None, "players"),
        ("random", -1, None, "players"),
        ("random", 2.0, None, "players"),
        ("random", True, None, "players"),
        ("random", 2, [5, 5], "settings"),
        ("random", 2, {"seed": 1}, "settings"),
    ],
)
def test_make_bots_bad_arguments(
    names: object, players: object, settings: object, match: str
) -> None:
    with pytest.raises(BotError, match=match):
        make_bots(names, players, settings=settings)  # type: ignore[arg-type]


def test_make_bots_names_0d_array_is_named() -> None:
    """A 0-d array is Iterable by type yet holds one value: it failed with NumPy's
    TypeError ("iteration over a 0-d array")."""
    with pytest.raises(BotError, match="expected text or a list of names"):
        make_bots(np.array("random"), 2)  # type: ignore[arg-type]


def test_make_bots_error_quotes_a_short_prefix_of_the_names() -> None:
    """README Guarantees: a message quotes at most a short prefix of the input (it
    listed all 100,001 names)."""
    with pytest.raises(BotError, match="100001") as info:
        make_bots(["random"] * 100_000 + ["heuristic"], 2)
    assert len(str(info.value)) < 200


_HEURISTIC_BAD = [
    ("samples", float("nan")),  # was ValueError from int()
    ("samples", float("inf")),  # was OverflowError
    ("samples", 10**12),  # was a MemoryError (10.9 TiB) at the first act()
    ("samples", 10**5000),  # was ValueError writing the message
    ("samples", 2.7),  # was silently 2
    ("samples", "24"),  # was silently 24
    ("samples", True),
    ("arrangements", 0),
    ("exhaustive", -1),
    ("foul_penalty", float("nan")),  # was accepted: NaN values for every move
    ("fl_value", float("inf")),
    ("fl_step", "3"),
    ("row_weight", 10**400),
    ("optimism", float("nan")),
    ("use_solver", "no"),  # was bool("no") = True
    ("classic_solver", 1),
]


@pytest.mark.parametrize(
    ("setting", "value"),
    _HEURISTIC_BAD,
    ids=[f"{s}-{i}" for i, (s, _) in enumerate(_HEURISTIC_BAD)],  # no str(10**5000)
)
def test_heuristic_bot_settings_are_checked(setting: str, value: object) -> None:
    """Every HeuristicBot setting of the wrong type or range is a BotError naming it,
    through the class and through make_bot."""
    with pytest.raises(BotError, match=setting):
        HeuristicBot(rules.PINEAPPLE, 1, **{setting: value})  # type: ignore[arg-type]
    with pytest.raises(BotError, match=setting):
        make_bot("heuristic", rules.PINEAPPLE, 1, **{setting: value})


@pytest.mark.parametrize(("setting", "top"), [("samples", 10_000), ("arrangements", 100)])
def test_heuristic_bot_samples_and_arrangements_are_bounded(setting: str, top: int) -> None:
    """``HeuristicBot(samples=1_000_000)`` was accepted (1..1,000,000) and took some
    17 s a Pineapple decision, with no time budget nor stop (the docs: "about 0.2 ms
    a Pineapple decision"); ``arrangements=1_000_000`` as long, and both large
    (``samples=100_000, arrangements=10_000``) asked 12 GB.  Each is bounded so that
    the boards a move is valued on (samples x arrangements) stay at most 1,000,000,
    about 2 s a decision: past its top a BotError names the setting and its range."""
    HeuristicBot(rules.PINEAPPLE, 1, **{setting: top})  # the top: accepted
    for value in (top + 1, 1_000_000):
        for make in (HeuristicBot, partial(make_bot, "heuristic")):
            with pytest.raises(
                BotError, match=rf"^heuristic bot: {setting} must be within 1\.\.{top:,}\b"
            ):
                make(rules.PINEAPPLE, 1, **{setting: value})


def test_heuristic_bot_numpy_settings() -> None:
    bot = HeuristicBot(
        rules.PINEAPPLE,
        1,
        samples=np.int64(8),
        optimism=np.float64(0.5),
        use_solver=np.True_,
    )
    assert bot.settings()["samples"] == 8 and type(bot.settings()["samples"]) is int
    assert HeuristicBot(rules.PINEAPPLE, 1, **bot.settings()).settings() == bot.settings()


def _malformed_observations() -> list[tuple[object, str]]:
    """(observation, a word the error must name): not a dict, empty, keys missing,
    fields of the wrong type."""
    game = Game(rules.PINEAPPLE, 2, seed=5)
    good = game.observation(game.to_act)
    without_dealt = {k: v for k, v in good.items() if k != "dealt"}
    return [
        (None, "observation dict"),
        (7, "observation dict"),
        ("As Kd", "observation dict"),
        ({}, "rules"),
        ({"x": 1}, "rules"),
        ({"rules": "pineapple"}, "players"),
        (without_dealt, "dealt"),
        ({**good, "dealt": None}, "dealt"),
        ({**good, "dealt": 5}, "dealt"),
        ({**good, "seat": "0", "legal_actions": None}, "seat"),
        ({**good, "to_discard": "x"}, "discard"),
        ({**good, "dealt": [-1, *good["dealt"][1:]]}, "-1"),
    ]


@pytest.mark.parametrize("name", bot_names())
def test_every_bot_names_a_malformed_observation(name: str) -> None:
    """A hand-built or damaged observation is a GameError (a CardError for a bad
    card) naming the field (the search bot's own search may be first: a
    SearchError) where it was a KeyError, TypeError, AttributeError or ValueError
    from deep inside act."""
    bot = make_bot(name, seed=1)
    for observation, word in _malformed_observations():
        with pytest.raises((GameError, SearchError, CardError), match=word):
            bot.act(observation)  # type: ignore[arg-type]


@pytest.mark.parametrize("name", bot_names())
def test_a_bot_s_repr_names_its_class_rules_and_settings(name: str) -> None:
    """Regression: ``repr(bot)`` of every built-in bot was Python's default,
    ``<ofc_fast.bots.heuristic.HeuristicBot object at 0x7f...>``: a log line or a test
    failure did not say which bot played, under which rules, with which settings.  It
    now names the class, the rules and each keyword setting, the same for a copy."""
    import copy
    import pickle

    bot = make_bot(name, rules.PINEAPPLE, seed=1)
    text = repr(bot)
    assert text.startswith(f"<{type(bot).__name__}") and "object at" not in text
    if getattr(bot, "rules", None) is not None:
        assert "rules=PINEAPPLE" in text
    for key, value in bot.settings().items():
        assert f"{key}={value!r}" in text
    assert repr(copy.copy(bot)) == repr(pickle.loads(pickle.dumps(bot))) == text


def test_a_bot_s_repr_never_raises_and_names_a_policy_bot_s_rules() -> None:
    """Regression: ``repr()`` of a half-made bot (``HeuristicBot.__new__``) raised
    AttributeError (a debugger or a log line failed with it), and a PolicyBot's repr
    left its rules out (held apart from ``rules``)."""
    from ofc_fast.bots import HeuristicBot
    from ofc_fast.bots.policy import PolicyBot

    assert repr(HeuristicBot.__new__(HeuristicBot)) == "<HeuristicBot>"
    bot = PolicyBot(lambda obs, mask: int(np.flatnonzero(mask)[0]), rules="pineapple")
    assert repr(bot).startswith("<PolicyBot rules=PINEAPPLE")


def test_random_bot_seeds_like_every_bot() -> None:
    """RandomBot took NumPy ints, lists and dicts to random.Random (a TypeError) and
    floats, text and bools silently: it takes the seeds every other bot takes (an
    int >= 0, NumPy's too, or None), else BotError naming the seed."""
    assert [RandomBot(seed=np.int64(3)).rng.random() for _ in range(2)] == [
        random.Random(3).random()
    ] * 2
    bot = RandomBot(seed=1)
    bot.reset(np.uint8(3))
    assert bot.rng.random() == random.Random(3).random()
    for bad in ([1], {}, 1.5, "x", True, -1):
        with pytest.raises(BotError, match="random bot: seed"):
            RandomBot(seed=bad)  # type: ignore[arg-type]
        with pytest.raises(BotError, match="random bot: seed"):
            bot.reset(bad)  # type: ignore[arg-type]
        with pytest.raises(BotError, match="seed"):
            make_bot("random", seed=bad)  # type: ignore[arg-type]


def test_bots_base_public_face_is_small() -> None:
    """ofc_fast.bots.base listed its private helpers (the built-in bots' error
    plumbing) in ``__all__``: its public face is the protocol, what a bot reads and
    the two readers README documents; the helpers stay importable from the module."""
    from ofc_fast.bots import base

    assert sorted(base.__all__) == ["Bot", "ObservationLike", "rules_of", "unseen_cards"]
    for helper in (
        "READ_ERRORS",
        "names_bad_observations",
        "observation_problem",
        "raise_bad_observation",
    ):
        assert hasattr(base, helper)


def test_bots_and_advise_raise_one_class_for_a_malformed_observation() -> None:
    """A malformed observation was a GameError from the bots and a SearchError from
    advise (a MoveError from the heuristic and random bots for a bad to_discard): both
    paths raise the documented ObservationError, a GameError and a SearchError, so the
    handlers written for either class still catch it."""
    from ofc_fast import advise
    from ofc_fast.errors import ObservationError

    game = Game(rules.PINEAPPLE, 2, seed=5)
    good = game.observation(game.to_act)
    bad: list[object] = [
        7,
        {"rules": "pineapple"},
        {k: v for k, v in good.items() if k != "dealt"},
        {**good, "to_discard": 7},
        {**good, "players": "x"},
        {**good, "face_down_counts": None},
        {**good, "future_cards": 3},  # fields that do not fit together
    ]
    assert issubclass(ObservationError, GameError) and issubclass(
        ObservationError, SearchError
    )
    for observation in bad:
        with pytest.raises(ObservationError):
            advise(observation, samples=4)  # type: ignore[arg-type]
        for name in bot_names():
            bot = make_bot(name, seed=1)
            try:
                bot.act(observation)  # type: ignore[arg-type]
            except OfcError as exc:
                assert type(exc) is ObservationError, (name, observation, exc)
    twice = {**good, "discards": [good["dealt"][0]]}  # a card shown twice
    with pytest.raises(CardError, match="twice"):
        advise(twice, samples=4)  # type: ignore[arg-type]
    for name in bot_names():
        try:
            make_bot(name, seed=1).act(twice)  # type: ignore[arg-type]
        except OfcError as exc:
            assert type(exc) is CardError, (name, exc)


@pytest.mark.parametrize("name", ["search", "value"])
def test_bad_fl_value_is_refused_when_the_bot_is_made(name: str) -> None:
    """SearchBot and ValueBot took fl_value="x" (or {14: "x"}, {12: 1}) when made
    without rules or with rules that deal no Fantasyland, and failed at the first
    act with a SearchError: the setting is a BotError naming fl_value when the bot
    is made, as every other setting; good values still make the bot."""
    for rules_ in (None, "classic_1_6", "pineapple"):
        for bad in ("x", {14: "x"}, {12: 1.0}, float("nan"), True):
            with pytest.raises(BotError, match="fl_value"):
                make_bot(name, rules_, 1, fl_value=bad)
        for good, kept in (
            (None, None),
            (5, 5.0),
            ({14: 12.0}, {14: 12.0}),
            ({"15": 3}, {15: 3.0}),
        ):
            assert make_bot(name, rules_, 1, fl_value=good).settings()["fl_value"] == kept


def test_every_bot_refuses_rules_that_are_no_rule_set() -> None:
    """make_bot("random", rules="pinapple") made a bot (RandomBot ignored its rules)
    while every other bot refused the typo: each built-in bot refuses a name (a
    RulesError) or a value that is no rule set, and takes a preset name or game id."""
    from ofc_fast.errors import RulesError

    for name in bot_names():
        with pytest.raises(RulesError, match="pinapple"):
            make_bot(name, "pinapple", 1)
        for bad in (5, ["pineapple"]):  # a RulesError or (search, value) a BotError
            with pytest.raises((RulesError, BotError), match="rules"):
                make_bot(name, bad, 1)  # type: ignore[arg-type]
        for good in ("pineapple", "ofc-pineapple", rules.OFC):
            make_bot(name, good, 1)


@pytest.mark.parametrize(
    "name, settings",
    [
        ("search", {"samples": np.int64(8), "time_budget": None}),
        ("search", {"fl_value": {np.int64(14): np.float32(3.0), "15": 2}, "samples": 4}),
        (
            "search",
            {"fl_value": np.float32(4.5), "opponent": np.float32(0.25), "samples": 4},
        ),
        ("value", {"fl_value": {np.int16(16): np.float64(7.0)}}),
        ("value", {"fl_value": np.float32(4.5)}),
    ],
)
def test_numpy_settings_stay_json_able(name: str, settings: dict[str, object]) -> None:
    """SearchBot and ValueBot kept NumPy settings as given (samples, fl_value and its
    keys, opponent), so ``settings()`` was no JSON (the registry's convention): they
    keep plain numbers, and the bot rebuilt from the JSON round trip has the same
    settings and plays the same moves."""
    if name == "search":
        settings = {**settings, "time_budget": None}
    bot = make_bot(name, rules.PINEAPPLE, 3, **settings)
    text = json.dumps(bot.settings())
    again = make_bot(name, rules.PINEAPPLE, 3, **json.loads(text))
    assert again.settings() == bot.settings()
    game = Game(rules.PINEAPPLE, 2, seed=4)
    obs = game.observation(game.to_act)
    if name == "search":  # reproducible: samples and no time budget
        assert again.settings()["samples"] in (4, 8)
    assert again.act(obs) == make_bot(name, rules.PINEAPPLE, 3, **settings).act(obs)


def test_make_bots_refuses_settings_that_are_no_keywords() -> None:
    """make_bots(..., settings=[{"seed": 3}, {}]) (or "rules", "name", a key that is
    no text) raised Python's TypeError "got multiple values for argument": a BotError
    naming the seat and the key; a seat's real settings still reach its bot."""
    for bad in ({"seed": 3}, {"rules": "ofc"}, {"name": "random"}, {1: 3}):
        with pytest.raises(BotError, match=r"settings\[1\]"):
            make_bots("heuristic", 2, settings=[{}, bad])
    bots = make_bots("heuristic", 2, seed=1, settings=[{"samples": 5}, {}])
    assert [b.settings()["samples"] for b in bots] == [5, 24]  # type: ignore[attr-defined]


def test_a_bad_carried_rule_set_is_named_by_every_bot() -> None:
    """A bot given an observation whose carried ``rule_set`` is no rule set raised
    "unknown rule key(s): scoring" (advise: "unknown rules 'PINEAPPLE'"), naming no
    field of the observation: every reader names ``rule_set``."""
    from ofc_fast import advise
    from ofc_fast.errors import RulesError

    game = Game(rules.PINEAPPLE, 2, seed=5)
    good = game.observation(game.to_act)
    for carried in ({"scoring": "x"}, [1], {"name": 5}):
        obs = {**good, "rule_set": carried}
        with pytest.raises(SearchError, match="observation: rule_set: "):
            advise(obs, samples=2)  # type: ignore[arg-type]
        for name in ("heuristic", "search", "value"):
            with pytest.raises(RulesError, match="observation: rule_set: "):
                make_bot(name, seed=1).act(obs)  # type: ignore[arg-type]


_DAMAGED_SEAT_OR_BOARDS = {
    "seat 'x'": {"seat": "x"},
    "seat None": {"seat": None},
    "seat 1.0": {"seat": 1.0},
    "seat 5": {"seat": 5},
    "boards None": {"boards": None},
    "boards []": {"boards": []},
    "boards of None": {"boards": [None, None]},
    "boards 'ab'": {"boards": "ab"},
}


@pytest.mark.parametrize("damage", _DAMAGED_SEAT_OR_BOARDS, ids=str)
def test_every_builtin_bot_refuses_a_damaged_seat_or_boards(damage: str) -> None:
    """RandomBot read only legal_actions, dealt and to_discard at a normal decision,
    so an observation whose seat or boards were damaged (``seat="x"``,
    ``boards=None``) got a move from it while HeuristicBot, SearchBot, ValueBot and
    advise refused it: every built-in bot now refuses it alike, an ObservationError
    naming the field."""
    from ofc_fast import advise
    from ofc_fast.errors import ObservationError

    game = Game(rules.PINEAPPLE, 2, seed=1)
    changes = _DAMAGED_SEAT_OR_BOARDS[damage]
    bad = {**game.observation(game.to_act), **changes}
    part = "seat" if "seat" in changes else "board"  # boards, or board 0
    with pytest.raises(ObservationError, match=f"^observation: {part}"):
        advise(bad, samples=4)  # type: ignore[arg-type]
    assert set(bot_names()) >= {"random", "heuristic", "search", "value"}
    for name in bot_names():
        bot = make_bot(name, seed=1, **({"samples": 4} if name == "search" else {}))
        with pytest.raises(ObservationError, match=f"^observation: {part}"):
            bot.act(bad)  # type: ignore[arg-type]


_SEAT_OUT_OF_RANGE = {  # damage -> the field the error names first
    "seat -1": ({"seat": -1}, "seat"),
    "seat = players": ({"seat": 2}, "seat"),
    "seat True": ({"seat": True}, "seat"),
    "players 7": ({"players": 7}, "players"),
    "players 0": ({"players": 0}, "players"),
    "players 1": ({"players": 1}, "players"),
    "players 3, 2 boards": ({"players": 3}, "boards"),
    "players 2, 3 boards": ({"boards": [[[], [], []]] * 3}, "boards"),
    "players 4, 4 boards, a 3-seat game": (
        {
            "players": 4,
            "boards": [[[], [], []]] * 4,
            "fantasyland": [0] * 4,
            "face_down_counts": [[0, 0, 0]] * 4,
        },
        "players",
    ),
}


def _builtin_bots() -> list[Any]:
    """Every built-in bot: the registry's and the policy bot."""
    from ofc_fast.bots.policy import PolicyBot

    made = [
        make_bot(name, seed=1, **({"samples": 4} if name == "search" else {}))
        for name in bot_names()
    ]
    return [*made, PolicyBot(lambda x, m: int(np.argmax(m)), "pineapple", 1)]


@pytest.mark.parametrize("damage", _SEAT_OUT_OF_RANGE, ids=str)
def test_every_builtin_bot_refuses_a_seat_out_of_range(damage: str) -> None:
    """A negative seat (Python reads ``boards[-1]``: another seat's board), a bool
    seat, a seat count no table has (``players=7``, ``0``) or one that does not fit
    the boards, or more seats than the rules allow (Pineapple seats 2 to 3), got a
    move from RandomBot, HeuristicBot and ValueBot while advise refused it: every
    built-in bot refuses it alike, an ObservationError naming the field."""
    from ofc_fast import advise
    from ofc_fast.errors import ObservationError

    game = Game(rules.PINEAPPLE, 2, seed=1)
    good = game.observation(game.to_act)
    changes, field = _SEAT_OUT_OF_RANGE[damage]
    bad = {**good, **changes}
    # the independent reference: the seat must index the table's boards, the table
    # must be one the rules seat
    seat, players = bad["seat"], bad["players"]
    assert (
        type(seat) is not int
        or not 0 <= seat < players
        or not 2 <= players <= rules.PINEAPPLE.max_players
        or len(bad["boards"]) != players
    )
    with pytest.raises(ObservationError, match=f"^observation: {field} must"):
        advise(bad, samples=4)  # type: ignore[arg-type]
    assert set(bot_names()) >= {"random", "heuristic", "search", "value"}
    for bot in _builtin_bots():
        if changes.get("players") == 4 and isinstance(bot, RandomBot):
            continue  # it reads no rules (at most MAX_SEATS seats: 4 pass)
        with pytest.raises(ObservationError, match=f"^observation: {field} must"):
            bot.act(bad)
        game.copy().play(bot.act(good))  # the well-formed one: a legal move


def test_unseen_cards_names_a_malformed_observation() -> None:
    """unseen_cards (public, for bot authors) raised KeyError, TypeError or "negative
    shift count" for a malformed observation and ignored a card id above 51 (all 52
    cards unseen): the OfcError naming the problem, as the bots raise."""
    from ofc_fast.bots import unseen_cards
    from ofc_fast.errors import ObservationError

    game = Game(rules.PINEAPPLE, 2, seed=5)
    good = game.observation(game.to_act)
    assert len(unseen_cards(good)) == 47
    for bad, error, word in (
        ({**good, "dealt": [60]}, CardError, "60"),
        ({**good, "dealt": [-1]}, CardError, "-1"),
        ({**good, "dealt": ["x"]}, CardError, "dealt"),
        ({k: v for k, v in good.items() if k != "boards"}, ObservationError, "boards"),
        ({**good, "boards": None}, ObservationError, "boards"),
        (5, ObservationError, "observation dict"),
    ):
        with pytest.raises(error, match=word):
            unseen_cards(bad)  # type: ignore[arg-type]


def test_fuzz_unseen_cards_of_numpy_card_ids_are_the_cards_not_seen() -> None:
    """Found by tests/fuzz/fuzz_bots.py: card ids given as NumPy uint8 scalars (read
    from an array) were shifted as uint8, so unseen_cards lost them (51 cards unseen
    of a first deal, not 47) or raised OverflowError, and the heuristic bot's act
    with it; they count as the plain ints they are."""
    from ofc_fast.bots import unseen_cards

    game = Game(rules.PINEAPPLE, 2, seed=5)
    obs = game.observation(game.to_act)
    seen = {c for board in obs["boards"] for row in board for c in row}
    seen |= set(obs["dealt"]) | set(obs["discards"])
    expected = [c for c in range(52) if c not in seen]  # the reference
    for dtype in (np.uint8, np.int64, np.uint64):
        odd = {**obs, "dealt": [dtype(c) for c in obs["dealt"]]}
        assert list(unseen_cards(odd)) == expected
        move = make_bot("heuristic", rules.PINEAPPLE, seed=1, samples=4).act(odd)
        game.copy().play(move)  # a legal move


def test_fuzz_legal_actions_as_a_numpy_array_are_read_as_its_list() -> None:
    """Found by tests/fuzz/fuzz_bots.py in CI: ``legal_actions`` given as a NumPy
    array of several ids made the heuristic bot's act raise NumPy's ValueError ("truth
    value of an array ... is ambiguous"); it is read as the list it holds, and an
    empty array is the ObservationError naming ``legal_actions``."""
    game = Game(rules.PINEAPPLE, 2, seed=5)
    obs = game.observation(game.to_act)
    legal = sorted(game.legal_actions())[:3]
    bot = make_bot("heuristic", rules.PINEAPPLE, seed=1, samples=4)
    want = bot.act({**obs, "legal_actions": legal})
    bot = make_bot("heuristic", rules.PINEAPPLE, seed=1, samples=4)
    assert bot.act({**obs, "legal_actions": np.array(legal, np.int64)}) == want
    with pytest.raises(OfcError, match="legal_actions"):
        bot.act({**obs, "legal_actions": np.array([], np.int64)})


def test_fuzz_a_huge_int_given_as_rules_is_a_rules_error() -> None:
    """Found by tests/fuzz/fuzz_bots.py in CI: an int of more than 4,300 digits given
    as a bot's rules raised Python's ValueError while the message wrote it out."""
    with pytest.raises(OfcError, match="rules must be a RuleSet"):
        make_bot("search", 10**5000)  # type: ignore[arg-type]


def test_fuzz_deeply_nested_fantasyland_count_is_an_ofc_error() -> None:
    """Found by tests/fuzz/fuzz_bots.py: a seat's Fantasyland count given as a list
    nested 3,000 deep made the heuristic bot's act (and HeuristicModel.values) raise
    RecursionError while writing the error message; it is an OfcError."""
    deep: list[Any] = []
    for _ in range(3000):
        deep = [deep]
    game = Game(rules.PINEAPPLE, 2, seed=5)
    obs = game.observation(game.to_act)
    fl = list(obs["fantasyland"])
    fl[obs["seat"]] = deep
    with pytest.raises(OfcError):
        make_bot("heuristic", rules.PINEAPPLE, seed=1, samples=4).act(
            {**obs, "fantasyland": fl}
        )
    from ofc_fast.bots.model import value_model

    model = value_model(rules.PINEAPPLE)
    board = np.array([Board.parse("Qh Qd 2c / 9s 9h 9d 5c 5d / As Ks Qs Js Ts").cards])
    with pytest.raises(CardError, match="in_fl"):
        model.values(board.astype(np.uint8), deep)  # type: ignore[arg-type]


@pytest.mark.parametrize("name", ["heuristic", "random", "search", "value"])
@pytest.mark.parametrize("value", [float("inf"), float("nan"), 1e300])
def test_fuzz_a_count_no_int_holds_is_an_observation_error(name: str, value: float) -> None:
    """Found by tests/fuzz/fuzz_bots.py: ``to_discard`` infinite made the value bot's
    act raise OverflowError (``int(inf)``); every built-in bot raises the
    ObservationError naming the field."""
    from ofc_fast.errors import ObservationError

    game = Game(rules.PINEAPPLE, 2, seed=5)
    obs = {**game.observation(game.to_act), "to_discard": value}
    bot = make_bot(name, rules.PINEAPPLE, seed=1)
    with pytest.raises(ObservationError, match="to_discard"):
        bot.act(obs)


def test_a_bots_model_file_is_refused_alike_when_made_and_when_used(tmp_path) -> None:
    """SearchBot and ValueBot refuse a model file that is missing when they are made,
    and a file deleted since or of other rules at a decision, with one class, a
    BotModelError (a BotError and a ModelError) naming the path or the rules.  A
    missing path was accepted; every act then raised ModelError from SearchBot but
    BotError from ValueBot."""
    import shutil

    from ofc_fast.errors import BotModelError, ModelError
    from ofc_fast.learned import MODEL_DIR

    game = Game(rules.PINEAPPLE, 2, seed=1)
    obs = game.observation(game.to_act)
    missing = tmp_path / "nope.ofcvm"
    mine = tmp_path / "mine.ofcvm"
    other = tmp_path / "ofc.ofcvm"
    shutil.copy(MODEL_DIR / "ofc-2p.ofcvm", other)
    for name in ("search", "value"):
        kw = {"samples": 4} if name == "search" else {}
        with pytest.raises(BotModelError, match=f"{name} bot: .*nope.ofcvm.*cannot read"):
            make_bot(name, seed=1, model=str(missing))
        shutil.copy(MODEL_DIR / "pineapple-2p.ofcvm", mine)
        bot = make_bot(name, seed=1, model=str(mine), **kw)
        mine.unlink()
        with pytest.raises(BotModelError, match=f"{name} bot: .*mine.ofcvm.*cannot read"):
            bot.act(obs)
        bot = make_bot(name, seed=1, model=str(other), **kw)
        with pytest.raises(BotModelError, match="other rules than PINEAPPLE") as info:
            bot.act(obs)
        assert isinstance(info.value, BotError) and isinstance(info.value, ModelError)


@pytest.mark.parametrize(
    ("name", "key"), [("heuristic", "use_solver"), ("search", "prune")]
)
def test_every_bot_reads_its_flags_alike(name: str, key: str) -> None:
    """A flag setting is True or False, NumPy's too (a config read through NumPy),
    kept as a plain bool (settings() stays JSON-able); 1 or text is a BotError naming
    the setting.  SearchBot refused np.bool_(True) for prune, which HeuristicBot took
    for its flags."""
    for value in (np.bool_(True), np.bool_(False)):
        got = make_bot(name, seed=1, **{key: value}).settings()[key]
        assert type(got) is bool and got == bool(value)
        json.dumps(make_bot(name, seed=1, **{key: value}).settings())
    for bad in (1, "yes", None, np.array([True])):
        with pytest.raises(BotError, match=f"{name} bot: {key} must be True or False"):
            make_bot(name, seed=1, **{key: bad})


@pytest.mark.parametrize("name", ["heuristic", "random", "search", "value"])
def test_every_bot_refuses_rules_that_are_no_rule_set_with_a_rules_error(name: str) -> None:
    """Rules that are no RuleSet, preset name or game id are a RulesError naming the
    bot, from every registry bot (RandomBot's documented "as every bot's").
    SearchBot and ValueBot raised BotError for a non-text value such as 5, and
    RulesError for an unknown name."""
    from ofc_fast.errors import RulesError

    for bad in (5, 2.5, b"pineapple", ["pineapple"]):
        with pytest.raises(RulesError, match=f"{name} bot: rules must be a RuleSet"):
            make_bot(name, bad, 1)  # type: ignore[arg-type]
    with pytest.raises(RulesError, match="unknown rule set 'pinapple'"):
        make_bot(name, "pinapple", 1)


def test_make_bots_refuses_an_empty_name_naming_its_seat() -> None:
    """An empty or blank bot name is a BotError naming its seat, not dropped: the
    list ["heuristic", ""] (or the text "heuristic,") seated a heuristic bot at
    every seat, as though one name had been given for all."""
    for names, seat in (
        (["heuristic", ""], 1),
        ("heuristic,", 1),
        (["  ", "random"], 0),
        (",random", 0),
        ("", 0),
    ):
        with pytest.raises(BotError, match=f"seat {seat} is empty"):
            make_bots(names, 2)
    assert [b.name for b in make_bots(" heuristic , random ", 2, seed=1)] == [
        "heuristic",
        "random",
    ]


def test_random_bot_given_rules_as_its_seed_says_so() -> None:
    """RandomBot takes (seed, rules), the other bots (rules, seed): rules where the
    seed goes are a BotError that says so and how to pass them (it said only that
    'pineapple' was a bad seed); other text is still a bad seed, and RandomBot(2)
    and rules=... work."""
    for given in ("pineapple", "ofc-pineapple", rules.OFC):
        with pytest.raises(BotError, match=r"RandomBot\(seed, rules\): got rules .*rules="):
            RandomBot(given)  # type: ignore[arg-type]
    with pytest.raises(BotError, match=r"seed: must be 0\.\.2\*\*64-1, got 'x'"):
        RandomBot("x")  # type: ignore[arg-type]
    assert RandomBot(2).rng.random() == RandomBot(2, rules="pineapple").rng.random()


def test_search_bot_names_a_bad_deadline_as_a_malformed_observation() -> None:
    """An observation's deadline that is no number is a malformed observation: an
    ObservationError naming the field, as every other bad field of an observation
    (errors.ObservationError: the bots raise it alike).  It was a BotError, the
    class of a bot that cannot be made."""
    from ofc_fast.bots import SearchBot
    from ofc_fast.errors import ObservationError

    game = Game(rules.PINEAPPLE, 2, seed=1)
    obs = game.observation(game.to_act)
    bot = SearchBot(seed=1, samples=2)
    for bad in ("soon", float("nan"), [1], True):
        with pytest.raises(ObservationError, match="observation: deadline must be"):
            bot.act({**obs, "deadline": bad})
    assert isinstance(bot.act({**obs, "deadline": None}), Move)


def test_search_bot_plays_its_samples_under_a_far_deadline() -> None:
    """A bot of samples and no time budget, given a deadline further away than
    advise's largest time_budget (1e6 s), plays its samples: the same move as with
    no deadline.  It raised a SearchError about a time_budget the bot was not given
    (the deadline's 80% share passed on as the budget, uncapped)."""
    import time

    from ofc_fast.bots import SearchBot

    game = Game(rules.PINEAPPLE, 2, seed=1)
    obs = game.observation(game.to_act)
    plain = SearchBot(seed=4, samples=16, time_budget=None, model=None).act(obs)
    for ahead in (2e6, 1e12):
        bot = SearchBot(seed=4, samples=16, time_budget=None, model=None)
        assert bot.act({**obs, "deadline": time.monotonic() + ahead}) == plain


@pytest.mark.parametrize("name", ["heuristic", "search", "value"])
def test_a_seed_given_first_to_a_rules_first_bot_says_so(name: str) -> None:
    """HeuristicBot, SearchBot and ValueBot take (rules, seed), RandomBot (seed,
    rules): an int where the rules go (``HeuristicBot(2)``, as ``RandomBot(2)``) is
    the RulesError of bad rules, and says that the seed comes second (it said only
    that 2 is no rule set)."""
    from ofc_fast.bots import SearchBot, ValueBot
    from ofc_fast.errors import RulesError

    cls = {"heuristic": HeuristicBot, "search": SearchBot, "value": ValueBot}[name]
    for seed in (2, np.int64(2)):
        with pytest.raises(RulesError, match=r"got .*2.*seed comes second.*seed=2\)"):
            cls(seed)  # type: ignore[arg-type]
    assert cls(seed=2).settings() == cls(None, 2).settings()


def test_value_bot_refuses_model_none_when_it_is_made() -> None:
    """ValueBot(model=None) (no model; SearchBot's rollout-only setting) is a
    BotError when the bot is made.  It was accepted, and every decision then said
    "no value model ships for PINEAPPLE with 2 players", where one ships."""
    from ofc_fast.bots import ValueBot

    with pytest.raises(BotError, match="value bot: model=None is no model"):
        ValueBot(model=None)
    with pytest.raises(BotError, match="model=None is no model"):
        make_bot("value", seed=1, model=None)


def test_value_bot_refuses_rules_no_model_ships_for_when_it_is_made() -> None:
    """``ofc-fast play --rules pineapple-27 --bots value`` failed at the first
    decision ("... pass model="): a value bot with ``model="auto"`` under rules no
    model ships for (at any seat count) is a BotError when it is made, saying what to
    do; a model file for them, or rules a model ships for, are accepted."""
    from ofc_fast.bots import ValueBot

    for make in (
        lambda: ValueBot(rules.PINEAPPLE_27),
        lambda: make_bot("value", "pineapple-27", seed=1),
        lambda: make_bots("heuristic,value", 2, rules.PINEAPPLE_27),
    ):
        with pytest.raises(BotError, match=r"no value model ships for PINEAPPLE_27; play"):
            make()
    assert ValueBot(rules.PINEAPPLE).settings()["model"] == "auto"
    assert ValueBot(rules.OFC).rules == rules.OFC  # (no model for 4 players: at a decision)
    assert ValueBot(None).rules is None  # the rules: the observation's, at a decision


def test_register_refuses_a_name_make_bot_cannot_reach() -> None:
    """A name make_bot reads as a spec ('module:attribute', 'policy:PATH') or that
    make_bots splits (a comma) is a BotError when registered.  It was registered,
    and make_bot('my:bot') then tried to import 'my', make_bots('a,b', 2) looked for
    'a'."""

    def factory(rules: object = None, seed: object = None) -> RandomBot:
        return RandomBot(seed)  # type: ignore[arg-type]

    for name in ("my:bot", "policy:x.npz", "a,b"):
        with pytest.raises(BotError, match="register"):
            register(name, factory)
        assert name not in bot_names()
    register("cmd:python bot.py", factory)  # no spec: make_bot reaches it
    try:
        assert make_bot("cmd:python bot.py", seed=1).name == "random"
    finally:
        unregister("cmd:python bot.py")


@pytest.mark.parametrize("seed", [-1, 1.5, "7", True])
def test_make_bots_refuses_the_seeds_make_bot_refuses(seed: object) -> None:
    """``make_bot(name, seed=-1)`` is a BotError, but ``make_bots(name, 2, seed=-1)``
    seated bots from it (its seed only seeds the seats' seeds): one rule for a bot
    seed, an int 0..2**64-1 or None, on both paths."""
    with pytest.raises(BotError, match=r"seed: must be 0\.\.2\*\*64-1"):
        make_bot("heuristic", seed=seed)  # type: ignore[arg-type]
    with pytest.raises(BotError, match=r"make_bots: seed: must be 0\.\.2\*\*64-1"):
        make_bots("heuristic", 2, seed=seed)  # type: ignore[arg-type]


def test_a_bot_names_a_missing_rules_field_as_the_search_names_a_missing_field() -> None:
    """A bot's own refusal of an observation without ``"rules"`` was worded
    ``observation: missing field(s) rules``, which the search's ``position_part``
    cannot read, so ``ofc-fast serve`` could not name ``observation.rules``."""
    from ofc_fast.bots.base import observation_problem
    from ofc_fast.search import position_part

    error = observation_problem({"x": 1})
    assert error is not None
    part = position_part(str(error))
    assert part is not None and part.path == "rules", str(error)
    assert "missing field(s) rules" in str(error)


@pytest.mark.parametrize("name", ["random", "value", "search", "policy", "heuristic"])
def test_bots_refuse_empty_legal_actions_naming_them(name: str) -> None:
    """``"legal_actions": []`` (a decision has at least one action) was read as every
    legal action by the random, value and policy bots (the policy bot played its
    fallback's move), while the search refused it: every bot that reads legal_actions
    refuses it alike, an ObservationError naming ``legal_actions``; left out or None
    it still means every legal action."""
    from ofc_fast.bots.policy import PolicyBot
    from ofc_fast.errors import ObservationError

    if name == "policy":
        bot: Bot = PolicyBot(lambda x, m: int(np.argmax(m)), "pineapple", 1)
    else:
        bot = make_bot(name, seed=1, **({"samples": 4} if name == "search" else {}))
    game = Game(rules.PINEAPPLE, 2, seed=5)
    obs = game.observation(game.to_act)
    with pytest.raises(ObservationError, match=r"^observation: legal_actions must hold"):
        bot.act({**obs, "legal_actions": []})
    for given in ({**obs, "legal_actions": None}, obs):
        game.copy().play(bot.act(given))  # a legal move


def test_heuristic_bot_plays_one_of_the_given_legal_actions() -> None:
    """HeuristicBot never read ``legal_actions``: given ``[4]`` it played its own
    choice.  It plays one of the given actions (the only one, or the better of two),
    and refuses an action of no legal move or one given twice, naming it."""
    from ofc_fast.errors import ObservationError

    game = Game(rules.PINEAPPLE, 3, seed=1)
    obs = game.observation(game.to_act)
    rows, dealt, k = obs["boards"][obs["seat"]], obs["dealt"], obs["to_discard"]
    bot = HeuristicBot(rules.PINEAPPLE, seed=1, samples=4)
    assert bot.act({**obs, "legal_actions": [4]}) == move_for_action(4, dealt, rows, k)
    two = {move_for_action(a, dealt, rows, k) for a in (4, 50)}
    assert bot.act({**obs, "legal_actions": [50, 4]}) in two
    for bad, item in (([4, 4], "legal_actions\\[1\\] holds 4, again"), ([999], "999")):
        with pytest.raises(ObservationError, match=item):
            bot.act({**obs, "legal_actions": bad})
    later = game.copy()
    while later.observation(later.to_act)["street"] < 2:  # a decision with discards
        later.play(later.legal_moves()[0])
    obs = later.observation(later.to_act)
    rows, dealt, k = obs["boards"][obs["seat"]], obs["dealt"], obs["to_discard"]
    last = obs["legal_actions"][-1]
    assert bot.act({**obs, "legal_actions": [last]}) == move_for_action(
        last, dealt, rows, k
    )


def test_make_bots_refuses_a_bot_that_cannot_play_at_the_table() -> None:
    """make_bots("value", 4, "ofc") made four value bots that raised only at the
    first decision (no model ships for OFC at 4 seats): making them raises the
    BotError naming the bot, the rules and the seat count.  A bot's own optional
    ``check_players(players)`` is how any bot says so."""
    from ofc_fast.bots import ValueBot

    with pytest.raises(BotError, match=r"value bot: .*OFC with 4 players"):
        make_bots("value", 4, "ofc", seed=1)
    with pytest.raises(BotError, match=r"value bot: .*OFC with 4 players"):
        make_bots("random,random,random,value", 4, "ofc", seed=1)
    assert [type(b) for b in make_bots("value", 2, "ofc", seed=1)] == [ValueBot] * 2

    seen: list[int] = []

    class TwoSeats(RandomBot):
        def check_players(self, players: int) -> None:
            seen.append(players)
            if players != 2:
                raise BotError(f"two-seat bot: no table of {players} players")

    register("two-seats", TwoSeats)
    try:
        with pytest.raises(BotError, match="no table of 3 players"):
            make_bots("two-seats", 3, seed=1)
        assert len(make_bots("two-seats", 2, seed=1)) == 2
    finally:
        unregister("two-seats")
    assert seen == [3, 2, 2]  # every bot made is checked (the first fails)


@pytest.mark.parametrize("name", ["value", "search"])
def test_make_bots_refuses_a_model_file_of_another_seat_count(name: str) -> None:
    """A value or search bot given the 2-seat Pineapple model file was made for 3
    seats and raised only at its first decision: make_bots raises the
    BotModelError naming the bot and both seat counts; at 2 seats it plays."""
    from pathlib import Path

    import ofc_fast  # (the package under test: a checkout's, or an installed wheel's)
    from ofc_fast.errors import BotModelError

    two = str(Path(ofc_fast.__file__).parent / "learned/models/pineapple-2p.ofcvm")
    kw: dict[str, object] = {"model": two}
    if name == "search":  # (reproducible, and quick)
        kw.update(samples=4, time_budget=None)
    with pytest.raises(BotModelError, match=f"{name} bot: .*for 2 players, not 3"):
        make_bots(name, 3, "pineapple", seed=1, settings=[kw] * 3)
    bots = make_bots(name, 2, "pineapple", seed=1, settings=[kw] * 2)
    assert len(play_out(Game(rules.PINEAPPLE, 2, seed=1), bots).net) == 2


def test_make_bot_names_a_factory_that_takes_no_rules_or_seed() -> None:
    """A factory registered without the ``rules=`` and ``seed=`` keywords every
    factory is called with made ``make_bot("coin")`` say "bad settings []", though
    no setting was given: the BotError says what the factory lacks."""
    register("coin", lambda: RandomBot(seed=1))
    try:
        with pytest.raises(BotError, match=r"bot 'coin': its factory takes no rules="):
            make_bot("coin")
        with pytest.raises(BotError, match=r"bot 'coin': its factory takes no rules="):
            make_bot("coin", samples=3)
    finally:
        unregister("coin")
    with pytest.raises(BotError, match=r"bad settings \['depth'\]"):
        make_bot("random", depth=2)  # a factory that takes them: its settings named


@pytest.mark.parametrize("name", ["random", "heuristic", "search", "value", "policy"])
@pytest.mark.parametrize("table", ["pineapple", "ofc"])
def test_every_bot_says_a_seat_not_to_act_has_nothing_to_play(
    name: str, table: str
) -> None:
    """The observation of a seat that is not to act (no cards dealt to it): the
    random and policy bots said "a normal decision deals 1 to 5 cards, got 0", the
    others "seat N has nothing to play": one check, one message, from every bot."""
    from ofc_fast.bots.policy import PolicyBot

    if name == "policy":
        bot: Bot = PolicyBot(lambda x, m: int(np.argmax(m)), table, 1)
    else:
        bot = make_bot(name, table, seed=1, **({"samples": 4} if name == "search" else {}))
    game = Game(table, 2, seed=5)
    idle = 1 - game.to_act
    obs = game.observation(idle)
    assert obs["dealt"] == []  # (the reference: that seat is dealt nothing)
    with pytest.raises(GameError, match=rf"^seat {idle} has nothing to play$"):
        bot.act(obs)


def _moves_of(bot: Bot, seed: int) -> list[Move]:
    """The moves ``bot`` plays in every seat of one heads-up deal of ``seed``."""
    game = Game(rules.PINEAPPLE, 2, seed=seed)
    moves = []
    while not game.is_over:
        move = bot.act(game.observation(game.to_act))
        moves.append(move)
        game.play(move)
    return moves


@pytest.mark.parametrize("name", ["random", "heuristic", "search", "value", "policy"])
def test_a_shallow_copy_of_a_bot_is_a_separate_bot(name: str) -> None:
    """``copy.copy(RandomBot(seed=5))`` (the heuristic and search bots' too) shared
    the original's random stream: the copy's decisions changed the original's later
    moves, while deepcopy, pickling and Game/Match copies are separate.  A copy now
    plays as the original would, and the original as a fresh bot of its seed."""
    import copy

    from ofc_fast.bots.policy import PolicyBot

    def made() -> Bot:
        if name == "policy":
            return PolicyBot(lambda x, m: int(np.argmax(m)), "pineapple", 5)
        return make_bot(
            name, "pineapple", seed=5, **({"samples": 4} if name == "search" else {})
        )

    fresh = made()  # the reference: a bot of the seed, alone, deal 1 then deal 2
    want_first, want_then = _moves_of(fresh, 1), _moves_of(fresh, 2)
    bot = made()
    twin = copy.copy(bot)
    assert _moves_of(twin, 1) == want_first  # the copy: the original's moves
    assert _moves_of(bot, 1) == want_first  # the original: untouched by the copy's
    assert _moves_of(twin, 2) == _moves_of(bot, 2) == want_then


@pytest.mark.parametrize("seed", [2**64, 2**70, -1, True, np.uint64(7) + 0.5])
def test_every_bot_refuses_the_seeds_the_cli_refuses(seed: object) -> None:
    """``SearchBot(seed=2**64)`` (and every other bot's constructor, ``reset`` and
    ``make_bot``) was accepted while ``ofc-fast bot search --seed 18446744073709551616``
    and ``advise(seed=2**64)`` refused it: a seed is an int 0..2**64-1 everywhere, one
    wording, each caller's error class (a bot's BotError, the search's SearchError)."""
    from ofc_fast.bots import SearchBot, ValueBot
    from ofc_fast.bots.policy import PolicyBot
    from ofc_fast.search import advise

    def first(x: object, mask: object) -> int:
        return 0

    makers = {
        "random bot": lambda s: RandomBot(seed=s),
        "heuristic bot": lambda s: HeuristicBot(seed=s),
        "search bot": lambda s: SearchBot(seed=s, model=None),
        "value bot": lambda s: ValueBot(seed=s),
        "policy bot": lambda s: PolicyBot(first, seed=s),
        "make_bot": lambda s: make_bot("search", seed=s),
        "make_bots": lambda s: make_bots("random", 2, seed=s),
    }
    said = f"seed: must be 0..2**64-1, got {seed!r}"
    for who, make in makers.items():
        with pytest.raises(BotError) as caught:
            make(seed)
        assert str(caught.value) == f"{who}: {said}", who
        assert make(2**64 - 1) is not None  # the largest seed: taken
    with pytest.raises(BotError) as caught:
        RandomBot(seed=1).reset(seed)  # type: ignore[arg-type]
    assert str(caught.value) == f"random bot: {said}"
    game = Game("pineapple", seed=1)
    with pytest.raises(SearchError) as searched:
        advise(game, samples=1, seed=seed)  # type: ignore[arg-type]
    assert str(searched.value) == said
