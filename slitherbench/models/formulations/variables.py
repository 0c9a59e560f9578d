"""What a model's variables are: one binary per edge (the page) or one per face.

A :class:`Variables` strategy owns what differs between the two: the model's first labels,
each edge's *expression* over them (x_e itself, or c_f XOR c_g), a constraint's left-hand
side, the edges a sample stands for and the labels' values for an edge set. The forms write
each encoding once over these expressions (:mod:`.penalties`); where face variables have a
better encoding than the edge one substituted, a form names it in ``face_encodings``
(:mod:`.faces`).

Registered by name in :data:`VARIABLES` (a formulation's ``variables`` setting)::

    >>> from slitherbench.puzzles.puzzle import Puzzle
    >>> p = Puzzle.parse("3./..")
    >>> p.board.edge_faces[3]  # edge 3 lies between faces 1 and 3
    (1, 3)
    >>> EdgeVariables(p).edge(3), FaceVariables(p).edge(3)
    ({(3,): 1}, {(1,): 1, (3,): 1, (1, 3): -2})
    >>> FaceVariables(p).edges_of({0: 1})[:3]  # face 0 alone inside: its sides are the loop
    [True, False, True]
"""

from __future__ import annotations

from abc import ABC, abstractmethod
from collections.abc import Callable, Mapping, Sequence
from typing import TYPE_CHECKING, ClassVar

from slitherbench.models.formulations.polynomial import Poly, add_poly
from slitherbench.puzzles.description import PARITY, Constraint, needs_faces, over_labels

if TYPE_CHECKING:
    from slitherbench.puzzles.boards import Board
    from slitherbench.puzzles.puzzle import Puzzle


class Variables(ABC):
    """One kind of variables for one puzzle. Subclasses set ``name`` and ``prefix`` (the
    letter of their labels in a solver's names) and implement the hooks below."""

    name: ClassVar[str]
    prefix: ClassVar[str]

    def __init__(self, puzzle: Puzzle) -> None:
        self.puzzle = puzzle
        self.extra: tuple[int, ...] = ()  # labels :meth:`prepare` added beyond the first

    @property
    @abstractmethod
    def count(self) -> int:
        """How many labels the variables take: ``0..count-1``. A point's auxiliary y_p is
        label ``count + p``; slack bits and products follow."""

    @abstractmethod
    def edge(self, e: int) -> Poly:
        """Edge ``e`` as a polynomial over the labels."""

    @abstractmethod
    def terms(self, c: Constraint) -> list[Poly]:
        """Each of ``c``'s terms as a polynomial over the labels, in the row's order."""

    @abstractmethod
    def lhs(self, c: Constraint) -> Poly:
        """``c``'s left-hand side (its weighted sum) over the labels."""

    def native_lhs(self, c: Constraint) -> Poly | None:
        """The left-hand side a native constraint needs spelled out (None: the row's own
        labels and coefficients, as they are)."""
        return None

    def takes(self, c: Constraint) -> bool:
        """Whether ``c`` is a row these variables can hold."""
        return True

    def prepare(
        self, constraints: list[Constraint], new_labels: Callable[[int], tuple[int, ...]]
    ) -> list[Constraint]:
        """The constraints as rows over the labels; labels the rows need beyond the first
        ``count`` come from ``new_labels(n)`` and are kept in ``extra``."""
        return constraints

    @abstractmethod
    def edges_of(self, sample: Mapping[int, int]) -> list[bool]:
        """The edges a sample stands for."""

    @abstractmethod
    def assign(self, edges: Sequence[bool]) -> dict[int, int]:
        """Every label of the variables, ``extra`` included (not the pieces' auxiliaries),
        for an edge set."""


class EdgeVariables(Variables):
    """One binary per edge: label e is x_e. A rule on faces (No-Square) gets one more label
    per face, tied to the edges by the face channel x_e + c_f + c_g in {0, 2}."""

    name = "edge"
    prefix = "x"

    @property
    def count(self) -> int:
        return self.puzzle.num_edges

    def edge(self, e: int) -> Poly:
        return {(e,): 1}

    def terms(self, c: Constraint) -> list[Poly]:
        return [self.edge(label) for label in c.edges]

    def lhs(self, c: Constraint) -> Poly:
        # A row is over labels here (over_labels made a face rule's rows over the face
        # labels), so its terms are its labels.
        return {(label,): a for label, a in c.linear().items()}

    def prepare(
        self, constraints: list[Constraint], new_labels: Callable[[int], tuple[int, ...]]
    ) -> list[Constraint]:
        if not needs_faces(constraints):
            return constraints
        self.extra = new_labels(self.puzzle.num_faces)  # one per face, for the rule alone
        return over_labels(self.puzzle, constraints, self.extra)

    def edges_of(self, sample: Mapping[int, int]) -> list[bool]:
        return [bool(sample.get(e, 0)) for e in range(self.puzzle.num_edges)]

    def assign(self, edges: Sequence[bool]) -> dict[int, int]:
        sample = {e: int(bool(x)) for e, x in enumerate(edges)}
        if self.extra:
            inside = self.puzzle.board.inside(edges)
            sample.update((lb, int(v)) for lb, v in zip(self.extra, inside, strict=True))
        return sample


class FaceVariables(Variables):
    """One binary per face, 1 inside the loop (the board's outside is fixed at 0, no label):
    x_e = c_f XOR c_g = c_f + c_g - 2 c_f c_g (:mod:`.faces`). Every sample is an edge set of
    even degrees, and a rule on faces is over the labels themselves."""

    name = "face"
    prefix = "c"

    @property
    def count(self) -> int:
        return self.puzzle.num_faces

    def edge(self, e: int) -> Poly:
        return edge_poly(self.puzzle.board, e)

    def terms(self, c: Constraint) -> list[Poly]:
        if c.faces:
            return [{(f,): 1} for f in c.faces]
        return [self.edge(e) for e in c.edges]

    def lhs(self, c: Constraint) -> Poly:
        if c.faces:
            return {(f,): 1 for f in c.faces}
        out: Poly = {}
        for e, a in c.linear().items():
            add_poly(out, self.edge(e), a)
        return out

    def native_lhs(self, c: Constraint) -> Poly | None:
        return self.lhs(c)

    def takes(self, c: Constraint) -> bool:
        # The channel ties labels of two kinds; face variables need none.
        return c.shape != PARITY

    def edges_of(self, sample: Mapping[int, int]) -> list[bool]:
        return self.puzzle.board.boundary(
            [bool(sample.get(f, 0)) for f in range(self.puzzle.num_faces)]
        )

    def assign(self, edges: Sequence[bool]) -> dict[int, int]:
        # The colouring whose borders are these edges (every degree even).
        return {f: int(v) for f, v in enumerate(self.puzzle.board.inside(edges))}


def edge_poly(board: Board, e: int) -> Poly:
    """x_e in face labels: c_f + c_g - 2 c_f c_g, or c_f beside the outside."""
    f, g = board.edge_faces[e]
    if g < 0:
        return {(f,): 1}
    return {(f,): 1, (g,): 1, (f, g): -2}


VARIABLES: dict[str, type[Variables]] = {v.name: v for v in (EdgeVariables, FaceVariables)}
