"""What a researcher reaches for first: the state set from numpy arrays (checked as an imported
file is), per-boid neighbour counts, a time series of order parameters, whole-number keys as
ints, and the version. Each on both backends where a flock is involved."""
import re

import numpy as np
import pytest

import murmur

BACKENDS = ["cpu", "gpu"]


def spread(n, world, seed=0):
    rng = np.random.default_rng(seed)
    pos = rng.uniform(0.0, world, size=(n, 3))
    vel = rng.normal(0.0, 1.0, size=(n, 3))
    return pos, vel


@pytest.mark.parametrize("backend", BACKENDS)
def test_positions_and_velocities_set_from_numpy_read_back_to_the_bit(backend):
    f = murmur.Flock(preset="default", boids=200, backend=backend, seed=1, params={"dims": 3})
    world = f.params["world_size"]
    pos, vel = spread(200, world)
    f.positions = pos
    f.velocities = vel
    np.testing.assert_array_equal(f.positions, pos.astype(np.float32))
    np.testing.assert_array_equal(f.velocities, vel.astype(np.float32))
    assert f.step_count == 0 and f.size == 200
    f.step(3)
    assert f.step_count == 3  # the counter runs on; set_state keeps it
    species = f.species.copy()
    f.set_state(positions=pos)
    np.testing.assert_array_equal(f.species, species)
    assert f.step_count == 3


def test_the_same_state_set_on_both_backends_steps_alike():
    pos, vel = spread(300, 60.0, seed=4)
    flocks = [murmur.Flock(preset="default", boids=300, backend=b, seed=1, params={"dims": 3, "world_size": 60}) for b in BACKENDS]
    for f in flocks:
        f.set_state(pos, vel)
        f.step(1)
    cpu, gpu = flocks
    # One step from the same state: the backends agree to float rounding (tolerance 1e-3 units on
    # a 60-unit world; model.md, "Parity").
    np.testing.assert_allclose(gpu.positions, cpu.positions, atol=1e-3, rtol=0)
    np.testing.assert_array_equal(gpu.neighbour_counts, cpu.neighbour_counts)
    assert cpu.neighbour_counts.dtype == np.uint32 and cpu.neighbour_counts.shape == (300,)
    assert cpu.neighbour_counts.sum() > 0


@pytest.mark.parametrize("backend", BACKENDS)
def test_neighbour_counts_by_hand(backend):
    # Three boids on a line, 2 units apart, alignment/cohesion/separation radii 3: the middle one
    # sees both ends, each end sees the middle only (fov 360).
    f = murmur.Flock(preset="default", boids=3, backend=backend, seed=1,
                     params={"dims": 2, "world_size": 100, "fov_deg": 360, "separation.radius": 3,
                             "alignment.radius": 3, "cohesion.radius": 3})
    assert f.neighbour_counts.tolist() == [0, 0, 0]  # before any step
    f.set_state([[50, 50], [52, 50], [54, 50]], [[1, 0], [1, 0], [1, 0]])
    f.step(1)
    assert f.neighbour_counts.tolist() == [1, 2, 1]


@pytest.mark.parametrize("backend", BACKENDS)
def test_a_new_count_changes_boids_keeps_the_world_and_species_start_at_zero(backend):
    f = murmur.Flock(preset="default", boids=100, backend=backend, seed=1, params={"dims": 3})
    world = f.params["world_size"]
    pos, vel = spread(40, world, seed=2)
    f.set_state(pos, vel)
    assert f.size == 40 and f.params["boids"] == 40 and f.params["world_size"] == world
    assert f.species.tolist() == [0] * 40
    f.step(2)
    assert np.isfinite(f.positions).all()


