"""Readers and writers for the formats Slitherlink puzzles are shared in: one module per
format in this package, each declaring ``FORMAT = TextFormat(...)``
(:class:`~slitherbench.puzzles.formats.base.TextFormat`: its name, reader, writer, how its text is
recognised), found by scanning the package. A new format is one module here; detection,
:data:`READERS`, :data:`WRITERS` and ``Puzzle.parse`` take it up.

Each reader raises :class:`PuzzleFormatError` naming the line/column or character at fault.
Readers of formats that can carry an answer (ASCII board, janko.at, pzprv3) put it in
``puzzle.meta["answer"]`` as a list of booleans in edge order.

**Rules** (:mod:`slitherbench.puzzles.rules`, e.g. No-Square Slitherlink) travel in front of the
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

import importlib
import pkgutil

from slitherbench.puzzles.formats.ascii import parse_ascii, write_ascii
from slitherbench.puzzles.formats.base import (
    MAX_FACES,
    TextFormat,
    check_size,
    reading_rules,
    split_rules,
    squares_only,
    writing_rules,
)
from slitherbench.puzzles.formats.janko import (
    answer_from_inside,
    inside_from_answer,
    parse_janko,
    write_janko,
)
from slitherbench.puzzles.formats.loopy import parse_loopy, write_loopy
from slitherbench.puzzles.formats.puzzlink import parse_puzzlink, puzzlink_body, write_puzzlink
from slitherbench.puzzles.formats.pzprv3 import parse_pzprv3, write_pzprv3
from slitherbench.puzzles.formats.rows import parse_clue_rows, write_rows
from slitherbench.puzzles.puzzle import TEXT_IO, Puzzle, PuzzleFormatError

__all__ = [
    "FORMATS",
    "MAX_FACES",
    "READERS",
    "WRITERS",
    "PuzzleFormatError",
    "TextFormat",
    "answer_from_inside",
    "check_size",
    "detect_format",
    "inside_from_answer",
    "parse",
    "parse_ascii",
    "parse_clue_rows",
    "parse_janko",
    "parse_loopy",
    "parse_puzzlink",
    "parse_pzprv3",
    "puzzlink_body",
    "split_rules",
    "text_formats",
    "write_ascii",
    "write_janko",
    "write_loopy",
    "write_puzzlink",
    "write_pzprv3",
    "write_rows",
]


def text_formats() -> dict[str, TextFormat]:
    """Every format of this package, by name, listed by priority (the plainest first)."""
    found: dict[str, TextFormat] = {}
    for info in pkgutil.iter_modules(__path__):
        if info.name == "base" or info.name.startswith("_"):
            continue
        fmt = getattr(importlib.import_module(f"{__name__}.{info.name}"), "FORMAT", None)
        if isinstance(fmt, TextFormat):
            if fmt.name in found:
                raise RuntimeError(f"two format modules claim the name {fmt.name!r}")
            found[fmt.name] = fmt
    return dict(sorted(found.items(), key=lambda kv: kv[1].priority))


_FOUND = text_formats()
FORMATS = tuple(_FOUND)
READERS = {name: reading_rules(fmt.read) for name, fmt in _FOUND.items()}
# Each writer takes the puzzle alone (its other arguments have defaults).
WRITERS = {
    name: writing_rules(
        squares_only(fmt.title or name, fmt.write) if fmt.squares_only else fmt.write
    )
    for name, fmt in _FOUND.items()
}


def detect_format(text: str) -> str:
    """The name of the format ``text`` is in (the most distinctive mark first)."""
    s = text.strip()
    if not s:
        raise PuzzleFormatError("empty puzzle text")
    for fmt in sorted(_FOUND.values(), key=lambda f: -f.priority):
        if fmt.detects(s):
            return fmt.name
    raise PuzzleFormatError(f"no format reads this text: {s[:60]!r}")


def parse(text: str, name: str = "") -> Puzzle:
    """Read ``text`` in whichever supported format it is in (a ``rules=`` prefix first;
    ``colorlink=`` reads a Colorlink puzzle, :mod:`slitherbench.puzzles.colorlink.harness`)."""
    if text.lstrip().startswith("colorlink="):
        from slitherbench.puzzles.colorlink.harness import read_colorlink_puzzle

        return read_colorlink_puzzle(text, name=name)
    fmt = detect_format(split_rules(text)[1])
    return READERS[fmt](text, name=name)


# The board model's own hooks: the plain readers and writers (Puzzle.to_text adds the rules).
TEXT_IO.update(parse=parse, rows=READERS["rows"], ascii=write_ascii, loopy=write_loopy)
