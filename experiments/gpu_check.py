"""Device check, one short run for both GPU paths:

1. ABS3 (pyqbpp) with gpu=-1 against gpu=0, and its start-up cost. Inside pyqbpp's free
   100-variable limit: the eight 5x5 corpus puzzles (cons: 60 variables, hubo[aux]: 96), each
   trial in its own process through the harness, plus a direct timing of one process's first
   ABS3 search against its later ones.
2. Simulated bifurcation (the sb backend) on CUDA and on the CPU: one batch on reference10's
   uncut QUBO per (device, agents), then whole trials of the iterative method on boards of
   growing size (5x5, 7x7, reference10, 10x18), until --sb-budget-s is spent.

Here:  python experiments/gpu_check.py --out results/gpu_check
On a GPU machine with PyTorch but none of this project's dependencies:
    bash experiments/gpu_carry.sh      # here: builds .gpu/site (trimmed pyqbpp + SB, 42 MB)
    PYTHONPATH=.gpu/site:. python3 experiments/gpu_check.py --out $OUT    # there
    python experiments/gpu_check.py --from-run OUT --publish docs/findings/gpu_check_DATE  # here
(copy .gpu/ there with the checkout; the page needs statsmodels, which that machine may lack).

``--quick``: seconds, on any machine: ABS3's direct timing with 3 searches and the harness on
one 5x5 board (cons, one seed), simulated bifurcation with 128 agents for 2 s and whole trials
for 10 s on the 5x5 board; the GPU side only where a GPU is visible (nvidia-smi) and PyTorch
sees CUDA. One line names the measurements skipped and why. Files go to a temporary directory
unless ``--out`` is given.

``--publish docs/findings/NAME``: the run's files become one table of rows (``part``: direct,
abs3_trial, sb_batch, sb_trial, skipped), stamped with the command, date, commit, machine and
versions, and the page ``NAME.md`` is written from them (:mod:`slitherbench.analysis.benchmark_page`).
``--rows docs/findings/NAME/rows.csv --publish docs/findings/NAME`` writes the page again
without measuring; ``--from-run DIR --publish ...`` makes the rows from the files a run wrote
into ``DIR`` (what ``--out`` holds), stamped with what its summary recorded.
"""

from __future__ import annotations

import argparse
import json
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

import pandas as pd

from slitherbench.analysis import benchmark_page
from slitherbench.method.entry import OneLineArgumentParser, run_command
from slitherbench.method.provenance import gpu_names, provenance
from slitherbench.models.formulations import (
    ConsFormulation,
    HuboFormulation,
    Model,
    QuboFormulation,
)
from slitherbench.puzzles.puzzle import Puzzle, answer_from_bits
from slitherbench.run.runner import run_trial
from slitherbench.solvers.abs3 import ABS3Backend
from slitherbench.solvers.bifurcation import SimulatedBifurcationBackend
from slitherbench.sources.library import get_suite, loopy_dev

COMMAND = "python experiments/gpu_check.py"
PACKAGES = ("pyqbpp", "torch", "simulated-bifurcation")


def corpus_5x5() -> list[tuple[Puzzle, list[bool]]]:
    """The eight 5x5 corpus puzzles, each with its known answer (edge bits)."""
    return [(p, p.meta["answer"]) for p in loopy_dev() if p.size_label == "5x5"]


DIRECT = r"""
import json, statistics, sys, time
from slitherbench.solvers.qbpp_session import QbppSession
from slitherbench.models.formulations import ConsFormulation, Model
from slitherbench.puzzles.puzzle import Puzzle
p = Puzzle.from_rows(json.loads(sys.argv[1]))
gpu = int(sys.argv[2])
s = QbppSession()
s.sync(Model.build(p, ConsFormulation()))
times, modes = [], []
for k in range(int(sys.argv[3])):
    t0 = time.perf_counter()
    solver = s.qbpp.ABS3Solver(s.expr, gpu=gpu)
    sol = solver.search(target_energy=0, time_limit=10, seed=k)
    times.append(time.perf_counter() - t0)
    modes.append(sol.info.get("mode"))
print(json.dumps({"gpu_arg": gpu, "searches": len(times), "first_s": times[0], "later_median_s": statistics.median(times[1:]),
                  "later_max_s": max(times[1:]), "modes": sorted(set(modes)), "energy": float(sol.energy),
                  "gpu_name": sol.info.get("gpu", ""), "info": dict(sol.info)}))
"""


