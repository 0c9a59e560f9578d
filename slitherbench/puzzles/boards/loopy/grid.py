"""Loopy's grid construction (Simon Tatham's Puzzles, ``grid.c``), written again in Python.

A grid type's module builds its faces with a :class:`GridBuilder`, exactly as its
``grid_new_<type>`` function in ``grid.c`` does: faces in the same order, each face's corners
in the same order (clockwise with y down, except the floret's, as in ``grid.c``), corners
shared between faces found by their exact integer coordinates (``grid_get_dot``), so that
dots get Loopy's indices. :meth:`finish` then does what ``grid_make_consistent`` does: the
edges, numbered in the order Loopy numbers them (faces in order, each face's sides in order,
an edge numbered where it is first met).

Face order matters most: a Loopy game ID lists one clue per face in this order.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass, field
from random import Random


class GridError(ValueError):
    """The parameters or the grid description cannot make a grid (one line, names why)."""


@dataclass(frozen=True)
class LoopyGrid:
    """A finished grid: Loopy's dots, faces and edges, in Loopy's order."""

    dots: tuple[tuple[int, int], ...]  # integer coordinates, y down
    faces: tuple[tuple[int, ...], ...]  # each face's dots, in Loopy's order
    edges: tuple[tuple[int, int], ...]  # dot pairs as first met (dot1, dot2)
    face_edges: tuple[tuple[int, ...], ...]  # side k of a face joins its dots k and k + 1
    edge_faces: tuple[tuple[int, int], ...]  # (face1, face2); -1 is the outside

    @property
    def num_faces(self) -> int:
        return len(self.faces)


@dataclass
class GridBuilder:
    """Dots and faces as a grid type lays them out (``grid_get_dot``, ``grid_face_add_new``)."""

    dots: list[tuple[int, int]] = field(default_factory=list)
    faces: list[tuple[int, ...]] = field(default_factory=list)
    _index: dict[tuple[int, int], int] = field(default_factory=dict)

    def dot(self, x: int, y: int) -> int:
        """The dot at (x, y), made if new (``grid_get_dot``: exact integer coordinates)."""
        key = (int(x), int(y))
        k = self._index.get(key)
        if k is None:
            k = self._index[key] = len(self.dots)
            self.dots.append(key)
        return k

    def face(self, corners: Iterable[tuple[int, int]]) -> int:
        """A new face through these corners, in the order given (Loopy's); returns its index."""
        self.faces.append(tuple(self.dot(x, y) for x, y in corners))
        return len(self.faces) - 1

    def trim_vigorously(self) -> None:
        """``grid_trim_vigorously``: keep only the faces touching the largest connected set
        of landlocked dots (dots every edge of which has a face on both sides), and the dots
        those faces use; both renumbered in their old order."""
        pairs: dict[tuple[int, int], int] = {}
        for k, f in enumerate(self.faces):
            for a, b in zip(f, f[1:] + f[:1], strict=True):
                pairs[(a, b)] = k
        landlocked = [True] * len(self.dots)
        for a, b in pairs:
            if (b, a) not in pairs:  # a side with the outside on one hand: both dots coastal
                landlocked[a] = landlocked[b] = False
        parent = list(range(len(self.dots)))

        def root(a: int) -> int:
            while parent[a] != a:
                parent[a] = parent[parent[a]]
                a = parent[a]
            return a

        size = [1] * len(self.dots)
        for a, b in pairs:
            if a > b and landlocked[a] and landlocked[b] and (b, a) in pairs:
                ra, rb = root(a), root(b)
                if ra != rb:
                    # dsf_merge in Loopy keeps the smaller index as the root
                    lo, hi = min(ra, rb), max(ra, rb)
                    parent[hi] = lo
                    size[lo] += size[hi]
        best, best_size = -1, 0
        for d in range(len(self.dots)):
            if landlocked[d] and root(d) == d and size[d] > best_size:
                best, best_size = d, size[d]
        keep_faces = [f for f in self.faces if any(root(d) == best for d in f)]
        used = sorted({d for f in keep_faces for d in f})
        new_index = {d: k for k, d in enumerate(used)}
        self.dots = [self.dots[d] for d in used]
        self._index = {xy: k for k, xy in enumerate(self.dots)}
        self.faces = [tuple(new_index[d] for d in f) for f in keep_faces]

    def finish(self) -> LoopyGrid:
        """``grid_make_consistent``: number the edges as Loopy does."""
        if not self.faces:
            raise GridError("the grid has no faces")
        edge_of: dict[tuple[int, int], int] = {}
        edges: list[tuple[int, int]] = []
        sides: list[list[int]] = []
        face_edges: list[tuple[int, ...]] = []
        for k, f in enumerate(self.faces):
            own = []
            for a, b in zip(f, f[1:] + f[:1], strict=True):
                key = (a, b) if a < b else (b, a)
                e = edge_of.get(key)
                if e is None:
                    e = edge_of[key] = len(edges)
                    edges.append((a, b))
                    sides.append([k, -1])
                elif sides[e][1] == -1 and sides[e][0] != k:
                    sides[e][1] = k
                else:
                    raise GridError(f"face {k} repeats a side of face {sides[e][0]}")
                own.append(e)
            face_edges.append(tuple(own))
        if len(edges) != len(self.faces) + len(self.dots) - 1:
            # Euler's formula F + V = E + 1 (outside not counted) holds for Loopy's grids.
            raise GridError(
                f"not one planar grid: {len(self.faces)} faces, {len(self.dots)} dots, "
                f"{len(edges)} edges"
            )
        return LoopyGrid(
            dots=tuple(self.dots),
            faces=tuple(self.faces),
            edges=tuple(edges),
            face_edges=tuple(face_edges),
            edge_faces=tuple((a, b) for a, b in sides),
        )


def no_desc(width: int, height: int, desc: str | None) -> str | None:
    """Most grid types take no grid description (``grid_validate_desc``)."""
    if desc is not None:
        return "grid description strings are not used with this grid type"
    return None


def no_new_desc(width: int, height: int, rng: Random) -> str | None:
    return None


@dataclass(frozen=True)
class GridType:
    """One Loopy grid type: its number in game IDs (``t3``), names, size limits and builder.

    ``build(width, height, desc)`` returns the :class:`GridBuilder` with every face added (and
    trimmed where Loopy trims); ``face_bound(width, height)`` is an upper bound on the faces
    (``max_faces`` in grid.c), checked before anything is built; ``validate_desc`` says what
    is wrong with a grid description (None: fine); ``new_desc`` makes one for a new grid
    (Penrose: a random patch; triangular: "0").
    """

    loopy_type: int
    kind: str  # our name: the board kind (grid.c's lower-case name)
    title: str  # Loopy's name in its menus and in shared/corpus (grid_type)
    amin: int  # width and height both at least this (loopy.c's grid_size_limits)
    omin: int  # and at least one of them at least this
    build: Callable[[int, int, str | None], GridBuilder]
    face_bound: Callable[[int, int], int]
    validate_desc: Callable[[int, int, str | None], str | None] = no_desc
    new_desc: Callable[[int, int, Random], str | None] = no_new_desc

    def check_size(self, width: int, height: int) -> str | None:
        if width < self.amin or height < self.amin:
            return f"width and height of a {self.title} grid must both be at least {self.amin}"
        if width < self.omin and height < self.omin:
            return f"one of width and height of a {self.title} grid must be at least {self.omin}"
        return None


def corners(cx: int, cy: int, offsets: Sequence[tuple[int, int]]) -> list[tuple[int, int]]:
    """Points (cx + dx, cy + dy): most grid types list a face's corners this way."""
    return [(cx + dx, cy + dy) for dx, dy in offsets]
