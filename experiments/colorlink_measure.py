"""Colorlink on generated puzzles: generation time, clues kept, SAT iterations, and simulated
annealing's success within a time limit (3 annealing seeds per puzzle).

    .venv/bin/python experiments/colorlink_measure.py            # the README's table (~3 min)
    .venv/bin/python experiments/colorlink_measure.py --quick    # 3x3-4x4 only
"""

from __future__ import annotations

import statistics
import sys
import time

from slitherbench.colorlink import check_colorlink, generate_colorlink, solve_colorlink

SIZES = [(3, 3, 2), (4, 4, 2), (5, 5, 2), (5, 5, 3), (7, 7, 3)]
PUZZLES, SA_SEEDS, SA_LIMIT_S = 5, 3, 20.0


def row(rows: int, cols: int, colours: int, anneal: bool) -> str:
    gen_s, clues, iters, sat_s, sa_ok, sa_s = [], [], [], [], 0, []
    for s in range(PUZZLES):
        t = time.perf_counter()
        p = generate_colorlink(rows, cols, colours, s)
        gen_s.append(time.perf_counter() - t)
        clues.append(sum(c is not None for c in p.clues))
        r = solve_colorlink(p, "sat")
        assert r.answer == p.meta["answer"] and not check_colorlink(p, r.answer)
        iters.append(r.iterations)
        sat_s.append(r.seconds)
        for seed in range(SA_SEEDS if anneal else 0):
            r = solve_colorlink(p, "sa", seed=seed, time_limit_s=SA_LIMIT_S)
            if r.status == "solved":
                sa_ok += 1
                sa_s.append(r.seconds)
    sa = f"{sa_ok}/{PUZZLES * SA_SEEDS}" if anneal else "-"
    sa_med = f"{statistics.median(sa_s):.2f}" if sa_s else "-"
    return (
        f"| {rows}x{cols} | {colours} | {max(gen_s):.2f} | {min(clues)}-{max(clues)} "
        f"| {min(iters)}-{max(iters)} (median {statistics.median(iters)}) "
        f"| {max(sat_s) * 1000:.0f} | {sa} | {sa_med} |"
    )


if __name__ == "__main__":
    quick = "--quick" in sys.argv
    print(
        "| board | colours | generate, max s | clues | SAT iterations | SAT max ms "
        f"| SA solved in {SA_LIMIT_S:.0f} s | SA median s |"
    )
    print("|---|---|---|---|---|---|---|---|")
    for rows, cols, colours in SIZES[:2] if quick else SIZES:
        print(row(rows, cols, colours, anneal=rows * cols <= 25), flush=True)
