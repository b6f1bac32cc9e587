#!/usr/bin/env bash
# The everyday tests: installs what is missing, builds Release with -Werror into build-test/ and
# runs the whole test suite, CPU and GL tests (the GL ones on Mesa's llvmpipe where there is no
# GPU), parity and hand cases of every style among them. A few minutes on two cores
# (docs/testing.md has the figure). The full pipeline, scripts/ci.sh, runs after this one.
# Usage: scripts/test.sh
set -euo pipefail
cd "$(dirname "$0")/.."
echo "== set-up: Debian packages (scripts/setup.sh) =="
bash scripts/setup.sh
jobs=$(nproc)

echo "== build (Release, -Werror) into build-test/ =="
# Ninja (scripts/setup.sh installs it) for a new build folder: a fresh build here took 264 s
# with it and 385 s with Make. A folder configured before keeps its generator.
export CMAKE_GENERATOR="${CMAKE_GENERATOR:-Ninja}"
# Through ccache where it is installed (scripts/setup.sh --full installs it): the mutation check
# (scripts/mutants.py) then builds its copy of the tree from the cache. Paths are hashed relative
# to the checkout, so two checkouts share the objects.
launcher=""
if command -v ccache >/dev/null 2>&1; then
  launcher=ccache
  export CCACHE_BASEDIR="$PWD"
fi
cmake -S . -B build-test -DCMAKE_BUILD_TYPE=Release -DMURMUR_WERROR=ON \
  -DCMAKE_CXX_COMPILER_LAUNCHER="$launcher" -DCMAKE_C_COMPILER_LAUNCHER="$launcher" >/dev/null
cmake --build build-test -j"$jobs"
echo "== tests: CPU and GL (ctest) =="
source scripts/long_tests.sh  # $long_tests: the longest, which scripts/ci.sh runs
# The lines naming each failed test's failures, from CTest's log, last (where a CI summary that
# keeps the output's end shows them): at most 15 a test.
failures() {
  awk '/^[0-9]+\/[0-9]+ Testing: / { name = $3; n = 0 }
       /FAIL|Failure|[Ee]rror|exited/ && n < 15 { keep[n++] = $0 }
       /^Test Failed\./ { print "== " name " failed:"; for (i = 0; i < n; i++) print "   " keep[i] }' \
    build-test/Testing/Temporary/LastTest.log
}
status=0
ctest --test-dir build-test --output-on-failure -j"$jobs" -LE paths -E "$long_tests" || status=$?  # the GPU's opt-in paths: scripts/ci.sh
[ "$status" = 0 ] || { failures; exit "$status"; }
cat <<'HINT'
== all tests passed ==
The CPU/GPU parity tests alone:  ctest --test-dir build-test -R 'Parity|GpuHand|OnGpu'
The CPU tests alone (no GL):     ctest --test-dir build-test -L cpu
The GPU's opt-in paths (storage reads, tiled walk):  ctest --test-dir build-test -L paths
The longest tests, left to scripts/ci.sh:             ctest --test-dir build-test -R "$(. scripts/long_tests.sh; echo "$long_tests")"
The full pipeline (those paths, zink, FMA parity, mutants, fuzzers, sanitizers): scripts/ci.sh
HINT
