"""Value models: read, check, write and evaluate the learned value of after-states.

A model file (``*.ofcvm``, format in ``docs/learned.md`` and ``csrc/include/ofc_model.h``) holds
one small perceptron per number of cards on the board; C reads it once into an
``ofc_vmodel`` and evaluates it with no Python per evaluation (``csrc/include/ofc_value.h``).
A missing, truncated or corrupt file raises :class:`~ofc_fast.errors.ModelError`.

>>> from ofc_fast import rules
>>> m = shipped_model(rules.PINEAPPLE, 2)
>>> m is not None and m.cards == (5, 7, 9, 11)
True
>>> v = m.value("As Ks / Qd Qc / 9h 9s 2c", rules.PINEAPPLE)
>>> isinstance(v, float)
True
"""

from __future__ import annotations

import base64
import os
import re
import stat
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field, replace
from functools import lru_cache
from pathlib import Path
from typing import Any, TypeAlias

import numpy as np
import numpy.typing as npt

from .._native import OK, ffi, lib, status_error
from ..batch import int_array
from ..board import Board
from ..cards import CardsLike, parse_cards
from ..errors import ModelError, quote, quote_path
from ..files import atomic_write
from ..rules import RuleSet, RulesLike, as_rules, play_key
from ..rules.compiled import compiled, compiled_fl
from ..solver import ev_tables
from ..table import as_int
from ._fingerprint import (
    earlier_fingerprints,
    fingerprint,
    presets_by_fingerprint,
    trained_for,
)
from ._lru import Lru
from ._model_args import NO_CARD, card_mask, check_fl_value, fl_values, seats
from ._model_args import board_bytes as board_bytes  # for its users
from ._model_format import MAX_FILE, file_bytes, file_path, nets_payload, why

__all__ = [
    "FEATURES",
    "FORMAT_VERSION",
    "MODEL_DIR",
    "ModelSpec",
    "ValueModel",
    "load_model",
    "model_bytes",
    "resolve_model",
    "rules_hash",
    "rules_mismatch",
    "shipped_model",
    "write_model",
]

FORMAT_VERSION = int(lib.OFC_VM_VERSION)
"""The newest model file format version this library reads and writes (it reads
every version from 1; it writes this one, its header under a checksum too)."""
FEATURES = int(lib.OFC_VF_N)
"""Inputs of every net (feature set 1, ``csrc/include/ofc_value.h``)."""
MODEL_DIR = Path(__file__).resolve().parent / "models"
"""Where the shipped models lie: ``<rules name>-<players>p.ofcvm``."""
_NAME_MAX = 100  # characters of a name given with the bytes (from_bytes)
_CONTEXTS = 64  # contexts, and tables, a model keeps (the least recently used forgotten)


def rules_hash(rules: RulesLike) -> int:
    """A 32-bit fingerprint of how a rule set plays and scores (FNV-1a of its
    canonical JSON less its name and description, :data:`~ofc_fast.rules.LABEL_FIELDS`),
    stored in a model file so a model is never used under other rules; a preset
    renamed or described anew keeps it.

    >>> from ofc_fast import rules
    >>> rules_hash(rules.PINEAPPLE) == rules_hash(rules.get("pineapple"))
    True
    >>> rules_hash(rules.PINEAPPLE) == rules_hash(rules.PINEAPPLE.replace(name="home"))
    True
    """
    return fingerprint(as_rules(rules, "rules_hash"))


def rules_mismatch(trained_hash: int, rules: RulesLike) -> str | None:
    """None when what was trained for rules of fingerprint ``trained_hash`` (a
    :func:`rules_hash`: a model file's, a policy file's ``meta_rules_hash``) fits
    ``rules`` (their fingerprint, or one an earlier version gave them written another
    way), else which rules it was trained for, said against ``rules``: the preset's
    and the fields they differ in, or that they are no preset's (both fingerprints).
    The one test of "trained for these rules" (value models and policies).

    >>> from ofc_fast import rules
    >>> rules_mismatch(rules_hash(rules.PINEAPPLE), rules.PINEAPPLE.replace(name="home"))
    >>> rules_mismatch(rules_hash(rules.PINEAPPLE), rules.PINEAPPLE.replace(sweep_bonus=9))
    "the PINEAPPLE preset's; they differ in sweep_bonus"
    """
    rules = as_rules(rules, "rules_mismatch")
    if trained_hash == rules_hash(rules) or trained_hash in earlier_fingerprints(rules):
        return None  # (earlier_fingerprints: the same rules written another way)
    return trained_for(trained_hash, rules)


