#!/usr/bin/env bash
# The survey's solver families: loop vs region cuts on the corpus (iterations), the survey's
# timing table on boards of its sizes, and the exact speed targets at 30x40 and 60x60.
#   bash experiments/survey.sh [extra Hydra overrides for both experiments]
set -euo pipefail
cd "$(dirname "$0")/.."
PY=${PYTHON:-python}
$PY -m slitherbench experiment=cut_kinds "$@"
$PY -m slitherbench.report results/cut_kinds --compare cons,cons+region
$PY -m slitherbench experiment=cut_kinds_annealers "$@"
$PY -m slitherbench.report results/cut_kinds_annealers --compare qubo,qubo+region
$PY -m slitherbench.report results/cut_kinds_annealers --compare "hubo[aux],hubo[aux]+region"
$PY -m slitherbench experiment=survey_table "$@"
$PY -m slitherbench.report results/survey_table
$PY experiments/bench_exact_targets.py
echo "tables: results/cut_kinds/report/, results/survey_table/report/survey_layout.md"
