"""Benchmark: the exact CP-SAT reference on every corpus puzzle (solve + uniqueness proof),
and the exact iterative method's iteration counts.

    python experiments/bench_exact.py [--out results/benchmarks]
    python experiments/bench_exact.py --quick    # one 5x5 board, seconds: checks the script runs
    python experiments/bench_exact.py --publish docs/findings/exact_circuit   # and the page

Targets (2 cores): median under 0.2 s at 10x10 and under 1 s at 20x36. Exit code 1 if missed.
``--quick`` reports the same figures on the corpus' first 5x5 board without judging them
(into a temporary directory unless ``--out`` is given). A wrong or unproved answer fails
either way. ``--publish DEST`` writes the findings page DEST.md from the stamped rows
(:mod:`slitherbench.analysis.benchmark_page`; ``--rows`` writes it again from them).
"""

from __future__ import annotations

import statistics
import tempfile
import time
from pathlib import Path

import pandas as pd

from slitherbench.analysis import benchmark_page, render
from slitherbench.method.entry import OneLineArgumentParser, run_command
from slitherbench.method.provenance import provenance
from slitherbench.models.formulations import ConsFormulation
from slitherbench.run.runner import run_trial
from slitherbench.solvers.cpsat_model import solve_exact
from slitherbench.solvers.exact import ExactBackend
from slitherbench.sources.library import loopy_dev

TARGETS = {"10x10": 0.2, "20x36": 1.0}
COMMAND = "python experiments/bench_exact.py"
PACKAGES = ("ortools",)


def per_size(df: pd.DataFrame) -> pd.DataFrame:
    g = df.groupby("size", sort=False)
    return pd.DataFrame(
        {
            "puzzles": g.size(),
            "unique": g.status.apply(lambda s: int((s == "unique").sum())),
            "median_s": g.exact_s.median().round(3),
            "max_s": g.exact_s.max().round(3),
            "iter_median": g.iterative_iterations.median(),
            "iter_max": g.iterative_iterations.max(),
            "iterative_median_s": g.iterative_s.median().round(3),
        }
    )


def page_sections(df: pd.DataFrame) -> list[tuple[str, str]]:
    t = per_size(df)
    table = pd.DataFrame(
        {
            "size": t.index,
            "puzzles": t.puzzles.values,
            "proved unique": t.unique.values,
            "median s": [render.fmt(float(v)) for v in t.median_s],
            "max s": [render.fmt(float(v)) for v in t.max_s],
            "iterative method: median / max iterations": [
                f"{render.fmt(float(a))} / {render.fmt(float(b))}"
                for a, b in zip(t.iter_median, t.iter_max, strict=True)
            ],
            "iterative method: median s": [render.fmt(float(v)) for v in t.iterative_median_s],
        }
    )
    caption = (
        "CP-SAT's circuit model (`AddCircuit` plus the redundant degree rule per point): solve "
        "and uniqueness proof per corpus puzzle; the exact iterative method (CP-SAT at each "
        "iteration, loop cuts) on the same puzzles. Answers equal to the corpus solution: "
        f"{int(df.matches_corpus.astype(bool).sum())}/{len(df)}."
    )
    lines = []
    for size, limit in TARGETS.items():
        if size in t.index:
            med = float(t.loc[size, "median_s"])
            verdict = "met" if med < limit else f"**missed by {render.fmt(med - limit)} s**"
            lines.append(
                {
                    "size": size,
                    "target": f"median < {render.fmt(limit)} s",
                    "measured": f"{render.fmt(med)} s",
                    "verdict": verdict,
                }
            )
    targets = benchmark_page.targets_markdown(
        lines, "", "No board of a target size in these rows: not judged."
    )
    return [("Per size", render.grid_markdown(table, caption)), ("Targets", targets)]


def publish(df: pd.DataFrame, dest: Path) -> Path:
    return benchmark_page.write_page(
        dest,
        df,
        title="Exact solvers: CP-SAT's circuit model on the corpus",
        script=COMMAND,
        sections=page_sections(df),
    )


def main() -> int:
    ap = OneLineArgumentParser()
    ap.add_argument("--out", type=Path, help="default: results/benchmarks (--quick: a temp dir)")
    ap.add_argument("--quick", action="store_true", help="one 5x5 board; report without judging")
    benchmark_page.add_options(ap)
    args = ap.parse_args()
    if benchmark_page.publish_from_rows(args, ap, publish):
        return 0
    out = args.out or (
        Path(tempfile.mkdtemp(prefix="bench_exact-")) if args.quick else Path("results/benchmarks")
    )
    puzzles = loopy_dev()[:1] if args.quick else loopy_dev()
    rows = []
    for p in puzzles:
        r = solve_exact(p, time_limit_s=60, method="cpsat")
        t0 = time.perf_counter()
        it = run_trial(p, ConsFormulation(), ExactBackend(), seed=0, max_iterations=1000).trial
        rows.append(
            {
                "puzzle": p.name,
                "size": p.size_label,
                "status": r.status,
                "matches_corpus": r.answer == p.meta["answer"],
                "exact_s": r.wall_s,
                "iterative_status": it.status,
                "iterative_iterations": it.iterations,
                "iterative_s": time.perf_counter() - t0,
            }
        )
    shown = " ".join([COMMAND, *(["--quick"] if args.quick else [])])
    df = benchmark_page.stamp(pd.DataFrame(rows), PACKAGES, shown)
    out.mkdir(parents=True, exist_ok=True)
    df.to_csv(out / "bench_exact.csv", index=False)
    print(f"rows: {out / 'bench_exact.csv'}")
    if args.publish:
        print(f"page: {publish(df, args.publish)}")
    table = per_size(df)
    print(f"CPU: {provenance()['cpu']} ({provenance()['cpu_count']} cores)")
    print(
        table.to_markdown()
        if hasattr(table, "to_markdown") and _has_tabulate()
        else table.to_string()
    )
    ok = bool(df.matches_corpus.all() and (df.status == "unique").all())
    if args.quick:
        for size, times in df.groupby("size", sort=False)["exact_s"]:
            print(f"(quick, not judged) median {statistics.median(times):.3f} s at {size} "
                  f"(targets: {', '.join(f'< {v} s at {k}' for k, v in TARGETS.items())})")  # fmt: skip
        return 0 if ok else 1
    for size, limit in TARGETS.items():
        med = statistics.median(df.loc[df["size"] == size, "exact_s"])
        verdict = "PASS" if med < limit else "FAIL"
        ok &= med < limit
        print(f"{verdict}: median {med:.3f} s at {size} (target < {limit} s)")
    return 0 if ok else 1


def _has_tabulate() -> bool:
    try:
        import tabulate  # noqa: F401
    except ImportError:
        return False
    return True


if __name__ == "__main__":
    run_command(main)
