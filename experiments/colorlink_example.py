"""The README's Colorlink figure: a generated 6x6 three-colour puzzle and its answer.

.venv/bin/python experiments/colorlink_example.py   # writes docs/figures/colorlink_example.png
"""

from __future__ import annotations

from pathlib import Path

from slitherbench.colorlink import check_colorlink, generate_colorlink, solve_colorlink
from slitherbench.colorlink.drawing import colorlink_picture
from slitherbench.colorlink.text import write_colorlink

OUT = Path(__file__).resolve().parents[1] / "docs" / "figures" / "colorlink_example.png"

if __name__ == "__main__":
    puzzle = generate_colorlink(6, 6, colours=3, seed=4)
    result = solve_colorlink(puzzle, "sat")
    assert result.answer is not None and not check_colorlink(puzzle, result.answer)
    title = f"Colorlink 6x6, 3 colours (seed 4): {write_colorlink(puzzle)}"
    colorlink_picture(puzzle, result.answer, OUT, title=title)
    print(write_colorlink(puzzle, spaced=True))
    print(f"SAT: {result.iterations} iterations, {result.cuts} cuts -> {OUT}")
