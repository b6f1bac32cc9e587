#!/usr/bin/env python3
"""Draws a murmur sweep (the CSV of --sweep-out or --sweep-merge) as a PNG: the chosen order
parameter against the swept key (one key: a curve, the mean over seeds with the spread between
seeds as error bars and every run as a dot), or over the grid of two keys (a phase diagram: the
mean over seeds in each cell). murmur --sweep-plot runs this same script (embedded at build time).

Usage: sweep_plot.py SWEEP.csv [SWEEP.csv ...] OUT.png [--of MEASURE] [--title TEXT] [--labels A,B,...]
Several one-key sweeps of the same key are drawn as curves on one plot (e.g. one per flock size).
Exit 0 written, 2 bad input (message on stderr), 3 matplotlib missing.
"""
import argparse
import csv
import math
import os
import sys
import tempfile


def fail(message, code=2):
    print("sweep_plot: " + message, file=sys.stderr)
    sys.exit(code)


def read_sweep(path, measure):
    try:
        with open(path, newline="") as f:
            rows = list(csv.reader(line for line in f if not line.startswith("#")))  # "# murmur sweep: ..."
    except OSError as e:
        fail("cannot read %s: %s" % (path, e.strerror))
    if len(rows) < 2:
        fail("%s has no runs" % path)
    header = rows[0]
    if len(header) < 3 or header[0] != "run" or "seed" not in header:
        fail("%s is not a murmur sweep (expected a header 'run,KEY...,seed,...')" % path)
    keys = header[1:header.index("seed")]
    measures = [h[:-5] for h in header if h.endswith("_mean")]
    if measure not in measures:
        fail("--of %s: not a column of %s; valid: %s" % (measure, path, ", ".join(measures)))
    if not 1 <= len(keys) <= 2:
        fail("%s sweeps %d keys; a plot draws one (a curve) or two (a phase diagram)" % (path, len(keys)))
    col = header.index(measure + "_mean")
    points = {}
    for line, row in enumerate(rows[1:], start=2):
        if len(row) != len(header):
            fail("%s line %d: %d fields, expected %d" % (path, line, len(row), len(header)))
        try:
            at = tuple(float(row[1 + k]) for k in range(len(keys)))
            value = float(row[col])
        except ValueError:
            fail("%s line %d: not a number" % (path, line))
        if not math.isfinite(value):
            fail("%s line %d: %s is %s" % (path, line, measure, row[col]))
        points.setdefault(at, []).append(value)
    return keys, points


def mean(xs):
    return sum(xs) / len(xs)


def spread(xs):
    if len(xs) < 2:
        return 0.0
    m = mean(xs)
    return math.sqrt(sum((x - m) ** 2 for x in xs) / (len(xs) - 1))


def curve(ax, points, label, colour):
    xs = sorted(points)
    ax.errorbar([x[0] for x in xs], [mean(points[x]) for x in xs], yerr=[spread(points[x]) for x in xs],
                fmt="o-", color=colour, capsize=3, label=label)
    for x in xs:
        ax.plot([x[0]] * len(points[x]), points[x], ".", color=colour, alpha=0.35)


def swept_ticks(axis, values):
    """Ticks at the swept values themselves (at most 12 of them; more are left to matplotlib),
    labelled as the CSV writes them."""
    from matplotlib.ticker import NullLocator
    if len(values) <= 12:
        axis.set_ticks(values)
        axis.set_ticklabels(["%g" % v for v in values])
        axis.set_minor_locator(NullLocator())


def log_spaced(values):
    """Positive values spanning a factor of 50 or more: drawn on a log axis."""
    return len(values) > 2 and min(values) > 0 and max(values) >= 50 * min(values)


