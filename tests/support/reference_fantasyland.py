"""Independent reference for Fantasyland entry and stay (R-FL-1/3/9/10, R-27-6/7),
written from the rules on top of the reference hand evaluator (``reference.py``).
It never imports ofc_fast: a rule set's Fantasyland table comes in as plain data (the
fields of ``ofc_fast.rules.Fantasyland``), and whether the board fouls as a flag.

Cards are ids ``4*rank + suit`` (rank 0 = deuce .. 12 = ace)."""

from __future__ import annotations

from typing import Any

from reference import category, hand_key

RANKS = "23456789TJQKA"


def threshold_key(text: str) -> tuple[int, ...]:
    """Order key of the weakest front a threshold admits: "QQ" = a pair of queens with
    the lowest kicker (a deuce, or a trey for a pair of deuces), "222" = trip deuces."""
    r = RANKS.index(text.strip().upper()[0])
    if len(text.strip()) == 3:
        return hand_key([4 * r, 4 * r + 1, 4 * r + 2])
    kicker = 1 if r == 0 else 0
    return hand_key([4 * r, 4 * r + 1, 4 * kicker + 2])


def is_27_nuts(middle: list[int]) -> bool:
    """7-5-4-3-2 not all of one suit: the best 2-7 low hand."""
    return (
        sorted(c // 4 for c in middle) == [0, 1, 2, 3, 5]
        and len({c % 4 for c in middle}) > 1
    )


def entry_cards(fl: Any, board: list[int], lowball: bool) -> int:
    """Entry: the best front threshold met gives its cards (equal thresholds: the most
    cards); 2-7 rules: a 7-5-4-3-2 middle alone gives lowball_entry, together with a
    qualifying front lowball_both when set, else the larger count (R-27-6, EX-16)."""
    front = board[:3]
    met = [
        (threshold_key(t), cards)
        for t, cards in fl.entry
        if hand_key(front) >= threshold_key(t)
    ]
    cards = max(met)[1] if met else 0
    if lowball and fl.lowball_entry and is_27_nuts(board[3:8]):
        if cards and fl.lowball_both:
            return fl.lowball_both
        return max(cards, fl.lowball_entry)
    return cards


def stays(fl: Any, board: list[int], lowball: bool) -> bool:
    """Stay: the front at or above stay_front, the middle's category at or above
    stay_middle (never under 2-7), or the back's at or above stay_back."""
    front, middle, back = board[:3], board[3:8], board[8:]
    return (
        (fl.stay_front is not None and hand_key(front) >= threshold_key(fl.stay_front))
        or (
            fl.stay_middle is not None
            and not lowball
            and category(middle) >= int(fl.stay_middle)
        )
        or (fl.stay_back is not None and category(back) >= int(fl.stay_back))
    )


def next_cards(fl: Any, board: list[int], fouled: bool, lowball: bool, in_fl: int) -> int:
    """Fantasyland cards next deal (0 = none); in_fl = 0 for a normal hand, else the
    cards of this Fantasyland hand.  A fouled board never qualifies."""
    if fl is None or fouled:
        return 0
    if not in_fl:
        return entry_cards(fl, board, lowball)
    if not stays(fl, board, lowball):
        return 0
    if fl.stay_cards == "same":
        return in_fl
    if fl.stay_cards == "entry":
        smallest = [c for _, c in fl.entry] + (
            [fl.lowball_entry] if lowball and fl.lowball_entry else []
        )
        return entry_cards(fl, board, lowball) or min(smallest, default=13)
    return int(fl.stay_cards)
