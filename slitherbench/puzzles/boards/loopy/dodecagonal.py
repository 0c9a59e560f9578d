"""Loopy's dodecagonal grid (type t9): ``grid_new_dodecagonal`` in grid.c.

Dodecagons in offset rows, with a triangle above and below each where neighbours meet.
"""

from __future__ import annotations

from slitherbench.puzzles.boards.loopy.grid import GridBuilder, GridType, corners

A, B = 15, 26  # DODEC_A, DODEC_B: b/a close to sqrt(3)

# The dodecagon round its centre, clockwise from the top right (y down); the other
# dodecagonal grids (great, great-great, compass) share it.
DODECAGON = (
    (A, -(2 * A + B)), (A + B, -(A + B)), (2 * A + B, -A), (2 * A + B, A),
    (A + B, A + B), (A, 2 * A + B), (-A, 2 * A + B), (-(A + B), A + B),
    (-(2 * A + B), A), (-(2 * A + B), -A), (-(A + B), -(A + B)), (-A, -(2 * A + B)),
)  # fmt: skip
BELOW = ((A, 2 * A + B), (0, 2 * A + 2 * B), (-A, 2 * A + B))
ABOVE = ((-A, -(2 * A + B)), (0, -(2 * A + 2 * B)), (A, -(2 * A + B)))


def build(width: int, height: int, desc: str | None) -> GridBuilder:
    g = GridBuilder()
    for y in range(height):
        odd = y % 2 == 1
        for x in range(width):
            px, py = (4 * A + 2 * B) * x + (2 * A + B if odd else 0), (3 * A + 2 * B) * y
            g.face(corners(px, py, DODECAGON))
            # A triangle needs a dodecagon on both sides of it in the row above/below.
            inner = (x < width - 1 or not odd) and (x > 0 or odd)
            if y < height - 1 and inner:
                g.face(corners(px, py, BELOW))
            if y and inner:
                g.face(corners(px, py, ABOVE))
    return g


def face_bound(width: int, height: int) -> int:
    return 3 * width * height  # max_faces in grid_new_dodecagonal


GRID = GridType(9, "dodecagonal", "Dodecagonal", 2, 2, build, face_bound)
