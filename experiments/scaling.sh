#!/usr/bin/env bash
# Regenerates the scaling results and their report (tables + figures) under results/scaling/
# ($RESULTS/scaling/ when RESULTS is set; PYTHON picks the interpreter).
#   bash experiments/scaling.sh [--quick] [extra Hydra overrides]
# --quick: one generated 3x3 board, one seed, 2 s per trial (seconds; checks the script runs).
set -euo pipefail
cd "$(dirname "$0")/.."
PY=${PYTHON:-python}
R=${RESULTS:-results}
QUICK=()
if [ "${1:-}" = --quick ]; then
    shift
    QUICK=(puzzle=generated puzzle.rows=3 puzzle.cols=3 puzzle.count=1 repetitions=1 time_limit_s=2 max_iterations=5 workers=1 progress=false)
fi
"$PY" -m slitherbench experiment=scaling results_dir="$R/scaling" "${QUICK[@]}" "$@"
"$PY" -m slitherbench.report "$R/scaling" --experiment scaling
