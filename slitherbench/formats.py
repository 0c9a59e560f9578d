"""Readers and writers for the formats Slitherlink puzzles are shared in.

Each reader raises :class:`PuzzleFormatError` naming the line/column or character at fault.
Readers of formats that can carry an answer (ASCII board, janko.at, pzprv3) put it in
``puzzle.meta["answer"]`` as a list of booleans in edge order.

**Rules** (:mod:`slitherbench.rules`, e.g. No-Square Slitherlink) travel in front of the
puzzle in every format, as ``rules=NAME[,NAME...]`` followed by ``;`` in one-line text
(``rules=no_square;3.2/..1/2..``, ``rules=no_square;5x5t0:...``,
``rules=no_square;https://puzz.link/p?slither/...``) or by a line break in multi-line text
(the ASCII board, janko.at, pzprv3 and newline-separated rows). Every reader takes it, every
writer writes it for a puzzle with rules (and nothing for one without, so plain puzzles read
and write exactly as before); an unknown rule name is one :class:`PuzzleFormatError` line.
The files other programs write never start with ``rules=``, and theirs have no way to say
"No-Square": a written No-Square puzzle is this harness's text, not theirs.
"""

from __future__ import annotations

import functools
import math
import re
from collections.abc import Callable, Sequence
from typing import Any

from .boards.loopy import MAX_FACES
from .puzzle import TEXT_IO, Answer, Clue, Puzzle, PuzzleFormatError

FORMATS = ("rows", "ascii", "puzzlink", "loopy", "janko", "pzprv3")


def detect_format(text: str) -> str:
    s = text.strip()
    if not s:
        raise PuzzleFormatError("empty puzzle text")
    first = s.splitlines()[0].strip()
    if first.startswith("pzprv3"):
        return "pzprv3"
    if "[problem]" in s.lower():
        return "janko"
    if first.startswith("+"):
        return "ascii"
    if re.match(r"^\d+x\d+(t\d+)?(d[a-z])?:", s):
        return "loopy"
    if "://" in s or "?" in first or re.match(r"^[a-z]+/", s):
        return "puzzlink"
    return "rows"


def parse(text: str, name: str = "") -> Puzzle:
    """Read ``text`` in whichever supported format it is in (a ``rules=`` prefix first;
    ``colorlink=`` reads a Colorlink puzzle, :mod:`slitherbench.colorlink.harness`)."""
    if text.lstrip().startswith("colorlink="):
        from .colorlink.harness import read_colorlink_puzzle

        return read_colorlink_puzzle(text, name=name)
    fmt = detect_format(split_rules(text)[1])
    return READERS[fmt](text, name=name)


# -- rules ---------------------------------------------------------------------------------
_RULES_RE = re.compile(r"^\s*rules=(?P<names>[^;\n]*)(?:;|\n|$)")


def split_rules(text: str) -> tuple[tuple[str, ...], str]:
    """(rule names, the rest of the text) of text that may start with ``rules=...;``."""
    m = _RULES_RE.match(text)
    if not m:
        return (), text
    names = tuple(n.strip() for n in m["names"].split(","))
    if not all(names):
        raise PuzzleFormatError(f"rules={m['names']}: an empty rule name")
    return names, text[m.end() :]


def _reading_rules(read: Callable[..., Puzzle]) -> Callable[..., Puzzle]:
    """A reader that also takes a ``rules=`` prefix and gives the puzzle those rules."""

    @functools.wraps(read)
    def reader(text: str, name: str = "") -> Puzzle:
        rules, rest = split_rules(text)
        puzzle = read(rest, name=name)
        return puzzle.with_rules(rules) if rules else puzzle

    return reader


