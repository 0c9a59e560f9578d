"""SAT (python-sat: CaDiCaL, Glucose, ...) inside the iterative method, the survey's SAT
family. Clue sums are cardinality constraints (pysat's encodings); degree in {0, 2} is "no
point has exactly one edge" plus "no three of its edges together"; a loop cut is one clause.
One solver per trial, so clauses learnt in earlier iterations are kept (incremental SAT).
A solve stops at the time limit where pysat can interrupt the solver (Glucose, MiniSat,
Maple*; not CaDiCaL, which then solves to the end).
The previous solution is offered as the solver's phases where the solver takes them.
"""

from __future__ import annotations

import threading
from collections.abc import Sequence
from itertools import combinations
from typing import Any

from ..puzzle import Puzzle
from .constraints import ConstraintBackend


class SatBackend(ConstraintBackend):
    name = "sat"
    packages = ("python-sat",)

    def __init__(self, solver: str = "glucose4", encoding: str = "seqcounter", **params: Any):
        super().__init__(solver=solver, encoding=encoding, **params)
        self._sat: Any = None

    def build(self, puzzle: Puzzle) -> None:
        from pysat.card import CardEnc, EncType
        from pysat.formula import IDPool
        from pysat.solvers import Solver

        if self._sat is not None:
            self._sat.delete()
        self._sat = Solver(name=str(self.params["solver"]))
        self._edges = puzzle.num_edges
        x = [e + 1 for e in range(puzzle.num_edges)]  # DIMACS variables 1..E
        pool = IDPool(start_from=puzzle.num_edges + 1)
        encoding = getattr(EncType, str(self.params["encoding"]))
        for c, n in puzzle.clue_cells:
            lits = [x[e] for e in puzzle.cell_edges[c]]
            cnf = CardEnc.equals(lits=lits, bound=n, vpool=pool, encoding=encoding)
            self._sat.append_formula(cnf.clauses)
        for edges in puzzle.point_edges:
            lits = [x[e] for e in edges]
            for e in lits:  # e on => another edge of the point on
                self._sat.add_clause([-e, *(f for f in lits if f != e)])
            for trio in combinations(lits, 3):
                self._sat.add_clause([-v for v in trio])

    def add_cut(self, edges: Sequence[int]) -> None:
        self._sat.add_clause([-(e + 1) for e in edges])

    def add_region(self, border: Sequence[int], e: int, f: int) -> None:
        # One clause "e and f on => some border edge on": every point has degree 0 or 2, so
        # a border is crossed an even number of times, and once means twice.
        self._sat.add_clause([-(e + 1), -(f + 1), *(g + 1 for g in border)])

    def require_an_edge(self) -> None:
        self._sat.add_clause([e + 1 for e in range(self._edges)])

    def solve_edges(
        self, time_limit_s: float, seed: int, hint: Sequence[bool] | None
    ) -> tuple[str, list[bool] | None]:
        if hint is not None:
            try:
                self._sat.set_phases([e + 1 if on else -(e + 1) for e, on in enumerate(hint)])
            except NotImplementedError:
                pass  # this solver takes no phases
        try:
            got = self._solve_limited(time_limit_s)
        except NotImplementedError:  # CaDiCaL in pysat: no interruptible solve
            got = self._sat.solve()
        if got is None:
            return "timeout", None
        if not got:
            return "infeasible", None
        on = {v for v in self._sat.get_model() if 0 < v <= self._edges}
        return "feasible", [e + 1 in on for e in range(self._edges)]

    def _solve_limited(self, time_limit_s: float) -> bool | None:
        timer = threading.Timer(max(time_limit_s, 0.001), self._sat.interrupt)
        timer.start()
        try:
            return self._sat.solve_limited(expect_interrupt=True)
        finally:
            timer.cancel()
            self._sat.clear_interrupt()

    def close(self) -> None:
        if self._sat is not None:
            self._sat.delete()
            self._sat = None
