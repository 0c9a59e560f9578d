"""One backend-neutral description of the problem, turned into a form by a Formulation.

The description is a list of :class:`Constraint` (clue sums, point degrees, loop cuts added
as the run goes). A :class:`Formulation` encodes each constraint either as a *native*
constraint (``cons``, pyqbpp only) or as a penalty polynomial over integer variable labels:
edges are labels ``0..E-1``, a degree auxiliary ``y_p`` is ``E + p`` and slack bits get
fresh labels after ``E + P``. With face variables (:mod:`.faces`) faces are labels
``0..F-1`` instead, and ``y_p`` is ``F + p``. A rule on faces (No-Square) in an edge form
adds one face label per face and the channel x_e + c_f + c_g in {0, 2} (:func:`over_labels`).
Kinds a form defers (``Formulation.deferred``: the lazy QUBO's degree rule) are held back
until a solution breaks them (:meth:`Model.broken_deferred`). :class:`Model` holds the
encoded pieces and exports them.

Every constraint carries its *shape* (:data:`SHAPES`: an edge sum equal to n, a range, a
"not all" product, a point's degree rule, ...) and its *weight class* (clue, degree or cut:
the form's three weights). The forms and the exact families encode a constraint by its
shape, never by its kind (a rule's name, "clue", "cut"): a rule of the puzzle
(:mod:`slitherbench.rules`) made of these shapes needs no change here, and a shape a form
cannot encode raises :class:`FormUnavailable` (the trial is a one-line skip).
"""

from __future__ import annotations

from abc import ABC, abstractmethod
from collections import defaultdict
from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass, field, replace
from itertools import combinations
from typing import Any, ClassVar, NamedTuple

from ..puzzle import Puzzle
from ..record import Capability
from ..rules import get_rule

VARIABLES = ("edge", "face")  # a formulation's ``variables``: one binary per edge or per face

Poly = dict[tuple[int, ...], int]  # sorted label tuple -> integer coefficient; () is the constant

# Constraint shapes: what an encoder dispatches on. Each is "sum of coeffs x terms lies in
# allowed"; the shape says which encoding fits it.
EQUAL = "equal"  # a unit sum equal to one value n (a clue): (sum - n)^2
DEGREE = "degree"  # a point's degree in {0, 2}; its auxiliary is the point's own label
PARITY = "parity"  # a unit sum in {0, 2}, no fixed auxiliary (the face channel)
AT_MOST_ONE = "at_most_one"  # a unit sum of at most 1: pairwise products, no auxiliary
NOT_ALL = "not_all"  # a unit sum of at most n - 1 (not every term): a product, or a slack
RANGE = "range"  # lower <= sum a_i x_i <= upper, by a slack
LOOP_CUT = "loop_cut"  # a found loop's no-good (sum <= |L| - 1): over face patterns with faces
SHAPES = (EQUAL, DEGREE, PARITY, AT_MOST_ONE, NOT_ALL, RANGE, LOOP_CUT)
# Weight classes: which of the form's weights (clue_weight, degree_weight, cut_weight) a
# constraint gets.
WEIGHT_CLASSES = ("clue", "degree", "cut")
# The shape and weight class of the description's own kinds (a rule's constraints give
# theirs): clues, point degrees, cuts, the face channel, and Colorlink's rules across colours
# (a black clue is a clue; one colour per edge and "every colour has a line" are rules of the
# lines, weighed as the degree rule and the clues).
KIND_SHAPES: dict[str, tuple[str, str]] = {
    "clue": (EQUAL, "clue"),
    "degree": (DEGREE, "degree"),
    "cut": (LOOP_CUT, "cut"),
    "region": (RANGE, "cut"),  # region cuts are cuts: one weight for both
    "channel": (PARITY, "degree"),
    "black": (EQUAL, "clue"),
    "exclusive": (AT_MOST_ONE, "degree"),
    "nonempty": (RANGE, "clue"),
}
CUT_KINDS = ("cut", "region")  # constraints added as the run goes
CUTS = ("loop", "region")  # a formulation's ``cut`` setting: how a found loop is forbidden


class FormUnavailable(ValueError):
    """The form cannot encode this board (e.g. no quadratic degree rule for its points): the
    trial is skipped with this reason, as for a backend that cannot run."""


