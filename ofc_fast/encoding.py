"""The observation encoding for reinforcement learning: one layout, written in C.

The encoder is ``ofc_encode`` of ``csrc/include/ofc_vecenv.h`` (that header documents the
layout byte by byte); the vector environment writes it into its uint8 arrays, and this
module runs the same C code for one observation.  :func:`encode_bytes` gives the
:data:`ENCODING_SIZE` uint8 values, :func:`encode` the float32 values (each byte times
:data:`SCALE`), :func:`encode_game` encodes straight from a :class:`~ofc_fast.Game`,
:func:`action_mask` gives the :data:`~ofc_fast.game.ACTION_SPACE` booleans of the legal
actions.  The encoder reads only a seat's observation, so it never holds more than the
seat may see.

>>> from ofc_fast import rules
>>> from ofc_fast.game import Game
>>> g = Game(rules.PINEAPPLE, players=3, seed=1)
>>> obs = g.observation(g.to_act)
>>> x = encode(obs)
>>> x.shape, int(x[CARD_PLANES.index("dealt") * 52:][:52].sum())
((828,), 5)
>>> bool((encode_bytes(obs) == encode_game(g, g.to_act)).all())
True
>>> int(action_mask(obs).sum())
232

Layout: 15 planes of 52 cards (card id = 4 * rank + suit), seats taken relative to the
observer (0 = self, 1 = the next seat clockwise, ...):

* planes 0-11: front, middle, back of relative seats 0..3 (face-up cards, and all of
  one's own);
* plane 12 ``dealt``: one's cards to play now; 13 ``discards``: one's discards;
  14 ``unknown``: cards this seat has not seen;

then 48 scalars (offset 780): relative seat of the button (4, one-hot), seats present
(4), seat to act (4, one-hot), Fantasyland cards this deal (4; float / 17), hidden
cards per seat and row (12; / 5), discards per seat (4; / 4), street (/ 8), cards to
discard, future cards (/ 16), future discards (/ 4), full set, face down, is over,
game kind (classic, OFC, Pineapple one-hot, 3), 2-7 middle, reserved (5 zeros).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any, TypeVar, overload

import numpy as np
import numpy.typing as npt

from ._native import ffi, lib
from ._native._fast import ATOMIC_READS
from .batch import int_array
from .cards import card_str
from .errors import GameError, flag, quote
from .game import ACTION_SPACE, Game
from .game.threads import consistent
from .table import as_int

__all__ = [
    "CARD_PLANES",
    "ENCODING_SIZE",
    "FEATURE_SIZE",
    "MAX_SEATS",
    "SCALE",
    "action_mask",
    "encode",
    "encode_bytes",
    "encode_game",
    "features",
    "features_of_encoding",
    "planes",
]

_S = TypeVar("_S", bound=np.generic)

MAX_SEATS = 4
CARD_PLANES = tuple(
    f"seat{s}_{row}" for s in range(MAX_SEATS) for row in ("front", "middle", "back")
) + ("dealt", "discards", "unknown")
ENCODING_SIZE = int(lib.OFC_ENC_SIZE)
SCALE = np.array(
    [lib.ofc_encoding_scale(j) for j in range(ENCODING_SIZE)], dtype=np.float32
)
"""Per encoding byte, the factor that turns it into :func:`encode`'s float."""
SCALE.setflags(write=False)
FEATURE_SIZE = int(lib.OFC_FEAT_SIZE)
"""Length of :func:`features` (``csrc/include/ofc_features.h`` documents the layout)."""
_KIND = {"classic": 0, "ofc": 1, "pineapple": 2}
_NO_SEAT = 255
_ROWS = ((0, 3), (3, 5), (8, 5))  # each row's first slot and size


def _small(value: Any, what: str, top: int, low: int = 0) -> int:
    """``value`` as an int low..top (:func:`ofc_fast.table.as_int`: a Python or NumPy
    int, never a bool, a float or text, which int() would cut or read silently), else
    GameError naming ``what``."""
    n = as_int(value)
    if n is None:
        raise GameError(
            f"observation: {what} must be an int {low}..{top}, got {quote(value)}"
        )
    if not low <= n <= top:
        raise GameError(f"observation: {what} must be {low}..{top}, got {quote(value)}")
    return n


