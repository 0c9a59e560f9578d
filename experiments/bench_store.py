"""Benchmark: the results store at campaign scale, through its own API (no solving).

    python experiments/bench_store.py [--sizes 1000,10000,100000] [--out results/benchmarks]
    python experiments/bench_store.py --direct --sizes 100000 --parts 5,20,50,100,200 \
        --repeat 3 --no-report
    python experiments/bench_store.py --quick    # 4 trials, seconds: checks the script runs
    python experiments/bench_store.py --publish docs/findings/store_scale   # and the page

Writes synthetic trials (4 iterations each, 10x10-sized edge strings) with ``ResultStore.write``
as a run does (compacting every 500 writes and at the end), then measures: write cost per
trial at the start and at the end, ``results.load``, the resume decision (``finished_keys``),
the report, and disk use against the same rows in one Parquet file.
Targets at 100,000 trials: load <= 2 s, resume <= 1 s, report <= 30 s, disk <= 2x.
Exit code 1 if a target is missed. ``--quick``: 4 trials (20 with ``--direct``), the figures
reported and the targets not judged, the CSV into a temporary directory unless ``--out`` is given.
``--publish DEST`` writes the findings page DEST.md from the stamped rows
(:mod:`slitherbench.analysis.benchmark_page`; ``--rows`` writes it again from them).
"""

from __future__ import annotations

import random
import shutil
import statistics
import tempfile
import time
from pathlib import Path

import pandas as pd

from slitherbench.analysis import benchmark_page, render
from slitherbench.analysis.report import build_report
from slitherbench.method.entry import OneLineArgumentParser, run_command
from slitherbench.method.record import Iteration, Trial
from slitherbench.store.result_store import ResultStore
from slitherbench.store.results import load

TARGETS = {"load_s": 2.0, "resume_s": 1.0, "report_s": 30.0, "disk_ratio": 2.0}
TARGET_TRIALS = 100_000  # the targets are set at this size
COMMAND = "python experiments/bench_store.py"
PACKAGES = ("pyarrow", "pandas")
COLUMNS = {
    "trials": "trials",
    "iterations": "iterations",
    "parts": "parts (direct)",
    "write_ms_first_1k": "write per trial, first 1,000 (ms)",
    "write_ms_last_1k": "write per trial, last 1,000 (ms)",
    "final_compaction_s": "final compaction (s)",
    "load_s": "load (s)",
    "resume_s": "resume decision (s)",
    "report_s": "report (s)",
    "disk_ratio": "disk vs one file",
}
CELLS = [("hubo[aux]", "openjij"), ("qubo", "openjij"), ("hubo[aux]", "sa"), ("qubo", "sa")]


def synthetic(k: int, rng: random.Random) -> tuple[Trial, list[Iteration]]:
    form, backend = CELLS[k % len(CELLS)]
    puzzle = f"p{(k // len(CELLS)) % 50}"
    solved = rng.random() < 0.6
    n = rng.randint(1, 8)
    edges = "".join(rng.choice("01") for _ in range(220))
    t = Trial(
        key=f"{k % 4:012x}-{puzzle}-r{k}",
        experiment="bench",
        config_hash=f"{k % 4:012x}",
        cell=f"{form}/{backend}",
        repetition=k,
        puzzle=puzzle,
        rows=10,
        cols=10,
        clues=50,
        puzzle_rows="/".join([".11..0.0.0"] * 10),
        formulation=form.split("[")[0],
        form_variant=form,
        backend=backend,
        seed=rng.randrange(2**31),
        status="solved" if solved else "max_iterations",
        iterations=n,
        wall_s=rng.random() * 30,
        solve_s=rng.random() * 20,
        num_variables=341,
        num_terms=1480,
        max_degree=64,
        answer=edges if solved else "",
        verified=solved,
        mode="CPU",
        timestamp=pd.Timestamp.now(tz="UTC").isoformat(),
    )
    its = [
        Iteration(
            iteration=i,
            energy=0,
            num_loops=2,
            loop_sizes=[60, 4],
            num_variables=341,
            edges=edges,
            solve_s=rng.random(),
        )
        for i in range(1, n + 1)
    ]
    return t, its


