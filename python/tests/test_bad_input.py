"""Bad input and faults on the Python surface, each a reproduction that once went wrong: a full
disk (a crash, a damaged file reported as written), a flock used from another thread, non-finite
flocks, Ctrl-C during step(), numpy values, the step counter's end, recordings closed by an old
handle, and the messages. Run by ctest: PYTHONPATH holds the built module, MURMUR_BIN the CLI."""
import os
import re
import signal
import subprocess
import sys
import textwrap
import threading

import numpy as np
import re

import pytest

import murmur
from conftest import interrupted_run

MURMUR_BIN = os.environ["MURMUR_BIN"]


def run_python(code, **kw):
    """Runs code in a fresh interpreter (an exit crash shows as a negative return code)."""
    return subprocess.run([sys.executable, "-c", textwrap.dedent(code)], capture_output=True, text=True, **kw)


@pytest.fixture
def full_disk(tmp_path):
    """A 64 KiB tmpfs (mounting needs root: otherwise the test is reported skipped, never passed)."""
    where = tmp_path / "small"
    where.mkdir()
    if os.geteuid() != 0 or subprocess.run(["mount", "-t", "tmpfs", "-o", "size=64k", "tmpfs", str(where)],
                                           capture_output=True).returncode != 0:
        pytest.skip("mounting a small tmpfs needs root")
    yield where
    subprocess.run(["umount", str(where)], check=False)


# 1, 2: a full disk ends the recording with murmur.Error and no file; the interpreter exits cleanly.
@pytest.mark.parametrize("backend", ["cpu", "gpu"])
def test_a_full_disk_raises_ends_the_recording_and_leaves_no_file(full_disk, backend):
    result = run_python(f"""
        import murmur
        f = murmur.Flock(boids=2000, backend={backend!r}, seed=1)
        try:
            with f.record({str(full_disk / 't.h5')!r}, deflate=0):
                f.step(200)
            print("no error")
        except murmur.Error as e:
            print("Error:", e)
        print("recording", f.recording)
        f.step(2)
        print("stepped", f.step_count)
    """)
    assert result.returncode == 0, result.stderr[-2000:]
    assert "Error: cannot write" in result.stdout, result.stdout
    assert "recording False" in result.stdout
    assert "HDF5-DIAG" not in result.stderr, result.stderr[:500]
    assert len(result.stderr.splitlines()) < 5, result.stderr[:2000]
    assert os.listdir(full_disk) == [], "a damaged or temporary file was left"


def test_the_command_line_on_a_full_disk_exits_1_with_one_message_and_no_file(full_disk):
    for boids, steps in [(2000, 20), (200, 200)]:
        run = subprocess.run([MURMUR_BIN, "--headless", "--backend", "cpu", "--boids", str(boids), "--steps", str(steps),
                              "--trajectory", str(full_disk / "t.h5"), "--trajectory-deflate", "0"],
                             capture_output=True, text=True)
        assert run.returncode == 1, (run.returncode, run.stderr[-1000:])
        assert "cannot write" in run.stderr and "HDF5-DIAG" not in run.stderr, run.stderr[:1000]
        assert os.listdir(full_disk) == []


# 3: a GPU flock answers on its own thread only; one made in a thread works there.
def test_a_gpu_flock_from_another_thread_raises_and_one_made_there_works():
    f = murmur.Flock(boids=500, seed=1)
    f.step(1)
    before = f.positions.copy()
    seen = {}

    def other():
        try:
            f.step(5)
        except murmur.Error as e:
            seen["error"] = str(e)
        try:
            g = murmur.Flock(boids=500, seed=1)
            g.step(1)
            seen["positions"] = g.positions
        except Exception as e:  # noqa: BLE001 - reported below
            seen["made"] = repr(e)

    t = threading.Thread(target=other)
    t.start()
    t.join()
    assert "belongs to the thread that made it" in seen.get("error", ""), seen
    assert "made" not in seen, seen
    assert f.step_count == 1
    np.testing.assert_array_equal(f.positions, before)
    np.testing.assert_array_equal(seen["positions"], before)  # the same seed and step on another thread: the same bits


