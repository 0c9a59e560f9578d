"""Clue rows: ``.11..0.0.0`` rows separated by newlines, commas or '/' (any text no other
format claims)."""

from __future__ import annotations

import re

from slitherbench.puzzles.formats.base import TextFormat, check_size, clue_char
from slitherbench.puzzles.puzzle import Puzzle, PuzzleFormatError


def parse_clue_rows(text: str, name: str = "") -> Puzzle:
    """Rows like ``.11..0.0.0`` separated by newlines, commas or '/'."""
    rows = [r.strip() for r in re.split(r"[\n,/]", text.strip())]
    rows = [r for r in rows if r]
    if not rows:
        raise PuzzleFormatError("no clue rows found")
    check_size(len(rows), len(rows[0]))
    clues = []
    for r, row in enumerate(rows):
        clues.append(
            tuple(clue_char(ch, f"row {r + 1}, column {c + 1}") for c, ch in enumerate(row))
        )
        if len(row) != len(rows[0]):
            raise PuzzleFormatError(
                f"row {r + 1} has {len(row)} cells, row 1 has {len(rows[0])} (ragged rows)"
            )
    return Puzzle(tuple(clues), name=name)


def write_rows(puzzle: Puzzle, sep: str = "\n") -> str:
    return sep.join(puzzle.to_rows())


FORMAT = TextFormat("rows", parse_clue_rows, write_rows, detects=lambda text: True, priority=0)
