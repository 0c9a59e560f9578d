"""Penalty encodings shared by the HUBO and QUBO forms."""

from __future__ import annotations

from collections.abc import Sequence
from itertools import combinations
from math import comb

from .base import Constraint, Model, Piece, Poly, add_poly, square_linear, sum_edges


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


def clue_penalty(c: Constraint, weight: int) -> Piece:
    """(sum - n)^2."""
    poly: Poly = {}
    add_poly(poly, square_linear(sum_edges(c.edges), -c.allowed[0]), weight)
    return Piece(c, poly=poly)


def at_most_one_penalty(c: Constraint, weight: int) -> Piece:
    """sum over pairs x_a x_b: 0 exactly when at most one is on (Colorlink's one colour per
    edge), quadratic with no auxiliary."""
    pairs = combinations(sorted(c.edges), 2)
    return Piece(c, poly={pair: weight for pair in pairs})


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


def exact_degree_coeffs(max_degree: int) -> tuple[int, ...]:
    """Coefficients a_1..a_D of the elementary symmetric polynomials e_k in the degree penalty
    with no auxiliary variable: g(d) = sum_k a_k C(d, k) is 0 at d = 0 and 2 and 1 at every
    other degree up to ``max_degree`` (binomial inversion: a_k = sum_j (-1)^(k-j) C(k, j) g(j)).
    A polynomial of degree D is exact for points of at most D edges only; the coefficients
    alternate and grow (a_5 = 11, a_6 = -16), which is why each point takes exactly as many as
    its own degree."""
    g = [0 if d in (0, 2) else 1 for d in range(max_degree + 1)]
    return tuple(
        sum((-1) ** (k - j) * comb(k, j) * g[j] for j in range(k + 1))
        for k in range(1, max_degree + 1)
    )


# The square grid's points (degree up to 4): g(0)=0, g(1)=1, g(2)=0, g(3)=1, g(4)=1.
EXACT_DEGREE_COEFFS = exact_degree_coeffs(4)


def degree_exact_penalty(c: Constraint, weight: int) -> Piece:
    poly: Poly = {}
    for k, a in enumerate(exact_degree_coeffs(len(c.edges)), start=1):
        if a:
            for subset in combinations(sorted(c.edges), k):
                poly[subset] = poly.get(subset, 0) + weight * a
    return Piece(c, poly=poly)
