# shellcheck shell=bash disable=SC2153,SC2034  # LOGS and the like: set by check.sh; BENCH_ROW and the like: read by it
# The bundle's check: the benchmark, the read paths' and walks' A/Bs, a sample every step
# against none, and the Couzin sweep cold then warm.
# Sourced by check.sh (scripts/bundle_check.sh), which sets what these read: HERE, BIN, REPORT,
# LOGS, BODY, the limits and sizes, SOFTWARE, RENDERER, LEFT_OUT.

# ---- step: benchmark ----

step_bench() {
  local start rc sizes steps clump log=$LOGS/bench.log
  if [[ $SOFTWARE -eq 1 ]]; then
    sizes=$BENCH_SOFT_SIZES steps=$BENCH_SOFT_STEPS clump=$BENCH_SOFT_CLUMP
  else
    sizes=$BENCH_GPU_SIZES steps=$BENCH_GPU_STEPS clump=$BENCH_GPU_CLUMP
  fi
  start=$(now)
  rc=$(bounded "$LIMIT_BENCH" "$log" "$BIN/murmur" --bench --bench-sizes "$sizes" --bench-steps "$steps" \
       --bench-clump-steps "$clump" --bench-out "$REPORT/bench.json")
  add_row "benchmark ($sizes)" "$(result_of "$rc" "$LIMIT_BENCH")" "$(seconds_since "$start")" \
    "$steps steps, clumped from step $clump"
  BENCH_ROW=$((${#ROW_STEP[@]} - 1))
  section "## Benchmark" "" "\`murmur --bench --bench-sizes $sizes --bench-steps $steps --bench-clump-steps $clump\`:" \
    "${ROW_RESULT[-1]}, ${ROW_SECONDS[-1]} s (results: bench.json, log: logs/bench.log)." ""
  if [[ $SOFTWARE -eq 1 ]]; then
    add_row "benchmark (1000000,10000000)" "skipped (software renderer)" - "GPU-only sizes"
    section "On a software renderer the benchmark is cut down to $sizes boids, $steps steps and" \
      "$clump clump steps (on a GPU: $BENCH_GPU_SIZES, $BENCH_GPU_STEPS and $BENCH_GPU_CLUMP);" \
      "10^6 and 10^7 boids: skipped (software renderer), not measured." ""
  fi
  section "| boids | spawn ms/step | clumped ms/step | clumped boid-steps/s | render ms/frame (1920×1080) |" \
    "|---:|---:|---:|---:|---:|" "$(bench_rows "$log")" ""
  if grep -q '^  skipped' "$log"; then section "Sizes the GPU cannot hold:" "" '```' "$(grep '^  skipped' "$log")" '```' ""; fi
}

# ---- steps: the read paths and the walks, A/B ----

# path_ab VAR A B WHAT TITLE FILTER: the parity cases FILTER with VAR=B, then the benchmark's
# A/B at one size, READS_ROUNDS rounds, A then B each (`murmur --bench --bench-ab`: it interleaves
# them and prints the medians; JSON WHAT.json, log WHAT.log; LIMIT_BENCH for each of its 2 x
# READS_ROUNDS runs); the other path variables unset, so each A/B is against the defaults.
path_ab() {
  local var=$1 a=$2 b=$3 what=$4 title=$5 filter=$6 start rc size parity=$LOGS/$4-parity.log
  local -a clean=(env -u MURMUR_GPU_READS -u MURMUR_GPU_WALK)
  size=$READS_GPU_SIZE
  [[ $SOFTWARE -eq 1 ]] && size=$READS_SOFT_SIZE
  start=$(now)
  rc=$(bounded "$LIMIT_TESTS" "$parity" "${clean[@]}" "$var=$b" MURMUR_PRESET_DIR="$HERE/share/murmur/presets" \
       "$BIN/murmur_gl_tests" --gtest_filter="$filter")
  add_row "parity, $var=$b" "$(result_of "$rc" "$LIMIT_TESTS")" "$(seconds_since "$start")" \
    "$(grep -o '[0-9]* tests\? from [0-9]* test suites\? ran' "$parity" | head -1)"
  start=$(now)
  rc=$(bounded "$((LIMIT_BENCH * 2 * READS_ROUNDS))" "$LOGS/$what.log" "${clean[@]}" "$BIN/murmur" --bench --bench-sizes "$size" \
       --bench-steps "$READS_STEPS" --bench-clump-steps "$READS_CLUMP" --bench-ab "$var=$a,$b" \
       --bench-rounds "$READS_ROUNDS" --bench-out "$REPORT/$what.json")
  add_row "$what A/B ($size)" "$(result_of "$rc" "$((LIMIT_BENCH * 2 * READS_ROUNDS))")" "$(seconds_since "$start")" \
    "$READS_ROUNDS rounds, $a then $b"
  section "## $title, interleaved" "" "\`murmur --bench --bench-sizes $size --bench-steps $READS_STEPS" \
    "--bench-clump-steps $READS_CLUMP --bench-ab $var=$a,$b --bench-rounds $READS_ROUNDS\` (results:" \
    "$what.json, each round's rows in logs/$what.log; parity with $var=$b: logs/$what-parity.log," \
    "${ROW_RESULT[-2]})." "" '```' "$(sed -n '/^A\/B /,/^shader programs/p' "$LOGS/$what.log" | grep -v '^shader programs')" '```' ""
}

# The passes' read paths (MURMUR_GPU_READS: buffer textures, the default, and storage buffers).
step_reads() { path_ab MURMUR_GPU_READS textures storage reads "Read paths" "$READS_FILTER"; }
# The steer pass's walks (MURMUR_GPU_WALK: each boid its rows, the default, and tiles staged in
# shared memory).
step_walks() { path_ab MURMUR_GPU_WALK rows tiles walks "Walks" "$WALKS_FILTER"; }

# ---- step: a sample every step against none, interleaved ----

step_samples() {
  local start rc=0 boids round with log r
  boids=$SAMPLES_GPU_BOIDS
  [[ $SOFTWARE -eq 1 ]] && boids=$SAMPLES_SOFT_BOIDS
  start=$(now)
  for ((round = 1; round <= SAMPLES_ROUNDS; round++)); do
    for with in none every; do
      log=$LOGS/samples-$with-$round.log
      local stats=()
      [[ $with == every ]] && stats=(--stats-out "$REPORT/samples-$round.csv" --stats-every 1)
      r=$(MURMUR_PRESET_DIR=$HERE/share/murmur/presets bounded "$LIMIT_BENCH" "$log" "$BIN/murmur" --headless \
          --boids "$boids" --steps "$SAMPLES_STEPS" ${stats[@]+"${stats[@]}"})
      [[ $r -ne 0 ]] && rc=$r
    done
  done
  add_row "a sample every step A/B ($boids)" "$(result_of "$rc" "$LIMIT_BENCH")" "$(seconds_since "$start")" \
    "$SAMPLES_ROUNDS rounds, none then every step"
  section "## A sample every step, interleaved" "" "\`murmur --headless --boids $boids --steps $SAMPLES_STEPS\` without and" \
    "with \`--stats-out F --stats-every 1\`, $SAMPLES_ROUNDS rounds (logs: logs/samples-*.log). Cost: the extra" \
    "seconds over the run's steps, in steps." "" "| round | no stats s | a sample every step s | cost a sample, in steps |" \
    "|---:|---:|---:|---:|" "$(samples_rows)" ""
}

samples_rows() {  # the A/B's logs -> one markdown row a round
  local round none every
  for ((round = 1; round <= SAMPLES_ROUNDS; round++)); do
    none=$(awk '$1 == "ran" { print $5 }' "$LOGS/samples-none-$round.log")
    every=$(awk '$1 == "ran" { print $5 }' "$LOGS/samples-every-$round.log")
    awk -v r="$round" -v a="${none:-0}" -v b="${every:-0}" \
      'BEGIN { printf "| %s | %s | %s | %s |\n", r, a, b, (a > 0 ? sprintf("%.2f", (b - a) / a) : "-") }'
  done
}

bench_rows() {  # LOG -> one markdown row a size
  awk '$1 ~ /^[0-9]+$/ && $2 ~ /^(spawn|clumped|render)$/ {
         if (!($1 in seen)) { seen[$1] = 1; order[++n] = $1 }
         if ($2 == "spawn") spawn[$1] = $3
         if ($2 == "clumped") { clumped[$1] = $3; rate[$1] = $5 }
         if ($2 == "render") render[$1] = $3 }
       END { for (i = 1; i <= n; i++) { s = order[i]
               printf "| %s | %s | %s | %s | %s |\n", s, spawn[s], clumped[s], rate[s], (s in render) ? render[s] : "-" } }' "$1"
}

# ---- step: the Couzin sweep, cold then warm ----

step_sweeps() {
  local cache run start rc secs cold_secs="" log
  cache=$(mktemp -d)
  with_caches "$cache"
  for run in cold warm; do
    log=$LOGS/sweep-$run.log
    start=$(now)
    rc=$(bounded "$LIMIT_SWEEP" "$log" "${CACHES[@]}" "$BIN/murmur" "${SWEEP_ARGS[@]}" --sweep-out "$REPORT/sweep-$run.csv")
    secs=$(seconds_since "$start")
    [[ $run == cold ]] && cold_secs=$secs
    add_row "Couzin sweep, $run" "$(result_of "$rc" "$LIMIT_SWEEP")" "$secs" "68 runs$([[ $run == cold ]] && echo ', empty shader caches')"
  done
  rm -rf "$cache"
  local same="differ"
  cmp -s "$REPORT/sweep-cold.csv" "$REPORT/sweep-warm.csv" && same="are byte for byte the same"
  [[ -f $REPORT/sweep-cold.csv && -f $REPORT/sweep-warm.csv ]] || same="were not both written"
  section "## Couzin sweep" "" "\`murmur ${SWEEP_ARGS[*]} --sweep-out FILE\` (68 runs of 100 boids; the same on every" \
    "renderer), timed whole with \`date +%s.%N\`: cold (empty murmur, Mesa and NVIDIA shader caches)" \
    "$cold_secs s, ${ROW_RESULT[-2]}; warm (those caches filled by the cold run) ${ROW_SECONDS[-1]} s," \
    "${ROW_RESULT[-1]}. The two CSVs $same (sweep-cold.csv, sweep-warm.csv)." ""
}
