"""Simulated bifurcation (the ``simulated-bifurcation`` package, PyTorch) on the quadratic form.

Runs on CUDA where PyTorch sees a GPU (``device: auto``), else on the CPU; the device is the
trial's ``mode``. Each batch runs ``agents`` oscillator systems in parallel; batches repeat
with new seeds until a sample reaches energy 0 or time runs out. SB has no initial state.
Install with ``pip install -e ".[sb]"`` (docs/how-to/gpu_and_licence.md: pick a CPU or CUDA build of PyTorch first).
"""

from __future__ import annotations

import logging
import time
import warnings
from collections.abc import Mapping
from typing import Any, ClassVar

from slitherbench.method.record import Capability, SolveResult
from slitherbench.models.formulations import Model
from slitherbench.solvers.base import Backend, best_sample, thread_count


def quadratic_arrays(model: Model) -> tuple[list[int], Any, Any, float]:
    """Labels, Q (upper triangle), linear vector and constant of the model's quadratic form,
    as NumPy arrays (filled in NumPy: one PyTorch item assignment costs microseconds)."""
    import numpy as np

    labels = model.labels
    index = {v: i for i, v in enumerate(labels)}
    n = len(labels)
    quad = np.zeros((n, n), dtype=np.float32)
    lin = np.zeros(n, dtype=np.float32)
    const = 0.0
    for term, c in model.polynomial().items():
        if len(term) == 0:
            const += c
        elif len(term) == 1:
            lin[index[term[0]]] += c
        elif len(term) == 2:
            quad[index[term[0]], index[term[1]]] += c
        else:
            raise TypeError(f"the {model.formulation.name} form has terms of degree > 2")
    return labels, quad, lin, const


def ising_arrays(quad: Any, lin: Any) -> tuple[Any, Any]:
    """J and h of SB's Ising convention (-1/2 s'Js + h's, zero diagonal) for x'Qx + l'x with
    x = (s + 1)/2, up to a constant. The package's own ``to_ising`` gets the same J and h
    through two dense n x n matrix products (3 s at n = 3,000 on one core, spent before its
    timeout starts); for binary variables the change of variables is elementwise."""
    import numpy as np

    sym = (quad + quad.T) / 2
    J = -0.5 * sym
    h = 0.5 * lin + 0.5 * sym.sum(axis=1)
    np.fill_diagonal(J, 0.0)
    return J, h


class SimulatedBifurcationBackend(Backend):
    name = "sb"
    takes = frozenset({Capability.QUADRATIC})
    packages = ("simulated-bifurcation", "torch")
    imports = ("torch", "simulated_bifurcation")
    effort: ClassVar[dict[str, tuple[int, int]]] = {"max_steps": (500, 50000)}

    def __init__(
        self,
        agents: int = 128,
        max_steps: int = 2000,
        sb_mode: str = "ballistic",
        heated: bool = False,
        device: str = "auto",
        candidates: int = 16,
        num_threads: int | None = 1,
        **params: Any,
    ) -> None:
        if sb_mode not in ("ballistic", "discrete"):
            raise ValueError(f"sb_mode must be ballistic or discrete, got {sb_mode!r}")
        super().__init__(
            agents=agents,
            max_steps=max_steps,
            sb_mode=sb_mode,
            heated=heated,
            device=device,
            candidates=candidates,
            num_threads=num_threads,
            **params,
        )

    def torch_device(self) -> str:
        import torch

        want = str(self.params["device"])
        if want == "auto":
            return "cuda" if torch.cuda.is_available() else "cpu"
        return want

    def solve(
        self, model: Model, *, seed: int, hint: Mapping[int, int] | None, time_limit_s: float
    ) -> SolveResult:
        import torch
        from simulated_bifurcation.core import Ising

        # Its optimizer logs every stop at INFO; the trial records the outcome instead.
        logging.getLogger("simulated_bifurcation_optimizer").setLevel(logging.WARNING)
        # PyTorch's CPU threads spin: more threads than free cores made a batch 70x slower
        # here (two processes on two cores), so the default is 1 (null: every core).
        torch.set_num_threads(thread_count(self.params["num_threads"]))
        t0 = time.perf_counter()
        device = self.torch_device()
        labels, quad, lin, _ = quadratic_arrays(model)
        J, h = ising_arrays(quad, lin)
        Jt, ht = torch.from_numpy(J).to(device), torch.from_numpy(h).to(device)
        ising = Ising(Jt, ht, torch.float32, device)
        t1 = time.perf_counter()
        deadline = t0 + time_limit_s
        agents, steps = int(self.params["agents"]), int(self.params["max_steps"])
        best: dict[int, int] | None = None
        best_e: int | None = None
        batches = 0
        while best_e != 0 and (batches == 0 or time.perf_counter() < deadline):
            torch.manual_seed((seed + 7919 * batches) % (2**63))
            with warnings.catch_warnings():  # "no agent has converged": judged below anyway
                warnings.simplefilter("ignore")
                spins = ising.minimize(
                    agents=agents, max_steps=steps, mode=self.params["sb_mode"],
                    heated=bool(self.params["heated"]), verbose=False,
                    timeout=max(0.01, deadline - time.perf_counter()),
                )  # fmt: skip
            batches += 1
            # Rank the agents by the Ising energy (the form's energy up to a constant) and
            # judge the best few with the form's own energy.
            value = -0.5 * (spins * (Jt @ spins)).sum(dim=0) + ht @ spins
            top = torch.argsort(value)[: int(self.params["candidates"])]
            rows = ((spins[:, top].t() + 1) / 2).round().to(torch.int64).cpu().tolist()
            sample, e = best_sample(model, [dict(zip(labels, r, strict=True)) for r in rows])
            if best_e is None or e < best_e:
                best, best_e = sample, e
        assert best is not None and best_e is not None
        name = torch.cuda.get_device_name(0) if device.startswith("cuda") else "cpu"
        return SolveResult(
            best,
            best_e,
            start_s=t1 - t0,
            solve_s=time.perf_counter() - t1,
            mode="GPU" if device.startswith("cuda") else "CPU",
            hint_used=False,
            # The step budget (agents x max_steps per batch); early stopping may use less.
            sweeps=batches * agents * steps,
            extras={"batches": batches, "agents": agents, "device": name},
        )
