"""Native constraints, as on the reference page: qbpp.cons for clue sums, degree in {0, 2}
and each loop cut sum x_e <= |L| - 1. No auxiliary variables; only pyqbpp solvers take it.
With ``variables: face`` the same constraints over x_e = c_f XOR c_g (:mod:`.faces`). Every
shape is a sum in an allowed set, which is what qbpp.cons takes: no shape is refused."""

from __future__ import annotations

from slitherbench.method.record import Capability
from slitherbench.models.formulations.base import (
    Constraint,
    Formulation,
    Model,
    NativeConstraint,
    Piece,
)


class ConsFormulation(Formulation):
    name = "cons"
    produces = frozenset({Capability.CONSTRAINTS})

    def encode(self, c: Constraint, model: Model) -> Piece:
        # On faces, the constraint over the XOR sums: pyqbpp's cons takes a polynomial and
        # creates no counted variable, so reference10 is exactly its 100 faces.
        native = NativeConstraint(c, self.weight(c))
        return Piece(c, native=native, lhs=model.variables.native_lhs(c))
