"""Loopy's triangular grid (type t1), from ``grid_new_triangular`` in ``grid.c``.

The grid description picks the layout: "0" (what Loopy writes in new game IDs) is the current
one, with no 'ears' (triangles touching one other face) at the corners; no description at all
is the old one, kept so that old game IDs still work.
"""

from __future__ import annotations

from random import Random

from slitherbench.puzzles.boards.loopy.grid import GridBuilder, GridType

# Half a triangle's side and its height: y / x is close to sqrt(3).
TRIANGLE_VEC_X = 15
TRIANGLE_VEC_Y = 26


def build(width: int, height: int, desc: str | None) -> GridBuilder:
    vx, vy = TRIANGLE_VEC_X, TRIANGLE_VEC_Y
    b = GridBuilder()
    if desc is None:
        # Old layout: every dot made first, row by row (odd rows shifted right), then two
        # triangles per (x, y) whose corners are dot indices, not looked up by coordinates.
        pts = [
            [(x * 2 * vx + (vx if y % 2 else 0), y * vy) for x in range(width + 1)]
            for y in range(height + 1)
        ]
        for row in pts:
            for x, y in row:
                b.dot(x, y)
        for y in range(height):
            top, bot = pts[y], pts[y + 1]
            for x in range(width):
                if y % 2:
                    b.face([top[x], bot[x + 1], bot[x]])
                    b.face([top[x], top[x + 1], bot[x + 1]])
                else:
                    b.face([top[x], top[x + 1], bot[x]])
                    b.face([top[x + 1], bot[x + 1], bot[x]])
        return b

    def tri(p0: tuple[int, int], pn1: tuple[int, int], pn2: tuple[int, int], n1: int) -> None:
        # Loopy looks the dots up in this order (so new dots are numbered in it) but stores
        # the second and third at positions n1 and n2 = 3 - n1 (flipped on odd rows).
        for p in (p0, pn1, pn2):
            b.dot(*p)
        b.face([p0, pn1, pn2] if n1 == 1 else [p0, pn2, pn1])

    for y in range(height):
        # Row y: width + 1 triangles one way up, then width the other way up.
        y0 = y1 = y * vy
        if y % 2:
            y1 += vy
            n1 = 2
        else:
            y0 += vy
            n1 = 1
        for x in range(width + 1):
            # With odd height the last row skips its end triangles, which would be ears.
            if height % 2 == 1 and y == height - 1 and x in (0, width):
                continue
            x0 = 2 * x * vx
            tri((x0, y0), (x0 + vx, y1), (x0 + 2 * vx, y0), n1)
        for x in range(width):
            x0 = (2 * x + 1) * vx
            # here the middle dot goes to n2 and the last to n1
            tri((x0, y1), (x0 + vx, y0), (x0 + 2 * vx, y1), 3 - n1)
    return b


def face_bound(width: int, height: int) -> int:
    # max_faces of the current layout; the old one has 2 * width * height, fewer.
    return height * (2 * width + 1)


def validate_desc(width: int, height: int, desc: str | None) -> str | None:
    """``grid_validate_desc_triangular``: none (old layout) or "0" (current layout)."""
    if desc is None or desc == "0":
        return None
    return "Unrecognised grid description."


def new_desc(width: int, height: int, rng: Random) -> str | None:
    return "0"  # the current layout, as grid_new_desc writes


GRID = GridType(
    loopy_type=1,
    kind="triangular",
    title="Triangular",
    amin=3,
    omin=3,
    build=build,
    face_bound=face_bound,
    validate_desc=validate_desc,
    new_desc=new_desc,
)
