"""Trajectories in H5MD, read back with h5py: what --trajectory and Flock.record write (layout,
attributes, frames, values against the state exports), Ctrl-C/SIGTERM closing the file with the
frames so far, an existing file left whole until the new one is complete, and bad input refused.
Run by ctest: PYTHONPATH holds the built module, MURMUR_BIN the CLI."""
import os
import signal
import subprocess
import time

import h5py
import numpy as np
import pytest

import murmur

MURMUR_BIN = os.environ["MURMUR_BIN"]


def run_cli(*args, check=True):
    return subprocess.run([MURMUR_BIN, "--headless", *args], check=check, capture_output=True, text=True)


def export_by_id(path):
    lines = [line for line in open(path) if not line.startswith("#")]  # "# step", "# world"
    rows = np.loadtxt(lines, delimiter=",", skiprows=1, dtype=np.float64, ndmin=2)
    rows = rows[np.argsort(rows[:, 0])]
    return rows[:, 1].astype(np.int32), rows[:, 2:5].astype(np.float32), rows[:, 5:8].astype(np.float32)


@pytest.mark.parametrize("backend,dims", [("cpu", 3), ("gpu", 3), ("gpu", 2)])
def test_cli_trajectory_layout_and_last_frame_equal_the_export(tmp_path, backend, dims):
    traj, csv = tmp_path / "run.h5", tmp_path / "end.csv"
    run_cli("--backend", backend, "--preset", "default", "--boids", "400", "--dims", str(dims), "--seed", "7",
            "--set", "species_count=2", "--set", "world_size=150", "--steps", "25", "--trajectory", str(traj), "--trajectory-every", "10",
            "--export", str(csv))
    species, pos, vel = export_by_id(csv)
    with h5py.File(traj, "r") as f:
        assert list(f["h5md"].attrs["version"]) == [1, 1]
        assert f["h5md/creator"].attrs["name"] == "murmur"
        flock = f["particles/flock"]
        box = flock["box"]
        assert box.attrs["dimension"] == dims
        assert list(box.attrs["boundary"]) == ["periodic"] * dims
        # A time series of the box's edge vectors (a D x D matrix a frame: L on the diagonal).
        np.testing.assert_array_equal(box["edges/value"][:], np.broadcast_to(150.0 * np.eye(dims), (3, dims, dims)))
        assert box["edges/step"][:].tolist() == [0, 10, 20]
        parameters = f["parameters"]
        assert parameters.attrs["world_size"] == "150" and parameters.attrs["seed"] == "7"
        assert parameters.attrs["species_count"] == "2" and parameters.attrs["dims"] == str(dims)
        assert "world units" in parameters.attrs["length_unit"]
        assert len(parameters.attrs) == len(murmur.params()) + 2  # every key, and the two units
        assert list(flock["position/step"][:]) == [0, 10, 20]  # every 10 steps from 0; 25 is not a multiple
        dt = murmur.Flock(preset="default", backend="cpu", boids=10).params["dt"]
        assert np.allclose(flock["position/time"][:], flock["position/step"][:] * dt, rtol=1e-6, atol=0)
        assert flock["velocity/step"][:].tolist() == [0, 10, 20]
        value = flock["position/value"]
        assert value.shape == (3, 400, dims) and value.dtype == np.float32
        assert value.chunks[0] == 1 and value.compression == "gzip"
        assert np.array_equal(flock["id"][:], np.arange(400))
        assert np.array_equal(flock["species"][:], species)
        assert set(np.unique(species)) == {0, 1}
    # The last frame is step 20: run the same flock 20 steps and compare bit for bit.
    csv20 = tmp_path / "end20.csv"
    run_cli("--backend", backend, "--preset", "default", "--boids", "400", "--dims", str(dims), "--seed", "7",
            "--set", "species_count=2", "--set", "world_size=150", "--steps", "20", "--export", str(csv20))
    _, pos20, vel20 = export_by_id(csv20)
    with h5py.File(traj, "r") as f:
        assert np.array_equal(f["particles/flock/position/value"][2], pos20[:, :dims])
        assert np.array_equal(f["particles/flock/velocity/value"][2], vel20[:, :dims])
        assert not np.array_equal(f["particles/flock/position/value"][0], pos20[:, :dims])


