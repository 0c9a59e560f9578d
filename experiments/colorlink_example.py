"""The README's Colorlink figure: a generated 6x6 three-colour puzzle and its answer.

.venv/bin/python experiments/colorlink_example.py   # writes docs/figures/colorlink_example.png
.venv/bin/python experiments/colorlink_example.py --quick   # a 3x3 puzzle, into a temp dir
"""

from __future__ import annotations

import argparse
import tempfile
from pathlib import Path

from slitherbench.colorlink import check_colorlink, generate_colorlink, solve_colorlink
from slitherbench.colorlink.drawing import colorlink_picture
from slitherbench.colorlink.text import write_colorlink

OUT = Path(__file__).resolve().parents[1] / "docs" / "figures" / "colorlink_example.png"


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--out", type=Path, help=f"default: {OUT} (--quick: a temp dir)")
    ap.add_argument("--quick", action="store_true", help="a 3x3 puzzle (checks the script runs)")
    args = ap.parse_args()
    out = args.out or (
        Path(tempfile.mkdtemp(prefix="colorlink_example-")) / OUT.name if args.quick else OUT
    )
    size = 3 if args.quick else 6
    puzzle = generate_colorlink(size, size, colours=3, seed=4)
    result = solve_colorlink(puzzle, "sat")
    assert result.answer is not None and not check_colorlink(puzzle, result.answer)
    title = f"Colorlink {size}x{size}, 3 colours (seed 4): {write_colorlink(puzzle)}"
    out.parent.mkdir(parents=True, exist_ok=True)
    colorlink_picture(puzzle, result.answer, out, title=title)
    print(write_colorlink(puzzle, spaced=True))
    print(f"SAT: {result.iterations} iterations, {result.cuts} cuts -> {out}")


if __name__ == "__main__":
    main()
