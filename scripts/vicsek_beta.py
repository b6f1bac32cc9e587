#!/usr/bin/python3
"""Vicsek et al. 1995's critical exponent from murmur's noise sweeps (docs/research.md).

Reads one --sweep CSV per system size (a vicsek.noise sweep at density 4, several seeds), and
for each fits the order parameter below the transition as v_a = A (eta_c - eta)^beta by least
squares (scipy's curve_fit), over the noises where the mean v_a lies above the finite-size tail
(3 / sqrt(N)). A 95 % interval for beta and eta_c comes from refitting on the seeds resampled with
replacement (1,000 times). Prints a table and draws v_a against eta for every size and, for the
largest, ln v_a against ln((eta_c - eta) / eta_c) with the fitted slope beside the paper's 0.45.

Usage: vicsek_beta.py OUT.png N=FILE.csv [N=FILE.csv ...]
Needs Debian's python3-numpy, python3-scipy and python3-matplotlib (/usr/bin/python3).
"""
import csv
import sys

import numpy as np
from scipy.optimize import curve_fit

import matplotlib

matplotlib.use("Agg")
import matplotlib.pyplot as plt  # noqa: E402

PAPER_BETA = 0.45


def read_sweep(path):
    """noise -> list of per-seed polarization means."""
    runs = {}
    with open(path) as f:
        rows = csv.reader(line for line in f if not line.startswith("#"))
        header = next(rows)
        at_noise, at_pol = header.index("vicsek.noise"), header.index("polarization_mean")
        for row in rows:
            runs.setdefault(float(row[at_noise]), []).append(float(row[at_pol]))
    noise = np.array(sorted(runs))
    return noise, np.array([runs[e] for e in noise])  # (noises,), (noises, seeds)


def power_law(eta, a, eta_c, beta):
    return a * np.clip(eta_c - eta, 1e-9, None) ** beta


def fit(noise, va, n):
    keep = (va > 3.0 / np.sqrt(n)) & (va < 0.95) & (noise > 0.0)
    x, y = noise[keep], va[keep]
    if len(x) < 4:
        raise ValueError("fewer than 4 noises between the ordered plateau and the finite-size tail")
    start = (1.0, x.max() + 0.3, 0.5)
    (a, eta_c, beta), _ = curve_fit(power_law, x, y, p0=start, bounds=([0, x.max(), 0.05], [10, 2 * np.pi, 2]),
                                    maxfev=20000)
    return a, eta_c, beta, keep


def bootstrap(noise, per_seed, n, rounds=1000, seed=1):
    rng = np.random.default_rng(seed)
    seeds = per_seed.shape[1]
    betas, etas = [], []
    for _ in range(rounds):
        pick = rng.integers(0, seeds, seeds)
        try:
            _, eta_c, beta, _ = fit(noise, per_seed[:, pick].mean(axis=1), n)
        except (ValueError, RuntimeError):
            continue
        betas.append(beta)
        etas.append(eta_c)
    return np.percentile(betas, [2.5, 97.5]), np.percentile(etas, [2.5, 97.5]), len(betas)


def main():
    if len(sys.argv) < 3:
        sys.exit(__doc__)
    out = sys.argv[1]
    sizes = []
    for arg in sys.argv[2:]:
        n, path = arg.split("=", 1)
        noise, per_seed = read_sweep(path)
        sizes.append((int(n), noise, per_seed))
    sizes.sort()
    fig, (left, right) = plt.subplots(1, 2, figsize=(11, 4.5))
    print("N      seeds  eta_c  (95 %)         beta   (95 %)         points fitted")
    for n, noise, per_seed in sizes:
        va = per_seed.mean(axis=1)
        a, eta_c, beta, keep = fit(noise, va, n)
        beta_ci, eta_ci, good = bootstrap(noise, per_seed, n)
        print(f"{n:<6} {per_seed.shape[1]:>5}  {eta_c:.3f} ({eta_ci[0]:.3f}-{eta_ci[1]:.3f})  "
              f"{beta:.3f} ({beta_ci[0]:.3f}-{beta_ci[1]:.3f})  {keep.sum()} (bootstrap fits: {good})")
        left.errorbar(noise, va, yerr=per_seed.std(axis=1, ddof=1) if per_seed.shape[1] > 1 else None, marker="o",
                      ms=3, capsize=2, label=f"N = {n}")
        if n == sizes[-1][0]:
            x = (eta_c - noise[keep]) / eta_c
            right.loglog(x, va[keep], "o", label=f"N = {n}: fit beta = {beta:.2f} ({beta_ci[0]:.2f}-{beta_ci[1]:.2f})")
            xs = np.geomspace(x.min(), x.max(), 50)
            right.loglog(xs, power_law(eta_c - xs * eta_c, a, eta_c, beta), "-", label="fit")
            right.loglog(xs, va[keep][np.argmax(x)] * (xs / x.max()) ** PAPER_BETA, "--",
                         label=f"slope {PAPER_BETA} (Vicsek et al. 1995)")
    left.set_xlabel("noise eta")
    left.set_ylabel("v_a (polarization)")
    left.set_title("Order against noise, density 4")
    left.legend()
    right.set_xlabel("(eta_c - eta) / eta_c")
    right.set_ylabel("v_a")
    right.set_title("Below the transition, largest N")
    right.legend(fontsize=8)
    fig.tight_layout()
    fig.savefig(out, dpi=110)
    print("wrote", out)


if __name__ == "__main__":
    main()
