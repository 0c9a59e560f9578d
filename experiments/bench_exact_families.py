"""Benchmark: every exact family solving each corpus puzzle whole and settling uniqueness.

    python experiments/bench_exact_families.py [--out results/benchmarks] [--sizes 10x10,20x36]
    python experiments/bench_exact_families.py --quick    # one 5x5 board, seconds
    python experiments/bench_exact_families.py --publish docs/findings/exact_families
    python experiments/bench_exact_families.py --rows docs/findings/exact_families/rows.csv \
        --publish docs/findings/exact_families      # the page again from its rows, no solving

Paths: CP-SAT's AddCircuit model (the reference), and lazy loop cuts (``solve_lazily``) on
SAT (python-sat, Glucose 4), CP-SAT, HiGHS and z3; the ZDD (graphillion) on boards up to
10x10 (larger ones run out of memory, see docs/findings/exact_benchmarks.md). Prints per board size the median seconds
and the ratio to CP-SAT's circuit model; writes the per-puzzle rows to bench_exact_families.csv.
Every answer must equal the corpus solution and be proved unique (exit code 1 otherwise).
``--quick``: the corpus' first 5x5 board only, rows into a temporary directory unless ``--out``
is given (checks the script runs; the same correctness check). ``--publish DEST`` writes the
findings page ``DEST.md`` with ``DEST/rows.csv`` (every row stamped with date, commit, CPU and
package versions) and its figure (:mod:`slitherbench.analysis.benchmark_page`).
"""

from __future__ import annotations

import tempfile
import time
from pathlib import Path

import pandas as pd

from slitherbench.analysis import benchmark_page, render
from slitherbench.method.entry import OneLineArgumentParser, run_command
from slitherbench.method.provenance import provenance
from slitherbench.models.formulations import ConsFormulation
from slitherbench.run.runner import run_trial
from slitherbench.solvers.constraints import solve_lazily
from slitherbench.solvers.cpsat_model import solve_exact
from slitherbench.solvers.exact import ExactBackend
from slitherbench.solvers.mip import HighsBackend
from slitherbench.solvers.sat import SatBackend
from slitherbench.solvers.smt import Z3Backend
from slitherbench.solvers.zdd import ZddBackend
from slitherbench.sources.library import loopy_dev

LAZY = {"sat": SatBackend, "cpsat-lazy": ExactBackend, "mip": HighsBackend, "smt": Z3Backend}
PATHS = {
    "cpsat-circuit": "CP-SAT circuit",
    "sat": "SAT (Glucose 4), lazy cuts",
    "cpsat-lazy": "CP-SAT, lazy cuts",
    "mip": "HiGHS, lazy cuts",
    "smt": "z3, lazy cuts",
    "zdd": "ZDD (graphillion)",
}
PACKAGES = ("ortools", "python-sat", "highspy", "z3-solver", "graphillion")
COMMAND = "python experiments/bench_exact_families.py"


def zdd_row(p) -> tuple[str, float, bool]:
    t0 = time.perf_counter()
    r = run_trial(p, ConsFormulation(), ZddBackend(), seed=0, max_iterations=1, time_limit_s=120)
    unique = '"solutions": 1' in r.trial.extras
    ok = r.status == "solved" and [c == "1" for c in r.trial.answer] == p.meta["answer"]
    return ("unique" if unique else r.trial.reason or r.status), time.perf_counter() - t0, ok


def medians(df: pd.DataFrame) -> pd.DataFrame:
    """Median seconds per board size (rows, smallest first) and path (columns)."""
    order = list(dict.fromkeys(df["size"]))
    med = df.pivot_table(index="size", columns="path", values="seconds", aggfunc="median")
    return med.reindex(index=order, columns=[p for p in PATHS if p in med.columns])


