#!/usr/bin/env bash
# Installs what is missing, builds Release into build/, and launches murmur with any arguments.
# Usage: scripts/run.sh [murmur flags...]
set -euo pipefail
cd "$(dirname "$0")/.."
bash scripts/setup.sh
cmake -S . -B build -DCMAKE_BUILD_TYPE=Release >/dev/null
cmake --build build -j"$(nproc)" >/dev/null
exec build/bin/murmur "$@"
