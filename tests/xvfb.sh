# Sourced by the tests that need a display: with_xvfb SCREEN CMD [ARG...] runs CMD on a private
# Xvfb server (SCREEN as WxHxDEPTH) and stops that server before it returns CMD's exit code.
# -noreset: an X server resets when its last client leaves, and a client that connects during
# the reset is refused. A test that polls with xdotool while murmur starts (each xdotool call a
# client that comes and goes) then saw murmur fall back to headless ("Failed to open display"),
# under load about one run in four. The server picks a free display number itself (-displayfd)
# and is waited for to the end, so runs one after another never meet a server shutting down.
command -v Xvfb >/dev/null || { echo "FAIL: Xvfb not found (apt-get install xvfb)"; exit 1; }

with_xvfb() {
    local screen=$1
    shift
    local number_file log
    number_file=$(mktemp)
    log=$(mktemp)
    Xvfb -displayfd 5 -screen 0 "$screen" -nolisten tcp -noreset 5>"$number_file" >"$log" 2>&1 &
    local server=$!
    local i
    for i in $(seq 1 200); do
        grep -q '^[0-9][0-9]*$' "$number_file" && break
        kill -0 "$server" 2>/dev/null || break
        sleep 0.05
    done
    local number
    number=$(head -1 "$number_file")
    rm -f "$number_file"
    if ! [[ "$number" =~ ^[0-9]+$ ]]; then
        echo "FAIL: Xvfb did not start: $(cat "$log")"
        rm -f "$log"
        kill "$server" 2>/dev/null
        wait "$server" 2>/dev/null
        return 1
    fi
    local code=0
    DISPLAY=":$number" "$@" || code=$?
    if ! kill "$server" 2>/dev/null; then
        code=1
        echo "FAIL: the Xvfb server on :$number died during the run: $(cat "$log")"
    fi
    wait "$server" 2>/dev/null
    [ "$code" = 0 ] || [ ! -s "$log" ] || echo "Xvfb on :$number said: $(cat "$log")"
    rm -f "$log"
    return "$code"
}
