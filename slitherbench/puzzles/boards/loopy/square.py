"""Loopy's square grid (type t0), from ``grid_new_square`` in ``grid.c``."""

from __future__ import annotations

from slitherbench.puzzles.boards.loopy.grid import GridBuilder, GridType, corners

SQUARE_TILESIZE = 20  # the side of a square


def build(width: int, height: int, desc: str | None) -> GridBuilder:
    a = SQUARE_TILESIZE
    b = GridBuilder()
    for y in range(height):  # rows top to bottom, squares left to right
        for x in range(width):
            b.face(corners(a * x, a * y, [(0, 0), (a, 0), (a, a), (0, a)]))
    return b


def face_bound(width: int, height: int) -> int:
    return width * height  # max_faces in grid_new_square


GRID = GridType(
    loopy_type=0,
    kind="square",
    title="Squares",
    amin=3,
    omin=3,
    build=build,
    face_bound=face_bound,
)
