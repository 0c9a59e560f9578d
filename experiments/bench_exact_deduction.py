"""Benchmark: the exact path with deduction beside today's, in one run. Solve + uniqueness
proof on the shipped generated 30x40 boards (suite ``targets``) and the corpus's largest
Loopy boards (20x36, one per grade); target: median <= 0.1 s per 30x40 board.

    python experiments/bench_exact_deduction.py [--out results/benchmarks] [--repeats 3] [--limit 10]
    python experiments/bench_exact_deduction.py --quick    # one 5x5 board, seconds
    python experiments/bench_exact_deduction.py --publish docs/findings/exact_deduction

Paths: SAT (Glucose 4) with lazy loop cuts (``method="sat"``); the same after deduction by
forced moves (``presolve=rules``) and after look-ahead 1 (``presolve=lookahead1``), the
deduction's time included and never assuming uniqueness; SAT with face sides and cut-set cuts
(``method="sat-sides"``, :mod:`slitherbench.solvers.sat_sides`: a found loop cut on its
closed disc first), alone and after each deduction, and alone with cut sets on a loop's
points only (``sat-sides points``, the form before the disc cuts); CP-SAT's circuit model
without and with ``presolve=rules``. Every answer must be the board's own and proved unique
(exit code 1 otherwise); a run out of time (``--limit``) is counted at the limit.
``--publish DEST`` writes the findings page from the stamped rows (``--rows`` writes it
again from them).
"""

from __future__ import annotations

import sys
import tempfile
from pathlib import Path

import pandas as pd

from slitherbench.analysis import benchmark_page, render
from slitherbench.deduction import grade
from slitherbench.method.entry import OneLineArgumentParser, run_command
from slitherbench.solvers.cpsat_model import solve_exact
from slitherbench.solvers.sat_sides import solve_sides
from slitherbench.sources.library import get_suite, loopy_dev

TARGET_S = 0.1  # median per 30x40 board, solve + uniqueness proof
COMMAND = "python experiments/bench_exact_deduction.py"
PACKAGES = ("ortools", "python-sat")
PATHS = {
    "sat": ("sat", "none"),
    "sat+rules": ("sat", "rules"),
    "sat+lookahead1": ("sat", "lookahead1"),
    "sat-sides points": ("sat-sides points", "none"),
    "sat-sides": ("sat-sides", "none"),
    "sat-sides+rules": ("sat-sides", "rules"),
    "sat-sides+lookahead1": ("sat-sides", "lookahead1"),
    "cpsat": ("cpsat", "none"),
    "cpsat+rules": ("cpsat", "rules"),
}


def run_path(p, limit: float, method: str, presolve: str):
    if method == "sat-sides points":  # cut sets on a loop's points only, no discs
        return solve_sides(p, limit, discs=False)
    return solve_exact(p, limit, method=method, presolve=presolve)


def boards(quick: bool) -> list:
    if quick:
        return list(loopy_dev()[:1])
    large = [p for p in loopy_dev() if p.size_label == "20x36"]
    return [p for p in get_suite("targets") if p.size_label == "30x40"] + large


def verdict(df: pd.DataFrame) -> tuple[str, float, str] | None:
    """The fastest path's median at 30x40 against the target (None: no such board)."""
    big = df[df["size"] == "30x40"]
    if big.empty:
        return None
    med = big.groupby("path")["wall_s"].median()
    best = str(med.idxmin())
    got = float(med[best])
    met = "met" if got <= TARGET_S else f"missed by {got - TARGET_S:.3f} s ({got / TARGET_S:.1f}x)"
    return best, got, met


