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

from collections.abc import Sequence
from typing import Any

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
)
from .faces import (
    at_most_one_face_piece,
    degree_aux_face_piece,
    degree_ban_poly,
    linear_poly,
    pattern_cut_piece,
    product_piece,
    slack_piece,
    squared_piece,
)
from .penalties import (
    at_most_one_penalty,
    clue_penalty,
    degree_aux_penalty,
    degree_aux_value,
    degree_exact_penalty,
)


class HuboFormulation(Formulation):
    name = "hubo"

    def __init__(self, degree_mode: str = "aux", **params: Any) -> None:
        super().__init__(**params)
        if degree_mode not in ("aux", "exact"):
            raise ValueError(f"degree_mode must be 'aux' or 'exact', got {degree_mode!r}")
        self.degree_mode = degree_mode

    def encode(self, c: Constraint, model: Model) -> Piece:
        w = self.weight(c)
        if c.shape == EQUAL:
            return clue_penalty(c, w)
        if c.shape == DEGREE:
            if self.degree_mode == "aux":
                return degree_aux_penalty(c, model, w)
            return degree_exact_penalty(c, w)
        if c.shape == AT_MOST_ONE:
            return at_most_one_penalty(c, w)
        if c.shape == RANGE:  # a slack (quadratic); the product form of a region cut would
            return slack_piece(c, model, w, lhs=linear_poly(c))  # have 2^|border| terms
        if c.shape == PARITY:  # x_e + c_f + c_g in {0, 2}: the exact parity penalty, cubic
            return degree_exact_penalty(c, w)
        if c.shape in (LOOP_CUT, NOT_ALL) and not c.coeffs:  # the product of the terms
            return Piece(c, poly={tuple(sorted(c.edges)): w})
        raise self.unencodable(c)

    def encode_face(self, c: Constraint, model: Model) -> Piece:
        w = self.weight(c)
        if c.shape == EQUAL:  # a black clue spans colours: quartic
            return squared_piece(c, model, w, c.allowed[0])
        if c.shape == AT_MOST_ONE:
            return at_most_one_face_piece(c, model, w)
        if c.shape == RANGE:
            return slack_piece(c, model, w)
        if c.shape == DEGREE:
            if self.degree_mode == "aux":
                return degree_aux_face_piece(c, model, w)
            ban = degree_ban_poly(model.puzzle.board, c.index)
            return Piece(c, poly={t: w * a for t, a in ban.items()})
        if c.shape == NOT_ALL and not c.coeffs:  # the product of the faces (or of the XORs)
            return product_piece(c, model, w)
        if c.shape == LOOP_CUT:
            return pattern_cut_piece(c, model, w)
        raise self.unencodable(c)

    def aux_values(self, piece: Piece, edges: Sequence[bool]) -> dict[int, int]:
        return degree_aux_value(piece, edges)

    def params(self) -> dict[str, object]:
        return {"degree_mode": self.degree_mode, **super().params()}

    def describe(self) -> str:
        return f"hubo[{self.degree_mode}]{self.variables_suffix}{self.cut_suffix}"