# 4: a step that goes non-finite raises and leaves the last finite state; nothing non-finite is written.
@pytest.mark.parametrize("backend", ["cpu", "gpu"])
def test_a_non_finite_step_raises_and_leaves_the_last_finite_state(tmp_path, backend):
    f = murmur.Flock(preset="flockrb", boids=300, backend=backend, seed=1, params={"speed_limit": "off"})
    f.step(5)
    with pytest.raises(murmur.Error, match=r"non-finite .* between steps \d+ and \d+; it is back at step") as raised:
        f.step(300)
    back = int(str(raised.value).split("back at step ")[1].split(",")[0])
    assert 5 <= back < 300 and f.step_count == back
    again = murmur.Flock(preset="flockrb", boids=300, backend=backend, seed=1, params={"speed_limit": "off"})
    again.step(back)  # the state of step `back`, to the bit
    np.testing.assert_array_equal(f.positions, again.positions)
    np.testing.assert_array_equal(f.velocities, again.velocities)
    assert np.isfinite(f.velocities).all()
    assert np.isfinite(list(f.order_parameters().values())).all()
    f.export(str(tmp_path / "state.csv"))
    text = open(tmp_path / "state.csv").read()
    assert "nan" not in text and "inf" not in text
    rec = tmp_path / "run.h5"
    with pytest.raises(murmur.Error, match="ended with its .* finite frames"):
        with f.record(str(rec)):
            f.step(300)
    assert not f.recording
    import h5py
    with h5py.File(rec, "r") as h:
        assert np.isfinite(h["particles/flock/position/value"][:]).all()
        assert np.isfinite(h["particles/flock/velocity/value"][:]).all()


def test_an_ensemble_step_that_goes_non_finite_raises_and_keeps_every_flock():
    e = murmur.Ensemble([{"preset": "flockrb", "boids": 200, "seed": s, "params": {"speed_limit": "off"}} for s in (1, 2)],
                        backend="cpu")
    e.step(2)
    kept = [e.positions(k).copy() for k in range(2)]
    with pytest.raises(murmur.Error, match="non-finite"):
        e.step(300)
    assert e.step_count == 2
    for k in range(2):
        np.testing.assert_array_equal(e.positions(k), kept[k])


# 5: Ctrl-C stops step() between steps, with a consistent flock and a complete recording. The
# signal comes from outside, as a terminal's does (a Python thread could not run while step()
# holds the interpreter).
@pytest.mark.parametrize("backend", ["cpu", "gpu"])
def test_ctrl_c_stops_a_long_step_soon_and_the_recording_stays_whole(tmp_path, backend):
    rec = tmp_path / "run.h5"
    script = f"""
        import sys, time, murmur
        f = murmur.Flock(boids=5000, backend={backend!r}, seed=1)
        f.step(1)
        try:
            with f.record({str(rec)!r}, every=5):
                print("stepping", flush=True)
                f.step(10**7)
        except KeyboardInterrupt:
            print("interrupted at", time.time(), "step", f.step_count, flush=True)
    """
    sent, out, err, code = interrupted_run(script)
    assert code == 0, err[-2000:]
    words = out.split()
    assert words[0] == "interrupted", out
    assert float(words[2]) - sent < 3.0, "KeyboardInterrupt arrived late"
    step = int(words[-1])
    import h5py
    with h5py.File(rec, "r") as h:
        steps = h["particles/flock/position/step"][:]
        assert steps[0] == 1 and steps[-1] <= step and step - steps[-1] < 5
        assert np.isfinite(h["particles/flock/position/value"][-1]).all()


