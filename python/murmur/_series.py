"""Flock.run: order parameters as a time series while the flock steps."""
import sys

from ._murmur import Error, Flock, _whole_number


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


def run(self, steps, every=1, progress=None):
    """run(steps, every=1, progress=None) -> pandas.DataFrame

    Steps the flock `steps` times and samples its order parameters (order_parameters()) now and
    after every `every` steps, the last step always included: one row a sample, with columns
    step, time (step * dt) and every order parameter. The stepping and sampling are murmur's run
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
    order = ["step", "time"] + [key for key in columns if key not in ("step", "time")]
    columns = {key: columns[key] for key in order}
    columns["step"] = [int(x) for x in columns["step"]]
    try:
        import pandas
    except ImportError:
        return columns
    return pandas.DataFrame(columns)


Flock.run = run
