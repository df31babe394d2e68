"""Policies as bots: :class:`PolicyBot` turns a trained policy into a
:class:`~ofc_fast.bots.Bot` that plays in a :class:`~ofc_fast.Match`, ``ofc-fast play
--bots policy:PATH`` or the arena (``--bot policy:PATH``).

A *policy* is a callable ``policy(observation, mask) -> action id``: ``observation`` the
seat's features (``obs_type="features"``, :func:`ofc_fast.encoding.features`) or its
uint8 encoding (``"bytes"``), ``mask`` the booleans of the legal ids.  Fantasyland sets
and classic hands (13 to 17 cards at once, no action id) go to ``fallback`` (default:
the heuristic bot, which sets them with the exact solver and the arranger) unless the
policy has a method ``full_set(observation_dict) -> Move``.

:func:`load_policy` reads a saved policy: a ``.npz`` MLP
(:func:`ofc_fast.env.sb3.export_policy`; NumPy alone runs it) or a saved sb3-contrib
``MaskablePPO`` ``.zip`` (needs the ``rl-train`` extra).

>>> import numpy as np
>>> from ofc_fast.game import Game, play_out
>>> from ofc_fast.bots import RandomBot
>>> first_legal = lambda x, mask: int(np.argmax(mask))
>>> g = Game("pineapple", players=2, seed=4)
>>> result = play_out(g, [PolicyBot(first_legal), RandomBot(seed=1)])
>>> g.is_over
True
"""

from __future__ import annotations

import json
import os
import zipfile
from collections.abc import Callable
from pathlib import Path
from typing import TYPE_CHECKING, Any, SupportsInt, TypeAlias

import numpy as np
from numpy.typing import NDArray

from ..encoding import ENCODING_SIZE, FEATURE_SIZE, action_mask, encode_bytes, features
from ..errors import BotError, RulesError, quote, quote_path
from ..files import NPZ_ERRORS, atomic_file, read_npz
from ..game import ACTION_SPACE, Move
from ..learned.model import rules_hash, rules_mismatch
from ..rules import RuleSet, as_rules
from ..search import given_actions
from .base import (
    Bot,
    ObservationLike,
    SeparateCopies,
    names_bad_observations,
    observed_seat,
    rules_of,
)

if TYPE_CHECKING:  # (the rl-train extra has it; load_sb3 imports it when called)
    from sb3_contrib import MaskablePPO

__all__ = ["SB3_META", "MlpPolicy", "PolicyBot", "load_policy", "policy_bot"]

Policy: TypeAlias = Callable[[NDArray[Any], NDArray[np.bool_]], SupportsInt]
"""What :class:`PolicyBot` plays: ``policy(x, mask) -> action id`` (``x`` the features,
float32, or the encoding, uint8: the bot's ``obs_type``; ``mask`` the legal actions)."""

_ACTIVATIONS: dict[str, Callable[[NDArray[Any]], NDArray[Any]]] = {
    "linear": lambda x: x,
    "tanh": np.tanh,
    "relu": lambda x: np.maximum(x, 0.0),
}


def _meta_text(value: NDArray[Any], key: str) -> str:
    """The text of a policy file's ``meta_`` array; ValueError when it holds code
    points past Unicode's (NumPy's ``str`` of such an array is a SystemError)."""
    if value.dtype.kind == "U" and value.size:
        native = np.ascontiguousarray(value, dtype=value.dtype.newbyteorder("="))
        if int(np.frombuffer(native.tobytes(), "=u4").max()) > 0x10FFFF:
            raise ValueError(f"{key} holds no Unicode text")
    return str(value)


def _policy_meta(meta: dict[str, Any]) -> dict[str, str]:
    """A policy's ``meta`` as the texts its file keeps: ``rules`` (a RuleSet, a preset
    name or a game id) as the rule set's name and its fingerprint, ``rules_hash``
    (:func:`ofc_fast.learned.rules_hash`, 8 hex digits; one already given is kept: a
    file read back), so that rules edited under a preset's name are told from it;
    a name this version knows no rule set by is kept as it is, unjudged."""
    out = {k: str(v) for k, v in meta.items()}
    trained = meta.get("rules")
    if trained is None or (isinstance(trained, str) and "rules_hash" in meta):
        return out
    try:
        own = as_rules(trained, "policy")
    except RulesError:
        return out
    return {**out, "rules": own.name, "rules_hash": f"{rules_hash(own):08x}"}