def page_sections(df: pd.DataFrame) -> list[tuple[str, str]]:
    paths = [p for p in PATHS if p in set(df["path"])]
    med = df.groupby(["size", "grade", "path"])["wall_s"].median().unstack("path")[paths]
    med = med.map(lambda v: render.fmt(float(v))).reset_index()
    ok = df.groupby(["size", "path"])["ok"].agg(["sum", "count"])
    counts = ok.apply(lambda r: f"{int(r['sum'])}/{int(r['count'])}", axis=1).unstack("path")
    out = [
        (
            "Median seconds, solve and uniqueness proof",
            render.grid_markdown(
                med,
                "Per board size and grade (the deduction's own: the lowest level that settles "
                "the board); every board and repeat; a run out of time counts at the limit.",
            ),
        ),
        (
            "Proved unique with the board's own answer",
            render.grid_markdown(counts[paths].reset_index(), "Runs per size and path."),
        ),
    ]
    big = df[df["size"] == "30x40"]
    if not big.empty:
        per = big.groupby(["puzzle", "path"])["wall_s"].median().unstack("path")
        per = per[[p for p in paths if p in per.columns]].map(lambda v: render.fmt(float(v)))
        out.append(
            (
                "Per 30x40 board",
                render.grid_markdown(
                    per.reset_index(),
                    "Median seconds per board over its repeats: the target's median is taken "
                    "over every board and repeat.",
                ),
            )
        )
    v = verdict(df)
    if v is not None:
        best, got, met = v
        out.append(
            (
                "Target",
                f"Median <= {TARGET_S} s per 30x40 board: fastest path `{best}`, "
                f"{got:.3f} s: **{met}**.",
            )
        )
    return out


def publish(df: pd.DataFrame, dest: Path) -> Path:
    return benchmark_page.write_page(
        dest,
        df,
        title="The exact path with deduction: solve and uniqueness proof",
        script=COMMAND,
        sections=page_sections(df),
    )


def main() -> int:
    ap = OneLineArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--out", type=Path, help="default: results/benchmarks (--quick: a temp dir)")
    ap.add_argument("--repeats", type=int, help="runs per board and path (default 3; --quick 1)")
    ap.add_argument("--limit", type=float, default=10.0, help="seconds per run")
    ap.add_argument("--quick", action="store_true", help="one 5x5 board; target not judged")
    benchmark_page.add_options(ap)
    args = ap.parse_args()
    if benchmark_page.publish_from_rows(args, ap, publish):
        return 0
    out = args.out or (
        Path(tempfile.mkdtemp(prefix="bench_exact_deduction-"))
        if args.quick
        else Path("results/benchmarks")
    )
    repeats = args.repeats or (1 if args.quick else 3)
    rows, wrong = [], 0
    for p in boards(args.quick):
        level = grade(p).level
        for name, (method, presolve) in PATHS.items():
            for rep in range(repeats):
                r = run_path(p, args.limit, method, presolve)
                ok = r.status == "unique" and r.answer == p.meta["answer"]
                wrong += not ok and r.status != "timeout"  # out of time is reported, not wrong
                wall = r.wall_s if r.status != "timeout" else max(r.wall_s, args.limit)
                rows.append({"puzzle": p.name, "size": p.size_label, "grade": level, "path": name,
                             "repeat": rep, "status": r.status, "ok": ok, "wall_s": wall})  # fmt: skip
                print(f"{p.name} {name} rep {rep}: {r.status} {r.wall_s:.3f} s", flush=True)
    shown = [COMMAND, *(["--quick"] if args.quick else []), f"--repeats {repeats}",
             f"--limit {args.limit:g}"]  # fmt: skip
    df = benchmark_page.stamp(pd.DataFrame(rows), PACKAGES, " ".join(shown))
    out.mkdir(parents=True, exist_ok=True)
    df.to_csv(out / "bench_exact_deduction.csv", index=False)
    print(f"rows: {out / 'bench_exact_deduction.csv'}")
    med = df.groupby(["size", "path"])["wall_s"].median().unstack("path")
    print("\nmedian seconds (solve + uniqueness), every board and repeat:")
    print(med.round(4).to_string())
    v = verdict(df)
    if v is None:
        print(f"(quick, not judged) target: median <= {TARGET_S} s per 30x40 board")
    else:
        best, got, met = v
        print(f"target 30x40: <= {TARGET_S} s; fastest {best} {got:.3f} s; {met}")
    if args.publish:
        print(f"page: {publish(df, args.publish)}")
    if wrong:
        print(f"{wrong} runs gave a wrong or unproved answer", file=sys.stderr)
    return 1 if wrong else 0


if __name__ == "__main__":
    run_command(main)
