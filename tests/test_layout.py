"""The package's layering: no module
reaches into another module's private names, no import circle, no long source file.

The C library's layering: ``csrc/include/`` the public headers, ``csrc/src/`` the
hand-written sources and private headers (none over 800 lines), ``csrc/generated/``
what tools/ generates; every public function documented.

A name starting with one underscore is private to the module that defines it (and a
module starting with one to its package).  The compiled layer, ``ofc_fast._native``, is
the one exception: every module may import it.

Import circles are looked for among every ``import`` of the package, at module level
or inside a function alike (a function-level import only hides a circle until the
function runs); imports under ``if TYPE_CHECKING:`` are for the type checker and do not
count.  ``from package import name`` depends on the module ``package.name`` when there
is one, else on the package's ``__init__``.  The command line finds the subcommands of
``arena``, ``parallel`` and ``serve`` by name (``ofc_fast.cli.COMMAND_MODULES``), so
they may import ``ofc_fast.cli.options`` without a circle.
"""

from __future__ import annotations

import ast
import re
from pathlib import Path

import pytest
from c_headers import functions

PACKAGE = Path(__file__).resolve().parent.parent / "ofc_fast"
# The namedtuple API (public despite the underscore).
NAMEDTUPLE_API = {"_replace", "_asdict", "_fields", "_make"}

pytestmark = pytest.mark.skipif(
    not PACKAGE.is_dir(), reason="needs the source tree (git clone)"
)


def _modules() -> list[Path]:
    return sorted(PACKAGE.rglob("*.py"))


def _private(name: str) -> bool:
    return name.startswith("_") and not name.startswith("__")


def _absolute(path: Path, node: ast.ImportFrom) -> list[str]:
    """The imported module's dotted path, as a list of names below ``ofc_fast``."""
    here = list(path.relative_to(PACKAGE).with_suffix("").parts)[:-1]
    if node.level:
        base = here[: len(here) - (node.level - 1)] if node.level > 1 else here
    else:
        names = (node.module or "").split(".")
        return names[1:] if names[0] == "ofc_fast" else ["<third party>"]
    return base + [p for p in (node.module or "").split(".") if p]


def _defined_here(tree: ast.AST) -> set[str]:
    """Private names this module defines: functions, classes, attributes it assigns,
    ``__slots__`` entries."""
    out: set[str] = set()
    for node in ast.walk(tree):
        if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)):
            out.add(node.name)
        elif isinstance(node, ast.Attribute) and isinstance(node.ctx, ast.Store):
            out.add(node.attr)
        elif isinstance(node, ast.Name) and isinstance(node.ctx, ast.Store):
            out.add(node.id)
        elif isinstance(node, ast.Constant) and isinstance(node.value, str):
            out.add(node.value)  # __slots__ entries, setattr names
    return {n for n in out if _private(n)}


def _findings(path: Path, text: str | None = None) -> list[str]:
    """What ``path`` (a module of the package; ``text``: its source, else read) reaches
    into."""
    tree = ast.parse(path.read_text(encoding="utf-8") if text is None else text)
    here = path.relative_to(PACKAGE).parts[:-1]
    own = _defined_here(tree)
    found = []
    for node in ast.walk(tree):
        if isinstance(node, ast.ImportFrom) and node.module != "__future__":
            target = _absolute(path, node)
            if target and target[0] == "_native":
                continue
            for i, part in enumerate(target):
                if _private(part) and tuple(target[:i]) != tuple(here):
                    found.append(f"{node.lineno}: imports the private module {part}")
            for alias in node.names:
                if _private(alias.name):
                    found.append(f"{node.lineno}: imports the private name {alias.name}")
        elif isinstance(node, ast.Attribute) and _private(node.attr):
            value = node.value
            if isinstance(value, ast.Name) and value.id in ("self", "cls"):
                continue
            if node.attr in own or node.attr in NAMEDTUPLE_API:
                continue
            found.append(f"{node.lineno}: reads {ast.unparse(node)}")
    return found


@pytest.mark.parametrize("path", _modules(), ids=lambda p: str(p.relative_to(PACKAGE)))
def test_no_module_uses_another_modules_private_names(path: Path) -> None:
    assert _findings(path) == []


