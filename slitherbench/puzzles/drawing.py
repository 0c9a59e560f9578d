"""Any board drawn from its coordinates: faces, clues, points, loops and the answer.

The square grid is one board among others here (its points sit at (column, row)), so the
report's iteration figures, the console's picture of a non-square answer and the docs'
gallery of grid types all come from :func:`draw_board`. No matplotlib backend is chosen here:
the command-line entry points choose a file backend, a notebook keeps its inline one.
"""

from __future__ import annotations

from collections.abc import Sequence
from pathlib import Path
from typing import Any

import matplotlib.pyplot as plt
import numpy as np
from matplotlib.collections import LineCollection, PolyCollection

from slitherbench.puzzles.puzzle import Puzzle


def _segments(puzzle: Puzzle, edges: Sequence[int]) -> np.ndarray:
    """The edges' end points, shape (edges, 2, 2); ``list()`` of it is the sequence of
    segments LineCollection is typed to take."""
    pts = np.asarray(puzzle.board.points, dtype=float)
    ends = np.asarray([puzzle.edge_points[e] for e in edges], dtype=int).reshape(-1, 2)
    return pts[ends]


def edge_length(puzzle: Puzzle) -> float:
    """The median edge length: the unit that sizes text and marks on any board."""
    seg = _segments(puzzle, range(puzzle.num_edges))
    return float(np.median(np.linalg.norm(seg[:, 0] - seg[:, 1], axis=1)))


def draw_board(
    ax: plt.Axes,
    puzzle: Puzzle,
    loops: Sequence[Sequence[int]] = (),
    answer_loop: Sequence[int] | None = None,
    shade_inside: bool = False,
) -> None:
    """Faint faces with their clues, grid points, each loop (grey dashes) and the answer loop
    (thick black); ``shade_inside`` tints the faces the answer encloses."""
    board = puzzle.board
    pts = np.asarray(board.points, dtype=float)
    unit = edge_length(puzzle)
    pad = 0.3 * unit
    ax.set_xlim(pts[:, 0].min() - pad, pts[:, 0].max() + pad)
    ax.set_ylim(pts[:, 1].max() + pad, pts[:, 1].min() - pad)  # y down, as the page draws
    ax.set_aspect("equal")
    ax.axis("off")
    ans = sorted(answer_loop or ())
    if shade_inside and ans:
        on = [False] * puzzle.num_edges
        for e in ans:
            on[e] = True
        inside = board.inside(on)
        polys = [pts[list(board.face_points[f])] for f in range(board.num_faces) if inside[f]]
        ax.add_collection(PolyCollection(polys, facecolors="#dde8f5", edgecolors="none"))
    if not puzzle.is_square:  # squares read well from their points alone, as always
        ax.add_collection(
            LineCollection(
                list(_segments(puzzle, range(puzzle.num_edges))), colors="#d0d0d0", linewidths=0.4
            )
        )
    size = max(3.0, 60 / np.sqrt(max(board.num_faces, 1)))
    ax.plot(pts[:, 0], pts[:, 1], ".", color="#888888", ms=max(1.0, size / 5))
    for f, n in puzzle.clue_faces:
        x, y = board.face_centre(f)
        ax.text(x, y, str(n), ha="center", va="center", fontsize=size)
    answer = set(ans)
    for loop in loops:
        is_answer = bool(answer) and set(loop) == answer
        # One collection per loop: a 20x36 board has ~1500 edges.
        style: dict[str, Any] = (
            {"colors": "black", "linewidths": 2.2, "capstyle": "round"}
            if is_answer
            else {"colors": "#777777", "linewidths": 1.2, "linestyles": [(0, (2, 1.5))]}
        )
        ax.add_collection(LineCollection(list(_segments(puzzle, loop)), **style))


def board_picture(puzzle: Puzzle, answer: Sequence[bool], path: Path, title: str = "") -> Path:
    """One board with its answer, as a PNG (the console's picture of a non-square board)."""
    loop = [e for e, on in enumerate(answer) if on]
    pts = np.asarray(puzzle.board.points, dtype=float)
    w, h = np.ptp(pts[:, 0]) or 1.0, np.ptp(pts[:, 1]) or 1.0
    fig, ax = plt.subplots(figsize=(5, 5 * h / w + 0.4))
    draw_board(ax, puzzle, [loop] if loop else [], loop, shade_inside=True)
    ax.set_title(title or puzzle.name or puzzle.size_label, fontsize=9)
    fig.tight_layout()
    path.parent.mkdir(parents=True, exist_ok=True)
    fig.savefig(path, dpi=120)
    plt.close(fig)
    return path