def _check_length(value: Any, what: str, size: int, unit: str) -> None:
    """GameError naming ``what`` unless ``value`` holds ``size`` items (one per seat
    or row: an extra one was read by no one, a missing one an IndexError); a value
    of no length is the caller's TypeError."""
    if len(value) != size:
        raise GameError(
            f"observation: {what} must hold {size} {unit}, got {len(value)}: {quote(value)}"
        )


def _card_ids(cards: Sequence[Any], what: str, most: int, seen: set[int]) -> list[int]:
    """At most ``most`` card ids 0..51 (ints as :func:`_small` reads them), each not
    in ``seen`` (the cards of the observation read so far, these added), else
    GameError naming ``what`` (TypeError for no sequence: the caller's)."""
    ids = [as_int(c) for c in cards]
    good = [c for c in ids if c is not None and 0 <= c < 52]
    if len(ids) > most or len(good) != len(ids):
        raise GameError(
            f"observation: {what} must be at most {most} card ids 0..51, got {quote(cards)}"
        )
    for c in good:
        if c in seen:
            raise GameError(f"observation: {what} holds {card_str(c)}, a card shown twice")
        seen.add(c)
    return good


def _c_observation(obs: Mapping[str, Any]) -> Any:
    """The ``ofc_observation`` of an observation dict (the inverse of
    :func:`ofc_fast.game.observation.read_observation`)."""
    _check_observation(obs, "observation")
    o = ffi.new("ofc_observation *")
    try:
        players = _small(obs["players"], "players", MAX_SEATS, 2)
        o.seat = seat = _small(obs["seat"], "seat", players - 1)
        o.players = players
        o.button = _small(obs["button"], "button", players - 1)
        o.kind = _KIND[obs["game"]]
        to_act = obs["to_act"]
        o.to_act = _NO_SEAT if to_act is None else _small(to_act, "to_act", players - 1)
        o.is_over = flag(obs["is_over"], "observation: is_over", GameError)
        o.street = _small(obs["street"], "street", 255)
        ffi.buffer(o.board)[:] = b"\xff" * (MAX_SEATS * 13)
        seen: set[int] = set()
        for key in ("fantasyland", "discard_counts", "boards", "face_down_counts"):
            _check_length(obs[key], key, players, f"seats (players is {players})")
        for s in range(players):
            _check_length(obs["boards"][s], f"boards[{s}]", 3, "rows")
            _check_length(obs["face_down_counts"][s], f"face_down_counts[{s}]", 3, "rows")
            o.fl[s] = _small(obs["fantasyland"][s], f"fantasyland[{s}]", 17)
            o.discard_count[s] = _small(obs["discard_counts"][s], f"discard_counts[{s}]", 4)
            for row, (start, size) in enumerate(_ROWS):
                where = f"boards[{s}][{row}]"
                cards = _card_ids(obs["boards"][s][row], where, size, seen)
                o.count[s][row] = len(cards)
                o.face_down_count[s][row] = _small(
                    obs["face_down_counts"][s][row], f"face_down_counts[{s}][{row}]", size
                )
                o.board[s][start : start + len(cards)] = cards
        discards = _card_ids(obs["discards"], "discards", 4, seen)
        dealt = _card_ids(obs["dealt"], "dealt", int(lib.OFC_GAME_MAX_DEALT), seen)
        o.discards[0 : len(discards)] = discards
        o.discard_count[seat] = len(discards)
        o.n, o.k = len(dealt), _small(obs["to_discard"], "to_discard", len(dealt))
        o.dealt[0 : len(dealt)] = dealt
        o.full = _optional_flag(obs, "full_set")
        o.face_down = _optional_flag(obs, "face_down")
        o.future_cards = _small(obs["future_cards"], "future_cards", 255)
        o.future_discards = _small(obs["future_discards"], "future_discards", 255)
    except GameError:
        raise  # a field named above
    except (KeyError, IndexError, TypeError, ValueError, OverflowError) as exc:
        # a KeyError's text is its key's repr: quoted safely (a huge int, a bad repr)
        text = quote(exc.args[0]) if isinstance(exc, KeyError) and exc.args else exc
        raise GameError(
            f"not an observation of ofc_fast.Game.observation(): {type(exc).__name__} {text}"
        ) from None
    return o


def _check_observation(obs: object, fn: str) -> None:
    """GameError naming ``fn`` unless ``obs`` is a mapping (an observation dict)."""
    if not isinstance(obs, Mapping):
        raise GameError(
            f"{fn}: expected an observation dict (Game.observation()), got {quote(obs)}"
        )


