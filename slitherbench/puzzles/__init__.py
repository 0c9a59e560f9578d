"""Puzzles: what a Slitherlink puzzle is, before any model or solver.

Holds the board model (:mod:`.boards`: square boards and every Loopy grid type), the puzzle
and its clues (:mod:`.puzzle`), the rule plugins (:mod:`.rules`: No-Square, ...), the text
formats (:mod:`.formats`), the description of a puzzle as constraints by their shape
(:mod:`.description`: clue sums, point degrees, loop cuts), the independent checker
(:mod:`.check`), text pictures (:mod:`.drawing`) and Colorlink (:mod:`.colorlink`).

Imports: nothing else of the package. The bottom layer.
"""
