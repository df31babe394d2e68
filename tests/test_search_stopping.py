"""How promptly a search stops: ``advise(should_stop=...)`` within a slow batch of
samples, and the exact search (csrc/src/ofc_exact.c) under a time budget or a stop.
Each stopped search is checked against the advice of the samples it took, asked for
without a hook; a split search against the unsplit one (bit for bit)."""

from __future__ import annotations

import _thread
import threading
import time
from typing import Any

import numpy as np
import pytest

import ofc_fast as ofc
from ofc_fast.errors import SearchError
from ofc_fast.search import advise, make_observation

P = "pineapple"


def test_should_stop_is_asked_within_a_slow_batch() -> None:
    """Regression: ``should_stop`` was asked only after each batch of 16 samples, and
    at a Pineapple opening under the best policy (232 moves, an exact best completion
    of each per sample) one batch took about 5 s on the development machine, so a
    client gone away (``ofc-fast serve``) or a stop button held the search that long.
    A slow batch is now sampled in C calls of about 0.05 s, the hook asked after
    each: a stop asked for at once ends the search after its first call (one sample),
    and the advice is that of that sample."""
    g = ofc.Game(P, 2, seed=5)
    asked: list[float] = []

    def stop_now() -> bool:
        asked.append(time.perf_counter())
        return True

    stopped = advise(g, samples=256, seed=1, policy="best", should_stop=stop_now)
    counts = {a.samples for a in stopped}
    assert len(asked) == 1 and len(counts) == 1
    taken = counts.pop()
    assert 1 <= taken < 16  # (was 16: the whole first batch before the hook was asked)
    assert stopped == advise(g, samples=taken, seed=1, policy="best")


@pytest.mark.parametrize("prune", [False, True])
def test_a_batch_split_in_any_parts_gives_the_same_advice(
    monkeypatch: pytest.MonkeyPatch, prune: bool
) -> None:
    """Splitting a batch into C calls (one sample each here: the longest call 0 s)
    leaves the advice bit for bit that of whole batches; the hook, asked after each
    call, stops the sampling mid-batch with the advice of the samples taken."""
    from ofc_fast.search import _advise

    obs = make_observation(P, "Qh / 9s 9h / As Ks", "2c 5d Ts", ["7c / 8d 8h / 4s 4d"])
    whole = advise(obs, samples=40, exact=False, seed=3, prune=prune)
    fifth = advise(obs, samples=5, exact=False, seed=3, prune=prune)
    monkeypatch.setattr(_advise, "_POLL", 0.0)
    split = advise(
        obs, samples=40, exact=False, seed=3, prune=prune, should_stop=lambda: False
    )
    assert split == whole
    asked: list[bool] = []

    def fifth_call() -> bool:
        asked.append(True)
        return len(asked) >= 5

    stopped = advise(
        obs, samples=40, exact=False, seed=3, prune=prune, should_stop=fifth_call
    )
    assert len(asked) == 5 and stopped == fifth


# An OFC decision (three seats, the searcher's last two cards to come, the third
# seat's three) whose exact tree has 12,337,920 nodes: about a second of C search.
BIG_EXACT = (
    "ofc",
    "8s 6h / Qc Kc As 2s / Qh 5c 6s Qs Kh",
    "Ac",
    ["4s Ah / 4c Td 5s 7c 9d / 2h 9c 7s 3d", "2c Th Kd / Tc Jh 7h / 2d 6d Ks 9h 8h"],
)


def _big_exact() -> dict[str, Any]:
    return make_observation(*BIG_EXACT)


