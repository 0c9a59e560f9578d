"""Sources: where the puzzles of a run come from.

Holds the puzzle library (:mod:`.library`: the committed suites), the generator of unique
puzzles (:mod:`.generate`, judged by the SAT backend), Colorlink's generator
(:mod:`.colorlink`) and the config-facing puzzle sources (:mod:`.puzzle_sources`: ``puzzle=``
in a config).

Imports: :mod:`slitherbench.solvers` and the layers below it. Knows nothing of the store.
"""
