"""Benchmark: boards beyond the square (the speed targets for them), on every board kind.

    python experiments/bench_grids.py [--out results/benchmarks] [--repeats 5]

1. Exact solve + uniqueness of the ~100-face board of each kind in the shipped suite
   (``puzzle=grids``), by every exact family: CP-SAT's circuit model and the lazy loop
   (``solve_lazily``) on SAT, CP-SAT, HiGHS, z3 and CPLEX. Target: median <= 0.1 s (SAT,
   the default exact path) on 2 cores.
2. The generator making a unique ~100-face puzzle of each kind (``generate_on``, seeds 1-3,
   each proved unique again by SAT). Target: <= 10 s each.
Writes bench_grids.csv (one row per run, ``part`` exact or generate); prints medians and
verdicts. Exit code 1 if any answer is not the suite's, not unique, or a target is missed.
``--publish docs/findings/NAME`` writes the findings page from the stamped rows (``--rows``
writes it again from them).

    python experiments/bench_grids.py --hubo-exact

instead counts how often simulated annealing (conf/backend/sa.yaml with 1,000 sweeps x 4
reads) solves the HUBO with its exact degree encoding and with its default (auxiliary) one,
on the board nearest 8 faces of every kind (5 seeds, 20 iterations and 20 s each): the docs'
finding on dimod's make_quadratic beyond the square. It writes bench_grids_hubo_exact.csv (one
row per trial); ``--publish`` and ``--rows`` work as above.

``--quick`` (with either): the square and honeycomb boards only, the smallest of each, one
repeat and one seed (seconds; checks the script runs); figures are reported, targets not
judged, a wrong or non-unique answer still fails; the CSVs go to a temporary directory unless
``--out`` is given.
"""

from __future__ import annotations

import argparse
import tempfile
import time
from collections.abc import Callable
from pathlib import Path

import pandas as pd

from slitherbench.analysis import benchmark_page, render, stats
from slitherbench.method.entry import OneLineArgumentParser, run_command
from slitherbench.method.provenance import provenance
from slitherbench.models.formulations import ConsFormulation
from slitherbench.solvers.constraints import solve_lazily
from slitherbench.solvers.cplex_mip import CplexBackend
from slitherbench.solvers.cpsat_model import solve_exact
from slitherbench.solvers.exact import ExactBackend
from slitherbench.solvers.mip import HighsBackend
from slitherbench.solvers.sat import SatBackend
from slitherbench.solvers.smt import Z3Backend
from slitherbench.sources.generate import generate_on
from slitherbench.sources.library import get_suite

LAZY = {"sat": SatBackend, "cpsat-lazy": ExactBackend, "mip": HighsBackend, "smt": Z3Backend,
        "cplex": CplexBackend}  # fmt: skip
EXACT_TARGET_S, GENERATE_TARGET_S = 0.1, 10.0
QUICK_KINDS = ("square", "honeycomb")
COMMAND = "python experiments/bench_grids.py"
PACKAGES = ("ortools", "python-sat", "highspy", "z3-solver")
PACKAGES_HUBO = ("dimod", "dwave-samplers")


HUBO_FORMS = {"hubo[exact]": "exact", "hubo[aux]": "aux"}


