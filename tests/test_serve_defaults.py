"""``ofc-fast serve``'s default number of workers: 4 per CPU the process may use
(docs/serve.md, Measured), the same in ``ServeConfig`` and on the command line."""

from __future__ import annotations

import argparse
import json
import os
import socket
import sys
from pathlib import Path

import pytest

from ofc_fast import cli
from ofc_fast.errors import OfcError
from ofc_fast.serve import ServeConfig
from ofc_fast.serve import _config as config_mod
from ofc_fast.serve import cli as serve_cli
from ofc_fast.serve._config import default_workers
from ofc_fast.serve._problems import ApiError
from ofc_fast.serve._routes import analyze
from ofc_fast.serve._schemas import openapi
from ofc_fast.serve.cli import add_commands


def test_default_workers_are_four_per_usable_cpu(monkeypatch: pytest.MonkeyPatch) -> None:
    if hasattr(os, "sched_getaffinity"):
        assert default_workers() == 4 * len(os.sched_getaffinity(0))
        monkeypatch.setattr(os, "sched_getaffinity", lambda pid: {0}, raising=False)
        assert default_workers() == 4  # one CPU allowed, whatever the machine has
    monkeypatch.delattr(os, "sched_getaffinity", raising=False)
    monkeypatch.setattr(os, "cpu_count", lambda: 3)
    assert default_workers() == 12
    monkeypatch.setattr(os, "cpu_count", lambda: None)
    assert default_workers() == config_mod.WORKERS_PER_CPU == 4


