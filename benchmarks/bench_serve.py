"""Load test of ``ofc-fast serve``: the script starts the server (``python -m ofc_fast
serve`` on a free port of 127.0.0.1) and drives it from clients on the same machine
(asyncio, keep-alive HTTP/1.1 connections).

    python benchmarks/bench_serve.py                   # every measurement (about 2 min)
    python benchmarks/bench_serve.py --only score --score-seconds 5
    python benchmarks/bench_serve.py --compare-frameworks   # plain ASGI vs Starlette

Measurements (the service's targets in brackets):
  score        /v1/score, 16 clients: requests/s, p50, p99, errors  [>= 3,000/s, p99 <= 20 ms]
  analyze      /v1/analyze, Pineapple third street, time_budget 0.2 s, 8 clients:
               p50, p99, errors                                     [p50 <= 0.5 s, p99 <= 1.5 s]
  fantasyland  /v1/fantasyland, 17 cards, one client: p50           [<= 20 ms]
  page         a whole Pineapple deal played through the web app in headless Chromium
               (selenium; skipped without it)                       [< 5 s]
  memory       server RSS before and after --seconds of mixed load [flat]
  loop         /v1/score from one client, alone and while analyses keep the workers busy
"""

from __future__ import annotations

import argparse
import asyncio
import json
import os
import random
import socket
import statistics
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable
from importlib.util import find_spec
from typing import Any

import ofc_fast as ofc
from ofc_fast.cli.options import write_whole
from ofc_fast.errors import OfcError
from ofc_fast.parallel.cli import check_workers
from ofc_fast.timing import ScriptHelp, ScriptParser, at_least, duration, output_path

THIRD = {  # a Pineapple third street: 7 cards placed, 3 dealt, an opponent at 7 too
    "rules": "pineapple",
    "board": "Qh 7c / 9s 9h 4d / As Ks",
    "dealt": "2c 5d Ts",
    "opponents": ["Jc / 8d 8h 3s / 4s 4h 6d"],
    "time_budget": 0.2,
    "seed": 1,
}
SCORE = {
    "rules": "pineapple",
    "boards": [
        "Qh Qd 2c / 9s 9h 9d 5c 5d / As Ks Qs Js Ts",
        "2h 3d 4c / 6s 6h 7d 7c 8d / Ah Ad Kh Kd 8c",
    ],
}
FL17 = {"rules": "pineapple", "cards": "Ad Ah Th Jh 6h Ts 5d 3c Tc 3s 7h Qh 3d 9s Kc Kd 2s"}


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


def start_server(port: int, workers: int | None) -> subprocess.Popen[bytes]:
    """``ofc-fast serve`` on ``port`` (``workers``: None for its default); a server
    that exits before it listens stops the benchmark with its last line of error."""
    return start_listening(
        [
            sys.executable,
            "-m",
            "ofc_fast",
            "serve",
            "--port",
            str(port),
            *([] if workers is None else ["--workers", str(workers)]),
            "--queue",
            "64",
            "--log-level",
            "warning",
        ],
        port,
        "the server",
    )


def start_listening(argv: list[str], port: int, what: str) -> subprocess.Popen[bytes]:
    """``argv`` started and waited for until it listens on ``port``; one that exits
    first stops the benchmark with ``what`` and its last line of error."""
    log = tempfile.TemporaryFile()  # noqa: SIM115 - the process's, open while it runs
    proc = subprocess.Popen(argv, stdout=subprocess.DEVNULL, stderr=log)
    deadline = time.monotonic() + 30
    while time.monotonic() < deadline:
        if proc.poll() is not None:
            log.seek(0)
            lines = log.read().decode(errors="replace").strip().splitlines() or [""]
            raise SystemExit(
                f"{what} did not start (exit status {proc.returncode}): {lines[-1]}"
            )
        try:
            with socket.create_connection(("127.0.0.1", port), timeout=1):
                return proc
        except OSError:
            time.sleep(0.1)
    proc.kill()
    raise SystemExit(f"{what} did not start")


