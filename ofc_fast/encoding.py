"""Fixed-size numeric views of an observation, for reinforcement learning.

:func:`encode` turns :meth:`ofc_fast.game.Game.observation` into one float32 vector of
:data:`ENCODING_SIZE` values (the same layout for every rule set and 2 to 4 seats);
:func:`action_mask` gives the :data:`~ofc_fast.game.ACTION_SPACE` booleans of the
legal actions.  Both read only the observation, so they never see more than the seat
may see.

>>> from ofc_fast import rules
>>> from ofc_fast.game import Game
>>> g = Game(rules.PINEAPPLE, players=3, seed=1)
>>> obs = g.observation(g.to_act)
>>> x = encode(obs)
>>> x.shape, int(x[CARD_PLANES.index("dealt") * 52:][:52].sum())
((828,), 5)
>>> int(action_mask(obs).sum())
232

Layout: 15 planes of 52 cards (card id = 4 * rank + suit), seats taken relative to the
observer (0 = self, 1 = the next seat clockwise, ...):

* planes 0-11: front, middle, back of relative seats 0..3 (face-up cards, and all of
  one's own);
* plane 12 ``dealt``: one's cards to play now; 13 ``discards``: one's discards;
  14 ``unknown``: cards this seat has not seen;

then 48 scalars: relative seat of the button (4, one-hot), seats present (4), seat to
act (4, one-hot), Fantasyland cards this deal / 17 (4), hidden cards per seat and row
/ 5 (12), discards per seat / 4 (4), street / 8, cards to discard, future cards / 16,
future discards / 4, full set, face down, is over, game kind (classic, OFC, Pineapple
one-hot, 3), 2-7 middle, padding (5).
"""

from __future__ import annotations

from typing import Any, Mapping

import numpy as np

from .game import ACTION_SPACE

__all__ = ["encode", "action_mask", "ENCODING_SIZE", "CARD_PLANES", "MAX_SEATS"]

MAX_SEATS = 4
CARD_PLANES = tuple(f"seat{s}_{row}" for s in range(MAX_SEATS)
                    for row in ("front", "middle", "back")) + ("dealt", "discards",
                                                               "unknown")
_SCALARS = 48
ENCODING_SIZE = len(CARD_PLANES) * 52 + _SCALARS
_GAMES = {"classic": 0, "ofc": 1, "pineapple": 2}


def encode(obs: Mapping[str, Any]) -> np.ndarray:
    """The observation as a float32 vector of :data:`ENCODING_SIZE` values."""
    seat, n = obs["seat"], obs["players"]
    planes = np.zeros((len(CARD_PLANES), 52), dtype=np.float32)
    seen = np.zeros(52, dtype=bool)
    for s in range(n):
        rel = (s - seat) % n
        for row, cards in enumerate(obs["boards"][s]):
            planes[3 * rel + row, cards] = 1.0
            seen[cards] = True
    planes[12, obs["dealt"]] = 1.0
    planes[13, obs["discards"]] = 1.0
    seen[obs["dealt"]] = True
    seen[obs["discards"]] = True
    planes[14] = ~seen
    sc = np.zeros(_SCALARS, dtype=np.float32)
    sc[(obs["button"] - seat) % n] = 1.0
    sc[4:4 + n] = 1.0
    if obs["to_act"] is not None:
        sc[8 + (obs["to_act"] - seat) % n] = 1.0
    for s in range(n):
        rel = (s - seat) % n
        sc[12 + rel] = obs["fantasyland"][s] / 17.0
        sc[16 + 3 * rel:19 + 3 * rel] = np.asarray(obs["face_down_counts"][s], dtype=np.float32) / 5.0
        sc[28 + rel] = obs["discard_counts"][s] / 4.0
    sc[32] = obs["street"] / 8.0
    sc[33] = obs["to_discard"]
    sc[34] = obs["future_cards"] / 16.0
    sc[35] = obs["future_discards"] / 4.0
    sc[36] = float(obs.get("full_set", False))
    sc[37] = float(obs.get("face_down", False))
    sc[38] = float(obs["is_over"])
    sc[39 + _GAMES.get(obs["game"], 1)] = 1.0
    sc[42] = float(obs.get("lowball", False))
    return np.concatenate([planes.reshape(-1), sc])


def action_mask(obs: Mapping[str, Any]) -> np.ndarray:
    """Booleans over the action space: True for the legal actions of the observing
    seat (all False when it is not its turn or the decision is a full set)."""
    mask = np.zeros(ACTION_SPACE, dtype=bool)
    acts = obs.get("legal_actions")
    if acts:
        mask[acts] = True
    return mask
