"""One backend-neutral description of the problem, turned into a form by a Formulation.

The description is a list of :class:`Constraint` (clue sums, point degrees, loop cuts added
as the run goes). A :class:`Formulation` encodes each constraint either as a *native*
constraint (``cons``, pyqbpp only) or as a penalty polynomial over integer variable labels:
edges are labels ``0..E-1``, a degree auxiliary ``y_p`` is ``E + p`` and slack bits get
fresh labels after ``E + P``. :class:`Model` holds the encoded pieces and exports them.
"""

from __future__ import annotations

from abc import ABC, abstractmethod
from collections import defaultdict
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from itertools import combinations
from typing import ClassVar, Literal

from ..puzzle import Puzzle
from ..record import Capability

Poly = dict[tuple[int, ...], int]  # sorted label tuple -> integer coefficient; () is the constant
Kind = Literal["clue", "degree", "cut"]


@dataclass(frozen=True)
class Constraint:
    """sum of ``edges`` must lie in ``allowed`` (clue: {n}; degree: {0, 2}; cut: 0..|L|-1)."""

    kind: Kind
    index: int  # cell, grid point or cut number
    edges: tuple[int, ...]
    allowed: tuple[int, ...]

    @property
    def upper(self) -> int:
        return max(self.allowed)

    def distance(self, total: int) -> int:
        return min(abs(total - a) for a in self.allowed)


@dataclass(frozen=True)
class NativeConstraint:
    """A constraint handed to the solver as it is (pyqbpp ``qbpp.cons``)."""

    constraint: Constraint
    weight: int


@dataclass
class Piece:
    constraint: Constraint
    poly: Poly | None = None
    native: NativeConstraint | None = None
    aux: tuple[int, ...] = ()


def base_constraints(puzzle: Puzzle) -> list[Constraint]:
    out = [Constraint("clue", c, puzzle.cell_edges[c], (n,)) for c, n in puzzle.clue_cells]
    out += [Constraint("degree", p, edges, (0, 2)) for p, edges in enumerate(puzzle.point_edges)]
    return out


def cut_constraint(loop: Sequence[int], k: int) -> Constraint:
    return Constraint("cut", k, tuple(sorted(loop)), tuple(range(len(loop))))


# -- polynomial helpers -------------------------------------------------------------------
def add_poly(acc: Poly, poly: Mapping[tuple[int, ...], int], scale: int = 1) -> None:
    for term, c in poly.items():
        v = acc.get(term, 0) + scale * c
        if v:
            acc[term] = v
        else:
            acc.pop(term, None)


def square_linear(coeffs: Mapping[int, int], const: int) -> Poly:
    """(sum a_i x_i + const)^2 over binary x (x^2 = x)."""
    out: Poly = defaultdict(int)
    items = sorted(coeffs.items())
    for label, a in items:
        out[(label,)] += a * a + 2 * a * const
    for (u, a), (v, b) in combinations(items, 2):
        out[(u, v)] += 2 * a * b
    out[()] += const * const
    return {k: v for k, v in out.items() if v}


def evaluate(poly: Mapping[tuple[int, ...], int], sample: Mapping[int, int]) -> int:
    total = 0
    for term, c in poly.items():
        if all(sample.get(label, 0) for label in term):
            total += c
    return total


class Formulation(ABC):
    """Turns constraints into a form. Subclasses set ``name`` and implement ``encode``."""

    name: ClassVar[str]
    # What the encoded model is: a backend runs it when it takes one of these.
    produces: ClassVar[frozenset[Capability]] = frozenset({Capability.POLYNOMIAL})
    packages: ClassVar[tuple[str, ...]] = ()  # recorded in the provenance columns

    def __init__(self, clue_weight: int = 1, degree_weight: int = 1, cut_weight: int = 1) -> None:
        for label, w in (("clue", clue_weight), ("degree", degree_weight), ("cut", cut_weight)):
            if int(w) != w or w < 1:
                raise ValueError(f"{label}_weight must be a positive integer, got {w!r}")
        self.weights = {
            "clue": int(clue_weight),
            "degree": int(degree_weight),
            "cut": int(cut_weight),
        }

    @abstractmethod
    def encode(self, c: Constraint, model: Model) -> Piece: ...

    def aux_values(self, piece: Piece, edges: Sequence[bool]) -> dict[int, int]:
        """Auxiliary values that minimise this piece's penalty for the given edges (hints)."""
        return {}

    def params(self) -> dict[str, object]:
        return {f"{k}_weight": v for k, v in self.weights.items()}

    def describe(self) -> str:
        return self.name

    @property
    def native(self) -> bool:
        return Capability.POLYNOMIAL not in self.produces

    @property
    def quadratic(self) -> bool:
        return Capability.QUADRATIC in self.produces

    def __repr__(self) -> str:
        args = ", ".join(f"{k}={v!r}" for k, v in self.params().items())
        return f"{type(self).__name__}({args})"


