"""Benchmark: how fast the deduction engine reaches its fixpoints.

Targets: a 30x40 board to its rules fixpoint in <= 10 ms, and through look-ahead 1 in
<= 50 ms (the generated 30x40 boards of suite ``targets``, judged on the median over boards
and repeats; the maximum is printed beside it). Also timed: the corpus's largest boards
(Loopy 20x36 and 14x24, every difficulty), look-ahead 2 with ``--lookahead2`` (seconds per
30x40 board), and the one-off cost of a board's adjacency tables (the first call on a board;
the timed calls reuse them, as a run that deduces after every cut does). Look-ahead is timed
twice: with the engine as it runs by default (``engine`` auto: the compiled look-ahead 1
loop on boards of 1,000 edges or more, see slitherbench/deduction/compiled.py) and with the
pure-Python loop alone (``engine`` python); the compiled code's one-off cost (compiling it, or
loading it from numba's cache) is timed apart, as the tables are. Wall time and the
process's CPU time are both printed: on a shared machine the wall time also counts the
time other processes held the cores (the load average is printed at the end).

    python experiments/bench_deduction.py [--repeats 5] [--lookahead2]
    python experiments/bench_deduction.py --quick     # one 5x5 board, one repeat, seconds
    python experiments/bench_deduction.py --publish docs/findings/deduction_speed_DATE

``--publish DEST`` writes the findings page from the stamped rows (one per board, level and
repeat, with the load average when it was measured); ``--rows DEST/rows.csv --publish DEST``
writes it again from them. ``--out DIR`` keeps the rows as ``bench_deduction.csv``.

Prints per group of boards and level the median and maximum milliseconds, the share of
edges fixed, and for the targets met or missed (by how much).
"""

from __future__ import annotations

import os
import platform
import statistics
import subprocess
import sys
import time
from datetime import UTC, datetime
from pathlib import Path

import pandas as pd

from slitherbench.analysis import benchmark_page, render
from slitherbench.deduction import compiled, deduce
from slitherbench.deduction.engine import tables
from slitherbench.method.entry import OneLineArgumentParser, run_command
from slitherbench.sources.library import loopy_dev, shipped

TARGETS_MS = {"rules": 10.0, "lookahead1": 50.0}
TARGET_GROUP = "generated 30x40"
COMMAND = "python experiments/bench_deduction.py"
PACKAGES = ("numba", "numpy")  # the compiled look-ahead 1 loop
ENGINES = ("auto", "python")  # auto: what deduce runs by default; python: the Python loop


def boards(quick: bool) -> dict[str, list]:
    if quick:
        return {"Loopy 5x5": [next(p for p in loopy_dev() if p.size_label == "5x5")]}
    largest = {"20x36", "14x24"}
    return {
        TARGET_GROUP: [p for p in shipped("targets") if p.size_label == "30x40"],
        **{
            f"Loopy {size}": [p for p in loopy_dev() if p.size_label == size]
            for size in sorted(largest, reverse=True)
        },
    }


def time_ms(puzzle, level: str, engine: str = "auto") -> tuple[float, float, float]:
    """Wall and CPU milliseconds of one call, and the share of edges fixed."""
    os.environ[compiled.ENV] = engine
    start, cpu = time.perf_counter(), time.process_time()
    found = deduce(puzzle, level)
    elapsed = (time.perf_counter() - start) * 1000
    cpu_ms = (time.process_time() - cpu) * 1000
    if found.contradiction is not None:
        raise SystemExit(f"{puzzle.name}: a contradiction on a board with an answer")
    answer = puzzle.meta.get("answer")
    if answer is not None and any(v not in (-1, int(answer[e])) for e, v in enumerate(found.edges)):
        raise SystemExit(f"{puzzle.name} at {level}: an edge fixed against the answer")
    return elapsed, cpu_ms, found.fixed_share[level]


def verdict(ms: float, target: float) -> str:
    return "met" if ms <= target else f"missed by {ms - target:.1f} ms ({ms / target:.1f}x)"


