#!/usr/bin/env bash
# The annealing frontier: every form x backend on one board per size, 5 seeds,
# 120 s per trial, a cell stopping at the first size where it solved nothing; then the report
# (frontier table + figure, success and TTS99 by size). Resumable: re-run to continue.
# On a cluster: python -m slitherbench -m experiment=frontier cell=0,1,...,16 hydra/launcher=cluster
#   bash experiments/frontier.sh [--quick] [extra Hydra overrides]
# Writes results/frontier ($RESULTS/frontier when RESULTS is set; PYTHON picks the interpreter).
# --quick: generated 3x3 and 4x4 boards, one seed, 2 s per trial (seconds; checks the script
# runs).
set -euo pipefail
cd "$(dirname "$0")/.."
PY=${PYTHON:-python}
R=${RESULTS:-results}
QUICK=()
if [ "${1:-}" = --quick ]; then
    shift
    QUICK=(puzzle=tiny repetitions=1 time_limit_s=2 max_iterations=5 workers=1 progress=false)
fi
"$PY" -m slitherbench experiment=frontier results_dir="$R/frontier" "${QUICK[@]}" "$@"
"$PY" -m slitherbench.report "$R/frontier"
