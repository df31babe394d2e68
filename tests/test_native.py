"""The compiled layer (ofc_fast._native): the cffi module agrees with the C headers,
its stub is current, every status code has one message and one exception class, and
a source tree without the extension fails with one line saying what to do.

The header checks read csrc/include/ with their own small parser (not the build script's);
outside a checkout (a wheel's test run) they skip.
"""

from __future__ import annotations

import json
import re
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

import ofc_fast
from ofc_fast import _native
from ofc_fast._native import ERRORS, MOVE_REASONS, ffi, lib, move_error, status_error
from ofc_fast.errors import CardError, GameError, MoveError, OfcError, SearchError

ROOT = Path(__file__).resolve().parent.parent
CSRC = ROOT / "csrc" / "include"
PRIVATE = {"ofc_internal.h", "ofc_internal_solve.h", "ofc_tables.h", "ofc_inline.h"}
needs_csrc = pytest.mark.skipif(
    not (CSRC / "ofc_fast.h").exists(), reason="needs a source checkout (git clone: csrc/)"
)


def _headers() -> dict[str, str]:
    """Public header name -> text without comments."""
    out = {}
    for path in sorted(CSRC.glob("ofc_*.h")):
        if path.name not in PRIVATE:
            text = path.read_text(encoding="utf-8")
            out[path.name] = re.sub(r"/\*.*?\*/|//[^\n]*", " ", text, flags=re.DOTALL)
    return out


def _int_defines() -> dict[str, int]:
    """Every ``#define OFC_X <integer>`` of the public headers (literal or (-n))."""
    found = {}
    for text in _headers().values():
        for name, value in re.findall(
            r"^#define\s+(OFC_\w+)\s+\(?\s*(-?\s*(?:0x[0-9A-Fa-f]+|\d+))u?\s*\)?\s*$",
            text,
            flags=re.MULTILINE,
        ):
            found[name] = int(value.replace(" ", ""), 0)
    return found


def _enumerators() -> dict[str, int]:
    found = {}
    for text in _headers().values():
        for body in re.findall(r"typedef\s+enum\s+\w*\s*\{(.*?)\}", text, flags=re.DOTALL):
            for name, value in re.findall(r"(OFC_\w+)\s*=\s*(-?\d+)", body):
                found[name] = int(value)
    return found


def _functions() -> set[str]:
    """Names of the functions the public headers declare."""
    found = set()
    for text in _headers().values():
        found |= set(
            re.findall(r"^[A-Za-z_][\w \t\*]*?\b(ofc_\w+)\s*\(", text, flags=re.MULTILINE)
        )
    return found


def _status_codes() -> dict[str, int]:
    codes = {
        k: v
        for k, v in {**_int_defines(), **_enumerators()}.items()
        if k.startswith("OFC_E_")
    }
    assert len(codes) >= 27  # sanity: the parser found the codes of every header
    return codes


@needs_csrc
def test_every_header_function_is_in_the_cffi_module() -> None:
    functions = _functions()
    assert {
        "ofc_rank",
        "ofc_settle",
        "ofc_game_apply_action",
        "ofc_status_string",
    } <= functions
    missing = sorted(f for f in functions if not hasattr(lib, f))
    assert not missing, (
        f"declared in csrc/include/*.h but not in the cffi module: {missing}"
    )


@needs_csrc
def test_every_header_constant_has_the_header_value() -> None:
    constants = {**_int_defines(), **_enumerators()}
    assert constants["OFC_STRENGTH_MAX"] == 7917  # sanity of the parser
    wrong = {
        k: (v, getattr(lib, k, None))
        for k, v in constants.items()
        if getattr(lib, k, None) != v
    }
    assert not wrong, f"header value != cffi module value: {wrong}"


@needs_csrc
def test_floating_and_computed_constants() -> None:
    assert lib.OFC_SEARCH_FOUL_VALUE == -1000.0
    assert lib.OFC_STAY_VALUE_LIMIT == 100000.0
    assert lib.ofc_version_number() == lib.OFC_VERSION_NUMBER


def test_the_version_string_spells_the_version_number() -> None:
    """OFC_VERSION_STRING (setup.py reads it) and MAJOR/MINOR/PATCH (CMake reads them)
    are two literals of one version: they must agree, and __version__ with them."""
    n = lib.ofc_version_number()
    spelled = f"{n // 10000}.{n // 100 % 100}.{n % 100}"
    assert ffi.string(lib.ofc_version_string()).decode("ascii") == spelled
    assert ofc_fast.__version__ == spelled


# What setuptools' build_ext compares with a built extension to decide it is stale:
# each extension's sources and depends, as `python setup.py build_ext` finalizes them.
_EXTENSION_INPUTS = """
import json, runpy, setuptools
from setuptools.dist import Distribution
given = {}
setuptools.setup = lambda **kw: given.update(kw)
runpy.run_path("setup.py")
dist = Distribution(given)
cmd = dist.get_command_obj("build_ext")
cmd.inplace = 1
cmd.ensure_finalized()
print(json.dumps({e.name: [*e.sources, *e.depends] for e in cmd.extensions}))
"""


