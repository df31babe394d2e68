"""How the arena talks to a bot: an :class:`Endpoint` sends messages and receives
items (a message, a garbage line, an over-long line, a flood, the end of the stream).

* :class:`InProcessEndpoint`: a registered bot behind a :class:`BotClient`, every
  message still encoded and decoded as a line;
* :class:`ProcessEndpoint`: ``cmd:...``, a subprocess on stdin/stdout (its stderr is
  passed through, or discarded), in a process group of its own;
* :class:`TcpEndpoint`: ``tcp:PORT``, the arena listens on 127.0.0.1:PORT and the
  bot connects (``TCP_NODELAY``: no line waits for Nagle's algorithm).

Streams are read by a thread each and written by another (a bot that stops reading
never blocks the arena).  The reader only cuts lines: it never decodes them (the
arena's thread does, one at a time, when it takes them), and it keeps at most
:data:`PENDING_LINES` lines or :data:`PENDING_BYTES` bytes per bot.  Lines past
that bound are dropped and reported once as a ``("flood", None)`` item; a last line
with no newline is taken at the end of the stream (a bot that writes its answer and
exits), and the end of the stream is always queued, whatever ended the reader.
"""

from __future__ import annotations

import hmac
import os
import select
import selectors
import shlex
import signal
import socket
import subprocess
import threading
import time
from collections import deque
from collections.abc import Callable, Iterator, Mapping
from typing import Any

from ..errors import ArenaError, OfcError, quote
from ._protocol import LineSplitter, bot_crashed, decode, encode
from ._reach import kill_marked, marked_env
from ._signals import sigint_deferred
from .client import BotClient

__all__ = [
    "EXIT_GRACE_S",
    "PENDING_BYTES",
    "PENDING_LINES",
    "STOP_POLL_S",
    "Endpoint",
    "InProcessEndpoint",
    "Item",
    "ProcessEndpoint",
    "TcpEndpoint",
    "check_bot_stderr",
]

Item = tuple[str, Any]
"""``("msg", dict)``, ``("garbage", text)``, ``("overlong", None)``, ``("flood",
None)``, ``("eof", None)``, ``("crash", text)``, ``("timeout", None)`` or, for a
``tcp:`` seat no bot joined, ``("nojoin", None or why)``."""

PENDING_LINES = 256
"""Most lines kept per bot that the arena has not taken yet."""
PENDING_BYTES = 4 * 1024 * 1024
"""Most bytes of such lines kept per bot."""
EXIT_GRACE_S = 1.0
"""After a bot's process exits: how long the reader may still read what it wrote;
after ``match-end``: how long the bots have to exit, all together."""
_MAX_CANDIDATES = 8
JOIN_WAIT_S = 10.0
"""How long a connection to a ``tcp:`` seat may take to join after its ``hello``
(a bot's warm-up included) while every place is held, before it is dropped, freeing
its place: at most :data:`_MAX_CANDIDATES` connections wait to join at a time, later
ones wait to be accepted.  With a place free, a connection waits to join until the
seat's connect deadline."""
NO_NEWLINE = "its join had no newline at its end (a message is one line ending in \\n)"
"""Why a ``tcp:`` seat's connection was not seated: the ``nojoin`` item's text."""
STOP_POLL_S = 0.1
"""How often a wait for a bot (its answer, a ``tcp:`` seat's join) looks whether the
match was stopped (:meth:`~ofc_fast.arena._host.Arena.stop`, Ctrl-C), which then
ends it at once, the hand in progress dropped."""
_STOP = object()


def _decoded(kind: str, value: Any) -> Item:
    """A queued raw line as the arena reads it: a message or garbage."""
    if kind != "line":
        return kind, value
    try:
        return "msg", decode(value)
    except OfcError:
        return "garbage", value[:80].decode("utf-8", "replace")


