#!/usr/bin/env bash
# The full pipeline, after scripts/test.sh has built build-test/ and passed: the GL tests again on
# Mesa's zink over lavapipe (a second, SPIR-V based driver), the parity cases against a CPU
# reference built with fused multiply-adds, the mutation check (scripts/mutants.py), the CPU tests
# under ASan+UBSan and the libFuzzer targets (scripts/fuzz.sh, 5 s each), and the documented Slurm
# job array on a one-node Slurm (tests/slurm_array.sh, about 30 s), and pip's build of the package
# (tests/pip_install.sh). First, in about 25 s: every ELF's RUNPATH (scripts/check_runpath.sh: no
# empty or relative element, which would make the loader search the working directory), and a
# bundle (scripts/bundle.sh) run from a path with ':' and a space, with its check's GPU guard
# (tests/bundle_check_gpu.sh).
# On zink the parity cases and the suites that make or end contexts run many to a process
# (GoogleTest shards), as scripts/bundle.sh's check runs them on a GPU server.
# Usage: scripts/ci.sh   (.ci/run runs scripts/test.sh, then this)
set -euo pipefail
cd "$(dirname "$0")/.."
bash scripts/setup.sh --full
jobs=$(nproc)
export CMAKE_GENERATOR="${CMAKE_GENERATOR:-Ninja}"  # for the build folders made here (scripts/test.sh says why)
stage() { echo "== [$(date -u +%T), ${SECONDS} s into scripts/ci.sh] $*"; }  # each stage's start, to budget the run
[ -x build-test/bin/murmur ] || { echo "scripts/ci.sh: run scripts/test.sh first (it builds build-test/)" >&2; exit 1; }

# The ELF files among PATTERNs (globs that match nothing left out), for scripts/check_runpath.sh.
built() { local p; for p in "$@"; do compgen -G "$p" || true; done; }

stage "RUNPATHs of build-test/'s ELFs; a bundle of it, run from a path with ':' and a space; its check's GPU guard"
mapfile -t elves < <(built 'build-test/bin/*' 'build-test/lib/*.so*' 'build-test/python/murmur/*.so' 'build-test/tests/murmur_*_tests')
bash scripts/check_runpath.sh "${elves[@]}"
rm -rf build-test/bundle-ci
bash scripts/bundle.sh build-test/bundle-ci  # checks the bundle's RUNPATHs itself
bash tests/bundle_check_gpu.sh build-test/bundle-ci/murmur-bundle-*.tar.gz
rm -rf build-test/bundle-ci

stage "the GPU's opt-in paths on llvmpipe: storage-buffer reads and the tiled walk (label paths)"
ctest --test-dir build-test --output-on-failure -j"$jobs" -L paths

stage "the longest tests, which scripts/test.sh leaves out (scripts/long_tests.sh)"
source scripts/long_tests.sh
ctest --test-dir build-test --output-on-failure -j"$jobs" -LE paths -R "$long_tests"

