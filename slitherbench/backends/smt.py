"""SMT (z3) inside the iterative method, as in Miyauchi and Tanaka's SMT approach and the
Flow write-up: Boolean edges, pseudo-Boolean clue sums, degree "0 or 2" per point, a clause
per loop cut, all in one incremental z3 solver."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from ..puzzle import Puzzle
from .constraints import ConstraintBackend


class Z3Backend(ConstraintBackend):
    name = "smt"
    packages = ("z3-solver",)

    def __init__(self, **params: Any) -> None:
        super().__init__(**params)
        self._s: Any = None

    def build(self, puzzle: Puzzle) -> None:
        import z3

        s = z3.Solver()
        self._x = [z3.Bool(f"x{e}") for e in range(puzzle.num_edges)]
        for c, n in puzzle.clue_cells:
            s.add(z3.PbEq([(self._x[e], 1) for e in puzzle.cell_edges[c]], n))
        for edges in puzzle.point_edges:
            lits = [(self._x[e], 1) for e in edges]
            s.add(z3.Or(z3.PbEq(lits, 0), z3.PbEq(lits, 2)))
        self._s = s

    def add_cut(self, edges: Sequence[int]) -> None:
        import z3

        self._s.add(z3.Or([z3.Not(self._x[e]) for e in edges]))

    def add_region(self, border: Sequence[int], e: int, f: int) -> None:
        import z3

        x = self._x
        terms = [(x[g], 1) for g in border] + [(z3.Not(x[e]), 2), (z3.Not(x[f]), 2)]
        self._s.add(z3.PbGe(terms, 2))

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
