"""Loopy's great-great-dodecagonal grid (type t13): ``grid_new_greatgreatdodecagonal``.

Dodecagons in offset rows, with hexagons, squares and triangles between them.
"""

from __future__ import annotations

from slitherbench.puzzles.boards.loopy.dodecagonal import DODECAGON
from slitherbench.puzzles.boards.loopy.grid import GridBuilder, GridType, corners

A, B = 15, 26  # DODEC_A, DODEC_B

# Shapes round a dodecagon's centre, each clockwise (y down), as grid.c lists them.
HEX_TOP_RIGHT = (
    (A + 2 * B, -(4 * A + B)), (A + 2 * B, -(2 * A + B)), (A + B, -(A + B)),
    (A, -(2 * A + B)), (A, -(4 * A + B)), (A + B, -(5 * A + B)),
)  # fmt: skip
HEX_RIGHT = (
    (2 * A + 3 * B, -A), (2 * A + 3 * B, A), (2 * A + 2 * B, 2 * A),
    (2 * A + B, A), (2 * A + B, -A), (2 * A + 2 * B, -2 * A),
)  # fmt: skip
HEX_BOTTOM_RIGHT = (
    (A + 2 * B, 2 * A + B), (A + 2 * B, 4 * A + B), (A + B, 5 * A + B),
    (A, 4 * A + B), (A, 2 * A + B), (A + B, A + B),
)  # fmt: skip
SQUARE_TOP_RIGHT = (
    (A + 2 * B, -(2 * A + B)), (2 * A + 2 * B, -2 * A), (2 * A + B, -A), (A + B, -(A + B)),
)  # fmt: skip
SQUARE_BOTTOM_RIGHT = (
    (2 * A + 2 * B, 2 * A), (A + 2 * B, 2 * A + B), (A + B, A + B), (2 * A + B, A),
)  # fmt: skip
SQUARE_BELOW = ((A, 2 * A + B), (A, 4 * A + B), (-A, 4 * A + B), (-A, 2 * A + B))
SQUARE_BOTTOM_LEFT = (
    (-(2 * A + B), A), (-(A + B), A + B), (-(A + 2 * B), 2 * A + B), (-(2 * A + 2 * B), 2 * A),
)  # fmt: skip
SQUARE_TOP_LEFT = (
    (-(A + B), -(A + B)), (-(2 * A + B), -A),
    (-(2 * A + 2 * B), -2 * A), (-(A + 2 * B), -(2 * A + B)),
)  # fmt: skip
SQUARE_ABOVE = ((A, -(4 * A + B)), (A, -(2 * A + B)), (-A, -(2 * A + B)), (-A, -(4 * A + B)))
TRIANGLE_UPPER = ((3 * A + 2 * B, -(2 * A + B)), (2 * A + 2 * B, -2 * A), (A + 2 * B, -(2 * A + B)))
TRIANGLE_LOWER = ((3 * A + 2 * B, 2 * A + B), (A + 2 * B, 2 * A + B), (2 * A + 2 * B, 2 * A))


def build(width: int, height: int, desc: str | None) -> GridBuilder:
    g = GridBuilder()
    for y in range(height):
        odd = y % 2 == 1
        for x in range(width):
            px, py = (4 * A + 4 * B) * x + (2 * A + 2 * B if odd else 0), (6 * A + 2 * B) * y
            top, bottom, left, right = y > 0, y < height - 1, x > 0, x < width - 1
            # Odd rows are shifted right: their last cell has no neighbour on the right
            # in the rows beside it, and an even row's first cell none on the left.
            diag_right = right or not odd
            diag_left = left or odd
            for shape, wanted in (
                (DODECAGON, True),
                (HEX_TOP_RIGHT, top and diag_right),
                (HEX_RIGHT, right),
                (HEX_BOTTOM_RIGHT, bottom and diag_right),
                (SQUARE_TOP_RIGHT, top and right),
                (SQUARE_BOTTOM_RIGHT, bottom and right),
                (SQUARE_BELOW, bottom and diag_right and diag_left),
                (SQUARE_BOTTOM_LEFT, left and bottom),
                (SQUARE_TOP_LEFT, left and top),
                (SQUARE_ABOVE, top and diag_right and diag_left),
                (TRIANGLE_UPPER, top and right),
                (TRIANGLE_LOWER, bottom and right),
            ):
                if wanted:
                    g.face(corners(px, py, shape))
    return g


def face_bound(width: int, height: int) -> int:
    return 50 * width * height  # max_faces in grid_new_greatgreatdodecagonal


GRID = GridType(13, "greatgreatdodecagonal", "Great-Great-Dodecagonal", 2, 2, build, face_bound)
