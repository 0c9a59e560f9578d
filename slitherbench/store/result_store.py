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
pending files (and small parts) into parts of at most :data:`PART_TRIALS` trials and then
deletes what it folded: a crash at any step leaves duplicates, never a gap, and readers keep
one copy of each trial (the newest write) with the iterations of that very write
(``write_id``). A trial counts as finished only with all of its iterations stored
(:meth:`ResultStore.finished_keys`): one whose iterations were lost runs again.
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

from slitherbench.method.record import FINAL_STATUSES, ITERATION_FROM_TRIAL, Iteration, Trial

# A part holds at most PART_TRIALS trials (and their iterations): a lost or damaged file costs
# at most that many trials, which the next run runs again. Measured at 100,000 trials (2
# cores, experiments/bench_store.py --direct --parts): 5 parts of 20,000 load in 0.74 s and
# decide a resume in 0.32 s, 50 parts of 2,000 in 1.31 s and 0.53 s, 100 parts of 1,000 in
# 1.70 s and 0.70 s (targets 2 s and 1 s); 2,000 keeps both well inside their targets.
PART_TRIALS = 2_000
# Parts below SMALL_PART_ROWS are merged again, when there are MERGE_PARTS of them or they
# are cheap to merge (fewer than CHEAP_MERGE_ROWS rows together): few files to read, and each
# row rewritten only a few times however long the campaign.
SMALL_PART_ROWS = PART_TRIALS
MERGE_PARTS = 8
CHEAP_MERGE_ROWS = PART_TRIALS
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


# A file of fewer rows is read on one thread: a pending file (one trial) read with Arrow's
# thread pool took 7.7-8.9 ms, on one thread 2.1 ms (2 cores, pyarrow's ParquetFile), and a
# run ends by compacting every pending file it wrote.
THREADED_ROWS = 10_000


def _parquet(path: Path, columns: Sequence[str] | None = None) -> pa.Table:
    """A Parquet file's ``columns`` (those it has; None: all), threaded only when large."""
    f = pq.ParquetFile(path)
    if columns is not None:
        have = set(f.schema_arrow.names)
        columns = [c for c in columns if c in have]
    return f.read(columns=columns, use_threads=f.metadata.num_rows >= THREADED_ROWS)


def _read(path: Path, columns: Sequence[str] | None) -> pa.Table | None:
    try:
        return _parquet(path, columns)
    except FileNotFoundError:
        return None  # compacted away between listing and reading: its rows are in a part
    except Exception as exc:
        _warn_unreadable(path, exc)
        return None


def _read_ids(path: Path) -> pa.Table | None:
    """``write_id`` and ``iteration`` of an iterations file (the key stands for the write id
    in files written before write ids existed)."""
    try:
        names = set(pq.read_schema(path).names)
        if "write_id" not in names:
            t = _parquet(path, ["key", "iteration"])
            return t.rename_columns(["write_id", "iteration"])
        t = _parquet(path, ["write_id", "iteration"])
        wid = t["write_id"]
        if pc.any(pc.or_kleene(pc.is_null(wid), pc.equal(wid, ""))).as_py():
            key = _parquet(path, ["key"])["key"]
            blank = pc.or_kleene(pc.is_null(wid), pc.equal(wid, ""))
            t = t.set_column(0, "write_id", pc.if_else(blank, key, wid))
        return t
    except FileNotFoundError:
        return None
    except Exception as exc:
        _warn_unreadable(path, exc)
        return None


