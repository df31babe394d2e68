"""The documentation keeps up with the code.

* every rule id (``R-*``, ``EX-*``, ``Q-*``) cited anywhere in the repository (code,
  tests, C headers, docs, README) is defined in ``docs/rules.md``; a family citation
  ``R-STAKES-*`` needs at least one defined id of that family;
* every source tag ``[000]`` ... cited is defined there too;
* the table "Where each rule lives" of ``docs/design.md`` names defined rules, once
  each, and files and functions (or constants) that exist.

These read the source tree: outside a checkout (a wheel's test run) they skip.
"""

from __future__ import annotations

import ast
import json
import re
from pathlib import Path

import pytest
from md_blocks import (
    check_shown_answer,
    curl_requests,
    fenced_blocks,
    quoted_commands,
    run_block,
)
from scripts import run_as_script

ROOT = Path(__file__).resolve().parent.parent
RULES_MD = ROOT / "docs" / "rules.md"
DESIGN_MD = ROOT / "docs" / "design.md"

pytestmark = pytest.mark.skipif(
    not RULES_MD.exists(), reason="needs a source checkout (git clone)"
)

# A citation: R-ABC-1 (optionally R-ABC-* for a family, or R-FOUL-3b for an item of a
# rule), EX-n, Q-n.  Card strings such as "Q-Q-5" or "Q-J-T" are not ids: an id is not
# preceded or followed by another "-" or word character.
CITATION = re.compile(r"(?<![\w-])(R(?:-[A-Z0-9]+)+|EX-\d+|Q-\d+)(-\*|[a-d])?(?![\w-])")
DEFINITION = re.compile(r"^- \*\*((?:R|EX|Q)(?:-[A-Z0-9]+)+)\*\*", re.MULTILINE)
SOURCE_TAG = re.compile(r"\[(00\d)\]")  # [000] .. [009]; not array sizes like [256]
SOURCE_DEFINITION = re.compile(r"^\| \*\*\[(\d{3})\]\*\* \|", re.MULTILINE)
SCANNED = {".py", ".pyi", ".c", ".h", ".md", ".toml", ".yml", ".yaml", ".cfg", ".txt"}
SKIPPED_DIRS = {
    ".git",
    ".venv",
    "venv",
    "build",
    "dist",
    "site",
    "node_modules",
    "__pycache__",
    ".hypothesis",
    ".mypy_cache",
    ".pytest_cache",
    "wheelhouse",
}


def _source_files() -> list[Path]:
    out = []
    for path in ROOT.rglob("*"):
        rel = path.relative_to(ROOT)
        if any(part in SKIPPED_DIRS or part.endswith(".egg-info") for part in rel.parts):
            continue
        if path.is_file() and path.suffix in SCANNED and path != Path(__file__).resolve():
            out.append(path)  # (this file cites made-up ids on purpose)
    return out


def _defined() -> set[str]:
    return set(DEFINITION.findall(RULES_MD.read_text(encoding="utf-8")))


def _citations(text: str) -> list[tuple[str, bool]]:
    """(id, is_family) for every citation in ``text``."""
    return [(m.group(1), m.group(2) == "-*") for m in CITATION.finditer(text)]


def _undefined(text: str, defined: set[str]) -> set[str]:
    missing = set()
    for ident, family in _citations(text):
        if family:
            if not any(d.startswith(ident + "-") for d in defined):
                missing.add(ident + "-*")
        elif ident not in defined:
            missing.add(ident)
    return missing


def test_citation_pattern() -> None:
    """The scanner finds ids and families, and ignores card strings."""
    text = (
        "R-FOUL-3b and R-STAKES-* (EX-17, Q-10); front Q-Q-A, Q-J-T, middle "
        "Q-Q-5-3-2, R-ROY-OFC-3/4"
    )
    assert _citations(text) == [
        ("R-FOUL-3", False),
        ("R-STAKES", True),
        ("EX-17", False),
        ("Q-10", False),
        ("R-ROY-OFC-3", False),
    ]
    assert _undefined("R-NOPE-1, R-NOPE-*, EX-99, Q-99 and R-FOUL-1", _defined()) == {
        "R-NOPE-1",
        "R-NOPE-*",
        "EX-99",
        "Q-99",
    }


def test_rules_md_defines_each_id_once() -> None:
    ids = DEFINITION.findall(RULES_MD.read_text(encoding="utf-8"))
    assert len(ids) > 150
    assert len(ids) == len(set(ids)), sorted({i for i in ids if ids.count(i) > 1})


