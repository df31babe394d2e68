"""Hostile and broken bots for the arena's hardening tests (standard library only;
they play the document's filler placement, tests/arena_clients/tiny_client.py).

    python hostile_bot.py TRANSPORT MODE [ARG]

TRANSPORT: ``-`` (stdin/stdout) or a port on 127.0.0.1 (``PORT`` or
``PORT:TOKEN``: the token goes into ``join``).  MODE:

* ``good``: plays fair;
* ``nest``: one 60 KB ``[[[...]]]`` line (deeper than Python's recursion limit) before
  its first answer, then plays fair;
* ``nest-exit``: joins, sends the nested line and exits (the issue's reproducer);
* ``noise``: plays fair while a thread floods ~60 KB ``{"t":"noise"}`` lines;
* ``chatter``: at its first act, starts sending ``{"t":"chatter"}`` lines without
  end, and never answers;
* ``double``: sends every answer twice;
* ``echo``: echoes ``seq``, ``hand_no`` and ``seat``, and before each answer repeats
  its previous answer with the previous ``seq``;
* ``misaddressed``: every answer names ``seat: 99, hand_no: -5``;
* ``fork``: at its 4th act forks a grandchild that keeps stdout open (sleeping 600 s,
  its pid written to the file ARG) and exits;
* ``escape``: as ``fork``, but the grandchild starts a session of its own (out of
  the bot's process group, which the arena kills);
* ``linger``: plays fair, forks a grandchild that sleeps (pid to ARG) and, at
  ``match-end``, does not exit;
* ``escape-start``: plays fair, having forked a grandchild in a session of its own
  that sleeps (pid to ARG), and exits at ``match-end``;
* ``keep-start``: as ``escape-start``, but the grandchild runs ``sleep`` without the
  arena's mark (``env -u "$OFC_FAST_ARENA_MARK"``): one meant to outlive the match;
* ``cut-exit``: plays fair, then writes its 4th answer with no newline at its end
  and exits;
* ``row-list``: plays fair, but its 2nd answer names each placement's row as a list
  (``"row": []``), no row name.
"""

import json
import os
import socket
import sys
import threading
import time

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))  # PYTHONSAFEPATH
from tiny_client import Seat

NEST = "[" * 30000 + "]" * 30000


def streams(transport):
    """(read lines, write line) over stdio or a TCP connection."""
    lock = threading.Lock()  # whole lines, also from the noise thread
    if transport == "-":
        out = sys.stdout.buffer

        def write(line, end="\n"):
            with lock:
                out.write((line + end).encode())
                out.flush()

        return sys.stdin, write, None
    port, _, token = transport.partition(":")
    for _ in range(300):  # the arena may not listen yet
        try:
            sock = socket.create_connection(("127.0.0.1", int(port)), timeout=30)
            break
        except OSError:
            time.sleep(0.1)
    else:
        sys.exit("no arena on port " + port)
    sock.settimeout(None)
    reader = sock.makefile("r", encoding="utf-8")

    def send(line, end="\n"):
        with lock:
            sock.sendall((line + end).encode())

    return reader, send, token or None


def fork_sleeper(pid_file, session=False, keep=False):
    pid = os.fork()
    if pid == 0:  # the grandchild: keeps every inherited descriptor open
        if session:
            os.setsid()
        if keep:  # started again without the mark: out of the arena's reach
            env = dict(os.environ)
            del env[env["OFC_FAST_ARENA_MARK"]]
            os.execvpe("sleep", ["sleep", "600"], env)
        time.sleep(600)
        os._exit(0)
    with open(pid_file, "w") as f:
        f.write(str(pid))


def flood(write, line):
    while True:
        write(line)


def main():
    transport, mode = sys.argv[1], sys.argv[2]
    arg = sys.argv[3] if len(sys.argv) > 3 else None
    lines, write, token = streams(transport)
    me, acts, last = Seat(), 0, None
    if mode in ("linger", "escape-start", "keep-start"):
        fork_sleeper(arg, session=mode != "linger", keep=mode == "keep-start")
    for line in lines:
        msg = json.loads(line)
        t = msg.get("t")
        me.see(msg)
        if t == "hello":
            join = {"t": "join"}
            if token:
                join["token"] = token
            write(json.dumps(join))
            if mode == "nest-exit":
                write(NEST)
                return
            if mode == "noise":
                noise = json.dumps({"t": "noise", "pad": "x" * 60000})
                threading.Thread(target=flood, args=(write, noise), daemon=True).start()
        elif t == "act":
            acts += 1
            answer = me.answer(msg)
            if mode == "chatter":
                if acts == 1:
                    chat = json.dumps({"t": "chatter"})
                    threading.Thread(target=flood, args=(write, chat), daemon=True).start()
                continue
            if mode == "nest" and acts == 1:
                write(NEST)
            if mode == "cut-exit" and acts == 4:
                write(json.dumps(answer), end="")
                return
            if mode in ("fork", "escape") and acts == 4:
                fork_sleeper(arg, session=mode == "escape")
                os._exit(3)
            if mode == "row-list" and acts == 2:
                for p in answer["action"]["placements"]:
                    p["row"] = []
            if mode == "misaddressed":
                answer.update(seat=99, hand_no=-5)
            if mode == "echo":
                answer.update(seq=msg["seq"], hand_no=msg["hand_no"], seat=msg["seat"])
                if last is not None:
                    write(json.dumps(last))
                last = answer
            write(json.dumps(answer))
            if mode == "double":
                write(json.dumps(answer))
        elif t == "match-end":
            if mode == "linger":
                time.sleep(600)
            return


if __name__ == "__main__":
    main()
