"""Loopy's Kagome grid (type t14): ``grid_new_kagome`` in grid.c.

Hexagons in rows (odd rows shifted half a step right), with the triangles between them.
"""

from __future__ import annotations

from slitherbench.puzzles.boards.loopy.grid import GridBuilder, GridType, corners

A, B = 15, 26  # KAGOME_A, KAGOME_B: a triangle's side vector, ratio near sqrt 3

HEXAGON = [(A, -B), (2 * A, 0), (A, B), (-A, B), (-2 * A, 0), (-A, -B)]
ABOVE_RIGHT = [(3 * A, -B), (2 * A, 0), (A, -B)]
BELOW_RIGHT = [(3 * A, B), (A, B), (2 * A, 0)]
ABOVE_LEFT = [(-A, -B), (-2 * A, 0), (-3 * A, -B)]
BELOW_LEFT = [(-A, B), (-3 * A, B), (-2 * A, 0)]


def build(width: int, height: int, desc: str | None) -> GridBuilder:
    g = GridBuilder()
    for y in range(height):
        odd = y % 2 == 1
        for x in range(width):
            px = 4 * A * x + (2 * A if odd else 0)  # centre of the hexagon
            py = 2 * B * y
            not_last_col = x < width - 1
            g.face(corners(px, py, HEXAGON))
            # at the right edge, even rows get the triangles that even out the ragged side,
            # except above the first row and below the last
            if not_last_col or (not odd and y > 0):
                g.face(corners(px, py, ABOVE_RIGHT))
            if not_last_col or (not odd and y < height - 1):
                g.face(corners(px, py, BELOW_RIGHT))
            if x == 0 and odd:  # odd rows fill the ragged left side
                g.face(corners(px, py, ABOVE_LEFT))
                if y < height - 1:
                    g.face(corners(px, py, BELOW_LEFT))
    return g


def face_bound(width: int, height: int) -> int:
    return 6 * (width + 1) * (height + 1)  # max_faces in grid_new_kagome


GRID = GridType(14, "kagome", "Kagome", 3, 3, build, face_bound)