def page_sections(df: pd.DataFrame) -> list[tuple[str, str]]:
    """The page's tables and sentences, from the rows alone."""
    med = medians(df)
    ratio = med.div(med["cpsat-circuit"], axis=0)
    puzzles = df.groupby("size", sort=False).puzzle.nunique()
    table = pd.DataFrame({"size": med.index, "puzzles": puzzles.reindex(med.index).values})
    for path in med.columns:
        fastest = med.idxmin(axis=1) == path
        table[PATHS[path]] = [
            ("**{}**" if best else "{}").format(
                f"{render.fmt(float(m))}"
                + ("" if path == "cpsat-circuit" or pd.isna(m) else f" ({render.fmt(float(r))})")
            )
            if not pd.isna(m)
            else "not run"
            for m, r, best in zip(med[path], ratio[path], fastest, strict=True)
        ]
    ok = (df.status == "unique") & df.matches_corpus.astype(bool)
    per_path = df.assign(ok=ok).groupby("path", sort=False).ok.agg(["sum", "size"])
    correct = "; ".join(
        f"{PATHS[p]} {int(r['sum'])}/{int(r['size'])}" for p, r in per_path.iterrows()
    )
    sat = ratio["sat"].dropna() if "sat" in ratio else pd.Series(dtype=float)
    speed = (
        f"SAT with lazy loop cuts is {render.fmt(1 / sat.max())}-{render.fmt(1 / sat.min())}x "
        "as fast as CP-SAT's circuit model across the sizes."
        if len(sat)
        else ""
    )
    caption = (
        "Median seconds per board size to solve each corpus puzzle whole and prove it unique; "
        "in brackets the ratio to CP-SAT's circuit model; the fastest path of a size in bold. "
        + speed
    )
    return [
        ("Solve and uniqueness proof, per family", render.grid_markdown(table, caption)),
        (
            "Correctness",
            "Rows whose answer equals the corpus solution and is proved unique: "
            f"{correct}. A path that ran out of memory or time counts as not correct.\n",
        ),
    ]


def figure(df: pd.DataFrame, dest: Path) -> Path:
    import matplotlib

    matplotlib.use("Agg")  # a script's choice: no display
    import matplotlib.pyplot as plt

    med = medians(df)
    fig, ax = plt.subplots(figsize=(6, 3.6))
    for path in med.columns:
        ax.plot(range(len(med)), med[path].values, marker="o", label=PATHS[path])
    ax.set_xticks(range(len(med)), med.index)
    ax.set_yscale("log")
    ax.set_xlabel("board size")
    ax.set_ylabel("median seconds (solve + uniqueness)")
    ax.legend(fontsize=7)
    ax.grid(alpha=0.3)
    fig.tight_layout()
    path = dest / "exact_families.png"
    fig.savefig(path, dpi=120, metadata={"Software": None})
    plt.close(fig)
    return path


def publish(df: pd.DataFrame, dest: Path) -> Path:
    dest.mkdir(parents=True, exist_ok=True)
    return benchmark_page.write_page(
        dest,
        df,
        title="Exact solvers: every family on the corpus",
        script=COMMAND,
        sections=page_sections(df),
        figures=[figure(df, dest)],
    )


def main() -> int:
    ap = OneLineArgumentParser()
    ap.add_argument("--out", type=Path, help="default: results/benchmarks (--quick: a temp dir)")
    ap.add_argument("--sizes", default="", help="comma-separated board sizes (default: all)")
    ap.add_argument("--quick", action="store_true", help="the first 5x5 board only")
    benchmark_page.add_options(ap)
    args = ap.parse_args()
    if benchmark_page.publish_from_rows(args, ap, publish):
        return 0
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
    shown = " ".join([COMMAND, *(["--quick"] if args.quick else []),
                      *([f"--sizes {args.sizes}"] if args.sizes else [])])  # fmt: skip
    df = benchmark_page.stamp(pd.DataFrame(rows), PACKAGES, shown)
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
    if args.publish:
        print(f"page: {publish(df, args.publish)}")
    bad = df[(df.status != "unique") | ~df.matches_corpus]
    if len(bad):
        print("NOT unique or not the corpus answer:\n" + bad.to_string())
    return 1 if len(bad) else 0


if __name__ == "__main__":
    run_command(main)
