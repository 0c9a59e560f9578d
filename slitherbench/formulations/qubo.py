"""QUBO form: clue (sum - n)^2; degree (deg - 2 y_p)^2; a loop cut sum x_e <= |L| - 1 as
(sum x_e + s - (|L| - 1))^2 with a binary slack s in [0, |L| - 1]: ceil(log2 |L|) bits, the
top coefficient trimmed so s never exceeds |L| - 1. A region cut, and any other range
(a "not all" of a rule, No-Square's block), gets a slack the same way (:func:`~.faces.slack_piece`).

With ``variables: face`` (:mod:`.faces`): clues (sum - n)^2, exactly quadratic in face bits;
the degree rule by one auxiliary per point of 4 or more faces (a quadratic gadget; points of
at most 3 faces need none), or with ``degree_mode: lazy`` only at points where a solution
had degree 4 or more (added as the run goes, like cuts); a loop cut forbids its two on-patterns over face literals by
slack; a range or a "not all" by a slack, where it stays quadratic. Region cuts over XOR
sums would be quartic: loop cuts only.

Every constraint is encoded by its shape (:data:`~.base.SHAPES`); a shape with no encoding
here is a :class:`~.base.FormUnavailable` skip."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from ..record import Capability
from .base import (
    AT_MOST_ONE,
    DEGREE,
    EQUAL,
    LOOP_CUT,
    NOT_ALL,
    PARITY,
    RANGE,
    Constraint,
    Formulation,
    Model,
    Piece,
    Poly,
    add_poly,
    square_linear,
    sum_edges,
)
from .faces import (
    at_most_one_face_piece,
    degree_gadget_piece,
    linear_poly,
    parity_aux_penalty,
    pattern_cut_piece,
    require_quadratic,
    slack_piece,
    squared_piece,
)
from .penalties import (
    at_most_one_penalty,
    clue_penalty,
    degree_aux_penalty,
    degree_aux_value,
    slack_bits,
    slack_coefficients,
)

__all__ = ["QuboFormulation", "slack_bits", "slack_coefficients"]


class QuboFormulation(Formulation):
    name = "qubo"
    produces = frozenset({Capability.QUADRATIC, Capability.POLYNOMIAL})

    def __init__(self, degree_mode: str = "aux", **params: Any) -> None:
        super().__init__(**params)
        if degree_mode not in ("aux", "lazy"):
            raise ValueError(f"degree_mode must be 'aux' or 'lazy', got {degree_mode!r}")
        if degree_mode == "lazy" and not self.faces:
            raise ValueError(
                "degree_mode=lazy is for variables=face (edge degrees need their rule)"
            )
        self.degree_mode = degree_mode
        if self.faces and self.cut == "region":
            raise ValueError(
                "the qubo form with variables=face takes loop cuts only (a region cut over XOR "
                "sums is quartic); use cut=loop or the hubo form"
            )

    @property
    def deferred(self) -> frozenset[str]:
        # lazy: a point's degree rule enters only once a solution broke it there
        return frozenset({"degree"}) if self.degree_mode == "lazy" else frozenset()

    def params(self) -> dict[str, object]:
        out = super().params()
        if self.degree_mode != "aux":  # added later: the default stays out of stored params
            out["degree_mode"] = self.degree_mode
        return out

    def describe(self) -> str:
        mode = "" if self.degree_mode == "aux" else f"[{self.degree_mode}]"
        return f"qubo{mode}{self.variables_suffix}{self.cut_suffix}"

    def encode_face(self, c: Constraint, model: Model) -> Piece:
        w = self.weight(c)
        if c.shape == EQUAL:  # quadratic on one face; a black clue may not be
            return require_quadratic(squared_piece(c, model, w, c.allowed[0]), self.describe())
        if c.shape == AT_MOST_ONE:
            return require_quadratic(at_most_one_face_piece(c, model, w), self.describe())
        if c.shape in (RANGE, NOT_ALL):  # a slack over the faces (or the XOR sums)
            return require_quadratic(slack_piece(c, model, w), self.describe())
        if c.shape == DEGREE:
            return degree_gadget_piece(c, model, w)
        if c.shape == LOOP_CUT:
            return pattern_cut_piece(c, model, w)
        raise self.unencodable(c)

    def encode(self, c: Constraint, model: Model) -> Piece:
        w = self.weight(c)
        if c.shape == EQUAL:
            return clue_penalty(c, w)
        if c.shape == AT_MOST_ONE:
            return at_most_one_penalty(c, w)
        if c.shape == PARITY:  # x_e + c_f + c_g = 2 w_e: one auxiliary per edge
            return parity_aux_penalty(c, model, w)
        if c.shape in (RANGE, NOT_ALL):  # a slack: "not all" is the range 0..n-1
            return slack_piece(c, model, w, lhs=linear_poly(c))
        if c.shape == DEGREE:
            return degree_aux_penalty(c, model, w)
        if c.shape == LOOP_CUT:
            return self._loop_cut(c, model, w)
        raise self.unencodable(c)

    def _loop_cut(self, c: Constraint, model: Model, w: int) -> Piece:
        """(sum x_e + s - (|L| - 1))^2, the slack s in [0, |L| - 1]."""
        coeffs = slack_coefficients(c.upper)
        labels = model.new_labels(len(coeffs))
        lin = sum_edges(c.edges)
        lin.update(zip(labels, coeffs, strict=True))
        poly: Poly = {}
        add_poly(poly, square_linear(lin, -c.upper), w)
        return Piece(c, poly=poly, aux=labels)

    def aux_values(self, piece: Piece, edges: Sequence[bool]) -> dict[int, int]:
        c = piece.constraint
        if c.shape == DEGREE:
            return degree_aux_value(piece, edges)
        coeffs = slack_coefficients(c.upper)  # a loop cut's slack
        s = min(max(c.upper - sum(bool(edges[e]) for e in c.edges), 0), c.upper)
        return dict(zip(piece.aux, slack_bits(s, coeffs), strict=True))
