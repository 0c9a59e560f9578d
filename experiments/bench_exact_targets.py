"""Benchmark: the issue's speed targets for the fastest exact path (solve + uniqueness proof)
on the shipped generated 30x40 and 60x60 boards (suite ``targets``): median <= 0.1 s at
30x40 and <= 0.5 s at 60x60 on 2 cores, as ratios to CP-SAT's circuit model in the same run.

    python experiments/bench_exact_targets.py [--out results/benchmarks] [--repeats 3]
        [--limit 60] [--paths cpsat-circuit,sat-loop,sat-region,cadical-loop]
    python experiments/bench_exact_targets.py --quick    # one 5x5 board, seconds
    python experiments/bench_exact_targets.py --publish docs/findings/exact_targets

Paths: CP-SAT circuit (2 workers, the old reference), SAT lazy with loop cuts, SAT lazy with
region cuts, CaDiCaL lazy (loop cuts), and SAT on face sides with disc cuts (``sat-sides``,
now the default of ``solve_exact`` on plain puzzles). Every answer must be the board's own
and proved unique (exit code 1 otherwise); a run out of time (``--limit``) is reported as
such and counted at the limit. Prints per size the median seconds, the ratio to CP-SAT and
whether each target is met; writes the rows to bench_exact_targets.csv. ``--quick``: the
corpus' first 5x5 board, one repeat, the rows into a temporary directory unless ``--out``
is given; the figures are reported, the targets (set at 30x40 and 60x60) not judged; a wrong
answer still fails. ``--publish DEST`` writes the findings page DEST.md from the stamped rows
(:mod:`slitherbench.analysis.benchmark_page`; ``--rows`` writes it again from them).
"""

from __future__ import annotations

import sys
import tempfile
from pathlib import Path

import pandas as pd

from slitherbench.analysis import benchmark_page, render
from slitherbench.method.entry import OneLineArgumentParser, run_command
from slitherbench.solvers.constraints import solve_lazily
from slitherbench.solvers.cpsat_model import solve_exact
from slitherbench.solvers.sat import SatBackend
from slitherbench.sources.library import get_suite, loopy_dev

TARGETS_S = {"30x40": 0.1, "60x60": 0.5}
COMMAND = "python experiments/bench_exact_targets.py"
PACKAGES = ("ortools", "python-sat")
NAMES = {
    "cpsat-circuit": "CP-SAT circuit (2 workers)",
    "sat-loop": "SAT (Glucose 4), lazy loop cuts",
    "sat-region": "SAT, lazy region cuts",
    "cadical-loop": "CaDiCaL 1.9.5, lazy loop cuts",
    "sat-sides": "SAT (Glucose 4), face sides, disc cuts",
}
PATHS = {
    "cpsat-circuit": lambda p, s: solve_exact(p, time_limit_s=s, method="cpsat", workers=2),
    "sat-loop": lambda p, s: solve_lazily(SatBackend(), p, time_limit_s=s),
    "sat-region": lambda p, s: solve_lazily(SatBackend(), p, time_limit_s=s, cut="region"),
    "cadical-loop": lambda p, s: solve_lazily(SatBackend(solver="cadical195"), p, time_limit_s=s),
    "sat-sides": lambda p, s: solve_exact(p, time_limit_s=s, method="sat-sides"),
}


def verdicts(df: pd.DataFrame) -> list[tuple[str, float, str, str]]:
    """Per target size present: (size, target, fastest path's median, verdict); CP-SAT's
    circuit model is the reference, not a candidate."""
    med = df.groupby(["size", "path"])["wall_s"].median().unstack("path")
    others = med.drop(columns="cpsat-circuit", errors="ignore").dropna(axis=1, how="all")
    out = []
    for size, target in TARGETS_S.items():
        if size in others.index and not others.columns.empty:
            got, name = float(others.loc[size].min()), str(others.loc[size].idxmin())
            verdict = "met" if got <= target else f"missed by {got - target:.3g} s"
            out.append((size, target, got, f"{NAMES.get(name, name)}: {verdict}"))
    return out


