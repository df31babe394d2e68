"""The float features (obs_type="features", csrc/include/ofc_features.h) against a reference
written here from the observation dict, in every environment and on random states; the
masks against the legal action numbers of the independent model (tests/support/game_model.py)
on 100,000 random steps."""

from __future__ import annotations

import os
from collections import Counter
from typing import Any

import numpy as np
import pytest
from game_model import legal_action_set
from test_env import KINDS

from ofc_fast.encoding import (
    FEATURE_SIZE,
    SCALE,
    action_mask,
    encode,
    encode_bytes,
    features,
    features_of_encoding,
)
from ofc_fast.env import VectorEnv
from ofc_fast.errors import GameError
from ofc_fast.game import ACTION_SPACE

MASK_STEPS = int(os.environ.get("OFC_MASK_STEPS", "100000"))
SIZES = (3, 5, 5)

# ------------------------------------------------------------ the reference


def _cat(cards: list[int], size: int) -> int | None:
    """Category index of the layout (None for an empty row)."""
    if not cards:
        return None
    counts = sorted(Counter(c // 4 for c in cards).values(), reverse=True)
    if counts[0] == 4:
        return 7
    if counts[0] == 3:
        return 6 if len(counts) > 1 and counts[1] == 2 else 3
    if counts[0] == 2:
        return 2 if counts.count(2) >= 2 else 1
    if len(cards) == 5 and size == 5:
        ranks = sorted(c // 4 for c in cards)
        straight = ranks == list(range(ranks[0], ranks[0] + 5)) or ranks == [0, 1, 2, 3, 12]
        flush = len({c % 4 for c in cards}) == 1
        return 8 if straight and flush else 5 if flush else 4 if straight else 0
    return 0


def _fits_window(ranks: set[int]) -> bool:
    windows = [set(range(lo, lo + 5)) for lo in range(9)] + [{12, 0, 1, 2, 3}]
    return any(ranks <= w for w in windows)


def _group(cards: list[int]) -> int:
    cnt = Counter(c // 4 for c in cards)
    top = max(cnt.values())
    return max(r for r, n in cnt.items() if n == top)


def _row(cards: list[int], size: int, face_down: int, unseen: set[int]) -> np.ndarray:
    x = np.zeros(36)
    m = len(cards)
    x[0], x[1] = m / size, (size - m) / size
    cat = _cat(cards, size)
    if cat is not None:
        x[2 + cat] = 1
        x[11] = _group(cards) / 12
        x[12] = max(c // 4 for c in cards) / 12
    suits = {c % 4 for c in cards}
    if size == 5 and len(suits) == 1:
        (s,) = suits
        live = sum(1 for c in unseen if c % 4 == s)
        x[13] = float(m == 5 or live >= 5 - m)
        x[14] = min(1, live / 13)
    ranks = {c // 4 for c in cards}
    if size == 5 and m and cat == 0 and _fits_window(ranks):
        x[15] = 1
    x[16] = min(1, sum(1 for c in unseen if c // 4 in ranks) / 12)
    for r in range(13):
        x[17 + r] = sum(1 for c in cards if c // 4 == r) / 4
    for s in range(4):
        x[30 + s] = sum(1 for c in cards if c % 4 == s) / 5
    x[34] = min(1, face_down / size)
    return x


def reference_features(obs: dict) -> np.ndarray:
    """The layout of csrc/include/ofc_features.h, from the observation dict alone."""
    x = np.zeros(FEATURE_SIZE)
    seat, n = obs["seat"], obs["players"]
    seen = {c for b in obs["boards"] for row in b for c in row}
    seen |= set(obs["dealt"]) | set(obs["discards"])
    unseen = set(range(52)) - seen
    rel = {s: (s - seat) % n for s in range(n)}
    x[min(obs["street"], 8)] = 1
    x[9] = min(1, obs["to_discard"] / 2)
    x[10] = min(1, obs["future_cards"] / 16)
    x[11] = min(1, obs["future_discards"] / 4)
    x[12], x[13], x[14] = obs["full_set"], obs["face_down"], obs["is_over"]
    for s in range(n):
        x[15 + rel[s]] = 1
        x[23 + rel[s]] = min(1, obs["fantasyland"][s] / 17)
    x[19 + rel[obs["button"]]] = 1
    x[27] = obs["lowball"]
    x[28], x[29] = obs["game"] == "ofc", obs["game"] == "pineapple"
    dealt = list(obs["dealt"])
    x[30] = min(1, len(dealt) / 5)
    x[31] = min(1, obs["discard_counts"][seat] / 4)
    for r in range(13):
        x[32 + r] = sum(1 for c in unseen if c // 4 == r) / 4
    for s in range(4):
        x[45 + s] = sum(1 for c in unseen if c % 4 == s) / 13
    x[49] = len(unseen) / 52
    own = obs["boards"][seat]
    for row in range(3):
        x[52 + 36 * row : 88 + 36 * row] = _row(list(own[row]), SIZES[row], 0, unseen)
    for row in range(2):
        a, b = list(own[row]), list(own[row + 1])
        ca, cb = _cat(a, SIZES[row]), _cat(b, SIZES[row + 1])
        if ca is not None and cb is not None:
            x[160 + 2 * row] = ca > cb
            x[161 + 2 * row] = ca == cb and _group(a) > _group(b)
    others = Counter(
        c // 4 for s in range(n) if s != seat for r in obs["boards"][s] for c in r
    )
    if len(dealt) <= 5:
        for j, c in enumerate(dealt):
            y = x[164 + 40 * j : 204 + 40 * j]
            rank, suit = c // 4, c % 4
            y[0], y[1 + rank], y[14 + suit], y[18] = 1, 1, 1, rank / 12
            for row in range(3):
                cards = list(own[row])
                z = y[19 + 5 * row : 24 + 5 * row]
                z[0] = min(1, sum(1 for d in cards if d // 4 == rank) / 3)
                z[1] = min(1, sum(1 for d in cards if d % 4 == suit) / 5)
                if SIZES[row] == 5 and len(cards) < 5:
                    z[2] = all(d % 4 == suit for d in cards)
                    ranks = {d // 4 for d in cards}
                    z[3] = (
                        rank not in ranks
                        and _cat(cards, 5) in (None, 0)
                        and _fits_window(ranks | {rank})
                    )
                z[4] = len(cards) < SIZES[row]
            rest = dealt[:j] + dealt[j + 1 :]
            y[34] = min(1, sum(1 for d in rest if d // 4 == rank) / 2)
            y[35] = min(1, sum(1 for d in rest if d % 4 == suit) / 4)
            y[36] = min(1, sum(1 for d in unseen if d // 4 == rank) / 3)
            y[37] = min(1, sum(1 for d in unseen if d % 4 == suit) / 13)
            y[38] = min(1, others[rank] / 3)
    for s in range(n):
        r = rel[s]
        if r == 0:
            continue
        for row in range(3):
            at = 364 + 36 * (3 * (r - 1) + row)
            fd = obs["face_down_counts"][s][row]
            x[at : at + 36] = _row(list(obs["boards"][s][row]), SIZES[row], fd, unseen)
        x[688 + r - 1] = min(1, obs["discard_counts"][s] / 4)
    return x.astype(np.float32)


def check(env: VectorEnv, i: int, seat: int) -> None:
    want = reference_features(env.observation(i, seat))
    got = env.observations[i]
    bad = np.flatnonzero(np.abs(got - want) > 1e-6)
    assert bad.size == 0, (
        f"env {i}: features differ at {bad[:10]}: {got[bad[:10]]} != {want[bad[:10]]}"
    )


# ------------------------------------------------------------ tests


@pytest.mark.parametrize("rules_name,players", KINDS)
def test_features_equal_the_reference_from_the_seats_view(
    rules_name: str, players: int
) -> None:
    """The vector environment's features are the reference's, computed from nothing
    but the acting seat's observation (so from nothing it may not see)."""
    env = VectorEnv(rules_name, 16, players, seed=2, obs_type="features")
    obs, info = env.reset()
    rng = np.random.default_rng(1)
    for _ in range(60):
        assert obs.dtype == np.float32 and obs.shape == (16, FEATURE_SIZE)
        assert obs.min() >= 0.0 and obs.max() <= 1.0
        for i in range(16):
            check(env, i, int(info["seat"][i]))
        pick = (rng.random(16) * env.legal_counts).astype(np.int64)
        obs, _, _, _, info = env.step(env.legal_actions[np.arange(16), pick])


def test_features_of_a_fantasyland_decision() -> None:
    """A full set (more than five cards) leaves the dealt slots empty."""
    env = VectorEnv("pineapple", 64, 2, seed=3, obs_type="features", fantasyland="decision")
    obs, info = env.reset()
    rng = np.random.default_rng(0)
    seen = 0
    for _ in range(400):
        full = np.flatnonzero(info["full_set"])
        for i in full:
            check(env, int(i), int(info["seat"][i]))
            assert not obs[i, 164:364].any()
            seen += 1
        if seen >= 3:
            break
        place = np.zeros((64, 17), np.uint8)
        for i in full:  # a legal set: front 3, middle 5, back 5, the rest discarded
            dealt = env.observation(int(i), int(info["seat"][i]))["dealt"]
            place[i, : len(dealt)] = [0] * 3 + [1] * 5 + [2] * 5 + [3] * (len(dealt) - 13)
        pick = (rng.random(64) * env.legal_counts).astype(np.int64)
        actions = env.legal_actions[np.arange(64), pick].astype(np.int64)
        actions[full] = -1
        obs, _, _, _, info = env.step(actions, place)
    assert seen >= 1


def test_features_from_an_observation_and_deal_order() -> None:
    from ofc_fast.game import Game

    g = Game("pineapple", players=2, seed=9)
    obs = g.observation(g.to_act)
    x = features(obs)
    assert np.array_equal(x, reference_features(obs))
    enc = encode_bytes(obs)
    flipped = features_of_encoding(enc, list(reversed(obs["dealt"])))
    assert np.array_equal(flipped[164:204], x[164 + 4 * 40 : 204 + 4 * 40])
    by_id = features_of_encoding(enc)  # no order: increasing ids
    assert np.array_equal(by_id, features_of_encoding(enc, sorted(obs["dealt"])))
    for bad in ([99], obs["dealt"][:-1], obs["dealt"][:-1] * 2, obs["dealt"][:1] * 5):
        with pytest.raises(GameError):
            features_of_encoding(enc, bad)
    with pytest.raises(GameError):
        features_of_encoding(enc[:10])


@pytest.mark.parametrize("acts", [[10**9], [-1], [ACTION_SPACE], [1.0], [True], "ab", 5])
def test_action_mask_refuses_what_is_no_action_id(acts: Any) -> None:
    """An id past the action space raised IndexError and -1 marked the last action
    legal: anything but ids 0..ACTION_SPACE-1 is a GameError naming legal_actions."""
    from ofc_fast.game import Game

    g = Game("pineapple", players=2, seed=9)
    obs = dict(g.observation(g.to_act))
    want = np.isin(np.arange(ACTION_SPACE), obs["legal_actions"])
    assert np.array_equal(action_mask(obs), want)
    obs["legal_actions"] = np.array(obs["legal_actions"])  # an array: the same mask
    assert np.array_equal(action_mask(obs), want)
    obs["legal_actions"] = acts
    with pytest.raises(GameError, match="legal_actions"):
        action_mask(obs)


@pytest.mark.parametrize("rules_name,players", KINDS)
def test_masks_are_the_legal_actions(rules_name: str, players: int) -> None:
    """100,000 random steps in all (split over the presets): every mask is the set of
    legal action numbers the independent model lists for the decision's shape."""
    n, steps = 200, MASK_STEPS // (len(KINDS) * 200)
    env = VectorEnv(rules_name, n, players, seed=4, obs_type="features")
    obs, info = env.reset()
    rng = np.random.default_rng(2)
    for _ in range(steps):
        for i in range(n):
            o = env.observation(i, int(info["seat"][i]))
            own = o["boards"][o["seat"]]
            free = tuple(SIZES[r] - len(own[r]) for r in range(3))
            want = legal_action_set(len(o["dealt"]), o["to_discard"], free)
            assert tuple(np.flatnonzero(info["action_mask"][i])) == want
        pick = (rng.random(n) * env.legal_counts).astype(np.int64)
        obs, _, _, _, info = env.step(env.legal_actions[np.arange(n), pick])


@pytest.mark.parametrize(
    "convert",
    [
        lambda enc: enc * SCALE,  # encode()'s floats, not encode_bytes()'s bytes
        lambda enc: enc.astype(np.int64) + 256 * (enc == 0),  # 256 would wrap to 0
        lambda enc: enc.astype(np.int64) - 1,  # -1 would wrap to 255
        lambda enc: np.full(enc.shape, np.nan),
        lambda enc: enc.astype(bool),
        lambda enc: enc.astype(str),
        lambda enc: [[1, 2], [3]],  # ragged: no array at all
    ],
)
def test_features_of_encoding_refuses_values_that_are_no_bytes(convert: Any) -> None:
    """No silent cast to uint8: a float, bool, text or out-of-range encoding is a
    GameError, not the features of some other encoding."""
    from ofc_fast.game import Game

    g = Game("pineapple", players=2, seed=9)
    enc = encode_bytes(g.observation(g.to_act))
    with pytest.raises(GameError, match="encoding"):
        features_of_encoding(convert(enc))


def test_features_of_encoding_refuses_a_bool_among_ints() -> None:
    """A bool among the ints of an encoding is a GameError (the docstring: bools are
    never cast), not the byte 1: numpy reads [True, 0] as [1, 0], so a list or an
    object array with one bool gave the features of the encoding holding 1 there."""
    from ofc_fast.game import Game

    g = Game("pineapple", players=2, seed=9)
    enc = [int(v) for v in encode_bytes(g.observation(g.to_act))]
    bad = list(enc)
    bad[enc.index(1)] = True
    for convert in (list, lambda x: np.array(x, dtype=object)):
        with pytest.raises(GameError, match=r"features_of_encoding: the encoding.*bool"):
            features_of_encoding(convert(bad))
    assert features_of_encoding(enc).shape == (FEATURE_SIZE,)


def test_action_mask_refuses_legal_actions_that_are_no_action_ids() -> None:
    """action_mask names legal_actions outside 0..242, or no ints, with a GameError:
    -1 marked action 242 legal (NumPy's index from the end), the others raised
    IndexError."""
    want = np.zeros(243, dtype=bool)
    want[[0, 242]] = True
    assert np.array_equal(action_mask({"legal_actions": [0, 242]}), want)
    assert np.array_equal(action_mask({"legal_actions": np.array([0, 242])}), want)
    assert not action_mask({"legal_actions": []}).any() and not action_mask({}).any()
    for bad in ([-1], [243], [999], [1.5], [True], ["a"], [[1, 2]]):
        with pytest.raises(GameError, match=r"action_mask: legal_actions .*0\.\.242"):
            action_mask({"legal_actions": bad})


def test_integers_of_mixed_numpy_types_are_read_as_the_ints_they_are() -> None:
    """A list mixing NumPy int types (an np.int64 and an np.uint64: NumPy promotes the
    two to float64) was refused as "got float64 values", though it holds no float:
    action_mask, features_of_encoding (its dealt cards and its encoding) read them
    as ints; a Python int past int64 is named as out of range, not as "object
    values"; a float among them is still refused."""
    from ofc_fast.game import Game

    ids = [np.int64(0), np.uint64(242), np.int8(7), 5]
    want = np.zeros(243, dtype=bool)
    want[[0, 242, 7, 5]] = True
    assert np.array_equal(action_mask({"legal_actions": ids}), want)
    assert np.array_equal(action_mask({"legal_actions": tuple(ids)}), want)
    g = Game("pineapple", players=2, seed=9)
    obs = g.observation(g.to_act)
    enc = encode_bytes(obs)
    plain = features_of_encoding(enc, [int(c) for c in obs["dealt"]])
    mixed = [np.uint64(c) if i % 2 else np.int64(c) for i, c in enumerate(obs["dealt"])]
    assert np.array_equal(features_of_encoding(enc, mixed), plain)
    mixed_enc = [np.uint64(v) if i % 2 else np.int16(v) for i, v in enumerate(enc)]
    assert np.array_equal(features_of_encoding(mixed_enc, obs["dealt"]), plain)
    for bad in ([np.uint64(1), np.int64(-1)], [1, 2**64], [np.uint64(2**64 - 1), 1]):
        with pytest.raises(GameError, match=r"legal_actions holds values outside 0\.\.242"):
            action_mask({"legal_actions": bad})
    for bad in ([np.uint64(1), np.int64(2), 0.5], [np.uint64(1), np.float64(2.0)]):
        with pytest.raises(GameError, match="legal_actions must hold integers"):
            action_mask({"legal_actions": bad})


def test_features_of_encoding_takes_any_integer_dtype_and_refuses_float_dealt() -> None:
    from ofc_fast.game import Game

    g = Game("pineapple", players=2, seed=9)
    obs = g.observation(g.to_act)
    enc = encode_bytes(obs)
    want = features_of_encoding(enc, obs["dealt"])
    for dtype in (np.int8, np.uint16, np.int64, ">i4"):
        wide = np.array([int(v) for v in enc], dtype=dtype)[::-1][::-1]
        assert np.array_equal(features_of_encoding(wide, obs["dealt"]), want)
    assert np.array_equal(features_of_encoding([int(v) for v in enc], obs["dealt"]), want)
    boxed = np.array([int(v) for v in enc], dtype=object)
    assert np.array_equal(features_of_encoding(boxed, obs["dealt"]), want)
    with pytest.raises(GameError, match="encoding"):
        features_of_encoding(np.array([float(v) for v in enc], dtype=object))
    with pytest.raises(GameError, match="encoding"):
        features_of_encoding(np.array([2**70] + [0] * (len(enc) - 1), dtype=object))
    with pytest.raises(GameError, match="dealt"):
        features_of_encoding(enc, [c + 0.5 for c in obs["dealt"]])
    with pytest.raises(GameError, match="dealt"):
        features_of_encoding(enc, [True] * len(obs["dealt"]))


def test_encoders_name_what_is_no_observation_or_game() -> None:
    """action_mask given no dict raised AttributeError, encode_game given no Game
    AttributeError, encode / encode_bytes / features given an observation whose
    "lowball" or "dealt" is an array ValueError: each a GameError naming it."""
    from ofc_fast.encoding import encode, encode_game
    from ofc_fast.game import Game

    g = Game("pineapple", players=2, seed=9)
    obs = g.observation(g.to_act)
    for bad in (None, 5, "obs", [obs], object()):
        with pytest.raises(GameError, match="observation"):
            action_mask(bad)  # type: ignore[arg-type]
        with pytest.raises(GameError, match="Game"):
            encode_game(bad, 0)
    for fn in (encode, encode_bytes, features):
        with pytest.raises(GameError, match="lowball"):
            fn({**obs, "lowball": np.array([1, 0])})
    dealt = np.array(obs["dealt"])
    want = features(obs)
    assert np.array_equal(features({**obs, "dealt": dealt}), want)
    assert np.array_equal(
        encode_bytes({**obs, "lowball": np.bool_(False)}), encode_bytes(obs)
    )


def test_encoders_quote_a_huge_or_unprintable_field_safely() -> None:
    """encode() of an observation whose "game" was an int of 5,000 digits raised
    ValueError (Python's int-to-text limit) while naming the missing key, and one
    whose repr fails raised that exception: the GameError quotes the key safely."""
    from ofc_fast.encoding import encode
    from ofc_fast.game import Game

    class NoRepr:
        def __hash__(self) -> int:
            return 1

        def __repr__(self) -> str:
            raise RuntimeError("no repr")

    g = Game("pineapple", players=2, seed=9)
    obs = g.observation(g.to_act)
    for bad in (10**5000, NoRepr(), "x" * 10**5):
        with pytest.raises(GameError, match="not an observation"):
            encode({**obs, "game": bad})


def test_encode_bytes_refuses_boards_and_counts_that_do_not_match_players() -> None:
    """encode_bytes of a 2-player observation with a third seat's board appended
    encoded it silently as the 2 seats' (the extra board read by no one), and a board
    of 4 rows likewise: an observation whose per-seat fields do not hold one entry
    per seat of ``players`` (and rows not 3) is a GameError naming the field."""
    from ofc_fast.encoding import encode
    from ofc_fast.game import Game

    g = Game("pineapple", players=2, seed=9)
    obs = g.observation(g.to_act)
    assert obs["players"] == 2
    bad: list[tuple[str, Any]] = [
        ("boards", obs["boards"] + [[[5], [], []]]),
        ("boards", obs["boards"][:1]),
        ("fantasyland", [0, 0, 0]),
        ("discard_counts", [0]),
        ("face_down_counts", [[0, 0, 0]] * 3),
        (r"boards\[1\]", [obs["boards"][0], [[], [], [], [5]]]),
        (r"face_down_counts\[0\]", [[0, 0], [0, 0, 0]]),
    ]
    for key, value in bad:
        field = key.split("\\")[0]
        for fn in (encode, encode_bytes, features):
            with pytest.raises(GameError, match=rf"^observation: {key} must hold \d"):
                fn({**obs, field: value})
    same = {**obs, "boards": [list(b) for b in obs["boards"]], "players": np.int8(2)}
    assert np.array_equal(encode_bytes(same), encode_bytes(obs))


@pytest.mark.parametrize(
    "acts,named",
    [
        (lambda a: set(a), "a set: {"),
        (lambda a: frozenset(a), "a frozenset: "),
        (lambda a: dict.fromkeys(a), "a dict: {"),
        (lambda a: [*a[:2], None], "a NoneType: None"),
        (lambda a: [a[0], {a[1]}], "a set: {"),
    ],
)
def test_action_mask_names_legal_actions_that_are_a_set(acts: Any, named: str) -> None:
    """action_mask(legal_actions=a set) said "got object values", naming neither
    the set nor what to give: the GameError names the kind of value (a set: no
    order, no array), and a list holding one names that item."""
    from ofc_fast.game import Game

    g = Game("pineapple", players=2, seed=9)
    obs = g.observation(g.to_act)
    given = acts(list(obs["legal_actions"]))
    with pytest.raises(GameError, match="legal_actions") as err:
        action_mask({**obs, "legal_actions": given})
    assert named in str(err.value) and "object values" not in str(err.value)


@pytest.mark.parametrize("fn", [encode, encode_bytes, features, action_mask])
@pytest.mark.parametrize("obs", [5, None, "dealt", [1, 2]])
def test_an_observation_that_is_no_dict_is_named(fn: Any, obs: object) -> None:
    """Regression: encode, encode_bytes and features of an int, None, text or a list
    raised AttributeError ("'int' object has no attribute 'get'": the lowball flag was
    read before the observation was checked); each is a GameError saying an
    observation dict is expected, as action_mask's is."""
    with pytest.raises(GameError, match="expected an observation dict"):
        fn(obs)