def rss_mib(pid: int) -> float:
    with open(f"/proc/{pid}/status", encoding="ascii") as f:
        for line in f:
            if line.startswith("VmRSS:"):
                return int(line.split()[1]) / 1024
    return float("nan")


def cpu_seconds(pid: int) -> float:
    """User + system CPU seconds of a process so far."""
    with open(f"/proc/{pid}/stat", encoding="ascii") as f:
        fields = f.read().rsplit(")", 1)[1].split()
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


class Client:
    """One keep-alive connection.  Its requests are built once where they repeat
    (``Request``), so that the client's own CPU, which competes with the server's on the
    same cores, stays small (``bench_score`` reports it per request)."""

    def __init__(self, port: int) -> None:
        self.port = port
        self.r: asyncio.StreamReader | None = None
        self.w: asyncio.StreamWriter | None = None

    async def call(self, method: str, path: str, body: Any = None) -> tuple[int, bytes]:
        return await self.send(encode(method, path, body))

    async def send(self, request: bytes) -> tuple[int, bytes]:
        if self.w is None:
            self.r, self.w = await asyncio.open_connection("127.0.0.1", self.port)
        self.w.write(request)
        assert self.r is not None
        head = await self.r.readuntil(b"\r\n\r\n")
        at = head.lower().find(b"\r\ncontent-length:")
        length = int(head[at + 17 : head.index(b"\r\n", at + 2)]) if at >= 0 else 0
        return int(head[9:12]), await self.r.readexactly(length)

    def close(self) -> None:
        if self.w is not None:
            self.w.close()


def encode(method: str, path: str, body: Any = None) -> bytes:
    """An HTTP/1.1 request with a JSON body."""
    data = b"" if body is None else json.dumps(body).encode()
    return (
        f"{method} {path} HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/json"
        f"\r\nContent-Length: {len(data)}\r\n\r\n".encode()
        + data
    )


