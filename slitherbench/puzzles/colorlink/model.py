"""The Colorlink puzzle and its answer, on any :class:`~slitherbench.puzzles.boards.Board`.

A clue is a number and a colour letter (:data:`PALETTE`, or :data:`BLACK`). A puzzle's colours
are the colours its clues name: a colour no clue names has no variable, so it has no loop by
construction, and every colour the puzzle has needs exactly one loop (see :mod:`.check`).
An answer is one colour letter (or None) per edge, in the board's edge order, so "an edge of
two colours" cannot be written as an answer; the checker still takes per-colour layers,
where it can (:func:`~.check.answer_layers`).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from functools import cached_property
from typing import Any, NamedTuple

from slitherbench.puzzles.boards import Board, square_board

# Letter -> the colour matplotlib draws it in. Order matters: it is the puzzle's colour order.
PALETTE: dict[str, str] = {
    "r": "#d62728",
    "g": "#2ca02c",
    "b": "#1f77b4",
    "y": "#d4a017",
    "m": "#c71585",
    "c": "#17a2b8",
}
BLACK = "k"  # a black clue counts the lines of every colour around its face
LETTERS = (*PALETTE, BLACK)


class ColorlinkError(ValueError):
    """Input that is not a Colorlink puzzle or answer; the message is one line saying where."""


class ColorClue(NamedTuple):
    number: int
    colour: str  # a letter of PALETTE, or BLACK

    def __str__(self) -> str:
        return f"{self.number}{self.colour}"


@dataclass(frozen=True, eq=False)
class ColorPuzzle:
    """One :class:`ColorClue` or None per face of ``board`` (face order: row-major on squares)."""

    board: Board
    clues: tuple[ColorClue | None, ...]
    name: str = ""
    meta: dict[str, Any] = field(default_factory=dict, compare=False)

    def __post_init__(self) -> None:
        if len(self.clues) != self.board.num_faces:
            raise ColorlinkError(
                f"{len(self.clues)} clues for the {self.board.num_faces} faces of a "
                f"{self.board.label}"
            )
        object.__setattr__(self, "clues", tuple(_clue(c) for c in self.clues))
        for f, clue in enumerate(self.clues):
            if clue is None:
                continue
            if clue.colour not in LETTERS:
                raise ColorlinkError(
                    f"unknown colour {clue.colour!r} at {self.face_name(f)}; colours: "
                    + " ".join(LETTERS)
                )
            sides = len(self.board.face_edges[f])
            if not 0 <= clue.number <= sides:
                raise ColorlinkError(
                    f"clue {clue.number} at {self.face_name(f)} is larger than its {sides} sides"
                    if clue.number > sides
                    else f"clue {clue.number} at {self.face_name(f)} is negative"
                )
        if not self.colours:
            raise ColorlinkError("a Colorlink puzzle needs at least one coloured (not black) clue")

    @classmethod
    def square(cls, rows: Sequence[Sequence[Any]], name: str = "", **meta: Any) -> ColorPuzzle:
        """From rows of clues: each None, a :class:`ColorClue` or a string such as ``"2r"``."""
        board = square_board(len(rows), len(rows[0]) if rows else 0)
        flat = [c for row in rows for c in row]
        if any(len(row) != board.width for row in rows):
            raise ColorlinkError("ragged rows: every row needs the same number of cells")
        return cls(board, tuple(flat), name=name, meta=dict(meta))

    def __eq__(self, other: object) -> bool:
        return (
            isinstance(other, ColorPuzzle)
            and self.board == other.board
            and self.clues == other.clues
        )

    def __hash__(self) -> int:
        return hash((self.board, self.clues))

    @cached_property
    def colours(self) -> tuple[str, ...]:
        """The colours with a loop: those some clue names, in palette order."""
        named = {c.colour for c in self.clues if c is not None}
        return tuple(c for c in PALETTE if c in named)

    def clue_faces(self, colour: str) -> list[tuple[int, int]]:
        """(face, number) of every clue in ``colour`` (BLACK: the black clues)."""
        return [(f, c.number) for f, c in enumerate(self.clues) if c and c.colour == colour]

    @property
    def is_square(self) -> bool:
        return self.board.kind == "square"

    @property
    def size_label(self) -> str:
        b = self.board
        return f"{b.height}x{b.width}" if self.is_square else b.label

    def face_name(self, f: int) -> str:
        """``row 2, column 3`` on squares (counted from 1, as the text format), else ``face 7``."""
        if self.is_square:
            return f"row {f // self.board.width + 1}, column {f % self.board.width + 1}"
        return f"face {f}"

    def point_name(self, p: int) -> str:
        if self.is_square:
            w = self.board.width + 1
            return f"point ({p // w + 1},{p % w + 1})"
        return f"point {p}"

    def __repr__(self) -> str:
        label = f"{self.name!r}, " if self.name else ""
        n = sum(c is not None for c in self.clues)
        return f"ColorPuzzle({label}{self.size_label}, {n} clues, colours {''.join(self.colours)})"


def _clue(c: Any) -> ColorClue | None:
    if c is None or isinstance(c, ColorClue):
        return c
    if isinstance(c, str) and len(c) >= 2 and c[:-1].isdigit():
        return ColorClue(int(c[:-1]), c[-1])
    if isinstance(c, tuple) and len(c) == 2:
        return ColorClue(int(c[0]), str(c[1]))
    raise ColorlinkError(f"{c!r} is not a clue (write e.g. '2r', or None)")


@dataclass(frozen=True)
class ColorAnswer:
    """The colour letter of every edge (None: no line), in the board's edge order."""

    edges: tuple[str | None, ...]

    @classmethod
    def from_layers(cls, layers: Mapping[str, Sequence[bool]], num_edges: int) -> ColorAnswer:
        """One answer from one flag list per colour; an edge in two layers is refused."""
        out: list[str | None] = [None] * num_edges
        for colour, layer in layers.items():
            for e, on in enumerate(layer):
                if on:
                    if out[e] is not None:
                        raise ColorlinkError(f"edge {e} carries two colours: {out[e]} and {colour}")
                    out[e] = colour
        return cls(tuple(out))

    def layer(self, colour: str) -> list[bool]:
        return [c == colour for c in self.edges]

    def to_text(self) -> str:
        """One character per edge: its colour letter, or ``.``."""
        return "".join(c or "." for c in self.edges)

    @classmethod
    def from_text(cls, text: str) -> ColorAnswer:
        s = text.strip()
        bad = sorted(set(s) - set(PALETTE) - {"."})
        if bad:
            raise ColorlinkError(
                f"unknown colour {bad[0]!r} in an answer; colours: {' '.join(PALETTE)} and ."
            )
        return cls(tuple(None if ch == "." else ch for ch in s))
