"""Every bot reads an observation whose card lists, counts and legal actions are NumPy
arrays (any int dtype; a Gymnasium dict space, ``np.asarray`` of a field) as the lists
they hold: the same move for the same seed, and a bad array is the OfcError naming
its field.  Parametrised over the registry, so a bot registered later is covered."""

from __future__ import annotations

from typing import Any

import numpy as np
import pytest

from ofc_fast.bots import bot_names, make_bot, unseen_cards
from ofc_fast.bots.policy import MlpPolicy
from ofc_fast.encoding import FEATURE_SIZE
from ofc_fast.errors import CardError, ObservationError, OfcError
from ofc_fast.game import ACTION_SPACE, Game, Move
from ofc_fast.game.observation import plain_observation

SETTINGS: dict[str, dict[str, Any]] = {  # small budgets; no clock (a seeded move)
    "heuristic": {"samples": 4, "arrangements": 2},
    "search": {"time_budget": None, "samples": 6},
}
EXTRA = {"search-rollouts": ("search", {"time_budget": None, "samples": 6, "model": None})}
BOTS = [*bot_names(), *EXTRA, "policy"]
INT_DTYPES = [np.uint8, np.int16, np.int32, np.int64, np.uint64]
CARD_LISTS = ("dealt", "discards", "fantasyland", "discard_counts")


def _position(preset: str, players: int, fl: list[int], decisions: int) -> dict[str, Any]:
    """The observation of the seat to act after ``decisions`` first-legal moves."""
    game = Game(preset, players, seed=11, fantasyland=fl)
    for _ in range(decisions):
        if game.observation(game.to_act)["full_set"]:
            break
        game.play_action(game.legal_actions()[0])
    return dict(game.observation(game.to_act))


POSITIONS = {
    "pineapple opening": _position("pineapple", 2, [0, 0], 0),
    "pineapple street 2": _position("pineapple", 2, [0, 0], 4),
    "pineapple Fantasyland set": _position("pineapple", 3, [0, 14, 0], 3),
    "ofc street 3": _position("ofc", 2, [0, 0], 5),
    "classic hand": _position("CLASSIC_1_6", 2, [0, 0], 0),
}


@pytest.fixture(scope="module")
def policy_path(tmp_path_factory: pytest.TempPathFactory) -> str:
    """A saved linear policy of random weights (its moves depend on every feature)."""
    rng = np.random.default_rng(3)
    weights = rng.normal(size=(ACTION_SPACE, FEATURE_SIZE)).astype(np.float32)
    path = tmp_path_factory.mktemp("policy") / "policy.npz"
    return str(
        MlpPolicy([weights, np.zeros(ACTION_SPACE, np.float32)], ["linear"]).save(path)
    )


def _make(name: str, preset: str, policy_path: str) -> Any:
    if name == "policy":
        return make_bot(f"policy:{policy_path}", preset, seed=5)
    base, settings = EXTRA.get(name, (name, SETTINGS.get(name, {})))
    return make_bot(base, preset, seed=5, **settings)


def _arrays(obs: dict[str, Any], dtype: Any) -> dict[str, Any]:
    """``obs`` with every list field an array of ``dtype`` (the boards row by row;
    ``legal_actions`` too) and every number and flag a NumPy scalar."""
    out = dict(obs)
    for key in CARD_LISTS:
        out[key] = np.array(obs[key], dtype=dtype)
    out["face_down_counts"] = np.array(obs["face_down_counts"], dtype=dtype)
    out["boards"] = [[np.array(row, dtype=dtype) for row in seat] for seat in obs["boards"]]
    if obs["legal_actions"] is not None:
        out["legal_actions"] = np.array(obs["legal_actions"], dtype=dtype)
    for key, value in obs.items():  # every number and flag
        if type(value) is int:
            out[key] = np.dtype(dtype).type(value)
        elif type(value) is bool:
            out[key] = np.bool_(value)
    return out


def _items(obs: dict[str, Any], dtype: Any) -> dict[str, Any]:
    """``obs`` with every list field a list of NumPy integers of ``dtype`` (as a list
    of an array's items holds them)."""

    def items(value: Any) -> Any:
        return [items(v) for v in value] if isinstance(value, list) else dtype(value)

    out = dict(obs)
    for key in (*CARD_LISTS, "face_down_counts", "boards", "legal_actions"):
        if obs[key] is not None:
            out[key] = items(obs[key])
    return out


def _asarrays(obs: dict[str, Any]) -> dict[str, Any]:
    """``obs`` with ``np.asarray`` of every field that makes an array of it (an empty
    list is an empty array of floats, as NumPy makes it)."""
    out = dict(obs)
    for key in (*CARD_LISTS, "face_down_counts", "boards", "legal_actions"):
        if obs[key] is not None:
            try:
                out[key] = np.asarray(obs[key])
            except ValueError:  # rows of several lengths: row by row
                out[key] = [[np.asarray(row) for row in seat] for seat in obs[key]]
    return out


def _answer(bot: Any, obs: dict[str, Any]) -> Move | tuple[type, str]:
    """The bot's move, or the class and message of the OfcError it raises."""
    try:
        move: Move = bot.act(obs)
    except OfcError as exc:
        return type(exc), str(exc)
    return move


