#!/usr/bin/env bash
# Edge vs face variables: every form x backend of experiment=faces with each, into
# one store, then the report with the paired edge-vs-face tests and the frontier figure.
#   bash experiments/faces.sh [--quick] [extra Hydra overrides]
# Extra overrides go to both runs (e.g. repetitions=3 puzzle=mixed for a quick look). The
# store is $STORE, else $RESULTS/faces (default results/faces); PYTHON picks the interpreter.
# --quick: one generated 3x3 board, one seed, 2 s per trial (seconds; checks the script runs).
set -euo pipefail
cd "$(dirname "$0")/.."
PY=${PYTHON:-python}
R=${RESULTS:-results}
STORE=${STORE:-$R/faces}
QUICK=()
if [ "${1:-}" = --quick ]; then
    shift
    QUICK=(puzzle=generated puzzle.rows=3 puzzle.cols=3 puzzle.count=1 repetitions=1 time_limit_s=2 max_iterations=5 workers=1 progress=false)
fi
"$PY" -m slitherbench experiment=faces variables=edge results_dir="$STORE" "${QUICK[@]}" "$@"
"$PY" -m slitherbench experiment=faces variables=face results_dir="$STORE" "${QUICK[@]}" "$@"
"$PY" -m slitherbench.report "$STORE" --compare edge,face