def test_every_cited_rule_id_is_defined() -> None:
    defined = _defined()
    missing: dict[str, set[str]] = {}
    for path in _source_files():
        bad = _undefined(path.read_text(encoding="utf-8", errors="replace"), defined)
        if bad:
            missing[str(path.relative_to(ROOT))] = bad
    assert not missing, f"rule ids cited but not defined in docs/rules.md: {missing}"


def _rule_text(rule_id: str) -> str:
    """The text of one rule of docs/rules.md (its bullet, on one line)."""
    text = RULES_MD.read_text(encoding="utf-8")
    (line,) = [x for x in text.splitlines() if x.startswith(f"- **{rule_id}**")]
    return line


def test_rules_md_names_the_row_orders_the_library_offers() -> None:
    """R-ORDER-1 said the library offers each of the three readings as an option;
    ``OrderRule`` has two, and [001]'s mixed reading (front < middle <= back) fouls
    exactly the boards the non-strict one fouls, checked here on random boards with
    the order written out."""
    import random

    import ofc_fast as ofc
    from ofc_fast.rules import OrderRule

    order = _rule_text("R-ORDER-1")
    assert "each reading" not in order, order
    assert {o.name.lower().replace("nonstrict", "non-strict") for o in OrderRule} == {
        "strict",
        "non-strict",
    }
    assert "strict and non-strict (`OrderRule`)" in order, order
    rng = random.Random(5)
    for _ in range(2000):
        cards = rng.sample(range(52), 13)
        front, middle, back = (
            ofc.rank3(cards[:3]),
            ofc.rank5(cards[3:8]),
            ofc.rank5(cards[8:]),
        )
        mixed_foul = not (front < middle <= back)
        board = ofc.Board(cards[:3], cards[3:8], cards[8:])
        assert board.is_foul(rules=ofc.rules.OFC) == mixed_foul, cards


def test_rules_md_says_how_a_fantasyland_hand_is_set() -> None:
    """R-FL-5 listed the sources' readings of when a Fantasyland hand is set and shown
    but not the one the library plays (the legend claimed every [CONFLICT] reading an
    option): the hand is set first, face down, and shown at the showdown."""
    import ofc_fast as ofc
    from ofc_fast.bots import HeuristicBot

    assert "The library plays [001]'s first reading" in _rule_text("R-FL-5")
    bot = HeuristicBot(seed=0)
    g = ofc.Game("pineapple", players=3, seed=3, button=0, fantasyland=(0, 0, 14))
    assert (g.to_act, len(g.dealt)) == (2, 14)  # first, though the seat left of the
    g.play(bot.act(g.observation(2)))  # button (1) acts first in a normal deal
    assert g.observation(1)["boards"][2] == [[], [], []]
    assert g.observation(1)["face_down_counts"][2] == [3, 5, 5]
    while not g.is_over:
        g.play(bot.act(g.observation(g.to_act)))
    assert sum(len(r) for r in g.observation(1)["boards"][2]) == 13


def test_every_cited_source_is_defined() -> None:
    sources = set(SOURCE_DEFINITION.findall(RULES_MD.read_text(encoding="utf-8")))
    assert {"000", "001", "003"} <= sources
    missing = {}
    for path in _source_files():
        tags = set(SOURCE_TAG.findall(path.read_text(encoding="utf-8", errors="replace")))
        if tags - sources:
            missing[str(path.relative_to(ROOT))] = tags - sources
    assert not missing, f"sources cited but not described in docs/rules.md: {missing}"


# The source files of earlier layouts that design.md's measurement tables name as
# they were then (its "before" columns): not files of this tree.
FORMER_FILES = {
    "csrc/ofc_solver.c",
    "csrc/ofc_solve_wintab.c",
    "csrc/ofc_game.c",
    "csrc/ofc_search.c",
}
REPO_PATH = re.compile(
    r"`((?:tests|benchmarks|tools|examples|csrc|\.ci)/[\w/.-]+\.(?:py|c|h|sh|txt))`"
)


def test_docs_name_repository_files_that_exist() -> None:
    """docs/environments.md pointed at ``tests/game_model.py``, which lives in
    ``tests/support/``: every repository file a docs page, the README or
    CONTRIBUTING.md names in code is there (the last two were not read)."""
    missing = set()
    pages = [ROOT / "README.md", ROOT / "CONTRIBUTING.md"]
    for page in [*pages, *sorted((ROOT / "docs").glob("*.md"))]:
        for path in REPO_PATH.findall(page.read_text(encoding="utf-8")):
            stem = path.removesuffix(".c/.h")  # "name.c/.h": the pair
            files = [stem + ".c", stem + ".h"] if stem != path else [path]
            if path not in FORMER_FILES and not all((ROOT / f).exists() for f in files):
                missing.add(f"{page.name}: {path}")
    assert not missing, sorted(missing)