def _writing_rules(write: Callable[..., str]) -> Callable[..., str]:
    """A writer that puts a puzzle's rules in front: ``;`` after one line, a line break
    before several."""

    @functools.wraps(write)
    def writer(puzzle: Puzzle, *args: Any, **kwargs: Any) -> str:
        text = write(puzzle, *args, **kwargs)
        if not puzzle.rules:
            return text
        sep = "\n" if "\n" in text.strip("\n") else ";"
        return f"rules={','.join(puzzle.rules)}{sep}{text}"

    return writer


# -- clue rows ----------------------------------------------------------------------------
def check_size(rows: int, cols: int, label: str = "") -> None:
    """Every reader calls this with the board's size before it allocates anything for it:
    boards beyond :data:`~slitherbench.boards.loopy.MAX_FACES` cells (a 300x300 board) are
    refused in one line."""
    if rows * cols > MAX_FACES:
        side = math.isqrt(MAX_FACES)
        raise PuzzleFormatError(
            f"a {label or f'{rows}x{cols}'} board has {rows * cols} cells; the harness takes "
            f"boards of at most {MAX_FACES} cells ({side}x{side})"
        )


def _clue_char(ch: str, where: str) -> Clue:
    if ch in ".-":
        return None
    if ch in "0123":
        return int(ch)
    if ch.isdigit():
        raise PuzzleFormatError(f"{where}: clue {ch} is greater than 3")
    raise PuzzleFormatError(f"{where}: unexpected character {ch!r} (use 0-3, '.' or '-')")


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
            tuple(_clue_char(ch, f"row {r + 1}, column {c + 1}") for c, ch in enumerate(row))
        )
        if len(row) != len(rows[0]):
            raise PuzzleFormatError(
                f"row {r + 1} has {len(row)} cells, row 1 has {len(rows[0])} (ragged rows)"
            )
    return Puzzle(tuple(clues), name=name)


def write_rows(puzzle: Puzzle, sep: str = "\n") -> str:
    return sep.join(puzzle.to_rows())


# -- the reference page's ASCII board -----------------------------------------------------
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
            row.append(None if ch == " " else _clue_char(ch, f"line {lineno}, column {4 * j + 3}"))
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


# -- puzz.link / pzprjs URLs --------------------------------------------------------------
_URL_RE = re.compile(r"^(?:[a-z]+://[^?]*\?)?(?P<pid>[A-Za-z0-9_]+)/(?P<rest>.*)$", re.IGNORECASE)
_SLITHER_PIDS = {"slither", "slitherlink"}


def parse_puzzlink(text: str, name: str = "") -> Puzzle:
    s = text.strip()
    m = _URL_RE.match(s)
    if not m:
        raise PuzzleFormatError(f"not a puzz.link URL: {s[:60]!r}")
    pid = m["pid"].lower()
    if pid not in _SLITHER_PIDS:
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


# -- Simon Tatham's Loopy game IDs --------------------------------------------------------
_LOOPY_RE = re.compile(r"^(?P<w>\d+)x(?P<h>\d+)(?:t(?P<t>\d+))?(?:d(?P<d>[a-z]))?:(?P<desc>.*)$")


def parse_loopy(text: str, name: str = "") -> Puzzle:
    s = text.strip()
    m = _LOOPY_RE.match(s)
    if not m:
        raise PuzzleFormatError(f"not a Loopy game ID (WxHt0dD:DESC): {s[:60]!r}")
    if m["t"] not in (None, "0"):
        return _parse_loopy_grid(s, name)
    w, h, desc = int(m["w"]), int(m["h"]), m["desc"]
    n = w * h
    check_size(h, w, f"{w}x{h}")
    if n > 26 * len(desc):  # a description character covers at most 26 cells ('z')
        raise PuzzleFormatError(
            f"the description ({len(desc)} characters) covers at most {26 * len(desc)} of "
            f"the {n} cells of a {w}x{h} board"
        )
    cells: list[Clue] = []
    for k, ch in enumerate(desc):
        where = f"description character {k + 1} {ch!r}"
        if ch.isdigit():
            cells.append(_clue_char(ch, where))
        elif "a" <= ch <= "z":
            cells.extend([None] * (ord(ch) - ord("a") + 1))
        else:
            raise PuzzleFormatError(f"{where}: not a digit or a blank run a-z")
        if len(cells) > n:
            raise PuzzleFormatError(f"{where}: the description runs past the {w}x{h} board")
    if len(cells) != n:
        raise PuzzleFormatError(
            f"the description covers {len(cells)} of the {n} cells of a {w}x{h} board"
        )
    clues = tuple(tuple(cells[i * w : (i + 1) * w]) for i in range(h))
    puzzle = Puzzle(clues, name=name)
    if m["d"]:
        puzzle.meta["loopy_difficulty"] = m["d"]
    return puzzle


