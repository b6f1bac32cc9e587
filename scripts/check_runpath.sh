#!/usr/bin/env bash
# Checks the RUNPATH and RPATH of ELF files (readelf -d): every element must be absolute or start
# with $ORIGIN. An empty element ("a::b", a trailing ':') or a relative one makes the loader search
# the working directory (or a folder below it), so whatever lies there (a stray libm.so.6) is
# loaded in place of the real library.
# Usage: scripts/check_runpath.sh PATH...   (files, or folders searched whole; files that are not
#        ELF are passed over). Exit 0 if every element is sound, 1 naming the bad ones, 2 on bad
#        usage (or no ELF among the paths).
set -euo pipefail

[[ $# -ge 1 ]] || { echo "usage: scripts/check_runpath.sh PATH...   (ELF files or folders)" >&2; exit 2; }
command -v readelf >/dev/null 2>&1 || { echo "check_runpath: readelf not found (binutils)" >&2; exit 1; }

is_elf() { [[ -f $1 ]] && [[ $(head -c4 -- "$1" 2>/dev/null | od -An -c | tr -d ' ') == 177ELF ]]; }

for arg in "$@"; do
  [[ -e $arg ]] || { echo "check_runpath: no such file or folder: $arg" >&2; exit 2; }
done

# Flags each empty or relative element of one ELF's RUNPATH or RPATH; sets BAD.
check_elements() {  # FILE KIND VALUE
  local file=$1 kind=$2 value=$3 rest=$3 element
  while :; do
    element=${rest%%:*}
    # shellcheck disable=SC2016  # $ORIGIN is the loader's, not the shell's
    if [[ -z $element ]]; then
      echo "check_runpath: $file: empty $kind element in [$value] (the loader reads it as the working directory)" >&2
      BAD=1
    elif [[ $element != /* && $element != '$ORIGIN' && $element != '$ORIGIN/'* &&
            $element != '${ORIGIN}' && $element != '${ORIGIN}/'* ]]; then
      echo "check_runpath: $file: relative $kind element '$element' in [$value] (relative to the working directory)" >&2
      BAD=1
    fi
    [[ $rest == *:* ]] || break
    rest=${rest#*:}
  done
}

BAD=0 checked=0
while IFS= read -r -d '' file; do
  is_elf "$file" || continue
  checked=$((checked + 1))
  # "0x... (RUNPATH)  Library runpath: [a:b]" -> "RUNPATH<tab>a:b"
  while IFS=$'\t' read -r kind value; do
    check_elements "$file" "$kind" "$value"
  done < <(readelf -d -W -- "$file" 2>/dev/null |
           sed -n 's/.*(\(RUNPATH\|RPATH\)).*Library r[a-z]*path: \[\(.*\)\]$/\1\t\2/p')
done < <(find -H "$@" -type f -print0)

if [[ $checked -eq 0 ]]; then
  echo "check_runpath: no ELF file in $*" >&2
  exit 2
fi
if [[ $BAD -ne 0 ]]; then
  echo "check_runpath: FAILED: empty or relative RUNPATH/RPATH elements above ($checked ELF files checked)" >&2
  exit 1
fi
echo "check_runpath: $checked ELF files, every RUNPATH/RPATH element absolute or \$ORIGIN-based"