def hubo_exact_sweep(quick: bool = False) -> pd.DataFrame:
    """One row per trial: SA (conf/backend/sa.yaml, 1,000 sweeps x 4 reads) on each HUBO
    degree encoding, on the board nearest 8 faces of every kind (generated, seed 1)."""
    from hydra.utils import instantiate
    from omegaconf import OmegaConf

    from slitherbench.models.formulations import HuboFormulation
    from slitherbench.puzzles.boards import board_kinds, board_with_faces
    from slitherbench.run.runner import run_trial

    conf = Path(__file__).resolve().parents[1] / "conf" / "backend" / "sa.yaml"
    cfg = OmegaConf.merge(OmegaConf.load(conf), {"num_sweeps": 1000, "num_reads": 4})
    seeds, limit_s = (1, 5) if quick else (5, 20)
    rows = []
    for kind in QUICK_KINDS if quick else board_kinds():
        p = generate_on(board_with_faces(kind, 8, 3), 1)
        for label, mode in HUBO_FORMS.items():
            for seed in range(seeds):
                t = run_trial(p, HuboFormulation(degree_mode=mode), instantiate(cfg), seed=seed,
                              max_iterations=20, time_limit_s=limit_s).trial  # fmt: skip
                rows.append({"kind": kind, "board": p.board.label, "faces": p.num_faces,
                             "max_degree": p.board.max_degree, "form": label, "seed": seed,
                             "status": t.status, "verified": bool(t.verified),
                             "iterations": t.iterations, "seconds": t.wall_s,
                             "time_limit_s": limit_s})  # fmt: skip
            print(kind, label, sum(r["status"] == "solved" for r in rows[-seeds:]), flush=True)
    return pd.DataFrame(rows)


def hubo_exact_grid(rows: pd.DataFrame) -> tuple[pd.DataFrame, pd.DataFrame]:
    """Solved/run per board kind and form, and the totals beyond the square with Wilson
    intervals and the paired (kind, seed) McNemar test."""
    solved = rows.assign(ok=rows["status"].eq("solved") & rows["verified"].astype(bool))
    keys = ["kind", "faces", "max_degree"]
    grid = solved.groupby([*keys, "form"], sort=False)["ok"].agg(["sum", "size"]).reset_index()
    grid["text"] = grid["sum"].astype(int).astype(str) + "/" + grid["size"].astype(str)
    table = grid.pivot(index=keys, columns="form", values="text").reset_index()
    table = table[[*keys, *[f for f in HUBO_FORMS if f in table]]].astype(str)
    other = solved[solved["kind"] != "square"]
    totals = []
    for form in HUBO_FORMS:
        d = other[other["form"] == form]
        k, n = int(d["ok"].sum()), len(d)
        totals.append({"form": form, "solved": f"{k}/{n}",
                       "rate [95% CI]": benchmark_page.success_text(k, n, style="rate")})  # fmt: skip
    paired = other.pivot_table(index=["kind", "seed"], columns="form", values="ok")
    if set(HUBO_FORMS) <= set(paired):
        a, b = HUBO_FORMS
        pairs = pd.DataFrame({"solved_a": paired[a], "solved_b": paired[b]}).dropna()
        r = stats.paired_test(pairs, a, b, measures=())
        totals.append({"form": f"paired (kind, seed): {a} only / {b} only",
                       "solved": f"{r.a_only} / {r.b_only}",
                       "rate [95% CI]": f"McNemar exact p = {render.fmt(r.mcnemar_p)}"})  # fmt: skip
    return table, pd.DataFrame(totals)


def publish_hubo_exact(rows: pd.DataFrame, dest: Path) -> Path:
    table, totals = hubo_exact_grid(rows)
    seeds = int(rows.groupby(["kind", "form"]).size().max())
    limit = render.fmt(float(rows["time_limit_s"].max()))
    caption = (f"Solved/run per board kind (the board nearest 8 faces of each kind, generated "
               f"with seed 1), {seeds} seeds each, at most 20 iterations and {limit} s per "
               "trial; dwave SA (`conf/backend/sa.yaml`, 1,000 sweeps x 4 reads) on the BQM "
               "dimod's make_quadratic makes of the HUBO (strength 4, the configured default); "
               "a solve counts only when the independent checker verified it.")  # fmt: skip
    return benchmark_page.write_page(
        dest,
        rows,
        title="The HUBO's exact degree encoding beyond the square, reduced by make_quadratic",
        script=f"{COMMAND} --hubo-exact",
        sections=[
            ("Per board kind", render.grid_markdown(table, caption)),
            (
                "Beyond the square",
                render.grid_markdown(
                    totals,
                    "Every kind but the square pooled (Wilson intervals); the paired counts are (kind, seed) pairs one form solved and the other did not.",
                ),
            ),
        ],
    )


