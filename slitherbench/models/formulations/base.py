"""A :class:`Formulation` turns each constraint of the description (:mod:`.description`) into
a :class:`Piece` of the :class:`Model`: a *native* constraint (``cons``, pyqbpp only) or a
penalty polynomial over integer labels (:mod:`.polynomial`). Which labels those are is the
formulation's ``variables`` (:mod:`.variables`): edges are labels ``0..E-1`` (faces
``0..F-1`` with face variables), a point's degree auxiliary y_p the next ``P`` labels, slack
bits and a reduction's products fresh labels after those. Kinds a form defers
(``Formulation.deferred``: the lazy QUBO's degree rule) are held back until a solution
breaks them (:meth:`Model.broken_deferred`).

A form has one encoder, :meth:`Formulation.encode`, written over the variables' edge
expressions, so one method serves edge and face variables; an encoding that only face
variables can do better (a loop cut by face patterns, a quadratic degree gadget) is named in
``face_encodings``. A shape a form cannot encode raises :class:`FormUnavailable` (the trial
is a one-line skip), never another shape's encoding.

The form and the model stay in one module: each refers to the other. The description's and
the polynomials' names are re-exported here, where they used to live.
"""

from __future__ import annotations

from abc import ABC, abstractmethod
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field, replace
from types import MappingProxyType
from typing import ClassVar

from slitherbench.method.record import Capability
from slitherbench.models.formulations.polynomial import (  # noqa: F401  (re-exported)
    Gate,
    Poly,
    add_poly,
    add_to_bqm,
    evaluate,
    poly_mul,
    square_linear,
    with_products,
)
from slitherbench.models.formulations.variables import VARIABLES, Variables
from slitherbench.models.presolve import (
    PresolveContradiction,
    fix_poly,
    fixed_edge,
    fixed_face,
    settled_edges,
    sides_from_edges,
    substitute,
)
from slitherbench.puzzles.description import (  # noqa: F401  (re-exported)
    AT_MOST_ONE,
    CHANNEL,
    CUT_KINDS,
    CUTS,
    DEGREE,
    EQUAL,
    KIND_SHAPES,
    LOOP_CUT,
    NOT_ALL,
    PARITY,
    RANGE,
    SHAPES,
    WEIGHT_CLASSES,
    Constraint,
    base_constraints,
    cut_constraint,
    description_rows,
    face_channel,
    needs_faces,
    over_labels,
    region_constraint,
    region_partner,
    region_parts,
    rule_rows,
    sample_cuts,
)
from slitherbench.puzzles.puzzle import Puzzle


class FormUnavailable(ValueError):
    """The form cannot encode this board (e.g. no quadratic degree rule for its points): the
    trial is skipped with this reason, as for a backend that cannot run."""


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
    # A native constraint's left-hand side over the labels where it is not the row's own
    # (face variables: XOR sums), and the auxiliaries' best values for a sample of the
    # variables' labels (how a completion fills them, :meth:`Model.complete`).
    lhs: Poly | None = None
    fill: Callable[[Mapping[int, int]], dict[int, int]] | None = None
    # A reduced piece (:mod:`.reduced`): its products, in the order they were made (each
    # product's pair holds labels of the piece or earlier products); their labels end ``aux``.
    gates: tuple[Gate, ...] = ()

    @property
    def labels(self) -> set[int]:
        """Every label the piece uses (what a solver must create for it)."""
        out = set(self.aux)
        for poly in (self.poly, self.lhs):
            for term in poly or ():
                out.update(term)
        if self.lhs is None and self.native is not None:
            out.update(self.constraint.edges)
        return out