def abs3_check(args: argparse.Namespace, summary: dict[str, object]) -> int:
    puzzles = corpus_5x5()[:1] if args.quick else corpus_5x5()
    # gpu=-1 is "GPU when present": on a machine without one it would time the CPU twice.
    gpu_args = (-1, 0) if gpu_names() or not args.quick else (0,)
    forms = (ConsFormulation(),) if args.quick else (ConsFormulation(), HuboFormulation())
    try:
        smi = subprocess.run(
            ["nvidia-smi", "--query-gpu=name,driver_version", "--format=csv,noheader"],
            capture_output=True,
            text=True,
            timeout=20,
        )
        summary["nvidia_smi"] = smi.stdout.strip()
    except OSError as exc:
        summary["nvidia_smi"] = f"unavailable: {exc}"
    # 1. One process: first search (start-up) against later searches, GPU then CPU.
    for gpu in gpu_args:
        searches = "3" if args.quick else "21"
        r = subprocess.run(
            [sys.executable, "-c", DIRECT, json.dumps(puzzles[0][0].to_rows()), str(gpu), searches],
            capture_output=True,
            text=True,
            timeout=300,
        )
        line = r.stdout.strip().splitlines()[-1] if r.stdout.strip() else ""
        summary[f"direct_gpu{gpu}"] = (
            json.loads(line) if line.startswith("{") else {"error": r.stderr[-1500:]}
        )
        print(
            f"direct gpu={gpu}:",
            {k: v for k, v in summary[f"direct_gpu{gpu}"].items() if k != "info"},
            flush=True,
        )
    # 2. The harness: every 5x5 corpus puzzle, cons and hubo[aux], GPU (auto) and CPU.
    rows = []
    t0 = time.perf_counter()
    for gpu in gpu_args:
        for form in forms:
            for p, truth in puzzles:
                for seed in range(args.seeds):
                    res = run_trial(
                        p, form, ABS3Backend(gpu=gpu), seed=seed, max_iterations=50, time_limit_s=30
                    )
                    t = res.trial
                    its = res.iterations
                    rows.append(
                        {
                            "gpu_arg": gpu,
                            "form": form.describe(),
                            "puzzle": p.name,
                            "seed": seed,
                            "status": t.status,
                            "reason": t.reason,
                            "iterations": t.iterations,
                            "wall_s": t.wall_s,
                            "solve_s": t.solve_s,
                            "start_s": t.start_s,
                            "first_solve_s": its[0].solve_s if its else None,
                            "first_start_s": its[0].start_s if its else None,
                            "later_solve_median_s": statistics.median([i.solve_s for i in its[1:]])
                            if len(its) > 1
                            else None,
                            "mode": t.mode,
                            "correct": t.status == "solved"
                            and answer_from_bits(p, t.answer) == truth,
                            "variables": Model.build(p, form).num_variables,
                        }
                    )
        print(f"harness gpu={gpu} done at {time.perf_counter() - t0:.1f} s", flush=True)
    df = pd.DataFrame(rows)
    df.to_csv(args.out / "gpu_check_trials.csv", index=False)
    agg = (
        df.groupby(["gpu_arg", "form", "mode"])
        .agg(
            trials=("status", "size"),
            solved=("status", lambda s: int((s == "solved").sum())),
            correct=("correct", "sum"),
            iter_median=("iterations", "median"),
            wall_median_s=("wall_s", "median"),
            first_solve_median_s=("first_solve_s", "median"),
            later_solve_median_s=("later_solve_median_s", "median"),
        )
        .reset_index()
    )
    print(agg.to_string(index=False))
    summary["harness"] = agg.to_dict(orient="records")
    bad = df[(df.status == "solved") & ~df.correct]
    return 1 if len(bad) else 0


def sb_devices() -> list[str]:
    import torch

    return (["cuda"] if torch.cuda.is_available() else []) + ["cpu"]