def page_sections(rows: pd.DataFrame) -> list[tuple[str, str]]:
    """The medians per group and level, and the targets judged on wall and CPU time."""
    # Rows measured before the compiled loop have no engine column (the Python engine ran);
    # their page keeps the layout it was published with.
    engines = "engine" in rows
    timed = rows[~rows["level"].isin(["tables", "compiled code"])]
    keys = ["boards", "level", "engine"] if engines else ["boards", "level"]
    grouped = timed.groupby(keys, sort=False)
    table = grouped.agg(
        boards_n=("puzzle", "nunique"),
        calls=("wall_ms", "size"),
        wall=("wall_ms", "median"),
        wall_max=("wall_ms", "max"),
        cpu=("cpu_ms", "median"),
        fixed=("fixed_share", "median"),
    ).reset_index()
    # Boards of one geometry share their tables: the first board builds them, so the most a
    # group's first call cost is the build; the rest are lookups.
    built = rows[rows["level"] == "tables"].groupby("boards", sort=False)["wall_ms"].max()
    table["tables ms"] = table["boards"].map(built).map(lambda v: render.fmt(float(v)))
    for c in ("wall", "wall_max", "cpu"):
        table[c] = table[c].map(lambda v: render.fmt(float(v)))
    table["fixed"] = table["fixed"].map(lambda v: f"{float(v):.0%}")
    table = table.rename(
        columns={
            "boards_n": "boards n",
            "wall": "wall ms: median",
            "wall_max": "wall ms: max",
            "cpu": "CPU ms: median",
            "fixed": "edges fixed",
        }
    )
    loads = rows["load_1min"].dropna()
    loaded = rows[rows["level"] == "compiled code"]["wall_ms"]
    caption = (
        (
            "Per group of boards, level and engine (auto: deduce's default, which runs the "
            "compiled look-ahead 1 loop on boards of 1,000 edges or more; python: the "
            "pure-Python loop alone): every board and repeat (look-ahead 2 once per board). "
            if engines
            else "Per group of boards and level: every board and repeat (look-ahead 2 once "
            "per board). "
        )
        + "CPU ms: the process's own CPU time; wall ms also counts the time other processes "
        "held the cores (load average over the run: "
        f"{loads.min():.1f}-{loads.max():.1f} on {int(rows['cpu_count'].iloc[0])} cores). "
        "tables ms: building a board geometry's adjacency tables (once per geometry, shared "
        "by its boards and reused by every later call), outside the timed calls."
        + (
            " The compiled code's one-off cost in a fresh process (compiling it, or loading "
            "it from numba's cache), also outside the timed calls: "
            f"{render.fmt(float(loaded.max()))} ms."
            if not loaded.empty
            else ""
        )
    )
    out = [("Milliseconds per call", render.grid_markdown(table, caption))]
    lines = []
    for level, target in TARGETS_MS.items():
        got = timed[(timed["boards"] == TARGET_GROUP) & (timed["level"] == level)]
        if engines:
            got = got[got["engine"] == "auto"]
        if got.empty:
            continue
        wall, cpu = float(got["wall_ms"].median()), float(got["cpu_ms"].median())
        lines.append(
            {
                "target": f"{TARGET_GROUP} to its {level} fixpoint <= {target:g} ms",
                "wall ms (median)": render.fmt(wall),
                "on wall time": verdict(wall, target),
                "CPU ms (median)": render.fmt(cpu),
                "on CPU time": verdict(cpu, target),
            }
        )
    out.append(
        (
            "Targets",
            benchmark_page.targets_markdown(
                lines,
                "Judged on the median over the generated 30x40 boards and repeats"
                + (", with the engine deduce runs by default." if engines else "."),
                "Not judged: the rows hold no generated 30x40 board (a quick run).",
            ),
        )
    )
    return out


def publish(rows: pd.DataFrame, dest: Path) -> Path:
    return benchmark_page.write_page(
        dest,
        rows,
        title="Deduction speed: rules and look-ahead 1",
        script=COMMAND,
        sections=page_sections(rows),
    )


