#!/usr/bin/env bash
# Builds murmur's libFuzzer targets (clang, ASan+UBSan; fuzz/) and runs each for SECONDS (default
# 60) from the seed corpus in fuzz/corpus/ (read only: new inputs go to a scratch folder). A crash,
# leak or abort fails the script and leaves the input in build-fuzz/. Prints each target's
# executions and executions per second. Usage: scripts/fuzz.sh [SECONDS]
set -euo pipefail
cd "$(dirname "$0")/.."
seconds=${1:-60}
cmake -S . -B build-fuzz -DCMAKE_BUILD_TYPE=RelWithDebInfo -DCMAKE_C_COMPILER=clang -DCMAKE_CXX_COMPILER=clang++ \
  -DMURMUR_FUZZ=ON -DMURMUR_TESTS=OFF >/dev/null
targets=(preset state_csv cli_set sweep_merge shader_loader)
cmake --build build-fuzz -j"$(nproc)" --target "${targets[@]/#/fuzz_}" >/dev/null
for target in "${targets[@]}"; do
  scratch=$(mktemp -d)
  log=build-fuzz/fuzz_$target.log
  if ! ./build-fuzz/fuzz/fuzz_$target -max_total_time="$seconds" -rss_limit_mb=2048 -timeout=20 -print_final_stats=1 \
      -artifact_prefix=build-fuzz/ "$scratch" "fuzz/corpus/$target" >"$log" 2>&1; then
    rm -rf "$scratch"
    tail -40 "$log"
    echo "fuzz_$target: FOUND A PROBLEM (input saved in build-fuzz/)" >&2
    exit 1
  fi
  rm -rf "$scratch"
  runs=$(grep -o 'stat::number_of_executed_units: *[0-9]*' "$log" | grep -o '[0-9]*$')
  rate=$(grep -o 'stat::average_exec_per_sec: *[0-9]*' "$log" | grep -o '[0-9]*$')
  echo "fuzz_$target: ${runs:-?} inputs in ${seconds} s (${rate:-?} per second), no crash"
done
