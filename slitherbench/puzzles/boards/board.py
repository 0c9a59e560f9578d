"""The board model: :class:`Board` (see :mod:`slitherbench.puzzles.boards` for the tutorial)."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field
from functools import cached_property

__all__ = ["Board", "BoardError"]


class BoardError(ValueError):
    """The tables do not make a board (one line, naming the first problem)."""


@dataclass(frozen=True, eq=False)
class Board:
    """A planar grid: points, edges as point pairs, faces as cyclic lists of edges.

    ``kind`` names the family (``square``, ``honeycomb``, ...); ``width`` and ``height`` are
    its size parameters (columns and rows for squares; Loopy's w and h otherwise); ``desc``
    is a grid description where the kind needs one (Loopy's Penrose patches, its triangular
    layout). The outside of the board is face -1 in :attr:`edge_faces`.
    """

    kind: str
    width: int
    height: int
    points: tuple[tuple[float, float], ...]  # coordinates, y down
    edge_points: tuple[tuple[int, int], ...]
    face_edges: tuple[tuple[int, ...], ...]  # each face's sides, in order around it
    desc: str | None = None
    meta: dict = field(default_factory=dict, compare=False, repr=False)

    def __post_init__(self) -> None:
        n = len(self.points)
        for e, (a, b) in enumerate(self.edge_points):
            if not (0 <= a < n and 0 <= b < n) or a == b:
                raise BoardError(f"edge {e} joins points {a} and {b} of {n}")
        if not self.face_edges:
            raise BoardError("a board needs at least one face")
        seen = [0] * len(self.edge_points)
        for f, sides in enumerate(self.face_edges):
            if len(sides) < 3 or len(set(sides)) != len(sides):
                raise BoardError(f"face {f} has sides {sides}: not a polygon")
            for k, e in enumerate(sides):
                if not 0 <= e < len(self.edge_points):
                    raise BoardError(f"face {f} names edge {e} of {len(self.edge_points)}")
                if not set(self.edge_points[e]) & set(self.edge_points[sides[k - 1]]):
                    raise BoardError(f"face {f}: sides {sides[k - 1]} and {e} do not meet")
                seen[e] += 1
        if max(seen) > 2:
            raise BoardError(f"edge {seen.index(max(seen))} borders {max(seen)} faces")

    # -- equality: what the board is, not how it was computed --------------------------------
    def __eq__(self, other: object) -> bool:
        return isinstance(other, Board) and self.key == other.key

    def __hash__(self) -> int:
        return hash(self.key)

    @cached_property
    def key(self) -> tuple:
        """What the board is: its kind, parameters and all three tables."""
        return (
            self.kind,
            self.width,
            self.height,
            self.desc,
            self.points,
            self.edge_points,
            self.face_edges,
        )

    # -- sizes --------------------------------------------------------------------------------
    @property
    def num_points(self) -> int:
        return len(self.points)

    @property
    def num_edges(self) -> int:
        return len(self.edge_points)

    @property
    def num_faces(self) -> int:
        return len(self.face_edges)

    @property
    def size(self) -> str:
        """The size parameters as written in game IDs: ``7x7`` (width x height; squares:
        rows x columns, as the reference page writes them)."""
        if self.kind == "square":
            return f"{self.height}x{self.width}"
        return f"{self.width}x{self.height}"

    @property
    def label(self) -> str:
        """``honeycomb 7x7``: kind and size, for tables and figure titles."""
        return f"{self.kind} {self.size}"

    @cached_property
    def max_face_size(self) -> int:
        return max(len(f) for f in self.face_edges)

    @cached_property
    def max_degree(self) -> int:
        """The most edges at one point (4 on squares, 6 on triangles)."""
        return max(len(p) for p in self.point_edges)

    # -- adjacency, computed once ---------------------------------------------------------------
    @cached_property
    def point_edges(self) -> tuple[tuple[int, ...], ...]:
        """The edges at every point, in edge order."""
        acc: list[list[int]] = [[] for _ in self.points]
        for e, (a, b) in enumerate(self.edge_points):
            acc[a].append(e)
            acc[b].append(e)
        return tuple(tuple(x) for x in acc)

    @cached_property
    def edge_faces(self) -> tuple[tuple[int, int], ...]:
        """The two faces beside every edge, lower index first; -1 is the outside."""
        acc: list[list[int]] = [[] for _ in self.edge_points]
        for f, sides in enumerate(self.face_edges):
            for e in sides:
                acc[e].append(f)
        return tuple((x[0], x[1]) if len(x) == 2 else (x[0], -1) for x in acc)

    @cached_property
    def face_points(self) -> tuple[tuple[int, ...], ...]:
        """Every face's corners in order around it (corner k joins sides k - 1 and k)."""
        out = []
        for sides in self.face_edges:
            corners = []
            for k, e in enumerate(sides):
                shared = set(self.edge_points[e]) & set(self.edge_points[sides[k - 1]])
                corners.append(min(shared))
            out.append(tuple(corners))
        return tuple(out)

    @cached_property
    def face_neighbours(self) -> tuple[tuple[int, ...], ...]:
        """The faces across each side of every face (-1: the outside), in side order."""
        out = []
        for f, sides in enumerate(self.face_edges):
            out.append(tuple(a if a != f else b for a, b in (self.edge_faces[e] for e in sides)))
        return tuple(out)

    # -- inside and outside ---------------------------------------------------------------------
    def boundary(self, inside: Sequence[bool]) -> list[bool]:
        """The edges between inside and outside faces (one flag per face; the board's outside
        counts as outside): the loop around a region."""
        if len(inside) != self.num_faces:
            raise ValueError(
                f"{len(inside)} flags for the {self.num_faces} faces of a {self.label}"
            )
        return [bool(inside[f]) != (g >= 0 and bool(inside[g])) for f, g in self.edge_faces]

    def inside(self, answer: Sequence[bool] | Sequence[int]) -> list[bool]:
        """Which faces an answer's lines enclose: a face is inside when every path to the
        outside crosses an odd number of lines (flood fill, so any face shape works)."""
        side = [-1] * self.num_faces
        stack = []
        for e, (f, g) in enumerate(self.edge_faces):
            if g < 0 and side[f] < 0:  # a face on the rim: inside iff its rim edge is a line
                side[f] = 1 if answer[e] else 0
                stack.append(f)
        while stack:
            f = stack.pop()
            for e, g in zip(self.face_edges[f], self.face_neighbours[f], strict=True):
                if g >= 0 and side[g] < 0:
                    side[g] = side[f] ^ (1 if answer[e] else 0)
                    stack.append(g)
        return [s == 1 for s in side]

    def face_centre(self, f: int) -> tuple[float, float]:
        xs, ys = zip(*(self.points[p] for p in self.face_points[f]), strict=True)
        return sum(xs) / len(xs), sum(ys) / len(ys)

    def __repr__(self) -> str:
        return f"Board({self.label}, {self.num_faces} faces)"
