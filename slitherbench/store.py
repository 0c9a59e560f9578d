"""The results store: one directory per experiment, safe for many writers at once.

Layout (see results/README.md)::

    results/<experiment>/
        config.yaml                       every run's resolved configuration, appended
        pending/<key>--<write id>.trial.parquet   a finished trial, written when it ends
        pending/<key>--<write id>.iters.parquet   its iterations (written first)
        parts/trials-<id>.parquet         compacted trials (many per file)
        parts/iterations-<id>.parquet     their iterations
        claims/<key>.claim                a worker is running this trial (owner, time)
        unreadable/                       damaged files moved aside by a run (re-run)
        trials/, iterations/              the layout before parts (still read, compacted)

Each trial is on disk, atomically (temporary name, then rename), when its run reports it
done; a per-trial write costs the same however large the store is. :meth:`compact` folds
pending files (and small parts) into one part and then deletes what it folded: a crash at any
step leaves duplicates, never a gap, and readers keep one copy of each trial (the newest
write) with the iterations of that very write (``write_id``).
"""

from __future__ import annotations

import dataclasses
import os
import socket
import sys
import time
import uuid
from collections.abc import Callable, Iterable, Mapping, Sequence
from enum import Enum
from pathlib import Path
from typing import Any

import pandas as pd
import pyarrow as pa
import pyarrow.compute as pc
import pyarrow.parquet as pq

from .record import FINAL_STATUSES, ITERATION_FROM_TRIAL, Iteration, Trial

# Parts below SMALL_PART_ROWS are merged again, when there are MERGE_PARTS of them or they
# are cheap to merge (fewer than CHEAP_MERGE_ROWS rows together): few files to read, and each
# row rewritten only a few times however long the campaign.
SMALL_PART_ROWS = 20_000
MERGE_PARTS = 8
CHEAP_MERGE_ROWS = 5_000
COMPACT_EVERY = 500  # a long run compacts after this many of its own writes
_ARROW = {
    "str": pa.string(),
    "int": pa.int64(),
    "float": pa.float64(),
    "bool": pa.bool_(),
    "list[int]": pa.list_(pa.int64()),
}
_warned: set[str] = set()


def _umask() -> int:
    mask = os.umask(0)
    os.umask(mask)
    return mask


UMASK = _umask()


def _atomic_write(table: pa.Table, path: Path) -> None:
    """Write under a dot-name, then rename: readers see the whole file or none."""
    path.parent.mkdir(parents=True, exist_ok=True)
    tmp = path.parent / f".tmp-{uuid.uuid4().hex}-{path.name}"
    try:
        pq.write_table(table, tmp)
        os.chmod(tmp, 0o666 & ~UMASK)  # colleagues on a shared cluster can read results
        os.replace(tmp, path)
    except BaseException:
        tmp.unlink(missing_ok=True)
        raise


def _row(record: Any) -> dict[str, Any]:
    return {k: v.value if isinstance(v, Enum) else v for k, v in vars(record).items()}


def _records_table(cls: type, rows: list[dict[str, Any]]) -> pa.Table:
    """Rows of a record type as an Arrow table: the dataclass's types, extras inferred.
    (Straight from Python objects: a pandas round trip costs several times the write.)"""
    declared = [pa.field(f.name, _ARROW[str(f.type)]) for f in dataclasses.fields(cls)]
    names = {f.name for f in declared}
    extra = [pa.field(k, pa.scalar(v).type) for k, v in rows[0].items() if k not in names]
    return pa.Table.from_pylist(rows, schema=pa.schema(declared + extra))


def _warn_unreadable(path: Path, exc: Exception) -> None:
    if str(path) not in _warned:
        _warned.add(str(path))
        reason = " ".join(str(exc).split())[:120]
        print(f"warning: skipping unreadable results file {path} ({reason})", file=sys.stderr)


def _read(path: Path, columns: Sequence[str] | None) -> pa.Table | None:
    try:
        if columns is not None:
            have = set(pq.read_schema(path).names)
            columns = [c for c in columns if c in have]
        return pq.read_table(path, columns=columns)
    except FileNotFoundError:
        return None  # compacted away between listing and reading: its rows are in a part
    except Exception as exc:
        _warn_unreadable(path, exc)
        return None


