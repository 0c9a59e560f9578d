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


def puzzle_clauses(
    puzzle: Puzzle, encoding: str = "seqcounter", guards: dict[int, int] | None = None
) -> list[list[int]]:
    """CNF of the clue sums and the degree rule, edge e as DIMACS variable e + 1. With
    ``guards`` (cell -> a variable), a clue's clauses hold only while its guard is assumed
    true (the generator switches clues off this way)."""
    from pysat.card import CardEnc, EncType
    from pysat.formula import IDPool

    top = puzzle.num_edges + max([0, *(guards or {}).values()])
    pool = IDPool(start_from=top + 1)
    out: list[list[int]] = []
    for c, n in puzzle.clue_cells:
        lits = [e + 1 for e in puzzle.cell_edges[c]]
        cnf = CardEnc.equals(lits=lits, bound=n, vpool=pool, encoding=getattr(EncType, encoding))
        guard = [] if guards is None else [-guards[c]]
        out += [[*clause, *guard] for clause in cnf.clauses]
    for edges in puzzle.point_edges:
        lits = [e + 1 for e in edges]
        for e in lits:  # e on => another edge of the point on
            out.append([-e, *(f for f in lits if f != e)])
        out += [[-v for v in trio] for trio in combinations(lits, 3)]
    return out


def region_clause(border: Sequence[int], e: int, f: int) -> list[int]:
    """A region cut as one clause, "e and f on => some border edge on": every point has
    degree 0 or 2, so a border is crossed an even number of times, and once means twice."""
    return [-(e + 1), -(f + 1), *(g + 1 for g in border)]


class SatBackend(ConstraintBackend):
    name = "sat"
    packages = ("python-sat",)

    def __init__(self, solver: str = "glucose4", encoding: str = "seqcounter", **params: Any):
        super().__init__(solver=solver, encoding=encoding, **params)
        self._sat: Any = None

    def build(self, puzzle: Puzzle) -> None:
        from pysat.solvers import Solver

        if self._sat is not None:
            self._sat.delete()
        self._sat = Solver(name=str(self.params["solver"]))
        self._edges = puzzle.num_edges
        for clause in puzzle_clauses(puzzle, str(self.params["encoding"])):
            self._sat.add_clause(clause)

    def add_cut(self, edges: Sequence[int]) -> None:
        self._sat.add_clause([-(e + 1) for e in edges])

    def add_region(self, border: Sequence[int], e: int, f: int) -> None:
        self._sat.add_clause(region_clause(border, e, f))

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
