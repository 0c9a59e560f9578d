#!/usr/bin/env bash
# Builds .gpu/site: what experiments/gpu_check.py needs on a GPU machine that has PyTorch but
# not this project's dependencies, small enough to travel (the device tool carries 64 MiB):
#   - pyqbpp trimmed to its Python files and the default variant's two libraries
#     (qbpp_c32e64m0.so, abs3_c32e64.so: about 42 MB of the wheel's 470 MB); without the
#     nanobind module it falls back to ctypes, which Python 3.12 runs as well;
#   - simulated-bifurcation (pure Python; torch, numpy, sympy and tqdm are on that machine).
# Then, there: PYTHONPATH=.gpu/site:. python3 experiments/gpu_check.py --out $OUT
set -euo pipefail
PY=${PYTHON:-.venv/bin/python}
SITE=$("$PY" -c 'import pyqbpp, os; print(os.path.dirname(os.path.dirname(pyqbpp.__file__)))')
rm -rf .gpu && mkdir -p .gpu/site/pyqbpp
cp "$SITE"/pyqbpp/*.py .gpu/site/pyqbpp/
cp "$SITE"/pyqbpp/qbpp_c32e64m0.so "$SITE"/pyqbpp/abs3_c32e64.so .gpu/site/pyqbpp/
cp -r "$SITE"/pyqbpp-*.dist-info .gpu/site/
"$PY" -m pip download -q --no-deps -d .gpu/wheels simulated-bifurcation==2.0.0
"$PY" -m zipfile -e .gpu/wheels/simulated_bifurcation-2.0.0-py3-none-any.whl .gpu/site/
rm -rf .gpu/wheels
du -sh .gpu