# 6: numpy values are taken exactly, or refused with murmur.Error naming the type.
def test_numpy_values_are_exact_and_arrays_refused():
    f = murmur.Flock(backend="cpu", boids=50, params={"world_size": np.array(250.7)})
    assert f.params["world_size"] == pytest.approx(250.7, abs=1e-4)
    f.params["separation.weight"] = np.float32(1.9)
    assert f.params["separation.weight"] == pytest.approx(1.9, abs=1e-6)
    f.params["separation.weight"] = np.array(1.5)
    assert f.params["separation.weight"] == 1.5
    f.params["separation.weight"] = np.int64(2)
    assert f.params["separation.weight"] == 2.0
    for bad in (np.array([1.9]), np.array([1.0, 2.0])):
        with pytest.raises(murmur.Error, match="one value expected, not an array of shape"):
            f.params["separation.weight"] = bad
    with pytest.raises(murmur.Error, match="a number, True/False or a name expected, not list"):
        f.params["separation.weight"] = [1.0]
    with pytest.raises(murmur.Error, match="whole number"):
        murmur.Flock(backend="cpu", boids=np.array(300.5))
    assert murmur.Flock(backend="cpu", boids=np.int32(30)).size == 30
    assert murmur.Flock(backend="cpu", boids=np.array(30)).size == 30


# 7: the step counter's end is refused with the range, as the command line does.
def test_the_step_counter_cannot_pass_its_end(tmp_path):
    f = murmur.Flock(backend="cpu", boids=20, seed=1)
    f.export(str(tmp_path / "s.csv"))
    text = open(tmp_path / "s.csv").read()
    import re
    text = re.sub(r"# step \d+", "# step 4294967290", text)
    open(tmp_path / "s.csv", "w").write(text)
    f.import_state(str(tmp_path / "s.csv"))
    assert f.step_count == 4294967290
    with pytest.raises(murmur.Error, match=r"valid: \[0, 5\]"):
        f.step(10)
    assert f.step_count == 4294967290
    f.step(5)
    assert f.step_count == 4294967295


# 9: an old handle closes its own recording only.
def test_closing_an_old_recording_never_closes_a_newer_one(tmp_path):
    f = murmur.Flock(backend="cpu", boids=30, seed=1)
    path = str(tmp_path / "same.h5")
    r1 = f.record(path)
    r1.close()
    r2 = f.record(path)
    assert r1.close() == 0
    assert f.recording and "open" in repr(r2) and "closed" in repr(r1)
    f.step(2)
    assert r2.close() == 3


# 10: the messages and the ranges are the same everywhere.
def test_ranges_and_messages_agree():
    with pytest.raises(murmur.Error, match=r"seed = 18446744073709551615: valid: a whole number in \[0, 9007199254740991\]"):
        murmur.Flock(backend="cpu", seed=2**64 - 1)
    for bad in ({"seed": True}, {"boids": True}, {"boids": 2**32}):
        with pytest.raises(murmur.Error, match=r"Ensemble: flock 0: (seed|boids) = .*: valid: a whole number in \[0, "):
            murmur.Ensemble([bad], backend="cpu")
    f = murmur.Flock(backend="cpu", boids=30, seed=1)
    with pytest.raises(murmur.Error, match="needs a name before .h5"):
        f.record(".h5")
    with pytest.raises(murmur.Error, match="NUL character at byte 3"):
        f.export("abc\0def.csv")
    with pytest.raises(murmur.Error, match="NUL character"):
        f.record("a\0b.h5")


def test_a_failed_import_keeps_the_recording(tmp_path):
    f = murmur.Flock(backend="cpu", boids=30, seed=1)
    r = f.record(str(tmp_path / "run.h5"))
    with pytest.raises(murmur.Error):
        f.import_state(str(tmp_path / "missing.csv"))
    assert f.recording
    assert r.close() == 1


@pytest.mark.parametrize("kwargs,message", [
    ({"seeds": 0}, "seeds = 0: valid: a whole number in [1, 10000]"),
    ({"every": 0}, "every = 0: valid: a whole number in [1, 1000000000]"),
    ({"steps": 10, "burn_in": 11}, "burn_in = 11: valid: a whole number in [0, 10]"),
    ({"batch": 70000}, "batch = 70000: valid: a whole number in [0, 65536]"),
    ({"backend": "tpu"}, "backend"),
    ({"params": {"dt": -1}}, "dt"),
])
def test_a_sweep_refuses_bad_counts_naming_the_range(kwargs, message):
    args = {"steps": 2, "backend": "cpu", "boids": 20, **kwargs}
    with pytest.raises(murmur.Error, match=re.escape(message)):
        murmur.sweep({"vicsek.noise": (0.1, 0.2, 2)}, progress=False, **args)