def _parse_loopy_grid(text: str, name: str) -> Puzzle:
    """A game ID of Loopy's other grid types (honeycomb, Penrose, ...): the board is built
    as Loopy builds it (:mod:`slitherbench.boards.loopy`), clues in Loopy's face order."""
    from .boards import loopy_board
    from .boards.loopy import GridError
    from .boards.loopy.game_id import parse_game_id

    try:
        game = parse_game_id(text)
        board = loopy_board(game.loopy_type, game.width, game.height, game.grid_desc)
    except GridError as exc:
        raise PuzzleFormatError(str(exc)) from None
    puzzle = Puzzle.on_board(board, game.clues, name=name)
    if game.difficulty:
        puzzle.meta["loopy_difficulty"] = game.difficulty
    return puzzle


def write_loopy(puzzle: Puzzle, difficulty: str | None = None) -> str:
    """The Loopy game ID of any board (squares: type t0, clues row by row)."""
    from .boards.loopy import grid_type
    from .boards.loopy.game_id import GameId, write_game_id

    d = difficulty or puzzle.meta.get("loopy_difficulty")
    b = puzzle.board
    # Squares: Loopy's width x height is columns x rows.
    game = GameId(grid_type(b.kind).loopy_type, b.width, b.height, b.desc, puzzle.face_clues, d)
    return write_game_id(game)


# -- janko.at -----------------------------------------------------------------------------
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
            row.append(_clue_char(it, f"line {lineno}, cell {c + 1}"))
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


# -- pzprv3 files -------------------------------------------------------------------------
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
        return _clue_char(it, where)
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
    if pid.lower() not in _SLITHER_PIDS:
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


READERS = {
    name: _reading_rules(read)
    for name, read in {
        "rows": parse_clue_rows,
        "ascii": parse_ascii,
        "puzzlink": parse_puzzlink,
        "loopy": parse_loopy,
        "janko": parse_janko,
        "pzprv3": parse_pzprv3,
    }.items()
}


def _squares_only(name: str, write: Callable[..., str]) -> Callable[..., str]:
    """A writer of a square-only format, refusing other boards in one line."""

    @functools.wraps(write)
    def checked(puzzle: Puzzle, *args: Any, **kwargs: Any) -> str:
        if not puzzle.is_square:
            raise PuzzleFormatError(
                f"the {name} format holds square boards only; a {puzzle.board.label} is "
                "written as a Loopy game ID (format loopy)"
            )
        return write(puzzle, *args, **kwargs)

    return checked


# Each writer takes the puzzle alone (its other arguments have defaults).
WRITERS = {
    name: _writing_rules(write)
    for name, write in {
        "rows": _squares_only("rows", write_rows),
        "ascii": _squares_only("ascii", write_ascii),
        "puzzlink": _squares_only("puzz.link", write_puzzlink),
        "loopy": write_loopy,
        "janko": _squares_only("janko", write_janko),
        "pzprv3": _squares_only("pzprv3", write_pzprv3),
    }.items()
}


# The board model's own hooks: the plain readers and writers (Puzzle.to_text adds the rules).
TEXT_IO.update(parse=parse, rows=READERS["rows"], ascii=write_ascii, loopy=write_loopy)
