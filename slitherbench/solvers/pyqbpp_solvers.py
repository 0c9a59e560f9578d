"""Shared solve step of the pyqbpp solvers (ABS3, EasySolver)."""

from __future__ import annotations

import os
import time
from collections.abc import Mapping
from typing import Any, ClassVar

from slitherbench.method.record import Capability, SolveResult
from slitherbench.models.formulations import Model
from slitherbench.solvers.base import Backend, BackendUnavailable
from slitherbench.solvers.qbpp_session import QbppSession


class PyqbppBackend(Backend):
    takes = frozenset(Capability)
    packages = ("pyqbpp",)
    needs_fresh_process = True
    imports = ("pyqbpp",)
    solver_class: ClassVar[str]

    def __init__(self, search_time_s: float | None = None, **params: Any) -> None:
        if search_time_s is not None:
            if not float(search_time_s) > 0:
                raise ValueError(f"search_time_s must be positive or null, got {search_time_s!r}")
            params["search_time_s"] = float(search_time_s)  # only when set: hashes stay
        super().__init__(**params)
        self.session: QbppSession | None = None

    def available(self) -> str | None:
        try:
            import pyqbpp  # noqa: F401  (an install that cannot load its libraries fails here)
        except Exception as exc:  # pragma: no cover - depends on the install
            return f"pyqbpp cannot be imported: {exc}"
        return None

    def load(self) -> None:
        super().load()
        import pyqbpp

        pyqbpp.max_var_count()  # pyqbpp loads its native library at first use (50 ms)

    def start(self, model: Model) -> None:
        self.session = QbppSession()
        self.session.sync(model)

    def make_solver(self, expr: Any) -> Any:
        assert self.session is not None, "start() was not called"
        return getattr(self.session.qbpp, self.solver_class)(expr)

    def search_params(self, seed: int, time_limit_s: float) -> dict[str, Any]:
        # search_time_s caps one search (a stuck one ends and the runner retries from its
        # sample, as the page's loop does); by default a search may use the rest of the trial.
        cap = self.params.get("search_time_s")
        limit = min(time_limit_s, cap) if cap else time_limit_s
        return {"target_energy": 0, "time_limit": limit, "seed": seed}

    def solve(
        self, model: Model, *, seed: int, hint: Mapping[int, int] | None, time_limit_s: float
    ) -> SolveResult:
        if self.session is None:
            raise BackendUnavailable("start() was not called")
        s = self.session
        t0 = time.perf_counter()
        s.sync(model)  # a no-op where the runner synced before the solve
        kwargs = self.search_params(seed, time_limit_s)
        if hint is not None:
            kwargs["hint"] = s.hint(hint)
        t1 = time.perf_counter()
        # The solver's own set-up (its constructor) is part of its time, as the samplers'
        # conversions inside their sample calls are.
        solver = self.make_solver(s.expr)
        sol = solver.search(**kwargs)
        t2 = time.perf_counter()
        info = dict(getattr(sol, "info", {}) or {})
        sample = s.read(sol)
        return SolveResult(
            sample,
            float(sol.energy),
            start_s=t1 - t0,
            solve_s=t2 - t1,
            mode=str(info.get("mode", "CPU")),
            hint_used=hint is not None,
            extras={
                "gpu": str(info.get("gpu", "")),
                "backend_run_time_s": float(info.get("run_time", "nan") or "nan"),
                "license_key_set": bool(os.environ.get("QBPP_LICENSE_KEY")),
            },
        )

    def sync(self, model: Model) -> None:
        if self.session is not None:
            self.session.sync(model)

    def close(self) -> None:
        self.session = None