def test_the_check_finds_a_private_import_and_a_private_attribute(tmp_path: Path) -> None:
    """The check itself: both kinds of reach are found (so the test above can fail)."""
    probe = PACKAGE / "game" / "probe.py"  # never written: the source is given
    found = _findings(
        probe,
        "from ..env.vector import _helper\n"
        "from ..game._private import x\n"
        "from ..env._private import z\n"
        "from ._own import y\n"
        "from .engine import check_seed\n"
        "def f(env):\n"
        "    return env._actions\n",
    )
    assert found == [
        "1: imports the private name _helper",
        "3: imports the private module _private",
        "7: reads env._actions",
    ]


def _stats_names() -> set[str]:
    """The names ``ofc_fast.arena._stats`` defines at module level (the arena's
    statistics)."""
    tree = ast.parse((PACKAGE / "arena" / "_stats.py").read_text(encoding="utf-8"))
    return {
        n.name
        for n in tree.body
        if isinstance(n, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef))
    }


def test_no_layer_below_the_arena_words_its_messages_with_the_arenas_statistics() -> None:
    """Regression: serve's 503 ("1 computation running ...") and the parallel runs'
    counts imported the plural helper ``counted`` from ``ofc_fast.arena`` (its
    ``_stats``): serve and parallel needed the arena's statistics module to word a
    message.  The helper is ``ofc_fast.errors.counted``, where the other wording
    helpers live; no module outside the arena imports a name of ``arena._stats``."""
    from ofc_fast.errors import counted

    assert counted(1, "computation") == "1 computation"
    stats = _stats_names()
    found = []
    for path in _modules():
        if path.relative_to(PACKAGE).parts[0] == "arena":
            continue
        for node in _imports(ast.parse(path.read_text(encoding="utf-8")).body):
            if isinstance(node, ast.ImportFrom) and _absolute(path, node)[:1] == ["arena"]:
                names = {a.name for a in node.names} & stats
                found += [f"{path.relative_to(PACKAGE)}:{node.lineno}: {n}" for n in names]
    assert found == []


# ------------------------------------------------------------------ import circles


def _module_name(path: Path) -> str:
    parts = list(path.relative_to(PACKAGE.parent).with_suffix("").parts)
    return ".".join(parts[:-1] if parts[-1] == "__init__" else parts)


def _type_checking(node: ast.If) -> bool:
    test = node.test
    return (isinstance(test, ast.Name) and test.id == "TYPE_CHECKING") or (
        isinstance(test, ast.Attribute) and test.attr == "TYPE_CHECKING"
    )


def _imports(body: list[ast.stmt]) -> list[ast.Import | ast.ImportFrom]:
    """Every import statement in ``body``, nested ones included, but those under
    ``if TYPE_CHECKING:``."""
    out: list[ast.Import | ast.ImportFrom] = []
    for node in body:
        if isinstance(node, (ast.Import, ast.ImportFrom)):
            out.append(node)
            continue
        if isinstance(node, ast.If) and _type_checking(node):
            out += _imports(node.orelse)
            continue
        for field in ("body", "orelse", "finalbody", "handlers"):
            inner = getattr(node, field, None)
            if isinstance(inner, list):
                out += _imports(inner)
    return out


def _import_graph(sources: dict[str, tuple[bool, str]]) -> dict[str, set[str]]:
    """Module -> the package's modules it imports; ``sources``: module name -> (is a
    package's ``__init__``, source text)."""
    graph: dict[str, set[str]] = {}
    for name, (is_package, text) in sources.items():
        here = name if is_package else name.rpartition(".")[0]
        found: set[str] = set()
        for node in _imports(ast.parse(text).body):
            if isinstance(node, ast.Import):
                found.update(a.name for a in node.names)
                continue
            if node.level:
                base = here.split(".")[: len(here.split(".")) - (node.level - 1)]
                target = ".".join(base + ([node.module] if node.module else []))
            else:
                target = node.module or ""
            for alias in node.names:
                sub = f"{target}.{alias.name}"
                found.add(sub if sub in sources else target)
        graph[name] = {m for m in found if m in sources and m != name}
    return graph