@pytest.mark.parametrize("backend", BACKENDS)
def test_bad_arrays_are_refused_by_name_and_the_flock_is_unchanged(backend):
    f = murmur.Flock(preset="default", boids=10, backend=backend, seed=1, params={"dims": 3, "bounds": "wrap"})
    before = f.positions.copy()
    world = f.params["world_size"]
    pos, vel = spread(10, world)
    cases = [
        (dict(positions=np.zeros((10, 4))), r"positions: an \(N, 3\) array of numbers expected.*shape \(10, 4\)"),
        (dict(positions=[["a", "b", "c"]] * 10), r"positions: an \(N, 3\) array of numbers expected, not <U1"),
        (dict(positions=np.zeros((10, 2))), r"\(N, 3\) array"),  # (N, 2) only in 2D
        (dict(positions=pos[:5]), r"set_state: 5 positions but 10 velocities \(the flock's own, kept\)"),
        (dict(positions=np.where(np.arange(30).reshape(10, 3) == 7, np.nan, pos)), r"boid 2: y: 'nan' is not a finite number"),
        (dict(positions=np.where(np.arange(30).reshape(10, 3) == 3, 3 * world, pos)),
         r"boid 1: x = .* is far outside the world .* \(wrap bounds\)"),
        (dict(velocities=np.full((10, 3), 2e6)), r"boid 0: vx = 2000000 is out of range \[-1e6, 1e6\]"),
        (dict(positions=np.full((10, 3), 1e300)), r"positions\[0, 0\] = 1e\+300: beyond a float's range"),
        (dict(species=np.arange(10)), r"boid 1: species: 1 is out of range \[0, 0\]"),
        (dict(species=np.zeros(10)), r"species: an \(N,\) array of whole numbers expected"),
        (dict(species=-np.ones(10, dtype=int)), r"species\[0\] = -1: out of range"),
        ({}, r"set_state: give positions, velocities or species"),
    ]
    for kwargs, message in cases:
        with pytest.raises(murmur.Error, match=message):
            f.set_state(**kwargs)
        np.testing.assert_array_equal(f.positions, before)
        assert f.size == 10


def test_a_2d_flock_takes_n_by_2_and_refuses_a_z():
    f = murmur.Flock(preset="default", boids=4, backend="cpu", seed=1, params={"dims": 2})
    f.positions = [[1, 2], [3, 4], [5, 6], [7, 8]]
    assert f.positions[:, 2].tolist() == [0, 0, 0, 0] and f.positions[3, 1] == 8
    with pytest.raises(murmur.Error, match=r"boid 0: z and vz must be 0 when dims is 2"):
        f.positions = [[1, 2, 3]] * 4


@pytest.mark.parametrize("backend", BACKENDS)
def test_run_gives_a_time_series_of_order_parameters(backend):
    f = murmur.Flock(preset="vicsek", boids=200, backend=backend, seed=3)
    table = f.run(25, every=10)
    assert list(table["step"]) == [0, 10, 20, 25]
    dt = f.params["dt"]
    np.testing.assert_allclose(table["time"], table["step"] * dt, rtol=1e-12)
    assert list(table.columns[:13]) == ["step", "time", "polarization", "group_polarization", "milling", "groups",
                                        "largest_group_share", "grouped_share", "nn_mean", "nn_median",
                                        "mean_neighbours", "mean_speed", "boids"]
    assert list(table.columns[13:20]) == ["group1_boids", "group1_first_id", "group1_polarization", "group1_milling",
                                          "group1_x", "group1_y", "group1_z"]
    for count in ("step", "groups", "boids", "group1_boids", "group4_first_id"):
        assert table[count].dtype.kind == "i", count
    assert table["polarization"].dtype.kind == "f"
    again = murmur.Flock(preset="vicsek", boids=200, backend=backend, seed=3)
    again.step(25)
    assert table["polarization"].iloc[-1] == again.order_parameters()["polarization"]
    for bad, message in [(0, r"run\(every\) = 0: valid: a whole number in \[1, "), (1.5, r"run\(every\) = 1.5")]:
        with pytest.raises(murmur.Error, match=message):
            f.run(5, every=bad)
    with pytest.raises(murmur.Error, match=r"run\(steps\) = -1"):
        f.run(-1)


def test_whole_number_keys_come_back_as_ints_and_the_version_is_the_projects():
    f = murmur.Flock(preset="default", boids=1600, backend="cpu", seed=1)
    assert f.params["boids"] == 1600 and isinstance(f.params["boids"], int)
    assert isinstance(f.params["dims"], int) and isinstance(f.params["dt"], float)
    assert isinstance(f.params["bounds"], str)
    import os
    cmake = open(os.path.join(os.path.dirname(__file__), "..", "..", "CMakeLists.txt")).read()
    assert murmur.__version__ == re.search(r"project\(murmur VERSION ([0-9.]+)", cmake).group(1)