stage "GL tests again on a second driver: zink (OpenGL on Vulkan) over lavapipe, the short suites many to a process"
# Zink compiles shaders through SPIR-V as hardware drivers do, and catches what llvmpipe forgives.
zink_runtime=$(mktemp -d)
trap 'rm -rf "$zink_runtime"' EXIT
chmod 700 "$zink_runtime"
# Left to llvmpipe: the window, the embed example and the Python module (their windows and contexts
# are their own), and the longest tests whose outcome turns on logic, not on the driver: each
# preset's keys (one flight per key), a start-up check fed wrong shaders, the long flights and
# each seed preset's thousand steps, a sweep split into ensembles, a video and one ensemble's
# obstacles (the driver's arithmetic is held by parity and the hand cases, which run here); and
# the self-test of every variant (130 s here on zink: llvmpipe builds every variant and the shader
# check compiles each to SPIR-V; the self-test of each family's fullest build, the likeliest to
# meet a limit, runs here).
zink_skip="window_smoke|embed_install|python_module|KeysApply|AGpuThatFailsTheStartUpCheckIsRefused|^Flight\\.|SeedPreset|SelfTestChecksEveryVariantAndPasses|ASweepTooLargeForOneEnsembleIsSplit|HeadlessRecordWritesAVideo|ObstaclesInOneFlockLeaveTheOthersAsTheyAreAlone"
# The parity cases and the suites that make or end contexts (the command line in-process, the
# library's flocks, the program cache), mixed with suites that step on the process's own, run many
# to a process (GoogleTest shards, one a core), as a GPU server's check runs them: a test's
# contexts must leave the process's own working for the next (ctest gives each test a process,
# which hid that ending one context ended the process's other on NVIDIA's EGL device platform), and
# a zink process costs about a third of a second to start (the parity cases took a third of the
# time in one process). Less what zink_skip leaves to llvmpipe; the self-test of the fullest
# variants (80 s here) in a process of its own beside the shards.
sharded="Cases/Parity|CliGpu|PublicApi|Contexts|ProgramCache|GpuPick|Render|GpuRuns|GpuHandCases|GpuMeasure|GpuEnsemble"
sharded_out="CliGpu.SelfTest*:CliGpu.AGpuThatFailsTheStartUpCheckIsRefused:*ASweepTooLargeForOneEnsembleIsSplit:*HeadlessRecordWritesAVideo:*ObstaclesInOneFlockLeaveTheOthersAsTheyAreAlone"
on_zink() { LIBGL_ALWAYS_SOFTWARE=1 GALLIUM_DRIVER=zink XDG_RUNTIME_DIR="$zink_runtime" MURMUR_EXPECT_RENDERER=zink "$@"; }
zink_ctest() {  # less the parity cases' own shards (ParityCases.*): they run in the shards below
  on_zink ctest --test-dir build-test --output-on-failure -j"$jobs" -L gl -LE paths -E "$zink_skip|^($sharded)\\.|^ParityCases\\." "$@"
}
# Mesa 22.3's zink compiles each linked compute program again on a background thread
# (precompile_compute_job) while the main thread builds the next; about one test process in 800
# dies there with SIGSEGV, inside lavapipe (core dumps: main thread in glCompileShader/glProgramBinary,
# with and without murmur's program cache, batched or one program at a time). A test or shard that
# crashed so is run once more and named; any other failure, or a second crash, fails the stage.
if ! zink_ctest | tee build-test/zink.log; then
  failures=$(awk '/The following tests FAILED:/ { listed = 1; next } listed && /^[[:space:]]+[0-9]+ - /' build-test/zink.log)
  failed=$(printf '%s' "$failures" | grep -c . || true)
  crashed=$(printf '%s\n' "$failures" | grep -E '\(SEGFAULT\)$' || true)
  crashes=$(printf '%s' "$crashed" | grep -c . || true)
  if [ "$failed" -eq 0 ] || [ "$crashes" -ne "$failed" ]; then
    echo "zink: $failed test(s) failed, $crashes of them by SIGSEGV: not only the driver's known crash" >&2
    exit 1
  fi
  echo "zink: $crashes test(s) died by SIGSEGV (the driver's known crash), run once more:"
  printf '%s\n' "$crashed"
  zink_ctest --rerun-failed
fi
zink_gtest() {  # NAME FILTER [SHARD]: one process of murmur_gl_tests on zink, its output in build-test/zink-NAME.log
  local shard=()
  [ -z "${3:-}" ] || shard=(GTEST_TOTAL_SHARDS="$jobs" GTEST_SHARD_INDEX="$3")
  on_zink env "${shard[@]}" MURMUR_PRESET_DIR="$PWD/presets" build-test/tests/murmur_gl_tests --gtest_brief=1 \
    --gtest_filter="$2" >"build-test/zink-$1.log" 2>&1
}
zink_process() {  # as zink_gtest, once more after the driver's known crash (SIGSEGV: 139)
  local rc=0
  zink_gtest "$@" || rc=$?
  if [ "$rc" = 139 ]; then
    echo "zink: the process $1 died by SIGSEGV (the driver's known crash), run once more"
    rc=0
    zink_gtest "$@" || rc=$?
  fi
  [ "$rc" = 0 ] || { tail -40 "build-test/zink-$1.log"; echo "zink: the GL tests in process $1 failed (exit $rc)" >&2; }
  return "$rc"
}
process_pids=()
for ((i = 0; i < jobs; i++)); do
  zink_process "shard-$i" "${sharded//|/.*:}.*-$sharded_out" "$i" &
  process_pids+=($!)
done
zink_process fullest CliGpu.SelfTestBuildsTheFullestVariantOfEachFamily &
process_pids+=($!)
for pid in "${process_pids[@]}"; do wait "$pid" || exit 1; done
grep -h PASSED build-test/zink-*.log
rm -rf "$zink_runtime"

