"""Colorlink: Slitherlink with one loop per colour.

Clues come in colours (at least two, plus black). The answer is one closed, non-branching loop
per colour; each colour's loop follows Slitherlink's rules with the clues of its colour (a
clue n in a colour: exactly n sides of the face carry that colour's line); loops of different
colours may cross or touch at points, but an edge carries at most one colour; a black clue
counts the lines of every colour around its face. The puzzle's colours are those its clues
name; each needs exactly one loop, and a colour no clue names has none.

One module per concern: :mod:`.model` (puzzle, answer), :mod:`.text` (the text format),
:mod:`.check` (the independent checker), :mod:`.constraints` (the rows and the iterative
method's step), :mod:`.sat` and :mod:`.anneal` (the two solvers), :mod:`.faces` (the rows
over face variables per colour, a HUBO for the annealer), :mod:`.solve` (the iterative
method), :mod:`.generate`, :mod:`.drawing`, :mod:`.cli`, :mod:`.harness` (the harness's
forms, backends, runner and store).

>>> from slitherbench.colorlink import read_colorlink, solve_colorlink, check_colorlink
>>> p = read_colorlink("2g../.2g3r/.3k.")
>>> r = solve_colorlink(p, "sat")
>>> r.status, r.iterations, check_colorlink(p, r.answer)
('solved', 1, [])

The solvers above are the package's own (SAT; an annealer on edge or face variables).
:mod:`.harness` puts Colorlink into the harness itself: a :class:`~.harness.ColorlinkPuzzle`
is a harness puzzle on a board of colour layers, so every form (edge or face variables),
every backend, the runner, the store and the report take it (``puzzle=colorlink``,
``experiment=colorlink``).
"""

from .check import check_colorlink
from .generate import generate_colorlink, generate_colorlink_on
from .model import BLACK, PALETTE, ColorAnswer, ColorClue, ColorlinkError, ColorPuzzle
from .solve import ColorResult, solve_colorlink
from .text import read_colorlink, render_answer, write_colorlink

__all__ = [
    "BLACK",
    "PALETTE",
    "ColorAnswer",
    "ColorClue",
    "ColorPuzzle",
    "ColorResult",
    "ColorlinkError",
    "check_colorlink",
    "generate_colorlink",
    "generate_colorlink_on",
    "read_colorlink",
    "render_answer",
    "solve_colorlink",
    "write_colorlink",
]
