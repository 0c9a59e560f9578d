"""Add a board kind: build its points, edges and faces, and hand them to ``Board``.

Everything downstream (clue sums over a face's sides, the degree rule at each point, loop
cuts, the checker, the generator, every formulation and backend, the figures) reads these
three tables and nothing else (see :mod:`slitherbench.puzzles.boards`, whose docstring is a doctest).

This board is a "triangle fan strip": a row of ``n`` squares, each cut by one diagonal into
two triangles. Run it:  python docs/tutorials/add_board.py
"""

from __future__ import annotations

from slitherbench.puzzles.boards import Board


def triangle_strip(n: int) -> Board:
    """``n`` squares in a row, each split into two triangles by its rising diagonal."""
    top = [(2 * i, 0) for i in range(n + 1)]
    bottom = [(2 * i, 2) for i in range(n + 1)]
    points = tuple(top + bottom)  # point k: top k; point n+1+k: bottom k
    edges: list[tuple[int, int]] = []

    def edge(a: int, b: int) -> int:
        key = (min(a, b), max(a, b))
        if key not in edges:
            edges.append(key)
        return edges.index(key)

    faces = []
    for i in range(n):
        tl, tr, bl, br = i, i + 1, n + 1 + i, n + 2 + i
        faces.append((edge(tl, tr), edge(tr, bl), edge(bl, tl)))  # upper-left triangle
        faces.append((edge(tr, br), edge(br, bl), edge(bl, tr)))  # lower-right triangle
    return Board(
        "triangle-strip", 2 * n, 2, points=points, edge_points=tuple(edges), face_edges=tuple(faces)
    )


def main() -> None:
    from slitherbench import check_answer
    from slitherbench.models.formulations import QuboFormulation
    from slitherbench.run.runner import run_trial
    from slitherbench.solvers.cpsat_model import solve_exact
    from slitherbench.solvers.dwave import SABackend
    from slitherbench.sources.generate import generate_on

    board = triangle_strip(3)
    print(
        board.label,
        board.num_points,
        "points,",
        board.num_edges,
        "edges,",
        board.num_faces,
        "faces",
    )
    puzzle = generate_on(board, seed=1)  # a puzzle with exactly one answer on this board
    exact = solve_exact(puzzle)
    assert exact.status == "unique" and check_answer(puzzle, exact.answer) == []
    result = run_trial(puzzle, QuboFormulation(), SABackend(), seed=1, time_limit_s=20)
    print(f"qubo/sa: {result.status} in {result.trial.iterations} iteration(s)")
    assert result.status == "solved" and result.trial.verified


if __name__ == "__main__":
    main()
