"""The backend interface: a small sampler over a :class:`~slitherbench.formulations.Model`.

A backend declares what it ``takes`` (:class:`~slitherbench.record.Capability`); it runs a
formulation that produces one of those. ``solve`` returns a
:class:`~slitherbench.record.SolveResult`. The runner judges samples with the model's own
energy, never with a number the backend reports.
"""

from __future__ import annotations

import os
from abc import ABC, abstractmethod
from collections.abc import Iterable, Mapping
from importlib import metadata
from numbers import Integral
from typing import Any, ClassVar

from ..formulations import Formulation, Model
from ..record import Capability, Scalar, SolveResult


class BackendUnavailable(RuntimeError):
    """The backend cannot run here (package missing, licence limit, ...); the trial is skipped."""


class Backend(ABC):
    name: ClassVar[str]
    takes: ClassVar[frozenset[Capability]]
    # Distributions it needs: checked before a trial, their versions recorded in provenance.
    packages: ClassVar[tuple[str, ...]] = ()
    needs_fresh_process: ClassVar[bool] = False  # pyqbpp: variable counts are per process
    # False: a solve may overrun its time limit, so it runs in a child killed at the deadline.
    interruptible: ClassVar[bool] = True
    # The main effort parameter tuning may search: name -> (low, high), searched on a log
    # scale. Empty: the backend's effort is its time limit alone.
    effort: ClassVar[dict[str, tuple[int, int]]] = {}
    # False for a baseline that is not expected to reach energy 0 (steepest descent).
    expects_solutions: ClassVar[bool] = True

    def __init__(self, **params: Any) -> None:
        self.params = dict(params)

    def unsupported_reason(self, formulation: Formulation) -> str | None:
        if formulation.produces & self.takes:
            return None
        made = ", ".join(sorted(formulation.produces))
        taken = ", ".join(sorted(self.takes))
        return (
            f"backend {self.name} does not accept the {formulation.name} form "
            f"({formulation.name} produces {made}; {self.name} takes {taken})"
        )

    def available(self) -> str | None:
        """None if usable here, else the reason (recorded as ``skipped``)."""
        for pkg in self.packages:
            try:
                metadata.version(pkg)
            except metadata.PackageNotFoundError:
                return f"{pkg} is not installed; install it to use backend {self.name}"
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
    ) -> SolveResult: ...

    def close(self) -> None:
        """Release per-trial resources."""

    def __repr__(self) -> str:
        args = ", ".join(f"{k}={v!r}" for k, v in self.params.items())
        return f"{type(self).__name__}({args})"


def thread_count(setting: int | None) -> int:
    """A backend's ``num_threads`` setting: a number as given, null for every core this
    process may use."""
    return int(setting) if setting else max(1, len(os.sched_getaffinity(0)))


def best_sample(model: Model, samples: Iterable[Mapping[Any, int]]) -> tuple[dict[int, int], int]:
    """The sample with the lowest energy under the model's own rule. Labels that are not
    integers (a reduction's product variables) are dropped."""
    best: dict[int, int] | None = None
    best_e: int | None = None
    for s in samples:
        sample = {int(k): int(v) for k, v in s.items() if isinstance(k, Integral)}
        e = model.energy(sample)
        if best_e is None or e < best_e:
            best, best_e = sample, e
    if best is None or best_e is None:
        raise RuntimeError("the sampler returned no sample")
    return best, best_e


__all__ = ["Backend", "BackendUnavailable", "Scalar", "SolveResult", "best_sample", "thread_count"]
