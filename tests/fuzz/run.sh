#!/usr/bin/env bash
# Runs every atheris harness (tests/fuzz/fuzz_*.py) for a bounded time, each from a copy
# of its committed seed corpus (tests/fuzz/corpus/<name>/), and fails on any finding:
# an exception other than OfcError, a failed contract assertion, a crash, a timeout.
#
# Usage:  tests/fuzz/run.sh [name ...]        e.g. tests/fuzz/run.sh cards batch
# Env:    FUZZ_SECONDS  seconds per harness (default 45)
#         FUZZ_PYTHON   the interpreter with ofc_fast and atheris (default: python3)
#         FUZZ_OUT      directory for the grown corpora, logs and crash files
#                       (default: a temporary directory)
#
# Needs atheris:  pip install -e ".[fuzz]".  On CPython 3.8-3.11 x86_64 it installs from
# a manylinux wheel; where pip has to build it from source it needs clang and libFuzzer
# (Debian: apt-get install -y clang).  A finding leaves its input in
# $FUZZ_OUT/<name>-crash-*: reproduce with  python tests/fuzz/fuzz_<name>.py <that file>.
set -uo pipefail
here=$(cd "$(dirname "$0")" && pwd)
seconds=${FUZZ_SECONDS:-45}
py=${FUZZ_PYTHON:-python3}
out=${FUZZ_OUT:-$(mktemp -d)}
mkdir -p "$out"
# (checked from the output directory: python -c puts the current directory first, and
# a source tree there has no compiled extension; the harnesses run as scripts)
if ! (cd "$out" && "$py" -c "import atheris, ofc_fast") 2>/dev/null; then
    echo "tests/fuzz/run.sh: $py cannot import atheris and ofc_fast (pip install -e '.[fuzz]')" >&2
    exit 2
fi
if [ $# -gt 0 ]; then
    names=("$@")
else
    names=()
    for f in "$here"/fuzz_*.py; do
        n=$(basename "$f" .py)
        names+=("${n#fuzz_}")
    done
fi

failed=0
summary=()
for name in "${names[@]}"; do
    harness="$here/fuzz_$name.py"
    corpus="$out/corpus/$name"
    log="$out/$name.log"
    mkdir -p "$corpus"
    if [ -d "$here/corpus/$name" ]; then
        cp "$here/corpus/$name"/* "$corpus"/ 2>/dev/null || true
    fi
    echo "== fuzz $name (${seconds}s)"
    start=$(date +%s)
    "$py" "$harness" "$corpus" -max_total_time="$seconds" -timeout=20 -rss_limit_mb=3072 \
        -artifact_prefix="$out/$name-" -print_final_stats=1 >"$log" 2>&1
    rc=$?
    took=$(( $(date +%s) - start ))
    runs=$(sed -n 's/^stat::number_of_executed_units: *//p' "$log" | tail -1)
    if [ $rc -eq 0 ]; then
        summary+=("PASS  $name: ${runs:-?} inputs in ${took}s, no finding")
    else
        failed=1
        summary+=("FAIL  $name: finding after ${runs:-?} inputs in ${took}s (exit $rc); log $log")
        grep -v '^#\|^INFO\|^WARNING' "$log" | grep -A25 -m1 'Uncaught Python exception\|ERROR:' | head -40
        ls "$out/$name-"* 2>/dev/null | sed 's/^/      input: /'
    fi
done
echo
echo "fuzz summary (${seconds}s per harness, output in $out):"
printf '  %s\n' "${summary[@]}"
exit $failed
