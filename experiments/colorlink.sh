#!/usr/bin/env bash
# Colorlink through the harness (issue 19): every form (edge and face variables) on every kind
# of backend, on generated 4x4 two-colour and 5x5 three-colour puzzles, into one store, then
# the report (tables, board figure with each colour drawn).
# Extra overrides go to both runs (e.g. repetitions=2 for a quick look).
set -euo pipefail
cd "$(dirname "$0")/.."
PY=${PYTHON:-python}
STORE=${STORE:-results/colorlink}
$PY -m slitherbench experiment=colorlink results_dir=$STORE "$@"
$PY -m slitherbench experiment=colorlink puzzle.rows=5 puzzle.cols=5 puzzle.colours=3 results_dir=$STORE "$@"
$PY -m slitherbench.report $STORE
