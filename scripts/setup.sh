#!/usr/bin/env bash
# Installs murmur's build and test dependencies from Debian/Ubuntu packages when any are missing:
# what building, running, the everyday tests and scripts/bundle.sh (patchelf) need, and with
# --full also what the full pipeline (scripts/ci.sh) adds: clang for the fuzzers, Slurm and munge
# for the job-array test, MDAnalysis for the trajectory reader test (92 packages, so not for the
# everyday tests), pip and setuptools for the pip install test, ccache for the mutation check's
# rebuilds, glslang and SPIR-V tools for the shader check (scripts/shader_check.sh). Idempotent and quiet when everything is present. Usage: scripts/setup.sh [--full]
set -euo pipefail

packages=(
  build-essential cmake ninja-build pkg-config
  libglfw3-dev libglm-dev libimgui-dev libstb-dev python3-glad
  libgtest-dev libcli11-dev nlohmann-json3-dev
  libegl-dev libgl-dev libegl-mesa0 libgl1-mesa-dri mesa-vulkan-drivers
  xvfb xauth xdotool ffmpeg parallel python3-matplotlib
  pybind11-dev python3-dev python3-numpy python3-pytest
  libhdf5-dev python3-h5py python3-pandas python3-hypothesis
  patchelf
)
if [ "${1:-}" = "--full" ]; then
  packages+=(clang libclang-rt-14-dev slurmctld slurmd slurm-client munge ccache python3-mdanalysis python3-pip python3-setuptools
            glslang-tools spirv-tools)
elif [ $# -gt 0 ]; then
  echo "usage: scripts/setup.sh [--full]" >&2
  exit 2
fi

missing=()
for p in "${packages[@]}"; do
  # dpkg-query status "install ok installed" means present
  if ! dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "ok installed"; then
    missing+=("$p")
  fi
done
[ ${#missing[@]} -eq 0 ] && exit 0

if ! command -v apt-get >/dev/null 2>&1; then
  echo "murmur setup: missing packages (${missing[*]}) and no apt-get here; install them by hand" >&2
  exit 1
fi

if [ "$(id -u)" -eq 0 ]; then
  sudo=()
elif command -v sudo >/dev/null 2>&1; then
  sudo=(sudo)
else
  echo "murmur setup: missing packages: ${missing[*]}" >&2
  echo "murmur setup: not root and sudo is not installed; run as root: apt-get install ${missing[*]}" >&2
  exit 1
fi

echo "murmur setup: installing ${missing[*]}" >&2
export DEBIAN_FRONTEND=noninteractive
"${sudo[@]}" apt-get update -qq >/dev/null
"${sudo[@]}" apt-get install -y -qq --no-install-recommends "${missing[@]}" >/dev/null
