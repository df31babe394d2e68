"""How promptly a search stops: ``advise(should_stop=...)`` within a slow batch of
samples, and the exact search (csrc/src/ofc_exact.c) under a time budget or a stop.
Each stopped search is checked against the advice of the samples it took, asked for
without a hook; a split search against the unsplit one (bit for bit)."""

from __future__ import annotations

import time

import pytest

import ofc_fast as ofc
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
