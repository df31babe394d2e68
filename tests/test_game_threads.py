"""One Game played from two threads at once: the second move is refused with a
GameError that says what to do, nothing is changed by it, and the game stays the game
its moves make (its history replays to it); shared bots and per-thread games give the
single-threaded answers."""

from __future__ import annotations

import contextlib
import copy
import functools
import inspect
import pickle
import random
import signal
import sys
import threading
from collections.abc import Iterator
from typing import Any

import pytest

import ofc_fast.encoding as encoding
import ofc_fast.game.state as game_state
from ofc_fast import Game, rules
from ofc_fast._native import _portable, ffi, lib
from ofc_fast._native._fast import ATOMIC_READS
from ofc_fast.bots import make_bot
from ofc_fast.encoding import encode_game
from ofc_fast.errors import GameError, MoveError, SearchError
from ofc_fast.game import Match, Move, play_out
from ofc_fast.game.match import SeatStats
from ofc_fast.search import advise

SPACE = lib.OFC_ACTION_SPACE


def _in_threads(n: int, fn: Any) -> list[Any]:
    """``fn(i)`` for i in 0..n-1, each in its own thread, started together; the
    results in order (the first exception raised again)."""
    out: list[Any] = [None] * n
    errors: list[BaseException] = []
    start = threading.Barrier(n)

    def run(i: int) -> None:
        start.wait()
        try:
            out[i] = fn(i)
        except BaseException as exc:  # re-raised below, in the test's thread
            errors.append(exc)

    threads = [threading.Thread(target=run, args=(i,)) for i in range(n)]
    for t in threads:
        t.start()
    for t in threads:
        t.join(30)
    if errors:
        raise errors[0]
    return out


def _held_act(thread: str, inside: threading.Event, go: threading.Event) -> Any:
    """The engine's move call, held in the thread named ``thread`` once it has changed
    the state and booked the move (as a C call that let the GIL go would be):
    ``inside`` is set, and the call returns when ``go`` is."""
    real_act = game_state._act

    def held_act(buf: bytearray, action: int, *booked: list[Any]) -> int:
        status = real_act(buf, action, *booked)
        if threading.current_thread().name == thread:
            inside.set()
            go.wait(10)
        return status

    return held_act