def test_soft_bounds_are_not_periodic_and_deflate_0_is_uncompressed(tmp_path):
    traj = tmp_path / "soft.h5"
    run_cli("--backend", "cpu", "--boids", "50", "--set", "bounds=soft", "--steps", "3", "--trajectory", str(traj),
            "--trajectory-deflate", "0")
    with h5py.File(traj, "r") as f:
        assert list(f["particles/flock/box"].attrs["boundary"]) == ["none"] * f["particles/flock/box"].attrs["dimension"]
        assert f["particles/flock/position/value"].compression is None
        assert f["particles/flock/position/value"].shape[0] == 4


@pytest.mark.parametrize("backend", ["cpu", "gpu"])
def test_flock_record_equals_the_cli_trajectory(tmp_path, backend):
    cli = tmp_path / "cli.h5"
    run_cli("--backend", backend, "--preset", "couzin-torus", "--boids", "300", "--seed", "4", "--steps", "30",
            "--trajectory", str(cli), "--trajectory-every", "6")
    flock = murmur.Flock(preset="couzin-torus", backend=backend, seed=4, boids=300)
    with flock.record(str(tmp_path / "py.h5"), every=6) as recording:
        assert flock.recording
        flock.step(13)
        flock.step(17)
    assert not flock.recording and recording.path.endswith("py.h5")
    with h5py.File(cli, "r") as a, h5py.File(tmp_path / "py.h5", "r") as b:
        for name in ("position/step", "position/value", "velocity/value", "species", "id", "box/edges/value"):
            assert np.array_equal(a["particles/flock/" + name][()], b["particles/flock/" + name][()]), name
        assert np.array_equal(b["particles/flock/position/value"][-1], flock.positions)