@dataclass(frozen=True)
class Constraint:
    """sum of ``coeffs`` x ``edges`` must lie in ``allowed`` (clue: {n}; degree: {0, 2};
    cut: 0..|L|-1; region: see :func:`region_constraint`). No ``coeffs``: every one is 1.
    ``shape`` (one of :data:`SHAPES`) and ``weight`` (one of :data:`WEIGHT_CLASSES`) default
    to those of ``kind`` in :data:`KIND_SHAPES`; any other kind (a rule's) must give both."""

    kind: str  # what the row is for (clue, degree, cut, ..., a rule's name): names and counts
    index: int  # face, point or cut number
    edges: tuple[int, ...]
    allowed: tuple[int, ...]
    coeffs: tuple[int, ...] = ()
    source: tuple[int, ...] = ()  # a cut's loop (the edges it was made from)
    # A rule on face colours (1 inside the loop, 0 outside) instead of edges: the sum of these
    # faces' colours must lie in ``allowed``; ``edges`` is then empty (No-Square: a 2x2 block
    # of faces, allowed 0..3).
    faces: tuple[int, ...] = ()
    shape: str = ""
    weight: str = ""

    def __post_init__(self) -> None:
        # The hot constructions (clues, degrees, cuts: thousands per trial) give both.
        if self.shape and self.weight:
            return
        if self.kind not in KIND_SHAPES:
            raise ValueError(f"a {self.kind} constraint needs its shape and weight class")
        shape, weight = KIND_SHAPES[self.kind]
        object.__setattr__(self, "shape", self.shape or shape)
        object.__setattr__(self, "weight", self.weight or weight)

    def shape_problem(self) -> str | None:
        """One line where the shape or the weight class is not one the encoders know."""
        if self.shape not in SHAPES:
            return f"{self.kind} {self.index}: unknown shape {self.shape!r}"
        if self.weight not in WEIGHT_CLASSES:
            return f"{self.kind} {self.index}: unknown weight class {self.weight!r}"
        return None

    @property
    def upper(self) -> int:
        return max(self.allowed)

    @property
    def lower(self) -> int:
        return min(self.allowed)

    def total(self, values: Mapping[int, int] | Sequence[bool]) -> int:
        """The left-hand side for a sample (label -> value) or an edge list."""
        if isinstance(values, Mapping):
            on = [values.get(e, 0) for e in self.edges]
        else:
            on = [values[e] for e in self.edges]
        if not self.coeffs:  # clues, degrees, loop cuts: a count (the runner judges every
            return sum(map(bool, on))  # solve with it, thousands of constraints at 20x36)
        return sum(a for a, v in zip(self.coeffs, on, strict=True) if v)

    def holds(self, values: Mapping[int, int] | Sequence[bool]) -> bool:
        return self.total(values) in self.allowed

    def distance(self, total: int) -> int:
        return min(abs(total - a) for a in self.allowed)

    def linear(self) -> dict[int, int]:
        """The left-hand side as label -> coefficient."""
        out: dict[int, int] = defaultdict(int)
        for e, a in zip(self.edges, self.coeffs or (1,) * len(self.edges), strict=True):
            out[e] += a
        return dict(out)


@dataclass(frozen=True)
class NativeConstraint:
    """A constraint handed to the solver as it is (pyqbpp ``qbpp.cons``)."""

    constraint: Constraint
    weight: int


class Gate(NamedTuple):
    """One product of a HUBO -> QUBO reduction (:mod:`.reduced`): ``product`` stands for
    ``u * v``, held there by ``strength`` times dimod's AND gate."""

    product: int
    u: int
    v: int
    strength: int


@dataclass
class Piece:
    constraint: Constraint
    poly: Poly | None = None
    native: NativeConstraint | None = None
    aux: tuple[int, ...] = ()
    # Face variables: a native constraint's left-hand side over the labels (XOR sums), and
    # the auxiliaries' best values for a sample of the other labels.
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


def base_constraints(puzzle: Puzzle) -> list[Constraint]:
    """Every clue sum and every point's degree rule: the description each form encodes and
    each exact family builds its model from (:mod:`slitherbench.backends.encode`). A clue's
    edges are sorted, so the square grid's terms come in the order they always had."""
    out = [
        Constraint("clue", f, tuple(sorted(puzzle.face_edges[f])), (n,), shape=EQUAL, weight="clue")
        for f, n in puzzle.clue_faces
    ]
    out += [
        Constraint("degree", p, edges, (0, 2), shape=DEGREE, weight="degree")
        for p, edges in enumerate(puzzle.point_edges)
    ]
    for name in puzzle.rules:  # each rule's own rows (slitherbench.rules)
        out += rule_rows(puzzle, name)
    if puzzle.variant:  # Colorlink: black clues, one colour per edge, every colour a line
        out += puzzle.variant_constraints()  # type: ignore[attr-defined]
    return out


