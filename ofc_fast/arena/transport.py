"""How the arena talks to a bot: an :class:`Endpoint` sends messages and receives
items (a message, a garbage line, an over-long line, the end of the stream).

* :class:`InProcessEndpoint`: a registered bot behind a :class:`BotClient`, every
  message still encoded and decoded as a line;
* :class:`ProcessEndpoint`: ``cmd:...``, a subprocess on stdin/stdout (its stderr is
  passed through, or discarded);
* :class:`TcpEndpoint`: ``tcp:PORT``, the arena listens on 127.0.0.1:PORT and the
  bot connects.

Streams are read by a thread each (lines go to a queue, so deadlines are enforced
with a queue timeout) and written by another (a bot that stops reading never blocks
the arena).
"""

from __future__ import annotations

import os
import queue
import shlex
import socket
import subprocess
import threading
from collections.abc import Callable
from typing import Any

from ..errors import ArenaError, OfcError
from .client import BotClient
from .protocol import LineSplitter, decode, encode

__all__ = ["Endpoint", "InProcessEndpoint", "Item", "ProcessEndpoint", "TcpEndpoint"]

Item = tuple[str, Any]
"""``("msg", dict)``, ``("garbage", text)``, ``("overlong", None)``, ``("eof", None)``,
``("crash", text)`` or ``("timeout", None)``."""

_STOP = object()


class Endpoint:
    """Base: a queue of received items and a closed flag."""

    def __init__(self) -> None:
        self.items: queue.Queue[Item] = queue.Queue()
        self.closed = False

    def send(self, message: dict[str, Any]) -> bool:  # pragma: no cover - abstract
        """Queue a message for the bot; False when the stream is closed."""
        raise NotImplementedError

    def receive(self, timeout: float | None) -> Item:
        """The next item, or ``("timeout", None)`` after ``timeout`` seconds."""
        try:
            return self.items.get(timeout=None if timeout is None else max(timeout, 0.0))
        except queue.Empty:
            return ("timeout", None)

    def pending(self) -> list[Item]:
        """Every item already received (without waiting)."""
        out = []
        while True:
            try:
                out.append(self.items.get_nowait())
            except queue.Empty:
                return out

    def kill(self) -> None:
        """Stop the bot now."""
        self.closed = True

    def close(self, grace: float = 1.0) -> None:
        """Let the bot exit (after ``match-end``) for up to ``grace`` seconds, then
        kill it."""
        self.kill()


def _item_of(line: bytes | None) -> Item | None:
    if line is None:
        return ("overlong", None)
    if not line.strip():
        return None
    try:
        return ("msg", decode(line))
    except OfcError:
        return ("garbage", line[:80].decode("utf-8", "replace"))


class InProcessEndpoint(Endpoint):
    """A bot object in this process, spoken to through the protocol's lines."""

    def __init__(self, client: BotClient) -> None:
        super().__init__()
        self.client = client

    def send(self, message: dict[str, Any]) -> bool:
        """Hand the message to the bot and queue its replies (a crash becomes an item)."""
        if self.closed:
            return False
        try:
            replies = self.client.feed(decode(encode(message)))
            for r in replies:
                item = _item_of(encode(r))
                if item is not None:
                    self.items.put(item)
        except Exception as exc:
            self.items.put(("crash", f"{type(exc).__name__}: {exc}"[:200]))
        return True


class _StreamEndpoint(Endpoint):
    """Reader and writer threads over a byte stream."""

    def _start_threads(
        self, read: Callable[[int], bytes], write: Callable[[bytes], Any]
    ) -> None:
        self._out: queue.Queue[Any] = queue.Queue()
        self._reader = threading.Thread(target=self._read_loop, args=(read,), daemon=True)
        self._writer = threading.Thread(target=self._write_loop, args=(write,), daemon=True)
        self._reader.start()
        self._writer.start()

    def _read_loop(self, read: Callable[[int], bytes]) -> None:
        splitter = LineSplitter()
        try:
            while True:
                data = read(65536)
                if not data:
                    break
                for line in splitter.feed(data):
                    item = _item_of(line)
                    if item is not None:
                        self.items.put(item)
        except OSError:
            pass
        self.closed = True
        self.items.put(("eof", None))

    def _write_loop(self, write: Callable[[bytes], Any]) -> None:
        while True:
            data = self._out.get()
            if data is _STOP:
                return
            try:
                write(data)
            except (OSError, ValueError):
                self.closed = True
                return

    def send(self, message: dict[str, Any]) -> bool:
        if self.closed:
            return False
        self._out.put(encode(message))
        return True


class ProcessEndpoint(_StreamEndpoint):
    """``cmd:COMMAND``: a subprocess speaking the protocol on stdin/stdout."""

    def __init__(self, command: str, stderr: int | None = None) -> None:
        super().__init__()
        try:
            argv = shlex.split(command)
        except ValueError as exc:
            raise ArenaError(f"cmd:{command[:60]}: {exc}") from None
        if not argv:
            raise ArenaError("cmd: needs a command")
        try:
            self.proc = subprocess.Popen(
                argv,
                stdin=subprocess.PIPE,
                stdout=subprocess.PIPE,
                stderr=stderr,
                bufsize=0,
            )
        except OSError as exc:
            raise ArenaError(f"cannot start {command[:60]!r}: {exc}") from None
        assert self.proc.stdin is not None and self.proc.stdout is not None
        fd = self.proc.stdout.fileno()
        stdin = self.proc.stdin

        def write(data: bytes) -> None:
            stdin.write(data)
            stdin.flush()

        self._start_threads(lambda n: os.read(fd, n), write)

    def kill(self) -> None:
        """Kill the bot's process at once."""
        self.closed = True
        if self.proc.poll() is None:
            self.proc.kill()
        self._reap(2.0)

    def close(self, grace: float = 1.0) -> None:
        """Ask the bot's process to stop, then kill it after ``grace`` seconds."""
        self._out.put(_STOP)
        self._writer.join(grace)
        try:
            assert self.proc.stdin is not None
            self.proc.stdin.close()
        except OSError:
            pass
        try:
            self.proc.wait(grace)
        except subprocess.TimeoutExpired:
            pass
        self.kill()

    def _reap(self, seconds: float) -> None:
        try:
            self.proc.wait(seconds)
        except subprocess.TimeoutExpired:  # pragma: no cover - kill is not refused
            pass
        for stream in (self.proc.stdout, self.proc.stdin):
            try:
                if stream is not None:
                    stream.close()
            except OSError:
                pass


class TcpEndpoint(_StreamEndpoint):
    """``tcp:PORT``: listen on 127.0.0.1:PORT (0 picks a free port, see
    :attr:`port`); :meth:`accept` waits for the bot to connect."""

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
        self.listener.listen(1)
        self.port: int = self.listener.getsockname()[1]
        self.conn: socket.socket | None = None

    def accept(self, timeout: float) -> bool:
        """Wait up to ``timeout`` seconds for the bot; False when none came."""
        self.listener.settimeout(timeout)
        try:
            conn, _ = self.listener.accept()
        except OSError:
            self.closed = True
            self.items.put(("eof", None))
            return False
        finally:
            self.listener.close()
        conn.settimeout(None)
        self.conn = conn
        self._start_threads(conn.recv, conn.sendall)
        return True

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
            self._out.put(_STOP)
            self._writer.join(grace)
        self.kill()
