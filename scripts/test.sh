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
cmake -S . -B build-test -DCMAKE_BUILD_TYPE=Release -DMURMUR_WERROR=ON >/dev/null
cmake --build build-test -j"$jobs"
echo "== tests: CPU and GL (ctest) =="
ctest --test-dir build-test --output-on-failure -j"$jobs"
cat <<'HINT'
== all tests passed ==
The CPU/GPU parity tests alone:  ctest --test-dir build-test -R 'Parity|GpuHand|OnGpu'
The CPU tests alone (no GL):     ctest --test-dir build-test -L cpu
The full pipeline (zink, FMA parity, mutants, fuzzers, sanitizers): scripts/ci.sh
HINT
