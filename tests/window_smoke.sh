#!/usr/bin/env bash
# The real window under Xvfb for a few frames (exit 0, a screenshot of the last frame), and the
# fallback with no display at all (headless run + screenshot + summary, exit 0).
# Usage: window_smoke.sh path/to/murmur. Needs Xvfb (scripts/setup.sh installs it): without it
# this test FAILS rather than skip.
set -u
murmur=$(realpath "$1")
tmp=$(mktemp -d)
trap 'stop_xvfb; rm -rf "$tmp"' EXIT
fails=0
fail() { echo "FAIL: $*"; fails=$((fails + 1)); }
# windowed WHAT: the run whose output is in $tmp/out opened a real window (with no display murmur
# runs headless and exits 0, so a run's exit code alone does not say so).
windowed() { grep -q "(GLFW window)" "$tmp/out" || { fail "$1: no window (it ran headless)"; cat "$tmp/out" "$tmp/err"; }; }
source "$(dirname "$0")/xvfb.sh"

with_xvfb 1280x800x24 "$murmur" --frames 5 --boids 500 --width 640 --height 400 \
    --screenshot "$tmp/window.png" >"$tmp/out" 2>"$tmp/err"
code=$?
[ "$code" = 0 ] || fail "window run exited $code"
windowed "window run"
grep -q "5 frames" "$tmp/out" || fail "window run did not stop after 5 frames"
[ -s "$tmp/window.png" ] || fail "no window screenshot"
[ "$fails" = 0 ] || cat "$tmp/out" "$tmp/err"

# --stats-out from the window: a header and a row every 2 steps.
with_xvfb 1280x800x24 "$murmur" --frames 9 --boids 500 --width 480 --height 300 \
    --stats-out "$tmp/w.csv" --stats-every 2 >"$tmp/out" 2>"$tmp/err"
code=$?
[ "$code" = 0 ] || fail "window run with --stats-out exited $code"
windowed "window run with --stats-out"
head -1 "$tmp/w.csv" 2>/dev/null | grep -q "^step,time,boids,polarization" || fail "window --stats-out has no header"
rows=$(($(wc -l <"$tmp/w.csv" 2>/dev/null || echo 0) - 1))
[ "$rows" -ge 4 ] || fail "window --stats-out wrote $rows rows for 9 steps every 2"
# ... at the states due, as headless: steps 0, 2, 4, ... (they were the first frame's end past each)
steps=$(tail -n +2 "$tmp/w.csv" 2>/dev/null | cut -d, -f1 | paste -sd' ')
want=$(seq 0 2 $(( (rows - 1) * 2 )) | paste -sd' ')
[ "$steps" = "$want" ] || fail "window --stats-out rows at steps '$steps', not '$want'"

# --export from the window: the state it closed on (it wrote nothing and exited 0).
with_xvfb 1280x800x24 "$murmur" --frames 3 --boids 300 --width 480 --height 300 \
    --export "$tmp/w_export.csv" >"$tmp/out" 2>"$tmp/err"
code=$?
[ "$code" = 0 ] || fail "window run with --export exited $code"
windowed "window run with --export"
lines=$(grep -vc '^#' "$tmp/w_export.csv" 2>/dev/null || echo 0)
[ "$lines" = 301 ] || fail "window --export wrote $lines lines for 300 boids and the header"
grep -q '^# params   "seed": ' "$tmp/w_export.csv" || fail "window --export wrote no parameters (a restart file holds them)"

# Esc answers while steps are slow: the window must close within 3 s of the key.
# esc_closes NAME murmur-flags...: starts the window, presses Esc after 3 s, times the close.
esc_closes() {
    local name=$1
    shift
    with_xvfb 1280x800x24 bash -c '
        out=$1; shift
        "$@" --width 480 --height 300 >"$out" 2>&1 &
        pid=$!
        for i in $(seq 1 150); do wid=$(xdotool search --pid $pid 2>/dev/null | head -1); [ -n "$wid" ] && break; sleep 0.2; done
        if [ -z "$wid" ]; then kill $pid 2>/dev/null; echo "no window appeared within 30 s"; exit 1; fi
        sleep 3
        xdotool windowfocus --sync "$wid" 2>/dev/null; xdotool key Escape
        start=$(date +%s%N)
        for i in $(seq 1 300); do kill -0 $pid 2>/dev/null || break; sleep 0.05; done
        ms=$(( ($(date +%s%N) - start) / 1000000 ))
        if kill -0 $pid 2>/dev/null; then kill $pid; echo "still running 15 s after Esc"; exit 1; fi
        echo "closed ${ms} ms after Esc"; [ "$ms" -le 3000 ]' _ "$tmp/$name.out" "$murmur" "$@" >"$tmp/$name.esc" 2>&1 \
        || { fail "Esc with slow steps ($name): $(cat "$tmp/$name.esc")"; cat "$tmp/$name.out"; }
    echo "$name: $(cat "$tmp/$name.esc")"
}
if command -v xdotool >/dev/null; then
    # GPU: 200,000 boids crowded into 200 units (about 1,400 neighbours each, seconds per step on a
    # software renderer); the steer pass runs in slices.
    esc_closes gpu --boids 200000 --set world_size=200
    # CPU: 20,000 boids with radii of 200 (seconds per step; it took 14.8 s to answer).
    esc_closes cpu --backend cpu --boids 20000 --set world_size=400 --set alignment.radius=200 --set cohesion.radius=200
