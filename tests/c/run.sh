#!/usr/bin/env bash
# Builds and runs the C tests: once with -O2 and once under ASan + UBSan.
# Usage: tests/c/run.sh [build-dir]     (default: a temporary directory)
set -euo pipefail
root=$(cd "$(dirname "$0")/../.." && pwd)
out=${1:-$(mktemp -d)}
mkdir -p "$out"
cc=${CC:-gcc}
src=("$root/tests/c/test_ofc.c" "$root"/csrc/ofc_rank.c "$root"/csrc/ofc_board.c
     "$root"/csrc/ofc_score.c "$root"/csrc/ofc_rules.c "$root"/csrc/ofc_tables.c)
flags=(-std=c99 -Wall -Wextra -Werror -pedantic -I"$root/csrc")

echo "== C tests (-O2)"
"$cc" "${flags[@]}" -O2 "${src[@]}" -o "$out/test_ofc"
"$out/test_ofc"

echo "== C tests (AddressSanitizer + UndefinedBehaviorSanitizer)"
"$cc" "${flags[@]}" -O1 -g -fno-omit-frame-pointer -fsanitize=address,undefined \
    -fno-sanitize-recover=all "${src[@]}" -o "$out/test_ofc_san"
ASAN_OPTIONS=detect_leaks=1:abort_on_error=1 UBSAN_OPTIONS=print_stacktrace=1 \
    "$out/test_ofc_san"
