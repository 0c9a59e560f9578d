"""Native constraints, as on the reference page: qbpp.cons for clue sums, degree in {0, 2}
and each loop cut sum x_e <= |L| - 1. No auxiliary variables; only pyqbpp solvers take it."""

from __future__ import annotations

from ..record import Capability
from .base import Constraint, Formulation, Model, NativeConstraint, Piece


class ConsFormulation(Formulation):
    name = "cons"
    produces = frozenset({Capability.CONSTRAINTS})

    def encode(self, c: Constraint, model: Model) -> Piece:
        return Piece(c, native=NativeConstraint(c, self.weights[c.kind]))
