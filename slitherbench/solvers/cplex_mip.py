"""The real CPLEX (IBM's ``cplex`` package, Community Edition) inside the iterative method:
the survey's IP solver. The same rows as the HiGHS backend (:mod:`.encode`): binaries x_e,
clue rows, degree rows sum x - 2 y_p = 0 with a binary y_p, one row per cut, the previous
solution as a MIP start; No-Square's face binaries and rows as in the HiGHS backend.

The Community Edition solves at most 1000 variables and 1000 constraints (error 1016): a
model past that is ``skipped`` with the limit and the model's size in the reason, as
pyqbpp's licence limit is; it is never worked around.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from slitherbench.models.encode import linear_row
from slitherbench.models.formulations import Constraint
from slitherbench.puzzles.puzzle import Puzzle
from slitherbench.solvers.base import BackendUnavailable
from slitherbench.solvers.constraints import ConstraintBackend

SIZE_LIMIT_ERROR = 1016  # CPLEX: "Community Edition. Problem size limits exceeded"
MAX_SEED = 2_100_000_000  # CPLEX's randomseed stops at its BIGINT (error 1015 above it)


class CplexBackend(ConstraintBackend):
    name = "cplex"
    packages = ("cplex",)
    imports = ("cplex",)

    def __init__(self, threads: int = 1, **params: Any) -> None:
        super().__init__(threads=threads, **params)
        self._c: Any = None

    def new_model(self, puzzle: Puzzle) -> None:
        import cplex

        c = cplex.Cplex()
        for set_stream in (c.set_log_stream, c.set_results_stream, c.set_warning_stream):
            set_stream(None)
        c.set_error_stream(None)
        c.parameters.threads.set(int(self.params["threads"]))
        c.variables.add(types="B" * puzzle.num_edges)
        self._c, self._edges = c, puzzle.num_edges

    def add_face_vars(self, count: int) -> list[int]:
        first = self._c.variables.get_num()
        self._c.variables.add(types="B" * count)
        return list(range(first, first + count))

    def add_constraint(self, con: Constraint) -> None:
        row = linear_row(con)
        ind, val = [e for e, _ in row.terms], [a for _, a in row.terms]
        if row.step:
            z = self._c.variables.get_num()
            self._c.variables.add(types="B" if row.z_max == 1 else "I", ub=[float(row.z_max)])
            self._row([*ind, z], [*val, -row.step], "E", row.lo)
            return
        for op, value in row.relations():
            self._row(ind, val, {"==": "E", ">=": "G", "<=": "L"}[op], value)

    def _row(self, ind: Sequence[int], val: Sequence[int], sense: str, rhs: int) -> None:
        import cplex

        pair = cplex.SparsePair(ind=[int(i) for i in ind], val=[float(v) for v in val])
        self._c.linear_constraints.add(lin_expr=[pair], senses=sense, rhs=[float(rhs)])

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
