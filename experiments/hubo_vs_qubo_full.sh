#!/usr/bin/env bash
# Paper-grade HUBO vs QUBO: tune each cell (experiment=tune; it resumes, so a finished study
# runs nothing new), then run hubo_vs_qubo_full untuned and tuned into one store, then the
# report with the paired HUBO-vs-QUBO tests. Extra overrides go to the two comparison runs.
set -euo pipefail
cd "$(dirname "$0")/.."
PY=${PYTHON:-python}
STORE=results/hubo_vs_qubo_full
$PY -m slitherbench experiment=tune
$PY -m slitherbench experiment=hubo_vs_qubo_full results_dir=$STORE "$@"
$PY -m slitherbench experiment=hubo_vs_qubo_full tuned=true results_dir=$STORE "$@"
$PY -m slitherbench.report $STORE --exact --compare hubo,qubo
