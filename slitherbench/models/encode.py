"""The one place where a :class:`~slitherbench.models.formulations.Constraint` becomes a solver's rows
or clauses. Every exact family builds its model from the constraint description (clue sums,
degree rules, cuts, the puzzle rules' rows), never from the grid, so a new rule or a new board
needs no change here. Every constraint shape (:data:`~slitherbench.models.formulations.base.SHAPES`)
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
import os
import sys
from abc import ABC, abstractmethod
from collections.abc import Sequence
from dataclasses import dataclass
from itertools import combinations, pairwise
from typing import Any

from slitherbench.models.formulations import Constraint
from slitherbench.models.formulations.base import (  # noqa: F401
    CHANNEL,
    description_rows,
    face_channel,
    needs_faces,
    over_labels,
)
from slitherbench.puzzles.puzzle import Puzzle

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


def degree_clauses(lits: Sequence[int]) -> list[list[int]]:
    """CNF of "degree 0 or 2" on a point's edge literals: one on => another on, never three."""
    out = [[-e, *(f for f in lits if f != e)] for e in lits]
    return out + [[-v for v in trio] for trio in combinations(lits, 3)]


def clauses(
    c: Constraint, pool: Any, encoding: str = "seqcounter", guard: int | None = None
) -> list[list[int]]:
    """CNF of one constraint, edge e as DIMACS variable e + 1; with ``guard``, every clause
    holds only while that variable is true (the generator switches clues off this way)."""
    from pysat.card import CardEnc, EncType

    extra = [] if guard is None else [-guard]
    if is_stepped_degree(c):
        out: list[list[int]] = degree_clauses([e + 1 for e in c.edges])
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
    out = []
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


# -- model builders: a solver's model of the description, shared by backends and exporters --
class ConstraintEncoder(ABC):
    """A solver's model of the constraint description, one constraint at a time. The exact
    backends (:class:`~slitherbench.solvers.constraints.ConstraintBackend`) solve it; the
    exporters (:mod:`slitherbench.models.export`) write it: one encoding serves both."""

    def build(self, puzzle: Puzzle, faces: bool = False) -> None:
        """A fresh model holding every clue sum, degree rule and puzzle rule, before any
        cut; on face variables (``faces``: a ``variables=face`` cell) or where a rule is on
        faces, one variable per face tied to the edges (:func:`description_rows`)."""
        self.new_model(puzzle)
        for c in description_rows(puzzle, self.add_face_vars, faces):
            self.add_constraint(c)

    @abstractmethod
    def new_model(self, puzzle: Puzzle) -> None:
        """A fresh model with one Boolean per edge and no constraint yet."""

    @abstractmethod
    def add_face_vars(self, count: int) -> list[int]:
        """``count`` fresh Booleans after the edges' (one per face); returns their labels,
        the indices ``add_constraint``'s rows name them by."""

    @abstractmethod
    def add_constraint(self, c: Constraint) -> None:
        """Add one constraint of the description (turned into rows or clauses here)."""


def region_clause(border: Sequence[int], e: int, f: int) -> list[int]:
    """A region cut as one clause, "e and f on => some border edge on": every point has
    degree 0 or 2, so a border is crossed an even number of times, and once means twice."""
    return [-(e + 1), -(f + 1), *(g + 1 for g in border)]


class ClauseList:
    """Stands in for a pysat solver where only the clauses are wanted (the CNF writer)."""

    def __init__(self) -> None:
        self.clauses: list[list[int]] = []

    def add_clause(self, clause: list[int]) -> None:
        self.clauses.append(list(clause))

    def delete(self) -> None:
        pass


class SatEncoder(ConstraintEncoder):
    """CNF of the description: edge e is DIMACS variable e + 1, face variables and the
    cardinality encodings' auxiliaries after the edges; clauses go to :meth:`new_sink`'s
    object (a pysat solver in the SAT backend, a :class:`ClauseList` in the CNF writer)."""

    encoding = "seqcounter"
    _sat: Any = None

    def new_sink(self) -> Any:
        return ClauseList()

    def new_model(self, puzzle: Puzzle) -> None:
        from pysat.formula import IDPool

        self._sat = self.new_sink()
        self._edges = puzzle.num_edges
        self._pool = IDPool(start_from=puzzle.num_edges + 1)

    def add_face_vars(self, count: int) -> list[int]:
        return [self._pool.id(("face", f)) - 1 for f in range(count)]  # DIMACS id - 1

    def add_constraint(self, c: Constraint) -> None:
        from slitherbench.puzzles.description import region_parts

        if c.kind == "region":  # one clause by parity, not a weighted sum
            self._sat.add_clause(region_clause(*region_parts(c)))
            return
        for clause in clauses(c, self._pool, str(self.encoding)):
            self._sat.add_clause(clause)


def quiet_highs() -> Any:
    """A silent Highs instance: HiGHS prints its banner from C on the first one, which
    ``output_flag`` cannot stop, so stdout is closed for that moment."""
    import highspy

    sys.stdout.flush()
    saved, null = os.dup(1), os.open(os.devnull, os.O_WRONLY)
    os.dup2(null, 1)
    try:
        h = highspy.Highs()
        h.setOptionValue("output_flag", False)
    finally:
        os.dup2(saved, 1)
        os.close(saved)
        os.close(null)
    return h


class HighsEncoder(ConstraintEncoder):
    """The description as a HiGHS model: binaries per edge (then per face), each constraint
    a row by :func:`linear_row` (a stepped degree rule with its integer ``z``)."""

    threads = 1
    _h: Any = None

    def new_model(self, puzzle: Puzzle) -> None:
        h = quiet_highs()
        h.setOptionValue("threads", int(self.threads))
        self._x = [h.addBinary() for _ in range(puzzle.num_edges)]
        self._vars = list(self._x)  # the edges, then any face binaries: the rows' labels
        self._h = h

    def add_face_vars(self, count: int) -> list[int]:
        first = len(self._vars)
        self._vars += [self._h.addBinary() for _ in range(count)]
        return list(range(first, first + count))

    def add_constraint(self, c: Constraint) -> None:
        row = linear_row(c)
        x = self._vars
        total = sum(x[e] for e, _ in row.terms) if row.unit else sum(a * x[e] for e, a in row.terms)
        if row.step:
            z = self._h.addBinary() if row.z_max == 1 else self._h.addIntegral(0, row.z_max)
            self._h.addConstr(total - row.step * z == row.lo)
            return
        for op, value in row.relations():
            self._h.addConstr(RELATIONS[op](total, value))
