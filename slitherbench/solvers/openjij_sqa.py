"""OpenJij simulated quantum annealing (``SQASampler``, path-integral Monte Carlo with
``trotter`` replicas) on the BQM; HUBO forms are reduced as for the dwave samplers. It takes
an initial state, so the previous iteration's solution is offered as a hint."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any, ClassVar

import dimod

from slitherbench.models.formulations import Model
from slitherbench.solvers.dwave import DwaveBackend


class OpenJijSQABackend(DwaveBackend):
    name = "sqa"
    packages = ("openjij", "dimod")
    interruptible = False  # one read (num_sweeps x trotter) runs to its end
    imports = ("openjij",)
    effort: ClassVar[dict[str, tuple[int, int]]] = {"num_sweeps": (200, 20000)}

    def __init__(
        self,
        num_sweeps: int = 2000,
        beta: float = 5.0,
        gamma: float = 1.0,
        trotter: int = 4,
        **params: Any,
    ) -> None:
        super().__init__(num_sweeps=num_sweeps, beta=beta, gamma=gamma, trotter=trotter, **params)

    def to_bqm(
        self, model: Model, hint: Mapping[int, int] | None
    ) -> tuple[dimod.BQM, dict[Any, int] | None, float, int]:
        bqm, start, const, added = super().to_bqm(model, hint)
        # cimod sorts labels: the reduction's product labels (strings) get integer ones after
        # the model's; they are dropped when the sample is judged, as before.
        extra = [v for v in bqm.variables if not isinstance(v, int)]
        if extra:
            top = max((v for v in bqm.variables if isinstance(v, int)), default=-1)
            mapping = {v: top + 1 + i for i, v in enumerate(extra)}
            bqm = bqm.relabel_variables(mapping, inplace=False)
            if start is not None:
                start = {mapping.get(v, v): x for v, x in start.items()}
        return bqm, start, const, added

    def make_sampler(self) -> dimod.Sampler:
        import openjij as oj

        return oj.SQASampler()

    def sample_params(
        self, seed: int, time_limit_s: float, warm: bool, bqm: dimod.BQM, const: float
    ) -> dict[str, Any]:
        p = super().sample_params(seed, time_limit_s, warm, bqm, const)
        p.update(
            num_sweeps=int(self.params["num_sweeps"]),
            beta=float(self.params["beta"]),
            gamma=float(self.params["gamma"]),
            trotter=int(self.params["trotter"]),
        )
        return p

    def start_params(self, bqm: dimod.BQM, start: Mapping[Any, int]) -> dict[str, Any]:
        return {"initial_state": {v: int(start.get(v, 0)) for v in bqm.variables}}

    def sweeps_per_read(self) -> int:
        return int(self.params["num_sweeps"]) * int(self.params["trotter"])
