"""Loopy's floret grid (type t8): ``grid_new_floret`` in grid.c.

Rosettes of six pentagons round a centre; odd columns sit half a step lower (y down), and
the even columns skip their last row (when there is more than one) for a neater outline.
"""

from __future__ import annotations

from slitherbench.puzzles.boards.loopy.grid import GridBuilder, GridType, corners

# Side vectors, odd numbers keeping the grid aligned (FLORET_PX, FLORET_PY in grid.c).
PX, PY = 75, -26
QX, QY = 4 * PX // 5, -PY * 2  # 60, 52 (4*75 is positive, so // is C's division here)
RX, RY = QX - PX, QY - PY  # -15, 78
DX = (6 * PX + 3 * QX) // 2  # 315: column spacing (positive: // agrees with C)
DY = 4 * PY - 5 * QY  # -364: row spacing (rows go up); even, so halving it is exact

# The six pentagons round a centre, each from the centre; Loopy lists these corners
# anticlockwise on screen (y down), unlike most grids, so we do too: corners
# 0, 2u, 2u + w, 2w + u, 2w for each pair of side vectors (u, w) in turn.
PAIRS = (
    ((RX, RY), (QX, QY)),
    ((QX, QY), (PX, PY)),
    ((PX, PY), (-RX, -RY)),
    ((-RX, -RY), (-QX, -QY)),
    ((-QX, -QY), (-PX, -PY)),
    ((-PX, -PY), (RX, RY)),
)
PETALS = tuple(
    ((0, 0), (2 * ux, 2 * uy), (2 * ux + wx, 2 * uy + wy), (ux + 2 * wx, uy + 2 * wy),
     (2 * wx, 2 * wy))
    for (ux, uy), (wx, wy) in PAIRS
)  # fmt: skip


def build(width: int, height: int, desc: str | None) -> GridBuilder:
    g = GridBuilder()
    for y in range(height):
        for x in range(width):
            cx, cy = DX * x, DY * y
            if x % 2:
                cy -= DY // 2  # exact: DY is even, so no C/Python rounding difference
            elif y and y == height - 1:
                continue  # Loopy leaves out the last row of even columns
            for petal in PETALS:
                g.face(corners(cx, cy, petal))
    return g


def face_bound(width: int, height: int) -> int:
    return 6 * width * height  # max_faces in grid_new_floret


GRID = GridType(8, "floret", "Floret", 1, 2, build, face_bound)
