"""Flock.run: order parameters as a time series while the flock steps."""
import sys
import warnings

from ._murmur import Error, Flock, _step_resolution_warning, _whole_number


def _warn_if_the_step_is_coarse(order, dt):
    """A RuntimeWarning when a boid moves farther in a step than the mean nearest-neighbour
    distance (the order parameters measured at that dt may be artefacts), with the numbers."""
    text = _step_resolution_warning({k: float(v) for k, v in order.items() if k in ("boids", "mean_speed", "nn_mean")}, dt)
    if text:
        warnings.warn("murmur: " + text, RuntimeWarning, stacklevel=3)


_measured = Flock.order_parameters


def order_parameters(self):
    order = _measured(self)
    _warn_if_the_step_is_coarse(order, self.params["dt"])
    return order


order_parameters.__doc__ = _measured.__doc__ + (" Warns (RuntimeWarning) when a boid moves farther in a step than the "
                                                 "mean nearest-neighbour distance.")
Flock.order_parameters = order_parameters


def _progress_bar(total, progress):
    """tqdm's bar (Debian: python3-tqdm) when asked for, or by default on a terminal; else None."""
    if progress is False or (progress is None and not sys.stderr.isatty()):
        return None
    try:
        from tqdm import tqdm
    except ImportError:
        if progress:
            raise Error("run(progress=True) draws its bar with tqdm: install it (Debian: python3-tqdm)") from None
        return None
    return tqdm(total=total, unit="step", desc="murmur")


# run()'s columns, in this order (order_parameters()' own order), then each of the four largest
# groups' columns, group1 first; counts come back as ints.
_COLUMNS = ("step", "time", "polarization", "group_polarization", "milling", "groups", "largest_group_share",
            "grouped_share", "nn_mean", "nn_median", "mean_neighbours", "mean_speed", "boids")
_GROUP_COLUMNS = ("boids", "first_id", "polarization", "milling", "x", "y", "z")


def _is_count(key):
    return key in ("step", "groups", "boids") or key.endswith("_boids") or key.endswith("_first_id")


def _ordered(columns):
    """The columns in _COLUMNS' order, then group1_..group4_ in _GROUP_COLUMNS' order, then any
    other (none today) by name; counts as ints."""
    groups = [f"group{k}_{name}" for k in range(1, 5) for name in _GROUP_COLUMNS]
    known = [key for key in _COLUMNS + tuple(groups) if key in columns]
    order = known + sorted(key for key in columns if key not in known)
    return {key: [int(x) for x in columns[key]] if _is_count(key) else columns[key] for key in order}


def run(self, steps, every=1, progress=None):
    """run(steps, every=1, progress=None) -> pandas.DataFrame

    Steps the flock `steps` times and samples its order parameters (order_parameters()) now and
    after every `every` steps, the last step always included: one row a sample, with columns
    step, time (step * dt) and every order parameter, in order_parameters()' order (polarization,
    group_polarization, milling, groups, largest_group_share, grouped_share, nn_mean, nn_median,
    mean_neighbours, mean_speed, boids, then group1_boids .. group4_z); step, groups, boids and
    each group's boids and first_id are ints. The stepping and sampling are murmur's run
    loop: each sample is measured with the step after it (on the GPU in that step's steer pass, no
    copy of the flock to the host). progress: a tqdm bar (None: on a terminal, when tqdm
    is installed). Ctrl-C stops between steps and raises KeyboardInterrupt. Without pandas the
    columns come back as a dict of lists.
    """
    steps = _whole_number(steps, "run(steps)", 0, 2**31 - 1)
    every = _whole_number(every, "run(every)", 1, 2**31 - 1)
    bar = _progress_bar(steps, progress)
    told = [0]

    def heard(done):
        bar.update(done - told[0])
        told[0] = done

    try:
        columns = self._run(steps, every, heard if bar is not None else None)
        if bar is not None:
            heard(steps)
    finally:
        if bar is not None:
            bar.close()
    columns = _ordered(columns)
    if columns["step"]:
        _warn_if_the_step_is_coarse({key: values[-1] for key, values in columns.items()}, self.params["dt"])
    try:
        import pandas
    except ImportError:
        return columns
    return pandas.DataFrame(columns)


Flock.run = run


def autocorrelation(series, max_lag=None):
    """The normalised time autocorrelation of a series (a run() column, say), lag 0 .. max_lag (in
    samples; default the series' length less one): A(k) = mean over t of (x_t - m)(x_{t+k} - m)
    divided by the variance, m and the variance over the whole series; A(0) = 1. A constant series
    has none (murmur.Error), as have fewer than two values or a value that is not finite."""
    import numpy as np
    x = np.asarray(series, dtype=np.float64)
    if x.ndim != 1 or x.size < 2 or not np.all(np.isfinite(x)):
        raise Error(f"autocorrelation: a series of two or more finite numbers expected, not {x.size} of shape {x.shape}")
    top = x.size - 1
    if max_lag is None:
        max_lag = top
    max_lag = _whole_number(max_lag, "autocorrelation(max_lag)", 0, top)
    d = x - x.mean()
    var = float(np.mean(d * d))
    if var == 0.0:
        raise Error("autocorrelation: the series is constant (its variance is 0): it has no autocorrelation")
    return np.array([np.mean(d[: x.size - k] * d[k:]) / var for k in range(max_lag + 1)])


def binder_cumulant(series):
    """The Binder cumulant of an order parameter's samples (a run() column, or one value per run
    of a sweep): U = 1 - <x^4> / (3 <x^2>^2), 2/3 deep in the ordered phase (x steady), 1/3 for a
    disordered 2D flock whose polarization vector is Gaussian (4/9 in 3D); its curves for several N
    cross at the transition (Chate et al. 2008). No finite number, or all zero, is murmur.Error."""
    import numpy as np
    x = np.asarray(series, dtype=np.float64)
    if x.ndim != 1 or x.size < 1 or not np.all(np.isfinite(x)):
        raise Error(f"binder_cumulant: a series of finite numbers expected, not {x.size} of shape {x.shape}")
    m2 = float(np.mean(x ** 2))
    if m2 == 0.0:
        raise Error("binder_cumulant: every sample is 0: <x^2> is 0 and the cumulant has no value")
    return 1.0 - float(np.mean(x ** 4)) / (3.0 * m2 * m2)