def sb_batches(args: argparse.Namespace, summary: dict[str, object]) -> None:
    """SB on reference10's uncut QUBO (the first solve of a trial) per (device, agents):
    seconds per batch, batches and time to energy 0 (up to 20 s; --quick: 128 agents, 2 s)."""
    model = Model.build(get_suite("reference10")[0], QuboFormulation())
    rows = []
    for device in sb_devices():
        agents_tried = (128, 1024, 8192) if device == "cuda" else (128, 1024)
        for agents in agents_tried[:1] if args.quick else agents_tried:
            b = SimulatedBifurcationBackend(device=device, agents=agents)
            r = b.solve(model, seed=1, hint=None, time_limit_s=2.0 if args.quick else 20.0)
            n = int(r.extras["batches"])
            rows.append({"device": device, "agents": agents, "batch_s": r.solve_s / n,
                         "batches": n, "solve_s": r.solve_s, "best_energy": r.energy,
                         "mode": r.mode, "device_name": r.extras["device"]})  # fmt: skip
            print("sb batch:", rows[-1], flush=True)
    pd.DataFrame(rows).to_csv(args.out / "sb_batches.csv", index=False)
    summary["sb_batches"] = rows


def sb_trials(args: argparse.Namespace, summary: dict[str, object]) -> int:
    """Whole trials (qubo/sb) on growing boards per device, until the budget is spent."""
    loopy = {p.size_label: p for p in reversed(loopy_dev())}
    boards = [loopy["5x5"], loopy["7x7"], get_suite("reference10")[0], loopy["10x18"]]
    if args.quick:
        boards = boards[:1]
    end = time.perf_counter() + args.sb_budget_s
    rows = []
    for p in boards:
        for device in sb_devices():
            agents = args.sb_gpu_agents if device == "cuda" else 128
            for seed in range(args.sb_seeds):
                left = end - time.perf_counter()
                if left < 5:
                    break
                limit = min(args.sb_time_limit_s, left)
                b = SimulatedBifurcationBackend(device=device, agents=agents)
                res = run_trial(p, QuboFormulation(), b, seed=seed, max_iterations=500,
                                time_limit_s=limit)  # fmt: skip
                t = res.trial
                truth = p.meta.get("answer")
                rows.append({"puzzle": p.name, "size": p.size_label, "device": device,
                             "agents": agents, "seed": seed, "time_limit_s": limit,
                             "status": t.status, "iterations": t.iterations, "wall_s": t.wall_s,
                             "solve_s": t.solve_s, "sweeps": t.sweeps, "mode": t.mode,
                             "correct": t.status == "solved"
                             and (truth is None or answer_from_bits(p, t.answer) == truth)})  # fmt: skip
                print("sb trial:", rows[-1], flush=True)
    df = pd.DataFrame(rows)
    df.to_csv(args.out / "sb_trials.csv", index=False)
    summary["sb_trials"] = rows
    return int(((df.status == "solved") & ~df.correct).any()) if len(df) else 0


def full_check(args: argparse.Namespace, summary: dict[str, object]) -> int:
    """Both paths at full size (PyTorch needed: the machine the check is for has it)."""
    import torch

    summary["torch"] = f"{torch.__version__} cuda={torch.version.cuda}"
    bad = 0 if args.skip_abs3 else abs3_check(args, summary)
    sb_batches(args, summary)
    return bad | sb_trials(args, summary)


def quick_check(args: argparse.Namespace, summary: dict[str, object]) -> int:
    """Both paths on tiny inputs; the GPU side only where there is a GPU to run it on."""
    skipped = []
    gpus = gpu_names()
    try:
        import torch
    except ImportError:
        torch = None
    if torch is not None:
        summary["torch"] = f"{torch.__version__} cuda={torch.version.cuda}"
    if not gpus:
        skipped.append("ABS3 gpu=-1 (no GPU visible to nvidia-smi)")
    bad = 0 if args.skip_abs3 else abs3_check(args, summary)
    if torch is None:
        skipped.append("simulated bifurcation on CUDA and on the CPU (PyTorch is not installed)")
    else:
        if not torch.cuda.is_available():
            skipped.append("simulated bifurcation on CUDA (PyTorch sees no CUDA device)")
        sb_batches(args, summary)
        bad |= sb_trials(args, summary)
    summary["skipped"] = skipped
    print(f"GPU measurements skipped: {'; '.join(skipped)}" if skipped else "nothing skipped")
    return bad


def _text(value: object) -> str:
    return "" if value is None or (isinstance(value, float) and pd.isna(value)) else str(value)