@dataclass(frozen=True, eq=False)
class ValueModel:
    """A parsed model file: ``name`` (file stem and checksum), ``rules_hash``,
    ``players`` (0: any), ``cards`` (the board sizes it has a net for), ``checksum``
    (FNV-1a 64 of the payload) and ``c`` (the C ``ofc_vmodel *``, read-only).

    Equality is identity (each model owns its C struct and caches; no cache keys on
    a model; a name or path is no part of the nets): an unpickled or re-read model
    is ``!=`` its original; compare ``checksum`` and ``rules_hash`` for the nets.

    >>> from ofc_fast import rules
    >>> m = shipped_model(rules.PINEAPPLE, 2)
    >>> m.players, m.cards
    (2, (5, 7, 9, 11))
    >>> type(m.value("Qh Qd / 9s 9h 9d / As Ks", rules.PINEAPPLE))
    <class 'float'>
    """

    name: str
    rules_hash: int
    players: int
    cards: tuple[int, ...]
    checksum: int
    c: Any
    _path: str | None = field(default=None, repr=False)  # the file it was read from
    _bytes: bytes = field(default=b"", repr=False)  # the file's bytes it was parsed from
    _contexts: Lru[Any, Any] = field(default_factory=lambda: Lru(_CONTEXTS), repr=False)
    _ev: Lru[int, Any] = field(default_factory=lambda: Lru(_CONTEXTS), repr=False)

    def __reduce__(self) -> tuple[Any, tuple[bytes, str, str | None]]:
        """Pickle as the file's bytes, name and path (the C struct is parsed again)."""
        return (_unpickle, (self._bytes, self._stem, self._path))

    @property
    def _stem(self) -> str:
        """The name it was parsed under (``name`` less its checksum)."""
        return self.name.rsplit("@", 1)[0]

    @property
    def opponent_rows(self) -> npt.NDArray[Any] | None:
        """The opponent row counts the model was trained against ((3, 7918) uint32:
        per row, how often the opponent's row had each strength), or None: the
        shipped typical opponent (``csrc/include/ofc_model.h``, format 2 on)."""
        if not self.c.opponent:
            return None
        flat = np.frombuffer(ffi.buffer(self.c.opp), np.uint32)
        return np.array(flat.reshape(3, -1), np.uint32)

    def ev_tables(self, rules: RulesLike) -> Any:
        """The C ``ofc_ev_tables *`` the model values boards against under ``rules``
        (C ``ofc_value_ev_tables``: its opponent rows', else the rules' shipped ones);
        cached: one for rule sets that play alike (:func:`rules_hash`), the 64 last
        asked for (threads share one model: they get the same tables)."""
        rules = as_rules(rules, "value model")
        if not self.c.opponent:
            return ev_tables(rules)
        key = rules_hash(rules)  # (keyed by the RuleSet, 300 renamed ones held 127 MB)
        hit = self._ev.get(key)
        if hit is None:
            hit = ffi.new("ofc_ev_tables *")
            st = lib.ofc_value_ev_tables(compiled(rules), self.c, hit)
            if st != OK:
                raise status_error(st, f"value model {self.name}", ModelError)
            hit = self._ev.keep(key, hit)  # (another thread's, if it came first)
        return hit

    @classmethod
    def from_bytes(cls, data: bytes, name: str = "model") -> ValueModel:
        """Parse and check a model file's bytes (ModelError naming the problem);
        ``name``: 1 to 100 printable characters (ModelError naming it)."""
        if not (
            isinstance(name, str) and 0 < len(name) <= _NAME_MAX and name.isprintable()
        ):
            raise ModelError(
                f"value model name: must be 1 to {_NAME_MAX} printable characters, "
                f"got {quote(name)}"
            )
        return cls._parse(data, name, name)

    @classmethod
    def _parse(cls, data: bytes, name: str, label: str) -> ValueModel:
        """:meth:`from_bytes`, its errors naming the model ``label`` (a file's path)."""
        if not isinstance(data, (bytes, bytearray)):
            raise ModelError(f"a model is bytes, got {type(data).__name__}")
        c = ffi.new("ofc_vmodel *")
        st = lib.ofc_vm_parse(bytes(data), len(data), c)
        if st != OK:
            raise status_error(st, f"value model {label}", ModelError)
        if c.feature_set != lib.OFC_VF_SET or c.inputs != FEATURES:
            raise ModelError(
                f"value model {label}: feature set {c.feature_set} with {c.inputs} "
                f"inputs; this library computes feature set {lib.OFC_VF_SET} "
                f"({FEATURES} inputs)"
            )
        cards = tuple(i for i in range(14) if c.net_of[i] >= 0)
        checksum = int(c.checksum)
        return cls(
            f"{name}@{checksum >> 32:08x}",
            int(c.rules_hash),
            int(c.players),
            cards,
            checksum,
            c,
            _bytes=bytes(data),
        )

    def check_rules(self, rules: RulesLike, players: int | None = None) -> None:
        """ModelError when the model was written for another rule set or seat count
        (``rules``: a RuleSet, a preset name or a game id)."""
        rules = as_rules(rules, "value model")
        where = self.where()
        why = rules_mismatch(self.rules_hash, rules)
        if why is not None:
            raise ModelError(
                f"value model {self.name}{where} was trained for other rules than "
                f"{rules.name} ({why})"
            )
        if players is not None and self.players not in (0, seats(players)):
            raise ModelError(
                f"value model {self.name}{where} was trained for {self.players} players, "
                f"not {players}"
            )

    def where(self) -> str:
        """`` (file PATH)``, said after its name, for a model read from a file."""
        return "" if self._path is None else f" (file {quote_path(self._path)})"

    def _status_error(self, st: int, cards: int) -> Exception:
        """The ModelError of a C status of valuing a board of ``cards`` cards."""
        if st == lib.OFC_E_MODEL_NO_NET:
            return ModelError(
                f"value model {self.name}{self.where()} has no net for boards of "
                f"{cards} cards (its nets: {list(self.cards)})"
            )
        return status_error(st, f"value model {self.name}", ModelError)

    def context(self, rules: RulesLike, players: int, fl_value: Sequence[float]) -> Any:
        """The C ``ofc_value_ctx *`` of this model for a table, which keeps the model's
        and the rule set's C structs it points to alive as long as it lives (the
        model keeps the 64 contexts last asked for, one for rule sets that play alike
        (:func:`~ofc_fast.rules.play_key`: renamed ones); threads share one model: they get the
        same context); ModelError for a table
        the model was not trained for (:meth:`check_rules`), ``players`` outside
        2..4 or an ``fl_value`` that is not 18 numbers within +-1e6."""
        rules = as_rules(rules, "value model")
        players = seats(players)
        values = check_fl_value(fl_value)
        key = (play_key(rules), players, values)  # (renamed rule sets: one context)
        hit = self._contexts.get(key)
        if hit is not None:
            return hit
        self.check_rules(rules, players)
        owner = ffi.new("ofc_value_ctx *")
        keep = (compiled(rules), compiled_fl(rules), self.ev_tables(rules), self.c)
        owner.rules, owner.fl, owner.ev, owner.model = keep
        owner.fl_value = list(values)
        owner.players = players
        owner.in_fl = 0
        st = lib.ofc_value_ctx_check(owner)
        if st != OK:
            raise status_error(st, f"value model {self.name}", ModelError)
        ctx = held_context(owner, keep)
        return self._contexts.keep(key, ctx)  # (another thread's, if it came first)

    def value(
        self,
        board: str | Board | Sequence[Sequence[int]],
        rules: RulesLike,
        players: int = 2,
        dead: CardsLike = (),
        fl_value: Sequence[float] | None = None,
    ) -> float:
        """The value of one board: the net of its card count, or a complete board's
        expected points (``csrc/include/ofc_value.h``); ``dead``: cards out of the deck."""
        rules = as_rules(rules, "value model")
        fl = fl_values(rules) if fl_value is None else fl_value
        ctx = self.context(rules, players, fl)
        out = ffi.new("double *")
        cells = board_bytes(board)
        st = lib.ofc_value_board(ctx, cells, card_mask(parse_cards(dead)), out)
        if st != OK:
            raise self._status_error(st, sum(1 for c in cells if c != NO_CARD))
        return float(out[0])

    def action_values(
        self,
        rules: RulesLike,
        players: int,
        fl_value: Sequence[float],
        rows: Sequence[Sequence[int]],
        dealt: Sequence[int],
        to_discard: int,
        unseen: Iterable[int],
        actions: Sequence[int],
    ) -> list[float]:
        """The value of the board after each action (C ``ofc_value_actions``):
        ``rows`` the seat's board, ``dealt`` its cards, ``unseen`` the cards it has
        not seen (the rest, less the board and the dealt cards, are out of the deck).

        >>> from ofc_fast import rules
        >>> from ofc_fast.bots import unseen_cards
        >>> from ofc_fast.game import Game
        >>> obs = Game(rules.PINEAPPLE, 2, seed=1).observation(1)
        >>> m = shipped_model(rules.PINEAPPLE, 2)
        >>> fl = [0.0] * 18
        >>> v = m.action_values(rules.PINEAPPLE, 2, fl, obs["boards"][1], obs["dealt"],
        ...                     0, unseen_cards(obs), obs["legal_actions"])
        >>> len(v) == len(obs["legal_actions"])
        True
        """
        board = board_bytes(rows)
        cards = parse_cards(dealt)
        k = as_int(to_discard)
        if k is None or not 0 <= k < 2**32:
            raise ModelError(f"to_discard must be a card count, got {quote(to_discard)}")
        ids = int_array(actions, np.uint8, "action_values: actions", ModelError)
        if ids.ndim != 1:
            raise ModelError(f"action_values: actions are a list of ids, got {ids.shape}")
        dead = (1 << 52) - 1 & ~card_mask(parse_cards(unseen)) & ~card_mask(cards)
        dead &= ~card_mask(c for c in board if c != 0xFF)
        ctx = self.context(rules, players, fl_value)
        values = ffi.new("double[]", max(1, len(ids)))
        st = lib.ofc_value_actions(
            ctx, board, bytes(cards), len(cards), k, dead, ids.tobytes(), len(ids), values
        )
        if st != OK:  # (the boards after the moves: the board, the cards kept)
            placed = sum(1 for c in board if c != NO_CARD) + len(cards) - k
            raise self._status_error(st, placed)
        return [float(values[i]) for i in range(len(ids))]