def _optional_flag(obs: Mapping[str, Any], key: str) -> bool:
    """The observation's flag ``key`` (absent or None: False), else GameError naming it
    (a number, a text or an array, whose truth value would be read silently)."""
    value = obs.get(key)
    return False if value is None else flag(value, f"observation: {key}", GameError)


def encode_bytes(obs: Mapping[str, Any]) -> npt.NDArray[np.uint8]:
    """The observation's encoding: :data:`ENCODING_SIZE` uint8 values (the vector
    environment's layout).

    >>> from ofc_fast import Game
    >>> game = Game("pineapple", seed=1)
    >>> obs = game.observation(game.to_act)
    >>> encode_bytes(obs).shape, encode_bytes(obs).dtype
    ((828,), dtype('uint8'))
    """
    o = _c_observation(obs)  # (first: it checks that obs is a dict)
    lowball = int(_optional_flag(obs, "lowball"))
    out = np.zeros(ENCODING_SIZE, np.uint8)
    lib.ofc_encode(o, lowball, ffi.from_buffer("uint8_t[]", out))
    return out


def encode(obs: Mapping[str, Any]) -> npt.NDArray[np.float32]:
    """The observation as a float32 vector of :data:`ENCODING_SIZE` values
    (:func:`encode_bytes` times :data:`SCALE`).

    >>> from ofc_fast import Game
    >>> game = Game("pineapple", seed=1)
    >>> obs = game.observation(game.to_act)
    >>> encode(obs).shape, encode(obs).dtype
    ((828,), dtype('float32'))
    """
    return encode_bytes(obs) * SCALE


def encode_game(game: Game, seat: int) -> npt.NDArray[np.uint8]:
    """``seat``'s encoding (uint8) of a :class:`~ofc_fast.Game`, straight from the C
    state (GameError for anything else than a Game).  While another thread moves the
    game it encodes the game before or after the move, never half-written.

    >>> from ofc_fast import Game
    >>> game = Game("pineapple", seed=1)
    >>> obs = game.observation(game.to_act)
    >>> bool((encode_game(game, game.to_act) == encode_bytes(obs)).all())
    True
    """
    if not isinstance(game, Game):
        raise GameError(f"encode_game: expected a Game, got {quote(game)}")
    if type(seat) is not int or not 0 <= seat < game.players:
        seat = game.check_seat(seat)  # (a NumPy int is its int; else GameError)
    out = np.zeros(ENCODING_SIZE, np.uint8)
    p_out = ffi.from_buffer("uint8_t[]", out)
    lowball = int(game.rules.lowball is not None)
    if ATOMIC_READS:
        # The C call lets the GIL go, and another thread's move may write the state
        # meanwhile; CPython's builtins write a move whole, holding the GIL, and each
        # move steps the engine on: the same step after the call as before means no
        # move wrote during it (no lock taken: a lock costs a fifth of the call).
        g = game.c_state
        step = g.step
        lib.ofc_encode_game(g, seat, lowball, p_out)
        if g.step == step:
            return out
    _encode_state(game, seat, lowball, p_out)
    return out


@consistent
def _encode_state(game: Game, seat: int, lowball: int, out: Any) -> None:
    """``seat``'s encoding of ``game``'s C state into ``out`` (a cffi ``uint8_t[]``),
    holding the game's read lock: a move in progress (the portable twins write it with
    the GIL let go) is waited for, never read half-written."""
    lib.ofc_encode_game(game.c_state, seat, lowball, out)


def _dealt_ids(dealt: Sequence[int]) -> list[int]:
    """The dealt card ids as ints, or GameError (floats and bools are no ids)."""
    cards = int_array(dealt, np.uint8, "dealt", GameError, top=51)
    if cards.ndim != 1 or len(cards) > 17:
        raise GameError(f"dealt must be at most 17 card ids 0..51, got {quote(dealt)}")
    return [int(c) for c in cards]


