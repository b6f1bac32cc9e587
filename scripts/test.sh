#!/usr/bin/env bash
# Installs what is missing, builds with -Werror and runs the whole test suite (CPU and GL tests,
# GL ones on Mesa's llvmpipe where there is no GPU), the GL tests again on Mesa's zink over
# lavapipe (a second, SPIR-V based driver), the parity cases against a CPU reference built with
# fused multiply-adds, the mutation check (scripts/mutants.py, about 5 minutes), the libFuzzer
# targets for 45 s each (scripts/fuzz.sh), then the CPU tests again under ASan+UBSan.
# Usage: scripts/test.sh
set -euo pipefail
cd "$(dirname "$0")/.."
bash scripts/setup.sh
jobs=$(nproc)

echo "== build (Release, -Werror) =="
cmake -S . -B build-test -DCMAKE_BUILD_TYPE=Release -DMURMUR_WERROR=ON >/dev/null
cmake --build build-test -j"$jobs"
echo "== tests =="
ctest --test-dir build-test --output-on-failure -j"$jobs"

echo "== GL tests again on a second driver: zink (OpenGL on Vulkan) over lavapipe =="
# Zink compiles shaders through SPIR-V as hardware drivers do, and catches what llvmpipe forgives.
zink_runtime=$(mktemp -d)
chmod 700 "$zink_runtime"
LIBGL_ALWAYS_SOFTWARE=1 GALLIUM_DRIVER=zink XDG_RUNTIME_DIR="$zink_runtime" MURMUR_EXPECT_RENDERER=zink \
  ctest --test-dir build-test --output-on-failure -j"$jobs" -L gl -E window_smoke
rm -rf "$zink_runtime"

echo "== parity again, the CPU reference built with fused multiply-adds (as GPU compilers may fuse) =="
if grep -qw fma /proc/cpuinfo; then
  cmake -S . -B build-fma -DCMAKE_BUILD_TYPE=Release -DMURMUR_WERROR=ON -DMURMUR_CPU_FMA=ON >/dev/null
  cmake --build build-fma -j"$jobs" --target murmur_gl_tests
  ctest --test-dir build-fma --output-on-failure -j"$jobs" -R "Parity|GpuHand"
else
  echo "parity with FMA: not run, this CPU has no FMA instructions"
fi

echo "== mutation check: the same bug in both backends must fail a test =="
python3 scripts/mutants.py build-test

echo "== fuzzers: the preset reader, the state CSV reader and --set, 45 s each (scripts/fuzz.sh) =="
bash scripts/fuzz.sh 45

echo "== CPU tests under AddressSanitizer + UndefinedBehaviorSanitizer =="
cmake -S . -B build-asan -DCMAKE_BUILD_TYPE=Debug -DMURMUR_WERROR=ON -DMURMUR_SANITIZE=ON >/dev/null
cmake --build build-asan -j"$jobs" --target murmur_cpu_tests murmur
ASAN_OPTIONS=detect_leaks=1 UBSAN_OPTIONS=print_stacktrace=1 \
  ctest --test-dir build-asan --output-on-failure -j"$jobs" -L cpu
