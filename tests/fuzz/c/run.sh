#!/usr/bin/env bash
# Builds the libFuzzer harness of the public C API (tests/fuzz/c/fuzz_capi.c + csrc/)
# with clang -fsanitize=fuzzer,address,undefined and runs it for a bounded time from a
# copy of the seed corpus (tests/fuzz/c/corpus/).  Fails on any finding (sanitizer
# report, contract violation, timeout).
#
# Usage:  tests/fuzz/c/run.sh
# Env:    FUZZ_C_SECONDS  run time (default 60);  CLANG  compiler (default clang)
#         FUZZ_OUT        directory for the binary, corpus, log and crash files
# Needs clang with libFuzzer: on Debian/Ubuntu  apt-get install -y clang  (Debian 12:
# clang 14, whose package ships libFuzzer and the sanitizer runtimes).
# Reproduce a finding:  $FUZZ_OUT/fuzz_capi $FUZZ_OUT/capi-crash-...
set -uo pipefail
root=$(cd "$(dirname "$0")/../../.." && pwd)
seconds=${FUZZ_C_SECONDS:-60}
cc=${CLANG:-clang}
out=${FUZZ_OUT:-$(mktemp -d)}
mkdir -p "$out/corpus/capi"
if ! command -v "$cc" >/dev/null; then
    echo "tests/fuzz/c/run.sh: $cc not found (Debian: apt-get install -y clang)" >&2
    exit 2
fi
"$cc" -std=c99 -Wall -Wextra -Werror -pedantic -g -O1 -fno-omit-frame-pointer \
    -fsanitize=fuzzer,address,undefined -fno-sanitize-recover=all \
    -I"$root/csrc/include" -I"$root/csrc/src" -I"$root/csrc/generated" \
    "$root/tests/fuzz/c/fuzz_capi.c" "$root"/csrc/src/ofc_*.c "$root"/csrc/generated/ofc_*.c \
    -o "$out/fuzz_capi" -lm || exit 3
cp "$root/tests/fuzz/c/corpus/"* "$out/corpus/capi/" 2>/dev/null || true
echo "== libFuzzer: C API (${seconds}s)"
start=$(date +%s)
ASAN_OPTIONS=detect_leaks=1:abort_on_error=1 UBSAN_OPTIONS=print_stacktrace=1 \
    "$out/fuzz_capi" "$out/corpus/capi" -max_total_time="$seconds" -timeout=20 \
    -artifact_prefix="$out/capi-" -print_final_stats=1 >"$out/capi.log" 2>&1
rc=$?
runs=$(sed -n 's/^stat::number_of_executed_units: *//p' "$out/capi.log" | tail -1)
took=$(( $(date +%s) - start ))
if [ $rc -eq 0 ]; then
    echo "PASS  C API: ${runs:-?} inputs in ${took}s, no finding"
else
    grep -v '^#\|^INFO' "$out/capi.log" | grep -m1 -A30 'ERROR\|contract violated\|runtime error' | head -40
    ls "$out"/capi-* 2>/dev/null | sed 's/^/      input: /'
    echo "FAIL  C API: finding after ${runs:-?} inputs in ${took}s (exit $rc); log $out/capi.log"
fi
exit $rc
