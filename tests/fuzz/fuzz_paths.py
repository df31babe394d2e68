"""Fuzz the HTTP service's path handling (ofc_fast.serve._target) in process: raw
paths of dots, ``%2E``, ``%2F``, ``%25``, runs of slashes, ``..`` past the root,
Unicode, control bytes and long segments, with and without a root (the ASGI server's
``root_path``, ``ServeConfig.root_path``) and an API key.

Contract (tests/support/serve_paths.py, the same the deterministic test
tests/test_serve_malformed.py checks): no 5xx, no exception out of the app; a path not
in its normal form is a 308 to it (under the root, the query kept); a problem's
``type`` is a documented ``<root>/problems/<slug>``; its ``instance``, resolved against
the request's URL by a strict RFC 3986 resolver, is the path routed, never above the
root; a keyed endpoint reached by any spelling needs the key.
"""

from __future__ import annotations

import sys
from pathlib import Path

import atheris

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "support"))
from _common import main

with atheris.instrument_imports():
    from serve_paths import check


def test_one_input(data: bytes) -> None:
    fdp = atheris.FuzzedDataProvider(data)
    check(lambda n: fdp.ConsumeIntInRange(0, n - 1))


if __name__ == "__main__":
    main(test_one_input)
    sys.exit(0)
