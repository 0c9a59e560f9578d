"""Face variables: one binary per face (1 inside the loop, 0 outside; the board's outside is
fixed at 0), and every edge a function of its two faces, x_e = c_f XOR c_g = c_f + c_g - 2 c_f c_g.

Every even-degree edge set of a planar board is the border of exactly one set of faces, so the
face colourings are in one-to-one correspondence with the edge sets whose points all have even
degree; the constraint description (clue sums, degrees in {0, 2}, cuts) is unchanged and is
substituted here. Consequences the forms use (each checked exhaustively in the tests):

- a clue penalty (sum x_e - n)^2 is exactly quadratic in face bits: around face f every
  x_e = c_f + (1 - 2 c_f) c_g and (1 - 2 c_f)^2 = 1, so the cubic terms cancel;
- a point's degree is the number of colour changes around it, always even: the rule is
  "no 4 (or 6, ...)", a ban that vanishes on points of at most 3 faces (the whole honeycomb);
- a loop L with every edge on and every degree in {0, 2} has all its inside neighbours of one
  colour a and all its outside neighbours of 1 - a (:func:`loop_sides`), so forbidding the
  two patterns is the loop cut, written linearly over face literals.

Polynomials are :data:`~.base.Poly` over the model's labels: faces are labels ``0..F-1``, a
point's auxiliary ``F + p``, slack bits after ``F + P``.
"""

from __future__ import annotations

import math
from collections.abc import Callable, Mapping, Sequence
from itertools import combinations, product

from ..boards import Board
from .base import (
    Constraint,
    FormUnavailable,
    Model,
    NativeConstraint,
    Piece,
    Poly,
    add_poly,
    evaluate,
    square_linear,
)
from .penalties import exact_degree_coeffs, slack_bits, slack_coefficients


def poly_mul(p: Mapping[tuple[int, ...], int], q: Mapping[tuple[int, ...], int]) -> Poly:
    """The product over binary labels (b^2 = b: each term's labels as a sorted set)."""
    if p is q and all(len(t) <= 1 for t in p):  # a linear form squared (the slack cuts)
        return square_linear({t[0]: a for t, a in p.items() if t}, p.get((), 0))
    out: Poly = {}
    for s, a in p.items():
        for t, b in q.items():
            term = tuple(sorted(set(s) | set(t)))
            v = out.get(term, 0) + a * b
            if v:
                out[term] = v
            else:
                out.pop(term, None)
    return out


def edge_poly(board: Board, e: int) -> Poly:
    """x_e in face labels: c_f + c_g - 2 c_f c_g, or c_f beside the outside."""
    f, g = board.edge_faces[e]
    if g < 0:
        return {(f,): 1}
    return {(f,): 1, (g,): 1, (f, g): -2}


def lhs_poly(board: Board, c: Constraint) -> Poly:
    """A constraint's left-hand side over face labels."""
    if c.faces:
        return {(f,): 1 for f in c.faces}
    out: Poly = {}
    for e, a in c.linear().items():
        add_poly(out, edge_poly(board, e), a)
    return out


def linear_poly(c: Constraint) -> Poly:
    """A constraint's left-hand side over its own labels (edges, or an edge form's face
    labels), as a polynomial."""
    return {(label,): a for label, a in c.linear().items()}


def product_piece(c: Constraint, model: Model, weight: int) -> Piece:
    """A "not all" row as the product of its terms: of the faces for a row on face colours,
    else of the edges' XOR sums (2^k terms for k edges: for short rows only)."""
    if c.faces:
        return Piece(c, poly={tuple(sorted(c.faces)): weight})
    prod: Poly = {(): weight}
    for e in c.edges:
        prod = poly_mul(prod, edge_poly(model.puzzle.board, e))
    return Piece(c, poly=prod)


def native_piece(c: Constraint, model: Model, weight: int) -> Piece:
    """cons: the constraint as it is, over the XOR sums (pyqbpp takes polynomial sums)."""
    return Piece(c, native=NativeConstraint(c, weight), lhs=lhs_poly(model.puzzle.board, c))


def squared_piece(c: Constraint, model: Model, weight: int, target: int) -> Piece:
    """(lhs - target)^2: the clue penalty (quadratic in face bits, see the module notes)."""
    p = lhs_poly(model.puzzle.board, c)
    add_poly(p, {(): -target})
    poly: Poly = {}
    add_poly(poly, poly_mul(p, p), weight)
    return Piece(c, poly=poly)


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


def slack_piece(c: Constraint, model: Model, weight: int, lhs: Poly | None = None) -> Piece:
    """c's range by a slack (region cuts, "not all" in the QUBO); ``lhs`` over the model's
    labels, by default the left-hand side over face labels."""
    lhs = lhs_poly(model.puzzle.board, c) if lhs is None else lhs
    poly, labels, fill = slack_term(model, lhs, c.lower, c.upper)
    out: Poly = {}
    add_poly(out, poly, weight)
    return Piece(c, poly=out, aux=labels, fill=fill)