def _concat(tables: Iterable[pa.Table | None]) -> pd.DataFrame:
    """The tables' rows as one frame: joined in Arrow and converted once (a conversion per
    table cost 1.7 ms, most of a compaction of small files), each column's type promoted as
    needed; pandas joins them instead where Arrow cannot (a column of two kinds)."""
    kept = [t for t in tables if t is not None and t.num_rows]
    if not kept:
        return pd.DataFrame()
    try:
        # the pandas metadata of one file (its index) says nothing about the others'
        joined = pa.concat_tables(
            [t.replace_schema_metadata(None) for t in kept], promote_options="permissive"
        )
    except (pa.ArrowInvalid, pa.ArrowTypeError, pa.ArrowNotImplementedError):
        return pd.concat([t.to_pandas() for t in kept], ignore_index=True)
    return joined.to_pandas()


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

    # -- completeness: a trial row counts only with every one of its iterations ----------------
    def iteration_counts(self) -> pd.Series:
        """Distinct stored iterations per write id, over every readable iterations file
        (two narrow columns read: cheap at campaign scale)."""
        for _ in range(5):  # as _read_all: a compaction may fold a file away meanwhile
            files = self._files("iterations")
            tables = [_read_ids(f) for f in files]
            if all(f.exists() or t is not None for f, t in zip(files, tables, strict=True)):
                break
        filled = [t for t in tables if t is not None and t.num_rows]
        if not filled:
            return pd.Series(dtype="int64")
        ids = pa.concat_tables(  # plain columns: files differ in string type and metadata
            pa.table({"write_id": t["write_id"].cast(pa.string()), "iteration": t["iteration"]})
            for t in filled
        )
        counts = ids.group_by("write_id").aggregate([("iteration", "count_distinct")])
        return pd.Series(
            counts["iteration_count_distinct"].to_numpy(),
            index=counts["write_id"].to_numpy(zero_copy_only=False),
            dtype="int64",
        )

    @staticmethod
    def _complete(df: pd.DataFrame, counts: pd.Series) -> pd.Series:
        """Per trial row: whether all of its ``iterations`` are stored (with its write id)."""
        if "iterations" not in df:  # a store too old to say: its rows count as they are
            return pd.Series(True, index=df.index)
        need = pd.to_numeric(df["iterations"], errors="coerce").fillna(0)
        have = df["write_id"].map(counts).fillna(0) if len(counts) else 0
        return need <= have

    def is_finished(self, key: str, since: str = "", final_counts: bool = True) -> bool:
        """Whether another worker has just stored ``key``: an outcome stored at or after
        ``since`` (an ISO time; a skip in this same run is not tried twice), or, with
        ``final_counts``, a final outcome from any time stored with all its iterations.
        Cheap: the key's own pending files, and the full key list only when the parts
        changed."""
        # Pending files first, parts after: a compaction writes its part before it deletes
        # what it folded, so a record is seen in one place or the other, never in neither.
        files = list(self.pending_dir.glob(f"{key}--*.trial.parquet"))
        files += [f for f in [self.root / "trials" / f"{key}.parquet"] if f.exists()]
        cols = ["key", "status", "timestamp", "iterations", "write_id"]
        df = _concat(_read(f, cols) for f in files)
        if not df.empty:
            df = _write_id(df)
            df["complete"] = self._complete(df, self._pending_counts(df))
            if not df["complete"].all():  # or a compaction folded its iterations just now
                df["complete"] = self._complete(df, self.iteration_counts())
        parts = set(self.parts_dir.glob("trials-*.parquet")) if self.parts_dir.exists() else set()
        if parts != self._parts_seen:
            recent = self.trials(["status", "iterations"])
            if not recent.empty:
                recent["complete"] = self._complete(recent, self.iteration_counts())
            self._parts_seen, self._recent = parts, recent
        if not self._recent.empty:
            df = pd.concat([df, self._recent[self._recent.key == key]], ignore_index=True)
        if df.empty:
            return False
        newest = df.sort_values("timestamp").iloc[-1]
        final = newest.status in {s.value for s in FINAL_STATUSES} and bool(newest.complete)
        return bool((final_counts and final) or (since and str(newest.timestamp) >= since))

    def _pending_counts(self, df: pd.DataFrame) -> pd.Series:
        """Stored iterations of these pending (or old-layout) trial rows, from their own files."""
        out = {}
        for wid, key in zip(df["write_id"], df["key"], strict=True):
            files = [self.pending_dir / f"{key}--{wid}.iters.parquet"]
            files += [self.root / "iterations" / f"{key}.parquet"] if wid == key else []
            t = next((t for f in files if f.exists() and (t := _read_ids(f)) is not None), None)
            out[wid] = len(set(t["iteration"].to_pylist())) if t is not None else 0
        return pd.Series(out, dtype="int64")

    def finished_keys(self) -> set[str]:
        """Keys of trials with a final outcome stored with all of its iterations (skipped and
        error trials, and trials whose iterations are missing or unreadable, are run again),
        from the key, status, timestamp and iterations columns and the iterations' ids."""
        df = self.trials(["status", "iterations"])
        if df.empty:
            return set()
        final = df[df["status"].isin([s.value for s in FINAL_STATUSES])]
        if final.empty:
            return set()
        return set(final.loc[self._complete(final, self.iteration_counts()), "key"])

    def incomplete(self) -> dict[str, list[str]]:
        """What the store lost: ``trials without iterations`` (keys of trial rows whose
        iterations are missing or unreadable) and ``iterations without trials`` (keys whose
        iteration rows have no readable trial row)."""
        trials = self.trials(["status", "iterations"])
        lost: list[str] = []
        if not trials.empty:
            lost = sorted(trials.loc[~self._complete(trials, self.iteration_counts()), "key"])
        orphans = self._read_all("iterations", ["key"])
        known = set(trials["key"]) if not trials.empty else set()
        stray = sorted(set(orphans["key"]) - known) if not orphans.empty else []
        return {"trials without iterations": lost, "iterations without trials": stray}

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
        """Fold pending files, old-layout files and small parts into parts of at most
        :data:`PART_TRIALS` trials each (a damaged file costs no more); return the
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
        read_t, read_i = ({f: _read(f, None) for f in src} for src in (src_t, src_i))
        # A file that cannot be read is left where it is (a run moves it aside and says so),
        # never folded away with the readable ones.
        src_t = [f for f, t in read_t.items() if t is not None or not f.exists()]
        src_i = [f for f, t in read_i.items() if t is not None or not f.exists()]
        trials = _concat(read_t.values())
        iters = _concat(read_i.values())
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
        step("read")
        chunks = [trials.iloc[k : k + PART_TRIALS] for k in range(0, len(trials), PART_TRIALS)]
        placed: set[str] = set()
        for k, chunk in enumerate(chunks):
            part = f"{time.strftime('%Y%m%dT%H%M%S')}-{uuid.uuid4().hex[:8]}"
            ids = set(chunk["write_id"])
            placed |= ids
            # The last part also keeps iteration rows whose trial is not in this batch yet
            # (written between the two listings above): its next compaction pairs them.
            mine = iters["write_id"].isin(ids) if not iters.empty else None
            if mine is not None and k == len(chunks) - 1:
                mine |= ~iters["write_id"].isin(placed)
            if mine is not None and mine.any():  # iterations first, as for a single trial
                _atomic_write(_table(iters[mine]), self.parts_dir / f"iterations-{part}.parquet")
            step("iterations part written")
            _atomic_write(_table(chunk), self.parts_dir / f"trials-{part}.parquet")
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

    def release_if_mine(self, key: str) -> None:
        """Release ``key``'s claim if this process holds it (a run stopped while taking or
        giving back a claim; another worker's claim is left alone)."""
        path = self.root / "claims" / f"{key}.claim"
        if _owner(path) == (socket.gethostname(), os.getpid()):
            path.unlink(missing_ok=True)


