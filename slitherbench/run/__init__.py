"""The run: the Hydra app and everything that drives a run.

Holds the app (:mod:`.app`, ``python -m slitherbench``), the plan of cells and puzzles
(:mod:`.plan`), the runner that repeats the elimination with seeds, one trial at a time
(:mod:`.runner`), experiments (:mod:`.experiment`, :mod:`.frontier`, :mod:`.reference`,
:mod:`.tune`), the console's progress and summary (:mod:`.console`), command-line overrides
(:mod:`.overrides`) and the export command (:mod:`.export_cli`, :mod:`.export_source`).

Imports: every layer below it, the analysis included (a run prints its summary). The top layer.
"""
