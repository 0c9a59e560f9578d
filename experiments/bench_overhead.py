"""Benchmark: the harness's overhead (a trial's wall time minus the backend's own search).

    python experiments/bench_overhead.py            # the main job as it is, then the exact case
    python experiments/bench_overhead.py --quick    # tiny boards, seconds: checks the script runs
    python experiments/bench_overhead.py --publish docs/findings/harness_overhead_DATE  # + page

Runs the main job (``experiment=hubo_vs_qubo``: every form x backend cell over its boards,
seeds and settings) into a temporary store, then CP-SAT and SAT on the corpus' 20x36 boards,
and reports per cell the harness's share of the trials' wall time and its time per
iteration, where it goes (model build, the backend's set-up and reduction), and for the
trials run in a fresh process (pyqbpp) the process around them.

Targets: overhead under 5 % of wall time for every cell of the main job, under 20 ms per
iteration for the exact families (their solve is short, so overhead shows). PASS/FAIL per
target; exit code 1 if one is missed. ``--quick`` reports the same figures on tiny boards
without judging them (a 3x3 board's solve is shorter than the harness's fixed costs).

``--publish DEST`` stamps the per-cell rows (command, date, commit, machine, versions) and
writes the findings page DEST.md from them (:mod:`slitherbench.analysis.benchmark_page`); ``--rows
DEST/rows.csv --publish DEST`` writes it again without measuring.
"""

from __future__ import annotations

import os
import subprocess
import sys
import tempfile
import time
from dataclasses import asdict
from pathlib import Path

import pandas as pd

from slitherbench.method.entry import OneLineArgumentParser, run_command

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from slitherbench.analysis import benchmark_page, render  # noqa: E402
from slitherbench.models.formulations import ConsFormulation  # noqa: E402
from slitherbench.run.runner import run_trial  # noqa: E402
from slitherbench.solvers.exact import ExactBackend  # noqa: E402
from slitherbench.solvers.sat import SatBackend  # noqa: E402
from slitherbench.sources.library import generated, loopy_dev  # noqa: E402
from slitherbench.store.results import load  # noqa: E402

SHARE_TARGET = 0.05
PER_ITERATION_TARGET_S = 0.020
QUICK = ["puzzle=tiny", "repetitions=1", "time_limit_s=3", "max_iterations=5", "workers=1"]
QUICK += ["progress=false"]
COMMAND = "python experiments/bench_overhead.py"
PACKAGES = ("openjij", "dwave-samplers", "pyqbpp", "ortools", "python-sat")
MAIN = "main job"
EXACT = {False: "exact families, the corpus' 20x36 boards", True: "exact families, a 5x5 board"}


def run_main_job(store: Path, extra: list[str]) -> float:
    cmd = [
        sys.executable,
        "-m",
        "slitherbench",
        "experiment=hubo_vs_qubo",
        f"results_dir={store}",
        *extra,
    ]
    print("$", " ".join(cmd[1:]), flush=True)
    t0 = time.perf_counter()
    subprocess.run(cmd, check=True, cwd=ROOT, env={**os.environ, "PYTHONPATH": str(ROOT)})
    return time.perf_counter() - t0


def per_cell(trials: pd.DataFrame) -> pd.DataFrame:
    ran = trials[trials["status"] != "skipped"].copy()
    ran["process_s"] = (ran["process_wall_s"] - ran["wall_s"]).where(ran["isolated"], 0.0)
    g = ran.groupby(["form_variant", "backend"], sort=False)
    out = g.agg(
        trials=("key", "size"),
        iterations=("iterations", "sum"),
        wall_s=("wall_s", "sum"),
        solve_s=("solve_s", "sum"),
        overhead_s=("overhead_s", "sum"),
        build_s=("build_s", "sum"),
        start_s=("start_s", "sum"),
        reduction_s=("reduction_s", "sum"),
        process_s=("process_s", "sum"),
    )
    out["share"] = out["overhead_s"] / out["wall_s"]
    out["ms_per_iteration"] = 1000 * out["overhead_s"] / out["iterations"].clip(lower=1)
    skipped = trials[trials["status"] == "skipped"].groupby(["form_variant", "backend"]).size()
    out["skipped"] = skipped.reindex(out.index).fillna(0).astype(int)
    return out.reset_index()


def exact_case(quick: bool) -> pd.DataFrame:
    boards = [generated(5, 5, 1)] if quick else [p for p in loopy_dev() if p.size_label == "20x36"]
    rows = []
    for backend in (ExactBackend(), SatBackend()):
        for p in boards:
            t = run_trial(
                p, ConsFormulation(), backend, seed=1, max_iterations=100, time_limit_s=120
            ).trial
            rows.append({**asdict(t), "key": p.name, "status": str(t.status)})
    return per_cell(pd.DataFrame(rows))


def show(table: pd.DataFrame) -> None:
    cols = [
        "form_variant",
        "backend",
        "trials",
        "skipped",
        "iterations",
        "wall_s",
        "solve_s",
        "overhead_s",
        "share",
        "ms_per_iteration",
        "build_s",
        "start_s",
        "reduction_s",
        "process_s",
    ]
    with pd.option_context("display.width", 200, "display.max_columns", 20):
        print(table[cols].round(4).to_string(index=False), flush=True)


