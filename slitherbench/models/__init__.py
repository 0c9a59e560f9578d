"""Models: a puzzle's description turned into what a solver reads.

Holds the formulations (:mod:`.formulations`: cons, HUBO, reduced HUBO and QUBO, on edge or
face variables), the encoders that both a backend and an exporter use (:mod:`.encode`: linear
rows, clauses, the MIP model), model sizes (:mod:`.model_size`) and the writers of the
field's file formats (:mod:`.export`: BQM, CNF, LP, MPS, QPLIB, SMT-LIB, HUBO).

Imports: :mod:`slitherbench.method`, :mod:`slitherbench.deduction`, :mod:`slitherbench.puzzles`.
"""
