#!/usr/bin/env bash
# Builds the C library with CMake (CMakeLists.txt at the root) and runs every C test
# program (tests/c/test_*.c, CTest) against it three times: optimised (-O2), under
# AddressSanitizer + UndefinedBehaviorSanitizer and under ThreadSanitizer, always with
# -std=c99 -Wall -Wextra -Werror -pedantic (OFC_FAST_STRICT). The library is compiled
# once per configuration and linked into every test. The sanitizer run builds without
# the AVX2 copy of the model's forward pass (OFC_NO_AVX2), so both copies are checked
# against the same bits (tests/c/test_model.c). (tests/c/test_threads.c runs the
# batch kernels, a learned value model, the searches, the solvers, the heuristic and
# table settlement from two threads, tests/c/test_vecenv.c the game engine and the
# vector environment; the library itself uses no threads.)
# Needs cmake >= 3.16 (`pip install cmake` gives one).
# Usage: tests/c/run.sh [build-dir]     (default: a temporary directory)
set -euo pipefail
root=$(cd "$(dirname "$0")/../.." && pwd)
out=${1:-$(mktemp -d)}
mkdir -p "$out"
export CC=${CC:-gcc}
jobs=$(getconf _NPROCESSORS_ONLN 2>/dev/null || echo 2)
command -v cmake >/dev/null || { echo "tests/c/run.sh needs cmake (pip install cmake)"; exit 2; }

run() {  # name, then CMake options
    local name=$1
    shift
    echo "== C tests: $name"
    cmake -S "$root" -B "$out/$name" -DOFC_FAST_STRICT=ON -DOFC_FAST_TESTS=ON "$@" >/dev/null
    cmake --build "$out/$name" --parallel "$jobs" >/dev/null
    # from the build directory: `ctest --test-dir` is CTest 3.20's, newer than 3.16
    (cd "$out/$name" && ctest --output-on-failure --parallel "$jobs")
}

run optimised -DCMAKE_BUILD_TYPE=Release -DCMAKE_C_FLAGS_RELEASE=-O2
run asan-ubsan -DCMAKE_BUILD_TYPE=Debug -DCMAKE_C_FLAGS_DEBUG=-O1 \
    -DOFC_FAST_SANITIZE=address,undefined -DCMAKE_C_FLAGS=-DOFC_NO_AVX2
run tsan -DCMAKE_BUILD_TYPE=Debug -DCMAKE_C_FLAGS_DEBUG=-O1 -DOFC_FAST_SANITIZE=thread
