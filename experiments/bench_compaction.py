"""Benchmark: the compaction that ends every run, on the pending files a run leaves.

    python experiments/bench_compaction.py [--trials 96] [--repeat 5]
    python experiments/bench_compaction.py --quick    # 8 trials, once: checks the script runs

Writes ``--trials`` synthetic trials (1-4 iterations each) with ``ResultStore.write`` into a
temporary store, as a run does before its last compaction, then times ``ResultStore.compact``
(the median of ``--repeat`` fresh stores) and a per-file read of the pending files.
Target: a run of 100 trials compacts in under 1 s (scaled to ``--trials``). Exit code 1 if
missed; ``--quick`` reports without judging.
"""

from __future__ import annotations

import statistics
import tempfile
import time
from pathlib import Path

from slitherbench.method.entry import OneLineArgumentParser, run_command
from slitherbench.method.record import Iteration, Trial
from slitherbench.store.result_store import ResultStore, _read

TARGET_S_PER_100 = 1.0


def _fill(root: Path, n: int) -> ResultStore:
    store = ResultStore(root)
    for k in range(n):
        iterations = 1 + k % 4
        t = Trial(key=f"k{k}", status="solved", iterations=iterations, timestamp=f"t{k:06d}")
        store.write(t, [Iteration(iteration=i + 1) for i in range(iterations)])
    return store


def main(argv: list[str] | None = None) -> int:
    ap = OneLineArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--trials", type=int, default=96)
    ap.add_argument("--repeat", type=int, default=5)
    ap.add_argument("--quick", action="store_true", help="8 trials, once, not judged")
    args = ap.parse_args(argv)
    n, repeat = (8, 1) if args.quick else (args.trials, args.repeat)
    compact_s, read_ms = [], []
    for r in range(repeat):
        with tempfile.TemporaryDirectory() as tmp:
            store = _fill(Path(tmp) / f"s{r}", n)
            files = sorted(store.pending_dir.glob("*.parquet"))
            t0 = time.perf_counter()
            for f in files:
                _read(f, None)
            read_ms.append((time.perf_counter() - t0) / len(files) * 1e3)
            t0 = time.perf_counter()
            folded = store.compact()
            compact_s.append(time.perf_counter() - t0)
            assert folded == n and len(store.trials()) == n, "a trial was lost"
    took, per_file = statistics.median(compact_s), statistics.median(read_ms)
    target = TARGET_S_PER_100 * n / 100
    print(
        f"compaction of {n} pending trials ({2 * n} files): {took:.3f} s "
        f"(median of {repeat}); one pending file read: {per_file:.2f} ms"
    )
    if args.quick:
        print("(quick, not judged)")
        return 0
    ok = took <= target
    print(f"target < {target:.2f} s: {'met' if ok else f'MISSED by {took - target:.2f} s'}")
    return 0 if ok else 1


if __name__ == "__main__":
    run_command(main)
