"""Add a formulation: one module and one config file.

A formulation turns each constraint of the backend-neutral description (clue sums, point
degrees, the loop cuts the run adds) into a piece of the model: a native constraint or a
penalty polynomial over integer labels (edges are ``0..E-1``). It declares what it
``produces``; a backend runs it when it takes one of those.

This one is a HUBO whose loop cut has three times the weight of the clues (a polynomial of
any degree, so OpenJij, ABS3 and the dwave samplers through their reduction take it). Its
encoder is written over the model's variables (the shared penalties of
``slitherbench.models.formulations.penalties`` read each edge's expression from ``model.variables``),
so the same class runs with ``variables="face"``, one binary per face, as ``main`` shows.

Run it:  python docs/tutorials/add_formulation.py
Its config file, conf/formulation/triplecut.yaml, holds ``_target_: add_formulation.TripleCutForm``.
"""

from __future__ import annotations

from slitherbench.method.record import Capability
from slitherbench.models.formulations.base import Formulation, Piece
from slitherbench.models.formulations.penalties import (
    exact_degree_piece,
    product_piece,
    squared_piece,
)


class TripleCutForm(Formulation):
    name = "triplecut"
    produces = frozenset({Capability.POLYNOMIAL})

    def encode(self, c, model) -> Piece:
        w = self.weights[c.kind]
        if c.kind == "clue":  # (sum of the face's sides - n)^2
            return squared_piece(c, model, w, c.allowed[0])
        if c.kind == "degree":  # 0 exactly at degree 0 or 2, no auxiliary
            return exact_degree_piece(c, model, w)
        if c.kind == "cut":  # the product of the loop's edges: 1 only if the loop is back
            return product_piece(c, model, 3 * w)
        raise self.unencodable(c)  # the trial is a one-line skip


CONFIG = "_target_: add_formulation.TripleCutForm\n"


def main() -> None:
    from slitherbench.puzzles.puzzle import Puzzle
    from slitherbench.run.runner import run_trial
    from slitherbench.solvers.openjij_sa import OpenJijBackend

    puzzle = Puzzle.parse("..33./3.02./.22../...33/2....")
    backend = OpenJijBackend(num_sweeps=1000, num_reads=4, num_threads=1)
    for variables in ("edge", "face"):
        result = run_trial(
            puzzle, TripleCutForm(variables=variables), backend, seed=1, time_limit_s=20
        )
        print(f"{variables} variables: {result.status} in {result.trial.iterations} iteration(s)")
        assert result.status == "solved" and result.trial.verified


if __name__ == "__main__":
    main()
