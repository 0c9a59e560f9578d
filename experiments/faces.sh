#!/usr/bin/env bash
# Edge vs face variables (issue 19): every form x backend of experiment=faces with each, into
# one store, then the report with the paired edge-vs-face tests and the frontier figure.
# Extra overrides go to both runs (e.g. repetitions=3 puzzle=mixed for a quick look).
set -euo pipefail
cd "$(dirname "$0")/.."
PY=${PYTHON:-python}
STORE=${STORE:-results/faces}
$PY -m slitherbench experiment=faces variables=edge results_dir=$STORE "$@"
$PY -m slitherbench experiment=faces variables=face results_dir=$STORE "$@"
$PY -m slitherbench.report $STORE --compare edge,face