def test_an_exact_search_stops_when_should_stop_says_so() -> None:
    """Regression: the exact search (one C call) never asked ``should_stop`` (nor
    let Ctrl-C in) till its end: about a second here, ten at EXACT_NODES_MAX, and
    without end under a large time budget.  It now runs in a thread that the hook
    stops within about 0.05 s: ``exact=True`` is then a SearchError naming why,
    ``exact="auto"`` the advice of the samples taken instead (here those of one batch,
    the hook being asked after it)."""
    obs = _big_exact()
    t0 = time.perf_counter()
    with pytest.raises(SearchError, match=r"stopped before its end: should_stop"):
        advise(obs, exact=True, should_stop=lambda: True)
    assert time.perf_counter() - t0 < 0.5  # (the whole search: about a second)
    t0 = time.perf_counter()
    auto = advise(obs, time_budget=60, should_stop=lambda: True)  # (60 s: exact fits)
    assert time.perf_counter() - t0 < 0.5
    assert not auto[0].exact and {a.samples for a in auto} == {16}
    assert auto == advise(obs, samples=16, exact=False)


def test_an_exact_search_stops_at_its_time_budget(monkeypatch: pytest.MonkeyPatch) -> None:
    """An exact search the node estimate admitted under a time budget (here an
    estimate of 10**12 nodes a second: any tree) but slower than it is stopped: with
    ``exact="auto"`` at half the budget, the advice then sampled in the other half,
    with ``exact=True`` at the budget, a SearchError naming the budget and why."""
    from ofc_fast.search import _advise

    obs = _big_exact()
    monkeypatch.setattr(_advise, "_EXACT_NODES_PER_SECOND", 10**12)
    t0 = time.perf_counter()
    auto = advise(obs, time_budget=0.1)
    assert time.perf_counter() - t0 < 0.6 and not auto[0].exact
    assert auto == advise(obs, samples=auto[0].samples, exact=False)
    with pytest.raises(SearchError, match="stopped before its end: the time budget") as e:
        advise(obs, time_budget=0.1, exact=True)
    assert "searched slower" in str(e.value) and "give a larger one" in str(e.value)


BIG_EXACT_NODES = 12_337_920  # (ofc_search_exact_cost of BIG_EXACT's moves)


