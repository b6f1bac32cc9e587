#!/usr/bin/env bash
# The launcher of a murmur bundle (scripts/bundle.sh installs it as bin/murmur; bin/NAME for the
# other binaries are links to it): runs libexec/NAME, NAME being the name it was called by. The
# binaries find the bundle's libraries by their RUNPATH ($ORIGIN/../lib), not by
# LD_LIBRARY_PATH, so the GL driver, loaded into the same process, gets the system's own libz,
# libzstd, libxcb... and a bundle unpacked under any path (one with ':' or spaces in it) works.
# The bundle's libstdc++ and libgcc_s (lib/compat/) are used only where the system's libstdc++ is
# older than the binaries need (a newer one serves them too, and the GL driver may need it): then
# it runs libexec-compat/NAME, a hard link to the same file whose RUNPATH's second element,
# $ORIGIN/compat, is a link to lib/compat/ there and absent beside libexec/.
# Called as bin/bundle-env it prints the folder of the binaries it would run.
set -euo pipefail

# The bundle's top folder: bin/.. of this script, links to it (bin/NAME, or one on the PATH)
# followed.
bundle_dir() {
  local self=$0
  [[ $self == */* ]] || self=$(command -v -- "$self")
  cd "$(dirname "$(readlink -f "$self")")/.." && pwd -P
}

# The system's 64-bit libstdc++.so.6, from the loader's cache or the usual folders; empty if none.
system_libstdcxx() {
  local ldconfig dir
  for ldconfig in /sbin/ldconfig /usr/sbin/ldconfig; do
    if [[ -x $ldconfig ]]; then
      "$ldconfig" -p 2>/dev/null | awk '$1 == "libstdc++.so.6" && /x86-64/ { print $NF; exit }'
      return
    fi
  done
  for dir in /lib/x86_64-linux-gnu /usr/lib/x86_64-linux-gnu /usr/lib64 /lib64; do
    if [[ -f $dir/libstdc++.so.6 ]]; then echo "$dir/libstdc++.so.6"; return; fi
  done
}

# libexec/, or libexec-compat/ where the system's libstdc++ lacks the newest GLIBCXX version the
# binaries use (share/murmur/bundle.env's NEED_GLIBCXX).
binary_dir() {
  local here=$1 need system
  need=$(sed -n 's/^NEED_GLIBCXX=//p' "$here/share/murmur/bundle.env")
  system=$(system_libstdcxx)
  if [[ -n $system ]] && { [[ -z $need ]] || grep -qaF "$need" "$system"; }; then
    echo "$here/libexec"
  else
    echo "$here/libexec-compat"
  fi
}

main() {
  local here name dir
  here=$(bundle_dir)
  name=$(basename "$0")
  dir=$(binary_dir "$here")
  if [[ $name == bundle-env ]]; then
    echo "$dir"
    return
  fi
  exec "$dir/$name" "$@"
}

main "$@"
