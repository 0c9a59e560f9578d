"""The one place where a :class:`~slitherbench.formulations.Constraint` becomes a solver's rows
or clauses. Every exact family builds its model from the constraint description (clue sums,
degree rules, cuts, the puzzle rules' rows), never from the grid, so a new rule or a new board
needs no change here. Every constraint shape (:data:`~slitherbench.formulations.base.SHAPES`)
is a sum in a set of allowed values, which is what the encodings below take; a set they cannot
write raises :class:`Unencodable` (one line), never another encoding.

A constraint says ``sum a_i x_i`` lies in the set ``allowed``. Three encodings cover it:

* :func:`linear_row`: ``lo <= sum <= hi``, and where ``allowed`` skips values by a fixed step
  (a degree rule {0, 2}) an integer auxiliary ``z`` with ``sum - step * z == lo``: the rows
  of CP-SAT, HiGHS and CPLEX.
* :func:`positive_terms`: the same sum with every coefficient made positive by negating its
  literal (``-a x = -a + a (not x)``): the pseudo-Boolean form of z3 and of cardinality
  encodings.
* :func:`clauses`: CNF for SAT. A single "at least one of these literals" is one clause; the
  rest go through pysat's cardinality encodings; a degree rule {0, 2} is "no point with one
  edge" plus "no three edges together" (exact for any number of edges at the point).
"""

from __future__ import annotations

import operator
from collections.abc import Sequence
from dataclasses import dataclass
from itertools import combinations, pairwise
from typing import Any

from ..formulations import Constraint
from ..formulations.base import (  # noqa: F401
    CHANNEL,
    description_rows,
    face_channel,
    needs_faces,
    over_labels,
)
from ..puzzle import Puzzle

# The relations of :meth:`LinearRow.relations` as functions of (expression, value): CP-SAT's
# and HiGHS's expressions build their constraints from these operators.
RELATIONS = {"==": operator.eq, ">=": operator.ge, "<=": operator.le}


class Unencodable(ValueError):
    """An allowed set no encoding here describes (the message names the constraint)."""


@dataclass(frozen=True)
class LinearRow:
    """``sum coeff * x[label] - step * z == lo + ...``: with ``step`` 0 a plain range row
    ``lo <= sum <= hi``; otherwise ``sum - step * z == lo`` for an integer z in 0..``z_max``."""

    terms: tuple[tuple[int, int], ...]  # (edge label, coefficient)
    lo: int
    hi: int
    step: int = 0

    @property
    def unit(self) -> bool:
        """Every coefficient 1 (clues, degrees, loop cuts): the solvers' plain sums."""
        return all(a == 1 for _, a in self.terms)

    @property
    def z_max(self) -> int:
        return (self.hi - self.lo) // self.step if self.step else 0

    def relations(self) -> list[tuple[str, int]]:
        """A range row as relations ``("==" | ">=" | "<=", value)``: one equality where lo is
        hi, else the bounds an assignment can break (:meth:`bounds`)."""
        if self.lo == self.hi:
            return [("==", self.lo)]
        lo, hi = self.bounds()
        return [(op, v) for op, v in ((">=", lo), ("<=", hi)) if v is not None]

    def bounds(self) -> tuple[int | None, int | None]:
        """(lo, hi) of a range row, each None where no 0/1 assignment can break it (a cut
        needs only its upper bound): one-sided rows, as the solvers were always given."""
        least = sum(min(a, 0) for _, a in self.terms)
        most = sum(max(a, 0) for _, a in self.terms)
        return (self.lo if self.lo > least else None, self.hi if self.hi < most else None)


def face_rows(
    puzzle: Puzzle, constraints: Sequence[Constraint], labels: Sequence[int]
) -> list[Constraint]:
    """Only the face part of :func:`over_labels`: the channel and the face constraints on
    labels (for a model whose edge rules are written otherwise, CP-SAT's circuit)."""
    return over_labels(puzzle, [c for c in constraints if c.faces], labels)