class Endpoint:
    """Base: the bounded buffer of received lines and a closed flag.

    Lines come in from another thread (:meth:`_admit`) and are decoded when the arena
    takes them (:meth:`receive`, :meth:`pending`)."""

    def __init__(self) -> None:
        self.closed = False
        self.dropped = 0  #: lines dropped over the bound
        self._cond = threading.Condition()
        self._items: deque[Item] = deque()
        self._lines = 0
        self._bytes = 0
        self._flooded = False
        self._ended = False

    def send(self, message: dict[str, Any]) -> bool:  # pragma: no cover - abstract
        """Queue a message for the bot; False when the stream is closed."""
        raise NotImplementedError

    def _admit(self, line: bytes | None) -> None:
        """Keep one line from the bot (None: an over-long one) within the bounds."""
        if line is not None and not line.strip():
            return
        size = 0 if line is None else len(line)
        with self._cond:
            if self._ended:
                return
            if self._lines >= PENDING_LINES or self._bytes + size > PENDING_BYTES:
                self.dropped += 1
                if not self._flooded:
                    self._flooded = True
                    self._items.append(("flood", None))
                    self._cond.notify()
                return
            self._lines += 1
            self._bytes += size
            self._items.append(("overlong", None) if line is None else ("line", line))
            self._cond.notify()

    def _end(self, kind: str = "eof", value: Any = None) -> None:
        """The stream ended (queued once, past the bounds)."""
        with self._cond:
            self.closed = True
            if self._ended:
                return
            self._ended = True
            self._items.append((kind, value))
            self._cond.notify()

    def _pop(self) -> Item:
        kind, value = self._items.popleft()
        if kind == "line":
            self._lines -= 1
            self._bytes -= len(value)
        elif kind == "overlong":
            self._lines -= 1
        elif kind == "flood":
            self._flooded = False
        return kind, value

    def receive(self, timeout: float | None) -> Item:
        """The next item, or ``("timeout", None)`` after ``timeout`` seconds."""
        with self._cond:
            wait = None if timeout is None else max(timeout, 0.0)
            if not self._cond.wait_for(lambda: bool(self._items), wait):
                return ("timeout", None)
            item = self._pop()
        return _decoded(*item)

    def pending(self) -> Iterator[Item]:
        """The items already received (without waiting), decoded one at a time."""
        with self._cond:
            count = len(self._items)
        for _ in range(count):
            with self._cond:
                if not self._items:
                    return
                item = self._pop()
            yield _decoded(*item)

    def kill(self) -> None:
        """Stop the bot now."""
        self.closed = True

    def ended_as(self) -> str | None:
        """How the bot ended, where its transport knows (a process's exit status or
        signal), the detail of its disconnect: None here."""
        return None

    def close(self, grace: float = 1.0) -> None:
        """Let the bot exit (after ``match-end``) for up to ``grace`` seconds, then
        kill it."""
        self.kill()


class InProcessEndpoint(Endpoint):
    """A bot object in this process, spoken to through the protocol's lines."""

    def __init__(self, client: BotClient) -> None:
        super().__init__()
        self.client = client

    def send(self, message: dict[str, Any]) -> bool:
        """Hand the message to the bot and queue its replies (a crash ends the
        stream with a ``crash`` item)."""
        if self.closed:
            return False
        try:
            for reply in self.client.feed(decode(encode(message))):
                self._admit(encode(reply).rstrip(b"\n"))
        except BaseException as exc:  # (SystemExit too: the bot's, never the arena's)
            if not bot_crashed(exc):
                raise
            self._end("crash", f"{type(exc).__name__}: {exc}"[:200])
        return True


