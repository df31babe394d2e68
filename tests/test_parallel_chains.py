"""A parallel run values Fantasyland: the unit of parallel work is a
deal plus the Fantasyland deals it earns, with decks from ``(seed, i, k)``; the same
on every executor (Ray: tests/test_parallel_ray.py)."""

from __future__ import annotations

import gc
import json
import signal
import weakref
from dataclasses import replace
from pathlib import Path

import pytest

from ofc_fast import rules
from ofc_fast.bots import make_bot
from ofc_fast.cli import main
from ofc_fast.game import Game, deal_seed, play_out
from ofc_fast.parallel import ChunkTask, LocalExecutor, ProcessExecutor, RunSpec, run_chunk
from ofc_fast.parallel._run import play_parallel
from ofc_fast.parallel.selfplay import SelfPlayError, selfplay

BOTS = [("heuristic", {"samples": 4, "arrangements": 3})] * 2
SEED, UNITS = 3, 40  # heuristic bots earn Fantasyland in some of these 40 deals


def _spec(**kw) -> RunSpec:
    return RunSpec.make("pineapple", 2, seed=SEED, hands=UNITS, bots=BOTS, **kw)


def _reference_unit(seed: int, i: int, players: int, button: int, bots: list) -> list[Game]:
    """Unit i written from the README's definition: deal (i, 0) as an independent deal;
    while a deal ends with Fantasyland earned, deal (i, k) with deck
    deal_seed(deal_seed(deal_seed(seed, i), 0), k), that Fantasyland, the button kept
    when PINEAPPLE freezes it (a seat in Fantasyland; R-FL-6) else moved one seat, and
    fresh bots seeded deal_seed(deck seed, 1 + seat)."""
    games: list[Game] = []
    deck = deal_seed(seed, i)
    btn, fl = (button + i) % players, [0] * players
    while True:
        g = Game("pineapple", players, seed=deck, button=btn, fantasyland=fl)
        play_out(
            g,
            [
                make_bot(n, "pineapple", deal_seed(deck, 1 + s), **st)
                for s, (n, st) in enumerate(bots)
            ],
        )
        games.append(g)
        fl = list(g.result().fantasyland)
        if not any(fl):
            return games
        deck = deal_seed(deal_seed(deal_seed(seed, i), 0), len(games))
        # PINEAPPLE freezes the button while a seat plays Fantasyland next deal
        assert g.rules.fantasyland is not None and g.rules.fantasyland.button_frozen
        btn = g.button


def test_a_unit_is_a_deal_and_the_fantasyland_deals_it_earns() -> None:
    spec = _spec()
    res = run_chunk(ChunkTask(spec, 0, UNITS, history=True))
    expected = [
        (i, k, g)
        for i in range(UNITS)
        for k, g in enumerate(_reference_unit(SEED, i, 2, 0, BOTS))
    ]
    assert any(k >= 1 for _, k, _ in expected), "no Fantasyland played: pick a seed"
    assert len(res.outcomes) == len(expected) == len(res.lines)
    for o, line, (i, k, g) in zip(res.outcomes, res.lines, expected):
        assert (o["deal"], o["fl_deal"]) == (i, k)
        assert o["seed"] == g.seed and o["button"] == g.button
        assert o["net"] == list(g.result().net)
        assert o["in_fantasyland"] == list(g.fantasyland)
        assert json.loads(line)["history"] == json.loads(json.dumps(g.history()))
    assert any(any(o["in_fantasyland"]) for o in res.outcomes)


def test_independent_mode_plays_no_fantasyland() -> None:
    res = run_chunk(ChunkTask(_spec(fantasyland=False), 0, UNITS))
    assert [o["deal"] for o in res.outcomes] == list(range(UNITS))
    assert not any(any(o["in_fantasyland"]) for o in res.outcomes)
    assert any(any(o["fantasyland"]) for o in res.outcomes)  # earned, not played


def test_fantasyland_units_are_the_same_on_every_executor() -> None:
    spec = _spec()
    local = play_parallel(spec, LocalExecutor(), chunk_size=UNITS, history=True)
    with ProcessExecutor(2) as ex:
        pooled = play_parallel(spec, ex, chunk_size=3, history=True)
    assert pooled.outcomes == local.outcomes and pooled.lines == local.lines
    assert pooled.match.to_dict() == local.match.to_dict()
    played_in_fl = sum(bool(o["in_fantasyland"][0]) for o in local.outcomes)
    assert played_in_fl >= 1
    assert local.match.stats[0].fantasyland_deals == played_in_fl
    assert local.match.hands_played == len(local.outcomes) > UNITS


def test_play_with_workers_values_fantasyland(tmp_path: Path) -> None:
    docs = []
    for extra in (["--workers", "1"], ["--workers", "2", "--chunk-size", "7"]):
        out = tmp_path / f"{len(docs)}.json"
        argv = ["play", "--players", "2", "--hands", str(UNITS), "--seed", str(SEED)]
        argv += ["--bots", "heuristic", "--quiet", "--json", str(out), *extra]
        assert main(argv) == 0
        doc = json.loads(out.read_text())
        doc.pop("seconds"), doc.pop("executor")
        docs.append(doc)
    assert docs[0] == docs[1]
    assert docs[0]["mode"] == "fantasyland-chains"
    assert any(d["fl_deal"] >= 1 and any(d["in_fantasyland"]) for d in docs[0]["deals"])