async def load(
    port: int,
    clients: int,
    seconds: float | None,
    per_client: int | None,
    request: Callable[[int], bytes],
    answers: list[bytes] | None = None,
) -> dict[str, Any]:
    """``clients`` connections sending ``request(i)`` (an encoded request) one after
    the other, for ``seconds`` or ``per_client`` requests each; ``answers`` collects
    the bodies."""
    lat: list[float] = []
    errors = 0
    stop = time.perf_counter() + (seconds or 1e9)

    async def one(k: int) -> None:
        nonlocal errors
        c = Client(port)
        i = 0
        while time.perf_counter() < stop and (per_client is None or i < per_client):
            data = request(k * 1_000_003 + i)
            t = time.perf_counter()
            status, body = await c.send(data)
            lat.append(time.perf_counter() - t)
            errors += status != 200
            if answers is not None:
                answers.append(body)
            i += 1
        c.close()

    t0 = time.perf_counter()
    await asyncio.gather(*(one(k) for k in range(clients)))
    took = time.perf_counter() - t0
    lat.sort()
    return {
        "requests": len(lat),
        "rps": len(lat) / took,
        "p50_ms": 1000 * lat[len(lat) // 2],
        "p99_ms": 1000 * lat[min(len(lat) - 1, int(len(lat) * 0.99))],
        "errors": errors,
    }


def bench_score(port: int, seconds: float, pid: int | None = None) -> dict[str, Any]:
    """16 clients; with the server's ``pid``, the CPU microseconds per request of the
    server and of this client process (both on the same cores)."""
    request = encode("POST", "/v1/score", SCORE)
    server0 = cpu_seconds(pid) if pid else 0.0
    client0 = time.process_time()
    out = asyncio.run(load(port, 16, seconds, None, lambda i: request))
    if pid:
        n = out["requests"]
        out["server_cpu_us"] = 1e6 * (cpu_seconds(pid) - server0) / n
        out["client_cpu_us"] = 1e6 * (time.process_time() - client0) / n
    return out


def bench_analyze(port: int, per_client: int) -> dict[str, Any]:
    """8 clients; also the median samples of the answers' best moves and their
    standard error (what the time budget bought)."""
    answers: list[bytes] = []
    out = asyncio.run(
        load(
            port,
            8,
            None,
            per_client,
            lambda i: encode("POST", "/v1/analyze", {**THIRD, "seed": i}),
            answers,
        )
    )
    parsed = [json.loads(a) for a in answers]
    best = [a["moves"][0] for a in parsed if a.get("moves")]
    if best:
        out["best_samples_p50"] = statistics.median(m["samples"] for m in best)
        out["best_stderr_p50"] = statistics.median(m["stderr"] for m in best)
    return out


def bench_loop(port: int, seconds: float) -> dict[str, Any]:
    """One client's /v1/score requests alone for ``seconds``, then as long again while
    8 clients' analyses (as ``bench_analyze``, 16 each: longer than that) keep the
    workers busy: the event loop answers meanwhile."""
    request = encode("POST", "/v1/score", SCORE)

    async def run() -> dict[str, Any]:
        alone = await load(port, 1, seconds, None, lambda i: request)
        analyses = load(
            port,
            8,
            None,
            16,
            lambda i: encode("POST", "/v1/analyze", {**THIRD, "seed": i}),
        )
        _, busy = await asyncio.gather(
            analyses, load(port, 1, seconds, None, lambda i: request)
        )
        return {"score_alone": alone, "score_during_analyses": busy}

    return asyncio.run(run())


def bench_fantasyland(port: int, n: int) -> dict[str, Any]:
    request = encode("POST", "/v1/fantasyland", FL17)
    return asyncio.run(load(port, 1, None, n, lambda i: request))


def bench_memory(port: int, pid: int, seconds: float) -> dict[str, Any]:
    """Mixed load: scores, analyses, Fantasyland solves and whole games (a new game, its
    moves by the first legal action) from 8 clients."""
    rng = random.Random(1)

    async def run() -> None:
        stop = time.perf_counter() + seconds

        async def one(k: int) -> None:
            c = Client(port)
            while time.perf_counter() < stop:
                pick = rng.random()
                if pick < 0.5:
                    await c.call("POST", "/v1/score", SCORE)
                elif pick < 0.7:
                    await c.call("POST", "/v1/analyze", {**THIRD, "time_budget": 0.05})
                elif pick < 0.8:
                    await c.call("POST", "/v1/fantasyland", FL17)
                else:
                    status, body = await c.call("POST", "/v1/games", {"bots": ["random"]})
                    st = json.loads(body)
                    while status == 200 and not st["is_over"]:
                        act = st["observation"]["legal_actions"][0]
                        status, body = await c.call(
                            "POST", f"/v1/games/{st['id']}/moves", {"action": act}
                        )
                        st = json.loads(body)
            c.close()

        async def sample() -> None:  # the RSS every tenth of the run
            for _ in range(10):
                await asyncio.sleep(seconds / 10)
                curve.append(round(rss_mib(pid), 1))

        await asyncio.gather(sample(), *(one(k) for k in range(8)))

    warm = encode("POST", "/v1/score", SCORE)
    asyncio.run(load(port, 4, 3, None, lambda i: warm))  # warm up
    start = rss_mib(pid)
    curve: list[float] = []
    asyncio.run(run())
    return {
        "seconds": seconds,
        "rss_start_mib": start,
        "rss_end_mib": rss_mib(pid),
        "rss_curve_mib": curve,
    }


# One WebDriver round trip per step: what the page shows next (busy, the showdown, an
# enabled Confirm, or the first card of the hand and the first row with room: back,
# then middle, then front).
_NEXT_STEP = """
const q = (s) => document.querySelector(s);
if (document.body.classList.contains("busy")) return ["busy"];
if (!q('[data-testid="result"]').hidden) return ["over"];
const confirm = q('[data-testid="confirm"]');
if (!confirm.disabled) return ["confirm", confirm];
const row = ["back", "middle", "front"]
  .map((r) => q(`[data-testid="row-${r}"]`))
  .find((el) => el.querySelector(".card.empty"));
return ["place", q('[data-testid="hand-card"]'), row];
"""


def bench_page(port: int, deals: int = 3) -> dict[str, Any]:
    """Seconds of a whole Pineapple heads-up deal played by clicks (after New game):
    for each card, a click on a card of the hand then one on a row (real pointer
    input, one WebDriver command for the pair), then a click on Confirm.
    Also the WebDriver commands a deal took (each a round trip to the browser) and
    the page's own share: its requests to the server (Resource Timing)."""
    tests = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "tests")
    sys.path[:0] = [tests, os.path.join(tests, "support")]  # as tests/conftest.py does
    try:
        from selenium.webdriver.common.action_chains import ActionChains
        from test_arena_html import _driver  # the tests' headless Chromium
    except ImportError:
        return {"skipped": "selenium or pytest is not installed"}
    d = _driver()
    commands = 0
    execute = d.execute

    def counted(*args: Any, **kwargs: Any) -> Any:
        nonlocal commands
        commands += 1
        return execute(*args, **kwargs)

    d.execute = counted
    try:
        d.get(f"http://127.0.0.1:{port}/")
        times, counts, fetch_ms = [], [], []
        for _ in range(deals):
            d.find_element("css selector", '[data-testid="new-game"]').click()
            while d.execute_script(_NEXT_STEP)[0] == "busy":
                time.sleep(0.005)
            d.execute_script("performance.clearResourceTimings()")
            commands = 0
            t0 = time.perf_counter()
            while True:
                step = d.execute_script(_NEXT_STEP)
                if step[0] == "over":
                    break
                if step[0] == "busy":
                    time.sleep(0.005)
                elif step[0] == "confirm":
                    step[1].click()
                else:  # a card of the hand, then a row: two clicks, one command
                    ActionChains(d, duration=0).click(step[1]).click(step[2]).perform()
            times.append(time.perf_counter() - t0)
            counts.append(commands)
            fetch_ms.append(
                d.execute_script(
                    "return performance.getEntriesByType('resource')"
                    ".filter((e) => e.name.includes('/v1/'))"
                    ".reduce((s, e) => s + e.duration, 0)"
                )
            )
        return {
            "deal_seconds": statistics.median(times),
            "deals": len(times),
            "webdriver_commands": statistics.median(counts),
            "requests_ms": statistics.median(fetch_ms),
        }
    finally:
        d.quit()


