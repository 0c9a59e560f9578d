"""The method: the iterative multi-loop elimination and the record every run keeps.

Holds the elimination loop (:mod:`.elimination`: solve, split into loops, stop or cut,
solve again, with the solve step passed in), the record contract (:mod:`.record`: what a
solve returns, what a trial and an iteration store, the statuses and the errors) and the
provenance of a run (:mod:`.provenance`: commit, machine, package versions).

Imports: :mod:`slitherbench.puzzles` and :mod:`slitherbench.deduction` only (the loop works on
any model through its methods; the models' types are named for type checking alone).
"""
