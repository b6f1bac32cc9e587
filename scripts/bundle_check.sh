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
# Usage: ./check.sh [REPORT_DIR]   (default: ./murmur-check-HOST-DATE)
# MURMUR_CHECK_FAKE_GPU=1 pretends this machine shows a GPU, =0 that it shows none (tests).
set -euo pipefail

HERE=$(cd "$(dirname "$(readlink -f "$0")")" && pwd -P)
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

# ---- the machine ----

# Machine and driver lines for the report: host, cores, memory, kernel, the NVIDIA GPUs if any.
machine_lines() {
  echo "- host: $(uname -n), $(nproc) cores, $(awk '/MemTotal/ { printf "%.0f GiB", $2 / 1048576 }' /proc/meminfo), $(uname -srm)"
  [[ -r /etc/os-release ]] && echo "- system: $(. /etc/os-release && echo "$PRETTY_NAME"), $(getconf GNU_LIBC_VERSION)"
  if command -v nvidia-smi >/dev/null 2>&1; then
    timeout 20 nvidia-smi --query-gpu=name,driver_version,memory.total --format=csv,noheader 2>/dev/null |
      sed 's/^/- GPU: /' || true
  fi
}

is_software() {  # RENDERER: Mesa's and others' CPU renderers (zink over lavapipe says llvmpipe)
  grep -qiE 'llvmpipe|softpipe|lavapipe|swrast|swiftshader|software' <<<"$1"
}

# The EGL vendor files glvnd's libEGL reads, one a line: __EGL_VENDOR_LIBRARY_FILENAMES' if set,
# else the *.json of __EGL_VENDOR_LIBRARY_DIRS' folders if set, else of its default folders.
egl_vendor_files() {
  local list=() dir
  if [[ -n ${__EGL_VENDOR_LIBRARY_FILENAMES:-} ]]; then
    IFS=: read -r -a list <<<"$__EGL_VENDOR_LIBRARY_FILENAMES"
    printf '%s\n' "${list[@]}"
    return
  fi
  IFS=: read -r -a list <<<"${__EGL_VENDOR_LIBRARY_DIRS:-/etc/glvnd/egl_vendor.d:/usr/share/glvnd/egl_vendor.d}"
  for dir in "${list[@]}"; do
    [[ -d $dir ]] && find "$dir" -maxdepth 1 -name '*.json' | sort
  done
  return 0
}

vendor_library() {  # JSON -> the library_path it names
  sed -n 's/.*"library_path"[[:space:]]*:[[:space:]]*"\([^"]*\)".*/\1/p' "$1" 2>/dev/null | head -1
}

