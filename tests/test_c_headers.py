"""The public C headers document every function and their examples compile.

Public headers are the ones docs/c-api.md presents to C users
(``tools/mkdocs_c_api.public_headers``: every ``csrc/include/ofc_*.h``).  Every function declared in
one has a ``/*! ... */`` comment of its own, right before it, with

* ``@brief``;
* ``@param NAME`` for each parameter, one name per ``@param``, and no ``@param`` for a
  name the function does not take: clang's ``-Wdocumentation`` (Doxygen's reading)
  takes ``@param a, b, c`` for one parameter named ``a,``, so a project building with
  ``-Wdocumentation -Werror`` could not include the headers (with clang installed,
  every public header is compiled so, as C and as C++; ``.ci/run`` installs clang and
  requires that test: ``OFC_REQUIRE_CLANG=1``);
* ``@return`` unless it returns ``void``;
* ``@pre`` when it has a precondition it does not check: a ``*_unchecked`` or
  ``*_inline`` function, a ``void`` function that takes a pointer (it has no status
  to return, so what it needs is stated), or one that takes a game state or vector
  environment slots (``ofc_game *``, ``ofc_vecenv_slot *``) and trusts them (all but
  those that fill or check them: ``STATE_CHECKED``).

Every ``@code`` ... ``@endcode`` block in a header comment (the headers mark their
examples ``Example`` so) is a C program: a block without ``main`` is wrapped in one,
after the public headers and ``<assert.h>``, ``<stdio.h>``, ``<stdlib.h>`` and
``<string.h>``; each builds with ``-std=c99 -Wall -Wextra -Werror -pedantic`` against
csrc/ and runs to exit status 0 (tests/support/c_programs.py, shared with the README's C
programs).

The C API's fuzz harness (tests/fuzz/c/fuzz_capi.c) compiles with the same flags.

These read the source tree: outside a checkout they skip.
"""

from __future__ import annotations

import os
import re
import shutil
import subprocess
from pathlib import Path
from typing import NamedTuple

import pytest
from c_headers import Function, blank_comments, functions
from c_programs import COMPILER, CSRC, ROOT, build_and_run, compile_library, compile_object
from scripts import load_script

TOOL = ROOT / "tools" / "mkdocs_c_api.py"
pytestmark = pytest.mark.skipif(
    not (CSRC.is_dir() and TOOL.exists()),
    reason="needs a source checkout (git clone: csrc/, tools/)",
)


def _public_headers() -> list[Path]:
    return list(load_script(TOOL, "mkdocs_c_api").public_headers(ROOT))


# The functions that take a game state or slots as any bytes, to fill or to check
# them: every other one trusts the state it is given, and says so in @pre.
STATE_CHECKED = {"ofc_game_init", "ofc_game_state_check", "ofc_vecenv_slot_check"}


def problems(f: Function) -> list[str]:
    """What a function's doc comment lacks."""
    if not f.comment:
        return [f"{f.header}: {f.name} has no /*! ... */ doc comment of its own"]
    c, out = f.comment, []
    if "@brief" not in c:
        out.append("@brief")
    documented = re.findall(r"@param(?:\[[a-z,]*\])?\s+(\S+)", c)
    for p in f.params:
        if p not in documented:
            out.append(f"@param {p}")
    out += [f"@param {d!r} (no such parameter)" for d in documented if d not in f.params]
    void = re.sub(r"\b(static|inline)\b", "", f.returns).strip() == "void"
    if not void and "@return" not in c:
        out.append("@return")
    raw = _raw_params(f)
    pointer_in = any("*" in p or "[" in p for p in raw)
    state_in = f.name not in STATE_CHECKED and any(
        re.search(r"\bofc_(game|vecenv_slot)\s*\*", p) for p in raw
    )
    if (
        "_unchecked" in f.name
        or f.name.endswith("_inline")
        or (void and pointer_in)
        or state_in
    ) and "@pre" not in c:
        out.append("@pre")
    return [f"{f.header}: {f.name} lacks {', '.join(out)}"] if out else []


def _raw_params(f: Function) -> list[str]:
    text = (CSRC / "include" / f.header).read_text(encoding="utf-8") if f.header else ""
    m = re.search(rf"\b{re.escape(f.name)}\s*\(([^)]*)\)", blank_comments(text))
    return m.group(1).split(",") if m else []


