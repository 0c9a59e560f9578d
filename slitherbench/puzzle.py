"""The Slitherlink board: clues, the reference page's edge numbering, and adjacency.

Edge numbering (shared/reference/qubopp_slitherlink_en.txt):
horizontal h(i, j) = i*C + j          for 0 <= i <= R, 0 <= j < C
vertical   v(i, j) = (R+1)*C + i*(C+1) + j  for 0 <= i < R, 0 <= j <= C
grid point (i, j) = i*(C+1) + j.
An answer is a sequence of E = (R+1)C + R(C+1) booleans in that order.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from functools import cached_property
from typing import Any

Clue = int | None
Answer = Sequence[bool] | Sequence[int]

# Reading and writing text is :mod:`slitherbench.formats`' job; it imports this module and
# registers its readers and writer here (the package imports it first), so the board model
# itself imports nothing of the package.
TEXT_IO: dict[str, Callable[..., Any]] = {}


class PuzzleFormatError(ValueError):
    """Raised for text that is not a readable Slitherlink puzzle; the message says where."""


@dataclass(frozen=True, eq=False)
class Puzzle:
    """R rows x C columns of clues (0-3 or None)."""

    clues: tuple[tuple[Clue, ...], ...]
    name: str = ""
    meta: dict[str, Any] = field(default_factory=dict, compare=False)

    def __post_init__(self) -> None:
        if not self.clues or not self.clues[0]:
            raise PuzzleFormatError("a puzzle needs at least one row and one column")
        width = len(self.clues[0])
        for r, row in enumerate(self.clues):
            if len(row) != width:
                raise PuzzleFormatError(
                    f"row {r + 1} has {len(row)} cells, row 1 has {width} (ragged rows)"
                )
            for c, n in enumerate(row):
                if n is not None and not (isinstance(n, int) and 0 <= n <= 3):
                    raise PuzzleFormatError(f"row {r + 1}, column {c + 1}: clue {n!r} is not 0-3")

    # -- construction -----------------------------------------------------------------
    @classmethod
    def from_rows(cls, rows: Sequence[str], name: str = "") -> Puzzle:
        """Rows of '.'/'-' (no clue) and digits, e.g. [".11..0.0.0", ...]."""
        return TEXT_IO["rows"]("\n".join(rows), name=name)

    @classmethod
    def parse(cls, text: str, name: str = "") -> Puzzle:
        """Detect the format of ``text`` and read it (see :mod:`slitherbench.formats`)."""
        return TEXT_IO["parse"](text, name=name)

    def __eq__(self, other: object) -> bool:
        return isinstance(other, Puzzle) and self.clues == other.clues

    def __hash__(self) -> int:
        return hash(self.clues)

    # -- sizes and numbering --------------------------------------------------------------
    @property
    def rows(self) -> int:
        return len(self.clues)

    @property
    def cols(self) -> int:
        return len(self.clues[0])

    @property
    def num_edges(self) -> int:
        return (self.rows + 1) * self.cols + self.rows * (self.cols + 1)

    @property
    def num_points(self) -> int:
        return (self.rows + 1) * (self.cols + 1)

    @property
    def num_clues(self) -> int:
        return sum(n is not None for row in self.clues for n in row)

    @property
    def size_label(self) -> str:
        return f"{self.rows}x{self.cols}"

    def h(self, i: int, j: int) -> int:
        return i * self.cols + j

    def v(self, i: int, j: int) -> int:
        return (self.rows + 1) * self.cols + i * (self.cols + 1) + j

    def point(self, i: int, j: int) -> int:
        return i * (self.cols + 1) + j

    # -- adjacency, computed once -----------------------------------------------------------
    @cached_property
    def edge_points(self) -> tuple[tuple[int, int], ...]:
        """The two grid points of every edge, in edge order."""
        R, C = self.rows, self.cols
        out: list[tuple[int, int]] = []
        for i in range(R + 1):
            for j in range(C):
                out.append((self.point(i, j), self.point(i, j + 1)))
        for i in range(R):
            for j in range(C + 1):
                out.append((self.point(i, j), self.point(i + 1, j)))
        return tuple(out)

    @cached_property
    def point_edges(self) -> tuple[tuple[int, ...], ...]:
        """The 2-4 edges at every grid point."""
        acc: list[list[int]] = [[] for _ in range(self.num_points)]
        for e, (a, b) in enumerate(self.edge_points):
            acc[a].append(e)
            acc[b].append(e)
        return tuple(tuple(x) for x in acc)

    @cached_property
    def cell_edges(self) -> tuple[tuple[int, int, int, int], ...]:
        """The four sides (top, bottom, left, right) of every cell, row-major."""
        return tuple(
            (self.h(i, j), self.h(i + 1, j), self.v(i, j), self.v(i, j + 1))
            for i in range(self.rows)
            for j in range(self.cols)
        )

    @cached_property
    def clue_cells(self) -> tuple[tuple[int, int], ...]:
        """(cell index, clue) for every numbered cell."""
        return tuple(
            (i * self.cols + j, n)
            for i, row in enumerate(self.clues)
            for j, n in enumerate(row)
            if n is not None
        )

    # -- output -----------------------------------------------------------------------------
    def to_rows(self) -> list[str]:
        return ["".join("." if n is None else str(n) for n in row) for row in self.clues]

    def render(self, answer: Answer | None = None) -> str:
        """The reference page's ASCII board, with ``+---+`` and ``|`` for answer edges."""
        return TEXT_IO["ascii"](self, answer)

    def __repr__(self) -> str:
        label = f"{self.name!r}, " if self.name else ""
        return f"Puzzle({label}{self.size_label}, {self.num_clues} clues)"


def answer_from_bits(puzzle: Puzzle, bits: str) -> list[bool]:
    """An answer from a string of '0'/'1' in edge order (as stored in results)."""
    if len(bits) != puzzle.num_edges or set(bits) - {"0", "1"}:
        raise PuzzleFormatError(
            f"an answer for a {puzzle.size_label} board is {puzzle.num_edges} bits of 0/1, "
            f"got {len(bits)} characters"
        )
    return [b == "1" for b in bits]


def answer_to_bits(answer: Answer) -> str:
    return "".join("1" if x else "0" for x in answer)
