"""Exact reference: OR-Tools CP-SAT.

* :func:`solve_exact` solves the whole puzzle (one loop via ``add_circuit``) and proves
  uniqueness by forbidding the answer found and solving again.
* :class:`IterativeExactModel` is the solve step of the page's iterative method with exact
  solves (the ``exact`` backend; the runner's loop drives it, as it drives every backend).

A time limit that runs out is reported as ``timeout``, never as ``infeasible``. A puzzle
rule on faces (No-Square) adds one Boolean per face, tied to the edges and holding the rule's
rows (:func:`~.backends.encode.over_labels`), to either model.
"""

from __future__ import annotations

import time
from collections.abc import Sequence
from importlib.util import find_spec

from ortools.sat.python import cp_model

from slitherbench.method.record import ExactResult
from slitherbench.models.formulations import Constraint, base_constraints
from slitherbench.models.formulations.base import DEGREE
from slitherbench.puzzles.puzzle import Puzzle

__all__ = [
    "ExactResult",
    "IterativeExactModel",
    "build_circuit_model",
    "solve_circuit",
    "solve_exact",
]


def cp_solver(time_limit_s: float, seed: int, workers: int) -> cp_model.CpSolver:
    s = cp_model.CpSolver()
    s.parameters.max_time_in_seconds = max(time_limit_s, 0.001)
    s.parameters.random_seed = seed
    s.parameters.num_workers = workers
    # CP-SAT otherwise takes Ctrl-C for itself (ending one solve early, as if out of time),
    # and the run would go on: let the harness see the KeyboardInterrupt instead.
    s.parameters.catch_sigint_signal = False
    return s


def add_row(model: cp_model.CpModel, x: list[cp_model.IntVar], c: Constraint) -> None:
    """One constraint of the description as CP-SAT rows (:func:`~.backends.encode.linear_row`)."""
    from slitherbench.models.encode import RELATIONS, linear_row

    row = linear_row(c)
    total = sum(x[e] for e, _ in row.terms) if row.unit else sum(a * x[e] for e, a in row.terms)
    if row.step:
        z = (
            model.new_bool_var(f"z{c.kind}{c.index}")
            if row.z_max == 1
            else model.new_int_var(0, row.z_max, f"z{c.kind}{c.index}")
        )
        model.add(total - row.step * z == row.lo)
        return
    for op, value in row.relations():
        model.add(RELATIONS[op](total, value))


def _edge_vars(model: cp_model.CpModel, puzzle: Puzzle) -> list[cp_model.IntVar]:
    """The edges with every row of the description but the points' degree rules (the
    circuit says those): clues and the rules' rows on edges, then the face channel with the
    rules' rows on faces where there are any."""
    from slitherbench.models.encode import face_rows, needs_faces

    x = [model.new_bool_var(f"x{e}") for e in range(puzzle.num_edges)]
    constraints = [c for c in base_constraints(puzzle) if c.shape != DEGREE]
    for c in constraints:
        if not c.faces:
            add_row(model, x, c)
    if needs_faces(constraints):
        E, F = puzzle.num_edges, puzzle.num_faces
        labels = list(range(E, E + F))
        both = x + [model.new_bool_var(f"c{f}") for f in range(F)]
        for c in face_rows(puzzle, constraints, labels):
            add_row(model, both, c)
    return x


def build_circuit_model(puzzle: Puzzle) -> tuple[cp_model.CpModel, list[cp_model.IntVar]]:
    """One node per point, a self-loop marks an unused point, both arc directions per edge.
    Works on any board: the circuit itself says "one loop", whatever its length."""
    model = cp_model.CpModel()
    x = _edge_vars(model, puzzle)
    arcs = []
    for e, (a, b) in enumerate(puzzle.edge_points):
        ab = model.new_bool_var(f"a{e}f")
        ba = model.new_bool_var(f"a{e}b")
        arcs += [(a, b, ab), (b, a, ba)]
        model.add(x[e] == ab + ba)
    for p, edges in enumerate(puzzle.point_edges):
        skip = model.new_bool_var(f"skip{p}")
        arcs.append((p, p, skip))
        # Redundant with the circuit, but gives CP-SAT the local degree rule to propagate.
        model.add(sum(x[e] for e in edges) == 2 - 2 * skip)
    model.add_circuit(arcs)
    model.add(sum(x) >= 1)  # an all-skipped circuit is no loop
    return model, x


def solve_exact(
    puzzle: Puzzle,
    time_limit_s: float = 30.0,
    seed: int = 0,
    workers: int = 2,
    method: str = "auto",
    presolve: str = "none",
) -> ExactResult:
    """Solve exactly and prove (or refute) uniqueness.

    ``method``: "sat" (python-sat with lazy loop cuts: about 10x faster than CP-SAT here, see
    README), "sat-sides" (python-sat with face sides and cut-set cuts,
    :mod:`~slitherbench.solvers.sat_sides`: plain puzzles only, faster again on large boards),
    "cpsat" (one ``add_circuit`` model, the answer then forbidden and solved again), or
    "auto": "sat-sides" on plain puzzles and "sat" on others where python-sat is installed
    (extra [exact]), else "cpsat".
    ``presolve`` (rules, lookahead1, lookahead2): deduction first, never assuming uniqueness;
    the edges it fixes are fixed in the solver's model, its time is the result's.
    """
    if puzzle.variant:  # a variant's answer (one loop per colour) is not one circuit
        method = "sat"
    elif method == "auto":
        plain = not puzzle.rules
        method = ("sat-sides" if plain else "sat") if find_spec("pysat") is not None else "cpsat"
    if method == "sat-sides":
        return _solve_sides(puzzle, time_limit_s, presolve)
    if method == "sat":
        from slitherbench.solvers.constraints import solve_lazily
        from slitherbench.solvers.sat import SatBackend

        return solve_lazily(SatBackend(), puzzle, time_limit_s, seed, presolve=presolve)
    if method != "cpsat":
        raise ValueError(f"method must be auto, sat, sat-sides or cpsat, got {method!r}")
    return _solve_circuit(puzzle, time_limit_s, seed, workers, presolve)