class _StreamEndpoint(Endpoint):
    """Reader and writer threads over a byte stream."""

    def _start_threads(
        self,
        read: Callable[[int], bytes],
        write: Callable[[bytes], Any],
        splitter: LineSplitter | None = None,
        on_read_end: Callable[[], None] = lambda: None,
        on_write_end: Callable[[], None] = lambda: None,
    ) -> None:
        self._out: deque[Any] = deque()
        self._out_ready = threading.Condition()
        self._reader = threading.Thread(
            target=self._read_loop,
            args=(read, splitter or LineSplitter(), on_read_end),
            daemon=True,
        )
        self._writer = threading.Thread(
            target=self._write_loop, args=(write, on_write_end), daemon=True
        )
        self._reader.start()
        self._writer.start()

    def _read_loop(
        self,
        read: Callable[[int], bytes],
        splitter: LineSplitter,
        on_end: Callable[[], None],
    ) -> None:
        try:
            while True:
                data = read(65536)
                if not data:  # a last line with no newline is read at the end
                    for line in splitter.feed(b"\n"):
                        self._admit(line)
                    break
                for line in splitter.feed(data):
                    self._admit(line)
        except Exception:  # any failure ends the stream, never the arena
            pass
        finally:
            self._stream_end()
            on_end()

    def _stream_end(self) -> None:
        """The reader's end of the stream: a disconnect."""
        self._end()

    def _write_loop(
        self, write: Callable[[bytes], Any], on_end: Callable[[], None]
    ) -> None:
        try:
            while True:
                with self._out_ready:
                    self._out_ready.wait_for(lambda: bool(self._out))
                    data = self._out.popleft()
                if data is _STOP:
                    return
                write(data)
        except Exception:  # a closed stream: the reader reports it
            self.closed = True
        finally:
            on_end()

    def _queue_out(self, data: Any) -> None:
        with self._out_ready:
            self._out.append(data)
            self._out_ready.notify()

    def send(self, message: dict[str, Any]) -> bool:
        """Queue a message for the writer thread; False when the stream is closed or
        was never opened (a tcp seat that no bot took: Ctrl-C during the wait)."""
        if self.closed or not hasattr(self, "_out_ready"):
            return False
        self._queue_out(encode(message))
        return True

    def _stop_writer(self, grace: float) -> None:
        if hasattr(self, "_writer"):
            self._queue_out(_STOP)
            self._writer.join(grace)


def _join_verdict(line: bytes | None, token: str | None) -> str:
    """What one line of a ``tcp:`` connection that has not joined yet is: ``"join"``
    (a join, with the token when one is set), ``"drop"`` (an over-long line, garbage,
    a wrong token) or ``"skip"`` (an empty line, another message: ignored)."""
    if line is None:
        return "drop"
    if not line.strip():
        return "skip"
    try:
        msg = decode(line)
    except OfcError:
        return "drop"
    if msg["t"] != "join":
        return "skip"  # an unknown message is ignored
    if token is not None and not (
        isinstance(msg.get("token"), str)
        and hmac.compare_digest(  # (JSON text may hold a lone surrogate)
            msg["token"].encode("utf-8", "surrogatepass"), token.encode()
        )
    ):
        return "drop"
    return "join"


def _readable(fd: int, timeout: float) -> bool:
    """Whether ``fd`` has something to read (its end too) within ``timeout`` seconds
    (always True where there is no ``poll``: the read then blocks)."""
    if not hasattr(select, "poll"):  # pragma: no cover - Windows
        return True
    poller = select.poll()
    poller.register(fd, select.POLLIN)
    return bool(poller.poll(timeout * 1000))


_PF_EXITING = 0x4
"""Linux's flag of a task in its exit (``/proc/PID/stat``'s ninth field)."""


def _exiting(pid: int) -> bool:
    """Whether process ``pid`` is exiting or has exited, read without reaping it (its
    group is killed by its pid once it has: :meth:`ProcessEndpoint._watch`): a
    zombie, or Linux's flag of a task in its exit; where ``/proc`` cannot say (not
    Linux, the process reaped already), True: it may be."""
    try:
        with open(f"/proc/{pid}/stat", "rb") as f:
            fields = f.read().rsplit(b")", 1)[1].split()  # (after the command's name)
        return fields[0] in (b"Z", b"X") or bool(int(fields[6]) & _PF_EXITING)
    except (OSError, IndexError, ValueError):
        return True


def _close_quietly(stream: Any) -> None:
    try:
        stream.close()
    except OSError:
        pass


_STDERR_WHY = {
    subprocess.PIPE: " (a pipe the arena never reads: a bot that fills it blocks)",
    subprocess.STDOUT: " (a bot's stdout is its answers' stream)",
}