def rule_rows(puzzle: Puzzle, name: str) -> list[Constraint]:
    """The rows of rule ``name`` (:meth:`slitherbench.rules.Rule.constraints`), each checked
    to have a shape and a weight class the encoders know."""
    rows = list(get_rule(name).constraints(puzzle))
    for c in rows:
        problem = c.shape_problem()
        if problem is not None:
            raise ValueError(f"rule {name}: {problem}")
    return rows


# The channel's constraint kind: face variables tied to the edges where a rule is on faces
# (the exact families' rows, and an edge form's face variables for that rule).
CHANNEL = "channel"


def needs_faces(constraints: Sequence[Constraint]) -> bool:
    """Whether any constraint is on face colours (a face channel must be added)."""
    return any(c.faces for c in constraints)


def face_channel(puzzle: Puzzle, labels: Sequence[int]) -> list[Constraint]:
    """x_e = c_f XOR c_g for every edge, as "x_e + c_f + c_g is even" (face f's variable is
    ``labels[f]``; the outside, -1, is 0 and drops out)."""
    return [
        Constraint(
            CHANNEL,
            e,
            (e, *(labels[h] for h in (f, g) if h >= 0)),
            (0, 2),
            shape=PARITY,
            weight="degree",
        )
        for e, (f, g) in enumerate(puzzle.board.edge_faces)
    ]


def over_labels(
    puzzle: Puzzle, constraints: Sequence[Constraint], labels: Sequence[int] | None
) -> list[Constraint]:
    """The constraints as rows over variable labels (edge e is label e): with face
    constraints among them, ``labels`` (one per face, fresh variables of the solver) first
    get the :func:`face_channel`, and each face constraint becomes one on those labels."""
    if not needs_faces(constraints):
        return list(constraints)
    if labels is None:
        raise ValueError("face constraints need one variable label per face")
    out = face_channel(puzzle, labels)
    for c in constraints:
        out.append(replace(c, edges=tuple(labels[f] for f in c.faces), faces=()) if c.faces else c)
    return out


def description_rows(
    puzzle: Puzzle, add_face_vars: Callable[[int], Sequence[int]], faces: bool = False
) -> list[Constraint]:
    """The puzzle's description (:func:`base_constraints`) as an exact solver's rows over its
    variable labels. On face variables (``faces``), or for a rule on faces, the solver first
    makes one variable per face (``add_face_vars(count)`` returns their labels) and every
    edge is tied to its two faces by the :func:`face_channel`: every assignment is then a
    face colouring whose edges are its borders, the face form's model, solved exactly."""
    constraints = base_constraints(puzzle)
    if not (faces or needs_faces(constraints)):
        return constraints
    labels = list(add_face_vars(puzzle.num_faces))
    rows = over_labels(puzzle, constraints, labels)
    if not needs_faces(constraints):  # over_labels added no channel: no rule asked for one
        rows = face_channel(puzzle, labels) + rows
    return rows


def cut_constraint(loop: Sequence[int], k: int) -> Constraint:
    """The page's loop cut: not every edge of the loop on (sum x_e <= |L| - 1)."""
    edges = tuple(sorted(loop))
    return Constraint(
        "cut", k, edges, tuple(range(len(loop))), source=edges, shape=LOOP_CUT, weight="cut"
    )


def region_constraint(
    puzzle: Puzzle, loop: Sequence[int], other: int, k: int, edge: int | None = None
) -> Constraint:
    """A connectivity cut from a found loop L (points S), an edge e of L and an edge f of
    another loop: x(border of S) >= 2 (x_e + x_f - 1). One connected loop through e (inside S)
    and f (outside) crosses the border at least twice, so no answer is ever cut; it forbids
    every solution that closes up inside S while f is on, not only L itself.
    Stored as sum_border x - 2 x_e - 2 x_f in -2..|border|; ``edges`` ends with e, f.
    ``other`` is f; e is ``edge``, by default the loop's lowest edge."""
    inside = {p for e in loop for p in puzzle.edge_points[e]}
    border = tuple(
        e for e, (a, b) in enumerate(puzzle.edge_points) if (a in inside) != (b in inside)
    )
    e = min(loop) if edge is None else edge
    if e not in loop or inside & set(puzzle.edge_points[other]):
        raise ValueError("a region cut needs e on the loop and f outside its points")
    coeffs = (1,) * len(border) + (-2, -2)
    allowed = tuple(range(-2, len(border) + 1))
    edges = (*border, e, other)
    loop_edges = tuple(sorted(loop))
    return Constraint(
        "region", k, edges, allowed, coeffs, source=loop_edges, shape=RANGE, weight="cut"
    )


