"""The backend-neutral description of the problem: a list of :class:`Constraint` (clue
sums, point degrees, a rule's rows, the cuts added as the run goes) over edge labels.

Every constraint carries its *shape* (:data:`SHAPES`: an edge sum equal to n, a range, a
"not all" product, a point's degree rule, ...) and its *weight class* (clue, degree or cut:
a form's three weights). The forms and the exact families encode a constraint by its shape,
never by its kind (a rule's name, "clue", "cut"): a rule of the puzzle
(:mod:`slitherbench.puzzles.rules`) made of these shapes needs no change here. A rule on faces
(No-Square) gives rows over face colours (``Constraint.faces``); a solver on edge variables
ties one label per face to the edges by the :func:`face_channel` (:func:`over_labels`).
"""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, replace

from slitherbench.puzzles.puzzle import Puzzle
from slitherbench.puzzles.rules import get_rule

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


def base_constraints(puzzle: Puzzle) -> list[Constraint]:
    """Every clue sum and every point's degree rule: the description each form encodes and
    each exact family builds its model from (:mod:`slitherbench.models.encode`). A clue's
    edges are sorted, so the square grid's terms come in the order they always had."""
    out = [
        Constraint("clue", f, tuple(sorted(puzzle.face_edges[f])), (n,), shape=EQUAL, weight="clue")
        for f, n in puzzle.clue_faces
    ]
    out += [
        Constraint("degree", p, edges, (0, 2), shape=DEGREE, weight="degree")
        for p, edges in enumerate(puzzle.point_edges)
    ]
    for name in puzzle.rules:  # each rule's own rows (slitherbench.puzzles.rules)
        out += rule_rows(puzzle, name)
    if puzzle.variant:  # Colorlink: black clues, one colour per edge, every colour a line
        out += puzzle.variant_constraints()  # type: ignore[attr-defined]
    return out


def rule_rows(puzzle: Puzzle, name: str) -> list[Constraint]:
    """The rows of rule ``name`` (:meth:`slitherbench.puzzles.rules.Rule.constraints`), each checked
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
