"""Bots by name: what ``ofc-fast play --bots`` and worker processes use.

A factory is called as ``factory(rules=rules, seed=seed, **settings)`` and returns a
:class:`~ofc_fast.bots.Bot`; a bot made this way can be sent to another process as
``(name, settings)`` and rebuilt there with :func:`make_bot`.

>>> from ofc_fast.bots import bot_names, make_bot
>>> bot_names()
('heuristic', 'random', 'search', 'value')
>>> bot = make_bot("heuristic", seed=1, samples=8)
>>> bot.settings()["samples"]
8

Besides registry names, :func:`make_bot` takes three kinds of *specs*:
``value@PATH`` and ``search@PATH`` (:class:`~ofc_fast.bots.ValueBot` or
:class:`~ofc_fast.bots.SearchBot` playing by the model file at PATH, e.g. one trained
by ``python -m ofc_fast.learned.train``: ``make_bot(name, model=PATH)``; the PATH is
everything after the first ``@``, colons included; a bot's ``name`` stays ``"value"``
or ``"search"``, its ``settings()`` naming the file), ``policy:PATH`` (a saved policy,
:func:`ofc_fast.bots.policy.policy_bot`) and ``module:attribute`` (your own bot class
or factory by import path, or a module of the current folder, as ``python -m`` finds
it; called as a factory; an object with ``act`` is used as it is):

>>> make_bot("ofc_fast.bots:RandomBot", seed=1).name
'random'
"""

from __future__ import annotations

import importlib
import importlib.machinery
import inspect
import os
import sys
from collections.abc import Callable, Mapping, Sequence
from numbers import Integral
from random import Random
from types import MappingProxyType
from typing import Any, cast

from ..cards import is_many
from ..errors import BotError, OfcError, UnknownBotError, quote, quote_path
from ..rules import RuleSet
from ..table import MAX_SEATS
from .base import Bot
from .heuristic import seed_setting

__all__ = [
    "BOTS",
    "BotFactory",
    "bot_names",
    "make_bot",
    "make_bots",
    "register",
    "unregister",
]

BotFactory = Callable[..., Bot]
"""``factory(rules=..., seed=..., **settings) -> Bot``."""

_FACTORIES: dict[str, BotFactory] = {}
BOTS: Mapping[str, BotFactory] = MappingProxyType(_FACTORIES)
"""Read-only view of the registry: factory by name."""

MODEL_BOTS = ("search", "value")
"""The registry names a ``NAME@PATH`` spec takes: bots with a ``model=`` file."""


def bot_key(name: object) -> str:
    """The registry's key of a bot name (case and surrounding spaces aside), what
    :func:`make_bot` looks up; BotError for anything but a non-empty string.

    >>> bot_key(" Heuristic ")
    'heuristic'
    """
    if not isinstance(name, str) or not name.strip():
        raise BotError(f"a bot name must be a non-empty string, got {quote(name)}")
    return name.strip().lower()


def register(name: str, factory: BotFactory, *, replace: bool = False) -> None:
    """Register ``factory`` under ``name`` (case-insensitive).  Registering a taken
    name raises BotError unless ``replace=True``; so does a name :func:`make_bot` or
    :func:`make_bots` could not reach (a spec, :func:`is_bot_spec`, or one with a
    comma).

    >>> from ofc_fast.bots import RandomBot
    >>> register("coin", lambda rules=None, seed=None: RandomBot(seed))
    >>> "coin" in bot_names()
    True
    >>> unregister("coin")
    """
    key = bot_key(name)
    if is_bot_spec(key) or "," in key:  # make_bot, make_bots would never reach it
        raise BotError(
            f"register({quote(name)}): a bot name has no ',' and is no 'module:attribute', "
            "'policy:PATH' or 'value@PATH' spec (make_bot would read it as one)"
        )
    if not callable(factory):
        raise BotError(
            f"register({quote(name)}): the factory must be callable, got {quote(factory)}"
        )
    if key in _FACTORIES and not replace and _FACTORIES[key] is not factory:
        raise BotError(
            f"bot {quote(key)} is already registered; pass replace=True to replace it"
        )
    _FACTORIES[key] = factory


def unregister(name: str) -> None:
    """Remove a registered name (UnknownBotError when it is not registered).

    >>> from ofc_fast.bots import RandomBot
    >>> register("coin", RandomBot)
    >>> unregister("coin")
    >>> "coin" in bot_names()
    False
    >>> unregister("coin")
    Traceback (most recent call last):
    ...
    ofc_fast.errors.UnknownBotError: unknown bot 'coin'; known bots: ...
    """
    key = bot_key(name)
    if key not in _FACTORIES:
        raise UnknownBotError(_unknown(name))
    del _FACTORIES[key]


