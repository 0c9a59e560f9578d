"""Loopy's kites grid (type t7): ``grid_new_kites`` in grid.c.

Six kites round each order-6 dot of a triangular lattice; rows are offset by half a
period on odd rows.
"""

from __future__ import annotations

from slitherbench.puzzles.boards.loopy.grid import GridBuilder, GridType, corners

A, B = 15, 26  # KITE_A, KITE_B: b/a close to sqrt(3)

# The six kites round the order-6 dot, each from that dot, clockwise (y down).
KITES = (
    ((0, 0), (2 * B, 0), (2 * B, 2 * A), (B, 3 * A)),  # pointing up-left
    ((0, 0), (B, 3 * A), (0, 4 * A), (-B, 3 * A)),  # up
    ((0, 0), (-B, 3 * A), (-2 * B, 2 * A), (-2 * B, 0)),  # up-right
    ((0, 0), (-2 * B, 0), (-2 * B, -2 * A), (-B, -3 * A)),  # down-right
    ((0, 0), (-B, -3 * A), (0, -4 * A), (B, -3 * A)),  # down
    ((0, 0), (B, -3 * A), (2 * B, -2 * A), (2 * B, 0)),  # down-left
)


def build(width: int, height: int, desc: str | None) -> GridBuilder:
    g = GridBuilder()
    for y in range(height):
        for x in range(width):
            px, py = 4 * B * x + (2 * B if y % 2 else 0), 6 * A * y
            for kite in KITES:
                g.face(corners(px, py, kite))
    return g


def face_bound(width: int, height: int) -> int:
    return 6 * width * height  # max_faces in grid_new_kites


GRID = GridType(7, "kites", "Kites", 3, 3, build, face_bound)
