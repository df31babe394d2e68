"""Comparisons between the game engine (``ofc_fast.Game``) and the independent model of
``game_model.py``, shared by the differential and the property tests.

Every helper reads the engine only through its public API (``to_act``, ``dealt``,
``to_discard``, ``legal_actions``, ``action_mask``, ``legal_moves``, ``observation``,
``boards``, ``result``, ``history``) plus ``_state_bytes()`` when the engine has it.
"""

from __future__ import annotations

import json
import random
from collections.abc import Sequence
from typing import Any

import game_model as gm
import numpy as np

import ofc_fast
from ofc_fast import Move, OfcError, Row
from ofc_fast.encoding import encode_game
from ofc_fast.rules.model import GameKind as Kind

ROWS = (Row.FRONT, Row.MIDDLE, Row.BACK)

# Observation fields that hold no card ids (counts, seats, flags, action numbers).  Every
# other field is searched, at any depth, for card ids the seat may not know: a new field
# holding other integers must be added here (or named ``*_count`` / ``*_counts``).
NON_CARD_KEYS = frozenset(
    {
        "seat",
        "players",
        "button",
        "rules",
        "rule_set",  # the rule set of a game whose rules are no preset (its numbers)
        "game",
        "lowball",
        "to_act",
        "is_over",
        "street",
        "fantasyland",
        "hidden",
        "face_down_counts",
        "to_discard",
        "future_cards",
        "future_discards",
        "legal_actions",
        "full_set",
        "face_down",
        "result",
        "stacks",
        "action_mask",
        "decisions",
    }
)


def is_count_key(key: str) -> bool:
    return key in NON_CARD_KEYS or key.endswith("_count") or key.endswith("_counts")


def engine_deck(g: ofc_fast.Game) -> list[int]:
    """The engine's deck: ``Game.deck`` (the engine) or the history's (today)."""
    deck = getattr(g, "deck", None)
    return list(deck if deck is not None else g.history()["deck"])


def card_ints(obj: Any) -> list[int]:
    """Every int (card id) inside nested lists / tuples / dicts."""
    if isinstance(obj, bool):
        return []
    if isinstance(obj, int):
        return [obj]
    if isinstance(obj, dict):
        return [c for v in obj.values() for c in card_ints(v)]
    if isinstance(obj, (list, tuple)):
        return [c for v in obj for c in card_ints(v)]
    return []


def engine_legal_actions(g: ofc_fast.Game) -> list[int] | None:
    """Sorted legal actions, or None when the engine says the decision is a full set
    (it refuses with an OfcError or returns no actions)."""
    try:
        acts = [int(a) for a in g.legal_actions()]
    except OfcError:
        return None
    return sorted(acts) if acts else None


# ------------------------------------------------------------------- state checks


def check_decision(g: ofc_fast.Game, m: gm.DealModel, moves_too: bool = False) -> None:
    """The engine's public state equals the model's at a decision (or at the end)."""
    assert g.is_over == m.is_over
    assert g.to_act == m.to_act
    assert list(g.dealt) == m.dealt
    assert g.to_discard == m.to_discard
    legal = m.legal_actions()
    if m.is_over:
        assert engine_legal_actions(g) is None  # none left (or refused)
        return
    got = engine_legal_actions(g)
    assert got == (list(legal) if legal is not None else None), (got, legal)
    if legal is not None:
        mask = [i for i, v in enumerate(g.action_mask()) if v]
        assert mask == list(legal)
        assert len(g.action_mask()) == gm.ACTION_SPACE
        if moves_too:
            assert {mv.key() for mv in g.legal_moves()} == {
                action_move(m, a).key() for a in legal
            }


