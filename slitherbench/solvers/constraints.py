"""The base of exact backends that read the constraint description itself (clue sums, point
degrees in {0, 2}, loop cuts) instead of a penalty form: they take the cons form.

Each solve returns an assignment satisfying every constraint so far, like an annealer
reaching energy 0, so the runner's iterations give that solver family's iteration count.
A subclass makes its solver and edge variables once per trial (``new_model``), takes every
constraint of the description through one method (``add_constraint``: clue sums and degree
rules when the trial starts, each new cut as the run goes; incremental solvers keep what they
learnt), turned into rows or clauses by :mod:`.encode`, and solves (``solve_edges``).

A ``variables=face`` cell, or a puzzle with a rule on faces (No-Square), gets a face channel
first: ``add_face_vars`` makes one Boolean per face and :func:`.encode.description_rows` ties
every edge to its two faces (x_e = c_f XOR c_g) and turns each face rule into a row over
them, so ``add_constraint`` sees rows over variable labels only; answers stay edges. On face
variables the solver thus solves the face form's model (a face colouring whose borders are
the loop), not the edge model under a face label.

``mode: direct`` solves the whole puzzle in one step instead (one iteration, as the ZDD):
``solve_direct``, by default the lazy-constraint loop (each solve's loops cut inside the
backend, as the formulation's ``cut`` says: loop or region, until one loop remains); CP-SAT
uses its circuit model.
"""

from __future__ import annotations

import time
from abc import abstractmethod
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, replace
from typing import Any

from slitherbench.deduction import deduce
from slitherbench.method.elimination import Elimination
from slitherbench.method.record import Capability, ExactResult, SolveResult
from slitherbench.models.encode import ConstraintEncoder
from slitherbench.models.formulations import ConsFormulation, Model
from slitherbench.models.presolve import fixed_edge
from slitherbench.puzzles.check import check_answer
from slitherbench.puzzles.puzzle import Puzzle
from slitherbench.solvers.base import Backend


class NoSolution(RuntimeError):
    """The solver proved there is no assignment, or ran out of time before finding one."""

    def __init__(self, status: str, reason: str) -> None:
        super().__init__(reason)
        self.status = status


MODES = ("iterative", "direct")


class ConstraintBackend(Backend, ConstraintEncoder):
    takes = frozenset({Capability.CONSTRAINTS})

    def __init__(self, mode: str = "iterative", **params: Any) -> None:
        if mode not in MODES:
            raise ValueError(f"mode must be one of {', '.join(MODES)}, got {mode!r}")
        super().__init__(mode=mode, **params)
        self._synced = 0  # the model's pieces this solver holds (the description, then cuts)

    @abstractmethod
    def require_an_edge(self) -> None:
        """At least one edge on (rules out the empty board, which is no loop)."""

    @abstractmethod
    def solve_edges(
        self, time_limit_s: float, seed: int, hint: Sequence[bool] | None
    ) -> tuple[str, list[bool] | None]:
        """("feasible", edges), ("infeasible", None) or ("timeout", None)."""

    def start(self, model: Model) -> None:
        self.build(model.puzzle, faces=model.faces)
        for e, v in sorted(model.fixed.items()):  # a presolve's edges: unit rows or clauses
            self.add_constraint(fixed_edge(e, v))
        self._synced = len(model.pieces)  # the description; what comes later is added in solve

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
        self._synced = add_new_pieces(self, model, self._synced)
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
    """An exact solver's edges as a sample of the model (auxiliaries completed); ``fields``
    are the other :class:`SolveResult` fields. The energy is the solver's claim, 0: its
    assignment meets every constraint. The runner judges the sample with the model's own
    energy anyway (once: evaluating it here as well cost 4 ms per solve on a 20x36 board)."""
    return SolveResult(model.complete(edges), 0.0, mode="CPU", **fields)


