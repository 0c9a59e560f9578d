"""puzz.link / pzprjs URLs: ``https://puzz.link/p?slither/COLS/ROWS/BODY`` (or ``slither/...``
alone), the body in pzprjs' encode4Cell; ``write_puzzlink`` writes pzprjs' own URL."""

from __future__ import annotations

import re

from slitherbench.puzzles.formats.base import SLITHER_PIDS, TextFormat, check_size
from slitherbench.puzzles.puzzle import Clue, Puzzle, PuzzleFormatError

_URL_RE = re.compile(r"^(?:[a-z]+://[^?]*\?)?(?P<pid>[A-Za-z0-9_]+)/(?P<rest>.*)$", re.IGNORECASE)


def parse_puzzlink(text: str, name: str = "") -> Puzzle:
    s = text.strip()
    m = _URL_RE.match(s)
    if not m:
        raise PuzzleFormatError(f"not a puzz.link URL: {s[:60]!r}")
    pid = m["pid"].lower()
    if pid not in SLITHER_PIDS:
        raise PuzzleFormatError(f"the URL is for puzzle type {pid!r}, not slither")
    parts = m["rest"].split("/")
    if len(parts) != 3 or not parts[0].isdigit() or not parts[1].isdigit():
        raise PuzzleFormatError(f"expected slither/COLS/ROWS/BODY, got {pid}/{m['rest']!r}")
    cols, rows, body = int(parts[0]), int(parts[1]), parts[2]
    if cols < 1 or rows < 1:
        raise PuzzleFormatError(f"board size {cols}x{rows} (cols x rows) is empty")
    n = _puzzlink_size(cols, rows, body)
    cells: list[Clue] = [None] * n
    unknown = 0
    c = 0
    for k, ch in enumerate(body):
        where = f"body character {k + 1} {ch!r}"
        if c >= n:
            raise PuzzleFormatError(
                f"{where}: the body continues past the {cols}x{rows} (cols x rows) board"
            )
        if "0" <= ch <= "4":
            val, skip = int(ch), 0
        elif "5" <= ch <= "9":
            val, skip = int(ch) - 5, 1
        elif "a" <= ch <= "e":
            val, skip = int(ch, 16) - 10, 2
        elif "g" <= ch <= "z":
            val, skip = None, int(ch, 36) - 16
            if c + skip >= n:
                raise PuzzleFormatError(
                    f"{where}: a run of {skip + 1} blanks runs past the "
                    f"{cols}x{rows} (cols x rows) board"
                )
        elif ch == ".":
            val, skip = None, 0
            unknown += 1
        else:
            raise PuzzleFormatError(f"{where}: not a slither URL body character")
        if val is not None:
            if val > 3:
                raise PuzzleFormatError(f"{where}: clue {val} is greater than 3")
            cells[c] = val
        c += 1 + skip
    if c < n:
        raise PuzzleFormatError(
            f"the body covers {c} of the {n} cells of a {cols}x{rows} (cols x rows) board"
        )
    clues = tuple(tuple(cells[i * cols : (i + 1) * cols]) for i in range(rows))
    puzzle = Puzzle(clues, name=name)
    if unknown:
        puzzle.meta["unknown_clues"] = unknown  # '?' clues constrain nothing
    return puzzle


def _puzzlink_size(cols: int, rows: int, body: str) -> int:
    """The board's cells, checked against the harness's limit and against what the body can
    cover (one character covers at most 20 cells: 'z', 20 blanks) before anything is made."""
    n = rows * cols
    check_size(rows, cols, f"{cols}x{rows} (cols x rows)")
    if n > 20 * len(body):
        raise PuzzleFormatError(
            f"the body ({len(body)} characters) covers at most {20 * len(body)} of the {n} "
            f"cells of a {cols}x{rows} (cols x rows) board"
        )
    return n


def puzzlink_body(puzzle: Puzzle) -> str:
    """The body pzprjs' encode4Cell writes."""
    cells = [n for row in puzzle.clues for n in row]
    n = len(cells)
    out = []
    count = 0
    c = 0
    while c < n:
        pstr = ""
        qn = cells[c]
        if qn is not None:
            if c + 1 < n and cells[c + 1] is not None:
                pstr = format(qn, "x")
            elif c + 2 < n and cells[c + 2] is not None:
                pstr = format(5 + qn, "x")
                c += 1
            else:
                pstr = format(10 + qn, "x")
                c += 2
        else:
            count += 1
        if count == 0:
            out.append(pstr)
        elif pstr or count == 20:
            out.append(_base36(count + 15) + pstr)
            count = 0
        c += 1
    if count > 0:
        out.append(_base36(count + 15))
    return "".join(out)


def _base36(v: int) -> str:
    return "0123456789abcdefghijklmnopqrstuvwxyz"[v]


def write_puzzlink(puzzle: Puzzle, host: str = "https://puzz.link/p?") -> str:
    return f"{host}slither/{puzzle.cols}/{puzzle.rows}/{puzzlink_body(puzzle)}"


def _is_url(text: str) -> bool:
    return "://" in text or "?" in text.splitlines()[0] or bool(re.match(r"^[a-z]+/", text))


FORMAT = TextFormat(
    "puzzlink", parse_puzzlink, write_puzzlink, _is_url, priority=20, title="puzz.link"
)
