"""Benchmark: harness overhead (everything but the backend's own solve time).

    python experiments/bench_overhead.py

Targets: under 5 % of wall time on the 10x10 reference (OpenJij HUBO, a real annealer), and
under 50 ms per iteration at 20x36 (exact backend, so the solve is short and overhead shows).
Exit code 1 if missed.
"""

from __future__ import annotations

import sys

from slitherbench.backends.exact import ExactBackend
from slitherbench.backends.openjij_sa import OpenJijBackend
from slitherbench.formulations import ConsFormulation, HuboFormulation
from slitherbench.library import loopy_dev, reference10
from slitherbench.runner import run_trial


def report(label: str, trials: list[dict]) -> tuple[float, float]:
    wall = sum(t["wall_s"] for t in trials)
    over = sum(t["overhead_s"] for t in trials)
    its = sum(t["iterations"] for t in trials)
    print(
        f"{label}: {len(trials)} trials, {its} iterations, wall {wall:.2f} s, "
        f"overhead {over:.3f} s = {100 * over / wall:.2f} % of wall, {1000 * over / its:.1f} ms/iteration, "
        f"statuses {[t['status'] for t in trials]}"
    )
    return over / wall, over / its


def main() -> int:
    ok = True
    ref = [
        run_trial(
            reference10(),
            HuboFormulation(degree_mode="exact", cut_weight=2),
            OpenJijBackend(),
            seed=s,
            max_iterations=100,
            time_limit_s=60,
        ).trial
        for s in (1, 2)
    ]
    frac, _ = report("reference10 hubo[exact]/openjij", ref)
    print(
        f"{'PASS' if frac < 0.05 else 'FAIL'}: overhead {100 * frac:.2f} % of wall (target < 5 %)"
    )
    ok &= frac < 0.05
    big = [p for p in loopy_dev() if p.size_label == "20x36"]
    tr = [
        run_trial(
            p, ConsFormulation(), ExactBackend(), seed=1, max_iterations=100, time_limit_s=120
        ).trial
        for p in big
    ]
    _, per_it = report("20x36 cons/exact", tr)
    print(
        f"{'PASS' if per_it < 0.05 else 'FAIL'}: {1000 * per_it:.1f} ms overhead per iteration at 20x36 (target < 50 ms)"
    )
    ok &= per_it < 0.05
    return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(main())
