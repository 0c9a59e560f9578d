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

from collections.abc import Mapping
from types import MappingProxyType
from typing import Any

from slitherbench.method.record import Capability
from slitherbench.models.formulations.base import (
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
    evaluate,
    poly_mul,
)
from slitherbench.models.formulations.faces import (
    degree_gadget_piece,
    pattern_cut_piece,
    require_quadratic,
)
from slitherbench.models.formulations.penalties import (
    at_most_one_piece,
    degree_aux_piece,
    parity_aux_piece,
    slack_bits,
    slack_coefficients,
    slack_piece,
    squared_piece,
)

__all__ = ["QuboFormulation", "slack_bits", "slack_coefficients"]


class QuboFormulation(Formulation):
    name = "qubo"
    produces = frozenset({Capability.QUADRATIC, Capability.POLYNOMIAL})
    # On faces, a point's degree rule by its quadratic gadget (the (deg - 2 y)^2 over XOR sums
    # is quartic) and a loop cut by its two on-patterns (quadratic).
    face_encodings = MappingProxyType({DEGREE: degree_gadget_piece, LOOP_CUT: pattern_cut_piece})

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

    def encode_piece(self, c: Constraint, model: Model) -> Piece:
        # Every piece quadratic, or a one-line skip: on faces a rule across colours
        # (Colorlink's black clue, one colour per edge) becomes a product of XOR sums.
        return require_quadratic(super().encode_piece(c, model), self.describe())

    def encode(self, c: Constraint, model: Model) -> Piece:
        w = self.weight(c)
        if c.shape == EQUAL:
            return squared_piece(c, model, w, c.allowed[0])
        if c.shape == AT_MOST_ONE:
            return at_most_one_piece(c, model, w)
        if c.shape == PARITY:  # x_e + c_f + c_g = 2 w_e: one auxiliary per edge
            return parity_aux_piece(c, model, w)
        if c.shape in (RANGE, NOT_ALL):  # a slack: "not all" is the range 0..n-1
            return slack_piece(c, model, w)
        if c.shape == DEGREE:
            return degree_aux_piece(c, model, w)
        if c.shape == LOOP_CUT:
            return self._loop_cut(c, model, w)
        raise self.unencodable(c)

    def _loop_cut(self, c: Constraint, model: Model, w: int) -> Piece:
        """(sum x_e + s - (|L| - 1))^2, the slack s in [0, |L| - 1] (the page's cut)."""
        coeffs = slack_coefficients(c.upper)
        labels = model.new_labels(len(coeffs))
        lhs = model.variables.lhs(c)
        p = dict(lhs)
        p.update({(s,): a for s, a in zip(labels, coeffs, strict=True)})
        add_poly(p, {(): -c.upper})
        poly: Poly = {}
        add_poly(poly, poly_mul(p, p), w)

        def fill(sample: Mapping[int, int]) -> dict[int, int]:
            s = min(max(c.upper - evaluate(lhs, sample), 0), c.upper)
            return dict(zip(labels, slack_bits(s, coeffs), strict=True))

        return Piece(c, poly=poly, aux=labels, fill=fill)
