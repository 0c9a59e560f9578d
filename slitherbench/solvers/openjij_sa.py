"""OpenJij simulated annealing directly on the HUBO (``SASampler.sample_hubo``), which takes
the loop products of degree 60+ as they are. It has no initial state: hints are unused.

``num_threads`` (null: every core) runs the reads in parallel; ``updater`` is OpenJij's
single-spin ``METROPOLIS`` / ``HEAT_BATH`` or ``k-local``, made for high-degree terms."""

from __future__ import annotations

import time
from collections.abc import Mapping
from typing import Any, ClassVar

from slitherbench.method.record import Capability, SolveResult
from slitherbench.models.formulations import Model
from slitherbench.solvers.base import Backend, PolynomialCopy, best_sample, thread_count

UPDATERS = ("METROPOLIS", "HEAT_BATH", "k-local")


class OpenJijBackend(Backend):
    name = "openjij"
    takes = frozenset({Capability.POLYNOMIAL})
    packages = ("openjij",)
    interruptible = False  # sample_hubo runs to its end whatever the time limit
    imports = ("openjij",)
    effort: ClassVar[dict[str, tuple[int, int]]] = {"num_sweeps": (1000, 60000)}

    def __init__(
        self,
        num_sweeps: int = 30000,
        num_reads: int = 8,
        beta_min: float = 2.0,
        beta_max: float = 10.0,
        temperature_schedule: str = "LINEAR",
        updater: str = "METROPOLIS",
        num_threads: int | None = None,
        **params: Any,
    ) -> None:
        if updater not in UPDATERS:
            raise ValueError(f"updater must be one of {', '.join(UPDATERS)}, got {updater!r}")
        super().__init__(
            num_sweeps=num_sweeps,
            num_reads=num_reads,
            beta_min=beta_min,
            beta_max=beta_max,
            temperature_schedule=temperature_schedule,
            updater=updater,
            num_threads=num_threads,
            **params,
        )
        self.copy = PolynomialCopy()

    def sync(self, model: Model) -> None:
        self.copy.sync(model)

    @property
    def threads(self) -> int:
        return thread_count(self.params["num_threads"])

    def solve(
        self, model: Model, *, seed: int, hint: Mapping[int, int] | None, time_limit_s: float
    ) -> SolveResult:
        import openjij as oj

        t0 = time.perf_counter()
        self.sync(model)  # a no-op where the runner synced before the solve
        t1 = time.perf_counter()
        res = oj.SASampler().sample_hubo(
            self.copy.terms,
            vartype="BINARY",
            num_sweeps=int(self.params["num_sweeps"]),
            num_reads=int(self.params["num_reads"]),
            beta_min=float(self.params["beta_min"]),
            beta_max=float(self.params["beta_max"]),
            temperature_schedule=str(self.params["temperature_schedule"]),
            updater=str(self.params["updater"]),
            num_threads=self.threads,
            seed=seed % (2**31),
        )
        t2 = time.perf_counter()
        # The native HUBO's energies differ from the model's by its constant only, so the
        # sampler's lowest read is the model's lowest; judging it stays the runner's.
        best, best_e = best_sample(model, [res.first.sample])
        reads = int(self.params["num_reads"])
        return SolveResult(
            best,
            best_e,
            start_s=t1 - t0,
            solve_s=t2 - t1,
            mode="CPU",
            hint_used=False,
            sweeps=reads * int(self.params["num_sweeps"]),
            extras={"reads": reads, "threads": self.threads},
        )
