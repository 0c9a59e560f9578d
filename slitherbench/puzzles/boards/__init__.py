"""Boards: the planar grids a Slitherlink puzzle is drawn on.

A :class:`Board` is points (with coordinates, y down), edges (each a pair of points) and
faces (each the cyclic list of its sides). Everything downstream (clue sums over a face's
sides, the degree rule at each point, loop cuts, the checker, figures) reads these three
tables and nothing else, so a new kind of board is one module that returns a ``Board``.

Two kinds ship. The square grid keeps the reference page's numbering (horizontal edges
``h(i, j)`` first, then vertical ``v(i, j)``) so that every stored square trial keeps its key:

>>> from slitherbench.puzzles.boards import loopy_board, square_board
>>> b = square_board(2, 3)
>>> b.label, b.num_points, b.num_edges, b.num_faces
('square 2x3', 12, 17, 6)
>>> b.face_edges[0]  # top, right, bottom, left of the top-left square
(0, 10, 3, 9)

Every grid type of Simon Tatham's Loopy is built exactly as Loopy builds it
(:mod:`slitherbench.puzzles.boards.loopy`), so that face k is the face of clue k in a Loopy game ID:

>>> hexes = loopy_board("honeycomb", 3, 3)
>>> hexes.label, hexes.num_faces, hexes.max_face_size, hexes.max_degree
('honeycomb 3x3', 9, 6, 3)
>>> hexes.edge_faces[0]  # the faces on either side of edge 0; -1 is the outside
(0, -1)

A new kind of board: build the three tables and hand them over (the constructor checks
that every face is a closed cycle of distinct edges and that each edge has at most two faces):

>>> from slitherbench.puzzles.boards import Board
>>> triangle = Board("example", 1, 1, points=((0, 0), (2, 0), (1, 2)),
...                  edge_points=((0, 1), (1, 2), (2, 0)), face_edges=((0, 1, 2),))
>>> triangle.point_edges
((0, 2), (0, 1), (1, 2))

Register it where puzzles are read (:mod:`slitherbench.puzzles.formats`) or generated
(:mod:`slitherbench.sources.generate`, which takes any board); the formulations and backends need
nothing more.
"""

from __future__ import annotations

from slitherbench.puzzles.boards.board import Board, BoardError

__all__ = [
    "Board",
    "BoardError",
    "board_from_key",
    "board_kinds",
    "board_with_faces",
    "loopy_board",
    "square_board",
]


def square_board(rows: int, cols: int) -> Board:
    from slitherbench.puzzles.boards.square import square_board as build

    return build(rows, cols)


def loopy_board(kind: str | int, width: int, height: int, desc: str | None = None) -> Board:
    """The board of a Loopy game ID's parameters: kind by name (``honeycomb``) or type number
    (2). Loopy's squares (t0) give :func:`square_board`, in the page's numbering."""
    from slitherbench.puzzles.boards.loopy import grid_type, loopy_grid

    gt = grid_type(kind)
    if gt.kind == "square":
        problem = gt.check_size(width, height)
        if problem is not None:
            from slitherbench.puzzles.boards.loopy import GridError

            raise GridError(problem)
        return square_board(height, width)
    grid = loopy_grid(gt.loopy_type, width, height, desc)
    return Board(
        gt.kind,
        width,
        height,
        points=grid.dots,
        edge_points=grid.edges,
        face_edges=grid.face_edges,
        desc=desc,
    )


def board_with_faces(kind: str, faces: int, seed: int = 0) -> Board:
    """The board of this kind whose face count is nearest ``faces`` (width and height at most
    one apart, within Loopy's size limits; Penrose patches drawn from ``seed``)."""
    import random

    from slitherbench.puzzles.boards.loopy import grid_type, loopy_grid

    gt = grid_type(kind)
    best: tuple[int, int, int, str | None] | None = None
    largest = 0
    for w in range(max(gt.amin, 1), 200):
        if largest >= 2 * faces:
            break
        for h in (w - 1, w, w + 1):
            if h < 1 or gt.check_size(w, h) is not None:
                continue
            if gt.face_bound(w, h) < faces // 2:
                continue
            desc = gt.new_desc(w, h, random.Random(f"{kind}-{w}x{h}-{seed}"))
            n = w * h if gt.kind == "square" else loopy_grid(gt.loopy_type, w, h, desc).num_faces
            largest = max(largest, n)
            if best is None or abs(n - faces) < abs(best[0] - faces):
                best = (n, w, h, desc)
    if best is None:
        raise BoardError(f"no {kind} board near {faces} faces")
    _, w, h, desc = best
    return loopy_board(kind, w, h, desc)


def board_from_key(kind: str, width: int, height: int, desc: str | None = None) -> Board:
    """A named board again from what a trial record stores (kind, size, description)."""
    if kind == "square":  # any size (Loopy's own squares start at 3x3)
        return square_board(height, width)
    if kind not in board_kinds():
        raise BoardError(f"unknown board kind {kind!r}")
    return loopy_board(kind, width, height, desc)


def board_kinds() -> list[str]:
    """Every named board kind: ``square``, then Loopy's other grid types in type order."""
    from slitherbench.puzzles.boards.loopy import grid_types

    return [gt.kind for gt in grid_types().values()]