def _circles(graph: dict[str, set[str]]) -> list[list[str]]:
    """The strongly connected components of more than one module (Tarjan)."""
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    on_stack: set[str] = set()
    found: list[list[str]] = []

    def visit(v: str) -> None:
        index[v] = low[v] = len(index)
        stack.append(v)
        on_stack.add(v)
        for w in sorted(graph[v]):
            if w not in index:
                visit(w)
                low[v] = min(low[v], low[w])
            elif w in on_stack:
                low[v] = min(low[v], index[w])
        if low[v] == index[v]:
            component = []
            while True:
                w = stack.pop()
                on_stack.discard(w)
                component.append(w)
                if w == v:
                    break
            if len(component) > 1:
                found.append(sorted(component))

    for v in sorted(graph):
        if v not in index:
            visit(v)
    return found


def test_no_import_circle() -> None:
    sources = {
        _module_name(p): (p.name == "__init__.py", p.read_text(encoding="utf-8"))
        for p in _modules()
    }
    assert _circles(_import_graph(sources)) == []


def test_the_circle_check_finds_a_function_level_circle() -> None:
    """The check itself: a circle closed by an import inside a function is found; one
    closed under ``if TYPE_CHECKING:`` is not."""
    sources = {
        "ofc_fast.a": (False, "from .b import f\n"),
        "ofc_fast.b": (False, "def f():\n    from . import a\n"),
        "ofc_fast.c": (False, "from typing import TYPE_CHECKING\nfrom .a import f\n"),
        "ofc_fast.d": (
            False,
            "from typing import TYPE_CHECKING\nif TYPE_CHECKING:\n    from .c import x\n",
        ),
        "ofc_fast.e": (False, "from .d import y\n"),
    }
    sources["ofc_fast.c"] = (False, sources["ofc_fast.c"][1] + "from .e import z\n")
    assert _circles(_import_graph(sources)) == [["ofc_fast.a", "ofc_fast.b"]]
    sources["ofc_fast.d"] = (False, "from .c import x\n")
    assert _circles(_import_graph(sources)) == [
        ["ofc_fast.a", "ofc_fast.b"],
        ["ofc_fast.c", "ofc_fast.d", "ofc_fast.e"],
    ]


# --------------------------------------------------------------------- file size

MAX_LINES = 800
# Generated Python sources of the package, exempt from the limit (none today; the
# generated C tables live in csrc/).
GENERATED: frozenset[str] = frozenset()


def _long_files(root: Path) -> list[str]:
    """The hand-written ``.py`` files under ``root`` over :data:`MAX_LINES` lines, each
    with its length and how far over the limit it is."""
    long = []
    for path in sorted(root.rglob("*.py")):
        name = path.relative_to(root).as_posix()
        lines = len(path.read_text(encoding="utf-8").splitlines())
        if name not in GENERATED and lines > MAX_LINES:
            long.append(f"{name}: {lines} lines ({lines - MAX_LINES} over)")
    return long


def test_no_long_hand_written_source_file() -> None:
    long = _long_files(PACKAGE)
    assert long == [], f"split these (at most {MAX_LINES} lines each): {long}"


def test_the_length_check_names_the_file_and_how_far_over(tmp_path: Path) -> None:
    """The check itself: a file one line over is named, with its excess."""
    (tmp_path / "env").mkdir()
    (tmp_path / "env" / "long.py").write_text("x = 1\n" * (MAX_LINES + 1), "utf-8")
    (tmp_path / "short.py").write_text("x = 1\n" * MAX_LINES, "utf-8")
    assert _long_files(tmp_path) == [f"env/long.py: {MAX_LINES + 1} lines (1 over)"]


# ------------------------------------------------------------------ the C library

CSRC = PACKAGE.parent / "csrc"
LAYERS = ("include", "src", "generated")
C_MAX_LINES = 800
"""The longest a hand-written C source or header may be (one job a file)."""
# The generated header a public one includes (the inline rankers read its tables), so it
# is installed beside the public headers.
INSTALLED_GENERATED = {"ofc_tables.h"}

