"""Costs of the hot paths, counted as the Python-level calls they make (a count, unlike
a timing, is the same on a busy machine): a check added to such a path must not bring
per-item work back into it."""

from __future__ import annotations

import copy
import sys
import threading
import tracemalloc
from collections.abc import Callable
from types import FrameType
from typing import Any

import pytest

from ofc_fast import rules
from ofc_fast._native import _fast
from ofc_fast.bots import RandomBot
from ofc_fast.errors import ObservationError
from ofc_fast.game import Game, Match, play_out
from ofc_fast.game.state import finish


def python_calls(fn: Callable[[], Any]) -> list[str]:
    """The Python functions ``fn()`` calls (``fn`` itself left out), by name."""
    names: list[str] = []

    def profile(frame: FrameType, event: str, _arg: Any) -> None:
        if event == "call":
            names.append(frame.f_code.co_name)

    sys.setprofile(profile)
    try:
        fn()
    finally:
        sys.setprofile(None)
    return names[1:]


def test_booking_a_deal_copies_no_seat_statistics() -> None:
    """Regression: ``Match.play`` with ``RandomBot``s ran about 1.6x slower than before
    a deal was booked whole under Ctrl-C (240,000 decisions/s at rest, then 150,000):
    ``Match.record`` made each seat's statistics anew through ``copy.copy`` (copy,
    _reconstruct, __newobj__ and ``add``: 15 us of a 100 us deal).  It now books each
    seat's counts made aside as one dict (``SeatStats._counted``), still at once."""
    m = Match(rules.PINEAPPLE, 3, seed=3, keep_nets=True)
    bots = [RandomBot(seed=s) for s in range(3)]
    m.play(bots, 2)
    g = m.next_game()
    play_out(g, bots)
    g.result()  # (built and kept: record reads it)
    before = [copy.deepcopy(x) for x in m.stats]
    calls = python_calls(lambda: m.record(g))
    assert "copy" not in calls and "add" not in calls, calls
    assert calls.count("_counted") == 3, calls
    assert len(calls) <= 20, calls  # (27 with a copy.copy of each seat)
    for b, a, n in zip(before, m.stats, g.result().net):
        b.add(n, False, 0, False, False, False, False, True)
        assert (a.deals, a.total, a.sum_sq, a.net) == (b.deals, b.total, b.sum_sq, b.net)


def test_the_plain_observation_check_allocates_nothing() -> None:
    """Regression: ``RandomBot.act`` took about 1.4 us a decision, not 0.7 us, once
    every bot checked each observation for NumPy values (``plain_observation``): the
    builtin ``plain()`` it asks first made a list of the dict's values and the two
    key strings ("boards", "face_down_counts") anew at every call.  It now walks the
    dict and reads the keys interned once in the module's state: it allocates
    nothing (measured as the bytes it holds at its peak, not as a time)."""
    speedups = pytest.importorskip(
        "ofc_fast._native._speedups",
        reason="run on CPython with the C builtins (python setup.py build_ext --inplace)",
    )
    plain = speedups.plain  # (the C builtin itself, OFC_FAST_PORTABLE=1 or not)
    obs = Game("pineapple", 3, seed=1).observation(1)
    assert plain(obs) is True  # (the first call may make the module's keys)
    assert plain({**obs, "boards": [[[0]]] * 2, "dealt": (1,)}) is False
    tracemalloc.start()
    try:
        tracemalloc.reset_peak()
        base = tracemalloc.get_traced_memory()[0]
        for _ in range(50):
            assert plain(obs) is True
        peak = tracemalloc.get_traced_memory()[1] - base
    finally:
        tracemalloc.stop()
    assert peak < 100, peak  # (a list of the 21 values alone: about 230 bytes)


def test_random_bot_decision_makes_no_check_calls() -> None:
    """Regression: ``RandomBot.act`` ran about 1.8x slower than before every bot
    checked its observation (commit 356d26e8): two Python calls a decision,
    ``plain_observation`` (NumPy values as plain ones) and ``observed_seat`` (the
    seat in range, one board per player).  Both checks are now one builtin's
    (``plain_seat``) on a plain observation; the functions serve only the others
    (NumPy values, a bad seat), which are still refused as before."""
    obs = Game("pineapple", 3, seed=1).observation(1)
    bot = RandomBot(seed=1)
    bot.act(obs)  # (the first decision of a shape builds its table)
    calls = python_calls(lambda: bot.act(obs))
    assert "plain_observation" not in calls and "observed_seat" not in calls, calls
    if _fast.NATIVE:  # (the portable twin of the check is a Python function)
        assert calls == ["act", "from_action"], calls
    assert bot.act(obs) in Game("pineapple", 3, seed=1).legal_moves()
    for bad, error in (
        ({**obs, "seat": 3}, ObservationError),
        ({**obs, "seat": True}, ObservationError),
        ({**obs, "players": 2}, ObservationError),
        ({**obs, "boards": obs["boards"][:2]}, ObservationError),
    ):
        with pytest.raises(error, match="observation: "):
            bot.act(bad)
    numpy = pytest.importorskip("numpy", reason="pip install numpy")
    assert (
        bot.act({**obs, "seat": numpy.int64(1)})
        in Game("pineapple", 3, seed=1).legal_moves()
    )


class _CountedLock:
    """An RLock that counts the ``with`` blocks taken on it."""

    def __init__(self) -> None:
        self.lock = threading.RLock()
        self.blocks = 0

    def __enter__(self) -> bool:
        self.blocks += 1
        return self.lock.__enter__()

    def __exit__(self, *exc: object) -> None:
        self.lock.__exit__(*exc)


def test_finish_takes_one_lock_block_a_move() -> None:
    """Regression: ``play_out`` (``finish``, what ``Match.play`` runs for each deal)
    took two blocks of the game's lock a move: its own, around its check that no
    other thread moved the game while the bot chose, then the move's.  The check is
    now made in the move's own block (``one_mover.since``), still refusing a move
    landed meanwhile (tests/test_game_threads.py)."""
    g = Game("pineapple", 3, seed=5)
    counted = _CountedLock()
    g._state_lock = counted  # type: ignore[assignment]
    finish(g, [RandomBot(seed=s) for s in range(3)])
    blocks = counted.blocks  # (before the reads below: the twins' take the lock)
    assert g.is_over and len(g.moves) == 15
    # (30 with two blocks; the portable twins read each view under the lock too)
    per_move = 1 if _fast.ATOMIC_READS else 2
    assert blocks == per_move * len(g.moves), blocks
    ref = Game("pineapple", 3, seed=5)
    play_out(ref, [RandomBot(seed=s) for s in range(3)])
    assert ref == g
