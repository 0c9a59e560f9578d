"""janko.at's text: a ``[problem]`` section of clues (``-`` for none), and optionally a
``[solution]`` section of cells inside (``x``) and outside (``-``) the loop."""

from __future__ import annotations

import re
from collections.abc import Sequence

from slitherbench.puzzles.formats.base import TextFormat, check_size, clue_char
from slitherbench.puzzles.puzzle import Answer, Puzzle, PuzzleFormatError


def _sections(text: str) -> dict[str, list[tuple[int, str]]]:
    sections: dict[str, list[tuple[int, str]]] = {}
    current: str | None = None
    for lineno, raw in enumerate(text.splitlines(), start=1):
        line = raw.strip()
        m = re.match(r"^\[(\w+)\]$", line)
        if m:
            current = m[1].lower()
            sections[current] = []
        elif current is not None and line and not line.startswith("#"):
            sections[current].append((lineno, line))
    return sections


def parse_janko(text: str, name: str = "") -> Puzzle:
    sec = _sections(text)
    if "problem" not in sec or not sec["problem"]:
        raise PuzzleFormatError("janko text has no [problem] rows")
    check_size(len(sec["problem"]), len(sec["problem"][0][1].split()))
    clues = []
    width = None
    for lineno, line in sec["problem"]:
        items = line.split()
        if width is None:
            width = len(items)
        elif len(items) != width:
            raise PuzzleFormatError(
                f"line {lineno}: {len(items)} cells, the first [problem] row has {width} (ragged rows)"
            )
        row = []
        for c, it in enumerate(items):
            if len(it) != 1:
                raise PuzzleFormatError(f"line {lineno}, cell {c + 1}: {it!r} is not one character")
            row.append(clue_char(it, f"line {lineno}, cell {c + 1}"))
        clues.append(tuple(row))
    puzzle = Puzzle(tuple(clues), name=name)
    if sec.get("solution"):
        inside = []
        for lineno, line in sec["solution"]:
            items = line.split()
            if len(items) != puzzle.cols:
                raise PuzzleFormatError(
                    f"line {lineno}: [solution] row has {len(items)} cells, the board {puzzle.cols}"
                )
            bad = [it for it in items if it not in ("x", "-")]
            if bad:
                raise PuzzleFormatError(
                    f"line {lineno}: [solution] cell {bad[0]!r} is not 'x' or '-'"
                )
            inside.append([it == "x" for it in items])
        if len(inside) != puzzle.rows:
            raise PuzzleFormatError(
                f"[solution] has {len(inside)} rows, [problem] has {puzzle.rows}"
            )
        puzzle.meta["answer"] = answer_from_inside(puzzle, inside)
    return puzzle


def answer_from_inside(puzzle: Puzzle, inside: Sequence[Sequence[bool]]) -> list[bool]:
    """The edges between inside and outside cells (the board's outside counts as outside)."""
    R, C = puzzle.rows, puzzle.cols

    def cell(i: int, j: int) -> bool:
        return 0 <= i < R and 0 <= j < C and bool(inside[i][j])

    ans = [False] * puzzle.num_edges
    for i in range(R + 1):
        for j in range(C):
            ans[puzzle.h(i, j)] = cell(i - 1, j) != cell(i, j)
    for i in range(R):
        for j in range(C + 1):
            ans[puzzle.v(i, j)] = cell(i, j - 1) != cell(i, j)
    return ans


def inside_from_answer(puzzle: Puzzle, answer: Answer) -> list[list[bool]]:
    """Cells inside the loop: an odd number of vertical edges to their left (ray casting)."""
    out = []
    for i in range(puzzle.rows):
        row, inside = [], False
        for j in range(puzzle.cols):
            if answer[puzzle.v(i, j)]:
                inside = not inside
            row.append(inside)
        out.append(row)
    return out


def write_janko(puzzle: Puzzle, answer: Answer | None = None) -> str:
    lines = ["[problem]"]
    lines += [" ".join("-" if n is None else str(n) for n in row) for row in puzzle.clues]
    if answer is not None:
        lines.append("[solution]")
        lines += [
            " ".join("x" if x else "-" for x in row) for row in inside_from_answer(puzzle, answer)
        ]
    return "\n".join(lines) + "\n"


FORMAT = TextFormat(
    "janko",
    parse_janko,
    write_janko,
    detects=lambda text: "[problem]" in text.lower(),
    priority=40,
)
