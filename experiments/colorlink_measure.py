"""Colorlink on generated puzzles: generation time, clues kept, SAT iterations, and simulated
annealing's success within a time limit (3 annealing seeds per puzzle).

    .venv/bin/python experiments/colorlink_measure.py            # the README's table (~3 min)
    .venv/bin/python experiments/colorlink_measure.py --quick    # one 3x3 puzzle, 1 seed, 2 s
"""

from __future__ import annotations

import argparse
import statistics
import time

from slitherbench.colorlink import check_colorlink, generate_colorlink, solve_colorlink

SIZES = [(3, 3, 2), (4, 4, 2), (5, 5, 2), (5, 5, 3), (7, 7, 3)]
PUZZLES, SA_SEEDS, SA_LIMIT_S = 5, 3, 20.0


def row(
    rows: int,
    cols: int,
    colours: int,
    anneal: bool,
    puzzles: int = PUZZLES,
    sa_seeds: int = SA_SEEDS,
    sa_limit_s: float = SA_LIMIT_S,
) -> str:
    gen_s, clues, iters, sat_s, sa_ok, sa_s = [], [], [], [], 0, []
    for s in range(puzzles):
        t = time.perf_counter()
        p = generate_colorlink(rows, cols, colours, s)
        gen_s.append(time.perf_counter() - t)
        clues.append(sum(c is not None for c in p.clues))
        r = solve_colorlink(p, "sat")
        assert r.answer == p.meta["answer"] and not check_colorlink(p, r.answer)
        iters.append(r.iterations)
        sat_s.append(r.seconds)
        for seed in range(sa_seeds if anneal else 0):
            r = solve_colorlink(p, "sa", seed=seed, time_limit_s=sa_limit_s)
            if r.status == "solved":
                sa_ok += 1
                sa_s.append(r.seconds)
    sa = f"{sa_ok}/{puzzles * sa_seeds}" if anneal else "-"
    sa_med = f"{statistics.median(sa_s):.2f}" if sa_s else "-"
    return (
        f"| {rows}x{cols} | {colours} | {max(gen_s):.2f} | {min(clues)}-{max(clues)} "
        f"| {min(iters)}-{max(iters)} (median {statistics.median(iters)}) "
        f"| {max(sat_s) * 1000:.0f} | {sa} | {sa_med} |"
    )


if __name__ == "__main__":
    ap = argparse.ArgumentParser()
    ap.add_argument("--quick", action="store_true", help="one 3x3 puzzle, one SA seed, 2 s")
    args = ap.parse_args()
    limit = 2.0 if args.quick else SA_LIMIT_S
    print(
        "| board | colours | generate, max s | clues | SAT iterations | SAT max ms "
        f"| SA solved in {limit:.0f} s | SA median s |"
    )
    print("|---|---|---|---|---|---|---|---|")
    for rows, cols, colours in SIZES[:1] if args.quick else SIZES:
        kw = dict(puzzles=1, sa_seeds=1, sa_limit_s=limit) if args.quick else {}
        print(row(rows, cols, colours, anneal=rows * cols <= 25, **kw), flush=True)
