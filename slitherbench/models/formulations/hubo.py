"""HUBO form: clue (sum - n)^2; degree by auxiliary y_p or by the exact multilinear
polynomial; a loop cut is the product of the loop's edge variables (degree |L|). A region cut
takes the QUBO's slack encoding: its product form would have 2^|border| terms.

With ``variables: face`` (:mod:`.faces`): clues (sum - n)^2, exactly quadratic in face bits;
degree ``exact`` is the ban of 4+ changes around a point (a quartic on squares, nothing on the
honeycomb), ``aux`` is (deg - 2 y_p)^2 over the XOR sums; a loop cut forbids its two
on-patterns over face literals by slack (quadratic); region cuts by slack over the XOR sums
(quartic); a "not all" over faces (No-Square's block) is the product of the faces.

Every constraint is encoded by its shape (:data:`~.base.SHAPES`); a shape with no encoding
here is a :class:`~.base.FormUnavailable` skip."""

from __future__ import annotations

from types import MappingProxyType
from typing import Any

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
)
from slitherbench.models.formulations.faces import pattern_cut_piece
from slitherbench.models.formulations.penalties import (
    at_most_one_piece,
    degree_aux_piece,
    exact_degree_piece,
    product_piece,
    slack_piece,
    squared_piece,
)


class HuboFormulation(Formulation):
    name = "hubo"
    # A loop cut over faces by its two on-patterns (quadratic): its product of |L| XOR sums
    # would have up to 4^|L| terms.
    face_encodings = MappingProxyType({LOOP_CUT: pattern_cut_piece})

    def __init__(self, degree_mode: str = "aux", **params: Any) -> None:
        super().__init__(**params)
        if degree_mode not in ("aux", "exact"):
            raise ValueError(f"degree_mode must be 'aux' or 'exact', got {degree_mode!r}")
        self.degree_mode = degree_mode

    def encode(self, c: Constraint, model: Model) -> Piece:
        w = self.weight(c)
        if c.shape == EQUAL:
            return squared_piece(c, model, w, c.allowed[0])
        if c.shape == DEGREE:
            if self.degree_mode == "aux":
                return degree_aux_piece(c, model, w)
            return exact_degree_piece(c, model, w)
        if c.shape == AT_MOST_ONE:
            return at_most_one_piece(c, model, w)
        if c.shape == RANGE:  # a slack (quadratic on edges); the product form of a region
            return slack_piece(c, model, w)  # cut would have 2^|border| terms
        if c.shape == PARITY:  # x_e + c_f + c_g in {0, 2}: the exact parity penalty, cubic
            return exact_degree_piece(c, model, w)
        if c.shape in (LOOP_CUT, NOT_ALL) and not c.coeffs:  # the product of the terms
            return product_piece(c, model, w)
        raise self.unencodable(c)

    def params(self) -> dict[str, object]:
        return {"degree_mode": self.degree_mode, **super().params()}

    def describe(self) -> str:
        return f"hubo[{self.degree_mode}]{self.variables_suffix}{self.cut_suffix}"
