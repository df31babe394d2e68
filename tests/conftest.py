"""Test-session settings shared by every test module."""

from __future__ import annotations

import os
import signal
import sys
from pathlib import Path

from hypothesis import settings

# The helpers the tests share (independent references, board generators, the C program
# runner) live in tests/support/ and are imported by their plain names
# (``import reference as ref``), from the test files and from each other.
SUPPORT = str(Path(__file__).resolve().parent / "support")
if SUPPORT not in sys.path:
    sys.path.insert(0, SUPPORT)

# Subprocesses the tests start (``python -m ofc_fast ...``, ``cmd:`` bots) must import
# the installed package, not the source tree of the current directory, which has no
# compiled extension unless it was installed in place (Python 3.11+ honours this).
os.environ.setdefault("PYTHONSAFEPATH", "1")

# The Ctrl-C tests need SIGINT delivered. A test run started in the background of a
# non-interactive shell (`.ci/run &`, a CI runner's script) inherits SIGINT ignored,
# and the commands rightly keep an ignored SIGINT ignored (a test pins that), so their
# interruption tests would time out there: the run takes Python's own handler, which
# the commands and the workers it starts then inherit as SIGINT's default.
if signal.getsignal(signal.SIGINT) is signal.SIG_IGN:
    signal.signal(signal.SIGINT, signal.default_int_handler)

# No per-example deadline for hypothesis: CI runs several suites at once on two cores
# (tools/check_dist.sh), where a 200 ms deadline fails tests that are not slow.
settings.register_profile("shared-machine", deadline=None)
settings.load_profile("shared-machine")
