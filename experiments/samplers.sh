#!/usr/bin/env bash
# The measurements besides the frontier (each resumable; reports under results/<name>/report):
#   targets           reference10, 20 seeds, 60 s: hubo[exact, cut weight 2]/openjij, qubo/pt
#   targets_10x18     the first Loopy 10x18 board, 5 seeds, 120 s: hubo[exact, cut weight 2]/openjij
#   openjij_updaters  METROPOLIS / HEAT_BATH / k-local per form, mixed suite, 2 seeds, 30 s
#   warm_starts       previous / broken / none per hint-taking backend, Loopy 5x5s, 20 s
#   bash experiments/samplers.sh [--quick] [extra Hydra overrides]
# Stores under results/ ($RESULTS/ when RESULTS is set; PYTHON picks the interpreter).
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
for e in targets targets_10x18 openjij_updaters; do
    "$PY" -m slitherbench experiment=$e results_dir="$R/$e" "${QUICK[@]}" "$@"
    "$PY" -m slitherbench.report "$R/$e"
done
"$PY" -m slitherbench -m experiment=warm_starts warm_start=previous,broken,none \
    results_dir="$R/warm_starts" "${QUICK[@]}" "$@"
"$PY" -m slitherbench.report "$R/warm_starts"