def compare_frameworks(seconds: float) -> dict[str, Any]:
    """The same JSON endpoint as a plain ASGI app and as a Starlette route, on uvicorn
    (httptools), 16 clients: requests/s and p99 of each; one whose packages are not
    all installed is skipped, naming the first missing (``{"skipped": ...}``)."""
    app_src = {
        "plain": (
            "import json\n"
            "async def app(scope, receive, send):\n"
            "    if scope['type'] != 'http': return\n"
            "    body = b''\n"
            "    while True:\n"
            "        m = await receive(); body += m.get('body', b'')\n"
            "        if not m.get('more_body'): break\n"
            "    out = json.dumps({'n': len(body)}).encode()\n"
            "    await send({'type': 'http.response.start', 'status': 200, 'headers': "
            "[(b'content-type', b'application/json'),\n"
            "        (b'content-length', str(len(out)).encode())]})\n"
            "    await send({'type': 'http.response.body', 'body': out})\n"
        ),
        "starlette": (
            "from starlette.applications import Starlette\n"
            "from starlette.responses import JSONResponse\n"
            "from starlette.routing import Route\n"
            "async def h(request):\n"
            "    return JSONResponse({'n': len(await request.body())})\n"
            "app = Starlette(routes=[Route('/v1/score', h, methods=['POST'])])\n"
        ),
    }
    out: dict[str, Any] = {}
    for name, src in app_src.items():
        needs = ("starlette",) if name == "starlette" else ()
        missing = [m for m in (*needs, "uvicorn", "httptools") if not find_spec(m)]
        if missing:  # a peer not installed: said, not a crash
            out[name] = {
                "skipped": f"{missing[0]} is not installed: pip install {missing[0]}"
            }
            continue
        port = free_port()
        code = src + (
            "import uvicorn\n"
            f"uvicorn.run(app, host='127.0.0.1', port={port}, http='httptools', "
            "log_level='warning', access_log=False)\n"
        )
        proc = start_listening([sys.executable, "-c", code], port, f"the {name} app")
        try:
            out[name] = bench_score(port, seconds)
        finally:
            proc.terminate()
            proc.wait(10)
    return out


