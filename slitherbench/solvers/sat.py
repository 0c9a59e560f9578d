"""SAT (python-sat: CaDiCaL, Glucose, ...) inside the iterative method, the survey's SAT
family. The constraint description becomes CNF in :mod:`.encode`: clue sums are cardinality
constraints (pysat's encodings); degree in {0, 2} is "no point has exactly one edge" plus "no
three of its edges together"; a loop cut is one clause, and so is a region cut (by parity).
No-Square: one variable per face tied to the edges by four XOR clauses per edge (two on the
rim), and one clause "not all four" per 2x2 block.
One solver per trial, so clauses learnt in earlier iterations are kept (incremental SAT).
A solve stops at the time limit where pysat can interrupt the solver (Glucose, MiniSat,
Maple*; not CaDiCaL, which then solves to the end).
The previous solution is offered as the solver's phases where the solver takes them.
"""

from __future__ import annotations

import threading
from collections.abc import Sequence
from typing import Any

from slitherbench.models.encode import SatEncoder, clauses, description_rows
from slitherbench.puzzles.puzzle import Puzzle
from slitherbench.solvers.constraints import ConstraintBackend


def puzzle_clauses(
    puzzle: Puzzle, encoding: str = "seqcounter", guards: dict[int, int] | None = None
) -> list[list[int]]:
    """CNF of the clue sums and the degree rule, edge e as DIMACS variable e + 1. With
    ``guards`` (face -> a variable), a clue's clauses hold only while its guard is assumed
    true (the generator switches clues off this way)."""
    from pysat.formula import IDPool

    top = puzzle.num_edges + max([0, *(guards or {}).values()])
    pool = IDPool(start_from=top + 1)
    out: list[list[int]] = []
    # Face variables come only with a rule on faces: plain puzzles keep their numbering.
    for c in description_rows(puzzle, lambda n: [pool.id(("face", f)) - 1 for f in range(n)]):
        guard = guards[c.index] if guards is not None and c.kind == "clue" else None
        out += clauses(c, pool, encoding, guard)
    return out


class SatBackend(SatEncoder, ConstraintBackend):
    name = "sat"
    packages = ("python-sat",)
    imports = ("pysat.solvers",)

    def __init__(self, solver: str = "glucose4", encoding: str = "seqcounter", **params: Any):
        super().__init__(solver=solver, encoding=encoding, **params)
        self.encoding = encoding
        self._sat: Any = None

    def new_sink(self) -> Any:
        from pysat.solvers import Solver

        if self._sat is not None:
            self._sat.delete()
        return Solver(name=str(self.params["solver"]))

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
