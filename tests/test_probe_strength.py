"""benchmarks/probe_strength.py's foul origin: the decision it names for a fouled
board is the first after which the seat's real later cards admit no clean finish,
checked against a brute force over every way to keep and place those cards."""

from __future__ import annotations

import json
from itertools import combinations
from pathlib import Path
from types import ModuleType
from typing import Any

import pytest
from scripts import checkout_script, usage_error

from ofc_fast import rules
from ofc_fast.board import Board
from ofc_fast.bots import RandomBot
from ofc_fast.game import Game, play_out

SIZES = (3, 5, 5)


def _probe() -> ModuleType:
    return checkout_script("benchmarks/probe_strength.py")


def _clean_finish_exists(board: Any, later: list[tuple[Any, list[int], int]]) -> bool:
    """Every choice of discards (k of each later round's cards) and every split of
    the kept cards over the rows' free slots (any split can be played round by
    round: a slot stays free until filled)."""
    free = [size - len(row) for size, row in zip(SIZES, board)]

    def kept_sets(i: int) -> Any:
        if i == len(later):
            yield []
            return
        _, dealt, k = later[i]
        for drop in combinations(dealt, k):
            for rest in kept_sets(i + 1):
                yield [c for c in dealt if c not in drop] + rest

    for kept in kept_sets(0):
        for front in combinations(kept, free[0]):
            left = [c for c in kept if c not in front]
            for middle in combinations(left, free[1]):
                back = [c for c in left if c not in middle]
                rows = [list(board[0]) + list(front), list(board[1]) + list(middle)]
                b = Board.from_ids(*(tuple(r) for r in (*rows, list(board[2]) + back)))
                if not b.evaluate(rules.PINEAPPLE).foul:
                    return True
    return False


def test_committed_is_the_first_decision_without_a_clean_finish() -> None:
    probe = _probe()
    checked = 0
    for i in range(40):
        g = Game(rules.PINEAPPLE, players=2, seed=1000 + i)
        bot = probe._Watched(RandomBot(i))
        play_out(g, [bot, RandomBot(10**6 + i)])
        if not g.result().fouls[0]:
            continue
        final = g.observation(0)["boards"][0]
        cards = probe.committed(bot.seen)
        after = [rows for rows, _, _ in bot.seen[1:]] + [final]
        d = next(j for j, b in enumerate(after) if sum(map(len, b)) == cards)
        if cards < 13:  # no clean finish after decision d ...
            assert not _clean_finish_exists(after[d], bot.seen[d + 1 :])
        if d > 0:  # ... and one after the decision before it
            assert _clean_finish_exists(after[d - 1], bot.seen[d:])
        checked += 1
    assert checked >= 10  # a random player fouls most boards


def test_three_aces_up_front_with_no_straight_to_come_is_committed_at_the_opening() -> None:
    """Trips in front need a straight or better in the middle; the twelve cards to
    come hold no three of a rank, no five of a suit and no five ranks in a row, so
    the opening already fouls.  With a pair of aces in front instead, two pair in the
    middle beats it, and the foul is not certain there."""
    from ofc_fast.cards import parse_cards

    probe = _probe()
    later = ["2d 2h 3h", "3s 4h 4s", "7c 7d 8c", "8d Jh Qs"]

    def seen(front: str, back: str) -> list[tuple[Any, list[int], int]]:
        """The decisions: each later round keeps its first two cards, placed in the
        first free slots (middle, back, front)."""
        rows = [list(parse_cards(front)), [], list(parse_cards(back))]
        out = [([[], [], []], parse_cards(f"{front} {back}"), 0)]
        for cards in later:
            dealt = list(parse_cards(cards))
            out.append(([list(r) for r in rows], dealt, 1))
            for c in dealt[:2]:
                r = next(r for r in (1, 2, 0) if len(rows[r]) < SIZES[r])
                rows[r].append(c)
        return out

    doomed = seen("As Ah Ad", "2c 3d")
    assert probe.committed(doomed) == 5
    assert not _clean_finish_exists(doomed[1][0], doomed[1:])
    pair = seen("As Ah", "Ad 2c 3d")
    assert _clean_finish_exists(pair[1][0], pair[1:])
    assert probe.committed(pair) != 5


def _opponent_clean(me: Any, opponent: list[tuple[Any, list[int], int]], j: int) -> bool:
    """Whether the other seat's board at our decision ``j`` has a clean finish with
    the cards of its decisions still to come."""
    board = me.other[j]
    n = sum(map(len, board))
    return _clean_finish_exists(board, [d for d in opponent if sum(map(len, d[0])) >= n])


def test_opponent_doomed_is_our_first_decision_facing_a_board_without_a_clean_finish() -> (
    None
):
    """Random play on both seats: at the decision ``opponent_doomed`` names, the
    other seat's board admits no clean finish with its real later cards (brute
    force), and at our decision before it, it still did; when it names none, the
    other seat's board still had one at our last decision."""
    probe = _probe()
    named = 0
    for i in range(40):
        g = Game(rules.PINEAPPLE, players=2, seed=2000 + i, button=i % 2)
        me, other = probe._Watched(RandomBot(i)), probe._Watched(RandomBot(10**6 + i))
        play_out(g, [me, other])
        doomed = probe.opponent_doomed(me, other.seen)

        leaves = [sum(map(len, b)) + len(dealt) - k for b, dealt, k in me.seen]
        if doomed == 0:
            assert _opponent_clean(me, other.seen, len(me.seen) - 1)
            continue
        j = leaves.index(doomed)
        assert not _opponent_clean(me, other.seen, j)
        if j > 0 and sum(map(len, me.other[j - 1])):
            assert _opponent_clean(me, other.seen, j - 1)
        named += 1
    assert named >= 10  # a random player fouls most boards