class MlpPolicy:
    """A multilayer perceptron policy run with NumPy: logits of the legal ids, the
    best one taken (``.npz`` from :func:`ofc_fast.env.sb3.export_policy`).

    >>> p = MlpPolicy([np.eye(3, dtype=np.float32), np.zeros(3, np.float32)], ["linear"])
    >>> p(np.array([0.2, 0.9, 0.5], np.float32), np.array([True, False, True]))
    2
    """

    def __init__(
        self,
        params: list[NDArray[Any]],
        activations: list[str],
        meta: dict[str, Any] | None = None,
    ) -> None:
        if len(params) != 2 * len(activations) or not activations:
            raise BotError(
                f"an MLP policy needs a weight and a bias per layer: "
                f"{len(params)} arrays for {len(activations)} layers"
            )
        bad = [a for a in activations if a not in _ACTIVATIONS]
        if bad:
            raise BotError(f"unknown activations {bad}; known: {sorted(_ACTIVATIONS)}")
        for i, a in enumerate(params):
            if np.asarray(a).dtype.kind not in "biuf":
                raise BotError(
                    f"an MLP policy's arrays are real numbers: p{i} holds "
                    f"{np.asarray(a).dtype}"
                )
        self.weights = [np.asarray(w, np.float32) for w in params[0::2]]
        self.biases = [np.asarray(b, np.float32) for b in params[1::2]]
        width = None  # the outputs of the layer before
        for i, (w, b) in enumerate(zip(self.weights, self.biases)):
            if w.ndim != 2 or b.shape != w.shape[:1] or width not in (None, w.shape[1]):
                raise BotError(
                    f"an MLP policy's layer {i + 1} does not fit: weight {w.shape}, "
                    f"bias {b.shape} after {width} outputs (a weight is outputs x "
                    "inputs, a bias one per output)"
                )
            width = w.shape[0]
        self.activations = list(activations)
        self.meta = _policy_meta(meta or {})
        self.obs_type = self.meta.get("obs_type", "features")

    @classmethod
    def load(cls, path: str | Path) -> MlpPolicy:
        """Read an ``.npz`` written by :func:`ofc_fast.env.sb3.export_policy`."""
        try:
            d = read_npz(path, POLICY_MAX_BYTES)
            n = sum(1 for k in d if k.startswith("p"))
            params = [d[f"p{i}"] for i in range(n)]
            meta = {k[5:]: _meta_text(d[k], k) for k in d if k.startswith("meta_")}
        except NPZ_ERRORS as exc:
            raise BotError(f"cannot read the policy {quote_path(path)}: {exc}") from None
        return cls(params, meta.get("activations", "").split(","), meta)

    def logits(self, x: NDArray[Any]) -> NDArray[Any]:
        """The action logits of observations ``x`` (one row or a batch); a row of
        another width than the first layer reads is a BotError."""
        h = np.asarray(x, np.float32)
        if h.ndim == 0 or h.shape[-1] != self.weights[0].shape[1]:
            raise BotError(
                f"the policy reads {self.weights[0].shape[1]} inputs per observation, "
                f"got {h.shape[-1] if h.ndim else 'a scalar'} (obs_type "
                f"{self.obs_type!r})"
            )
        for w, b, act in zip(self.weights, self.biases, self.activations):
            h = _ACTIVATIONS[act](h @ w.T + b)
        return np.asarray(h, np.float32)

    def save(self, path: str | Path) -> str:
        """Write the ``.npz`` :meth:`load` reads, whole or not at all (a Ctrl-C or a
        full disk leaves the file there as it was); returns its path."""
        p = str(path) if str(path).endswith(".npz") else f"{path}.npz"
        arrays = {f"p{i}": a for i, a in enumerate(_interleave(self.weights, self.biases))}
        meta = {**self.meta, "activations": ",".join(self.activations)}
        arrays.update({f"meta_{k}": np.array(str(v)) for k, v in meta.items()})
        with atomic_file(p) as f:
            np.savez(f, **arrays)  # type: ignore[arg-type]  # numpy's stub: a bool first
        return p

    def act_batch(
        self, x: NDArray[Any], masks: NDArray[Any], rng: np.random.Generator | None = None
    ) -> NDArray[np.int64]:
        """One legal action per row: the best (``rng`` None) or one drawn from the
        softmax of the legal logits."""
        z = self._legal_logits(x, masks)
        if rng is None:
            return np.asarray(np.argmax(z, axis=-1), np.int64)
        z = z - z.max(axis=-1, keepdims=True)
        p = np.exp(z)
        c = np.cumsum(p, axis=-1)
        u = (1.0 - rng.random((*c.shape[:-1], 1))) * c[..., -1:]  # in (0, total]
        return np.asarray(np.minimum((c < u).sum(axis=-1), c.shape[-1] - 1), np.int64)

    def __call__(self, x: NDArray[Any], mask: NDArray[Any]) -> int:
        """The legal action with the largest logit."""
        return int(np.argmax(self._legal_logits(x, mask)))

    def _legal_logits(self, x: NDArray[Any], masks: NDArray[Any]) -> NDArray[Any]:
        """The logits of ``x``, -inf where ``masks`` is False (a mask of another
        width than the policy's actions: BotError)."""
        m = np.asarray(masks, bool)
        z = self.logits(x)
        if m.shape[-1:] != z.shape[-1:]:
            raise BotError(
                f"the policy gives {z.shape[-1]} actions, the table has "
                f"{m.shape[-1] if m.ndim else 'no'} action ids"
            )
        return np.where(m, z, -np.inf)


