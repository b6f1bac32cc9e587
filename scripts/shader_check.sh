#!/usr/bin/env bash
# Every shader program murmur builds, checked by the reference compiler: Mesa dumps each source it
# compiles (MESA_SHADER_DUMP_PATH, the program cache off so nothing is skipped) while murmur runs
# the self-test (every variant family, and each family's fullest build under both read paths and
# the tiled walk) under the default read path and walk (--all: under all four pairs), every preset
# headless, each draw mode and the steer pass's fullest variant (a storage-read ensemble sweep with
# perching); glslangValidator then
# compiles each source as written (GLSL 4.30) to SPIR-V for OpenGL, which spirv-val checks (and,
# with --all, again as GLSL 4.60). Any error fails, naming the file; a hardware driver's compiler
# is stricter than llvmpipe's in places, and this is the nearest check to one without a GPU.
# Usage: scripts/shader_check.sh [--all] [BUILD_DIR]   (default build-test; needs glslang-tools,
#        spirv-tools)
set -euo pipefail
cd "$(dirname "$0")/.."
pairs=("textures rows")  # the self-test's fullest builds take the other read path and walk too
export SHADER_CHECK_460=0
if [ "${1:-}" = "--all" ]; then
  pairs=("textures rows" "textures tiles" "storage rows" "storage tiles")
  SHADER_CHECK_460=1
  shift
fi
build=${1:-build-test}
murmur=$build/bin/murmur
[ -x "$murmur" ] || { echo "shader_check: no $murmur (build first)" >&2; exit 2; }
command -v glslangValidator >/dev/null && command -v spirv-val >/dev/null ||
  { echo "shader_check: needs glslangValidator and spirv-val (scripts/setup.sh --full)" >&2; exit 1; }

work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
mkdir "$work/dump" "$work/run"
dumped() {  # runs murmur with every compile dumped into $work/dump
  (cd "$work/run" && MESA_SHADER_DUMP_PATH="$work/dump" MESA_SHADER_CACHE_DISABLE=true MURMUR_PROGRAM_CACHE=0 \
     EGL_PLATFORM=surfaceless "$OLDPWD/$murmur" "$@" >/dev/null)
}

echo "== shader check: dumping every program murmur builds =="
# The self-test compiles on one core: the presets, draw modes and the sweep run beside it.
others() {
  for preset in presets/*.json; do
    dumped --headless --preset "$(basename "$preset" .json)" --boids 300 --steps 3
  done
  for draw in meshes flat points splats; do
    dumped --headless --preset default3d --boids 300 --steps 1 --set draw=$draw --width 160 --height 120 --screenshot shot.png
  done
  MURMUR_GPU_READS=storage dumped --preset decarpentier --set perch.enabled=on --boids 200 --steps 10 \
    --sweep separation.weight=1:2:2 --sweep-seeds 2 --sweep-burn-in 5 --sweep-every 5 --sweep-batch 4 --sweep-out sweep.csv
}
others &
others_pid=$!
for pair in "${pairs[@]}"; do
  read -r reads walk <<<"$pair"
  MURMUR_GPU_READS=$reads MURMUR_GPU_WALK=$walk dumped --self-test
done
wait "$others_pid" || { echo "shader_check: a run that dumps shaders failed" >&2; exit 1; }

# One file: its stage from Mesa's prefix; as written (4.30) to SPIR-V through spirv-val (uniforms
# given locations as a GL driver gives them: --aml), then (--all) as GLSL 4.60.
check_one() {
  local file=$1 stage out
  case $(basename "$file") in
    CS_*) stage=comp ;; VS_*) stage=vert ;; FS_*) stage=frag ;; GS_*) stage=geom ;; *) return 0 ;;
  esac
  out=$(mktemp -d)
  if ! glslangValidator -G --target-env opengl --aml -S "$stage" "$file" -o "$out/spv" >"$out/log" 2>&1 ||
     ! spirv-val --target-env opengl4.5 "$out/spv" >>"$out/log" 2>&1; then
    echo "FAIL (GLSL 4.30 to SPIR-V) $file:"; cat "$out/log"; rm -rf "$out"; return 1
  fi
  [ "$SHADER_CHECK_460" = 1 ] || { rm -rf "$out"; return 0; }
  sed '1s/^#version 430.*/#version 460/' "$file" >"$out/s460"
  if ! glslangValidator -S "$stage" "$out/s460" >"$out/log" 2>&1; then
    echo "FAIL (GLSL 4.60) $file:"; cat "$out/log"; rm -rf "$out"; return 1
  fi
  rm -rf "$out"
}
export -f check_one
count=$(find "$work/dump" -type f | wc -l)
[ "$count" -gt 0 ] || { echo "shader_check: Mesa dumped no shaders (MESA_SHADER_DUMP_PATH unsupported?)" >&2; exit 1; }
echo "== shader check: $count distinct sources, each as GLSL 4.30 to SPIR-V$([ "$SHADER_CHECK_460" = 1 ] && echo ' and as GLSL 4.60') =="
if ! find "$work/dump" -type f -print0 | xargs -0 -n 20 -P "$(nproc)" bash -c 'rc=0; for f; do check_one "$f" || rc=1; done; exit $rc' _; then
  echo "shader_check: some shaders failed (above)" >&2
  exit 1
fi
echo "shader_check: all $count sources compile and validate as SPIR-V$([ "$SHADER_CHECK_460" = 1 ] && echo ', and as GLSL 4.60') ($SECONDS s)"
