"""pzprv3 files (pzprjs' file format): header, size, clue rows, then optionally cell marks
and the answer's vertical and horizontal edges."""

from __future__ import annotations

import re

from slitherbench.puzzles.formats.base import SLITHER_PIDS, TextFormat, check_size, clue_char
from slitherbench.puzzles.puzzle import Answer, Clue, Puzzle, PuzzleFormatError


class _Lines:
    """The non-blank lines of a pzprv3 file, taken one by one with their line numbers."""

    def __init__(self, text: str) -> None:
        self.lines = [(k, ln.strip()) for k, ln in enumerate(text.strip().splitlines(), start=1)]
        self.pos = 0

    def take(self, what: str) -> tuple[int, str]:
        while self.pos < len(self.lines) and not self.lines[self.pos][1]:
            self.pos += 1
        if self.pos >= len(self.lines):
            raise PuzzleFormatError(f"pzprv3 file ends before {what}")
        self.pos += 1
        return self.lines[self.pos - 1]

    def at_end(self) -> bool:
        return all(not ln for _, ln in self.lines[self.pos :])

    def grid(self, nrows: int, ncols: int, what: str) -> list[tuple[int, list[str]]]:
        out = []
        for _ in range(nrows):
            lineno, s = self.take(what)
            items = s.split()
            if len(items) != ncols:
                raise PuzzleFormatError(
                    f"line {lineno}: {what} row has {len(items)} items, expected {ncols}"
                )
            out.append((lineno, items))
        return out


def _pzprv3_clue(it: str, where: str) -> Clue:
    if it in ("-", "."):
        return None
    if it.isdigit() and len(it) > 1:
        raise PuzzleFormatError(f"{where}: clue {it} is greater than 3")
    if it.isdigit():
        return clue_char(it, where)
    raise PuzzleFormatError(f"{where}: unexpected clue {it!r}")


def _pzprv3_edge(it: str, lineno: int, c: int) -> bool:
    if it == "1":
        return True
    if it in ("0", "-1", "2"):
        return False
    raise PuzzleFormatError(f"line {lineno}, item {c + 1}: edge value {it!r} is not 1, 0 or -1")


def _pzprv3_header(f: _Lines) -> tuple[int, int, int]:
    """File version, rows, columns."""
    _, header = f.take("the header")
    if not re.fullmatch(r"pzprv3(\.\d+)?", header):
        raise PuzzleFormatError(f"line 1: expected 'pzprv3', got {header!r}")
    filever = int(header.split(".")[1]) if "." in header else 0
    lineno, pid = f.take("the puzzle type")
    if pid.lower() not in SLITHER_PIDS:
        raise PuzzleFormatError(f"line {lineno}: the file is for puzzle type {pid!r}, not slither")
    sizes = []
    for what in ("ROWS", "COLS"):
        lineno, s = f.take(what)
        if not s.isdigit() or int(s) < 1:
            raise PuzzleFormatError(f"line {lineno}: {what} must be a positive number, got {s!r}")
        sizes.append(int(s))
    check_size(sizes[0], sizes[1])
    return filever, sizes[0], sizes[1]


def parse_pzprv3(text: str, name: str = "") -> Puzzle:
    f = _Lines(text)
    filever, R, C = _pzprv3_header(f)
    rows = f.grid(R, C, "clue")
    clues = [
        tuple(_pzprv3_clue(it, f"line {ln}, item {c + 1}") for c, it in enumerate(items))
        for ln, items in rows
    ]
    puzzle = Puzzle(tuple(clues), name=name)
    unknown = sum(it == "-" for _, items in rows for it in items)
    if unknown:
        puzzle.meta["unknown_clues"] = unknown
    if filever >= 1:
        f.grid(R, C, "cell mark")  # background marks: not part of the puzzle
    if f.at_end():
        return puzzle
    v = [
        _pzprv3_edge(it, ln, c)
        for ln, items in f.grid(R, C + 1, "vertical edge")
        for c, it in enumerate(items)
    ]
    h = [
        _pzprv3_edge(it, ln, c)
        for ln, items in f.grid(R + 1, C, "horizontal edge")
        for c, it in enumerate(items)
    ]
    if any(v) or any(h):
        puzzle.meta["answer"] = h + v
    return puzzle


def write_pzprv3(puzzle: Puzzle, answer: Answer | None = None) -> str:
    R, C = puzzle.rows, puzzle.cols
    out = ["pzprv3", "slither", str(R), str(C)]
    out += ["".join(("." if n is None else str(n)) + " " for n in row) for row in puzzle.clues]
    sel = [False] * puzzle.num_edges if answer is None else list(answer)
    out += [
        "".join(("1" if sel[puzzle.v(i, j)] else "0") + " " for j in range(C + 1)) for i in range(R)
    ]
    out += [
        "".join(("1" if sel[puzzle.h(i, j)] else "0") + " " for j in range(C)) for i in range(R + 1)
    ]
    return "\n".join(out) + "\n"


FORMAT = TextFormat(
    "pzprv3",
    parse_pzprv3,
    write_pzprv3,
    detects=lambda text: text.splitlines()[0].strip().startswith("pzprv3"),
    priority=50,
)
