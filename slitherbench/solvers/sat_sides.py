"""The exact path's fastest SAT form: face sides and cut-set cuts, for plain Slitherlink.

:func:`solve_exact` (``method="sat-sides"``, and ``"auto"`` on plain puzzles) solves a whole
puzzle and settles its uniqueness with one incremental SAT solver (python-sat) and lazy cuts,
as ``method="sat"`` does, with two differences that make it several times faster on large
boards that deduction does not settle (``experiments/bench_exact_deduction.py``):

* **Face sides.** One Boolean per face, true inside the loop, and for every edge "on exactly
  when its two faces lie on different sides" (four clauses; a rim edge borders the outside,
  which is false). Every assignment is then the border of a set of faces: every point's degree
  is even, and the solver reasons about inside and outside as a player does.
* **Cut-set cuts.** A found loop L that is not the answer is forbidden together with every
  loop inside it: with Q a set of points, if the clues prove that an answer needs an edge
  that does not join two points of Q (some clue wants more edges than the edges inside Q
  give it), then an answer with an edge inside Q leaves Q, since it is one connected loop;
  so "an edge inside Q is on => an edge leaving Q is on" holds for every answer (one helper
  variable a: "a => some leaving edge on", and "inside edge on => a" per inside edge). The
  sample breaks it: L is on, and every edge leaving Q starts on L, whose points have no
  other edge on. Q is first L's closed disc (its points and the corners of every face it
  encloses), which forbids every loop inside L at once; where the clues prove nothing
  there, Q is L's points; where they prove nothing either, L gets the page's loop cut
  ("not every edge of L"). On the generated 30x40 boards the disc took the samples from
  70-560 per board to 47-111.

Clue sums are written without helper variables ("no n + 1 of its edges on" and "no k - n + 1
of them off", k at most a face's sides), the degree rule as ``method="sat"`` writes it. A loop
that alone meets every clue is an answer (the independent checker confirms it) and is then
forbidden, so that a second answer can show; no assignment left means unique (or
infeasible). On boards of ``MIN_EDGES`` edges or more, numba splits each sample into loops
and works out their cuts (:mod:`.sides_cuts`; the Python code here remains the reference the
tests hold it to, cut for cut): on the generated 30x40 boards that took half the time.
Nothing assumes uniqueness, and puzzle rules (No-Square) and variants (Colorlink) are left
to ``method="sat"``.
"""

from __future__ import annotations

import gc
import threading
import time
from collections.abc import Iterable
from importlib.util import find_spec
from itertools import combinations
from typing import Any

from slitherbench.method.record import ExactResult
from slitherbench.models.encode import degree_clauses
from slitherbench.puzzles.check import loop_satisfies_clues, split_loops
from slitherbench.puzzles.puzzle import Puzzle

# Boards with fewer edges split and cut samples in Python: there loading the compiled code in
# a fresh process (about half a second) costs more than it saves.
MIN_EDGES = 1000


def sides_clauses(puzzle: Puzzle) -> list[list[int]]:
    """CNF of the degree rule, the clue sums and the face sides: edge e is DIMACS variable
    e + 1, face f's side (true: inside) is ``num_edges + f + 1``."""
    out: list[list[int]] = []
    for edges in puzzle.point_edges:
        out += degree_clauses([e + 1 for e in edges])
    for f, n in puzzle.clue_faces:
        lits = [e + 1 for e in puzzle.face_edges[f]]
        out += [[-v for v in group] for group in combinations(lits, n + 1)]
        if n:
            out += [list(group) for group in combinations(lits, len(lits) - n + 1)]
    side = puzzle.num_edges + 1
    for e, (f, g) in enumerate(puzzle.board.edge_faces):
        x, a = e + 1, side + f
        if g < 0:  # the rim: the outside is never inside
            out += [[-x, a], [x, -a]]
        else:
            b = side + g
            out += [[-x, a, b], [-x, -a, -b], [x, -a, b], [x, a, -b]]
    return out


class _Cuts:
    """Forbids found loops: a cut-set cut on the loop's closed disc or, failing that, on its
    points, where the clues prove one; else a loop cut."""

    def __init__(self, puzzle: Puzzle, sat: Any, top: int, discs: bool = True):
        self.sat, self.top, self.discs = sat, top, discs
        self.edge_points, self.point_edges = puzzle.edge_points, puzzle.point_edges
        self.edge_faces, self.face_edges = puzzle.board.edge_faces, puzzle.face_edges
        self.clues = dict(puzzle.clue_faces)
        self.wanted = [f for f, n in puzzle.clue_faces if n > 0]

    def counts(self, edges: Any) -> dict[int, int]:
        """How many of these edges each face has."""
        got: dict[int, int] = {}
        for e in edges:
            for f in self.edge_faces[e]:
                if f >= 0:
                    got[f] = got.get(f, 0) + 1
        return got

    def disc(self, loop: list[int]) -> set[int]:
        """The points of the closed disc the loop bounds: its own and the corners of every
        face on its inner side. The faces on the two sides of one loop edge are searched in
        turns without crossing the loop: the side that first meets a rim edge off the loop
        is the outside, the other is searched to its end."""
        on = set(loop)
        points = {p for e in loop for p in self.edge_points[e]}
        a, b = self.edge_faces[loop[0]]
        stacks, found = [[a], [b]], [{a}, {b}]
        inner = 0 if b < 0 else -1  # a rim edge of the loop: its face lies inside
        while inner < 0:
            for side in (0, 1):
                if not stacks[side]:
                    inner = side
                    break
                if self._step(stacks[side], found[side], on):
                    inner = 1 - side
                    break
        while stacks[inner]:
            self._step(stacks[inner], found[inner], on)
        for f in found[inner]:
            points.update(p for e in self.face_edges[f] for p in self.edge_points[e])
        return points

    def _step(self, stack: list[int], found: set[int], on: set[int]) -> bool:
        """Search one face of a side; True where it has a rim edge off the loop."""
        rim = False
        for e in self.face_edges[stack.pop()]:
            if e not in on:
                for g in self.edge_faces[e]:
                    if g < 0:
                        rim = True
                    elif g not in found:
                        found.add(g)
                        stack.append(g)
        return rim

    def forbid(self, loop: list[int]) -> None:
        tried = [self.disc(loop)] if self.discs else []
        for points in [*tried, {p for e in loop for p in self.edge_points[e]}]:
            inside: set[int] = set()
            leaving: set[int] = set()
            for p in points:
                for e in self.point_edges[p]:
                    a, b = self.edge_points[e]
                    (inside if a in points and b in points else leaving).add(e)
            got = self.counts(inside)
            if any(self.clues[f] > got.get(f, 0) for f in self.wanted):
                self.cut_set(inside, leaving)
                return
        self.loop_cut(loop)

    def loop_cut(self, loop: Iterable[int]) -> None:
        self.sat.add_clause([-(e + 1) for e in loop])  # the page's loop cut

    def cut_set(self, inside: Iterable[int], leaving: Iterable[int]) -> None:
        self.top += 1
        a = self.top
        add = self.sat.solver.add_clause
        add([-a, *(e + 1 for e in leaving)])
        for e in inside:
            add([-1 - e, a])


