"""Loopy's grid types: one module each in this package, found by scanning it.

A module here defines ``GRID = GridType(...)`` (see :mod:`.grid`): its type number in game
IDs, names, size limits and a ``build(width, height, desc)`` written from Loopy's ``grid.c``.
:func:`loopy_grid` builds a grid from game-ID parameters, checking sizes before it allocates
anything. The board model (:class:`slitherbench.puzzles.boards.Board`) is made from it by
:func:`slitherbench.puzzles.boards.loopy_board`.
"""

from __future__ import annotations

import importlib
import pkgutil
from functools import cache

from slitherbench.puzzles.boards.loopy.grid import GridBuilder, GridError, GridType, LoopyGrid

__all__ = [
    "MAX_FACES",
    "GridBuilder",
    "GridError",
    "GridType",
    "LoopyGrid",
    "grid_type",
    "grid_types",
    "loopy_grid",
]

# The largest grid the harness builds (faces, by the type's own bound, checked before
# anything is allocated): a 300 x 300 square board. Beyond it one line says so.
MAX_FACES = 90_000


@cache
def grid_types() -> dict[int, GridType]:
    """Every grid type of this package, by its number in Loopy game IDs."""
    found: dict[int, GridType] = {}
    for info in pkgutil.iter_modules(__path__):
        if info.name == "grid" or info.name.startswith("_"):
            continue
        module = importlib.import_module(f"{__name__}.{info.name}")
        gt = getattr(module, "GRID", None)
        if isinstance(gt, GridType):
            if gt.loopy_type in found:
                raise RuntimeError(f"two grid modules claim Loopy type {gt.loopy_type}")
            found[gt.loopy_type] = gt
    return dict(sorted(found.items()))


def grid_type(which: int | str) -> GridType:
    """A grid type by its Loopy number or its kind name (``honeycomb``)."""
    types = grid_types()
    if isinstance(which, int):
        if which not in types:
            known = ", ".join(f"t{t} {g.kind}" for t, g in types.items())
            raise GridError(f"unknown Loopy grid type t{which} (known: {known})")
        return types[which]
    for gt in types.values():
        if which in (gt.kind, gt.title):
            return gt
    raise GridError(
        f"unknown grid type {which!r} (known: {', '.join(g.kind for g in types.values())})"
    )


@cache
def loopy_grid(loopy_type: int, width: int, height: int, desc: str | None = None) -> LoopyGrid:
    """Loopy's grid for these game-ID parameters; :class:`GridError` (one line) if it cannot
    be made: unknown type, size below Loopy's limits or above :data:`MAX_FACES`, a bad grid
    description."""
    gt = grid_type(loopy_type)
    problem = gt.check_size(width, height)
    if problem is None:
        bound = gt.face_bound(width, height)
        if bound > MAX_FACES:
            problem = (
                f"a {width}x{height} {gt.title} grid has up to {bound} faces; the harness "
                f"builds at most {MAX_FACES}"
            )
    if problem is None:
        bad_desc = gt.validate_desc(width, height, desc)
        if bad_desc is not None:
            problem = f"{gt.title} grid description {desc!r}: {bad_desc}"
    if problem is not None:
        raise GridError(problem)
    return gt.build(width, height, desc).finish()
