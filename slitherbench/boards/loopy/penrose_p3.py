"""Loopy's Penrose rhomb grid (type t12), from ``grid_new_penrose`` in ``grid.c`` with
``PENROSE_P3`` (``penrose.c``'s recursive subdivision); the grid description
"G<x>,<y>,<angle>" picks the patch. The work is in :mod:`._penrose`.
"""

from __future__ import annotations

from random import Random

from . import _penrose
from .grid import GridBuilder, GridType

WHICH = _penrose.PENROSE_P3


def build(width: int, height: int, desc: str | None) -> GridBuilder:
    return _penrose.build(WHICH, width, height, desc)


def validate_desc(width: int, height: int, desc: str | None) -> str | None:
    return _penrose.validate_desc(WHICH, width, height, desc)


def new_desc(width: int, height: int, rng: Random) -> str | None:
    return _penrose.new_desc(WHICH, width, height, rng)


GRID = GridType(
    loopy_type=12,
    kind="penrose_p3",
    title="Penrose (rhombs)",
    amin=3,
    omin=3,
    build=build,
    face_bound=_penrose.face_bound,
    validate_desc=validate_desc,
    new_desc=new_desc,
)
