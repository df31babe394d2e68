"""The ``test`` extra matches what the tests use, and every skip says what to install
or do."""

from __future__ import annotations

import ast
import re
import sys
from pathlib import Path

import pytest

import ofc_fast

ROOT = Path(__file__).resolve().parent.parent
PYPROJECT = ROOT / "pyproject.toml"
TESTS = Path(__file__).resolve().parent

pytestmark = pytest.mark.skipif(
    not PYPROJECT.exists(), reason="needs a source checkout (git clone: pyproject.toml)"
)

# Third-party modules the tests import -> the distribution that provides them.
DISTRIBUTION = {
    "griffe": "griffelib",
    "gymnasium": "gymnasium",
    "hypothesis": "hypothesis",
    "jsonschema": "jsonschema",
    "mypy": "mypy",  # test_typing: mypy --strict on the user scripts of typing_scripts/
    "numpy": "numpy",
    "pettingzoo": "pettingzoo",
    "pytest": "pytest",
    "rich": "rich",
    "scipy": "scipy",
    "selenium": "selenium",
    "treys": "treys",
    "uvicorn": "uvicorn",
    "wsproto": "wsproto",  # uvicorn's WebSockets: the handshake test of test_serve_api
}
# Provided elsewhere: a dependency of the package itself, or another extra whose own CI
# step installs it (the Ray tests: the ray extra).
ELSEWHERE = {
    "numpy": "a dependency",
    "ray": "the ray extra",
    "torch": "the learn and rl-train extras",
    "markdown": "the docs extra (the link check renders pages as mkdocs does)",
    "httptools": "the serve extra (which HTTP parser the test servers run on)",
    "matplotlib": "the learn extra (the training report's plot)",
    "mkdocs": "the docs extra (the link check reads mkdocs.yml as mkdocs does)",
    "sb3_contrib": "the rl-train extra",
    "stable_baselines3": "the rl-train extra",
}
# In the extra for a tool rather than an import: the coverage floor (pytest --cov), and
# cmake for the C library's CMake build (tests/test_cmake.py runs the cmake program).
TOOLS = {"pytest-cov", "cmake"}


def _extras() -> dict[str, list[str]]:
    """Every extra of pyproject.toml: its name -> its requirement strings."""
    if sys.version_info >= (3, 11):
        import tomllib
    else:  # pragma: no cover - Python 3.10
        tomllib = pytest.importorskip("tomli", reason="pip install tomli (Python 3.10)")
    doc = tomllib.loads(PYPROJECT.read_text(encoding="utf-8"))
    extras: dict[str, list[str]] = doc["project"]["optional-dependencies"]
    return extras


def _requirements(name: str) -> list[str]:
    """The requirement strings of extra ``name`` in pyproject.toml."""
    return _extras()[name]


def _extra(name: str) -> set[str]:
    return {re.split(r"[<>=!~;\[ ]", r, maxsplit=1)[0].lower() for r in _requirements(name)}


def _test_files() -> list[Path]:
    # tests/support: the helpers the tests import; tests/fuzz: the fuzz extra's harnesses
    return sorted([*TESTS.glob("*.py"), *(TESTS / "support").glob("*.py")])


def _imports(path: Path) -> set[str]:
    """Top-level modules a file imports (import statements and importorskip)."""
    tree = ast.parse(path.read_text(encoding="utf-8"))
    out: set[str] = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            out |= {a.name.split(".")[0] for a in node.names}
        elif isinstance(node, ast.ImportFrom) and node.level == 0 and node.module:
            out.add(node.module.split(".")[0])
        elif _is_call(node, "importorskip") and node.args:
            arg = node.args[0]
            if isinstance(arg, ast.Constant) and isinstance(arg.value, str):
                out.add(arg.value.split(".")[0])
    return out


def _is_call(node: ast.AST, name: str) -> bool:
    return (
        isinstance(node, ast.Call)
        and isinstance(node.func, ast.Attribute)
        and node.func.attr == name
    )


def _third_party(modules: set[str]) -> set[str]:
    local = {p.stem for p in [*_test_files(), *(ROOT / "tools").glob("*.py")]}
    local |= {"ofc_fast", "tomli", "tomllib"}
    return {
        m
        for m in modules
        if m not in sys.stdlib_module_names and m not in local and m != "__future__"
    }


