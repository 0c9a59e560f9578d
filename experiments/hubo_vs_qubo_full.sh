#!/usr/bin/env bash
# Paper-grade HUBO vs QUBO: tune each cell at the evaluation's sizes and budget
# (experiment=tune_full: Loopy 7x7 and 10x10 boards it is not evaluated on, 20 s; it resumes,
# so a finished study runs nothing new), then run hubo_vs_qubo_full untuned and tuned and its
# further cells (hubo_vs_qubo_full_more: the reduced HUBO beside the native one and the slack
# QUBO, ABS3 on face variables) into one store, then the report with the paired tests: HUBO
# vs QUBO, native vs reduced HUBO, reduced HUBO vs slack QUBO, and tuned vs untuned per cell.
# Every step resumes. Extra overrides go to the three comparison runs.
#   bash experiments/hubo_vs_qubo_full.sh [--quick] [extra Hydra overrides]
# Writes results/tune_full and results/hubo_vs_qubo_full ($RESULTS/... when RESULTS is set;
# PYTHON picks the interpreter); the tuned settings go to tuned_full/ in the repository.
# --quick: one generated 3x3 board, one seed, 2 s per trial, one tuning setting per cell, the
# tuned settings into $RESULTS/tuned (seconds; checks the script runs, tuned/ untouched).
set -euo pipefail
cd "$(dirname "$0")/.."
PY=${PYTHON:-python}
R=${RESULTS:-results}
STORE=$R/hubo_vs_qubo_full
QUICK=()
TUNED=(tuned_dir=tuned_full)
TUNE=()
if [ "${1:-}" = --quick ]; then
    shift
    QUICK=(puzzle=generated puzzle.rows=3 puzzle.cols=3 puzzle.count=1 repetitions=1 time_limit_s=2 max_iterations=5 workers=1 progress=false tuned_dir="$R/tuned")
    TUNE=(tune.n_trials=1)
    TUNED=()
fi
"$PY" -m slitherbench experiment=tune_full results_dir="$R/tune_full" "${TUNED[@]}" "${QUICK[@]}" "${TUNE[@]}"
"$PY" -m slitherbench experiment=hubo_vs_qubo_full results_dir="$STORE" "${QUICK[@]}" "$@"
"$PY" -m slitherbench experiment=hubo_vs_qubo_full tuned=true "${TUNED[@]}" results_dir="$STORE" "${QUICK[@]}" "$@"
"$PY" -m slitherbench experiment=hubo_vs_qubo_full_more results_dir="$STORE" "${QUICK[@]}" "$@"
PAIRS=("hubo[aux],qubo" "hubo[aux],hubo2qubo[aux]" "hubo2qubo[aux],qubo" "hubo2qubo[aux],hubo2qubo[aux,x2]")
# each cell against its tuned self, where some tuning beat its untuned setting (a cell whose
# tuning did not writes the untuned setting: its tuned trials are the untuned ones, nothing
# to pair; --quick tunes one setting, the untuned one)
if [ ${#QUICK[@]} -eq 0 ] && grep -qs "beats_untuned: true" tuned_full/*.yaml; then
    PAIRS+=(untuned,tuned)
else
    echo "note: no tuned setting beat its untuned one (tuned_full/): no tuned side to compare"
fi
COMPARE=()
for pair in "${PAIRS[@]}"; do COMPARE+=(--compare "$pair"); done
"$PY" -m slitherbench.report "$STORE" --exact "${COMPARE[@]}"
