"""Benchmark: the issue's speed targets for the fastest exact path (solve + uniqueness proof)
on the shipped generated 30x40 and 60x60 boards (suite ``targets``): median <= 0.1 s at
30x40 and <= 0.5 s at 60x60 on 2 cores, as ratios to CP-SAT's circuit model in the same run.

    python experiments/bench_exact_targets.py [--out results/benchmarks] [--repeats 3]
        [--limit 60] [--paths cpsat-circuit,sat-loop,sat-region,cadical-loop]
    python experiments/bench_exact_targets.py --quick    # one 5x5 board, seconds

Paths: CP-SAT circuit (2 workers, the old reference), SAT lazy with loop cuts (the default
of ``solve_exact``), SAT lazy with region cuts, and CaDiCaL lazy (loop cuts). Every answer
must be the board's own and proved unique (exit code 1 otherwise); a run out of time
(``--limit``) is reported as such and counted at the limit. Prints per size the
median seconds, the ratio to CP-SAT and whether each target is met; writes the rows to
bench_exact_targets.csv. ``--quick``: the corpus' first 5x5 board, one repeat, the rows into a
temporary directory unless ``--out`` is given; the figures are reported, the targets (set at
30x40 and 60x60) not judged; a wrong answer still fails.
"""

from __future__ import annotations

import argparse
import sys
import tempfile
from pathlib import Path

import pandas as pd

from slitherbench.backends.constraints import solve_lazily
from slitherbench.backends.sat import SatBackend
from slitherbench.exact import solve_exact
from slitherbench.library import get_suite, loopy_dev
from slitherbench.provenance import provenance

TARGETS_S = {"30x40": 0.1, "60x60": 0.5}
PATHS = {
    "cpsat-circuit": lambda p, s: solve_exact(p, time_limit_s=s, method="cpsat", workers=2),
    "sat-loop": lambda p, s: solve_lazily(SatBackend(), p, time_limit_s=s),
    "sat-region": lambda p, s: solve_lazily(SatBackend(), p, time_limit_s=s, cut="region"),
    "cadical-loop": lambda p, s: solve_lazily(SatBackend(solver="cadical195"), p, time_limit_s=s),
}


def main() -> int:
    ap = argparse.ArgumentParser()
    ap.add_argument("--out", type=Path, help="default: results/benchmarks (--quick: a temp dir)")
    ap.add_argument("--repeats", type=int, help="runs per board and path (default 3; --quick 1)")
    ap.add_argument("--limit", type=float, default=60.0, help="seconds per run")
    ap.add_argument("--paths", default=",".join(PATHS), help="comma-separated paths to run")
    ap.add_argument("--quick", action="store_true", help="one 5x5 board; targets not judged")
    args = ap.parse_args()
    out = args.out or (
        Path(tempfile.mkdtemp(prefix="bench_exact_targets-"))
        if args.quick
        else Path("results/benchmarks")
    )
    repeats = args.repeats or (1 if args.quick else 3)
    paths = {k: PATHS[k] for k in args.paths.split(",")}
    rows, wrong = [], 0
    for p in loopy_dev()[:1] if args.quick else get_suite("targets"):
        for name, run in paths.items():
            for rep in range(repeats):
                r = run(p, args.limit)
                ok = r.status == "unique" and r.answer == p.meta["answer"]
                wrong += not ok and r.status != "timeout"  # out of time is reported, not wrong
                rows.append({"puzzle": p.name, "size": p.size_label, "path": name,
                             "repeat": rep, "status": r.status, "ok": ok, "wall_s": r.wall_s})  # fmt: skip
                print(f"{p.name} {name} rep {rep}: {r.status} {r.wall_s:.3f} s", flush=True)
    df = pd.DataFrame(rows)
    out.mkdir(parents=True, exist_ok=True)
    df.assign(**{k: str(v) for k, v in provenance().items()}).to_csv(
        out / "bench_exact_targets.csv", index=False
    )
    print(f"rows: {out / 'bench_exact_targets.csv'}")
    # A run out of time counts at the limit (so a median over it is a lower bound).
    med = df.groupby(["size", "path"])["wall_s"].median().unstack("path")
    print(df.groupby(["size", "path"])["status"].value_counts().unstack(fill_value=0).to_string())
    print("\nmedian seconds (solve + uniqueness), every board and repeat:")
    print(med.round(4).to_string())
    print("\nratio to cpsat-circuit:")
    if "cpsat-circuit" in med:
        print(med.div(med["cpsat-circuit"], axis=0).round(4).to_string())
    others = med.drop(columns="cpsat-circuit", errors="ignore").dropna(axis=1, how="all")
    if args.quick:
        targets = ", ".join(f"<= {v} s at {k}" for k, v in TARGETS_S.items())
        print(f"(quick, not judged) targets: {targets} (no such board in a quick run)")
    for size, target in TARGETS_S.items():
        if size in others.index and not others.columns.empty:  # CP-SAT alone: no verdict
            got, name = others.loc[size].min(), others.loc[size].idxmin()
            verdict = "met" if got <= target else f"MISSED by {got - target:.3f} s"
            print(f"target {size}: <= {target} s; fastest {got:.3f} s ({name}): {verdict}")
    if wrong:
        print(f"{wrong} runs gave a wrong or unproved answer", file=sys.stderr)
    return 1 if wrong else 0


if __name__ == "__main__":
    sys.exit(main())
