"""Hostile arguments to every public callable (README, Guarantees: a bad input raises
a specific OfcError naming it; no other exception, no crash, no hang).

The property test calls each public function, class and method of the listed
packages with one argument replaced by a hostile value (wrong types, NaN and
infinities, ints past 64 bits, huge and empty text, bytes, NumPy arrays of the wrong
dtype, shape or layout, read-only ones, nested containers, objects whose
``__index__``, ``__len__``, ``__iter__`` or ``__bool__`` raise) and checks that only
an OfcError escapes.  An object's own exception (``CallerFault``, raised by the
hostile object's methods) may propagate as it was raised: it is the caller's, not the
library's.  ``test_bad_input.py`` keeps the regressions the fuzzers found; this file
checks the whole surface, and that a refused call leaves a game playing as before.
"""

from __future__ import annotations

import importlib
import inspect
import os
import signal
from collections.abc import Callable, Iterator
from enum import Enum
from typing import Any

import numpy as np
import pytest
from hypothesis import HealthCheck, assume, given, settings
from hypothesis import strategies as st
from hypothesis.extra import numpy as hnp

import ofc_fast as ofc
from ofc_fast import rules
from ofc_fast.errors import OfcError

A = "Qh Qd 2c / 9s 9h 9d 5c 5d / As Ks Qs Js Ts"
B = "2h 3d 4c / 6s 6h 7d 7c 8d / Ah Ad Kh Kd 8c"
FL_HAND = "Ad Ah Th Jh 6h Ts 5d 3c Tc 3s 7h Qh 3d 9s"
CARDS13 = "As Ad Kc Kd Qh Qs Jc Jd 9h 7s 5c 3d 2h"

PACKAGES = [
    "ofc_fast",
    "cards",
    "board",
    "ranking",
    "scoring",
    "table",
    "rules",
    "game",
    "bots",
    "search",
    "fantasyland",
    "solver",
    "batch",
    "encoding",
    "env",
    "learned",
    "files",
    "parallel",
    "arena",
    "serve",
]

# Public callables the property test does not call, each with the reason.
SKIPPED = {
    # result records: built by the library, their fields are read, not checked
    "Advice": "a result record",
    "BoardBatch": "a result record",
    "BoardEval": "a result record",
    "Completion": "a result record",
    "GameResult": "a result record",
    "NaturalHand": "a result record (natural_payment re-reads its name)",
    "PairScore": "a result record",
    "Settlement": "a result record",
    "SettlementItem": "a result record",
    "Solution": "a result record",
    "EvaluatedBoard": "made by evaluate_for_scoring (its C struct)",
    "ValueModel": "made by load_model (its C struct)",
    # side effects beyond the call
    "register": "changes the process-wide bot registry",
    "unregister": "changes the process-wide bot registry",
    "register_gymnasium": "changes gymnasium's process-wide registry",
    "pettingzoo_env": "needs the pettingzoo extra",
    "random_seed": "takes no argument",
    "names": "takes no argument",
    "bot_names": "takes no argument",
    # types, not functions
    "Observation": "a TypedDict",
    "ObservationResult": "a TypedDict",
    "RuleSetDict": "a TypedDict",
    "VectorInfos": "a TypedDict",
    "Bot": "a Protocol",
    "BotFactory": "a type alias",
    "ObservationLike": "a type alias",
    "BotSpec": "a record (parse_bot_spec makes it; Arena checks it)",
    "Arena": "plays bots in processes (tests/test_arena_*.py check its arguments)",
    "model_bytes": "needs trained nets (tests/test_learned.py checks its inputs)",
    "write_model": "writes files (tests/test_learned.py checks its inputs)",
}
SKIPPED_PACKAGES = {
    "ofc_fast.files": "file-system helpers (tests/test_files.py)",
    "ofc_fast.parallel": "starts processes (tests/test_parallel*.py)",
}


def _game() -> ofc.Game:
    return ofc.Game(rules.PINEAPPLE, seed=3)


