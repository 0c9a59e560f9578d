"""The real CPLEX (IBM's ``cplex`` package, Community Edition) inside the iterative method:
the survey's IP solver. The same model as the HiGHS backend: binaries x_e and y_p, clue rows,
degree rows sum x - 2 y_p = 0, one row per cut, the previous solution as a MIP start.

The Community Edition solves at most 1000 variables and 1000 constraints (error 1016): a
model past that is ``skipped`` with the limit and the model's size in the reason, as
pyqbpp's licence limit is; it is never worked around.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from ..puzzle import Puzzle
from .base import BackendUnavailable
from .constraints import ConstraintBackend

SIZE_LIMIT_ERROR = 1016  # CPLEX: "Community Edition. Problem size limits exceeded"
MAX_SEED = 2_100_000_000  # CPLEX's randomseed stops at its BIGINT (error 1015 above it)


class CplexBackend(ConstraintBackend):
    name = "cplex"
    packages = ("cplex",)

    def __init__(self, threads: int = 1, **params: Any) -> None:
        super().__init__(threads=threads, **params)
        self._c: Any = None

    def build(self, puzzle: Puzzle) -> None:
        import cplex

        c = cplex.Cplex()
        for set_stream in (c.set_log_stream, c.set_results_stream, c.set_warning_stream):
            set_stream(None)
        c.set_error_stream(None)
        c.parameters.threads.set(int(self.params["threads"]))
        c.variables.add(types="B" * (puzzle.num_edges + puzzle.num_points))
        self._c, self._edges = c, puzzle.num_edges
        for cell, n in puzzle.clue_cells:
            edges = puzzle.cell_edges[cell]
            self._row(edges, [1] * len(edges), "E", n)
        for p, edges in enumerate(puzzle.point_edges):
            self._row([*edges, puzzle.num_edges + p], [1] * len(edges) + [-2], "E", 0)

    def _row(self, ind: Sequence[int], val: Sequence[int], sense: str, rhs: int) -> None:
        import cplex

        pair = cplex.SparsePair(ind=[int(i) for i in ind], val=[float(v) for v in val])
        self._c.linear_constraints.add(lin_expr=[pair], senses=sense, rhs=[float(rhs)])

    def add_cut(self, edges: Sequence[int]) -> None:
        self._row(edges, [1] * len(edges), "L", len(edges) - 1)

    def add_region(self, border: Sequence[int], e: int, f: int) -> None:
        self._row([*border, e, f], [1] * len(border) + [-2, -2], "G", -2)

    def require_an_edge(self) -> None:
        self._row(range(self._edges), [1] * self._edges, "G", 1)

    def solve_edges(
        self, time_limit_s: float, seed: int, hint: Sequence[bool] | None
    ) -> tuple[str, list[bool] | None]:
        import cplex

        c = self._c
        c.parameters.timelimit.set(max(float(time_limit_s), 0.001))
        c.parameters.randomseed.set(int(seed) % MAX_SEED)
        if hint is not None:
            start = cplex.SparsePair(ind=list(range(len(hint))), val=[float(on) for on in hint])
            c.MIP_starts.add(start, c.MIP_starts.effort_level.repair)
        try:
            c.solve()
        except cplex.exceptions.CplexSolverError as exc:
            if exc.args[2] == SIZE_LIMIT_ERROR:
                raise BackendUnavailable(
                    "CPLEX Community Edition solves at most 1000 variables and 1000 "
                    f"constraints; this model has {c.variables.get_num()} variables and "
                    f"{c.linear_constraints.get_num()} constraints"
                ) from None
            raise
        sol = c.solution
        if sol.get_status() in (sol.status.MIP_optimal, sol.status.optimal_tolerance):
            values = sol.get_values(0, self._edges - 1)
            return "feasible", [v > 0.5 for v in values]
        if sol.get_status() == sol.status.MIP_infeasible:
            return "infeasible", None
        return "timeout", None

    def close(self) -> None:
        if self._c is not None:
            self._c.end()
            self._c = None
