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

Rows over face colours (a rule on faces) and the face channel keep their face labels; only
edge labels are substituted. Face variables (``variables=face``) are not presolved: their
labels are faces, and a fixed edge fixes only the XOR of two of them.

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

PRESOLVE_LEVELS = ("none", "rules", "lookahead1", "lookahead2")


class PresolveContradiction(ValueError):
    """Fixed edges that break a constraint of the description (one line, naming it)."""


def substitute(c: Constraint, fixed: Mapping[int, int]) -> Constraint | None:
    """``c`` with the ``fixed`` labels (label -> 0/1) replaced by their values: the constraint
    over the rest, or None when any value of the rest satisfies it."""
    coeffs = c.coeffs or (1,) * len(c.edges)
    if c.faces or not any(e in fixed for e in c.edges):
        return c
    rest = [(e, a) for e, a in zip(c.edges, coeffs, strict=True) if e not in fixed]
    s = sum(a for e, a in zip(c.edges, coeffs, strict=True) if fixed.get(e, 0))
    lo = sum(a for _, a in rest if a < 0)
    hi = sum(a for _, a in rest if a > 0)
    allowed = tuple(v - s for v in c.allowed if lo <= v - s <= hi)
    if not allowed:
        raise PresolveContradiction(
            f"{c.kind} {c.index}: the fixed edges make its sum {s}, outside {list(c.allowed)}"
        )
    unit = all(a == 1 for _, a in rest)
    if unit and allowed == tuple(range(lo, hi + 1)):
        return None  # every count the rest can reach is allowed
    edges = tuple(e for e, _ in rest)
    coeffs_left = () if unit else tuple(a for _, a in rest)
    shape = _shape(c, allowed, len(edges), unit)
    return replace(c, edges=edges, allowed=allowed, coeffs=coeffs_left, shape=shape)


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
