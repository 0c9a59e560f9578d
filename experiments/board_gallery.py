"""The gallery of docs/explanation/boards.md: one generated puzzle of about 25 faces per board kind with its
answer (the shipped ``puzzle=grids`` suite), drawn from the board's own coordinates.

    python experiments/board_gallery.py [--out docs/boards.png]
    python experiments/board_gallery.py --quick    # four kinds, into a temp dir: checks it runs
"""

from __future__ import annotations

import tempfile
from pathlib import Path

import matplotlib

from slitherbench.method.entry import OneLineArgumentParser, run_command

matplotlib.use("Agg")
import matplotlib.pyplot as plt
import numpy as np

from slitherbench.puzzles.drawing import draw_board
from slitherbench.sources.library import get_suite


def main() -> None:
    ap = OneLineArgumentParser()
    ap.add_argument("--out", type=Path, help="default: docs/boards.png (--quick: a temp dir)")
    ap.add_argument("--quick", action="store_true", help="the first four kinds only")
    args = ap.parse_args()
    out = args.out or (
        Path(tempfile.mkdtemp(prefix="board_gallery-")) / "boards.png"
        if args.quick
        else Path("docs/boards.png")
    )
    first: dict[str, object] = {}
    for p in get_suite("grids"):  # smallest of each kind first
        first.setdefault(p.board.kind, p)
    if args.quick:
        first = dict(list(first.items())[:4])
    ncols = 4
    nrows = int(np.ceil(len(first) / ncols))
    fig, axes = plt.subplots(nrows, ncols, figsize=(3.2 * ncols, 3.2 * nrows), squeeze=False)
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
    out.parent.mkdir(parents=True, exist_ok=True)
    fig.savefig(out, dpi=90)
    print(out)


if __name__ == "__main__":
    run_command(main)
