"""The reference page's ASCII board: ``+---+`` grid lines between rows of clues, the answer's
edges drawn (``---`` and ``|``)."""

from __future__ import annotations

from slitherbench.puzzles.formats.base import TextFormat, check_size, clue_char
from slitherbench.puzzles.puzzle import Answer, Clue, Puzzle, PuzzleFormatError


def write_ascii(puzzle: Puzzle, answer: Answer | None = None) -> str:
    """Exactly the reference program's print_board (clue lines right-stripped)."""
    sel = [False] * puzzle.num_edges if answer is None else [bool(x) for x in answer]
    if len(sel) != puzzle.num_edges:
        raise ValueError(f"answer has {len(sel)} edges, the board has {puzzle.num_edges}")
    R, C = puzzle.rows, puzzle.cols
    lines = []
    for i in range(R + 1):
        lines.append("".join("+---" if sel[puzzle.h(i, j)] else "+   " for j in range(C)) + "+")
        if i == R:
            break
        line = ""
        for j in range(C + 1):
            line += "|" if sel[puzzle.v(i, j)] else " "
            if j < C:
                n = puzzle.clues[i][j]
                line += " " + (" " if n is None else str(n)) + " "
        lines.append(line.rstrip())
    return "\n".join(lines)


def _ascii_grid_line(line: str, lineno: int, C: int) -> list[bool]:
    """``+---+   +``: the horizontal edges of one grid row."""
    bits = []
    for j in range(C + 1):
        if line[4 * j] != "+":
            raise PuzzleFormatError(f"line {lineno}, column {4 * j + 1}: expected '+'")
        if j < C:
            seg = line[4 * j + 1 : 4 * j + 4]
            if seg not in ("   ", "---"):
                raise PuzzleFormatError(
                    f"line {lineno}, column {4 * j + 2}: expected '---' or spaces, got {seg!r}"
                )
            bits.append(seg == "---")
    return bits


def _ascii_clue_line(line: str, lineno: int, C: int) -> tuple[tuple[Clue, ...], list[bool]]:
    """``| 2   1 |``: one row of clues and its vertical edges."""
    row: list[Clue] = []
    bits = []
    for j in range(C + 1):
        ch = line[4 * j]
        if ch not in " |":
            raise PuzzleFormatError(
                f"line {lineno}, column {4 * j + 1}: expected '|' or space, got {ch!r}"
            )
        bits.append(ch == "|")
        if j < C:
            if line[4 * j + 1] != " " or line[4 * j + 3] != " ":
                raise PuzzleFormatError(
                    f"line {lineno}, column {4 * j + 2}: a clue stands alone in the "
                    "middle of its cell"
                )
            ch = line[4 * j + 2]
            row.append(None if ch == " " else clue_char(ch, f"line {lineno}, column {4 * j + 3}"))
    return tuple(row), bits


def parse_ascii(text: str, name: str = "") -> Puzzle:
    lines = text.strip("\n").splitlines()
    while lines and not lines[-1].strip():
        lines.pop()
    # Drop any leading lines before the first '+' line (e.g. a caption).
    start = next((k for k, ln in enumerate(lines) if ln.lstrip().startswith("+")), None)
    if start is None:
        raise PuzzleFormatError("no '+' grid line found")
    lines = lines[start:]
    if len(lines) % 2 == 0:
        raise PuzzleFormatError(
            f"line {start + len(lines)}: a board ends with a '+' line (got {len(lines)} lines)"
        )
    first = lines[0].rstrip()
    C = first.count("+") - 1
    if C < 1:
        raise PuzzleFormatError(f"line {start + 1}: a grid line needs at least two '+'")
    check_size(len(lines) // 2, C)
    width = 4 * C + 1
    h_bits: list[bool] = []
    v_bits: list[bool] = []
    clues: list[tuple[Clue, ...]] = []
    for k, raw in enumerate(lines):
        lineno = start + k + 1
        line = raw.rstrip().ljust(width)
        if len(line) > width:
            raise PuzzleFormatError(
                f"line {lineno}, column {width + 1}: text past the {C}-column board"
            )
        if k % 2 == 0:
            h_bits += _ascii_grid_line(line, lineno, C)
        else:
            row, vs = _ascii_clue_line(line, lineno, C)
            clues.append(row)
            v_bits += vs
    puzzle = Puzzle(tuple(clues), name=name)
    answer = h_bits + v_bits
    if any(answer):
        puzzle.meta["answer"] = answer
    return puzzle


FORMAT = TextFormat(
    "ascii",
    parse_ascii,
    write_ascii,
    detects=lambda text: text.splitlines()[0].strip().startswith("+"),
    priority=10,
)
