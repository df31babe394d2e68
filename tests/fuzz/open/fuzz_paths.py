"""Fuzz the HTTP service's path handling (ofc_fast.serve._target) in process: raw
paths of dots, ``%2E``, ``%2F``, ``%25``, runs of slashes, ``..`` past the root,
Unicode, control bytes and long segments, with and without a root (the ASGI server's
``root_path``, ``ServeConfig.root_path``) and an API key.

Contract (tests/support/serve_paths.py, the same the deterministic test
tests/test_serve_malformed.py checks): no 5xx, no exception out of the app; a
problem's ``type`` is a documented ``<root>/problems/<slug>``; its ``instance``,
resolved against the request's URL by a strict RFC 3986 resolver, is the path routed,
never above the root; a keyed endpoint reached by any spelling needs the key.

Kept out of CI's fuzz step (tests/fuzz/run.sh runs tests/fuzz/fuzz_*.py) while a
finding is open: a path holding a ``%2E`` segment (``/v1/%2E//..``) has no relative
``instance`` that a strict resolver (``%2E`` no dot) and a normalising one (RFC 3986,
6.2.2.2: ``%2E`` is ``.``) both resolve to the path routed.  Run it by hand:
``python tests/fuzz/open/fuzz_paths.py CORPUS_DIR -max_total_time=60``.
"""

from __future__ import annotations

import sys
from pathlib import Path

import atheris

_TESTS = Path(__file__).resolve().parents[2]  # (tests/: beside the harnesses run.sh runs)
sys.path[:0] = [str(_TESTS / "fuzz"), str(_TESTS / "support")]
from _common import main  # noqa: E402

with atheris.instrument_imports():
    from serve_paths import check


def test_one_input(data: bytes) -> None:
    fdp = atheris.FuzzedDataProvider(data)
    check(lambda n: fdp.ConsumeIntInRange(0, n - 1))


if __name__ == "__main__":
    main(test_one_input)
    sys.exit(0)
