#!/usr/bin/env bash
# murmur's check of a new machine, shipped as check.sh in the bundle that scripts/bundle.sh makes.
# Runs, each step bounded by `timeout`: the libraries' check (the binaries', libEGL.so.1 and the
# EGL vendors'), the renderer (a short run: on a machine that shows a GPU, a software renderer
# fails the check there and then), `murmur --self-test`, every test binary's tests as CTest runs
# them (GoogleTest shards, one process a core, at most 8 for the GL tests, in parallel), the
# benchmark, the two read paths and the two walks interleaved (MURMUR_GPU_READS: parity under
# storage reads, then `murmur --bench --bench-ab`; MURMUR_GPU_WALK: the same with tiles), a sample every
# step against none (headless, interleaved), and the 68-run
# Couzin sweep of docs/research.md cold (empty shader caches) then warm.
# Writes REPORT_DIR/report.md (the renderer, the machine, each step's result and seconds, a table
# last), bench.json, the sweeps' CSVs and every log, and prints the table. On a software renderer
# (llvmpipe, lavapipe, softpipe, ...) the benchmark is cut down to 10^4 and 10^5 boids and fewer
# steps; the report says so and lists the larger sizes as skipped, not passed.
# Exit status: 0 if every step passed (skipped ones say why), 1 if any failed, 2 on bad usage.
# This file is the runner: the settings, then main() runs the steps in order. The steps' functions
# are in share/murmur/check/ (scripts/bundle_check/ in the source tree): report.sh (the rows, the
# limits, report.md), machine.sh (libraries, renderer), tests.sh, measure.sh (benchmark, A/Bs, sweep).
# Usage: ./check.sh [REPORT_DIR]   (default: ./murmur-check-HOST-DATE)
# MURMUR_CHECK_FAKE_GPU=1 pretends this machine shows a GPU, =0 that it shows none (tests).
# shellcheck disable=SC2034  # the settings below are read by the steps (share/murmur/check/)
set -euo pipefail

HERE=$(cd "$(dirname "$(readlink -f "${BASH_SOURCE[0]}")")" && pwd -P)  # the bundle, run or sourced
BIN=$HERE/bin

# Time limits, in seconds; a process still running 10 s after its limit is killed.
LIMIT_LIBS=60
LIMIT_SELF_TEST=600
LIMIT_RENDERER=120
LIMIT_TESTS=900   # each shard of a test binary
GL_SHARDS_MAX=8   # GL test processes at once: a core each, but not more contexts than this on one GPU
LIMIT_BENCH=900
LIMIT_SWEEP=300

# The benchmark: sizes, measured steps, steps before the clumped phase. Full on a GPU; on a
# software renderer 10^6 and 10^7 boids would take hours.
BENCH_GPU_SIZES=10000,100000,1000000,10000000 BENCH_GPU_STEPS=50 BENCH_GPU_CLUMP=1000
BENCH_SOFT_SIZES=10000,100000 BENCH_SOFT_STEPS=10 BENCH_SOFT_CLUMP=100
# The 68-run Couzin sweep (docs/performance.md, "Ensembles"): 17 widths of the orientation zone,
# 4 seeds, 100 boids, 1,000 steps. A few seconds on llvmpipe, so it runs whole on every renderer.
SWEEP_ARGS=(--preset couzin-torus --steps 1000 --sweep couzin.orientation_width=0:8:17 --sweep-seeds 4
            --sweep-burn-in 500 --sweep-every 20)

# The two read paths of the passes after the binning (MURMUR_GPU_READS: buffer textures, the
# default, and storage buffers) and the steer pass's two walks (MURMUR_GPU_WALK: rows, the default,
# and tiles), each opt-in until a GPU measures a win: the parity cases under the opt-in one, then
# READS_ROUNDS alternations of the benchmark at one size, A then B.
READS_GPU_SIZE=1000000 READS_SOFT_SIZE=10000 READS_ROUNDS=3 READS_STEPS=30 READS_CLUMP=300
READS_FILTER='*Parity*:GpuHandCases*:GpuMeasure*:GpuEnsemble*:GpuRuns*'
WALKS_FILTER='*Parity*:GpuSourceCases*:GpuRows*:GpuHandCases*:GpuMeasure*:GpuRuns*:GpuSlices*'  # no ensembles: they keep rows

