"""A backend that fails on purpose, to test that a trial's crash is recorded, not fatal.

``fault='abort'`` aborts the process (as pyqbpp does past its variable limit);
``fault='raise'`` raises an exception. Runs in a fresh child process like pyqbpp backends.
"""

from __future__ import annotations

import os
from collections.abc import Mapping
from typing import Any

from slitherbench.method.record import Capability, SolveResult
from slitherbench.models.formulations import Model
from slitherbench.solvers.base import Backend


class FaultyBackend(Backend):
    name = "faulty"
    takes = frozenset(Capability)
    needs_fresh_process = True

    def __init__(self, fault: str = "abort", **params: Any) -> None:
        super().__init__(fault=fault, **params)

    def solve(
        self, model: Model, *, seed: int, hint: Mapping[int, int] | None, time_limit_s: float
    ) -> SolveResult:
        if self.params["fault"] == "abort":
            os.abort()
        raise RuntimeError("deliberate failure")