@needs_csrc
def test_build_ext_rebuilds_the_extensions_after_a_c_change() -> None:
    """`python setup.py build_ext --inplace` after a change of csrc/ (CONTRIBUTING.md)
    recompiled the static library but left both extension modules as they were
    ("skipping ... up-to-date": the change not taken); each extension's inputs now
    hold every C source and header of the library, so it is relinked."""
    result = subprocess.run(
        [sys.executable, "-c", _EXTENSION_INPUTS],
        cwd=ROOT,
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert result.returncode == 0, result.stderr
    inputs = json.loads(result.stdout.strip().splitlines()[-1])
    c_files = sorted(
        p.relative_to(ROOT).as_posix()
        for layer in ("include", "src", "generated")
        for p in (ROOT / "csrc" / layer).glob("ofc_*.[ch]")
    )
    assert c_files and sorted(inputs) == [
        "ofc_fast._native._ofc",
        "ofc_fast._native._speedups",
    ]
    for name, given in inputs.items():
        missing = [f for f in c_files if f not in given]
        assert not missing, f"{name} is not rebuilt after a change of {missing[:3]}"


@needs_csrc
def test_no_hand_written_cdefs_left() -> None:
    pkg = ROOT / "ofc_fast"
    assert not (pkg / "cdefs").exists()
    headers = [p for p in pkg.rglob("*.h")]
    assert not headers, f"C declarations kept beside the headers: {headers}"


@pytest.mark.skipif(
    not (ROOT / "tools" / "gen_native_stubs.py").exists(),
    reason="needs a source checkout (git clone: tools/)",
)
def test_stub_of_the_cffi_module_is_current() -> None:
    result = subprocess.run(
        [sys.executable, str(ROOT / "tools" / "gen_native_stubs.py"), "--check"],
        capture_output=True,
        text=True,
        timeout=120,
        check=False,
    )
    assert result.returncode == 0, result.stderr


def test_stubs_are_shipped() -> None:
    here = Path(_native.__file__).parent
    assert (here / "_ofc.pyi").exists()
    if hasattr(_native, "_speedups") or sys.implementation.name == "cpython":
        assert (here / "_speedups.pyi").exists()


@needs_csrc
def test_threads_section_names_every_public_header() -> None:
    """ofc_fast.h's "Threads" section (each input byte read once) says which functions
    it covers: those of every public header, each named (it said "validating
    functions", no header named), and the functions it does not cover."""
    text = (CSRC / "ofc_fast.h").read_text(encoding="utf-8")
    section = text[text.index(" * Threads\n") : text.index(" * Example\n")]
    section = re.sub(r"\s*\n \* ?", " ", section)
    headers = {p.name for p in CSRC.glob("ofc_*.h")} - {"ofc_fast.h", "ofc_export.h"}
    missing = sorted(h for h in headers - {"ofc_inline.h"} if h not in section)
    assert not missing, f"headers the Threads section does not name: {missing}"
    assert "Not covered" in section and "ofc_inline.h" in section


@needs_csrc
def test_threads_section_names_the_functions_that_read_twice() -> None:
    """The batch kernels of ofc_fast.h check every row before writing any output, then
    copy and check each block again to compute it (tests/test_bad_input.py races them:
    a writer makes them refuse with the rows before the refused one written).  The
    Threads section, which says every checking function reads each byte once, named
    only ofc_apply_stakes as reading twice."""
    text = (CSRC / "ofc_fast.h").read_text(encoding="utf-8")
    section = text[text.index(" * Threads\n") : text.index(" * Example\n")]
    section = re.sub(r"\s*\n \* ?", " ", section)
    twice = section[section.index("Not covered") :]
    for name in ("rank5_batch", "rank3_batch", "eval_boards", "score_pairs"):
        assert f"ofc_{name}()" in twice, name
    assert "ofc_apply_stakes() beyond 256" in twice


# ------------------------------------------------------------------ status codes


@needs_csrc
def test_every_status_code_has_its_own_message() -> None:
    codes = _status_codes()
    unknown = ffi.string(lib.ofc_status_string(123456)).decode()
    assert unknown == "unknown status code"
    messages = {
        name: ffi.string(lib.ofc_status_string(code)).decode()
        for name, code in codes.items()
    }
    generic = sorted(name for name, text in messages.items() if text == unknown)
    assert not generic, f"codes without a message: {generic}"
    by_text: dict[str, list[str]] = {}
    for name, text in messages.items():
        by_text.setdefault(text, []).append(name)
    assert all(len(v) == 1 for v in by_text.values()), by_text


@needs_csrc
def test_every_status_code_has_an_exception_class() -> None:
    codes = set(_status_codes().values())
    assert set(ERRORS) == codes
    assert set(MOVE_REASONS) <= codes
    assert all(issubclass(cls, (OfcError, MemoryError)) for cls in ERRORS.values())


def test_count_status_message_fits_each_use() -> None:
    """OFC_E_COUNT answers a wrong number of cards, a count out of its range and a NULL
    pointer: its one message names all three (it said "wrong number of cards" for a
    NULL pointer too), and its class stays CardError."""
    rules = ffi.new("ofc_rules *")
    assert lib.ofc_rules_init_ofc(rules) == lib.OFC_OK
    board = ffi.new("uint8_t[13]", list(range(13)))
    assert lib.ofc_rank(ffi.new("int32_t[4]", [0, 1, 2, 3]), 4, 0) == lib.OFC_E_COUNT
    assert lib.ofc_fl_next_cards(rules, ffi.NULL, board, 12) == lib.OFC_E_COUNT
    assert lib.ofc_naturals(ffi.NULL, ffi.new("ofc_naturals_result *")) == lib.OFC_E_COUNT
    text = _native.status_string(lib.OFC_E_COUNT)
    assert "number of cards" in text and "range" in text and "NULL pointer" in text
    assert type(status_error(lib.OFC_E_COUNT, "x")) is CardError


def test_rules_status_message_fits_each_use() -> None:
    """OFC_E_RULES answers a NULL rule set and any kind of rule set (scoring, table,
    game) with a field out of range: its message says so (it spoke of a field only)."""
    table = ffi.new("ofc_table_rules *")
    assert lib.ofc_table_rules_init(table) == lib.OFC_OK
    table.max_players = 9
    assert lib.ofc_table_rules_check(table) == lib.OFC_E_RULES
    assert lib.ofc_rules_init_ofc(ffi.NULL) == lib.OFC_E_RULES
    text = _native.status_string(lib.OFC_E_RULES)
    assert "NULL" in text and "field out of range" in text


def test_status_error_class_and_message() -> None:
    exc = status_error(lib.OFC_E_DUPLICATE, "rank5_batch: a[3]")
    assert type(exc) is CardError
    assert str(exc) == "rank5_batch: a[3]: the same card twice"
    # the generic value code and unknown codes take the caller's class
    assert type(status_error(lib.OFC_E_VALUE, "advise", SearchError)) is SearchError
    assert type(status_error(lib.OFC_E_BUDGET, "advise", GameError)) is SearchError
    unknown = status_error(-777, "x", GameError)
    assert type(unknown) is GameError and str(unknown) == "x: unknown status code -777"
    assert isinstance(status_error(lib.OFC_E_MEMORY), MemoryError)


def test_move_error_reason_and_message() -> None:
    exc = move_error(lib.OFC_E_ROW_FULL, "seat 1")
    assert isinstance(exc, MoveError) and exc.reason == "row_full"
    assert str(exc) == ("the move puts more cards in a row than it has room for: seat 1")
    assert move_error(-777).reason == "bad_move"


def test_engine_errors_take_the_c_message() -> None:
    game = ofc_fast.Game(ofc_fast.rules.OFC, seed=1)
    illegal = min(set(range(lib.OFC_ACTION_SPACE)) - set(game.legal_actions()))
    with pytest.raises(
        MoveError, match=r"^that action id is not legal here: action"
    ) as info:
        game.play_action(illegal)
    assert info.value.reason == "bad_action"


# ------------------------------------------------------------------ the loader


def test_source_tree_without_the_extension_fails_with_one_line(tmp_path: Path) -> None:
    package = Path(ofc_fast.__file__).parent
    shutil.copytree(
        package,
        tmp_path / "ofc_fast",
        ignore=shutil.ignore_patterns("*.so", "*.pyd", "__pycache__"),
    )
    # the copy first on sys.path, and no editable-install finder to redirect to the
    # checkout (a `pip install -e .` puts one ahead of sys.path)
    code = (
        "import sys; sys.meta_path[:] = [f for f in sys.meta_path if '__editable__' "
        "not in getattr(f, '__module__', '')]; sys.path.insert(0, sys.argv[1]); "
        "import ofc_fast"
    )
    result = subprocess.run(
        [sys.executable, "-c", code, str(tmp_path)],
        cwd=tmp_path,
        capture_output=True,
        text=True,
        timeout=60,
        check=False,
    )
    assert result.returncode != 0
    last = result.stderr.strip().splitlines()[-1]
    assert last.startswith("ImportError: ofc_fast is imported from ")
    assert "without the compiled extension" in last and "pip install -e ." in last


def test_python_messages_name_no_c_internals() -> None:
    """Regression: a Python caller's error said "...or a NULL pointer" (OFC_E_COUNT,
    OFC_E_VALUE), "a rule set NULL ..." (OFC_E_RULES) or named the C macro
    OFC_STACK_MAX, none of which a Python caller can pass or see; the exceptions of
    every status code now speak the caller's terms, while C's own text is unchanged."""
    for code in ERRORS:
        for err in (status_error(code, "f"), move_error(code, "f")):
            assert not re.search(r"NULL|pointer|OFC_", str(err)), (code, str(err))
    assert "NULL pointer" in _native.status_string(lib.OFC_E_COUNT)
    stacks = status_error(lib.OFC_E_STACKS, "f")
    assert re.fullmatch(r"f: a stack outside 0\.\.1000000000", str(stacks))