def _goods() -> dict[str, Any]:
    """A good value of each parameter name (None: the default is good too)."""
    from ofc_fast.bots import make_bot
    from ofc_fast.encoding import encode

    g = _game()
    obs = g.observation(g.to_act)
    return {
        "rules": rules.PINEAPPLE, "players": 2, "seed": 1, "cards": "As Ks Qs Js Ts",
        "game_id": "ofc-pineapple",
        "strength": 100, "board": A, "name": "pineapple", "a": A, "b": B, "rows": None,
        "card": "As", "cards13": CARDS13, "text": "As", "boards": [A, B],
        "dealt": "As Kd Qc", "value": 1, "seat": 0, "transfers": [((0, 1), 3)],
        "stacks": [5, 5], "model": "chips", "run_seed": 1, "i": 0, "kev": 1, "n": 2,
        "kev_cards": [268471337, 134236965, 67115551, 33589533, 16812055],
        "names": ["random"], "spec": "heuristic", "path": "no-such-dir/x.bin",
        "x": np.zeros((1, 10)), "discards": 1, "rng": np.random.default_rng(0),
        "action": 0, "chips": [5, 5], "values": [1, 2], "what": "w", "need": "n",
        "fantasyland": [0, 0], "game": g, "obs": obs, "observation": obs,
        "move": g.legal_moves()[0], "encoding": encode(obs),
        "bots": [make_bot("random"), make_bot("random")],
        "fl_value": (0.0,) * 18, "row_weight": 1.0,
    }  # fmt: skip


_BY_CALL = {
    ("rank3", "cards"): "As Ks Qs",
    ("rank", "cards"): "As Ks Qs",
    ("best_setting", "cards"): CARDS13,
    ("solve_fantasyland", "cards"): FL_HAND,
    ("best_completion", "board"): "As / / ",
}


def _public() -> Iterator[tuple[str, str, Callable[..., Any]]]:
    """(package, name, callable) of every public callable, each once."""
    seen: set[int] = set()
    for short in PACKAGES:
        name = "ofc_fast" if short == "ofc_fast" else f"ofc_fast.{short}"
        mod = importlib.import_module(name)
        for attr in mod.__all__:
            obj = getattr(mod, attr)
            if not callable(obj) or id(obj) in seen:
                continue
            if inspect.isclass(obj) and issubclass(obj, BaseException):
                continue
            seen.add(id(obj))
            yield name, attr, obj


def _targets() -> list[tuple[str, Callable[..., Any], str, dict[str, Any]]]:
    """(label, callable, parameter, good keyword arguments) of each parameter of
    each public callable (and of the methods of a game, a board and a rule set)."""
    goods = _goods()
    out = []
    calls: list[tuple[str, Callable[..., Any]]] = [
        (f"{m}.{n}", f) for m, n, f in _public() if n not in SKIPPED
        and m not in SKIPPED_PACKAGES
    ]  # fmt: skip
    for owner, make in (("Game", _game), ("Board", lambda: ofc.Board.parse(A))):
        for attr in dir(make()):
            if not attr.startswith("_") and inspect.ismethod(getattr(make(), attr)):
                calls.append((f"{owner}().{attr}", _method(make, attr)))
    for label, fn in calls:
        if inspect.isclass(fn) and issubclass(fn, Enum):
            fn = _enum_lookup(fn)  # (3.12+: an enum's signature is (*values))
        try:
            sig = inspect.signature(fn)
        except (TypeError, ValueError):
            continue
        params = [
            p for p in sig.parameters.values()
            if p.kind not in (p.VAR_POSITIONAL, p.VAR_KEYWORD, p.POSITIONAL_ONLY)
        ]  # fmt: skip
        short = label.rsplit(".", 1)[-1]
        kw = {}
        for p in params:
            if p.default is p.empty:
                kw[p.name] = _BY_CALL.get((short, p.name), goods.get(p.name, _MISSING))
        if any(v is _MISSING for v in kw.values()):
            continue  # (a method needing an argument no table above gives)
        out.extend((label, fn, p.name, kw) for p in params)
    return out