def bot_names() -> tuple[str, ...]:
    """The registered names, sorted.

    >>> bot_names()
    ('heuristic', 'random', 'search', 'value')
    """
    return tuple(sorted(_FACTORIES))


SPECS = "value@PATH, search@PATH (a model file), policy:PATH, module:attribute"
"""The specs :func:`make_bot` takes besides registry names (:func:`is_bot_spec`)."""


def _unknown(name: object) -> str:
    return f"unknown bot {quote(name)}; known bots: {', '.join(bot_names())} (or a spec: {SPECS})"


def model_spec(text: object) -> tuple[str, str] | None:
    r"""The registry name and model path of a ``value@PATH`` or ``search@PATH`` spec
    (:data:`MODEL_BOTS`; PATH: everything after the first ``@``, colons and commas
    included, surrounding spaces aside), else None.

    >>> model_spec(r"Search@C:\models\home.ofcvm")
    ('search', 'C:\\models\\home.ofcvm')
    >>> model_spec("value"), model_spec("value@ "), model_spec("me@cmd:bot")
    (None, None, None)
    """
    if not isinstance(text, str):
        return None
    head, at, path = text.partition("@")
    name = head.strip().lower()
    return (name, path.strip()) if at and name in MODEL_BOTS and path.strip() else None


def is_bot_spec(text: object) -> bool:
    """Whether ``text`` is a ``value@PATH``, ``search@PATH`` (:func:`model_spec`),
    ``policy:PATH`` or ``module:attribute`` spec (rather than a registry name).

    >>> is_bot_spec("policy:run/policy.npz"), is_bot_spec("mypkg.bots:MyBot")
    (True, True)
    >>> is_bot_spec("value@home.ofcvm"), is_bot_spec("heuristic")
    (True, False)
    >>> is_bot_spec("cmd:python bot.py")
    False
    """
    if model_spec(text) is not None:
        return True
    if not isinstance(text, str) or ":" not in text:
        return False
    head, _, tail = text.strip().partition(":")
    if head == "policy":
        return bool(tail.strip())
    return all(p.isidentifier() for p in head.split(".")) and all(
        p.isidentifier() for p in tail.split(".")
    )


def _import_module(module: str) -> Any:
    """The module ``module`` names: from the import path, else, where its top-level
    package is a module of the current folder, from there (the folder appended to
    the path, as ``python -m ofc_fast`` has it first: the ``ofc-fast`` command's path
    starts at its script's folder, so ``--bots mybot:MyBot`` found no ``mybot.py``)."""
    try:
        return importlib.import_module(module)
    except ModuleNotFoundError as exc:
        top, here = module.partition(".")[0], os.getcwd()
        if exc.name != top or here in sys.path:
            raise
        if importlib.machinery.PathFinder.find_spec(top, [here]) is None:
            raise
        sys.path.append(here)
        return importlib.import_module(module)


def _imported(spec: str) -> Any:
    """The object ``module:attribute`` names (BotError naming what is missing)."""
    module, _, attr = spec.partition(":")
    try:
        obj: Any = _import_module(module)
    except ImportError as exc:  # (a missing module: named short, not its message)
        missing = isinstance(exc, ModuleNotFoundError) and exc.name
        why = f"no module named {quote(exc.name)}" if missing else _shortened(str(exc))
        raise BotError(f"bot {quote(spec)}: cannot import {quote(module)}: {why}") from None
    except Exception as exc:  # the module's own code (a SyntaxError, a raise)
        raise _failed(spec, f"importing {quote(module)}", exc) from exc
    for part in attr.split("."):
        if not hasattr(obj, part):
            raise BotError(
                f"bot {quote(spec)}: {quote(module)} has no attribute {quote(attr)}"
            )
        obj = getattr(obj, part)
    return obj


def _failed(spec: str, doing: str, exc: Exception) -> BotError:
    """The one-line error of a spec's own code that raised ``exc`` while ``doing``
    (importing its module, making its bot): its type and the start of its message."""
    return BotError(
        f"bot {quote(spec)}: {type(exc).__name__} {doing}: {_shortened(str(exc))}"
    )


def _shortened(text: str) -> str:
    """An exception's message in a bot's error: its first 200 characters."""
    return text if len(text) <= 200 else text[:197] + "..."


