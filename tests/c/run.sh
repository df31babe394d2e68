#!/usr/bin/env bash
# Builds and runs every C test program (tests/c/test_*.c) against the library
# (csrc/ofc_*.c): once with -O2, once under AddressSanitizer + UndefinedBehaviorSanitizer
# and once under ThreadSanitizer, always with -std=c99 -Wall -Wextra -Werror -pedantic.
# (-pthread: tests/c/test_threads.c runs the batch kernels from two threads; the
# library itself uses no threads.)
# Usage: tests/c/run.sh [build-dir]     (default: a temporary directory)
set -euo pipefail
root=$(cd "$(dirname "$0")/../.." && pwd)
out=${1:-$(mktemp -d)}
mkdir -p "$out"
cc=${CC:-gcc}
lib=("$root"/csrc/ofc_*.c)
flags=(-std=c99 -Wall -Wextra -Werror -pedantic -pthread -I"$root/csrc")
san=(-O1 -g -fno-omit-frame-pointer -fsanitize=address,undefined -fno-sanitize-recover=all)
tsan=(-O1 -g -fno-omit-frame-pointer -fsanitize=thread)

for test in "$root"/tests/c/test_*.c; do
    name=$(basename "$test" .c)
    echo "== $name (-O2)"
    "$cc" "${flags[@]}" -O2 "$test" "${lib[@]}" -o "$out/$name"
    "$out/$name"
    echo "== $name (AddressSanitizer + UndefinedBehaviorSanitizer)"
    "$cc" "${flags[@]}" "${san[@]}" "$test" "${lib[@]}" -o "$out/${name}_san"
    ASAN_OPTIONS=detect_leaks=1:abort_on_error=1 UBSAN_OPTIONS=print_stacktrace=1 \
        "$out/${name}_san"
    echo "== $name (ThreadSanitizer)"
    "$cc" "${flags[@]}" "${tsan[@]}" "$test" "${lib[@]}" -o "$out/${name}_tsan"
    TSAN_OPTIONS=halt_on_error=1 "$out/${name}_tsan"
done
