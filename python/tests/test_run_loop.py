"""Flock.run through murmur's run loop: a run cut short by an exception (here from its progress
callback, as Ctrl-C raised in a progress bar's update is) leaves no sample queued in the flock,
so the next run's rows are its own states' figures (they were the states before them)."""
import pytest

import murmur


class Stop(Exception):
    pass


@pytest.mark.parametrize("backend", ["cpu", "gpu"])
def test_a_run_cut_short_leaves_the_next_runs_rows_its_own(backend):
    cut = murmur.Flock(preset="vicsek", boids=300, seed=5, backend=backend)

    def stop(done):
        if done >= 10:  # after the state at 10 was asked for with the next step
            raise Stop()

    with pytest.raises(Stop):
        cut._run(40, 10, stop)
    reached = cut.step_count
    assert reached > 0
    after = cut.run(20, every=5, progress=False)

    fresh = murmur.Flock(preset="vicsek", boids=300, seed=5, backend=backend)
    fresh.step(reached)
    want = fresh.run(20, every=5, progress=False)
    assert list(after["step"]) == list(want["step"])
    # Exact: the same backend stepping the same states measures the same bits.
    assert list(after["polarization"]) == list(want["polarization"])
    assert list(after["mean_neighbours"]) == list(want["mean_neighbours"])