def _concat(tables: Iterable[pa.Table | None]) -> pd.DataFrame:
    frames = [t.to_pandas() for t in tables if t is not None and t.num_rows]
    return pd.concat(frames, ignore_index=True) if frames else pd.DataFrame()


def _write_id(df: pd.DataFrame) -> pd.DataFrame:
    # Files written before write_id existed hold one version per key: the key identifies it.
    if "write_id" not in df:
        df["write_id"] = df["key"]
        return df
    missing = df["write_id"].isna() | (df["write_id"] == "")
    if missing.any():  # mixed old and new files
        df.loc[missing, "write_id"] = df.loc[missing, "key"]
    return df


def _no_step(name: str) -> None:
    pass


class ResultStore:
    def __init__(self, root: str | os.PathLike[str]) -> None:
        self.root = Path(root)
        self._writes = 0
        # is_finished's view of the parts: re-read only when the set of parts changes
        self._parts_seen: set[Path] | None = None
        self._recent = pd.DataFrame()

    # -- where things are ----------------------------------------------------------------
    @property
    def pending_dir(self) -> Path:
        return self.root / "pending"

    @property
    def parts_dir(self) -> Path:
        return self.root / "parts"

    def _files(self, kind: str) -> list[Path]:
        """Files holding ``kind`` rows ("trials" or "iterations"), parts first."""
        suffix = "trial" if kind == "trials" else "iters"
        out = sorted(self.parts_dir.glob(f"{kind}-*.parquet")) if self.parts_dir.exists() else []
        if self.pending_dir.exists():
            out += sorted(self.pending_dir.glob(f"*.{suffix}.parquet"))
        legacy = self.root / kind
        if legacy.exists():
            out += sorted(f for f in legacy.glob("*.parquet") if not f.name.startswith("."))
        return [f for f in out if not f.name.startswith(".")]

    # -- writing --------------------------------------------------------------------------
    def write(
        self,
        trial: Trial,
        iterations: Sequence[Iteration],
        provenance: Mapping[str, Any] | None = None,
    ) -> None:
        """Store one finished trial (and its iterations) durably, atomically."""
        trial.write_id = trial.write_id or uuid.uuid4().hex[:16]
        stem = self.pending_dir / f"{trial.key}--{trial.write_id}"
        shared = {f: getattr(trial, f) for f in (*ITERATION_FROM_TRIAL, "write_id")}
        rows = [{**_row(it), **shared} for it in iterations]
        if rows:  # iterations first: a trial row never exists without its iterations
            _atomic_write(_records_table(Iteration, rows), Path(f"{stem}.iters.parquet"))
        row = {**_row(trial), **(provenance or {})}
        _atomic_write(_records_table(Trial, [row]), Path(f"{stem}.trial.parquet"))
        self._writes += 1
        if self._writes % COMPACT_EVERY == 0:
            self.compact()

    # -- reading --------------------------------------------------------------------------
    def _read_all(self, kind: str, columns: Sequence[str] | None) -> pd.DataFrame:
        # A compaction may fold a file away between listing and reading; its rows are then
        # in a new part, so list again (a missing file is never a missing trial).
        for _ in range(5):
            files = self._files(kind)
            tables = [_read(f, columns) for f in files]
            if all(f.exists() or t is not None for f, t in zip(files, tables, strict=True)):
                break
        return _concat(tables)

    def trials(self, columns: Sequence[str] | None = None) -> pd.DataFrame:
        """One row per trial key: its newest write. Unreadable files are skipped, named."""
        want = None if columns is None else list(dict.fromkeys([*columns, "key", "timestamp"]))
        if want is not None and "write_id" not in want:
            want.append("write_id")
        df = self._read_all("trials", want)
        if df.empty:
            return df
        df = _write_id(df)
        if "timestamp" in df:
            df = df.sort_values("timestamp", kind="stable")
        return df.drop_duplicates("key", keep="last").reset_index(drop=True)

    def iterations(
        self, columns: Sequence[str] | None = None, trials: pd.DataFrame | None = None
    ) -> pd.DataFrame:
        """The iteration rows of the trials :meth:`trials` returns (of that same write)."""
        t = self.trials(["key"]) if trials is None else trials
        want = None if columns is None else list(dict.fromkeys([*columns, "key", "iteration"]))
        if want is not None and "write_id" not in want:
            want.append("write_id")
        df = self._read_all("iterations", want)
        if df.empty or t.empty:
            return pd.DataFrame()
        df = _write_id(df)
        ids = t["write_id"] if "write_id" in t else t["key"]
        # Matched in Arrow: pandas' isin walks 450,000 strings in Python at 100k trials.
        keep = pc.is_in(pa.array(df["write_id"]), value_set=pa.array(ids))
        df = df[keep.to_numpy(zero_copy_only=False)]
        return df.drop_duplicates(["write_id", "iteration"]).reset_index(drop=True)

    def is_finished(self, key: str, since: str = "", final_counts: bool = True) -> bool:
        """Whether another worker has just stored ``key``: an outcome stored at or after
        ``since`` (an ISO time; a skip in this same run is not tried twice), or, with
        ``final_counts``, a final outcome from any time. Cheap: the key's own pending files,
        and the full key list only when the parts changed."""
        # Pending files first, parts after: a compaction writes its part before it deletes
        # what it folded, so a record is seen in one place or the other, never in neither.
        files = list(self.pending_dir.glob(f"{key}--*.trial.parquet"))
        files += [f for f in [self.root / "trials" / f"{key}.parquet"] if f.exists()]
        df = _concat(_read(f, ["key", "status", "timestamp"]) for f in files)
        parts = set(self.parts_dir.glob("trials-*.parquet")) if self.parts_dir.exists() else set()
        if parts != self._parts_seen:
            self._parts_seen, self._recent = parts, self.trials(["status"])
        if not self._recent.empty:
            df = pd.concat([df, self._recent[self._recent.key == key]], ignore_index=True)
        if df.empty:
            return False
        newest = df.sort_values("timestamp").iloc[-1]
        final = newest.status in {s.value for s in FINAL_STATUSES}
        return bool((final_counts and final) or (since and str(newest.timestamp) >= since))

    def finished_keys(self) -> set[str]:
        """Keys of trials with a final outcome (skipped/error trials are run again), from the
        key, status and timestamp columns alone."""
        df = self.trials(["status"])
        if df.empty:
            return set()
        return set(df.loc[df["status"].isin([s.value for s in FINAL_STATUSES]), "key"])

    def unreadable(self) -> list[Path]:
        """Files whose Parquet footer cannot be read."""
        bad = []
        for f in self._files("trials") + self._files("iterations"):
            try:
                pq.read_metadata(f)
            except FileNotFoundError:
                continue
            except Exception:
                bad.append(f)
        return bad

    def quarantine(self) -> list[Path]:
        """Move unreadable files (and the other half of a damaged pending trial) aside."""
        moved = []
        for f in self.unreadable():
            pair = [f]
            if f.parent.name in ("pending", "trials", "iterations"):
                key_stem = f.name.split(".")[0]
                pair += [g for g in f.parent.parent.glob(f"*/{key_stem}.*parquet") if g != f]
                pair += list(f.parent.glob(f"{key_stem}.*.parquet"))
            for g in dict.fromkeys(pair):
                if g.exists():
                    dest = self.root / "unreadable" / f"{g.parent.name}-{g.name}"
                    dest.parent.mkdir(parents=True, exist_ok=True)
                    os.replace(g, dest)
                    moved.append(dest)
        return moved

    # -- compaction -------------------------------------------------------------------------
    def compact(self, stale_lock_s: float = 600.0, step: Callable[[str], None] = _no_step) -> int:
        """Fold pending files, old-layout files and small parts into one part; return the
        number of trial rows folded (0 when another process holds the compaction lock).
        ``step`` is called after each step (tests stop a compaction there)."""
        lock = self.root / ".compact.lock"
        if not _take_lock(lock, stale_lock_s):
            return 0
        try:
            return self._compact_locked(step)
        finally:
            lock.unlink(missing_ok=True)

    def _compact_locked(self, step: Callable[[str], None]) -> int:
        parts = sorted(self.parts_dir.glob("trials-*.parquet")) if self.parts_dir.exists() else []
        sizes = {f: _rows(f) for f in parts}
        small = [f for f in parts if sizes[f] < SMALL_PART_ROWS]
        if len(small) < MERGE_PARTS and sum(sizes[f] for f in small) >= CHEAP_MERGE_ROWS:
            small = []
        loose_t = [f for f in self._files("trials") if f.parent != self.parts_dir]
        if not loose_t and len(small) < 2:
            _remove_empty_dirs(self.root, ("trials", "iterations", "pending"))
            return 0
        src_t = small + loose_t
        src_i = [self.parts_dir / f.name.replace("trials-", "iterations-", 1) for f in small]
        src_i += [f for f in self._files("iterations") if f.parent != self.parts_dir]
        src_i = [f for f in src_i if f.exists()]
        trials = _concat(_read(f, None) for f in src_t)
        iters = _concat(_read(f, None) for f in src_i)
        if trials.empty:
            return 0
        # Of several writes of one key in this batch only the newest is kept (the same rule
        # readers apply); older writes in other parts are dropped by readers.
        trials = _write_id(trials)
        if "timestamp" in trials:
            trials = trials.sort_values("timestamp", kind="stable")
        newest = trials.drop_duplicates("key", keep="last")
        superseded = set(trials["write_id"]) - set(newest["write_id"])
        trials = newest
        if not iters.empty:
            iters = _write_id(iters).drop_duplicates(["write_id", "iteration"])
            iters = iters[~iters["write_id"].isin(superseded)]
        part = f"{time.strftime('%Y%m%dT%H%M%S')}-{uuid.uuid4().hex[:8]}"
        step("read")
        if not iters.empty:  # iterations first, as for a single trial
            _atomic_write(_table(iters), self.parts_dir / f"iterations-{part}.parquet")
        step("iterations part written")
        _atomic_write(_table(trials), self.parts_dir / f"trials-{part}.parquet")
        step("trials part written")
        # Iterations first: a kill in between leaves trial files, which the next compaction
        # folds again (their iterations are in the new part), never orphaned iterations.
        for f in [*src_i, *src_t, self.root / "trials.parquet", self.root / "iterations.parquet"]:
            f.unlink(missing_ok=True)  # folded (old-layout snapshots: never read, dropped)
            step(f"removed {f.name}")
        _remove_empty_dirs(self.root, ("trials", "iterations", "pending"))
        return len(trials)

    # -- claims ---------------------------------------------------------------------------
    def claim(self, key: str, stale_s: float) -> bool:
        """Take the right to run ``key``; False while another worker's fresh claim holds it."""
        return _take_lock(self.root / "claims" / f"{key}.claim", stale_s)

    def release(self, key: str) -> None:
        (self.root / "claims" / f"{key}.claim").unlink(missing_ok=True)


