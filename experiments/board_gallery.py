"""The README's gallery: one generated puzzle of about 25 faces per board kind with its
answer (the shipped ``puzzle=grids`` suite), drawn from the board's own coordinates.

    python experiments/board_gallery.py [--out docs/boards.png]
"""

from __future__ import annotations

import argparse
from pathlib import Path

import matplotlib

matplotlib.use("Agg")
import matplotlib.pyplot as plt
import numpy as np

from slitherbench.drawing import draw_board
from slitherbench.library import get_suite


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--out", type=Path, default=Path("docs/boards.png"))
    args = ap.parse_args()
    first: dict[str, object] = {}
    for p in get_suite("grids"):  # smallest of each kind first
        first.setdefault(p.board.kind, p)
    ncols = 4
    nrows = int(np.ceil(len(first) / ncols))
    fig, axes = plt.subplots(nrows, ncols, figsize=(3.2 * ncols, 3.2 * nrows))
    for ax in axes.ravel():
        ax.axis("off")
    for ax, p in zip(axes.ravel(), first.values(), strict=False):
        loop = [e for e, on in enumerate(p.meta["answer"]) if on]
        draw_board(ax, p, [loop], loop, shade_inside=True)
        ax.set_title(f"{p.board.label} ({p.num_faces} faces)", fontsize=9)
    fig.suptitle(
        "One generated, proved-unique puzzle per board kind (puzzle=grids), with its answer"
    )
    fig.tight_layout()
    args.out.parent.mkdir(parents=True, exist_ok=True)
    fig.savefig(args.out, dpi=90)
    print(args.out)


if __name__ == "__main__":
    main()
