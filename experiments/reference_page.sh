#!/usr/bin/env bash
# Regenerates the reference_page results and their report (tables + figures) under results/reference_page/.
set -euo pipefail
cd "$(dirname "$0")/.."
python -m slitherbench experiment=reference_page repetitions=20 "$@"
python -m slitherbench.report results/reference_page --experiment reference_page
