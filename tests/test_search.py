"""Search (csrc/include/ofc_search.h, ofc_fast.search, SearchBot) against brute force written
here: best completions over every discard and row choice, exact advice on the last
street and an expectimax over the last two Pineapple streets, both over every draw;
the sampled values' 95% intervals; reproducibility; errors.

The brute force scores boards with the independent references (reference_scoring,
reference_fantasyland); only the row term of a completion's objective reads the
solver's expected-units table (data, not the code under test)."""

from __future__ import annotations

import json
import random
from collections.abc import Iterator, Sequence
from functools import lru_cache
from itertools import combinations, product
from typing import Any

import numpy as np
import pytest
import reference_fantasyland as reference_fl
import reference_scoring as rs
from reference import card_ids

import ofc_fast as ofc
from ofc_fast import rules
from ofc_fast._native import ffi
from ofc_fast.bots import RandomBot, SearchBot, make_bot
from ofc_fast.cli import main
from ofc_fast.errors import BotError, CardError, SearchError
from ofc_fast.game import Game, play_out
from ofc_fast.search import advise, best_completion, make_observation, search_model
from ofc_fast.solver import ev_tables

P = rules.PINEAPPLE
FL = P.fantasyland
FOUL = -1000.0
STUDY = {13: 9.5, 14: 14.5, 15: 20.5, 16: 26.5, 17: 33.5}  # fl_value default (documented)


def fl_values(values: dict[int, float]) -> list[float]:
    out = [0.0] * 18
    for k, v in values.items():
        out[k] = v
    return out


@lru_cache(maxsize=1)
def units() -> np.ndarray:
    return np.frombuffer(ffi.buffer(ev_tables(P).units), dtype=np.float32).reshape(3, -1)


def row_units(board: Sequence[int]) -> float:
    u = units()
    return (
        float(u[0][ofc.rank3(list(board[:3]))])
        + float(u[1][ofc.rank5(list(board[3:8]))])
        + float(u[2][ofc.rank5(list(board[8:]))])
    )


def next_fl(board: Sequence[int], in_fl: int = 0) -> int:
    b = list(board)
    return reference_fl.next_cards(FL, b, rs.is_foul(b), False, in_fl)


def board_value(board: Sequence[int], fl: list[float], w: float, in_fl: int = 0) -> float:
    """A completion's objective, from the references."""
    b = list(board)
    if rs.is_foul(b):
        return FOUL
    v = sum(rs.ofc_royalties(b)) + fl[next_fl(b, in_fl)]
    return v + w * row_units(b) if w else v


def deal_value(
    me: Sequence[int], others: Sequence[Sequence[int]], fl: list[float]
) -> float:
    """The searcher's points for the deal plus the Fantasyland terms."""
    v = fl[next_fl(me)]
    for o in others:
        v += rs.score_ofc(list(me), list(o)) - fl[next_fl(o)] / len(others)
    return v


def fills(rows: Sequence[Sequence[int]], kept: Sequence[int]) -> Iterator[list[int]]:
    """Every board from rows and the kept cards (every assignment to the free slots)."""
    free = [3 - len(rows[0]), 5 - len(rows[1]), 5 - len(rows[2])]
    for back in combinations(kept, free[2]):
        rest = [c for c in kept if c not in back]
        for middle in combinations(rest, free[1]):
            front = [c for c in rest if c not in middle]
            yield (
                list(rows[0])
                + front
                + list(rows[1])
                + list(middle)
                + list(rows[2])
                + list(back)
            )


def completions(
    rows: Sequence[Sequence[int]], cards: Sequence[int], rounds: Sequence[tuple[int, int]]
) -> Iterator[list[int]]:
    """Every completion: every discard choice of every round, every fill."""
    chunks, at = [], 0
    for n, _k in rounds:
        chunks.append(cards[at : at + n])
        at += n
    for kept in product(*[combinations(ch, n - k) for ch, (n, k) in zip(chunks, rounds)]):
        yield from fills(rows, [c for part in kept for c in part])