@dataclass
class Model:
    """The encoded problem: pieces for every constraint so far, exportable to each solver API."""

    puzzle: Puzzle
    formulation: Formulation
    pieces: list[Piece] = field(default_factory=list)
    next_label: int = 0
    _poly: Poly = field(default_factory=dict)
    _labels: set[int] = field(default_factory=set)

    @classmethod
    def build(cls, puzzle: Puzzle, formulation: Formulation) -> Model:
        m = cls(puzzle, formulation, next_label=puzzle.num_edges + puzzle.num_points)
        m._labels.update(range(puzzle.num_edges))
        for c in base_constraints(puzzle):
            m._add(c)
        return m

    @property
    def num_cuts(self) -> int:
        return sum(p.constraint.kind == "cut" for p in self.pieces)

    def new_labels(self, n: int) -> tuple[int, ...]:
        out = tuple(range(self.next_label, self.next_label + n))
        self.next_label += n
        return out

    def _add(self, c: Constraint) -> Piece:
        piece = self.formulation.encode(c, self)
        self.pieces.append(piece)
        self._labels.update(piece.aux)
        if piece.poly is not None:
            add_poly(self._poly, piece.poly)
        return piece

    def add_cut(self, loop: Sequence[int]) -> Piece:
        return self._add(cut_constraint(loop, self.num_cuts))

    # -- size ------------------------------------------------------------------------------
    @property
    def labels(self) -> list[int]:
        return sorted(self._labels)

    @property
    def num_variables(self) -> int:
        return len(self._labels)

    @property
    def num_terms(self) -> int:
        """Polynomial terms (non-constant); for native pieces, one per constraint."""
        natives = sum(p.native is not None for p in self.pieces)
        return natives + sum(1 for t in self._poly if t)

    @property
    def max_degree(self) -> int:
        deg = max((len(t) for t in self._poly), default=0)
        natives = [len(p.constraint.edges) for p in self.pieces if p.native is not None]
        return max([deg, *natives])

    # -- exports ---------------------------------------------------------------------------
    def polynomial(self) -> Poly:
        if self.formulation.native:
            raise TypeError(
                f"the {self.formulation.name} form has native constraints, no polynomial"
            )
        return dict(self._poly)

    def to_binary_polynomial(self):  # -> dimod.BinaryPolynomial
        import dimod

        return dimod.BinaryPolynomial(self.polynomial(), dimod.BINARY)

    def to_bqm(self):  # -> dimod.BinaryQuadraticModel
        import dimod

        poly = self.polynomial()
        if any(len(t) > 2 for t in poly):
            raise TypeError(f"the {self.formulation.name} form has terms of degree > 2")
        bqm = dimod.BinaryQuadraticModel(dimod.BINARY)
        bqm.add_variables_from((label, 0) for label in self.labels)
        for term, c in poly.items():
            if len(term) == 0:
                bqm.offset += c
            elif len(term) == 1:
                bqm.add_linear(term[0], c)
            else:
                bqm.add_quadratic(term[0], term[1], c)
        return bqm

    # -- evaluation ------------------------------------------------------------------------
    def energy(self, sample: Mapping[int, int]) -> int:
        """The form's energy: penalties, plus weight * distance^2 for native constraints."""
        total = evaluate(self._poly, sample)
        for p in self.pieces:
            if p.native is not None:
                s = sum(int(sample.get(e, 0)) for e in p.constraint.edges)
                total += p.native.weight * p.constraint.distance(s) ** 2
        return total

    def edges_of(self, sample: Mapping[int, int]) -> list[bool]:
        return [bool(sample.get(e, 0)) for e in range(self.puzzle.num_edges)]

    def complete(self, edges: Sequence[bool]) -> dict[int, int]:
        """A full assignment from edge values, auxiliaries chosen to minimise the energy."""
        sample = {e: int(bool(x)) for e, x in enumerate(edges)}
        for p in self.pieces:
            if p.aux:
                sample.update(self.formulation.aux_values(p, edges))
        return sample


def sum_edges(edges: Iterable[int]) -> dict[int, int]:
    return dict.fromkeys(edges, 1)
