"""The thread guards of the stateful objects, in one place: a call that changes an
object refuses to start while another thread is inside one (:func:`one_at_a_time`:
a :class:`~ofc_fast.game.Game`'s moves, a :class:`~ofc_fast.env.VectorEnv`'s steps),
and a read of a game's (a match's, a VectorEnv's) state waits for a move (a deal's
booking, a step) in progress (:func:`consistent`), so that it sees it before or after,
never between; a game's reads and a VectorEnv's views take no lock unless a move (a
step) overlapped them (:func:`lock_free`: then they read again, behind it).

>>> import threading
>>> class Counter:
...     def __init__(self):
...         self._state_lock = threading.RLock()
...         self._entries = 0
...         self.n = 0
...     @one_at_a_time("Counter", "counting with", "one at a time")
...     def count(self):
...         self.n += 1
>>> c = Counter()
>>> c.count(); c.n
1
>>> c._entries += 1  # odd: as while another thread counts
>>> c.count()
Traceback (most recent call last):
...
ofc_fast.errors.GameError: Counter.count() while another thread is counting with ...
"""

from __future__ import annotations

from collections.abc import Callable
from functools import wraps
from inspect import Parameter, signature
from typing import Any, Protocol, TypeVar

from .._native._fast import ATOMIC_READS
from ..errors import GameError

__all__ = ["Guard", "Moved", "consistent", "lock_free", "one_at_a_time"]

_F = TypeVar("_F", bound=Callable[..., Any])

_HOLDING = """\
with {self}._state_lock:
    return method({args})"""
"""The body of a call that holds the object's ``_state_lock``: a ``with`` block, which
leaves no gap between taking the lock and guarding its release (an ``acquire()``
before a ``try`` did: a Ctrl-C landing between them left the lock held, and every
other thread's read of the object waited for ever)."""

_ONE_AT_A_TIME = """\
entries = {self}._entries
if entries & 1:
    raise error(refusal)
with {self}._state_lock:
    if {self}._entries != entries:
        raise error(refusal)
    try:
        {self}._entries = entries + 1
{inside}
    finally:
        {self}._entries = entries + 2"""
"""The body of a :func:`one_at_a_time` guard, ``{inside}`` the call (checked, held).
One lock, the object's ``_state_lock`` (the RLock its readers wait for), taken by a
``with`` block, for the reason :data:`_HOLDING` gives (an ``acquire(False)`` before a
``try`` left about one in eight interrupted moves holding it: the game refused every
later move); the object's ``_entries`` counts the calls let in twice, odd from the
start of one to its end (a ``finally``: an interrupted call ends it too).  A call that
finds it odd (another thread inside, or this one: a call from within the call) is
refused; so is one that got past that look as another call started, and waited for
it: the count moved meanwhile, and its move (an action id chosen for one seat) would
have been played on the game the other call left.  (A second lock, held for the
refusal's look, cost a move a third of its guard: a ``with`` block is ~2,000
instructions on CPython 3.11.)"""

_SINCE = _ONE_AT_A_TIME.split("\n", 1)[1]
"""The body of a guard's :meth:`~Guard.since` twin: :data:`_ONE_AT_A_TIME` with the
count given, ``entries``, the caller's earlier read of ``_entries`` (with the view it
decided on): refused, nothing touched, when a guarded call entered since that read,
checked in the call's one lock block (a caller that checked under a lock of its own
around the call took two)."""

_UNLOCKED = """\
entries = {self}._entries
if not entries & 1:
    try:
        seen = method({args})
    except Exception:
        if {self}._entries == entries:
            raise
    else:
        if {self}._entries == entries:
            return seen
with {self}._state_lock:
    return method({args})"""
"""The body of a :func:`lock_free` read: the call without the object's lock when no
guarded call (:func:`one_at_a_time`) is inside (``_entries`` even) and none entered
while it ran (the count unchanged after it: a guarded call counts itself before it
writes), else (or when the read raised as a call entered) the call again, holding the
lock, as :data:`_HOLDING`."""

_OWN_NAMES = frozenset(("method", "error", "refusal", "check", "what", "entries", "seen"))


def _twin(method: _F, body: str, lead: str = "", **names: Any) -> _F:
    """``method`` wrapped in ``body`` (its ``{self}``: the first parameter; ``{args}``:
    the call's arguments) by a function with ``method``'s very parameters, made once
    here: a ``(*args, **kwargs)`` wrapper packed and unpacked them at every call (a
    quarter of a guarded ``play_action``).  ``names``: what ``body`` reads (``method``
    is given); ``lead``: a parameter of the twin's own after the object's, which
    ``body`` reads and ``method`` does not get."""
    params: list[str] = []
    args: list[str] = []
    defaults: dict[str, Any] = {}
    star = False
    given = list(signature(method, follow_wrapped=False).parameters.values())
    for i, p in enumerate(given):
        name = p.name
        if name in _OWN_NAMES or name == "defaults":
            raise TypeError(f"{method.__qualname__}: a guarded parameter named {name}")
        spec = name if p.default is p.empty else f"{name}=defaults[{name!r}]"
        if p.default is not p.empty:
            defaults[name] = p.default
        if p.kind is Parameter.VAR_POSITIONAL:
            params.append(f"*{name}")
            args.append(f"*{name}")
            star = True
        elif p.kind is Parameter.VAR_KEYWORD:
            params.append(f"**{name}")
            args.append(f"**{name}")
        elif p.kind is Parameter.KEYWORD_ONLY:
            params += [spec] if star else ["*", spec]
            args.append(f"{name}={name}")
            star = True
        else:
            params.append(spec)
            args.append(name)
            last = i + 1 == len(given) or given[i + 1].kind is not p.kind
            if p.kind is Parameter.POSITIONAL_ONLY and last:
                params.append("/")
    if not given or given[0].kind not in (
        Parameter.POSITIONAL_ONLY,
        Parameter.POSITIONAL_OR_KEYWORD,
    ):
        raise TypeError(f"{method.__qualname__}: a guarded method takes the object first")
    if lead:
        params.insert(1, lead)
    code = body.format(self=given[0].name, args=", ".join(args))
    inner = "\n".join("        " + line for line in code.splitlines())
    source = (
        f"def make({', '.join(['method', 'defaults', *names])}):\n"
        f"    def {method.__name__}({', '.join(params)}):\n{inner}\n"
        f"    return {method.__name__}\n"
    )
    made: dict[str, Any] = {}
    exec(compile(source, f"<guard of {method.__qualname__}>", "exec"), globals(), made)
    twin: Any = made["make"](method, defaults, *names.values())
    return wraps(method)(twin)  # type: ignore[return-value]