ModelSpec: TypeAlias = str | os.PathLike[str] | ValueModel | Mapping[str, str] | None
"""What a ``model=`` setting takes: ``"auto"`` (the shipped model of the rule set and
seat count, or none), None (no model: rollouts only), a path to a model file (a
bot keeps it absolute: made absolute in the working directory the bot is built
in), a :class:`ValueModel`, a model file's bytes as JSON-safe data: ``{"name": text,
"base64": the bytes in base64}`` (what a bot's ``settings()`` carries for a model
read from bytes, not from a file), or a model file with its checksum: ``{"path":
absolute path, "checksum": 16 hex digits}`` (what ``settings()`` carries for a model
read from a file: a file rewritten or deleted since is a ModelError naming it)."""


def held_context(owner: Any, keep: tuple[Any, ...]) -> Any:
    """A pointer to the ``ofc_value_ctx`` ``owner`` whose destructor holds it and
    ``keep``, the C structs it points to: a context handed out stays valid after its
    cache forgets it, and all of it is freed with the last reference to the pointer."""
    return ffi.gc(ffi.cast("ofc_value_ctx *", owner), lambda _p, _k=(owner, keep): None)


def _unpickle(data: bytes, name: str, path: str | None) -> ValueModel:
    return replace(ValueModel._parse(data, name, name), _path=path)  # (a stem: any size)


