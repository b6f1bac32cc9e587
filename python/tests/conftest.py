"""Helpers the Python tests share."""
import signal
import subprocess
import sys
import textwrap
import time


def interrupted_run(script, after=1.0, timeout=120):
    """Runs script in a fresh interpreter; once it prints its first line ("stepping"), waits `after`
    seconds and sends SIGINT from outside, as a terminal's Ctrl-C comes. Returns (time the signal
    was sent, stdout, stderr, return code)."""
    p = subprocess.Popen([sys.executable, "-c", textwrap.dedent(script)], stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                         text=True)
    assert p.stdout.readline().strip() == "stepping"
    time.sleep(after)
    sent = time.time()
    p.send_signal(signal.SIGINT)
    out, err = p.communicate(timeout=timeout)
    return sent, out, err, p.returncode
