#!/usr/bin/env bash
# Regenerates the hubo_vs_qubo results and their report (tables + figures) under results/hubo_vs_qubo/.
set -euo pipefail
cd "$(dirname "$0")/.."
python -m slitherbench experiment=hubo_vs_qubo  "$@"
python -m slitherbench.report results/hubo_vs_qubo --experiment hubo_vs_qubo --exact
