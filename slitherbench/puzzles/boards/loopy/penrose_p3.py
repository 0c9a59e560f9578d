"""Loopy's Penrose rhomb grid (type t12), from ``grid_new_penrose`` in ``grid.c`` with
``PENROSE_P3`` (``penrose.c``'s recursive subdivision); the grid description
"G<x>,<y>,<angle>" picks the patch. The work is in :mod:`._penrose`.
"""

from __future__ import annotations

from slitherbench.puzzles.boards.loopy import _penrose

GRID = _penrose.penrose_grid_type(_penrose.PENROSE_P3, 12, "penrose_p3", "Penrose (rhombs)")