else
    fail "xdotool not found (apt-get install xdotool)"
fi

# The panel driven as a user drives it, with xdotool: the style combo set to steering and the
# speed_limit switch turned off by clicks where the panel says they are (MURMUR_PANEL_RECTS), then
# Ctrl, Shift and Alt held, and a Ctrl+click, during slow steps (they once aborted the window on
# Dear ImGui's modifier check). The closing summary names what the panel changed.
if command -v xdotool >/dev/null; then
    with_xvfb 1280x800x24 bash -c '
        m=$1; d=$2
        MURMUR_PANEL_RECTS=$d/rects "$m" --boids 500 --width 1000 --height 700 >"$d/panel.out" 2>&1 &
        pid=$!
        for i in $(seq 1 150); do wid=$(xdotool search --pid $pid 2>/dev/null | head -1); [ -n "$wid" ] && [ -s "$d/rects" ] && break; sleep 0.2; done
        sleep 1
        at() { awk -v n="$1" "\$1==n {printf \"%d %d\", \$2+\$4/4, \$3+\$5/2}" "$d/rects"; }
        click() { local xy; xy=$(at "$1"); [ -n "$xy" ] || { echo "the panel drew no $1"; return 1; }; xdotool mousemove --window "$wid" $xy click 1; sleep 0.5; }
        click style && click style=steering && click speed_limit || { kill $pid; exit 1; }
        xdotool key Escape
        wait $pid' _ "$murmur" "$tmp" >"$tmp/panel" 2>&1 || fail "driving the panel: $(cat "$tmp/panel")"
    grep -q "the panel changed (to start so again): --set style=steering --set speed_limit=off" "$tmp/panel.out" \
        || { fail "the panel's combo and switch did not change style and speed_limit"; cat "$tmp/panel.out"; }
    with_xvfb 1280x800x24 bash -c '
        m=$1; d=$2
        "$m" --set world_size=671 --set alignment.radius=230 --width 800 --height 500 >"$d/mods.out" 2>&1 &
        pid=$!
        for i in $(seq 1 150); do wid=$(xdotool search --pid $pid 2>/dev/null | head -1); [ -n "$wid" ] && break; sleep 0.2; done
        [ -n "$wid" ] || { kill $pid 2>/dev/null; echo "no window appeared within 30 s"; exit 1; }
        sleep 3
        xdotool mousemove --window "$wid" 400 250
        for k in ctrl shift alt; do xdotool keydown $k; sleep 1; xdotool keyup $k; sleep 0.3; done
        xdotool keydown ctrl click 1 keyup ctrl
        sleep 1
        kill -0 $pid 2>/dev/null || { wait $pid; echo "the window died (exit $?) on a modifier key"; exit 1; }
        xdotool key Escape
        wait $pid' _ "$murmur" "$tmp" >"$tmp/mods" 2>&1 || { fail "modifiers during slow steps: $(cat "$tmp/mods")"; cat "$tmp/mods.out"; }
fi

# --record from the window: a video of the world alone, one frame per step, written on close.
with_xvfb 1280x800x24 "$murmur" --frames 12 --boids 500 --width 640 --height 400 \
    --record "$tmp/window.mp4" >"$tmp/out" 2>"$tmp/err"
code=$?
[ "$code" = 0 ] || fail "window run with --record exited $code"
windowed "window run with --record"
grep -q "wrote $tmp/window.mp4 (" "$tmp/out" || fail "window run did not report its video"
frames=$(ffprobe -v error -count_frames -select_streams v:0 -show_entries stream=nb_read_frames -of csv=p=0 "$tmp/window.mp4" 2>/dev/null)
[ "${frames:-0}" -ge 6 ] || fail "window video holds ${frames:-no} frames for 12 window frames"
echo "window video: $(ffprobe -v error -select_streams v:0 -show_entries stream=codec_name,width,height,r_frame_rate -of csv=p=0 "$tmp/window.mp4" 2>/dev/null), $frames frames"
[ "$fails" = 0 ] || cat "$tmp/out" "$tmp/err"

