"""Loopy's snub-square grid (type t3), from ``grid_new_snubsquare`` in ``grid.c``."""

from __future__ import annotations

from slitherbench.puzzles.boards.loopy.grid import GridBuilder, GridType, corners

# A square's side is the vector (a, b) or (b, a); b / a is close to sqrt(3).
SNUBSQUARE_A = 15
SNUBSQUARE_B = 26


def build(width: int, height: int, desc: str | None) -> GridBuilder:
    a, b = SNUBSQUARE_A, SNUBSQUARE_B
    ab = a + b
    g = GridBuilder()
    for y in range(height):
        for x in range(width):
            px, py = ab * x, ab * y
            odd = (x + y) % 2 == 1  # squares tilt one way or the other, chequerwise
            # the square of cell (x, y)
            if odd:
                g.face(corners(px, py, [(a, 0), (ab, a), (b, ab), (0, b)]))
            else:
                g.face(corners(px, py, [(b, 0), (ab, b), (a, ab), (0, a)]))
            # the triangle between this square and the one to its left
            if x > 0:
                if odd:
                    g.face(corners(px, py, [(a, 0), (0, b), (-a, 0)]))
                else:
                    g.face(corners(px, py, [(0, a), (a, ab), (-a, ab)]))
            # the triangle between this square and the one above
            if y > 0:
                if odd:
                    g.face(corners(px, py, [(a, 0), (ab, -a), (ab, a)]))
                else:
                    g.face(corners(px, py, [(0, -a), (b, 0), (0, a)]))
    return g


def face_bound(width: int, height: int) -> int:
    return 3 * width * height  # max_faces in grid_new_snubsquare


GRID = GridType(
    loopy_type=3,
    kind="snubsquare",
    title="Snub-Square",
    amin=3,
    omin=3,
    build=build,
    face_bound=face_bound,
)
