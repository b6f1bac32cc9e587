#!/usr/bin/env bash
# Packs a built murmur into one tarball that runs on a machine with none of murmur's build
# packages (a bare GPU server: glibc, glvnd's libEGL and the GPU driver): the murmur binary, the
# GoogleTest binaries, the presets, the shaders' source, every shared library they load but
# glibc's and the GL driver's (the binaries and libraries find them by RUNPATH, set with
# patchelf: $ORIGIN-relative, so the bundle runs from any folder), launchers, and check.sh
# (scripts/bundle_check.sh), which runs the self-test, the test suites, the benchmark, the A/Bs
# of the two read paths and of the steer pass's two walks, a sample every step against none and
# the 68-run Couzin sweep there and writes a report.
# Usage: scripts/bundle.sh OUT_DIR [BUILD_DIR]   (BUILD_DIR: build-test, relative to the
#        repository; built Release if it has no murmur binary). Writes
#        OUT_DIR/murmur-bundle-<commit>.tar.gz, atomically: under a temporary name in OUT_DIR,
#        renamed into place once tar and gzip succeeded; interrupted or failing (a full disk), it
#        leaves OUT_DIR's earlier tarball as it was and no temporary file.
# Exit status: 0 written, 1 failed (the message names the cause), 2 on bad usage.
set -Eeuo pipefail

usage() {
  echo "usage: scripts/bundle.sh OUT_DIR [BUILD_DIR]   (BUILD_DIR defaults to build-test)" >&2
  USAGE_ERROR=1
  exit 2
}

# Cleanup on every exit: the staging tree and an unfinished tarball go. Any failure but a usage
# error exits 1, naming the command that failed (set -e would pass on its status: tar's and
# grep's fatal errors are 2, which is this script's usage error).
STAGE="" TMP_TAR="" USAGE_ERROR=0 FAILED_AT=""
on_exit() {
  local rc=$?
  trap - EXIT
  [[ -z $TMP_TAR ]] || rm -f -- "$TMP_TAR"
  [[ -z $STAGE ]] || rm -rf -- "$STAGE"
  if [[ $rc -ne 0 && $USAGE_ERROR -eq 0 && $rc -ne 130 && $rc -ne 143 ]]; then
    echo "bundle: failed${FAILED_AT:+ at $FAILED_AT} (exit $rc); no tarball written, an earlier one left as it was" >&2
    exit 1
  fi
  exit "$rc"
}
trap on_exit EXIT
trap 'exit 130' INT
trap 'exit 143' TERM
trap 'FAILED_AT="line $LINENO: $BASH_COMMAND"' ERR

# Libraries the target machine provides: glibc and its loader, and the GL / EGL / Vulkan
# dispatch and driver libraries (the driver's own copies must be used). Anything else a binary
# loads is shipped, libstdc++ and libgcc_s included (in lib/compat/, see bundle_wrapper.sh).
# RUNPATHs: a binary of libexec/ looks in ../lib, then in ./compat, which exists only in
# libexec-compat/ (hard links to libexec/'s files; compat there is a link to ../lib/compat);
# a library looks in its own folder. Nothing relative to the working directory, no empty element.
# shellcheck disable=SC2016  # $ORIGIN is the loader's, not the shell's
RUNPATH_BINARIES='$ORIGIN/../lib:$ORIGIN/compat' RUNPATH_LIBS='$ORIGIN'
SYSTEM_LIBS='^(linux-vdso|linux-gate|ld-linux[^.]*|ld64|libc|libm|libmvec|libpthread|libdl|librt|libresolv|libutil|libanl|libnsl|libBrokenLocale|libthread_db|libc_malloc_debug|libnss_[a-z0-9]+)\.so'
DRIVER_LIBS='^(libGL|libGLX|libGLX_[a-z]+|libEGL|libEGL_[a-z]+|libOpenGL|libGLdispatch|libGLESv[0-9_A-Z]+|libglapi|libvulkan|libnvidia-[a-z0-9-]+|libcuda|libdrm|libdrm_[a-z0-9]+|libgbm)\.so'
COMPAT_LIBS='^(libstdc\+\+|libgcc_s)\.so'