# ------------------------------------------------------------- design table

TABLE_ROW = re.compile(
    r"^\| ((?:R|EX|Q)(?:-[A-Z0-9]+)+) \| [^|]+ \| `([^`]+)` \| `([^`]+)` \|$", re.MULTILINE
)


def _table() -> list[tuple[str, str, str]]:
    text = DESIGN_MD.read_text(encoding="utf-8")
    section = text.split("## Where each rule lives", 1)[1].split("\n## ", 1)[0]
    rows = TABLE_ROW.findall(section)
    body = [ln for ln in section.splitlines() if re.match(r"^\| (?:R|EX|Q)-", ln)]
    assert len(rows) == len(body), "a malformed row in design.md's rule table"
    return rows


def _python_names(path: Path) -> set[str]:
    """Top-level functions, classes and assigned names, and Class.method names."""
    tree = ast.parse(path.read_text(encoding="utf-8"))
    names: set[str] = set()
    for node in tree.body:
        if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)):
            names.add(node.name)
            if isinstance(node, ast.ClassDef):
                names.update(
                    f"{node.name}.{n.name}"
                    for n in node.body
                    if isinstance(n, (ast.FunctionDef, ast.AsyncFunctionDef))
                )
        elif isinstance(node, ast.Assign):
            names.update(t.id for t in node.targets if isinstance(t, ast.Name))
        elif isinstance(node, ast.AnnAssign) and isinstance(node.target, ast.Name):
            names.add(node.target.id)
    return names


def _c_defines(path: Path, name: str) -> bool:
    """A C function definition: at the start of a line, a return type, the name, its
    parameters and a body (not a call, a declaration or a comment)."""
    text = path.read_text(encoding="utf-8")
    pattern = (
        r"^(?:static\s+)?(?:inline\s+)?[A-Za-z_][\w\s\*]*?\b"
        rf"{re.escape(name)}\s*\([^;{{]*\)\s*\{{"
    )
    return re.search(pattern, text, re.MULTILINE) is not None


def test_design_table_rules_are_defined_once() -> None:
    rows = _table()
    assert len(rows) > 50
    ids = [r[0] for r in rows]
    assert len(ids) == len(set(ids)), "a rule listed twice: it has one place"
    assert set(ids) <= _defined(), set(ids) - _defined()


def test_design_table_files_and_functions_exist() -> None:
    missing = []
    for rule, file, name in _table():
        path = ROOT / file
        if not path.is_file():
            missing.append(f"{rule}: no file {file}")
        elif path.suffix == ".py":
            if name not in _python_names(path):
                missing.append(f"{rule}: {file} defines no {name}")
        elif not _c_defines(path, name):
            missing.append(f"{rule}: {file} defines no function {name}")
    assert not missing, missing


def test_design_checker_rejects_missing_names() -> None:
    """The existence checks can fail."""
    assert "Board" in _python_names(ROOT / "ofc_fast" / "board.py")
    assert "no_such_name" not in _python_names(ROOT / "ofc_fast" / "board.py")
    assert _c_defines(ROOT / "csrc" / "src" / "ofc_internal.h", "ofc_foul_k")
    # called there, but defined elsewhere: not a definition
    assert not _c_defines(ROOT / "csrc" / "src" / "ofc_board.c", "ofc_foul_k")


# ------------------------------------------------------------- doc build helpers


def _tool(name: str):
    from scripts import load_script

    path = ROOT / "tools" / f"{name}.py"
    if not path.exists():
        pytest.skip("needs tools/ of a source checkout (git clone)")
    if name == "griffe_docstrings":
        pytest.importorskip("griffe", reason='pip install ".[test]" (griffelib)')
    return load_script(path, name)