# What a sample every step costs: `murmur --headless` of the default flock without and with
# `--stats-out --stats-every 1`, SAMPLES_ROUNDS alternations; the run's own seconds (its "ran" line).
SAMPLES_GPU_BOIDS=1000000 SAMPLES_SOFT_BOIDS=10000 SAMPLES_ROUNDS=3 SAMPLES_STEPS=200

# The steps and the report (scripts/bundle_check/ in the source tree):
for part in report machine tests measure; do
  # shellcheck source=/dev/null
  . "$HERE/share/murmur/check/$part.sh"
done

main() {
  [[ $# -le 1 ]] || { echo "usage: ./check.sh [REPORT_DIR]" >&2; exit 2; }
  local start
  start=$(now)
  REPORT=${1:-$PWD/murmur-check-$(uname -n | cut -d. -f1)-$(date +%Y%m%d-%H%M%S)}
  LOGS=$REPORT/logs
  mkdir -p "$LOGS"
  REPORT=$(cd "$REPORT" && pwd -P) LOGS=$REPORT/logs
  BODY=$(mktemp)
  trap 'rm -f "$BODY"' EXIT
  # shellcheck source=/dev/null
  . "$HERE/share/murmur/bundle.env"
  RENDERER="" GPU_RAN="" SOFTWARE=1 LEFT=0
  LEFT_OUT=$(left_out_tests)
  echo "murmur check: $BUNDLE_NAME on $(uname -n), report in $REPORT"
  step_libraries
  echo "  libraries: ${ROW_RESULT[-1]} (${ROW_SECONDS[-1]} s)$([[ ${ROW_RESULT[-1]} == passed ]] || echo ": ${ROW_NOTE[-1]}")"
  step_renderer
  echo "  renderer: ${ROW_RESULT[-1]} (${ROW_SECONDS[-1]} s): ${ROW_NOTE[-1]}"
  if [[ ${ROW_NOTE[-1]} == "a software renderer"* ]]; then
    echo "check.sh: FAILED: ${ROW_NOTE[-1]}; stopping (the rest would measure the CPU)" >&2
    section "The check stopped here: the rest would have measured a software renderer." ""
    write_report "$start"
    echo "report: $REPORT/report.md"
    return 1
  fi
  step_self_test
  echo "  self-test: cold ${ROW_RESULT[-2]} (${ROW_SECONDS[-2]} s), warm ${ROW_RESULT[-1]} (${ROW_SECONDS[-1]} s); renderer: ${RENDERER:-unknown}"
  left_out_section
  local binaries line want
  mapfile -t binaries <"$HERE/share/murmur/tests/binaries"  # "NAME LABEL" lines
  # The GL test binaries first, then the CPU one; each binary's shards at once.
  for want in gl cpu; do
    for line in "${binaries[@]}"; do
      if [[ ${line#* } == "$want" ]]; then
        step_tests "${line% *}" "$want"
        echo "  ${line% *}: ${ROW_RESULT[-1]} (${ROW_SECONDS[-1]} s): ${ROW_NOTE[-1]}"
      fi
    done
  done
  step_bench
  echo "  benchmark: ${ROW_RESULT[BENCH_ROW]} (${ROW_SECONDS[BENCH_ROW]} s)"
  step_reads
  echo "  read paths: parity under storage reads ${ROW_RESULT[-2]} (${ROW_SECONDS[-2]} s), A/B ${ROW_RESULT[-1]} (${ROW_SECONDS[-1]} s)"
  step_walks
  echo "  walks: parity under tiles ${ROW_RESULT[-2]} (${ROW_SECONDS[-2]} s), A/B ${ROW_RESULT[-1]} (${ROW_SECONDS[-1]} s)"
  step_samples
  echo "  a sample every step: ${ROW_RESULT[-1]} (${ROW_SECONDS[-1]} s)"
  step_sweeps
  echo "  Couzin sweep: cold ${ROW_RESULT[-2]} (${ROW_SECONDS[-2]} s), warm ${ROW_RESULT[-1]} (${ROW_SECONDS[-1]} s)"
  write_report "$start"
  echo
  table
  echo
  echo "report: $REPORT/report.md"
  return "$FAILED"
}

# Sourced (a test calling gpu_signs and the like), it defines the functions only.
[[ ${BASH_SOURCE[0]} != "$0" ]] || main "$@"
