"""Simulated bifurcation (the ``simulated-bifurcation`` package, PyTorch) on the quadratic form.

Runs on CUDA where PyTorch sees a GPU (``device: auto``), else on the CPU; the device is the
trial's ``mode``. Each batch runs ``agents`` oscillator systems in parallel; batches repeat
with new seeds until a sample reaches energy 0 or time runs out. SB has no initial state.
Install with ``pip install -e ".[sb]"`` (README: pick a CPU or CUDA build of PyTorch first).
"""

from __future__ import annotations

import logging
import time
import warnings
from collections.abc import Mapping
from typing import Any, ClassVar

from ..formulations import Model
from ..record import Capability, SolveResult
from .base import Backend, best_sample, thread_count


def quadratic_arrays(model: Model) -> tuple[list[int], Any, Any, float]:
    """Labels, Q (upper triangle), linear vector and constant of the model's quadratic form."""
    import torch

    labels = model.labels
    index = {v: i for i, v in enumerate(labels)}
    n = len(labels)
    quad = torch.zeros((n, n), dtype=torch.float32)
    lin = torch.zeros(n, dtype=torch.float32)
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


class SimulatedBifurcationBackend(Backend):
    name = "sb"
    takes = frozenset({Capability.QUADRATIC})
    packages = ("simulated-bifurcation", "torch")
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
        import simulated_bifurcation as sb
        import torch

        # Its optimizer logs every stop at INFO; the trial records the outcome instead.
        logging.getLogger("simulated_bifurcation_optimizer").setLevel(logging.WARNING)
        # PyTorch's CPU threads spin: more threads than free cores made a batch 70x slower
        # here (two processes on two cores), so the default is 1 (null: every core).
        torch.set_num_threads(thread_count(self.params["num_threads"]))
        t0 = time.perf_counter()
        device = self.torch_device()
        labels, quad, lin, const = quadratic_arrays(model)
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
                x, value = sb.minimize(
                    quad, lin, const, domain="binary", device=device, agents=agents,
                    max_steps=steps, best_only=False, mode=self.params["sb_mode"],
                    heated=bool(self.params["heated"]), verbose=False,
                    timeout=max(0.01, deadline - time.perf_counter()),
                )  # fmt: skip
            batches += 1
            top = torch.argsort(value.reshape(-1))[: int(self.params["candidates"])]
            rows = x.reshape(-1, len(labels))[top].round().to(torch.int64).cpu().tolist()
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
