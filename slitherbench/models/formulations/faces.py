"""Face variables' own encodings: where one binary per face (1 inside the loop, 0 outside;
the board's outside is fixed at 0) allows a better encoding than the edge form's penalty with
every x_e = c_f XOR c_g substituted (:mod:`.penalties` does that substitution for every
shape). The forms name these in their ``face_encodings``.

Every even-degree edge set of a planar board is the border of exactly one set of faces, so the
face colourings are in one-to-one correspondence with the edge sets whose points all have even
degree. Consequences the encodings use (each checked exhaustively in the tests):

- a clue penalty (sum x_e - n)^2 is exactly quadratic in face bits: around face f every
  x_e = c_f + (1 - 2 c_f) c_g and (1 - 2 c_f)^2 = 1, so the cubic terms cancel;
- a point's degree is the number of colour changes around it, always even: the rule is
  "no 4 (or 6, ...)", a ban that vanishes on points of at most 3 faces (the whole honeycomb),
  written quadratically by a gadget of one or two auxiliaries (:data:`DEGREE_GADGETS`);
- a loop L with every edge on and every degree in {0, 2} has all its inside neighbours of one
  colour a and all its outside neighbours of 1 - a (:func:`loop_sides`), so forbidding the
  two patterns is the loop cut, written linearly over face literals (the product of |L| XOR
  sums would expand to exponentially many terms).

Polynomials are :data:`~.polynomial.Poly` over the model's labels: faces are labels
``0..F-1``, a point's auxiliary ``F + p``, slack bits after ``F + P``.
"""

from __future__ import annotations

import math
from collections.abc import Callable, Mapping, Sequence
from itertools import product

from slitherbench.models.formulations.base import FormUnavailable, Model, Piece
from slitherbench.models.formulations.penalties import exact_degree_poly, slack_term
from slitherbench.models.formulations.polynomial import Poly, add_poly, evaluate, poly_mul  # noqa: F401  (poly_mul: re-exported)
from slitherbench.models.formulations.variables import edge_poly
from slitherbench.models.presolve import PresolveContradiction
from slitherbench.puzzles.boards import Board
from slitherbench.puzzles.description import Constraint


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


def pattern_polys(
    board: Board, loop: Sequence[int], sides: Mapping[int, int] | None = None
) -> list[tuple[Poly, int]]:
    """The loop's on-patterns as (number of literals that hold, how many literals): inside
    all a, outside all 1 - a, for a = 1 and (when the outside is not beside the loop) a = 0.
    With face ``sides`` fixed (a presolve's): a pattern one of them breaks is left out, and
    the literals they meet drop out of the others (a "not all" over the rest)."""
    ins, outs = loop_sides(board, loop)
    sides = sides or {}
    out = []
    for a in (1, 0):
        if a == 0 and -1 in outs:
            continue  # the outside is fixed at 0, so the loop cannot have it inside
        lhs: Poly = {}
        m = 0
        broken = False
        for f in ins + [g for g in outs if g >= 0]:
            want = a if f in ins else 1 - a
            if f in sides:
                broken = broken or sides[f] != want
                continue
            add_poly(lhs, {(f,): 1} if want else {(): 1, (f,): -1})
            m += 1
        if broken:
            continue
        if not m:
            raise PresolveContradiction(f"the fixed face sides hold every edge of loop {loop}")
        out.append((lhs, m))
    return out


def pattern_cut_piece(c: Constraint, model: Model, weight: int) -> Piece:
    """A loop cut over face literals: each on-pattern's literal count <= its size - 1, by a
    slack. Quadratic, ceil(log2 m) bits per pattern; the product of |L| XORs instead would
    expand to exponentially many terms."""
    poly: Poly = {}
    aux: list[int] = []
    fills = []
    for lhs, m in pattern_polys(model.puzzle.board, c.edges, model.fixed_faces):
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
    wedges: list[int] = []
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
    form with every x_e substituted (:func:`~.penalties.exact_degree_poly`), what the HUBO
    with face variables writes for a point."""
    return exact_degree_poly([edge_poly(board, e) for e in sorted(board.point_edges[p])])


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
