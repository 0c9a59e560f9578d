"""Loopy's great-dodecagonal grid (type t10): ``grid_new_greatdodecagonal`` in grid.c.

Dodecagons in offset rows, hexagons above and below them, squares between.
"""

from __future__ import annotations

from slitherbench.puzzles.boards.loopy.dodecagonal import DODECAGON
from slitherbench.puzzles.boards.loopy.grid import GridBuilder, GridType, corners

A, B = 15, 26  # DODEC_A, DODEC_B

# Shapes round a dodecagon's centre, each clockwise (y down), as grid.c lists them.
HEX_BELOW = (
    (A, 2 * A + B), (2 * A, 2 * A + 2 * B), (A, 2 * A + 3 * B),
    (-A, 2 * A + 3 * B), (-2 * A, 2 * A + 2 * B), (-A, 2 * A + B),
)  # fmt: skip
HEX_ABOVE = (
    (-A, -(2 * A + B)), (-2 * A, -(2 * A + 2 * B)), (-A, -(2 * A + 3 * B)),
    (A, -(2 * A + 3 * B)), (2 * A, -(2 * A + 2 * B)), (A, -(2 * A + B)),
)  # fmt: skip
SQUARE_RIGHT = ((2 * A + B, -A), (4 * A + B, -A), (4 * A + B, A), (2 * A + B, A))
SQUARE_TOP_RIGHT = (
    (A, -(2 * A + B)), (2 * A, -(2 * A + 2 * B)), (2 * A + B, -(A + 2 * B)), (A + B, -(A + B)),
)  # fmt: skip
SQUARE_TOP_LEFT = (
    (-(A + B), -(A + B)), (-(2 * A + B), -(A + 2 * B)),
    (-2 * A, -(2 * A + 2 * B)), (-A, -(2 * A + B)),
)  # fmt: skip


def build(width: int, height: int, desc: str | None) -> GridBuilder:
    g = GridBuilder()
    for y in range(height):
        odd = y % 2 == 1
        for x in range(width):
            px, py = (6 * A + 2 * B) * x + (3 * A + B if odd else 0), (3 * A + 3 * B) * y
            g.face(corners(px, py, DODECAGON))
            # Odd rows are shifted right: their last cell has no neighbour on the right
            # in the rows beside it, and an even row's first cell none on the left.
            has_right = x < width - 1 or not odd
            has_left = x > 0 or odd
            if y < height - 1 and has_right and has_left:
                g.face(corners(px, py, HEX_BELOW))
            if y and has_right and has_left:
                g.face(corners(px, py, HEX_ABOVE))
            if x < width - 1:
                g.face(corners(px, py, SQUARE_RIGHT))
            if y and has_right:
                g.face(corners(px, py, SQUARE_TOP_RIGHT))
            if y and has_left:
                g.face(corners(px, py, SQUARE_TOP_LEFT))
    return g


def face_bound(width: int, height: int) -> int:
    return 30 * width * height  # max_faces in grid_new_greatdodecagonal


GRID = GridType(10, "greatdodecagonal", "Great-Dodecagonal", 2, 2, build, face_bound)