def test_a_move_while_another_thread_plays_one_is_refused(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    # The first thread's move is held inside the engine call (as a C call that let
    # the GIL go would be) until the second thread has tried its move.
    g = Game("pineapple", players=2, seed=5)
    first, second = g.legal_actions()[:2]
    move = g.legal_moves()[0]  # (read before: a read waits for a move to finish)
    inside, go = threading.Event(), threading.Event()
    monkeypatch.setattr(game_state, "_act", _held_act("first", inside, go))
    mover = threading.Thread(target=g.play_action, args=(first,), name="first")
    mover.start()
    assert inside.wait(10)
    with pytest.raises(GameError, match="another thread is playing a move on this Game"):
        g.play_action(second)
    with pytest.raises(GameError, match="another thread"):
        g.play(move)
    go.set()
    mover.join(10)
    monkeypatch.undo()
    # the reference: the same deal with the first thread's move alone
    ref = Game("pineapple", players=2, seed=5)
    ref.play_action(first)
    assert g.moves == ref.moves
    assert g.decisions == 1
    assert g == ref and Game.replay(g.history()) == ref
    g.play_action(g.legal_actions()[0])  # and play goes on from this thread
    assert g.decisions == 2


def test_racing_moves_leave_a_game_its_moves_make(monkeypatch: pytest.MonkeyPatch) -> None:
    # Two threads race random action ids on one game: each move either plays, is
    # illegal or is refused (a GameError: another thread is moving), and the game is
    # always what its recorded moves make, as a replay of its history shows.  The engine
    # moves are the portable twin's (cffi lets the GIL go in it, as on PyPy), and
    # threads switch often: the moves truly overlap.
    monkeypatch.setattr(game_state, "_act", _portable.act)
    with _switching_often():
        _race(60)


def _race(deals: int) -> None:
    for seed in range(deals):
        g = Game("pineapple", players=2, seed=seed)

        def race(i: int, g: Game = g) -> None:
            rng = random.Random(i)
            while not g.is_over:  # (only moves: reads during a move are no test here)
                try:
                    g.play_action(rng.randrange(SPACE))
                except GameError:
                    pass  # illegal, or refused: another thread is moving

        _in_threads(2, race)
        assert g.is_over
        assert Game.replay(g.history()) == g


@pytest.mark.parametrize("name", ["random", "heuristic", "value", "search"])
def test_a_bot_shared_by_threads_plays_their_games(name: str) -> None:
    # One bot, four threads each playing their own deals with it: every deal ends
    # with a legal result (each game's history replays to it), no error.
    settings = {"samples": 16, "time_budget": None} if name == "search" else {}
    bot = make_bot(name, "pineapple", seed=1, **settings)

    def deals(i: int) -> list[Game]:
        games = [Game("pineapple", players=2, seed=10 * i + s) for s in range(2)]
        for game in games:
            play_out(game, [bot, bot])
        return games

    for games in _in_threads(4, deals):
        for game in games:
            assert game.is_over and Game.replay(game.history()) == game


def _views(g: Game) -> tuple[Any, ...]:
    """What the public reads of ``g`` say, each one read once."""
    return (
        g.legal_actions() if not g.is_over else [],
        g.observation(0),
        g.observation(1, "text"),
        g.history(),
        str(g),
        g.moves,
        [b.rows for b in g.boards],
    )


def _to_the_last_decision(g: Game) -> int:
    """Plays ``g`` up to its last decision (each time the first legal action); that
    decision's first legal action."""
    while g.decisions < len(g._steps) - 1:
        g.play_action(g.legal_actions()[0])
    return g.legal_actions()[0]


def test_a_read_while_another_thread_moves_sees_the_game_before_or_after(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    # The last move of a deal is held inside the engine call, its C state written and
    # its book-keeping (moves, decision count) not yet: a reader in another thread then
    # sees the game before the move or after it (the references: the same deal played
    # by one thread), never the engine's state without the move's book-keeping.
    g = Game("pineapple", players=2, seed=11)
    last = _to_the_last_decision(g)
    old = g.copy()
    before = _views(old)
    ref = g.copy()
    ref.play_action(last)
    after = _views(ref)
    inside, go, reading = threading.Event(), threading.Event(), threading.Event()
    monkeypatch.setattr(game_state, "_act", _held_act("mover", inside, go))

    def read() -> list[Any]:
        reading.set()
        out = []
        for view in range(len(before)):
            try:
                out.append(_views(g)[view])
            except Exception as exc:  # a torn read may raise: that is the failure
                out.append(repr(exc))
        out.append((g == old, g == ref))  # the game is one of the two, whole
        return out

    mover = threading.Thread(target=g.play_action, args=(last,), name="mover")
    mover.start()
    assert inside.wait(10)
    seen: list[Any] = []
    reader = threading.Thread(target=lambda: seen.extend(read()))
    reader.start()
    assert reading.wait(10)
    reader.join(0.2)  # the reader runs (or waits for the move) while it is held
    go.set()
    mover.join(10)
    reader.join(10)
    assert not reader.is_alive() and not mover.is_alive()
    for view, got in enumerate(seen):
        want = (*before, (True, False))[view], (*after, (False, True))[view]
        assert got in want, (view, got)
    assert g == ref


def test_reads_racing_moves_on_the_portable_path_raise_nothing(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    # The portable twins (cffi lets the GIL go in them, as on PyPy) read and move while
    # threads switch often: every read is the game before or after a move, never a
    # half-written state (a plain ValueError "not a normal decision" before).
    for name in ("_act", "_legal_actions", "_observe"):
        monkeypatch.setattr(game_state, name, getattr(_portable, name[1:]))
    monkeypatch.setattr(game_state, "_NATIVE", False)  # (as the twins serve there)
    with _switching_often():
        for seed in range(30):
            _read_while_moving(seed)


@contextlib.contextmanager
def _switching_often() -> Iterator[None]:
    """Threads switch every microsecond inside (the interval there before put back)."""
    interval = sys.getswitchinterval()
    sys.setswitchinterval(1e-6)
    try:
        yield
    finally:
        sys.setswitchinterval(interval)


def _read_while_moving(seed: int) -> None:
    """One thread plays a deal while another reads it; each read of the legal actions
    is the single-threaded game's at a decision the reader saw, and no read raises."""
    g = Game("pineapple", players=2, seed=seed)
    ref = g.copy()
    legal = {0: ref.legal_actions()}  # decision -> its legal actions
    while not ref.is_over:
        ref.play_action(ref.legal_actions()[0])
        legal[ref.decisions] = ref.legal_actions()
    done = threading.Event()
    seen: list[tuple[int, list[int], int]] = []
    errors: list[str] = []

    def read() -> None:
        try:
            while not done.is_set():
                before, actions = g.decisions, g.legal_actions()
                seen.append((before, actions, g.decisions))
                g.observation(0)
        except Exception as exc:  # recorded: a read must raise nothing
            errors.append(repr(exc))

    reader = threading.Thread(target=read)
    reader.start()
    try:
        while not g.is_over:
            g.play_action(g.legal_actions()[0])
    finally:
        done.set()
        reader.join(10)
    assert errors == []
    for before, actions, after in seen:
        assert actions in [legal[d] for d in range(before, after + 1)]
    assert g == ref


def _half_written_act(real_act: Any, thread: str, inside: Any, go: Any) -> Any:
    """``real_act`` (an engine move call), held in the thread named ``thread`` with the
    new state half written, as a C reader in another thread sees a move mid-way when the
    reader's C call lets the GIL go: the first half of the bytes the move changes are
    written, ``inside`` is set, and the rest are written when ``go`` is (then the move
    is booked, as the twins book it: after the engine's call)."""

    def act(buf: bytearray, action: int, *booked: list[Any]) -> int:
        if threading.current_thread().name != thread:
            return int(real_act(buf, action, *booked))
        after = bytearray(buf)
        status = int(real_act(after, action))
        changed = [i for i in range(len(buf)) if buf[i] != after[i]]
        for i in changed[: len(changed) // 2]:
            buf[i] = after[i]
        inside.set()
        go.wait(10)
        buf[:] = after
        if status == 0:
            booked[0].append(action)
        return status

    return act


def _read_while_held(writer: threading.Thread, read: Any, go: threading.Event) -> None:
    """``read()`` in a thread of its own while ``writer`` is held until ``go`` is set:
    the reader runs (or waits for the writer) for 0.2 s, then the writer goes on; both
    end."""
    reader = threading.Thread(target=read)
    reader.start()
    reader.join(0.2)
    go.set()
    writer.join(10)
    reader.join(10)
    assert not reader.is_alive() and not writer.is_alive()


def _encodings_around_a_move() -> tuple[Game, int, list[Any], list[Any]]:
    """A game mid-deal, the move to play there, and each seat's encoding of the game
    before and after it (the references: one thread plays the move)."""
    g = Game("pineapple", players=3, seed=21)
    for _ in range(4):
        g.play_action(g.legal_actions()[0])
    action = g.legal_actions()[-1]
    ref = g.copy()
    before = [encode_game(ref, s).tolist() for s in range(3)]
    ref.play_action(action)
    return g, action, before, [encode_game(ref, s).tolist() for s in range(3)]


class _OverlappedLib:
    """The encoder's ``lib``, whose first ``ofc_encode_game`` overlaps another thread's
    move of ``game``: the move (CPython's builtin, written whole while it holds the
    GIL) is played while the call reads, which reads the state half before and half
    after it, as a C call that lets the GIL go does."""

    def __init__(self, game: Game, action: int) -> None:
        self.game, self.action, self.pending = game, action, True
        self.mover = threading.Thread(target=game.play_action, args=(action,))

    def __getattr__(self, name: str) -> Any:
        return getattr(lib, name)

    def ofc_encode_game(self, state: Any, seat: int, lowball: int, out: Any) -> int:
        if not self.pending:
            return int(lib.ofc_encode_game(state, seat, lowball, out))
        self.pending = False
        before = bytes(ffi.buffer(state))
        self.mover.start()
        self.mover.join(0.2)  # (it waits, where the reader holds the game's lock)
        after = bytes(ffi.buffer(state))
        mixed = bytearray(before)
        changed = [i for i in range(len(before)) if before[i] != after[i]]
        for i in changed[: len(changed) // 2]:
            mixed[i] = after[i]
        torn = ffi.from_buffer("ofc_game *", mixed)
        return int(lib.ofc_encode_game(torn, seat, lowball, out))


def test_encode_game_overlapping_a_builtin_move_encodes_the_game_before_or_after(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    # encode_game's C call lets the GIL go: another thread's move (CPython's builtin)
    # could write the state while it read (a torn encoding, 2 deals in 150 under a
    # fast switch interval).  The encoding must be the game's before or after the move.
    g, action, before, after = _encodings_around_a_move()
    overlapped = _OverlappedLib(g, action)
    monkeypatch.setattr(encoding, "lib", overlapped)
    got = encode_game(g, 0).tolist()
    overlapped.mover.join(10)
    assert not overlapped.pending and not overlapped.mover.is_alive()
    assert got in (before[0], after[0])
    assert encode_game(g, 0).tolist() == after[0]


def test_encode_game_while_a_portable_move_is_written_encodes_the_game_before_or_after(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    # The portable twins (OFC_FAST_PORTABLE=1, PyPy) write a move with the GIL let go:
    # the move is held half-written; the encodings a reader thread sees must be the
    # game's before or after the move.
    g, action, before, after = _encodings_around_a_move()
    monkeypatch.setattr(encoding, "ATOMIC_READS", False, raising=False)  # (the twins)
    inside, go = threading.Event(), threading.Event()
    held = _half_written_act(_portable.act, "mover", inside, go)
    monkeypatch.setattr(game_state, "_act", held)
    mover = threading.Thread(target=g.play_action, args=(action,), name="mover")
    mover.start()
    assert inside.wait(10)
    seen: list[Any] = []
    _read_while_held(
        mover, lambda: seen.extend(encode_game(g, s).tolist() for s in range(3)), go
    )
    assert seen in (before, after)
    assert encode_game(g, 0).tolist() == after[0]


class _FirstLegal:
    """A bot that keeps each observation it is given and plays its first legal action."""

    def __init__(self) -> None:
        self.seen: list[Any] = []

    def act(self, obs: Any) -> Move:
        self.seen.append(obs)
        return Move.from_action(obs["dealt"], obs["to_discard"], obs["legal_actions"][0])


@pytest.mark.parametrize("path", ["native", "portable"])
def test_play_out_while_another_thread_moves_reads_the_game_after_the_move(
    path: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    # play_out read the seat to act and its observation without the game's read lock:
    # during another thread's move its bot was shown the engine's state without the
    # move's book-keeping (a seat that is not to act), or half-written on the portable
    # path.  It now waits for the move, and its bot sees what the single-threaded game
    # shows after it (the references), decision by decision.
    g = Game("pineapple", players=2, seed=13)
    for _ in range(3):
        g.play_action(g.legal_actions()[0])
    action = g.legal_actions()[-1]
    ref = g.copy()
    ref.play_action(action)
    want = []
    while not ref.is_over:
        want.append(ref.observation(ref.to_act))
        ref.play_action(want[-1]["legal_actions"][0])
    inside, go = threading.Event(), threading.Event()
    if path == "native":
        monkeypatch.setattr(game_state, "_act", _held_act("mover", inside, go))
    else:
        for name in ("_place", "_observe", "_legal_actions"):
            monkeypatch.setattr(game_state, name, getattr(_portable, name[1:]))
        monkeypatch.setattr(game_state, "_NATIVE", False)
        held = _half_written_act(_portable.act, "mover", inside, go)
        monkeypatch.setattr(game_state, "_act", held)
    mover = threading.Thread(target=g.play_action, args=(action,), name="mover")
    mover.start()
    assert inside.wait(10)
    bot, errors = _FirstLegal(), []

    def run() -> None:
        try:
            play_out(g, [bot, bot])
        except Exception as exc:  # recorded: the failure
            errors.append(repr(exc))

    _read_while_held(mover, run, go)
    assert errors == []
    assert bot.seen == want
    assert g == ref


def test_play_out_refuses_a_bots_move_once_another_thread_moved_the_game() -> None:
    # While seat 1's bot chose to surrender, another thread played seat 1's set: the
    # bot's surrender went to the next seat to act (seat 0 surrendered, no error).
    # play_out now plays a bot's move as its seat's only, and says what happened.
    g = Game(rules.HAWAIIAN_GARDENS, players=2, seed=3)
    setting = g.random_move(random.Random(1))
    deciding, go = threading.Event(), threading.Event()

    class Surrenders:
        def act(self, obs: Any) -> Move:
            deciding.set()
            go.wait(10)
            return Move(surrender=True)

    errors: list[BaseException] = []

    def run() -> None:
        try:
            play_out(g, [Surrenders(), Surrenders()])
        except Exception as exc:  # recorded: what the test expects
            errors.append(exc)

    player = threading.Thread(target=run)
    player.start()
    assert deciding.wait(10)
    g.play(setting)  # the other thread's move: seat 1's set
    go.set()
    player.join(10)
    assert not player.is_alive()
    assert [type(e) for e in errors] == [GameError]
    assert "another thread played a move on this Game" in str(errors[0])
    ref = Game(rules.HAWAIIAN_GARDENS, players=2, seed=3)
    ref.play(setting)
    assert g == ref and g.to_act == 0 and g.moves == (setting,)


def test_play_out_goes_on_after_a_refused_try_while_a_bot_chose() -> None:
    """Regression: a bot that tried an illegal move on the game while choosing (its
    MoveError caught), or another thread's refused move then, stopped ``play_out``
    with "another thread played a move on this Game" once its check and move became
    one lock block: a refused move counts as a guarded call, though no move landed.
    The deal plays out as a single-threaded replay of the bots' moves."""
    from ofc_fast.bots import RandomBot

    g = Game("pineapple", 2, seed=5)

    class Tries(RandomBot):
        def act(self, obs: Any) -> Any:
            with pytest.raises(MoveError):
                g.play_action(10**6)
            return super().act(obs)

    play_out(g, [Tries(1), Tries(2)])
    ref = Game("pineapple", 2, seed=5)
    for m in g.moves:
        ref.play(m)
    assert g.is_over and g == ref and len(g.moves) == 10


def test_play_out_plays_through_a_subclass_play_of_the_public_signature() -> None:
    # play_out called game.play(move, seat): a Game subclass overriding play(self,
    # move), as the public signature allows, was a TypeError.  It calls play(move), and
    # each of its moves is the one a single-threaded replay of the bots' moves makes.
    played: list[Move] = []

    class Logged(Game):
        def play(self, move: Any) -> None:  # type: ignore[override]
            played.append(move)
            super().play(move)

    bot = make_bot("random", seed=4)
    result = play_out(Logged("pineapple", 2, seed=1), [bot, bot])
    ref = Game("pineapple", 2, seed=1)
    for move in played:
        ref.play(move)
    assert ref.is_over and len(played) == ref.decisions
    assert result.net == ref.result().net


def test_repr_of_a_game_another_thread_ends_is_the_game_before_or_after() -> None:
    # repr(game) read is_over, then to_act: the deal's last move landing between the
    # two reads (here played from the first read, as another thread's move would land
    # there) made it "seat None to act", neither the game before nor after the move.
    class Racing(Game):
        pending: Any = None

        @property
        def is_over(self) -> bool:
            over = bool(Game.is_over.fget(self))  # type: ignore[attr-defined]
            if self.pending is not None:
                last, self.pending = self.pending, None
                self.play_action(last)  # the other thread's move, between two reads
            return over

    g = Racing("pineapple", players=2, seed=5)
    last = _to_the_last_decision(g)
    ref = g.copy()
    before = repr(ref)
    ref.play_action(last)
    after = repr(ref)
    assert "seat 0 to act" in before and "over" in after
    g.pending = last
    assert repr(g) in (before, after)


def test_pickling_a_match_copies_its_stats_once(monkeypatch: pytest.MonkeyPatch) -> None:
    # Match.__getstate__ deep-copied the whole match under its lock (to hand pickle a
    # state no booking changes), then pickle or copy.deepcopy copied it again: a
    # pickle of a long match with keep_nets cost 13 times what it had.  The seats'
    # figures are now deep-copied only by a deep copy, once each, and pickling copies
    # none of them; the copies are still the match's (a deal booked on the copy).
    bots = [make_bot("random", seed=1), make_bot("random", seed=2)]
    m = Match("pineapple", players=2, seed=4, keep_nets=True)
    m.play(bots, hands=3)
    copies: list[int] = []

    def counted(self: SeatStats, memo: dict[int, Any]) -> SeatStats:
        copies.append(id(self))
        return SeatStats(**copy.deepcopy(vars(self), memo))

    monkeypatch.setattr(SeatStats, "__deepcopy__", counted, raising=False)
    data = pickle.dumps(m)
    assert copies == []
    twin = copy.deepcopy(m)
    assert len(copies) == 2
    copies.clear()
    other = copy.copy(m)
    assert len(copies) == 2
    for c in (pickle.loads(data), twin, other):
        assert c.to_dict() == m.to_dict() and c == m
        assert [x.net for x in c.stats] == [x.net for x in m.stats]
        c.play(bots, hands=1)
        assert [x.deals for x in m.stats] == [3, 3] and len(m.stats[0].net) == 3


def test_a_match_read_while_another_thread_books_a_deal_is_the_match_before_or_after(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    # Match.record() books a deal field by field (totals, then each seat's figures,
    # stacks, deals, button); to_dict(), pickling and repr() in another thread read
    # the fields meanwhile: a dict whose totals were not its seats' (from_dict refused
    # it).  Booking is held after the first seat's figures: the reads must give the
    # match before or after the deal (the references: the same match booked by one
    # thread).
    bots = [
        make_bot("random", "pineapple", seed=1),
        make_bot("random", "pineapple", seed=2),
    ]
    m = Match("pineapple", players=2, seed=4)
    m.play(bots, hands=2)
    g = m.next_game()
    play_out(g, bots)
    ref = copy.copy(m)
    before = (m.to_dict(), repr(m))
    ref.record(ref.next_game())
    after = (ref.to_dict(), repr(ref))
    inside, go = threading.Event(), threading.Event()
    real_counted = SeatStats._counted  # (a seat's figures after the deal, made aside)

    def held_counted(self: SeatStats, *args: Any) -> dict[str, int]:
        counted = real_counted(self, *args)
        if threading.current_thread().name == "booker":
            inside.set()
            go.wait(10)
        return counted

    monkeypatch.setattr(SeatStats, "_counted", held_counted)
    booker = threading.Thread(target=m.record, args=(g,), name="booker")
    booker.start()
    assert inside.wait(10)
    seen: list[Any] = []

    def read() -> None:
        try:
            seen.append((m.to_dict(), repr(m)))
            seen.append((pickle.loads(pickle.dumps(m)).to_dict(), repr(m)))
        except Exception as exc:  # a torn match may be refused: that is the failure
            seen.append(repr(exc))

    _read_while_held(booker, read, go)
    assert len(seen) == 2
    for got in seen:
        assert got in (before, after)
        Match.from_dict(got[0])  # a whole match: refused nothing
    assert m == ref


def test_advise_on_a_game_another_thread_ends_advises_the_game_before_or_after() -> None:
    # advise(game) read game.to_act, then game.observation(game.to_act): the deal's
    # last move landing between the reads (played here from the first read, on the
    # game given, as another thread's move would land) made it a GameError about a
    # seat None.  It advises on one snapshot: the game before the move, or after it (a
    # SearchError: the deal is over).
    class Racing(Game):
        victim: Any = None
        pending: Any = None

        @property
        def to_act(self) -> int | None:
            seat = Game.to_act.fget(self)  # type: ignore[attr-defined]
            if self.pending is not None:
                last, self.pending = self.pending, None
                self.victim.play_action(last)  # the other thread's move on the game
            return seat  # type: ignore[no-any-return]

    g = Racing("pineapple", players=2, seed=5)
    last = _to_the_last_decision(g)
    want = advise(Game.replay(g.history()))  # the reference: a plain game, before
    g.victim, g.pending = g, last
    try:
        got: Any = advise(g)
    except SearchError as exc:
        got = str(exc)
    assert got in (want, "the deal is over: nothing to advise")
    assert g.is_over  # (the move did land)


@pytest.mark.parametrize("portable", [False, True], ids=["builtins", "portable"])
def test_play_out_runs_a_subclass_play_out_of_the_game_s_lock(
    portable: bool, monkeypatch: pytest.MonkeyPatch
) -> None:
    # play_out held the game's read lock through a subclass's own play(): one that
    # shows the game to another thread and waits for it (a UI thread reading
    # observation()) waited for ever, the reader waiting for the lock.  A subclass's
    # play runs unlocked; each read it waits for sees the game after its move.
    if portable:  # (reads there take the game's lock: the twins let the GIL go)
        for name in ("_act", "_legal_actions", "_observe"):
            monkeypatch.setattr(game_state, name, getattr(_portable, name[1:]))
        monkeypatch.setattr(game_state, "_NATIVE", False)
    seen: list[int] = []

    class Shown(Game):
        def play(self, move: Any, seat: int | None = None) -> None:
            super().play(move, seat)
            if self.is_over:
                return
            got: list[int] = []
            reader = threading.Thread(
                target=lambda: got.append(self.observation(0)["street"])
            )
            reader.start()
            reader.join(30)
            assert got, "the reader waited for the game's lock"
            seen.extend(got)

    bot = make_bot("random", seed=4)
    result = play_out(Shown("pineapple", 2, seed=1), [bot, bot])
    ref_game = Game("pineapple", 2, seed=1)
    ref = play_out(ref_game, [make_bot("random", seed=4)] * 2)
    assert result.net == ref.net and len(seen) == ref_game.decisions - 1


def _toy_method(
    self: Any, a: int, /, b: int, c: int = 3, *more: int, d: int, e: int = 5, **rest: int
) -> Any:
    """Every kind of parameter; returns what it got, whether it ran as a guarded call
    (the count of the calls let in odd) and holding the state lock."""
    return (a, b, c, more, d, e, rest, self._entries % 2 == 1, self._state_lock._is_owned())


def test_a_guarded_method_takes_its_arguments_as_the_method_does() -> None:
    # the guards are made with the method's own parameters (a (*args, **kwargs)
    # wrapper packed them at every move): every kind is passed on as given, a call
    # the method refuses is refused the same way, and the lock is let go after it
    from ofc_fast.game.threads import consistent, one_at_a_time

    checked: list[str] = []
    guard = one_at_a_time(
        "Toy", "using", "one at a time", check=lambda _o, w: checked.append(w)
    )

    class Toy:
        def __init__(self) -> None:
            self._entries = 0
            self._state_lock = threading.RLock()

        moved = guard(_toy_method)
        read = consistent(_toy_method)

    toy = Toy()
    for f, busy in ((toy.moved, True), (toy.read, False)):
        unbound = f.__func__  # type: ignore[attr-defined]
        assert inspect.signature(unbound, follow_wrapped=False) == inspect.signature(
            _toy_method
        )
        assert f(1, 2, d=4) == (1, 2, 3, (), 4, 5, {}, busy, True)
        assert f(1, b=2, d=4, x=9) == (1, 2, 3, (), 4, 5, {"x": 9}, busy, True)
        assert f(1, 2, 7, 8, 9, e=6, d=4) == (1, 2, 7, (8, 9), 4, 6, {}, busy, True)
        for bad in ({"a": 1, "b": 2, "d": 4}, {"b": 2}, {}):
            with pytest.raises(TypeError):
                f(**bad)
        assert toy._entries % 2 == 0 and not toy._state_lock._is_owned()
    assert toy._entries == 6  # three calls let in (a TypeError call: not let in)
    assert checked == ["_toy_method()"] * 3
    toy._entries += 1  # odd: as while another thread is inside a guarded call
    with pytest.raises(GameError, match=r"^Toy\._toy_method\(\) while another"):
        toy.moved(1, 2, d=4)
    assert checked == ["_toy_method()"] * 3  # refused before the check
    assert toy._entries == 7 and not toy._state_lock._is_owned()  # nothing touched


def test_a_move_takes_one_lock() -> None:
    """Regression: ``play_action(choice(legal_actions()))``, the reinforcement-learning
    loop, ran at 0.83x its speed before the per-move guard: the guard took two locks a
    move (a one-mover lock for the refusal, then the state lock the reads wait for), a
    ``with`` block each, ~2,000 instructions each on CPython 3.11.  A move takes the
    state lock alone, once; the refusal reads the count of the moves let in."""
    g = Game("pineapple", players=2, seed=3)
    lock_types = (type(threading.Lock()), type(threading.RLock()))
    held = [n for n in Game.__slots__ if isinstance(getattr(g, n, None), lock_types)]
    assert held == ["_state_lock"]
    # the action chosen before the count starts: under the portable twins
    # (OFC_FAST_PORTABLE=1, PyPy) a read holds the state lock too (lock_free)
    action = g.legal_actions()[0]
    real, entered = g._state_lock, []

    class Counted:
        def __enter__(self) -> bool:
            entered.append(g._entries)
            return real.__enter__()

        def __exit__(self, *exc: object) -> None:
            real.__exit__(*exc)

    g._state_lock = Counted()  # type: ignore[assignment]
    g.play_action(action)
    assert entered == [0] and g._entries == 2 and g.decisions == 1


def test_a_move_that_waited_for_another_thread_s_move_is_refused() -> None:
    """Two moves that start at the same moment: the one that saw the game free and
    then waited for the other (a thread switch between its look at the lock and its
    taking it) is refused, not played on the game the other left (an action id chosen
    for one seat, played for the next).  Here taking the game's lock lets the other
    move in whole first, as such a switch would."""
    g = Game("pineapple", players=2, seed=3)
    first, second = g.legal_actions()[:2]
    real = g._state_lock

    class SwitchAtTake:
        def __enter__(self) -> bool:
            g._state_lock = real  # the other thread's move runs whole here
            g.play_action(first)
            return real.__enter__()

        def __exit__(self, *exc: object) -> None:
            real.__exit__(*exc)

    g._state_lock = SwitchAtTake()  # type: ignore[assignment]
    with pytest.raises(GameError, match="another thread is playing a move on this Game"):
        g.play_action(second)
    ref = Game("pineapple", players=2, seed=3)
    ref.play_action(first)
    assert g.moves == ref.moves and g.decisions == 1 and not real._is_owned()
    assert g._entries == 2  # the other move's whole count; the refused one: none
    g.play_action(g.legal_actions()[0])  # and the game plays on
    assert g.decisions == 2


@pytest.mark.skipif(not hasattr(signal, "setitimer"), reason="run on POSIX (setitimer)")
@pytest.mark.parametrize("call", ["legal_move_count", "play_action"])
def test_a_ctrl_c_inside_a_guarded_call_leaves_the_game_s_locks_free(call: str) -> None:
    """A Ctrl-C (KeyboardInterrupt from a signal handler) can land on any bytecode of a
    guarded call: the guard took the state lock with ``acquire()`` and then entered
    its ``try``, and one landing between the two left the lock held (about one in ten
    interrupted reads), so every other thread's read of that game waited for ever.
    The move guard took its one-mover lock the same way (about one in sixty
    interrupted moves left the game refusing every later move as "while another
    thread is playing").  Here a timer raises KeyboardInterrupt into guarded calls
    until thousands (reads) or hundreds (moves) were cut; after every one the state
    lock must be free and the count of moves let in even (no move counted inside)."""
    from interrupts import CutCalls, ctrl_c_timer, interrupted

    def calls_on(g: Game, rng: random.Random) -> None:
        for _ in range(400):
            # (no `not g.is_over` here: on CPython 3.13 a KeyboardInterrupt
            # raised while `not <property>` is evaluated skips the frame's
            # except and finally blocks, python/cpython#130279)
            if call == "legal_move_count":
                g.legal_move_count()
            elif g.is_over:
                break
            else:
                g.play_action(rng.choice(g.legal_actions()))

    # (each game's calls until one is cut: any read is; a game's moves, one in nine)
    calls = CutCalls(3000 if call == "legal_move_count" else 300, cap=100_000)
    held = busy = 0
    with ctrl_c_timer() as armed:
        for n in calls:
            g = Game("pineapple", players=2, seed=n)
            calls.cuts += interrupted(armed, calls_on, g, random.Random(n))
            held += g._state_lock._is_owned()
            busy += g._entries % 2  # odd: a move still counted as inside
    assert calls.cuts == calls.target, calls  # the timer did land inside the calls
    assert held == 0, f"{held} of {calls.cuts} interrupted calls left the lock held"
    assert busy == 0, f"{busy} of {calls.cuts} interrupted moves left the game busy"


@pytest.mark.skipif(not hasattr(signal, "setitimer"), reason="run on POSIX (setitimer)")
def test_a_ctrl_c_inside_a_move_books_it_whole_or_not_at_all() -> None:
    """Regression: a Ctrl-C (KeyboardInterrupt from a signal handler) is raised as a
    C call returns; one landing as ``play_action``'s or ``play``'s engine call
    returned (or after its append to the moves) left the engine a move ahead of the
    game's moves and decision count (about a third of the moves interrupted): the
    history, the seat checks and copies went wrong from there.  On CPython 3.10,
    which runs a signal handler between almost any two bytecodes, about one
    interrupted move in a hundred still was, until the engine's move and its booking
    became one C call.  Here a timer raises KeyboardInterrupt into moves until 200
    games were cut; after each the game equals a fresh game of its seed replayed
    from its moves, with one decision per move."""
    from interrupts import CutCalls, ctrl_c_timer, interrupted

    games = CutCalls(200, cap=50_000)  # (about one game in 25 is cut)
    with ctrl_c_timer() as armed:
        for n in games:
            g = Game("pineapple", players=2, seed=n)
            rng = random.Random(n)
            for k in range(8):  # (a whole deal: 8 decisions, 4 per seat)
                a = rng.choice(g.legal_actions())
                call, arg = (g.play_action, a) if k % 2 else (g.play, g.action_to_move(a))
                if interrupted(armed, call, arg):
                    games.cuts += 1
                    moves = g.moves
                    assert g._g.step == len(moves) == g.decisions, (n, games)
                    replayed = Game("pineapple", players=2, seed=n)
                    for m in moves:
                        replayed.play(m)
                    assert replayed == g, (n, games)
                    break
    assert games.cuts == games.target, games  # the timer did land inside the moves


def _at_opcode(code: Any, k: int, hook: Any, call: Any, *args: Any) -> tuple[bool, Any]:
    """Run ``call(*args)`` with ``hook()`` run at the ``k``-th opcode (from 0) that
    runs in a frame of ``code``: (whether it ran, the call's value).  The trace is
    removed after (the one there before, e.g. coverage's, put back).  CPython 3.13
    takes ``f_trace_opcodes`` set at the call event only from the next event on: it
    is set at every event."""
    seen = 0

    def local(frame: Any, event: str, arg: Any) -> Any:
        nonlocal seen
        frame.f_trace_opcodes = True
        if event == "opcode":
            seen += 1
            if seen == k + 1:
                hook()
        return local

    def tracer(frame: Any, event: str, arg: Any) -> Any:
        if frame.f_code is not code:
            return None
        frame.f_trace_opcodes = True
        return local

    before = sys.gettrace()
    sys.settrace(tracer)
    try:
        value = call(*args)
    finally:
        sys.settrace(before)
    return seen > k, value


def _ctrl_c_at_opcode(code: Any, k: int, call: Any, *args: Any) -> bool:
    """Run ``call(*args)`` with a KeyboardInterrupt raised at the ``k``-th opcode
    (from 0) that runs in a frame of ``code`` (:func:`_at_opcode`): True when it was
    raised (and caught), False when the call completed before reaching it."""

    def interrupt() -> None:
        raise KeyboardInterrupt

    try:
        _at_opcode(code, k, interrupt, call, *args)
    except KeyboardInterrupt:
        return True
    return False


@pytest.mark.parametrize("method", ["play_action", "play"])
def test_a_ctrl_c_at_any_opcode_of_a_move_books_it_whole_or_not_at_all(method: str) -> None:
    """Regression: a Ctrl-C landing between the engine's move and its booking in
    ``play_action`` / ``play`` left the engine a move ahead of the game's moves (the
    history, the seat checks and copies went wrong from there: 14 of 48 opcodes of
    ``play_action`` and 14 of 94 of ``play``).  Deterministic, on any CPython: a
    trace raises KeyboardInterrupt at opcode k of the move's own function, for every
    k, each on a fresh game two moves in; after each the engine's step is the moves'
    count and the game equals a fresh game of its seed replayed from its moves."""
    code = getattr(Game, method).__wrapped__.__code__
    positions = 0
    for k in range(10_000):
        g = Game("pineapple", players=2, seed=k % 7)
        for _ in range(2):
            g.play_action(g.legal_actions()[0])
        a = g.legal_actions()[-1]
        arg = a if method == "play_action" else g.action_to_move(a)
        if not _ctrl_c_at_opcode(code, k, getattr(g, method), arg):
            assert g._g.step == len(g.moves) == g.decisions == 3, k
            break
        positions += 1
        moves = g.moves
        assert g._g.step == len(moves) == g.decisions, (k, g._g.step, len(moves))
        assert len(moves) in (2, 3), k
        replayed = Game("pineapple", players=2, seed=k % 7)
        for m in moves:
            replayed.play(m)
        assert replayed == g, k
    assert positions > 20, positions  # the trace did land inside the move


@pytest.mark.skipif(
    not ATOMIC_READS,
    reason="reads hold the lock without the builtins under the GIL: run on CPython "
    "with the GIL, OFC_FAST_PORTABLE unset",
)
def test_a_read_takes_no_lock_while_no_move_is_in_progress() -> None:
    """Regression: every read of a Game (``legal_moves()``, ``boards``, ``moves``,
    ``copy()``, ``random_move()``, ``result()``...) took the game's lock, a third of a
    ``legal_moves()`` call for bots and RL loops calling it millions of times.  With
    the lock held by another thread and no move in progress, the reads now answer
    without waiting for it (a read that overlaps a move still waits: the tests above)."""
    g = Game("pineapple", players=2, seed=3)
    g.play_action(g.legal_actions()[0])
    want = {"moves": g.legal_moves(), "boards": g.boards, "copy": g.copy()}
    taken, release = threading.Event(), threading.Event()

    def hold() -> None:
        with g._state_lock:
            taken.set()
            release.wait(10)

    holder = threading.Thread(target=hold)
    holder.start()
    assert taken.wait(10)
    got: dict[str, Any] = {}

    def read() -> None:
        got["moves"], got["boards"], got["copy"] = g.legal_moves(), g.boards, g.copy()
        got["count"], got["str"] = g.legal_move_count(), str(g)
        got["random"] = g.random_move(random.Random(1))

    reader = threading.Thread(target=read)
    reader.start()
    reader.join(5)
    finished = not reader.is_alive()
    release.set()
    holder.join(10)
    reader.join(10)
    assert finished, "a read waited for a lock no move held"
    assert got["moves"] == want["moves"] and got["boards"] == want["boards"]
    assert got["copy"] == want["copy"] and got["random"] in want["moves"]


def _views_of_every_state(seed: int) -> list[dict[str, Any]]:
    """The reads of the deal of ``seed`` (3 seats) at each of its decisions, the
    mover of :func:`_reads_racing_a_mover` playing it single-threaded."""
    ref = Game("pineapple", players=3, seed=seed)
    out = []
    while True:
        out.append(
            {
                "legal_moves": ref.legal_moves(),
                "count": ref.legal_move_count(),
                "boards": ref.boards,
                "moves": ref.moves,
                "str": str(ref),
                "state": ref._state_bytes(),
            }
        )
        if ref.is_over:
            return out
        _mover_step(ref)


def _mover_step(g: Game) -> None:
    """One move of the mover: by action id, or by Move (``play``), in turn."""
    if g.decisions % 2:
        g.play(g.legal_moves()[-1])
    else:
        g.play_action(g.legal_actions()[0])


def _reads_racing_a_mover(seed: int) -> None:
    """One thread plays the deal of ``seed`` while another reads it in a loop: every
    read is the game's at one of its decisions (checked once both are done, so that
    the reader spends its time reading), and no read raises."""
    states = _views_of_every_state(seed)
    g = Game("pineapple", players=3, seed=seed)
    done, reading = threading.Event(), threading.Event()
    seen: list[tuple[str, Any]] = []
    errors: list[str] = []

    def read() -> None:
        rng = random.Random(seed)
        reading.set()
        try:
            while not done.is_set():
                seen.append(("legal_moves", g.legal_moves()))
                seen.append(("count", g.legal_move_count()))
                seen.append(("boards", g.boards))
                seen.append(("moves", g.moves))
                seen.append(("str", str(g)))
                seen.append(("state", g.copy()._state_bytes()))
                try:
                    seen.append(("random_move", g.random_move(rng)))
                except MoveError:  # the deal is over: as a read after the last move
                    seen.append(("over", g.is_over))
        except Exception as exc:  # recorded: a read raises nothing here
            errors.append(repr(exc))

    reader = threading.Thread(target=read)
    reader.start()
    try:
        assert reading.wait(10)
        while not g.is_over:
            _mover_step(g)
    finally:
        done.set()
        reader.join(30)
    assert not reader.is_alive()
    assert errors == []
    for key, value in seen:
        if key == "random_move":
            assert any(value in state["legal_moves"] for state in states), value
        elif key == "over":
            assert value
        else:
            assert any(state[key] == value for state in states), (key, value)
    assert g._state_bytes() == states[-1]["state"]


def test_reads_racing_a_mover_thread_are_each_a_state_the_game_had() -> None:
    """The reads run without the game's lock when no move is in progress (they
    read again, holding it, when one overlapped): a reader thread
    racing a mover thread, threads switching every microsecond, must still see each
    time the game at one of its decisions (legal moves, move count, boards, moves,
    text, copies, random moves), never a state between two, and no error."""
    with _switching_often():
        for seed in range(30):
            _reads_racing_a_mover(seed)


def _guarded(read: Any) -> Any:
    """The code of the method a read's guard wraps (a property's getter's)."""
    return getattr(read, "fget", read).__wrapped__.__code__


_READS: dict[str, Any] = {
    "legal_moves": _guarded(Game.legal_moves),
    "legal_move_count": _guarded(Game.legal_move_count),
    "boards": Game._boards.__code__,  # (the property is a call of it)
    "moves": _guarded(Game.moves),
    "copy": _guarded(Game.copy),
    "random_move": _guarded(Game._decision),
    "__str__": _guarded(Game.__str__),
    "result": _guarded(Game.result),
    "history": _guarded(Game.history),
}
"""Each read (by the name :func:`_read` reads it) and the code whose opcodes a move
lands between."""


def _read(name: str, g: Game) -> Any:
    """The read ``name`` of ``g``, as a value to compare (or the error it raised)."""
    try:
        if name == "random_move":
            return g.random_move(random.Random(5))
        value = getattr(g, name)
        value = value() if callable(value) else value
    except GameError as exc:  # (MoveError too)
        return repr(exc)
    return value._snapshot() if name == "copy" else value  # (its state and moves)


@pytest.mark.skipif(
    not ATOMIC_READS,
    reason="reads hold the lock without the builtins under the GIL: run on CPython "
    "with the GIL, OFC_FAST_PORTABLE unset",
)
@pytest.mark.parametrize("name", sorted(_READS))
@pytest.mark.parametrize("decision", ["mid-deal", "last"])
def test_a_move_at_any_opcode_of_a_read_leaves_it_the_game_before_or_after(
    name: str, decision: str
) -> None:
    """The reads run without the game's lock, and read again holding it when a move
    overlapped: a check that missed an overlap would show a state between two
    decisions (legal moves of one seat's cards for another's rows).  Deterministic:
    a trace plays the next move at opcode k of the read's own function, for every k,
    standing for another thread's move landing there (mid-deal, where a read torn
    between two decisions shows, and at the last decision, so that ``result()`` and
    the over-game errors are read too); each read is the game's before the move or
    after it."""
    code = _READS[name]
    landed = 0
    for k in range(10_000):
        g = Game("pineapple", players=2, seed=9)
        if decision == "last":
            action = _to_the_last_decision(g)
        else:  # (three moves in: the next deal of cards still to come)
            for _ in range(3):
                g.play_action(g.legal_actions()[0])
            action = g.legal_actions()[0]
        ref = g.copy()
        want = [_read(name, ref)]
        ref.play_action(action)
        want.append(_read(name, ref))
        move = functools.partial(g.play_action, action)
        moved, got = _at_opcode(code, k, move, _read, name, g)
        if not moved:
            break
        landed += 1
        assert got in want, (k, got)
        assert g == ref
    assert landed >= 5, landed  # (CPython 3.10: 10 opcodes in history's own body)
