"""A deal played out by bots: :func:`play_out` (and :func:`finish`, what a match calls),
one bot per seat asked for each decision of its seat, its move played on the game.

Each decision reads the seat to act and its observation in one step (a builtin's
read under the GIL; under the game's lock when a move was in progress or landed
meanwhile), asks the bot out of any lock (a bot may wait for another thread's read),
then plays its move in one lock block, the move's own: refused when any move entered
the game since the observation was read (:meth:`~ofc_fast.game.threads.Guard.since`),
so that a bot's move is played at its seat's decision only.

>>> from ofc_fast.bots import RandomBot
>>> from ofc_fast.game import Game
>>> sum(play_out(Game("pineapple", 3, seed=5), [RandomBot(s) for s in range(3)]).net)
0
"""

from __future__ import annotations

import threading
from collections.abc import Callable, Sequence
from typing import TYPE_CHECKING, Any

from .._native._fast import ATOMIC_READS as _NATIVE
from .._native._fast import observe as _observe
from ..errors import GameError, MoveError, quote
from ..lazy import lazy_module
from ..table import check_bots
from ._refusal import Illegal, seat_named
from .observation import own_rule_set
from .result import GameResult
from .threads import Moved

if TYPE_CHECKING:  # (bots imports game; state imports this module)
    from ..bots import base as _bots
    from . import state as _state
else:
    _bots = lazy_module("ofc_fast.bots.base")
    _state = lazy_module("ofc_fast.game.state")

__all__ = ["play_out"]


def play_out(game: _state.Game, bots: Sequence[_bots.Bot]) -> GameResult:
    """Let ``bots`` (one per seat, each with ``act(observation) -> Move``) finish the
    deal; returns its result (GameError for a ``game`` that is no Game, or that another
    thread moved while a bot chose; TableError for bots not one per seat; a MoveError
    names the bot's seat).  Its reads wait for a move in progress, as the game's do.

    >>> from ofc_fast.bots import make_bots
    >>> from ofc_fast.game import Game
    >>> result = play_out(Game("pineapple", 2, seed=3), make_bots("heuristic,random", 2))
    >>> len(result.net), sum(result.net)
    (2, 0)
    >>> play_out(Game("pineapple", 3, seed=3), make_bots("random", 2))
    Traceback (most recent call last):
    ...
    ofc_fast.errors.TableError: 3 seats need 3 bots, got 2
    """
    finish(game, bots)
    return game.result()


def finish(
    game: _state.Game, bots: Sequence[_bots.Bot], illegal: Illegal | None = None
) -> None:
    """:func:`play_out` without the result (a match books it once: ``record``);
    ``illegal(seat, error)`` makes the error raised for a seat's illegal move from the
    bot's own MoveError (default: "seat S (its bot's class): " and the move's words)."""
    if not isinstance(game, _state.Game):
        raise GameError(f"play_out: game must be a Game, got {quote(game)}")
    check_bots(bots, game.players)
    game._finish(bots, illegal)


class PlaysOut:
    """What a :class:`~ofc_fast.game.Game` is played out by (its base: :func:`finish`'s
    loop, reading the game's own state)."""

    __slots__ = ()
    _steps: tuple[tuple[int, ...], ...]
    _moves: list[Any]
    _buf: bytearray
    _state_lock: Any
    _entries: int
    _obs: dict[str, Any] | None
    _game_play: Callable[..., None]
    """``Game.play`` itself (a subclass's own play is played as it is)."""
    _play_since: Callable[..., None]
    """``Game.play`` as ``game._play_since(entries, move)``: refused (:class:`Moved`)
    when a move entered the game since its count read ``entries``; the check and the
    move in the move's one lock block (:meth:`~ofc_fast.game.threads.Guard.since`)."""
    play: Callable[..., None]
    players: int

    def _obs_template(self) -> dict[str, Any]:
        raise NotImplementedError  # (the game's)

    def _finish(self, bots: Sequence[_bots.Bot], illegal: Illegal | None) -> None:
        """:func:`finish`'s loop, its arguments checked."""
        steps, play, buf, lock = self._steps, self.play, self._buf, self._state_lock
        booked = self._moves  # (one per decision made)
        exact = type(self).play is self._game_play  # an override: played as it is, unheld
        held = threading.Lock()
        template = self._obs or self._obs_template()
        own = "rule_set" in template  # (the views, unchecked: a copy of the rules each)
        while True:
            entries = self._entries  # (odd: a move in progress; moved after: one landed)
            if (step := len(booked)) >= len(steps):
                return
            s = steps[step][0]  # CPython: one builtin's read, under the GIL; read again
            obs = _observe(buf, s, template) if _NATIVE else None  # locked if moved
            if obs is None or entries & 1 or entries != self._entries:  # (and the twins)
                with lock:  # the seat to act and its view, one read
                    entries = self._entries
                    if (step := len(booked)) >= len(steps):
                        return
                    obs = _observe(buf, s := steps[step][0], template)
            try:  # seat s's move, at its step only: play(move), a subclass's play too
                move = bots[s].act(own_rule_set(obs) if own else obs)  # (out of the lock:
                if (
                    exact
                ):  # it may wait for another thread's read); check and move: one step
                    try:
                        self._play_since(entries, move)
                    except Moved:  # (a try refused, no move landed: moved the count only)
                        with lock:
                            if len(booked) != step:
                                raise
                            self._play_since(self._entries, move)
                    continue
                with held:
                    if len(booked) == step:
                        play(move)
                        continue
            except Moved:
                pass
            except MoveError as exc:  # whose move it was (the game as it was before it)
                if len(booked) == step:
                    raise (illegal or seat_named(bots))(s, exc) from None
            raise GameError(
                f"play_out: another thread played a move on this Game while seat {s} "
                f"({type(bots[s]).__name__}) chose its move: play a Game from one thread "
                "at a time"
            )
