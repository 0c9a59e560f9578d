"""The base of exact backends that read the constraint description itself (clue sums, point
degrees in {0, 2}, loop cuts) instead of a penalty form: they take the cons form.

Each solve returns an assignment satisfying every constraint so far, like an annealer
reaching energy 0, so the runner's iterations give that solver family's iteration count.
A subclass makes its solver and edge variables once per trial (``new_model``), takes every
constraint of the description through one method (``add_constraint``: clue sums and degree
rules when the trial starts, each new cut as the run goes; incremental solvers keep what they
learnt), turned into rows or clauses by :mod:`.encode`, and solves (``solve_edges``).

A puzzle with a rule on faces (No-Square) gets a face channel first: ``add_face_vars``
makes one Boolean per face and :func:`.encode.over_labels` ties them to the edges and turns
each face rule into a row over them, so ``add_constraint`` sees rows over variable labels
only; answers stay edges.

``mode: direct`` solves the whole puzzle in one step instead (one iteration, as the ZDD):
``solve_direct``, by default the lazy-constraint loop (each solve's loops cut inside the
backend, as the formulation's ``cut`` says: loop or region, until one loop remains); CP-SAT
uses its circuit model.
"""

from __future__ import annotations

import time
from abc import abstractmethod
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from ..formulations import (
    CUT_KINDS,
    Constraint,
    Model,
    base_constraints,
    cut_constraint,
    sample_cuts,
)
from ..puzzle import Puzzle
from ..record import Capability, ExactResult, SolveResult
from .base import Backend
from .encode import needs_faces, over_labels


class NoSolution(RuntimeError):
    """The solver proved there is no assignment, or ran out of time before finding one."""

    def __init__(self, status: str, reason: str) -> None:
        super().__init__(reason)
        self.status = status


MODES = ("iterative", "direct")


class ConstraintBackend(Backend):
    takes = frozenset({Capability.CONSTRAINTS})

    def __init__(self, mode: str = "iterative", **params: Any) -> None:
        if mode not in MODES:
            raise ValueError(f"mode must be one of {', '.join(MODES)}, got {mode!r}")
        super().__init__(mode=mode, **params)
        self._cuts = 0

    def build(self, puzzle: Puzzle) -> None:
        """A fresh solver holding every clue sum, degree rule and puzzle rule, before any
        cut (with a face channel where a rule is on faces)."""
        self.new_model(puzzle)
        constraints = base_constraints(puzzle)
        labels = self.add_face_vars(puzzle.num_faces) if needs_faces(constraints) else None
        for c in over_labels(puzzle, constraints, labels):
            self.add_constraint(c)

    @abstractmethod
    def new_model(self, puzzle: Puzzle) -> None:
        """A fresh solver with one Boolean per edge and no constraint yet."""

    @abstractmethod
    def add_face_vars(self, count: int) -> list[int]:
        """``count`` fresh Booleans after the edges' (one per face); returns their labels,
        the indices ``add_constraint``'s rows name them by."""

    @abstractmethod
    def add_constraint(self, c: Constraint) -> None:
        """Add one constraint of the description (:mod:`.encode` turns it into rows)."""

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

    def solve_direct(
        self, puzzle: Puzzle, time_limit_s: float, seed: int, cut: str = "region"
    ) -> tuple[str, list[bool] | None, dict[str, Any]]:
        """The whole puzzle in one step: (status, answer edges or None, extras). By default
        the lazy-constraint loop, its loops cut as ``cut`` says (the formulation's)."""
        found = lazy_answers(self, puzzle, time_limit_s, seed, cut=cut, want=1)
        extras = {"lazy_solves": found.solves, "lazy_cuts": found.cuts}
        return found.status, (found.answers[0] if found.answers else None), extras

    def solve(
        self, model: Model, *, seed: int, hint: Mapping[int, int] | None, time_limit_s: float
    ) -> SolveResult:
        if self.params["mode"] == "direct":
            return self._solve_whole(model, seed, time_limit_s)
        t0 = time.perf_counter()
        cuts = [p.constraint for p in model.pieces if p.constraint.kind in CUT_KINDS]
        for c in cuts[self._cuts :]:
            self.add_constraint(c)
        self._cuts = len(cuts)
        edges_hint = model.edges_of(hint) if hint is not None else None
        t1 = time.perf_counter()
        status, sel = self.solve_edges(time_limit_s, seed % (2**31), edges_hint)
        t2 = time.perf_counter()
        if sel is None:
            raise self._no_solution(status, "the constraints so far admit no assignment")
        return edges_result(
            model, sel, start_s=t1 - t0, solve_s=t2 - t1, hint_used=hint is not None
        )

    def _solve_whole(self, model: Model, seed: int, time_limit_s: float) -> SolveResult:
        t0 = time.perf_counter()
        status, answer, extras = self.solve_direct(
            model.puzzle, time_limit_s, seed % (2**31), model.formulation.cut
        )
        if answer is None:
            raise self._no_solution(status, "the clues admit no single loop")
        return edges_result(
            model, answer, solve_s=time.perf_counter() - t0, hint_used=False, extras=extras
        )

    def _no_solution(self, status: str, reason: str) -> NoSolution:
        if status == "timeout":
            return NoSolution("timeout", f"{self.name} ran out of time")
        return NoSolution("error", reason)


