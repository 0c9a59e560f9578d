"""The square grid in the reference page's numbering (shared/reference/qubopp_slitherlink_en.txt):

horizontal h(i, j) = i*C + j             for 0 <= i <= R, 0 <= j < C
vertical   v(i, j) = (R+1)*C + i*(C+1) + j  for 0 <= i < R, 0 <= j <= C
grid point (i, j) = i*(C+1) + j, at coordinates (x, y) = (j, i); face (i, j) = i*C + j.

Stored square trials, their keys and answers (bits in this edge order) depend on it: never
renumber.
"""

from __future__ import annotations

from functools import cache

from slitherbench.puzzles.boards.board import Board, BoardError


@cache
def square_board(rows: int, cols: int) -> Board:
    R, C = rows, cols
    if R < 1 or C < 1:
        raise BoardError(f"a square board needs at least 1x1 faces, got {R}x{C}")

    def point(i: int, j: int) -> int:
        return i * (C + 1) + j

    def h(i: int, j: int) -> int:
        return i * C + j

    def v(i: int, j: int) -> int:
        return (R + 1) * C + i * (C + 1) + j

    points = tuple((j, i) for i in range(R + 1) for j in range(C + 1))
    edges = [(point(i, j), point(i, j + 1)) for i in range(R + 1) for j in range(C)]
    edges += [(point(i, j), point(i + 1, j)) for i in range(R) for j in range(C + 1)]
    # Clockwise with y down, starting at the top side.
    faces = tuple((h(i, j), v(i, j + 1), h(i + 1, j), v(i, j)) for i in range(R) for j in range(C))
    return Board("square", C, R, points=points, edge_points=tuple(edges), face_edges=faces)
