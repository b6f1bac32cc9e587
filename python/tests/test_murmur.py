"""The Python module against the command line: the same seed gives the arrays the CLI exports, on
both backends; a parameter set from Python takes effect; errors raise murmur.Error (a ValueError)
with the CLI's messages. Run by ctest: PYTHONPATH holds the built module, MURMUR_BIN the CLI."""
import os
import subprocess

import numpy as np
import pytest

import murmur

MURMUR_BIN = os.environ["MURMUR_BIN"]


def cli_export(tmp_path, backend):
    path = tmp_path / f"cli-{backend}.csv"
    subprocess.run([MURMUR_BIN, "--headless", "--backend", backend, "--preset", "default", "--boids", "300",
                    "--seed", "5", "--steps", "20", "--export", str(path)], check=True, capture_output=True)
    lines = [line for line in open(path) if not line.startswith("#")]  # "# step", "# world"
    rows = np.loadtxt(lines, delimiter=",", skiprows=1, dtype=np.float64)
    rows = rows[np.argsort(rows[:, 0])]
    return rows[:, 0].astype(np.uint32), rows[:, 2:5].astype(np.float32), rows[:, 5:8].astype(np.float32)


@pytest.mark.parametrize("backend", ["cpu", "gpu"])
def test_the_same_seed_gives_the_arrays_the_cli_exports(tmp_path, backend):
    flock = murmur.Flock(preset="default", backend=backend, seed=5, boids=300)
    flock.step(20)
    assert flock.step_count == 20
    ids, pos, vel = cli_export(tmp_path, backend)
    assert flock.positions.shape == (300, 3) and flock.positions.dtype == np.float32
    assert np.array_equal(flock.ids, ids)
    # The CSV holds 9 significant digits: float32 round-trips exactly.
    assert np.array_equal(flock.positions, pos)
    assert np.array_equal(flock.velocities, vel)
    flock.export(str(tmp_path / "py.csv"))
    assert (tmp_path / "py.csv").read_text() == (tmp_path / f"cli-{backend}.csv").read_text()


def test_a_parameter_set_from_python_takes_effect():
    a = murmur.Flock(preset="default", backend="cpu", seed=3, boids=200)
    b = murmur.Flock(preset="default", backend="cpu", seed=3, boids=200, params={"alignment.weight": 3})
    assert b.params["alignment.weight"] == 3.0
    a.step(10)
    b.step(10)
    assert not np.array_equal(a.velocities, b.velocities)
    a.params["alignment.weight"] = 3
    assert a.params["alignment.weight"] == 3.0
    assert a.params["bounds"] == "wrap"
    order = a.order_parameters()
    assert 0.0 <= order["polarization"] <= 1.0 and order["boids"] == 200


def test_the_largest_groups_are_in_the_order_parameters_on_both_backends(tmp_path):
    # The same state on both backends (18 groups, two pairs of equal sizes among the four
    # largest): the same four groups, their figures within the GPU's fixed-point tolerance (1e-5
    # on polarization and milling, 1e-3 units on a centre).
    cpu = murmur.Flock(preset="default", backend="cpu", seed=2, boids=400, params={"world_size": 600})
    cpu.step(400)
    path = str(tmp_path / "state.csv")
    cpu.export(path)
    gpu = murmur.Flock(preset="default", backend="gpu", seed=2, boids=400, params={"world_size": 500})
    gpu.import_state(path)  # the file names its world (600): the flock takes it
    assert gpu.params["world_size"] == 600
    c, g = cpu.order_parameters(), gpu.order_parameters()
    assert c["groups"] >= 4 and c["group1_boids"] == round(c["largest_group_share"] * 400)
    sizes = [c[f"group{k}_boids"] for k in range(1, 5)]
    assert sizes == sorted(sizes, reverse=True) and len(set(sizes)) < 4  # equal sizes among them: the tie-break
    for k in range(1, 4):
        if sizes[k - 1] == sizes[k]:
            assert c[f"group{k}_first_id"] < c[f"group{k + 1}_first_id"]
    for k in range(1, 5):
        assert g[f"group{k}_boids"] == c[f"group{k}_boids"]
        assert g[f"group{k}_first_id"] == c[f"group{k}_first_id"]
        for field in ("polarization", "milling"):
            assert g[f"group{k}_{field}"] == pytest.approx(c[f"group{k}_{field}"], abs=1e-5), (k, field)
        world = cpu.params["world_size"]
        for axis in "xyz":  # a centre on the wrap may fold to either side
            d = g[f"group{k}_{axis}"] - c[f"group{k}_{axis}"]
            assert abs(d - world * round(d / world)) < 1e-3, (k, axis)


def test_errors_raise_with_the_cli_messages():
    flock = murmur.Flock(backend="cpu", boids=50)
    with pytest.raises(murmur.Error, match="did you mean separation.weight"):
        flock.params["seperation.weight"] = 1
    with pytest.raises(ValueError, match=r"fov_deg: 500 is out of range \[0, 360\]"):
        flock.params["fov_deg"] = 500
    with pytest.raises(murmur.Error, match="no built-in preset 'nope'"):
        murmur.Flock(preset="nope", backend="cpu")
    with pytest.raises(murmur.Error, match="do not fit this GPU"):
        murmur.Flock(backend="gpu", boids=100_000_000)


