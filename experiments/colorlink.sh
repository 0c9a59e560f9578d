#!/usr/bin/env bash
# Colorlink through the harness: every form (edge and face variables) on every kind
# of backend, on generated 4x4 two-colour and 5x5 three-colour puzzles, into one store, then
# the report (tables, board figure with each colour drawn).
#   bash experiments/colorlink.sh [--quick] [extra Hydra overrides]
# Extra overrides go to both runs (e.g. repetitions=2 for a quick look). The store is
# $STORE, else $RESULTS/colorlink (default results/colorlink); PYTHON picks the interpreter.
# --quick: one generated 3x3 puzzle of each colour count, one seed, 2 s per trial (seconds;
# checks the script runs).
set -euo pipefail
cd "$(dirname "$0")/.."
PY=${PYTHON:-python}
R=${RESULTS:-results}
STORE=${STORE:-$R/colorlink}
QUICK=()
if [ "${1:-}" = --quick ]; then
    shift
    QUICK=(puzzle.rows=3 puzzle.cols=3 puzzle.count=1 repetitions=1 time_limit_s=2 max_iterations=5 workers=1 progress=false)
fi
"$PY" -m slitherbench experiment=colorlink results_dir="$STORE" "${QUICK[@]}" "$@"
"$PY" -m slitherbench experiment=colorlink puzzle.rows=5 puzzle.cols=5 puzzle.colours=3 results_dir="$STORE" "${QUICK[@]}" "$@"
"$PY" -m slitherbench.report "$STORE"