def _model_factory(spec: str, name: str, path: str) -> BotFactory:
    """The factory of a ``value@PATH`` / ``search@PATH`` spec: the registered bot
    ``name`` with ``model=path`` (a model= setting of its own is refused)."""
    found = _FACTORIES.get(name)
    if found is None:  # (unregistered)
        raise UnknownBotError(f"bot {quote(spec)}: {_unknown(name)}")
    base = found

    def model_factory(rules: Any = None, seed: Any = None, **kw: Any) -> Bot:
        if "model" in kw:
            raise BotError(
                f"bot {quote(spec)}: its model is the file {quote_path(path)}; give no "
                f"model= setting (or make_bot({quote(name)}, model=...))"
            )
        _check_call(spec, base, rules, seed, kw)  # (the settings given: no model=)
        return base(rules=rules, seed=seed, model=path, **kw)

    return model_factory


def _from_spec(spec: str) -> BotFactory:
    """The factory of a ``value@PATH``, ``policy:PATH`` or ``module:attribute`` spec."""
    model = model_spec(spec)
    if model is not None:
        return _model_factory(spec.strip(), *model)
    head, _, tail = spec.strip().partition(":")
    if head == "policy":
        from .policy import policy_bot

        path = tail.strip()

        def policy_factory(rules: Any = None, seed: Any = None, **kw: Any) -> Bot:
            if kw.get("path", path) != path:  # the bot's settings() name its path
                raise BotError(
                    f"bot {quote(spec)}: path {quote(kw['path'])} is not its path"
                )
            kw.pop("path", None)
            return policy_bot(path, rules, seed, **kw)

        return policy_factory
    obj = _imported(spec.strip())
    if hasattr(obj, "act") and not inspect.isclass(obj):
        return lambda rules=None, seed=None: obj  # a ready bot object
    if not callable(obj):
        raise BotError(f"bot {quote(spec)} is neither a bot nor a bot class or factory")
    return cast("BotFactory", obj)


def _is_policy_name(name: object, settings: Mapping[str, Any]) -> bool:
    """Whether ``name`` and ``settings`` are a policy bot's ``name`` and ``settings()``
    (``"policy"``, not registered, with a text ``path``)."""
    return (
        isinstance(name, str)
        and name.strip().lower() == "policy"
        and "policy" not in _FACTORIES
        and isinstance(settings.get("path"), str)
    )


def _check_call(
    key: str, factory: BotFactory, rules: object, seed: object, settings: Mapping[str, Any]
) -> None:
    """BotError unless ``factory`` takes ``rules=``, ``seed=`` and ``settings`` as
    keywords: naming the settings it does not take, or what it lacks when it takes
    no ``rules=`` and ``seed=``, which every factory is called with."""
    try:
        signature = inspect.signature(factory)
    except ValueError:  # pragma: no cover - a factory without a signature (a builtin)
        return
    try:
        signature.bind(rules=rules, seed=seed, **settings)
    except TypeError as exc:
        try:
            signature.bind_partial(rules=rules, seed=seed)
        except TypeError:
            raise BotError(
                f"bot {quote(key)}: its factory takes no rules= and seed= keywords (a bot "
                f"factory is called as factory(rules=..., seed=..., **settings)): {exc}"
            ) from None
        raise BotError(
            f"bot {quote(key)}: bad settings {sorted(settings)}: {exc}"
        ) from None


def make_bot(
    name: str, rules: RuleSet | str | None = None, seed: int | None = None, **settings: Any
) -> Bot:
    """A bot by registry name (or :func:`is_bot_spec` spec) with its settings
    (keyword arguments of its class).

    A policy bot's name, ``"policy"``, with its ``path`` setting (what
    ``bot.settings()`` gives) is the spec ``policy:PATH``; ``value@PATH`` is
    ``make_bot("value", model=PATH)`` (its bot's name ``"value"``, its ``settings()``
    naming the file: ``make_bot(bot.name, **bot.settings())`` makes it again).

    Raises UnknownBotError (listing the known names) for a name not registered and
    BotError for settings the bot does not take or a spec that names no bot (a
    BotModelError naming the file for a ``value@PATH`` whose file is missing, damaged
    or of other rules).

    >>> bot = make_bot("heuristic", "pineapple", seed=1, samples=8)
    >>> bot.name, bot.settings()["samples"]
    ('heuristic', 8)
    >>> make_bot("heuristic", samples=8, depth=2)
    Traceback (most recent call last):
    ...
    ofc_fast.errors.BotError: bot 'heuristic': bad settings ['depth', 'samples']: ...
    """
    seed = seed_setting(seed, "make_bot")  # (NumPy's ints as plain ints)
    if _is_policy_name(name, settings):
        name = f"policy:{settings['path']}"
    if is_bot_spec(name):
        key, factory = name.strip(), _from_spec(name)
    else:
        key = bot_key(name)
        found = _FACTORIES.get(key)
        if found is None:
            raise UnknownBotError(_unknown(name))
        factory = found
    _check_call(key, factory, rules, seed, settings)
    try:
        bot = factory(rules=rules, seed=seed, **settings)
    except OfcError:
        raise
    except Exception as exc:
        if not is_bot_spec(name):  # a registered bot's bug: its traceback
            raise
        raise _failed(key, "making the bot", exc) from exc
    if not callable(getattr(bot, "act", None)):
        raise BotError(f"bot {quote(key)} made {type(bot).__name__}, which has no act()")
    return bot