_MISSING = object()


def _enum_lookup(cls: type[Enum]) -> Callable[..., Any]:
    """An enum's lookup by value (``HandCategory(value)``), one parameter on every
    Python version."""

    def lookup(value: Any) -> Any:
        return cls(value)

    return lookup


def _method(make: Callable[[], Any], attr: str) -> Callable[..., Any]:
    """``attr`` of a fresh object per call (a refused call must not matter, but one
    that succeeds may change its object)."""
    sig = inspect.signature(getattr(make(), attr))

    def call(**kw: Any) -> Any:
        return getattr(make(), attr)(**kw)

    call.__signature__ = sig  # type: ignore[attr-defined]
    return call


class CallerFault(Exception):
    """Raised by a hostile object's own methods: the caller's exception."""


class Raising:
    """An object whose every protocol method raises CallerFault."""

    def _fault(self, *args: object) -> Any:
        raise CallerFault("hostile object")

    __index__ = __len__ = __iter__ = __int__ = __float__ = __bool__ = _fault
    __getitem__ = __contains__ = __fspath__ = _fault

    def __repr__(self) -> str:
        return "Raising()"


class NoRepr:
    """An object whose repr raises (the library quotes it in its messages)."""

    def __repr__(self) -> str:
        raise RuntimeError("no repr")


def _deep(n: int) -> list[Any]:
    deep: list[Any] = []
    for _ in range(n):
        deep = [deep]
    return deep


def _read_only(a: np.ndarray) -> np.ndarray:
    a = a.copy()
    a.flags.writeable = False
    return a


FIXED = [
    None, True, False, np.True_, float("nan"), float("inf"), -float("inf"), -0.0, 1.5,
    2**70, -(2**70), 10**5000, -1, 0, "", "x" * 100_000, "As" * 20_000, b"As",
    bytearray(b"As"), {"a": {"b": {}}}, {0: None}, [None], [[]], (), set(), object(),
    Raising(), NoRepr(), _deep(3000), np.array(3), np.array([]), np.float64("nan"),
    np.int64(-1), np.uint64(2**64 - 1), np.zeros((2, 13)), np.zeros((2, 13), np.int64),
    np.full((2, 13), 255, np.uint8), np.zeros((4, 26), np.uint8)[:, ::2],
    _read_only(np.arange(26, dtype=np.uint8).reshape(2, 13)), np.zeros((2, 2, 2), np.uint8),
    np.ma.masked_array(np.arange(5, dtype=np.uint8)), np.array(["As", "Kd"]),
    np.zeros(3, np.int32)[::2], np.array([None, "x"], dtype=object),
]  # fmt: skip

HOSTILE = st.one_of(
    st.sampled_from(FIXED),
    st.integers(-(2**80), 2**80),
    st.floats(allow_nan=True, allow_infinity=True),
    st.text(max_size=30),
    st.binary(max_size=8),
    st.lists(st.integers(-300, 300), max_size=20),
    st.dictionaries(st.text(max_size=3), st.integers(-5, 5), max_size=3),
    hnp.arrays(
        st.sampled_from([np.uint8, np.int8, np.int64, np.float64, np.bool_]),
        hnp.array_shapes(min_dims=0, max_dims=3, max_side=14),
    ),
)

TARGETS = _targets()


LONG_WORK = {"samples": 100, "time_budget": 1, "seconds": 1, "limit": 100, "nodes": 10_000}
"""Parameters whose good values past these ask for long work (a search's samples)."""


class Hang(BaseException):  # (no except Exception in the library swallows it)
    """A call that ran past its limit."""


def _alarm(signum: int, frame: object) -> None:
    raise Hang


def _call(fn: Callable[..., Any], kw: dict[str, Any]) -> BaseException | None:
    """``fn(**kw)``'s exception (None when it returned); a call past 20 s: Hang."""
    old = signal.signal(signal.SIGALRM, _alarm)
    signal.alarm(20)
    try:
        fn(**kw)
    except Exception as exc:
        return exc
    finally:
        signal.alarm(0)
        signal.signal(signal.SIGALRM, old)
    return None