def load_model(path: str | os.PathLike[str]) -> ValueModel:
    """Read and check a model file (ModelError naming the path, quoted as
    :func:`~ofc_fast.errors.quote_path` quotes one, when it is missing or
    damaged, not a regular file, or larger than any model file: nothing past that
    size is read; or when ``path`` is no path).  The model is named by the file's
    stem, quoted where that is no name :meth:`ValueModel.from_bytes` takes (control
    characters, over 100 characters).

    >>> load_model(MODEL_DIR / "pineapple-2p.ofcvm").players
    2
    """
    p = file_path(path)
    try:
        regular = stat.S_ISREG(p.stat().st_mode)
        if regular:
            with p.open("rb") as f:
                data = f.read(MAX_FILE + 1)
    except (OSError, ValueError) as exc:  # ValueError: a NUL character in the path
        raise ModelError(
            f"value model {quote_path(p)}: cannot read it ({why(exc)})"
        ) from None
    if not regular:  # (a ModelError is a ValueError: raised inside, it was wrapped)
        raise ModelError(f"value model {quote_path(p)}: not a regular file")
    if len(data) > MAX_FILE:
        raise ModelError(
            f"value model {quote_path(p)}: larger than any model file ({MAX_FILE} bytes)"
        )
    # named by its file as from_bytes names one: printable, short (else quoted)
    name = p.stem if p.stem.isprintable() and len(p.stem) <= _NAME_MAX else quote(p.stem)
    model = ValueModel._parse(data, name, quote_path(p))
    return replace(
        model,
        _path=os.path.abspath(p),
        _contexts=Lru(_CONTEXTS),
        _ev=Lru(_CONTEXTS),
    )


