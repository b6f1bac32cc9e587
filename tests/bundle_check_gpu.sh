#!/usr/bin/env bash
# The bundle's check (scripts/bundle_check.sh) on a machine that shows a GPU but gives murmur a
# software renderer: with MURMUR_CHECK_FAKE_GPU=1 (a GPU pretended) on this machine's llvmpipe,
# check.sh must stop after its renderer step, exit 1 and name the cause. Also its GPU signs
# (NVIDIA EGL vendor files through __EGL_VENDOR_LIBRARY_DIRS / _FILENAMES), its renderer step
# passing where no GPU shows, and, given a bundle, the bundle run from a folder whose path has
# ':' and a space, from a working directory holding an empty libm.so.6 (found only through an
# empty or relative RUNPATH element or LD_LIBRARY_PATH entry).
# Usage: tests/bundle_check_gpu.sh [BUNDLE.tar.gz]   (without one: a bundle-shaped folder around
#        build-test/bin/murmur, no scripts/bundle.sh needed). About 5 s on llvmpipe, 2 cores.
set -euo pipefail

ROOT=$(cd "$(dirname "$0")/.." && pwd)
WORK=$(mktemp -d "${TMPDIR:-/tmp}/bundle check gpu.XXXXXX")
trap 'rm -rf "$WORK"' EXIT
export TMPDIR="$WORK/tmp dir"   # check.sh's own temporary files under a path with a space
mkdir -p "$TMPDIR"
# Mesa's llvmpipe, even on a machine with a GPU: only Mesa's EGL vendor, software rendering.
export EGL_PLATFORM=surfaceless LIBGL_ALWAYS_SOFTWARE=1
mesa_vendor=/usr/share/glvnd/egl_vendor.d/50_mesa.json
[[ ! -f $mesa_vendor ]] || export __EGL_VENDOR_LIBRARY_FILENAMES=$mesa_vendor
fail() { echo "bundle_check_gpu: FAILED: $*" >&2; exit 1; }

