"""The one check of the arguments an environment class's constructor is called with
(:func:`takes_arguments`): the class called, not the one it passes its keywords on
to, names an argument it does not take."""

from __future__ import annotations

import difflib
import functools
import inspect
from collections.abc import Callable
from typing import Any, TypeVar

from ..errors import ArgumentError, quote

__all__ = ["check_forwarded", "takes_arguments"]

F = TypeVar("F", bound=Callable[..., Any])

_PASSED_ON = "__takes_arguments__"  # the attribute of a checked __init__: what it takes


Takes = tuple[tuple[str, ...], set[str], set[str]]
"""The names an ``__init__`` takes positionally, in order, those it takes as keywords,
and those it lets through unlisted (its ``also``: set by the class itself, refused by
its body naming the right one)."""


def _takes(own: list[inspect.Parameter], to: Takes | None) -> Takes:
    """What an ``__init__`` of parameters ``own`` (``self`` left out) takes: its own
    arguments, and where it has ``*args`` or ``**kwargs`` those of ``to`` (what the
    class they go to takes, and lets through)."""
    positional: list[str] = []
    keywords: set[str] = set()
    also: set[str] = set()
    for p in own:
        if p.kind in (p.POSITIONAL_ONLY, p.POSITIONAL_OR_KEYWORD):
            positional.append(p.name)
        if p.kind in (p.POSITIONAL_OR_KEYWORD, p.KEYWORD_ONLY):
            keywords.add(p.name)
        if p.kind is p.VAR_POSITIONAL and to is not None:
            positional += [n for n in to[0] if n not in positional]
        if p.kind is p.VAR_KEYWORD and to is not None:
            keywords |= to[1]
            also |= to[2]
    return tuple(positional), keywords, also


def _of(cls: type) -> Takes:
    """What class ``cls`` takes: its checked ``__init__``'s record, else its signature's."""
    found: Takes | None = getattr(vars(cls).get("__init__"), _PASSED_ON, None)
    return found or _takes(list(inspect.signature(cls).parameters.values()), None)


def _shown(init: Callable[..., Any], passes_to: type | None) -> inspect.Signature:
    """The signature of ``init`` with its ``*args`` shown as the arguments of
    ``passes_to`` they are (``help(VecEnv)``: ``rules, num_envs, ...``)."""
    sig = inspect.signature(init)
    params = list(sig.parameters.values())
    star = [i for i, p in enumerate(params) if p.kind is p.VAR_POSITIONAL]
    if passes_to is None or not star:
        return sig
    theirs = inspect.signature(passes_to).parameters.values()
    params[star[0] : star[0] + 1] = [p for p in theirs if p.kind is p.POSITIONAL_OR_KEYWORD]
    return sig.replace(parameters=params)


def _refusal(name: str, args: tuple[Any, ...], kwargs: dict[str, Any], takes: Takes) -> str:
    """Why a call of class ``name`` with ``args`` and ``kwargs`` cannot be, or ""."""
    positional, keywords, also = takes
    if len(args) > len(positional):
        return (
            f"{name}() takes at most {len(positional)} positional arguments "
            f"({', '.join(positional)}), got {len(args)}"
        )
    for key in kwargs:
        if key in positional[: len(args)]:
            return f"{name}() got multiple values for argument {key!r}"
        if key not in keywords and key not in also:  # (also: neither listed nor hinted)
            close = difflib.get_close_matches(key[:64], sorted(keywords), n=1)
            hint = (
                f"did you mean {close[0]!r}?"
                if close
                else "it takes " + ", ".join(sorted(keywords))
            )
            return f"{name}() got an unexpected keyword argument {quote(key)} ({hint})"
    return ""


def check_forwarded(name: str, cls: type, kwargs: dict[str, Any]) -> None:
    """ArgumentError naming function ``name`` (a factory a user called, as
    ``pettingzoo_env``) when keywords ``kwargs``, which it passes on to class ``cls``,
    hold one that ``cls`` does not take: the function called is named, not ``cls``."""
    _, keywords, also = _of(cls)
    why = _refusal(name, (), kwargs, ((), keywords, also))
    if why:
        raise ArgumentError(why)


def takes_arguments(
    passes_to: type | None = None, also: tuple[str, ...] = ()
) -> Callable[[F], F]:
    """Decorate an environment class's ``__init__``: a call with more positional
    arguments than it takes, one given both ways or a keyword it does not take (it
    takes its own and, where it has ``*args`` or ``**kwargs``, those of the class
    ``passes_to`` they go to, less ``also``: names let through, neither listed nor
    suggested, that its body refuses itself naming the right one, as a keyword the
    class sets itself) is an :class:`~ofc_fast.errors.ArgumentError` naming the class
    called (a subclass too), the argument and the closest keyword it
    takes (else all), before anything is made.  The signature ``help()`` and
    ``inspect.signature`` show stays the function's (its ``*args`` shown as the
    arguments of ``passes_to`` they are)."""

    def decorate(init: F) -> F:
        own = list(inspect.signature(init).parameters.values())[1:]  # (self)
        positional, keywords, through = _takes(
            own, None if passes_to is None else _of(passes_to)
        )
        through |= set(also)
        keywords -= through  # (not listed as taken, nor by a class passing them here)

        @functools.wraps(init)
        def checked(self: Any, *args: Any, **kwargs: Any) -> Any:
            why = _refusal(
                type(self).__name__, args, kwargs, (positional, keywords, through)
            )
            if why:
                raise ArgumentError(why)
            return init(self, *args, **kwargs)

        setattr(checked, _PASSED_ON, (positional, keywords, through))
        checked.__signature__ = _shown(init, passes_to)  # type: ignore[attr-defined]
        return checked  # type: ignore[return-value]

    return decorate
