"""No-Square Slitherlink: no 2x2 block of cells lies entirely inside the loop.

It is a statement about faces (1 inside the loop, 0 outside): one row per 2x2 block,
``c_a + c_b + c_c + c_d <= 3``, a "not all" sum over face colours (a product in the HUBO, a
slack in the QUBO, native in cons; the exact families add one Boolean per face tied to the
edges). It is defined on square boards only: "a 2x2 block" has no single meaning on
honeycombs or Penrose tilings. The checker finds the cells inside by its own ray casting.
"""

from __future__ import annotations

from collections.abc import Sequence
from functools import cache
from typing import Any

from slitherbench.puzzles.boards import Board
from slitherbench.puzzles.description import NOT_ALL, Constraint
from slitherbench.puzzles.rules import Rule


def no_square_blocks(board: Board) -> list[tuple[int, int, int, int]]:
    """The face indices of every 2x2 block of a square board, row-major by top-left cell:
    (top-left, top-right, bottom-left, bottom-right). Empty where the board is one row or
    one column wide."""
    if board.kind != "square":
        raise ValueError(f"2x2 blocks are a square board's; this is a {board.label}")
    R, C = board.height, board.width
    return [
        (r * C + c, r * C + c + 1, (r + 1) * C + c, (r + 1) * C + c + 1)
        for r in range(R - 1)
        for c in range(C - 1)
    ]


@cache
def blocks_of_faces(board: Board) -> tuple[tuple[tuple[int, ...], ...], ...]:
    """The 2x2 blocks each face belongs to."""
    out: list[list[tuple[int, ...]]] = [[] for _ in range(board.num_faces)]
    for block in no_square_blocks(board):
        for f in block:
            out[f].append(block)
    return tuple(tuple(b) for b in out)


def inside_rows(puzzle: Any, edges: Sequence[bool]) -> list[list[bool]]:
    """Cells inside the lines, row by row, by ray casting from the left edge of the board:
    a cell is inside when an odd number of vertical lines lie left of it. Deliberately not
    the board's flood fill (:meth:`Board.inside`), which the solvers' face channel mirrors."""
    out = []
    for i in range(puzzle.rows):
        row, inside = [], False
        for j in range(puzzle.cols):
            inside ^= bool(edges[puzzle.v(i, j)])  # the cell's left side
            row.append(inside)
        out.append(row)
    return out


class NoSquare(Rule):
    name = "no_square"
    summary = "no 2x2 block of cells lies entirely inside the loop (square boards)"

    def board_problem(self, board: Board) -> str | None:
        if board.kind != "square":
            return f"rule {self.name} holds on square boards only, not on a {board.label}"
        return None

    def constraints(self, puzzle: Any) -> list[Constraint]:
        return [
            Constraint(self.name, k, (), (0, 1, 2, 3), faces=block, shape=NOT_ALL, weight="clue")
            for k, block in enumerate(no_square_blocks(puzzle.board))
        ]

    def problems(self, puzzle: Any, edges: Sequence[bool]) -> list[str]:
        inside = inside_rows(puzzle, edges)
        return [
            f"cells ({r},{c})-({r + 1},{c + 1}): a 2x2 block inside the loop (rule {self.name})"
            for r in range(puzzle.rows - 1)
            for c in range(puzzle.cols - 1)
            if inside[r][c] and inside[r][c + 1] and inside[r + 1][c] and inside[r + 1][c + 1]
        ]

    def face_nogoods(self, board: Board) -> list[tuple[tuple[int, int], ...]]:
        # a 2x2 block never has all four cells inside
        return [tuple((f, 1) for f in block) for block in no_square_blocks(board)]

    def may_join(self, board: Board, inside: Sequence[bool], face: int) -> bool:
        # a face that would fill a 2x2 block never joins
        return not any(
            all(inside[g] or g == face for g in block) for block in blocks_of_faces(board)[face]
        )
