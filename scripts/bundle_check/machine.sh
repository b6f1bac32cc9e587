# shellcheck shell=bash disable=SC2153  # LOGS and the like: set by check.sh
# The bundle's check: this machine (its GPU signs, EGL vendors) and the steps on it: libraries,
# renderer.
# Sourced by check.sh (scripts/bundle_check.sh), which sets what these read: HERE, BIN, REPORT,
# LOGS, BODY, the limits and sizes, SOFTWARE, RENDERER, LEFT_OUT.

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