def check_observation(g: ofc_fast.Game, m: gm.DealModel, me: int) -> None:
    """``me``'s observation shows exactly what the information model allows."""
    obs = g.observation(me)
    assert "deck" not in obs
    knowable = m.knowable(me)
    for key, value in obs.items():
        if not is_count_key(key):
            leaked = [c for c in card_ints(value) if c not in knowable]
            assert not leaked, f"seat {me} sees {leaked} in {key!r}: {value!r}"
    assert obs["to_act"] == m.to_act and obs["is_over"] == m.is_over
    assert list(obs["fantasyland"]) == list(m.fl)
    # the RL encoding (the C encoder the vector environment writes) shows exactly the
    # cards of the observation, all knowable, and marks the rest unseen
    x = encode_game(g, me)
    planes = x[: 15 * 52].reshape(15, 52)
    shown = set(np.flatnonzero(planes[:14].any(axis=0)).tolist())
    assert shown <= knowable, f"seat {me}'s encoding shows {sorted(shown - knowable)}"
    assert shown == set(card_ints([obs["boards"], obs["discards"], obs["dealt"]]))
    assert set(np.flatnonzero(planes[14]).tolist()) == set(range(52)) - shown
    counts = obs.get("face_down_counts", obs.get("hidden"))
    for o in range(m.players):
        shown = m.shown_rows(me, o)
        got = [sorted(r) for r in obs["boards"][o]]
        if shown is None:  # a declared natural: shown once over, rows engine's choice
            assert sorted(c for r in got for c in r) == sorted(m.board_cards(o))
        else:
            assert got == shown, (me, o, got, shown)
        if o != me and not m.is_over:
            assert list(counts[o]) == m.face_down_counts(me, o), (me, o, counts)
    assert sorted(obs["discards"]) == sorted(m.discards[me])
    assert list(obs["discard_counts"]) == [len(d) for d in m.discards]
    mine = m.to_act == me
    assert list(obs["dealt"] or []) == (m.dealt if mine else [])
    if "to_discard" in obs:
        assert obs["to_discard"] == (m.to_discard if mine else 0)
    legal = m.legal_actions() if mine else None
    if legal is not None:
        assert list(obs["legal_actions"]) == list(legal)
    else:
        assert not obs.get("legal_actions")
    if mine and "future_cards" in obs:
        assert (obs["future_cards"], obs["future_discards"]) == m.future(me)
    if "street" in obs and not m.is_over:
        assert obs["street"] == m.step.street


def check_result(g: ofc_fast.Game, m: gm.DealModel) -> None:
    """Final boards, fouls, royalties, nets and Fantasyland of a finished deal."""
    exp = m.result()
    res = g.result()
    for s, b in enumerate(g.boards):
        if s in m.unset_cards:
            assert sorted(b.cards) == sorted(m.unset_cards[s])
        else:
            assert [sorted(r) for r in b.rows] == [sorted(r) for r in m.rows[s]]
    assert list(res.net) == exp["net"], (res.net, exp["net"])
    assert [bool(f) for f in res.fouls] == exp["fouls"]
    assert [tuple(x) for x in res.royalties] == exp["royalties"]
    assert list(res.fantasyland) == exp["fantasyland"]
    assert tuple(res.surrendered) == tuple(sorted(m.surrendered))
    assert dict(res.declared) == m.declared


def snapshot(g: ofc_fast.Game) -> tuple:
    """Everything observable about a state, for 'unchanged' checks: the raw engine
    bytes when the engine has them, the history, every seat's observation."""
    raw = getattr(g, "_state_bytes", None)
    obs = [
        json.dumps(g.observation(s), sort_keys=True, default=str) for s in range(g.players)
    ]
    return (
        raw() if raw is not None else None,
        json.dumps(g.history(), sort_keys=True, default=str),
        obs,
        g.to_act,
        tuple(g.dealt),
        g.is_over,
    )


# ------------------------------------------------------------------- moves


def action_move(m: gm.DealModel, action: int) -> Move:
    """The Move of a legal action, built from the model's decoding."""
    st, dealt = m.step, m.dealt
    disc, kept = gm.decode_action(st.n, st.k, action)
    return Move([(dealt[i], ROWS[r]) for i, r in kept], discard=[dealt[i] for i in disc])


def random_set(
    dealt: Sequence[int], k: int, rng: random.Random
) -> tuple[list[tuple[int, int]], list[int]]:
    """A uniformly random full set: k discards, then front 3 / middle 5 / back 5."""
    cs = list(dealt)
    rng.shuffle(cs)
    keep, disc = cs[: len(cs) - k], cs[len(cs) - k :]
    rows = [0] * 3 + [1] * 5 + [2] * 5
    return list(zip(keep, rows)), disc


