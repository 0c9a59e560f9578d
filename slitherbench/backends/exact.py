"""CP-SAT as a backend: each solve returns an assignment satisfying every constraint so far
(clue, degree, cuts), like an annealer reaching energy 0, so the runner's iterations give
an exact iteration baseline. It reads the constraint description, so it takes the cons form."""

from __future__ import annotations

import time
from collections.abc import Mapping
from typing import Any

from ..exact import IterativeExactModel
from ..formulations import Model
from ..record import Capability, SolveResult
from .base import Backend


class NoSolution(RuntimeError):
    def __init__(self, status: str, reason: str) -> None:
        super().__init__(reason)
        self.status = status


class ExactBackend(Backend):
    name = "exact"
    takes = frozenset({Capability.CONSTRAINTS})
    packages = ("ortools",)

    def __init__(self, workers: int = 1, **params: Any) -> None:
        super().__init__(workers=workers, **params)
        self._cp: IterativeExactModel | None = None
        self._cuts = 0

    def start(self, model: Model) -> None:
        self._cp = IterativeExactModel(model.puzzle)
        self._cuts = 0

    def solve(
        self, model: Model, *, seed: int, hint: Mapping[int, int] | None, time_limit_s: float
    ) -> SolveResult:
        assert self._cp is not None, "start() was not called"
        t0 = time.perf_counter()
        cuts = [p.constraint for p in model.pieces if p.constraint.kind == "cut"]
        for c in cuts[self._cuts :]:
            self._cp.add_cut(c.edges)
        self._cuts = len(cuts)
        edges_hint = model.edges_of(hint) if hint is not None else None
        t1 = time.perf_counter()
        status, sel = self._cp.solve(
            time_limit_s, seed=seed % (2**31), hint=edges_hint, workers=int(self.params["workers"])
        )
        t2 = time.perf_counter()
        if sel is None:
            raise NoSolution(
                "timeout" if status == "timeout" else "error",
                "CP-SAT ran out of time"
                if status == "timeout"
                else "the constraints so far admit no assignment",
            )
        sample = model.complete(sel)
        return SolveResult(
            sample,
            model.energy(sample),
            start_s=t1 - t0,
            solve_s=t2 - t1,
            mode="CPU",
            hint_used=hint is not None,
        )

    def close(self) -> None:
        self._cp = None
