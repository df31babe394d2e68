"""Every script of benchmarks/ and tools/ says each option's default in its ``--help``
(``python benchmarks/bench_env.py --help`` did not say 5 repeats of 2 s)."""

from __future__ import annotations

import argparse
import re
import runpy
import sys
from pathlib import Path

import pytest
from scripts import ROOT, checkout_file

import ofc_fast.timing

_PARSES = re.compile(r"\.parse_(?:known_)?args\(|\brun_cases\(")


def _scripts() -> list[str]:
    """The scripts that read options: benchmarks/*.py and tools/*.py that parse."""
    if not (ROOT / "benchmarks").is_dir():
        return []
    paths = [*ROOT.glob("benchmarks/*.py"), *ROOT.glob("tools/*.py")]
    return sorted(
        str(p.relative_to(ROOT))
        for p in paths
        if _PARSES.search(p.read_text(encoding="utf-8"))
    )


class _Parsed(Exception):
    """Raised in place of a script's parse, carrying its parser."""


def _parser(script: str, monkeypatch: pytest.MonkeyPatch) -> argparse.ArgumentParser:
    """The parser ``script`` builds when run (``python SCRIPT``), taken at its parse,
    before anything runs (its check for an optional extra passed over)."""

    def taken(self: argparse.ArgumentParser, *args: object, **kwargs: object) -> None:
        raise _Parsed(self)

    path = checkout_file(script)
    with monkeypatch.context() as m:
        m.syspath_prepend(str(path.parent))  # as `python SCRIPT` does
        m.setattr(ofc_fast.timing, "require_extra", lambda *names: None)
        m.setattr(argparse.ArgumentParser, "parse_known_args", taken)
        m.setattr(sys, "argv", [str(path)])
        with pytest.raises(_Parsed) as parsed:
            runpy.run_path(str(path), run_name="__main__")
    parser = parsed.value.args[0]
    assert isinstance(parser, argparse.ArgumentParser)
    return parser


def _default_text(default: object) -> str | None:
    """How a default reads as a command-line value: None where there is none to say
    (no default, a flag, an empty one)."""
    if default is None or default == argparse.SUPPRESS or isinstance(default, bool):
        return None
    if default in ("", [], (), {}):
        return None
    if isinstance(default, (list, tuple)):
        return " ".join(str(item) for item in default)
    if isinstance(default, Path):  # (a folder of the checkout, named from its root)
        return default.relative_to(ROOT).as_posix()
    return str(default)


@pytest.mark.parametrize("script", _scripts())
def test_every_option_with_a_default_says_it_in_the_help(
    script: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Each option's lines of ``--help`` end with its default, ``(default: 5)``,
    where it has one: ``bench_env.py --help`` printed ``--repeats REPEATS`` and
    ``--seconds SECONDS``, nothing more, while the README quotes 5 repeats of 2 s."""
    parser = _parser(script, monkeypatch)
    unsaid = []
    for action in parser._actions:
        shown = _default_text(action.default)
        if not action.option_strings or action.help == argparse.SUPPRESS or not shown:
            continue
        formatter = parser._get_formatter()
        formatter.add_argument(action)
        lines = " ".join(formatter.format_help().split())
        if f"default: {shown}" not in lines:
            unsaid.append(lines)
    assert unsaid == []


def test_every_parsing_script_is_walked() -> None:
    """The walk finds the scripts (a pattern that missed them would pass)."""
    checkout_file("benchmarks")
    scripts = _scripts()
    for script in ("benchmarks/bench_env.py", "benchmarks/bench_rl_train.py"):
        assert script in scripts
    assert "tools/gen_tables.py" in scripts and len(scripts) >= 20


_SAYS_DEFAULT = re.compile(r"\(?default:.*|%\(default\)s")


@pytest.mark.parametrize("script", _scripts())
def test_every_option_says_what_it_is(script: str, monkeypatch: pytest.MonkeyPatch) -> None:
    """Each option but ``-h`` has a help text of its own: ``bench_search.py --help``
    showed ``--random-deals RANDOM_DEALS (default: 2000)``, nothing saying what the
    2000 are; a help that only says the default, ``default: the model's``, says
    nothing more."""
    parser = _parser(script, monkeypatch)
    bare = [
        "/".join(action.option_strings)
        for action in parser._actions
        if action.option_strings
        and not isinstance(action, argparse._HelpAction)
        and action.help != argparse.SUPPRESS
        and not _SAYS_DEFAULT.sub("", action.help or "").strip(" ()")
    ]
    assert bare == []
