"""Naturals: the special 13-card hands of classic Chinese Poker (R-NAT-*, docs/rules.md section 9).

A natural is declared instead of set (R-NAT-2): it beats any ordinary hand and wins
its units from each opponent; two naturals settle by the rule set's
:class:`~ofc_fast.rules.model.NaturalsRule` (R-NAT-6).  Detection is one C call
(``ofc_naturals`` in ``csrc/include/ofc_naturals.h``, where every definition and tie-break is
documented).

>>> from ofc_fast import rules
>>> from ofc_fast.scoring.naturals import naturals, natural_payment
>>> dragon = "2c 3d 4h 5s 6c 7d 8h 9s Tc Jd Qh Ks Ac"
>>> [n.name for n in naturals(dragon, rules.SINGAPORE)]    # best first
['dragon', 'three_straights']
>>> pairs = naturals("2c 2d 3c 3d 4c 4d 5c 5d 6c 6d 7c 7d Kh", rules.SINGAPORE)[0]
>>> pairs.name, pairs.units
('six_pairs', 3)
>>> natural_payment(naturals(dragon, rules.SINGAPORE)[0], pairs, rules.SINGAPORE)
13
>>> natural_payment(None, pairs, rules.SINGAPORE)          # an ordinary hand pays 3
-3
"""

from __future__ import annotations

from dataclasses import dataclass

from .._native import OK, ffi, lib, status_error
from ..board import Board, hand_cards
from ..cards import CardsLike, cards_str
from ..errors import CardError, RulesError, match_choice, quote
from ..rules import as_rules
from ..rules.compiled import table_rules
from ..rules.model import NATURAL_NAMES, RuleSet
from ..rules.presets import RulesLike
from ..table import as_int

__all__ = ["NaturalHand", "detect_naturals", "natural_payment", "naturals"]

_COUNT: int = lib.OFC_NAT_COUNT
_THREE_STRAIGHTS = NATURAL_NAMES.index("three_straights")
_THREE_FLUSHES = NATURAL_NAMES.index("three_flushes")
_THREE_STRAIGHT_FLUSHES = NATURAL_NAMES.index("three_straight_flushes")
_BOARD_FIELD = {
    _THREE_STRAIGHTS: "straights",
    _THREE_FLUSHES: "flushes",
    _THREE_STRAIGHT_FLUSHES: "straight_flushes",
}


@dataclass(frozen=True)
class NaturalHand:
    """A natural some 13 cards make.

    ``name`` is one of :data:`~ofc_fast.rules.model.NATURAL_NAMES`; ``units`` what it
    wins from an ordinary hand under the rule set it was found for (0 from
    :func:`detect_naturals`); ``key`` its tie-break against the same natural (R-NAT-5,
    larger = better, 0 = always tied); ``board`` a setting that shows it, with the
    best key, for three straights, three flushes and three straight flushes (else
    None).

    >>> from ofc_fast import rules
    >>> n = naturals("Ts Js Qs Ks As 5h 6h 7h 8h 9h 2d 3d 4d", rules.MALAYAN)[0]
    >>> n.name, n.units, str(n.board)
    ('three_straight_flushes', 18, '4d 3d 2d / 9h 8h 7h 6h 5h / As Ks Qs Js Ts')
    """

    name: str
    units: int
    key: int
    board: Board | None = None


def _detect(cards: CardsLike | Board) -> list[tuple[int, int, Board | None]]:
    """(natural index, key, board) of every natural the 13 cards make.

    A list or tuple of 13 ints goes straight to C, which validates it; anything else,
    and any input C rejects, is parsed in Python for a specific CardError."""
    out = ffi.new("ofc_naturals_result *")
    status = None
    if (
        isinstance(cards, (list, tuple))
        and len(cards) == 13
        and all(type(c) is int for c in cards)
    ):
        try:
            status = lib.ofc_naturals(bytes(cards), out)
        except ValueError:  # an int outside 0..255
            status = None
    if status != OK:
        ids = hand_cards(cards, 13, 13, "a natural")
        status = lib.ofc_naturals(bytes(ids), out)
        if status != OK:  # pragma: no cover - the ids were validated above
            raise status_error(status, f"bad cards {cards_str(ids)!r}", CardError)
    found = []
    mask = out.mask
    for i in range(_COUNT):
        if mask >> i & 1:
            board = None
            field = _BOARD_FIELD.get(i)
            if field is not None:
                c = list(getattr(out, field))
                board = Board(c[:3], c[3:8], c[8:])
            found.append((i, int(out.key[i]), board))
    return found