def add_new_pieces(backend: ConstraintBackend, model: Model, synced: int) -> int:
    """Add the constraints of the model's pieces after the first ``synced`` (the cuts the
    elimination loop added since the backend last read the model); returns the new mark. A
    face side fixed after the build (face variables) comes as the edges it settles: the
    backend's rows are over edges."""
    board = model.puzzle.board
    for p in model.pieces[synced:]:
        c = p.constraint
        if c.kind == "fixed" and c.faces:
            for e in board.face_edges[c.faces[0]]:
                if e in model.fixed:
                    backend.add_constraint(fixed_edge(e, model.fixed[e]))
            continue
        backend.add_constraint(c)
    return len(model.pieces)


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
    """The lazy-constraint loop on a built backend: the elimination loop
    (:class:`~slitherbench.method.elimination.Elimination`) with the backend's exact solve as its
    step. A loop of a solution that satisfies every clue alone is an answer (also beside other
    loops: the page's stopping rule) and gets a loop cut so that another can show; the other
    loops get loop cuts or, with ``cut="region"``, region cuts; until ``want`` answers
    ("found", or "multiple" for 2) or no assignment is left ("unique" after one answer,
    "infeasible" before). The cuts go into a model of their own (the backend holds the
    description) and from there into the backend before each solve."""
    cuts = Model(puzzle, ConsFormulation(cut=cut))
    synced, status = 0, "timeout"

    def solve(k: int, left: float, _previous: list[bool] | None) -> list[bool] | None:
        nonlocal synced, status
        synced = add_new_pieces(backend, cuts, synced)
        status, edges = backend.solve_edges(left, (seed + 7919 * (k - 1)) % (2**31), None)
        return edges

    elim = Elimination(
        cuts,
        solve,
        want=want,
        verify=False,  # reported, not recorded here: whoever records an answer checks it
        on_empty=backend.require_an_edge,  # the clues allow the empty board, which is no loop
        deadline=time.perf_counter() + time_limit_s,
    ).run()
    if elim.stop == "stuck":
        raise RuntimeError(elim.reason)
    answers = [[e in on for e in range(puzzle.num_edges)] for on in map(set, elim.answers)]
    run = LazyRun("timeout", answers, elim.iterations, elim.cuts)
    if elim.stop == "answer":
        run.status = "multiple" if want == 2 else "found"
    elif elim.stop == "exhausted" and status != "timeout":
        run.status = "unique" if answers else "infeasible"
    return run


def solve_lazily(
    backend: ConstraintBackend,
    puzzle: Puzzle,
    time_limit_s: float = 30.0,
    seed: int = 0,
    cut: str = "loop",
    presolve: str = "none",
) -> ExactResult:
    """Solve the whole puzzle and settle uniqueness with ``backend`` alone (the lazy loop of
    :func:`lazy_answers` until a second answer or none). Returns an :class:`ExactResult`.
    ``presolve`` (rules, lookahead1, lookahead2): deduction first (:func:`presolved_result`),
    its time included."""
    t0 = time.perf_counter()
    fixed: dict[int, int] = {}
    if presolve != "none":
        settled = presolved_result(puzzle, presolve)
        if isinstance(settled, ExactResult):
            return replace(settled, wall_s=time.perf_counter() - t0)
        fixed = settled
    backend.build(puzzle)
    for e, v in sorted(fixed.items()):  # what deduction fixed: unit rows or clauses
        backend.add_constraint(fixed_edge(e, v))
    left = time_limit_s - (time.perf_counter() - t0)
    run = lazy_answers(backend, puzzle, left, seed, cut=cut, want=2)
    return ExactResult(run.status, run.answers, time.perf_counter() - t0)


def presolved_result(puzzle: Puzzle, level: str) -> ExactResult | dict[int, int]:
    """Deduction before an exact solve, assuming nothing about uniqueness (every edge it fixes
    is on every answer's side): the edges it fixes, or the result where it settles the
    question alone ("infeasible" on a contradiction; "unique" when every edge is fixed and
    the checker accepts them, as no other answer can agree with every forced edge)."""
    found = deduce(puzzle, level, assume_unique=False)
    assert not found.used_uniqueness, "the exact path never assumes uniqueness"
    if found.contradiction:
        return ExactResult("infeasible", [], 0.0)
    if found.solved:
        answer = [bool(v) for v in found.edges]
        if not check_answer(puzzle, answer):
            return ExactResult("unique", [answer], 0.0)
        return ExactResult("infeasible", [], 0.0)  # forced edges that are no answer
    return {e: v for e, v in enumerate(found.edges) if v >= 0}