def test_the_command_line_refuses_a_hidden_trajectory_name(tmp_path):
    run = subprocess.run([MURMUR_BIN, "--headless", "--backend", "cpu", "--boids", "20", "--steps", "1",
                          "--trajectory", str(tmp_path / ".h5")], capture_output=True, text=True)
    assert run.returncode == 2 and "needs a name before .h5" in run.stderr, run.stderr
    assert os.listdir(tmp_path) == []


# The GPU's read path and walk come from the environment: an unknown value is murmur.Error naming
# both (the command line's exit 2), and no concern of a CPU flock.
@pytest.mark.parametrize("var,value,valid", [("MURMUR_GPU_READS", "fast", "textures"), ("MURMUR_GPU_WALK", "blocks", "rows")])
def test_an_unknown_gpu_path_in_the_environment_is_murmur_error(monkeypatch, var, value, valid):
    monkeypatch.setenv(var, value)
    with pytest.raises(murmur.Error, match=f"{var}='{value}': valid: {valid}"):
        murmur.Flock(boids=100, seed=1)
    murmur.Flock(boids=100, seed=1, backend="cpu").step(1)


# A message that quotes bytes that are not UTF-8 (a Latin-1 file's header, an HDF5 file read as a
# state, a Latin-1 preset) reaches Python whole, those bytes as \xNN: the command line's words,
# file and line. (murmur.Error('') before: pybind11 could not decode the message.)
def test_a_message_quoting_bytes_that_are_not_utf8_is_whole(tmp_path):
    latin = tmp_path / "latin.csv"
    latin.write_bytes(b"id,sp\xe9cies,x,y,z,vx,vy,vz\n0,0,1,1,1,0,0,0\n")
    h5 = tmp_path / "run.h5"
    f = murmur.Flock(backend="cpu", boids=30, seed=1)
    f.record(str(h5)).close()
    preset = tmp_path / "latin.json"
    preset.write_bytes(b'{"boids": 40, "description": "d\xe9j\xe0 vu"}')
    for path, line in ((latin, ":1: unknown column 'sp\\xe9cies'"), (h5, ":1: ")):
        with pytest.raises(murmur.Error) as e:
            f.import_state(str(path))
        assert str(path) + line in str(e.value), str(e.value)
        cli = subprocess.run([MURMUR_BIN, "--backend", "cpu", "--headless", "--steps", "1", "--import", str(path)],
                             capture_output=True)
        assert cli.returncode == 2
        assert cli.stderr.decode("utf-8", "backslashreplace").strip() == "murmur: " + str(e.value)
    with pytest.raises(murmur.Error) as e:
        murmur.Flock(backend="cpu", preset=str(preset))
    assert str(preset) + ": not valid JSON" in str(e.value) and "\\x" in str(e.value), str(e.value)


# set_state with no boids makes an empty flock, as boids=0 and a state file of no rows do (the
# boids key's range is [0, 100000000]); it said "positions and velocities are both needed".
@pytest.mark.parametrize("backend", ["cpu", "gpu"])
def test_set_state_with_no_boids_is_an_empty_flock(tmp_path, backend):
    f = murmur.Flock(backend=backend, boids=30, seed=1)
    e = murmur.Ensemble([{"boids": 30}, {"boids": 20}], backend=backend)
    empty = np.zeros((0, 3))
    f.set_state(empty, empty)
    e.set_state(0, empty, empty)
    assert f.size == 0 and f.positions.shape == (0, 3) and f.species.shape == (0,)
    assert e.positions(0).shape == (0, 3) and e.positions(1).shape == (20, 3)
    f.step(2)
    e.step(2)
    f.export(str(tmp_path / "empty.csv"))
    g = murmur.Flock(backend="cpu", boids=5)
    g.import_state(str(tmp_path / "empty.csv"))
    assert g.size == 0
    f.set_state(np.ones((4, 2)), np.zeros((4, 2)))
    assert f.size == 4


