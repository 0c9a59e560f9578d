"""pyqbpp ABS3Solver: GPU when present (gpu=-1, auto), CPU otherwise; the mode it used is
recorded from ``sol.info['mode']``."""

from __future__ import annotations

from typing import Any

from .pyqbpp_solvers import PyqbppBackend


class ABS3Backend(PyqbppBackend):
    name = "abs3"
    solver_class = "ABS3Solver"

    def __init__(self, gpu: int = -1, **params: Any) -> None:
        super().__init__(gpu=gpu, **params)

    def make_solver(self, expr: Any) -> Any:
        return self.session.qbpp.ABS3Solver(expr, gpu=int(self.params["gpu"]))