def _deduced(puzzle: Puzzle, presolve: str, t0: float) -> ExactResult | dict[int, int]:
    """The edges deduction fixes first (none for presolve="none"), or the result where it
    settles the board alone, timed from ``t0``."""
    from slitherbench.solvers.constraints import presolved_result

    if presolve == "none":
        return {}
    settled = presolved_result(puzzle, presolve)
    if isinstance(settled, ExactResult):
        return ExactResult(settled.status, settled.answers, time.perf_counter() - t0)
    return settled


def _solve_sides(puzzle: Puzzle, time_limit_s: float, presolve: str) -> ExactResult:
    from slitherbench.solvers.sat_sides import solve_sides

    t0 = time.perf_counter()
    fixed = _deduced(puzzle, presolve, t0)
    if isinstance(fixed, ExactResult):
        return fixed
    r = solve_sides(puzzle, time_limit_s - (time.perf_counter() - t0), fixed)
    return ExactResult(r.status, r.answers, time.perf_counter() - t0)


def solve_circuit(
    puzzle: Puzzle, time_limit_s: float, seed: int = 0, workers: int = 1
) -> tuple[str, list[bool] | None]:
    """One solve of the circuit model: ("feasible", edges), ("infeasible"|"timeout", None)."""
    model, x = build_circuit_model(puzzle)
    solver = cp_solver(time_limit_s, seed, workers)
    st = solver.solve(model)
    if st == cp_model.INFEASIBLE:
        return "infeasible", None
    if st not in (cp_model.OPTIMAL, cp_model.FEASIBLE):
        return "timeout", None
    return "feasible", [bool(solver.value(v)) for v in x]


def _solve_circuit(
    puzzle: Puzzle, time_limit_s: float, seed: int, workers: int, presolve: str = "none"
) -> ExactResult:
    t0 = time.perf_counter()
    fixed = _deduced(puzzle, presolve, t0)
    if isinstance(fixed, ExactResult):
        return fixed
    model, x = build_circuit_model(puzzle)
    for e, v in fixed.items():
        model.add(x[e] == v)
    solver = cp_solver(time_limit_s, seed, workers)
    st = solver.solve(model)
    if st == cp_model.INFEASIBLE:
        return ExactResult("infeasible", [], time.perf_counter() - t0)
    if st not in (cp_model.OPTIMAL, cp_model.FEASIBLE):
        return ExactResult("timeout", [], time.perf_counter() - t0)
    first = [bool(solver.value(v)) for v in x]
    # Uniqueness: forbid this exact answer and ask again.
    model.add_bool_or([v.negated() if on else v for v, on in zip(x, first, strict=True)])
    left = time_limit_s - (time.perf_counter() - t0)
    if left <= 0:
        return ExactResult("timeout", [first], time.perf_counter() - t0)
    solver = cp_solver(left, seed, workers)
    st = solver.solve(model)
    wall = time.perf_counter() - t0
    if st == cp_model.INFEASIBLE:
        return ExactResult("unique", [first], wall)
    if st in (cp_model.OPTIMAL, cp_model.FEASIBLE):
        return ExactResult("multiple", [first, [bool(solver.value(v)) for v in x]], wall)
    return ExactResult("timeout", [first], wall)


class IterativeExactModel:
    """Clue + degree-in-{0,2} constraints in CP-SAT; the cuts of the elimination loop's model
    come in as the run goes (:meth:`add_constraint`).

    This is the exact backend's solve step: it returns *some* assignment satisfying every
    constraint so far (or proves there is none), like an annealer reaching energy 0.
    """

    def __init__(self, puzzle: Puzzle, faces: bool = False) -> None:
        from slitherbench.models.encode import description_rows

        self.puzzle = puzzle
        self.model = cp_model.CpModel()
        self.x = [self.model.new_bool_var(f"x{e}") for e in range(puzzle.num_edges)]
        self.vars = list(self.x)  # the edges, then any face variables: the rows' labels
        for c in description_rows(puzzle, self.add_face_vars, faces):
            self.add_constraint(c)

    def add_face_vars(self, count: int) -> list[int]:
        first = len(self.vars)
        self.vars += [self.model.new_bool_var(f"c{f}") for f in range(count)]
        return list(range(first, first + count))

    def add_constraint(self, c: Constraint) -> None:
        add_row(self.model, self.vars, c)

    def solve(
        self,
        time_limit_s: float,
        seed: int = 0,
        hint: Sequence[bool] | None = None,
        workers: int = 1,
    ) -> tuple[str, list[bool] | None]:
        self.model.clear_hints()
        if hint is not None:
            # Written to the proto in one call: add_hint per variable cost 20 ms an iteration
            # at 20x36, more than the solve.
            if len(hint) != len(self.x):
                raise ValueError(f"a hint of {len(hint)} edges for {len(self.x)} edges")
            self.model.proto.solution_hint.vars.extend(v.index for v in self.x)
            self.model.proto.solution_hint.values.extend(int(bool(on)) for on in hint)
        solver = cp_solver(time_limit_s, seed, workers)
        st = solver.solve(self.model)
        if st in (cp_model.OPTIMAL, cp_model.FEASIBLE):
            values = solver.response_proto.solution  # by variable index, one read
            return "feasible", [bool(values[v.index]) for v in self.x]
        if st == cp_model.INFEASIBLE:
            return "infeasible", None
        return "timeout", None
