"""The results store: one directory per experiment, one Parquet file per finished trial.

Layout (see results/README.md)::

    results/<experiment>/
        config.yaml                 resolved configuration of the latest run
        trials/<key>.parquet        one row: the trial
        iterations/<key>.parquet    one row per iteration of that trial
        trials.parquet              snapshot of all trials (rewritten after each run)
        iterations.parquet          snapshot of all iterations

Each trial is written when it completes, to a temporary name and then renamed (atomic on
POSIX), so an interrupted run loses nothing already finished. The per-trial files are the
truth; the two snapshots are conveniences rebuilt from them.
"""

from __future__ import annotations

import dataclasses
import os
import tempfile
from collections.abc import Mapping, Sequence
from enum import Enum
from pathlib import Path
from typing import Any

import pandas as pd

from .record import FINAL_STATUSES, ITERATION_FROM_TRIAL, Iteration, Trial


def _atomic_parquet(df: pd.DataFrame, path: Path) -> None:
    path.parent.mkdir(parents=True, exist_ok=True)
    fd, tmp = tempfile.mkstemp(dir=path.parent, prefix=".tmp-", suffix=".parquet")
    os.close(fd)
    try:
        df.to_parquet(tmp, index=False)
        os.replace(tmp, path)
    except BaseException:
        Path(tmp).unlink(missing_ok=True)
        raise


def _row(record: Any) -> dict[str, Any]:
    return {k: v.value if isinstance(v, Enum) else v for k, v in dataclasses.asdict(record).items()}


def _read_dir(d: Path, columns: Sequence[str] | None = None) -> pd.DataFrame:
    # Dot-files are temporaries of a write that was interrupted: never results.
    files = (
        sorted(f for f in d.glob("*.parquet") if not f.name.startswith(".")) if d.exists() else []
    )
    frames = [pd.read_parquet(f, columns=columns) for f in files]
    frames = [f for f in frames if not f.empty]
    return pd.concat(frames, ignore_index=True) if frames else pd.DataFrame()


class ResultStore:
    def __init__(self, root: str | os.PathLike[str]) -> None:
        self.root = Path(root)

    @property
    def trials_dir(self) -> Path:
        return self.root / "trials"

    @property
    def iterations_dir(self) -> Path:
        return self.root / "iterations"

    def finished_keys(self) -> set[str]:
        """Keys of trials with a final outcome (skipped/error trials are run again)."""
        df = _read_dir(self.trials_dir, columns=["key", "status"])
        if df.empty:
            return set()
        return set(df.loc[df["status"].isin([s.value for s in FINAL_STATUSES]), "key"])

    def write(
        self,
        trial: Trial,
        iterations: Sequence[Iteration],
        provenance: Mapping[str, Any] | None = None,
    ) -> None:
        """Store one finished trial (its key names the files) and its iterations."""
        shared = {f: getattr(trial, f) for f in ITERATION_FROM_TRIAL}
        rows = [{**_row(it), **shared} for it in iterations]
        # Iterations first: a trial row never exists without its iterations.
        it_path = self.iterations_dir / f"{trial.key}.parquet"
        if rows:
            _atomic_parquet(pd.DataFrame(rows), it_path)
        else:
            it_path.unlink(missing_ok=True)
        row = {**_row(trial), **(provenance or {})}
        _atomic_parquet(pd.DataFrame([row]), self.trials_dir / f"{trial.key}.parquet")

    def trials(self) -> pd.DataFrame:
        return _read_dir(self.trials_dir)

    def iterations(self) -> pd.DataFrame:
        return _read_dir(self.iterations_dir)

    def snapshot(self) -> pd.DataFrame:
        """Rewrite the two snapshot files; return the trials (read once for both uses)."""
        t, i = self.trials(), self.iterations()
        if not t.empty:
            _atomic_parquet(t, self.root / "trials.parquet")
        if not i.empty:
            _atomic_parquet(i, self.root / "iterations.parquet")
        return t
