"""Loopy's Penrose kite/dart grid (type t11), from ``grid_new_penrose`` in ``grid.c`` with
``PENROSE_P2`` (``penrose.c``'s recursive subdivision); the grid description
"G<x>,<y>,<angle>" picks the patch. The work is in :mod:`._penrose`.
"""

from __future__ import annotations

from slitherbench.puzzles.boards.loopy import _penrose

GRID = _penrose.penrose_grid_type(_penrose.PENROSE_P2, 11, "penrose_p2", "Penrose (kite/dart)")