def test_config_and_command_line_share_the_default(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    monkeypatch.setattr(os, "sched_getaffinity", lambda pid: {0, 1}, raising=False)
    assert ServeConfig().workers == 8
    parser = argparse.ArgumentParser()
    add_commands(parser.add_subparsers())
    assert parser.parse_args(["serve"]).workers == 8
    assert parser.parse_args(["serve", "--workers", "3"]).workers == 3
    assert ServeConfig(workers=1).check().workers == 1


def test_the_repr_of_a_config_keeps_its_api_key_out() -> None:
    """Regression: ``repr(ServeConfig(api_key=...))`` (what a log line or a traceback
    of a config prints) showed the API key in clear text.  The key is now left out of
    the repr; it still counts in ``==``, and a pickled config keeps it."""
    import pickle

    key = "s3cret-key-never-logged"
    config = ServeConfig(host="0.0.0.0", api_key=key)
    assert key not in repr(config) and key not in str(config)
    assert "host='0.0.0.0'" in repr(config)
    assert config != ServeConfig(host="0.0.0.0", api_key=key + "x")
    assert pickle.loads(pickle.dumps(config)).api_key == key


def test_an_app_refuses_pickling_and_copies_saying_why() -> None:
    """Regression: ``pickle.dumps(app)`` and ``copy.deepcopy(app)`` raised TypeError
    "cannot pickle '_thread.lock' object", which does not say what cannot be copied,
    and ``copy.copy(app)`` made a second app sharing the first one's games.  Each is
    now a TypeError saying that an App serves live games and how to make another."""
    import copy
    import pickle

    from ofc_fast.serve import create_app

    app = create_app(ServeConfig(workers=1))
    for refused in (pickle.dumps, copy.copy, copy.deepcopy):
        with pytest.raises(TypeError, match=r"an App serves live games.*create_app"):
            refused(app)
    assert create_app(app.config).config == app.config


@pytest.mark.parametrize(
    "setting",
    [
        {"max_time_budget": "2"},
        {"max_time_budget": True},
        {"session_ttl": "60"},
        {"session_ttl": True},
        {"retry_after": -1},
        {"retry_after": True},
        {"retry_after": "1"},
        {"retry_after": 1.5},
        {"port": 65536},
        {"port": -1},
    ],
)
def test_a_bad_setting_is_an_ofc_error_naming_it(setting: dict[str, object]) -> None:
    (name,) = setting
    with pytest.raises(OfcError, match=name):
        ServeConfig(workers=1, **setting).check()  # type: ignore[arg-type]


def test_a_port_out_of_range_is_a_one_line_error(
    capsys: pytest.CaptureFixture[str],
) -> None:
    assert cli.main(["serve", "--port", "70000"]) == 2  # refused before any bind
    err = capsys.readouterr().err
    assert "port" in err and "Traceback" not in err, err


@pytest.mark.skipif(sys.platform == "win32", reason="run on POSIX (socket reuse differs)")
def test_a_port_in_use_is_a_one_line_error(capsys: pytest.CaptureFixture[str]) -> None:
    """``ofc-fast serve --port P`` with P in use printed that it served on P, then
    uvicorn's log lines (``[Errno 98] error while attempting to bind``) and exit
    status 3."""
    with socket.socket() as busy:
        busy.bind(("127.0.0.1", 0))
        busy.listen()
        port = busy.getsockname()[1]
        assert cli.main(["serve", "--port", str(port)]) == 2
    out, err = capsys.readouterr()
    assert out == "" and err.count("\n") == 1
    assert err.startswith(
        f"ofc-fast: error: --host 127.0.0.1 --port {port}: cannot listen there: "
    )


@pytest.mark.parametrize(
    ("argv", "option"),
    [
        (["--workers", "0"], "--workers"),
        (["--queue", "-1"], "--queue"),
        (["--max-time-budget", "0"], "--max-time-budget"),
        (["--max-samples", "0"], "--max-samples"),
        (["--max-games", "0"], "--max-games"),
        (["--max-games-per-client", "0"], "--max-games-per-client"),
        (["--allowed-host", "a b"], "--allowed-host"),
        (["--forwarded-allow-ips", "127.0.0.1,proxy"], "--forwarded-allow-ips"),
        (["--forwarded-allow-ips", "10.0.0.1/8"], "--forwarded-allow-ips"),
        (["--root-path", "ofc"], "--root-path"),
        (["--root-path", "/ofc//x"], "--root-path"),
        (["--root-path", "/o?c"], "--root-path"),
    ],
)
def test_a_bad_option_s_error_names_the_option_typed(
    argv: list[str], option: str, capsys: pytest.CaptureFixture[str]
) -> None:
    """``ofc-fast serve --workers 0`` said ``workers must be ...``: the field of
    ``ServeConfig``, not the option the user typed; the Python API still names the
    field."""
    assert cli.main(["serve", *argv]) == 2  # refused before any bind
    err = capsys.readouterr().err
    assert err.startswith(f"ofc-fast: error: {option}: must be "), err
    assert err.count("\n") == 1, err
    with pytest.raises(OfcError, match=r"^workers: must be at least 1, got 0$"):
        ServeConfig(workers=0).check()


def test_max_samples_is_an_option_as_docs_serve_md_says(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """docs/serve.md (and /openapi.json's range of ``samples``) named a server's
    ``--max-samples``, which ``ofc-fast serve`` did not take: "unrecognized
    arguments".  It sets ``ServeConfig.max_samples`` (default 4,096)."""
    seen: list[ServeConfig] = []
    monkeypatch.setattr(serve_cli, "run_server", lambda config, *a: seen.append(config))
    assert cli.main(["serve", "--port", "0", "--max-samples", "64"]) == 0
    assert cli.main(["serve", "--port", "0"]) == 0
    assert [c.max_samples for c in seen] == [64, ServeConfig.max_samples]


@pytest.mark.parametrize("bad", ["", "a b", "ofc.lan/x"])
def test_a_bad_allowed_host_is_named_as_typed(
    bad: str, capsys: pytest.CaptureFixture[str]
) -> None:
    """``ofc-fast serve --allowed-host ''`` said "--allowed-host must be a tuple of host
    names ..., got ('',)": Python's words for the option's values together; the
    refusal now names the one value typed that is no host name."""
    assert cli.main(["serve", "--allowed-host", "ofc.lan", "--allowed-host", bad]) == 2
    err = capsys.readouterr().err
    assert err == (
        "ofc-fast: error: --allowed-host: must be a host name (letters, digits, '.', "
        f"'-', ':'), got {bad!r}\n"
    )


def test_the_banner_of_an_ipv6_address_is_a_url(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    """``ofc-fast serve --host ::1`` printed ``http://::1:8000/``, which no browser or
    curl reads as the address: an IPv6 host goes in brackets (RFC 3986, 3.2.2)."""
    if not socket.has_ipv6:
        pytest.skip("run on a machine with IPv6")
    with socket.socket(socket.AF_INET6) as free:
        try:
            free.bind(("::1", 0))
        except OSError:
            pytest.skip("run on a machine where ::1 is a local address")
        port = free.getsockname()[1]
    served: list[object] = []
    monkeypatch.setattr(serve_cli, "run_server", lambda c, *_: served.append(c))
    assert cli.main(["serve", "--host", "::1", "--port", str(port)]) == 0
    assert len(served) == 1
    err = capsys.readouterr().err
    assert err.startswith(f"ofc-fast serve: http://[::1]:{port}/ "), err


def test_the_addresses_that_need_a_key_are_the_documented_ones() -> None:
    """docs/serve.md ("Safe by default"): the loopback addresses need no key, any
    other does, and a key shorter than 8 characters is refused; the page and the
    refusal name each loopback address (the page said only 127.0.0.1)."""
    loopback = ("127.0.0.1", "::1", "localhost")
    for host in loopback:
        assert ServeConfig(host=host, workers=1).check().host == host
    with pytest.raises(OfcError) as info:
        ServeConfig(host="0.0.0.0", workers=1).check()
    assert all(h in str(info.value) for h in loopback), info.value
    with pytest.raises(OfcError, match="8 characters"):
        ServeConfig(host="0.0.0.0", workers=1, api_key="k" * 7).check()
    assert ServeConfig(host="0.0.0.0", workers=1, api_key="k" * 8).check().api_key
    page = Path(__file__).resolve().parents[1] / "docs" / "serve.md"
    if not page.exists():
        pytest.skip("needs a source checkout (git clone: docs/)")
    safe = page.read_text(encoding="utf-8").split("## Safe by default")[1].split("\n* ")[1]
    assert all(f"`{h}`" in safe for h in loopback), safe
    assert "8 characters" in safe, safe


@pytest.mark.parametrize("budget", [0, 0.0, -1, 600.5])
def test_the_time_budget_refusal_states_the_range_it_checks(budget: float) -> None:
    """``--max-time-budget 0`` said "must be seconds within 0..600, got 0.0": 0 is
    refused, so the message (and docs/serve.md) give the range the check uses."""
    with pytest.raises(OfcError) as info:
        ServeConfig(workers=1, max_time_budget=budget).check()
    assert "> 0 and <= 600" in str(info.value) and "within 0..600" not in str(info.value)
    assert ServeConfig(workers=1, max_time_budget=600).check().max_time_budget == 600


def test_a_max_time_budget_under_a_millisecond_takes_its_own_cap() -> None:
    """``--max-time-budget 0.0005`` was accepted ("more than 0"), but every analysis that
    gave a ``time_budget`` was refused, the cap itself too ("must be within
    0.001..0.0005"): the web page's advice and analyses, which ask for at most the cap
    (``/v1/health``'s ``max_time_budget``), all failed, and /openapi.json stated a
    minimum above the maximum."""
    cap = 0.0005
    config = ServeConfig(workers=1, max_time_budget=cap).check()
    body = json.loads('{"board": "Qh / 9s 9h / As Ks", "dealt": "2c 5d Ts", "seed": 1}')
    body["time_budget"] = json.loads(json.dumps(cap))  # as the page sends it
    assert analyze(body, config)["time_budget"] == cap
    schema = openapi("0", config)["components"]["schemas"]["AnalyzeRequest"]
    budget = schema["properties"]["time_budget"]
    assert 0 < budget["minimum"] <= cap == budget["maximum"]
    with pytest.raises(ApiError) as err:
        analyze({**body, "time_budget": 0.0006}, config)
    assert (err.value.status, err.value.field) == (422, "time_budget")


def test_workers_and_queue_are_capped_as_every_command_s_workers(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    """``ofc-fast serve --workers 1000000`` (or ``--queue 1000000``) started: as many
    threads, and uvicorn's connection limit, 4 x (workers + queue), lifted with them.
    ``--workers`` is at most 4 per CPU, as every command's (``ofc-fast play
    --workers``), and ``--queue`` at most 1,024, both named as typed."""
    monkeypatch.setattr(os, "sched_getaffinity", lambda pid: {0, 1}, raising=False)
    monkeypatch.setattr(os, "cpu_count", lambda: 2)
    monkeypatch.setattr(serve_cli, "run_server", lambda config, *a: None)  # (were run)
    for argv, option in (
        (["--workers", "1000000"], "--workers"),
        (["--workers", "9"], "--workers"),
        (["--queue", "1000000"], "--queue"),
        (["--queue", "1025"], "--queue"),
    ):
        assert cli.main(["serve", "--port", "0", *argv]) == 2, argv  # before any bind
        err = capsys.readouterr().err
        assert err.startswith(f"ofc-fast: error: {option}: must be "), err
        assert "at most" in err and err.count("\n") == 1, err
    with pytest.raises(OfcError, match=r"^workers: must be at most 8, got 9 \(4 per CPU"):
        ServeConfig(workers=9).check()
    with pytest.raises(OfcError, match=r"^queue: must be at most 1024, got 1025$"):
        ServeConfig(workers=1, queue=1025).check()
    assert ServeConfig(workers=8, queue=1024).check().workers == 8


def test_a_short_key_is_refused_naming_where_it_came_from(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    """A key shorter than 8 characters said only "the API key: use a key of at least
    8 characters", whether it came from --api-key, --api-key-file or OFC_FAST_API_KEY
    (docs/cli.md: an error names the option at fault): each names its source; the
    Python API's refusal names the field, ``api_key``."""
    key = tmp_path / "key"
    key.write_text("short\n", encoding="utf-8")
    monkeypatch.delenv("OFC_FAST_API_KEY", raising=False)
    cases = (
        (["--api-key", "short"], {}, "--api-key: "),
        (["--api-key-file", str(key)], {}, f"--api-key-file: {str(key)!r}: "),
        ([], {"OFC_FAST_API_KEY": "short"}, "OFC_FAST_API_KEY: "),
    )
    for argv, environ, named in cases:
        for name, value in environ.items():
            monkeypatch.setenv(name, value)
        assert cli.main(["serve", "--host", "0.0.0.0", "--port", "0", *argv]) == 2
        err = capsys.readouterr().err
        assert err.startswith(f"ofc-fast: error: {named}"), err
        assert "at least 8 characters" in err and err.count("\n") == 1, err
    with pytest.raises(OfcError, match=r"^api_key: use a key of at least 8 characters"):
        ServeConfig(host="0.0.0.0", workers=1, api_key="k" * 7).check()


def test_a_key_file_saved_with_a_byte_order_mark_gives_the_key(tmp_path: Path) -> None:
    """A key file saved with a UTF-8 byte-order mark (Windows Notepad) gave a key
    starting with U+FEFF, which no client sends: every request was refused 401."""
    path = tmp_path / "key"
    path.write_bytes(b"\xef\xbb\xbf" + b"a-key-of-sixteen-chars\r\n")
    assert config_mod.api_key(None, str(path), {}) == "a-key-of-sixteen-chars"


def test_a_key_no_client_can_send_is_refused_naming_where_it_came_from(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    """A key with a space at either end (``--api-key "k... "``, a padded
    OFC_FAST_API_KEY) or a control character started a server that answered every
    request 401, the key sent exactly as given too: a header's value reaches the
    server without the spaces around it, and one holding a control character is no
    HTTP.  Such a key is refused before the server starts, naming where it came
    from."""
    from serve_helpers import Server

    good = "a-key-of-16-char"
    with Server(ServeConfig(workers=1, api_key=good)) as s:  # the premise
        sent = {"Authorization": f"Bearer {good} \t"}
        assert (
            s.request("POST", "/v1/evaluate", {"hands": ["As Ks Qs"]}, headers=sent)[0]
            == 200
        )
    monkeypatch.delenv("OFC_FAST_API_KEY", raising=False)

    def started(*args: object) -> None:
        raise AssertionError(f"the server started with {args}")

    monkeypatch.setattr(serve_cli, "bind_address", started)
    for key in (good + " ", " " + good, "\t" + good, good[:8] + "\x01" + good[8:]):
        for argv, environ, named in (
            (["--api-key", key], {}, "--api-key: "),
            ([], {"OFC_FAST_API_KEY": key}, "OFC_FAST_API_KEY: "),
        ):
            for name, value in environ.items():
                monkeypatch.setenv(name, value)
            assert cli.main(["serve", "--host", "0.0.0.0", "--port", "0", *argv]) == 2
            err = capsys.readouterr().err
            assert err.startswith(f"ofc-fast: error: {named}"), (key, err)
            assert "no client can send it" in err and err.count("\n") == 1, err
            monkeypatch.delenv("OFC_FAST_API_KEY", raising=False)
        with pytest.raises(OfcError, match=r"^api_key: use a key with no space"):
            ServeConfig(host="0.0.0.0", workers=1, api_key=key).check()
    assert ServeConfig(workers=1, api_key="a key, spaced").check().api_key  # inside: sent


@pytest.mark.parametrize("bad", ["/ofc/..", "/.", "/a/../b", "/a/./b", "/ofc\x01", "/o#c"])
def test_a_root_path_with_a_dot_segment_is_refused_as_typed(
    bad: str, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    """``ofc-fast serve --root-path /ofc/..`` served: a problem's ``type`` named
    ``/ofc/../problems/not-found``, which a client resolves to the host's
    ``/problems/not-found``, outside the path the proxy serves.  A dot segment (as
    a control character, a ``#``) is refused in the CLI's one-line form, the option
    named as typed; ``ServeConfig.check`` names the field."""
    served: list[ServeConfig] = []
    monkeypatch.setattr(serve_cli, "run_server", lambda config, *a: served.append(config))
    assert cli.main(["serve", "--port", "0", "--root-path", bad]) == 2, served
    err = capsys.readouterr().err
    assert err.startswith("ofc-fast: error: --root-path: must be a path"), err
    assert err.count("\n") == 1 and repr(bad) in err, err
    with pytest.raises(OfcError, match=r"^root_path must be a path"):
        ServeConfig(root_path=bad).check()
    for fine in ("/ofc", "/.ofc", "/a/..b/c.d"):  # a dot inside a segment is fine
        ServeConfig(root_path=fine).check()


@pytest.mark.parametrize("budget", [None, 0.05])
def test_a_stopped_exact_analysis_advises_what_a_client_can_do(
    monkeypatch: pytest.MonkeyPatch, budget: float | None
) -> None:
    """Regression: an ``"exact": true`` analysis stopped at its time budget told the
    client to "give a larger one, or none to search to the end" (advise's words for a
    Python caller); over HTTP a larger one than ``--max-time-budget`` is a 422 and
    none means the cap.  The detail now names the server's cap, and a larger
    ``time_budget`` only below it."""
    from ofc_fast.search import _advise

    monkeypatch.setattr(_advise, "_EXACT_NODES_PER_SECOND_FAST", 10**12)  # admitted
    config = ServeConfig(workers=1, max_time_budget=0.1).check()
    body: dict[str, object] = {
        "rules": "ofc",
        "board": "8s 6h / Qc Kc As 2s / Qh 5c 6s Qs Kh",
        "dealt": "Ac",
        "opponents": [
            "4s Ah / 4c Td 5s 7c 9d / 2h 9c 7s 3d",
            "2c Th Kd / Tc Jh 7h / 2d 6d Ks 9h 8h",
        ],
        "exact": True,
        **({} if budget is None else {"time_budget": budget}),
    }
    with pytest.raises(ApiError) as err:
        analyze(body, config)
    detail = err.value.body("/v1/analyze")["detail"]
    assert (err.value.status, err.value.field) == (422, "exact"), detail
    assert "stopped before its end" in detail and "none to search" not in detail
    assert "0.1 s" in detail and '"auto"' in detail
    assert ("give a larger time_budget" in detail) == (budget is not None), detail


def test_a_long_number_out_of_range_is_quoted_short() -> None:
    """Regression: ``"samples": 10**4000`` (JSON takes it) came back whole in the
    422's detail, four thousand digits; it is quoted short (``errors.quote``)."""
    body = {"board": "Qh / 9s 9h / As Ks", "dealt": "2c 5d Ts", "samples": 10**4000}
    with pytest.raises(ApiError) as err:
        analyze(body, ServeConfig(workers=1).check())
    detail = err.value.body("/v1/analyze")["detail"]
    assert (err.value.status, err.value.field) == (422, "samples")
    assert detail.startswith("samples must be within") and len(detail) < 300, detail


@pytest.mark.parametrize("given", ["/ofc/", "/ofc//", "/ofc", "/", "//"])
def test_a_root_path_with_a_slash_last_is_read_as_without(given: str) -> None:
    """``--root-path /ofc/`` (a proxy serving "under /ofc/", as docs/serve.md says it)
    was refused, where an ASGI server's own root_path ``/ofc/`` was read as ``/ofc``:
    the setting is read the same way, and problem types name their pages under
    ``/ofc``."""
    from serve_helpers import Server

    config = ServeConfig(workers=1, root_path=given).check()
    root = given.rstrip("/")  # (the reading checked: "/" alone is the host's root)
    assert config.root_path == root
    with Server(config) as s:
        status, _, out = s.request("GET", "/v1/no-such-endpoint")
    assert status == 404 and out["type"] == f"{root}/problems/not-found", out


def test_a_workers_count_past_one_cpu_s_most_says_one_cpu(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """On a one-CPU machine ``serve --workers 8`` said "(4 per CPU, 1 CPUs here)"; the
    count of CPUs takes its noun in the singular for one."""

    def cpus(n: int) -> None:  # (what every count of CPUs reads: os)
        monkeypatch.setattr(
            os, "sched_getaffinity", lambda pid: set(range(n)), raising=False
        )
        monkeypatch.setattr(os, "cpu_count", lambda: n)

    cpus(1)
    with pytest.raises(OfcError) as one:
        ServeConfig(workers=8).check()
    assert "(4 per CPU, 1 CPU here)" in str(one.value), str(one.value)
    cpus(2)
    with pytest.raises(OfcError) as two:
        ServeConfig(workers=9).check()
    assert "(4 per CPU, 2 CPUs here)" in str(two.value), str(two.value)


def test_serve_without_the_serve_extra_says_so_before_any_banner(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    """Regression: ``ofc-fast serve`` after a plain ``pip install .`` printed
    ``ofc-fast serve: http://127.0.0.1:8000/ (... Ctrl-C stops)``, as if it served,
    then the error that the serve extra is missing; now the error alone, before the
    port is bound."""
    monkeypatch.setitem(sys.modules, "uvicorn", None)  # import uvicorn: ImportError
    bound: list[object] = []
    real = serve_cli.bind_address

    def spy(host: str, port: int) -> socket.socket:  # (records, binds as before)
        bound.append((host, port))
        return real(host, port)

    monkeypatch.setattr(serve_cli, "bind_address", spy)
    assert cli.main(["serve", "--port", "0"]) == 2
    out, err = capsys.readouterr()
    assert out == "" and bound == []
    assert err == (
        "ofc-fast: error: ofc-fast serve needs the serve extra: "
        "pip install 'ofc-fast[serve]'\n"
    )


def test_an_api_key_or_root_path_of_the_wrong_type_is_named() -> None:
    """Regression: ``ServeConfig(api_key=12345678).check()`` (any key that is not
    text: a number, a NumPy scalar, a list) raised a bare TypeError ("object of type
    'int' has no len()") or AttributeError, and a ``root_path`` nested 5000 lists deep
    RecursionError (10**5000: ValueError) while its message was written; each is now
    the OfcError naming the field (a key that is no text is not written out)."""
    deep: list = []
    for _ in range(5000):
        deep = [deep]
    for key in (12345678, 2.5, ["a" * 8], b"k" * 8):
        with pytest.raises(OfcError, match=r"^api_key: the key must be text, got a "):
            ServeConfig(workers=1, api_key=key).check()  # type: ignore[arg-type]
    for root in (deep, 10**5000, None):
        with pytest.raises(OfcError, match=r"^root_path must be a path .*, got "):
            ServeConfig(workers=1, root_path=root).check()  # type: ignore[arg-type]


def test_serve_workers_are_refused_in_every_command_s_words(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    """Regression: ``ofc-fast serve --workers 0`` said ``--workers: must be an integer
    >= 1, got 0`` while every other command's ``--workers`` says ``--workers: must be
    an int >= 1, got 0``: serve's threads have the same bound (1 to 4 per CPU), so
    they are now refused by the same check (``worker_count``), in the same words."""
    monkeypatch.setattr(os, "sched_getaffinity", lambda pid: {0, 1}, raising=False)
    monkeypatch.setattr(os, "cpu_count", lambda: 2)
    monkeypatch.setattr(serve_cli, "run_server", lambda config, *a: None)  # (were run)
    for value in ("0", "9"):
        assert cli.main(["play", "--hands", "1", "--workers", value]) == 2, value
        play_err = capsys.readouterr().err
        assert cli.main(["serve", "--port", "0", "--workers", value]) == 2, value
        assert capsys.readouterr().err == play_err, value
    assert play_err.startswith("ofc-fast: error: --workers: must be at most 8, got 9")


def test_serve_counts_are_refused_in_the_one_count_wording(
    capsys: pytest.CaptureFixture[str],
) -> None:
    """Regression: ``ofc-fast serve --queue -1`` said ``--queue: must be an integer
    >= 0, got -1`` (and ``ServeConfig(max_samples=0).check()`` ``max_samples must be
    an integer >= 1``) while ``--workers 0`` and every other command's counts say
    ``must be at least 1, got 0``: each of serve's counts is now refused by the one
    count check, in the same words, bounds unchanged."""
    for option, value, least in (("--queue", "-1", 0), ("--max-samples", "0", 1)):
        argv = ["serve", "--port", "0", option, value]
        assert cli.main(argv) == 2, option
        err = capsys.readouterr().err
        assert f"{option}: must be at least {least}, got {value}" in err, err
    for name, least in (("queue", 0), ("max_body", 1024), ("retry_after", 0)):
        with pytest.raises(OfcError) as exc:
            ServeConfig(workers=1, **{name: least - 1}).check()  # type: ignore[arg-type]
        assert str(exc.value) == f"{name}: must be at least {least}, got {least - 1}"
        ServeConfig(workers=1, **{name: least}).check()  # type: ignore[arg-type]


def test_numpy_counts_are_served_as_ints() -> None:
    """Regression: once serve's counts went through the one count check, which takes
    NumPy integers, ``create_app(ServeConfig(max_samples=np.int64(1000)))`` raised
    "TypeError: Object of type int64 is not JSON serializable" building /openapi.json
    (the check kept the NumPy value): a checked config holds each count as an int."""
    import numpy as np

    from ofc_fast.serve import create_app

    names = ("workers", "queue", "max_body", "max_samples", "max_sessions", "port")
    counts = {"workers": 2, "queue": 3, "max_body": 4096, "max_samples": 1000}
    counts |= {"max_sessions": 5, "port": 0}
    config = ServeConfig(**{n: np.int64(counts[n]) for n in names})  # type: ignore[arg-type]
    create_app(config)  # (builds /openapi.json: json.dumps of max_samples)
    for name in names:
        value = getattr(config.check(), name)
        assert type(value) is int and value == counts[name], name
    assert json.loads(json.dumps(openapi(config=config)))
