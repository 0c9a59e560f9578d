"""slitherbench: benchmark the cons / HUBO / QUBO forms of Slitherlink's iterative
multi-loop elimination across solver backends."""

from . import formats  # registers the text readers on Puzzle
from .check import check_answer, split_loops
from .puzzle import Puzzle, PuzzleFormatError

__version__ = "0.1.0"
__all__ = ["Puzzle", "PuzzleFormatError", "__version__", "check_answer", "formats", "split_loops"]
