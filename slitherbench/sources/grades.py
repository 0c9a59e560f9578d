"""Each board's difficulty grade, as the store and the library keep it.

The grade is :func:`slitherbench.deduction.grade`'s: the lowest deduction level that solves
the board without assuming its answer is unique (``rules``, ``lookahead1``,
``lookahead2``; ``beyond`` when look-ahead 2 does not), with the share of edges fixed after
each level. A shipped board carries its grade in its data file (``grade`` and
``grade_shares``, written by ``experiments/grade_library.py``), read into
``puzzle.meta``; any other board is graded once per process, by its text, so a run grades
each of its boards once, outside every trial's time.
"""

from __future__ import annotations

import json
from typing import Any

from slitherbench.deduction import LEVELS, grade

# The deduction levels a board can need, easiest first ("none" is the engine's "nothing
# beyond the input"), then "beyond"; a board not graded has the empty grade.
GRADE_LEVELS = tuple(lv for lv in LEVELS if lv != "none")
GRADES = (*GRADE_LEVELS, "beyond")
NOT_GRADED = ""

_cache: dict[str, tuple[str, str]] = {}

# A board of more faces is not graded when a run meets it (its grade stays empty): the
# largest graded, 60x60 (3,600 faces), took 13-20 s through look-ahead 2 on 2 cores, and the
# time grows faster than the faces. Shipped boards carry their grade whatever their size.
GRADE_MAX_FACES = 3_600


def shares_text(shares: dict[str, float]) -> str:
    """The shares as the stored JSON: each level's share, rounded to 4 digits."""
    return json.dumps({lv: round(float(shares[lv]), 4) for lv in GRADE_LEVELS if lv in shares})


def grade_columns(puzzle: Any) -> tuple[str, str]:
    """``(grade, grade_shares)`` of ``puzzle``: from its meta where the library or the
    generator put them, else computed once per puzzle text; ``("", "")`` for a board with
    no answer or one of more than :data:`GRADE_MAX_FACES` faces (Colorlink: the layered
    board's faces)."""
    meta = getattr(puzzle, "meta", {}) or {}
    if meta.get("grade"):
        return str(meta["grade"]), str(meta.get("grade_shares", ""))
    if puzzle.num_faces > GRADE_MAX_FACES:
        return NOT_GRADED, ""
    key = puzzle.to_text()
    if key not in _cache:
        try:
            found = grade(puzzle)
        except ValueError:  # no answer: nothing to grade
            _cache[key] = (NOT_GRADED, "")
        else:
            _cache[key] = (found.level, shares_text(found.shares))
    return _cache[key]


def grade_order(level: str) -> int:
    """Where a grade comes, easiest first (an unknown one last)."""
    return GRADES.index(level) if level in GRADES else len(GRADES)


def at_least(level: str, floor: str) -> bool:
    """Whether grade ``level`` is ``floor`` or harder."""
    return grade_order(level) >= grade_order(floor)


__all__ = ["GRADES", "GRADE_LEVELS", "NOT_GRADED", "at_least", "grade_columns", "grade_order"]
