"""pyqbpp EasySolver (CPU)."""

from __future__ import annotations

from slitherbench.solvers.pyqbpp_solvers import PyqbppBackend


class EasyBackend(PyqbppBackend):
    name = "easy"
    solver_class = "EasySolver"