# The bundle: the tarball unpacked, or a folder shaped like one around build-test's murmur.
TOP="$WORK/a:b c"
mkdir -p "$TOP"
if [[ $# -ge 1 ]]; then
  tar -C "$TOP" -xzf "$1"
  BUNDLE=$(find "$TOP" -mindepth 1 -maxdepth 1 -type d | head -1)
else
  BUNDLE=$TOP/murmur-bundle-test
  mkdir -p "$BUNDLE/bin" "$BUNDLE/libexec" "$BUNDLE/share/murmur"
  cp "$ROOT/build-test/bin/murmur" "$BUNDLE/libexec/murmur"
  cp "$ROOT/scripts/bundle_wrapper.sh" "$BUNDLE/bin/murmur"
  ln -s murmur "$BUNDLE/bin/bundle-env"
  cp "$ROOT/scripts/bundle_check.sh" "$BUNDLE/check.sh"
  cp -r "$ROOT/scripts/bundle_check" "$BUNDLE/share/murmur/check"
  ln -s "$ROOT/presets" "$BUNDLE/share/murmur/presets"
  glibc=$(getconf GNU_LIBC_VERSION | awk '{ print $2 }')
  printf '%s\n' BUNDLE_NAME=murmur-bundle-test BUNDLE_COMMIT=test BUNDLE_TREE=test BUNDLE_MADE=now \
    "BUNDLE_VERSION='murmur (test)'" BUNDLE_BUILD_TYPE=? "NEED_GLIBC=$glibc" "NEED_GLIBC_LIBEXEC=$glibc" \
    NEED_GLIBCXX= "SHADER_SOURCE_DIR=$ROOT/shaders" >"$BUNDLE/share/murmur/bundle.env"
fi
[[ -x $BUNDLE/check.sh ]] || fail "no check.sh in $BUNDLE"

# 1. Given a bundle: it runs from the ':' and space path, with a fake libm.so.6 in the working
#    directory and no LD_LIBRARY_PATH.
if [[ $# -ge 1 ]]; then
  mkdir -p "$WORK/cwd" && : >"$WORK/cwd/libm.so.6"
  (cd "$WORK/cwd" && env -u LD_LIBRARY_PATH "$BUNDLE/bin/murmur" --version) >"$WORK/version.log" 2>&1 ||
    fail "bin/murmur --version from $BUNDLE: $(cat "$WORK/version.log")"
  (cd "$WORK/cwd" && env -u LD_LIBRARY_PATH "$BUNDLE/bin/murmur" --headless --boids 200 --steps 5) >"$WORK/run.log" 2>&1 ||
    fail "bin/murmur --headless --boids 200 --steps 5 from $BUNDLE: $(tail -5 "$WORK/run.log")"
  echo "bundle_check_gpu: the bundle runs from '$BUNDLE' beside a fake libm.so.6: $(head -1 "$WORK/version.log")"
fi

# 2. check.sh's functions, sourced: the GPU signs, the renderer step where no GPU shows.
(
  # shellcheck source=/dev/null
  . "$BUNDLE/check.sh"
  # shellcheck disable=SC2034  # read by check.sh's functions
  HERE=$BUNDLE BIN=$BUNDLE/bin LOGS=$WORK/logs BODY=$WORK/body
  mkdir -p "$LOGS"
  mkdir -p "$WORK/vendors" && echo '{ "ICD": { "library_path": "libEGL_nvidia.so.0" } }' >"$WORK/vendors/10_nvidia.json"
  signs=$(__EGL_VENDOR_LIBRARY_FILENAMES="" __EGL_VENDOR_LIBRARY_DIRS=$WORK/vendors gpu_signs) || fail "an NVIDIA vendor file in __EGL_VENDOR_LIBRARY_DIRS is no GPU sign"
  grep -q "NVIDIA EGL vendor file $WORK/vendors/10_nvidia.json" <<<"$signs" || fail "gpu_signs: $signs"
  __EGL_VENDOR_LIBRARY_FILENAMES=$WORK/vendors/10_nvidia.json gpu_signs | grep -q 'NVIDIA EGL vendor file' ||
    fail "an NVIDIA vendor file in __EGL_VENDOR_LIBRARY_FILENAMES is no GPU sign"
  ! MURMUR_CHECK_FAKE_GPU=0 gpu_signs >/dev/null || fail "MURMUR_CHECK_FAKE_GPU=0 still shows a GPU"
  if ! is_software "zink (llvmpipe (LLVM 15.0.6, 256 bits))" || ! is_software "llvmpipe (LLVM 15.0.6, 256 bits)" ||
     is_software "NVIDIA H200/PCIe/SSE2"; then fail "is_software"; fi
  MURMUR_CHECK_FAKE_GPU=0 step_renderer
  [[ ${ROW_RESULT[-1]} == passed ]] || fail "the renderer step where no GPU shows: ${ROW_RESULT[-1]}: ${ROW_NOTE[-1]}"
  echo "bundle_check_gpu: no GPU shown: renderer step ${ROW_RESULT[-1]}: ${ROW_NOTE[-1]}"
)

# 3. The whole check.sh with a GPU pretended: exit 1 after the renderer step, the cause named.
rc=0
start=$(date +%s)
(cd "$WORK" && MURMUR_CHECK_FAKE_GPU=1 timeout -k 5 50 "$BUNDLE/check.sh" "$WORK/report dir") >"$WORK/check.log" 2>&1 || rc=$?
cat "$WORK/check.log"
[[ $rc -eq 1 ]] || fail "check.sh with a GPU pretended exited $rc, not 1"
grep -q 'FAILED: a software renderer (.*) on a machine that shows a GPU (MURMUR_CHECK_FAKE_GPU=1' "$WORK/check.log" ||
  fail "check.sh did not name the software renderer and the GPU"
grep -q '^| renderer | failed |' "$WORK/report dir/report.md" || fail "report.md has no failed renderer row"
[[ ! -e "$WORK/report dir/logs/self-test.log" ]] || fail "check.sh went on past the renderer step"
grep -q '^| libraries | passed |' "$WORK/report dir/report.md" || fail "the libraries step did not pass: $(grep '^| libraries' "$WORK/report dir/report.md")"
echo "bundle_check_gpu: passed (check.sh stopped at the renderer, exit 1, in $(($(date +%s) - start)) s)"
