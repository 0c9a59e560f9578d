"""Loopy's great-hexagonal grid (type t5): ``grid_new_greathexagonal`` in grid.c.

Hexagons in columns (odd columns half a step down), each with the squares and triangles
below and beside it that fit inside the board.
"""

from __future__ import annotations

from slitherbench.puzzles.boards.loopy.grid import GridBuilder, GridType, corners

A, B = 15, 26  # GREATHEX_A, GREATHEX_B: a triangle's side vector, ratio near sqrt 3


def build(width: int, height: int, desc: str | None) -> GridBuilder:
    g = GridBuilder()
    a, b = A, B
    for y in range(height):
        for x in range(width):
            px = (3 * a + b) * x  # centre of the hexagon
            py = (2 * a + 2 * b) * y + (a + b) * (x % 2)
            not_last_row = y < height - 1
            # hexagon
            g.face(corners(px, py, [(-a, -b), (a, -b), (2 * a, 0), (a, b), (-a, b), (-2 * a, 0)]))
            if not_last_row:  # square below
                g.face(corners(px, py, [(-a, b), (a, b), (a, 2 * a + b), (-a, 2 * a + b)]))
            # odd columns sit lower, so on the last row their side squares would hang out
            side_ok = x % 2 == 0 or not_last_row
            if x < width - 1 and side_ok:  # square below right
                g.face(corners(px, py, [(2 * a, 0), (2 * a + b, a), (a + b, a + b), (a, b)]))
            if x > 0 and side_ok:  # square below left
                g.face(corners(px, py, [(-2 * a, 0), (-a, b), (-a - b, a + b), (-2 * a - b, a)]))
            if x < width - 1 and not_last_row:  # triangle below right
                g.face(corners(px, py, [(a, b), (a + b, a + b), (a, 2 * a + b)]))
            if x > 0 and not_last_row:  # triangle below left
                g.face(corners(px, py, [(-a, b), (-a, 2 * a + b), (-a - b, a + b)]))
    return g


def face_bound(width: int, height: int) -> int:
    return 6 * (width + 1) * (height + 1)  # max_faces in grid_new_greathexagonal


GRID = GridType(5, "greathexagonal", "Great-Hexagonal", 3, 3, build, face_bound)
