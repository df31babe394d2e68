"""Game ids: the other names of the presets, one table for :func:`ofc_fast.rules.get`
and the arena (``ofc-fast arena --rules``, the wire protocol's ``game_id``).

The poker-arena OFC protocol (``WIRE_PROTOCOL_OFC.md``, v1) names four games; each
maps to one of our presets, and every other preset gets an id of our own (prefix
``ofcfast-``).  ``ofc_fast.arena._games`` says where the presets and that document
differ.

>>> GAME_IDS["ofc-pineapple"], GAME_IDS["ofcfast-ultimate-pineapple"]
('PINEAPPLE', 'ULTIMATE_PINEAPPLE')
>>> game_id("PINEAPPLE_27")
'ofc-27'
"""

from __future__ import annotations

from .presets import PRESETS

__all__ = ["GAME_IDS", "OWN_PREFIX", "PROTOCOL_GAME_IDS", "game_id"]

PROTOCOL_GAME_IDS = {
    "ofc": "OFC",
    "ofc-pineapple": "PINEAPPLE",
    "ofc-progressive": "PROGRESSIVE_PINEAPPLE",
    "ofc-27": "PINEAPPLE_27",
}
"""The four game ids of the protocol document -> our preset names."""

OWN_PREFIX = "ofcfast-"
"""The prefix of the game ids of our other presets."""

GAME_IDS: dict[str, str] = {
    **PROTOCOL_GAME_IDS,
    **{
        OWN_PREFIX + name.lower().replace("_", "-"): name
        for name in PRESETS
        if name not in PROTOCOL_GAME_IDS.values()
    },
}
"""Every game id -> preset name."""

_ID_OF = {name: gid for gid, name in GAME_IDS.items()}


def game_id(preset: str) -> str | None:
    """The game id of a preset name (None for a name that is no preset).

    >>> game_id("PINEAPPLE"), game_id("MALAYAN"), game_id("mine")
    ('ofc-pineapple', 'ofcfast-malayan', None)
    """
    return _ID_OF.get(preset)
