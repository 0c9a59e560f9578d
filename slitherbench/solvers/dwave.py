"""dwave-samplers on the BQM: simulated annealing, tabu search, steepest descent.

QUBO forms go straight to the sampler, the HUBO reduced by the formulation
(``formulation=hubo2qubo``, :mod:`slitherbench.models.formulations.reduced`: its strengths chosen per
product, its products model labels) among them; its number of products and largest strength
are recorded in the extras. The plain ``hubo`` form reaches the sampler through the backend's
own dimod reduction (as ``make_quadratic`` with the fixed ``reduction_strength``, kept so
configs written for it run as before), kept across a trial's solves and extended by each
iteration's cuts (:class:`ReducedCopy`); the number of variables it adds is recorded. Warm
starts use ``initial_states`` built from the previous iteration's edges (auxiliaries filled
to their best values).
"""

from __future__ import annotations

import time
from collections.abc import Mapping
from typing import Any, ClassVar, cast

import dimod
from dimod.generators import and_gate

from slitherbench.method.record import Capability, SolveResult
from slitherbench.models.formulations import Model
from slitherbench.models.formulations.base import add_to_bqm
from slitherbench.solvers.base import Backend, best_sample


def expand(reduction: Mapping[tuple[Any, Any], Any], state: Mapping[Any, int]) -> dict[Any, int]:
    """A state of the model's labels extended to a reduction's product variables (pair ->
    product; each the product of its pair, nested products filled in turn), as dimod's
    HigherOrderComposite does for ``initial_state``; the dwave-samplers take
    ``initial_states`` instead."""
    full = dict(state)
    pending = dict(reduction)
    while pending:
        for (u, v), product in list(pending.items()):
            if u in full and v in full:
                full[product] = full[u] * full[v]
                del pending[(u, v)]
    return full


class ReducedCopy:
    """The BQM a dimod sampler sees for one model, kept across a trial's solves and extended
    by the pieces added since the last :meth:`sync`.

    QUBO forms: the model's quadratic terms as they are. HUBO forms: dimod's reduction
    (``reduce_binary_polynomial``, each product pair gated by ``and_gate`` at ``strength``, as
    ``make_quadratic`` does), applied to the added terms only: a cut's products reuse the
    product variables already gated, and no gate is added twice. Redoing the reduction of the
    whole polynomial at every solve cost 8.6 of the 9.4 s that dwave SA's trials spent outside
    the sampler in ``experiment=hubo_vs_qubo``.
    """

    def __init__(self, strength: float) -> None:
        self.strength = float(strength)
        self._reset(None)

    def _reset(self, model: Model | None) -> None:
        self.model = model
        self.synced = 0  # pieces of self.model already in the BQM
        self.bqm = dimod.BinaryQuadraticModel(dimod.BINARY)
        self.reduction: dict[tuple[Any, Any], Any] = {}  # gated pair -> its product variable
        self.constant = 0.0  # the polynomial's constant (the BQM's offset also holds gates')
        self.gated: set[Any] = set()

    @property
    def const(self) -> float:
        """What to add to the BQM's energy to get the model's (its constant minus the offset)."""
        return self.constant - float(self.bqm.offset)

    @property
    def added(self) -> int:
        """Variables the reduction added (product variables)."""
        return len(self.gated)

    def sync(self, model: Model) -> None:
        if model is not self.model:
            self._reset(model)
        delta = model.poly_since(self.synced)
        self.synced = len(model.pieces)
        if model.formulation.quadratic:
            self.bqm.add_variables_from((label, 0) for label in model.labels)
            self._add_terms(list(delta.items()))
            return
        if not delta:  # a retry: nothing added since the last solve
            return
        terms, gates = dimod.reduce_binary_polynomial(dimod.BinaryPolynomial(delta, dimod.BINARY))
        for (u, v), product in gates:
            if product in self.gated:
                continue
            gate = and_gate(u, v, product)
            gate.scale(self.strength)
            self.bqm.update(gate)
            self.reduction[(u, v)] = product
            self.gated.add(product)
        # dimod types the coefficients as numbers.Number; they are the model's own floats.
        self._add_terms([(tuple(t), cast(float, c)) for t, c in terms])

    def _add_terms(self, terms: list[tuple[tuple[Any, ...], float]]) -> None:
        self.constant += sum(c for term, c in terms if not term)
        add_to_bqm(self.bqm, terms)