def spec_setting(spec: ModelSpec) -> Any:
    """A ``model=`` setting as JSON-able data that rebuilds it (a bot's
    ``settings()``): a :class:`ValueModel` read from a file as that file's absolute
    path and checksum, ``{"path": ..., "checksum": ...}`` (so a file rewritten since
    is refused, not silently used), one built from bytes as ``{"name": ...,
    "base64": ...}`` (no file holds it: the data carries its bytes), a path as text.

    >>> spec_setting("auto"), spec_setting(None)
    ('auto', None)
    """
    if isinstance(spec, ValueModel):
        if spec._path is not None:
            return {"path": spec._path, "checksum": f"{spec.checksum:016x}"}
        text = base64.b64encode(spec._bytes).decode("ascii")
        return {"name": spec._stem, "base64": text}
    return spec if spec is None else str(spec)


def _model_of_data(spec: Mapping[Any, Any]) -> ValueModel:
    """The :class:`ValueModel` of a ``{"name": ..., "base64": ...}`` or a
    ``{"path": ..., "checksum": ...}`` setting (ModelError naming what is wrong)."""
    if "path" in spec:
        return _pinned_file(spec)
    name = spec.get("name", "model")
    text = spec.get("base64")
    ok = set(spec) <= {"name", "base64"} and isinstance(text, str)
    if not (ok and isinstance(name, str)):
        raise ModelError(
            "a model given as data is {'name': text, 'base64': the model file's "
            f"bytes in base64}}, got {quote(dict(spec))}"
        )
    return _decoded(text, name)


def _pinned_file(spec: Mapping[Any, Any]) -> ValueModel:
    """The model of a ``{"path": ..., "checksum": ...}`` setting: the file read now,
    ModelError naming the path when it is missing or its checksum differs (the file
    was rewritten since the setting was taken)."""
    path, checksum = spec.get("path"), spec.get("checksum")
    if not (
        set(spec) == {"path", "checksum"}
        and isinstance(path, str)
        and path
        and isinstance(checksum, str)
        and re.fullmatch("[0-9a-f]{16}", checksum)
    ):
        raise ModelError(
            "a model file given with its checksum is {'path': text, 'checksum': 16 "
            f"lowercase hex digits}}, got {quote(dict(spec))}"
        )
    model = _load_file(path)
    if f"{model.checksum:016x}" != checksum:
        raise ModelError(
            f"value model {quote_path(model._path)}: its checksum is {model.checksum:016x}, not "
            f"{checksum}: the file was rewritten since the setting was taken"
        )
    return model


