"""HUBO form: clue (sum - n)^2; degree by auxiliary y_p or by the exact multilinear
polynomial; a loop cut is the product of the loop's edge variables (degree |L|). A region cut
takes the QUBO's slack encoding: its product form would have 2^|border| terms."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from .base import Constraint, Formulation, Model, Piece
from .penalties import (
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
        if c.kind == "clue":
            return clue_penalty(c, w)
        if c.kind == "degree":
            if self.degree_mode == "aux":
                return degree_aux_penalty(c, model, w)
            return degree_exact_penalty(c, w)
        if c.kind == "region":
            return region_slack_penalty(c, model, w)
        return Piece(c, poly={tuple(sorted(c.edges)): w})

    def aux_values(self, piece: Piece, edges: Sequence[bool]) -> dict[int, int]:
        if piece.constraint.kind == "region":
            return region_slack_value(piece, edges)
        return degree_aux_value(piece, edges)

    def params(self) -> dict[str, object]:
        return {"degree_mode": self.degree_mode, **super().params()}

    def describe(self) -> str:
        return f"hubo[{self.degree_mode}]{self.cut_suffix}"