def rows_from_run(run: Path) -> pd.DataFrame:
    """The files a run wrote into ``run`` as one table, a ``part`` per measurement kind, each
    row stamped with what the run's summary recorded (empty where it recorded nothing)."""
    summary = json.loads((run / "gpu_check_summary.json").read_text())
    parts = []
    directs = [v for k, v in summary.items() if k.startswith("direct_gpu") and "info" in v]
    for d in directs:
        info = d["info"]
        parts.append(pd.DataFrame([{
            "part": "direct", "gpu_arg": d["gpu_arg"], "mode": "/".join(d["modes"]),
            "searches": d.get("searches"), "first_s": d["first_s"],
            "later_median_s": d["later_median_s"], "later_max_s": d["later_max_s"],
            "energy": d["energy"], "gpu_flips": info.get("gpu_flip_count"),
            "total_flips": info.get("total_flip_count"),
        }]))  # fmt: skip
    for name, part in (
        ("gpu_check_trials.csv", "abs3_trial"),
        ("sb_batches.csv", "sb_batch"),
        ("sb_trials.csv", "sb_trial"),
    ):
        if (run / name).exists() and (run / name).stat().st_size > 1:
            parts.append(pd.read_csv(run / name).assign(part=part))
    parts += [pd.DataFrame([{"part": "skipped", "reason": r}]) for r in summary.get("skipped", [])]
    rows = pd.concat(parts, ignore_index=True)
    rows = rows[["part", *[c for c in rows if c != "part"]]]
    # The stamp: the run's own record of where and with what it ran. A run before the check
    # recorded its provenance leaves the commit, Python and command empty ("not recorded").
    info = directs[0]["info"] if directs else {}
    recorded = summary.get("provenance", {})
    smi = _text(summary.get("nvidia_smi"))
    machine: dict[str, object] = {
        "git_commit": _text(recorded.get("git_commit")),
        "cpu": _text(recorded.get("cpu", info.get("cpu_name", ""))),
        "cpu_count": int(recorded.get("cpu_count", info.get("cpu_threads", 0)) or 0),
        "gpu": _text(recorded.get("gpu", smi.split(",")[0] if "unavailable" not in smi else "")),
        "python": _text(recorded.get("python")),
    }
    versions = {k: v for k, v in recorded.items() if k.startswith("version_")}
    versions.setdefault("version_pyqbpp", info.get("version", ""))
    versions.setdefault("version_torch", _text(summary.get("torch")).split(" ")[0])
    machine |= {key: _text(versions[key]) for key in sorted(versions)}
    # A run before ``started_utc`` recorded ``started`` in the machine's local time, taken
    # as UTC (those machines' clocks ran on UTC).
    started = _text(summary.get("started_utc", summary.get("started")))[:16]
    return benchmark_page.stamp_recorded(rows, machine, _text(summary.get("command")), started)