@lru_cache(maxsize=4)
def _decoded(text: str, name: str) -> ValueModel:
    """The model of base64 text (cached: each bot built from the same settings, as
    the seats of a parallel run are, shares one parse)."""
    if len(text) > (MAX_FILE + 2) // 3 * 4:
        raise ModelError(
            f"value model {quote(name)}: larger than any model file ({MAX_FILE} bytes)"
        )
    try:
        data = base64.b64decode(text, validate=True)
    except ValueError:
        raise ModelError(f"value model {quote(name)}: its bytes are not base64") from None
    return ValueModel.from_bytes(data, name)


def model_bytes(
    nets: Sequence[tuple[int, Sequence[tuple[npt.NDArray[Any], npt.NDArray[Any]]]]],
    rules: RulesLike,
    players: int = 0,
    opponent: npt.NDArray[Any] | None = None,
) -> bytes:
    """A model file's bytes: ``nets`` is ``(cards, [(W, b), ...])`` per board size,
    W of shape (out, in) and b (out,) per layer (ReLU between layers, the last
    linear with one output); ``opponent``: the opponent row counts it was trained
    against ((3, 7918) counts, see :attr:`ValueModel.opponent_rows`), or None (the
    shipped typical opponent); format :data:`FORMAT_VERSION` either way.

    >>> from ofc_fast import rules
    >>> nets = [(5, [(np.zeros((1, FEATURES)), np.zeros(1))])]  # one linear layer
    >>> data = model_bytes(nets, rules.PINEAPPLE, players=2)
    >>> data[:8], ValueModel.from_bytes(data).cards
    (b'OFCVALUE', (5,))
    """
    players = seats(players, any_count=True)
    payload, count = nets_payload(nets, opponent)
    data = file_bytes(payload, rules_hash(rules), players, count, opponent is not None)
    ValueModel.from_bytes(data, "new model")  # what we write, C reads
    return data


def write_model(
    path: str | os.PathLike[str],
    nets: Sequence[tuple[int, Sequence[tuple[npt.NDArray[Any], npt.NDArray[Any]]]]],
    rules: RulesLike,
    players: int = 0,
    opponent: npt.NDArray[Any] | None = None,
) -> ValueModel:
    """Write a model file (:func:`model_bytes`) and return it parsed (ModelError
    naming the path when it cannot be written).  The bytes go to a temporary file
    renamed over ``path``: a reader, and a write that is killed, leave the model that
    was there or the new one whole, never a part.

    >>> import tempfile
    >>> from ofc_fast import rules
    >>> nets = [(5, [(np.zeros((1, FEATURES)), np.zeros(1))])]
    >>> with tempfile.TemporaryDirectory() as folder:
    ...     m = write_model(Path(folder, "zero.ofcvm"), nets, rules.PINEAPPLE, 2)
    >>> m.name.startswith("zero@"), m.players
    (True, 2)
    """
    p = file_path(path)
    data = model_bytes(nets, rules, players, opponent)
    try:
        atomic_write(p, data)
    except (OSError, ValueError) as exc:  # ValueError: a NUL character in the path
        raise ModelError(
            f"value model {quote_path(p)}: cannot write it ({why(exc)})"
        ) from None
    return ValueModel.from_bytes(data, p.stem)


@lru_cache(maxsize=1)
def _shipped_files() -> frozenset[str]:
    """The names of the files in :data:`MODEL_DIR`."""
    return frozenset(p.name for p in MODEL_DIR.glob("*.ofcvm"))