def at_most_one_face_piece(c: Constraint, model: Model, weight: int) -> Piece:
    """sum over pairs x_a x_b with each x an XOR of faces (quartic): one colour per edge."""
    board, poly = model.puzzle.board, {}
    for a, b in combinations(sorted(c.edges), 2):
        add_poly(poly, poly_mul(edge_poly(board, a), edge_poly(board, b)), weight)
    return Piece(c, poly=poly)


def require_quadratic(piece: Piece, form: str) -> Piece:
    """The piece, or :class:`FormUnavailable` where a face substitution made it more than
    quadratic (Colorlink's rules across colours: products of XORs of different faces)."""
    degree = max((len(t) for t in piece.poly or ()), default=0)
    if degree > 2:
        raise FormUnavailable(
            f"the {form} form cannot write the {piece.constraint.kind} rule quadratically over "
            f"face variables (degree {degree}); use hubo/face or edge variables"
        )
    return piece


# -- loop cuts --------------------------------------------------------------------------------
def loop_sides(board: Board, loop: Sequence[int]) -> tuple[list[int], list[int]]:
    """The faces beside a loop inside it and outside it (-1: the board's outside)."""
    on = set(loop)
    inside = board.inside([e in on for e in range(board.num_edges)])
    ins: set[int] = set()
    outs: set[int] = set()
    for e in on:
        for f in board.edge_faces[e]:
            (ins if f >= 0 and inside[f] else outs).add(f)
    return sorted(ins), sorted(outs)


def pattern_polys(board: Board, loop: Sequence[int]) -> list[tuple[Poly, int]]:
    """The loop's on-patterns as (number of literals that hold, how many literals): inside
    all a, outside all 1 - a, for a = 1 and (when the outside is not beside the loop) a = 0."""
    ins, outs = loop_sides(board, loop)
    out = []
    for a in (1, 0):
        if a == 0 and -1 in outs:
            continue  # the outside is fixed at 0, so the loop cannot have it inside
        lhs: Poly = {}
        m = 0
        for f in ins + [g for g in outs if g >= 0]:
            want = a if f in ins else 1 - a
            add_poly(lhs, {(f,): 1} if want else {(): 1, (f,): -1})
            m += 1
        out.append((lhs, m))
    return out


def pattern_cut_piece(c: Constraint, model: Model, weight: int) -> Piece:
    """A loop cut over face literals: each on-pattern's literal count <= its size - 1, by a
    slack. Quadratic, ceil(log2 m) bits per pattern; the product of |L| XORs instead would
    expand to exponentially many terms."""
    poly: Poly = {}
    aux: list[int] = []
    fills = []
    for lhs, m in pattern_polys(model.puzzle.board, c.edges):
        p, labels, fill = slack_term(model, lhs, 0, m - 1)
        add_poly(poly, p, weight)
        aux += labels
        fills.append(fill)
    return Piece(c, poly=poly, aux=tuple(aux), fill=lambda s: _merged(fills, s))


def _merged(fills: Sequence[Callable], sample: Mapping[int, int]) -> dict[int, int]:
    out: dict[int, int] = {}
    for fill in fills:
        out.update(fill(sample))
    return out


# -- degree rules -----------------------------------------------------------------------------
def faces_around(board: Board, p: int) -> list[int]:
    """The faces around a point in angular order (-1: the outside): the wedge between each
    pair of consecutive edges. The point's degree is the number of colour changes around it."""
    x0, y0 = board.points[p]
    edges = sorted(
        board.point_edges[p],
        key=lambda e: math.atan2(*_delta(board, p, e, x0, y0)),
    )
    wedges = []
    for k, e in enumerate(edges):
        nxt = edges[(k + 1) % len(edges)]
        common = set(board.edge_faces[e]) & set(board.edge_faces[nxt])
        if len(common) > 1 and wedges:
            common.discard(wedges[-1])
        wedges.append(min(common) if len(common) == 1 else max(common))
    return wedges


def _delta(board: Board, p: int, e: int, x0: float, y0: float) -> tuple[float, float]:
    a, b = board.edge_points[e]
    x, y = board.points[b if a == p else a]
    return y - y0, x - x0


def degree_ban_poly(board: Board, p: int) -> Poly:
    """1 when the point's degree is 4 or more, else 0: the exact degree penalty of the edge
    form with every x_e substituted (multilinear, so it is the unique polynomial of that
    function: zero at points of at most 3 faces, a quartic on the square grid)."""
    edges = board.point_edges[p]
    total: Poly = {}
    for k, a in enumerate(exact_degree_coeffs(len(edges)), start=1):
        if not a:
            continue
        for subset in combinations(edges, k):
            prod: Poly = {(): 1}
            for e in subset:
                prod = poly_mul(prod, edge_poly(board, e))
            add_poly(total, prod, a)
    return total


