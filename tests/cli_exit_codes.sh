#!/usr/bin/env bash
# The real binary, as a user meets it: exit codes 0/2, messages on stderr, no stray files.
# Usage: cli_exit_codes.sh path/to/murmur
set -u
murmur=$1
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
fails=0
expect() {  # expect CODE PATTERN -- args...
    local want=$1 pattern=$2
    shift 3
    "$murmur" "$@" >"$tmp/out" 2>"$tmp/err"
    local got=$?
    if [ "$got" != "$want" ] || ! grep -q -- "$pattern" "$tmp/out" "$tmp/err"; then
        echo "FAIL: murmur $* -> exit $got (want $want), output lacks '$pattern':"; cat "$tmp/out" "$tmp/err"
        fails=$((fails + 1))
    fi
}
expect 0 "polarization" -- --backend cpu --headless --steps 3 --boids 50 --export "$tmp/ok.csv"
[ -f "$tmp/ok.csv" ] || { echo "FAIL: no export written"; fails=$((fails + 1)); }
expect 0 "separation.radius" -- --list-params
expect 0 "default" -- --list-presets
expect 2 "out of range" -- --boids -1 --export "$tmp/bad.csv"
expect 2 "frobnicate" -- --frobnicate --export "$tmp/bad.csv"
expect 2 "fov_deg" -- --set fov_deg=999 --export "$tmp/bad.csv"
expect 2 "colour" -- --headless --colour plaid --screenshot "$tmp/shot.png"
expect 2 "camera" -- --headless --camera sideways --screenshot "$tmp/shot.png"
expect 2 "must end in .png" -- --headless --screenshot "$tmp/shot.jpg"
expect 2 "does not exist" -- --headless --screenshot "$tmp/no/such/dir/shot.png"
expect 2 "16384" -- --headless --width 5 --screenshot "$tmp/shot.png"
expect 2 "stats-every" -- --headless --stats-every 0 --stats-out "$tmp/stats.csv"
expect 2 "does not exist" -- --headless --stats-out "$tmp/no/such/dir/stats.csv"
# Flags that would be silently ignored: each refused, naming what it applies to.
expect 2 "does not apply to --bench" -- --bench --boids 100
expect 2 "does not apply to --bench" -- --bench --preset soft
expect 2 "unknown key 'nokey'" -- --bench --set nokey=1
expect 2 "topological.count" -- --bench --bench-sizes 1000 --set style=gloss --set topological.count=6.5
expect 2 "does not apply to --bench" -- --bench --export "$tmp/bench.csv"
expect 2 "applies to --bench only" -- --headless --steps 1 --bench-sizes 1000
expect 2 "applies to --bench only" -- --headless --steps 1 --bench-out "$tmp/b.json"
expect 2 "applies to --bench only" -- --headless --steps 1 --bench-style graded
expect 2 "applies to the window only" -- --headless --steps 1 --frames 5
expect 2 "an empty value" -- --headless --steps 1 --export ''
expect 2 "an empty value" -- --headless --steps 1 --import ''
expect 2 "an empty value" -- --preset ''
expect 2 "an empty value" -- --bench --bench-sizes ''
expect 2 "longer than 244 bytes" -- --backend cpu --headless --steps 1 --boids 10 --export "$tmp/$(printf 'n%.0s' $(seq 300)).csv"
expect 2 "not a regular file" -- --backend cpu --headless --steps 1 --import /dev/zero
"$murmur" --list-params >/dev/full 2>"$tmp/err"
code=$?
{ [ "$code" = 1 ] && grep -q "could not write the output" "$tmp/err"; } || { echo "FAIL: --list-params > /dev/full -> exit $code"; cat "$tmp/err"; fails=$((fails + 1)); }
expect 2 "not a regular file" -- --backend cpu --headless --steps 1 --boids 10 --export /dev/null
[ -c /dev/null ] || { echo "FAIL: /dev/null is no longer a device"; fails=$((fails + 1)); }
# A file name that is only an extension would be a hidden file: refused on every output.
mkdir "$tmp/hidden"
expect 2 "needs a name before .csv (FILE.csv), not a hidden file" -- --backend cpu --headless --steps 1 --boids 10 --export "$tmp/hidden/.csv"
expect 2 "needs a name before .csv" -- --backend cpu --headless --steps 1 --boids 10 --stats-out "$tmp/hidden/.csv"
expect 2 "needs a name before .png" -- --backend cpu --headless --steps 1 --boids 10 --screenshot "$tmp/hidden/.png"
expect 2 "needs a name before .mp4" -- --backend cpu --headless --steps 1 --boids 10 --record "$tmp/hidden/.mp4"
expect 2 "needs a name before .csv" -- --backend cpu --boids 10 --steps 2 --sweep dt=0.01:0.02:2 --sweep-out "$tmp/hidden/.csv"
[ -z "$(ls -A "$tmp/hidden")" ] || { echo "FAIL: a name that is only an extension was written: $(ls -A "$tmp/hidden")"; fails=$((fails + 1)); }
# The trajectory's author is a UTF-8 attribute: other bytes are refused.
expect 2 "the author is not UTF-8 text" -- --backend cpu --headless --steps 1 --boids 10 --trajectory "$tmp/hidden/t.h5" --trajectory-author $'\xff\xfe'
# murmur's on/off variables: their words, or exit 2 naming the variable and the words.
MURMUR_PROGRAM_CACHE=off expect 0 "polarization" -- --backend cpu --headless --steps 1 --boids 10
MURMUR_GL_DEBUG=Yes expect 0 "polarization" -- --backend cpu --headless --steps 1 --boids 10
MURMUR_PROGRAM_CACHE=disabled expect 2 "MURMUR_PROGRAM_CACHE='disabled': valid: 1, on, true or yes" -- --backend cpu --headless --steps 1 --boids 10
MURMUR_GL_DEBUG=2 expect 2 "MURMUR_GL_DEBUG='2': valid: 1, on, true or yes" -- --backend cpu --headless --steps 1 --boids 10
expect 0 "density of the preset kept" -- --backend cpu --headless --steps 1 --boids 800 --stats-out "$tmp/stats.csv"
head -1 "$tmp/stats.csv" | grep -q "^step,time,boids" || { echo "FAIL: --stats-out has no header"; fails=$((fails + 1)); }
[ -e "$tmp/shot.png" ] && { echo "FAIL: bad input left $tmp/shot.png"; fails=$((fails + 1)); }
[ -e "$tmp/bad.csv" ] && { echo "FAIL: bad input left $tmp/bad.csv"; fails=$((fails + 1)); }
ls "$tmp" | grep -q '\.tmp\.' && { echo "FAIL: temporary file left behind"; fails=$((fails + 1)); }
# A flock that goes non-finite (flock.rb's sums with no speed limit) is never saved: exit 1
# naming the boid, and neither file written.
expect 1 "is not finite" -- --backend cpu --headless --preset flockrb --set speed_limit=off \
    --steps 150 --export "$tmp/nan.csv" --stats-out "$tmp/nan_stats.csv"
