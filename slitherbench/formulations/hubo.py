"""HUBO form: clue (sum - n)^2; degree by auxiliary y_p or by the exact multilinear
polynomial; a loop cut is the product of the loop's edge variables (degree |L|). A region cut
takes the QUBO's slack encoding: its product form would have 2^|border| terms.

With ``variables: face`` (:mod:`.faces`): clues (sum - n)^2, exactly quadratic in face bits;
degree ``exact`` is the ban of 4+ changes around a point (a quartic on squares, nothing on the
honeycomb), ``aux`` is (deg - 2 y_p)^2 over the XOR sums; a loop cut forbids its two
on-patterns over face literals by slack (quadratic); region cuts by slack over the XOR sums
(quartic); No-Square is the product of the block's four faces."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from .base import Constraint, Formulation, Model, Piece
from .faces import (
    at_most_one_face_piece,
    degree_aux_face_piece,
    degree_ban_poly,
    pattern_cut_piece,
    slack_piece,
    squared_piece,
)
from .penalties import (
    at_most_one_penalty,
    clue_penalty,
    degree_aux_penalty,
    degree_aux_value,
    degree_exact_penalty,
    region_slack_penalty,
    region_slack_value,
)


class HuboFormulation(Formulation):
    name = "hubo"

    def __init__(self, degree_mode: str = "aux", **params: Any) -> None:
        super().__init__(**params)
        if degree_mode not in ("aux", "exact"):
            raise ValueError(f"degree_mode must be 'aux' or 'exact', got {degree_mode!r}")
        self.degree_mode = degree_mode

    def encode(self, c: Constraint, model: Model) -> Piece:
        w = self.weights[c.kind]
        if c.kind in ("clue", "black"):
            return clue_penalty(c, w)
        if c.kind == "degree":
            if self.degree_mode == "aux":
                return degree_aux_penalty(c, model, w)
            return degree_exact_penalty(c, w)
        if c.kind == "exclusive":
            return at_most_one_penalty(c, w)
        if c.kind == "nonempty":  # at least one line in a colour: by slack (quadratic)
            return slack_piece(c, model, w, lhs={(e,): 1 for e in c.edges})
        if c.kind == "region":
            return region_slack_penalty(c, model, w)
        if c.kind == "channel":  # x_e + c_f + c_g in {0, 2}: the exact parity penalty, cubic
            return degree_exact_penalty(c, w)
        # a loop cut: the product of its edges; No-Square: of the block's four face labels
        return Piece(c, poly={tuple(sorted(c.edges)): w})

    def encode_face(self, c: Constraint, model: Model) -> Piece:
        w = self.weights[c.kind]
        if c.kind in ("clue", "black"):  # a black clue spans colours: quartic
            return squared_piece(c, model, w, c.allowed[0])
        if c.kind == "exclusive":
            return at_most_one_face_piece(c, model, w)
        if c.kind == "nonempty":
            return slack_piece(c, model, w)
        if c.kind == "degree":
            if self.degree_mode == "aux":
                return degree_aux_face_piece(c, model, w)
            ban = degree_ban_poly(model.puzzle.board, c.index)
            return Piece(c, poly={t: w * a for t, a in ban.items()})
        if c.kind == "region":
            return slack_piece(c, model, w)
        if c.kind == "no_square":
            return Piece(c, poly={tuple(sorted(c.faces)): w})
        return pattern_cut_piece(c, model, w)

    def aux_values(self, piece: Piece, edges: Sequence[bool]) -> dict[int, int]:
        if piece.constraint.kind == "region":
            return region_slack_value(piece, edges)
        return degree_aux_value(piece, edges)

    def params(self) -> dict[str, object]:
        return {"degree_mode": self.degree_mode, **super().params()}

    def describe(self) -> str:
        return f"hubo[{self.degree_mode}]{self.variables_suffix}{self.cut_suffix}"
