"""The Colorlink figure of docs/findings/colorlink.md: a generated 6x6 three-colour puzzle and
its answer, solved by the harness (cons form, SAT backend, the runner's loop).

.venv/bin/python experiments/colorlink_example.py   # writes docs/figures/colorlink_example.png
.venv/bin/python experiments/colorlink_example.py --quick   # a 3x3 puzzle, into a temp dir
"""

from __future__ import annotations

import tempfile
from pathlib import Path

from slitherbench.method.entry import OneLineArgumentParser, run_command
from slitherbench.models.formulations import ConsFormulation
from slitherbench.puzzles.colorlink.drawing import colorlink_picture
from slitherbench.puzzles.colorlink.text import write_colorlink
from slitherbench.puzzles.puzzle import answer_from_bits
from slitherbench.run.runner import run_trial
from slitherbench.solvers.sat import SatBackend
from slitherbench.sources.colorlink import generated_colorlink

OUT = Path(__file__).resolve().parents[1] / "docs" / "figures" / "colorlink_example.png"


def main() -> None:
    ap = OneLineArgumentParser()
    ap.add_argument("--out", type=Path, help=f"default: {OUT} (--quick: a temp dir)")
    ap.add_argument("--quick", action="store_true", help="a 3x3 puzzle (checks the script runs)")
    args = ap.parse_args()
    out = args.out or (
        Path(tempfile.mkdtemp(prefix="colorlink_example-")) / OUT.name if args.quick else OUT
    )
    size = 3 if args.quick else 6
    puzzle = generated_colorlink(size, size, colours=3, seed=4)
    trial = run_trial(puzzle, ConsFormulation(), SatBackend(), seed=0).trial
    assert trial.status == "solved" and trial.verified, trial.reason  # the Colorlink checker's
    answer = puzzle.colour_answer(answer_from_bits(puzzle, trial.answer))
    source = puzzle.source
    title = f"Colorlink {size}x{size}, 3 colours (seed 4): {write_colorlink(source)}"
    out.parent.mkdir(parents=True, exist_ok=True)
    colorlink_picture(source, answer, out, title=title)
    print(write_colorlink(source, spaced=True))
    print(f"SAT: {trial.iterations} iterations through the harness -> {out}")


if __name__ == "__main__":
    run_command(main)