def main(argv: list[str] | None = None) -> int:
    ap = OneLineArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--quick", action="store_true", help="one 5x5 board, one repeat")
    ap.add_argument("--repeats", type=int, default=5, help="timed calls per board and level")
    ap.add_argument("--lookahead2", action="store_true", help="also time look-ahead 2 (once)")
    ap.add_argument("--out", type=Path, help="keep the rows here as bench_deduction.csv")
    benchmark_page.add_options(ap)
    args = ap.parse_args(argv)
    if benchmark_page.publish_from_rows(args, ap, publish):
        return 0
    if args.repeats < 1:
        print("--repeats must be at least 1", file=sys.stderr)
        return 2
    repeats = 1 if args.quick else args.repeats
    commit = subprocess.run(
        ["git", "rev-parse", "--short", "HEAD"], capture_output=True, text=True, check=False
    ).stdout.strip()
    print(
        f"# bench_deduction  {datetime.now(UTC):%Y-%m-%d %H:%M} UTC  commit {commit}  "
        f"{platform.processor() or platform.machine()}, {os.cpu_count()} cores, "
        f"Python {platform.python_version()}  repeats {repeats}"
    )
    levels = ["rules", "lookahead1"] + (["lookahead2"] if args.lookahead2 else [])
    medians: dict[tuple[str, str, str], tuple[float, float, float]] = {}
    loaded: list[float] = []
    print(
        f"{'boards':18} {'level':11} {'engine':8} {'n':>3} {'median ms':>10} {'max ms':>9} "
        f"{'CPU ms':>7} {'fixed':>6}"
    )
    rows: list[dict[str, object]] = []

    def load() -> float:
        return os.getloadavg()[0] if hasattr(os, "getloadavg") else float("nan")

    for group, puzzles in boards(args.quick).items():
        built = []
        for p in puzzles:
            start = time.perf_counter()
            tables(p.board)
            built.append((time.perf_counter() - start) * 1000)
            rows.append({"boards": group, "puzzle": p.name, "level": "tables", "repeat": 0,
                         "wall_ms": built[-1], "cpu_ms": None, "fixed_share": None,
                         "load_1min": load()})  # fmt: skip
        print(
            f"{group:18} {'tables':11} {'':8} {len(built):3d} {statistics.median(built):10.1f} "
            f"{max(built):9.1f}       -      -"
        )
        covered = [p for p in puzzles if p.num_edges >= compiled.MIN_EDGES]
        if covered and compiled.AVAILABLE and not loaded:
            # The first compiled call of the process pays for the compiled code: timed apart.
            first, _, _ = time_ms(covered[0], "lookahead1")
            again, _, _ = time_ms(covered[0], "lookahead1")
            loaded.append(first - again)
            rows.append({"boards": group, "puzzle": covered[0].name, "level": "compiled code",
                         "repeat": 0, "wall_ms": first - again, "cpu_ms": None,
                         "fixed_share": None, "load_1min": load(), "engine": "auto"})  # fmt: skip
            print(f"{group:18} {'compiled':11} {'code':8} {1:3d} {first - again:10.1f}")
        for level in levels:
            for engine in ENGINES if level != "rules" else ENGINES[:1]:
                times, cpus, shares = [], [], []
                for p in puzzles:
                    for rep in range(1 if level == "lookahead2" else repeats):
                        ms, cpu_ms, share = time_ms(p, level, engine)
                        times.append(ms)
                        cpus.append(cpu_ms)
                        rows.append({"boards": group, "puzzle": p.name, "level": level,
                                     "repeat": rep, "wall_ms": ms, "cpu_ms": cpu_ms,
                                     "fixed_share": share, "load_1min": load(),
                                     "engine": engine})  # fmt: skip
                    shares.append(share)
                med, top = statistics.median(times), max(times)
                medians[(group, level, engine)] = (med, top, statistics.median(cpus))
                print(
                    f"{group:18} {level:11} {engine:8} {len(times):3d} {med:10.1f} "
                    f"{top:9.1f} {statistics.median(cpus):7.1f} {statistics.median(shares):6.0%}"
                )
    shown = [COMMAND, *(["--quick"] if args.quick else []), f"--repeats {repeats}",
             *(["--lookahead2"] if args.lookahead2 else [])]  # fmt: skip
    stamped = benchmark_page.stamp(pd.DataFrame(rows), PACKAGES, " ".join(shown))
    if args.out:
        args.out.mkdir(parents=True, exist_ok=True)
        stamped.to_csv(args.out / "bench_deduction.csv", index=False)
        print(f"rows: {args.out / 'bench_deduction.csv'}")
    if args.publish:
        print(f"page: {publish(stamped, args.publish)}")
    if args.quick:
        print("quick run: the targets (30x40) are not judged")
        return 0
    print(f"load average (1 min) at the end: {load():.1f} on {os.cpu_count()} cores")
    for level, target in TARGETS_MS.items():
        med, top, cpu = medians[(TARGET_GROUP, level, "auto")]
        print(
            f"target: {TARGET_GROUP} to its {level} fixpoint <= {target:.0f} ms: median "
            f"{med:.1f} ms wall (max {top:.1f}), {cpu:.1f} ms CPU: {verdict(med, target)} "
            f"(on CPU time: {verdict(cpu, target)})"
        )
    return 0


if __name__ == "__main__":
    run_command(main)