def _table(df: pd.DataFrame) -> pa.Table:
    return pa.Table.from_pandas(df, preserve_index=False)


def _rows(path: Path) -> int:
    try:
        return pq.read_metadata(path).num_rows
    except Exception:
        return 0


def _owner(path: Path) -> tuple[str, int] | None:
    """(host, pid) from a lock's owner line (:func:`_take_lock`), or None if unreadable."""
    try:
        host, _, pid, *_ = path.read_text().split()
        return host, int(pid)
    except (OSError, ValueError):
        return None


def _owner_gone(path: Path) -> bool:
    """The lock's owner was a process on this host that no longer exists (killed)."""
    owner = _owner(path)
    if owner is None or owner[0] != socket.gethostname():
        return False
    try:
        os.kill(owner[1], 0)
    except ProcessLookupError:
        return True
    except OSError:
        return False
    return False


def _take_lock(path: Path, stale_s: float) -> bool:
    """Create ``path`` exclusively (owner and time inside). A lock older than ``stale_s``, or
    whose owner on this host is dead, is taken over. The owner line is written to a temporary
    file first and linked into place, so a lock never exists without its owner: an empty lock
    (a process stopped between creating and writing it) would read as held until ``stale_s``
    and hold its trial back from the next run. File systems without hard links fall back to
    O_EXCL, which they honour."""
    path.parent.mkdir(parents=True, exist_ok=True)
    owner = f"{socket.gethostname()} pid {os.getpid()} at {time.time():.0f}\n"
    tmp = path.parent / f".tmp-{uuid.uuid4().hex}-{path.name}"
    try:
        tmp.write_text(owner)
        os.chmod(tmp, 0o666 & ~UMASK)
        for _ in range(2):
            try:
                _create_from(tmp, path)
            except FileExistsError:
                try:
                    age = time.time() - path.stat().st_mtime
                except FileNotFoundError:
                    continue
                if age < stale_s and not _owner_gone(path):
                    return False
                path.unlink(missing_ok=True)  # its owner died or hung: take it over
                continue
            return True
        return False
    finally:
        tmp.unlink(missing_ok=True)


def _create_from(tmp: Path, path: Path) -> None:
    """Give ``path`` the contents of ``tmp`` in one step; FileExistsError if it exists."""
    try:
        os.link(tmp, path)
    except FileExistsError:
        raise
    except OSError:  # no hard links here: exclusive create, then write
        fd = os.open(path, os.O_CREAT | os.O_EXCL | os.O_WRONLY, 0o666 & ~UMASK)
        with os.fdopen(fd, "w") as fh:
            fh.write(tmp.read_text())


def _remove_empty_dirs(root: Path, names: Iterable[str]) -> None:
    for n in names:
        try:
            (root / n).rmdir()
        except OSError:
            pass
