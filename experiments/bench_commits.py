"""Benchmark: the exact families' medians at two commits, interleaved (is a change neutral?).

    python experiments/bench_commits.py OLD NEW [--rounds 3] [--sizes 5x5,7x7] [--out DIR]
    python experiments/bench_commits.py --quick          # HEAD against itself, one 5x5 board

Exports each commit's tree (``git archive``, the checkout is not touched) and runs
``experiments/bench_exact_families.py`` of each commit on its own code, alternating OLD, NEW,
OLD, NEW, ... for ``--rounds`` rounds, so that a machine whose speed drifts over minutes
slows both alike. Prints, per board size and path, the median seconds of each commit over
every round and the ratio NEW/OLD, the range of the per-round ratios, and PASS/FAIL against
the target: every size's median ratio over the paths within 5 % (``--tolerance``). The
per-puzzle rows of both go to ``DIR/bench_commits.csv`` (default: a temporary directory).
On a shared 2-core VM one process's speed varies by tens of percent between runs: read the
per-round range before a FAIL, and rerun with more rounds.
"""

from __future__ import annotations

import os
import subprocess
import sys
import tempfile
from pathlib import Path

import pandas as pd

from slitherbench.method.entry import OneLineArgumentParser, run_command

ROOT = Path(__file__).resolve().parents[1]
BENCH = "experiments/bench_exact_families.py"


def export(commit: str, into: Path) -> Path:
    """The commit's tree in ``into`` (``git archive``): its own package and benchmark."""
    into.mkdir(parents=True)
    archive = subprocess.run(
        ["git", "-C", str(ROOT), "archive", "--format=tar", commit],
        check=True,
        capture_output=True,
    ).stdout
    subprocess.run(["tar", "-x", "-C", str(into)], input=archive, check=True)
    if not (into / BENCH).exists():
        raise SystemExit(f"error: commit {commit} has no {BENCH}")
    return into


def run_bench(tree: Path, out: Path, extra: list[str]) -> pd.DataFrame:
    """One run of the tree's own benchmark on the tree's own package."""
    env = {**os.environ, "PYTHONPATH": str(tree)}
    cmd = [sys.executable, BENCH, "--out", str(out), *extra]
    done = subprocess.run(cmd, cwd=tree, env=env, capture_output=True, text=True)
    if done.returncode != 0:
        raise SystemExit(f"error: {' '.join(cmd)} in {tree} failed:\n{done.stdout}{done.stderr}")
    return pd.read_csv(out / "bench_exact_families.csv")


def summary(df: pd.DataFrame, tolerance: float, judged: bool) -> bool:
    med = df.pivot_table(index=["size", "path"], columns="commit", values="seconds",
                         aggfunc="median", sort=False)  # fmt: skip
    med["new/old"] = med["new"] / med["old"]
    rounds = df.pivot_table(index=["size", "path", "round"], columns="commit",
                            values="seconds", aggfunc="median")  # fmt: skip
    ratio = (rounds["new"] / rounds["old"]).groupby(level=["size", "path"])
    med["round min"], med["round max"] = ratio.min(), ratio.max()
    print("median seconds over every round, and NEW/OLD:\n" + med.round(4).to_string())
    per_size = med["new/old"].groupby(level="size", sort=False).median()
    print("median ratio over the paths, per size:\n" + per_size.round(3).to_string())
    ok = bool(((per_size - 1).abs() <= tolerance).all())
    if not judged:
        print("(quick, not judged)")
        return True
    print(f"{'PASS' if ok else 'FAIL'}: every size within {tolerance:.0%}")
    return ok


def main() -> int:
    ap = OneLineArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("old", nargs="?", default="HEAD")
    ap.add_argument("new", nargs="?", default="HEAD")
    ap.add_argument("--rounds", type=int, default=3)
    ap.add_argument("--sizes", default="", help="comma-separated board sizes (default: all)")
    ap.add_argument("--tolerance", type=float, default=0.05)
    ap.add_argument("--out", type=Path, help="where the rows go (default: a temporary dir)")
    ap.add_argument("--quick", action="store_true", help="one round, one 5x5 board")
    args = ap.parse_args()
    work = Path(tempfile.mkdtemp(prefix="bench_commits-"))
    trees = {name: export(commit, work / name) for name, commit in
             (("old", args.old), ("new", args.new))}  # fmt: skip
    extra = ["--quick"] if args.quick else (["--sizes", args.sizes] if args.sizes else [])
    rows = []
    for r in range(1 if args.quick else args.rounds):
        for name, tree in trees.items():
            df = run_bench(tree, work / f"{name}-{r}", extra)
            rows.append(df.assign(commit=name, round=r))
            print(f"round {r + 1}: {name} done", flush=True)
    df = pd.concat(rows, ignore_index=True)
    out = args.out or work
    out.mkdir(parents=True, exist_ok=True)
    df.to_csv(out / "bench_commits.csv", index=False)
    print(f"old = {args.old}, new = {args.new}; rows: {out / 'bench_commits.csv'}")
    return 0 if summary(df, args.tolerance, judged=not args.quick) else 1


if __name__ == "__main__":
    run_command(main)
