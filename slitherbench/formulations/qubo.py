"""QUBO form: clue (sum - n)^2; degree (deg - 2 y_p)^2; a loop cut sum x_e <= |L| - 1 as
(sum x_e + s - (|L| - 1))^2 with a binary slack s in [0, |L| - 1]: ceil(log2 |L|) bits, the
top coefficient trimmed so s never exceeds |L| - 1. A region cut gets a slack the same way
(:func:`~.penalties.region_slack_penalty`)."""

from __future__ import annotations

from collections.abc import Sequence

from ..record import Capability
from .base import Constraint, Formulation, Model, Piece, Poly, add_poly, square_linear, sum_edges
from .penalties import (
    clue_penalty,
    degree_aux_penalty,
    degree_aux_value,
    region_slack_penalty,
    region_slack_value,
    slack_bits,
    slack_coefficients,
)

__all__ = ["QuboFormulation", "slack_bits", "slack_coefficients"]


class QuboFormulation(Formulation):
    name = "qubo"
    produces = frozenset({Capability.QUADRATIC, Capability.POLYNOMIAL})

    def encode(self, c: Constraint, model: Model) -> Piece:
        w = self.weights[c.kind]
        if c.kind == "clue":
            return clue_penalty(c, w)
        if c.kind == "degree":
            return degree_aux_penalty(c, model, w)
        if c.kind == "region":
            return region_slack_penalty(c, model, w)
        coeffs = slack_coefficients(c.upper)
        labels = model.new_labels(len(coeffs))
        lin = sum_edges(c.edges)
        lin.update(zip(labels, coeffs, strict=True))
        poly: Poly = {}
        add_poly(poly, square_linear(lin, -c.upper), w)
        return Piece(c, poly=poly, aux=labels)

    def aux_values(self, piece: Piece, edges: Sequence[bool]) -> dict[int, int]:
        c = piece.constraint
        if c.kind == "degree":
            return degree_aux_value(piece, edges)
        if c.kind == "region":
            return region_slack_value(piece, edges)
        coeffs = slack_coefficients(c.upper)
        s = min(max(c.upper - sum(bool(edges[e]) for e in c.edges), 0), c.upper)
        return dict(zip(piece.aux, slack_bits(s, coeffs), strict=True))
