"""SMT (z3) inside the iterative method, as in Miyauchi and Tanaka's SMT approach and the
Flow write-up: Boolean edges, pseudo-Boolean clue sums, degree "0 or 2" per point, a clause
per loop cut (written by :mod:`.encode` from the constraint description), all in one
incremental z3 solver. No-Square: a Boolean per face tied to the edges (x_e + c_f + c_g in
{0, 2}) and a pseudo-Boolean "at most 3 of 4" per 2x2 block."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from slitherbench.models.encode import z3_expr
from slitherbench.models.formulations import Constraint
from slitherbench.puzzles.puzzle import Puzzle
from slitherbench.solvers.constraints import ConstraintBackend


class Z3Backend(ConstraintBackend):
    name = "smt"
    packages = ("z3-solver",)
    imports = ("z3",)

    def __init__(self, **params: Any) -> None:
        super().__init__(**params)
        self._s: Any = None

    def new_model(self, puzzle: Puzzle) -> None:
        import z3

        self._s = z3.Solver()
        self._x = [z3.Bool(f"x{e}") for e in range(puzzle.num_edges)]
        self._vars = list(self._x)  # the edges, then any face Booleans: the rows' labels

    def add_face_vars(self, count: int) -> list[int]:
        import z3

        first = len(self._vars)
        self._vars += [z3.Bool(f"c{f}") for f in range(count)]
        return list(range(first, first + count))

    def add_constraint(self, c: Constraint) -> None:
        self._s.add(z3_expr(c, self._vars))

    def require_an_edge(self) -> None:
        import z3

        self._s.add(z3.Or(self._x))

    def solve_edges(
        self, time_limit_s: float, seed: int, hint: Sequence[bool] | None
    ) -> tuple[str, list[bool] | None]:
        import z3

        self._s.set("timeout", max(1, int(1000 * time_limit_s)))
        self._s.set("random_seed", int(seed))
        got = self._s.check()
        if got == z3.sat:
            m = self._s.model()
            return "feasible", [z3.is_true(m.eval(v, model_completion=True)) for v in self._x]
        if got == z3.unsat:
            return "infeasible", None
        return "timeout", None

    def close(self) -> None:
        self._s = None
