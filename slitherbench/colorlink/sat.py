"""The rows of :mod:`.constraints` as CNF (python-sat), in one incremental solver per run.

Variable ``v`` of the rows is DIMACS ``v + 1``. A sum equal to n or at most n goes through
pysat's cardinality encodings; degree {0, 2} is "not exactly one" plus "no three together"
(exact at any point); a 0/1 or "at least one" row is a handful of clauses. Exact and
deterministic: iteration counts carry no sampling noise.
"""

from __future__ import annotations

import threading
from collections.abc import Sequence
from itertools import combinations
from typing import Any

from .constraints import Row


def row_clauses(row: Row, pool: Any) -> list[list[int]]:
    from pysat.card import CardEnc, EncType

    lits = [v + 1 for v in row.variables]
    lo, hi = row.allowed[0], row.allowed[-1]
    if row.kind == "degree":
        out = [[-a, *(b for b in lits if b != a)] for a in lits]  # not exactly one
        return out + [[-a, -b, -c] for a, b, c in combinations(lits, 3)]
    if lo >= 1 and hi >= len(lits):  # at least lo (nonempty: at least one)
        if lo == 1:
            return [lits]
        return CardEnc.atleast(lits, bound=lo, vpool=pool, encoding=EncType.seqcounter).clauses
    if lo == hi:
        return CardEnc.equals(lits, bound=lo, vpool=pool, encoding=EncType.seqcounter).clauses
    if lo == 0:
        if hi == len(lits) - 1:  # a loop cut: not all of them
            return [[-a for a in lits]]
        if hi == 1:
            return [[-a, -b] for a, b in combinations(lits, 2)]
        return CardEnc.atmost(lits, bound=hi, vpool=pool, encoding=EncType.seqcounter).clauses
    raise ValueError(f"no CNF for a {row.kind} row allowing {row.allowed}")


class SatModel:
    """One python-sat solver holding every row added so far (learnt clauses kept)."""

    def __init__(self, num_vars: int, rows: Sequence[Row], solver: str = "glucose4") -> None:
        from pysat.formula import IDPool
        from pysat.solvers import Solver

        self.num_vars = num_vars
        self.pool = IDPool(start_from=num_vars + 1)
        self.sat = Solver(name=solver)
        self.add(rows)

    def add(self, rows: Sequence[Row]) -> None:
        for row in rows:
            for clause in row_clauses(row, self.pool):
                self.sat.add_clause(clause)

    def add_clause(self, clause: Sequence[int]) -> None:
        self.sat.add_clause(list(clause))

    def solve(self, time_limit_s: float) -> tuple[str, list[bool] | None]:
        """("feasible", x) / ("infeasible", None) / ("timeout", None)."""
        timer = threading.Timer(max(time_limit_s, 0.001), self.sat.interrupt)
        timer.start()
        try:
            got = self.sat.solve_limited(expect_interrupt=True)
        finally:
            timer.cancel()
            self.sat.clear_interrupt()
        if got is None:
            return "timeout", None
        if not got:
            return "infeasible", None
        on = {v for v in self.sat.get_model() if 0 < v <= self.num_vars}
        return "feasible", [v + 1 in on for v in range(self.num_vars)]

    def close(self) -> None:
        self.sat.delete()

    def __enter__(self) -> SatModel:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()
