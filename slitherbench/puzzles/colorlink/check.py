"""The independent judge of Colorlink answers: shares no code with the solvers or the
generator's encodings, so every ``solved`` is checked by code that did not produce it.

The rules it holds an answer to:

* an edge carries at most one colour;
* per colour, every point has degree 0 or 2 in that colour's lines;
* a clue in a colour counts that colour's lines around its face; a black clue counts the
  lines of every colour;
* every colour of the puzzle (every colour some clue names) is exactly one loop; a colour
  that no clue names has no loop (any line in it is reported).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence

from slitherbench.puzzles.boards import Board
from slitherbench.puzzles.colorlink.model import BLACK, ColorAnswer, ColorPuzzle

Layers = dict[str, list[bool]]


def answer_layers(
    puzzle: ColorPuzzle, answer: ColorAnswer | Mapping[str, Sequence[bool]]
) -> tuple[Layers, list[str]]:
    """One flag list per colour, and what is wrong with the answer's shape (its length)."""
    E = puzzle.board.num_edges
    if isinstance(answer, ColorAnswer):
        if len(answer.edges) != E:
            return {}, [f"answer has {len(answer.edges)} edges, the board has {E}"]
        letters = sorted({c for c in answer.edges if c is not None})
        return {c: answer.layer(c) for c in letters}, []
    problems = [
        f"colour {c} has {len(layer)} edges, the board has {E}"
        for c, layer in answer.items()
        if len(layer) != E
    ]
    return {c: [bool(x) for x in layer] for c, layer in answer.items()}, problems


def components(board: Board, layer: Sequence[bool]) -> int:
    """Connected pieces of one colour's lines (union-find over points)."""
    parent = list(range(board.num_points))

    def root(a: int) -> int:
        while parent[a] != a:
            parent[a] = parent[parent[a]]
            a = parent[a]
        return a

    used: set[int] = set()
    for e, (a, b) in enumerate(board.edge_points):
        if layer[e]:
            parent[root(a)] = root(b)
            used.update((a, b))
    return len({root(p) for p in used})


def check_colorlink(
    puzzle: ColorPuzzle, answer: ColorAnswer | Mapping[str, Sequence[bool]]
) -> list[str]:
    """Every rule the answer breaks (an empty list: a valid solution). ``answer`` is a
    :class:`ColorAnswer` or a mapping colour -> one flag per edge (layers may overlap)."""
    layers, problems = answer_layers(puzzle, answer)
    if problems:
        return problems
    board = puzzle.board
    for e in range(board.num_edges):
        on = [c for c, layer in layers.items() if layer[e]]
        if len(on) > 1:
            a, b = (puzzle.point_name(p) for p in board.edge_points[e])
            problems.append(f"edge {e} ({a}-{b}) carries {len(on)} colours: {' '.join(on)}")
    for c, layer in layers.items():
        if c not in puzzle.colours and any(layer):
            problems.append(f"colour {c} has lines but no clue names it")
    for c in puzzle.colours:
        problems += _colour_problems(puzzle, c, layers.get(c, [False] * board.num_edges))
    for f, n in puzzle.clue_faces(BLACK):
        k = sum(layer[e] for layer in layers.values() for e in board.face_edges[f])
        if k != n:
            problems.append(f"{puzzle.face_name(f)}: {k} sides on lines of any colour, clue {n}k")
    return problems


def _colour_problems(puzzle: ColorPuzzle, c: str, layer: Sequence[bool]) -> list[str]:
    board = puzzle.board
    out = []
    for p, edges in enumerate(board.point_edges):
        d = sum(layer[e] for e in edges)
        if d not in (0, 2):
            out.append(f"{puzzle.point_name(p)} has degree {d} in colour {c}")
    for f, n in puzzle.clue_faces(c):
        k = sum(layer[e] for e in board.face_edges[f])
        if k != n:
            out.append(f"{puzzle.face_name(f)}: {k} sides in colour {c}, clue {n}{c}")
    pieces = components(board, layer)
    if pieces == 0:
        out.append(f"colour {c} has no loop")
    elif pieces > 1:
        out.append(f"colour {c} has {pieces} separate loops or paths")
    return out