def set_move(placements: Sequence[tuple[int, int]], discards: Sequence[int]) -> Move:
    return Move([(c, ROWS[r]) for c, r in placements], discard=list(discards) or None)


def paid_naturals(m: gm.DealModel) -> list[str]:
    """Naturals the rules pay that the current classic hand makes (reference)."""
    names = {nat.name for nat in m.rules.naturals}
    if not names:
        return []
    import reference_naturals as ref_nat

    return sorted(names & set(ref_nat.naturals(m.dealt)))


def random_decision(
    g: ofc_fast.Game, m: gm.DealModel, rng: random.Random, natural_rate: float = 0.1
) -> None:
    """Make one random decision on both the engine and the model: a uniform legal
    action (through play_action or, sometimes, play(Move)), or a random full set, or
    (classic) a declaration / surrender."""
    legal = m.legal_actions()
    if legal is not None:
        a = rng.choice(legal)
        if rng.random() < 0.25:
            g.play(action_move(m, a))
        else:
            g.play_action(a)
        m.play_action(a)
        return
    if m.rules.game is Kind.CLASSIC:
        if m.rules.surrender_cost is not None and rng.random() < 0.08:
            g.play(Move(surrender=True))
            m.surrender()
            return
        if rng.random() < natural_rate:
            nats = paid_naturals(m)
            if nats:
                name = rng.choice(nats)
                g.play(Move(declare=name))
                m.declare(name)
                return
    placements, discards = random_set(m.dealt, m.to_discard, rng)
    g.play(set_move(placements, discards))
    m.play_set(placements, discards)


# ------------------------------------------------------------------ deal setup


def random_setup(r: ofc_fast.RuleSet, rng: random.Random) -> dict[str, Any]:
    """Random seats, button, Fantasyland counts (when the deck suffices), stacks
    (sometimes) and a 64-bit seed for one deal."""
    players = rng.randint(2, r.max_players)
    fl = [0] * players
    counts = gm.fantasyland_counts(r)
    if counts and rng.random() < 0.4:
        fl = [rng.choice(counts) if rng.random() < 0.5 else 0 for _ in range(players)]
        while gm.cards_needed(r, fl) > 52:
            fl[fl.index(max(fl))] = 0
    stacks = [rng.randint(0, 40) for _ in range(players)] if rng.random() < 0.2 else None
    return {
        "players": players,
        "button": rng.randrange(players),
        "fl": tuple(fl),
        "stacks": stacks,
        "seed": rng.getrandbits(64),
    }


def new_pair(
    r: ofc_fast.RuleSet,
    setup: dict[str, Any],
    explicit_deck: bool,
    deck: list[int] | None = None,
) -> tuple[ofc_fast.Game, gm.DealModel]:
    """The engine's game and the model of one deal; the engine's deck comes from the
    seed (checked against the spec RNG) unless ``explicit_deck`` (then ``deck`` or the
    seed's deck is passed explicitly)."""
    if deck is None:
        deck = gm.deck_of_seed(setup["seed"])
    else:
        assert explicit_deck
    m = gm.DealModel(
        r, setup["players"], setup["button"], setup["fl"], deck, setup["stacks"]
    )
    kwargs: dict[str, Any] = {
        "button": setup["button"],
        "fantasyland": setup["fl"],
        "stacks": setup["stacks"],
    }
    if explicit_deck:
        g = ofc_fast.Game(r, setup["players"], deck=deck, **kwargs)
    else:
        g = ofc_fast.Game(r, setup["players"], seed=setup["seed"], **kwargs)
        assert engine_deck(g) == deck, f"seed {setup['seed']}: the deck is not the spec's"
    return g, m


def random_decision_cards(
    m: gm.DealModel, rng: random.Random
) -> tuple[list[tuple[int, int]], list[int]]:
    """(placements, discards) of a uniformly random legal action of a normal decision."""
    legal = m.legal_actions()
    assert legal is not None
    st, dealt = m.step, m.dealt
    disc, kept = gm.decode_action(st.n, st.k, rng.choice(legal))
    return [(dealt[i], r) for i, r in kept], [dealt[i] for i in disc]
