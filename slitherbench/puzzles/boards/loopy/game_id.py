"""Loopy game IDs of every grid type: ``7x7t2dn:02a45a5g...`` (honeycomb) or, for grid types
with a grid description, ``6x6t11dn:G541,2567,324_3a33a...`` (Penrose: the patch; triangular:
its layout ``0``).

Parameters as ``decode_params`` in loopy.c reads them: ``W[xH][tT][dD]``; then ``:``, the grid
description and ``_`` where there is one, and one character per face in Loopy's face order:
``0``-``9`` and ``A``-``Z`` (10-35) are clues, ``a``-``z`` runs of 1-26 faces without one.
Every check here happens before the grid is built, and the grid's own size bound before
anything is allocated.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import dataclass

from slitherbench.puzzles.boards.loopy.grid import GridError

_PARAMS = re.compile(r"^(?P<w>\d{1,6})(?:x(?P<h>\d{1,6}))?(?:t(?P<t>\d{1,3}))?(?:d(?P<d>[a-z]))?$")


@dataclass(frozen=True)
class GameId:
    loopy_type: int
    width: int
    height: int
    grid_desc: str | None  # the part before "_", where the type has one
    clues: tuple[int | None, ...]  # one per face, Loopy's face order
    difficulty: str | None = None


def _clue_value(ch: str) -> int:
    return int(ch) if ch.isdigit() else ord(ch) - ord("A") + 10


def _clue_char(n: int) -> str:
    return str(n) if n < 10 else chr(ord("A") + n - 10)


def parse_game_id(text: str) -> GameId:
    """Read a game ID; :class:`GridError` (one line) for anything Loopy would refuse, and for
    clues larger than their face's sides."""
    from slitherbench.puzzles.boards.loopy import loopy_grid

    s = text.strip()
    params, sep, desc = s.partition(":")
    m = _PARAMS.match(params)
    if not sep or not m:
        raise GridError(f"not a Loopy game ID (WxHtTdD:DESC): {s[:60]!r}")
    w = int(m["w"])
    h = int(m["h"]) if m["h"] else w
    t = int(m["t"]) if m["t"] else 0
    grid_desc = None
    if "_" in desc:
        grid_desc, _, desc = desc.partition("_")
    grid = loopy_grid(t, w, h, grid_desc)  # checks type, sizes and grid description first
    clues: list[int | None] = []
    for k, ch in enumerate(desc):
        where = f"description character {k + 1} {ch!r}"
        if ch.isdigit() or "A" <= ch <= "Z":
            clues.append(_clue_value(ch))
        elif "a" <= ch <= "z":
            clues.extend([None] * (ord(ch) - ord("a") + 1))
        else:
            raise GridError(f"{where}: not a clue 0-9/A-Z or a blank run a-z")
        if len(clues) > grid.num_faces:
            raise GridError(f"{where}: the description runs past the {grid.num_faces} faces")
    if len(clues) != grid.num_faces:
        raise GridError(
            f"the description covers {len(clues)} of the {grid.num_faces} faces of this grid"
        )
    for f, n in enumerate(clues):
        if n is not None and n > len(grid.faces[f]):
            raise GridError(f"face {f + 1}: clue {n} but the face has {len(grid.faces[f])} sides")
    return GameId(t, w, h, grid_desc, tuple(clues), m["d"])


def encode_clues(clues: Sequence[int | None]) -> str:
    """Loopy's clue string: ``0``-``9``/``A``-``Z`` a clue, ``a``-``z`` a run of 1-26 blanks."""
    out, run = [], 0
    for n in clues:
        if n is None:
            run += 1
            if run == 26:
                out.append("z")
                run = 0
            continue
        if run:
            out.append(chr(ord("a") + run - 1))
            run = 0
        out.append(_clue_char(n))
    if run:
        out.append(chr(ord("a") + run - 1))
    return "".join(out)


def write_game_id(game: GameId) -> str:
    """The game ID, as Loopy writes it (``encode_params`` with the difficulty if known)."""
    params = f"{game.width}x{game.height}t{game.loopy_type}"
    if game.difficulty:
        params += f"d{game.difficulty}"
    prefix = f"{game.grid_desc}_" if game.grid_desc is not None else ""
    return f"{params}:{prefix}{encode_clues(game.clues)}"