def test_a_parallel_history_numbers_its_deals_as_booked_and_replays(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """docs/parallel.md's ``ofc-fast play ... --workers 2 --history deals.jsonl`` wrote
    each Fantasyland deal of a unit under the unit's ``hand_no``: ``ofc-fast replay``
    and ``ofc-fast report`` refused the file (``line 16: hand_no: hand 14 again (line
    15)``).  The lines are numbered as the deals are booked, 0, 1, 2, ... (as ``play``
    in one process numbers them), on every executor, and the file replays whole."""
    run = play_parallel(_spec(), chunk_size=7, history=True)
    hands = [json.loads(line)["hand_no"] for line in run.lines]
    assert len(hands) == len(run.outcomes) > UNITS  # Fantasyland deals were played
    assert hands == list(range(len(run.outcomes)))
    history = tmp_path / "deals.jsonl"
    argv = ["play", "--players", "2", "--hands", str(UNITS), "--seed", str(SEED)]
    argv += ["--bots", "heuristic", "--quiet", "--workers", "2", "--chunk-size", "7"]
    assert main([*argv, "--history", str(history)]) == 0
    lines = [json.loads(line) for line in history.read_text().splitlines()]
    assert [d["hand_no"] for d in lines] == list(range(len(lines)))
    assert len(lines) > UNITS
    capsys.readouterr()
    assert main(["replay", str(history)]) == 0, capsys.readouterr().err
    assert capsys.readouterr().out.count("\nhand ") == len(lines) - 1


def test_independent_needs_a_parallel_run(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["play", "--hands", "2", "--independent", "--quiet"]) == 2
    assert "--independent: a parallel run's mode" in capsys.readouterr().err


def test_selfplay_refuses_fantasyland_units(tmp_path: Path) -> None:
    with pytest.raises(SelfPlayError, match="fantasyland=False"):
        selfplay(_spec(), tmp_path, progress=False)


def test_run_specs_keep_no_rule_set_of_earlier_runs() -> None:
    """Every distinct rule set a run spec decoded stayed in a dict for the process's
    life: a long-lived process running a sweep over rule variants grew without
    bound."""
    first = RunSpec(
        rules.OFC.replace(sweep_bonus=999).to_json(), 2, 1, 1, (("random", "{}"),) * 2
    )
    probe = weakref.ref(first.rules)
    assert first.rules is probe()  # decoded once while it is in use
    for k in range(300):
        _ = replace(first, rules_json=rules.OFC.replace(sweep_bonus=k).to_json()).rules
    gc.collect()
    assert probe() is None


@pytest.mark.skipif(not hasattr(signal, "setitimer"), reason="run on POSIX (setitimer)")
def test_a_ctrl_c_inside_book_books_the_deal_whole_or_not_at_all() -> None:
    """Regression: ``book`` (a parallel run's booking of a deal's outcome into its
    Match: ``play --workers``, ``selfplay``, the parallel arena) added each seat's
    points to the totals and statistics one by one, then moved the deal count and
    the button: a Ctrl-C (KeyboardInterrupt from a signal handler) landing in
    between left the booking half-made (totals that do not sum to 0, one seat's
    statistics a deal ahead, the deal not counted).  Here a timer raises
    KeyboardInterrupt into bookings until 100 were cut; after each the deal is booked whole
    (its nets, taken from its outcome, in every total; the button one seat on) or
    not at all, and booked again."""
    from interrupts import CutCalls, ctrl_c_timer, interrupted

    from ofc_fast.bots import RandomBot
    from ofc_fast.game import Match
    from ofc_fast.parallel import book
    from ofc_fast.parallel._plan import outcome

    played = Match(rules.PINEAPPLE, 3, seed=7)
    bots = [RandomBot(seed=s) for s in range(3)]
    outcomes = []
    for i in range(12):
        g = played.next_game()
        play_out(g, bots)
        played.record(g)
        outcomes.append(outcome(i, g))
    m = Match(rules.PINEAPPLE, 3, seed=7, keep_nets=True)
    first = m.button
    expected = [0, 0, 0]  # the booked deals' nets, per seat
    calls = CutCalls(100, cap=30_000)  # (about one booking in ten is cut)
    with ctrl_c_timer() as armed:
        for deals in calls:
            o = outcomes[deals % len(outcomes)]
            calls.cuts += interrupted(armed, book, m, o)
            if m.hands_played == deals - 1:  # not booked: book it now
                book(m, o)
            expected = [t + n for t, n in zip(expected, o["net"])]
            books = [(x.deals, x.total, len(x.net)) for x in m.stats]
            assert m.hands_played == deals, calls
            assert m.totals == expected and books == [(deals, t, deals) for t in expected]
            assert m.button == (first + deals) % 3
    assert calls.cuts == calls.target, calls  # the timer did land inside the bookings