def region_partner(loops: Sequence[Sequence[int]], k: int) -> int:
    """The f of loop k's region cut: the lowest edge of the next loop of the sample."""
    return min(loops[(k + 1) % len(loops)])


def sample_cuts(
    puzzle: Puzzle, loops: Sequence[Sequence[int]], cut: str, first: int
) -> list[Constraint]:
    """What forbids each loop of a multi-loop sample, numbered from ``first``: the page's loop
    cut, or with ``cut="region"`` a region cut with its f on the next loop (a lone loop gets
    a loop cut: there is no other loop for f). The one rule of the runner's iterative method,
    the exact families' lazy loop and the generator's uniqueness judge. A puzzle variant
    (Colorlink) picks its own cuts from the loops (each colour's extra loops)."""
    if puzzle.variant:
        return puzzle.variant_cuts(loops, cut, first)  # type: ignore[attr-defined]
    if cut == "loop" or len(loops) < 2:
        return [cut_constraint(lp, first + k) for k, lp in enumerate(loops)]
    return [
        region_constraint(puzzle, lp, region_partner(loops, k), first + k)
        for k, lp in enumerate(loops)
    ]


def region_parts(c: Constraint) -> tuple[tuple[int, ...], int, int]:
    """(border edges, e, f) of a region cut."""
    return c.edges[:-2], c.edges[-2], c.edges[-1]


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


def add_to_bqm(bqm: Any, terms: Iterable[tuple[tuple[Any, ...], float]]) -> None:
    """Add polynomial terms of degree <= 2 to a dimod BQM, the constant to its offset."""
    for term, c in terms:
        if len(term) == 0:
            bqm.offset += c
        elif len(term) == 1:
            bqm.add_linear(term[0], c)
        elif len(term) == 2:
            bqm.add_quadratic(term[0], term[1], c)
        else:
            raise TypeError(f"a term of degree {len(term)} in a quadratic model")


def evaluate(poly: Mapping[tuple[int, ...], int], sample: Mapping[int, int]) -> int:
    """The polynomial's value on a binary sample (a label missing from it is 0). A term
    counts when every label in it is 1: a set test in C, since the runner judges every
    sample with the model's energy and a loop product holds 60+ labels."""
    ones = {label for label, v in sample.items() if v}
    return sum(c for term, c in poly.items() if ones.issuperset(term))


def with_products(gates: Iterable[Gate], ones: set[int]) -> set[int]:
    """The labels that are 1 (``ones``, changed in place) with every product set to the
    product of its pair, in the order the products were made (a pair may hold an earlier
    product): the reduction's auxiliaries at their minimum (:mod:`.reduced`)."""
    for g in gates:
        if g.u in ones and g.v in ones:
            ones.add(g.product)
        else:
            ones.discard(g.product)
    return ones