def test_a_mistyped_preset_lists_the_presets_beside_the_library_not_beside_python():
    import os
    import sys
    with pytest.raises(murmur.Error, match=r"^preset: no built-in preset 'vicsk' \(known: .*vicsek") as raised:
        murmur.Flock(preset="vicsk", backend="cpu")
    message = str(raised.value)
    assert os.path.join(os.path.dirname(sys.executable), "presets") not in message
    assert "presets/vicsk.json" in message


@pytest.mark.parametrize("backend", BACKENDS)
def test_an_ensemble_flock_set_from_numpy_steps_as_that_flock_alone(backend):
    e = murmur.Ensemble([{"preset": "default", "boids": 100, "seed": s, "params": {"dims": 3}} for s in (1, 2)], backend=backend)
    e.step(3)
    other = e.positions(0).copy()
    pos, vel = spread(100, e.get(1, "world_size"), seed=5)
    e.set_state(1, pos, vel)
    np.testing.assert_array_equal(e.positions(1), pos.astype(np.float32))
    np.testing.assert_array_equal(e.positions(0), other)
    assert e.step_count == 3
    alone = murmur.Flock(preset="default", boids=100, seed=2, backend=backend, params={"dims": 3})
    alone.step(3)
    alone.set_state(pos, vel)
    e.step(2)
    alone.step(2)
    np.testing.assert_array_equal(e.positions(1), alone.positions)  # bit for bit, as an ensemble's flock is
    with pytest.raises(murmur.Error, match=r"boid 0: vx = 2000000 is out of range"):
        e.set_state(0, velocities=np.full((100, 3), 2e6))
    with pytest.raises(murmur.Error, match=r"flock = 2: valid: a whole number in \[0, 1\]"):
        e.set_state(2, pos, vel)


@pytest.mark.parametrize("backend", BACKENDS)
def test_each_boids_nearest_distance_and_group_agree_with_the_flocks_figures(backend):
    f = murmur.Flock(preset="couzin-torus", backend=backend, seed=2, boids=300)
    f.step(60)
    figures = f.boid_figures()
    order = f.order_parameters()
    nearest, group = figures["nearest"], figures["group"]
    assert nearest.dtype == np.float32 and group.dtype == np.int64 and figures["neighbours"].dtype == np.uint32
    assert nearest.shape == group.shape == (300,)
    np.testing.assert_array_equal(figures["neighbours"], f.neighbour_counts)
    # A milling torus: every boid has a neighbour within the nn radius, so nn_mean is their mean
    # (float sums, and on the GPU its own measure: 1e-5 relative).
    assert np.isfinite(nearest).all()
    np.testing.assert_allclose(nearest.mean(dtype=np.float64), order["nn_mean"], rtol=1e-5)
    labels = group[group >= 0]
    sizes = {label: int((labels == label).sum()) for label in set(labels.tolist())}
    assert len(sizes) == order["groups"] > 0
    largest = max(sizes, key=lambda label: (sizes[label], -label))
    assert largest == order["group1_first_id"] and sizes[largest] == order["group1_boids"]
    assert all(group[label] == label for label in sizes)  # a group's first id is one of its boids


def test_boid_figures_by_hand():
    # Three boids in a line 2 apart and two far off: nearest 2, 2, 2 and none (inf) for the two;
    # no group of five, so every label is -1.
    f = murmur.Flock(preset="default", boids=5, backend="cpu", params={"dims": 2, "world_size": 200})
    f.set_state([[10, 10], [12, 10], [14, 10], [100, 100], [150, 150]], [[1, 0]] * 5)
    figures = f.boid_figures()
    assert figures["nearest"][:3].tolist() == [2, 2, 2]
    assert np.isinf(figures["nearest"][3:]).all()
    assert figures["group"].tolist() == [-1] * 5


