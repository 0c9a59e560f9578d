"""Penalty encodings shared by the HUBO and QUBO forms, each written once over the model's
variables (:mod:`.variables`): a constraint's terms and left-hand side are polynomials over
the labels (x_e itself with edge variables, c_f XOR c_g with face variables), so the same
function gives the edge form's penalty and the face form's substitution of it.

Every function here is ``(constraint, model, weight) -> Piece``: the piece's polynomial, the
labels it adds (``aux``) and how a completion fills them (``fill``: their best values for a
sample of the other labels)."""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from itertools import combinations
from math import comb

from slitherbench.models.formulations.base import Model, Piece
from slitherbench.models.formulations.polynomial import Poly, add_poly, evaluate, poly_mul
from slitherbench.puzzles.description import Constraint


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


def squared_piece(c: Constraint, model: Model, weight: int, target: int) -> Piece:
    """(lhs - target)^2: a clue's penalty. Quadratic in edge bits, and in face bits too (around
    face f every x_e = c_f + (1 - 2 c_f) c_g and (1 - 2 c_f)^2 = 1: the cubic terms cancel)."""
    p = dict(model.variables.lhs(c))
    add_poly(p, {(): -target})
    poly: Poly = {}
    add_poly(poly, poly_mul(p, p), weight)
    return Piece(c, poly=poly)


def at_most_one_piece(c: Constraint, model: Model, weight: int) -> Piece:
    """The sum over pairs of terms of their products: 0 exactly when at most one is on
    (Colorlink's one colour per edge); quadratic on edges, quartic on faces, no auxiliary."""
    poly: Poly = {}
    for a, b in combinations(_terms_by_label(c, model), 2):
        add_poly(poly, poly_mul(a, b), weight)
    return Piece(c, poly=poly)


def _terms_by_label(c: Constraint, model: Model) -> list[Poly]:
    """The row's terms in the order of their labels (edges or faces): the order the edge
    forms always built these penalties in, so the pieces' terms keep their order."""
    terms = model.variables.terms(c)
    order = sorted(range(len(terms)), key=(c.faces or c.edges).__getitem__)
    return [terms[i] for i in order]


def product_piece(c: Constraint, model: Model, weight: int) -> Piece:
    """A "not all" row as the product of its terms: 1 only when every term is on (the HUBO's
    loop cut on edges; on faces a product of XOR sums has 2^k terms: short rows only)."""
    prod: Poly = {(): weight}
    for term in model.variables.terms(c):
        prod = poly_mul(prod, term)
    return Piece(c, poly=prod)


def slack_term(
    model: Model, lhs: Poly, lower: int, upper: int
) -> tuple[Poly, tuple[int, ...], Callable]:
    """lower <= lhs <= upper as (lhs - lower - s)^2 with s in [0, upper - lower] in binary
    slack bits; returns the penalty, the bits' labels, and the bits that fit a sample."""
    coeffs = slack_coefficients(upper - lower)
    labels = model.new_labels(len(coeffs))
    p = dict(lhs)
    add_poly(p, {(): -lower})
    add_poly(p, {(s,): -a for s, a in zip(labels, coeffs, strict=True)})

    def fill(sample: Mapping[int, int]) -> dict[int, int]:
        s = min(max(evaluate(lhs, sample) - lower, 0), upper - lower)
        return dict(zip(labels, slack_bits(s, coeffs), strict=True))

    return poly_mul(p, p), labels, fill


def slack_piece(c: Constraint, model: Model, weight: int) -> Piece:
    """c's range by a slack over its left-hand side (region cuts, a "not all" in the QUBO,
    any range of a rule)."""
    poly, labels, fill = slack_term(model, model.variables.lhs(c), c.lower, c.upper)
    out: Poly = {}
    add_poly(out, poly, weight)
    return Piece(c, poly=out, aux=labels, fill=fill)


def degree_aux_piece(c: Constraint, model: Model, weight: int) -> Piece:
    """(deg - 2 y_p)^2 with the point's auxiliary y_p (the label after the variables' own):
    quadratic on edges, quartic on faces."""
    y = model.variables.count + c.index
    degree = model.variables.lhs(c)
    p = {**degree, (y,): -2}
    poly: Poly = {}
    add_poly(poly, poly_mul(p, p), weight)

    def fill(sample: Mapping[int, int]) -> dict[int, int]:
        return {y: int(evaluate(degree, sample) >= 2)}

    return Piece(c, poly=poly, aux=(y,), fill=fill)


def parity_aux_piece(c: Constraint, model: Model, weight: int) -> Piece:
    """sum in {0, 2} as (sum - 2 w)^2 with a fresh auxiliary w (an edge form's face channel,
    x_e + c_f + c_g, in the QUBO)."""
    (w,) = model.new_labels(1)
    lhs = model.variables.lhs(c)
    p = {**lhs, (w,): -2}
    poly: Poly = {}
    add_poly(poly, poly_mul(p, p), weight)
    return Piece(c, poly=poly, aux=(w,), fill=lambda s: {w: int(evaluate(lhs, s) >= 2)})


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


def exact_degree_poly(terms: Sequence[Poly]) -> Poly:
    """1 when the number of terms that are on is outside {0, 2}, else 0: sum_k a_k e_k over
    the terms (multilinear, so over face labels it is the unique polynomial of that function:
    zero at points of at most 3 faces, a quartic on the square grid)."""
    total: Poly = {}
    for k, a in enumerate(exact_degree_coeffs(len(terms)), start=1):
        if not a:
            continue
        for subset in combinations(terms, k):
            prod: Poly = {(): 1}
            for term in subset:
                prod = poly_mul(prod, term)
            add_poly(total, prod, a)
    return total


def exact_degree_piece(c: Constraint, model: Model, weight: int) -> Piece:
    """The HUBO's degree rule with no auxiliary (:func:`exact_degree_poly` of the row's
    terms, in label order); also the HUBO's face channel (a sum of three in {0, 2})."""
    poly = exact_degree_poly(_terms_by_label(c, model))
    return Piece(c, poly={t: weight * a for t, a in poly.items()})


def degree_exact_penalty(c: Constraint, weight: int) -> Piece:
    """:func:`exact_degree_piece` over the row's own labels (edge variables), for code that
    has a constraint and no model."""
    poly = exact_degree_poly([{(label,): 1} for label in sorted(c.edges)])
    return Piece(c, poly={t: weight * a for t, a in poly.items()})