def random_position(
    rng: random.Random, placed: int, pineapple: bool
) -> tuple[list[list[int]], list[int], list[tuple[int, int]]]:
    deck = list(range(52))
    rng.shuffle(deck)
    slots = [0] * 3 + [1] * 5 + [2] * 5
    rng.shuffle(slots)
    rows: list[list[int]] = [[], [], []]
    for i in range(placed):
        rows[slots[i]].append(deck[i])
    left = 13 - placed
    rounds = [(3, 1)] * (left // 2) if pineapple else [(1, 0)] * left
    cards = deck[placed : placed + sum(n for n, _ in rounds)]
    return rows, cards, rounds


def layout(cards: Sequence[int], sizes: Sequence[int]) -> list[list[int]]:
    """Rows of the given sizes, lowest ranks in front and highest in the back (mostly
    legal boards, so the values below are not all fouls)."""
    ordered = sorted(cards, key=lambda c: c // 4)
    return [
        ordered[: sizes[0]],
        ordered[sizes[0] : sizes[0] + sizes[1]],
        ordered[sizes[0] + sizes[1] :],
    ]


def text(rows: Sequence[Sequence[int]]) -> str:
    return " / ".join(ofc.cards_str(r) if r else "-" for r in rows)


# ------------------------------------------------------------ best completion


@pytest.mark.parametrize("w", [0.0, 1.0])
def test_best_completion_equals_brute_force(w: float) -> None:
    rng = random.Random(12 + int(w))
    model = search_model(P, row_weight=w)
    fl = fl_values(STUDY)
    for case in range(40):
        pineapple = case % 2 == 0
        placed = rng.choice([7, 9, 11] if pineapple else [8, 9, 10, 11, 12])
        rows, cards, rounds = random_position(rng, placed, pineapple)
        in_fl = rng.choice([0, 0, 14])
        got = best_completion(rows, cards, P, rounds=rounds, fantasyland=in_fl, model=model)
        want = max(board_value(b, fl, w, in_fl) for b in completions(rows, cards, rounds))
        assert got.value == pytest.approx(want, abs=1e-6), (text(rows), cards, rounds)
        assert got.foul == (want == FOUL)
        if not got.foul:  # the board it returns is worth what it says
            assert board_value(got.board.cards, fl, w, in_fl) == pytest.approx(got.value)
            assert got.fantasyland == next_fl(got.board.cards, in_fl)


def test_fast_completion_keeps_the_high_cards_and_searches_the_rows() -> None:
    rng = random.Random(5)
    model = search_model(P)
    fl = fl_values(STUDY)
    for _ in range(30):
        rows, cards, rounds = random_position(rng, rng.choice([5, 7, 9]), True)
        fast = best_completion(rows, cards, P, rounds=rounds, policy="fast", model=model)
        kept = []
        for r in range(len(rounds)):
            chunk = cards[3 * r : 3 * r + 3]
            low = min(range(3), key=lambda i: (chunk[i] // 4, i))
            kept += [c for i, c in enumerate(chunk) if i != low]
        want = max(board_value(b, fl, 1.0) for b in fills(rows, kept))
        assert fast.value == pytest.approx(want, abs=1e-6)
        assert (
            fast.value
            <= best_completion(rows, cards, P, rounds=rounds, model=model).value + 1e-9
        )


def test_forced_foul_is_flagged() -> None:
    rows = [card_ids("Ah Ad"), card_ids("2c 3d 4h 6s"), card_ids("Kc Kd Ks 9c 9d")]
    got = best_completion(rows, card_ids("7c 8h Jd"), P, rounds=[(3, 1)])
    assert got.foul and got.value == FOUL and got.fantasyland == 0


def test_best_completion_errors() -> None:
    with pytest.raises(CardError):
        best_completion("Ah / - / -", "Ah 2c", P, rounds=[(2, 0)])
    with pytest.raises(SearchError):
        best_completion("Ah / - / -", "2c 3c", P)  # 2 cards for 12 free slots
    with pytest.raises(SearchError):
        best_completion("Ah / - / -", "2c", P, policy="slow")
    with pytest.raises(SearchError):
        best_completion("Ah Ad / 2c", "3c", P)  # not three rows


# ------------------------------------------------------------ exact advice


def final_board(rows: Sequence[Sequence[int]], move: ofc.Move) -> list[list[int]]:
    out = [list(r) for r in rows]
    for card, row in move.placements:
        out[int(row)].append(card)
    return out


def flat(rows: Sequence[Sequence[int]]) -> list[int]:
    return [c for r in rows for c in r]


def test_last_street_exact_equals_brute_force_complete_opponent() -> None:
    rng = random.Random(3)
    fl = fl_values(STUDY)
    varied = 0
    for _ in range(6):
        deck = list(range(52))
        rng.shuffle(deck)
        opp = layout(deck[0:13], (3, 5, 5))
        own = layout(deck[13:24], (2, 4, 5))
        obs = make_observation(P, own, deck[24:27], [opp])
        advice = advise(obs, exact=True)
        assert len(advice) == 6 and all(a.exact and a.stderr == 0 for a in advice)
        for a in advice:
            assert a.ev == pytest.approx(
                deal_value(flat(final_board(own, a.move)), [flat(opp)], fl), abs=1e-9
            )
        assert [a.ev for a in advice] == sorted((a.ev for a in advice), reverse=True)
        varied += len({round(a.ev, 9) for a in advice}) > 1
    assert varied >= 3  # positions where the move matters


def opponent_best(
    rows: Sequence[Sequence[int]], cards: Sequence[int], fl: list[float]
) -> list[int]:
    """The opponent's completion: the best objective (row weight 1) over every choice."""
    return max(completions(rows, cards, [(3, 1)]), key=lambda b: board_value(b, fl, 1.0))


def last_street_position(
    seed: int,
) -> tuple[dict[str, Any], list[list[int]], list[list[int]], list[int]]:
    """Heads-up, both boards at 11 cards, the searcher to act, the opponent to draw its
    last 3; 12 cards dead, so 15 unseen."""
    rng = random.Random(seed)
    deck = list(range(52))
    rng.shuffle(deck)
    opp = layout(deck[0:11], (2, 4, 5))
    own = layout(deck[11:22], (3, 3, 5))
    dealt, dead = deck[22:25], deck[25:37]
    return make_observation(P, own, dealt, [opp], dead), own, opp, deck[37:]


def test_last_street_exact_equals_brute_force_over_every_opponent_draw() -> None:
    fl = fl_values(STUDY)
    for seed in (1, 4):
        obs, own, opp, unseen = last_street_position(seed)
        advice = advise(obs, exact=True)
        assert len({round(a.ev, 9) for a in advice}) > 1  # a position that matters
        finals = [opponent_best(opp, list(draw), fl) for draw in combinations(unseen, 3)]
        for a in advice:
            me = flat(final_board(own, a.move))
            want = sum(deal_value(me, [o], fl) for o in finals) / len(finals)
            assert a.exact and a.ev == pytest.approx(want, abs=1e-9)


def test_last_two_streets_expectimax_equals_brute_force() -> None:
    rng = random.Random(8)
    fl = fl_values({14: 10.0})
    deck = list(range(52))
    rng.shuffle(deck)
    opp = layout(deck[0:13], (3, 5, 5))
    own = layout(deck[13:22], (2, 3, 4))
    dealt, dead, unseen = deck[22:25], deck[25:40], deck[40:]
    obs = make_observation(P, own, dealt, [opp], dead)
    advice = advise(obs, exact=True, fl_value={14: 10.0})
    assert len({round(a.ev, 9) for a in advice}) > 1
    assert len(advice) == len(obs["legal_actions"] or ofc.game.actions_for(3, own, 1))
    for a in advice:
        rows = final_board(own, a.move)
        total = 0.0
        for draw in combinations(unseen, 3):
            total += max(
                deal_value(b, [flat(opp)], fl)
                for b in completions(rows, list(draw), [(3, 1)])
            )
        assert a.exact and a.ev == pytest.approx(total / 220, abs=1e-9)


def test_sampled_intervals_cover_the_exact_value() -> None:
    obs, *_ = last_street_position(4)
    exact = {a.action: a.ev for a in advise(obs, exact=True)}
    covered = total = 0
    for seed in range(150):
        for a in advise(obs, exact=False, policy="best", samples=40, seed=seed):
            total += 1
            covered += abs(a.ev - exact[a.action]) <= 1.96 * a.stderr
    assert 0.88 <= covered / total <= 0.99, covered / total


def test_exact_auto_and_budget() -> None:
    obs, *_ = last_street_position(2)
    assert all(a.exact for a in advise(obs))  # affordable: exact by default
    g = Game(P, 2, seed=4)
    assert not any(a.exact for a in advise(g, samples=8))  # the opening: sampled
    with pytest.raises(
        SearchError, match=r"^exact: exact search needs .* at most one round"
    ):
        advise(g, exact=True)  # (the keyword first: ofc-fast advise names --exact)


# ------------------------------------------------------------ opponent models


def random_actions(
    rows: Sequence[Sequence[int]], cards: Sequence[int]
) -> Iterator[list[list[int]]]:
    """A RandomBot's choices on a 3-card Pineapple street: every legal action (a card
    to discard, a row with room for each kept card), as the rows after it."""
    for d in range(3):
        kept = [c for i, c in enumerate(cards) if i != d]
        for dest in product(range(3), repeat=2):
            after = [list(r) for r in rows]
            for c, r in zip(kept, dest):
                after[r].append(c)
            if all(len(after[r]) <= (3, 5, 5)[r] for r in range(3)):
                yield after


def random_opponent_values(
    own: Sequence[Sequence[int]],
    opp: Sequence[Sequence[int]],
    unseen: Sequence[int],
    moves: Sequence[ofc.Move],
    fl: list[float],
) -> list[float]:
    """Each move's value against a random player drawing its last 3 cards: the mean
    over every draw of the mean over its legal actions."""
    out = []
    for move in moves:
        me = flat(final_board(own, move))
        per_draw = []
        for draw in combinations(unseen, 3):
            vals = [deal_value(me, [flat(o)], fl) for o in random_actions(opp, draw)]
            per_draw.append(sum(vals) / len(vals))
        out.append(sum(per_draw) / len(per_draw))
    return out


def test_random_opponent_equals_brute_force_and_mixes() -> None:
    fl = fl_values(STUDY)
    obs, own, opp, unseen = last_street_position(4)
    best = {a.action: a.ev for a in advise(obs, exact=True)}
    sampled = advise(obs, opponent="random", samples=3000, seed=2)
    assert not any(a.exact for a in sampled)  # exact="auto": sampled for this model
    want = random_opponent_values(own, opp, unseen, [a.move for a in sampled], fl)
    assert (
        max(abs(w - best[a.action]) for a, w in zip(sampled, want)) > 0.5
    )  # models differ
    for a, w in zip(sampled, want):
        assert abs(a.ev - w) <= 4.5 * a.stderr, (a.move, a.ev, w)
    half = advise(obs, opponent=0.5, samples=3000, seed=3)
    mix = {a.action: (w + best[a.action]) / 2 for a, w in zip(sampled, want)}
    for a in half:
        assert abs(a.ev - mix[a.action]) <= 4.5 * a.stderr, (a.move, a.ev, mix[a.action])
    assert advise(obs, opponent="random", samples=64, seed=5) == advise(
        obs, opponent=1.0, samples=64, seed=5
    )  # reproducible; "random" is 1
    assert advise(obs, opponent=0.0, exact=True) == advise(obs, exact=True)


def test_opponent_model_errors() -> None:
    obs, *_ = last_street_position(2)
    with pytest.raises(SearchError, match="exact search models"):
        advise(obs, opponent="random", exact=True)
    for bad in ("smart", -0.1, 1.5, float("nan"), True, None):
        with pytest.raises(SearchError, match="opponent must be"):
            advise(obs, opponent=bad)  # type: ignore[arg-type]
        with pytest.raises(BotError, match="opponent must be"):
            SearchBot(P, opponent=bad)  # type: ignore[arg-type]
    assert search_model(P, opponent="random").opp_random == 1.0
    assert search_model(P).opp_random == 0.0
    with pytest.raises(SearchError, match="exact search models"):
        advise(obs, opponent="self", exact=True)
    assert search_model(P, opponent="self").opp_self
    assert search_model(P, opponent="self").opp_random == 0.0
    assert not search_model(P).opp_self


def test_self_opponent_plays_its_last_round_as_best_and_earlier_rounds_blind() -> None:
    """``opponent="self"``: a seat with one round left plays it by the best completion
    (the same rollouts as ``"best"``); with more left it places each round without
    seeing the next, so the values change, reproducibly."""
    obs, *_ = last_street_position(2)
    assert advise(obs, opponent="self", samples=200, seed=4) == advise(
        obs, opponent="best", exact=False, samples=200, seed=4
    )
    g = Game(P, 2, seed=33)
    for _ in range(4):  # both seats have set their opening and one round
        g.play(g.legal_moves()[0])
    mid = g.observation(g.to_act)
    best = advise(mid, opponent="best", samples=400, seed=6)
    blind = advise(mid, opponent="self", samples=400, seed=6)
    assert blind == advise(mid, opponent="self", samples=400, seed=6)
    evs = {a.action: a.ev for a in best}
    assert set(evs) == {a.action for a in blind}
    assert sum(a.ev != evs[a.action] for a in blind) > len(blind) // 2


# ------------------------------------------------------------ advise from play


def test_same_seed_same_advice_and_game_equals_observation() -> None:
    g = Game(P, 2, seed=21)
    g.play(g.legal_moves()[7])
    obs = g.observation(g.to_act)
    a = advise(g, samples=48, seed=9)
    assert a == advise(obs, samples=48, seed=9)
    b = advise(obs, samples=48, seed=10)
    assert [x.ev for x in a] != [x.ev for x in b]
    assert sorted(x.action for x in a) == sorted(g.legal_actions())


def test_prune_keeps_the_best_moves_sampled_longest() -> None:
    g = Game(P, 2, seed=2)
    a = advise(g, samples=80, seed=1, prune=True, policy="fast")
    counts = [x.samples for x in a]
    assert counts == sorted(counts, reverse=True) and counts[0] == 80 and counts[-1] == 16
    assert sum(c == 80 for c in counts) >= 8
    # auto: the opening screened fast, the last 29 moves sampled again sequentially
    b = advise(g, samples=160, seed=1, prune=True)
    top = b[:8]
    assert {x.samples for x in top} == {160 - 48} and [x.ev for x in top] == sorted(
        (x.ev for x in top), reverse=True
    )
    assert [x.samples for x in b[-116:]] == [16] * 116


def test_three_seats_and_hidden_fantasyland() -> None:
    g = Game(P, 3, seed=6, fantasyland=(0, 14, 0))
    bot = SearchBot(P, seed=1, samples=8, time_budget=None)
    while not g.is_over:
        obs = g.observation(g.to_act)
        if not obs["full_set"]:
            assert len(advise(obs, samples=4)) == len(obs["legal_actions"])
        g.play(bot.act(obs))
    assert sum(g.result().net) == 0


def test_advise_errors() -> None:
    g = Game(P, 2, seed=1)
    with pytest.raises(SearchError, match="not to act"):
        advise(g, seat=0)
    with pytest.raises(SearchError):
        advise(g, samples=0)
    with pytest.raises(SearchError):
        advise(g, time_budget=-1)
    with pytest.raises(SearchError):
        advise(g, exact="maybe")
    with pytest.raises(SearchError):
        advise(g, policy="slow")
    with pytest.raises(SearchError):
        advise(g, fl_value="lots")
    with pytest.raises(SearchError):
        advise(g, row_weight=float("nan"))
    with pytest.raises(SearchError):
        advise(42)  # type: ignore[arg-type]
    fl = Game(P, 2, seed=1, fantasyland=(14, 0))
    with pytest.raises(SearchError, match="full set"):
        advise(fl)
    obs = make_observation(P, "Qh / 9s 9h / As Ks", "2c 5d Ts", ["7c / 8d 8h / 4s 4d"])
    obs["discards"] = [ofc.parse_card("2c")]  # a dealt card also discarded
    with pytest.raises(CardError):
        advise(obs)
    with pytest.raises(SearchError):
        make_observation(P, "Qh / 9s / As", "2c 5d Ts")  # 3 cards placed: no such deal
    with pytest.raises(CardError, match=r"^make_observation: dead holds Ks, a card shown"):
        make_observation(P, "Qh / 9s 9h / As Ks", "2c 5d Ts", ["/ /"], dead="Ks")
    with pytest.raises(SearchError):
        make_observation(P, "Qh / 9s 9h / As Ks", "2c 5d", ["/ /"])


# ------------------------------------------------------------------ SearchBot


def test_search_bot_reproducible_with_samples() -> None:
    def run(opponent: str = "best") -> list[int]:
        g = Game(P, 2, seed=17)
        bot = SearchBot(P, seed=3, samples=16, time_budget=None, opponent=opponent)
        play_out(g, [bot, RandomBot(seed=4)])
        return list(g.result().net)

    assert run() == run()
    assert run("self") == run("self")


def test_search_bot_registry_and_settings() -> None:
    bot = make_bot("search", seed=1, samples=8, time_budget=None, opponent="random")
    assert isinstance(bot, SearchBot) and bot.settings()["samples"] == 8
    assert bot.settings()["opponent"] == "random"
    assert json.loads(json.dumps(bot.settings())) == bot.settings()
    again = make_bot("search", seed=1, **bot.settings())
    assert again.settings() == bot.settings()
    for bad in (
        {"time_budget": None, "samples": None},
        {"policy": "slow"},
        {"samples": 0},
        {"time_budget": 0},
        {"fl_value": "x"},
    ):
        with pytest.raises(BotError):
            SearchBot(P, **bad)  # type: ignore[arg-type]


def test_search_bot_sets_fantasyland_by_the_solver() -> None:
    g = Game(P, 2, seed=5, fantasyland=(14, 0))
    obs = g.observation(g.to_act)
    move = SearchBot(P, seed=1, samples=4).act(obs)
    sol = ofc.solve_fantasyland(obs["dealt"], P)
    g.play(move)
    assert sorted(g.boards[0].cards) == sorted(sol.board.cards)


# ------------------------------------------------------------------------ CLI


def test_cli_advise_table_and_json(capsys: pytest.CaptureFixture[str]) -> None:
    args = [
        "advise",
        "--rules",
        "pineapple",
        "--board",
        "Qh 2d / 9s 9h 3c 4c / As Ks Qs Js Th",
        "--dealt",
        "2c 5d Ts",
        "--opponent",
        "7c 7d 2h / 8d 8h Ah Ac 3d / 4s 4d 5h 5s 6c",
    ]
    assert main(args + ["--json"]) == 0
    rows = json.loads(capsys.readouterr().out)
    assert len(rows) == 6 and all(r["exact"] for r in rows)
    assert rows[0]["ev"] >= rows[-1]["ev"]
    assert main(args) == 0
    out = capsys.readouterr().out
    assert "6 legal moves" in out and "yes" in out
    assert (
        main(
            [
                "advise",
                "--dealt",
                "As Ad 7c 8c 9c",
                "--opponent",
                "/ /",
                "--samples",
                "8",
                "--top",
                "2",
            ]
        )
        == 0
    )
    # title, header, the 2 moves, the 2-line note on what ev is
    assert len(capsys.readouterr().out.strip().splitlines()) == 6
    assert main(["advise", "--dealt", "As As"]) == 2


def test_two_threads_give_the_sequential_sums() -> None:
    """The C rollouts share the rules, tables, model and position read-only: two
    threads (cffi releases the GIL) get exactly what one thread gets."""
    from concurrent.futures import ThreadPoolExecutor

    from ofc_fast._native import lib
    from ofc_fast.rules.compiled import compiled, compiled_fl
    from ofc_fast.search import position

    g = Game(P, 2, seed=9)
    g.play(g.legal_moves()[3])
    obs = g.observation(g.to_act)
    acts = bytes(obs["legal_actions"])
    args = (
        compiled(P),
        compiled_fl(P),
        ev_tables(P),
        search_model(P).c_model(),
        position(obs, P),
        acts,
        len(acts),
        lib.OFC_COMPLETE_SEQUENTIAL,
        4,
    )

    def run(first: int) -> list[float]:
        out = ffi.new("double[]", len(acts))
        assert lib.ofc_search_rollouts(*args, first, 24, out, ffi.NULL) == 0
        return list(out)

    alone = [run(0), run(24)]
    with ThreadPoolExecutor(2) as pool:
        assert list(pool.map(run, [0, 24])) == alone


@pytest.mark.parametrize(
    "field, value",
    [
        ("dealt", [99, 1, 2]),
        ("dealt", "As Kd Qh"),
        ("discards", [-1]),
        ("boards", [[[1], [], []]]),
        ("players", 5),
        ("seat", 3),
        ("fantasyland", [12, 0]),
        ("to_discard", "x"),
        ("boards", [[[1, 2, 3, 4], [], []], [[], [], []]]),
        ("future_cards", None),
    ],
)
def test_bad_observations_raise_search_or_card_errors(field: str, value: Any) -> None:
    obs = make_observation(P, "Qh / 9s 9h / As Ks", "2c 5d Ts", ["7c / 8d 8h / 4s 4d"])
    obs[field] = value
    with pytest.raises((SearchError, CardError)):
        advise(obs, samples=4)
    del obs[field]
    with pytest.raises(SearchError):
        advise(obs, samples=4)


def test_lazy_advice_records_equal_the_eager_ones() -> None:
    """Advise built a Move for every legal move (232 at the opening) though callers
    mostly read the best: each record builds its move on first access.  A record
    built eagerly (its move from move_for_action, as advise built it) equals it in
    every field, ==, hash, repr, as_dict, unpacking and pickle bytes, whether or not
    the move was read first, and a caller changing its observation afterwards does
    not change the moves still to build."""
    import copy
    import pickle

    from ofc_fast.game import move_for_action
    from ofc_fast.search import Advice

    deck = list(range(52))
    random.Random(8).shuffle(deck)
    endgame = make_observation(
        P, layout(deck[13:24], (2, 4, 5)), deck[24:27], [layout(deck[0:13], (3, 5, 5))]
    )
    g = Game(P, 2, seed=5)
    opening = g.observation(g.to_act)
    for obs, kw in ((opening, {"samples": 2, "seed": 3}), (endgame, {"exact": True})):
        rows, dealt, k = obs["boards"][obs["seat"]], list(obs["dealt"]), obs["to_discard"]
        lazy = advise(obs, **kw)  # type: ignore[arg-type]
        twin = advise(obs, **kw)  # type: ignore[arg-type]
        obs["boards"][obs["seat"]] = [[], [], []]  # the caller reuses its dict
        obs["dealt"] = []
        assert len(lazy) == len(obs_actions := [a.action for a in lazy]) > 1
        assert len(set(obs_actions)) == len(lazy)
        for i, (a, b) in enumerate(zip(lazy, twin)):
            eager = Advice(
                a.action,
                move_for_action(a.action, dealt, rows, k),
                a.ev,
                a.stderr,
                a.exact,
                a.samples,
                a.foul,
                a.fantasyland,
                a.royalties,
                a.model,
            )
            if i % 2:  # half pickled before their move was read
                assert pickle.dumps(b) == pickle.dumps(eager)
            assert pickle.loads(pickle.dumps(b)) == eager
            assert copy.deepcopy(b) == eager
            assert a == eager and eager == a and hash(a) == hash(eager)
            assert repr(a) == repr(eager) and a.as_dict() == eager.as_dict()
            assert tuple(a) == tuple(eager)
            assert pickle.dumps(a) == pickle.dumps(eager)
            assert a == b


def test_advice_records_go_through_dataclasses_asdict_and_astuple() -> None:
    """dataclasses.asdict and astuple of an Advice (the standard way to turn a
    dataclass into data) raised MoveError "bad placement ...: expected a (card, row)
    pair": they rebuild a tuple, as the Move is, from its items, which the Move's
    constructor did not take.  Now each gives the fields, the move an equal Move
    (sent to the same rows: a Discard stays a discard), whatever move it is."""
    import dataclasses

    names = (
        "action",
        "move",
        "ev",
        "stderr",
        "exact",
        "samples",
        "foul",
        "fantasyland",
        "royalties",
        "model",
    )
    g = Game(P, 2, seed=5)
    later = make_observation(P, "Qh / 9s 9h / As Ks", "2c 5d Ts", ["7c / 8d 8h / 4s 4d"])
    for obs in (g.observation(g.to_act), later):
        for a in advise(obs, samples=2, seed=3)[:3]:
            as_dict = dataclasses.asdict(a)
            assert list(as_dict) == list(names)
            assert all(as_dict[n] == getattr(a, n) for n in names)
            assert type(as_dict["move"]) is ofc.Move
            assert as_dict["move"].rows() == a.move.rows()
            assert as_dict["move"].discards == a.move.discards
            assert dataclasses.astuple(a) == tuple(getattr(a, n) for n in names)
    for move in (ofc.Move([("As", 0)], "2c"), ofc.Move(declare="six_pairs")):
        assert dataclasses.astuple(dataclasses.replace(a, move=move))[1] == move


def test_a_time_budget_is_not_passed_by_a_whole_batch_of_samples() -> None:
    """advise(time_budget=...) sampled whole batches of 16 samples of every move
    before it looked at the clock: policy="best" at a PINEAPPLE opening (232 moves)
    took 4 to 6 s for a 40 ms budget, "sequential" 0.3 s.  The first sample is now
    timed, and a batch stops once the budget is spent: a budget shorter than one
    sample of the moves gets that one sample, the values of samples=1 (the same
    sampled future).  With room for them, the samples asked for give the advice
    they give without a budget (a batch split in C calls adds up the same)."""
    g = Game(P, 2, seed=5)
    tiny = advise(g, policy="fast", time_budget=1e-9, seed=1)
    assert len(tiny) == 232 and {a.samples for a in tiny} == {1}
    one = advise(g, policy="fast", samples=1, seed=1)
    assert [(a.action, a.ev, a.foul) for a in tiny] == [
        (a.action, a.ev, a.foul) for a in one
    ]
    for kw in ({"samples": 40}, {"samples": 40, "prune": True}):
        assert advise(g, seed=2, time_budget=1e5, **kw) == advise(g, seed=2, **kw)  # type: ignore[arg-type]


def test_advise_builds_only_the_moves_read(monkeypatch: pytest.MonkeyPatch) -> None:
    """An opening advise built 232 Moves (about a sixth of a one-sample opening's
    time); reading the best record's move builds one, reading it again none."""
    from ofc_fast.search import _advise

    built: list[int] = []
    real = _advise.move_for_action

    def counting(action: int, *args: Any) -> ofc.Move:
        built.append(action)
        return real(action, *args)

    monkeypatch.setattr(_advise, "move_for_action", counting)
    g = Game(P, 2, seed=5)
    advice = advise(g, samples=1, seed=1)
    assert len(advice) == 232 and built == []
    best = advice[0].move
    assert advice[0].move is best and built == [advice[0].action]
    assert best == g.legal_moves()[g.legal_actions().index(advice[0].action)]


def test_advise_stops_sampling_once_should_stop_says_so() -> None:
    """``advise(should_stop=...)`` is asked after each batch of 16 samples: a stop
    asked for after the second batch leaves every move 32 samples, the advice those
    samples give alone; never asked for, the sampling is that of no hook."""
    obs = make_observation(
        "pineapple", "Qh / 9s 9h / As Ks", "2c 5d Ts", ["7c / 8d 8h / 4s 4d"]
    )
    asked = []

    def second_batch() -> bool:
        asked.append(True)
        return len(asked) >= 2

    stopped = advise(obs, samples=4096, exact=False, seed=3, should_stop=second_batch)
    assert len(asked) == 2 and {a.samples for a in stopped} == {32}
    assert stopped == advise(obs, samples=32, exact=False, seed=3)
    never = advise(obs, samples=48, exact=False, seed=3, should_stop=lambda: False)
    assert never == advise(obs, samples=48, exact=False, seed=3)
    with pytest.raises(SearchError, match="should_stop must be None or a callable"):
        advise(obs, samples=16, should_stop=True)  # type: ignore[arg-type]
