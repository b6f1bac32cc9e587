#!/bin/bash
# The layers are the build's: each probe (tests/layering/<library>_<what>.cpp, built as an object
# with that library's include directories) must compile when it includes what the library may use
# and fail, naming the header, when it includes a layer the library does not link.
# Usage: check.sh BUILD_DIR. Exit 1 naming each probe that did the other.
set -u
build=$1
fails=0
probe() {  # TARGET EXPECT(ok|refused) HEADER
  local log
  log=$(cmake --build "$build" --target "$1" 2>&1)
  local rc=$?
  if [[ $2 == ok && $rc -ne 0 ]]; then
    echo "layering: $1 should compile:"; echo "$log" | grep -E 'error' | head -5; fails=$((fails + 1))
  elif [[ $2 == refused && $rc -eq 0 ]]; then
    echo "layering: $1 compiled: $3 is reachable through a back door"; fails=$((fails + 1))
  elif [[ $2 == refused && $log != *"$3: No such file or directory"* && $log != *"'$3' file not found"* ]]; then  # GCC's words, clang's
    echo "layering: $1 failed, but not for want of $3:"; echo "$log" | grep -E 'error' | head -5; fails=$((fails + 1))
  else
    echo "layering: $1 $2 ($3)"
  fi
}
probe murmur_layering_app_engine ok "engine/engine.hpp"
probe murmur_layering_render_layout ok "gpu/layout.hpp"
probe murmur_layering_app_gpu refused "gpu/gpu_simulation.hpp"
probe murmur_layering_app_cpu refused "cpu/cpu_simulation.hpp"
probe murmur_layering_render_gpu refused "gpu/flock_state.hpp"
probe murmur_layering_model_gl refused "gl/buffer.hpp"
probe murmur_layering_api_gpu refused "gpu/gpu_simulation.hpp"
echo "layering: $fails problem(s)"
[[ $fails -eq 0 ]]