def test_every_public_callable_is_called_or_skipped_with_a_reason() -> None:
    """A new public callable is called by the property test, or listed above."""
    called = {label.rsplit(".", 1)[-1] for label, *_ in TARGETS}
    for module, name, _fn in _public():
        if module in SKIPPED_PACKAGES:
            continue
        assert name in called or name in SKIPPED, f"{module}.{name}: no good arguments"
    assert len(called) > 100


@settings(
    max_examples=int(os.environ.get("OFC_HOSTILE_EXAMPLES", "5000")),
    deadline=None,
    suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large],
)
@given(target=st.sampled_from(TARGETS), value=HOSTILE)
def test_a_hostile_argument_raises_only_an_ofc_error(
    target: tuple[str, Callable[..., Any], str, dict[str, Any]], value: Any
) -> None:
    label, fn, param, good = target
    # a big search is long work, not a hang: numbers past LONG_WORK's are skipped
    number = isinstance(value, (int, float, np.number)) and not isinstance(value, bool)
    assume(not (param in LONG_WORK and number and value > LONG_WORK[param]))
    kw = {k: v.copy() if isinstance(v, ofc.Game) else v for k, v in good.items()}
    exc = _call(fn, {**kw, param: value})
    if exc is None or isinstance(exc, (OfcError, CallerFault)):
        return
    raise AssertionError(f"{label}({param}={value!r:.80}): {type(exc).__name__}: {exc}")


def _play(game: ofc.Game) -> tuple[list[str], object]:
    """The rest of the deal, the first legal move each turn: its boards and result."""
    while not game.is_over:
        game.play(game.legal_moves()[0], seat=game.to_act)
    return [str(b) for b in game.boards], game.result()


@pytest.mark.parametrize("value", FIXED[:30], ids=lambda v: type(v).__name__)
def test_a_game_refused_a_call_plays_as_before(value: Any) -> None:
    """A Game that refused a hostile move, action, seat or observation plays the same
    deal as an untouched one: a refused call changes nothing."""
    game, twin = _game(), _game()
    move = game.legal_moves()[0]
    for call in (
        lambda g: g.play(value),
        lambda g: g.play(move, seat=value),
        lambda g: g.play_action(value),
        lambda g: g.action_to_move(value),
        lambda g: g.observation(value),
        lambda g: g.check_seat(value),
        lambda g: g.move_to_action(value),
    ):
        exc = _call(call, {"g": game})
        assert exc is None or isinstance(exc, (OfcError, CallerFault)), repr(exc)
        if exc is None:  # (a value that is a good argument: the twin does the same)
            call(twin)
    assert game.to_act == twin.to_act
    assert _play(game) == _play(twin)


def test_an_evaluated_board_made_by_hand_is_checked_when_made():
    """Regression: EvaluatedBoard(board, c, rules) built by hand took any ``c``:
    score_evaluated then raised cffi's TypeError ("initializer for ctype 'struct
    ofc_board_eval *' must be a cdata pointer, not NoneType"), and a ``board`` of
    text was kept; each is a BoardError when the object is made."""
    from ofc_fast.errors import BoardError
    from ofc_fast.scoring import EvaluatedBoard, evaluate_for_scoring, score_evaluated

    good = evaluate_for_scoring(ofc.Board.parse(A), rules.OFC)
    for board, c in ((ofc.Board.parse(A), None), (ofc.Board.parse(A), "x"), (A, good.c)):
        with pytest.raises(BoardError, match="EvaluatedBoard: expected a Board"):
            EvaluatedBoard(board, c, rules.OFC)  # type: ignore[arg-type]
    again = EvaluatedBoard(good.board, good.c, rules.OFC)
    assert score_evaluated(again, good, rules.OFC) == score_evaluated(good, good, rules.OFC)
