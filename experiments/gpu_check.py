"""Device check: the ABS3 GPU path (gpu=-1) against CPU (gpu=0), and its start-up cost.

    python experiments/gpu_check.py --out results/gpu_check

Runs inside pyqbpp's free 100-variable limit: the eight 5x5 corpus puzzles (cons: 60
variables, hubo[aux]: 96), each trial in its own process through the harness, plus a
direct timing of one process's first ABS3 search against its later ones.
"""

from __future__ import annotations

import argparse
import json
import statistics
import subprocess
import sys
import time
from pathlib import Path

import pandas as pd

from slitherbench.backends.abs3 import ABS3Backend
from slitherbench.formulations import ConsFormulation, HuboFormulation, Model
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
for k in range(21):
    t0 = time.perf_counter()
    solver = s.qbpp.ABS3Solver(s.expr, gpu=gpu)
    sol = solver.search(target_energy=0, time_limit=10, seed=k)
    times.append(time.perf_counter() - t0)
    modes.append(sol.info.get("mode"))
print(json.dumps({"gpu_arg": gpu, "first_s": times[0], "later_median_s": statistics.median(times[1:]),
                  "later_max_s": max(times[1:]), "modes": sorted(set(modes)), "energy": float(sol.energy),
                  "gpu_name": sol.info.get("gpu", ""), "info": dict(sol.info)}))
"""


def main() -> int:
    ap = argparse.ArgumentParser()
    ap.add_argument("--out", type=Path, default=Path("results/gpu_check"))
    ap.add_argument("--seeds", type=int, default=3)
    args = ap.parse_args()
    args.out.mkdir(parents=True, exist_ok=True)
    puzzles = corpus_5x5()
    summary: dict[str, object] = {}
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
    for gpu in (-1, 0):
        r = subprocess.run(
            [sys.executable, "-c", DIRECT, json.dumps(puzzles[0][0].to_rows()), str(gpu)],
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
    for gpu in (-1, 0):
        for form in (ConsFormulation(), HuboFormulation()):
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
                            "status": t["status"],
                            "reason": t["reason"],
                            "iterations": t["iterations"],
                            "wall_s": t["wall_s"],
                            "solve_s": t["solve_s"],
                            "start_s": t["start_s"],
                            "first_solve_s": its[0]["solve_s"] if its else None,
                            "first_start_s": its[0]["start_s"] if its else None,
                            "later_solve_median_s": statistics.median(
                                [i["solve_s"] for i in its[1:]]
                            )
                            if len(its) > 1
                            else None,
                            "mode": t["mode"],
                            "correct": t["status"] == "solved"
                            and answer_from_bits(p, t["answer"]) == truth,
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
    (args.out / "gpu_check_summary.json").write_text(json.dumps(summary, indent=2, default=str))
    bad = df[(df.status == "solved") & ~df.correct]
    return 1 if len(bad) else 0


if __name__ == "__main__":
    sys.exit(main())
