"""Parallel tempering (replica exchange) from dwave-hybrid on the BQM; HUBO forms are reduced
as for the dwave samplers.

The workflow is hybrid's reference one (fixed-temperature SA on each replica, then a
downward sweep of replica swaps, looped), with three changes for this harness: the betas
span ``beta_range`` geometrically instead of hybrid's default range (too hot here), each
replica's sampler draws its seeds from the trial's seed, and the loop stops at the first
energy-0 sample or at the time limit. A hint starts every replica from it.
"""

from __future__ import annotations

import random
import threading
import time
from collections.abc import Mapping
from typing import Any, ClassVar

import numpy as np

from slitherbench.method.record import SolveResult
from slitherbench.models.formulations import Model
from slitherbench.solvers.base import best_sample
from slitherbench.solvers.dwave import DwaveBackend


def _seeded_sampler(num_sweeps: int, rngs: dict[float, random.Random], calls: list[int]) -> Any:
    from hybrid.reference.pt import FixedTemperatureSampler

    lock = threading.Lock()

    class SeededFixedTemperatureSampler(FixedTemperatureSampler):
        """Hybrid's fixed-temperature step seeded from its replica's own generator (replicas
        run in threads; a shared one would hand out seeds in thread order), counted in
        ``calls`` for the effort in sweeps."""

        def next(self, state: Any, **runopts: Any) -> Any:
            runopts["seed"] = rngs[state.beta].randrange(2**31)
            with lock:
                calls[0] += 1
            return super().next(state, **runopts)

    return SeededFixedTemperatureSampler(num_sweeps=num_sweeps)


class ParallelTemperingBackend(DwaveBackend):
    name = "pt"
    packages = ("dimod", "dwave-hybrid", "dwave-samplers")
    imports = ("hybrid.reference.pt",)
    effort: ClassVar[dict[str, tuple[int, int]]] = {"num_sweeps": (20, 2000)}
    sampler_path = "SimulatedAnnealingSampler"  # what each replica runs

    def __init__(
        self,
        num_replicas: int = 10,
        num_sweeps: int = 1000,
        beta_range: tuple[float, float] | list[float] = (0.2, 5.0),
        max_rounds: int | None = None,
        **params: Any,
    ) -> None:
        super().__init__(
            num_replicas=num_replicas,
            num_sweeps=num_sweeps,
            beta_range=list(beta_range),
            max_rounds=max_rounds,  # null: rounds until energy 0 or the time limit
            **params,
        )

    def workflow(
        self, const: float, time_limit_s: float, seed: int, betas: list[float], calls: list[int]
    ) -> Any:
        import hybrid
        from hybrid.reference.pt import SwapReplicasDownsweep

        rngs = {b: random.Random(seed * 1000 + k) for k, b in enumerate(betas)}
        update = hybrid.Map(_seeded_sampler(int(self.params["num_sweeps"]), rngs, calls))
        swap = SwapReplicasDownsweep()
        swap.random = random.Random(seed)

        def coldest_energy(states: Any) -> float:
            return min(s.samples.first.energy for s in states) + const

        rounds = self.params["max_rounds"]
        loop = hybrid.Loop(
            update | swap,
            max_iter=int(rounds) if rounds else None,
            max_time=max(time_limit_s, 0.01),
            key=coldest_energy,
            terminate=lambda e: e <= 1e-9,
        )
        return loop

    def solve(
        self, model: Model, *, seed: int, hint: Mapping[int, int] | None, time_limit_s: float
    ) -> SolveResult:
        import hybrid

        t0 = time.perf_counter()
        bqm, start, const, added = self.to_bqm(model, hint)
        t1 = time.perf_counter()
        rng = np.random.default_rng(seed)
        if start is not None:
            first = {v: int(start.get(v, 0)) for v in bqm.variables}
        else:
            bits = rng.integers(0, 2, bqm.num_variables).tolist()
            first = dict(zip(bqm.variables, bits, strict=True))
        lo, hi = (float(b) for b in self.params["beta_range"])
        n = int(self.params["num_replicas"])
        init = hybrid.State.from_sample(first, bqm)
        betas = [float(b) for b in np.geomspace(lo, hi, n)]
        states = hybrid.States(*[init.updated(beta=b) for b in betas])
        left = time_limit_s - (time.perf_counter() - t0)
        calls = [0]
        out = self.workflow(const, left, seed, betas, calls).run(states).result()
        rounds = calls[0] // n
        t2 = time.perf_counter()
        samples = [dict(s.samples.first.sample) for s in out]
        best, best_e = best_sample(model, samples)
        return SolveResult(
            best,
            best_e,
            reduction_s=t1 - t0,
            solve_s=t2 - t1,
            mode="CPU",
            hint_used=hint is not None,
            sweeps=calls[0] * int(self.params["num_sweeps"]),
            extras={"replicas": n, "rounds": rounds, "reduction_added": added},
        )