class Moved(GameError):
    """A :meth:`Guard.since` call refused: a guarded call entered since the caller's
    read of the count (its caller says what happened, in its own words)."""


class Guard(Protocol):
    """What :func:`one_at_a_time` makes: ``guard(method, call=None)``, the method
    guarded (its signature kept), and ``guard.since(method)``."""

    def __call__(self, method: _F, /, call: str | None = None) -> _F:
        """``method`` guarded; ``call``: what the user did, as the refusal names it."""

    def since(self, method: Callable[..., Any], /) -> Callable[..., Any]:
        """``method`` guarded, with the count the caller read as its second parameter
        (``twin(obj, entries, *args)``): refused with :class:`Moved` when another
        guarded call entered since that read (:data:`_SINCE`)."""


def one_at_a_time(
    owner: str,
    doing: str,
    advice: str,
    *,
    check: Callable[[Any, str], None] | None = None,
) -> Guard:
    """A decorator, ``guard(method, call=None)``: ``method`` refuses to start, with a
    GameError and nothing touched, while another thread is inside a method the same
    guard wraps (the object's ``_entries``, an int the guard counts the calls it lets
    in by, twice, is odd), or entered one as this call started (the count moved:
    :data:`_ONE_AT_A_TIME`); the
    error says "``Owner.name()`` while another thread is ``doing`` this ``Owner``:
    ``advice``" (``call``, when given, is what the user did, in place of
    ``Owner.name()``).  The method runs holding the object's ``_state_lock`` (an
    RLock: the lock its readers wait for, :func:`consistent`); once it is taken,
    ``check(obj, call)`` runs (it may refuse: a closed object).  The
    attributes are named here, not given: a fixed name is read as fast as the guards
    were before they were one; the guarded method has the method's own parameters and
    only the steps its options ask for (:func:`_twin`).  ``guard.since(method)``: the
    same guard, its caller's earlier read of the count given (:data:`_SINCE`)."""
    inside = "return method({args})"
    if check is not None:
        inside = "check({self}, what)\n" + inside
    indented = "\n".join("        " + line for line in inside.splitlines())

    class _Guard:
        """The guard (:class:`Guard`)."""

        def __call__(self, method: _F, /, call: str | None = None) -> _F:
            """``method`` guarded (:class:`Guard`)."""
            what = call or f"{method.__name__}()"
            refusal = (
                f"{call or f'{owner}.{what}'} while another thread is {doing} this "
                f"{owner}: {advice}"
            )
            body = _ONE_AT_A_TIME.replace("{inside}", indented)
            return _twin(
                method, body, error=GameError, refusal=refusal, check=check, what=what
            )

        def since(self, method: Callable[..., Any], /) -> Callable[..., Any]:
            """``method`` guarded since the caller's read (:meth:`Guard.since`)."""
            what = f"{method.__name__}()"
            body = _SINCE.replace("{inside}", indented)
            return _twin(
                method, body, "entries", error=Moved, refusal=what, check=check, what=what
            )

    return _Guard()


def consistent(method: _F) -> _F:
    """``method`` (a read of a :class:`~ofc_fast.game.Game`'s state, its first argument:
    the engine's bytes, the moves, the decision count; a :class:`~.match.Match`'s read
    or booking of a deal) runs holding the object's ``_state_lock`` (an RLock): while
    another thread plays a move (books a deal) it waits for it to finish, so that it
    sees the object before or after, never half-written (the lock is reentrant: reads
    call reads).  A :class:`~ofc_fast.env.VectorEnv`'s views hold its lock the same
    way, or read without it and again behind it when a step overlapped."""
    return _twin(method, _HOLDING)


def lock_free(method: _F) -> _F:
    """``method`` (a read of an object's state, as :func:`consistent`'s: the object,
    its first argument, has the ``_entries`` count and ``_state_lock`` of
    :func:`one_at_a_time`'s guard, which every call that changes it takes) reads
    without the lock (the lock cost up to a third of a ``Game.legal_moves()``), and
    again holding it when a guarded call was in progress or entered meanwhile
    (:data:`_UNLOCKED`): it too sees the object before or after that call, never
    between, and raises only what a read before or after would.  The read may run
    twice: it changes nothing but caches.  Where the GIL is off (a free-threaded
    build, whose loads and stores this count does not order) or the portable twins
    serve, it is :func:`consistent`'s read."""
    return _twin(method, _UNLOCKED if ATOMIC_READS else _HOLDING)
