"""Simon Tatham's Loopy game IDs (``10x10t0dh:...``): squares read here, Loopy's other grid
types built as Loopy builds them (:mod:`slitherbench.puzzles.boards.loopy`); every board is written
as one (type t0 for squares)."""

from __future__ import annotations

import re

from slitherbench.puzzles.formats.base import TextFormat, check_size, clue_char
from slitherbench.puzzles.puzzle import Clue, Puzzle, PuzzleFormatError

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
            cells.append(clue_char(ch, where))
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
    as Loopy builds it (:mod:`slitherbench.puzzles.boards.loopy`), clues in Loopy's face order."""
    from slitherbench.puzzles.boards import loopy_board
    from slitherbench.puzzles.boards.loopy import GridError
    from slitherbench.puzzles.boards.loopy.game_id import parse_game_id

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
    from slitherbench.puzzles.boards.loopy import grid_type
    from slitherbench.puzzles.boards.loopy.game_id import GameId, write_game_id

    d = difficulty or puzzle.meta.get("loopy_difficulty")
    b = puzzle.board
    # Squares: Loopy's width x height is columns x rows.
    game = GameId(grid_type(b.kind).loopy_type, b.width, b.height, b.desc, puzzle.face_clues, d)
    return write_game_id(game)


FORMAT = TextFormat(
    "loopy",
    parse_loopy,
    write_loopy,
    detects=lambda text: bool(re.match(r"^\d+x\d+(t\d+)?(d[a-z])?:", text)),
    priority=30,
    squares_only=False,
)