def test_a_missing_preset_file_is_named_in_the_librarys_words(tmp_path):
    with pytest.raises(murmur.Error, match=r"^preset: no such file: /"):
        murmur.Flock(preset=str(tmp_path / "none.json"), backend="cpu")


@pytest.mark.parametrize("backend", BACKENDS)
def test_the_acceleration_is_the_next_steps_and_the_flock_is_left_as_it_was(backend):
    f = murmur.Flock(preset="default", backend=backend, seed=4, boids=200, params={"dims": 3})
    twin = murmur.Flock(preset="default", backend=backend, seed=4, boids=200, params={"dims": 3})
    f.step(5)
    twin.step(5)
    counts = f.neighbour_counts.copy()
    v0 = f.velocities.copy()
    acceleration = f.boid_figures()["acceleration"]
    assert acceleration.shape == (200, 3) and acceleration.dtype == np.float32
    assert f.step_count == 5
    np.testing.assert_array_equal(f.neighbour_counts, counts)  # the look-ahead step is taken back
    f.step(1)
    twin.step(1)
    np.testing.assert_array_equal(f.positions, twin.positions)  # as if never asked, to the bit
    dt = f.params["dt"]
    # (v after - v now) / dt in float32: the step's own velocities give it back to float rounding
    # (1e-3 units/s^2 over accelerations of order 1-100).
    np.testing.assert_allclose(acceleration, (f.velocities - v0) / np.float32(dt), atol=1e-3, rtol=1e-4)
    assert np.abs(acceleration).max() > 0


@pytest.mark.parametrize("backend", ["cpu", "gpu"])
def test_body_shape_names_its_figures_and_leaves_the_flock_as_it_was(backend):
    """A spawned 3D ball: proportions near 1 (a ball has no thin axis), every |cos| in [0, 1],
    r1 positive, border and interior r1 both measured; the state is not changed."""
    flock = murmur.Flock(preset="default3d", backend=backend, seed=4, boids=800)
    before = flock.positions.copy()
    body = flock.body_shape()
    assert set(body) == {"boids", "proportion_middle", "proportion_long", "thin_vs_up", "heading_vs_thin",
                         "heading_vs_middle", "heading_vs_long", "r1", "r1_border", "r1_interior", "border_share"}
    assert body["boids"] == 800
    assert 1.0 <= body["proportion_middle"] <= body["proportion_long"] < 1.5
    for key in ("thin_vs_up", "heading_vs_thin", "heading_vs_middle", "heading_vs_long", "border_share"):
        assert 0.0 <= body[key] <= 1.0, key
    assert body["r1"] > 0 and body["r1_border"] > 0 and body["r1_interior"] > 0
    assert (flock.positions == before).all()


@pytest.mark.parametrize("backend", BACKENDS)
def test_a_step_too_coarse_for_the_spacing_is_warned_of(backend):
    """order_parameters() and run() warn (RuntimeWarning) when a boid moves farther in a step than the median
    nearest-neighbour distance: 40 boids 0.001 apart at speed 1 with dt 0.05 (0.05 a step); 0.5 apart, nothing."""
    import warnings
    for spacing, warned in [(0.001, True), (0.5, False)]:
        f = murmur.Flock(preset="default", boids=40, backend=backend, seed=1, params={"dt": 0.05})
        f.positions = [[10 + spacing * k, 20, 0] for k in range(40)]
        f.velocities = [[1, 0, 0]] * 40
        with warnings.catch_warnings(record=True) as caught:
            warnings.simplefilter("always")
            f.order_parameters()
            f.run(0)
        said = [str(w.message) for w in caught if issubclass(w.category, RuntimeWarning)]
        assert len(said) == (2 if warned else 0), said
        if warned:
            assert "a boid moves 0.05 units a step" in said[0] and "mean nearest-neighbour distance" in said[0], said[0]


