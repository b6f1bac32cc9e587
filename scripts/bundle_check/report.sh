# shellcheck shell=bash disable=SC2153  # LOGS and the like: set by check.sh
# The bundle's check: its results, a row a step, and report.md; running a step under a limit.
# Sourced by check.sh (scripts/bundle_check.sh), which sets what these read: HERE, BIN, REPORT,
# LOGS, BODY, the limits and sizes, SOFTWARE, RENDERER, LEFT_OUT.

# ---- the results: one row a step, for report.md's sections and the table ----
ROW_STEP=() ROW_RESULT=() ROW_SECONDS=() ROW_NOTE=()
FAILED=0

add_row() {  # STEP RESULT SECONDS NOTE; RESULT failed (or timed out) marks the check failed
  ROW_STEP+=("$1") ROW_RESULT+=("$2") ROW_SECONDS+=("$3") ROW_NOTE+=("$4")
  case $2 in failed*|timed*) FAILED=1 ;; esac
}

section() {  # appends to the report's body
  printf '%s\n' "$@" >>"$BODY"
}

now() { date +%s.%N; }
seconds_since() { awk -v a="$1" -v b="$(now)" 'BEGIN { printf "%.1f", b - a }'; }

# Runs a command under timeout with its output in a log; prints the exit status (124: timed out).
bounded() {  # LIMIT LOG COMMAND...
  local limit=$1 log=$2 rc=0
  shift 2
  timeout -k 10 "$limit" "$@" >"$log" 2>&1 || rc=$?
  echo "$rc"
}

result_of() {  # EXIT_STATUS LIMIT -> passed / failed (exit N) / timed out after N s
  case $1 in
    0) echo passed ;;
    124 | 137) echo "timed out after $2 s" ;;
    *) echo "failed (exit $1)" ;;
  esac
}

# ---- the report ----

table() {
  local i
  echo "| step | result | seconds | note |"
  echo "|---|---|---:|---|"
  for i in "${!ROW_STEP[@]}"; do
    echo "| ${ROW_STEP[i]} | ${ROW_RESULT[i]} | ${ROW_SECONDS[i]} | ${ROW_NOTE[i]} |"
  done
}

write_report() {  # START
  local total verdict="every step passed"
  total=$(seconds_since "$1")
  [[ $FAILED -eq 1 ]] && verdict="FAILED: see the steps marked failed"
  {
    echo "# murmur check: $(uname -n)"
    echo
    echo "- date: $(date -u '+%Y-%m-%d %H:%M:%S UTC')"
    echo "- bundle: $BUNDLE_NAME, $BUNDLE_VERSION, a $BUNDLE_BUILD_TYPE build of commit $BUNDLE_COMMIT ($BUNDLE_TREE), made $BUNDLE_MADE"
    echo "- renderer: ${RENDERER:-unknown (murmur printed none)}${GPU_RAN:+; ran on: $GPU_RAN}"
    [[ $SOFTWARE -eq 1 && -n ${BENCH_ROW:-} ]] && echo "- a software renderer (or none found): the benchmark ran cut down; GPU-only sizes are skipped, not passed"
    machine_lines
    echo "- the whole check: $total s; $verdict"
    echo
    cat "$BODY"
    echo "## Summary"
    echo
    table
  } >"$REPORT/report.md"
}
