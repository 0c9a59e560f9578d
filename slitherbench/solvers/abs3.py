"""pyqbpp ABS3Solver: GPU when present (gpu=-1, auto), CPU otherwise; the mode it used is
recorded from ``sol.info['mode']``. gpu=N>0 demands N GPUs."""

from __future__ import annotations

from typing import Any

from slitherbench.method.provenance import gpu_names
from slitherbench.solvers.pyqbpp_solvers import PyqbppBackend


class ABS3Backend(PyqbppBackend):
    name = "abs3"
    solver_class = "ABS3Solver"

    def __init__(self, gpu: int = -1, **params: Any) -> None:
        super().__init__(gpu=gpu, **params)

    def available(self) -> str | None:
        reason = super().available()
        wanted = int(self.params["gpu"])
        if reason is None and wanted > 0:
            # ABS3 aborts the process when asked for GPUs it cannot find: say so instead.
            found = gpu_names()
            if len(found) < wanted:
                reason = (
                    f"gpu={wanted} asks for {wanted} GPU(s) but {len(found)} are visible "
                    "(nvidia-smi); use gpu=-1 (GPU if present) or gpu=0 (CPU)"
                )
        return reason

    def make_solver(self, expr: Any) -> Any:
        assert self.session is not None, "start() was not called"
        return self.session.qbpp.ABS3Solver(expr, gpu=int(self.params["gpu"]))