# A restart file (flock.export) holds the parameters, seed, step and every boid's state: the flock
# Flock.load makes continues the run to the bit, on the backend it ran on. Loading with a setting
# that changes a parameter that moves the flock raises, naming it, unless override=True; the view's
# keys may change.
@pytest.mark.parametrize("backend", ["cpu", "gpu"])
def test_a_loaded_restart_file_continues_the_run_to_the_bit(tmp_path, backend):
    params = {"style": "gloss", "dims": 3, "world_size": 60, "perch.enabled": True, "perch.ground": 20,
              "perch.min_time": 0.05, "perch.max_time": 0.4}
    flock = murmur.Flock(preset="default", backend=backend, seed=5, boids=300, params=params)
    flock.step(100)
    flock.export(str(tmp_path / "mid.csv"))
    resumed = murmur.Flock.load(str(tmp_path / "mid.csv"), backend=backend)
    assert resumed.step_count == 100 and resumed.params["seed"] == 5 and resumed.params["style"] == "gloss"
    flock.step(100)
    resumed.step(100)
    assert np.array_equal(resumed.positions, flock.positions) and np.array_equal(resumed.velocities, flock.velocities)
    assert np.array_equal(resumed.images, flock.images) and flock.images.any()
    assert np.array_equal(resumed.kept_state, flock.kept_state)
    with pytest.raises(murmur.Error, match="dt from 0.033333335 to 0.02; seed from 5 to 9.*override=True"):
        murmur.Flock.load(str(tmp_path / "mid.csv"), backend=backend, seed=9, params={"dt": 0.02})
    murmur.Flock.load(str(tmp_path / "mid.csv"), backend=backend, params={"colour": "species"})
    changed = murmur.Flock.load(str(tmp_path / "mid.csv"), backend=backend, seed=9, override=True)
    assert changed.params["seed"] == 9 and changed.step_count == 100


def test_a_restart_file_without_parameters_or_with_a_bad_override_is_refused(tmp_path):
    (tmp_path / "bare.csv").write_text("id,species,x,y,z,vx,vy,vz\n0,0,1,1,0,0,0,0\n")
    with pytest.raises(murmur.Error, match="holds no parameters"):
        murmur.Flock.load(str(tmp_path / "bare.csv"), backend="cpu")
    murmur.Flock(backend="cpu", boids=10).export(str(tmp_path / "ok.csv"))
    with pytest.raises(murmur.Error, match=r"load\(override\) = 1: valid: True or False"):
        murmur.Flock.load(str(tmp_path / "ok.csv"), backend="cpu", override=1)
    with pytest.raises(murmur.Error, match="boids 20 cannot change on a resume"):
        murmur.Flock.load(str(tmp_path / "ok.csv"), backend="cpu", boids=20, override=True)


# The worked example docs/research.md quotes (examples/research/msd_and_restart.py), run as it is:
# its figures are the docs' (ballistic where ordered, diffusive where not; xi about a quarter of the
# box's side at sides 10 and 20; the restart to the bit).
def test_the_worked_example_gives_the_documented_figures(tmp_path):
    pytest.importorskip("MDAnalysis", reason="python3-mdanalysis: scripts/setup.sh --full (the CI pipeline) installs it")
    import runpy
    import pathlib
    example = pathlib.Path(__file__).resolve().parents[2] / "examples" / "research" / "msd_and_restart.py"
    ns = runpy.run_path(str(example), run_name="example")
    ns["msd_of"].__globals__["FOLDER"] = str(tmp_path)
    _, ordered, exponent, polarization = ns["msd_of"](0.5)
    assert polarization > 0.95 and exponent == pytest.approx(2.0, abs=0.05)
    _, _, exponent, polarization = ns["msd_of"](5.0)
    assert polarization < 0.2 and exponent == pytest.approx(1.0, abs=0.15)
    sizes = ns["xi_against_size"]()
    assert [side for side, _, _ in sizes] == [5, 10, 20]
    ratios = [ratio for _, _, ratio in sizes]
    assert 0.2 < ratios[1] < 0.35 and 0.2 < ratios[2] < 0.35 and abs(ratios[2] - ratios[1]) < 0.05  # xi grows as L
    same, refused = ns["restart"]()
    assert same and "vicsek.noise from 2 to 1" in refused