SB3_META = "ofc_fast_meta.json"
"""The entry of a MaskablePPO ``.zip`` in which :func:`ofc_fast.env.sb3.export_policy`
keeps its meta texts (``rules``, ``rules_hash``, ``obs_type``: what an ``.npz`` keeps
as ``meta_`` arrays) as a JSON object (text, no pickle), written after SB3's ``save``:
SB3 neither restores it on ``load`` nor writes it again on a later ``model.save``, so
a ``.zip`` saved by ``model.save`` alone records no rules.  :func:`load_policy` and
:func:`ofc_fast.env.sb3.load_ppo` read it."""

SB3_META_MAX_BYTES = 1 << 16
"""The most bytes :func:`load_sb3` reads of a ``.zip``'s :data:`SB3_META` entry."""

POLICY_MAX_BYTES = 1 << 28
"""The most bytes of arrays an ``.npz`` policy may hold (256 MiB: 64M float32
weights); :func:`load_policy` refuses a larger file before reading it."""


def _interleave(
    weights: list[NDArray[Any]], biases: list[NDArray[Any]]
) -> list[NDArray[Any]]:
    return [a for pair in zip(weights, biases) for a in pair]


def load_sb3(path: str, **kwargs: Any) -> tuple[MaskablePPO, dict[str, str]]:
    """``MaskablePPO.load(path, **kwargs)`` of a ``.zip`` of these tables' spaces, and
    the meta texts its :data:`SB3_META` entry records (``{}``: none); a file SB3
    cannot read, a model of other spaces or a damaged entry: BotError naming it."""
    try:
        from sb3_contrib import MaskablePPO
    except ImportError:
        raise BotError(
            f"{quote_path(path)}: a saved SB3 model needs the training libraries: "
            "pip install 'ofc-fast[rl-train]'"
        ) from None
    try:
        model = MaskablePPO.load(path, **kwargs)
    except Exception as exc:  # SB3's loader raises what its parts do (asserts too)
        raise BotError(
            f"cannot read the policy {quote_path(path)}: {type(exc).__name__}: {exc}"
        ) from None
    seen, acts = model.observation_space, model.action_space
    if getattr(seen, "shape", None) not in ((FEATURE_SIZE,), (ENCODING_SIZE,)) or (
        getattr(acts, "n", None) != ACTION_SPACE
    ):  # (else: SB3's ValueError at the first decision)
        raise BotError(
            f"{quote_path(path)} is no policy of these tables: it observes {seen} and "
            f"acts in {acts} (theirs: {FEATURE_SIZE} features or {ENCODING_SIZE} "
            f"bytes, Discrete({ACTION_SPACE}))"
        )
    return model, _sb3_meta(path)


def _sb3_meta(path: str) -> dict[str, str]:
    """The texts of the :data:`SB3_META` entry of the ``.zip`` at ``path`` (``{}``
    without one: a ``.zip`` ``model.save`` wrote); damaged: BotError naming it."""
    try:
        with zipfile.ZipFile(path) as archive:
            if SB3_META not in archive.namelist():
                return {}
            info = archive.getinfo(SB3_META)
            if info.file_size > SB3_META_MAX_BYTES:
                raise ValueError(f"{info.file_size} bytes, at most {SB3_META_MAX_BYTES}")
            recorded = json.loads(archive.read(info).decode("utf-8"))
    except Exception as exc:  # (zipfile and json raise what their parts do)
        raise BotError(
            f"cannot read the policy {quote_path(path)}: its {SB3_META}: "
            f"{type(exc).__name__}: {exc}"
        ) from None
    if not isinstance(recorded, dict) or not all(
        isinstance(k, str) and isinstance(v, str) for k, v in recorded.items()
    ):
        raise BotError(
            f"cannot read the policy {quote_path(path)}: its {SB3_META} is no "
            f"JSON object of texts, got {quote(recorded)}"
        )
    return recorded