def test_split_vs_groups_the_paired_differences_by_the_reference_deals() -> None:
    """Deals whose opponent was doomed by the reference's 9-card decision (doomed
    at 7 or 9) on one side, the rest (never doomed, or only at 11 or 13) on the
    other."""
    probe = _probe()
    ref = [{"doomed": d} for d in (7, 9, 11, 0, 13, 9)]
    diffs = [1.0, 3.0, 10.0, 20.0, 30.0, 5.0]
    text = probe.split_vs(diffs, ref)
    assert text.startswith("opponent doomed by 9 cards: +3.00 +- ")
    assert "(3 deals); the others: +20.00 +- " in text
    assert text.endswith("(3 deals)")
    assert probe.split_vs([1.0], [{"doomed": 0}]).startswith(
        "opponent doomed by 9 cards: -"
    )


@pytest.mark.parametrize(
    ("config", "why"),
    [
        ('x={"nosuch": 1}', "--config x: SearchBot.__init__() got an unexpected"),
        ('x={"samples": -1}', "--config x: search bot: samples must be"),
        ('{"samples": 64}', "--config: expected NAME=JSON, got '{\"samples\": 64}'"),
        ("=", "--config: expected NAME=JSON, got '='"),
    ],
)
def test_a_config_searchbot_does_not_take_is_refused_before_the_run(
    config: str, why: str, capsys: pytest.CaptureFixture[str]
) -> None:
    """``--config 'x={"nosuch": 1}'`` (or a bad value) ended in a traceback from the
    process pool after the Fantasyland deals; ``--config '{"samples": 64}'`` (no
    NAME=) ran the default settings under the JSON text as their name."""
    argv = ["--deals", "1", "--fl-deals", "1", "--workers", "1", "--config", config]
    out, err = usage_error(capsys, _probe().main, argv)
    assert out == "" and f"error: {why}" in err and "Traceback" not in err


def test_json_of_one_deal_is_valid_json(tmp_path: Path) -> None:
    """With one deal there is no interval: ``--json`` wrote ``NaN`` (``N_ci95``,
    ``vs_first_ci95``), which is no JSON (a strict parser refuses it); it is now
    ``null``, as ``bench_value.py`` writes it."""
    path = tmp_path / "probe.json"
    argv = ["--deals", "1", "--fl-deals", "1", "--workers", "1", "--json", str(path)]
    assert _probe().main([*argv, "--config", "a={}", "--config", "b={}"]) == 0

    def refuse(constant: str) -> None:
        raise ValueError(f"not JSON: {constant}")

    doc = json.loads(path.read_text(encoding="utf-8"), parse_constant=refuse)
    for row in doc["settings"].values():
        assert row["N_ci95"] is None and row["vs_first_ci95"] is None


def test_fantasyland_deals_that_all_stay_are_refused_not_divided_by_zero(
    capsys: pytest.CaptureFixture[str],
) -> None:
    """Seed 3's one Fantasyland deal stays (s = 100%): the run ended in a
    ZeroDivisionError on lambda = (F - N) / (1 - s) after all the normal deals; it now
    stops after the Fantasyland deals and says to run more of them."""
    argv = ["--deals", "1", "--fl-deals", "1", "--workers", "1", "--seed", "3"]
    out, err = usage_error(capsys, _probe().main, argv)
    assert "stay s = 100.0% (1 deals)" in out and "normal deals" not in out
    assert "error: --fl-deals: every Fantasyland deal stayed" in err


def test_a_config_name_given_twice_is_refused(capsys: pytest.CaptureFixture[str]) -> None:
    """``--config a={} --config a='{"samples": 64}'`` played both but ``--json`` kept
    only the second under ``a`` (a dict keyed by name), and the rows could not be told
    apart."""
    argv = ["--deals", "1", "--fl-deals", "1", "--workers", "1", "--config", "a={}"]
    _, err = usage_error(capsys, _probe().main, [*argv, "--config", 'a={"samples": 64}'])
    assert "error: --config a: named twice" in err


def test_the_ceiling_row_name_is_refused_as_a_config_name(
    capsys: pytest.CaptureFixture[str],
) -> None:
    """``--config ceiling={} --ceiling`` played two rows named ``ceiling``: ``--json``
    kept one of them under the key, and the settings row was printed without its foul
    lines (the name reads as the bound's); the name is the ``--ceiling`` row's."""
    for extra in (["--ceiling"], []):
        argv = ["--deals", "1", "--fl-deals", "1", "--workers", "1"]
        out, err = usage_error(
            capsys, _probe().main, [*argv, "--config", "ceiling={}", *extra]
        )
        assert out == "" and "error: --config ceiling: the name of the --ceiling row" in err
