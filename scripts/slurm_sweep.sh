#!/bin/bash
# A murmur sweep as a Slurm job array: each array task runs one shard of the same sweep and
# writes part<task>.csv; `murmur --sweep-merge sweep.csv part*.csv` joins them when all are done.
# Submit from the folder the parts should land in: sbatch scripts/slurm_sweep.sh
# SHARDS must equal the array's size (0-3: 4): a task's shard is its index of SHARDS, so one failed
# task can be run again alone (sbatch --array=2 scripts/slurm_sweep.sh) and the parts merged.
# On a GPU cluster, turn the --gpus line into a directive (one #) so that each task gets a GPU;
# without one murmur runs on Mesa's llvmpipe or, with MURMUR_BACKEND=cpu, on the CPU reference.
# MURMUR names the binary (default: murmur on PATH).
#SBATCH --job-name=murmur-sweep
#SBATCH --array=0-3
#SBATCH --cpus-per-task=1
#SBATCH --output=slurm-%A_%a.out
##SBATCH --gpus=1
set -euo pipefail
SHARDS=4
"${MURMUR:-murmur}" --backend "${MURMUR_BACKEND:-gpu}" \
    --preset vicsek --boids 100 --set world_size=5 --steps 200 \
    --sweep vicsek.noise=0.5:4.5:8 --sweep-seeds 2 --sweep-burn-in 100 --sweep-every 20 \
    --sweep-out "part$SLURM_ARRAY_TASK_ID.csv" \
    --sweep-shard "$SLURM_ARRAY_TASK_ID/$SHARDS"
