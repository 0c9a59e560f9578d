#!/usr/bin/env bash
# Regenerates the backends results and their report (tables + figures) under results/backends/.
set -euo pipefail
cd "$(dirname "$0")/.."
python -m slitherbench experiment=backends  "$@"
python -m slitherbench.report results/backends --experiment backends
