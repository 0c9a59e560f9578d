"""The Colorlink text format (square boards), its writer, and the ASCII picture of an answer.

Format: one line per row of cells, or rows joined by ``/`` on one line. A cell is ``.`` (or
``-``) for no clue, or a digit followed by a colour letter with nothing between them:
``r`` red, ``g`` green, ``b`` blue, ``y`` yellow, ``m`` magenta, ``c`` cyan, and ``k`` for a
black clue (it counts the lines of every colour). Spaces between cells are optional; blank
lines and lines starting with ``#`` are skipped. A 3x3 puzzle with a red, a green and a
black clue::

    2r . .
    . 3k .
    . . 1g

is also ``2r../.3k./..1g``, which is what :func:`write_colorlink` writes (``spaced=True``:
the first form). The puzzle's colours are those its clues name (here r and g).

Every error is one line naming the row and column (counted from 1): an unknown colour letter,
a digit without a colour, a clue larger than the cell's four sides, ragged rows.
"""

from __future__ import annotations

from slitherbench.puzzles.colorlink.model import (
    LETTERS,
    ColorAnswer,
    ColorClue,
    ColorlinkError,
    ColorPuzzle,
)


def read_colorlink(text: str, name: str = "") -> ColorPuzzle:
    """The puzzle written in ``text`` (the module docstring's format)."""
    lines = [ln.strip() for ln in text.replace("/", "\n").splitlines()]
    rows = [_read_row(ln, r) for r, ln in enumerate(ln for ln in lines if ln and ln[0] != "#")]
    if not rows:
        raise ColorlinkError("empty puzzle text")
    for r, row in enumerate(rows):
        if len(row) != len(rows[0]):
            raise ColorlinkError(
                f"row {r + 1} has {len(row)} cells, row 1 has {len(rows[0])} (ragged rows)"
            )
    return ColorPuzzle.square(rows, name=name)


def _read_row(line: str, r: int) -> list[ColorClue | None]:
    cells: list[ColorClue | None] = []
    chars = line.replace(" ", "").replace("\t", "")
    i = 0
    while i < len(chars):
        ch, where = chars[i], f"row {r + 1}, column {len(cells) + 1}"
        if ch in ".-":
            cells.append(None)
            i += 1
            continue
        if not ch.isdigit():
            raise ColorlinkError(f"{ch!r} at {where} is neither a clue nor '.'")
        letter = chars[i + 1] if i + 1 < len(chars) else ""
        if letter == "" or letter.isdigit() or letter in ".-":
            raise ColorlinkError(
                f"clue {ch} at {where} has no colour; write {ch}r, {ch}g, ... or {ch}k for black"
            )
        if letter not in LETTERS:
            raise ColorlinkError(
                f"unknown colour {letter!r} at {where}; colours: {' '.join(LETTERS)}"
            )
        if int(ch) > 4:
            raise ColorlinkError(f"clue {ch} at {where} is larger than its cell's 4 sides")
        cells.append(ColorClue(int(ch), letter))
        i += 2
    return cells


def write_colorlink(puzzle: ColorPuzzle, spaced: bool = False) -> str:
    """The text that reads back as ``puzzle``: rows joined by ``/`` (``spaced``: one line per
    row, cells two characters wide, separated by spaces)."""
    if not puzzle.is_square:
        raise ColorlinkError(f"the text format is for square boards, this is a {puzzle.size_label}")
    W = puzzle.board.width
    cells = [str(c) if c else ("." if not spaced else ". ") for c in puzzle.clues]
    rows = [cells[i : i + W] for i in range(0, len(cells), W)]
    if spaced:
        return "\n".join(" ".join(row).rstrip() for row in rows)
    return "/".join("".join(row) for row in rows)


def render_answer(puzzle: ColorPuzzle, answer: ColorAnswer) -> str:
    """The board in ASCII: ``+`` points, each line drawn in its colour's letter, clues inside."""
    if not puzzle.is_square:
        return answer.to_text()
    R, C = puzzle.board.height, puzzle.board.width
    h = lambda i, j: answer.edges[i * C + j]  # noqa: E731 - the page's numbering
    v = lambda i, j: answer.edges[(R + 1) * C + i * (C + 1) + j]  # noqa: E731
    out = []
    for i in range(R + 1):
        out.append("+" + "+".join(4 * (h(i, j) or " ") for j in range(C)) + "+")
        if i < R:
            cells = [f" {puzzle.clues[i * C + j] or '  '} " for j in range(C)]
            out.append("".join((v(i, j) or " ") + cells[j] for j in range(C)) + (v(i, C) or " "))
    return "\n".join(line.rstrip() for line in out)
