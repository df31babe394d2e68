"""Test-session settings shared by every test module."""

from __future__ import annotations

import os

from hypothesis import settings

# Subprocesses the tests start (``python -m ofc_fast ...``, ``cmd:`` bots) must import
# the installed package, not the source tree of the current directory, which has no
# compiled extension unless it was installed in place (Python 3.11+ honours this).
os.environ.setdefault("PYTHONSAFEPATH", "1")

# No per-example deadline for hypothesis: CI runs several suites at once on two cores
# (tools/check_dist.sh), where a 200 ms deadline fails tests that are not slow.
settings.register_profile("shared-machine", deadline=None)
settings.load_profile("shared-machine")
