#!/usr/bin/env bash
# A one-node Slurm on this machine, for testing murmur's job array (tests/slurm_array.sh): munge
# with a key of its own, slurmctld and slurmd daemonised without systemd, everything (key, socket,
# configuration, state, spool, pid and log files) under DIR. Needs root and Debian's slurmctld,
# slurmd, slurm-client and munge (scripts/setup.sh --full installs them).
#   scripts/slurm_local.sh start DIR   starts it; prints the SLURM_CONF line for the clients
#   scripts/slurm_local.sh stop DIR    stops what start started and removes DIR
# A start that fails stops what it started. Ports 16817 and 16818, away from a real Slurm's.
set -euo pipefail

usage() { echo "usage: scripts/slurm_local.sh start|stop DIR" >&2; exit 2; }
[ $# -eq 2 ] || usage
action=$1
dir=$2

stop() {
  for daemon in slurmd slurmctld munged; do
    pidfile="$dir/$daemon.pid"
    [ -s "$pidfile" ] || continue
    pid=$(cat "$pidfile")
    kill "$pid" 2>/dev/null || true
    for _ in $(seq 50); do kill -0 "$pid" 2>/dev/null || break; sleep 0.1; done
    kill -9 "$pid" 2>/dev/null || true
  done
  rm -rf "$dir"
}

write_conf() {
  local host
  host=$(hostname -s)
  cat >"$dir/slurm.conf" <<EOF
ClusterName=murmur-local
SlurmctldHost=$host
SlurmUser=root
SlurmdUser=root
AuthType=auth/munge
CredType=cred/munge
AuthInfo=socket=$dir/munge.socket
SlurmctldPort=16817
SlurmdPort=16818
ProctrackType=proctrack/linuxproc
TaskPlugin=task/none
SelectType=select/cons_tres
SelectTypeParameters=CR_Core
SchedulerType=sched/builtin
AccountingStorageType=accounting_storage/none
JobAcctGatherType=jobacct_gather/none
JobCompType=jobcomp/none
MpiDefault=none
ReturnToService=2
StateSaveLocation=$dir/state
SlurmdSpoolDir=$dir/spool
SlurmctldPidFile=$dir/slurmctld.pid
SlurmdPidFile=$dir/slurmd.pid
SlurmctldLogFile=$dir/slurmctld.log
SlurmdLogFile=$dir/slurmd.log
NodeName=$host CPUs=$(nproc) State=UNKNOWN
PartitionName=local Nodes=$host Default=YES MaxTime=INFINITE State=UP
EOF
}

start() {
  [ "$(id -u)" = 0 ] || { echo "slurm_local.sh: needs root (SlurmUser=root)" >&2; exit 1; }
  for tool in munged slurmctld slurmd sinfo; do
    command -v "$tool" >/dev/null || { echo "slurm_local.sh: $tool not found (scripts/setup.sh --full)" >&2; exit 1; }
  done
  mkdir -p "$dir/state" "$dir/spool"
  chmod 700 "$dir"
  trap 'echo "slurm_local.sh: start failed; logs:" >&2; tail -n 20 "$dir"/*.log >&2 2>/dev/null || true; stop' ERR
  dd if=/dev/urandom of="$dir/munge.key" bs=1024 count=1 status=none
  chmod 400 "$dir/munge.key"
  munged --force --key-file="$dir/munge.key" --socket="$dir/munge.socket" --pid-file="$dir/munged.pid" \
         --log-file="$dir/munged.log" --seed-file="$dir/munge.seed"
  write_conf
  export SLURM_CONF="$dir/slurm.conf"
  slurmctld -f "$SLURM_CONF"
  slurmd -f "$SLURM_CONF"
  for _ in $(seq 100); do  # up to 20 s for the node to register
    if sinfo -h -o %t 2>/dev/null | grep -qE '^(idle|mix|alloc)'; then
      trap - ERR
      echo "export SLURM_CONF=$SLURM_CONF"
      return 0
    fi
    sleep 0.2
  done
  echo "slurm_local.sh: the node did not come up in 20 s: $(sinfo -h 2>&1 | head -n 3)" >&2
  false
}

case "$action" in
  start) start ;;
  stop) stop ;;
  *) usage ;;
esac
