"""Table parameters, checked in one place: the seat count, the button (or any seat
number), the seed, the stacks and the Fantasyland counts of a deal.

``Match``, ``Game``, ``VectorEnv``, ``settle`` and the command line all call these
functions, so they accept exactly the same values and refuse the others with the same
exception, :class:`~ofc_fast.errors.TableError` (a ``GameError`` and a ``BoardError``).
The limits are the C library's: at most ``OFC_GAME_MAX_SEATS`` seats (and the rule
set's ``max_players``), stacks ``0..OFC_STACK_MAX``, Fantasyland hands of
``OFC_BOARD_CARDS..OFC_GAME_MAX_DEALT`` cards, seeds ``0..2**64-1`` (``uint64_t``).

>>> from ofc_fast import rules
>>> check_table(rules.PINEAPPLE, 3, button=2, stacks=100)
(3, 2, (100, 100, 100), (0, 0, 0))
>>> check_stacks([10**10, 5], 2)
Traceback (most recent call last):
...
ofc_fast.errors.TableError: stacks: at most 1000000000 chips a seat, got 10000000000
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from collections.abc import Set as AbstractSet
from functools import cache

from ._native import lib
from .errors import OfcError, TableError, flag, quote, whole_count
from .errors import as_int as as_int  # (its home before; every table check reads it)
from .rules import RuleSet, as_rules
from .rules.compiled import KIND
from .rules.model import GameKind
from .rules.presets import RulesLike

__all__ = [
    "FANTASYLAND_CARDS",
    "MAX_SEATS",
    "SEED_MAX",
    "STACK_MAX",
    "check_bots",
    "check_fantasyland",
    "check_match_stacks",
    "check_players",
    "check_seat",
    "check_seed",
    "check_stacks",
    "check_table",
    "per_seat",
    "random_seed",
]

MAX_SEATS: int = lib.OFC_GAME_MAX_SEATS
"""Most seats at a table (C ``OFC_GAME_MAX_SEATS``)."""
STACK_MAX: int = lib.OFC_STACK_MAX
"""Largest stack (C ``OFC_STACK_MAX``)."""
SEED_MAX = 2**64 - 1
"""Largest seed (a C ``uint64_t``)."""
FANTASYLAND_CARDS: tuple[int, int] = (lib.OFC_BOARD_CARDS, lib.OFC_GAME_MAX_DEALT)
"""Fewest and most cards of a Fantasyland hand (0 means the seat plays normally)."""
_FANTASYLAND_COUNTS = frozenset((0, *range(FANTASYLAND_CARDS[0], FANTASYLAND_CARDS[1] + 1)))
_INT = {int}
_SEAT_COUNT_MOST = 256
"""Most seats a check here reads (:func:`~ofc_fast.scoring.apply_stakes` names seats
0..255); a table holds at most :data:`MAX_SEATS`, checked by :func:`check_players`."""


def _seat_count(players: object) -> int:
    """The seat count given to a check (``players``) as an int 0..256, else
    TableError naming players: the one reader of it, so that no check expands a
    stack into a tuple of 2**70 seats or compares a seat with a text or an array.

    >>> _seat_count(3)
    3
    >>> _seat_count(-1)
    Traceback (most recent call last):
    ...
    ofc_fast.errors.TableError: players: a seat count must be an int 0..256, got -1
    """
    if type(players) is int and 0 <= players <= _SEAT_COUNT_MOST:  # at once
        return players
    return whole_count(players, "players", 0, TableError, _SEAT_COUNT_MOST, "a seat count")


def check_players(players: object, rules: RulesLike | None, what: str = "players") -> int:
    """``players`` as an int 2..``rules.max_players`` (at most :data:`MAX_SEATS`;
    None: any table of 2..:data:`MAX_SEATS`).

    >>> from ofc_fast import rules
    >>> check_players(3, rules.PINEAPPLE)
    3
    """
    rules = None if rules is None else as_rules(rules, "check_players")
    most = MAX_SEATS if rules is None else min(rules.max_players, MAX_SEATS)
    n = as_int(players)
    if n is None:
        raise TableError(f"{what} must be an int, got {quote(players)}")
    if not 2 <= n <= most:
        table = "a table" if rules is None else rules.name
        raise TableError(f"{table} seats 2 to {most} {what}, got {quote(n)}")
    return n


def check_seat(
    seat: object, players: int, what: str = "button", unit: str = "players"
) -> int:
    """``seat`` as a seat number 0..players-1; ``what`` names it in the error
    (``"button"``, ``"seat"``, ``"learner"``...), ``unit`` names the seats.

    >>> check_seat(1, 2)
    1
    """
    players = _seat_count(players)
    n = as_int(seat)
    if n is None:
        raise TableError(f"{what} must be a seat number (an int), got {quote(seat)}")
    if not 0 <= n < players:
        raise TableError(f"{what} {quote(n)} is not a seat of {players} {unit}".lstrip())
    return n


def check_seed(seed: object, what: str = "seed", error: type[OfcError] = TableError) -> int:
    """``seed`` as an int 0..2**64-1 (Python's or NumPy's, never a bool), else
    ``error`` naming ``what``: the one reader of a seed (a table's, a bot's, the
    search's; each caller's error class, one wording).

    >>> check_seed(7)
    7
    >>> from ofc_fast.errors import BotError
    >>> check_seed(2**64, "search bot: seed", BotError)
    Traceback (most recent call last):
    ...
    ofc_fast.errors.BotError: search bot: seed: must be 0..2**64-1, got 18446744073709551616
    """
    n = as_int(seed)
    if n is None or not 0 <= n <= SEED_MAX:
        raise error(f"{what}: must be 0..2**64-1, got {quote(seed)}")
    return n


def random_seed() -> int:
    """A seed drawn at random (0..2**64-1, :func:`secrets.randbits`): the seed of a
    ``Game``, ``Match`` or ``VectorEnv`` given none.  ``secrets`` (with hashlib and
    hmac, about 3 ms) is imported on the first draw, not by ``import ofc_fast``.

    >>> 0 <= random_seed() <= SEED_MAX
    True
    """
    import secrets

    return secrets.randbits(64)


def check_stacks(
    stacks: int | Sequence[int] | None,
    players: int,
    what: str = "stacks",
    at_least: bool = False,
) -> tuple[int, ...] | None:
    """Chips per seat as a tuple (None stays None): an int gives every seat the same;
    a sequence needs one count per seat (``at_least``: at least that many), each an
    int 0..:data:`STACK_MAX`.

    >>> check_stacks(50, 2), check_stacks([10, 0], 2)
    ((50, 50), (10, 0))
    """
    players = _seat_count(players)
    at_least = flag(at_least, "at_least", TableError)
    if stacks is None:
        return None
    if as_int(stacks) is not None:
        values: tuple[object, ...] = (stacks,) * players
    else:
        values = per_seat(stacks, what, "one chip count per seat")
    ints = tuple(as_int(x) for x in values)
    if (len(values) < players if at_least else len(values) != players) or None in ints:
        need = f"at least {quote(players)}" if at_least else f"{quote(players)}"
        raise TableError(
            f"{what}: expected {need} chip counts (ints), one per seat, "
            f"got {quote(values, 200)}"
        )
    chips: tuple[int, ...] = ints  # type: ignore[assignment]
    if chips and min(chips) < 0:  # what was given: one count for all seats as one
        given = chips[0] if as_int(stacks) is not None else chips
        raise TableError(f"{what}: chip counts must be >= 0, got {quote(given, 200)}")
    if chips and max(chips) > STACK_MAX:
        raise TableError(
            f"{what}: at most {STACK_MAX} chips a seat, got {quote(max(chips))}"
        )
    return chips


def check_match_stacks(chips: Sequence[int] | None, what: str = "stacks") -> None:
    """Refuse chip counts that a match could not hold: it moves chips between seats,
    so one seat may come to hold them all, at most :data:`STACK_MAX` in all.  Each
    count is checked as :func:`check_stacks` checks it (one per seat: a TableError
    for anything else, a float, a bool or no sequence at all).

    >>> check_match_stacks([600, 400])
    >>> check_match_stacks([STACK_MAX, 1], "--stacks")
    Traceback (most recent call last):
    ofc_fast.errors.TableError: --stacks: a match moves chips between seats, so at most ...
    """
    if chips is None:
        return
    values = per_seat(chips, what, "one chip count per seat")
    checked = check_stacks(values, len(values), what)  # type: ignore[arg-type]
    if checked and sum(checked) > STACK_MAX:
        raise TableError(
            f"{what}: a match moves chips between seats, so at most {STACK_MAX} "
            f"chips in all, got {sum(checked)}"
        )


def per_seat(values: object, what: str, need: str) -> tuple[object, ...]:
    """``values`` as a tuple, one per seat in seat order, else TableError naming
    ``what`` (``need`` says what it holds): no sequence, or a dict or a set, which
    have no seat order (a dict would give its keys, a set its hash order), or text
    (its characters, or bytes' values, are no counts).  The one reader of per-seat
    values: stacks, Fantasyland counts, :func:`~ofc_fast.scoring.settle`'s boards.

    >>> per_seat(iter([3, 4]), "stacks", "one chip count per seat")
    (3, 4)
    >>> per_seat({1, 2}, "stacks", "one chip count per seat")
    Traceback (most recent call last):
    ...
    ofc_fast.errors.TableError: stacks: one chip count per seat, in seat order (a list), got {1, 2}
    """
    if type(values) is tuple or type(values) is list:  # the common case, at once
        return tuple(values)
    if not isinstance(values, (Mapping, AbstractSet, str, bytes, bytearray)):
        try:
            return tuple(values)  # type: ignore[arg-type]
        except TypeError:
            pass
    raise TableError(f"{what}: {need}, in seat order (a list), got {quote(values)}")


def check_fantasyland(
    fantasyland: Sequence[int] | None, players: int, rules: RulesLike
) -> tuple[int, ...]:
    """Fantasyland cards per seat (None: nobody), each 0 or 13..17, only under rules
    that have Fantasyland, and no more cards in all than one deck holds (with None,
    the error names ``players``: a table the rules cannot deal from one deck).

    >>> from ofc_fast import rules
    >>> check_fantasyland(None, 2, rules.OFC), check_fantasyland((14, 0), 2, rules.OFC)
    ((0, 0), (14, 0))
    """
    rules = as_rules(rules, "check_fantasyland")
    if fantasyland is None:  # (nobody: only the seats to check; a Game per deal)
        if type(players) is not int or not 2 <= players <= MAX_SEATS:
            players = check_players(players, rules)
        fl: tuple[int, ...] = (0,) * players
    else:
        players = _seat_count(players)
        fl = _counts(fantasyland, players, rules)
    check_one_deck(rules, players, fl, "players: " if fantasyland is None else "")
    return fl


def _counts(fantasyland: Sequence[int], players: int, rules: RuleSet) -> tuple[int, ...]:
    """The Fantasyland counts given to :func:`check_fantasyland`, checked (one per
    seat, each 0 or 13..17, only under rules that have Fantasyland)."""
    given = per_seat(fantasyland, "fantasyland", "one count per seat")
    if len(given) != players:
        raise TableError(
            f"fantasyland needs one count per seat ({players}), got {len(given)}"
        )
    if set(map(type, given)) <= _INT and _FANTASYLAND_COUNTS.issuperset(given):
        fl: tuple[int, ...] = given  # type: ignore[assignment]  # plain ints, 0 or 13..17
    else:
        lo, hi = FANTASYLAND_CARDS
        counts = [as_int(n) for n in given]
        for s, (n, c) in enumerate(zip(given, counts)):
            if c is None or not (c == 0 or lo <= c <= hi):
                raise TableError(
                    f"seat {s}: Fantasyland cards must be 0 or {lo}..{hi}, got {quote(n)}"
                )
        fl = tuple(c or 0 for c in counts)
    if any(fl) and rules.game is GameKind.CLASSIC:
        raise TableError("classic Chinese Poker has no Fantasyland")
    if any(fl) and rules.fantasyland is None:
        raise TableError(f"{rules.name} has no Fantasyland")
    return fl


def check_one_deck(rules: RuleSet, players: int, fl: tuple[int, ...], blame: str) -> None:
    """TableError when a deal of ``players`` seats of ``rules`` with the Fantasyland
    counts ``fl`` (checked: 0 or 13..17 each) needs more cards than one deck holds;
    ``blame`` starts the message: ``"players: "`` where the seat count is the one
    thing given, ``""`` where the counts are at fault."""
    need = _cards_needed(KIND[rules.game], fl)
    if need > 52:
        dealt = f" with Fantasyland {fl}" if any(fl) else ""
        raise TableError(
            f"{blame}{players} seats of {rules.name}{dealt} need {need} cards; "
            "one deck has 52"
        )


@cache
def _cards_needed(kind: int, fantasyland: tuple[int, ...]) -> int:
    """Cards a deal of game ``kind`` (``KIND``) deals with these Fantasyland counts
    (each checked: 0 or 13..17), from the engine's schedule (``ofc_cards_per_seat``);
    cached (a few kinds and counts)."""
    return sum(lib.ofc_cards_per_seat(kind, n) for n in fantasyland)


def check_table(
    rules: RulesLike,
    players: object,
    button: object = 0,
    stacks: int | Sequence[int] | None = None,
    fantasyland: Sequence[int] | None = None,
) -> tuple[int, int, tuple[int, ...] | None, tuple[int, ...]]:
    """Every table parameter of a deal at once: ``(players, button, stacks,
    fantasyland)`` as checked values (seeds: :func:`check_seed`).

    >>> check_table("OFC", 2, button=1, stacks=200)
    (2, 1, (200, 200), (0, 0))
    """
    rules = as_rules(rules, "check_table")
    n = check_players(players, rules)
    return (
        n,
        check_seat(button, n),
        check_stacks(stacks, n),
        check_fantasyland(fantasyland, n, rules),
    )


def check_bots(bots: object, players: int) -> None:
    """GameError unless ``bots`` is a sequence of ``players`` objects with ``act()``
    (not bot names, nor bot classes: :func:`ofc_fast.bots.make_bots` makes bots from
    names).

    >>> check_bots(["random", "random"], 2)
    Traceback (most recent call last):
    ...
    ofc_fast.errors.TableError: seat 0: 'random' is not a bot (no act()); make bots from names with ofc_fast.bots.make_bots
    """  # noqa: E501 - the error message as the user sees it
    if isinstance(bots, (str, bytes)) or not isinstance(bots, Sequence):
        raise TableError(f"bots: expected one bot per seat, got {quote(bots)}")
    players = _seat_count(players)
    if len(bots) != players:
        raise TableError(f"{players} seats need {players} bots, got {len(bots)}")
    for seat, bot in enumerate(bots):
        if isinstance(bot, type):  # its act() unbound: the first decision a TypeError
            raise TableError(
                f"seat {seat}: {quote(bot)} is a class, not a bot: make one "
                f"({bot.__name__}(...)) or make bots from names with ofc_fast.bots.make_bots"
            )
        if not callable(getattr(bot, "act", None)):
            raise TableError(
                f"seat {seat}: {quote(bot)} is not a bot (no act()); make bots "
                f"from names with ofc_fast.bots.make_bots"
            )
