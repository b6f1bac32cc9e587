# shellcheck shell=bash disable=SC2153  # LOGS and the like: set by check.sh
# The bundle's check: the self-test, cold and warm, and each test binary's tests in shards.
# Sourced by check.sh (scripts/bundle_check.sh), which sets what these read: HERE, BIN, REPORT,
# LOGS, BODY, the limits and sizes, SOFTWARE, RENDERER, LEFT_OUT.

# ---- step: self-test ----

# CACHES: `env` with a run's shader caches in DIR (empty at first: a cold run): murmur's program
# cache, Mesa's and NVIDIA's. An array, so that a DIR with spaces stays one word.
with_caches() {  # DIR
  CACHES=(env "MURMUR_CACHE_DIR=$1/murmur" "MESA_SHADER_CACHE_DIR=$1/mesa" "MESA_GLSL_CACHE_DIR=$1/mesa"
          "__GL_SHADER_DISK_CACHE=1" "__GL_SHADER_DISK_CACHE_PATH=$1/nvidia" "__GL_SHADER_DISK_CACHE_SKIP_CLEANUP=1")
}

# The self-test twice: cold (empty shader caches: every program compiled) and warm (the programs
# from murmur's cache). The cold run's verdict is the step's; each run's "shader programs:" line
# (programs built, seconds, how many from the cache) goes in the report.
step_self_test() {
  local start rc verdict skips programs warm_programs cache log=$LOGS/self-test.log
  cache=$(mktemp -d)
  with_caches "$cache"
  start=$(now)
  rc=$(bounded "$LIMIT_SELF_TEST" "$log" "${CACHES[@]}" "$BIN/murmur" --self-test)
  verdict=$(grep -m1 '^self-test: ' "$log" | sed 's/^self-test: //' || true)
  skips=$(grep -c '^skip ' "$log" || true)
  programs=$(grep -m1 '^shader programs: ' "$log" | sed 's/^shader programs: //' || true)
  add_row "self-test, cold" "$(result_of "$rc" "$LIMIT_SELF_TEST")" "$(seconds_since "$start")" \
    "${verdict:-no verdict printed}; programs: ${programs:-not printed}"
  section "## Self-test" "" "\`murmur --self-test\` with empty shader caches: ${ROW_RESULT[-1]}, ${ROW_SECONDS[-1]} s." \
    "${verdict:-It printed no verdict}. Shader programs: ${programs:-not printed}." ""
  [[ $skips -gt 0 ]] && section "Checks it skipped on this renderer:" "" '```' "$(grep '^skip ' "$log")" '```' ""
  [[ $rc -ne 0 ]] && section "Its failures:" "" '```' "$(grep -E '^FAIL|error' "$log" | head -40)" '```' ""
  start=$(now)
  rc=$(bounded "$LIMIT_SELF_TEST" "$LOGS/self-test-warm.log" "${CACHES[@]}" "$BIN/murmur" --self-test)
  warm_programs=$(grep -m1 '^shader programs: ' "$LOGS/self-test-warm.log" | sed 's/^shader programs: //' || true)
  add_row "self-test, warm" "$(result_of "$rc" "$LIMIT_SELF_TEST")" "$(seconds_since "$start")" "programs: ${warm_programs:-not printed}"
  rm -rf "$cache"
  section "Again with the caches the cold run filled: ${ROW_RESULT[-1]}, ${ROW_SECONDS[-1]} s; shader programs:" \
    "${warm_programs:-not printed}." "" "Logs: logs/self-test.log, logs/self-test-warm.log." ""
}

# ---- steps: the test binaries ----

have_program() {  # NAME: an executable file of that name on the PATH (as murmur looks for ffmpeg)
  local path
  path=$(command -v "$1" 2>/dev/null) && [[ -f $path && -x $path ]]
}

# Tests that need a program a bare server may lack, left out (and named in the report) where it
# is missing: "PATTERN REASON" lines for GoogleTest's negative filter (main keeps them in LEFT_OUT).
left_out_tests() {
  local python=/usr/bin/python3  # the one murmur's --sweep-plot prefers, as Debian's matplotlib does
  [[ -x $python ]] || python=$(command -v python3 || true)
  if ! have_program ffmpeg || ! have_program ffprobe; then
    local test
    for test in Recorder.AVideoThroughFfmpegHoldsEveryFrame Recorder.AFailedOrAbandonedVideoLeavesNothing \
                Cli.RecordFlagsAreCheckedUpFront CliGpu.HeadlessRecordWritesAVideoWithAFramePerKSteps; do
      echo "$test no ffmpeg/ffprobe on the PATH"
    done
  fi
  if [[ -z $python ]] || ! "$python" -c 'import matplotlib' >/dev/null 2>&1; then
    echo "SweepCli.APlot* no python3 with matplotlib"
  fi
  if [[ ! -f $SHADER_SOURCE_DIR/flock_rules.glsl ]]; then
    echo "CliGpu.AGpuThatFailsTheStartUpCheckIsRefused reads the build tree's $SHADER_SOURCE_DIR (compiled in)"
    echo "CliGpu.SelfTestBuildsTheFullestVariantOfEachFamily reads the build tree's $SHADER_SOURCE_DIR (compiled in)"
  fi
}