# Where the loader finds a 64-bit library NAME (or the path itself, if one): its cache, else the
# usual folders; empty if nowhere.
find_library() {
  local dir
  if [[ $1 == */* ]]; then [[ -e $1 ]] && echo "$1"; return 0; fi
  { /sbin/ldconfig -p || ldconfig -p; } 2>/dev/null | awk -v n="$1" '$1 == n && /x86-64/ { print $NF; exit }' | grep . && return 0
  for dir in /lib/x86_64-linux-gnu /usr/lib/x86_64-linux-gnu /usr/lib64 /lib64 /usr/local/lib; do
    [[ -e $dir/$1 ]] && { echo "$dir/$1"; return 0; }
  done
  return 0
}

# What shows this machine has a GPU, one line a sign; nothing (status 1) where nothing does:
# nvidia-smi listing one, a render node with an NVIDIA or AMD driver, an NVIDIA EGL vendor file.
gpu_signs() {
  case ${MURMUR_CHECK_FAKE_GPU:-} in
    1) echo "MURMUR_CHECK_FAKE_GPU=1, a GPU pretended"; return 0 ;;
    0) return 1 ;;
  esac
  local signs=() node driver file
  if command -v nvidia-smi >/dev/null 2>&1; then
    while IFS= read -r node; do signs+=("nvidia-smi: $node"); done < <(timeout 20 nvidia-smi -L 2>/dev/null | grep '^GPU' | sed 's/ (UUID: .*//')
  fi
  for node in /dev/dri/renderD*; do
    [[ -e $node ]] || continue
    driver=$(basename "$(readlink -f "/sys/class/drm/${node##*/}/device/driver" 2>/dev/null)" 2>/dev/null || true)
    if [[ ! $driver =~ ^(nvidia|amdgpu|radeon)$ ]]; then
      driver=$(ls -d /sys/module/nvidia_drm /sys/module/amdgpu 2>/dev/null | head -1 | xargs -r basename)
    fi
    [[ -n $driver ]] && signs+=("$node, driver $driver")
  done
  while IFS= read -r file; do
    [[ -f $file ]] && grep -qi nvidia <<<"$file $(vendor_library "$file")" && signs+=("NVIDIA EGL vendor file $file")
  done < <(egl_vendor_files)
  [[ ${#signs[@]} -gt 0 ]] || return 1
  printf '%s\n' "${signs[@]}"
}

# ---- step: libraries ----

# glibc new enough, every library of every binary found (ldd: the binaries' RUNPATH leads to the
# bundle's lib/), libEGL.so.1 (loaded at run time: ldd cannot see it) and an EGL vendor library.
step_libraries() {
  local start dir have need file lib found vendors=0 problems=() log=$LOGS/libraries.log
  start=$(now)
  dir=$("$BIN/bundle-env")
  have=$(getconf GNU_LIBC_VERSION | awk '{ print $2 }')
  need=${NEED_GLIBC_LIBEXEC:-$NEED_GLIBC}          # bundle.env's: the system's libstdc++ serving,
  [[ $dir != *-compat ]] || need=$NEED_GLIBC       # or the bundle's
  {
    echo "binaries run from: $dir"
    echo "glibc: $have (the bundle needs $need)"
    for file in "$dir"/*; do
      [[ -f $file && ! -L $file ]] || continue
      echo "== $(basename "$file")"
      if command -v ldd >/dev/null 2>&1; then timeout "$LIMIT_LIBS" ldd "$file" || true; fi
    done
    echo "== libEGL.so.1: $(find_library libEGL.so.1)"
    echo "== EGL vendor files"
    while IFS= read -r file; do
      lib=$(vendor_library "$file")
      found=$(find_library "${lib:-?}")
      [[ -n $found ]] && vendors=$((vendors + 1))
      echo "$file: ${lib:-no library_path} -> ${found:-not found}"
    done < <(egl_vendor_files)
  } >"$log" 2>&1
  if [[ $(printf '%s\n%s\n' "$need" "$have" | sort -V | head -1) != "$need" ]]; then
    problems+=("the bundle needs glibc $need or newer, this machine has glibc $have: use a bundle made on an older system")
  fi
  command -v ldd >/dev/null 2>&1 || problems+=("no ldd: the binaries' libraries not checked")
  # The loader's whole complaint, after the binary's name: "murmur: libfoo.so.1 => not found",
  # "murmur: .../murmur: .../libc.so.6: version \`GLIBC_2.38' not found (required by ...)".
  while IFS= read -r file; do problems+=("$file"); done < <(awk '/^== libEGL/ { exit } /^== / { binary = $2 }
    /not found/ { sub(/^[ \t]+/, ""); sub(/ \(0x[0-9a-f]+\)$/, ""); print binary ": " $0 }' "$log")
  [[ -n $(find_library libEGL.so.1) ]] || problems+=("no libEGL.so.1 (glvnd's; Debian/Ubuntu: libegl1)")
  [[ $vendors -gt 0 ]] || problems+=("no EGL vendor library (glvnd's egl_vendor.d JSON files: the GPU driver's, or Mesa's 50_mesa.json)")
  if [[ ${#problems[@]} -eq 0 ]]; then
    local stdcxx="the system's"
    [[ $dir == *-compat ]] && stdcxx="the bundle's (the system's lacks $NEED_GLIBCXX)"
    add_row libraries passed "$(seconds_since "$start")" "all found; libstdc++: $stdcxx; $vendors EGL vendor(s)"
  elif [[ ${problems[0]} == "no ldd"* && ${#problems[@]} -eq 1 ]]; then
    add_row libraries "skipped (no ldd)" "$(seconds_since "$start")" "glibc $have (needed: $need)"
  else
    add_row libraries failed "$(seconds_since "$start")" "$(printf '%s; ' "${problems[@]}" | sed 's/; $//')"
  fi
  section "## Libraries" "" "Every binary's libraries resolved with \`ldd\` (the binaries of \`$dir\`, by their" \
    "RUNPATH), libEGL.so.1 and the EGL vendor files: ${ROW_NOTE[-1]}. glibc $have (needed: $need)." \
    "Log: logs/libraries.log." ""
}

# ---- step: the renderer ----

# A short headless run, for the renderer murmur gets. Where the machine shows a GPU (gpu_signs),
# a software renderer fails the step (main stops there: the rest would measure the CPU). The
# row names the renderer and, where nvidia-smi answers, the GPUs' names and buses (GPU_RAN).
step_renderer() {
  local start rc signs log=$LOGS/renderer.log
  start=$(now)
  rc=$(MURMUR_PRESET_DIR=$HERE/share/murmur/presets bounded "$LIMIT_RENDERER" "$log" "$BIN/murmur" --headless \
       --boids 200 --steps 5)
  RENDERER=$(sed -n 's/^murmur: renderer \(.*\), OpenGL .*$/\1/p' "$log" | head -1)
  SOFTWARE=1
  [[ -n $RENDERER ]] && ! is_software "$RENDERER" && SOFTWARE=0
  signs=$(gpu_signs | paste -sd ';' | sed 's/;/; /g') || true  # status 1: none
  GPU_RAN=""
  if [[ $SOFTWARE -eq 0 ]] && command -v nvidia-smi >/dev/null 2>&1; then
    GPU_RAN=$(timeout 20 nvidia-smi --query-gpu=name,pci.bus_id --format=csv,noheader 2>/dev/null | paste -sd ';' |
              sed 's/;/; /g') || true
  fi
  if [[ -n $signs && -n $RENDERER && $SOFTWARE -eq 1 ]]; then
    add_row renderer failed "$(seconds_since "$start")" \
      "a software renderer ($RENDERER) on a machine that shows a GPU ($signs): the GPU's EGL driver was not used"
  elif [[ -z $RENDERER ]]; then  # failed, even where it exited 0
    add_row renderer "$(result_of "$rc" "$LIMIT_RENDERER" | sed 's/^passed$/failed/')" "$(seconds_since "$start")" \
      "no renderer printed: $(grep -m1 -i error "$log" || grep -v '^$' "$log" | tail -1)${signs:+; GPU signs: $signs}"
  else
    add_row renderer "$(result_of "$rc" "$LIMIT_RENDERER")" "$(seconds_since "$start")" \
      "${RENDERER:-no renderer printed}${GPU_RAN:+ on $GPU_RAN (nvidia-smi)}${signs:+; GPU signs: $signs}"
  fi
  section "## Renderer" "" "\`murmur --headless --boids 200 --steps 5\`: ${ROW_RESULT[-1]}, ${ROW_SECONDS[-1]} s:" \
    "${ROW_NOTE[-1]}. Log: logs/renderer.log." ""
}

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
