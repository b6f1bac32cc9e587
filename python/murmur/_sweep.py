"""murmur.sweep: the command line's --sweep from Python, its rows as a pandas DataFrame."""
import csv
import os
import shutil
import subprocess
import sys
import tempfile

from ._murmur import Error, resolved_params


def _murmur_binary():
    """The murmur command: $MURMUR_BIN, else in or beside this package (pip's bin/ inside it, the
    build tree's bin/, an install's PREFIX/bin from LIBDIR/python3/dist-packages), else on PATH."""
    if os.environ.get("MURMUR_BIN"):
        return os.environ["MURMUR_BIN"]
    here = os.path.dirname(os.path.abspath(__file__))
    for rel in ("bin/murmur", "../../bin/murmur", "../../../../bin/murmur", "../../../../../bin/murmur"):
        path = os.path.normpath(os.path.join(here, rel))
        if os.access(path, os.X_OK):
            return path
    found = shutil.which("murmur")
    if not found:
        raise Error("murmur.sweep runs the murmur command: it is not beside the module nor on PATH; "
                    "set MURMUR_BIN to its path")
    return found


def _axis(key, spec):
    if isinstance(spec, str):
        return f"{key}={spec}"
    try:
        lo, hi, count = spec
    except (TypeError, ValueError):
        raise Error(f"sweep {key!r}: expected (FROM, TO, COUNT) or 'FROM:TO:COUNT', not {spec!r}") from None
    return f"{key}={lo}:{hi}:{count}"


def _value(text):
    try:
        return int(text)
    except ValueError:
        try:
            return float(text)
        except ValueError:
            return text


def _run_relaying_progress(args, progress):
    """Runs the command line; its "sweep: run i/n ..." lines go to sys.stderr as they come (unless
    progress is False). Returns its exit code and everything it printed to stderr."""
    try:
        child = subprocess.Popen(args, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True)
    except OSError as e:  # MURMUR_BIN names nothing runnable
        raise Error(f"murmur.sweep runs the murmur command {args[0]!r}: {e.strerror}; "
                    "set MURMUR_BIN to its path (or unset it to use the one beside the module)") from None
    said = []
    try:
        for line in child.stderr:
            said.append(line.rstrip("\n"))
            if progress is not False and line.startswith("sweep: run "):
                sys.stderr.write("murmur." + line)
                sys.stderr.flush()
        return child.wait(), said
    except BaseException:  # Ctrl-C: the command line ends its sweep and writes nothing
        child.terminate()
        child.wait()
        raise


def sweep(axes, *, preset="", steps=1000, seeds=1, burn_in=0, every=10, backend="gpu", boids=None, seed=None,
          params=None, carry=False, batch=None, as_dataframe=True, progress=None):
    """Runs a sweep (murmur --sweep) and returns its rows: one per run, the swept values and seed,
    each order parameter's mean and standard deviation over the run's samples.

    axes: {key: (FROM, TO, COUNT)} (or 'FROM:TO:COUNT'), one to three numeric keys: a grid.
    steps, seeds, burn_in, every, carry, batch: as --steps, --sweep-seeds, --sweep-burn-in,
    --sweep-every, --sweep-carry, --sweep-batch; params: {key: value} as --set.
    Returns a pandas DataFrame where pandas is installed (as_dataframe=False, or without pandas:
    a list of dicts). Raises murmur.Error with the command line's message on bad input.
    Each run's line ("murmur.sweep: run 3/17 (...): polarization ...; 12 s elapsed, about 58 s
    left") is written to sys.stderr as it ends; progress=False keeps them quiet. Every row has
    boids and world_size columns (the swept value, or the base flock's).
    """
    if not isinstance(axes, dict) or not axes:
        raise Error("sweep: give the keys to sweep as a dict, {key: (FROM, TO, COUNT)}, at least one")
    if "boids" in axes and "world_size" not in axes and "world_size" not in (params or {}):
        raise Error("sweep 'boids': the sweep keeps the world, so the density would change with N (unlike "
                    "Flock(boids=N), which resizes the world). Say which you mean: params={'world_size': L} to sweep N "
                    "in a fixed world, or one sweep per N with boids=N (that keeps the preset's density)")
    args = [_murmur_binary(), "--headless", "--backend", backend, "--steps", str(steps),
            "--sweep-seeds", str(seeds), "--sweep-burn-in", str(burn_in), "--sweep-every", str(every)]
    for key, spec in axes.items():
        args += ["--sweep", _axis(key, spec)]
    if preset:
        args += ["--preset", preset]
    if boids is not None:
        args += ["--boids", str(boids)]
    if seed is not None:
        args += ["--seed", str(seed)]
    for key, value in (params or {}).items():
        if isinstance(value, bool):
            value = "on" if value else "off"
        args += ["--set", f"{key}={value}"]
    if carry:
        args.append("--sweep-carry")
    if batch is not None:
        args += ["--sweep-batch", str(batch)]
    with tempfile.TemporaryDirectory(prefix="murmur-sweep-") as tmp:
        out = os.path.join(tmp, "sweep.csv")
        returncode, said = _run_relaying_progress(args + ["--sweep-out", out], progress)
        if returncode != 0:
            lines = [l.removeprefix("murmur: ").removeprefix("error: ") for l in said
                     if l.strip() and not l.startswith("Run with --help")]
            raise Error("\n".join(lines[-3:]) or f"murmur exited with {returncode}")
        with open(out, newline="") as f:
            rows = [{k: _value(v) for k, v in row.items()} for row in csv.DictReader(l for l in f if not l.startswith("#"))]
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
