#!/usr/bin/env bash
# pip's route, as docs/library.md gives it: a virtual environment that sees Debian's packages
# (numpy, h5py; Debian 12's own python3 refuses pip installs, PEP 668), and in it `pip install
# --no-build-isolation --no-deps --no-index .`, which builds the package from this tree with CMake
# (setup.py) offline; then the environment's python imports it from its site folder, far from the
# build (no MURMUR_BIN, no preset folder set), and uses the GPU backend, its presets, a trajectory
# and murmur.sweep (in-process, through libmurmur).
# Usage: tests/pip_install.sh SOURCE_DIR   (scripts/ci.sh; ccache makes the second build short)
set -euo pipefail
src=$(realpath "$1")
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
cd "$src"
start=$(date +%s)
/usr/bin/python3 -m venv --system-site-packages "$work/env"
CCACHE_BASEDIR="$src" MURMUR_CMAKE_ARGS="-DMURMUR_WERROR=ON" \
  "$work/env/bin/python" -m pip install --no-build-isolation --no-deps --no-index . >"$work/pip.log" 2>&1 ||
  { tail -40 "$work/pip.log"; echo "FAIL: pip install"; exit 1; }
echo "pip install: $(($(date +%s) - start)) s"
cd "$work"
env -u MURMUR_BIN -u MURMUR_PRESET_DIR -u PYTHONPATH PATH=/usr/bin:/bin EGL_PLATFORM=surfaceless \
  "$work/env/bin/python" - "$work" <<'PY'
import os, sys
import murmur
work = sys.argv[1]
assert murmur.__file__.startswith(os.path.join(work, "env", "lib")), murmur.__file__
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