def solve_sides(
    puzzle: Puzzle,
    time_limit_s: float = 30.0,
    fixed: dict[int, int] | None = None,
    solver: str = "glucose4",
    compiled: bool | None = None,
    discs: bool = True,
) -> ExactResult:
    """Solve and settle uniqueness (unique, multiple, infeasible or timeout); ``fixed``:
    edges already known (deduction's), as unit clauses. ``compiled``: split and cut each
    sample with numba (:mod:`.sides_cuts`); None: where numba is installed and the board
    has at least ``MIN_EDGES`` edges. ``discs=False``: cut sets on a loop's points only
    (the form before the disc cuts, kept so that benchmarks can set the two side by side)."""
    if puzzle.rules or puzzle.variant:
        raise ValueError("method='sat-sides' takes plain Slitherlink; use method='sat'")
    t0 = time.perf_counter()
    # A solve makes a hundred thousand short-lived clause lists on a 30x40 board, enough to
    # start Python's cyclic collector several times, each time walking the caller's whole
    # heap (10-30% of a solve in a process holding pandas and a store). They hold no
    # cycles, so the collector pauses until the solve ends.
    collecting = gc.isenabled()
    gc.disable()
    try:
        status, answers = _solve(puzzle, time_limit_s, fixed or {}, solver, compiled, discs, t0)
    finally:
        if collecting:
            gc.enable()
    result = [[e in on for e in range(puzzle.num_edges)] for on in map(set, answers)]
    return ExactResult(status, result, time.perf_counter() - t0)


def _solve(
    puzzle: Puzzle,
    time_limit_s: float,
    fixed: dict[int, int],
    solver: str,
    compiled: bool | None,
    discs: bool,
    t0: float,
) -> tuple[str, list[list[int]]]:
    from pysat.solvers import Solver

    edges = puzzle.num_edges
    sat = Solver(name=solver, bootstrap_with=sides_clauses(puzzle))
    sat.add_clause(list(range(1, edges + 1)))  # the clues allow the empty board, no loop
    for e, v in fixed.items():
        sat.add_clause([e + 1 if v else -(e + 1)])
    cuts = _Cuts(puzzle, sat, edges + puzzle.num_faces, discs)
    if compiled is None:
        compiled = edges >= MIN_EDGES and find_spec("numba") is not None
    board = None
    if compiled:
        from slitherbench.solvers.sides_cuts import Board

        board = Board(puzzle, discs)
    # One timer for the whole run: it interrupts whichever solve is running at the deadline.
    timer = threading.Timer(max(time_limit_s - (time.perf_counter() - t0), 0.001), sat.interrupt)
    timer.start()
    answers: list[list[int]] = []
    try:
        return _lazy_loop(puzzle, sat, cuts, answers, board), answers
    finally:
        timer.cancel()
        sat.delete()


def _lazy_loop(
    puzzle: Puzzle, sat: Any, cuts: _Cuts, answers: list[list[int]], compiled: Any = None
) -> str:
    """Solve, split into loops, keep answers and cut the rest, until two answers or none.
    ``compiled``: a :class:`.sides_cuts.Board` that splits and cuts each sample (None: the
    Python code here does)."""
    while True:
        got = sat.solve_limited(expect_interrupt=True)
        if got is None:
            return "timeout"
        if not got:
            return "unique" if answers else "infeasible"
        model = sat.get_model()
        found: list[tuple[Any, Any, Any, Any]]
        if compiled is None:
            found = [
                (None, loop, None, None)
                for loop in split_loops(puzzle, [model[e] > 0 for e in range(puzzle.num_edges)])
            ]
        else:
            found = compiled.analyse(model)
        for kind, edges, inside, leaving in found:
            loop = edges if compiled is None else edges.tolist()
            if kind in (None, "answer") and loop_satisfies_clues(puzzle, loop):
                answers.append(loop)
                sat.add_clause([-(e + 1) for e in loop])  # so that another can show
                if len(answers) == 2:
                    return "multiple"
            elif kind == "cut set":
                cuts.cut_set(inside.tolist(), leaving.tolist())
            elif kind == "loop cut":
                cuts.loop_cut(loop)
            else:  # the Python path, or a loop the checker refused where the clue counts met
                cuts.forbid(loop)