def _table(df: pd.DataFrame) -> pa.Table:
    return pa.Table.from_pandas(df, preserve_index=False)


def _rows(path: Path) -> int:
    try:
        return pq.read_metadata(path).num_rows
    except Exception:
        return 0


def _owner_gone(path: Path) -> bool:
    """The lock's owner was a process on this host that no longer exists (killed)."""
    try:
        host, _, pid, *_ = path.read_text().split()
        if host != socket.gethostname():
            return False
        os.kill(int(pid), 0)
    except ProcessLookupError:
        return True
    except (OSError, ValueError):
        return False
    return False


def _take_lock(path: Path, stale_s: float) -> bool:
    """Create ``path`` exclusively (owner and time inside). A lock older than ``stale_s``, or
    whose owner on this host is dead, is taken over. Works on file systems that honour O_EXCL."""
    path.parent.mkdir(parents=True, exist_ok=True)
    owner = f"{socket.gethostname()} pid {os.getpid()} at {time.time():.0f}\n"
    for _ in range(2):
        try:
            fd = os.open(path, os.O_CREAT | os.O_EXCL | os.O_WRONLY, 0o666 & ~UMASK)
        except FileExistsError:
            try:
                age = time.time() - path.stat().st_mtime
            except FileNotFoundError:
                continue
            if age < stale_s and not _owner_gone(path):
                return False
            path.unlink(missing_ok=True)  # its owner died or hung: take it over
            continue
        with os.fdopen(fd, "w") as fh:
            fh.write(owner)
        return True
    return False


def _remove_empty_dirs(root: Path, names: Iterable[str]) -> None:
    for n in names:
        try:
            (root / n).rmdir()
        except OSError:
            pass