def test_every_public_function_is_documented() -> None:
    headers = _public_headers()
    assert {"ofc_fast.h", "ofc_game.h", "ofc_inline.h"} <= {h.name for h in headers}
    found, missing = [], []
    for h in headers:
        fs = functions(h.read_text(encoding="utf-8"), h.name)
        found += fs
        for f in fs:
            missing += problems(f)
    names = {f.name for f in found}
    assert (
        len(found) > 80
        and {
            "ofc_rank5_batch",
            "ofc_rank3_batch",
            "ofc_settle",
            "ofc_rank5_inline",
            "ofc_cards_per_seat",
        }
        <= names
    )
    assert not missing, "\n".join(missing)


def _unmarked_declarations(text: str) -> tuple[int, list[str]]:
    """The top-level function and ``extern`` data declarations of a header's text
    (comments, preprocessor lines and the C++ wrapper aside; typedefs and static
    inline definitions are no declarations of the library): how many, and those that
    do not start with ``OFC_API``."""
    code = blank_comments(text)
    depth, start, count, unmarked = 0, 0, 0, []
    for i, ch in enumerate(code):
        if ch == "{":
            depth += 1
        elif ch == "}":
            depth -= 1
            start = i + 1 if depth == 0 else start
        elif ch == ";" and depth == 0:
            statement = " ".join(code[start:i].split())
            start = i + 1
            if statement.startswith(("typedef", "static")):
                continue
            if "(" in statement or re.match(r"(OFC_API )?extern\b", statement):
                count += 1
                if not statement.startswith("OFC_API "):
                    unmarked.append(statement)
    return count, unmarked


def test_every_public_declaration_carries_ofc_api() -> None:
    """The shared library exports exactly the declarations marked OFC_API
    (ofc_export.h: dllexport / dllimport on Windows, visibility("default") elsewhere):
    the Windows build exported every internal symbol instead
    (WINDOWS_EXPORT_ALL_SYMBOLS), and a program using the DLL could not import the
    tables ofc_inline.h reads (data needs __declspec(dllimport)).  Every function and
    table of the installed headers carries the mark."""
    headers = [*_public_headers(), CSRC / "generated" / "ofc_tables.h"]
    total, unmarked = 0, []
    for h in headers:
        count, bad = _unmarked_declarations(h.read_text(encoding="utf-8"))
        total += count
        unmarked += [f"{h.name}: {d}" for d in bad]
    assert total > 100
    assert not unmarked, "\n".join(unmarked)


def test_status_string_names_every_header_with_status_codes() -> None:
    """ofc_status_string()'s comment lists the public headers whose OFC_E_* codes it
    covers ("the other headers return only these codes"): each header that defines a
    status code is in that list (ofc_vecenv.h's OFC_E_NO_DECISION was left out)."""
    headers = _public_headers()
    fast = next(h for h in headers if h.name == "ofc_fast.h")
    doc = next(
        f.comment
        for f in functions(fast.read_text(encoding="utf-8"), fast.name)
        if f.name == "ofc_status_string"
    )
    defining = {
        h.name
        for h in headers
        if re.search(r"^#define OFC_E_\w+", h.read_text(encoding="utf-8"), re.MULTILINE)
        or re.search(r"\bOFC_E_\w+ = -\d+", h.read_text(encoding="utf-8"))
    }
    assert {"ofc_fast.h", "ofc_vecenv.h"} <= defining
    listed = set(re.findall(r"\bofc_\w+\.h\b", " ".join(doc.split())))
    assert sorted(defining - listed) == []


def test_the_checker_finds_what_is_missing() -> None:
    text = (
        "/*! @brief A.\n * @param a  x.\n * @return 1. */\nint f(int a);\n"
        "/*! @brief Ranks.\n * @param a  x.\n * @param b  y.\n * @return 1. */\n"
        "int r(int a, int b);\n"
        "/*! @brief Two share. */\nint g(const int *x, size_t n);\nint h(void);\n"
        "static inline uint16_t k_inline(uint8_t a, uint8_t b[3])\n{\n    return a;\n}\n"
        "typedef struct s { int (*cb)(int); } s;\n"
        "/*! @brief Fill.\n * @param out  o. */\nvoid fill(int out[4]);\n"
    )
    fs = functions(text)
    assert [(f.name, f.params) for f in fs] == [
        ("f", ["a"]),
        ("r", ["a", "b"]),
        ("g", ["x", "n"]),
        ("h", []),
        ("k_inline", ["a", "b"]),
        ("fill", ["out"]),
    ]
    assert problems(fs[0]) == [] and problems(fs[1]) == []
    assert problems(fs[2]) == [": g lacks @param x, @param n, @return"]
    assert problems(fs[3]) == [": h has no /*! ... */ doc comment of its own"]
    assert problems(fs[4]) == [": k_inline has no /*! ... */ doc comment of its own"]


