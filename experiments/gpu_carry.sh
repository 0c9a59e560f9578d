#!/usr/bin/env bash
# Builds .gpu/site: what experiments/gpu_check.py needs on a GPU machine that has PyTorch but
# not this project's dependencies, small enough to copy with the checkout (under 64 MiB):
#   - pyqbpp trimmed to its Python files and the default variant's two libraries
#     (qbpp_c32e64m0.so, abs3_c32e64.so: about 42 MB of the wheel's 470 MB); without the
#     nanobind module it falls back to ctypes, which Python 3.12 runs as well;
#   - simulated-bifurcation (pure Python; torch, numpy, sympy and tqdm are on that machine).
# Then, there: PYTHONPATH=.gpu/site:. python3 experiments/gpu_check.py --out $OUT
#   bash experiments/gpu_carry.sh [--quick]
# GPU_DIR builds somewhere else than .gpu. --quick: a dry run (seconds, no network): the
# pyqbpp part only, into GPU_DIR or a temporary directory removed at the end.
set -euo pipefail
cd "$(dirname "$0")/.."
PY=${PYTHON:-.venv/bin/python}
QUICK=
if [ "${1:-}" = --quick ]; then
    QUICK=1
    DEST=${GPU_DIR:-$(mktemp -d)/gpu}
    [ -n "${GPU_DIR:-}" ] || trap 'rm -rf "$(dirname "$DEST")"' EXIT
else
    DEST=${GPU_DIR:-.gpu}
fi
SITE=$("$PY" -c 'import pyqbpp, os; print(os.path.dirname(os.path.dirname(pyqbpp.__file__)))')
rm -rf "$DEST" && mkdir -p "$DEST/site/pyqbpp"
cp "$SITE"/pyqbpp/*.py "$DEST/site/pyqbpp/"
cp "$SITE"/pyqbpp/qbpp_c32e64m0.so "$SITE"/pyqbpp/abs3_c32e64.so "$DEST/site/pyqbpp/"
cp -r "$SITE"/pyqbpp-*.dist-info "$DEST/site/"
if [ -n "$QUICK" ]; then
    echo "--quick: simulated-bifurcation's download skipped (a dry run needs no network)"
else
    "$PY" -m pip download -q --no-deps -d "$DEST/wheels" simulated-bifurcation==2.0.0
    "$PY" -m zipfile -e "$DEST/wheels/simulated_bifurcation-2.0.0-py3-none-any.whl" "$DEST/site/"
    rm -rf "$DEST/wheels"
fi
du -sh "$DEST"
