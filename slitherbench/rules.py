"""Puzzle-level rules beyond Slitherlink's own: which exist, and where they apply.

A rule is named in :attr:`Puzzle.rules <slitherbench.puzzle.Puzzle>` (a tuple of names, empty
for plain Slitherlink). One is known:

* ``no_square`` (No-Square Slitherlink): no 2x2 block of cells lies entirely inside the loop.
  It is a statement about faces (1 inside the loop, 0 outside), so the exact families add one
  Boolean per face tied to the edges (x_e = c_f XOR c_g, the outside 0) and ask
  ``c_a + c_b + c_c + c_d <= 3`` per block (:func:`no_square_blocks`). It is defined on square
  boards only: "a 2x2 block" has no single meaning on honeycombs or Penrose tilings.

The board model imports this module to check rule names, so it imports nothing of the package
but :mod:`slitherbench.boards`; the checker judges the rules with its own code
(:mod:`slitherbench.check`), not with this module's.
"""

from __future__ import annotations

from .boards import Board

NO_SQUARE = "no_square"
KNOWN_RULES = (NO_SQUARE,)
# Rules that hold on square boards only (their meaning needs rows and columns).
SQUARE_ONLY = frozenset({NO_SQUARE})


def rule_problem(rules: tuple[str, ...], board: Board) -> str | None:
    """One line saying what is wrong with ``rules`` on ``board`` (None: nothing)."""
    for r in rules:
        if r not in KNOWN_RULES:
            return f"unknown rule {r!r} (known: {', '.join(KNOWN_RULES)})"
        if r in SQUARE_ONLY and board.kind != "square":
            return f"rule {r} holds on square boards only, not on a {board.label}"
    return None


def normal_rules(rules: tuple[str, ...] | list[str] | str | None) -> tuple[str, ...]:
    """Rules as the puzzle keeps them: a sorted tuple of distinct names (a string is one or
    more names separated by commas), so equal rule sets give equal puzzles and keys."""
    if not rules:
        return ()
    if isinstance(rules, str):
        rules = rules.split(",")
    return tuple(sorted({str(r).strip() for r in rules if str(r).strip()}))


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
