"""What every text format shares: the :class:`TextFormat` a format module declares, the size
check each reader makes before it allocates anything, one clue character, and the
``rules=`` prefix every reader takes and every writer writes."""

from __future__ import annotations

import functools
import math
import re
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from slitherbench.puzzles.boards.loopy import MAX_FACES
from slitherbench.puzzles.puzzle import Clue, Puzzle, PuzzleFormatError


@dataclass(frozen=True)
class TextFormat:
    """One text format, declared as ``FORMAT = TextFormat(...)`` in its module of
    :mod:`slitherbench.puzzles.formats` (the package finds it there).

    ``read(text, name="")`` returns a :class:`~slitherbench.puzzles.puzzle.Puzzle` or raises
    :class:`~slitherbench.puzzles.puzzle.PuzzleFormatError` naming the place at fault;
    ``write(puzzle)`` returns the text (its other arguments have defaults). ``detects(text)``
    says whether stripped text is in this format; detection asks the formats by ``priority``,
    highest first (the most distinctive mark first), and the formats are listed lowest first.
    ``squares_only``: the writer refuses other boards in one line."""

    name: str
    read: Callable[..., Puzzle]
    write: Callable[..., str]
    detects: Callable[[str], bool]
    priority: int
    squares_only: bool = True
    title: str = ""  # the name a refusal uses (``puzz.link``); default: ``name``


def check_size(rows: int, cols: int, label: str = "") -> None:
    """Every reader calls this with the board's size before it allocates anything for it:
    boards beyond :data:`~slitherbench.puzzles.boards.loopy.MAX_FACES` cells (a 300x300 board) are
    refused in one line."""
    if rows * cols > MAX_FACES:
        side = math.isqrt(MAX_FACES)
        raise PuzzleFormatError(
            f"a {label or f'{rows}x{cols}'} board has {rows * cols} cells; the harness takes "
            f"boards of at most {MAX_FACES} cells ({side}x{side})"
        )


def clue_char(ch: str, where: str) -> Clue:
    """One square's clue character: 0-3, or '.'/'-' for none."""
    if ch in ".-":
        return None
    if ch in "0123":
        return int(ch)
    if ch.isdigit():
        raise PuzzleFormatError(f"{where}: clue {ch} is greater than 3")
    raise PuzzleFormatError(f"{where}: unexpected character {ch!r} (use 0-3, '.' or '-')")


# The puzzle type names of Slitherlink in puzz.link URLs and pzprv3 files.
SLITHER_PIDS = {"slither", "slitherlink"}


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


def reading_rules(read: Callable[..., Puzzle]) -> Callable[..., Puzzle]:
    """A reader that also takes a ``rules=`` prefix and gives the puzzle those rules."""

    @functools.wraps(read)
    def reader(text: str, name: str = "") -> Puzzle:
        rules, rest = split_rules(text)
        puzzle = read(rest, name=name)
        return puzzle.with_rules(rules) if rules else puzzle

    return reader


def writing_rules(write: Callable[..., str]) -> Callable[..., str]:
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


def squares_only(name: str, write: Callable[..., str]) -> Callable[..., str]:
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
