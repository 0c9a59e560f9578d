"""slitherbench: benchmark the cons / HUBO / QUBO forms of Slitherlink's iterative
multi-loop elimination across solver backends.

The package follows the data, bottom to top (``lint-imports`` holds it: a module imports only
its own layer and those below):

- :mod:`.puzzles`: boards, puzzles, rules, formats, the description by shape, the checker;
- :mod:`.deduction`: forced moves and look-ahead, the grade of a board (no solver inside);
- :mod:`.method`: the elimination loop and the record every run keeps;
- :mod:`.models`: the formulations, model sizes and the file formats they are written in;
- :mod:`.solvers`: the backends, one module each;
- :mod:`.sources` | :mod:`.store`: where puzzles come from | where trials go (siblings that
  do not know each other);
- :mod:`.analysis`: tables, statistics, figures, published pages;
- :mod:`.run`: the Hydra app, the runner, experiments, the export command.
"""

from slitherbench.method import moved
from slitherbench.puzzles import formats  # registers the text readers on Puzzle
from slitherbench.puzzles.check import check_answer, split_loops
from slitherbench.puzzles.puzzle import Puzzle, PuzzleFormatError

moved.install()  # old module names (in stores and tuned files) import from the new places

__version__ = "0.1.0"
__all__ = ["Puzzle", "PuzzleFormatError", "__version__", "check_answer", "formats", "split_loops"]
