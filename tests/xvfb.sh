# Sourced by the tests that need a display: with_xvfb SCREEN CMD [ARG...] runs CMD on a private
# Xvfb server (SCREEN as WxHxDEPTH) and stops that server before it returns CMD's exit code.
# -noreset: an X server resets when its last client leaves, and a client that connects during
# the reset is refused. A test that polls with xdotool while murmur starts (each xdotool call a
# client that comes and goes) then saw murmur fall back to headless ("Failed to open display"),
# under load about one run in four. The server picks a free display number itself (-displayfd)
# and is waited for to the end, so runs one after another never meet a server shutting down.
# Messages go to standard error, so a caller that keeps CMD's output still shows them.
command -v Xvfb >/dev/null || { echo "FAIL: Xvfb not found (apt-get install xvfb)"; exit 1; }

# The server of a run in progress; stop_xvfb (for the caller's EXIT trap) stops it if the script
# ends early.
xvfb_server=""
stop_xvfb() { [ -z "$xvfb_server" ] || kill "$xvfb_server" 2>/dev/null || true; }

with_xvfb() {
    local screen=$1
    shift
    local number_file log
    number_file=$(mktemp)
    log=$(mktemp)
    Xvfb -displayfd 5 -screen 0 "$screen" -nolisten tcp -noreset 5>"$number_file" >"$log" 2>&1 &
    xvfb_server=$!
    local i
    for i in $(seq 1 600); do  # 30 s
        grep -q '^[0-9][0-9]*$' "$number_file" && break
        kill -0 "$xvfb_server" 2>/dev/null || break
        sleep 0.05
    done
    local number
    number=$(head -1 "$number_file")
    rm -f "$number_file"
    if ! [[ "$number" =~ ^[0-9]+$ ]]; then
        echo "FAIL: Xvfb did not start within 30 s: $(cat "$log")" >&2
        rm -f "$log"
        kill "$xvfb_server" 2>/dev/null || true
        wait "$xvfb_server" 2>/dev/null || true
        xvfb_server=""
        return 1
    fi
    local code=0
    DISPLAY=":$number" "$@" || code=$?
    if kill -0 "$xvfb_server" 2>/dev/null; then
        kill "$xvfb_server" 2>/dev/null || true
        wait "$xvfb_server" 2>/dev/null || true
    else
        wait "$xvfb_server" 2>/dev/null || true
        code=1
        echo "FAIL: the Xvfb server on :$number died during the run: $(cat "$log")" >&2
    fi
    xvfb_server=""
    [ "$code" = 0 ] || [ ! -s "$log" ] || echo "Xvfb on :$number said: $(cat "$log")" >&2
    rm -f "$log"
    return "$code"
}
