"""Presolve: edges fixed by deduction (:mod:`slitherbench.deduction`) substituted into the
description, so that every form's model shrinks where the board is settled.

A constraint says ``sum a_i x_i`` lies in ``allowed``. With some of its labels fixed, the
fixed part is a constant ``s``: what is left must lie in ``allowed - s``, cut to what the
unfixed labels can reach. The result is encoded by its shape like any other constraint:

- nothing left to decide (every value the rest can take is allowed): the constraint is
  dropped (a clue already met, a cut with an edge fixed off, a settled point's degree rule
  with its auxiliary y_p);
- one value left: an equality (``equal``): a point with one fixed line needs exactly one more,
  so its degree rule loses its auxiliary;
- ``{0, 2}`` left of a degree rule: the degree rule over the unfixed edges (its auxiliary
  kept); left of any other: a parity row;
- ``0..n-1`` over ``n`` unit terms: "not all" (a cut's product shrinks to its unfixed edges);
- any other interval: a range (its slack sized to the interval);
- no value left: :class:`PresolveContradiction` (the fixed edges break the constraint).

Edge variables: rows over face colours (a rule on faces) and the face channel keep their face
labels; only edge labels are substituted.

Face variables (``variables=face``): the face *sides* deduction knows relative to the
board's outside (:attr:`~slitherbench.deduction.Deduction.faces`, and those the fixed edges
settle, :func:`sides_from_edges`) are substituted. An edge both of whose sides are known is
fixed (:func:`settled_edges`): each row over edges is substituted with those as above, a row
over faces (No-Square's block) with the sides themselves; then each piece's polynomial (and a
native constraint's left-hand side) takes the sides (:func:`fix_poly`), which settles the
edges between a known and an unknown side. A face encoding made from the whole row (the
QUBO's degree gadget, a loop cut's two face patterns) is made from the row as it is and takes
the sides in its polynomial; a loop cut drops the pattern a side breaks and the literals the
sides meet (its slack shrinks). A fixed edge between two faces of unknown side fixes only
their XOR and is not used. Sides fixed after the build are equalities (:func:`fixed_face`).

>>> from slitherbench.puzzles.description import Constraint
>>> degree = Constraint("degree", 3, (1, 4, 7, 9), (0, 2), shape="degree", weight="degree")
>>> substitute(degree, {1: 1, 9: 0}).shape, substitute(degree, {1: 1, 9: 0}).allowed
('equal', (1,))
>>> substitute(degree, {1: 0, 4: 0, 7: 0, 9: 0}) is None  # settled: no line at this point
True
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import replace
from typing import TYPE_CHECKING

from slitherbench.puzzles.description import (
    AT_MOST_ONE,
    DEGREE,
    EQUAL,
    LOOP_CUT,
    NOT_ALL,
    PARITY,
    RANGE,
    Constraint,
)

if TYPE_CHECKING:
    from slitherbench.puzzles.boards import Board

PRESOLVE_LEVELS = ("none", "rules", "lookahead1", "lookahead2")


class PresolveContradiction(ValueError):
    """Fixed edges that break a constraint of the description (one line, naming it)."""


def substitute(
    c: Constraint, fixed: Mapping[int, int], faces: Mapping[int, int] | None = None
) -> Constraint | None:
    """``c`` with the ``fixed`` labels (label -> 0/1) replaced by their values: the constraint
    over the rest, or None when any value of the rest satisfies it. A row over face colours
    (``c.faces``) takes its values from ``faces`` (face -> side) instead, when given."""
    if c.faces:
        if not faces or not any(f in faces for f in c.faces):
            return c
        return _substitute(c, c.faces, faces, "faces")
    if not any(e in fixed for e in c.edges):
        return c
    return _substitute(c, c.edges, fixed, "edges")


def _substitute(
    c: Constraint, labels: tuple[int, ...], fixed: Mapping[int, int], field: str
) -> Constraint | None:
    coeffs = c.coeffs or (1,) * len(labels)
    rest = [(e, a) for e, a in zip(labels, coeffs, strict=True) if e not in fixed]
    s = sum(a for e, a in zip(labels, coeffs, strict=True) if fixed.get(e, 0))
    lo = sum(a for _, a in rest if a < 0)
    hi = sum(a for _, a in rest if a > 0)
    allowed = tuple(v - s for v in c.allowed if lo <= v - s <= hi)
    if not allowed:
        raise PresolveContradiction(
            f"{c.kind} {c.index}: the fixed {field} make its sum {s}, outside {list(c.allowed)}"
        )
    unit = all(a == 1 for _, a in rest)
    if unit and allowed == tuple(range(lo, hi + 1)):
        return None  # every count the rest can reach is allowed
    left = tuple(e for e, _ in rest)
    coeffs_left = () if unit else tuple(a for _, a in rest)
    shape = _shape(c, allowed, len(left), unit)
    if field == "faces":
        return replace(c, faces=left, allowed=allowed, coeffs=coeffs_left, shape=shape)
    return replace(c, edges=left, allowed=allowed, coeffs=coeffs_left, shape=shape)


def _shape(c: Constraint, allowed: tuple[int, ...], n: int, unit: bool) -> str:
    """The shape of what is left (see the module's list)."""
    if not unit:
        return EQUAL if len(allowed) == 1 and c.shape == EQUAL else RANGE
    if len(allowed) == 1:
        return EQUAL
    if allowed == (0, 2):
        return DEGREE if c.shape == DEGREE else PARITY
    if allowed == (0, 1) and c.shape == AT_MOST_ONE:
        return AT_MOST_ONE
    if allowed == tuple(range(n)) and c.shape in (NOT_ALL, LOOP_CUT):
        return c.shape
    if allowed == tuple(range(allowed[0], allowed[-1] + 1)):
        return RANGE
    raise PresolveContradiction(  # never met by the shapes the description makes
        f"{c.kind} {c.index}: values {list(allowed)} left, which no shape encodes"
    )


def substitute_all(rows: Sequence[Constraint], fixed: Mapping[int, int]) -> list[Constraint]:
    """Every row with the fixed labels substituted; rows left with nothing to decide dropped."""
    out = []
    for c in rows:
        kept = substitute(c, fixed)
        if kept is not None:
            out.append(kept)
    return out


def fixed_edge(e: int, value: int) -> Constraint:
    """An edge fixed after the model was built (deduction run again after a cut): one
    equality over that edge, weighed as a clue."""
    return Constraint("fixed", e, (e,), (int(value),), shape=EQUAL, weight="clue")


def fixed_face(f: int, side: int) -> Constraint:
    """A face side fixed after the model was built (face variables): one equality over that
    face's colour, weighed as a clue."""
    return Constraint("fixed", f, (), (int(side),), faces=(f,), shape=EQUAL, weight="clue")


def settled_edges(board: Board, sides: Mapping[int, int]) -> dict[int, int]:
    """The edges whose two sides are both known (face -> 1 inside, 0 outside; the board's
    outside is outside): on where the sides differ. What fixed face sides fix of the edges."""
    out = {}
    for e, (f, g) in enumerate(board.edge_faces):
        a = sides.get(f) if f >= 0 else 0
        b = sides.get(g) if g >= 0 else 0
        if a is not None and b is not None:
            out[e] = int(a != b)
    return out


def sides_from_edges(board: Board, fixed: Mapping[int, int]) -> dict[int, int]:
    """The face sides fixed edges settle: every face joined to the board's outside by a path
    of fixed edges (crossing an edge that is on changes side). Raises
    :class:`PresolveContradiction` where two paths disagree."""
    nbrs: dict[int, list[tuple[int, int]]] = {}
    for e, v in fixed.items():
        f, g = board.edge_faces[e]
        nbrs.setdefault(f, []).append((g, v))
        nbrs.setdefault(g, []).append((f, v))
    sides = {-1: 0}
    todo = [-1]
    while todo:
        f = todo.pop()
        for g, v in nbrs.get(f, ()):
            side = sides[f] ^ int(v)
            if g not in sides:
                sides[g] = side
                todo.append(g)
            elif sides[g] != side:
                raise PresolveContradiction(f"face {g}: the fixed edges put it on both sides")
    del sides[-1]
    return sides


def fix_poly(
    poly: Mapping[tuple[int, ...], int], values: Mapping[int, int]
) -> dict[tuple[int, ...], int]:
    """A polynomial over binary labels with the ``values`` (label -> 0/1) put in: a term with
    a label at 0 vanishes, a label at 1 leaves its term; equal terms merge."""
    out: dict[tuple[int, ...], int] = {}
    for term, a in poly.items():
        if any(values.get(x, 1) == 0 for x in term):
            continue
        left = tuple(x for x in term if x not in values)
        v = out.get(left, 0) + a
        if v:
            out[left] = v
        else:
            out.pop(left, None)
    return out
