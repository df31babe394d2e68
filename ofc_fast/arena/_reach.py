"""The processes a ``cmd:`` bot started that left its process group.

A bot runs in a process group of its own, which the arena kills; a process it
started may leave that group (``setsid``, ``setpgid``) and, once the bot has
exited, is no longer its child either (it was reparented).  Each bot is started
with a variable of its own in its environment, ``OFC_FAST_ARENA_BOT_<token>=1``,
that every process it starts inherits; where ``/proc`` lists processes and their
environments (Linux), the arena kills each process of its user whose starting
environment holds it (:func:`kill_marked`); ``OFC_FAST_ARENA_MARK`` names that
variable, so that a process meant to outlive the match is started without it (``env
-u "$OFC_FAST_ARENA_MARK" daemon``).  Out of reach: a process that was
started with an environment of its own (``env -i``), one that runs as another
user, and every such process where there is no ``/proc`` (only the group is
killed there).
"""

from __future__ import annotations

import os
import secrets
import signal

__all__ = ["MARK_NAME", "MARK_PREFIX", "kill_marked", "marked_env"]

MARK_PREFIX = "OFC_FAST_ARENA_BOT_"
"""The start of the name of the variable that marks one bot's processes."""
MARK_NAME = "OFC_FAST_ARENA_MARK"
"""The variable that names a bot's mark (``OFC_FAST_ARENA_BOT_<token>``), so that a
process meant to outlive the match is started without it: ``env -u
"$OFC_FAST_ARENA_MARK" daemon`` (an ssh ControlMaster, a model server)."""
_ROUNDS = 10
"""Most scans of ``/proc`` per kill (a marked process may fork while it is killed)."""


def marked_env() -> tuple[str, dict[str, str]]:
    """A new bot's mark (a random token) and its environment: this process's, with
    the variable naming the mark (the marks of enclosing arenas kept)."""
    token = secrets.token_hex(8)
    return token, {**os.environ, MARK_PREFIX + token: "1", MARK_NAME: MARK_PREFIX + token}


def _is_marked(pid: int, needle: bytes) -> bool:
    try:
        with open(f"/proc/{pid}/environ", "rb") as f:
            return needle in b"\0" + f.read()
    except OSError:  # gone, another user's, no /proc
        return False


def _kill_one(pid: int, needle: bytes) -> bool:
    """SIGKILL process ``pid`` if it is still marked; pinned by a pidfd where there
    is one, so that a pid reused meanwhile is never signalled."""
    if not hasattr(os, "pidfd_open"):  # pragma: no cover - Linux before 5.3
        if not _is_marked(pid, needle):
            return False
        try:
            os.kill(pid, signal.SIGKILL)
        except OSError:
            return False
        return True
    try:
        fd = os.pidfd_open(pid)
    except OSError:
        return False
    try:
        if not _is_marked(pid, needle):
            return False
        signal.pidfd_send_signal(fd, signal.SIGKILL)
        return True
    except OSError:
        return False
    finally:
        os.close(fd)


def kill_marked(token: str) -> int:
    """SIGKILL every process marked with ``token`` (:func:`marked_env`) that
    ``/proc`` shows, this one never; scans again while the last scan found one (at
    most :data:`_ROUNDS` times).  How many were killed (0 where there is no
    ``/proc``)."""
    needle = b"\0" + (MARK_PREFIX + token + "=").encode()
    me, killed = os.getpid(), 0
    for _ in range(_ROUNDS):
        try:
            pids = [int(n) for n in os.listdir("/proc") if n.isdigit()]
        except OSError:
            return killed
        found = sum(
            _kill_one(pid, needle) for pid in pids if pid != me and _is_marked(pid, needle)
        )
        killed += found
        if not found:
            break
    return killed