def test_listings():
    assert "vicsek" in murmur.presets()
    keys = {r["key"] for r in murmur.params()}
    assert {"separation.radius", "style", "boids"} <= keys
    assert "Flock(preset=" in murmur.Flock.__init__.__doc__


def test_params_of_a_temporary_flock_keep_it_alive():
    # The view holds the flock: reading through it after the flock's last name is gone is safe.
    params = murmur.Flock(preset="default", backend="cpu", boids=10).params
    import gc
    gc.collect()
    assert params["dt"] == pytest.approx(1 / 30, rel=1e-6)
    assert murmur.Flock(preset="default", backend="cpu", boids=10).params["separation.radius"] > 0


@pytest.mark.parametrize("backend", ["cpu", "gpu"])
def test_an_ensemble_flock_is_the_flock_alone(backend):
    specs = [{"preset": "vicsek", "seed": s, "boids": 100 + 50 * s, "params": {"vicsek.noise": 0.5 + s}} for s in range(3)]
    ensemble = murmur.Ensemble(specs, backend=backend)
    assert len(ensemble) == 3
    ensemble.step(30)
    ensemble.set(2, "vicsek.noise", 0.1)
    ensemble.step(5)
    for k, spec in enumerate(specs):
        alone = murmur.Flock(backend=backend, **spec)
        alone.step(30)
        if k == 2:
            alone.params["vicsek.noise"] = 0.1
        alone.step(5)
        assert ensemble.positions(k).shape == (spec["boids"], 3)
        assert np.array_equal(ensemble.positions(k), alone.positions)
        assert np.array_equal(ensemble.velocities(k), alone.velocities)
        assert ensemble.get(k, "vicsek.noise") == alone.params["vicsek.noise"]
        assert ensemble.order_parameters(k)["polarization"] == alone.order_parameters()["polarization"]
        assert ensemble.order_parameters()[k] == alone.order_parameters()  # all at once: every figure, to the bit


def test_ensemble_bad_input_raises():
    with pytest.raises(murmur.Error, match="unknown flock option 'seeds'"):
        murmur.Ensemble([{"seeds": 1}], backend="cpu")
    with pytest.raises(murmur.Error, match="flock 1"):
        murmur.Ensemble([{"preset": "default"}, {"preset": "default3d"}], backend="gpu")
    with pytest.raises(murmur.Error, match=r"flock 0: seed = -1: valid: a whole number in \[0, 9007199254740991\]"):
        murmur.Ensemble([{"seed": -1}], backend="cpu")
    with pytest.raises(murmur.Error, match="preset is a name"):
        murmur.Ensemble([{"preset": 3}], backend="cpu")
    with pytest.raises(murmur.Error, match=r"flock = 3: valid: a whole number in \[0, 0\]"):
        murmur.Ensemble([{}], backend="cpu").positions(3)


def test_a_gpu_flock_without_a_context_raises_runtime_error_saying_how_to_get_one():
    # GLVND with no vendor library finds no EGL display: murmur cannot make a context.
    script = ("import murmur\n"
              "try:\n"
              "    murmur.Flock(backend='gpu', boids=10)\n"
              "except RuntimeError as e:\n"
              "    print(type(e).__name__, e)\n")
    env = dict(os.environ, __EGL_VENDOR_LIBRARY_FILENAMES="/nonexistent.json")
    run = subprocess.run(["/usr/bin/python3", "-c", script], env=env, capture_output=True, text=True, timeout=60)
    assert run.stdout.startswith("ContextError no OpenGL 4.5 context could be created"), run.stdout + run.stderr
    assert 'backend "cpu"' in run.stdout and "gl_loader" in run.stdout
    assert murmur.Flock(backend="cpu", boids=10).size == 10  # the CPU reference needs none


def test_whole_numbers_and_numpy_scalars_are_checked_with_their_ranges():
    for kwargs, message in (({"boids": -1}, "boids = -1"), ({"seed": -1}, "seed = -1"), ({"boids": 10**30}, "boids = 10"),
                            ({"boids": "5"}, "boids = '5'")):
        with pytest.raises(murmur.Error, match=message + ".*valid: a whole number in"):
            murmur.Flock(backend="cpu", **kwargs)
    flock = murmur.Flock(backend="cpu", boids=np.int64(20), seed=np.uint32(3))
    assert flock.size == 20
    for n in (-1, 2**32, 10**30, 1.5):
        with pytest.raises(murmur.Error, match=r"step\(n\) = .*valid: a whole number in \[0, 2147483647\]"):
            flock.step(n)
    flock.step(np.int32(2))
    flock.params["separation.weight"] = np.float32(1.25)
    flock.params["species_count"] = np.int64(2)
    assert flock.params["separation.weight"] == 1.25 and flock.params["species_count"] == 2
    ensemble = murmur.Ensemble(({"seed": 1}, {"seed": 2}), backend="cpu")  # any sequence of dicts
    with pytest.raises(murmur.Error, match=r"flock = -1: valid: a whole number in \[0, 1\]"):
        ensemble.positions(-1)
