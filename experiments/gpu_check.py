"""Device check, one short run for both GPU paths:

1. ABS3 (pyqbpp) with gpu=-1 against gpu=0, and its start-up cost. Inside pyqbpp's free
   100-variable limit: the eight 5x5 corpus puzzles (cons: 60 variables, hubo[aux]: 96), each
   trial in its own process through the harness, plus a direct timing of one process's first
   ABS3 search against its later ones.
2. Simulated bifurcation (the sb backend) on CUDA and on the CPU: one batch on reference10's
   uncut QUBO per (device, agents), then whole trials of the iterative method on boards of
   growing size (5x5, 7x7, reference10, 10x18), until --sb-budget-s is spent.

Here:  python experiments/gpu_check.py --out results/gpu_check
On a lent GPU machine with PyTorch but none of this project's dependencies:
    bash experiments/gpu_carry.sh      # here: builds .gpu/site (trimmed pyqbpp + SB, 42 MB)
    PYTHONPATH=.gpu/site:. python3 experiments/gpu_check.py --out $OUT    # there
(the device tool: carry [".gpu"]).

``--quick``: seconds, on any machine: ABS3's direct timing with 3 searches and the harness on
one 5x5 board (cons, one seed), simulated bifurcation with 128 agents for 2 s and whole trials
for 10 s on the 5x5 board; the GPU side only where a GPU is visible (nvidia-smi) and PyTorch
sees CUDA. One line names the measurements skipped and why. Files go to a temporary directory
unless ``--out`` is given.
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

from slitherbench.backends.abs3 import ABS3Backend
from slitherbench.backends.bifurcation import SimulatedBifurcationBackend
from slitherbench.formulations import ConsFormulation, HuboFormulation, Model, QuboFormulation
from slitherbench.library import get_suite, loopy_dev
from slitherbench.provenance import gpu_names
from slitherbench.puzzle import Puzzle, answer_from_bits
from slitherbench.runner import run_trial

CORPUS = Path(__file__).resolve().parents[1] / "slitherbench" / "data" / "loopy_dev.jsonl"


def corpus_5x5() -> list[tuple[Puzzle, list[bool]]]:
    out = []
    for line in CORPUS.read_text().splitlines():
        d = json.loads(line)
        if d["rows"] == 5:
            out.append(
                (
                    Puzzle.from_rows(d["clues"], name=d["id"]),
                    [c == "1" for c in d["solution_H"] + d["solution_V"]],
                )
            )
    return out


DIRECT = r"""
import json, statistics, sys, time
from slitherbench.backends.qbpp_session import QbppSession
from slitherbench.formulations import ConsFormulation, Model
from slitherbench.puzzle import Puzzle
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
print(json.dumps({"gpu_arg": gpu, "first_s": times[0], "later_median_s": statistics.median(times[1:]),
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


def main() -> int:
    ap = argparse.ArgumentParser()
    ap.add_argument("--out", type=Path, help="default: results/gpu_check (--quick: a temp dir)")
    ap.add_argument("--quick", action="store_true", help="seconds; the GPU side where there is one")
    ap.add_argument("--seeds", type=int, default=1, help="ABS3 harness seeds per puzzle")
    ap.add_argument("--sb-budget-s", type=float, default=300.0)
    ap.add_argument("--sb-seeds", type=int, default=3)
    ap.add_argument("--sb-time-limit-s", type=float, default=60.0)
    ap.add_argument("--sb-gpu-agents", type=int, default=2048)
    ap.add_argument("--skip-abs3", action="store_true")
    args = ap.parse_args()
    if args.quick:
        args.seeds, args.sb_seeds, args.sb_budget_s, args.sb_time_limit_s = 1, 1, 10.0, 5.0
    args.out = args.out or (
        Path(tempfile.mkdtemp(prefix="gpu_check-")) if args.quick else Path("results/gpu_check")
    )
    args.out.mkdir(parents=True, exist_ok=True)
    summary: dict[str, object] = {"started": time.strftime("%Y-%m-%d %H:%M:%S")}
    bad = 0
    if args.quick:
        try:
            bad = quick_check(args, summary)
        finally:
            (args.out / "gpu_check_summary.json").write_text(
                json.dumps(summary, indent=2, default=str)
            )
        print(f"summary: {args.out / 'gpu_check_summary.json'}")
        return bad
    try:
        import torch

        summary["torch"] = f"{torch.__version__} cuda={torch.version.cuda}"
        if not args.skip_abs3:
            bad |= abs3_check(args, summary)
        sb_batches(args, summary)
        bad |= sb_trials(args, summary)
    finally:
        (args.out / "gpu_check_summary.json").write_text(json.dumps(summary, indent=2, default=str))
    return bad


if __name__ == "__main__":
    sys.exit(main())
