"""Random puzzles with a unique solution.

A random simply-connected region of cells is grown one cell at a time (a cell is kept only
if the region's boundary stays one non-touching loop); every cell gets its clue, then clues
are removed in random order while CP-SAT still proves the loop is the only answer.
Same (rows, cols, seed) -> same puzzle.
"""

from __future__ import annotations

import random

from ortools.sat.python import cp_model

from .check import check_answer
from .exact import build_circuit_model, cp_solver
from .formats import answer_from_inside
from .puzzle import Puzzle


def random_loop(rows: int, cols: int, rng: random.Random, fill: float = 0.55) -> list[bool]:
    blank = Puzzle(tuple(tuple([None] * cols) for _ in range(rows)))
    inside = [[False] * cols for _ in range(rows)]
    i0, j0 = rng.randrange(rows), rng.randrange(cols)
    inside[i0][j0] = True
    size, target = 1, max(1, int(fill * rows * cols))
    stalls = 0
    while size < target and stalls < 20 * rows * cols:
        frontier = [
            (i, j)
            for i in range(rows)
            for j in range(cols)
            if not inside[i][j]
            and any(
                0 <= i + di < rows and 0 <= j + dj < cols and inside[i + di][j + dj]
                for di, dj in ((1, 0), (-1, 0), (0, 1), (0, -1))
            )
        ]
        i, j = rng.choice(frontier)
        inside[i][j] = True
        if not check_answer(blank, answer_from_inside(blank, inside)):  # one loop, nothing else
            size += 1
            stalls = 0
        else:
            inside[i][j] = False
            stalls += 1
    return answer_from_inside(blank, inside)


def _has_other_answer(puzzle: Puzzle, answer: list[bool], time_limit_s: float) -> bool:
    model, x = build_circuit_model(puzzle)
    model.AddBoolOr([v.Not() if on else v for v, on in zip(x, answer, strict=True)])
    st = cp_solver(time_limit_s, seed=0, workers=1).Solve(model)
    # Out of time counts as "maybe another answer": keep the clue, never risk non-uniqueness.
    return st != cp_model.INFEASIBLE


def generate(rows: int, cols: int, seed: int, time_limit_s: float = 5.0) -> Puzzle:
    if rows < 2 or cols < 2:
        raise ValueError(f"generate needs at least 2x2 cells, got {rows}x{cols}")
    rng = random.Random(f"slitherbench-{rows}x{cols}-{seed}")
    answer = random_loop(rows, cols, rng)
    full = Puzzle(tuple(tuple([0] * cols) for _ in range(rows)))
    clues = [
        [sum(answer[e] for e in full.cell_edges[i * cols + j]) for j in range(cols)]
        for i in range(rows)
    ]
    order = [(i, j) for i in range(rows) for j in range(cols)]
    rng.shuffle(order)
    for i, j in order:
        keep = clues[i][j]
        clues[i][j] = None
        trial = Puzzle(tuple(tuple(r) for r in clues))
        if _has_other_answer(trial, answer, time_limit_s):
            clues[i][j] = keep
    puzzle = Puzzle(
        tuple(tuple(r) for r in clues), name=f"gen-{rows}x{cols}-s{seed}", meta={"answer": answer}
    )
    return puzzle
