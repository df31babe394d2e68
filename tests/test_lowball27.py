"""2-7 Pineapple (R-27-*) on whole boards under PINEAPPLE_27: the middle is compared low
(lower wins), the ace is always high (A-2-3-4-5 is no straight), a pair / straight /
flush or a middle above ten-high fouls, the back must beat the front, and the middle
royalties 9-high 1, 8-high 2, 7-high 4, 7-5-4-3-2 8 (ten-high 0).

The raw 2-7 order of ofc.low27 is checked exhaustively in test_ranking_exhaustive.py;
here the rules built on it are checked, against tests/support/reference.py (independent).
"""

from __future__ import annotations

import itertools
import random

import numpy as np
import pytest
import reference as ref
from hypothesis import given, settings
from hypothesis import strategies as st
from scripts import checkout_file

import ofc_fast as ofc
from ofc_fast import Board, rules, score_pair
from ofc_fast.rules import Lowball

P27 = rules.PINEAPPLE_27
FRONT = "Qh Qd 3c"  # QQ: 7
BACK = "6c 6d 6h 6s 2c"  # quads 6: 10 (beats any front here)


def mid_board(middle: str, front: str = FRONT, back: str = BACK) -> Board:
    return Board.parse(f"{front} / {middle} / {back}")


def ref_middle(cards5: list[int]) -> tuple[bool, int]:
    """(legal, royalty) of a 2-7 middle from the rule text: no pair, straight or flush
    with the ace always high (R-27-2), highest card at most a ten (R-27-4); royalty
    9-high 1, 8-high 2, 7-high 4, 7-5-4-3-2 8, else 0 (R-27-5)."""
    ranks = sorted((c // 4 for c in cards5), reverse=True)
    flush = len({c % 4 for c in cards5}) == 1
    pair = len(set(ranks)) < 5
    straight = not pair and ranks[0] - ranks[4] == 4  # ace high only: no wheel
    if pair or flush or straight or ranks[0] > 8:  # 8 = ten
        return False, 0
    if ranks == [5, 3, 2, 1, 0]:  # 7-5-4-3-2
        return True, 8
    return True, {5: 4, 6: 2, 7: 1, 8: 0}[ranks[0]]


def test_preset_shape() -> None:
    assert P27.lowball == Lowball()
    assert P27.lowball.royalties[5:9] == (4, 2, 1, 0)  # 7, 8, 9, T-high
    assert P27.lowball.nuts == 8
    assert P27.royalties.middle == (0,) * 10  # middle paid by the 2-7 table
    assert P27.royalties.back == rules.OFC.royalties.back
    assert P27.royalties.front_pair == rules.OFC.royalties.front_pair


def _all_no_pair_middles():
    """Every 5 distinct ranks, once off-suit and once suited; plus front and back
    from the 8 other ranks: back = quads + kicker, front = three odd cards."""
    for ranks in itertools.combinations(range(13), 5):
        rest = [r for r in range(13) if r not in ranks]
        back = [4 * rest[0] + s for s in range(4)] + [4 * rest[1]]
        front = [4 * rest[2] + 1, 4 * rest[3] + 2, 4 * rest[4] + 3]
        off = [4 * r + (i % 4) for i, r in enumerate(ranks)]
        suited = [4 * r + 2 for r in ranks]
        yield front + off + back, off
        yield front + suited + back, suited


def test_every_no_pair_middle_legal_and_royalty() -> None:
    """R-27-2/4/5 over all 1287 rank sets x {off-suit, suited}: legality and royalty
    against the rule text; front (high card) 0 and back (quads) 10 unchanged."""
    boards, middles = zip(*_all_no_pair_middles())
    batch = ofc.eval_boards(np.array(boards, dtype=np.uint8), P27)
    for k, middle in enumerate(middles):
        legal, royalty = ref_middle(middle)
        assert bool(batch.foul[k]) == (not legal), ofc.cards_str(middle)
        want = (0, royalty, 10) if legal else (0, 0, 0)
        assert tuple(int(x) for x in batch.royalty[k]) == want, ofc.cards_str(middle)
    assert int((~batch.foul).sum()) == 121  # see test_count_of_legal_middles


def test_count_of_legal_middles() -> None:
    """Rank sets of 5 distinct ranks in 2..T: C(9, 5) = 126; straights among them:
    2-6, 3-7, 4-8, 5-9, 6-T = 5; so 121 legal rank sets (off-suit), 0 suited."""
    legal = [
        ranks for ranks in itertools.combinations(range(9), 5) if ranks[4] - ranks[0] != 4
    ]
    assert len(legal) == 126 - 5
    count = 0
    for ranks in itertools.combinations(range(13), 5):
        off = [4 * r + (i % 4) for i, r in enumerate(ranks)]
        count += ref_middle(off)[0]
    assert count == 121


@pytest.mark.parametrize(
    "middle, foul, royalty",
    [
        ("7c 5d 4h 3s 2d", False, 8),  # the nuts
        ("7c 6d 4h 3s 2d", False, 4),  # seven-high
        ("7c 6d 5h 4s 2d", False, 4),
        ("8c 5d 4h 3s 2d", False, 2),  # eight-high
        ("8c 7d 6h 5s 3d", False, 2),
        ("9c 5d 4h 3s 2d", False, 1),  # nine-high
        ("9c 8d 7h 6s 4d", False, 1),
        ("Tc 5d 4h 3s 2d", False, 0),  # ten-high: legal, no royalty
        ("Tc 9d 8h 7s 5d", False, 0),  # the worst legal middle
        ("Tc 9d 8h 7s 6d", True, 0),  # straight
        ("6c 5d 4h 3s 2d", True, 0),  # straight
        ("Jc 5d 4h 3s 2d", True, 0),  # jack-high
        ("Ac 5d 4h 3s 2d", True, 0),  # ace high (not a straight): above ten-high
        ("Ac 2d 3h 4s 5d", True, 0),
        ("7c 5c 4c 3c 2c", True, 0),  # flush
        ("7c 7d 4h 3s 2d", True, 0),  # pair
        ("7c 7d 7h 3s 2d", True, 0),  # trips (would pay 2 in a high middle)
        ("7c 7d 3h 3s 2d", True, 0),  # two pair
    ],
)
def test_middle_legality_and_royalty(middle: str, foul: bool, royalty: int) -> None:
    b = mid_board(middle, front="Qh Qd Jh", back="Kc Kd Kh Ks Js")
    assert len(set(b.cards)) == 13
    e = b.evaluate(P27)
    assert e.foul == foul
    assert e.royalties == ((0, 0, 0) if foul else (7, royalty, 10))


def test_wheel_is_ace_high_not_a_straight() -> None:
    """R-27-2: A-2-3-4-5 is ace-high.  With the limit raised to admit ace-high middles
    it is legal, it ranks below every king-high low hand and above A-K-Q-J-9."""
    wide = P27.replace(lowball=Lowball(limit=12))
    wheel = "7h 7d 3c / Ac 5d 4h 3s 2d / 6c 6d 6h 6s 2c"
    king = "8h 8d 3d / Kc Qs Jh Ts 8c / 9c 9d 9h 9s 2s"
    ace_high = "8h 8d 3d / Ad Kc Qs Js 9h / Tc Td Th Ts 2s"
    assert not Board.parse(wheel).is_foul(wide)
    assert not Board.parse(king).is_foul(wide)
    assert score_pair(wheel, king, wide).rows[1] == -1  # K-high is the better low
    assert score_pair(wheel, ace_high, wide).rows[1] == 1  # A-5-4-3-2 < A-K-Q-J-9
    # ... while under high rules it would be the lowest straight, which 2-7 never is.
    assert ofc.category(ofc.rank5("Ac 5d 4h 3s 2d")) == ofc.HandCategory.STRAIGHT
    # A-K-Q-J-T is a straight in 2-7 as well: fouls even with the wide limit.
    broadway = "7h 7d 3c / Ac Kd Qs Jh Tc / 6c 6d 6h 6s 2c"
    assert Board.parse(broadway).is_foul(wide)


def test_wheel_royalty_is_ace_high() -> None:
    wide = P27.replace(lowball=Lowball(limit=12, royalties=(0,) * 12 + (1,)))
    wheel = Board.parse("7h 7d 3c / Ac 5d 4h 3s 2d / 6c 6d 6h 6s 2c")
    ace_high = Board.parse("7h 7d 3c / Ad Kc Qs Js 9h / 6c 6d 6h 6s 2c")
    assert ace_high.royalties(wide)[1] == 1
    assert wheel.royalties(wide)[1] == 1


def test_back_must_beat_front() -> None:
    """R-27-4: the back must be higher than the front; no order between the middle and
    the other rows (a 7-high middle under a pair of kings is fine)."""
    assert not Board.parse("Kh Kd 9h / 7c 5d 4h 3s 2d / Ac Ad 8c 8s 2c").is_foul(P27)
    assert Board.parse("Kh Kd 9h / 7c 5d 4h 3s 2d / Ac Qd Jc 8s 2c").is_foul(P27)
    # front K-K-2 against a back K-K-J-8-3: the back's kickers make it stronger
    # (docs/design.md strength scale): legal.
    assert not Board.parse("Kh Kd 2h / 7c 5d 4h 3s 2d / Ks Kc Jc 8s 3c").is_foul(P27)
    # front K-K-A against a back K-K-Q-J-8: the front's ace kicker wins: foul.
    assert Board.parse("Kh Kd Ah / 7c 5d 4h 3s 2d / Ks Kc Qd Jc 8s").is_foul(P27)
    # trips front needs at least a better trips in back
    assert Board.parse("9h 9d 9c / 7c 5d 4h 3s 2d / 8s 8c 8h Ac Kd").is_foul(P27)
    assert not Board.parse("9h 9d 9c / 7c 5d 4h 3s 2d / Ts Tc Th Ac Kd").is_foul(P27)


def test_front_never_equals_back() -> None:
    """Q-11 (is "back beats front" strict?) cannot matter: every strength is either a
    3-card or a 5-card strength (455 + 7462), so a front never equals a back."""
    sizes = [ofc.strength_cards(s) for s in range(1, ofc.STRENGTH_MAX + 1)]
    assert sizes.count(3) == 455 and sizes.count(5) == 7462


@settings(max_examples=400, deadline=None)
@given(st.integers(0, 2**32 - 1))
def test_middle_compared_low(seed: int) -> None:
    """R-27-2: between two legal 2-7 boards the lower middle wins the row (reference
    2-7 key, ace always high); front and back compare high (R-27-3)."""
    rng = random.Random(seed)
    boards = []
    deck = list(range(52))
    rng.shuffle(deck)
    # build two legal boards: a low middle from the 2..T cards, front and back high
    used: set[int] = set()
    for _ in range(2):
        low = [c for c in deck if c // 4 <= 8 and c not in used]
        for _attempt in range(200):
            mid = rng.sample(low, 5)
            if ref_middle(mid)[0]:
                break
        else:
            return
        used |= set(mid)
        rest = [c for c in deck if c not in used]
        rest.sort(key=lambda c: c // 4 + rng.random() * 6)
        front, back = rest[:3], rest[-5:]
        used |= set(front) | set(back)
        boards.append(front + mid + back)
    a, b = boards
    ea, eb = Board.from_cards(a).evaluate(P27), Board.from_cards(b).evaluate(P27)
    if ea.foul or eb.foul:
        return
    s = score_pair(a, b, P27)
    ka, kb = ref.low27_key(a[3:8]), ref.low27_key(b[3:8])
    assert s.rows[1] == (ka > kb) - (ka < kb)
    for row, (x, y) in ((0, (a[:3], b[:3])), (2, (a[8:], b[8:]))):
        hx, hy = ref.hand_key(x), ref.hand_key(y)
        assert s.rows[row] == (hx > hy) - (hx < hy)
    assert s.net == -score_pair(b, a, P27).net


def test_low_middle_scoring_example() -> None:
    """A 7-5-4-3-2 middle beats an 8-high one; 8-6-5-3-2 beats 8-7-5-3-2 (second card);
    a 9-high middle loses to an 8-high one."""
    a = "Kh Kd 9h / 7c 5d 4h 3s 2d / Ac Ad As 8c 8s"  # KK 8 / nuts 8 / FH 6 = 22
    b = "Qh Qd Jh / 8d 6d 5h 3h 2h / Kc Ks 9c 9s 4c"  # QQ 7 / 8-high 2 / KK99 0 = 9
    s = score_pair(a, b, P27)
    assert s.rows == (1, 1, 1)
    assert s.royalties == ((8, 8, 6), (7, 2, 0))
    assert s.net == 3 + 3 + 22 - 9
    e = "Jc Js Tc / 8c 7c 5s 3c 2s / Qs Qc 7h 7s 4d"  # 8-7-5-3-2
    assert score_pair(b, e, P27).rows[1] == 1
    c = "Qh Qd Jh / 8d 7d 5h 3h 2h / Kc Ks 9c 9s 4c"  # 8-7-5-3-2
    f = "Jc Js Tc / 9d 5c 4s 3c 2s / Qs Qc 7h 7s 4d"  # 9-5-4-3-2
    assert score_pair(c, f, P27).rows[1] == 1
    assert score_pair(f, c, P27).rows[1] == -1


def test_every_evaluation_taking_rules_ranks_a_hand_high_and_says_so(
    capsys: pytest.CaptureFixture[str],
) -> None:
    """Evaluating 7-5-4-3-2 with 2-7 rules gave its high-hand rank (below K-Q-J-9-8),
    and no doc said why: a hand alone is no row, so ``ofc-fast eval``, ``/v1/evaluate``
    and ``Board.evaluate`` rank every hand and row high under every rule set (checked
    against the reference high order), the 2-7 middle's low value being
    ``Board.row_values`` / ``low27`` (checked against the reference 2-7 order); their
    docs say so."""
    import json

    from ofc_fast.cli import main
    from ofc_fast.serve._routes import evaluate

    seven, nine, king = "7s 5h 4d 3d 2d", "9c 5d 4h 3s 2h", "Kc Qd Jh 9s 8c"
    keys = {h: ref.hand_key(ref.card_ids(h)) for h in (seven, nine, king)}
    lows = {h: ref.low27_key(ref.card_ids(h)) for h in (seven, nine, king)}
    assert keys[king] > keys[nine] > keys[seven] and lows[seven] > lows[nine] > lows[king]
    served = evaluate({"rules": "pineapple_27", "hands": [seven, nine, king]})["hands"]
    strengths = [h["strength"] for h in served]
    assert strengths == [ofc.rank5(h) for h in (seven, nine, king)]
    assert strengths[2] > strengths[1] > strengths[0]  # the reference high order
    assert main(["eval", seven, "--rules", "pineapple_27", "--json"]) == 0
    assert json.loads(capsys.readouterr().out)["strength"] == strengths[0]
    boards = [mid_board(m) for m in (seven, nine)]
    assert [b.evaluate(P27).strengths[1] for b in boards] == strengths[:2]
    low = [b.row_values(P27)[1] for b in boards]
    assert low[0] > low[1] and low == [ofc.low27(s) for s in strengths[:2]]
    for doc in ("docs/serve.md", "docs/cli.md"):
        text = " ".join(checkout_file(doc).read_text(encoding="utf-8").split())
        assert "as a high hand" in text and "ofc.low27(strength)" in text, doc
    assert "row_values" in (ofc.Board.evaluate.__doc__ or "")


def ref_custom_middle(cards5: list[int], lowball: Lowball) -> tuple[bool, int]:
    """(legal, royalty) of a 2-7 middle under any ``Lowball`` from the rule text: no
    pair, straight or flush, the ace always high (R-27-2), the highest card at most
    ``limit`` (R-27-4, 0 = deuce); royalty ``nuts`` for 7-5-4-3-2, else the entry of
    ``royalties`` for the highest card (R-27-5)."""
    ranks = sorted((c // 4 for c in cards5), reverse=True)
    plain = len(set(ranks)) == 5 and ranks[0] - ranks[4] != 4
    if not plain or len({c % 4 for c in cards5}) == 1 or ranks[0] > lowball.limit:
        return False, 0
    if ranks == [5, 3, 2, 1, 0]:
        return True, lowball.nuts
    return True, lowball.royalties[ranks[0]]


@settings(max_examples=300, deadline=None)
@given(
    st.integers(0, 2**32 - 1),
    st.integers(5, 12),
    st.lists(st.integers(0, 9), min_size=13, max_size=13),
    st.integers(0, 20),
)
def test_custom_lowball_limit_royalties_and_nuts(
    seed: int, limit: int, royalties: list[int], nuts: int
) -> None:
    """R-27-4/5 under every ``Lowball`` a rule set may hold, not only the preset's:
    for random boards with a low-ish middle (the ace-high wheel included), the foul,
    the middle royalty and the middle row's winner agree with the rule text (reference
    2-7 key; the back must beat the front, compared high as in tests/support)."""
    lowball = Lowball(limit=limit, royalties=tuple(royalties), nuts=nuts)
    r = P27.replace(lowball=lowball)
    rng = random.Random(seed)
    deck = list(range(52))
    rng.shuffle(deck)
    boards = []
    for _ in range(2):
        top = rng.choice([5, 6, 8, 12, -1])  # -1: the ranks of A-5-4-3-2
        ranks = {12, 3, 2, 1, 0} if top < 0 else set(range(top + 1))
        mid: list[int] = []
        for c in deck:
            if c // 4 in ranks and c // 4 not in {m // 4 for m in mid}:
                mid.append(c)
            if len(mid) == 5:
                break
        if len(mid) < 5:  # a rank used up by the first board
            return
        rest = [c for c in deck if c not in mid]
        boards.append(rest[:3] + mid + rest[3:8])
        deck = rest[8:]
    refs = []
    for b in boards:
        legal, royalty = ref_custom_middle(b[3:8], lowball)
        legal = legal and ref.hand_key(b[8:]) > ref.hand_key(b[:3])
        refs.append(legal)
        assert Board.from_cards(b).is_foul(r) is not legal
        if legal:
            assert Board.from_cards(b).royalties(r)[1] == royalty
    s = score_pair(boards[0], boards[1], r)
    assert s.fouls == (not refs[0], not refs[1])
    if all(refs):
        ka, kb = ref.low27_key(boards[0][3:8]), ref.low27_key(boards[1][3:8])
        assert s.rows[1] == (ka > kb) - (ka < kb)