def page_sections(df: pd.DataFrame) -> list[tuple[str, str]]:
    rows = []
    for (size, path), d in df.groupby(["size", "path"], sort=False):
        late = int((d.status == "timeout").sum())
        rows.append(
            {
                "size": size,
                "path": NAMES.get(path, path),
                "boards": d.puzzle.nunique(),
                "runs": len(d),
                "median s": render.fmt(float(d.wall_s.median())),
                "range s": f"{render.fmt(float(d.wall_s.min()))}-{render.fmt(float(d.wall_s.max()))}",
                "out of time": f"{late} (at {render.fmt(float(d.wall_s.max()))} s)"
                if late
                else "0",
                "proved unique, own answer": f"{int(d.ok.astype(bool).sum())}/{len(d)}",
            }
        )
    caption = (
        "Solve + uniqueness proof per run; a run out of time counts at its limit, so a median "
        "over one is a lower bound."
    )
    lines = [
        {
            "size": z,
            "target": f"<= {render.fmt(t)} s",
            "fastest median": f"{render.fmt(g)} s",
            "verdict": v,
        }
        for z, t, g, v in verdicts(df)
    ]
    target_text = benchmark_page.targets_markdown(
        lines,
        "The fastest path other than CP-SAT's circuit model.",
        "No board of a target size in these rows: not judged.",
    )
    return [
        ("Per size and path", render.grid_markdown(pd.DataFrame(rows), caption)),
        ("Targets", target_text),
    ]


def publish(df: pd.DataFrame, dest: Path) -> Path:
    return benchmark_page.write_page(
        dest,
        df,
        title="Exact solvers: the speed targets at 30x40 and 60x60",
        script=COMMAND,
        sections=page_sections(df),
    )


def main() -> int:
    ap = OneLineArgumentParser()
    ap.add_argument("--out", type=Path, help="default: results/benchmarks (--quick: a temp dir)")
    ap.add_argument("--repeats", type=int, help="runs per board and path (default 3; --quick 1)")
    ap.add_argument("--limit", type=float, default=60.0, help="seconds per run")
    ap.add_argument("--paths", default=",".join(PATHS), help="comma-separated paths to run")
    ap.add_argument("--quick", action="store_true", help="one 5x5 board; targets not judged")
    benchmark_page.add_options(ap)
    args = ap.parse_args()
    if benchmark_page.publish_from_rows(args, ap, publish):
        return 0
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
    shown = [COMMAND, *(["--quick"] if args.quick else []), f"--repeats {repeats}",
             f"--limit {args.limit:g}", f"--paths {args.paths}"]  # fmt: skip
    df = benchmark_page.stamp(pd.DataFrame(rows), PACKAGES, " ".join(shown))
    out.mkdir(parents=True, exist_ok=True)
    df.to_csv(out / "bench_exact_targets.csv", index=False)
    print(f"rows: {out / 'bench_exact_targets.csv'}")
    # A run out of time counts at the limit (so a median over it is a lower bound).
    med = df.groupby(["size", "path"])["wall_s"].median().unstack("path")
    print(df.groupby(["size", "path"])["status"].value_counts().unstack(fill_value=0).to_string())
    print("\nmedian seconds (solve + uniqueness), every board and repeat:")
    print(med.round(4).to_string())
    print("\nratio to cpsat-circuit:")
    if "cpsat-circuit" in med:
        print(med.div(med["cpsat-circuit"], axis=0).round(4).to_string())
    if args.quick:
        targets = ", ".join(f"<= {v} s at {k}" for k, v in TARGETS_S.items())
        print(f"(quick, not judged) targets: {targets} (no such board in a quick run)")
    for size, target, got, verdict in verdicts(df):  # CP-SAT alone: no verdict
        print(f"target {size}: <= {target} s; fastest {got:.3f} s; {verdict}")
    if args.publish:
        print(f"page: {publish(df, args.publish)}")
    if wrong:
        print(f"{wrong} runs gave a wrong or unproved answer", file=sys.stderr)
    return 1 if wrong else 0


if __name__ == "__main__":
    run_command(main)
