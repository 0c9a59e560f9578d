"""Loopy's Cairo grid (type t4): ``grid_new_cairo`` in grid.c, pentagons in pairs."""

from __future__ import annotations

from slitherbench.puzzles.boards.loopy.grid import GridBuilder, GridType, corners

A, B = 14, 31  # CAIRO_A, CAIRO_B: a pentagon's side vector, ratio near (4 + sqrt 7) / 3


def build(width: int, height: int, desc: str | None) -> GridBuilder:
    g = GridBuilder()
    a, b = A, B
    for y in range(height):
        for x in range(width):
            px, py = 2 * b * x, 2 * b * y
            odd = (x + y) % 2  # the pentagons' orientation alternates like a chequerboard
            if y > 0:  # horizontal pentagon, straddling the row boundary above
                if odd:
                    offs = [(a, -b), (2 * b - a, -b), (2 * b, 0), (b, a), (0, 0)]
                else:
                    offs = [(0, 0), (b, -a), (2 * b, 0), (2 * b - a, b), (a, b)]
                g.face(corners(px, py, offs))
            if x > 0:  # vertical pentagon, straddling the column boundary to the left
                if odd:
                    offs = [(0, 0), (b, a), (b, 2 * b - a), (0, 2 * b), (-a, b)]
                else:
                    offs = [(0, 0), (a, b), (0, 2 * b), (-b, 2 * b - a), (-b, a)]
                g.face(corners(px, py, offs))
    return g


def face_bound(width: int, height: int) -> int:
    return 2 * width * height  # max_faces in grid_new_cairo


GRID = GridType(4, "cairo", "Cairo", 3, 4, build, face_bound)
