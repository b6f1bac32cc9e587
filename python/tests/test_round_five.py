"""Round five of bad input and faults on the Python surface, each a reproduction that once went
wrong: a forked child hung on GPU work; a huge set_state crashed before its count was checked;
Ctrl-C waited for a whole long step while the interpreter's lock was held; a GPU flock freed on
another thread leaked its buffers; boid_figures() returned infinite accelerations. Run by ctest:
PYTHONPATH holds the built module."""
import os
import resource
import signal
import subprocess
import sys
import textwrap
import threading
import time

import numpy as np
import pytest

import murmur
from conftest import interrupted_run


def run_python(code, **kw):
    """Runs code in a fresh interpreter (an exit crash shows as a negative return code)."""
    return subprocess.run([sys.executable, "-c", textwrap.dedent(code)], capture_output=True, text=True, **kw)


# A child forked after the parent made a GPU flock raises murmur.Error naming fork at once, for a
# new GPU flock, the parent's flock and a GPU sweep; its CPU flocks work. (It hung for ever.)
def test_a_forked_child_refuses_gpu_work_naming_fork():
    p = run_python("""
        import os, sys, murmur
        f = murmur.Flock(boids=200, seed=1)
        f.step(2)
        r, w = os.pipe()
        pid = os.fork()
        if pid == 0:
            said = []
            for what, work in [("new", lambda: murmur.Flock(boids=100)), ("parent's", lambda: f.step(1)),
                               ("sweep", lambda: murmur.sweep({"separation.weight": "1:2:2"}, out="/tmp/murmur_fork_sweep.csv",
                                                              boids=50, steps=2))]:
                try:
                    work()
                    said.append(what + ": no error")
                except murmur.Error as e:
                    said.append(what + (": fork named" if "forked" in str(e) and "spawn" in str(e) else ": " + str(e)))
            c = murmur.Flock(boids=50, backend="cpu", seed=1)
            c.step(3)
            said.append("cpu: %d" % c.step_count)
            os.write(w, "|".join(said).encode())
            os._exit(0)
        os.close(w)
        _, status = os.waitpid(pid, 0)
        print(os.read(r, 10000).decode(), os.WEXITSTATUS(status))
        f.step(1)
        print("parent", f.step_count)
    """, timeout=120)
    assert p.returncode == 0, p.stderr[-2000:]
    child, parent = p.stdout.splitlines()
    assert child == "new: fork named|parent's: fork named|sweep: fork named|cpu: 3 0", child
    assert parent == "parent 3"


# The count is checked before numpy's float64 copy of a huge array (a MemoryError there crashed).
def test_a_huge_set_state_is_refused_by_its_count_before_any_copy():
    f = murmur.Flock(backend="cpu", boids=10, seed=1)
    huge = np.broadcast_to(np.zeros(3, dtype=np.float32), (3 * 10**8, 3))
    with pytest.raises(murmur.Error, match=r"positions: 300000000 rows: valid: at most 100000000 boids"):
        f.positions = huge
    assert f.size == 10


def test_a_set_state_copy_numpy_cannot_make_raises_memory_error():
    p = run_python("""
        import resource, numpy as np, murmur
        f = murmur.Flock(backend="cpu", boids=10, seed=1)
        size = int(open("/proc/self/statm").read().split()[0]) * resource.getpagesize()
        resource.setrlimit(resource.RLIMIT_AS, (size + (600 << 20), resource.RLIM_INFINITY))
        try:
            f.positions = np.broadcast_to(np.zeros(3, dtype=np.float32), (5 * 10**7, 3))  # 1.2 GB as float64
            print("set")
        except MemoryError:
            print("MemoryError", f.size)
    """, timeout=120)
    assert p.returncode == 0, p.stderr[-2000:]
    assert p.stdout.strip() == "MemoryError 10", p.stdout + p.stderr[-2000:]


# Methods of an object whose __init__ never ran raise murmur.Error (they crashed).
def test_objects_never_made_raise_instead_of_crashing():
    for call in [lambda: murmur.Flock.__new__(murmur.Flock).step(1), lambda: murmur.Flock.__new__(murmur.Flock).size,
                 lambda: murmur.Flock.__new__(murmur.Flock).positions, lambda: murmur.Ensemble.__new__(murmur.Ensemble).step(1),
                 lambda: murmur.Ensemble.__new__(murmur.Ensemble).order_parameters(),
                 lambda: murmur.Recording.__new__(murmur.Recording).close()]:
        with pytest.raises(murmur.Error, match="was never made"):
            call()