def test_c_api_page_shows_every_documented_declaration() -> None:
    c_api = _tool("mkdocs_c_api")
    headers = c_api.public_headers()
    names = {h.name for h in headers}
    assert headers[0].name == "ofc_fast.h" and {"ofc_game.h", "ofc_settle.h"} <= names
    assert not any("internal" in n or n == "ofc_tables.h" for n in names)
    page = c_api.render()
    comments = sum(h.read_text(encoding="utf-8").count("/*!") for h in headers)
    assert page.count("\n### `") + page.startswith("### `") == comments
    for function in (
        "ofc_eval_board",
        "ofc_score_boards",
        "ofc_settle",
        "ofc_game_init",
        "ofc_solve_fantasyland",
    ):
        assert f"### `{function}`" in page, function
    block = page.split("### `ofc_eval_board`", 1)[1].split("### ", 1)[0]
    assert "int32_t ofc_eval_board(const ofc_rules *rules" in block


def test_c_api_declaration_parser() -> None:
    c_api = _tool("mkdocs_c_api")
    text = (
        "/*! A struct. */\ntypedef struct a { int x; /* ; */ } a_t;\n"
        "/*! A macro. */\n#define M(x) \\\n    (x)\n"
        "/*! @brief f.\n * @return 0. */\nint f(int a,\n      int b);\n"
    )
    assert [(d.name, d.code.splitlines()[0]) for d in c_api.declarations(text)] == [
        ("a_t", "typedef struct a { int x; /* ; */ } a_t;"),
        ("M", "#define M(x) \\"),
        ("f", "int f(int a,"),
    ]


def test_citation_brackets_are_escaped_for_markdown() -> None:
    c_api = _tool("mkdocs_c_api")
    assert c_api.escape_tags("R-X [000][001] [AMBIG] `a[000]` [t](u) [CONV]: d") == (
        r"R-X \[000\]\[001\] \[AMBIG\] `a[000]` [t](u) [CONV]: d"
    )


def test_doctest_examples_become_code_blocks() -> None:
    ext = _tool("griffe_docstrings")
    text = "Text :class:`Board` and :func:`~ofc_fast.rank5`.\n\n>>> f(1)\n['a']\n\nMore."
    assert ext.markdown_docstring(text) == (
        "Text `Board` and `ofc_fast.rank5`.\n\n```pycon\n>>> f(1)\n['a']\n```\n\nMore."
    )


def _python_blocks(page: str) -> list[str]:
    """The fenced ```python blocks of one page of docs/."""
    return fenced_blocks((ROOT / "docs" / page).read_text(encoding="utf-8"), "python")


# Each docs page's Python blocks and how a test runs them.  environments.md trains
# MaskablePPO for 400,000 steps on 256 tables: tests/test_rl_train.py runs its block
# as written but for those sizes (test_docs_environments_block_runs_at_a_small_size);
# its VectorEnv loop runs as written in tests/test_env.py.
RUN_IN_PROCESS = ("index.md", "report.md")
RUN_AS_SCRIPT = ("parallel.md",)
RUN_SHRUNK = ("environments.md",)


def test_every_docs_python_block_is_accounted_for() -> None:
    pages = {p.name for p in (ROOT / "docs").glob("*.md") if _python_blocks(p.name)}
    assert pages == {*RUN_IN_PROCESS, *RUN_AS_SCRIPT, *RUN_SHRUNK}


def _arena_files(folder: Path) -> None:
    """report.json and deals.jsonl, the files docs/report.md starts from."""
    from ofc_fast.cli import main

    argv = ["arena", "--rules", "ofc-pineapple", "--bot", "random", "--bot", "random"]
    argv += ["--hands", "3", "--seed", "1", "--quiet"]
    argv += [
        "--json",
        str(folder / "report.json"),
        "--history",
        str(folder / "deals.jsonl"),
    ]
    assert main(argv) == 0


