"""dwave-samplers on the BQM: simulated annealing, tabu search, steepest descent.

QUBO forms go straight to the sampler. HUBO forms reach it through dimod's
HigherOrderComposite (make_quadratic with ``reduction_strength``); the number of
variables the reduction adds is recorded. Warm starts use ``initial_states`` built from
the previous iteration's edges (auxiliaries filled to their best values).
"""

from __future__ import annotations

import time
from collections.abc import Mapping
from typing import Any, ClassVar

import dimod
from dimod.higherorder.utils import make_quadratic

from ..formulations import Model
from .base import Backend, one_sample


class WarmHigherOrderComposite(dimod.HigherOrderComposite):
    """HigherOrderComposite whose hint reaches samplers that take ``initial_states``.

    dimod's composite expands ``initial_state`` (singular) to the reduced variables, but
    the dwave-samplers take ``initial_states``; this does the same expansion for them and
    reports how many variables the reduction added.
    """

    def sample_poly_warm(
        self,
        poly: dimod.BinaryPolynomial,
        *,
        penalty_strength: float,
        initial_state: Mapping[Any, int] | None = None,
        **parameters: Any,
    ) -> tuple[dimod.SampleSet, dimod.BinaryQuadraticModel]:
        bqm = make_quadratic(poly, penalty_strength, vartype=dimod.BINARY)
        if initial_state is not None:
            full = dict(initial_state)
            # A product variable equals the product of its pair (fill nested ones in order).
            pending = dict(bqm.info["reduction"])
            while pending:
                for (u, v), rec in list(pending.items()):
                    if u in full and v in full:
                        full[rec["product"]] = full[u] * full[v]
                        del pending[(u, v)]
            parameters["initial_states"] = (
                [[full.get(x, 0) for x in bqm.variables]],
                list(bqm.variables),
            )
        response = self.child.sample(bqm, **parameters)
        return response, bqm


class DwaveBackend(Backend):
    accepts = frozenset({"hubo", "qubo"})
    sampler_path: ClassVar[str]

    def __init__(self, reduction_strength: float = 4.0, num_reads: int = 8, **params: Any) -> None:
        super().__init__(reduction_strength=reduction_strength, num_reads=num_reads, **params)

    def make_sampler(self) -> dimod.Sampler:
        import dwave.samplers as ds

        return getattr(ds, self.sampler_path)()

    def sample_params(
        self, seed: int, time_limit_s: float, warm: bool, bqm: dimod.BQM
    ) -> dict[str, Any]:
        return {"num_reads": int(self.params["num_reads"]), "seed": seed % (2**31)}

    def solve(
        self, model: Model, *, seed: int, hint: Mapping[int, int] | None, time_limit_s: float
    ) -> dimod.SampleSet:
        sampler = self.make_sampler()
        t0 = time.perf_counter()
        added = 0
        negative = False
        if model.formulation.quadratic:
            bqm = model.to_bqm()
            params = self.sample_params(seed, time_limit_s, hint is not None, bqm)
            if hint is not None:
                params["initial_states"] = (
                    [[hint.get(v, 0) for v in bqm.variables]],
                    list(bqm.variables),
                )
                params.setdefault("initial_states_generator", "tile")
            t1 = time.perf_counter()
            response = sampler.sample(bqm, **params)
            t2 = time.perf_counter()
            best = response.first.sample
        else:
            poly = model.to_binary_polynomial()
            composite = WarmHigherOrderComposite(sampler)
            probe = make_quadratic(
                poly, float(self.params["reduction_strength"]), vartype=dimod.BINARY
            )
            params = self.sample_params(seed, time_limit_s, hint is not None, probe)
            if hint is not None:
                params.setdefault("initial_states_generator", "tile")
            t1 = time.perf_counter()
            response, bqm = composite.sample_poly_warm(
                poly,
                penalty_strength=float(self.params["reduction_strength"]),
                initial_state=dict(hint) if hint is not None else None,
                **params,
            )
            t2 = time.perf_counter()
            added = bqm.num_variables - len(poly.variables)
            # make_quadratic drops the polynomial's constant: add it back before judging.
            const = poly.get((), 0) if hasattr(poly, "get") else 0
            negative = bool(response.first.energy + const < -1e-9)
            best = response.first.sample
        sample = {int(k): int(v) for k, v in best.items() if isinstance(k, int)}
        return one_sample(
            model,
            sample,
            model.energy(sample),
            start_s=t1 - t0,
            solve_s=t2 - t1,
            mode="CPU",
            hint_used=hint is not None,
            reduction_added=added,
            reduction_negative_energy=negative,
        )


class SABackend(DwaveBackend):
    """SimulatedAnnealingSampler; a cold ``warm_beta_range`` keeps the hint alive."""

    name = "sa"
    sampler_path = "SimulatedAnnealingSampler"

    def __init__(
        self,
        num_sweeps: int = 10000,
        beta_range: tuple[float, float] | list[float] | None = (2.0, 10.0),
        warm_beta_range: tuple[float, float] | list[float] | None = (4.5, 10.0),
        beta_schedule_type: str = "linear",
        **params: Any,
    ) -> None:
        super().__init__(
            num_sweeps=num_sweeps,
            beta_range=list(beta_range) if beta_range else None,
            warm_beta_range=list(warm_beta_range) if warm_beta_range else None,
            beta_schedule_type=beta_schedule_type,
            **params,
        )

    def sample_params(
        self, seed: int, time_limit_s: float, warm: bool, bqm: dimod.BQM
    ) -> dict[str, Any]:
        p = super().sample_params(seed, time_limit_s, warm, bqm)
        p["num_sweeps"] = int(self.params["num_sweeps"])
        p["beta_schedule_type"] = self.params["beta_schedule_type"]
        br = self.params["warm_beta_range"] if warm else self.params["beta_range"]
        if br:
            p["beta_range"] = tuple(float(b) for b in br)
        return p


class TabuBackend(DwaveBackend):
    """TabuSampler; ``timeout_ms`` is per read, and energy_threshold ignores the offset."""

    name = "tabu"
    sampler_path = "TabuSampler"

    def __init__(self, timeout_ms: int = 2000, **params: Any) -> None:
        super().__init__(timeout_ms=timeout_ms, **params)

    def sample_params(
        self, seed: int, time_limit_s: float, warm: bool, bqm: dimod.BQM
    ) -> dict[str, Any]:
        p = super().sample_params(seed, time_limit_s, warm, bqm)
        per_read_ms = min(
            int(self.params["timeout_ms"]), int(1000 * time_limit_s / max(1, p["num_reads"]))
        )
        p["timeout"] = max(1, per_read_ms)
        p["energy_threshold"] = -bqm.offset  # "energy 0" in the sampler's offset-free units
        return p


class SteepestBackend(DwaveBackend):
    """SteepestDescentSolver: a local-descent baseline."""

    name = "steepest"
    sampler_path = "SteepestDescentSolver"