class _Sb3Policy:
    """A saved sb3-contrib MaskablePPO model as a policy (deterministic); its
    :attr:`meta`: the texts :func:`ofc_fast.env.sb3.export_policy` recorded in it
    (:data:`SB3_META`; none in a ``.zip`` saved otherwise)."""

    def __init__(self, path: str) -> None:
        self.model, self.meta = load_sb3(path, device="cpu")  # (PolicyBot judges rules)
        shape = self.model.observation_space.shape
        self.obs_type = "features" if shape != (ENCODING_SIZE,) else "bytes"

    def __call__(self, x: NDArray[Any], mask: NDArray[Any]) -> int:
        action, _ = self.model.predict(x, deterministic=True, action_masks=mask)
        return int(np.asarray(action).reshape(-1)[0])


def load_policy(path: str | Path) -> Callable[[NDArray[Any], NDArray[np.bool_]], int]:
    """A saved policy: an ``.npz`` MLP (:class:`MlpPolicy`) or an SB3 ``.zip``.

    >>> import os, tempfile
    >>> from ofc_fast.encoding import FEATURE_SIZE
    >>> from ofc_fast.game import ACTION_SPACE
    >>> w = np.zeros((ACTION_SPACE, FEATURE_SIZE), np.float32)
    >>> path = MlpPolicy([w, np.zeros(ACTION_SPACE, np.float32)], ["linear"]).save(
    ...     os.path.join(tempfile.mkdtemp(), "policy.npz"))
    >>> type(load_policy(path)).__name__
    'MlpPolicy'
    >>> load_policy("policy.pt")
    Traceback (most recent call last):
    ...
    ofc_fast.errors.BotError: no policy file 'policy.pt'
    """
    p = str(path)
    if not os.path.isfile(p):  # (False for a name too long: Path.is_file raised)
        if os.path.exists(p):  # (a folder, a FIFO, a device: nothing to read whole)
            raise BotError(
                f"policy {quote_path(p)}: not a regular file (a policy is an .npz "
                "file, export_policy's, or an SB3 .zip)"
            )
        raise BotError(f"no policy file {quote_path(p)}")
    if p.endswith(".npz"):
        return MlpPolicy.load(p)
    if p.endswith(".zip"):
        return _Sb3Policy(p)
    raise BotError(f"{quote_path(p)}: a policy is an .npz (export_policy) or an SB3 .zip")


@names_bad_observations
class PolicyBot(SeparateCopies):
    """A bot that plays ``policy`` on every normal decision (see the module
    docstring); ``obs_type``: what the policy reads (default: the policy's own
    ``obs_type`` attribute, else ``"features"``).  An illegal action from the policy
    raises BotError.

    >>> from ofc_fast.game import Game
    >>> g = Game("pineapple", players=2, seed=4)
    >>> bot = PolicyBot(lambda x, mask: int(np.argmax(mask)), seed=1)
    >>> g.play(bot.act(g.observation(g.to_act)))
    >>> bot.obs_type, bot.settings()
    ('features', {})
    """

    name = "policy"

    _rules_attribute = "_own"  # (its rules: the repr names them)

    def __init__(
        self,
        policy: Policy,
        rules: RuleSet | str | None = None,
        seed: int | None = None,
        *,
        obs_type: str | None = None,
        fallback: Bot | None = None,
        path: str | None = None,
    ) -> None:
        if not callable(policy):
            raise BotError(f"a policy must be callable, got {type(policy).__name__}")
        self.policy = policy
        self.obs_type = obs_type or getattr(policy, "obs_type", "features")
        if self.obs_type not in ("features", "bytes"):
            raise BotError(
                f"obs_type must be 'features' or 'bytes', got {quote(self.obs_type)}"
            )
        if path is not None and not isinstance(path, str):
            raise BotError(f"policy bot: path must be text or None, got {quote(path)}")
        from .heuristic import HeuristicBot, rules_setting, seed_setting

        rules = rules_setting(rules, "policy bot")
        self.path = path
        self._carried: list[Any] = []  # the last carried rule set (rules_of memo)
        self._own = rules
        self._judged: RuleSet | None = rules  # the last rules the policy was checked for
        if rules is not None:
            _check_trained_rules(policy, rules, path)
        seed = seed_setting(seed, "policy bot")
        if fallback is None:
            fallback = HeuristicBot(rules=rules, seed=seed)
        elif not callable(getattr(fallback, "act", None)):
            raise BotError(
                f"policy bot: fallback must be a bot (act()), got {quote(fallback)}"
            )
        self.fallback = fallback

    def settings(self) -> dict[str, Any]:
        """``{"path": ...}`` for a policy loaded from a file, and ``"obs_type"`` when
        it is not the policy's own; else ``{}``."""
        out: dict[str, Any] = {"path": self.path} if self.path else {}
        if self.obs_type != getattr(self.policy, "obs_type", "features"):
            out["obs_type"] = self.obs_type
        return out

    def reset(self, seed: int | None = None) -> None:
        """Start again from ``seed``: the fallback, which sets the full sets, is
        re-seeded (a fallback without ``reset`` plays on as it is; the policy is the
        caller's own)."""
        from .heuristic import seed_setting

        seed = seed_setting(seed, "policy bot")
        reset = getattr(self.fallback, "reset", None)
        if callable(reset):
            reset(seed)

    def act(self, observation: ObservationLike) -> Move:
        """The policy's move (a full set: the policy's ``full_set`` or the fallback's)."""
        obs = observation
        rules = rules_of(obs, self._own, self._carried)
        observed_seat(obs, rules.max_players)  # no other seat's board, as every bot
        if rules is not self._judged:  # (made without rules: the table's, checked once)
            _check_trained_rules(self.policy, rules, self.path)
            self._judged = rules
        if obs.get("full_set") or not given_actions(obs):
            full = getattr(self.policy, "full_set", None)
            return full(obs) if callable(full) else self.fallback.act(obs)
        x = features(obs) if self.obs_type == "features" else encode_bytes(obs)
        mask = action_mask(obs)
        action = self.policy(x, mask)
        try:
            a = int(action)
        except (TypeError, ValueError):
            raise BotError(
                f"the policy returned {quote(action)}, not an action id"
            ) from None
        if not (0 <= a < mask.size and mask[a]):
            raise BotError(f"the policy chose action {quote(a)}, which is not legal here")
        return Move.from_action(obs["dealt"], obs["to_discard"], a)