def test_a_slow_machine_leaves_the_samples_half_the_budget(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """Regression: the budget that admitted an exact search (its node estimate) was
    the one that stopped it, so on a machine slower than the estimate (a busy
    server, CI) the whole budget went on an exact search thrown away, and
    ``exact="auto"`` gave the advice of ONE sample.  Here the machine is made
    10**5 times slower than the estimate (the estimate 10**12 nodes a second): the
    exact search is stopped at half the budget and the samples asked for (64, a
    millisecond here) are all taken in the other half, within the budget."""
    from ofc_fast.search import _advise

    obs = _big_exact()
    monkeypatch.setattr(_advise, "_EXACT_NODES_PER_SECOND", 10**12)
    t0 = time.perf_counter()
    slow = advise(obs, samples=64, seed=1, time_budget=0.2)  # (the search: ~1 s)
    took = time.perf_counter() - t0
    assert not slow[0].exact and {a.samples for a in slow} == {64}  # (was {1})
    assert took < 0.2 + 0.3  # (the exact search stopped at 0.1 s, within 0.05 s)
    assert slow == advise(obs, samples=64, seed=1, exact=False)


def test_auto_exact_under_a_budget_takes_the_tree_of_the_whole_budget(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """``exact="auto"`` under a time budget searches exactly a tree estimated (at a
    conservative speed) to take up to the whole budget, on either clock, as before
    the exact search was stoppable: a rule that admitted only a quarter of it
    sampled for the whole of ``/v1/analyze``'s 2 s a tree searched exactly in 0.37 s,
    and cut SearchBot's largest exact tree at 40 ms from 480,000 nodes to 120,000.
    A tree estimated past the budget is sampled from the start.  An ample budget
    gives the exact values bit for bit those without one."""
    from ofc_fast.search import _advise

    obs = _big_exact()
    unbounded = advise(obs, exact=True)
    assert unbounded[0].exact
    assert advise(obs, time_budget=60) == unbounded  # (an ample budget: 15 s estimated)
    # estimated at 25 s of a 30 s budget: searched exactly, on either clock
    monkeypatch.setattr(_advise, "_EXACT_NODES_PER_SECOND", BIG_EXACT_NODES // 25 + 1)
    for clock in ("wall", "cpu"):
        assert advise(obs, samples=4, seed=2, time_budget=30, clock=clock) == unbounded
    assert advise(obs, exact=True, time_budget=30) == unbounded
    # estimated at 35 s of a 30 s budget: sampled from the start, on either clock
    monkeypatch.setattr(_advise, "_EXACT_NODES_PER_SECOND", BIG_EXACT_NODES // 35 + 1)
    for clock in ("wall", "cpu"):
        sampled = advise(obs, samples=4, seed=2, time_budget=30, clock=clock)
        assert not sampled[0].exact and {a.samples for a in sampled} == {4}
    assert sampled == advise(obs, samples=4, seed=2, exact=False)


def test_exact_true_under_a_budget_tries_the_tree_a_fast_machine_searches_in_it(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """Regression: ``exact=True`` under a time budget refused, before searching, any
    tree estimated at the conservative speed (12 million nodes a second, a third of
    the development machine's) to take longer than the budget, so a ``/v1/analyze``
    client, whose budget is at most the server's cap (2 s), got a 422 for a tree
    searched in a third of it (24 to about 70 million nodes), though the search
    is now stopped at the budget's end where a machine is slower.  Here the
    conservative speed is made a million nodes a second (BIG_EXACT's 12.3 million
    nodes: 12 s, more than the 10 s budget): the tree is searched (about 0.4 s),
    and its values are those without a budget, bit for bit; a budget too short
    for any machine is refused before searching, naming the budget; a search
    admitted past the conservative estimate is stopped at the budget's end."""
    from ofc_fast.search import _advise

    obs = _big_exact()
    unbounded = advise(obs, exact=True)
    monkeypatch.setattr(_advise, "_EXACT_NODES_PER_SECOND", 1_000_000)
    assert advise(obs, exact=True, time_budget=10) == unbounded  # (was SearchError)
    t0 = time.perf_counter()
    with pytest.raises(SearchError, match=r"more than the .* the time budget allows"):
        advise(obs, exact=True, time_budget=0.01)  # (12.3M nodes in 0.01 s: none)
    assert time.perf_counter() - t0 < 0.5  # (refused, not searched)
    # a tree small enough for one C call (here any) but past the conservative
    # estimate of the budget is searched where it can be stopped, and is
    monkeypatch.setattr(_advise, "_EXACT_AT_ONCE", 10**12)
    monkeypatch.setattr(_advise, "_EXACT_NODES_PER_SECOND_FAST", 10**12)
    t0 = time.perf_counter()
    with pytest.raises(SearchError, match="stopped before its end: the time budget"):
        advise(obs, exact=True, time_budget=0.1)  # (the search: about 0.4 s)
    assert time.perf_counter() - t0 < 0.1 + 0.3


class _BusyTime:
    """The time module as a machine busy with other work sees it: the wall clock
    (``perf_counter``) runs 1,000 times faster than this process's CPU time."""

    def __getattr__(self, name: str) -> Any:
        return getattr(time, name)

    @staticmethod
    def perf_counter() -> float:
        return time.perf_counter() * 1000


def test_an_exact_search_under_a_cpu_budget_counts_its_cpu_time(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """Regression: under ``clock="cpu"`` (SearchBot's default: the same search
    whatever else the machine runs) the exact search was stopped at the budget's
    WALL time, so on a busy machine the advice was sampled where an idle one gave
    exact values.  Its time is now its thread's CPU time: with the wall clock 1,000
    times faster than the CPU's (a very busy machine), the exact values are those
    of an idle machine, bit for bit; under ``clock="wall"`` it is stopped."""
    from ofc_fast.search import _advise, _stop

    obs = _big_exact()
    idle = advise(obs, exact=True)
    monkeypatch.setattr(_advise, "time", _BusyTime())
    monkeypatch.setattr(_stop, "time", _BusyTime())  # (the stoppable thread's clocks)
    # 5 s of CPU: BIG_EXACT's 12.3M nodes estimated at 1 s, a fifth of it
    assert advise(obs, time_budget=5, clock="cpu", samples=8) == idle  # (was sampled)
    walled = advise(obs, time_budget=5, samples=8)
    assert not walled[0].exact and {a.samples for a in walled} == {8}


def _searching() -> bool:
    """Whether an exact search's thread still runs (ended: waited for)."""
    return any(t.name == "ofc-exact-search" and t.is_alive() for t in threading.enumerate())


def test_ctrl_c_stops_an_exact_search() -> None:
    """Ctrl-C (KeyboardInterrupt in the main thread, 0.1 s in) reached a caller only
    once the exact C search ended; now it stops the search, waits for its thread and
    is raised within about 0.05 s; an exception of the hook does alike."""
    obs = _big_exact()
    timer = threading.Timer(0.1, _thread.interrupt_main)
    t0 = time.perf_counter()
    timer.start()
    try:
        with pytest.raises(KeyboardInterrupt):
            advise(obs, exact=True)
    finally:
        timer.cancel()
    assert time.perf_counter() - t0 < 0.5
    assert not _searching()

    def broken() -> bool:
        raise ZeroDivisionError

    with pytest.raises(ZeroDivisionError):
        advise(obs, exact=True, should_stop=broken)
    assert not _searching()


def test_a_stoppable_exact_search_gives_the_values_of_one_call(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """The exact values searched in a thread (never stopped) are those of the direct
    C call, bit for bit."""
    from ofc_fast.search import _advise

    obs = _big_exact()
    threaded = advise(obs, exact=True, should_stop=lambda: False)
    monkeypatch.setattr(_advise, "_EXACT_AT_ONCE", 10**12)
    assert threaded == advise(obs, exact=True) and threaded[0].exact


def _stop_at_ask(n: int, position: Any, **settings: Any) -> tuple[list[Any], int]:
    """The advice of ``position`` under ``settings`` with a ``should_stop`` that says
    stop at its ``n``-th ask, and the number of asks."""
    asked = 0

    def hook() -> bool:
        nonlocal asked
        asked += 1
        return asked >= n

    return advise(position, should_stop=hook, **settings), asked


class _CountingLib:
    """The C library, each ``ofc_search_rollouts_stats`` call's number of moves
    (its ``n_actions``) booked in ``moves``."""

    def __init__(self, lib: Any) -> None:
        self.lib, self.moves = lib, []

    def __getattr__(self, name: str) -> Any:
        return getattr(self.lib, name)

    def ofc_search_rollouts_stats(self, *args: Any) -> Any:
        self.moves.append(args[6])
        return self.lib.ofc_search_rollouts_stats(*args)


def test_a_slow_sample_is_split_by_moves_and_stopped_within_it(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """Regression: one sample of the 232 moves of a Pineapple opening under the best
    policy (about 0.3 s: a best completion of each move) was one C call, the smallest
    step at which ``should_stop``, the time budget or Ctrl-C was honoured.  A sample
    slower than 0.05 s is now split across C calls by its moves (no call holds all
    232), the hook asked every 0.05 s within it: a stop asked for within the second
    sample drops the part of it taken, and the advice is that of the first sample
    (which is always taken whole).  So that the second ask falls within the second
    sample on any machine (where a sample took 0.09 s it came in two parts, the ask
    after the second), the parts are of 0.01 s and the hook is asked after each
    (the wall clock that paces the asks runs 1,000 times faster: _BusyTime)."""
    from ofc_fast.search import _advise

    counting = _CountingLib(_advise.lib)
    monkeypatch.setattr(_advise, "lib", counting)
    monkeypatch.setattr(_advise, "_POLL", 0.01)
    monkeypatch.setattr(_advise, "_SAMPLE_AT_ONCE", 0.01)
    monkeypatch.setattr(_advise, "time", _BusyTime())
    g = ofc.Game(P, 2, seed=5)
    stopped, asked = _stop_at_ask(2, g, samples=256, seed=1, policy="best")
    assert asked == 2 and {a.samples for a in stopped} == {1}  # (was 2)
    assert len(stopped) == 232 and 0 < max(counting.moves) < 232
    assert stopped == advise(g, samples=1, seed=1, policy="best")


class _VirtualLib:
    """The C library on a virtual clock (``now``): each ``ofc_search_rollouts_stats``
    call advances it by its moves' costs (``cost(action)`` seconds a sample), its
    duration booked in ``took``."""

    def __init__(self, lib: Any, cost: Any) -> None:
        self.lib, self.cost, self.now, self.took = lib, cost, 0.0, []

    def __getattr__(self, name: str) -> Any:
        return getattr(self.lib, name)

    def ofc_search_rollouts_stats(self, *args: Any) -> Any:
        moves, step = args[5], args[10]
        took = step * sum(self.cost(a) for a in moves)
        self.now += took
        self.took.append(took)
        return self.lib.ofc_search_rollouts_stats(*args)


def test_a_call_is_sized_by_the_whole_sample_not_its_cheap_end(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """Regression: the C calls of a slow sample were sized by the speed of the last
    call alone, so where the last moves of the list are cheap (seen at a Pineapple
    opening under the best policy: a whole 0.23 s sample in one call) the next
    sample went in one call, ``should_stop`` unasked for its whole length.  Here
    (a virtual clock) the last 52 of the 232 moves cost a tenth of the others: no
    call after the first sample is to take more than twice 0.05 s."""
    from ofc_fast.search import _advise

    g = ofc.Game(P, 2, seed=5)
    cheap = set(sorted(g.legal_actions())[180:])  # (of 232)
    virtual = _VirtualLib(_advise.lib, lambda a: 0.0002 if a in cheap else 0.002)
    monkeypatch.setattr(_advise, "lib", virtual)
    monkeypatch.setattr(_advise, "_CLOCKS", {"wall": lambda: virtual.now})
    advice = advise(g, samples=4, seed=1, policy="best", should_stop=lambda: False)
    assert {a.samples for a in advice} == {4}
    first = 0  # the calls of the first sample (taken whole, never asked)
    while sum(virtual.took[: first + 1]) < 0.37 - 1e-9:
        first += 1
    assert max(virtual.took[first + 1 :]) <= 2 * 0.05  # (was 0.37: a whole sample)


@pytest.mark.parametrize("prune", [False, True])
def test_samples_split_into_moves_give_the_same_advice(
    monkeypatch: pytest.MonkeyPatch, prune: bool
) -> None:
    """Splitting every sample across C calls by its moves (one move a call here, 3
    in the first) leaves the advice bit for bit that of whole samples, pruned or
    not, at an opening under the best policy and on a later street; the hook, asked
    after each call from the second sample on, stops the sampling within a sample
    with the advice of the samples completed."""
    from ofc_fast.search import _advise

    obs = make_observation(P, "Qh / 9s 9h / As Ks", "2c 5d Ts", ["7c / 8d 8h / 4s 4d"])
    opening = ofc.Game(P, 2, seed=5)
    whole = advise(obs, samples=40, exact=False, seed=3, prune=prune)
    first = advise(obs, samples=1, exact=False, seed=3, prune=prune)
    whole_opening = advise(opening, samples=2, seed=3, policy="best", prune=prune)
    counting = _CountingLib(_advise.lib)
    monkeypatch.setattr(_advise, "lib", counting)
    monkeypatch.setattr(_advise, "_POLL", 0.0)
    monkeypatch.setattr(_advise, "_SAMPLE_AT_ONCE", 0.0)
    monkeypatch.setattr(_advise, "_PROBE", 3)
    split = advise(
        obs, samples=40, exact=False, seed=3, prune=prune, should_stop=lambda: False
    )
    assert split == whole and set(counting.moves) == {1, 3}
    assert advise(opening, samples=2, seed=3, policy="best", prune=prune) == whole_opening
    stopped, asked = _stop_at_ask(5, obs, samples=40, exact=False, seed=3, prune=prune)
    assert asked == 5 and stopped == first


# A whole Pineapple deal seen at once (17 cards, 4 discarded): the best policy's
# exhaustive completion examines 85,765,680 boards, some 6 s here.
DEAL_17 = "As Ks Qs Js Ts 9h 8h 7h 6h 5h 4c 4d 3c 3d 2c 2d Ad"


def _completing() -> bool:
    """Whether a best completion's thread still runs."""
    return any(
        t.name == "ofc-best-completion" and t.is_alive() for t in threading.enumerate()
    )


def test_a_long_best_completion_stops_when_should_stop_says_so() -> None:
    """Regression: ``best_completion`` of 17 cards (the README's perfect-foresight
    ceiling; seconds of one C call) took no ``should_stop`` and let no Ctrl-C in
    till its end.  It runs in a thread stopped by its stop word
    (``ofc_best_completion_stop``) within about 0.05 s of the hook saying so: a
    SearchError naming why."""
    t0 = time.perf_counter()
    with pytest.raises(SearchError) as caught:
        ofc.best_completion(
            "- / - / -", DEAL_17, P, rounds=[(17, 4)], should_stop=lambda: True
        )
    assert time.perf_counter() - t0 < 1.0  # (the whole search: seconds)
    assert str(caught.value) == (
        "best_completion: stopped before its end: should_stop returned True"
    )
    assert not _completing()


def test_ctrl_c_stops_a_long_best_completion() -> None:
    """Ctrl-C (KeyboardInterrupt in the main thread, 0.1 s in) during a 17-card best
    completion is raised within about 0.05 s, its thread stopped and waited for;
    an exception of the hook does alike."""
    timer = threading.Timer(0.1, _thread.interrupt_main)
    t0 = time.perf_counter()
    timer.start()
    try:
        with pytest.raises(KeyboardInterrupt):
            ofc.best_completion("- / - / -", DEAL_17, P, rounds=[(17, 4)])
    finally:
        timer.cancel()
    assert time.perf_counter() - t0 < 1.0
    assert not _completing()
    with pytest.raises(ZeroDivisionError):  # (the hook's own error)
        ofc.best_completion(
            "- / - / -", DEAL_17, P, rounds=[(17, 4)], should_stop=lambda: 1 / 0 > 0
        )
    assert not _completing()


def test_a_stoppable_best_completion_gives_the_board_of_one_call(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """A completion run in the stoppable thread (here every one: its threshold 0)
    and never stopped gives the board worked out by hand: QQ on the front (7),
    nines full (12), a royal flush (25): 44 points and Fantasyland."""
    from ofc_fast.search import _completion

    monkeypatch.setattr(_completion, "_AT_ONCE", 0)
    model = ofc.search.search_model(P, fl_value=0, row_weight=0)
    c = ofc.best_completion(
        "Qh Qd / 9s 9h 9d 5c / As Ks Qs Js",
        "2c 5d Ts",
        P,
        model=model,
        should_stop=lambda: False,
    )
    assert str(c.board) == "Qh Qd 2c / 9s 9h 9d 5c 5d / As Ks Qs Js Ts"
    assert (c.value, c.foul, c.fantasyland) == (44.0, False, 14)


class _NoTruth:
    """An answer whose truth value raises, as a NumPy array of several items does."""

    def __bool__(self) -> bool:
        raise TypeError("no truth here")

    def __repr__(self) -> str:
        return "_NoTruth()"


@pytest.mark.parametrize(
    ("answer", "said", "kind"),
    [
        (np.array([False, True]), "array([False,  True])", "ValueError"),
        (_NoTruth(), "_NoTruth()", "TypeError"),
    ],
)
def test_a_should_stop_answer_without_a_truth_value_is_a_search_error(
    answer: object, said: str, kind: str
) -> None:
    """A ``should_stop`` that returns a NumPy array (or anything whose ``bool``
    raises) surfaced as that error from deep inside the search (NumPy's ValueError
    in _Batch._stop): it is a SearchError naming the answer, wherever the hook is
    asked (after a batch, within one, in an exact search's and a best completion's
    threads)."""
    want = (
        f"should_stop must return True or False, got {said}, which has no truth "
        f"value ({kind}: bool() raised)"
    )
    game = ofc.Game(P, players=2, seed=5)
    calls = [
        lambda: advise(game, samples=32, seed=1, should_stop=lambda: answer),
        lambda: advise(_big_exact(), exact=True, should_stop=lambda: answer),
        lambda: ofc.best_completion(
            "- / - / -", DEAL_17, P, rounds=[(17, 4)], should_stop=lambda: answer
        ),
    ]
    for call in calls:
        with pytest.raises(SearchError) as caught:
            call()
        assert str(caught.value) == want
    assert not _completing()


def test_an_error_of_a_stoppable_call_is_raised_in_the_caller_s_thread() -> None:
    """A C call run in the stoppable thread that raised (cffi's TypeError for an
    argument it cannot convert) was printed by the thread and surfaced as an
    IndexError of the empty result list: it is raised in the caller's thread, as
    the direct call raises it."""
    from ofc_fast._native import lib
    from ofc_fast.search import _stop

    def bad(word: Any) -> int:
        return int(lib.ofc_best_completion_stop(None, None, None, None, "x", word))

    with pytest.raises(TypeError):
        _stop.stoppable(bad)
    assert not _searching()


@pytest.mark.parametrize("where", ["clock", "start"])
def test_a_ctrl_c_while_the_search_thread_starts_stops_it(
    monkeypatch: pytest.MonkeyPatch, where: str
) -> None:
    """Regression: a Ctrl-C that landed after the search thread had started but before
    the caller's ``try`` (in ``Thread.start``'s wait for the thread, or while the CPU
    clock of the thread was looked up) left the C search running on in the
    background (its stop word never set), burning a core until it ended by itself.
    It is now stopped and waited for as one landing later is."""
    from ofc_fast.search import _stop

    ran: list[bool] = []

    def run(word: Any) -> int:  # a "C call" that reads its stop word, 5 s at most
        ran.append(True)
        end = time.perf_counter() + 5
        while not word[0] and time.perf_counter() < end:
            time.sleep(0.001)
        return 0

    def ctrl_c(*args: object) -> None:
        raise KeyboardInterrupt

    if where == "clock":
        monkeypatch.setattr(_stop, "_thread_clock", ctrl_c)
    else:  # (the new thread is running when start's wait is interrupted)
        start = threading.Thread.start

        def interrupted_start(self: threading.Thread) -> None:
            start(self)
            while not ran:
                time.sleep(0.001)
            raise KeyboardInterrupt

        monkeypatch.setattr(threading.Thread, "start", interrupted_start)
    t0 = time.perf_counter()
    with pytest.raises(KeyboardInterrupt):
        _stop.stoppable(run, seconds=60, cpu=True, name="ofc-exact-search")
    monkeypatch.undo()
    assert ran and not _searching()  # (stopped and waited for)
    assert time.perf_counter() - t0 < 2


def test_a_failed_stoppable_call_is_freed_at_once() -> None:
    """Regression: a stoppable C call that raised was kept alive (with its stop word
    and everything its closure held) by a reference cycle of the exception and the
    list that carried it to the caller's thread, until the garbage collector next
    ran; it is now freed as soon as the caller lets the exception go."""
    import gc
    import weakref

    from ofc_fast.search import _stop

    class Failing:
        def __call__(self, word: Any) -> int:
            raise ValueError("the call failed")

    call = Failing()
    freed = weakref.ref(call)
    gc.disable()
    try:
        try:
            _stop.stoppable(call)
        except ValueError:
            pass
        del call
        assert freed() is None
    finally:
        gc.enable()
