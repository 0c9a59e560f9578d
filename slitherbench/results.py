"""Loading results: ``load(path_or_experiment)`` -> (trials, iterations) DataFrames."""

from __future__ import annotations

import os
from collections.abc import Iterable
from pathlib import Path

import pandas as pd

from .store import ResultStore


def _stores(spec: str | os.PathLike[str], results_root: Path) -> list[Path]:
    p = Path(spec)
    if not p.exists() and (results_root / str(spec)).exists():
        p = results_root / str(spec)
    if not p.exists():
        raise FileNotFoundError(
            f"no results at {spec!r} (neither a directory nor an experiment under {results_root}/)"
        )
    if (p / "trials").is_dir():
        return [p]
    found = sorted(d.parent for d in p.glob("*/trials") if d.is_dir())
    if not found:
        raise FileNotFoundError(f"{p} holds no results store (no trials/ directory)")
    return found


def store_paths(
    specs: str | os.PathLike[str] | Iterable[str | os.PathLike[str]],
    results_root: str | os.PathLike[str] = "results",
) -> list[Path]:
    """The store directories that paths or experiment names stand for."""
    specs = [specs] if isinstance(specs, str | os.PathLike) else list(specs)
    return [s for spec in specs for s in _stores(spec, Path(results_root))]


def load(
    path_or_experiment: str | os.PathLike[str] | Iterable[str | os.PathLike[str]],
    results_root: str | os.PathLike[str] = "results",
) -> tuple[pd.DataFrame, pd.DataFrame]:
    """Trials and iterations of one store, a directory of stores, or several of either."""
    stores = store_paths(path_or_experiment, results_root)
    trials, iters = [], []
    for s in stores:
        st = ResultStore(s)
        trials.append(st.trials())
        iters.append(st.iterations())
    t = (
        pd.concat([x for x in trials if not x.empty], ignore_index=True)
        if any(not x.empty for x in trials)
        else pd.DataFrame()
    )
    i = (
        pd.concat([x for x in iters if not x.empty], ignore_index=True)
        if any(not x.empty for x in iters)
        else pd.DataFrame()
    )
    return t, i