@pytest.mark.parametrize("page", RUN_IN_PROCESS)
def test_docs_python_blocks_run(
    page: str, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Every ```python block of these docs pages runs as written (report.md from the
    files its ``ofc-fast arena`` command writes); a trailing ``# literal`` comment on
    an expression is the value it gives."""
    monkeypatch.chdir(tmp_path)
    if page == "report.md":
        _arena_files(tmp_path)
    blocks = _python_blocks(page)
    assert blocks
    for block in blocks:
        run_block(block, page)


def test_docs_parallel_block_runs_as_a_script(tmp_path: Path) -> None:
    """docs/parallel.md's block starts a process pool: it runs as a real script."""
    (block,) = _python_blocks("parallel.md")
    done = run_as_script(tmp_path, "run.py", block + "\n")
    assert done.returncode == 0, done.stderr


def test_docs_index_links_every_page_of_the_site() -> None:
    """docs/index.md is the site's map: every page of mkdocs.yml's nav is linked
    from it (the search and learned-value API pages were not)."""
    nav = re.findall(r":\s+([\w./-]+\.md)\s*$", (ROOT / "mkdocs.yml").read_text(), re.M)
    index = (ROOT / "docs" / "index.md").read_text()
    linked = set(re.findall(r"\]\(([\w./-]+\.md)(?:#[\w-]*)?\)", index))
    assert len(nav) > 10
    assert sorted(set(nav) - {"index.md"} - linked) == []


# Public modules whose users read a guide, not an API page: the command lines.
COMMAND_MODULES = {
    "cli": "docs/cli.md",
    "timing": "ofc-fast bench",
    "serve": "docs/serve.md",
}


def test_docs_api_renders_every_public_package() -> None:
    """The Python API pages (docs/api/, "generated from the docstrings", index.md)
    rendered eight packages: ``ofc_fast.env``, ``ofc_fast.parallel``,
    ``ofc_fast.arena`` and ``ofc_fast.encoding``, whose names the guides tell users to
    call (``VectorEnv``, ``play_parallel``, ``html_report``), had no page."""
    import pkgutil

    import ofc_fast

    public = {
        m.name
        for m in pkgutil.iter_modules(ofc_fast.__path__)
        if not m.name.startswith("_")
    }
    pages = "".join(p.read_text(encoding="utf-8") for p in (ROOT / "docs/api").glob("*.md"))
    rendered = set(re.findall(r"^::: ofc_fast\.(\w+)", pages, re.M))
    assert sorted(public - rendered - set(COMMAND_MODULES)) == []


def test_docs_api_page_of_a_package_renders_each_of_its_public_modules() -> None:
    """A package whose API page renders its modules one by one renders each public one
    but its command-line modules (``cli``, ``train``): ``ofc_fast.bots.policy``
    (``PolicyBot``, which docs/environments.md names), ``ofc_fast.rules.compiled`` and
    ``ofc_fast.rules.game_ids`` (which README.md and docs/arena.md name) had no page."""
    import importlib
    import pkgutil

    pages = "".join(p.read_text(encoding="utf-8") for p in (ROOT / "docs/api").glob("*.md"))
    rendered = set(re.findall(r"^::: (ofc_fast\.[\w.]+)", pages, re.M))
    packages = {name.rpartition(".")[0] for name in rendered} - {"ofc_fast"}
    public = {
        m.name
        for package in packages
        for m in pkgutil.iter_modules(
            importlib.import_module(package).__path__, package + "."
        )
        if not m.name.rpartition(".")[2].startswith("_")
        and m.name.rpartition(".")[2] not in ("cli", "train")
    }
    assert sorted(public - rendered) == []


def test_docs_arena_names_every_kind_of_bot_the_arena_takes() -> None:
    """docs/arena.md's list of ``--bot`` forms: each example it gives is the kind the
    arena makes of it, and the ``policy:PATH`` / ``module:attribute`` bots (made
    in the arena's process) were missing from it."""
    from ofc_fast.arena import parse_bot_spec

    text = (ROOT / "docs" / "arena.md").read_text()
    bots = text.split("## Bots", 1)[1].split("\n## ", 1)[0]
    kinds = {
        "heuristic": "builtin",
        "cmd:COMMAND": "cmd",
        "tcp:PORT": "tcp",
        "policy:PATH": "builtin",
        "mypkg.bots:MyBot": "builtin",
        "me@cmd:python mybot.py": "cmd",
    }
    for spec, kind in kinds.items():
        assert f"`{spec}`" in bots, spec
        assert parse_bot_spec(spec.replace("PORT", "9000")).kind == kind, spec


def test_docs_parallel_numbers_the_units_of_the_json_as_the_run_does(
    capsys: pytest.CaptureFixture[str],
) -> None:
    """docs/parallel.md: unit ``i`` is dealt ``deal_seed(seed, i)``, and the JSON's
    ``deal`` counts the units from 1 (the page did not say which, and ``i`` counts
    from 0)."""
    import json

    from ofc_fast import cli, deal_seed

    argv = ["play", "--hands", "3", "--seed", "1", "--workers", "1", "--json", "-"]
    assert cli.main([*argv, "--bots", "random", "--players", "2"]) == 0
    deals = json.loads(capsys.readouterr().out)["deals"]
    firsts = [d for d in deals if d["fl_deal"] == 0]
    assert [d["deal"] for d in firsts] == [1, 2, 3]
    assert all(d["seed"] == deal_seed(1, d["deal"] - 1) for d in firsts)
    page = " ".join((ROOT / "docs" / "parallel.md").read_text().split())
    assert 'unit `i` is `"deal": i + 1`' in page


def test_c_api_tool_refuses_an_option() -> None:
    """``python tools/mkdocs_c_api.py --check`` printed the page and exited 0: a check
    that checked nothing (as ``tools/presets_table.py --check`` once did)."""
    import subprocess
    import sys

    from scripts import checkout_file, package_env

    proc = subprocess.run(
        [sys.executable, str(checkout_file("tools/mkdocs_c_api.py")), "--check"],
        capture_output=True,
        text=True,
        timeout=120,
        env=package_env(),
    )
    assert proc.returncode == 2 and proc.stdout == ""
    assert "unrecognized arguments: --check" in proc.stderr


def test_docs_environments_names_the_error_of_each_opponent_spelling() -> None:
    """docs/environments.md said the other spelling of ``opponent(s)=`` is a GameError
    naming the right one for every env, ``VectorEnv`` included, whose refusal is
    Python's own TypeError: the page names the error each env gives (the adapters'
    are checked in tests/test_env.py)."""
    from ofc_fast.env import VectorEnv
    from ofc_fast.errors import GameError

    text = " ".join((ROOT / "docs" / "environments.md").read_text().split())
    section = text.split("## Trainer adapters", 1)[1].split(" ## ", 1)[0]
    with pytest.raises((TypeError, GameError)) as exc:
        VectorEnv("pineapple", num_envs=1, **{"opponent": "random"})
    error = "GameError" if isinstance(exc.value, GameError) else type(exc.value).__name__
    said = re.search(r"`VectorEnv` itself refuses `opponent=` [^;.]*?`(\w+Error)`", section)
    assert said is not None and said.group(1) == error, (error, section)
    assert "the other spelling is a `GameError` naming the right one" in section


# ``ofc-fast`` (or ``python -m ofc_fast``) as a word of its own: not the ``cmd:ofc-fast
# bot search`` of an arena seat, nor ``python -m ofc_fast.learned.train``.
OFC_FAST = re.compile(r"(?:(?<=\s)|^)(ofc-fast|python -m ofc_fast)(?=\s|$)")
# A word a reader replaces: N, PATH, HEAD:6379, <board>, [--bots ...], ...
READER_FILLS = re.compile(r"^(?:[A-Z]+\b.*|<[^>]*>|\[.*|.*\.\.\..*)$")


def test_every_ofc_fast_command_the_docs_quote_uses_options_it_has(
    capsys: pytest.CaptureFixture[str],
) -> None:
    """Each ``ofc-fast COMMAND ...`` that README.md, CONTRIBUTING.md or a page of docs/
    quotes names options COMMAND's parser has, spelled in full (a renamed option, or
    one moved to another command, would stop the reader's run: the docs' shell blocks
    are run by no test), and a line of a code block that holds no word for the reader
    to fill in (``N``, ``PATH``, ``<board>``) parses as it is written."""
    import argparse

    from ofc_fast import cli, timing

    parser = cli.build_parser()
    sub = next(a for a in parser._actions if isinstance(a, argparse._SubParsersAction))
    pages = [ROOT / "README.md", ROOT / "CONTRIBUTING.md"]
    checked, parsed = 0, 0
    for page in [*pages, *sorted((ROOT / "docs").glob("*.md"))]:
        text = page.read_text(encoding="utf-8")
        for _, words, in_block in quoted_commands(text, OFC_FAST):
            if words and words[0] not in sub.choices:
                continue  # prose (`ofc-fast COMMAND --help`) or ofc-fast's own options
            where = f"{page.name}: ofc-fast {' '.join(words)}"
            command = words[0] if words else ""
            actions = sub.choices[command]._actions if command else parser._actions
            options = {o for a in actions for o in a.option_strings}
            if command == "bench":  # its options are ofc_fast.timing's
                with pytest.raises(SystemExit):
                    timing._parse(["--help"])
                options |= set(re.findall(r"(--[a-z][\w-]*)", capsys.readouterr().out))
            named = [w.split("=")[0] for w in words if w.startswith("--")]
            assert [o for o in named if o not in options] == [], where
            checked += 1
            if not in_block or any(READER_FILLS.match(w) for w in words):
                continue
            try:
                if command == "bench":
                    timing._parse(words[1:])
                else:
                    parser.parse_args(words)
            except SystemExit:
                pytest.fail(f"{where}: {capsys.readouterr().err.strip()}")
            parsed += 1
    assert checked > 150 and parsed > 30, (checked, parsed)


def test_every_workers_count_the_docs_quote_runs_on_one_cpu() -> None:
    """docs/serve.md's deployment command, ``ofc-fast serve ... --workers 8``, is
    refused on a one-CPU machine (a small server's), ``--workers: must be an integer at
    most 4 (4 per CPU, 1 CPU here)``: each ``--workers N`` of an ``ofc-fast`` command
    the README or a page of docs/ quotes is at most 4, the most one CPU allows, so the
    command runs as written on any machine."""
    pages = [ROOT / "README.md", ROOT / "CONTRIBUTING.md", *sorted(ROOT.glob("docs/*.md"))]
    counts = [
        (page.name, words[0], words[i + 1])
        for page in pages
        for _, words, _ in quoted_commands(page.read_text(encoding="utf-8"), OFC_FAST)
        for i, word in enumerate(words[:-1])
        if word == "--workers" and words[i + 1].isdigit()
    ]
    assert len(counts) > 5
    assert [c for c in counts if int(c[2]) > 4] == []


def _card_ids(text: str) -> list[int]:
    """Card ids of text such as ``"Js 6c"``: 4 * rank + suit, 2c = 0 .. As = 51."""
    return [4 * "23456789TJQKA".index(c[0]) + "cdhs".index(c[1]) for c in text.split()]


def test_every_curl_the_docs_show_is_answered_as_they_say() -> None:
    """The ``curl`` examples of docs/serve.md and the README were run by no test: each
    is sent as written to a server (a game's ``k3J...`` is the id the page's ``POST
    /v1/games`` got) and answered as /openapi.json describes: 200, the duplicate card
    of the page's problem example a 422 naming ``cards`` and ``CardError``, ``next``
    before the deal's end a 409; seed 7 deals you Js 6c Kh Qs 4c, as the page says.
    The answer a page shows after a request (a ``# {...`` comment, a ```json block) is
    the one it gets: its keys, and its values but a time's (``seconds``) and those of a
    search under a ``time_budget``, which depend on the machine."""
    from serve_helpers import Server, check_response  # (a skip without uvicorn)

    from ofc_fast.serve import ServeConfig

    pages = ("README.md", "docs/serve.md")
    requests = [r for p in pages for r in curl_requests((ROOT / p).read_text("utf-8"))]
    assert len(requests) >= 13
    game = ""
    with Server(ServeConfig(workers=2)) as server:
        status, _, doc = server.request("GET", "/openapi.json")
        for method, path, headers, body, shown in requests:
            path = path.replace("k3J...", game)
            status, got, out = server.request(method, path, body, headers=headers)
            check_response(doc, method, path, status, got, out)
            where = (method, path, body, status, out)
            cards = body.get("cards", "").split() if isinstance(body, dict) else []
            if len(set(cards)) < len(cards):  # a card twice: the page's problem
                assert (status, out["field"], out["error"]) == (422, "cards", "CardError")
            elif path.endswith("/next"):  # two moves into the deal: not over
                assert status == 409, where
            else:
                assert status == 200, where
            if path == "/v1/games" and body.get("seed") == 7 and not game:
                game = out["id"]
                assert out["observation"]["dealt"] == _card_ids("Js 6c Kh Qs 4c")
            if shown is not None:
                shown = shown.replace('"k3J..."', json.dumps(game))
                check_shown_answer(shown, out, values="time_budget" not in body)
    assert game and sum(r[4] is not None for r in requests) >= 5


def test_docs_serve_names_each_endpoint_the_server_serves() -> None:
    """docs/serve.md documents the API endpoint by endpoint: the methods and paths it
    names (``POST /v1/analyze``, ``GET /v1/games/{id}``, ...) are those of the served
    ``/openapi.json``, none missing and none the server lacks."""
    from ofc_fast.serve._schemas import openapi

    paths = openapi()["paths"]
    served = {(method.upper(), path) for path, ops in paths.items() for method in ops}
    text = (ROOT / "docs" / "serve.md").read_text(encoding="utf-8")
    named = set(re.findall(r"\b(GET|POST|PUT|PATCH|DELETE) (/v1/[\w{}/-]*)", text))
    assert sorted(named - served) == [] and sorted(served - named) == []


def test_every_error_class_the_docs_name_exists() -> None:
    """Each ``...Error`` class README.md or a page of docs/ names (``BotModelError``,
    ``ObservationError``, ...) is one of ``ofc_fast.errors`` or one of Python's own, so
    that a reader's ``except`` clause catches what the page says."""
    import builtins

    from ofc_fast import errors

    pages = [ROOT / "README.md", *sorted((ROOT / "docs").glob("*.md"))]
    named = {
        name
        for page in pages
        for name in re.findall(r"\b([A-Z]\w*Error)\b", page.read_text(encoding="utf-8"))
    }
    ours = {n for n, v in vars(errors).items() if isinstance(v, type)}
    assert sorted(n for n in named if n not in ours and not hasattr(builtins, n)) == []
    assert {"CardError", "BotModelError", "ObservationError"} <= named