@lru_cache(maxsize=32)
def _shipped(name: str, players: int) -> ValueModel | None:
    """The shipped model ``<name>-<players>p.ofcvm``, looked up among the shipped
    files (a rule set's name is no path: '../x' reaches no file elsewhere)."""
    file = f"{name.lower()}-{players}p.ofcvm"
    return load_model(MODEL_DIR / file) if file in _shipped_files() else None


def shipped_model(rules: RulesLike, players: int) -> ValueModel | None:
    """The model shipped for a rule set and seat count, or None (no model ships for
    it: the rules play and score unlike every preset a model ships for; a preset's
    name and description do not matter); ModelError for ``players`` that are no seat
    count 2..4.

    >>> from ofc_fast import rules
    >>> shipped_model(rules.OFC, 3).players, shipped_model(rules.PINEAPPLE, 4)
    (3, None)
    """
    rules = as_rules(rules, "shipped_model")
    players = seats(players)
    key = rules_hash(rules)
    for preset in presets_by_fingerprint().get(key, ()):
        model = _shipped(preset.name, players)
        if model is not None and model.rules_hash == key:
            return model
    return None


def resolve_model(spec: ModelSpec, rules: RulesLike, players: int) -> ValueModel | None:
    """The model a ``model=`` setting names (see :data:`ModelSpec`) for this table;
    ModelError for a file that is missing, damaged or of other rules.

    >>> from ofc_fast import rules
    >>> resolve_model(None, rules.PINEAPPLE, 2) is None
    True
    """
    if spec is None:
        return None
    rules = as_rules(rules, "resolve_model")
    if isinstance(spec, str) and spec == "auto":
        return shipped_model(rules, players)
    model = check_spec(spec)
    if isinstance(model, str):  # (a path: "auto" was taken above)
        model = _load_file(model)
    if model is not None:
        model.check_rules(rules, players)
    return model


_files: Lru[str, tuple[tuple[int, int, int], ValueModel]] = Lru(16)  # (_load_file)


def _load_file(path: str) -> ValueModel:
    """The model file at ``path`` now: the 16 last read kept by absolute path, one
    version a path (its size, modification time and inode), so a file rewritten in
    place, or a relative path under another working directory, is read again and
    replaces the version read before (ModelError when it cannot be read)."""
    try:
        st = os.stat(path)
    except (OSError, ValueError):  # ValueError: a NUL character in the path
        return load_model(path)  # the ModelError naming the path
    key, stamp = os.path.abspath(path), (st.st_mtime_ns, st.st_size, st.st_ino)
    hit = _files.get(key)
    if hit is not None and hit[0] == stamp:
        return hit[1]
    model = load_model(key)
    _files.put(key, (stamp, model))
    return model


def check_spec(
    spec: ModelSpec, read: bool = False, rules: RuleSet | None = None
) -> str | ValueModel | None:
    """The model setting to keep: ``spec``, a path made absolute (in this working
    directory: a bot rebuilt from its settings elsewhere reads the same file), or the
    :class:`ValueModel` of a model given as data (read now); ModelError when
    ``spec`` is not a model setting.  A file named by a path is read when used, and
    with ``read`` now too (ModelError when it is missing or damaged: the bots refuse
    it when they are made, not at every decision); the path is what is kept.  With
    ``read`` and ``rules``, a model of other rules is refused now as well
    (:meth:`ValueModel.check_rules`; the seat count is checked when it is used)."""
    if read:
        kept = check_spec(spec)
        model = _load_file(kept) if isinstance(kept, str) and kept != "auto" else kept
        if rules is not None and isinstance(model, ValueModel):
            model.check_rules(rules)
        return kept
    if isinstance(spec, Mapping):
        return _model_of_data(spec)
    if (
        spec is None
        or isinstance(spec, ValueModel)
        or (isinstance(spec, str) and spec == "auto")
    ):
        return spec
    if isinstance(spec, os.PathLike) or (isinstance(spec, str) and spec):
        return os.path.abspath(spec)
    raise ModelError(
        f"model must be 'auto', None, a path, a ValueModel or its bytes as "
        f"{{'name': ..., 'base64': ...}}, got {quote(spec)}"
    )