# The filter for one binary: the tests CTest runs for it, less those left out.
test_filter() {  # NAME
  local positive negative
  positive=$(paste -sd: "$HERE/share/murmur/tests/$1.list")
  negative=$(awk '{ print $1 }' <<<"$LEFT_OUT" | paste -sd:)
  echo "${positive:-*}${negative:+-$negative}"
}

# Test names from the shards' logs whose result line is TAG ("OK", "FAILED", "SKIPPED", "RUN").
names_with() {  # TAG LOG...
  local tag=$1
  shift
  sed -n "s/^\[ *$tag *\] \([A-Za-z_][^ ,]*\).*/\1/p" "$@" | sort -u
}

# One binary's tests in nproc shards at once (GL: at most GL_SHARDS_MAX); a row with the counts, a
# section naming failures.
step_tests() {  # NAME LABEL
  local name=$1 label=$2 shards start filter i expected rc pids=() codes=() logs=()
  local listed
  listed=$(grep -c . "$HERE/share/murmur/tests/$name.list" || true)
  shards=$(nproc)
  [[ $label == gl && $shards -gt $GL_SHARDS_MAX ]] && shards=$GL_SHARDS_MAX
  start=$(now)
  filter=$(test_filter "$name")
  expected=$(MURMUR_PRESET_DIR=$HERE/share/murmur/presets timeout 60 "$BIN/$name" --gtest_list_tests \
             --gtest_filter="$filter" 2>/dev/null | grep -c '^  ' || true)
  for ((i = 0; i < shards; i++)); do
    logs+=("$LOGS/$name-shard$i.log")
    MURMUR_PRESET_DIR=$HERE/share/murmur/presets GTEST_TOTAL_SHARDS=$shards GTEST_SHARD_INDEX=$i \
      GTEST_OUTPUT=xml:$LOGS/$name-shard$i.xml GTEST_COLOR=no \
      timeout -k 10 "$LIMIT_TESTS" "$BIN/$name" --gtest_filter="$filter" >"${logs[i]}" 2>&1 &
    pids+=($!)
  done
  for i in "${!pids[@]}"; do
    rc=0
    wait "${pids[i]}" || rc=$?
    codes+=("$rc")
  done
  LEFT=$((listed - expected))
  summarize_tests "$name" "$label" "$start" "$expected" "${codes[*]}" "${logs[@]}"
}

# Counts from the logs (robust to a shard that died: a test that started and never ended
# "crashed", one never started "not run") and the verdict.
summarize_tests() {  # NAME LABEL START EXPECTED "EXIT STATUSES" LOG...
  local name=$1 label=$2 start=$3 expected=$4 exits=$5 ok failed skipped crashed ran not_run bad_shards="" i=0 c
  shift 5
  ok=$(names_with OK "$@" | wc -l)
  failed=$(names_with FAILED "$@")
  skipped=$(names_with SKIPPED "$@")
  crashed=$(comm -23 <(names_with RUN "$@") <(cat <(names_with OK "$@") <(echo "$failed") <(echo "$skipped") | sort -u))
  ran=$(names_with RUN "$@" | wc -l)
  not_run=$((expected - ran))
  for c in $exits; do
    [[ $c -ne 0 ]] && bad_shards+="${bad_shards:+; }shard $i $(result_of "$c" "$LIMIT_TESTS")"
    i=$((i + 1))
  done
  local nf ns nc note result=passed
  nf=$(grep -c . <<<"$failed" || true) ns=$(grep -c . <<<"$skipped" || true) nc=$(grep -c . <<<"$crashed" || true)
  note="$ok/$expected passed"
  [[ $nf -gt 0 ]] && note+=", $nf failed"
  [[ $nc -gt 0 ]] && note+=", $nc crashed"
  [[ $not_run -ne 0 ]] && note+=", $not_run not run"
  [[ $ns -gt 0 ]] && note+=", $ns skipped"
  [[ $LEFT -gt 0 ]] && note+=", $LEFT left out"
  note+=" ($(wc -w <<<"$exits") shards)"
  [[ $nf -gt 0 || $nc -gt 0 || $not_run -ne 0 || -n $bad_shards ]] && result=failed
  [[ $ok -eq 0 && $nf -eq 0 && $nc -eq 0 && $expected -gt 0 ]] && result=failed
  add_row "${label^^} tests: $name" "$result" "$(seconds_since "$start")" "$note"
  section "## ${label^^} tests: $name" "" "${ROW_RESULT[-1]}, ${ROW_SECONDS[-1]} s: $note." ""
  [[ -n $bad_shards ]] && section "Shards that did not exit 0: $bad_shards." ""
  list_section "Failed" "$failed"
  list_section "Crashed (started, never ended: the shard died or timed out in them)" "$crashed"
  list_section "Skipped by the test itself" "$skipped"
  section "Logs: logs/$name-shard*.log (and .xml where the shard finished)." ""
}

list_section() {  # TITLE NAMES
  [[ -n $2 ]] || return 0
  section "$1:" "" "$(sed 's/^/- /' <<<"$2")" ""
}

left_out_section() {
  [[ -n $LEFT_OUT ]] || return 0
  section "## Tests left out" "" "Each needs something this machine lacks (the check's own list):" ""
  section "$(sed 's/^\([^ ]*\) \(.*\)$/- `\1`: \2/' <<<"$LEFT_OUT")" ""
}
