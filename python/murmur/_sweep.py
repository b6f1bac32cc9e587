"""murmur.sweep: a parameter sweep run in this process by the engine that runs murmur --sweep (the same
checks, runs and CSV bytes), its rows as a pandas DataFrame."""
import csv
import os
import sys
import tempfile

from ._murmur import Error, _run_sweep, resolved_params


def _axis(key, spec):
    """A sweep axis as --sweep reads it: 'FROM:TO:COUNT[:log]' or 'V1,V2,...' as given; a tuple
    (FROM, TO, COUNT) or (FROM, TO, COUNT, 'log'); a list [V1, V2, ...] of the values themselves."""
    if isinstance(spec, str):
        return f"{key}={spec}"
    if isinstance(spec, list):
        if not spec:
            raise Error(f"sweep {key!r}: an empty list of values")
        return f"{key}=" + ",".join(repr(float(v)) if isinstance(v, float) else str(v) for v in spec)
    if isinstance(spec, tuple) and len(spec) == 4 and spec[3] == "log":
        return f"{key}={spec[0]}:{spec[1]}:{spec[2]}:log"
    try:
        lo, hi, count = spec
    except (TypeError, ValueError):
        raise Error(f"sweep {key!r}: expected (FROM, TO, COUNT), (FROM, TO, COUNT, 'log'), a list of values, or "
                    f"'FROM:TO:COUNT', not {spec!r}") from None
    return f"{key}={lo}:{hi}:{count}"


def _value(text):
    try:
        return int(text)
    except ValueError:
        try:
            return float(text)
        except ValueError:
            return text


def _relay(line):
    sys.stderr.write("murmur." + line)
    sys.stderr.flush()


def _read_rows(path):
    with open(path, newline="") as f:
        return [{k: _value(v) for k, v in row.items()} for row in csv.DictReader(l for l in f if not l.startswith("#"))]


def sweep(axes, *, preset="", steps=1000, seeds=1, burn_in=0, every=10, backend="gpu", boids=None, seed=None,
          params=None, carry=False, batch=None, xi=None, as_dataframe=True, progress=None, out=None):
    """Runs a sweep (as murmur --sweep, in this process) and returns its rows: one per run, the swept
    values and seed, each order parameter's mean and standard deviation over the run's samples.

    axes: {key: (FROM, TO, COUNT)} (or 'FROM:TO:COUNT'), (FROM, TO, COUNT, 'log') evenly in log, or
    [V1, V2, ...] those values in that order ('V1,V2,...'); one to three numeric keys: a grid.
    steps, seeds, burn_in, every, carry, batch: as --steps, --sweep-seeds, --sweep-burn-in,
    --sweep-every, --sweep-carry, --sweep-batch; params: {key: value} as --set.
    xi: as --sweep-xi R_MAX, the velocity correlation length at each sample over the pairs within
    R_MAX (0: half the world): columns xi_mean, xi_std (over the samples where C fell to 0) and
    xi_found. Every row also has polarization_binder, the Binder cumulant of its polarization.
    out: a path to keep the sweep's CSV at, byte for byte what murmur --sweep-out writes for the
    same sweep (None: a temporary file, removed).
    Returns a pandas DataFrame where pandas is installed (as_dataframe=False, or without pandas:
    a list of dicts). Raises murmur.Error with the command line's message on bad input.
    Each run's line ("murmur.sweep: run 3/17 (...): polarization ...; 12 s elapsed, about 58 s
    left") is written to sys.stderr as it ends; progress=False keeps them quiet. Every row has
    boids and world_size columns (the swept value, or the base flock's). Ctrl-C stops the sweep
    between pieces of steps (KeyboardInterrupt; nothing written).
    """
    if not isinstance(axes, dict) or not axes:
        raise Error("sweep: give the keys to sweep as a dict, {key: (FROM, TO, COUNT)}, at least one")
    if "boids" in axes and "world_size" not in axes and "world_size" not in (params or {}):
        raise Error("sweep 'boids': the sweep keeps the world, so the density would change with N (unlike "
                    "Flock(boids=N), which resizes the world). Say which you mean: params={'world_size': L} to sweep N "
                    "in a fixed world, or one sweep per N with boids=N (that keeps the preset's density)")
    texts = [_axis(key, spec) for key, spec in axes.items()]
    relay = None if progress is False else _relay

    def run(path):
        _run_sweep(texts, os.fspath(path), preset=preset, backend=backend, seed=seed, boids=boids, params=params,
                   steps=steps, seeds=seeds, burn_in=burn_in, every=every, carry=bool(carry), batch=batch, xi=xi,
                   progress=relay)
        return _read_rows(path)

    if out is not None:
        rows = run(out)
    else:
        with tempfile.TemporaryDirectory(prefix="murmur-sweep-") as tmp:
            rows = run(os.path.join(tmp, "sweep.csv"))
    # Each run's count and world, where they are not swept: the base flock's (boids= resizes it).
    base = resolved_params(preset=preset, seed=seed, boids=boids, params=params)
    for row in rows:
        for key in ("boids", "world_size"):
            row.setdefault(key, base[key])
    if as_dataframe:
        try:
            import pandas
        except ImportError:
            return rows
        return pandas.DataFrame(rows)
    return rows
