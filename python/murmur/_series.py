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
    step, time (step * dt) and every order parameter. On the GPU each sample is measured on the
    GPU (no copy of the flock to the host). progress: a tqdm bar (None: on a terminal, when tqdm
    is installed). Ctrl-C stops between steps and raises KeyboardInterrupt. Without pandas the
    columns come back as a dict of lists.
    """
    steps = _whole_number(steps, "run(steps)", 0, 2**31 - 1)
    every = _whole_number(every, "run(every)", 1, 2**31 - 1)
    rows = []

    def sample():
        row = {"step": self.step_count, "time": self.step_count * self.params["dt"]}
        row.update(self.order_parameters())
        rows.append(row)

    bar = _progress_bar(steps, progress)
    try:
        sample()
        done = 0
        while done < steps:
            chunk = min(every, steps - done)
            self.step(chunk)
            done += chunk
            sample()
            if bar is not None:
                bar.update(chunk)
    finally:
        if bar is not None:
            bar.close()
    try:
        import pandas
    except ImportError:
        return {key: [row[key] for row in rows] for key in rows[0]}
    return pandas.DataFrame(rows)


Flock.run = run