def make_bots(
    names: str | Sequence[str],
    players: int,
    rules: RuleSet | str | None = None,
    seed: int | None = None,
    settings: Sequence[Mapping[str, Any]] | None = None,
) -> list[Bot]:
    """One bot per seat from names (a comma-separated string or a list): one name for
    every seat, or exactly one per seat.  The bots' seeds derive from ``seed`` (the
    same seed gives the same bots); ``settings``: one mapping per seat (optional).
    A bot with a ``check_players(players)`` method is checked by it for this table
    (a :class:`~ofc_fast.bots.ValueBot` with no model for the rules and seat count: BotError now,
    not at its first decision).

    >>> [b.name for b in make_bots("heuristic,random", 2, seed=1)]
    ['heuristic', 'random']
    """
    if isinstance(players, bool) or not isinstance(players, Integral):
        raise BotError(f"players must be an int 1..{MAX_SEATS}, got {quote(players)}")
    players = int(players)
    if not 1 <= players <= MAX_SEATS:
        raise BotError(f"players must be an int 1..{MAX_SEATS}, got {quote(players)}")
    if not isinstance(names, str) and not is_many(names):
        raise BotError(f"bot names: expected text or a list of names, got {quote(names)}")
    given = names.split(",") if isinstance(names, str) else list(names)
    for i, n in enumerate(given):
        if not isinstance(n, str):
            raise BotError(f"bot names: expected text, got {quote(n)} in {quote(names)}")
        if not n.strip():
            raise BotError(
                f"bot names: the name of seat {i} is empty in {quote(names)} (give 1 "
                f"or {players} names, comma-separated)"
            )
    items = list(given)
    if len(items) == 1:
        items = items * players
    if len(items) != players:
        raise BotError(
            f"{players} seats need 1 or {players} bot names, got "
            f"{len(items)}: {quote(', '.join(items[:8]))}"
        )
    if settings is not None and (
        isinstance(settings, (str, bytes, Mapping))
        or not isinstance(settings, Sequence)
        or not all(isinstance(x, Mapping) for x in settings)
    ):
        raise BotError(
            f"settings: expected one mapping of settings per seat, got {quote(settings)}"
        )
    if settings is not None and len(settings) != players:
        raise BotError(f"{players} seats need {players} settings, got {len(settings)}")
    for i, seat_settings in enumerate(settings or ()):
        for key in seat_settings:  # make_bot's own arguments, or no keyword at all
            if not isinstance(key, str) or key in ("name", "rules", "seed"):
                raise BotError(
                    f"settings[{i}]: {quote(key)} is not a bot setting (the name, rules "
                    "and seed are make_bots' own arguments)"
                )
    rng = Random(seed_setting(seed, "make_bots"))  # a bot seed's one rule
    bots = [
        make_bot(
            n,
            rules,
            rng.getrandbits(63),
            **(dict(settings[i]) if settings is not None else {}),
        )
        for i, n in enumerate(items)
    ]
    for bot in bots:  # a bot that cannot play at this table says so now
        check_table(bot, players)
    return bots


def check_table(bot: object, players: int) -> None:
    """Raise the OfcError of a table of ``players`` seats that ``bot`` cannot play at,
    by the bot's optional ``check_players(players)`` (a bot without one plays at
    any): what every maker of bots for a table calls (:func:`make_bots`, the
    environments' opponents, the arena's and the server's bots), so that such a bot
    fails when it is made, not at its first decision.

    >>> check_table(make_bot("value", "ofc"), 4)  # doctest: +ELLIPSIS
    Traceback (most recent call last):
    ...
    ofc_fast.errors.BotError: value bot: no value model ships for OFC with 4 players; ...
    """
    check = getattr(bot, "check_players", None)
    if callable(check):
        check(players)