class DwaveBackend(Backend):
    """Samples read by read, stopping at the first energy-0 sample or when time runs out."""

    takes = frozenset({Capability.QUADRATIC, Capability.POLYNOMIAL})
    packages: ClassVar[tuple[str, ...]] = ("dimod", "dwave-samplers")
    imports: ClassVar[tuple[str, ...]] = ("dwave.samplers",)
    sampler_path: ClassVar[str]

    sync_time_field = "reduction_s"

    def __init__(self, reduction_strength: float = 4.0, num_reads: int = 8, **params: Any) -> None:
        super().__init__(reduction_strength=reduction_strength, num_reads=num_reads, **params)
        self.copy = ReducedCopy(float(reduction_strength))

    def make_sampler(self) -> dimod.Sampler:
        import dwave.samplers as ds

        return getattr(ds, self.sampler_path)()

    def sample_params(
        self, seed: int, time_limit_s: float, warm: bool, bqm: dimod.BQM, const: float
    ) -> dict[str, Any]:
        return {"seed": seed % (2**31)}

    def sweeps_per_read(self) -> int:
        """Effort of one read in sweeps (0 where the sampler counts none: tabu)."""
        return int(self.params.get("num_sweeps", 0))

    def start_params(self, bqm: dimod.BQM, start: Mapping[Any, int]) -> dict[str, Any]:
        """The sampler's arguments for an initial state (dwave-samplers: ``initial_states``)."""
        return {
            "initial_states": ([[start.get(v, 0) for v in bqm.variables]], list(bqm.variables)),
            "initial_states_generator": "tile",
        }

    def sync(self, model: Model) -> None:
        self.copy.sync(model)

    def to_bqm(
        self, model: Model, hint: Mapping[int, int] | None
    ) -> tuple[dimod.BQM, dict[Any, int] | None, float, int]:
        """The BQM to sample, the hint on its variables, the constant the BQM's offset
        lacks, and the number of variables a HUBO reduction added."""
        self.sync(model)  # a no-op where the runner synced before the solve
        bqm = self.copy.bqm
        start = expand(self.copy.reduction, hint) if hint is not None else None
        return bqm, start, self.copy.const, self.copy.added

    def solve(
        self, model: Model, *, seed: int, hint: Mapping[int, int] | None, time_limit_s: float
    ) -> SolveResult:
        t0 = time.perf_counter()
        sampler = self.make_sampler()
        t1 = time.perf_counter()
        bqm, start, const, added = self.to_bqm(model, hint)
        params = self.sample_params(seed, time_limit_s, hint is not None, bqm, const)
        if start is not None:
            params.update(self.start_params(bqm, start))
        t2 = time.perf_counter()
        best, best_e, reads, negative = self.read_until_zero(
            sampler, bqm, params, model, const, t2 + time_limit_s
        )
        return SolveResult(
            best,
            best_e,
            start_s=t1 - t0,
            reduction_s=t2 - t1,
            solve_s=time.perf_counter() - t2,
            mode="CPU",
            hint_used=hint is not None,
            sweeps=reads * self.sweeps_per_read(),
            extras={
                "reads": reads,
                "reduction_added": added,
                "reduction_negative_energy": negative,
                **model.reduction_summary(),  # the formulation's reduction (hubo2qubo)
            },
        )

    def read_until_zero(
        self,
        sampler: dimod.Sampler,
        bqm: dimod.BQM,
        params: dict[str, Any],
        model: Model,
        const: float,
        deadline: float,
    ) -> tuple[dict[int, int], int, int, bool]:
        best: dict[int, int] | None = None
        best_e: int | None = None
        negative = False  # a reduced-BQM energy below the true minimum: reduction too weak
        reads = 0
        while reads < int(self.params["num_reads"]):
            call = dict(params, num_reads=1, seed=(params["seed"] + reads) % (2**31))
            rec = sampler.sample(bqm, **call).first
            reads += 1
            negative |= bool(rec.energy + const < -1e-9)
            sample, e = best_sample(model, [rec.sample])
            if best_e is None or e < best_e:
                best, best_e = sample, e
            if best_e == 0 or time.perf_counter() >= deadline:
                break
        assert best is not None and best_e is not None
        return best, best_e, reads, negative


class SABackend(DwaveBackend):
    """SimulatedAnnealingSampler; a cold ``warm_beta_range`` keeps the hint alive."""

    name = "sa"
    sampler_path = "SimulatedAnnealingSampler"
    effort: ClassVar[dict[str, tuple[int, int]]] = {"num_sweeps": (500, 30000)}

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
        self, seed: int, time_limit_s: float, warm: bool, bqm: dimod.BQM, const: float
    ) -> dict[str, Any]:
        p = super().sample_params(seed, time_limit_s, warm, bqm, const)
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
    effort: ClassVar[dict[str, tuple[int, int]]] = {"timeout_ms": (50, 5000)}

    def __init__(self, timeout_ms: int = 2000, **params: Any) -> None:
        super().__init__(timeout_ms=timeout_ms, **params)

    def sample_params(
        self, seed: int, time_limit_s: float, warm: bool, bqm: dimod.BQM, const: float
    ) -> dict[str, Any]:
        p = super().sample_params(seed, time_limit_s, warm, bqm, const)
        per_read_ms = min(int(self.params["timeout_ms"]), int(1000 * time_limit_s))
        p["timeout"] = max(1, per_read_ms)
        # Tabu ignores the offset (and the HUBO's dropped constant): "energy 0" in its units.
        p["energy_threshold"] = -(bqm.offset + const)
        return p


class SteepestBackend(DwaveBackend):
    """SteepestDescentSolver: a local-descent baseline."""

    name = "steepest"
    sampler_path = "SteepestDescentSolver"
    expects_solutions = False  # a local minimum from a random start is rarely energy 0
