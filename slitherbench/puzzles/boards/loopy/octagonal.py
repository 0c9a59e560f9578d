"""Loopy's octagonal grid (type t6): ``grid_new_octagonal`` in grid.c.

An octagon per cell, and a diamond at each inner corner where four octagons meet.
"""

from __future__ import annotations

from slitherbench.puzzles.boards.loopy.grid import GridBuilder, GridType, corners

A, B = 29, 41  # OCTAGONAL_A, OCTAGONAL_B: b / a near sqrt 2

OCTAGON = [
    (A, 0), (A + B, 0), (2 * A + B, A), (2 * A + B, A + B),
    (A + B, 2 * A + B), (A, 2 * A + B), (0, A + B), (0, A),
]  # fmt: skip
DIAMOND = [(0, -A), (A, 0), (0, A), (-A, 0)]  # centred on the cell's top-left corner


def build(width: int, height: int, desc: str | None) -> GridBuilder:
    g = GridBuilder()
    step = 2 * A + B
    for y in range(height):
        for x in range(width):
            px, py = step * x, step * y
            g.face(corners(px, py, OCTAGON))
            if x > 0 and y > 0:
                g.face(corners(px, py, DIAMOND))
    return g


def face_bound(width: int, height: int) -> int:
    return 2 * width * height  # max_faces in grid_new_octagonal


GRID = GridType(6, "octagonal", "Octagonal", 3, 3, build, face_bound)