needs_csrc = pytest.mark.skipif(
    not (CSRC / "include" / "ofc_fast.h").is_file(),
    reason="needs the source tree (git clone)",
)


def _c_files() -> list[Path]:
    return sorted(p for p in CSRC.rglob("*") if p.suffix in (".c", ".h"))


def _generated(path: Path) -> bool:
    """A generated file says so in its first line (``GENERATED by tools/...``)."""
    with path.open(encoding="utf-8") as f:
        return "GENERATED by tools/" in f.readline()


def _includes(path: Path) -> list[str]:
    text = path.read_text(encoding="utf-8")
    return re.findall(r'^\s*#\s*include\s+"([^"]+)"', text, re.MULTILINE)


def csrc_findings(root: Path) -> list[str]:
    """What breaks the layers of the C library under ``root`` (a ``csrc/``): every file
    in a layer; generated files in ``generated/`` only, and nothing hand-written there;
    no hand-written file over :data:`C_MAX_LINES` lines; public headers in ``include/``
    only (they include nothing private); every function of a public header documented
    with ``@brief``."""
    out = []
    for path in sorted(p for p in root.rglob("*") if p.suffix in (".c", ".h")):
        rel = path.relative_to(root).as_posix()
        layer = rel.split("/")[0] if "/" in rel else ""
        if layer not in LAYERS:
            out.append(f"{rel}: outside the layers {LAYERS}")
            continue
        generated = _generated(path)
        if generated != (layer == "generated"):
            out.append(f"{rel}: {'generated' if generated else 'hand-written'} in {layer}/")
        lines = path.read_text(encoding="utf-8").count("\n")
        if not generated and lines > C_MAX_LINES:
            out.append(f"{rel}: {lines} lines (at most {C_MAX_LINES} by hand)")
        if layer == "include":
            for name in _includes(path):
                public = (root / "include" / name).is_file() or name in INSTALLED_GENERATED
                if not public:
                    out.append(f"{rel}: a public header includes the private {name}")
            for f in functions(path.read_text(encoding="utf-8"), path.name):
                if "@brief" not in f.comment:
                    out.append(f"{rel}: {f.name} has no @brief")
    return out


@needs_csrc
def test_csrc_is_in_layers_with_short_hand_written_files_and_documented_headers() -> None:
    assert {p.relative_to(CSRC).parts[0] for p in _c_files()} == set(LAYERS)
    assert not csrc_findings(CSRC)


def test_the_csrc_check_finds_each_kind_of_fault(tmp_path: Path) -> None:
    for layer in LAYERS:
        (tmp_path / layer).mkdir()
    (tmp_path / "include" / "ofc_ok.h").write_text(
        '#include "ofc_tables.h"\n/*! @brief Fine. */\nint ok(void);\n'
    )
    (tmp_path / "ofc_flat.c").write_text("int flat;\n")
    (tmp_path / "src" / "ofc_long.c").write_text("int x;\n" * (C_MAX_LINES + 1))
    (tmp_path / "src" / "ofc_made.c").write_text("/* GENERATED by tools/x.py */\n")
    (tmp_path / "src" / "ofc_private.h").write_text("int hidden(void);\n")
    (tmp_path / "generated" / "ofc_hand.c").write_text("int hand;\n")
    (tmp_path / "generated" / "ofc_big.c").write_text(
        "/* GENERATED by tools/x.py */\n" + "int y;\n" * (C_MAX_LINES + 1)
    )
    (tmp_path / "include" / "ofc_bad.h").write_text(
        '#include "ofc_private.h"\n/*! Says nothing. */\nint bad(void);\nint bare(int a);\n'
    )
    found = "\n".join(csrc_findings(tmp_path))
    for fault in (
        "ofc_flat.c: outside the layers",
        f"src/ofc_long.c: {C_MAX_LINES + 1} lines",
        "src/ofc_made.c: generated in src/",
        "generated/ofc_hand.c: hand-written in generated/",
        "include/ofc_bad.h: a public header includes the private ofc_private.h",
        "include/ofc_bad.h: bad has no @brief",
        "include/ofc_bad.h: bare has no @brief",
    ):
        assert fault in found, fault
    assert "ofc_big.c" not in found and "ofc_ok.h" not in found
