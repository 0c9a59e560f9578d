"""The base of exact backends that read the constraint description itself (clue sums, point
degrees in {0, 2}, loop cuts) instead of a penalty form: they take the cons form.

Each solve returns an assignment satisfying every constraint so far, like an annealer
reaching energy 0, so the runner's iterations give that solver family's iteration count.
A subclass builds its solver once per trial (``build``), adds each new loop cut to it
(``add_cut``: incremental solvers keep what they learnt) and solves (``solve_edges``).
"""

from __future__ import annotations

import time
from abc import abstractmethod
from collections.abc import Mapping, Sequence
from typing import Any

from ..formulations import Model
from ..puzzle import Puzzle
from ..record import Capability, ExactResult, SolveResult
from .base import Backend


class NoSolution(RuntimeError):
    """The solver proved there is no assignment, or ran out of time before finding one."""

    def __init__(self, status: str, reason: str) -> None:
        super().__init__(reason)
        self.status = status


class ConstraintBackend(Backend):
    takes = frozenset({Capability.CONSTRAINTS})

    def __init__(self, **params: Any) -> None:
        super().__init__(**params)
        self._cuts = 0

    @abstractmethod
    def build(self, puzzle: Puzzle) -> None:
        """Clue and degree constraints, before any cut."""

    @abstractmethod
    def add_cut(self, edges: Sequence[int]) -> None:
        """Forbid the loop: not all of ``edges`` on."""

    @abstractmethod
    def require_an_edge(self) -> None:
        """At least one edge on (rules out the empty board, which is no loop)."""

    @abstractmethod
    def solve_edges(
        self, time_limit_s: float, seed: int, hint: Sequence[bool] | None
    ) -> tuple[str, list[bool] | None]:
        """("feasible", edges), ("infeasible", None) or ("timeout", None)."""

    def start(self, model: Model) -> None:
        self.build(model.puzzle)
        self._cuts = 0

    def solve(
        self, model: Model, *, seed: int, hint: Mapping[int, int] | None, time_limit_s: float
    ) -> SolveResult:
        t0 = time.perf_counter()
        cuts = [p.constraint for p in model.pieces if p.constraint.kind == "cut"]
        for c in cuts[self._cuts :]:
            self.add_cut(c.edges)
        self._cuts = len(cuts)
        edges_hint = model.edges_of(hint) if hint is not None else None
        t1 = time.perf_counter()
        status, sel = self.solve_edges(time_limit_s, seed % (2**31), edges_hint)
        t2 = time.perf_counter()
        if sel is None:
            if status == "timeout":
                raise NoSolution("timeout", f"{self.name} ran out of time")
            raise NoSolution("error", "the constraints so far admit no assignment")
        sample = model.complete(sel)
        return SolveResult(
            sample,
            model.energy(sample),
            start_s=t1 - t0,
            solve_s=t2 - t1,
            mode="CPU",
            hint_used=hint is not None,
        )


def solve_lazily(
    backend: ConstraintBackend, puzzle: Puzzle, time_limit_s: float = 30.0, seed: int = 0
) -> ExactResult:
    """Solve the whole puzzle and settle uniqueness with ``backend`` alone: solve; every loop
    of the sample is cut (lazy constraints), and a loop that satisfies every clue alone is an
    answer (cut too); solving goes on until a second answer (``multiple``) or none (``unique``;
    ``infeasible`` if there was no first). Returns an :class:`ExactResult`."""
    from ..check import loop_satisfies_clues, split_loops

    t0 = time.perf_counter()
    backend.build(puzzle)
    answers: list[list[bool]] = []
    solves = 0
    while True:
        left = time_limit_s - (time.perf_counter() - t0)
        if left <= 0:
            return ExactResult("timeout", answers, time.perf_counter() - t0)
        status, edges = backend.solve_edges(left, (seed + 7919 * solves) % (2**31), None)
        solves += 1
        if edges is None:
            final = "timeout" if status == "timeout" else ("unique" if answers else "infeasible")
            return ExactResult(final, answers, time.perf_counter() - t0)
        loops = split_loops(puzzle, edges)
        if not loops:  # the clues allow the empty board, which is no loop
            backend.require_an_edge()
            continue
        # A loop that satisfies every clue alone is an answer, also beside other loops (the
        # page's stopping rule); it is cut like the others so that a second one can show.
        for lp in loops:
            if loop_satisfies_clues(puzzle, lp):
                on = set(lp)
                answers.append([e in on for e in range(puzzle.num_edges)])
                if len(answers) == 2:
                    return ExactResult("multiple", answers, time.perf_counter() - t0)
            backend.add_cut(lp)
