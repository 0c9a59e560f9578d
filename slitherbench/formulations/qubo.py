"""QUBO form: clue (sum - n)^2; degree (deg - 2 y_p)^2; a loop cut sum x_e <= |L| - 1 as
(sum x_e + s - (|L| - 1))^2 with a binary slack s in [0, |L| - 1]: ceil(log2 |L|) bits, the
top coefficient trimmed so s never exceeds |L| - 1."""

from __future__ import annotations

from collections.abc import Sequence

from ..record import Capability
from .base import Constraint, Formulation, Model, Piece, Poly, add_poly, square_linear, sum_edges
from .penalties import clue_penalty, degree_aux_penalty, degree_aux_value


def slack_coefficients(upper: int) -> list[int]:
    """Bit weights whose subsets sum to exactly every value 0..upper (and nothing above)."""
    if upper <= 0:
        return []
    bits = upper.bit_length()  # smallest b with 2^b - 1 >= upper, i.e. ceil(log2(upper + 1))
    coeffs = [1 << k for k in range(bits - 1)]
    coeffs.append(upper - (sum(coeffs)))
    return coeffs


def slack_bits(value: int, coeffs: Sequence[int]) -> list[int]:
    """Bits for ``value`` under :func:`slack_coefficients` (top weight first, then binary)."""
    bits = [0] * len(coeffs)
    if coeffs and value >= coeffs[-1]:
        bits[-1] = 1
        value -= coeffs[-1]
    for k in range(len(coeffs) - 1):
        bits[k] = (value >> k) & 1
    return bits


class QuboFormulation(Formulation):
    name = "qubo"
    produces = frozenset({Capability.QUADRATIC, Capability.POLYNOMIAL})

    def encode(self, c: Constraint, model: Model) -> Piece:
        w = self.weights[c.kind]
        if c.kind == "clue":
            return clue_penalty(c, w)
        if c.kind == "degree":
            return degree_aux_penalty(c, model, w)
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
        coeffs = slack_coefficients(c.upper)
        s = min(max(c.upper - sum(bool(edges[e]) for e in c.edges), 0), c.upper)
        return dict(zip(piece.aux, slack_bits(s, coeffs), strict=True))