def main():
    ap = argparse.ArgumentParser(description="Plot murmur sweep CSVs.")
    ap.add_argument("files", nargs="+", help="SWEEP.csv [SWEEP.csv ...] OUT.png")
    ap.add_argument("--of", default="polarization", help="the order parameter (a column NAME_mean)")
    ap.add_argument("--title", default="")
    ap.add_argument("--labels", default="", help="comma-separated curve labels, one per CSV")
    ap.add_argument("--direct", action="store_true",
                    help="write OUT itself, not beside it (murmur's --sweep-plot: OUT is its temporary file)")
    a = ap.parse_args()
    if len(a.files) < 2:
        fail("expected SWEEP.csv [SWEEP.csv ...] OUT.png")
    csvs, png = a.files[:-1], a.files[-1]
    if not a.direct and not png.endswith(".png"):
        fail("%s: the plot is written as PNG; name it FILE.png" % png)
    sweeps = [read_sweep(c, a.of) for c in csvs]
    labels = a.labels.split(",") if a.labels else [os.path.basename(c) for c in csvs]
    if len(labels) != len(csvs):
        fail("--labels: %d labels for %d files" % (len(labels), len(csvs)))
    if len(csvs) > 1 and any(len(k) != 1 or k != sweeps[0][0] for k, _ in sweeps):
        fail("several files are drawn as curves of one key: each must sweep %s alone" % sweeps[0][0][0])
    try:
        import matplotlib
        matplotlib.use("Agg")
        import matplotlib.pyplot as plt
    except ImportError:
        # Debian's python3-matplotlib belongs to /usr/bin/python3; another python3 first on PATH
        # (pyenv, a venv) may lack it: run this file again with Debian's.
        debian = "/usr/bin/python3"
        if os.path.exists(debian) and os.path.realpath(sys.executable) != os.path.realpath(debian) and \
                os.path.isfile(sys.argv[0]):
            os.execv(debian, [debian] + sys.argv)
        fail("matplotlib is not installed (Debian: apt-get install python3-matplotlib)", 3)

    fig, ax = plt.subplots(figsize=(6.4, 4.8), dpi=100)
    keys, points = sweeps[0]
    seeds = max(len(v) for _, pts in sweeps for v in pts.values())
    if len(keys) == 1:
        colours = ["tab:blue", "tab:orange", "tab:green", "tab:red", "tab:purple", "tab:brown"]
        for k, (_, pts) in enumerate(sweeps):
            curve(ax, pts, labels[k] if len(sweeps) > 1 else "mean over seeds (bars: s.d. between seeds)",
                  colours[k % len(colours)])
        ax.set_xlabel(keys[0])
        ax.set_ylabel(a.of)
        xs = sorted({x[0] for _, pts in sweeps for x in pts})
        if log_spaced(xs):
            ax.set_xscale("log")
        swept_ticks(ax.xaxis, xs)
        ax.grid(True, alpha=0.3)
        ax.legend(loc="best", fontsize="small")
    else:
        xs = sorted({p[0] for p in points})
        ys = sorted({p[1] for p in points})
        grid = [[mean(points[(x, y)]) if (x, y) in points else float("nan") for x in xs] for y in ys]

        def edges(v):
            if len(v) == 1:
                return [v[0] - 0.5, v[0] + 0.5]
            mids = [(v[i] + v[i + 1]) / 2 for i in range(len(v) - 1)]
            return [2 * v[0] - mids[0]] + mids + [2 * v[-1] - mids[-1]]

        mesh = ax.pcolormesh(edges(xs), edges(ys), grid, cmap="viridis", shading="flat")
        fig.colorbar(mesh, ax=ax, label=a.of + " (mean over seeds)")
        ax.set_xlabel(keys[0])
        ax.set_ylabel(keys[1])
        swept_ticks(ax.xaxis, xs)
        swept_ticks(ax.yaxis, ys)
    ax.set_title(a.title or "%s, %d run%s per point" % (", ".join(os.path.basename(c) for c in csvs), seeds,
                                                         "s" if seeds > 1 else ""), fontsize="medium")
    fig.tight_layout()
    if a.direct:  # murmur owns the file, its removal on a signal and its renaming into place
        try:
            fig.savefig(png, format="png")
        except Exception as e:
            fail("cannot write %s: %s" % (png, e), 1)
        print("wrote %s" % png)
        return
    # Written beside the target and renamed: a failed or interrupted plot never leaves half a file.
    directory = os.path.dirname(os.path.abspath(png))
    fd, tmp = tempfile.mkstemp(suffix=".png", dir=directory)
    os.close(fd)
    try:
        fig.savefig(tmp, format="png")
        os.replace(tmp, png)
    except BaseException as e:  # Ctrl-C too
        os.unlink(tmp)
        if not isinstance(e, Exception):
            raise
        fail("cannot write %s: %s" % (png, e), 1)
    print("wrote %s" % png)


if __name__ == "__main__":
    main()
