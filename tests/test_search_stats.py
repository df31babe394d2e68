"""The foul / Fantasyland / royalties statistics of advise (counted in C in the same
rollouts, csrc/include/ofc_search.h ofc_search_stats) against brute force written here on the
independent references (reference_scoring, reference_fantasyland)."""

from __future__ import annotations

import random
from itertools import combinations

import pytest
import reference_scoring as rs
from test_search import (
    STUDY,
    completions,
    deal_value,
    final_board,
    fl_values,
    flat,
    layout,
    next_fl,
)

import ofc_fast as ofc
from ofc_fast import rules
from ofc_fast.search import advise, make_observation

P = rules.PINEAPPLE


def brute_stats(board: list[int], in_fl: int = 0) -> tuple[float, float, float]:
    """(foul, fantasyland, royalties) of a finished board, from the references."""
    foul = rs.is_foul(board)
    return (
        float(foul),
        float(next_fl(board, in_fl) > 0),
        float(sum(rs.ofc_royalties(board))),
    )


@pytest.mark.parametrize("players", [2, 3])
@pytest.mark.parametrize("exact", [True, False])
def test_last_street_stats_are_0_or_1_and_equal_brute_force(
    players: int, exact: bool
) -> None:
    """Every other board complete: the move fixes the seat's board, so foul and
    fantasyland are 0 or 1 (sampled or exact) and equal the references'."""
    rng = random.Random(17 + players)
    seen = set()
    for _ in range(12):
        deck = list(range(52))
        rng.shuffle(deck)
        opps = [layout(deck[13 * i : 13 * i + 13], (3, 5, 5)) for i in range(players - 1)]
        at = 13 * (players - 1)
        sizes = rng.choice([(2, 4, 5), (3, 3, 5), (3, 4, 4), (1, 5, 5), (3, 5, 3)])
        own = layout(deck[at : at + 11], sizes)
        obs = make_observation(P, own, deck[at + 11 : at + 14], opps)
        sampled = {} if exact else {"samples": 8, "seed": 3}
        advice = advise(obs, exact=exact, **sampled)  # type: ignore[arg-type]
        for a in advice:
            assert a.exact is exact
            got = (a.foul, a.fantasyland, a.royalties)
            assert a.foul in (0.0, 1.0) and a.fantasyland in (0.0, 1.0)
            assert got == brute_stats(flat(final_board(own, a.move)))
            seen.add(got[:2])
    assert len(seen) >= 2  # both fouls and legal boards (or Fantasyland) were met


def test_last_two_streets_stats_equal_expectimax_brute_force() -> None:
    """Exact search one street earlier: the expectation, over every own draw, of the
    completion the search picks (ties between completions of different statistics are
    counted as either: the bound is their share)."""
    rng = random.Random(8)
    fl = fl_values(STUDY)
    deck = list(range(52))
    rng.shuffle(deck)
    opp = layout(deck[0:13], (3, 5, 5))
    own = layout(deck[13:22], (2, 3, 4))
    dealt, dead, unseen = deck[22:25], deck[25:40], deck[40:]
    obs = make_observation(P, own, dealt, [opp], dead)
    advice = advise(obs, exact=True)
    varied = 0
    for a in advice:
        rows = final_board(own, a.move)
        sums, ties = [0.0, 0.0, 0.0], 0
        draws = list(combinations(unseen, 3))
        for draw in draws:
            boards = list(completions(rows, list(draw), [(3, 1)]))
            values = [deal_value(b, [flat(opp)], fl) for b in boards]
            top = max(values)
            picks = {brute_stats(b) for b, v in zip(boards, values) if abs(v - top) < 1e-9}
            ties += len(picks) > 1
            for i, x in enumerate(min(picks)):
                sums[i] += x
        want = [x / len(draws) for x in sums]
        slack = ties / len(draws) + 1e-9
        assert a.foul == pytest.approx(want[0], abs=slack)
        assert a.fantasyland == pytest.approx(want[1], abs=slack)
        assert a.royalties == pytest.approx(want[2], abs=slack * 50)
        varied += 0 < a.foul < 1 or 0 < a.fantasyland < 1
    assert varied  # fractions, not only 0 / 1


