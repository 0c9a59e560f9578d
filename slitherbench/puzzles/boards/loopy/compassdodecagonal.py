"""Loopy's compass-dodecagonal grid (type t15): ``grid_new_compassdodecagonal`` in grid.c.

Dodecagons in a square array; between each four of them a square ringed by four triangles.
"""

from __future__ import annotations

from slitherbench.puzzles.boards.loopy.dodecagonal import DODECAGON
from slitherbench.puzzles.boards.loopy.grid import GridBuilder, GridType, corners

A, B = 15, 26  # DODEC_A, DODEC_B

# The faces below and right of a dodecagon's centre, each clockwise (y down), in grid.c's order.
BETWEEN = (
    ((2 * A + B, A), (3 * A + B, A + B), (A + B, A + B)),  # north triangle
    ((3 * A + 2 * B, 2 * A + B), (3 * A + B, 3 * A + B), (3 * A + B, A + B)),  # east
    ((3 * A + B, 3 * A + B), (2 * A + B, 3 * A + 2 * B), (A + B, 3 * A + B)),  # south
    ((A + B, A + B), (A + B, 3 * A + B), (A, 2 * A + B)),  # west
    ((3 * A + B, A + B), (3 * A + B, 3 * A + B), (A + B, 3 * A + B), (A + B, A + B)),  # square
)


def build(width: int, height: int, desc: str | None) -> GridBuilder:
    g = GridBuilder()
    for y in range(height):
        for x in range(width):
            px, py = (4 * A + 2 * B) * x, (4 * A + 2 * B) * y
            g.face(corners(px, py, DODECAGON))
            if x < width - 1 and y < height - 1:
                for shape in BETWEEN:
                    g.face(corners(px, py, shape))
    return g


def face_bound(width: int, height: int) -> int:
    return 6 * width * height  # max_faces in grid_new_compassdodecagonal


GRID = GridType(15, "compassdodecagonal", "Compass-Dodecagonal", 2, 2, build, face_bound)
