"""The exact iteration reference for a store's puzzles: CP-SAT running the page's iterative
method (the runner with the ``exact`` backend, the same loop every backend runs), a few seeds
per puzzle, written to a store of its own, ``<store>/exact_reference``.

    python -m slitherbench.run.reference results/hubo_vs_qubo [--seeds 3]

The report reads it from there; ``python -m slitherbench.report STORE --exact`` runs this first.
"""

from __future__ import annotations

import sys
from pathlib import Path

import pandas as pd

from slitherbench.method.provenance import provenance
from slitherbench.models.formulations import ConsFormulation
from slitherbench.puzzles.puzzle import Puzzle
from slitherbench.run.console import OneLineArgumentParser
from slitherbench.run.plan import puzzle_ident
from slitherbench.run.runner import run_trial
from slitherbench.solvers.exact import ExactBackend
from slitherbench.sources.grades import grade_columns
from slitherbench.store.result_store import ResultStore
from slitherbench.store.results import load

SUBDIR = "exact_reference"


def compute(store: Path, seeds: int = 3, time_limit_s: float = 60.0) -> int:
    """Solve every puzzle of ``store`` that lacks a reference; return the trials written."""
    trials, _ = load(store)
    ref = ResultStore(store / SUBDIR)
    have = ref.finished_keys()
    written = 0
    for name, rows in (
        trials[["puzzle", "puzzle_rows"]].drop_duplicates("puzzle").itertuples(index=False)
    ):
        p = Puzzle.parse(str(rows), name=str(name))
        for s in range(seeds):
            key = f"exact-{puzzle_ident(p)}-r{s}"
            if key in have:
                continue
            back = ExactBackend()
            r = run_trial(
                p, ConsFormulation(), back, seed=s, max_iterations=1000, time_limit_s=time_limit_s
            )
            t = r.trial
            t.key, t.experiment, t.config_hash, t.cell = (
                key,
                SUBDIR,
                "exact-reference",
                "cons/exact",
            )
            t.repetition, t.puzzle_rows = s, str(rows)
            t.grade, t.grade_shares = grade_columns(p)  # once per board, outside the trial
            t.max_iterations, t.time_limit_s = 1000, time_limit_s
            t.timestamp = pd.Timestamp.now(tz="UTC").isoformat()
            ref.write(t, r.iterations, provenance(back.packages))
            written += 1
    return written


def main(argv: list[str] | None = None) -> int:
    ap = OneLineArgumentParser(
        prog="python -m slitherbench.run.reference", description=__doc__.split("\n\n")[0]
    )
    ap.add_argument("store", type=Path)
    ap.add_argument("--seeds", type=int, default=3)
    args = ap.parse_args(argv)
    try:
        n = compute(args.store, seeds=args.seeds)
    except (FileNotFoundError, ValueError) as exc:
        print(f"error: {exc}", file=sys.stderr)
        return 2
    print(f"exact reference: {n} new trials in {args.store / SUBDIR}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