def test_a_function_trusting_its_state_says_so_in_pre() -> None:
    """Regression: ofc_vecenv_step() reads its slots without checking them, and its
    comment had no @pre saying so: a C program that stepped slots it had not reset
    (malloc'd bytes, or a saved environment restored without ofc_vecenv_slot_check())
    crashed (AddressSanitizer: a stack buffer overflow in ofc_game_apply_placement()).
    Every public function that takes a game state or slots and trusts them (not one
    of STATE_CHECKED) states it in @pre, the reset's slots included."""
    found = {
        f.name: f
        for h in _public_headers()
        if h.name in ("ofc_vecenv.h", "ofc_game.h")
        for f in functions(h.read_text(encoding="utf-8"), h.name)
    }
    step, reset = found["ofc_vecenv_step"], found["ofc_vecenv_reset"]
    assert problems(step) == []
    unstated = step._replace(comment=step.comment.replace("@pre", "@note"))
    assert problems(unstated) == ["ofc_vecenv.h: ofc_vecenv_step lacks @pre"]
    checked = found["ofc_game_state_check"]
    assert "@pre" not in checked.comment and problems(checked) == []
    for f in (step, reset):
        pre = " ".join(f.comment.split("@pre", 1)[1].split())
        assert "ofc_vecenv_slot_check()" in pre, f.name


def test_the_checker_refuses_a_param_clang_reads_wrong() -> None:
    """``@param a, b  x.`` documents one parameter named ``a,`` for clang
    (``-Wdocumentation``: "parameter 'a,' not found"), and ``a,b`` one named ``a,b``:
    both are refused, as is a ``@param`` naming no parameter; ``@param[out] b`` is
    Doxygen's direction form of ``b``."""
    text = (
        "/*! @brief Ranks.\n * @param a, b  x.\n * @return 1. */\nint r(int a, int b);\n"
        "/*! @brief R.\n * @param a,b  x.\n * @return 1. */\nint s(int a, int b);\n"
        "/*! @brief R.\n * @param a  x.\n * @param[out] b  y.\n * @param z  z.\n"
        " * @return 1. */\nint t(int a, int *b);\n"
    )
    r, s, t = functions(text)
    assert problems(r) == [": r lacks @param a, @param b, @param 'a,' (no such parameter)"]
    assert problems(s) == [": s lacks @param a, @param b, @param 'a,b' (no such parameter)"]
    assert problems(t) == [": t lacks @param 'z' (no such parameter)"]


CLANG = shutil.which("clang")


def test_public_headers_compile_with_clang_wdocumentation(tmp_path: Path) -> None:
    """Every public header, included alone, compiles with clang's
    ``-Wdocumentation -Werror`` as C99 and as C++ (clang checks each ``@param`` names a
    parameter, ``@return`` is not on a ``void`` function, ...): a project that builds
    with those flags can include it.  ``.ci/run`` sets OFC_REQUIRE_CLANG=1: there a
    missing clang fails."""
    if CLANG is None:
        if os.environ.get("OFC_REQUIRE_CLANG") == "1":
            pytest.fail("OFC_REQUIRE_CLANG=1 but clang is not installed")
        pytest.skip("install clang to check the headers with -Wdocumentation")
    includes = [f"-I{CSRC / layer}" for layer in ("include", "generated")]
    failures = []
    for h in _public_headers():
        for lang, std in (("c", "-std=c99"), ("c++", "-std=c++11")):
            src = tmp_path / f"{h.stem}.{'c' if lang == 'c' else 'cpp'}"
            src.write_text(f'#include "{h.name}"\n', encoding="utf-8")
            run = subprocess.run(
                [CLANG, "-x", lang, std, "-Wdocumentation", "-Werror", "-fsyntax-only"]
                + [*includes, str(src)],
                capture_output=True,
                text=True,
            )
            if run.returncode:
                failures.append(f"{h.name} ({lang}):\n{run.stderr}")
    assert not failures, "\n".join(failures)


