"""Loopy's honeycomb grid (type t2), from ``grid_new_honeycomb`` in ``grid.c``."""

from __future__ import annotations

from slitherbench.puzzles.boards.loopy.grid import GridBuilder, GridType, corners

# Half a hexagon's side and half its height: b / a is close to sqrt(3).
HONEY_A = 15
HONEY_B = 26


def build(width: int, height: int, desc: str | None) -> GridBuilder:
    a, h = HONEY_A, HONEY_B
    offsets = [(-a, -h), (a, -h), (2 * a, 0), (a, h), (-a, h), (-2 * a, 0)]
    b = GridBuilder()
    for y in range(height):
        for x in range(width):
            # face centre; odd columns sit half a hexagon lower
            cx = 3 * a * x
            cy = 2 * h * y + (h if x % 2 else 0)
            b.face(corners(cx, cy, offsets))
    return b


def face_bound(width: int, height: int) -> int:
    return width * height  # max_faces in grid_new_honeycomb


GRID = GridType(
    loopy_type=2,
    kind="honeycomb",
    title="Honeycomb",
    amin=3,
    omin=3,
    build=build,
    face_bound=face_bound,
)