SERVER_ONLY = {
    "only": "--only",
    "workers": "--workers",
    "seconds": "--seconds",
    "analyze_requests": "--analyze-requests",
}
"""The options of the measurements of an ``ofc-fast serve`` (by their ``dest``),
which ``--compare-frameworks`` (no such server) refuses rather than ignores."""
_LEFT_OUT = object()  # (the value of an option with a default before the parse)


def main() -> None:
    ap = ScriptParser(formatter_class=ScriptHelp, description=__doc__.split("\n\n")[0])
    ap.add_argument(
        "--only",
        choices=("score", "analyze", "fantasyland", "page", "memory", "loop"),
        action="append",
        help="a measurement to run (repeatable; default: all but loop)",
    )
    ap.add_argument(
        "--seconds", type=duration, default=60, help="seconds of mixed load for memory"
    )
    ap.add_argument(
        "--score-seconds", type=duration, default=10, help="seconds of /v1/score load"
    )
    ap.add_argument(
        "--analyze-requests", type=at_least(1), default=6, help="analyses per client"
    )
    ap.add_argument(
        "--workers",
        type=at_least(1),
        default=None,
        help="the server's worker processes (default: its own)",
    )
    ap.add_argument(
        "--compare-frameworks",
        action="store_true",
        help="only /v1/score's load (--score-seconds) on a plain ASGI app and on "
        "Starlette, no ofc-fast server",
    )
    ap.add_argument(
        "--json", type=output_path, metavar="PATH", help="write the figures as JSON"
    )
    # an option given replaces its _LEFT_OUT (one without a default stays None)
    defaulted = [dest for dest in SERVER_ONLY if ap.get_default(dest) is not None]
    args = ap.parse_args(None, argparse.Namespace(**dict.fromkeys(defaulted, _LEFT_OUT)))
    given = [o for d, o in SERVER_ONLY.items() if getattr(args, d) not in (None, _LEFT_OUT)]
    for dest in defaulted:
        if getattr(args, dest) is _LEFT_OUT:
            setattr(args, dest, ap.get_default(dest))
    if args.compare_frameworks and given:
        ap.error(
            f"argument --compare-frameworks: not allowed with {', '.join(given)} "
            "(it measures no ofc-fast server)"
        )
    try:  # (the server's own cap, refused here before it starts: exit status 2)
        check_workers(args.workers)
    except OfcError as exc:
        ap.error(str(exc))
    result: dict[str, Any] = {
        "version": ofc.__version__,
        "cpus": os.cpu_count(),
        "load_average": os.getloadavg(),
    }
    if args.compare_frameworks:
        result["frameworks"] = compare_frameworks(args.score_seconds)
    else:
        want = set(args.only or ("score", "analyze", "fantasyland", "page", "memory"))
        port = free_port()
        proc = start_server(port, args.workers)
        try:
            if "score" in want:
                result["score"] = bench_score(port, args.score_seconds, proc.pid)
            if "analyze" in want:
                result["analyze"] = bench_analyze(port, args.analyze_requests)
            if "fantasyland" in want:
                result["fantasyland"] = bench_fantasyland(port, 200)
            if "page" in want:
                result["page"] = bench_page(port)
            if "loop" in want:
                result["loop"] = bench_loop(port, 3)
            if "memory" in want:
                result["memory"] = bench_memory(port, proc.pid, args.seconds)
        finally:
            proc.terminate()
            proc.wait(20)
    text = json.dumps(result, indent=1)
    print(text)
    if args.json:
        write_whole("--json", args.json, text + "\n")


if __name__ == "__main__":
    from ofc_fast.cli import run_command  # (an error, a reader gone: one line)

    sys.exit(run_command(main, "bench_serve.py"))