# A newline in a GPU path variable is echoed escaped: the message stays one line (no forged
# "murmur:" line), on the command line and in Python.
@pytest.mark.parametrize("var", ["MURMUR_GPU_READS", "MURMUR_GPU_WALK"])
def test_a_gpu_path_variable_is_echoed_on_one_line(monkeypatch, var):
    monkeypatch.setenv(var, "fast\nmurmur: all is well")
    with pytest.raises(murmur.Error) as e:
        murmur.Flock(boids=100, seed=1)
    assert "\n" not in str(e.value) and f"{var}='fast\\x0amurmur: all is well'" in str(e.value), str(e.value)
    cli = subprocess.run([MURMUR_BIN, "--headless", "--steps", "1", "--boids", "100"], capture_output=True, text=True)
    assert cli.returncode == 2 and cli.stderr.count("\n") == 1 and "\nmurmur: all" not in cli.stderr, cli.stderr


# murmur's on/off variables take 1/0, on/off, true/false, yes/no in any case; anything else is
# murmur.Error naming the variable and the words (the command line's exit 2), on either backend.
@pytest.mark.parametrize("var", ["MURMUR_PROGRAM_CACHE", "MURMUR_GL_DEBUG"])
def test_an_on_off_variable_takes_its_words_and_refuses_others(monkeypatch, var):
    for good in ("off", "YES", "0", "true", ""):
        monkeypatch.setenv(var, good)
        murmur.Flock(boids=50, seed=1, backend="cpu").step(1)
    monkeypatch.setenv(var, "maybe")
    for make in (lambda: murmur.Flock(boids=50, seed=1, backend="cpu"), lambda: murmur.Flock(boids=50, seed=1),
                 lambda: murmur.Ensemble([{"boids": 20}], backend="cpu"),
                 lambda: murmur.sweep({"dt": (0.01, 0.02, 2)}, backend="cpu", boids=20, steps=2, progress=False)):
        with pytest.raises(murmur.Error, match=re.escape(f"{var}='maybe': valid: 1, on, true or yes (on); 0, off, false or no (off)")):
            make()


# A file name that is only an extension would be a hidden file: export and sweep refuse it as the
# command line does, writing nothing.
def test_a_file_name_that_is_only_an_extension_is_refused(tmp_path):
    f = murmur.Flock(backend="cpu", boids=30, seed=1)
    with pytest.raises(murmur.Error, match=r"^export /.*: the file needs a name before \.csv \(FILE\.csv\), not a hidden file$"):
        f.export(str(tmp_path / ".csv"))
    with pytest.raises(murmur.Error, match=re.escape("needs a name before .csv (FILE.csv), not a hidden file")):
        murmur.sweep({"dt": (0.01, 0.02, 2)}, backend="cpu", boids=20, steps=2, progress=False, out=str(tmp_path / ".csv"))
    assert os.listdir(tmp_path) == []
    f.export(str(tmp_path / ".run.csv"))  # a hidden file with a name of its own is written
    assert os.listdir(tmp_path) == [".run.csv"]


# A harmonic trap stiffer than the step resolves (k dt^2 >= 4) is refused by name, in a Flock and
# in a sweep, before anything runs: it flew a D'Orsogna flock apart into NaN.
def test_a_trap_stiffer_than_the_step_is_refused():
    with pytest.raises(murmur.Error, match=r"trap.stiffness: 1600 with dt 0.05 gives k dt\^2 = 4, at or past 4.*\[0, 1600\)"):
        murmur.Flock(preset="dorsogna-mill", backend="cpu", params={"trap.stiffness": 1600, "dt": 0.05})
    with pytest.raises(murmur.Error, match=r"trap.stiffness"):
        murmur.sweep({"trap.stiffness": [0, 2000]}, preset="dorsogna-mill", backend="cpu", steps=5, params={"dt": 0.05},
                     progress=False)
