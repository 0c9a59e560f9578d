"""Loading results: ``load(path_or_experiment)`` -> (trials, iterations) DataFrames."""

from __future__ import annotations

import os
from collections.abc import Iterable
from pathlib import Path

import pandas as pd

from slitherbench.store.result_store import ResultStore


def _is_store(p: Path) -> bool:
    return any((p / d).is_dir() for d in ("parts", "pending", "trials"))


def _stores(spec: str | os.PathLike[str], results_root: Path) -> list[Path]:
    p = Path(spec)
    if not p.exists() and (results_root / str(spec)).exists():
        p = results_root / str(spec)
    if not p.exists():
        raise FileNotFoundError(
            f"no results at {spec!r} (neither a directory nor an experiment under {results_root}/)"
        )
    if _is_store(p):
        return [p]
    found = sorted(d for d in p.iterdir() if d.is_dir() and _is_store(d))
    if not found:
        raise FileNotFoundError(
            f"{p} holds no results store (no parts/, pending/ or trials/ directory)"
        )
    return found


def store_paths(
    specs: str | os.PathLike[str] | Iterable[str | os.PathLike[str]],
    results_root: str | os.PathLike[str] = "results",
) -> list[Path]:
    """The store directories that paths or experiment names stand for."""
    specs = [specs] if isinstance(specs, str | os.PathLike) else list(specs)
    found = [s for spec in specs for s in _stores(spec, Path(results_root))]
    # a store named twice (``. .``, or a path and its experiment name) is read once
    return _once(found)


def _once(stores: list[Path]) -> list[Path]:
    """Each store once, in the order first named (the same folder by any path)."""
    seen: set[Path] = set()
    out = []
    for s in stores:
        if s.resolve() not in seen:
            seen.add(s.resolve())
            out.append(s)
    return out


def what_is_missing(stores: Iterable[str | os.PathLike[str]]) -> list[str]:
    """One line per thing a store has lost (unreadable files, trials without their
    iterations, iterations without their trial), saying what the report leaves out; empty
    when nothing is."""
    lines = []
    for s in map(Path, stores):
        st = ResultStore(s)
        bad = st.unreadable()
        if bad:
            names = ", ".join(str(f.relative_to(s)) for f in bad[:3]) + (
                ", ..." if len(bad) > 3 else ""
            )
            lines.append(
                f"{s}: {len(bad)} unreadable file(s) ({names}): the next run of its command "
                f"moves them to {s / 'unreadable'} and runs their trials again"
            )
        lost = st.incomplete()
        if lost["trials without iterations"]:
            lines.append(
                f"{s}: {len(lost['trials without iterations'])} trial(s) have no stored "
                "iterations (a missing or unreadable file): the board figure and the per-solve "
                "columns (solves, E=0 rate) leave them out; the next run runs them again"
            )
        if lost["iterations without trials"]:
            lines.append(
                f"{s}: {len(lost['iterations without trials'])} trial(s) have iterations but "
                "no readable trial row (a missing or unreadable file): they are not reported; "
                "the next run runs them again"
            )
    return lines


def load(
    path_or_experiment: str | os.PathLike[str] | Iterable[str | os.PathLike[str]],
    results_root: str | os.PathLike[str] = "results",
) -> tuple[pd.DataFrame, pd.DataFrame]:
    """Trials and iterations of one store, a directory of stores, or several of either."""
    stores = store_paths(path_or_experiment, results_root)
    trials, iters = [], []
    for s in stores:
        st = ResultStore(s)
        t = st.trials()
        trials.append(t)
        iters.append(st.iterations(trials=t))
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