# Flock.correlations on the two opposed pairs of tests/no_gl/test_correlations.cpp (C +1 at r 1.5,
# -1 from 9.5, xi 5.5), set from numpy on either backend; and its bad input named.
@pytest.mark.parametrize("backend", BACKENDS)
def test_correlations_of_two_opposed_pairs(backend):
    flock = murmur.Flock(backend=backend, boids=4, params={"world_size": 100})
    flock.set_state(positions=np.array([[10, 50, 0], [11, 50, 0], [20, 50, 0], [21, 50, 0]], np.float32),
                    velocities=np.array([[1, 0, 0], [1, 0, 0], [-1, 0, 0], [-1, 0, 0]], np.float32))
    c = flock.correlations(bins=12, r_max=12)
    assert set(c) == {"r", "velocity", "g", "pairs", "xi"}
    assert c["r"][1] == 1.5 and c["velocity"][1] == pytest.approx(1.0, abs=1e-12)
    assert c["velocity"][10] == pytest.approx(-1.0, abs=1e-12) and np.isnan(c["velocity"][5])
    assert c["xi"] == pytest.approx(5.5, abs=1e-12) and c["pairs"].sum() == 6
    with pytest.raises(murmur.Error, match=r"r_max = 60: valid: \(0, 50\]|past half the world"):
        flock.correlations(r_max=60)
    with pytest.raises(murmur.Error, match=r"correlations\(bins\) = 0: valid"):
        flock.correlations(bins=0)
    with pytest.raises(murmur.Error, match=r"correlations\(r_max\) = 'far': valid: a number"):
        flock.correlations(r_max="far")


# murmur.autocorrelation by hand: an alternating series is -1 at odd lags and +1 at even ones; a
# linear ramp 0..9 (mean 4.5, variance 8.25) at lag 1 is mean((x_t - 4.5)(x_t+1 - 4.5)) over its 9
# pairs / 8.25 = (57.75 / 9) / 8.25. Bad input is named.
def test_autocorrelation_by_hand():
    a = murmur.autocorrelation([1, -1] * 10, max_lag=3)
    np.testing.assert_allclose(a, [1, -1, 1, -1], atol=1e-12)
    ramp = murmur.autocorrelation(np.arange(10.0), max_lag=1)
    d = np.arange(10.0) - 4.5
    assert ramp[1] == pytest.approx(float(np.sum(d[:-1] * d[1:])) / 9 / 8.25, rel=1e-12)
    with pytest.raises(murmur.Error, match="the series is constant"):
        murmur.autocorrelation([2.0] * 5)
    with pytest.raises(murmur.Error, match="two or more finite numbers"):
        murmur.autocorrelation([1.0, float("nan"), 2.0])
    with pytest.raises(murmur.Error, match=r"autocorrelation\(max_lag\) = 10: valid: a whole number in \[0, 9\]"):
        murmur.autocorrelation(np.arange(10.0), max_lag=10)


# murmur.binder_cumulant by hand: a steady (or +-c) series is 1 - c^4 / (3 c^4) = 2/3; the series
# 0, 1 has <x^2> = <x^4> = 1/2: 1 - 0.5 / (3 x 0.25) = 1/3. All zeros, or NaN, is refused.
def test_binder_cumulant_by_hand():
    assert murmur.binder_cumulant([0.9] * 7) == pytest.approx(2 / 3, abs=1e-12)
    assert murmur.binder_cumulant([0.5, -0.5] * 3) == pytest.approx(2 / 3, abs=1e-12)
    assert murmur.binder_cumulant([0.0, 1.0]) == pytest.approx(1 / 3, abs=1e-12)
    # The disordered limit: the length of a 2D Gaussian vector (Rayleigh: <x^4> = 2 <x^2>^2) gives 1/3;
    # its 2,000 quantiles, within 0.01. (A million random draws here once raised glibc's mmap
    # threshold, and a later test's RSS check read the heap it kept as a leak.)
    q = (np.arange(2000) + 0.5) / 2000
    assert murmur.binder_cumulant(np.sqrt(-2.0 * np.log(1.0 - q))) == pytest.approx(1 / 3, abs=0.01)
    with pytest.raises(murmur.Error, match="every sample is 0"):
        murmur.binder_cumulant([0.0, 0.0])
    with pytest.raises(murmur.Error, match="finite numbers"):
        murmur.binder_cumulant([1.0, float("inf")])