class Formulation(ABC):
    """Turns constraints into a form. Subclasses set ``name`` and implement ``encode``."""

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
        """One constraint over edge variables."""

    def encode_face(self, c: Constraint, model: Model) -> Piece:
        """One constraint over face variables (:mod:`.faces`)."""
        raise ValueError(f"the {self.name} form has no face-variable encoding")

    def encode_piece(self, c: Constraint, model: Model) -> Piece:
        return self.encode_face(c, model) if self.faces else self.encode(c, model)

    @property
    def faces(self) -> bool:
        """One binary per face (:mod:`.faces`) instead of one per edge."""
        return self.variables == "face"

    @property
    def deferred(self) -> frozenset[str]:
        """Constraint kinds the form adds only where a solution broke them (lazily)."""
        return frozenset()

    def aux_values(self, piece: Piece, edges: Sequence[bool]) -> dict[int, int]:
        """Auxiliary values that minimise this piece's penalty for the given edges (hints)."""
        return {}

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
    face_labels: tuple[int, ...] = ()  # an edge form's face variables (for a rule on faces)
    deferred: list[Constraint] = field(default_factory=list)  # not encoded until broken
    # A reduced form's products (:mod:`.reduced`), every piece's in the order they were made.
    gates: list[Gate] = field(default_factory=list)
    _products: set[int] = field(default_factory=set)

    @classmethod
    def build(cls, puzzle: Puzzle, formulation: Formulation) -> Model:
        """Edge variables are labels 0..E-1, a point's auxiliary E + p; face variables are
        labels 0..F-1 (the board's outside is fixed at 0, no label), a point's auxiliary F + p.
        Slack bits follow."""
        first = puzzle.num_faces if formulation.faces else puzzle.num_edges
        m = cls(puzzle, formulation, next_label=first + puzzle.num_points)
        m._labels.update(range(first))
        constraints = base_constraints(puzzle)
        if needs_faces(constraints) and not formulation.faces:
            # A rule on faces (No-Square) in an edge form: face variables for it alone, tied
            # to the edges by x_e + c_f + c_g in {0, 2} (the exact families' channel).
            m.face_labels = m.new_labels(puzzle.num_faces)
            m._labels.update(m.face_labels)
            constraints = over_labels(puzzle, constraints, m.face_labels)
        for c in constraints:
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
    def faces(self) -> bool:
        return self.formulation.faces

    def label_name(self, label: int) -> str:
        """A variable's name for solvers: x (edge) or c (face), y (point auxiliary), z (a
        reduction's product, :mod:`.reduced`), s (slack)."""
        first = self.puzzle.num_faces if self.faces else self.puzzle.num_edges
        if label < first:
            return f"{'c' if self.faces else 'x'}{label}"
        if label in self.face_labels:
            return f"c{label - self.face_labels[0]}"
        if label in self._products:
            return f"z{label}"
        return f"y{label - first}" if label < first + self.puzzle.num_points else f"s{label}"

    def _add(self, c: Constraint) -> Piece:
        piece = self.formulation.encode_piece(c, self)
        self.pieces.append(piece)
        self._cuts += c.kind in CUT_KINDS
        self._labels.update(piece.aux)
        if piece.gates:
            self.gates.extend(piece.gates)
            self._products.update(g.product for g in piece.gates)
        if piece.poly is not None:
            add_poly(self._poly, piece.poly)
        return piece

    def add_cut(self, loop: Sequence[int]) -> Piece:
        return self._add(cut_constraint(loop, self.num_cuts))

    def add_cuts(self, loops: Sequence[Sequence[int]]) -> None:
        """Forbid every loop of a multi-loop sample, as the formulation's ``cut`` says:
        loop (the page's no-good per loop) or region (one connectivity cut per loop, its f on
        the next loop)."""
        for c in sample_cuts(self.puzzle, loops, self.formulation.cut, self.num_cuts):
            self._add(c)

    def add_region(self, loop: Sequence[int], other: int, edge: int | None = None) -> Piece:
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
        """The edges a sample stands for (face variables: the borders between colours)."""
        if self.faces:
            return self.puzzle.board.boundary(
                [bool(sample.get(f, 0)) for f in range(self.puzzle.num_faces)]
            )
        return [bool(sample.get(e, 0)) for e in range(self.puzzle.num_edges)]

    def complete(self, edges: Sequence[bool]) -> dict[int, int]:
        """A full assignment from edge values, auxiliaries chosen to minimise the energy.
        Face variables: the colouring whose borders are these edges (every degree even)."""
        if self.faces:
            sample = {f: int(v) for f, v in enumerate(self.puzzle.board.inside(edges))}
        else:
            sample = {e: int(bool(x)) for e, x in enumerate(edges)}
            if self.face_labels:
                inside = self.puzzle.board.inside(edges)
                sample.update((lb, int(v)) for lb, v in zip(self.face_labels, inside, strict=True))
        for p in self.pieces:
            if p.fill is not None:
                sample.update(p.fill(sample))
            elif p.aux:
                sample.update(self.formulation.aux_values(p, edges))
            for g in p.gates:  # after the piece's own auxiliaries: a pair may hold one
                sample[g.product] = int(bool(sample.get(g.u, 0) and sample.get(g.v, 0)))
        return sample


def sum_edges(edges: Iterable[int]) -> dict[int, int]:
    return dict.fromkeys(edges, 1)
