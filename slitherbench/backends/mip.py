"""Integer programming (HiGHS, through highspy) inside the iterative method, the survey's
IP family: binaries x_e and y_p, clue rows sum x = n, degree rows sum x - 2 y_p = 0, and a row
sum_{e in L} x_e <= |L| - 1 per loop cut, added to the same model as the run goes. A pure
feasibility problem (no objective); the previous solution is offered as a MIP start.
"""

from __future__ import annotations

import os
import sys
from collections.abc import Sequence
from typing import Any

from ..puzzle import Puzzle
from .constraints import ConstraintBackend


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

    def __init__(self, threads: int = 1, **params: Any) -> None:
        super().__init__(threads=threads, **params)
        self._h: Any = None

    def build(self, puzzle: Puzzle) -> None:
        h = _quiet_highs()
        h.setOptionValue("threads", int(self.params["threads"]))
        self._x = [h.addBinary() for _ in range(puzzle.num_edges)]
        y = [h.addBinary() for _ in range(puzzle.num_points)]
        for c, n in puzzle.clue_cells:
            h.addConstr(sum(self._x[e] for e in puzzle.cell_edges[c]) == n)
        for p, edges in enumerate(puzzle.point_edges):
            h.addConstr(sum(self._x[e] for e in edges) - 2 * y[p] == 0)
        self._h = h

    def add_cut(self, edges: Sequence[int]) -> None:
        self._h.addConstr(sum(self._x[e] for e in edges) <= len(edges) - 1)

    def add_region(self, border: Sequence[int], e: int, f: int) -> None:
        x = self._x
        self._h.addConstr(sum(x[g] for g in border) - 2 * x[e] - 2 * x[f] >= -2)

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
