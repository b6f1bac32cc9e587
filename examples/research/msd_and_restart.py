"""The worked example of docs/research.md: a Vicsek flock's mean squared displacement, ordered and
disordered, from an unwrapped H5MD recording read by MDAnalysis; its correlation length against
its size; then a restart that continues the run to the bit, and one that would change a
parameter, refused.

PYTHONPATH=build/python /usr/bin/python3 examples/research/msd_and_restart.py [FOLDER]
(FOLDER: where its files go, default the current folder)."""
import os
import sys

import numpy as np
from MDAnalysis import Universe
from MDAnalysis.analysis.msd import EinsteinMSD

import murmur

FOLDER = sys.argv[1] if len(sys.argv) > 1 else "."
V0 = 0.03  # the vicsek preset's speed (units a step; dt 1)


def vicsek(noise, side=10):
    """The vicsek preset at density 4 in a side x side square (400 boids at 10), on the CPU reference."""
    return murmur.Flock(preset="vicsek", backend="cpu", seed=1, boids=4 * side * side,
                        params={"vicsek.noise": noise, "world_size": side})


def msd_of(noise, every=20):
    """The flock settled for 3,000 steps, then 2,000 recorded unwrapped (a 2D flock as 3D for
    MDAnalysis): lag times, MSD, its exponent over lags of 100 to 1,000 steps, and the polarization."""
    flock = vicsek(noise)
    flock.step(3000)
    path = os.path.join(FOLDER, f"vicsek_{noise}.h5")
    with flock.record(path, every=every, unwrapped=True, as_3d=True):
        flock.step(2000)
    universe = Universe.empty(400, trajectory=False)
    universe.load_new(path, format="H5MD", convert_units=False, dt=every * flock.params["dt"])
    msd = EinsteinMSD(universe, select="all", msd_type="xy", fft=False).run()
    lags = np.arange(msd.n_frames) * universe.trajectory.dt  # MDAnalysis' recipe for the lag times
    tau, values = lags[1:], msd.results.timeseries[1:]
    exponent = np.polyfit(np.log(tau[4:50]), np.log(values[4:50]), 1)[0]
    return tau, values, exponent, flock.order_parameters()["polarization"]


def xi_against_size(noise=0.5, sides=(5, 10, 20)):
    """For each side L (density 4: 100, 400, 1,600 boids): settled 1,000 steps, then the velocity
    correlation length xi (C's first zero over half the box, in bins 0.25 wide) at 5 states 100
    steps apart; (L, mean xi, xi / L) each."""
    rows = []
    for side in sides:
        flock = vicsek(noise, side)
        flock.step(1000)
        xis = []
        for _ in range(5):
            flock.step(100)
            xis.append(flock.correlations(bins=2 * side)["xi"])
        rows.append((side, float(np.mean(xis)), float(np.mean(xis)) / side))
    return rows


def restart():
    """1,000 steps, exported, loaded and stepped 1,000 more, against 2,000 straight: equal to the bit?"""
    straight = vicsek(2.0)
    straight.step(1000)
    path = os.path.join(FOLDER, "mid.csv")
    straight.export(path)
    resumed = murmur.Flock.load(path, backend="cpu")
    straight.step(1000)
    resumed.step(1000)
    same = np.array_equal(straight.positions, resumed.positions) and np.array_equal(straight.images, resumed.images)
    try:
        murmur.Flock.load(path, backend="cpu", params={"vicsek.noise": 1.0})
        refused = "not refused"
    except murmur.Error as e:
        refused = str(e)
    return same, refused


if __name__ == "__main__":
    for noise in (0.5, 5.0):
        tau, values, exponent, polarization = msd_of(noise)
        print(f"noise {noise}: polarization {polarization:.3f}; MSD at lag {tau[-1]:.0f}: {values[-1]:.4g} "
              f"= {values[-1] / (V0 * tau[-1]) ** 2:.3f} (v0 lag)^2; exponent {exponent:.2f}")
    for side, xi, ratio in xi_against_size():
        print(f"L {side}: xi {xi:.3f}, xi / L {ratio:.3f}")
    same, refused = restart()
    print(f"restart: 1,000 + 1,000 steps equal 2,000 to the bit: {same}")
    print(f"a load that changes the noise: {refused}")