def test_sampled_stats_are_fractions_of_the_samples_and_reproducible() -> None:
    g = ofc.Game("pineapple", players=2, seed=11)
    a = advise(g, samples=32, seed=4)
    assert a == advise(g, samples=32, seed=4)
    for x in a:
        for p in (x.foul, x.fantasyland):
            assert 0 <= p <= 1 and (p * 32) == pytest.approx(round(p * 32))
        assert x.royalties >= 0


def test_cli_advise_reports_foul_and_fantasyland(
    capsys: pytest.CaptureFixture[str],
) -> None:
    from ofc_fast.cli import main

    args = ["advise", "--board", "Qh / 9s 9h / As Ks", "--opponent", "7c / 8d 8h / 4s 4d"]
    assert main([*args, "--dealt", "2c 5d Ts", "--samples", "16", "--top", "2"]) == 0
    out = capsys.readouterr().out
    assert "foul%" in out and "FL%" in out
    assert main([*args, "--dealt", "2c 5d Ts", "--samples", "16", "--json"]) == 0
    import json

    rows = json.loads(capsys.readouterr().out)
    assert all({"foul", "fantasyland", "royalties"} <= set(r) for r in rows)


@pytest.mark.parametrize("players", [2, 3])
def test_moves_the_model_screened_out_say_they_were_not_sampled(players: int) -> None:
    """Regression: ``advise(model="auto", prune=True)`` at an opening (the model
    screens all but 30 of its 232 moves out of the rollouts) gave each unsampled move
    stderr 0.0 and foul, fantasyland and royalties 0.0: figures never measured, read
    as a certain, clean, royalty-free move.  Now they are None (JSON null, ``-`` on
    the command line), ``source`` is ``"model"`` (the ev is the model's value alone)
    and the sampled moves say ``"rollouts"``; the HTTP schema of an analysed move
    admits both."""
    import json

    jsonschema = pytest.importorskip("jsonschema", reason='pip install ".[test]"')
    from ofc_fast.serve._routes import advice_json
    from ofc_fast.serve._schemas import openapi

    g = ofc.Game(P, players=players, seed=7)
    a = advise(g, samples=32, seed=2, model="auto", prune=True)
    unsampled = [x for x in a if x.samples == 0]
    assert len(a) == 232 and len(unsampled) == 232 - 30  # the screen: 30 kept
    for x in a:
        figures = (x.stderr, x.foul, x.fantasyland, x.royalties)
        if x.samples == 0:
            assert figures == (None, None, None, None) and x.source == "model"
        else:
            assert None not in figures and x.source == "rollouts"
        row = json.loads(json.dumps(x.as_dict()))
        assert row["source"] == x.source and row["samples"] == x.samples
        assert [row[k] for k in ("stderr", "foul", "fantasyland", "royalties")] == [
            *figures
        ]
    doc = openapi()
    schema = {**doc["components"]["schemas"]["AnalyzedMove"], **doc}
    validator = jsonschema.Draft202012Validator(schema)
    for x in (a[0], unsampled[0]):
        validator.validate(advice_json(x))
    with pytest.raises(jsonschema.ValidationError):  # (the schema reads the field)
        validator.validate({**advice_json(unsampled[0]), "source": "guess"})
    exact = advise(ofc.Game(P, players=2, seed=7), exact=False, samples=4)
    assert {x.source for x in exact} == {"rollouts"}


def test_exact_advice_names_its_source() -> None:
    """An exact search's records say ``source == "exact"`` (0 samples, stderr 0)."""
    g = ofc.Game(P, players=2, seed=7)
    while g.street < 4:  # the last street: one decision left, exact when heads-up
        g.play_action(g.legal_actions()[0])
    a = advise(g, exact=True)
    assert a and all(x.exact and x.source == "exact" and x.stderr == 0.0 for x in a)