def check_bot_stderr(value: object) -> int | None:
    """Where a ``cmd:`` bot's stderr goes (``Arena(bot_stderr=...)``): None (the
    arena's own stderr), ``subprocess.DEVNULL`` (discarded) or an open file
    descriptor (a log file's ``fileno()``); ArenaError naming ``bot_stderr`` for
    anything else, ``subprocess.PIPE`` and ``subprocess.STDOUT`` too."""
    if value is None:
        return None
    if isinstance(value, int) and not isinstance(value, bool):
        if value == subprocess.DEVNULL:
            return subprocess.DEVNULL
        if value >= 0:
            try:
                os.fstat(value)
            except (OSError, OverflowError):
                raise ArenaError(
                    f"bot_stderr: {quote(value)} is no open file descriptor"
                ) from None
            return int(value)
    why = _STDERR_WHY.get(value, "") if isinstance(value, int) else ""
    raise ArenaError(
        "bot_stderr must be None (passed through), subprocess.DEVNULL (discarded) or "
        f"an open file descriptor, got {quote(value)}{why}"
    )


def _started(
    argv: list[str], command: str, stderr: int | None, env: dict[str, str]
) -> subprocess.Popen[bytes]:
    """The bot's process, on pipes, in a new session, with ``env`` (ArenaError where
    it cannot start)."""
    try:
        return subprocess.Popen(
            argv,
            stdin=subprocess.PIPE,
            stdout=subprocess.PIPE,
            stderr=stderr,
            bufsize=0,
            start_new_session=True,
            env=env,
        )
    except OSError as exc:
        raise ArenaError(f"cannot start {quote(command)}: {exc.strerror or exc}") from None


class ProcessEndpoint(_StreamEndpoint):
    """``cmd:COMMAND``: a subprocess speaking the protocol on stdin/stdout.

    The bot runs in a new session (its own process group).  A thread watches it: when
    it exits, the rest of its group is killed and the stream ends (a disconnect),
    even if a process it forked still holds its stdout.  :meth:`kill` and
    :meth:`close` kill the whole group, and the processes it started that left the
    group, where ``/proc`` shows them (:mod:`._reach`)."""

    def __init__(self, command: str, stderr: int | None = None) -> None:
        super().__init__()
        try:
            argv = shlex.split(command)
        except ValueError as exc:
            raise ArenaError(f"cmd:{quote(command)}: {exc}") from None
        if not argv:
            raise ArenaError("cmd: needs a command")
        self.exited = threading.Event()  #: set once the process is reaped
        self._abandoned = threading.Event()  # the reader stops waiting for the pipe
        self._reap_lock = threading.Lock()
        # a Ctrl-C as the bot starts (the bot, in a session of its own out of the
        # terminal's reach, would run on unowned; one inside Popen, which cannot name
        # the child it made, left it unreaped) comes once the bot is watched
        try:
            with sigint_deferred():
                self._mark, env = marked_env()
                self.proc = _started(argv, command, stderr, env)
                self._watch_proc()
        except BaseException:  # (killed and reaped here: no watcher may be there to)
            if hasattr(self, "proc"):
                self._reap()
            if hasattr(self, "_writer"):  # it ends, closing the bot's stdin (one that
                self._queue_out(_STOP)  # never started: dropped with the endpoint)
            raise

    def _watch_proc(self) -> None:
        """Start the threads that read, write and watch the bot's process."""
        stdin, stdout = self.proc.stdin, self.proc.stdout
        assert stdin is not None and stdout is not None
        fd = stdout.fileno()

        def write(data: bytes) -> None:
            stdin.write(data)
            stdin.flush()

        def read(n: int) -> bytes:
            # the end of the stream once the bot has exited and its grace is over: a
            # process out of its group (a session of its own) may hold the pipe open
            while not _readable(fd, STOP_POLL_S):
                if self._abandoned.is_set():
                    return b""
            return os.read(fd, n)

        # each thread closes its own pipe end when it ends (never under the other)
        self._start_threads(
            read,
            write,
            on_read_end=lambda: _close_quietly(stdout),
            on_write_end=lambda: _close_quietly(stdin),
        )
        self._watcher = threading.Thread(target=self._watch, daemon=True)
        self._watcher.start()

    def _kill_group(self) -> None:
        """Kill the bot's process group, then the processes that left it."""
        try:
            if hasattr(os, "killpg"):
                os.killpg(self.proc.pid, signal.SIGKILL)
            else:  # pragma: no cover - no process groups
                self.proc.kill()
        except (ProcessLookupError, PermissionError):
            pass
        kill_marked(self._mark)

    def _watch(self) -> None:
        """Wait for the process to exit (without reaping it, so that its pid still
        names its group), kill the group, reap, end the stream."""
        if hasattr(os, "waitid"):
            try:
                os.waitid(os.P_PID, self.proc.pid, os.WEXITED | os.WNOWAIT)
            except ChildProcessError:  # pragma: no cover - reaped elsewhere
                pass
        else:  # pragma: no cover - no waitid: reap first (the pid may then be reused)
            self.proc.wait()
        self._reap()
        self._reader.join(EXIT_GRACE_S)  # what the bot wrote before it went is read
        self._abandoned.set()  # (the reader ends within STOP_POLL_S, closing the pipe)
        self._end("eof", self.ended_as())

    def _stream_end(self) -> None:
        """The end of the bot's stdout: a disconnect naming how the bot ended."""
        self._end("eof", self.ended_as())

    def ended_as(self) -> str | None:
        """How the bot's process ended ("exited with status 2", "killed by signal 9
        (SIGKILL)"), once it has, within :data:`EXIT_GRACE_S`, waited for only while
        the process is exiting (:func:`_exiting`: its stdout ends as it exits, just
        before it can be reaped); a bot that closed its stdout and runs on: None, a
        plain disconnect at once (it cost each such bot the whole grace)."""
        gone = self.exited.is_set() or _exiting(self.proc.pid) or self.exited.is_set()
        code = self.proc.returncode if gone and self.exited.wait(EXIT_GRACE_S) else None
        if code is None:
            return None
        if code >= 0:
            return f"exited with status {code}"
        try:
            name = f" ({signal.Signals(-code).name})"
        except ValueError:
            name = ""
        return f"killed by signal {-code}{name}"

    def _reap(self) -> None:
        """Kill what is left of the bot's group and reap the bot, once (the watcher
        once the bot has exited, or a start cut short)."""
        with self._reap_lock:
            if not self.exited.is_set():
                self._kill_group()
                self.proc.wait()
                self.exited.set()

    def kill(self) -> None:
        """Kill the bot's process group at once."""
        self.closed = True
        with self._reap_lock:
            if not self.exited.is_set():
                self._kill_group()
        self.exited.wait(2.0)

    def close(self, grace: float = 1.0) -> None:
        """Close the bot's stdin, let it exit for ``grace`` seconds, then kill its
        group."""
        self._stop_writer(grace)
        self.exited.wait(grace)
        self.kill()


