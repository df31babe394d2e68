"""benchmarks/bench_value.py's bots with a model file (``value@PATH``,
``search@PATH``) play that model: the shipped file given by path plays exactly as
the shipped default, another model does not."""

from __future__ import annotations

from pathlib import Path
from types import ModuleType

from scripts import checkout_script
from test_learned import random_nets

from ofc_fast import rules
from ofc_fast.bots import SearchBot, ValueBot
from ofc_fast.learned import MODEL_DIR, model_bytes


def _bench() -> ModuleType:
    return checkout_script("benchmarks/bench_value.py")


def test_model_file_bots() -> None:
    bench = _bench()
    path = str(MODEL_DIR / "pineapple-2p.ofcvm")
    value, search = (
        bench.make(f"value@{path}", 1, 0.04),
        bench.make(f"search@{path}", 1, 0.04),
    )
    assert isinstance(value, ValueBot) and value.model == path
    assert isinstance(search, SearchBot) and search.settings()["model"] == path


def test_a_model_file_against_itself_is_even_and_another_model_is_not(
    tmp_path: Path,
) -> None:
    bench = _bench()
    path = str(MODEL_DIR / "pineapple-2p.ofcvm")
    job = (f"value@{path}", "value", 3, 0, 0.04, "pineapple", 2, 0)
    net = bench.pair(job)["net"]  # A's net in each seat, the same deal
    assert len(net) == 2 and net[0] + net[1] == 0  # the same model: a pair sums to 0
    other = tmp_path / "other.ofcvm"
    other.write_bytes(model_bytes(random_nets(4), rules.PINEAPPLE, 2))
    pairs = [
        sum(bench.pair((f"value@{other}", "value", 3, i, 0.04, "pineapple", 2, 0))["net"])
        for i in range(4)
    ]
    assert any(p != 0 for p in pairs)
