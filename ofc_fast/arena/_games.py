"""Game ids of the wire protocol and the rule sets they stand for.

The poker-arena OFC protocol (``WIRE_PROTOCOL_OFC.md``, v1) names four games; each
maps to one of our presets, and every other preset gets an id of our own (prefix
``ofcfast-``) carried with the same message shapes.  The table is
:data:`ofc_fast.rules.game_ids.GAME_IDS`, the one :func:`ofc_fast.rules.get` reads
too, so a game id is a rule set name everywhere.

Where our presets and that document differ (the mapping follows our presets, so
that a game id and a preset are one and the same rule set in both directions):

* ``ofc-pineapple`` -> ``PINEAPPLE``: our preset also keeps Fantasyland on a middle
  full house or better (the document: top trips or bottom quads+ only).
* Royalty schedules are not spelled out by the document; ours are
  ``ROYALTIES_OFC`` (R-ROY-OFC-3/4).
* Showdown row values are our engine's: strengths 1..7917 (larger is better) and,
  for a 2-7 middle, the 2-7 value of :func:`ofc_fast.ranking.low27` (larger is
  better): opaque numbers, as the document says, but not poker-arena's numbers.
* Classic presets (``ofcfast-classic-1-6`` ...) play one 13-card set per seat,
  face down (``place: 13, discard: 0``); naturals and surrender cannot be said in
  the protocol, so a wire bot never declares nor surrenders.

>>> rules_for_game_id("ofc-27").name
'PINEAPPLE_27'
>>> game_id_of(rules_for_game_id("ofcfast-ultimate-pineapple"))
'ofcfast-ultimate-pineapple'
"""

from __future__ import annotations

from functools import cache

from ..errors import ArenaError, ArenaRulesError, RulesError, quote
from ..rules import PRESETS, RuleSet, RulesLike, as_rules, differing_fields, play_key
from ..rules.game_ids import GAME_IDS, PROTOCOL_GAME_IDS, game_id

__all__ = [
    "GAME_IDS",
    "PROTOCOL_GAME_IDS",
    "check_bot_count",
    "game_id_of",
    "resolve_arena_rules",
    "rules_for_game_id",
]


def rules_for_game_id(game_id: str) -> RuleSet:
    """The rule set a game id names (ArenaError for an unknown id, or one that is no
    text).

    >>> rules_for_game_id("ofc-pineapple").name
    'PINEAPPLE'
    """
    # (text only: str() of a list nested deep, or of a huge int, raises its own error)
    name = GAME_IDS.get(game_id) if isinstance(game_id, str) else None
    if name is None:
        raise ArenaError(
            f"unknown game id {quote(game_id, 42)}; known: {', '.join(GAME_IDS)}"
        )
    return PRESETS[name]


def _preset_of(rules: RuleSet) -> RuleSet | None:
    """The preset whose rules ``rules`` holds, its labels aside (a preset renamed or
    described anew plays the preset's game: :data:`~ofc_fast.rules.LABEL_FIELDS`), or
    None."""
    preset = PRESETS.get(rules.name)
    if preset is not None and preset == rules:  # (a preset itself: the fast way)
        return preset
    return _presets_by_play().get(play_key(rules))


@cache
def _presets_by_play() -> dict[tuple[object, ...], RuleSet]:
    """The presets by :func:`~ofc_fast.rules.play_key` (the first of any that play
    alike), built once: the check runs for every deal a history records."""
    found: dict[tuple[object, ...], RuleSet] = {}
    for preset in PRESETS.values():
        found.setdefault(play_key(preset), preset)
    return found


def game_id_of(rules: RulesLike) -> str:
    """The game id of a preset, or of a rule set holding a preset's rules under
    another name (ArenaError for other rules: a game id must tell a bot the whole
    rules).

    >>> from ofc_fast.rules import PINEAPPLE
    >>> game_id_of(PINEAPPLE)
    'ofc-pineapple'
    >>> game_id_of(PINEAPPLE.replace(name="thursday"))
    'ofc-pineapple'
    """
    rules = as_rules(rules, "game_id_of")
    preset = _preset_of(rules)
    gid = None if preset is None else game_id(preset.name)
    if gid is None:
        named = PRESETS.get(rules.name)  # (an edited copy of a preset's rules file)
        differ = (
            ""
            if named is None
            else f" (they differ from the preset {named.name} in "
            f"{', '.join(differing_fields(rules, named))})"
        )
        raise ArenaError(
            f"rules {rules.name!r} are not a preset{differ}: the wire protocol can "
            f"only name presets ({', '.join(GAME_IDS)})"
        )
    return gid


def resolve_arena_rules(value: str | RuleSet) -> RuleSet:
    """A RuleSet from a game id (``ofc-pineapple``) or a preset name (``pineapple``);
    a RuleSet holding a preset's rules (renamed, described anew) is that preset.
    ArenaRulesError (a RulesError and an ArenaError) for anything else, with the
    message of :func:`~ofc_fast.rules.as_rules` (an unknown name, a value that is no
    rules); ArenaError for rules of no preset (:func:`game_id_of`).

    >>> resolve_arena_rules("pineapple") is resolve_arena_rules("ofc-pineapple")
    True
    """
    try:  # the one resolver: a preset name or a game id (one table), else refused
        rules = as_rules(value, "arena")  # as every taker of rules (not str(5): '5')
    except RulesError as exc:
        raise ArenaRulesError(str(exc)) from None
    return rules_for_game_id(game_id_of(rules))


def check_bot_count(rules: RuleSet, n: int, each: str = "") -> None:
    """ArenaError unless the game of ``rules`` seats ``n`` bots (``each``: words said
    after the range, the command line's "(one --bot each)")."""
    if not 2 <= n <= rules.max_players:
        raise ArenaError(
            f"{game_id_of(rules)} seats 2 to {rules.max_players} bots{each}, got {n}"
        )
