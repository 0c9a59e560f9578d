"""Colorlink: Slitherlink with one loop per colour.

Clues come in colours (at least two, plus black). The answer is one closed, non-branching loop
per colour; each colour's loop follows Slitherlink's rules with the clues of its colour (a
clue n in a colour: exactly n sides of the face carry that colour's line); loops of different
colours may cross or touch at points, but an edge carries at most one colour; a black clue
counts the lines of every colour around its face. The puzzle's colours are those its clues
name; each needs exactly one loop, and a colour no clue names has none.

This package holds what Colorlink is; the harness solves it. One module per concern:
:mod:`.model` (puzzle, answer), :mod:`.text` (the text format), :mod:`.check` (the
independent checker), :mod:`.drawing`, :mod:`slitherbench.sources.colorlink` (the generator: unique puzzles, crossing
ones included, judged by the harness's SAT backend), :mod:`.constraints` (the rows across colours,
the stopping rule and the cuts per colour) and :mod:`.harness` (a Colorlink puzzle as a
harness puzzle, so every form, backend, the runner, the store and the report take it).

>>> from slitherbench.puzzles.colorlink import check_colorlink
>>> from slitherbench.sources.colorlink import crossings, generate_colorlink
>>> p = generate_colorlink(4, 4, colours=2, seed=0, cross=True)  # unique, its colours cross
>>> write_colorlink(p), p.colours
('3g.3r./..../...2r/.2g2r.', ('r', 'g'))
>>> check_colorlink(p, p.meta["answer"]), len(crossings(p.board, p.meta["answer"]))
([], 2)

Solve it with the harness: ``python -m slitherbench puzzle=colorlink`` (generated puzzles),
``puzzle=text puzzle.text='colorlink=2g../.2g3r/.3k.'`` (one text), or
``experiment=colorlink`` (every form x backend); from Python, :mod:`.harness`'s tutorial.
"""

from slitherbench.puzzles.colorlink.check import check_colorlink
from slitherbench.puzzles.colorlink.model import (
    BLACK,
    PALETTE,
    ColorAnswer,
    ColorClue,
    ColorlinkError,
    ColorPuzzle,
)
from slitherbench.puzzles.colorlink.text import read_colorlink, render_answer, write_colorlink

__all__ = [
    "BLACK",
    "PALETTE",
    "ColorAnswer",
    "ColorClue",
    "ColorPuzzle",
    "ColorlinkError",
    "check_colorlink",
    "read_colorlink",
    "render_answer",
    "write_colorlink",
]