def _abs3_sections(rows: pd.DataFrame) -> list[tuple[str, str]]:
    trials, direct = rows[rows.part == "abs3_trial"], rows[rows.part == "direct"]
    if trials.empty and direct.empty:
        return []
    body = []
    for gpu, group in trials.groupby("gpu_arg", sort=False):
        modes = ", ".join(f"`{m}`" for m in dict.fromkeys(group["mode"].astype(str)))
        body.append(
            f"With `gpu={int(gpu)}` {benchmark_page.counted(len(group), 'trial')} ran in mode {modes}."
        )
    for d in direct[pd.to_numeric(direct.gpu_flips, errors="coerce") > 0].itertuples():
        body.append(
            f"In the direct timing with `gpu={int(d.gpu_arg)}` (mode `{d.mode}`), pyqbpp counted "
            f"{int(d.gpu_flips):,} of {int(d.total_flips):,} flips on the GPU."
        )
    table = []
    for (gpu, form, mode), g in trials.groupby(["gpu_arg", "form", "mode"], sort=False):
        solved = g[g.status == "solved"]
        table.append({
            "`gpu`": int(gpu), "form": form, "mode": mode,
            "variables": benchmark_page.span_text(g.variables),
            "solved [95% CI]": benchmark_page.success_text(len(solved), len(g)),
            "equal to the corpus answer": f"{int(benchmark_page.is_true(g.correct).sum())}/{len(solved)}",
            "median iterations": f"{solved.iterations.median():g}" if len(solved) else "-",
            "median first search s": f"{g.first_solve_s.median():.3f}",
            "median later search s": f"{g.later_solve_median_s.median():.3f}"
            if g.later_solve_median_s.notna().any() else "-",
        })  # fmt: skip
    boards = trials.puzzle.nunique()
    seeds = ", ".join(str(int(s)) for s in sorted(trials.seed.unique()))
    out = []
    if table:
        caption = (
            f"The harness on {benchmark_page.counted(boards, '5x5 corpus board')}, seed{'s' * (',' in seeds)} "
            f"{seeds}, each trial in its "
            "own process, within pyqbpp's free 100-variable limit. A solved trial is verified "
            "by the checker; its loop is also compared with the corpus answer. Later search: "
            "the median over a trial's searches after its first, where it had any."
        )
        text = "\n".join(body) + "\n\n" + benchmark_page.grid_markdown(pd.DataFrame(table), caption)
        out.append(("ABS3 (pyqbpp): GPU mode against CPU mode", text))
    if not direct.empty:
        grid = pd.DataFrame([{
            "`gpu`": int(d.gpu_arg), "mode": d.mode,
            "searches": int(d.searches) if pd.notna(d.searches) else "not recorded",
            "first search s": f"{d.first_s:.3f}", "later searches median s": f"{d.later_median_s:.3f}",
            "later searches max s": f"{d.later_max_s:.3f}",
        } for d in direct.itertuples()])  # fmt: skip
        verdict = ""
        by_mode = {str(d.mode): d for d in direct.itertuples()}
        if {"GPU", "CPU"} <= set(by_mode):
            gpu_s, cpu_s = by_mode["GPU"].later_median_s, by_mode["CPU"].later_median_s
            faster = "faster" if gpu_s < cpu_s else "slower"
            verdict = (
                f"\nOn this model a later search on the GPU takes {gpu_s:.3f} s (median) "
                f"against {cpu_s:.3f} s on the CPU: the GPU is {faster} by a factor of "
                f"{max(gpu_s, cpu_s) / min(gpu_s, cpu_s):.2f}. The first search in a process "
                f"takes {by_mode['GPU'].first_s:.3f} s on the GPU against "
                f"{by_mode['CPU'].first_s:.3f} s on the CPU (start-up)."
            )
        cons = trials[trials.form == "cons"].variables
        cons_vars = f" ({int(cons.iloc[0])} variables)" if len(cons) else ""
        caption = (
            f"One process, one 5x5 cons model{cons_vars}, ABS3 searches one after another "
            "(10 s limit each, target energy 0), timed around solver creation and search."
        )
        out.append((
            "ABS3: the first search against later ones",
            benchmark_page.grid_markdown(grid, caption) + verdict,
        ))  # fmt: skip
    return out


def _sb_sections(rows: pd.DataFrame) -> list[tuple[str, str]]:
    batches, trials = rows[rows.part == "sb_batch"], rows[rows.part == "sb_trial"]
    out = []
    if not batches.empty:
        grid = pd.DataFrame([{
            "device": b.device if b.device_name == b.device else f"{b.device} ({b.device_name})",
            "agents": f"{int(b.agents):,}",
            "seconds per batch": f"{b.batch_s:.2f}", "batches": int(b.batches),
            "seconds": f"{b.solve_s:.1f}", "best energy": f"{b.best_energy:g}",
        } for b in batches.itertuples()])  # fmt: skip
        zero = int((batches.best_energy == 0).sum())
        verdict = (
            f"{zero} of {len(batches)} settings reached energy 0."
            if zero
            else f"No setting reached energy 0 ({benchmark_page.counted(len(batches), 'setting')} tried)."
        )
        best = batches[batches.best_energy == batches.best_energy.min()]
        verdict += f" The lowest energy, {best.best_energy.iloc[0]:g}, came from " + " and ".join(
            f"{int(b.agents):,} agents on {b.device}" for b in best.itertuples()
        )
        verdict += "."
        caption = (
            "Simulated bifurcation (the `sb` backend) on reference10's QUBO without cuts (a "
            "trial's first solve): batches of agents until energy 0 or the time limit."
        )
        out.append((
            "Simulated bifurcation: one solve on reference10",
            benchmark_page.grid_markdown(grid, caption) + "\n" + verdict + "\n",
        ))  # fmt: skip
    if not trials.empty:
        limit = trials.time_limit_s.max()
        table, largest = [], {}
        for (puzzle, size, device, agents), g in trials.groupby(
            ["puzzle", "size", "device", "agents"], sort=False
        ):
            solved = g[(g.status == "solved") & benchmark_page.is_true(g.correct)]
            cut = int((g.time_limit_s < limit).sum())
            if len(solved):
                largest[(device, int(agents))] = size
            table.append({
                "board": f"`{puzzle}`", "size": size, "device": device,
                "agents": f"{int(agents):,}",
                "seeds": ", ".join(str(int(s)) for s in g.seed),
                "solved [95% CI]": benchmark_page.success_text(len(solved), len(g)),
                "seconds (solved)": benchmark_page.span_text(solved.wall_s),
                "time limit s": benchmark_page.span_text(g.time_limit_s)
                + (f" ({cut} cut by the check's budget)" if cut else ""),
            })  # fmt: skip
        caption = (
            "Whole trials of the iterative method (qubo form, `sb` backend) on boards of "
            "growing size, until the check's time budget ran out; a solved trial is verified "
            "by the checker and, where the board has a known answer, equal to it."
        )
        said = [
            f"{device} with {agents:,} agents: {size}" for (device, agents), size in largest.items()
        ]
        verdict = (
            "The largest board solved, per device: " + "; ".join(said) + "."
            if said
            else "No board was solved on either device."
        )
        out.append((
            "Simulated bifurcation: whole trials",
            benchmark_page.grid_markdown(pd.DataFrame(table), caption) + "\n" + verdict + "\n",
        ))  # fmt: skip
    return out


