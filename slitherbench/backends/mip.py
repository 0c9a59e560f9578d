"""Integer programming (HiGHS, through highspy) inside the iterative method, the survey's
IP family: binaries x_e, and the constraint description as rows (:mod:`.encode`): clue rows
sum x = n, degree rows sum x - 2 y_p = 0 with a binary y_p, and a row sum_{e in L} x_e <= |L| - 1
per loop cut, added to the same model as the run goes; No-Square adds a binary per face with
x_e + c_f + c_g - 2 w_e = 0 per edge (x_e = c_f XOR c_g) and a row c_a + c_b + c_c + c_d <= 3
per 2x2 block. A pure
feasibility problem (no objective); the previous solution is offered as a MIP start.
"""

from __future__ import annotations

import os
import sys
from collections.abc import Sequence
from typing import Any

from ..formulations import Constraint
from ..puzzle import Puzzle
from .constraints import ConstraintBackend
from .encode import RELATIONS, linear_row


def _quiet_highs() -> Any:
    """A silent Highs instance: HiGHS prints its banner from C on the first one, which
    ``output_flag`` cannot stop, so stdout is closed for that moment."""
    import highspy

    sys.stdout.flush()
    saved, null = os.dup(1), os.open(os.devnull, os.O_WRONLY)
    os.dup2(null, 1)
    try:
        h = highspy.Highs()
        h.setOptionValue("output_flag", False)
    finally:
        os.dup2(saved, 1)
        os.close(saved)
        os.close(null)
    return h


class HighsBackend(ConstraintBackend):
    name = "mip"
    packages = ("highspy",)
    imports = ("highspy",)

    def __init__(self, threads: int = 1, **params: Any) -> None:
        super().__init__(threads=threads, **params)
        self._h: Any = None

    def new_model(self, puzzle: Puzzle) -> None:
        h = _quiet_highs()
        h.setOptionValue("threads", int(self.params["threads"]))
        self._x = [h.addBinary() for _ in range(puzzle.num_edges)]
        self._vars = list(self._x)  # the edges, then any face binaries: the rows' labels
        self._h = h

    def add_face_vars(self, count: int) -> list[int]:
        first = len(self._vars)
        self._vars += [self._h.addBinary() for _ in range(count)]
        return list(range(first, first + count))

    def add_constraint(self, c: Constraint) -> None:
        row = linear_row(c)
        x = self._vars
        total = sum(x[e] for e, _ in row.terms) if row.unit else sum(a * x[e] for e, a in row.terms)
        if row.step:
            z = self._h.addBinary() if row.z_max == 1 else self._h.addIntegral(0, row.z_max)
            self._h.addConstr(total - row.step * z == row.lo)
            return
        for op, value in row.relations():
            self._h.addConstr(RELATIONS[op](total, value))

    def require_an_edge(self) -> None:
        self._h.addConstr(sum(self._x) >= 1)

    def solve_edges(
        self, time_limit_s: float, seed: int, hint: Sequence[bool] | None
    ) -> tuple[str, list[bool] | None]:
        import highspy

        h = self._h
        h.setOptionValue("time_limit", max(float(time_limit_s), 0.001))
        h.setOptionValue("random_seed", int(seed))
        if hint is not None:
            sol = highspy.HighsSolution()
            n = h.getNumCol()
            values = [float(on) for on in hint] + [0.0] * (n - len(hint))
            sol.col_value = values
            h.setSolution(sol)
        h.run()
        status = h.getModelStatus()
        if status == highspy.HighsModelStatus.kOptimal:
            values = h.getSolution().col_value
            return "feasible", [values[v.index] > 0.5 for v in self._x]
        if status == highspy.HighsModelStatus.kInfeasible:
            return "infeasible", None
        return "timeout", None

    def close(self) -> None:
        self._h = None