def detect_naturals(cards: CardsLike | Board) -> dict[str, NaturalHand]:
    """Every natural the 13 cards make, whatever the rules, by name in
    :data:`~ofc_fast.rules.model.NATURAL_NAMES` order (units 0).

    ``cards``: text (``"As Kd ..."``), 13 card ids, or a board (or board text).

    Raises CardError for anything but 13 distinct cards.

    >>> list(detect_naturals("2c 2d 3c 3d 4c 4d 5c 5d 6c 6d 7c 7d 7h"))
    ['six_pairs', 'five_pairs_trips', 'small_2_8', 'small_2_9', 'small_2_10', 'no_pictures']
    >>> detect_naturals("2c 3d 4h 5s 6c 7d 8h 9s Tc Jd Qh Ks Ac")["dragon"].key
    0
    """
    return {
        NATURAL_NAMES[i]: NaturalHand(NATURAL_NAMES[i], 0, key, board)
        for i, key, board in _detect(cards)
    }


def naturals(cards13: CardsLike | Board, rules: RulesLike) -> list[NaturalHand]:
    """The naturals of ``rules`` these 13 cards make, best first (a natural later in
    ``rules.naturals`` ranks higher, R-VAR-MAL-3), with their units; empty when the
    rules play none (R-NAT-1) or the cards make none.

    Raises CardError for anything but 13 distinct cards, RulesError for unknown rules.

    >>> from ofc_fast import rules
    >>> [(n.name, n.units) for n in naturals(
    ...     "2c 2d 2h 2s 3c 3d 3h 4c 4d 4h 5c 5d 5h", rules.MALAYAN)]
    [('small_2_8', 10), ('four_trips', 6)]
    """
    rules = as_rules(rules, "naturals")
    found = {NATURAL_NAMES[i]: (key, board) for i, key, board in _detect(cards13)}
    out = []
    for nat in reversed(rules.naturals):
        if nat.name in found:
            key, board = found[nat.name]
            out.append(NaturalHand(nat.name, nat.units, key, board))
    return out


def _natural_id(hand: NaturalHand | None, rules: RuleSet) -> tuple[int, int]:
    """(C natural id, key) of a declared natural (-1 for an ordinary hand), or
    RulesError when the rules do not play it."""
    if hand is None:
        return -1, 0
    if not isinstance(hand, NaturalHand):
        raise RulesError(
            f"natural_payment: expected a NaturalHand (from naturals()) or None, "
            f"got {quote(hand)}"
        )
    if not isinstance(hand.name, str):
        raise RulesError(
            f"natural_payment: a natural's name is text, got {quote(hand.name)}"
        )
    name = match_choice(hand.name, NATURAL_NAMES)  # as a rule set reads it: "Dragon"
    if name is None or name not in {nat.name for nat in rules.naturals}:
        played = ", ".join(n.name for n in rules.naturals) or "none"
        raise RulesError(
            f"natural {quote(hand.name)} is not played under {rules.name} "
            f"(its naturals: {played})"
        )
    key = as_int(hand.key)  # NumPy's ints too, never a bool
    if key is None or not 0 <= key < 2**32:
        raise RulesError(
            f"natural {name!r}: key {quote(hand.key)} is not an int within 0..2**32-1"
        )
    return NATURAL_NAMES.index(name), key


def natural_payment(a: NaturalHand | None, b: NaturalHand | None, rules: RulesLike) -> int:
    """What player b pays player a for their naturals (negative: a pays b); None =
    an ordinary hand (no natural declared).  Each natural's rank and units come from
    ``rules`` (its ``units`` field is not read; a natural the rules do not play is a
    RulesError), the tie-break from its ``key``.

    R-NAT-6, by ``rules.naturals_rule``:

    * a natural against an ordinary hand wins its units (R-NAT-2);
    * HIGHER_FULL (typical): the higher natural (later in ``rules.naturals``; the same
      natural: the larger tie-break key) wins its full units; an exact tie pays 0;
    * HIGHER_FULL_EQUAL_CANCEL (Singapore, R-VAR-SG-1/3): naturals of equal units pay
      nothing, otherwise the higher wins its full units; the dragon is always paid in
      full (two dragons tie);
    * DIFFERENCE (Malayan R-VAR-MAL-4, Hawaiian Gardens R-VAR-HG-1): the higher-valued
      natural wins the difference of the two values; equal values pay nothing.

    >>> from ofc_fast import rules
    >>> trips = naturals("2c 2d 2h 3c 3d 3h 4c 4d 4h 9c 9d 9h As", rules.MALAYAN)[0]
    >>> pairs = naturals("2c 2d 3c 3d 4c 4d 5c 5d 6c 6d 7c 7d As", rules.MALAYAN)[0]
    >>> trips.name, pairs.name, natural_payment(trips, pairs, rules.MALAYAN)  # 6 - 4
    ('four_trips', 'six_pairs', 2)
    """
    rules = as_rules(rules, "natural_payment")
    (ia, ka), (ib, kb) = _natural_id(a, rules), _natural_id(b, rules)
    status = ffi.new("int32_t *")
    pay = lib.ofc_natural_payment(table_rules(rules), ia, ka, ib, kb, status)
    if status[0] != OK:  # pragma: no cover - the ids were checked above
        raise RulesError(f"natural payment rejected by the C library ({status[0]})")
    return int(pay)
