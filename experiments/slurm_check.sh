#!/usr/bin/env bash
# The cluster path on a real SLURM: a single-node cluster on this machine (Debian's slurm-wlm
# and munge; slurmctld + slurmd on localhost, its CPUs), then
#   python -m slitherbench -m experiment=smoke cell=0,1 hydra/launcher=cluster
# submitted through submitit, waited for, and the store checked: every trial there, every
# `solved` verified, provenance naming the SLURM job. Needs root (it installs and starts the
# daemons). Usage: bash experiments/slurm_check.sh [python] [results dir]
set -euo pipefail
cd "$(dirname "$0")/.."
PY=${1:-.venv/bin/python}
STORE=${2:-$(mktemp -d)/slurm_smoke}

if ! command -v slurmctld >/dev/null || ! command -v munged >/dev/null; then
    apt-get update -q && DEBIAN_FRONTEND=noninteractive apt-get install -y -q slurm-wlm munge
fi

# munge: one key, the daemon running.
if [ ! -s /etc/munge/munge.key ]; then
    (command -v mungekey >/dev/null && mungekey -c -f) ||
        dd if=/dev/urandom bs=1 count=1024 of=/etc/munge/munge.key 2>/dev/null
fi
chown munge:munge /etc/munge/munge.key && chmod 600 /etc/munge/munge.key
mkdir -p /run/munge /var/log/munge /var/lib/munge && chown munge:munge /run/munge /var/log/munge /var/lib/munge
pgrep -x munged >/dev/null || runuser -u munge -- /usr/sbin/munged --force

# slurm: one node named after this host, with its CPUs and memory.
HOST=$(hostname -s)
CPUS=$(nproc)
MEM=$(( $(awk '/MemTotal/ {print $2}' /proc/meminfo) / 1024 - 1024 ))
mkdir -p /etc/slurm /var/spool/slurmctld /var/spool/slurmd /var/log/slurm
cat > /etc/slurm/slurm.conf <<EOF
ClusterName=slitherbench
SlurmctldHost=${HOST}
AuthType=auth/munge
SlurmUser=root
SlurmdUser=root
StateSaveLocation=/var/spool/slurmctld
SlurmdSpoolDir=/var/spool/slurmd
SlurmctldLogFile=/var/log/slurm/slurmctld.log
SlurmdLogFile=/var/log/slurm/slurmd.log
ProctrackType=proctrack/linuxproc
TaskPlugin=task/none
SchedulerType=sched/backfill
SelectType=select/cons_tres
SelectTypeParameters=CR_Core
JobAcctGatherType=jobacct_gather/none
MpiDefault=none
ReturnToService=2
NodeName=${HOST} CPUs=${CPUS} RealMemory=${MEM} State=UNKNOWN
PartitionName=local Nodes=${HOST} Default=YES MaxTime=INFINITE State=UP
EOF
pgrep -x slurmctld >/dev/null || /usr/sbin/slurmctld
pgrep -x slurmd >/dev/null || /usr/sbin/slurmd
for _ in $(seq 60); do
    sinfo -h -o "%t" 2>/dev/null | grep -qE "idle|mix|alloc" && break
    scontrol update nodename="${HOST}" state=resume 2>/dev/null || true
    sleep 1
done
sinfo

# The sweep: two cells, each a SLURM job of the submitit launcher (the command waits).
"$PY" -m slitherbench -m experiment=smoke cell=0,1 hydra/launcher=cluster \
    hydra.launcher.partition=local hydra.launcher.cpus_per_task=1 \
    hydra.launcher.gpus_per_node=null hydra.launcher.mem_gb=2 hydra.launcher.timeout_min=10 \
    results_dir="$STORE" progress=false

"$PY" - "$STORE" <<'EOF'
import sys

from slitherbench.puzzles.check import check_answer
from slitherbench.puzzles.puzzle import Puzzle, answer_from_bits
from slitherbench.store.results import load

trials, iters = load(sys.argv[1])
assert len(trials) == 2 * 2 * 2, f"expected 8 trials (2 cells x 2 puzzles x 2 repetitions), got {len(trials)}"
assert set(trials.cell) == {"cons/exact", "hubo/sa"}, set(trials.cell)
solved = trials[trials.status == "solved"]
for _, t in solved.iterrows():
    p = Puzzle.parse(t.puzzle_rows)
    assert t.verified and check_answer(p, answer_from_bits(p, t.answer)) == []
jobs = sorted(set(trials.slurm_job_id))
assert all(jobs) and len(jobs) == 2, f"provenance should name the two SLURM jobs, got {jobs}"
print(f"SLURM check passed: {len(trials)} trials, {len(solved)} solved and verified, "
      f"{len(iters)} iterations, SLURM jobs {', '.join(jobs)}, store {sys.argv[1]}")
EOF
