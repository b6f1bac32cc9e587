"""murmur: Reynolds' boids and the research models of collective motion, on the GPU (OpenGL
compute) or the CPU reference.

    import murmur
    flock = murmur.Flock(preset="couzin-torus", backend="gpu", seed=1)
    flock.step(500)
    xyz = flock.positions                     # numpy (N, 3) float32, in id order
    flock.positions = xyz + 1.0               # or flock.set_state(positions, velocities, species)
    series = flock.run(1000, every=10)        # pandas DataFrame: step, time, order parameters
    flock.order_parameters()["milling"]
    murmur.autocorrelation(series["polarization"], max_lag=50)   # how long the order remembers
    flock.correlations()["xi"]                # the velocity correlation length now
    with flock.record("run.h5", every=10):    # an H5MD trajectory
        flock.step(1000)
    table = murmur.sweep({"couzin.orientation_width": (0, 8, 17)}, preset="couzin-torus", steps=1000)
    many = murmur.Ensemble([{"preset": "vicsek", "seed": s} for s in range(64)])   # stepped together

murmur.presets() and murmur.params() list what a flock takes; errors raise murmur.Error (a
ValueError) with the command line's messages; a GPU flock with no OpenGL 4.5 context to run in
raises murmur.ContextError (a RuntimeError) saying how to get one.
"""
from ._murmur import ContextError, Ensemble, Error, Flock, Params, Recording, __version__, params, presets, resolved_params
from . import _series  # noqa: F401  (Flock.run)
from ._series import autocorrelation, binder_cumulant
from ._sweep import sweep
from ._vtk import VtkSeries  # and Flock.export_vtp

__all__ = ["ContextError", "Ensemble", "Error", "Flock", "Params", "Recording", "__version__", "params", "presets", "resolved_params", "sweep", "VtkSeries", "autocorrelation", "binder_cumulant"]