# ------------------------------------------------------------------- examples

_INCLUDES = (
    "#include <assert.h>\n#include <stdio.h>\n#include <stdlib.h>\n#include <string.h>\n\n"
)


class Example(NamedTuple):
    header: str
    line: int
    code: str


def examples(text: str, header: str = "") -> list[Example]:
    """The ``@code`` ... ``@endcode`` blocks of a header's comments, their comment
    prefix (`` * ``) removed."""
    out = []
    for m in re.finditer(r"/\*.*?\*/", text, re.DOTALL):
        comment = m.group(0)
        for b in re.finditer(r"@code[^\n]*\n(.*?)@endcode", comment, re.DOTALL):
            lines = [re.sub(r"^\s*\* ?", "", ln) for ln in b.group(1).splitlines()]
            line = text.count("\n", 0, m.start() + b.start()) + 2
            out.append(Example(header, line, "\n".join(lines).strip("\n")))
    return out


def program(example: Example, headers: list[str]) -> str:
    """A complete C program of an example."""
    head = _INCLUDES + "".join(f'#include "{h}"\n' for h in headers) + "\n"
    if "int main(" in example.code:
        return head + example.code + "\n"
    body = "\n".join("    " + ln if ln else "" for ln in example.code.splitlines())
    return f"{head}int main(void)\n{{\n{body}\n    return 0;\n}}\n"


def test_example_extraction() -> None:
    text = (
        "/* Overview.\n * Example\n * -------\n * @code\n * int x = 1;\n"
        " *     assert(x == 1);\n * @endcode\n */\n/*! @brief f.\n * @code\n"
        " * int main(void) { return 0; }\n * @endcode */\n"
    )
    ex = examples(text, "a.h")
    assert [e.code for e in ex] == [
        "int x = 1;\n    assert(x == 1);",
        "int main(void) { return 0; }",
    ]
    assert ex[0].line == 5
    assert program(ex[0], ["a.h"]).endswith(
        '#include "a.h"\n\nint main(void)\n{\n    int x = 1;\n        assert(x == 1);\n'
        "    return 0;\n}\n"
    )
    assert program(ex[1], []).endswith("int main(void) { return 0; }\n")


def _all_examples() -> list[Example]:
    return [
        e
        for h in _public_headers()
        for e in examples(h.read_text(encoding="utf-8"), h.name)
    ]


def test_every_header_has_an_example() -> None:
    """Each public header's overview has an Example block."""
    with_examples = {e.header for e in _all_examples()}
    assert {h.name for h in _public_headers()} <= with_examples


@pytest.mark.skipif(COMPILER is None, reason="no C compiler: install gcc")
def test_header_examples_compile_and_run(tmp_path: Path) -> None:
    headers = [h.name for h in _public_headers()]
    found = _all_examples()
    assert len(found) >= len(headers)
    library = compile_library(tmp_path)
    for i, ex in enumerate(found):
        try:
            build_and_run(program(ex, headers), tmp_path, f"header_example{i}", library)
        except Exception as exc:  # name the example that failed
            raise AssertionError(
                f"the example at {ex.header}:{ex.line} does not build and run: {exc}"
            ) from exc


@pytest.mark.skipif(COMPILER is None, reason="no C compiler: install gcc")
def test_c_fuzz_harness_compiles_pedantic(tmp_path: Path) -> None:
    """tests/fuzz/c/fuzz_capi.c, the libFuzzer harness of the C API, is a C99 user of
    the public headers: its translation unit compiles (``-c``, without libFuzzer) with
    ``-std=c99 -Wall -Wextra -Werror -pedantic``, as tests/fuzz/c/run.sh builds it
    (a uint8_t[][2] passed as the stakes functions' pairs needs the cast ofc_settle.h
    documents)."""
    harness = ROOT / "tests" / "fuzz" / "c" / "fuzz_capi.c"
    try:
        compile_object(harness, tmp_path)
    except subprocess.CalledProcessError as exc:
        raise AssertionError(f"{harness.name} does not compile: {exc.stderr}") from exc
