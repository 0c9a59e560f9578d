"""The backend interface: a small sampler over a :class:`~slitherbench.models.formulations.Model`.

A backend declares what it ``takes`` (:class:`~slitherbench.method.record.Capability`); it runs a
formulation that produces one of those. ``solve`` returns a
:class:`~slitherbench.method.record.SolveResult`. The runner judges samples with the model's own
energy, never with a number the backend reports.
"""

from __future__ import annotations

import importlib
import os
from abc import ABC, abstractmethod
from collections.abc import Iterable, Mapping
from importlib import metadata
from numbers import Integral
from typing import Any, ClassVar

from slitherbench.method.record import Capability, Scalar, SolveResult
from slitherbench.models.formulations import Formulation, Model


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
    # Modules the solve imports: :meth:`load` imports them in the trial's process before the
    # trial's clock starts, so a solve forked into a child (interruptible False) finds them
    # loaded instead of importing them again per solve (openjij: 0.3-0.7 s each time).
    imports: ClassVar[tuple[str, ...]] = ()
    # The SolveResult field that the runner adds the time of :meth:`sync` to.
    sync_time_field: ClassVar[str] = "start_s"
    # The main effort parameter tuning may search: name -> (low, high), searched on a log
    # scale. Empty: the backend's effort is its time limit alone.
    effort: ClassVar[dict[str, tuple[int, int]]] = {}
    # The variables it solves on (a formulation's ``variables``): a backend without a model
    # on face variables skips a ``variables=face`` cell in one line rather than run the edge
    # model under a face label.
    variables: ClassVar[frozenset[str]] = frozenset({"edge", "face"})
    # False for a baseline that is not expected to reach energy 0 (steepest descent).
    expects_solutions: ClassVar[bool] = True

    def __init__(self, **params: Any) -> None:
        self.params = dict(params)

    def unsupported_reason(self, formulation: Formulation) -> str | None:
        if formulation.variables not in self.variables:
            return (
                f"backend {self.name} has no model on {formulation.variables} variables "
                f"(it solves on {', '.join(sorted(self.variables))} variables)"
            )
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

    def load(self) -> None:
        """Load what the solve needs (``imports``) into this process. The runner calls it
        before a trial's clock starts: once per worker process, and in the fresh process of
        an isolated trial before the trial (that process's time is ``process_wall_s``)."""
        for name in self.imports:
            importlib.import_module(name)

    def start(self, model: Model) -> None:
        """Per-trial set-up before the first solve (may raise BackendUnavailable)."""

    def sync(self, model: Model) -> None:
        """Bring the backend's own copy of the model (a polynomial dict, a reduced BQM) up to
        date with the pieces added since the last solve.

        The runner calls it in the trial's process before every solve, so a solve forked into
        a child inherits the copy and work kept here is done once per trial and extended by
        each iteration's cuts, not redone per solve. ``solve`` may call it too (a no-op when
        nothing was added), so a backend also works when called directly."""

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


class PolynomialCopy:
    """A backend's running copy of a model's polynomial, float coefficients (what samplers
    take), the constant apart; extended by the pieces added since the last :meth:`sync`.

    >>> from slitherbench.models.formulations import HuboFormulation, Model
    >>> from slitherbench.sources.library import generated
    >>> model = Model.build(generated(3, 3, 1), HuboFormulation())
    >>> copy = PolynomialCopy()
    >>> _ = copy.sync(model)
    >>> model.add_cut([0, 1, 2, 3])
    ... # doctest: +ELLIPSIS
    Piece(...)
    >>> added = copy.sync(model)        # only the cut's terms are new
    >>> {**copy.terms, (): copy.constant} == {t: float(c) for t, c in model.polynomial().items()}
    True
    """

    def __init__(self) -> None:
        self.model: Model | None = None
        self.synced = 0  # pieces of self.model already in the copy
        self.terms: dict[tuple[int, ...], float] = {}
        self.constant = 0.0

    def sync(self, model: Model) -> dict[tuple[int, ...], int]:
        """Extend the copy (start it anew for another model); returns the terms added."""
        if model is not self.model:
            self.model, self.synced, self.terms, self.constant = model, 0, {}, 0.0
        delta = model.poly_since(self.synced)
        self.synced = len(model.pieces)
        for term, c in delta.items():
            if not term:
                self.constant += c
                continue
            v = self.terms.get(term, 0.0) + c
            if v:
                self.terms[term] = v
            else:
                self.terms.pop(term, None)
        return delta


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


__all__ = [
    "Backend",
    "BackendUnavailable",
    "PolynomialCopy",
    "Scalar",
    "SolveResult",
    "best_sample",
    "thread_count",
]
