#!/usr/bin/env bash
# The documented Slurm job array (scripts/slurm_sweep.sh, shown in docs/research.md) run as
# written on a one-node Slurm 22.05 started on this machine (scripts/slurm_local.sh), with the
# GPU backend on Mesa's llvmpipe (no GPU here):
#   1. the 4-task array: its merged parts are byte for byte the same sweep run whole;
#   2. a task cancelled (scancel) before it ran: the merge refuses, naming the missing runs; that
#      one task submitted again alone, the merge gives the whole sweep's bytes.
# Stops the daemons and removes every file it made, on failure too. Needs root and the packages of
# scripts/setup.sh --full. Usage: tests/slurm_array.sh [path/to/murmur]
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
murmur=$(realpath "${1:-$root/build-test/bin/murmur}")
work=$(mktemp -d)
cleanup() { bash "$root/scripts/slurm_local.sh" stop "$work/slurm" || true; rm -rf "$work"; }
trap cleanup EXIT
eval "$(bash "$root/scripts/slurm_local.sh" start "$work/slurm")"
export MURMUR="$murmur"
script="$root/scripts/slurm_sweep.sh"
fail() { echo "FAIL: $*" >&2; exit 1; }

mkdir "$work/whole" "$work/array" "$work/retry"
(cd "$work/whole" && SLURM_ARRAY_TASK_ID=0 bash -c "sed 's|^SHARDS=4|SHARDS=1|' '$script' | bash" >/dev/null 2>&1) ||
  fail "the script's sweep, run whole outside Slurm, failed"
whole="$work/whole/part0.csv"

# 1. The array as written.
(cd "$work/array" && timeout 150 sbatch --wait --quiet "$script") || fail "sbatch --wait: the array failed or timed out"
parts=$(ls "$work/array"/part*.csv | wc -l)
[ "$parts" = 4 ] || fail "the array wrote $parts parts, not 4"
"$murmur" --sweep-merge "$work/array/merged.csv" "$work/array"/part*.csv >/dev/null
cmp -s "$work/array/merged.csv" "$whole" || fail "the merged array is not the whole sweep's bytes"
echo "array: 4 tasks, merged CSV identical to the sweep run whole"

# 2. Task 2 cancelled before it ran, then run again alone.
cd "$work/retry"
job=$(sbatch --parsable --hold "$script")
scancel "${job}_2"
scontrol release "$job"
for _ in $(seq 300); do [ -z "$(squeue -h -j "$job" 2>/dev/null)" ] && break; sleep 0.5; done
[ -z "$(squeue -h -j "$job" 2>/dev/null)" ] || fail "the array's tasks did not finish in 150 s"
[ ! -e part2.csv ] || fail "the cancelled task wrote its part"
if "$murmur" --sweep-merge merged.csv part*.csv 2>merge.err; then fail "the merge accepted a sweep with a shard missing"; fi
grep -q "runs are in no part: run 2, 6, 10, 14" merge.err || fail "the merge did not name the missing runs: $(cat merge.err)"
timeout 150 sbatch --wait --quiet --array=2 "$script" || fail "task 2 alone failed"
"$murmur" --sweep-merge merged.csv part*.csv >/dev/null
cmp -s merged.csv "$whole" || fail "after task 2 ran again, the merge is not the whole sweep's bytes"
echo "recovery: the merge named runs 2, 6, 10, 14 missing; task 2 again alone, merged CSV identical"
