"""NumPy batch calls: one C call for a whole array, the GIL released meanwhile.

Input arrays must be C-contiguous ``uint8`` card ids; shapes (N, 5), (N, 3) or
(N, 13) (a board in row order).  Anything else raises :class:`ArrayError` rather
than being copied silently.  Every row is checked before any result is written: a bad
card raises :class:`CardError` naming the first bad row and leaves ``out`` untouched
(unless another thread writes the input during the call).  A masked array
(``numpy.ma``) is refused, as its mask would be ignored, and so is an ``out`` that
shares memory with an input (a view of it), whose results would overwrite rows not
yet read.

>>> import numpy as np, ofc_fast as ofc
>>> hands = np.array([[51, 47, 43, 39, 35], [0, 4, 8, 12, 17]], dtype=np.uint8)
>>> ofc.rank5_batch(hands).tolist() == [ofc.STRENGTH_MAX, ofc.rank5("2c 3c 4c 5c 6d")]
True
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import Any, TypeVar

import numpy as np
import numpy.typing as npt

from ._native import E_CARD, E_DUPLICATE, OK, ffi, lib, status_error
from .cards import cards_str
from .errors import ArrayError, CardError, OfcError, quote
from .rules import OFC, RulesLike, as_rules
from .rules.compiled import compiled

__all__ = ["BoardBatch", "eval_boards", "rank3_batch", "rank5_batch", "score_pairs"]

_S = TypeVar("_S", bound=np.generic)


def refuse_masked(a: object, what: str, error: type[OfcError] = ArrayError) -> None:
    """``error`` (naming ``what``) when ``a`` is a masked array: the C code reads its
    data, masked values too, so its mask would be ignored without a word.

    >>> refuse_masked(np.ma.masked_array([1, 2], mask=[1, 0]), "boards")
    Traceback (most recent call last):
    ...
    ofc_fast.errors.ArrayError: boards is a masked array, whose mask would be ignored: pass a plain array (e.g. a.filled(0) or a.compressed())
    """  # noqa: E501 - the error message as the user sees it
    if isinstance(a, np.ma.MaskedArray):
        raise error(
            f"{what} is a masked array, whose mask would be ignored: pass a plain "
            "array (e.g. a.filled(0) or a.compressed())"
        )


def int_array(
    a: object,
    dtype: type,
    what: str,
    error: type[OfcError] = ArrayError,
    top: int | None = None,
) -> npt.NDArray[Any]:
    """``a`` (an array of any integer dtype, or nested sequences of ints) as an
    aligned C-contiguous ``dtype`` array: the one reader of integer arrays for C, never a
    silent cast (307 is not card 51, 0.5 not 0, True not 1).  ``error`` (naming
    ``what``) for a ragged array, a value that is no integer (floats, bools, text)
    or one outside ``dtype`` (``top``: the largest value allowed, if less), or a
    masked array (:func:`refuse_masked`).

    >>> int_array([[1, 2]], np.uint8, "boards").dtype
    dtype('uint8')
    >>> int_array([1, True], np.uint8, "boards")
    Traceback (most recent call last):
    ...
    ofc_fast.errors.ArrayError: boards must hold integers 0..255, got a bool
    """
    info = np.iinfo(dtype)
    lo, hi = int(info.min), int(info.max) if top is None else top
    wrong = f"{what} must hold integers {lo}..{hi}"
    refuse_masked(a, what, error)
    try:
        arr = np.asarray(a)
        if arr.size == 0 and not isinstance(a, np.ndarray):
            arr = arr.astype(dtype)  # [] is float64 to numpy, yet holds no float
        items = None  # the Python values, to look at one by one
        if arr.dtype == object:
            items, arr = arr, np.array(arr.tolist())  # the values' own dtype
        elif arr.dtype.kind in "iuf" and isinstance(a, (list, tuple)):
            # numpy reads a bool among ints as 1, and an np.int64 with an np.uint64
            # (or an int past int64 with others) as float64 (object)
            items = np.array(a, dtype=object)
    except (ValueError, TypeError):  # ragged
        raise error(f"{what} is no rectangular array") from None
    if items is not None:
        kinds = set(map(type, items.ravel().tolist()))
        if not {bool, np.bool_}.isdisjoint(kinds):
            raise error(f"{wrong}, got a bool")
        numbers = all(issubclass(k, (int, np.integer)) for k in kinds)
        if arr.dtype == object and not numbers:  # a set, None, a dict: named
            bad = next(v for v in items.ravel() if not isinstance(v, (int, np.integer)))
            if bad is a:  # the value itself, which NumPy reads as no array
                wrong = f"{what} must be an array or a list of integers {lo}..{hi}"
            raise error(f"{wrong}, got a {type(bad).__name__}: {quote(bad)}")
        if arr.dtype.kind not in "iu" and numbers:
            arr = np.array([int(v) for v in items.ravel().tolist()], dtype=object)
            if arr.size and (arr.min() < lo or arr.max() > hi):
                raise error(f"{what} holds values outside {lo}..{hi}")
            arr = arr.astype(dtype).reshape(items.shape)
    if arr.dtype != dtype or top is not None:  # else every value fits
        if arr.dtype.kind not in "iu":
            raise error(f"{wrong}, got {arr.dtype} values")
        if arr.size and (arr.min() < lo or arr.max() > hi):
            raise error(f"{what} holds values outside {lo}..{hi}")
    # a scalar stays 0-d (np.ascontiguousarray would make it 1-d, [5] for 5); an
    # array at an odd address is copied (C reads it through a uint16_t * ...)
    out: npt.NDArray[Any] = np.asarray(arr, dtype=dtype, order="C")
    return out if out.flags.aligned else out.copy()


def _cards_array(a: object, width: int, fn: str, name: str = "a") -> npt.NDArray[np.uint8]:
    if not isinstance(a, np.ndarray):
        raise ArrayError(
            f"{fn}: {name} must be a numpy array of uint8 card ids, got {type(a).__name__}"
        )
    refuse_masked(a, f"{fn}: {name}")
    if a.dtype != np.uint8:
        raise ArrayError(
            f"{fn}: {name} must have dtype uint8, got {a.dtype} "
            f"(convert once with {name}.astype(np.uint8))"
        )
    if a.ndim != 2 or a.shape[1] != width:
        raise ArrayError(f"{fn}: {name} must have shape (N, {width}), got {a.shape}")
    if not a.flags.c_contiguous:
        raise ArrayError(
            f"{fn}: {name} must be C-contiguous (use np.ascontiguousarray({name}))"
        )
    # a subclass (np.matrix: its rows are 2-d) read as the plain array it holds
    return a if type(a) is np.ndarray else a.view(np.ndarray)


def _out_array(
    out: npt.NDArray[_S] | None,
    shape: tuple[int, ...],
    dtype: type[_S],
    fn: str,
    inputs: dict[str, npt.NDArray[np.uint8]],
) -> npt.NDArray[_S]:
    """``out`` checked (ArrayError), or a new array: ``inputs`` by name, which it must
    not overlap (np.may_share_memory: the bounds only, a constant cost)."""
    if out is None:
        return np.empty(shape, dtype=dtype)
    refuse_masked(out, f"{fn}: out")
    if (
        not isinstance(out, np.ndarray)
        or out.dtype != dtype
        or out.shape != shape
        or not out.flags.c_contiguous
        or not out.flags.writeable
        or not out.flags.aligned  # C stores through an int32_t *
    ):
        raise ArrayError(
            f"{fn}: out must be a writeable, aligned, C-contiguous "
            f"{np.dtype(dtype).name} array of shape {shape}"
        )
    for name, a in inputs.items():
        if np.may_share_memory(out, a):
            raise ArrayError(
                f"{fn}: out shares memory with {name}: the results would overwrite "
                f"rows of {name} not yet read; pass a separate array"
            )
    return out


def _raise_bad_row(
    status: int, rows: npt.NDArray[Any], index: int, fn: str, name: str = "a"
) -> None:
    cards = rows[index].tolist()  # may differ from what C read if another thread wrote it
    bad = [c for c in cards if c >= 52]
    if status == E_CARD:
        what = f"card id {bad[0]}" if bad else "a card id outside 0..51"
        raise CardError(f"{fn}: {name}[{index}] holds {what} (ids are 0..51)")
    if status == E_DUPLICATE and bad:
        raise CardError(f"{fn}: {name}[{index}] repeats a card")
    if status == E_DUPLICATE:
        raise CardError(f"{fn}: {name}[{index}] repeats a card: {cards_str(cards)}")
    raise status_error(status, f"{fn}: {name}[{index}]", CardError)  # pragma: no cover


def _rank_batch(
    a: object,
    width: int,
    out: npt.NDArray[np.int32] | None,
    fn: str,
    cfun: Callable[..., int],
) -> npt.NDArray[np.int32]:
    hands = _cards_array(a, width, fn)
    n = hands.shape[0]
    result = _out_array(out, (n,), np.int32, fn, {"a": hands})
    if n == 0:
        return result
    bad = ffi.new("size_t *")
    status = cfun(
        ffi.from_buffer("uint8_t[]", hands),
        n,
        ffi.from_buffer("int32_t[]", result, require_writable=True),
        bad,
    )
    if status != OK:
        _raise_bad_row(status, hands, bad[0], fn)
    return result


def rank5_batch(
    a: npt.NDArray[np.uint8], out: npt.NDArray[np.int32] | None = None
) -> npt.NDArray[np.int32]:
    """Strengths (int32, shape (N,)) of N 5-card hands, ``a``: uint8 (N, 5).
    ``out`` may be a preallocated int32 array of shape (N,).

    Raises ArrayError for ``a`` or ``out`` of another type, dtype, shape or layout (or
    an ``out`` sharing memory with ``a``), CardError naming the first row with a bad or
    repeated card (``out`` left untouched).

    >>> from ofc_fast import parse_cards
    >>> rank5_batch(np.array([parse_cards("As Ks Qs Js Ts")], dtype=np.uint8))
    array([7917], dtype=int32)
    """
    return _rank_batch(a, 5, out, "rank5_batch", lib.ofc_rank5_batch)


def rank3_batch(
    a: npt.NDArray[np.uint8], out: npt.NDArray[np.int32] | None = None
) -> npt.NDArray[np.int32]:
    """Strengths (int32, shape (N,)) of N 3-card front hands, ``a``: uint8 (N, 3).
    ``out`` may be a preallocated int32 array of shape (N,).

    Raises ArrayError for ``a`` or ``out`` of another type, dtype, shape or layout (or
    an ``out`` sharing memory with ``a``), CardError naming the first row with a bad or
    repeated card (``out`` left untouched).

    >>> from ofc_fast import parse_cards
    >>> rank3_batch(np.array([parse_cards("Qh Qd 5c"), parse_cards("4h 3d 2c")], dtype=np.uint8))
    array([3888,    1], dtype=int32)
    """
    return _rank_batch(a, 3, out, "rank3_batch", lib.ofc_rank3_batch)


@dataclass(frozen=True, eq=False)
class BoardBatch:
    """Evaluated boards (:func:`eval_boards`): ``strength`` and ``royalty`` int32 (N,
    3), ``foul`` bool (N,).  Two batches are equal when their arrays are (a batch
    holds arrays that may change: no hash).

    >>> from ofc_fast import Board
    >>> b = Board.parse("Qh Qd 2c / 9s 9h 9d 5c 5d / As Ks Qs Js Ts")
    >>> batch = eval_boards(np.array([b.cards], dtype=np.uint8), "OFC")
    >>> batch.royalty.tolist(), batch.foul.tolist()
    ([[7, 12, 25]], [False])
    """

    strength: npt.NDArray[np.int32]
    royalty: npt.NDArray[np.int32]
    foul: npt.NDArray[np.bool_]

    def __eq__(self, other: object) -> bool:
        if not isinstance(other, BoardBatch):
            return NotImplemented
        return all(
            np.array_equal(mine, theirs)
            for mine, theirs in (
                (self.strength, other.strength),
                (self.royalty, other.royalty),
                (self.foul, other.foul),
            )
        )

    __hash__ = None  # type: ignore[assignment]


def eval_boards(boards: npt.NDArray[np.uint8], rules: RulesLike = OFC) -> BoardBatch:
    """Evaluate N complete boards, ``boards``: uint8 (N, 13) in row order (strengths:
    each row's high hand under every rule set, as :meth:`ofc_fast.Board.evaluate`).

    Raises ArrayError for boards of another type, dtype, shape or layout, CardError
    naming the first row with a bad or repeated card, RulesError for unknown rules.

    >>> import numpy as np
    >>> from ofc_fast import Board
    >>> board = Board.parse("Qh Qd 2c / 9s 9h 9d 5c 5d / As Ks Qs Js Ts")
    >>> r = eval_boards(np.array([board.cards], dtype=np.uint8))
    >>> r.royalty.tolist(), r.foul.tolist()
    ([[7, 12, 25]], [False])
    """
    c_rules = compiled(as_rules(rules, "eval_boards"))
    a = _cards_array(boards, 13, "eval_boards", "boards")
    n = a.shape[0]
    strength = np.empty((n, 3), dtype=np.int32)
    royalty = np.empty((n, 3), dtype=np.int32)
    foul = np.empty(n, dtype=np.bool_)
    if n:
        bad = ffi.new("size_t *")
        status = lib.ofc_eval_boards(
            c_rules,
            ffi.from_buffer("uint8_t[]", a),
            n,
            ffi.from_buffer("int32_t[]", strength),
            ffi.from_buffer("int32_t[]", royalty),
            ffi.from_buffer("uint8_t[]", foul),
            bad,
        )
        if status != OK:
            _raise_bad_row(status, a, bad[0], "eval_boards", "boards")
    return BoardBatch(strength, royalty, foul)


def score_pairs(
    a: npt.NDArray[np.uint8],
    b: npt.NDArray[np.uint8],
    rules: RulesLike = OFC,
    out: npt.NDArray[np.int32] | None = None,
) -> npt.NDArray[np.int32]:
    """Net points (int32, shape (N,)) of board ``a[i]`` against ``b[i]``; both uint8
    (N, 13) in row order.  The 26 cards of each pair must be distinct.

    Raises ArrayError for arrays of another type, dtype, shape or layout (or an ``out``
    sharing memory with one), CardError naming the first pair with a bad or repeated
    card (``out`` left untouched), RulesError for unknown rules.

    >>> from ofc_fast import Board
    >>> a = Board.parse("Qh Qd 2c / 9s 9h 9d 5c 5d / As Ks Qs Js Ts").cards
    >>> b = Board.parse("2h 3d 4c / 6s 6h 7d 7c 8d / Ah Ad Kh Kd 8c").cards
    >>> score_pairs(np.array([a], np.uint8), np.array([b], np.uint8), "OFC")
    array([50], dtype=int32)
    """
    c_rules = compiled(as_rules(rules, "score_pairs"))
    ba = _cards_array(a, 13, "score_pairs", "a")
    bb = _cards_array(b, 13, "score_pairs", "b")
    if ba.shape != bb.shape:
        raise ArrayError(f"score_pairs: a and b differ in shape: {ba.shape} vs {bb.shape}")
    n = ba.shape[0]
    net = _out_array(out, (n,), np.int32, "score_pairs", {"a": ba, "b": bb})
    if n:
        bad = ffi.new("size_t *")
        status = lib.ofc_score_pairs(
            c_rules,
            ffi.from_buffer("uint8_t[]", ba),
            ffi.from_buffer("uint8_t[]", bb),
            n,
            ffi.from_buffer("int32_t[]", net, require_writable=True),
            bad,
        )
        if status != OK:
            _raise_bad_pair(status, ba, bb, bad[0])
    return net


def _raise_bad_pair(
    status: int, a: npt.NDArray[Any], b: npt.NDArray[Any], index: int
) -> None:
    """The CardError of pair ``index`` of score_pairs, naming the pair and the array
    and row at fault: ``a[i]`` or ``b[i]`` for a bad or repeated card in one board,
    ``a[i] and b[i]`` for a card on both."""
    fn = f"score_pairs: pair {index}"
    ra, rb = a[index].tolist(), b[index].tolist()
    if status == E_DUPLICATE and len(set(ra)) == len(ra) and len(set(rb)) == len(rb):
        both = sorted(set(ra) & set(rb))
        shown = f": {cards_str(both)}" if both and max(both) < 52 else ""
        raise CardError(f"{fn}: a[{index}] and b[{index}] repeat a card{shown}")
    in_a = max(ra) >= 52 if status == E_CARD else len(set(ra)) < len(ra)
    _raise_bad_row(status, a if in_a else b, index, fn, "a" if in_a else "b")