@pytest.mark.skipif(
    not (ROOT / "tools").is_dir(), reason="needs a source checkout (git clone: tools/)"
)
def test_the_test_extra_has_what_the_tests_import() -> None:
    used = set().union(*(_third_party(_imports(p)) for p in _test_files()))
    unknown = used - set(DISTRIBUTION) - set(ELSEWHERE)
    assert not unknown, f"map these modules to a distribution here: {sorted(unknown)}"
    extra = _extra("test")
    missing = {DISTRIBUTION[m] for m in used if m not in ELSEWHERE} - extra
    assert not missing, f"the test extra lacks {sorted(missing)}"
    unused = extra - {DISTRIBUTION[m] for m in used if m in DISTRIBUTION} - TOOLS
    assert not unused, f"the test extra installs what no test imports: {sorted(unused)}"


def _skip_reasons(path: Path) -> list[tuple[int, str | None]]:
    """(line, reason text or None) of every skip a test file can take."""
    out: list[tuple[int, str | None]] = []
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if not isinstance(node, ast.Call):
            continue
        if _is_call(node, "importorskip"):
            kw = {k.arg: k.value for k in node.keywords}
            out.append((node.lineno, _text(kw.get("reason"))))
        elif _is_call(node, "skip") and isinstance(node.func, ast.Attribute):
            if isinstance(node.func.value, ast.Name) and node.func.value.id == "pytest":
                out.append((node.lineno, _text(node.args[0]) if node.args else None))
        elif _is_call(node, "skipif"):
            kw = {k.arg: k.value for k in node.keywords}
            out.append((node.lineno, _text(kw.get("reason"))))
    return out


def _text(node: ast.AST | None) -> str | None:
    """A string constant (or an implicit concatenation) as text; None otherwise."""
    if isinstance(node, ast.Constant) and isinstance(node.value, str):
        return node.value
    if isinstance(node, ast.JoinedStr):
        return "".join(
            v.value for v in node.values if isinstance(v, ast.Constant)
        )  # an f-string: its literal parts
    return None


# A skip says what to install or do: a pip command, a thing to install, a checkout to
# clone, the implementation it needs, or the platform to run on.
SAYS_WHAT = re.compile(r"pip install|install |git clone|CPython|run on ")


def test_every_skip_says_what_to_install_or_do() -> None:
    vague = [
        f"{p.name}:{line}: {reason!r}"
        for p in _test_files()
        for line, reason in _skip_reasons(p)
        if reason is None or not SAYS_WHAT.search(reason)
    ]
    assert not vague, "\n".join(vague)


def test_the_rl_train_extra_needs_a_gymnasium_with_autoreset_modes() -> None:
    """ofc_fast.env.sb3's GymVectorEnv declares ``gymnasium.vector.AutoresetMode``,
    which Gymnasium added in 1.1 (its release notes: the three autoreset modes); the
    rl-train extra once allowed gymnasium 1.0, where importing the adapter failed with
    AttributeError."""
    sb3 = Path(ofc_fast.__file__).resolve().parent / "env" / "sb3.py"  # the one under test
    assert "gymnasium.vector.AutoresetMode" in sb3.read_text(encoding="utf-8")
    (pin,) = [r for r in _requirements("rl-train") if r.startswith("gymnasium")]
    floor = re.fullmatch(r"gymnasium>=(\d+)\.(\d+)(\.\d+)*", pin)
    assert floor is not None, pin
    assert (int(floor[1]), int(floor[2])) >= (1, 1), pin


@pytest.mark.skipif(
    not (ROOT / "README.md").exists(),
    reason="needs a source checkout (git clone: README.md)",
)
def test_the_readme_lists_each_extra_s_packages() -> None:
    """README.md's list of the extras named some of their packages only (``cli``
    without tqdm, ``rl-train`` and ``learn`` without matplotlib, ``docs`` without its
    mkdocs plugins): each extra it gives packages for lists them all, as pyproject.toml
    has them, and no other."""
    text = " ".join((ROOT / "README.md").read_text(encoding="utf-8").split())
    sentence = text.split("It needs `cffi` and `numpy`. Extras: ", 1)[1].split(". ", 1)[0]
    listed = dict(re.findall(r"`([\w-]+)` \(([^)]*)\)", sentence))
    assert {"cli", "rl-train", "learn", "serve", "docs", "bench"} <= set(listed)
    for name, words in listed.items():
        pieces = [p.strip() for p in re.split(r"[,:]", words)]
        named = {p for p in pieces if re.fullmatch(r"[a-z][\w-]*", p)}  # not prose
        if named:  # (`test` (what the tests need) names none)
            assert named == _extra(name), (name, sorted(named), sorted(_extra(name)))