stage "parity again, the CPU reference built with fused multiply-adds (as GPU compilers may fuse)"
if grep -qw fma /proc/cpuinfo; then
  # Only the CPU reference's flags differ from build-test's: through ccache (paths relative to the
  # checkout), every other object comes from scripts/test.sh's build.
  launcher=$(command -v ccache || true)
  cmake -S . -B build-fma -DCMAKE_BUILD_TYPE=Release -DMURMUR_WERROR=ON -DMURMUR_CPU_FMA=ON \
    -DCMAKE_CXX_COMPILER_LAUNCHER="$launcher" -DCMAKE_C_COMPILER_LAUNCHER="$launcher" >/dev/null
  CCACHE_BASEDIR="$PWD" cmake --build build-fma -j"$jobs" --target murmur_gl_tests
  ctest --test-dir build-fma --output-on-failure -j"$jobs" -R "Parity|GpuHand" -LE paths  # the default path: what the FMA reference is held to
  bash scripts/check_runpath.sh build-fma/tests/murmur_gl_tests
else
  echo "parity with FMA: not run, this CPU has no FMA instructions"
fi

stage "shader check: every program murmur builds through glslangValidator and spirv-val (scripts/shader_check.sh)"
bash scripts/shader_check.sh build-test

stage "mutation check: the same bug in both backends must fail a test (on a copy of the tree)"
python3 scripts/mutants.py build-mutants

stage "CPU tests under AddressSanitizer + UndefinedBehaviorSanitizer, then the fuzzers (scripts/fuzz.sh, 5 s each), from one clang build"
# One build serves both (the libraries built once with the sanitizers and libFuzzer's coverage,
# which the fuzz targets need): clang's UBSan also checks float-to-integer casts, which GCC's
# leaves out. Its warnings are not errors: build-test/ is GCC's -Werror build, and clang warns
# where GCC does not (-Wsign-conversion on std::array indices).
cmake -S . -B build-asan -DCMAKE_BUILD_TYPE=RelWithDebInfo -DCMAKE_C_COMPILER=clang -DCMAKE_CXX_COMPILER=clang++ \
  -DMURMUR_SANITIZE=ON -DMURMUR_FUZZ=ON >/dev/null
cmake --build build-asan -j"$jobs" --target murmur_cpu_tests murmur fuzz_preset fuzz_state_csv fuzz_cli_set fuzz_sweep_merge fuzz_shader_loader >/dev/null
bash scripts/check_runpath.sh build-asan/bin/murmur build-asan/tests/murmur_cpu_tests
# Mesa's software driver (swrast_dri.so, for the command line's GPU runs inside these tests) is
# unloaded at eglTerminate; what it still holds then is reported as a leak in "<unknown module>",
# which no suppression can name. A shim keeps loaded libraries loaded (dlclose does nothing), so
# LeakSanitizer sees those blocks as reachable; murmur's own code is never unloaded.
cc -shared -fPIC -o build-asan/keep_loaded.so -x c - <<<'int dlclose(void* handle) { (void)handle; return 0; }'
# Left out here (they run unsanitized in scripts/test.sh or the longest tests' stage above): the
# long flights and each preset's keys (a flight per key), thousands of steps of code that the short
# tests step under the sanitizers too, two videos through ffmpeg (about 550 s of the stage's 800 s
# of test time on two cores), and five command lines of 50,000 boids (33 s here).
asan_skip="Couzin.TheFourPresetsReachTheFourStates|Influences.AdaptiveRadiusSettlesWhereTheMeanCountIsTheTarget|CuckerSmale.TheMeanVelocityIsConserved|CuckerSmale.SmallBetaFlocksFromAnyStartALargeOneNeedNot|StateCsv.AResumedRunIsBitForBitTheUninterruptedOne|Recorder.AVideoThroughFfmpegHoldsEveryFrame|Recorder.AFailedOrAbandonedVideoLeavesNothing|KeysApply|ALargeCountWithNoPresetOpensTheMurmuration"
ASAN_OPTIONS=detect_leaks=1:verify_asan_link_order=0 UBSAN_OPTIONS=print_stacktrace=1 LD_PRELOAD="$PWD/build-asan/keep_loaded.so" \
  ctest --test-dir build-asan --output-on-failure -j"$jobs" -L cpu -E "$asan_skip"
bash scripts/fuzz.sh 5 build-asan
stage "pip install --no-build-isolation . into a virtual environment, run from there (tests/pip_install.sh, about 90 s)"
bash tests/pip_install.sh .
stage "the documented Slurm job array on a one-node Slurm 22.05 (tests/slurm_array.sh)"
timeout 180 bash tests/slurm_array.sh build-test/bin/murmur
stage "full pipeline passed"
