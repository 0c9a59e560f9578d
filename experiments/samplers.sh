#!/usr/bin/env bash
# Issue 10's measurements besides the frontier (each resumable; reports under results/<name>/report):
#   targets           reference10, 20 seeds, 60 s: hubo[exact, cut weight 2]/openjij, qubo/pt
#   targets_10x18     the first Loopy 10x18 board, 5 seeds, 120 s: hubo[exact, cut weight 2]/openjij
#   openjij_updaters  METROPOLIS / HEAT_BATH / k-local per form, mixed suite, 2 seeds, 30 s
#   warm_starts       previous / broken / none per hint-taking backend, Loopy 5x5s, 20 s
set -euo pipefail
PY=${PYTHON:-python}
for e in targets targets_10x18 openjij_updaters; do
    "$PY" -m slitherbench experiment=$e "$@"
    "$PY" -m slitherbench.report results/$e
done
"$PY" -m slitherbench -m experiment=warm_starts warm_start=previous,broken,none "$@"
"$PY" -m slitherbench.report results/warm_starts