def edges_result(model: Model, edges: Sequence[bool], **fields: Any) -> SolveResult:
    """An exact solver's edges as a sample of the model (auxiliaries completed), with the
    model's own energy; ``fields`` are the other :class:`SolveResult` fields."""
    sample = model.complete(edges)
    return SolveResult(sample, model.energy(sample), mode="CPU", **fields)


@dataclass
class LazyRun:
    status: str  # unique / multiple / infeasible / timeout, or "found" (want answers reached)
    answers: list[list[bool]]
    solves: int = 0
    cuts: int = 0


def lazy_answers(
    backend: ConstraintBackend,
    puzzle: Puzzle,
    time_limit_s: float,
    seed: int = 0,
    cut: str = "loop",
    want: int = 2,
) -> LazyRun:
    """The lazy-constraint loop on a built backend: solve; a loop of the sample that
    satisfies every clue alone is an answer (also beside other loops: the page's stopping
    rule) and gets a loop cut so that another can show; the other loops get loop cuts or,
    with ``cut="region"``, region cuts; until ``want`` answers ("found", or "multiple" for 2)
    or no assignment is left ("unique" after one answer, "infeasible" before)."""
    from ..check import loop_satisfies_clues, split_loops

    t0 = time.perf_counter()
    run = LazyRun("timeout", [])
    while True:
        left = time_limit_s - (time.perf_counter() - t0)
        if left <= 0:
            return run
        status, edges = backend.solve_edges(left, (seed + 7919 * run.solves) % (2**31), None)
        run.solves += 1
        if edges is None:
            if status != "timeout":
                run.status = "unique" if run.answers else "infeasible"
            return run
        loops = split_loops(puzzle, edges)
        if not loops:  # the clues allow the empty board, which is no loop
            backend.require_an_edge()
            continue
        if puzzle.variant:  # Colorlink: the answer is one loop per colour, not one loop
            if _variant_step(backend, puzzle, run, loops, cut, want):
                return run
            continue
        cuts = sample_cuts(puzzle, loops, cut, run.cuts)
        for lp, c in zip(loops, cuts, strict=True):
            if loop_satisfies_clues(puzzle, lp):
                on = set(lp)
                run.answers.append([e in on for e in range(puzzle.num_edges)])
                if len(run.answers) == want:
                    run.status = "multiple" if want == 2 else "found"
                    return run
                c = cut_constraint(lp, c.index)  # an answer: forbid it alone
            backend.add_constraint(c)
            run.cuts += 1


def _variant_step(
    backend: ConstraintBackend,
    puzzle: Puzzle,
    run: LazyRun,
    loops: list[list[int]],
    cut: str,
    want: int,
) -> bool:
    """One round of the lazy loop on a puzzle variant: record the answer the loops hold and
    forbid it as a whole, or add the variant's cuts. True when the run is over."""
    from ..check import answer_edges

    found = answer_edges(puzzle, loops)
    if found is not None:
        on = set(found)
        run.answers.append([e in on for e in range(puzzle.num_edges)])
        if len(run.answers) == want:
            run.status = "multiple" if want == 2 else "found"
            return True
        cuts = [cut_constraint(found, run.cuts)]
    else:
        cuts = sample_cuts(puzzle, loops, cut, run.cuts)
    if not cuts:
        raise RuntimeError("the sample's loops hold no answer and give no cut")
    for c in cuts:
        backend.add_constraint(c)
        run.cuts += 1
    return False


def solve_lazily(
    backend: ConstraintBackend,
    puzzle: Puzzle,
    time_limit_s: float = 30.0,
    seed: int = 0,
    cut: str = "loop",
) -> ExactResult:
    """Solve the whole puzzle and settle uniqueness with ``backend`` alone (the lazy loop of
    :func:`lazy_answers` until a second answer or none). Returns an :class:`ExactResult`."""
    t0 = time.perf_counter()
    backend.build(puzzle)
    run = lazy_answers(backend, puzzle, time_limit_s, seed, cut=cut, want=2)
    return ExactResult(run.status, run.answers, time.perf_counter() - t0)