def chosen_boards(quick: bool) -> dict:
    """Quick: the smallest board of two kinds; otherwise the ~100-face board of every kind."""
    chosen = {}
    for p in get_suite("grids"):
        if quick and p.board.kind not in QUICK_KINDS:
            continue
        have = chosen.get(p.board.kind)
        if have is None or (
            p.num_faces < have.num_faces if quick else p.num_faces > have.num_faces
        ):
            chosen[p.board.kind] = p
    return chosen


def measure(chosen: dict, repeats: int, seeds: tuple[int, ...]) -> pd.DataFrame:
    """One row per exact run (part "exact") and per generated puzzle (part "generate")."""
    rows = []
    for kind, p in chosen.items():
        base = {"kind": kind, "board": p.board.label, "faces": p.num_faces}
        for _ in range(repeats):
            runs = {"cpsat-circuit": solve_exact(p, time_limit_s=60, method="cpsat")}
            for name, cls in LAZY.items():
                if name == "cplex" and cls().unsupported_reason(ConsFormulation()):
                    continue
                runs[name] = solve_lazily(cls(), p, time_limit_s=60)
            for path, r in runs.items():
                rows.append({**base, "part": "exact", "path": path, "status": r.status,
                             "seconds": r.wall_s, "ok": r.status == "unique"
                             and r.answer == p.meta["answer"]})  # fmt: skip
        for seed in seeds:
            t0 = time.perf_counter()
            g = generate_on(p.board, seed)
            made = time.perf_counter() - t0
            check = solve_exact(g, time_limit_s=60)
            rows.append({**base, "part": "generate", "seed": seed, "seconds": made,
                         "clues": g.num_clues, "ok": check.status == "unique"
                         and check.answer == g.meta["answer"]})  # fmt: skip
        print(kind, p.board.label, flush=True)
    return pd.DataFrame(rows)


def summaries(rows: pd.DataFrame) -> tuple[pd.DataFrame, pd.Series]:
    """Median seconds per kind x exact path; the generator's slowest seed per kind."""
    exact, gen = rows[rows.part == "exact"], rows[rows.part == "generate"]
    med = exact.pivot_table(index=["kind", "faces"], columns="path", values="seconds",
                            aggfunc="median", sort=False)  # fmt: skip
    return med, gen.groupby("kind", sort=False)["seconds"].max()


def verdicts(rows: pd.DataFrame) -> list[dict[str, str]]:
    med, gmax = summaries(rows)
    lines = []
    for measure_, target, value in (
        ("exact solve + uniqueness, SAT median, worst kind (s)", EXACT_TARGET_S, med["sat"].max()),
        ("generator, slowest seed, worst kind (s)", GENERATE_TARGET_S, gmax.max()),
    ):
        met = value <= target
        verdict = "met" if met else f"**missed by {render.fmt(float(value - target))}**"
        if "command" in rows and rows["command"].astype(str).str.contains("--quick").any():
            verdict = "(quick, not judged)"
        lines.append({"measure": measure_, "target": f"<= {render.fmt(target)}",
                      "measured": render.fmt(float(value)),
                      "verdict": verdict})  # fmt: skip
    return lines


def publish(rows: pd.DataFrame, dest: Path) -> Path:
    med, gmax = summaries(rows)
    exact = med.reset_index().map(lambda v: render.fmt(v) if isinstance(v, float) else str(v))
    gen = gmax.reset_index().map(lambda v: render.fmt(v) if isinstance(v, float) else str(v))
    gen.columns = ["kind", "slowest of its seeds (s)"]
    n_rep = int(rows[rows.part == "exact"].groupby(["kind", "path"]).size().max())
    wrong = int((~rows["ok"].astype(bool)).sum())
    seeds = ", ".join(str(int(v)) for v in sorted(rows["seed"].dropna().unique()))
    caption = (f"Median seconds of {n_rep} runs, exact solve + uniqueness of the ~100-face board "
               f"of each kind measured (`puzzle=grids`; a full run takes the ~100-face one); runs with a wrong or non-unique answer: {wrong}.")  # fmt: skip
    return benchmark_page.write_page(
        dest,
        rows,
        title="Boards beyond the square: exact paths and the generator",
        script=COMMAND,
        sections=[
            ("Exact paths", render.grid_markdown(exact, caption)),
            (
                "Generator",
                render.grid_markdown(
                    gen,
                    f"Making a unique puzzle on that board of each kind (`generate_on`, seeds {seeds}; each proved unique by SAT).",
                ),
            ),
            ("Targets", benchmark_page.targets_markdown(verdicts(rows), "", "No rows.")),
        ],
    )


