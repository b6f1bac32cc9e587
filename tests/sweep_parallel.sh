#!/usr/bin/env bash
# A sweep split into shards run by GNU parallel and merged equals the same sweep run whole, byte
# for byte (the way a Slurm job array or many machines would run it). Needs GNU parallel
# (scripts/setup.sh installs it): without it this test FAILS rather than skip.
# Usage: sweep_parallel.sh path/to/murmur
set -u
murmur=$(realpath "$1")
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
command -v parallel >/dev/null || { echo "FAIL: GNU parallel not found (apt-get install parallel)"; exit 1; }
args=(--backend cpu --preset vicsek --boids 100 --set world_size=5 --steps 60 --sweep vicsek.noise=0.5:4.5:5
      --sweep-seeds 2 --sweep-burn-in 30 --sweep-every 10)
"$murmur" "${args[@]}" --sweep-out "$tmp/whole.csv" 2>/dev/null || { echo "FAIL: the whole sweep exited $?"; exit 1; }
parallel --will-cite -j 2 "$murmur" "${args[@]}" --sweep-out "$tmp/part{}.csv" --sweep-shard {}/3 ::: 0 1 2 2>/dev/null \
    || { echo "FAIL: a shard under GNU parallel failed"; exit 1; }
"$murmur" --sweep-merge "$tmp/merged.csv" "$tmp"/part*.csv || { echo "FAIL: merge exited $?"; exit 1; }
cmp "$tmp/whole.csv" "$tmp/merged.csv" || { echo "FAIL: merged shards differ from the whole sweep"; exit 1; }
echo "sweep_parallel: 3 shards under GNU parallel merged into the whole sweep ($(($(wc -l <"$tmp/whole.csv") - 2)) runs), identical"
