"""Penalty encodings shared by the HUBO and QUBO forms."""

from __future__ import annotations

from collections.abc import Sequence
from itertools import combinations

from .base import Constraint, Model, Piece, Poly, add_poly, square_linear, sum_edges


def clue_penalty(c: Constraint, weight: int) -> Piece:
    """(sum - n)^2."""
    poly: Poly = {}
    add_poly(poly, square_linear(sum_edges(c.edges), -c.allowed[0]), weight)
    return Piece(c, poly=poly)


def degree_aux_penalty(c: Constraint, model: Model, weight: int) -> Piece:
    """(deg - 2 y_p)^2 with auxiliary y_p (label E + p)."""
    y = model.puzzle.num_edges + c.index
    coeffs = sum_edges(c.edges)
    coeffs[y] = -2
    poly: Poly = {}
    add_poly(poly, square_linear(coeffs, 0), weight)
    return Piece(c, poly=poly, aux=(y,))


def degree_aux_value(piece: Piece, edges: Sequence[bool]) -> dict[int, int]:
    deg = sum(bool(edges[e]) for e in piece.constraint.edges)
    return {piece.aux[0]: int(deg >= 2)}


# Coefficients of the elementary symmetric polynomials e1..e4 in the degree penalty with no
# auxiliary variable: g(d) = sum_k a_k C(d, k) gives g(0)=0, g(1)=1, g(2)=0, g(3)=1, g(4)=1.
EXACT_DEGREE_COEFFS = (1, -2, 4, -7)


def degree_exact_penalty(c: Constraint, weight: int) -> Piece:
    poly: Poly = {}
    for k, a in enumerate(EXACT_DEGREE_COEFFS[: len(c.edges)], start=1):
        for subset in combinations(sorted(c.edges), k):
            poly[subset] = poly.get(subset, 0) + weight * a
    return Piece(c, poly=poly)
