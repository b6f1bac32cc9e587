#!/usr/bin/env bash
# pip's route: `pip install --no-build-isolation --no-index --target DIR .` builds the package
# from this tree with CMake (setup.py) and installs it into DIR; then Debian's python3 imports it
# from DIR alone, far from the build (no MURMUR_BIN, no preset folder set), and uses the GPU
# backend, its presets, a trajectory and murmur.sweep (in-process, through libmurmur).
# Usage: tests/pip_install.sh SOURCE_DIR   (scripts/ci.sh; ccache makes the second build short)
set -euo pipefail
src=$(realpath "$1")
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
cd "$src"
start=$(date +%s)
CCACHE_BASEDIR="$src" MURMUR_CMAKE_ARGS="-DMURMUR_WERROR=ON" \
  /usr/bin/python3 -m pip install --no-build-isolation --no-deps --no-index --target "$work/site" . >"$work/pip.log" 2>&1 ||
  { tail -40 "$work/pip.log"; echo "FAIL: pip install"; exit 1; }
echo "pip install: $(($(date +%s) - start)) s"
cd "$work"
env -u MURMUR_BIN -u MURMUR_PRESET_DIR PATH=/usr/bin:/bin PYTHONPATH="$work/site" EGL_PLATFORM=surfaceless \
  /usr/bin/python3 - "$work" <<'PY'
import os, sys
import murmur
work = sys.argv[1]
assert murmur.__file__.startswith(os.path.join(work, "site", "murmur")), murmur.__file__
flock = murmur.Flock(preset="couzin-torus", backend="gpu", seed=1, boids=200)
with flock.record(os.path.join(work, "run.h5"), every=5):
    flock.step(10)
assert flock.step_count == 10 and os.path.getsize(os.path.join(work, "run.h5")) > 0
rows = murmur.sweep({"vicsek.noise": (0, 1, 2)}, preset="vicsek", backend="cpu", boids=40, steps=10, every=5,
                    progress=False, as_dataframe=False)
assert len(rows) == 2, rows
print(f"pip install: murmur {murmur.__version__} from {os.path.dirname(murmur.__file__)}: a GPU flock, "
      f"a trajectory and a sweep ({len(murmur.presets())} presets)")
PY
