"""Rule sets: the model (frozen dataclasses) and the named presets.

>>> from ofc_fast import rules
>>> [name for name in rules.names()][:3]
['OFC', 'PINEAPPLE', 'PROGRESSIVE_PINEAPPLE']
>>> table = rules.OFC.replace(name="home game", royalties=rules.ROYALTIES_FLAT_TRIPS)
>>> rules.RuleSet.from_json(table.to_json()) == table
True
"""

from ..ranking import HandCategory
from ._diff import differing_fields as differing_fields  # for learned, arena
from ._diff import play_key as play_key  # for learned, bots (caches by rule set)
from ._fantasyland_text import front_threshold
from ._fields import unique_keys as unique_keys  # for serve (JSON bodies)
from ._lookup import as_rules, get, names
from ._lookup import carried_rules as carried_rules  # for game, env, bots, search, serve
from ._lookup import observation_rules as observation_rules
from .model import LABEL_FIELDS as LABEL_FIELDS  # for learned, arena (a renamed preset)
from .model import (
    NATURAL_NAMES,
    Fantasyland,
    GameKind,
    Lowball,
    MajorityRule,
    Natural,
    NaturalsRule,
    OrderRule,
    Pool,
    RuleSet,
    Schedule,
    SettlementStart,
    StakesModel,
)
from .model import (
    Game as Game,  # the former name of GameKind, kept
)
from .presets import (
    CLASSIC_1_6,
    CLASSIC_2_4,
    CLASSIC_WIN_BONUS,
    HAWAIIAN_GARDENS,
    MALAYAN,
    OFC,
    PINEAPPLE,
    PINEAPPLE_27,
    PRESETS,
    PROGRESSIVE_PINEAPPLE,
    ROYALTIES_001_STANDARD,
    ROYALTIES_ALT_2,
    ROYALTIES_ALT_3,
    ROYALTIES_ALT_4,
    ROYALTIES_FLAT_TRIPS,
    ROYALTIES_OFC,
    SINGAPORE,
    TYPICAL_NATURALS,
    ULTIMATE_PINEAPPLE,
    VIETNAMESE,
    RulesLike,
)

__all__ = [
    "CLASSIC_1_6",
    "CLASSIC_2_4",
    "CLASSIC_WIN_BONUS",
    "HAWAIIAN_GARDENS",
    "MALAYAN",
    "NATURAL_NAMES",
    "OFC",
    "PINEAPPLE",
    "PINEAPPLE_27",
    "PRESETS",
    "PROGRESSIVE_PINEAPPLE",
    "ROYALTIES_001_STANDARD",
    "ROYALTIES_ALT_2",
    "ROYALTIES_ALT_3",
    "ROYALTIES_ALT_4",
    "ROYALTIES_FLAT_TRIPS",
    "ROYALTIES_OFC",
    "SINGAPORE",
    "TYPICAL_NATURALS",
    "ULTIMATE_PINEAPPLE",
    "VIETNAMESE",
    "Fantasyland",
    "GameKind",
    "HandCategory",
    "Lowball",
    "MajorityRule",
    "Natural",
    "NaturalsRule",
    "OrderRule",
    "Pool",
    "RuleSet",
    "RulesLike",
    "Schedule",
    "SettlementStart",
    "StakesModel",
    "as_rules",
    "front_threshold",
    "get",
    "names",
]
