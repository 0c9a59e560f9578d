#!/usr/bin/env bash
# The survey's solver families: loop vs region cuts on the corpus (iterations), the survey's
# timing table on boards of its sizes, and the exact speed targets at 30x40 and 60x60.
#   bash experiments/survey.sh [--quick] [extra Hydra overrides for the three experiments]
# Stores under results/ ($RESULTS/ when RESULTS is set; PYTHON picks the interpreter).
# --quick: one generated 3x3 board, one seed, 2 s per trial, and bench_exact_targets.py
# --quick (seconds; checks the script runs, judges no target).
set -euo pipefail
cd "$(dirname "$0")/.."
PY=${PYTHON:-python}
R=${RESULTS:-results}
QUICK=()
BENCH=()
if [ "${1:-}" = --quick ]; then
    shift
    QUICK=(puzzle=generated puzzle.rows=3 puzzle.cols=3 puzzle.count=1 repetitions=1 time_limit_s=2 max_iterations=5 workers=1 progress=false)
    BENCH=(--quick)
fi
"$PY" -m slitherbench experiment=cut_kinds results_dir="$R/cut_kinds" "${QUICK[@]}" "$@"
"$PY" -m slitherbench.report "$R/cut_kinds" --compare cons,cons+region
"$PY" -m slitherbench experiment=cut_kinds_annealers results_dir="$R/cut_kinds_annealers" "${QUICK[@]}" "$@"
"$PY" -m slitherbench.report "$R/cut_kinds_annealers" --compare qubo,qubo+region
"$PY" -m slitherbench.report "$R/cut_kinds_annealers" --compare "hubo[aux],hubo[aux]+region"
"$PY" -m slitherbench experiment=survey_table results_dir="$R/survey_table" "${QUICK[@]}" "$@"
"$PY" -m slitherbench.report "$R/survey_table"
"$PY" experiments/bench_exact_targets.py --out "$R/benchmarks" "${BENCH[@]}"
echo "tables: $R/cut_kinds/report/, $R/survey_table/report/survey_layout.md"
