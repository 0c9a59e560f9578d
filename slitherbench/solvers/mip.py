"""Integer programming (HiGHS, through highspy) inside the iterative method, the survey's
IP family: binaries x_e, and the constraint description as rows (:mod:`.encode`): clue rows
sum x = n, degree rows sum x - 2 y_p = 0 with a binary y_p, and a row sum_{e in L} x_e <= |L| - 1
per loop cut, added to the same model as the run goes; No-Square adds a binary per face with
x_e + c_f + c_g - 2 w_e = 0 per edge (x_e = c_f XOR c_g) and a row c_a + c_b + c_c + c_d <= 3
per 2x2 block. A pure
feasibility problem (no objective); the previous solution is offered as a MIP start.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from slitherbench.models.encode import HighsEncoder
from slitherbench.solvers.constraints import ConstraintBackend


class HighsBackend(HighsEncoder, ConstraintBackend):
    name = "mip"
    packages = ("highspy",)
    imports = ("highspy",)

    def __init__(self, threads: int = 1, **params: Any) -> None:
        super().__init__(threads=threads, **params)
        self.threads = threads
        self._h: Any = None

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