@pytest.mark.parametrize("where", sorted(POSITIONS))
@pytest.mark.parametrize("name", BOTS)
def test_every_bot_plays_the_move_of_the_lists_from_numpy_arrays(
    name: str, where: str, policy_path: str
) -> None:
    """The search bot refused NumPy card arrays ("dealt must be a list") and lists of
    NumPy integers ("a count must be a small int"), the random bot an array of legal
    actions, the heuristic bot NumPy uint8 numbers (an OverflowError): every bot now
    plays, from the same seed, the move it plays from the lists, whatever the int
    dtype."""
    obs = POSITIONS[where]
    preset = obs["rules"]
    want = _answer(_make(name, preset, policy_path), obs)  # the reference: the lists
    forms = [_arrays(obs, dtype) for dtype in INT_DTYPES] + [_asarrays(obs)]
    forms += [_items(obs, dtype) for dtype in INT_DTYPES]
    for form in forms:
        kept = {k: v.copy() if isinstance(v, np.ndarray) else v for k, v in form.items()}
        assert _answer(_make(name, preset, policy_path), form) == want
        for key, value in kept.items():  # the caller's observation is left as it was
            assert type(form[key]) is type(value)
            if isinstance(value, np.ndarray):
                assert np.array_equal(form[key], value)


TOP = ACTION_SPACE - 1


def _bad(id: str, field: str, bad: Any, error: type, words: str) -> Any:
    return pytest.param(field, bad, error, words, id=id)


BAD_ARRAYS = [
    _bad(
        "float",
        "dealt",
        lambda o: np.array(o["dealt"], float),
        ObservationError,
        "dealt must hold integer",
    ),
    _bad(
        "bool",
        "dealt",
        lambda o: np.array(o["dealt"]) > 0,
        ObservationError,
        "dealt must hold integer",
    ),
    _bad(
        "2-d",
        "dealt",
        lambda o: np.array([o["dealt"]]),
        ObservationError,
        "dealt must be a list.*one-dimensional",
    ),
    _bad(
        "0-d",
        "dealt",
        lambda o: np.array(o["dealt"][0]),
        ObservationError,
        "dealt must be a list",
    ),
    _bad(
        "card 52",
        "dealt",
        lambda o: np.array([*o["dealt"][:-1], 52]),
        CardError,
        "dealt holds 52, not a card",
    ),
    _bad(
        "card -1",
        "discards",
        lambda o: np.array([-1]),
        CardError,
        "discards holds -1, not a card",
    ),
    _bad(
        "float",
        "legal_actions",
        lambda o: np.array(o["legal_actions"], np.float32),
        ObservationError,
        "legal_actions must hold integer",
    ),
    _bad(
        "action 243",
        "legal_actions",
        lambda o: np.array([o["legal_actions"][0], ACTION_SPACE]),
        ObservationError,
        rf"legal_actions\[1\] must be an int within 0..{TOP}, got {ACTION_SPACE}",
    ),
    _bad(
        "float rows",
        "boards",
        lambda o: [[np.array(r, float) for r in seat] for seat in o["boards"]],
        ObservationError,
        "board 0 row 0 must hold integer",
    ),
    _bad(
        "card 60",
        "boards",
        lambda o: [[np.array([*r, 60]) for r in seat] for seat in o["boards"]],
        CardError,
        "board 0 row 0 holds 60, not a card",
    ),
    _bad(
        "2-d rows",
        "boards",
        lambda o: [[np.array([r]) for r in seat] for seat in o["boards"]],
        ObservationError,
        "board 0 row 0 must be a list.*one-dimensional",
    ),
    _bad(
        "float",
        "face_down_counts",
        lambda o: np.array(o["face_down_counts"], float),
        ObservationError,
        "face_down_counts must hold integer",
    ),
    _bad(
        "2-d",
        "fantasyland",
        lambda o: np.array([o["fantasyland"]]),
        ObservationError,
        "fantasyland must be a list.*one-dimensional",
    ),
]


@pytest.mark.parametrize("field, bad, error, words", BAD_ARRAYS)
@pytest.mark.parametrize("name", BOTS)
def test_a_bad_numpy_array_is_the_error_naming_its_field(
    name: str, field: str, bad: Any, error: type, words: str, policy_path: str
) -> None:
    """A float or bool array, one of two dimensions where one is read (or none), an
    id out of range: the OfcError naming the field and what is wrong (was "dealt must
    be a list" of an array of ints too, or a float array read as the ints it held)."""
    obs = POSITIONS["pineapple street 2"]
    bot = _make(name, obs["rules"], policy_path)
    with pytest.raises(error, match=words):
        bot.act({**obs, field: bad(obs)})


def test_unseen_cards_reads_numpy_arrays_as_their_lists() -> None:
    """``unseen_cards`` reads the bots' way: the cards of arrays, a bad array named."""
    obs = POSITIONS["ofc street 3"]
    seen = {c for seat in obs["boards"] for row in seat for c in row}
    seen |= {*obs["dealt"], *obs["discards"]}
    expected = [c for c in range(52) if c not in seen]  # the reference
    assert unseen_cards(_arrays(obs, np.uint8)).tolist() == expected
    assert unseen_cards(_asarrays(obs)).tolist() == expected
    with pytest.raises(ObservationError, match="discards must hold integer"):
        unseen_cards({**obs, "discards": np.array([1.5])})


def test_the_reader_leaves_a_plain_observation_as_it_is() -> None:
    """A plain observation is read as it is (no copy), an array form as a new dict."""
    for obs in POSITIONS.values():
        assert plain_observation(obs) is obs
        assert plain_observation(_arrays(obs, np.int32)) == obs
    assert plain_observation([1, 2]) == [1, 2]
