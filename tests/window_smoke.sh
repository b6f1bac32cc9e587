#!/usr/bin/env bash
# The real window under Xvfb for a few frames (exit 0, a screenshot of the last frame), and the
# fallback with no display at all (headless run + screenshot + summary, exit 0).
# Usage: window_smoke.sh path/to/murmur. Needs xvfb-run (scripts/setup.sh installs it): without
# it this test FAILS rather than skip.
set -u
murmur=$(realpath "$1")
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
fails=0
fail() { echo "FAIL: $*"; fails=$((fails + 1)); }
command -v xvfb-run >/dev/null || { echo "FAIL: xvfb-run not found (apt-get install xvfb xauth)"; exit 1; }

xvfb-run -a -s "-screen 0 1280x800x24" "$murmur" --frames 5 --boids 500 --width 640 --height 400 \
    --screenshot "$tmp/window.png" >"$tmp/out" 2>"$tmp/err"
code=$?
[ "$code" = 0 ] || fail "window run exited $code"
grep -q "GLFW window" "$tmp/out" || fail "window run did not open a GLFW window"
grep -q "5 frames" "$tmp/out" || fail "window run did not stop after 5 frames"
[ -s "$tmp/window.png" ] || fail "no window screenshot"
[ "$fails" = 0 ] || cat "$tmp/out" "$tmp/err"

# The other styles and features through the window: species and predators, decarpentier (3D,
# wing beats, amortised steering), perching and obstacles.
for args in "--preset predators --boids 400" "--preset decarpentier --boids 400" \
            "--boids 300 --set perch.enabled=on --set perch.ground=100 --set wind.y=-3"; do
    # shellcheck disable=SC2086
    xvfb-run -a -s "-screen 0 1280x800x24" "$murmur" $args --frames 4 --width 480 --height 300 >"$tmp/out" 2>"$tmp/err"
    code=$?
    [ "$code" = 0 ] || { fail "window run with $args exited $code"; cat "$tmp/out" "$tmp/err"; }
done

(cd "$tmp" && env -u DISPLAY -u WAYLAND_DISPLAY "$murmur" --steps 3 --boids 200 --screenshot fallback.png) \
    >"$tmp/out" 2>"$tmp/err"
code=$?
[ "$code" = 0 ] || fail "no-display run exited $code"
grep -q "no display" "$tmp/err" || fail "no-display run did not say so"
grep -q "polarization" "$tmp/out" || fail "no-display run printed no summary"
[ -s "$tmp/fallback.png" ] || fail "no-display run wrote no screenshot"
[ "$fails" = 0 ] || cat "$tmp/out" "$tmp/err"
echo "window_smoke: $fails failure(s)"
[ "$fails" -eq 0 ]
