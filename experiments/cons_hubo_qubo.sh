#!/usr/bin/env bash
# Regenerates the cons_hubo_qubo results and their report (tables + figures) under results/cons_hubo_qubo/.
set -euo pipefail
cd "$(dirname "$0")/.."
python -m slitherbench experiment=cons_hubo_qubo  "$@"
python -m slitherbench.report results/cons_hubo_qubo --experiment cons_hubo_qubo --exact
