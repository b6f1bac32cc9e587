#!/usr/bin/env bash
# Builds murmur's libFuzzer targets (clang, ASan+UBSan; fuzz/) and runs each for SECONDS (default
# 60) from the seed corpus in fuzz/corpus/ (read only: new inputs go to a scratch folder). A crash,
# leak or abort fails the script and leaves the input in the build folder. Prints each target's
# executions and executions per second. Usage: scripts/fuzz.sh [SECONDS [BUILD_DIR]]
# BUILD_DIR: a clang build configured with -DMURMUR_FUZZ=ON already (scripts/ci.sh's build-asan,
# whose CPU tests run under the same sanitizers); without it, build-fuzz/ is configured here.
set -euo pipefail
cd "$(dirname "$0")/.."
seconds=${1:-60}
build=${2:-}
if [ -z "$build" ]; then
  build="build-fuzz"
  cmake -S . -B build-fuzz -DCMAKE_BUILD_TYPE=RelWithDebInfo -DCMAKE_C_COMPILER=clang -DCMAKE_CXX_COMPILER=clang++ \
    -DMURMUR_FUZZ=ON -DMURMUR_TESTS=OFF >/dev/null
fi
targets=(preset state_csv cli_set sweep_merge shader_loader)
cmake --build "$build" -j"$(nproc)" --target "${targets[@]/#/fuzz_}" >/dev/null
for target in "${targets[@]}"; do
  scratch=$(mktemp -d)
  log=$build/fuzz_$target.log
  if ! "$build/fuzz/fuzz_$target" -max_total_time="$seconds" -rss_limit_mb=2048 -timeout=20 -print_final_stats=1 \
      -artifact_prefix="$build/" "$scratch" "fuzz/corpus/$target" >"$log" 2>&1; then
    rm -rf "$scratch"
    tail -40 "$log"
    echo "fuzz_$target: FOUND A PROBLEM (input saved in $build/)" >&2
    exit 1
  fi
  rm -rf "$scratch"
  runs=$(grep -o 'stat::number_of_executed_units: *[0-9]*' "$log" | grep -o '[0-9]*$')
  rate=$(grep -o 'stat::average_exec_per_sec: *[0-9]*' "$log" | grep -o '[0-9]*$')
  echo "fuzz_$target: ${runs:-?} inputs in ${seconds} s (${rate:-?} per second), no crash"
done