# The build: BUILD_DIR as it is, or a Release build of it when it has no murmur binary.
ensure_build() {
  local build=$1
  if [[ -x $build/bin/murmur ]]; then return; fi
  echo "== no $build/bin/murmur: building Release into $build =="
  cmake -S "$ROOT" -B "$build" -DCMAKE_BUILD_TYPE=Release
  cmake --build "$build" -j"$(nproc)"
}

# The test binaries CTest runs, from gtest_discover_tests' lists in BUILD_DIR/tests: one line a
# binary, "NAME LABEL" (LABEL gl or cpu).
test_binaries() {
  local build=$1 list name label
  for list in "$build"/tests/*'[1]_tests.cmake'; do
    [[ -f $list ]] || continue
    name=$(basename "$list" '[1]_tests.cmake')
    label=$(grep -o -m1 'LABELS [a-z]*' "$list" | cut -d' ' -f2)
    if [[ -x $build/tests/$name ]]; then echo "$name ${label:-gl}"; fi
  done
}

# The GoogleTest names CTest runs for one binary, one a line: those it discovered (its discovery
# filter applied), then those of the tests that run many of them in one process (label "many",
# tests/CMakeLists.txt), as the binary lists their filters.
ctest_names() {
  local build=$1 name=$2 filter
  sed -n 's/^add_test(.*\[==\[--gtest_filter=\([^]]*\)\]==\].*/\1/p' "$build/tests/$name[1]_tests.cmake"
  while read -r filter; do
    "$build/tests/$name" --gtest_list_tests --gtest_filter="$filter" </dev/null |
      awk '/^[^ ]/ { suite = $1; next } { print suite $1 }'
  done < <(many_filters "$build/tests/CTestTestfile.cmake" "$name")
}

