#!/usr/bin/env bash
# Regenerates the scaling results and their report (tables + figures) under results/scaling/.
set -euo pipefail
cd "$(dirname "$0")/.."
python -m slitherbench experiment=scaling  "$@"
python -m slitherbench.report results/scaling --experiment scaling