def test_docs_cli_says_how_replay_numbers_the_deals_of_play(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """docs/cli.md said ``replay --deal N`` prints "hand N", and ``play`` prints its
    deals from ``Deal 1``: a reader asking ``replay`` for a ``play`` run's Deal 2 got
    Deal 3.  The page says the hand is the line's ``hand_no``, from 0, and ``play``'s
    Deal N + 1; the boards printed agree."""
    from ofc_fast.cli import main

    history = tmp_path / "deals.jsonl"
    argv = ["play", "--hands", "3", "--players", "2", "--seed", "4", "--bots", "random"]
    assert main([*argv, "--history", str(history)]) == 0
    played = capsys.readouterr().out.split("Deal ")
    assert main(["replay", str(history), "--deal", "1"]) == 0
    replayed = capsys.readouterr().out.splitlines()
    assert replayed[0].startswith("hand 1 ")
    front = replayed[1].split(": ", 1)[1].split(" / ")[0]  # seat 0's front row
    deal = next(d for d in played if d.startswith("2:"))  # play's Deal 2
    assert front in deal and front not in next(d for d in played if d.startswith("1:"))
    page = " ".join((ROOT / "docs" / "cli.md").read_text(encoding="utf-8").split())
    item = page.split("- `replay FILE`:", 1)[1].split(" - `", 1)[0]
    assert "counted from 0" in item and "printed as Deal N + 1" in item, item


def test_docs_say_which_bot_a_seed_does_not_reproduce(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    """Regression: docs/cli.md said every run is reproducible from its ``--seed``, and
    the README that parallel runs and arena reports are the same byte for byte, yet
    ``ofc-fast play --bots search --seed 7`` printed other boards on each run: the
    search bot plays for a time budget by default (and so does a ``VectorEnv``
    opponent ``"search"``, whose seeded reset the docs said replays a match whole).
    Each of those promises now names
    the exception, and the reproducible search the page points to (a factory of
    ``SearchBot(samples=N, time_budget=None)`` as ``module:attribute``) plays the same
    deals twice."""
    import inspect

    from ofc_fast.bots import SearchBot
    from ofc_fast.cli import main

    assert inspect.signature(SearchBot).parameters["time_budget"].default is not None
    text = {
        p: " ".join((ROOT / p).read_text(encoding="utf-8").split())
        for p in ("docs/cli.md", "README.md", "docs/environments.md", "docs/parallel.md")
    }
    promises = [
        text["docs/cli.md"].split("- `--seed`: every run is reproducible", 1)[1],
        text["README.md"].split("byte for byte, on one core, on a pool and on Ray", 1)[1],
        text["README.md"].split("Same seed, same report", 1)[1],
        text["docs/environments.md"].split("which no bot plays;", 1)[1],
        text["docs/parallel.md"].split(
            "byte for byte, on one core, on a pool and on Ray", 1
        )[1],
    ]
    for promise in promises:
        assert "a `search` bot" in promise[:300], promise[:300]
        assert "budget" in promise[:300], promise[:300]
    (tmp_path / "fixed_search.py").write_text(
        "from ofc_fast.bots import SearchBot\n\n\n"
        "def bot(rules=None, seed=None):\n"
        "    return SearchBot(rules, seed, samples=4, time_budget=None)\n"
    )
    monkeypatch.syspath_prepend(str(tmp_path))
    argv = ["play", "--hands", "2", "--players", "2", "--seed", "7", "--quiet"]
    runs = []
    for n in range(2):
        out = tmp_path / f"run{n}.json"
        assert main([*argv, "--bots", "fixed_search:bot,random", "--json", str(out)]) == 0
        runs.append(json.loads(out.read_text(encoding="utf-8"))["deals"])
    capsys.readouterr()
    assert runs[0] == runs[1]