# The --gtest_filter of each test labelled "many" that runs BINARY, from CTest's file.
many_filters() {  # CTESTTESTFILE BINARY
  awk -v binary="/$2\"" '
    { name = substr($1, index($1, "(") + 1) }  # "[=[NAME]=]"
    /^add_test\(/ && index($0, binary) && match($0, /"--gtest_filter=[^"]*"/) {
      filter[name] = substr($0, RSTART + 16, RLENGTH - 17) }
    /^set_tests_properties\(/ && (name in filter) && /LABELS "([a-z]*;)*many(;[a-z]*)*"/ { print filter[name] }' "$1"
}

# Copies the binaries into the staging tree first, so a rebuild running beside this script
# cannot mix two builds into one bundle.
stage_binaries() {
  local build=$1 stage=$2 name label
  mkdir -p "$stage/bin" "$stage/libexec" "$stage/lib/compat" "$stage/share/murmur/tests"
  cp "$build/bin/murmur" "$stage/libexec/murmur"
  : >"$stage/share/murmur/tests/binaries"
  while read -r name label; do
    cp "$build/tests/$name" "$stage/libexec/$name"
    ctest_names "$build" "$name" >"$stage/share/murmur/tests/$name.list"
    echo "$name $label" >>"$stage/share/murmur/tests/binaries"
  done < <(test_binaries "$build")
  if ! grep -q ' gl$' "$stage/share/murmur/tests/binaries"; then
    echo "bundle: no GL test binary in $build/tests (was it built with GoogleTest?)" >&2
    exit 1
  fi
}

# The launchers: bin/NAME for each binary of libexec/, all one script (bundle_wrapper.sh, which
# runs libexec/ its own name, or libexec-compat/'s), and bin/bundle-env, which prints the folder
# it would run them from.
stage_launchers() {
  local stage=$1 name
  cp "$ROOT/scripts/bundle_wrapper.sh" "$stage/bin/murmur"
  chmod 755 "$stage/bin/murmur"
  for name in $(ls "$stage/libexec") bundle-env; do
    [[ $name == murmur ]] || ln -s murmur "$stage/bin/$name"
  done
  cp "$ROOT/scripts/bundle_check.sh" "$stage/check.sh"
  chmod 755 "$stage/check.sh"
  mkdir -p "$stage/share/murmur/check"
  cp "$ROOT"/scripts/bundle_check/*.sh "$stage/share/murmur/check/"
}

# Presets beside the binary as the build placed them (murmur also looks in ../share/murmur/presets
# of its own folder), and the shaders' source: the binaries embed their shaders, this copy is
# for --shader-dir.
stage_data() {
  local build=$1 stage=$2 presets
  presets=$build/bin/presets
  [[ -d $presets ]] || presets=$ROOT/presets
  cp -r "$presets" "$stage/share/murmur/presets"
  cp -r "$ROOT/shaders" "$stage/share/murmur/shaders"
  local glsl name  # each style's shader under the name the binaries embed it by, styles/<name>/<name>.glsl
  for glsl in "$ROOT"/src/styles/*/*.glsl; do
    name=$(basename "$(dirname "$glsl")")
    mkdir -p "$stage/share/murmur/shaders/styles/$name"
    cp "$glsl" "$stage/share/murmur/shaders/styles/$name/"
  done
  if [[ -f $build/generated/embedded_shaders.cpp ]] &&
     [[ -n $(find "$ROOT/shaders" -type f -newer "$build/generated/embedded_shaders.cpp";
             find "$ROOT/src/styles" -name '*.glsl' -newer "$build/generated/embedded_shaders.cpp") ]]; then
    echo "bundle: warning: the shaders changed after $build embedded them; share/murmur/shaders is the newer source" >&2
  fi
}

# Every library the staged binaries load (ldd: the whole tree of them), but the system's.
# Prints "NAME PATH" lines; fails naming any library ldd cannot find.
needed_libs() {
  local stage=$1 file missing name path
  missing=$(for file in "$stage"/libexec/*; do ldd "$file"; done | grep 'not found' | sort -u || true)
  if [[ -n $missing ]]; then
    echo "bundle: libraries not found on this machine:" >&2
    echo "$missing" >&2
    exit 1
  fi
  for file in "$stage"/libexec/*; do ldd "$file"; done |
    awk '$2 == "=>" && $3 ~ /^\// { print $1, $3 }' | sort -u -k1,1 |
    while read -r name path; do
      [[ $name =~ $SYSTEM_LIBS || $name =~ $DRIVER_LIBS ]] || echo "$name $path"
    done
}

# The Debian package (and version) a library came from, where dpkg knows it.
package_of() {
  local path=$1 real pkg candidate
  [[ $path != "$BUILD"/* ]] || { echo "(this build)"; return; }
  command -v dpkg >/dev/null 2>&1 || { echo "?"; return; }
  real=$(readlink -f "$path")
  for candidate in "$path" "$real" "${real#/usr}" "/usr$path"; do
    pkg=$(dpkg -S "$candidate" 2>/dev/null | head -1 | sed 's/: .*//') || true
    if [[ -n $pkg ]]; then
      echo "$pkg $(dpkg-query -W -f='${Version}\n' "$pkg" 2>/dev/null | head -1)"
      return
    fi
  done
  echo "?"
}

# Copies the libraries into lib/ (libstdc++ and libgcc_s into lib/compat/) under the names the
# binaries ask for; lists each with where it came from in the manifest's library section.
stage_libs() {
  local stage=$1 name path dest
  needed_libs "$stage" | while read -r name path; do
    dest=$stage/lib
    if [[ $name =~ $COMPAT_LIBS ]]; then dest=$stage/lib/compat; fi
    cp -L "$path" "$dest/$name"
    chmod 755 "$dest/$name"
    printf '  %-28s %-52s %s\n' "${dest#"$stage"/}/$name" "$path" "$(package_of "$path")"
  done
}

# The RUNPATHs above on every ELF of the stage, the libexec-compat/ links, then a check: the
# RUNPATHs sound (scripts/check_runpath.sh), and each binary loading every library the bundle
# ships from the bundle (ldd, no LD_LIBRARY_PATH), in both folders.
set_runpaths() {
  local stage=$1 file name arrow path rest shipped wrong=""
  for file in "$stage"/libexec/*; do patchelf --set-rpath "$RUNPATH_BINARIES" "$file"; done
  for file in "$stage"/lib/*.so* "$stage"/lib/compat/*.so*; do
    [[ -e $file ]] || continue
    patchelf --set-rpath "$RUNPATH_LIBS" "$file"
  done
  mkdir "$stage/libexec-compat"
  ln -s ../lib/compat "$stage/libexec-compat/compat"
  for file in "$stage"/libexec/*; do ln "$file" "$stage/libexec-compat/"; done
  bash "$ROOT/scripts/check_runpath.sh" "$stage" >/dev/null
  for file in "$stage"/libexec/* "$stage"/libexec-compat/*; do
    [[ -f $file && ! -L $file ]] || continue
    while read -r name arrow path rest; do
      [[ $arrow == "=>" ]] || continue
      shipped=""
      [[ -e $stage/lib/$name ]] && shipped=$stage/lib/$name
      [[ $file == */libexec-compat/* && -e $stage/lib/compat/$name ]] && shipped=$stage/lib/compat/$name
      if [[ $path == not ]]; then
        wrong+="  ${file#"$stage"/}: $name not found"$'\n'
      elif [[ -n $shipped && $(readlink -f "$path") != "$(readlink -f "$shipped")" ]]; then
        wrong+="  ${file#"$stage"/} loads $path, not ${shipped#"$stage"/}"$'\n'
      fi
    done < <(env -u LD_LIBRARY_PATH ldd "$file")
  done
  if [[ -n $wrong ]]; then
    printf '%s\n%s' "bundle: the RUNPATHs do not lead the binaries to the bundle's libraries:" "$wrong" >&2
    exit 1
  fi
}

# The newest symbol version of a family (GLIBC, GLIBCXX) that the staged binaries and shipped
# libraries need, from their version references (objdump -p); lib/compat/ counted unless the
# third argument is "without-compat" (GLIBCXX: lib/compat/ defines it; GLIBC: what libexec/
# loads where the system's libstdc++ serves).
newest_version() {
  local stage=$1 family=$2 skip=/nonexistent
  [[ ${3:-} != without-compat ]] || skip=$stage/lib/compat
  find "$stage/libexec" "$stage/lib" -path "$skip" -prune -o -type f -exec objdump -p {} + 2>/dev/null |
    grep -o "\b${family}_[0-9][0-9.]*" | sort -uV | tail -1
}

# The folders whose uncommitted changes the binaries may have been built from.
tree_state() {
  local changed
  changed=$(git -C "$ROOT" status --porcelain -- src include shaders tests presets cmake third_party CMakeLists.txt 2>/dev/null |
            wc -l)
  if [[ $changed -gt 0 ]]; then echo "with uncommitted changes to $changed files"
  else echo "clean"; fi
}

# share/murmur/bundle.env (read by check.sh) and BUNDLE.txt (for people).
write_manifest() {
  local stage=$1 build=$2 libs=$3 version build_type need_glibc need_glibc_libexec need_glibcxx shader_dir
  version=$("$stage/libexec/murmur" --version 2>/dev/null | head -1 || echo "murmur ?")
  build_type=$(sed -n 's/^CMAKE_BUILD_TYPE:[A-Z]*=//p' "$build/CMakeCache.txt" 2>/dev/null || true)
  need_glibc=$(newest_version "$stage" GLIBC)
  need_glibc_libexec=$(newest_version "$stage" GLIBC without-compat)
  need_glibcxx=$(newest_version "$stage" GLIBCXX without-compat)
  # The one path the GL tests have compiled in: the source tree's shaders/ (a test copies it).
  shader_dir=$(sed -n 's/^CMAKE_HOME_DIRECTORY:INTERNAL=//p' "$build/CMakeCache.txt" 2>/dev/null || true)/shaders
  {
    printf 'BUNDLE_NAME=%q\n' "$NAME"
    printf 'BUNDLE_COMMIT=%q\n' "$COMMIT"
    printf 'BUNDLE_TREE=%q\n' "$(tree_state)"
    printf 'BUNDLE_MADE=%q\n' "$(date -u '+%Y-%m-%d %H:%M UTC') on $(uname -n)"
    printf 'BUNDLE_VERSION=%q\n' "$version"
    printf 'BUNDLE_BUILD_TYPE=%q\n' "${build_type:-?}"
    printf 'NEED_GLIBC=%q\n' "${need_glibc#GLIBC_}"                  # every file, lib/compat/ too
    printf 'NEED_GLIBC_LIBEXEC=%q\n' "${need_glibc_libexec#GLIBC_}"  # the system's libstdc++ serving
    printf 'NEED_GLIBCXX=%q\n' "$need_glibcxx"
    printf 'SHADER_SOURCE_DIR=%q\n' "$shader_dir"
  } >"$stage/share/murmur/bundle.env"
  cat >"$stage/BUNDLE.txt" <<EOF
$NAME: $version, a ${build_type:-?} build of commit $COMMIT ($(tree_state)),
made $(date -u '+%Y-%m-%d %H:%M UTC') on $(uname -n) ($(. /etc/os-release && echo "$PRETTY_NAME"), $(uname -m)).

Needs x86-64 Linux with glibc ${need_glibc_libexec#GLIBC_} or newer (the newest symbol version its files use;
${need_glibc#GLIBC_} where the system's libstdc++ lacks $need_glibcxx and lib/compat/'s is used),
glvnd's libEGL.so.1 and an OpenGL 4.5 driver (an EGL device, or Mesa's surfaceless platform).

  ./check.sh [REPORT_DIR]    self-test, test suites, benchmark, Couzin sweep; writes REPORT_DIR/report.md
  bin/murmur ARGS            murmur (--help; headless without a display)

bin/       launchers: each runs libexec/ its own name (bin/bundle-env prints the folder)
libexec/   murmur and the GoogleTest binaries: $(ls "$stage/libexec" | tr '\n' ' ')
           (RUNPATH $RUNPATH_BINARIES: they find lib/ wherever the bundle lies, no
           LD_LIBRARY_PATH needed)
libexec-compat/  the same files (hard links), whose RUNPATH also reaches lib/compat/: run
           where the system's libstdc++ lacks $need_glibcxx
lib/       the shared libraries they load, but glibc's and the GL driver's (RUNPATH $RUNPATH_LIBS);
           lib/compat/ holds libstdc++ and libgcc_s
share/murmur/presets, shaders (the source of the shaders the binaries embed), tests/ (the test
           names CTest runs for each binary)

Libraries (in the bundle, copied from, Debian package):
$libs
EOF
}

main() {
  [[ $# -ge 1 && $# -le 2 ]] || usage
  ROOT=$(cd "$(dirname "$0")/.." && pwd)
  local out=$1 build=${2:-build-test} libs tar_log
  if ! command -v patchelf >/dev/null 2>&1; then
    echo "bundle: patchelf not found: it sets the bundle's RUNPATHs (scripts/setup.sh installs it; apt-get install patchelf)" >&2
    exit 1
  fi
  [[ $build == /* ]] || build=$ROOT/$build
  BUILD=$build
  ensure_build "$build"
  COMMIT=$(git -C "$ROOT" rev-parse --short HEAD 2>/dev/null || echo unknown)
  NAME=murmur-bundle-$COMMIT
  STAGE=$(mktemp -d)
  echo "== staging $NAME from $build =="
  stage_binaries "$build" "$STAGE/$NAME"
  stage_launchers "$STAGE/$NAME"
  stage_data "$build" "$STAGE/$NAME"
  libs=$(stage_libs "$STAGE/$NAME")
  set_runpaths "$STAGE/$NAME"
  write_manifest "$STAGE/$NAME" "$build" "$libs"
  mkdir -p "$out"
  out=$(cd "$out" && pwd)
  # The tarball under a temporary name beside its final one (the same file system), renamed
  # into place only once tar and gzip both succeeded; on_exit removes it otherwise.
  TMP_TAR=$(mktemp "$out/.$NAME.tar.gz.XXXXXX")
  tar_log=$STAGE/tar.log
  if ! tar -C "$STAGE" -czf "$TMP_TAR" "$NAME" 2>"$tar_log"; then
    local why
    why=$(grep -v -e '^$' -e '^tar: Exiting with failure' -e 'Error is not recoverable' "$tar_log" | head -3 | paste -sd '|' |
          sed 's/|/; /g' || true)
    if grep -q 'No space left on device' "$tar_log"; then why="the disk is full ($why)"; fi
    echo "bundle: writing the tarball in $out failed: ${why:-tar gave no reason}" >&2
    exit 1
  fi
  chmod 644 "$TMP_TAR"
  mv -f -- "$TMP_TAR" "$out/$NAME.tar.gz"
  TMP_TAR=""
  echo "== wrote $out/$NAME.tar.gz ($(du -h "$out/$NAME.tar.gz" | cut -f1); $(find "$STAGE/$NAME/lib" -name '*.so*' | wc -l) libraries) =="
  echo "On the target: tar xzf $NAME.tar.gz && $NAME/check.sh"
}

main "$@"