# Quadratic degree rules: for a point of n faces around it, (k, Q) with Q over positions
# 0..n-1 (the colours in angular order) and n..n+k-1 (k auxiliaries): Q >= 0 everywhere, and
# its minimum over the auxiliaries is 0 exactly when the colour changes at most twice around
# the point (degree 0 or 2). Found by CP-SAT over small integer coefficients; one auxiliary
# cannot do it for 6 faces (infeasible), two can. `tests/test_faces.py` checks every one.
DEGREE_GADGETS: dict[int, tuple[int, Poly]] = {
    4: (1, {
        (0,): 1, (2,): 1,
        (0, 1): -1, (0, 2): 1, (0, 3): -1, (0, 4): -1, (1, 2): -1,
        (1, 3): 1, (1, 4): 1, (2, 3): -1, (2, 4): -1, (3, 4): 1,
    }),
    5: (1, {
        (1,): 2, (2,): 2, (4,): 2,
        (0, 1): -2, (0, 2): -1, (0, 3): 2, (0, 4): -2, (0, 5): 3, (1, 3): -1, (1, 4): 1,
        (1, 5): -2, (2, 3): -2, (2, 4): 1, (2, 5): -2, (3, 4): -2, (3, 5): 3, (4, 5): -2,
    }),
    6: (2, {
        (1,): 1, (2,): 3, (3,): 3, (4,): 1, (5,): 3, (6,): 1,
        (0, 1): -1, (0, 3): -1, (0, 5): -1, (0, 6): 1, (0, 7): 2, (1, 2): -2, (1, 3): 1,
        (1, 4): 1, (1, 5): -1, (1, 6): 1, (1, 7): -1, (2, 3): -2, (2, 4): -1, (2, 5): 3,
        (2, 6): -4, (3, 5): -1, (3, 7): -3, (4, 5): -3, (4, 6): 2, (4, 7): -1, (5, 6): -4,
        (5, 7): 1, (6, 7): 2,
    }),
}  # fmt: skip


def degree_gadget_piece(c: Constraint, model: Model, weight: int) -> Piece:
    """The QUBO's degree rule in face bits: nothing at points of at most 3 faces, else the
    point's gadget with its auxiliaries (the first is label F + p)."""
    board = model.puzzle.board
    wedges = faces_around(board, c.index)
    if len(wedges) <= 3:
        return Piece(c, poly={})
    if len(wedges) not in DEGREE_GADGETS:
        raise FormUnavailable(
            f"the qubo form with face variables has no quadratic degree rule for points of "
            f"{len(wedges)} faces ({board.label}); it has them for "
            f"{', '.join(map(str, sorted(DEGREE_GADGETS)))}"
        )
    k, gadget = DEGREE_GADGETS[len(wedges)]
    aux = (board.num_faces + c.index, *model.new_labels(k - 1))
    slot = [*wedges, *aux]
    poly: Poly = {}
    for term, a in gadget.items():
        labels = [slot[i] for i in term]
        if all(lb >= 0 for lb in labels):  # a term with the outside (0) vanishes
            add_poly(poly, {tuple(sorted(set(labels))): weight * a})

    def fill(sample: Mapping[int, int]) -> dict[int, int]:
        choices = (dict(zip(aux, bits, strict=True)) for bits in product((0, 1), repeat=k))
        return min(choices, key=lambda d: evaluate(poly, {**sample, **d}))

    return Piece(c, poly=poly, aux=aux, fill=fill)


def degree_aux_face_piece(c: Constraint, model: Model, weight: int) -> Piece:
    """The HUBO's (deg - 2 y_p)^2 with the XOR sums substituted (quartic)."""
    board = model.puzzle.board
    y = board.num_faces + c.index
    degree = lhs_poly(board, c)
    p = {**degree, (y,): -2}
    poly: Poly = {}
    add_poly(poly, poly_mul(p, p), weight)

    def fill(sample: Mapping[int, int]) -> dict[int, int]:
        return {y: int(evaluate(degree, sample) >= 2)}

    return Piece(c, poly=poly, aux=(y,), fill=fill)


def parity_aux_penalty(c: Constraint, model: Model, weight: int) -> Piece:
    """sum in {0, 2} as (sum - 2 w)^2 with a fresh auxiliary w (an edge form's face channel,
    x_e + c_f + c_g, in the QUBO)."""
    (w,) = model.new_labels(1)
    lhs = {(lb,): 1 for lb in c.edges}
    p = {**lhs, (w,): -2}
    poly: Poly = {}
    add_poly(poly, poly_mul(p, p), weight)
    return Piece(c, poly=poly, aux=(w,), fill=lambda s: {w: int(evaluate(lhs, s) >= 2)})
