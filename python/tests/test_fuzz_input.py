"""Property tests (hypothesis, Debian's python3-hypothesis) over the Python entry points' argument
conversion and the trajectory writer's failures: whatever value is given, the answer is a result
or murmur.Error, never another exception, a crash or a non-finite flock; whatever the disk holds,
a recording is a whole file with every frame promised, or murmur.Error and no file. Run by
ctest: PYTHONPATH holds the built module."""
import os
import subprocess

import numpy as np
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

import murmur

# Values of every kind a caller might pass: Python's numbers at their edges, numpy's scalars and
# arrays of several dtypes, text, None, containers.
numbers = st.one_of(st.integers(min_value=-(2**70), max_value=2**70), st.floats(allow_nan=True, allow_infinity=True),
                    st.booleans())
numpy_values = st.one_of(
    numbers.filter(lambda v: not isinstance(v, bool) and abs(v) < 2**62 if isinstance(v, int) else True).map(np.float64),
    st.integers(min_value=-(2**31), max_value=2**31 - 1).map(np.int32),
    st.floats(width=32, allow_nan=True).map(np.float32),
    numbers.filter(lambda v: not isinstance(v, int) or abs(v) < 2**62).map(np.array),
    st.lists(st.floats(-10, 10), min_size=0, max_size=3).map(np.array))
values = st.one_of(numbers, numpy_values, st.text(max_size=8), st.none(), st.lists(st.integers(0, 3), max_size=2))

KEYS = ["separation.weight", "world_size", "dt", "max_speed", "bounds", "fov_deg", "vicsek.noise", "speed_limit"]
# The same examples on every run (CI stays repeatable; a new seed is one edit away), no database.
FAST = settings(max_examples=150, deadline=None, derandomize=True, database=None, suppress_health_check=[HealthCheck.too_slow])


def finite_flock(f):
    assert np.isfinite(f.positions).all() and np.isfinite(f.velocities).all()


def capped(v, most):
    """A whole number above `most` (of any type: int, numpy integer, 0-d array) becomes `most`: the
    tests are about conversion, not size."""
    import operator
    try:
        n = operator.index(v.item() if isinstance(v, np.ndarray) and v.ndim == 0 else v)
    except TypeError:
        return v
    return most if n > most and not isinstance(v, bool) else v


@FAST
@given(boids=values, seed=values)
def test_flock_counts_are_taken_or_refused(boids, seed):
    try:
        f = murmur.Flock(backend="cpu", boids=capped(boids, 500), seed=seed)
    except murmur.Error:
        return
    assert boids is None or f.size <= 500
    finite_flock(f)


@FAST
@given(key=st.sampled_from(KEYS), value=values)
def test_a_setting_is_applied_or_refused_and_the_flock_stays_finite(key, value):
    f = murmur.Flock(backend="cpu", boids=40, seed=1)
    try:
        f.params[key] = value
    except murmur.Error:
        return
    try:
        f.step(3)
    except murmur.Error as e:  # a setting that drives the flock past float's range: refused, flock kept
        assert "non-finite" in str(e)
    finite_flock(f)


@FAST
@given(n=values, every=values, deflate=values)
def test_step_and_record_arguments_are_taken_or_refused(tmp_path_factory, n, every, deflate):
    f = murmur.Flock(backend="cpu", boids=20, seed=1)
    path = str(tmp_path_factory.mktemp("rec") / "r.h5")
    try:
        rec = f.record(path, every=every, deflate=deflate)
    except murmur.Error:
        rec = None
    try:
        f.step(capped(n, 50))
    except murmur.Error:
        pass
    if rec is not None:
        rec.close()
        assert os.path.exists(path)
    finite_flock(f)


@pytest.fixture(scope="module")
def small_disk(tmp_path_factory):
    where = tmp_path_factory.mktemp("disk")
    if os.geteuid() != 0 or subprocess.run(["mount", "-t", "tmpfs", "-o", "size=256k", "tmpfs", str(where)],
                                           capture_output=True).returncode != 0:
        pytest.skip("mounting a small tmpfs needs root")
    yield where
    subprocess.run(["umount", str(where)], check=False)


@settings(max_examples=40, deadline=None, derandomize=True, database=None,
          suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(boids=st.integers(1, 3000), steps=st.integers(0, 60), every=st.integers(1, 7), deflate=st.integers(0, 9),
       filler=st.integers(0, 250))
def test_a_recording_on_a_small_disk_is_whole_or_absent(small_disk, boids, steps, every, deflate, filler):
    for name in os.listdir(small_disk):
        os.remove(small_disk / name)
    with open(small_disk / "filler", "wb") as fill:  # the disk's free room, from 256 KiB down to about 6
        fill.write(b"\0" * filler * 1000)
    path = small_disk / "t.h5"
    f = murmur.Flock(backend="cpu", boids=boids, seed=3)
    try:
        with f.record(str(path), every=every, deflate=deflate):
            f.step(steps)
    except murmur.Error as e:
        assert "cannot write" in str(e), e
        assert not f.recording
        assert sorted(os.listdir(small_disk)) == ["filler"], "a failed recording left a file"
        return
    import h5py
    with h5py.File(path, "r") as h:
        frames = h["particles/flock/position/value"]
        assert frames.shape[0] == 1 + steps // every
        assert np.isfinite(frames[-1]).all()
        if steps % every == 0:  # the last frame is the state now
            np.testing.assert_array_equal(frames[-1], f.positions[:, :frames.shape[2]])