def page_sections(rows: pd.DataFrame) -> list[tuple[str, str]]:
    """The page, every number read from ``rows``."""
    sections = _abs3_sections(rows) + _sb_sections(rows)
    skipped = rows[rows.part == "skipped"].reason.astype(str).tolist()
    if skipped:
        sections.append(("Not measured", "".join(f"- {r}\n" for r in skipped)))
    return sections


def publish(rows: pd.DataFrame, dest: Path) -> Path:
    rows = benchmark_page.read_back(rows, dest)  # a page after a run = one from --rows
    return benchmark_page.write_page(
        dest, rows, title="The GPU paths", script=COMMAND, sections=page_sections(rows)
    )


def main() -> int:
    ap = OneLineArgumentParser()
    ap.add_argument("--out", type=Path, help="default: results/gpu_check (--quick: a temp dir)")
    ap.add_argument("--quick", action="store_true", help="seconds; the GPU side where there is one")
    ap.add_argument("--seeds", type=int, default=1, help="ABS3 harness seeds per puzzle")
    ap.add_argument("--sb-budget-s", type=float, default=300.0)
    ap.add_argument("--sb-seeds", type=int, default=3)
    ap.add_argument("--sb-time-limit-s", type=float, default=60.0)
    ap.add_argument("--sb-gpu-agents", type=int, default=2048)
    ap.add_argument("--skip-abs3", action="store_true")
    ap.add_argument("--from-run", type=Path, help="with --publish: the rows from a run's --out")
    benchmark_page.add_options(ap)
    args = ap.parse_args()
    if benchmark_page.publish_from_rows(args, ap, publish):
        return 0
    if args.from_run:
        if not args.publish:
            ap.error("--from-run needs --publish")
        print(f"page: {publish(rows_from_run(args.from_run), args.publish)}")
        return 0
    if args.quick:
        args.seeds, args.sb_seeds, args.sb_budget_s, args.sb_time_limit_s = 1, 1, 10.0, 5.0
    args.out = args.out or (
        Path(tempfile.mkdtemp(prefix="gpu_check-")) if args.quick else Path("results/gpu_check")
    )
    args.out.mkdir(parents=True, exist_ok=True)
    summary: dict[str, object] = {
        "started_utc": time.strftime("%Y-%m-%d %H:%M:%S", time.gmtime()),
        "command": " ".join([COMMAND, *sys.argv[1:]]),
        "provenance": provenance(PACKAGES),
    }
    try:
        bad = quick_check(args, summary) if args.quick else full_check(args, summary)
    finally:  # what was measured is kept, whatever stopped the rest
        (args.out / "gpu_check_summary.json").write_text(json.dumps(summary, indent=2, default=str))
    print(f"summary: {args.out / 'gpu_check_summary.json'}")
    if args.publish:
        print(f"page: {publish(rows_from_run(args.out), args.publish)}")
    return bad


if __name__ == "__main__":
    run_command(main)