def linear_row(c: Constraint) -> LinearRow:
    values = sorted(set(c.allowed))
    # Unit coefficients on distinct edges (every clue, degree and loop cut): no dict needed.
    if not c.coeffs and len(set(c.edges)) == len(c.edges):
        terms: tuple[tuple[int, int], ...] = tuple((e, 1) for e in c.edges)
    else:
        terms = tuple(c.linear().items())
    lo, hi = values[0], values[-1]
    if values == list(range(lo, hi + 1)):
        return LinearRow(terms, lo, hi)
    steps = {b - a for a, b in pairwise(values)}
    if len(steps) == 1:
        return LinearRow(terms, lo, hi, steps.pop())
    raise Unencodable(f"{c.kind} {c.index}: allowed sums {values} are not an even-stepped range")


def positive_terms(c: Constraint) -> tuple[list[tuple[int, bool, int]], int, int]:
    """(label, negated, coefficient > 0) terms and the bounds (lo, hi) of their sum."""
    row = linear_row(c)
    if row.step:
        raise Unencodable(f"{c.kind} {c.index}: a stepped set has no single pseudo-Boolean row")
    shift = 0
    out = []
    for label, a in row.terms:
        if a < 0:
            out.append((label, True, -a))
            shift += -a
        elif a > 0:
            out.append((label, False, a))
    return out, row.lo + shift, row.hi + shift


def is_stepped_degree(c: Constraint) -> bool:
    """A degree rule {0, 2} on unit coefficients (SAT and z3 write it by hand)."""
    return set(c.allowed) == {0, 2} and (not c.coeffs or set(c.coeffs) == {1})


def clauses(
    c: Constraint, pool: Any, encoding: str = "seqcounter", guard: int | None = None
) -> list[list[int]]:
    """CNF of one constraint, edge e as DIMACS variable e + 1; with ``guard``, every clause
    holds only while that variable is true (the generator switches clues off this way)."""
    from pysat.card import CardEnc, EncType

    extra = [] if guard is None else [-guard]
    if is_stepped_degree(c):
        lits = [e + 1 for e in c.edges]
        out = [[-e, *(f for f in lits if f != e)] for e in lits]  # one on => another on
        out += [[-v for v in trio] for trio in combinations(lits, 3)]  # never three
        return [[*cl, *extra] for cl in out] if extra else out
    row = linear_row(c)
    if row.unit and not row.step:  # clues and loop cuts: the edges themselves
        lits, lo, hi = [e + 1 for e, _ in row.terms], row.lo, row.hi
    else:
        terms, lo, hi = positive_terms(c)
        lits = [-(label + 1) if neg else label + 1 for label, neg, _ in terms]
        if {a for _, _, a in terms} - {1}:
            raise Unencodable(f"{c.kind} {c.index}: weighted sums need a pseudo-Boolean encoder")
    n = len(lits)
    out: list[list[int]] = []
    enc = getattr(EncType, encoding)
    if lo == hi:
        out = CardEnc.equals(lits=lits, bound=lo, vpool=pool, encoding=enc).clauses
    else:
        if lo > 0:
            out += (
                [list(lits)]
                if lo == 1
                else CardEnc.atleast(lits=lits, bound=lo, vpool=pool, encoding=enc).clauses
            )
        if hi < n:
            out += (
                [[-v for v in lits]]
                if hi == n - 1
                else CardEnc.atmost(lits=lits, bound=hi, vpool=pool, encoding=enc).clauses
            )
    return [[*cl, *extra] for cl in out] if extra else out


def z3_expr(c: Constraint, x: Sequence[Any]) -> Any:
    """One z3 Boolean expression for a constraint over edge Booleans ``x``."""
    import z3

    row = linear_row(c)
    if row.step:  # a stepped set (degree {0, 2}): one of its sums
        lits = [(x[e], a) for e, a in row.terms]
        return z3.Or([z3.PbEq(lits, v) for v in range(row.lo, row.hi + 1, row.step)])
    terms, lo, hi = positive_terms(c)
    lits = [(z3.Not(x[e]) if neg else x[e], a) for e, neg, a in terms]
    total = sum(a for _, _, a in terms)
    if lo == hi:
        return z3.PbEq(lits, lo)
    if hi >= total:
        if lo == 1 and all(a == 1 for _, _, a in terms):
            return z3.Or([lit for lit, _ in lits])
        return z3.PbGe(lits, lo)
    if lo <= 0:
        if hi == total - 1 and all(a == 1 for _, _, a in terms):
            return z3.Or([z3.Not(lit) for lit, _ in lits])  # not all: one clause
        return z3.PbLe(lits, hi)
    return z3.And(z3.PbGe(lits, lo), z3.PbLe(lits, hi))