def write_parts_directly(n: int, root: Path, parts: int = 5) -> None:
    """The same synthetic records as five compacted parts, without per-trial writes: a quick
    way to time reading a large store (``--direct``)."""
    import pyarrow.parquet as pq

    from slitherbench.method.record import ITERATION_FROM_TRIAL
    from slitherbench.store.result_store import _records_table, _row

    rng = random.Random(n)
    out = root / "store" / "parts"
    out.mkdir(parents=True)
    for part in range(parts):
        trows, irows = [], []
        for k in range(part * n // parts, (part + 1) * n // parts):
            t, its = synthetic(k, rng)
            t.write_id = f"w{k}"
            trows.append(_row(t))
            shared = {f: getattr(t, f) for f in (*ITERATION_FROM_TRIAL, "write_id")}
            irows += [{**_row(i), **shared} for i in its]
        pq.write_table(_records_table(Iteration, irows), out / f"iterations-{part}.parquet")
        pq.write_table(_records_table(Trial, trows), out / f"trials-{part}.parquet")


def read_side(n: int, root: Path, repeat: int = 1, report: bool = True) -> dict[str, float]:
    """Load and resume-decision times (the median of ``repeat`` runs), then the report."""
    loads, resumes = [], []
    for _ in range(repeat):
        t0 = time.perf_counter()
        trials, iters = load(root / "store")
        loads.append(time.perf_counter() - t0)
        t0 = time.perf_counter()
        done = ResultStore(root / "store").finished_keys()
        resumes.append(time.perf_counter() - t0)
    load_s, resume_s = statistics.median(loads), statistics.median(resumes)
    report_s = float("nan")
    if report:
        t0 = time.perf_counter()
        build_report(trials, iters, root / "report")
        report_s = time.perf_counter() - t0
    return {
        "trials": n,
        "iterations": len(iters),
        "finished": len(done),
        "load_s": load_s,
        "resume_s": resume_s,
        "report_s": report_s,
    }


def du(path: Path) -> int:
    return sum(f.stat().st_size for f in path.rglob("*") if f.is_file())


def bench(n: int, root: Path) -> dict[str, float]:
    rng = random.Random(n)
    store = ResultStore(root / "store")
    per_write = []
    t_all = time.perf_counter()
    for k in range(n):
        t0 = time.perf_counter()
        store.write(*synthetic(k, rng))
        per_write.append(time.perf_counter() - t0)
    t0 = time.perf_counter()
    store.compact()
    compact_end = time.perf_counter() - t0
    write_total = time.perf_counter() - t_all
    reading = read_side(n, root)
    trials, iters = load(root / "store")
    single = root / "single"
    single.mkdir()
    trials.to_parquet(single / "trials.parquet", index=False)
    iters.to_parquet(single / "iterations.parquet", index=False)
    first, last = per_write[: min(1000, n)], per_write[-min(1000, n) :]
    return {
        **reading,
        "write_ms_first_1k": 1000 * sum(first) / len(first),
        "write_ms_last_1k": 1000 * sum(last) / len(last),
        "write_total_s": write_total,
        "final_compaction_s": compact_end,
        "disk_mb": du(root / "store") / 1e6,
        "single_file_mb": du(single) / 1e6,
        "disk_ratio": du(root / "store") / du(single),
    }


def verdicts(df: pd.DataFrame) -> list[tuple[str, float, float, bool]]:
    """(measure, target, value, met) at the targets' size, for each target measured there."""
    at = df[df.trials == TARGET_TRIALS]
    out = []
    for name, target in TARGETS.items():
        if name in at and at[name].notna().any():
            value = float(at[name].max())  # the worst of the runs at that size
            out.append((name, target, value, value <= target))
    return out


def page_sections(df: pd.DataFrame) -> list[tuple[str, str]]:
    shown = df[[c for c in COLUMNS if c in df and df[c].notna().any()]]
    table = shown.map(lambda v: render.fmt(v) if isinstance(v, float) else f"{v:,}")
    table.columns = [COLUMNS[c] for c in shown.columns]
    caption = (
        "Synthetic trials (1-8 iterations each, 10x10-sized edge strings) written through "
        "`ResultStore.write` as a run writes them (compacting every 500 writes and at the end); "
        "with `--direct`, written straight into parts and only the reading side timed."
    )
    found = verdicts(df)
    lines = [
        {
            "measure": COLUMNS[name],
            "target": f"<= {render.fmt(target)}",
            "at 100,000 trials": render.fmt(value),
            "verdict": "met" if met else f"**missed by {render.fmt(value - target)}**",
        }
        for name, target, value, met in found
    ]
    targets = benchmark_page.targets_markdown(
        lines,
        "The worst run at 100,000 trials.",
        "No run at 100,000 trials in these rows: not judged.",
    )
    return [("Per run", render.grid_markdown(table, caption)), ("Targets", targets)]


def publish(df: pd.DataFrame, dest: Path) -> Path:
    return benchmark_page.write_page(
        dest,
        df,
        title="The results store at campaign scale",
        script=COMMAND,
        sections=page_sections(df),
    )


def main() -> int:
    ap = OneLineArgumentParser()
    ap.add_argument("--sizes", help="comma-separated trial counts (default 1000,10000,100000)")
    ap.add_argument("--out", type=Path, help="default: results/benchmarks (--quick: a temp dir)")
    ap.add_argument(
        "--quick", action="store_true", help="4 trials (--direct: 20); targets not judged"
    )
    ap.add_argument(
        "--direct",
        action="store_true",
        help="write the records as parts directly and time only the reading side",
    )
    ap.add_argument(
        "--parts",
        default="5",
        help="with --direct: comma-separated numbers of parts to split the records into "
        "(how many trials a part should hold: store.PART_TRIALS)",
    )
    ap.add_argument("--repeat", type=int, default=1, help="with --direct: median of N reads")
    ap.add_argument("--no-report", action="store_true", help="with --direct: skip the report")
    benchmark_page.add_options(ap)
    args = ap.parse_args()
    if benchmark_page.publish_from_rows(args, ap, publish):
        return 0
    # --quick: 4 trials (one board's cells: the report's smallest case); --direct splits the
    # records into --parts files, so it needs a trial per part at least.
    quick_size = "20" if args.direct else "4"
    sizes = args.sizes or (quick_size if args.quick else "1000,10000,100000")
    out = args.out or (
        Path(tempfile.mkdtemp(prefix="bench_store-")) if args.quick else Path("results/benchmarks")
    )
    rows = []
    runs = [
        (int(n), int(p))
        for n in sizes.split(",")
        for p in (args.parts.split(",") if args.direct else ["0"])
    ]
    for n, parts in runs:
        tmp = Path(tempfile.mkdtemp(prefix=f"bench-store-{n}-"))
        try:
            if args.direct:
                write_parts_directly(n, tmp, parts)
                reading = read_side(n, tmp, args.repeat, report=not args.no_report)
                rows.append({**reading, "parts": parts})
            else:
                rows.append(bench(n, tmp))
        finally:
            shutil.rmtree(tmp, ignore_errors=True)
        print(pd.DataFrame(rows).round(3).to_string(index=False), flush=True)
    out.mkdir(parents=True, exist_ok=True)
    flags = [f"--sizes {sizes}", *(["--quick"] if args.quick else [])]
    if args.direct:
        flags += ["--direct", f"--parts {args.parts}", f"--repeat {args.repeat}"]
        flags += ["--no-report"] if args.no_report else []
    stamped = benchmark_page.stamp(pd.DataFrame(rows), PACKAGES, " ".join([COMMAND, *flags]))
    stamped.to_csv(out / "bench_store.csv", index=False)
    print(f"rows: {out / 'bench_store.csv'}")
    if args.publish:
        print(f"page: {publish(stamped, args.publish)}")
    big = rows[-1]
    ok = True
    for name, target in TARGETS.items():
        if name not in big or big[name] != big[name]:  # not measured (NaN)
            continue
        hit = big[name] <= target
        ok &= hit or args.quick
        verdict = "(quick, not judged)" if args.quick else "PASS" if hit else "FAIL"
        print(
            f"{verdict}: {name} = {big[name]:.3g} at {big['trials']} trials "
            f"(target <= {target:g} at 100,000)"
        )
    return 0 if ok else 1


if __name__ == "__main__":
    run_command(main)
