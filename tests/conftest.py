"""Test-session settings shared by every test module."""

from __future__ import annotations

import os

# Subprocesses the tests start (``python -m ofc_fast ...``, ``cmd:`` bots) must import
# the installed package, not the source tree of the current directory, which has no
# compiled extension unless it was installed in place (Python 3.11+ honours this).
os.environ.setdefault("PYTHONSAFEPATH", "1")