@pytest.mark.parametrize("sig", [signal.SIGTERM, signal.SIGINT])
def test_a_stop_signal_closes_the_file_with_the_frames_so_far(tmp_path, sig):
    traj = tmp_path / "long.h5"
    proc = subprocess.Popen([MURMUR_BIN, "--headless", "--backend", "cpu", "--boids", "3000", "--dims", "3",
                             "--steps", "100000000", "--trajectory", str(traj), "--trajectory-every", "2"],
                            stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    deadline = time.time() + 60
    while not list(tmp_path.glob("long.h5.tmp.*")) and time.time() < deadline:
        time.sleep(0.1)
    assert proc.poll() is None, "the run ended before the signal"
    time.sleep(1.5)  # some frames written (at least the first: the file exists whatever the wait)
    proc.send_signal(sig)
    out, err = proc.communicate(timeout=60)
    assert proc.returncode == 128 + sig, err
    assert f"stopped by {signal.Signals(sig).name}" in err and "wrote" in out
    assert not list(tmp_path.glob("long.h5.tmp.*"))
    with h5py.File(traj, "r") as f:
        steps = f["particles/flock/position/step"][:]
        assert len(steps) >= 2 and list(steps) == list(range(0, 2 * len(steps), 2))
        assert f["particles/flock/position/value"].shape == (len(steps), 3000, 3)
        assert np.all(np.isfinite(f["particles/flock/position/value"][-1]))


def test_an_existing_file_is_untouched_until_the_new_one_is_complete(tmp_path):
    traj = tmp_path / "keep.h5"
    traj.write_bytes(b"an earlier trajectory")
    proc = subprocess.Popen([MURMUR_BIN, "--headless", "--backend", "cpu", "--boids", "3000", "--steps", "100000000",
                             "--trajectory", str(traj)], stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    deadline = time.time() + 60
    while not list(tmp_path.glob("keep.h5.tmp.*")) and time.time() < deadline:
        time.sleep(0.1)
    time.sleep(0.5)
    assert list(tmp_path.glob("keep.h5.tmp.*")), "the new trajectory is written beside the old file"
    assert proc.poll() is None, "the run ended before it could be killed"
    assert traj.read_bytes() == b"an earlier trajectory"
    proc.kill()  # SIGKILL: nothing can run; the old file must still be whole
    proc.wait()
    assert traj.read_bytes() == b"an earlier trajectory"


def test_a_flock_gone_non_finite_leaves_no_trajectory(tmp_path):
    # flock.rb's sums without a speed limit overflow within 2,000 steps: exit 1, nothing written.
    traj = tmp_path / "nan.h5"
    run = run_cli("--backend", "cpu", "--preset", "flockrb", "--set", "speed_limit=off", "--boids", "200", "--steps", "2000",
                  "--trajectory", str(traj), check=False)
    assert run.returncode == 1 and "not finite" in run.stderr
    assert not list(tmp_path.iterdir())


@pytest.mark.parametrize("args,message", [
    (["--trajectory", "/nonexistent-dir/t.h5"], "does not exist"),
    (["--trajectory", "t.csv"], "name it FILE.h5"),
    (["--trajectory", "t.h5", "--trajectory-deflate", "10"], "[0, 9]"),
    (["--trajectory-every", "5"], "--trajectory"),
    (["--trajectory", "t.h5", "--trajectory-every", "0"], "[1, 1000000000]"),
    (["--trajectory", "t.h5", "--trajectory-author", ""], "the author is empty; valid: a name of 1 to 200 bytes"),
    (["--trajectory", "t.h5", "--trajectory-author", "a\x1bb"], "the author holds a control byte"),
    (["--trajectory-author", "Ada"], "--trajectory-author applies to --trajectory only"),
    (["--trajectory-unwrapped"], "--trajectory-unwrapped applies to --trajectory only"),
    (["--trajectory", "t.h5", "--trajectory-3d", "--dims", "3"], "--trajectory-3d: the flock is already 3D"),
])
def test_bad_trajectory_input_exits_2_naming_the_problem(tmp_path, args, message):
    run = subprocess.run([MURMUR_BIN, "--headless", "--backend", "cpu", "--boids", "10", "--steps", "1", *args],
                         capture_output=True, text=True, cwd=tmp_path)
    assert run.returncode == 2, run.stderr
    assert message in run.stderr
    assert not list(tmp_path.iterdir())


def test_the_window_refuses_a_trajectory(tmp_path):
    run = subprocess.run([MURMUR_BIN, "--trajectory", "t.h5"], capture_output=True, text=True, cwd=tmp_path)
    assert run.returncode == 2 and "--headless" in run.stderr


def test_while_recording_the_box_and_times_cannot_change_and_an_old_handle_closes_nothing(tmp_path):
    flock = murmur.Flock(backend="cpu", boids=30)
    first = flock.record(str(tmp_path / "a.h5"))
    for key, value in (("dt", 0.05), ("world_size", 300), ("bounds", "soft")):
        with pytest.raises(murmur.Error, match=f"{key} cannot change while a trajectory is recorded"):
            flock.params[key] = value
    flock.params["separation.weight"] = 2.0  # any other key may
    assert first.close() == 1
    second = flock.record(str(tmp_path / "b.h5"), every=2)
    flock.step(4)
    assert first.close() == 0 and flock.recording  # the first handle does not end the second recording
    assert second.close() == 3


def test_record_bad_input_raises(tmp_path):
    flock = murmur.Flock(backend="cpu", boids=20)
    with pytest.raises(ValueError, match="every"):
        flock.record(str(tmp_path / "a.h5"), every=0)
    with pytest.raises(ValueError, match="deflate"):
        flock.record(str(tmp_path / "a.h5"), deflate=12)
    with pytest.raises(murmur.Error, match="does not exist"):
        flock.record(str(tmp_path / "no-such-dir" / "a.h5"))
    with pytest.raises(murmur.Error, match="name it FILE.h5"):
        flock.record(str(tmp_path / "a.txt"))
    with pytest.raises(murmur.Error, match="name it FILE.h5"):
        flock.record("")
    with pytest.raises(murmur.Error, match=r"record\(every\) = -1: valid: a whole number in \[1, "):
        flock.record(str(tmp_path / "a.h5"), every=-1)
    with pytest.raises(murmur.Error, match=r"record\(unwrapped\) = 'yes': valid: True or False"):
        flock.record(str(tmp_path / "a.h5"), unwrapped="yes")
    with pytest.raises(murmur.Error, match=r"record\(as_3d=True\): the flock is already 3D"):
        murmur.Flock(backend="cpu", boids=5, params={"dims": 3}).record(str(tmp_path / "a.h5"), as_3d=True)
    assert not flock.recording and not list(tmp_path.iterdir())
    first = flock.record(str(tmp_path / "a.h5"))
    with pytest.raises(murmur.Error, match="a.h5 is being recorded; stop that recording first"):
        flock.record(str(tmp_path / "b.h5"))
    assert flock.recording and first.close() == 1 and repr(first).endswith(", closed>")


def test_two_flocks_record_at_once(tmp_path):
    # Two writer threads share the HDF5 library (built without its thread safety) through a lock.
    a = murmur.Flock(backend="cpu", boids=2000, seed=1)
    b = murmur.Flock(backend="cpu", boids=1500, seed=2, params={"dims": 3})
    with a.record(str(tmp_path / "a.h5")), b.record(str(tmp_path / "b.h5"), deflate=0):
        for _ in range(20):
            a.step(1)
            b.step(1)
    with h5py.File(tmp_path / "a.h5", "r") as fa, h5py.File(tmp_path / "b.h5", "r") as fb:
        assert fa["particles/flock/position/value"].shape == (21, 2000, 2)
        assert fb["particles/flock/position/value"].shape == (21, 1500, 3)
        assert np.array_equal(fa["particles/flock/position/value"][-1], a.positions[:, :2])
        assert np.array_equal(fb["particles/flock/velocity/value"][-1], b.velocities)


# MDAnalysis (Debian's python3-mdanalysis) reads a 3D flock's trajectory: its H5MD reader, with
# convert_units=False (murmur's units are its own), frame by frame as h5py does.
def test_mdanalysis_reads_a_3d_trajectory(tmp_path):
    mda = pytest.importorskip("MDAnalysis", reason="python3-mdanalysis: scripts/setup.sh --full (the CI pipeline) installs it")
    from MDAnalysis.coordinates.H5MD import H5MDReader
    flock = murmur.Flock(preset="default", backend="cpu", seed=2, boids=50, params={"dims": 3, "world_size": 40})
    with flock.record(str(tmp_path / "run.h5"), every=5):
        flock.step(10)
    reader = H5MDReader(str(tmp_path / "run.h5"), convert_units=False)
    assert reader.n_atoms == 50 and reader.n_frames == 3
    with h5py.File(tmp_path / "run.h5", "r") as f:
        for ts, expected_pos, expected_vel in zip(reader, f["particles/flock/position/value"], f["particles/flock/velocity/value"]):
            np.testing.assert_array_equal(ts.positions, expected_pos)
            np.testing.assert_array_equal(ts.velocities, expected_vel)
            np.testing.assert_array_equal(ts.dimensions, [40, 40, 40, 90, 90, 90])
    assert [ts.data["step"] for ts in reader] == [0, 5, 10]
    universe = mda.Universe.empty(50, trajectory=False)
    universe.load_new(str(tmp_path / "run.h5"), format="H5MD", convert_units=False)
    assert len(universe.trajectory) == 3
    # Its reader takes the frames' times from the file but not their interval (docs/library.md): given
    # every x dt, its dt and each frame's time are the recording's (float32 dt: within 1e-6 relative).
    interval = 5 * flock.params["dt"]
    timed = H5MDReader(str(tmp_path / "run.h5"), convert_units=False, dt=interval)
    assert timed.dt == pytest.approx(interval, rel=1e-6)
    assert [ts.time for ts in timed] == pytest.approx([0, interval, 2 * interval], rel=1e-6)


# The author the user names is the file's /h5md/author, on the command line and from Python; a
# bad one is refused before anything is written.
def test_the_author_is_the_users_on_both_surfaces(tmp_path):
    run_cli("--backend", "cpu", "--boids", "20", "--steps", "2", "--trajectory", str(tmp_path / "cli.h5"),
            "--trajectory-author", "Ada Lovelace")
    flock = murmur.Flock(preset="default", backend="cpu", boids=20)
    with flock.record(str(tmp_path / "py.h5"), author="Grace Hopper"):
        flock.step(2)
    with flock.record(str(tmp_path / "default.h5")):
        flock.step(1)
    names = [h5py.File(tmp_path / f, "r")["h5md/author"].attrs["name"] for f in ("cli.h5", "py.h5", "default.h5")]
    assert names == ["Ada Lovelace", "Grace Hopper", "murmur"]
    with pytest.raises(murmur.Error, match=r"record\(author=...\): the author is 201 bytes"):
        flock.record(str(tmp_path / "long.h5"), author="x" * 201)
    assert not (tmp_path / "long.h5").exists() and not flock.recording


@pytest.mark.parametrize("backend", ["cpu", "gpu"])
def test_the_kept_state_is_named_read_set_recorded_and_exported(tmp_path, backend):
    """The adaptive radius (a kept per-boid state): named, read after steps (every radius within
    (0, max_radius]), set and read back, recorded as /particles/flock/kept_state (the last frame equal
    to kept_state then), exported as the CSV's sn column; bad values refused, a flock keeping none refuses."""
    flock = murmur.Flock(preset="default3d", backend=backend, seed=3, boids=300,
                         params={"topological.count": 6.5, "topological.max_radius": 12})
    assert flock.kept_state_names == ["unused", "unused", "unused", "search_radius"]
    flock.step(5)
    radius = flock.kept_state[:, 3]
    assert radius.shape == (300,) and (radius > 0).all() and (radius <= 12).all()
    values = np.zeros((300, 4), dtype=np.float32)
    values[:, 3] = np.linspace(1, 5, 300)
    flock.set_kept_state(values)
    np.testing.assert_array_equal(flock.kept_state, values)
    with flock.record(str(tmp_path / "kept.h5"), every=2):
        flock.step(4)
        last = flock.kept_state.copy()
    with h5py.File(tmp_path / "kept.h5", "r") as f:
        kept = f["particles/flock/kept_state"]
        assert list(kept.attrs["components"]) == ["unused", "unused", "unused", "search_radius"]
        assert kept["value"].shape == (3, 300, 4) and kept["step"][:].tolist() == flock_steps(flock, 3, 2)
        np.testing.assert_array_equal(kept["value"][0], values)
        np.testing.assert_array_equal(kept["value"][-1], last)
    flock.export(str(tmp_path / "kept.csv"))
    rows = np.loadtxt([l for l in open(tmp_path / "kept.csv") if not l.startswith("#")], delimiter=",", skiprows=1)
    rows = rows[np.argsort(rows[:, 0])]
    np.testing.assert_allclose(rows[:, 12], last[:, 3], rtol=1e-7)
    for bad in (np.zeros((300, 3)), np.zeros((299, 4)), np.full((300, 4), np.nan), np.full((300, 4), 2e9)):
        with pytest.raises(murmur.Error, match="set_kept_state"):
            flock.set_kept_state(bad)
    plain = murmur.Flock(preset="default3d", backend=backend, boids=50)
    assert plain.kept_state_names == [] and plain.kept_state is None
    with pytest.raises(murmur.Error, match="keeps no per-boid state"):
        plain.set_kept_state(np.zeros((50, 4)))


def flock_steps(flock, frames, every):
    """The steps of a recording's frames that began `(frames - 1) * every` steps before now."""
    now = flock.step_count
    return [now - (frames - 1 - k) * every for k in range(frames)]


def test_cli_trajectory_carries_the_kept_state(tmp_path):
    """--trajectory of a flock with the adaptive radius: kept_state's last frame is the export's sn."""
    traj, csv = tmp_path / "run.h5", tmp_path / "end.csv"
    run_cli("--preset", "default3d", "--boids", "300", "--set", "topological.count=6.5", "--steps", "10",
            "--trajectory", str(traj), "--trajectory-every", "5", "--export", str(csv))
    rows = np.loadtxt([l for l in open(csv) if not l.startswith("#")], delimiter=",", skiprows=1)
    rows = rows[np.argsort(rows[:, 0])]
    with h5py.File(traj, "r") as f:
        kept = f["particles/flock/kept_state"]
        assert kept["step"][:].tolist() == [0, 5, 10]
        np.testing.assert_array_equal(kept["value"][-1][:, 3], rows[:, 12].astype(np.float32))
        spawned = kept["value"][0][:, 3]  # the radius holding 5.5 others at the spawn's density, at most max_radius 10
        assert (spawned == spawned[0]).all() and 0 < spawned[0] < 10


# A flock drifting as one (no rule acts: weights and wander 0) at v = (2, 3, 6), |v| = 7, in a box of
# 40 for 400 steps of 0.05: 140 units, three boxes and more. Its images count the boxes crossed,
# unwrapped_positions is where each boid went (start + 400 dt v), and set_state or a new box starts
# the count again.
DRIFT = {"style": "steering", "separation.weight": 0, "alignment.weight": 0, "cohesion.weight": 0, "wander": 0,
         "min_speed": 0, "dims": 3, "world_size": 40, "dt": 0.05}
V_DRIFT = np.array([2.0, 3.0, 6.0])


def drifting_flock(backend, boids=64, dims=3):
    flock = murmur.Flock(backend=backend, boids=boids, seed=3, params=dict(DRIFT, dims=dims))
    v = V_DRIFT.copy()
    if dims == 2:
        v[2] = 0.0
    flock.set_state(velocities=np.tile(v, (boids, 1)).astype(np.float32))
    return flock, v


@pytest.mark.parametrize("backend", ["cpu", "gpu"])
def test_images_and_unwrapped_positions_follow_a_drifting_flock(backend):
    flock, v = drifting_flock(backend)
    start = flock.positions.astype(np.float64)
    assert flock.images.dtype == np.int32 and not flock.images.any()
    flock.step(400)
    went = start + 400 * flock.params["dt"] * v
    # float32 positions over 400 steps: within 0.01 (a wrong image is 40 off)
    np.testing.assert_allclose(flock.unwrapped_positions, went, atol=0.01, rtol=0)
    clear = np.abs(went / 40.0 - np.round(went / 40.0)) > 0.01 / 40.0  # not within rounding of an edge
    assert clear.mean() > 0.99
    np.testing.assert_array_equal(flock.images[clear], np.floor(went / 40.0)[clear])
    assert flock.images[:, 2].min() >= 3  # 120 units along z at least
    flock.set_state(positions=flock.positions)  # a new state: counted from 0 again
    assert not flock.images.any()
    flock.step(40)
    assert flock.images.any()
    flock.params["world_size"] = 50  # a new box too
    assert not flock.images.any()


# In wrap bounds each frame holds the images crossed (H5MD's image element): position + image x L
# is where the boid went, frame by frame; unwrapped=True writes that as the position instead.
@pytest.mark.parametrize("backend", ["cpu", "gpu"])
def test_a_recording_holds_the_images_or_unwrapped_positions(tmp_path, backend):
    flock, v = drifting_flock(backend)
    start = flock.positions.astype(np.float64)
    with flock.record(str(tmp_path / "held.h5"), every=100):
        flock.step(400)
    flock, _ = drifting_flock(backend)
    with flock.record(str(tmp_path / "unwrapped.h5"), every=100, unwrapped=True):
        flock.step(400)
    went = start[None] + np.arange(5)[:, None, None] * 100 * flock.params["dt"] * v
    with h5py.File(tmp_path / "held.h5", "r") as held, h5py.File(tmp_path / "unwrapped.h5", "r") as unwrapped:
        image = held["particles/flock/image"]
        assert image["value"].shape == (5, 64, 3) and image["value"].dtype == np.int32
        assert image["step"][:].tolist() == [0, 100, 200, 300, 400]
        position = held["particles/flock/position/value"][:]
        assert position.min() >= 0 and position.max() < 40  # held: in the box
        np.testing.assert_allclose(position + 40.0 * image["value"][:], went, atol=0.01, rtol=0)
        assert "image" not in unwrapped["particles/flock"]
        np.testing.assert_allclose(unwrapped["particles/flock/position/value"][:], went, atol=0.01, rtol=0)
    soft = murmur.Flock(backend="cpu", boids=10, params={"bounds": "soft"})
    with soft.record(str(tmp_path / "soft.h5")):
        soft.step(2)
    with h5py.File(tmp_path / "soft.h5", "r") as f:
        assert "image" not in f["particles/flock"]  # no periodic box, no images


# MDAnalysis' EinsteinMSD over an unwrapped recording of the drifting flock: every boid moved
# v x lag, so the MSD at lag tau is |v|^2 tau^2 = 49 tau^2, at the recording's times when its reader
# is given dt = every x dt. A 2D flock recorded as_3d is read the same way (z 0): 13 tau^2.
@pytest.mark.parametrize("dims", [3, 2])
def test_mdanalysis_einstein_msd_of_a_drift_is_its_speed_squared_lag_squared(tmp_path, dims):
    mda = pytest.importorskip("MDAnalysis", reason="python3-mdanalysis: scripts/setup.sh --full (the CI pipeline) installs it")
    from MDAnalysis.analysis.msd import EinsteinMSD
    flock, v = drifting_flock("cpu", boids=32, dims=dims)
    every = 20
    with flock.record(str(tmp_path / "run.h5"), every=every, unwrapped=True, as_3d=dims == 2):
        flock.step(400)
    interval = every * flock.params["dt"]
    universe = mda.Universe.empty(32, trajectory=False)
    universe.load_new(str(tmp_path / "run.h5"), format="H5MD", convert_units=False, dt=interval)
    msd = EinsteinMSD(universe, select="all", msd_type="xyz", fft=False).run()
    lags = np.arange(21) * interval
    np.testing.assert_allclose(np.arange(msd.n_frames) * universe.trajectory.dt, lags, rtol=1e-6)  # MDAnalysis' lag recipe
    np.testing.assert_allclose(msd.times, lags, rtol=1e-6)  # the frames' times, recorded from step 0
    speed2 = float(v @ v)
    # float32 positions up to 140 units: within 1e-4 relative of |v|^2 tau^2
    np.testing.assert_allclose(msd.results.timeseries, speed2 * lags ** 2, rtol=1e-4, atol=1e-6)
