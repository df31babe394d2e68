"""Independent reference for board evaluation and pair scoring, written from
docs/rules.md (R-ORDER-1, R-FOUL-*, R-SCORE-*, R-ROY-OFC-*, R-BON-CP-2) on top of the
reference hand evaluator in ``reference.py``.  It never imports ofc_fast."""

from __future__ import annotations

from reference import category, hand_key

(
    HIGH_CARD,
    ONE_PAIR,
    TWO_PAIR,
    TRIPS,
    STRAIGHT,
    FLUSH,
    FULL_HOUSE,
    QUADS,
    STRAIGHT_FLUSH,
    ROYAL_FLUSH,
) = range(10)

# R-ROY-OFC-3 (middle trips 2, as docs/design.md pins for OFC / PINEAPPLE).
OFC_BACK = {
    STRAIGHT: 2,
    FLUSH: 4,
    FULL_HOUSE: 6,
    QUADS: 10,
    STRAIGHT_FLUSH: 15,
    ROYAL_FLUSH: 25,
}
OFC_MIDDLE = {
    TRIPS: 2,
    STRAIGHT: 4,
    FLUSH: 8,
    FULL_HOUSE: 12,
    QUADS: 20,
    STRAIGHT_FLUSH: 30,
    ROYAL_FLUSH: 50,
}


def rows(board: list[int]) -> tuple[list[int], list[int], list[int]]:
    return board[:3], board[3:8], board[8:]


def is_foul(board: list[int], order: str = "nonstrict") -> bool:
    """R-ORDER-1 under the three readings."""
    f, m, b = (hand_key(r) for r in rows(board))
    if order == "strict":
        return not (f < m < b)
    if order == "mixed":
        return not (f < m <= b)
    return not (f <= m <= b)


def front_rank(front: list[int]) -> int:
    """Rank of the pair or trips of a front row."""
    ranks = sorted(c // 4 for c in front)
    return ranks[1]  # the middle card always belongs to the pair / trips


def ofc_royalties(board: list[int]) -> tuple[int, int, int]:
    """R-ROY-OFC-3/4 royalties per row; 0 everywhere on a fouled board."""
    if is_foul(board):
        return (0, 0, 0)
    f, m, b = rows(board)
    cat = category(f)
    if cat == TRIPS:
        front = 10 + front_rank(f)  # 222 = 10 .. AAA = 22
    elif cat == ONE_PAIR:
        front = max(0, front_rank(f) - 3)  # 66 = 1 .. AA = 9
    else:
        front = 0
    return (front, OFC_MIDDLE.get(category(m), 0), OFC_BACK.get(category(b), 0))


def row_results(a: list[int], b: list[int]) -> list[int]:
    """+1 / -1 / 0 per row for a against b, fouls first (R-FOUL-3)."""
    fa, fb = is_foul(a), is_foul(b)
    if fa and fb:
        return [0, 0, 0]
    if fa:
        return [-1, -1, -1]
    if fb:
        return [1, 1, 1]
    out = []
    for ra, rb in zip(rows(a), rows(b)):
        ka, kb = hand_key(ra), hand_key(rb)
        out.append((ka > kb) - (ka < kb))
    return out


def score_ofc(a: list[int], b: list[int]) -> int:
    """R-SCORE-5: 1-6 with royalties netted; a fouled board pays 6 + royalties."""
    res = row_results(a, b)
    if is_foul(a) and is_foul(b):
        return 0
    sweep = 3 if res == [1, 1, 1] else -3 if res == [-1, -1, -1] else 0
    return sum(res) + sweep + sum(ofc_royalties(a)) - sum(ofc_royalties(b))


def classic_win_value(row: int, cards: list[int]) -> int:
    """R-BON-CP-2: units for a row won with this hand."""
    cat = category(cards)
    if row == 0:
        return 3 if cat == TRIPS else 1
    if cat in (STRAIGHT_FLUSH, ROYAL_FLUSH):
        return 5
    if cat == QUADS:
        return 4
    if row == 1 and cat == FULL_HOUSE:
        return 2
    return 1


def score_classic(a: list[int], b: list[int], method: str) -> int:
    """Classic Chinese Poker, 1-6 or 2-4, win-only bonuses (docs/design.md, pinned presets)."""
    if is_foul(a) and is_foul(b):
        return 0
    res = row_results(a, b)
    net = 0
    for row, (r, ra, rb) in enumerate(zip(res, rows(a), rows(b))):
        if r > 0:
            net += classic_win_value(row, ra)
        elif r < 0:
            net -= classic_win_value(row, rb)
    won_a, won_b = res.count(1), res.count(-1)
    if method == "1-6":
        net += 3 * ((won_a == 3) - (won_b == 3))
    else:
        net += (won_a >= 2) - (won_b >= 2)
    return net
