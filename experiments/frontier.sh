#!/usr/bin/env bash
# The annealing frontier (issue 10): every form x backend on one board per size, 5 seeds,
# 120 s per trial, a cell stopping at the first size where it solved nothing; then the report
# (frontier table + figure, success and TTS99 by size). Resumable: re-run to continue.
# On a cluster: python -m slitherbench -m experiment=frontier cell=0,1,...,10 hydra/launcher=cluster
set -euo pipefail
PY=${PYTHON:-python}
"$PY" -m slitherbench experiment=frontier "$@"
"$PY" -m slitherbench.report results/frontier