class Formulation(ABC):
    """Turns constraints into a form. Subclasses set ``name`` and what it ``produces`` and
    implement :meth:`encode`."""

    name: ClassVar[str]
    # What the encoded model is: a backend runs it when it takes one of these.
    produces: ClassVar[frozenset[Capability]] = frozenset({Capability.POLYNOMIAL})
    packages: ClassVar[tuple[str, ...]] = ()  # recorded in the provenance columns

    def __init__(
        self,
        clue_weight: int = 1,
        degree_weight: int = 1,
        cut_weight: int = 1,
        cut: str = "loop",
        variables: str = "edge",
    ) -> None:
        if cut not in CUTS:
            raise ValueError(f"cut must be one of {', '.join(CUTS)}, got {cut!r}")
        if variables not in VARIABLES:
            raise ValueError(f"variables must be one of {', '.join(VARIABLES)}, got {variables!r}")
        self.cut = cut
        self.variables = variables
        for label, w in (("clue", clue_weight), ("degree", degree_weight), ("cut", cut_weight)):
            if int(w) != w or w < 1:
                raise ValueError(f"{label}_weight must be a positive integer, got {w!r}")
        # By weight class (what the encoders read, :meth:`weight`), and by the description's
        # own kinds for forms written against those (a kind's class: :data:`KIND_SHAPES`).
        self.weights = {
            "clue": int(clue_weight),
            "degree": int(degree_weight),
            "cut": int(cut_weight),
        }
        for kind, (_, weight) in KIND_SHAPES.items():
            self.weights.setdefault(kind, self.weights[weight])

    def weight(self, c: Constraint) -> int:
        """The weight of ``c``: the form's weight of its class."""
        return self.weights[c.weight]

    def unencodable(self, c: Constraint) -> FormUnavailable:
        """The one-line skip for a shape this form has no encoding of."""
        return FormUnavailable(
            f"the {self.describe()} form cannot encode a {c.shape} constraint ({c.kind})"
        )

    @abstractmethod
    def encode(self, c: Constraint, model: Model) -> Piece:
        """One constraint as a piece, over ``model.variables``' edge expressions (the
        encodings of :mod:`.penalties` take any variables)."""

    # Encodings by shape that replace :meth:`encode` on face variables, each a function
    # (constraint, model, weight) -> Piece: where the edge encoding substituted would be
    # larger or of higher degree than one written for faces (:mod:`.faces`).
    face_encodings: ClassVar[Mapping[str, Callable[[Constraint, Model, int], Piece]]] = (
        MappingProxyType({})
    )

    def encode_piece(self, c: Constraint, model: Model) -> Piece:
        """The piece the model adds for ``c``: refused where the variables cannot hold the
        row, the form's face encoding of its shape where it has one, else :meth:`encode`.
        Face sides a presolve fixed (``model.fixed_faces``) are put into its polynomial."""
        variables = model.variables
        if not variables.takes(c):
            raise self.unencodable(c)
        special = self.face_encodings.get(c.shape) if model.faces else None
        if special is not None:
            piece = special(c, model, self.weight(c))
        else:
            piece = self.encode(c, model)
        return model.fix_sides(piece)

    @property
    def faces(self) -> bool:
        """One binary per face (:class:`~.variables.FaceVariables`) instead of one per edge."""
        return self.variables == "face"

    @property
    def deferred(self) -> frozenset[str]:
        """Constraint kinds the form adds only where a solution broke them (lazily)."""
        return frozenset()

    def params(self) -> dict[str, object]:
        out: dict[str, object] = {f"{k}_weight": self.weights[k] for k in ("clue", "degree", "cut")}
        if self.cut != "loop":  # added later: the default stays out of stored parameters
            out["cut"] = self.cut
        if self.faces:  # the same
            out["variables"] = self.variables
        return out

    def describe(self) -> str:
        return self.label + self.cut_suffix

    @property
    def label(self) -> str:
        """The form's name with its variables: ``cons``, ``cons/face``."""
        return self.name + self.variables_suffix

    @property
    def variables_suffix(self) -> str:
        return "/face" if self.faces else ""

    @property
    def cut_suffix(self) -> str:
        return "" if self.cut == "loop" else f"+{self.cut}"

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
    _cuts: int = 0  # pieces of CUT_KINDS so far
    deferred: list[Constraint] = field(default_factory=list)  # not encoded until broken
    # A reduced form's products (:mod:`.reduced`), every piece's in the order they were made.
    gates: list[Gate] = field(default_factory=list)
    _products: set[int] = field(default_factory=set)
    variables: Variables = field(init=False, repr=False)  # the formulation's, on this puzzle
    # Edges fixed by a presolve (:mod:`slitherbench.models.presolve`): edge -> 0/1. Those fixed
    # when the model was built are no variables at all; later ones are equalities. With face
    # variables: the edges the fixed face sides settle (both sides known).
    fixed: dict[int, int] = field(default_factory=dict)
    # Face variables: the face sides a presolve fixed (face -> 1 inside, 0 outside), the same
    # way: those fixed at build are no variables, later ones are equalities.
    fixed_faces: dict[int, int] = field(default_factory=dict)
    _substituted: frozenset[int] = frozenset()  # the labels fixed at build: no variables

    def __post_init__(self) -> None:
        self.variables = VARIABLES[self.formulation.variables](self.puzzle)

    @classmethod
    def build(
        cls,
        puzzle: Puzzle,
        formulation: Formulation,
        fixed: Mapping[int, int] | None = None,
        faces: Mapping[int, int] | None = None,
    ) -> Model:
        """The variables' labels first (edges 0..E-1, or faces 0..F-1), a point's auxiliary
        next (E + p, or F + p); slack bits follow. ``fixed`` (edge -> 0/1, a presolve's):
        those edges are substituted into every constraint and are no variables. With face
        variables the presolve's ``faces`` (face -> 1 inside, 0 outside, the sides known
        relative to the board's outside) and the sides the fixed edges settle
        (:func:`~slitherbench.models.presolve.sides_from_edges`) are substituted instead:
        each constraint over the edges both of whose sides are known, then each piece's
        polynomial; those faces are no variables. A fixed edge between two faces of unknown
        side fixes only their XOR and is not used."""
        m = cls(puzzle, formulation)
        first = m.variables.count
        m.next_label = first + puzzle.num_points
        if m.faces:
            sides = dict(faces or {})
            for f, side in sides_from_edges(puzzle.board, fixed or {}).items():
                if sides.setdefault(f, side) != side:
                    raise PresolveContradiction(f"face {f}: the fixed edges and sides disagree")
            m.fixed_faces, m._substituted = sides, frozenset(sides)
            m.fixed = settled_edges(puzzle.board, sides)
        elif fixed:
            m.fixed, m._substituted = dict(fixed), frozenset(fixed)
        m._labels.update(e for e in range(first) if e not in m._substituted)
        rows = m.variables.prepare(base_constraints(puzzle), m.new_labels)
        m._labels.update(m.variables.extra)
        for c in rows:
            if c.kind in formulation.deferred:
                m.deferred.append(c)
            else:
                m._add(c)
        return m

    def broken_deferred(self, edges: Sequence[bool]) -> list[Constraint]:
        """The deferred constraints a solution breaks (a lazy form's next additions)."""
        return [c for c in self.deferred if not c.holds(edges)]

    def add_deferred(self, constraints: Sequence[Constraint]) -> None:
        for c in constraints:
            self.deferred.remove(c)
            self._add(c)

    def replay(self, constraints: Sequence[Constraint]) -> None:
        """Add constraints another copy of this model added, in its order (a solve worker's
        copy in a child process follows the trial's model this way: the same constraints in
        the same order give the same pieces and labels)."""
        for c in constraints:
            if c in self.deferred:
                self.deferred.remove(c)
            self._add(c)

    @property
    def num_cuts(self) -> int:
        return self._cuts

    def new_labels(self, n: int) -> tuple[int, ...]:
        out = tuple(range(self.next_label, self.next_label + n))
        self.next_label += n
        return out

    @property
    def face_labels(self) -> tuple[int, ...]:
        """An edge form's face variables, made for a rule on faces (No-Square) alone."""
        return self.variables.extra  # face variables add none

    @property
    def faces(self) -> bool:
        """Face variables (one binary per face)."""
        return self.variables.name == "face"

    def label_name(self, label: int) -> str:
        """A variable's name for solvers: x (edge) or c (face), y (point auxiliary), z (a
        reduction's product, :mod:`.reduced`), s (slack)."""
        first = self.variables.count
        if label < first:
            return f"{self.variables.prefix}{label}"
        if label in self.face_labels:
            return f"c{label - self.face_labels[0]}"
        if label in self._products:
            return f"z{label}"
        return f"y{label - first}" if label < first + self.puzzle.num_points else f"s{label}"

    def _add(self, c: Constraint) -> Piece | None:
        if (self.fixed or self.fixed_faces) and c.kind != "fixed":
            kept = substitute(c, self.fixed, self.fixed_faces if self.faces else None)
            if kept is None:  # met whatever the unfixed edges are: nothing to encode
                self._cuts += c.kind in CUT_KINDS
                return None
            # A face encoding (the QUBO's degree gadget, a loop cut's face patterns) is made
            # from the whole row and takes the fixed sides in its polynomial (fix_sides).
            if not (self.faces and c.shape in self.formulation.face_encodings):
                c = kept
        piece = self.formulation.encode_piece(c, self)
        if c.kind != "fixed" and piece.lhs is not None and all(not t for t in piece.lhs):
            # A native row over faces whose sides are all fixed: a number, not a constraint
            # (a solver's cons() takes an expression). Met: nothing to encode; not met: the
            # fixed sides contradict the row.
            value = piece.lhs.get((), 0)
            if value not in c.allowed:
                raise PresolveContradiction(
                    f"{c.kind} row: the fixed face sides give {value}, allowed {list(c.allowed)}"
                )
            self._cuts += c.kind in CUT_KINDS
            return None
        if c.kind == "fixed" and c.faces:
            self._fix_side(c.faces[0], c.allowed[0])
        elif c.kind == "fixed":
            self.fixed[c.edges[0]] = c.allowed[0]
        self.pieces.append(piece)
        self._cuts += c.kind in CUT_KINDS
        self._labels.update(piece.aux)
        if piece.gates:
            self.gates.extend(piece.gates)
            self._products.update(g.product for g in piece.gates)
        if piece.poly is not None:
            add_poly(self._poly, piece.poly)
        return piece

    def fix(self, edges: Mapping[int, int], faces: Mapping[int, int] | None = None) -> None:
        """Edges a presolve fixed after the model was built (deduction run again after a
        cut): one equality each (:func:`~slitherbench.models.presolve.fixed_edge`). With face
        variables the face sides instead (``faces``, and those the edges settle), one equality
        each (:func:`~slitherbench.models.presolve.fixed_face`)."""
        if self.faces:
            sides = dict(faces or {})
            settled = sides_from_edges(self.puzzle.board, {**self.fixed, **edges})
            for f, side in settled.items():
                sides.setdefault(f, side)
            for f, side in sorted(sides.items()):
                if f not in self.fixed_faces:
                    self._add(fixed_face(f, side))
            return
        for e, v in edges.items():
            if e not in self.fixed:
                self._add(fixed_edge(e, v))

    def _fix_side(self, f: int, side: int) -> None:
        """Face f's side is fixed: so are its edges to faces of known side."""
        self.fixed_faces[f] = side
        board = self.puzzle.board
        for e in board.face_edges[f]:
            g = sum(board.edge_faces[e]) - f  # the other side (-1: the outside)
            other = self.fixed_faces.get(g) if g >= 0 else 0
            if other is not None:
                self.fixed[e] = int(side != other)

    def fix_sides(self, piece: Piece) -> Piece:
        """The piece with the fixed face sides put into its polynomial and its native
        left-hand side (face variables; unchanged otherwise)."""
        if not (self.faces and self.fixed_faces):
            return piece
        sides = self.fixed_faces
        poly = None if piece.poly is None else fix_poly(piece.poly, sides)
        lhs = None if piece.lhs is None else fix_poly(piece.lhs, sides)
        return replace(piece, poly=poly, lhs=lhs)

    def add_cut(self, loop: Sequence[int]) -> Piece | None:
        return self._add(cut_constraint(loop, self.num_cuts))

    def add_cuts(self, loops: Sequence[Sequence[int]]) -> None:
        """Forbid every loop of a multi-loop sample, as the formulation's ``cut`` says:
        loop (the page's no-good per loop) or region (one connectivity cut per loop, its f on
        the next loop)."""
        for c in sample_cuts(self.puzzle, loops, self.formulation.cut, self.num_cuts):
            self._add(c)

    def add_region(self, loop: Sequence[int], other: int, edge: int | None = None) -> Piece | None:
        return self._add(region_constraint(self.puzzle, loop, other, self.num_cuts, edge))

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

    def reduction_summary(self) -> dict[str, int]:
        """A reduced form's products and their largest strength (:mod:`.reduced`); empty
        for every other form."""
        if not self.gates:
            return {}
        return {
            "reduction_products": len(self.gates),
            "reduction_strength_max": max(g.strength for g in self.gates),
        }

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

    def poly_since(self, mark: int) -> Poly:
        """The polynomial of the pieces added after the first ``mark`` (``len(pieces)`` when
        a backend last copied the model): the cuts and lazily added rules its copy lacks, so
        the copy is extended rather than rebuilt at every solve."""
        if self.formulation.native:
            raise TypeError(
                f"the {self.formulation.name} form has native constraints, no polynomial"
            )
        out: Poly = {}
        for piece in self.pieces[mark:]:
            if piece.poly is not None:
                add_poly(out, piece.poly)
        return out

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
        add_to_bqm(bqm, poly.items())
        return bqm

    # -- evaluation ------------------------------------------------------------------------
    def energy(self, sample: Mapping[int, int]) -> int:
        """The form's energy: penalties, plus weight * distance^2 for native constraints
        (their left-hand side over the sample's labels: edges, or the XOR sums of faces).
        A reduced form's products are set to their pairs' product first, whatever the sample
        holds: its energy is the reduced polynomial with the reduction's auxiliaries
        minimised, which is the HUBO's (:mod:`.reduced`)."""
        ones = {label for label, v in sample.items() if v}
        if self.gates:
            with_products(self.gates, ones)
        total = sum(c for term, c in self._poly.items() if ones.issuperset(term))
        for p in self.pieces:
            if p.native is not None:
                c = p.constraint
                if p.lhs is not None:
                    s = evaluate(p.lhs, sample)
                elif c.coeffs:
                    s = sum(a for e, a in zip(c.edges, c.coeffs, strict=True) if e in ones)
                else:  # a count, in C: the runner judges every solve with this energy
                    s = len(ones.intersection(c.edges))
                if s not in c.allowed:
                    total += p.native.weight * c.distance(s) ** 2
        return total

    def edges_of(self, sample: Mapping[int, int]) -> list[bool]:
        """The edges a sample stands for (face variables: the borders between colours, the
        fixed sides at theirs); a presolve's fixed edges at their values."""
        if self.fixed_faces:
            sample = {**sample, **self.fixed_faces}
        edges = self.variables.edges_of(sample)
        for e, v in self.fixed.items():
            edges[e] = bool(v)
        return edges

    def complete(self, edges: Sequence[bool]) -> dict[int, int]:
        """A full assignment from edge values: the variables' labels for these edges
        (face variables: the colouring whose borders they are), then each piece's
        auxiliaries at their best (its ``fill``) and a reduction's products."""
        sample = self.variables.assign(edges)
        sample.update(self.fixed_faces)  # a face piece's fill reads the whole colouring
        for p in self.pieces:
            if p.fill is not None:
                sample.update(p.fill(sample))
            for g in p.gates:  # after the piece's own auxiliaries: a pair may hold one
                sample[g.product] = int(bool(sample.get(g.u, 0) and sample.get(g.v, 0)))
        for e in self._substituted:  # no variables: not in the model
            sample.pop(e, None)
        return sample