def features_of_encoding(
    encoding: npt.ArrayLike, dealt: Sequence[int] | None = None
) -> npt.NDArray[np.float32]:
    """The :data:`FEATURE_SIZE` normalised float32 features (``csrc/include/ofc_features.h``)
    of one seat's encoding (:func:`encode_bytes`), with its dealt cards in deal order
    (``dealt``; None: the encoding's dealt cards by increasing id).  They are computed
    from the encoding alone, so they hold nothing the seat may not see.  The encoding
    holds integers 0..255 (any integer dtype); floats (:func:`encode`'s scaled values),
    bools or out-of-range ints are a GameError, never cast.

    >>> from ofc_fast.game import Game
    >>> g = Game("pineapple", players=2, seed=3)
    >>> obs = g.observation(g.to_act)
    >>> x = features_of_encoding(encode_bytes(obs), obs["dealt"])
    >>> x.shape, x.dtype, float(x.min()) >= 0.0, float(x.max()) <= 1.0
    ((696,), dtype('float32'), True, True)
    """
    what = "features_of_encoding: the encoding (encode_bytes(), not encode())"
    enc = int_array(encoding, np.uint8, what, GameError)
    if enc.shape != (ENCODING_SIZE,):
        raise GameError(
            f"features_of_encoding: an encoding is {ENCODING_SIZE} values, got shape "
            f"{enc.shape}"
        )
    out = np.zeros(FEATURE_SIZE, np.float32)
    p_dealt, n = ffi.NULL, 0
    if dealt is not None:
        cards = _dealt_ids(dealt)
        p_dealt, n = ffi.new("uint8_t[]", cards or [0]), len(cards)
    status = lib.ofc_features(
        ffi.from_buffer("uint8_t[]", enc), p_dealt, n, ffi.from_buffer("float[]", out)
    )
    if status:
        raise GameError("dealt is not the encoding's dealt cards")
    return out


def features(obs: Mapping[str, Any]) -> npt.NDArray[np.float32]:
    """The observation's :data:`FEATURE_SIZE` float32 features in ``[0, 1]`` (what
    ``obs_type="features"`` environments return; layout in ``csrc/include/ofc_features.h``).

    >>> from ofc_fast.game import Game
    >>> g = Game("pineapple", players=2, seed=3)
    >>> x = features(g.observation(g.to_act))
    >>> int(x[164:364:40].sum())       # five dealt cards present in slots 0..4
    5
    """
    return features_of_encoding(encode_bytes(obs), list(obs["dealt"]))


@overload
def planes(x: npt.NDArray[_S]) -> npt.NDArray[_S]: ...
@overload
def planes(x: npt.ArrayLike) -> npt.NDArray[Any]: ...
def planes(x: npt.ArrayLike) -> npt.NDArray[Any]:
    """The card planes of encodings (``(..., 828)``) as ``(..., 15, 13, 4)``: plane,
    rank (2..A), suit (c, d, h, s); GameError when the last axis is not
    :data:`ENCODING_SIZE` long.

    >>> from ofc_fast import Game
    >>> game = Game("pineapple", seed=1)
    >>> obs = game.observation(game.to_act)
    >>> planes(encode_bytes(obs)).shape
    (15, 13, 4)
    """
    try:
        x = np.asarray(x)
    except (ValueError, TypeError):  # a ragged nesting of lists
        raise GameError(f"planes: encodings are an array, got {quote(x)}") from None
    if x.ndim == 0 or x.shape[-1] != ENCODING_SIZE:
        raise GameError(
            f"planes: encodings have a last axis of {ENCODING_SIZE}, got shape {x.shape}"
        )
    return x[..., : len(CARD_PLANES) * 52].reshape(*x.shape[:-1], len(CARD_PLANES), 13, 4)


def action_mask(obs: Mapping[str, Any]) -> npt.NDArray[np.bool_]:
    """Booleans over the action space: True for the legal actions of the observing
    seat (all False when it is not its turn or the decision is a full set); GameError
    for ``legal_actions`` that are not action ids.

    >>> from ofc_fast import Game
    >>> game = Game("pineapple", seed=1)
    >>> obs = game.observation(game.to_act)
    >>> mask = action_mask(obs)
    >>> mask.shape, int(mask.sum())  # the opening: 232 legal actions
    ((243,), 232)
    """
    _check_observation(obs, "action_mask")
    mask = np.zeros(ACTION_SPACE, dtype=bool)
    acts = obs.get("legal_actions")
    if acts is not None:
        top = ACTION_SPACE - 1
        ids = int_array(acts, np.uint8, "action_mask: legal_actions", GameError, top)
        if ids.ndim != 1:
            raise GameError(
                f"action_mask: legal_actions are action ids 0..{top}, got {quote(acts)}"
            )
        mask[ids] = True
    return mask