[ -e "$tmp/nan.csv" ] || [ -e "$tmp/nan_stats.csv" ] && { echo "FAIL: a NaN flock was written"; fails=$((fails + 1)); }

# --sweep-merge onto a full disk or a path longer than PATH_MAX: an exit code and a message, no
# abort (both were SIGABRT). The full disk is a 16 KiB tmpfs, filled; mounting needs root, so as
# another user that half says it was not run.
"$murmur" --backend cpu --boids 30 --steps 4 --sweep dt=0.01:0.02:2 --sweep-every 2 --sweep-out "$tmp/sw.csv" >/dev/null 2>&1 \
    || { echo "FAIL: the sweep for the merge tests failed"; fails=$((fails + 1)); }
expect 2 "File name too long" -- --sweep-merge "$tmp/$(printf 'd/%.0s' $(seq 2100))m.csv" "$tmp/sw.csv"
if [ "$(id -u)" = 0 ] && mkdir -p "$tmp/full" && mount -t tmpfs -o size=16k tmpfs "$tmp/full" 2>/dev/null; then
    dd if=/dev/zero of="$tmp/full/fill" bs=1k count=64 2>/dev/null
    expect 1 "No space left on device" -- --sweep-merge "$tmp/full/m.csv" "$tmp/sw.csv"
    ls "$tmp/full" | grep -q '\.tmp\.' && { echo "FAIL: a full disk left a temporary file"; fails=$((fails + 1)); }
    umount "$tmp/full"
else
    echo "cli_exit_codes: the full-disk merge was not run (mounting a small tmpfs needs root)"
fi

# stdout is line-buffered into a pipe or file: the run's first line is there while it runs (it
# arrived only at exit).
"$murmur" --backend cpu --headless --boids 50 --steps 1000000000 >"$tmp/live.out" 2>/dev/null &
pid=$!
for i in $(seq 1 50); do [ -s "$tmp/live.out" ] && break; sleep 0.1; done
grep -q "backend cpu" "$tmp/live.out" || { echo "FAIL: no output from a running murmur after 5 s (stdout not line-buffered)"; fails=$((fails + 1)); }
kill "$pid" 2>/dev/null; wait "$pid" 2>/dev/null
echo "cli_exit_codes: $fails failure(s)"
[ "$fails" -eq 0 ]
