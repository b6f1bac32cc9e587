"""murmur: Reynolds' boids and the research models of collective motion, on the GPU (OpenGL
compute) or the CPU reference.

    import murmur
    flock = murmur.Flock(preset="couzin-torus", backend="gpu", seed=1)
    flock.step(500)
    xyz = flock.positions                     # numpy (N, 3) float32, in id order
    flock.order_parameters()["milling"]
    with flock.record("run.h5", every=10):    # an H5MD trajectory
        flock.step(1000)
    table = murmur.sweep({"couzin.orientation_width": (0, 8, 17)}, preset="couzin-torus", steps=1000)
    many = murmur.Ensemble([{"preset": "vicsek", "seed": s} for s in range(64)])   # stepped together

murmur.presets() and murmur.params() list what a flock takes; errors raise murmur.Error (a
ValueError) with the command line's messages; a GPU flock with no OpenGL 4.5 context to run in
raises murmur.ContextError (a RuntimeError) saying how to get one.
"""
from ._murmur import ContextError, Ensemble, Error, Flock, Params, Recording, params, presets
from ._sweep import sweep

__all__ = ["ContextError", "Ensemble", "Error", "Flock", "Params", "Recording", "params", "presets", "sweep"]
