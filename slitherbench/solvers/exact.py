"""CP-SAT as a backend (the reference exact family): the clue, degree and cut constraints in
one CP-SAT model, cuts added as the run goes, the previous solution passed as a hint; in
``mode: direct`` the circuit model solves the whole puzzle at once."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from slitherbench.models.formulations import Constraint
from slitherbench.puzzles.puzzle import Puzzle
from slitherbench.solvers.constraints import ConstraintBackend, NoSolution
from slitherbench.solvers.cpsat_model import IterativeExactModel, solve_circuit

__all__ = ["ExactBackend", "NoSolution"]


class ExactBackend(ConstraintBackend):
    name = "exact"
    packages = ("ortools",)

    def __init__(self, workers: int = 1, **params: Any) -> None:
        super().__init__(workers=workers, **params)
        self._cp: IterativeExactModel | None = None
        self._faces = False

    def build(self, puzzle: Puzzle, faces: bool = False) -> None:
        self._cp = IterativeExactModel(puzzle, faces)  # its rows come from the description
        self._faces = faces

    def new_model(self, puzzle: Puzzle) -> None:
        self.build(puzzle)

    def add_face_vars(self, count: int) -> list[int]:
        assert self._cp is not None, "start() was not called"
        return self._cp.add_face_vars(count)

    def add_constraint(self, c: Constraint) -> None:
        assert self._cp is not None, "start() was not called"
        self._cp.add_constraint(c)

    def require_an_edge(self) -> None:
        assert self._cp is not None, "start() was not called"
        self._cp.model.add_bool_or(self._cp.x)

    def solve_edges(
        self, time_limit_s: float, seed: int, hint: Sequence[bool] | None
    ) -> tuple[str, list[bool] | None]:
        assert self._cp is not None, "start() was not called"
        return self._cp.solve(
            time_limit_s, seed=seed, hint=hint, workers=int(self.params["workers"])
        )

    def solve_direct(
        self, puzzle: Puzzle, time_limit_s: float, seed: int, cut: str = "region"
    ) -> tuple[str, list[bool] | None, dict[str, Any]]:
        """Direct mode: the reference circuit model (one loop by ``add_circuit``), one solve.
        A puzzle variant (Colorlink: one loop per colour) and a model on face variables take
        the lazy loop instead (the circuit is a model on edges)."""
        if puzzle.variant or self._faces:
            return super().solve_direct(puzzle, time_limit_s, seed, cut)
        status, edges = solve_circuit(puzzle, time_limit_s, seed, int(self.params["workers"]))
        return status, edges, {}

    def close(self) -> None:
        self._cp = None
