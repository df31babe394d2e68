"""A saved match (``Match.to_dict`` / ``from_dict``, pickles) keeps every setting the
match was made with."""

from __future__ import annotations

import json
import pickle

from hypothesis import given, settings
from hypothesis import strategies as st

from ofc_fast import rules
from ofc_fast.bots import RandomBot
from ofc_fast.game import Match

# What Match(...) takes, as the attributes that hold it (``stacks`` as start_stacks).
SETTINGS = (
    "rules",
    "players",
    "seed",
    "start_stacks",
    "button",
    "fantasyland",
    "keep_nets",
)


def _settings(m: Match) -> dict[str, object]:
    return {k: getattr(m, k) for k in SETTINGS}


@settings(max_examples=30, deadline=None)
@given(
    players=st.integers(2, 3),
    seed=st.integers(0, 2**64 - 1),
    stacks=st.none() | st.integers(20, 300),
    button=st.integers(0, 2),
    in_fantasyland=st.lists(st.booleans(), min_size=3, max_size=3),
    keep_nets=st.booleans(),
    deals=st.integers(0, 2),
)
def test_a_saved_match_keeps_its_settings(
    players: int,
    seed: int,
    stacks: int | None,
    button: int,
    in_fantasyland: list[bool],
    keep_nets: bool,
    deals: int,
) -> None:
    """Regression: ``Match(..., keep_nets=True)`` saved with ``to_dict()`` came back
    from ``from_dict()`` with ``keep_nets=False``: a resumed match silently stopped
    keeping each deal's nets.  Every setting comes back, through JSON and pickles; the
    nets of the deals already played are not saved, those played on are kept."""
    fl = [15 if f else 0 for f in in_fantasyland[:players]]
    m = Match(
        rules.PINEAPPLE,
        players,
        seed,
        stacks,
        button=button % players,
        fantasyland=fl,
        keep_nets=keep_nets,
    )
    m.play([RandomBot(s) for s in range(players)], deals)
    back = Match.from_dict(json.loads(json.dumps(m.to_dict())))
    assert _settings(back) == _settings(m)
    assert _settings(pickle.loads(pickle.dumps(m))) == _settings(m)
    assert back.to_dict() == m.to_dict()
    before = back.hands_played
    for match in (m, back):  # the same bots, in the same state, for each
        match.play([RandomBot(s) for s in range(players)], 1)
    assert back.to_dict() == m.to_dict()
    played_on = back.hands_played - before  # 0 when the chips had run out
    assert [len(s.net) for s in back.stats] == [played_on if keep_nets else 0] * players


def test_a_saved_match_from_before_keep_nets_was_saved_keeps_none() -> None:
    """A file written before ``keep_nets`` was saved (no such key) reads as it did:
    a match that keeps no nets."""
    data = Match(rules.PINEAPPLE, 2, seed=1, keep_nets=True).to_dict()
    del data["keep_nets"]
    assert Match.from_dict(data).keep_nets is False
