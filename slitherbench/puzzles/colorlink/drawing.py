"""A Colorlink board as a figure: each colour's loop in its colour, clues in their colours
(black clues in black), from the board's coordinates, so any board draws.

Written here rather than through :func:`slitherbench.puzzles.drawing.draw_board`, which draws one
Slitherlink answer in black over a :class:`~slitherbench.puzzles.puzzle.Puzzle`.
"""

from __future__ import annotations

from pathlib import Path

import matplotlib.pyplot as plt
import numpy as np
from matplotlib.collections import LineCollection

from slitherbench.puzzles.colorlink.model import BLACK, PALETTE, ColorAnswer, ColorPuzzle


def draw_colorlink(ax: plt.Axes, puzzle: ColorPuzzle, answer: ColorAnswer | None = None) -> None:
    board = puzzle.board
    pts = np.asarray(board.points, dtype=float)
    ends = np.asarray(board.edge_points, dtype=int)
    seg = pts[ends]
    unit = float(np.median(np.linalg.norm(seg[:, 0] - seg[:, 1], axis=1)))
    pad = 0.3 * unit
    ax.set_xlim(pts[:, 0].min() - pad, pts[:, 0].max() + pad)
    ax.set_ylim(pts[:, 1].max() + pad, pts[:, 1].min() - pad)  # y down, as every board
    ax.set_aspect("equal")
    ax.axis("off")
    ax.add_collection(LineCollection(seg, colors="#e0e0e0", linewidths=0.5))
    size = max(4.0, 60 / np.sqrt(board.num_faces))
    ax.plot(pts[:, 0], pts[:, 1], ".", color="#888888", ms=max(1.5, size / 5))
    if answer is not None:
        for c in sorted({c for c in answer.edges if c}):
            mine = [e for e, k in enumerate(answer.edges) if k == c]
            ax.add_collection(
                LineCollection(
                    seg[mine], colors=PALETTE.get(c, "#555555"), linewidths=3.0, capstyle="round"
                )
            )
    for f, clue in enumerate(puzzle.clues):
        if clue is not None:
            x, y = board.face_centre(f)
            colour = "black" if clue.colour == BLACK else PALETTE[clue.colour]
            ax.text(
                x,
                y,
                str(clue.number),
                ha="center",
                va="center",
                fontsize=size,
                color=colour,
                fontweight="bold",
            )


def colorlink_picture(
    puzzle: ColorPuzzle, answer: ColorAnswer | None, path: Path, title: str = ""
) -> Path:
    """The puzzle beside its answer (or the puzzle alone), as a PNG."""
    pts = np.asarray(puzzle.board.points, dtype=float)
    w, h = np.ptp(pts[:, 0]) or 1.0, np.ptp(pts[:, 1]) or 1.0
    panels = 1 if answer is None else 2
    fig, axes = plt.subplots(1, panels, figsize=(4 * panels, 4 * h / w + 0.5), squeeze=False)
    draw_colorlink(axes[0][0], puzzle)
    axes[0][0].set_title("puzzle", fontsize=9)
    if answer is not None:
        draw_colorlink(axes[0][1], puzzle, answer)
        axes[0][1].set_title("answer", fontsize=9)
    fig.suptitle(title or puzzle.name or puzzle.size_label, fontsize=10)
    fig.tight_layout()
    path.parent.mkdir(parents=True, exist_ok=True)
    fig.savefig(path, dpi=120)
    plt.close(fig)
    return path
