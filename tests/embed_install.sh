#!/usr/bin/env bash
# The public library as another project uses it: `cmake --install` into a fresh prefix, then
# examples/embed (its own GLFW window and GL, murmur's flock drawn from murmur's buffers) built
# against the installed package with find_package(murmur), and run for 30 frames under Xvfb from
# a folder far from the build: it must find the installed presets, step, and draw the flock.
# Where the Python package was built, the installed one is imported from the prefix alone (its
# presets, a trajectory, and murmur.sweep finding the installed murmur command).
# Usage: tests/embed_install.sh BUILD_DIR SOURCE_DIR
set -euo pipefail
build=$(realpath "$1")
src=$(realpath "$2")
work=$(mktemp -d)
source "$src/tests/xvfb.sh"
trap 'stop_xvfb; rm -rf "$work"' EXIT
cmake --install "$build" --prefix "$work/prefix" >/dev/null
cmake -S "$src/examples/embed" -B "$work/embed" -DCMAKE_PREFIX_PATH="$work/prefix" -DCMAKE_BUILD_TYPE=Release >"$work/configure.log" ||
  { cat "$work/configure.log"; exit 1; }
cmake --build "$work/embed" >"$work/build.log" || { cat "$work/build.log"; exit 1; }
cd "$work"
with_xvfb 640x640x24 "$work/embed/embed" 30 "$work/last.ppm" >"$work/out.txt" 2>&1 ||
  { cat "$work/out.txt"; exit 1; }
cat "$work/out.txt"
grep -q "^embed: 30 frames, 2000 boids, step 30," "$work/out.txt" || { echo "FAIL: not 30 frames of 2000 boids"; exit 1; }
# The last frame shows the flock: at least 500 pixels of the points' colour on the dark clear.
python3 - "$work/last.ppm" <<'PY'
import sys
data = open(sys.argv[1], "rb").read()
header, pixels = data.split(b"\n", 1)
lit = sum(1 for i in range(0, len(pixels) - 2, 3) if pixels[i] > 200 and pixels[i + 1] > 150)
print(f"embed: {lit} lit pixels in the last frame")
sys.exit(0 if lit >= 500 else 1)
PY
pkg=$(find "$work/prefix" -name __init__.py -path '*/murmur/__init__.py' | head -1)
if [ -f "$build/python/murmur/__init__.py" ]; then
  [ -n "$pkg" ] || { echo "FAIL: the Python package was built but not installed"; exit 1; }
  env -u MURMUR_BIN PATH=/usr/bin:/bin PYTHONPATH="$(dirname "$(dirname "$pkg")")" EGL_PLATFORM=surfaceless \
    /usr/bin/python3 - "$work" <<'PY'
import os, sys
import h5py
import murmur
assert murmur.__file__.startswith(sys.argv[1]), murmur.__file__
flock = murmur.Flock(preset="couzin-torus", backend="cpu", seed=1, boids=100)
with flock.record(os.path.join(sys.argv[1], "t.h5"), every=5):
    flock.step(10)
assert h5py.File(os.path.join(sys.argv[1], "t.h5"))["particles/flock/position/value"].shape == (3, 100, 3)
rows = murmur.sweep({"couzin.orientation_width": (0, 4, 2)}, preset="couzin-torus", backend="cpu", steps=20, every=10)
assert len(rows) == 2, rows
print("embed: the installed Python package ran a flock, a trajectory and a sweep")
PY
fi
