#!/usr/bin/env bash
# Installs what is missing, builds murmur (Release) into build/, and launches it with any arguments.
# Each stage says what it is doing (a first run installs packages and builds for a few minutes).
# Usage: scripts/run.sh [murmur flags...]
set -euo pipefail
cd "$(dirname "$0")/.."
echo "murmur: checking Debian packages (scripts/setup.sh)" >&2
bash scripts/setup.sh
echo "murmur: building Release into build/ (the first build takes a few minutes)" >&2
export CMAKE_GENERATOR="${CMAKE_GENERATOR:-Ninja}"  # for a new build folder (scripts/setup.sh installs it)
cmake -S . -B build -DCMAKE_BUILD_TYPE=Release >/dev/null
# murmur alone (not the tests, the Python module or the examples: scripts/test.sh builds those),
# with the build's progress lines only ("[12/90] Building CXX object ...", or Make's "[ 42%] ..."),
# so a first build is not silent.
cmake --build build -j"$(nproc)" --target murmur | { grep --line-buffered -E '^\[ *[0-9]+(%|/[0-9]+)\] (Building|Linking)' || true; } >&2
echo "murmur: launching build/bin/murmur $*" >&2
exec build/bin/murmur "$@"
