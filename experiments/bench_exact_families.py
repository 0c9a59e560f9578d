"""Benchmark: every exact family solving each corpus puzzle whole and settling uniqueness.

    python experiments/bench_exact_families.py [--out results/benchmarks] [--sizes 10x10,20x36]
    python experiments/bench_exact_families.py --quick    # one 5x5 board, seconds

Paths: CP-SAT's AddCircuit model (the reference), and lazy loop cuts (``solve_lazily``) on
SAT (python-sat, Glucose 4), CP-SAT, HiGHS and z3; the ZDD (graphillion) on boards up to
10x10 (larger ones run out of memory, see docs/findings/exact_benchmarks.md). Prints per board size the median seconds
and the ratio to CP-SAT's circuit model; writes the per-puzzle rows to bench_exact_families.csv.
Every answer must equal the corpus solution and be proved unique (exit code 1 otherwise).
``--quick``: the corpus' first 5x5 board only, rows into a temporary directory unless ``--out``
is given (checks the script runs; the same correctness check).
"""

from __future__ import annotations

import argparse
import sys
import tempfile
import time
from pathlib import Path

import pandas as pd

from slitherbench.backends.constraints import solve_lazily
from slitherbench.backends.exact import ExactBackend
from slitherbench.backends.mip import HighsBackend
from slitherbench.backends.sat import SatBackend
from slitherbench.backends.smt import Z3Backend
from slitherbench.backends.zdd import ZddBackend
from slitherbench.exact import solve_exact
from slitherbench.formulations import ConsFormulation
from slitherbench.library import loopy_dev
from slitherbench.provenance import provenance
from slitherbench.runner import run_trial

LAZY = {"sat": SatBackend, "cpsat-lazy": ExactBackend, "mip": HighsBackend, "smt": Z3Backend}


def zdd_row(p) -> tuple[str, float, bool]:
    t0 = time.perf_counter()
    r = run_trial(p, ConsFormulation(), ZddBackend(), seed=0, max_iterations=1, time_limit_s=120)
    unique = '"solutions": 1' in r.trial.extras
    ok = r.status == "solved" and [c == "1" for c in r.trial.answer] == p.meta["answer"]
    return ("unique" if unique else r.trial.reason or r.status), time.perf_counter() - t0, ok


def main() -> int:
    ap = argparse.ArgumentParser()
    ap.add_argument("--out", type=Path, help="default: results/benchmarks (--quick: a temp dir)")
    ap.add_argument("--sizes", default="", help="comma-separated board sizes (default: all)")
    ap.add_argument("--quick", action="store_true", help="the first 5x5 board only")
    args = ap.parse_args()
    out = args.out or (
        Path(tempfile.mkdtemp(prefix="bench_exact_families-"))
        if args.quick
        else Path("results/benchmarks")
    )
    sizes = set(filter(None, args.sizes.split(",")))
    rows = []
    for p in loopy_dev()[:1] if args.quick else loopy_dev():
        if sizes and p.size_label not in sizes:
            continue
        r = solve_exact(p, time_limit_s=120, method="cpsat")
        runs = {"cpsat-circuit": (r.status, r.wall_s, r.answer == p.meta["answer"])}
        for name, cls in LAZY.items():
            r = solve_lazily(cls(), p, time_limit_s=120)
            runs[name] = (r.status, r.wall_s, r.answer == p.meta["answer"])
        if p.rows * p.cols <= 100:
            runs["zdd"] = zdd_row(p)
        for path, (status, wall, ok) in runs.items():
            rows.append({"puzzle": p.name, "size": p.size_label, "path": path,
                         "status": status, "seconds": wall, "matches_corpus": ok})  # fmt: skip
        print(p.name, {k: f"{v[0]} {v[1]:.3f}s" for k, v in runs.items()}, flush=True)
    df = pd.DataFrame(rows)
    out.mkdir(parents=True, exist_ok=True)
    df.to_csv(out / "bench_exact_families.csv", index=False)
    print(f"rows: {out / 'bench_exact_families.csv'}")
    med = df.pivot_table(
        index="size", columns="path", values="seconds", aggfunc="median", sort=False
    )
    ratio = med.div(med["cpsat-circuit"], axis=0)
    print(f"CPU: {provenance()['cpu']} ({provenance()['cpu_count']} cores)")
    print("median seconds (solve + uniqueness):\n" + med.round(4).to_string())
    print("ratio to CP-SAT's circuit model:\n" + ratio.round(3).to_string())
    bad = df[(df.status != "unique") | ~df.matches_corpus]
    if len(bad):
        print("NOT unique or not the corpus answer:\n" + bad.to_string())
    return 1 if len(bad) else 0


if __name__ == "__main__":
    sys.exit(main())