def over_target(share: float, ms_per_iteration: float, exact: bool) -> float:
    """How far a cell is over its target (negative: met): points of wall time for the main
    job's cells, ms per iteration for the exact families'."""
    if exact:
        return ms_per_iteration - 1000 * PER_ITERATION_TARGET_S
    return 100 * (share - SHARE_TARGET)


def verdicts(main: pd.DataFrame, exact: pd.DataFrame) -> list[tuple[bool, str]]:
    out = []
    for r in main.itertuples():
        out.append(
            (
                over_target(r.share, r.ms_per_iteration, exact=False) < 0,
                f"{r.form_variant}/{r.backend}: overhead {100 * r.share:.2f} % of wall "
                f"({r.overhead_s:.2f} of {r.wall_s:.1f} s, {r.ms_per_iteration:.1f} ms/iteration; "
                f"target < {100 * SHARE_TARGET:g} %)",
            )
        )
    for r in exact.itertuples():
        out.append(
            (
                over_target(r.share, r.ms_per_iteration, exact=True) < 0,
                f"{r.form_variant}/{r.backend} (exact): {r.ms_per_iteration:.1f} ms overhead per "
                f"iteration ({r.iterations} iterations; target < "
                f"{1000 * PER_ITERATION_TARGET_S:g} ms)",
            )
        )
    return out


def _target(r: pd.Series) -> str:
    if bool(r["quick"]):
        return "not judged (--quick)"
    exact = r["case"] != MAIN
    miss = over_target(r["share"], r["ms_per_iteration"], exact)
    goal, unit = (
        (f"< {1000 * PER_ITERATION_TARGET_S:g} ms/iteration", "ms")
        if exact
        else (f"< {100 * SHARE_TARGET:g} %", "points")
    )
    return f"{goal}: met" if miss < 0 else f"{goal}: **missed by {miss:.1f} {unit}**"


def page_sections(rows: pd.DataFrame) -> list[tuple[str, str]]:
    """Per cell: the trials' sums, the harness's share and time per iteration, the target."""
    sections = []
    for case, group in rows.groupby("case", sort=False):
        grid = pd.DataFrame([{
            "cell": f"{r['form_variant']} / {r['backend']}", "trials": int(r["trials"]),
            "skipped": int(r["skipped"]), "iterations": int(r["iterations"]),
            "wall s": f"{r['wall_s']:.2f}", "backend's search s": f"{r['solve_s']:.2f}",
            "overhead": f"{100 * r['share']:.1f} %",
            "per iteration": f"{r['ms_per_iteration']:.1f} ms",
            "model build s": f"{r['build_s']:.2f}", "reduction s": f"{r['reduction_s']:.2f}",
            "process around s": f"{r['process_s']:.2f}", "target": _target(r),
        } for _, r in group.iterrows()])  # fmt: skip
        took = group["case_s"].iloc[0]
        caption = (
            f"Sums over each cell's trials that ran; the case took {took:.0f} s. Overhead: "
            "the trials' wall time minus the backend's own search, as a share of wall time. "
            "Process around: the fresh process a pyqbpp trial runs in, outside its wall time."
        )
        sections.append((case[0].upper() + case[1:], render.grid_markdown(grid, caption)))
    return sections


def publish(rows: pd.DataFrame, dest: Path) -> Path:
    return benchmark_page.write_page(
        dest, rows, title="Harness overhead", script=COMMAND, sections=page_sections(rows)
    )


def main(argv: list[str] | None = None) -> int:
    ap = OneLineArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--quick", action="store_true", help="tiny boards; report without judging")
    ap.add_argument(
        "--store", type=Path, help="keep the main job's store here (default: a temp dir)"
    )
    ap.add_argument("overrides", nargs="*", help="extra Hydra overrides for the main job")
    benchmark_page.add_options(ap)
    args = ap.parse_args(argv)
    if benchmark_page.publish_from_rows(args, ap, publish):
        return 0
    with tempfile.TemporaryDirectory() as tmp:
        store = args.store or Path(tmp) / "hubo_vs_qubo"
        extra = (QUICK if args.quick else []) + list(args.overrides)
        took = run_main_job(store, extra)
        trials, _ = load(store)
        main_cells = per_cell(trials)
    print(f"\nmain job ({took:.0f} s): {len(trials)} trials", flush=True)
    show(main_cells)
    t0 = time.perf_counter()
    exact = exact_case(args.quick)
    exact_took = time.perf_counter() - t0
    print("\nexact families, cons form:")
    show(exact)
    if args.publish:
        flags = [*(["--quick"] if args.quick else []), *args.overrides]
        rows = pd.concat(
            [
                main_cells.assign(case=MAIN, case_s=took),
                exact.assign(case=EXACT[args.quick], case_s=exact_took),
            ],
            ignore_index=True,
        ).assign(quick=args.quick)
        stamped = benchmark_page.stamp(rows, PACKAGES, " ".join([COMMAND, *flags]))
        print(f"page: {publish(stamped, args.publish)}")
    print()
    ok = True
    for passed, text in verdicts(main_cells, exact):
        if args.quick:
            print(f"(quick, not judged) {text}")
        else:
            print(f"{'PASS' if passed else 'FAIL'}: {text}")
            ok &= passed
    return 0 if ok else 1


if __name__ == "__main__":
    run_command(main)
