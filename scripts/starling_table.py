#!/usr/bin/python3
"""The murmuration preset against the starling data (docs/research.md): flocks of 500 to 4,000
birds, two seeds each, 60 s of flight; each run's measures averaged over samples every 5 s after
the first 20 s, then the mean and standard deviation over the runs, as a Markdown table.

    PYTHONPATH=build-test/python /usr/bin/python3 scripts/starling_table.py [--backend gpu|cpu]
"""
import argparse
import statistics

import murmur

SIZES = (500, 1000, 2000, 3000, 4000)
SEEDS = (1, 2)
STEPS_PER_SAMPLE = 250  # 5 s at dt 0.02 s
FIRST_SAMPLE = 1000     # 20 s
LAST_SAMPLE = 3000      # 60 s

# (row name, starling data, how to read a run's samples)
ROWS = (
    ("speed (m/s)", "6.9 – 15.2, mean about 10.6", lambda b, o: o["mean_speed"]),
    ("polarization", "0.96 ± 0.03", lambda b, o: o["polarization"]),
    ("I2 / I1", "2.8 ± 0.4", lambda b, o: b["proportion_middle"]),
    ("I3 / I1", "5.6 ± 1.0", lambda b, o: b["proportion_long"]),
    ("thin axis vs gravity, \\|cos\\|", "0.93 ± 0.04", lambda b, o: b["thin_vs_up"]),
    ("velocity vs thin axis, \\|cos\\|", "0.19 ± 0.08", lambda b, o: b["heading_vs_thin"]),
    ("velocity vs long axis, \\|cos\\|", "varies through turns", lambda b, o: b["heading_vs_long"]),
    ("r1 (m)", "0.68 – 1.51, mean about 1.05", lambda b, o: b["r1"]),
    ("r1 border / interior", "about 0.65 – 0.82", lambda b, o: b["r1_border"] / b["r1_interior"]),
    ("neighbours within R", "about 6.5 – 7", lambda b, o: o["mean_neighbours"]),
    ("largest group's share", "one flock", lambda b, o: o["largest_group_share"]),
)


def run(boids, seed, backend):
    flock = murmur.Flock(preset="murmuration", backend=backend, seed=seed, boids=boids)
    flock.step(FIRST_SAMPLE)
    samples = []
    while True:
        body, order = flock.body_shape(), flock.order_parameters()
        samples.append([read(body, order) for _, _, read in ROWS])
        if flock.step_count >= LAST_SAMPLE:
            return [statistics.fmean(column) for column in zip(*samples)]
        flock.step(STEPS_PER_SAMPLE)


def main():
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--backend", default="gpu", choices=("gpu", "cpu"))
    args = parser.parse_args()
    runs = []
    for boids in SIZES:
        for seed in SEEDS:
            runs.append(run(boids, seed, args.backend))
            print(f"# {boids} birds, seed {seed}: " + ", ".join(f"{v:.3g}" for v in runs[-1]), flush=True)
    print("\n| quantity | starlings | `murmuration`, mean ± sd of 10 runs |\n|---|---|---|")
    for k, (name, data, _) in enumerate(ROWS):
        values = [r[k] for r in runs]
        print(f"| {name} | {data} | {statistics.fmean(values):.3g} ± {statistics.stdev(values):.2g} |")


if __name__ == "__main__":
    main()
