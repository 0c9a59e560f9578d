"""The backend interface: a small sampler over a :class:`~slitherbench.formulations.Model`.

``solve`` returns a ``dimod.SampleSet`` (labels = model labels) whose ``info`` carries at
least ``solve_s`` (the backend's own search time), ``start_s`` (solver start-up / model
hand-over), ``mode`` (CPU/GPU/...) and ``hint_used``. The runner judges samples with the
model's own energy, never with a number the backend reports.
"""

from __future__ import annotations

from abc import ABC, abstractmethod
from collections.abc import Mapping
from typing import Any, ClassVar

import dimod

from ..formulations import Formulation, Model


class BackendUnavailable(RuntimeError):
    """The backend cannot run here (package missing, licence limit, ...); the trial is skipped."""


class Backend(ABC):
    name: ClassVar[str]
    accepts: ClassVar[frozenset[str]]  # formulation names
    needs_fresh_process: ClassVar[bool] = False  # pyqbpp: variable counts are per process

    def __init__(self, **params: Any) -> None:
        self.params = dict(params)

    def unsupported_reason(self, formulation: Formulation) -> str | None:
        if formulation.name not in self.accepts:
            return (
                f"backend {self.name} does not accept the {formulation.name} form "
                f"(accepts {', '.join(sorted(self.accepts))})"
            )
        return None

    def available(self) -> str | None:
        """None if usable here, else the reason (recorded as ``skipped``)."""
        return None

    def start(self, model: Model) -> None:
        """Per-trial set-up before the first solve (may raise BackendUnavailable)."""

    @abstractmethod
    def solve(
        self,
        model: Model,
        *,
        seed: int,
        hint: Mapping[int, int] | None,
        time_limit_s: float,
    ) -> dimod.SampleSet: ...

    def close(self) -> None:
        """Release per-trial resources."""

    def __repr__(self) -> str:
        args = ", ".join(f"{k}={v!r}" for k, v in self.params.items())
        return f"{type(self).__name__}({args})"


def one_sample(
    model: Model, sample: Mapping[int, int], energy: float, **info: Any
) -> dimod.SampleSet:
    labels = model.labels
    row = [[int(sample.get(v, 0)) for v in labels]]
    return dimod.SampleSet.from_samples((row, labels), dimod.BINARY, energy=[energy], info=info)