# A flock that goes non-finite in the window (flock.rb's sums with no speed limit) is not saved:
# exit 1, and neither --export nor --stats-out written (they were, full of -nan, with exit 0).
with_xvfb 1280x800x24 "$murmur" --preset flockrb --set speed_limit=off --frames 150 --width 480 --height 300 \
    --export "$tmp/nan.csv" --stats-out "$tmp/nan_stats.csv" --screenshot "$tmp/nan.png" --record "$tmp/nan.mp4" >"$tmp/out" 2>"$tmp/err"
code=$?
[ "$code" = 1 ] || { fail "a NaN flock in the window exited $code, not 1"; cat "$tmp/out" "$tmp/err"; }
windowed "a NaN flock in the window"
grep -q "not finite" "$tmp/err" || fail "a NaN flock in the window was not named"
ls "$tmp" | grep -q '^nan' && fail "a NaN flock in the window was written: $(ls "$tmp" | grep '^nan')"

# A recording stopped by Ctrl-C or SIGTERM leaves no FILE.mp4.tmp.XXXXXX (it left 3.5 MB each time).
for sig in INT TERM; do
    mkdir -p "$tmp/sig$sig"
    # A background job starts with SIGINT ignored: exec it with the default action, as a terminal's Ctrl-C finds it.
    python3 -c 'import os, signal, sys; signal.signal(signal.SIGINT, signal.SIG_DFL); os.execv(sys.argv[1], sys.argv[1:])' \
        "$murmur" --backend cpu --headless --boids 200 --steps 1000000000 --width 320 --height 200 \
        --record "$tmp/sig$sig/run.mp4" >/dev/null 2>&1 &
    pid=$!
    for i in $(seq 1 100); do ls "$tmp/sig$sig" | grep -q '\.tmp\.' && break; sleep 0.1; done
    sleep 1
    ls "$tmp/sig$sig" | grep -q '\.tmp\.' || fail "no temporary video while recording (SIG$sig test is void)"
    kill -s "$sig" "$pid"
    wait "$pid" 2>/dev/null
    left=$(ls "$tmp/sig$sig")
    [ -z "$left" ] || fail "SIG$sig during a recording left: $left"
done

# The other styles and features through the window: species and predators, decarpentier (3D,
# wing beats, amortised steering), perching and obstacles.
for args in "--preset predators --boids 400" "--preset decarpentier --boids 400" \
            "--boids 300 --set perch.enabled=on --set perch.ground=100 --set wind.y=-3"; do
    # shellcheck disable=SC2086
    with_xvfb 1280x800x24 "$murmur" $args --frames 4 --width 480 --height 300 >"$tmp/out" 2>"$tmp/err"
    code=$?
    [ "$code" = 0 ] || { fail "window run with $args exited $code"; cat "$tmp/out" "$tmp/err"; }
    windowed "window run with $args"
done

# murmur with no display, run in folder $1 (optionally as another user: $as_user) with the rest.
as_user=()
no_display() { local dir=$1; shift; (cd "$dir" && env -u DISPLAY -u WAYLAND_DISPLAY "${as_user[@]}" "$murmur" "$@") >"$tmp/out" 2>"$tmp/err"; }
no_display "$tmp" --steps 3 --boids 200 --screenshot fallback.png
code=$?
[ "$code" = 0 ] || fail "no-display run exited $code"
grep -q "no display" "$tmp/err" || fail "no-display run did not say so"
grep -q "polarization" "$tmp/out" || fail "no-display run printed no summary"
[ -s "$tmp/fallback.png" ] || fail "no-display run wrote no screenshot"

# The fallback honours --frames (one step per frame) and says how many steps it runs.
no_display "$tmp" --frames 7 --boids 100 --screenshot frames.png
code=$?
[ "$code" = 0 ] || fail "no-display run with --frames exited $code"
grep -q "running headless instead for 7 steps (--frames)" "$tmp/err" || fail "no-display run did not say it runs 7 steps"
grep -q "ran 7 steps" "$tmp/out" || fail "no-display run did not run 7 steps"

# Where it cannot write its default screenshot, the fallback says so up front (exit 2) instead of
# running and losing the picture. As root, the run is made as nobody in a directory it cannot write.
ro="$tmp/readonly"
mkdir "$ro" && chmod 555 "$ro" && chmod 755 "$tmp"
[ "$(id -u)" = 0 ] && as_user=(setpriv --reuid=65534 --regid=65534 --clear-groups)
no_display "$ro" --steps 3 --boids 100
code=$?
[ "$code" = 2 ] || fail "no-display run in an unwritable directory exited $code, not 2"
grep -q "is not writable" "$tmp/err" || fail "no-display run in an unwritable directory did not name the problem"
grep -q "ran 3 steps" "$tmp/out" && fail "no-display run in an unwritable directory ran before failing"

[ "$fails" = 0 ] || cat "$tmp/out" "$tmp/err"
echo "window_smoke: $fails failure(s)"
[ "$fails" -eq 0 ]