def save(
    rows: pd.DataFrame,
    args: argparse.Namespace,
    flags: list[str],
    packages: tuple[str, ...],
    name: str,
    publish_page: Callable[[pd.DataFrame, Path], Path],
) -> None:
    """Stamp the rows with the command that made them, write them as ``name`` under
    ``--out`` (a temporary directory with --quick), and publish the page if asked."""
    out = args.out or (
        Path(tempfile.mkdtemp(prefix="bench_grids-")) if args.quick else Path("results/benchmarks")
    )
    stamped = benchmark_page.stamp(rows, packages, " ".join([COMMAND, *flags]))
    out.mkdir(parents=True, exist_ok=True)
    stamped.to_csv(out / name, index=False)
    print(f"rows: {out}/{name}")
    if args.publish:
        print(f"page: {publish_page(stamped, args.publish)}")


def hubo_exact_main(args: argparse.Namespace, ap: argparse.ArgumentParser) -> int:
    if benchmark_page.publish_from_rows(args, ap, publish_hubo_exact):
        return 0
    rows = hubo_exact_sweep(args.quick)
    flags = ["--hubo-exact", *(["--quick"] if args.quick else [])]
    save(rows, args, flags, PACKAGES_HUBO, "bench_grids_hubo_exact.csv", publish_hubo_exact)
    table, totals = hubo_exact_grid(rows)
    print(table.to_string(index=False))
    print("beyond the square:\n" + totals.to_string(index=False))
    return 0


def main() -> int:
    ap = OneLineArgumentParser()
    ap.add_argument("--out", type=Path, help="default: results/benchmarks (--quick: a temp dir)")
    ap.add_argument("--repeats", type=int, help="runs per board (default 5; --quick 1)")
    ap.add_argument("--hubo-exact", action="store_true", help="the hubo[exact] sweep instead")
    ap.add_argument("--quick", action="store_true", help="two small boards; targets not judged")
    benchmark_page.add_options(ap)
    args = ap.parse_args()
    if args.hubo_exact:
        return hubo_exact_main(args, ap)
    if benchmark_page.publish_from_rows(args, ap, publish):
        return 0
    repeats = args.repeats or (1 if args.quick else 5)
    rows = measure(chosen_boards(args.quick), repeats, (1,) if args.quick else (1, 2, 3))
    flags = [f"--repeats {args.repeats}"] if args.repeats else []
    save(rows, args, [*flags, *(["--quick"] if args.quick else [])], PACKAGES, "bench_grids.csv",
         publish)  # fmt: skip
    med, gmax = summaries(rows)
    print(f"CPU: {provenance()['cpu']}; {repeats} repeats per board")
    print("median seconds, exact solve + uniqueness:\n" + med.round(4).to_string())
    print("generator, slowest of its seeds (s):\n" + gmax.round(3).to_string())
    found = verdicts(rows)
    for v in found:
        verdict = "(quick, not judged)" if args.quick else v["verdict"]
        print(f"target {v['measure']} {v['target']}: {v['measured']} -> {verdict}")
    if not rows["ok"].astype(bool).all():
        print("NOT unique or not the suite's answer:\n" + rows[~rows.ok.astype(bool)].to_string())
        return 1
    met = all(v["verdict"] == "met" for v in found)
    return 0 if args.quick or met else 1


if __name__ == "__main__":
    run_command(main)