def _check_trained_rules(policy: Policy, rules: RuleSet, path: str | None) -> None:
    """BotError naming the policy (its file) and both rule sets when it records, in
    its ``meta`` (``meta_rules`` and ``meta_rules_hash`` of an ``.npz``:
    :func:`ofc_fast.env.sb3.export_policy`'s ``rules``), that it was trained for rules
    that play or score unlike ``rules``
    (:func:`ofc_fast.learned.model.rules_mismatch`: a preset renamed is the same); a
    file of an earlier version, which records the name alone, is judged by the rule
    set of that name; a policy that records no rules, or only a name this version
    knows no rule set by, is not judged."""
    meta = getattr(policy, "meta", None)
    if not isinstance(meta, dict):
        return
    what = "the policy" if path is None else f"the policy {quote_path(path)}"
    trained = _policy_meta(meta)
    if "rules_hash" not in trained:
        return
    text = trained["rules_hash"]
    if len(text) != 8 or text.strip("0123456789abcdefABCDEF"):
        raise BotError(
            f"policy bot: {what} records rules_hash {quote(text)}, which is no rules "
            "fingerprint (8 hex digits, ofc_fast.learned.rules_hash)"
        )
    why = rules_mismatch(int(text, 16), rules)
    if why is not None:
        name = trained.get("rules", "other rules")
        raise BotError(
            f"policy bot: {what} was trained for {name}, not {rules.name} ({why}): play "
            f"it under the rules it was trained for, or train one for {rules.name}"
        )


def policy_bot(
    path: str, rules: RuleSet | str | None = None, seed: int | None = None, **settings: Any
) -> PolicyBot:
    """The bot of a saved policy (what the bot spec ``policy:PATH`` makes).

    >>> import os, tempfile
    >>> from ofc_fast.encoding import FEATURE_SIZE
    >>> from ofc_fast.game import ACTION_SPACE, Game
    >>> w = np.zeros((ACTION_SPACE, FEATURE_SIZE), np.float32)
    >>> path = MlpPolicy([w, np.zeros(ACTION_SPACE, np.float32)], ["linear"]).save(
    ...     os.path.join(tempfile.mkdtemp(), "policy.npz"))
    >>> bot = policy_bot(path, "pineapple", seed=1)
    >>> bot.settings() == {"path": path}
    True
    >>> g = Game("pineapple", players=2, seed=4)
    >>> bot.act(g.observation(g.to_act)) in g.legal_moves()
    True
    """
    return PolicyBot(load_policy(path), rules, seed, path=path, **settings)