class TcpEndpoint(_StreamEndpoint):
    """``tcp:PORT``: listen on 127.0.0.1:PORT (0 picks a free port, see
    :attr:`port`); :meth:`accept` waits for the bot to connect and join."""

    def __init__(self, port: int) -> None:
        super().__init__()
        if not 0 <= port <= 65535:
            raise ArenaError(f"tcp:{port}: a port is 0..65535")
        self.listener = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
        self.listener.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
        try:
            self.listener.bind(("127.0.0.1", port))
        except OSError as exc:
            self.listener.close()
            raise ArenaError(f"tcp:{port}: cannot listen on 127.0.0.1: {exc}") from None
        self.listener.listen(_MAX_CANDIDATES)
        self.port: int = self.listener.getsockname()[1]
        self.conn: socket.socket | None = None

    def accept(
        self,
        timeout: float,
        hello: Mapping[str, Any] | None = None,
        token: str | None = None,
        stopped: Callable[[], bool] = lambda: False,
    ) -> bool:
        """Wait up to ``timeout`` seconds for a bot that connects and joins (or until
        ``stopped()`` says yes: it is asked every :data:`STOP_POLL_S` seconds).

        Each connection is sent ``hello`` (when given); the first whose first message
        is a ``join`` (carrying ``"token": token`` when a token is set) takes the
        seat, and its join is queued for the arena.  A connection that closes, sends
        garbage, a wrong token or an over-long line before joining, or sends no join
        within :data:`JOIN_WAIT_S` while every place is held, is dropped and the wait
        goes on (a probe, or a silent connection, never takes the seat nor holds a
        place for long; a bot's slow warm-up alone keeps its place).  False when no bot
        joined."""
        hello_line = b"" if hello is None else encode(hello)
        deadline = time.monotonic() + max(timeout, 0.0)
        sel = selectors.DefaultSelector()
        self.listener.setblocking(False)
        sel.register(self.listener, selectors.EVENT_READ)
        candidates: dict[socket.socket, tuple[LineSplitter, float]] = {}
        won: tuple[socket.socket, LineSplitter, list[bytes | None]] | None = None

        def drop(cand: socket.socket) -> None:
            sel.unregister(cand)
            del candidates[cand]
            cand.close()

        try:
            while (
                won is None and (left := deadline - time.monotonic()) > 0 and not stopped()
            ):
                now = time.monotonic()
                if len(candidates) >= _MAX_CANDIDATES:  # (a slow warm-up alone waits)
                    for silent, (_, since) in list(candidates.items()):
                        if now - since >= JOIN_WAIT_S:  # silent too long: free it
                            drop(silent)
                # while every place is held, new connections wait in the backlog
                full = len(candidates) >= _MAX_CANDIDATES
                if full == (self.listener in sel.get_map()):
                    if full:
                        sel.unregister(self.listener)
                    else:
                        sel.register(self.listener, selectors.EVENT_READ)
                wait = left  # (until a place can be freed, when none is free)
                if full:
                    oldest = min(t for _, t in candidates.values())
                    wait = min(left, max(oldest + JOIN_WAIT_S - now, 0.0))
                for key, _ in sel.select(min(wait, STOP_POLL_S)):
                    if key.fileobj is self.listener:
                        conn = self._candidate(hello_line)
                        if conn is not None:
                            candidates[conn] = (LineSplitter(), time.monotonic())
                            sel.register(conn, selectors.EVENT_READ, conn)
                        continue
                    cand: socket.socket = key.data
                    verdict, rest = self._joined(cand, candidates[cand][0], token)
                    if verdict == "wait":
                        continue
                    if verdict == "drop":
                        drop(cand)
                        continue
                    sel.unregister(cand)
                    won = (cand, candidates.pop(cand)[0], rest)
                    break
        finally:
            sel.close()
            cut = any(  # a join that waits for its newline
                _join_verdict(spl.partial(), token) == "join"
                for spl, _ in candidates.values()
            )
            for other in candidates:
                other.close()
            self.listener.close()
        if won is None:
            self._end("nojoin", NO_NEWLINE if cut else None)
            return False
        conn, splitter, lines = won
        conn.setblocking(True)
        self.conn = conn
        for line in lines:
            self._admit(line)
        self._start_threads(conn.recv, conn.sendall, splitter)
        return True

    def _candidate(self, hello: bytes) -> socket.socket | None:
        try:
            conn, _ = self.listener.accept()
        except OSError:
            return None
        try:
            conn.setsockopt(socket.IPPROTO_TCP, socket.TCP_NODELAY, 1)
            conn.setblocking(True)
            conn.settimeout(1.0)
            if hello:
                conn.sendall(hello)
            conn.setblocking(False)
        except OSError:
            conn.close()
            return None
        return conn

    @staticmethod
    def _joined(
        conn: socket.socket, splitter: LineSplitter, token: str | None
    ) -> tuple[str, list[bytes | None]]:
        """Read what a candidate sent: ``("wait", [])`` (no join yet), ``("drop",
        [])``, or ``("join", lines)`` with the lines from its join on."""
        try:
            data = conn.recv(65536)
        except BlockingIOError:
            return "wait", []
        except OSError:
            return "drop", []
        lines = splitter.feed(data or b"\n")  # (at the end: a last line, no newline)
        for i, line in enumerate(lines):
            verdict = _join_verdict(line, token)
            if verdict == "drop":
                return "drop", []
            if verdict == "join":
                return "join", lines[i:]
        return ("wait" if data else "drop"), []

    def kill(self) -> None:
        """Drop the connection and stop listening at once."""
        self.closed = True
        if self.conn is not None:
            try:
                self.conn.shutdown(socket.SHUT_RDWR)
            except OSError:
                pass
            self.conn.close()
        self.listener.close()

    def close(self, grace: float = 1.0) -> None:
        """Send what is queued, then close the connection after at most ``grace`` seconds."""
        if self.conn is not None:
            self._stop_writer(grace)
        self.kill()