@pytest.mark.skipif(
    not (ROOT / "README.md").exists(),
    reason="needs a source checkout (git clone: README.md)",
)
def test_the_readme_lists_every_extra() -> None:
    """Regression: README.md's list of the extras ("It needs `cffi` and `numpy`.
    Extras: ...") left out ``lint`` (ruff, mypy), which CONTRIBUTING.md tells a
    contributor to install: a reader of the README did not learn it exists. The list
    names every extra of pyproject.toml, and no other."""
    text = " ".join((ROOT / "README.md").read_text(encoding="utf-8").split())
    sentence = text.split("It needs `cffi` and `numpy`. Extras: ", 1)[1].split(". ", 1)[0]
    listed = set(re.findall(r"`([\w-]+)` \(", sentence))
    assert listed == set(_extras()), sorted(listed ^ set(_extras()))


_HINT = re.compile(r"pip install (\S+)")
NOT_AN_EXTRA = {"-U": "an upgrade of the package", "-e": "a build of the checkout"}
"""The package's ``pip install`` texts that name no optional dependency."""


def test_every_install_hint_of_the_package_names_its_extra_one_way() -> None:
    """Regression: the package's hints for a missing optional dependency said
    ``pip install "ofc-fast[ray]"``, ``pip install 'ofc-fast[serve]'`` and ``pip
    install ofc-fast[arena]`` (which zsh refuses: "no matches found"): every hint
    (messages and docstrings) is ``pip install 'ofc-fast[EXTRA]'``, EXTRA an extra of
    pyproject.toml (``require_extra`` formats its own: ``{extra}``)."""
    extras = set(_extras()) | {"{extra}"}
    root = Path(ofc_fast.__file__).parent
    bad, seen = [], 0
    for path in sorted(root.rglob("*.py")):
        for n, what in _hints(path):
            seen += 1
            if what not in NOT_AN_EXTRA and not _one_way(what, extras):
                bad.append(f"{path.relative_to(root)}:{n}: pip install {what}")
    assert seen > 10 and bad == [], bad


def _hints(path: Path) -> list[tuple[int, str]]:
    """Each ``pip install WORD`` of ``path``: its line number and WORD."""
    lines = path.read_text(encoding="utf-8").splitlines()
    return [(n, what) for n, line in enumerate(lines, 1) for what in _HINT.findall(line)]


def _one_way(what: str, extras: set[str]) -> bool:
    """``what`` (a ``pip install`` word) is ``'ofc-fast[EXTRA]'`` (then `` or "),
    EXTRA one of ``extras``."""
    m = re.match(r"'ofc-fast\[([a-zA-Z{}-]+)\]'", what)
    return m is not None and m.group(1) in extras


HINT_PAGES = ("README.md", "CONTRIBUTING.md", "docs", "examples", "benchmarks", "tests")
"""Where the project's texts beside the package give install hints too."""


@pytest.mark.skipif(
    not (ROOT / "README.md").exists(),
    reason="needs a source checkout (git clone: README.md, docs/, tests/)",
)
def test_the_docs_and_tests_write_an_install_hint_as_the_package_does() -> None:
    """Regression: the README, docs/arena.md, docs/index.md and examples/train_ppo.py
    wrote ``pip install`` of ``"ofc-fast[arena]"`` (double quotes) and a skip reason of
    the tests ``ofc-fast[rl]`` bare (zsh: "no matches found"), while the package's
    messages say ``pip install 'ofc-fast[arena]'``: every ``pip install`` of an extra
    of ofc-fast in the README, CONTRIBUTING.md, docs/, examples/, benchmarks/ and
    tests/ is written the package's one way (``X``: the README's any extra; this file
    names the old forms it refuses); and outside tests/ (whose docstrings quote old
    forms) every ``ofc-fast[`` is single-quoted, a hint after an option or in prose
    too (docs/serve.md: ``"ofc-fast[serve]" once released``)."""
    extras = set(_extras()) | {"{extra}", "EXTRA", "X"}
    bad, seen = [], 0
    for top in HINT_PAGES:
        paths = [ROOT / top] if top.endswith(".md") else sorted((ROOT / top).rglob("*"))
        for path in paths:
            if path.suffix not in (".md", ".py", ".txt") or path.resolve() == Path(
                __file__
            ):
                continue
            text = path.read_text(encoding="utf-8", errors="replace").splitlines()
            for n, line in enumerate(text, 1):  # (after an option: pip install -U ...)
                if top != "tests" and re.search(r"(?<!')ofc-fast\[", line):
                    bad.append(f"{path.relative_to(ROOT)}:{n}: {line.strip()}")
            for n, what in _hints(path):
                if re.search(r"ofc[-_]fast\[", what):
                    seen += 1
                    if not _one_way(what, extras):
                        bad.append(f"{path.relative_to(ROOT)}:{n}: pip install {what}")
    assert seen > 5 and bad == [], bad