# One CPU step of a 10^4-boid Cucker-Smale flock takes seconds here; Ctrl-C ends it within a
# second, the flock back at the step the call began, and other threads ran meanwhile.
def test_ctrl_c_stops_one_long_step_and_other_threads_run_meanwhile():
    script = """
        import threading, time, murmur
        f = murmur.Flock(preset="cucker-smale", boids=10000, backend="cpu", seed=1)
        ticks = []
        def tick():
            while True:
                ticks.append(time.time())
                time.sleep(0.01)
        threading.Thread(target=tick, daemon=True).start()
        print("stepping", flush=True)
        began = time.time()
        try:
            f.step(1000)
        except KeyboardInterrupt:
            print("interrupted", time.time(), f.step_count, len([t for t in ticks if t > began]), flush=True)
    """
    sent, out, err, code = interrupted_run(script)
    assert code == 0, err[-2000:]
    words = out.split()
    assert words[0] == "interrupted", out
    assert float(words[1]) - sent < 1.0, "KeyboardInterrupt arrived %.2f s after the signal" % (float(words[1]) - sent)
    assert int(words[2]) == 0, "an unfinished step is taken back to where the call began"
    assert int(words[3]) > 20, "the other thread hardly ran while step() did: %s ticks" % words[3]


# A GPU flock made on a thread and freed on another ends its buffers (about 11 MB each leaked at
# 2x10^4 boids); the context is borrowed once its thread has ended.
def test_gpu_flocks_freed_on_another_thread_do_not_leak():
    def made_elsewhere():
        box = []
        t = threading.Thread(target=lambda: box.append(murmur.Flock(boids=20000, seed=1)))
        t.start()
        t.join()
        box[0].__class__  # still alive here, freed on this thread below
        return box

    def rss_mb():
        with open("/proc/self/statm") as f:
            return int(f.read().split()[1]) * os.sysconf("SC_PAGE_SIZE") / 2**20

    for _ in range(3):
        made_elsewhere().clear()
    before = rss_mb()
    for _ in range(12):
        made_elsewhere().clear()
    grown = rss_mb() - before
    assert grown < 40, "RSS grew %.0f MB over 12 flocks made and freed on other threads" % grown


# boid_figures() takes one step ahead: one that leaves the flock non-finite raises murmur.Error as
# step() does, the flock as it was (580 of 900 values were inf at this flock's last finite state).
@pytest.mark.parametrize("backend", ["cpu", "gpu"])
def test_boid_figures_refuses_a_look_ahead_step_that_is_not_finite(backend):
    f = murmur.Flock(preset="flockrb", backend=backend, boids=300, seed=1, params={"speed_limit": "off"})
    for _ in range(200):
        try:
            f.step(1)
        except murmur.Error:
            break
    else:
        pytest.fail("the flock stayed finite for 200 steps")
    before, step = f.positions, f.step_count
    assert np.isfinite(before).all() and np.isfinite(f.velocities).all()
    with pytest.raises(murmur.Error, match=r"boid_figures\(\): the next step \(%d\)" % (step + 1)):
        f.boid_figures()
    np.testing.assert_array_equal(f.positions, before)
    assert f.step_count == step


# A flock or an ensemble steps without the interpreter's lock: another thread runs meanwhile, and
# one that uses the flock during the step gets murmur.Error, never a torn read.
@pytest.mark.parametrize("kind", ["flock", "ensemble"])
def test_a_step_leaves_other_threads_running_and_guards_the_flock(kind):
    if kind == "flock":
        stepper = murmur.Flock(preset="cucker-smale", boids=1500, backend="cpu", seed=1)
        use = lambda: stepper.positions
    else:
        stepper = murmur.Ensemble([{"preset": "cucker-smale", "boids": 1500, "seed": s} for s in (1, 2)], backend="cpu")
        use = lambda: stepper.positions(0)
    seen = {"during": 0, "messages": set()}
    done = threading.Event()

    def other():  # tries the flock every 5 ms; counts the tries step() refused (it was running then)
        while not done.is_set():
            try:
                use()
            except murmur.Error as e:
                seen["during"] += 1
                seen["messages"].add(str(e))
            time.sleep(0.005)

    t = threading.Thread(target=other)
    t.start()
    stepper.step(10)
    done.set()
    t.join()
    assert seen["during"] > 5, "the other thread hardly ran while step() did: %s" % seen
    assert all("being stepped on another thread" in m for m in seen["messages"]), seen
