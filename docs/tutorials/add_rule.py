"""Add a rule: one module and one config file.

A rule beyond Slitherlink's own is a subclass of :class:`slitherbench.puzzles.rules.Rule`. This one,
``tutorial_no_border``, asks that the loop never use an edge of the board's outer boundary
(named for this tutorial, so that a real ``no_border`` rule can sit beside it). It gives the
harness three things:

* ``constraints``: its rows of the constraint description. Each row carries its *shape*
  (here ``EQUAL``: an edge sum equal to a value, 0) and its *weight class* (weighed as a
  clue), which is all every form (cons, HUBO, QUBO; edge and face variables) and every exact
  family needs to encode it: nothing else in the package changes.
* ``problems``: the checker's judgement, written on its own (it never reads the rows): a
  trial is recorded ``solved`` only when this finds nothing. A rule without it is refused
  when registered.
* ``may_join``: which faces the generator's random region may take, so generated puzzles
  keep the rule.

Run it:  python docs/tutorials/add_rule.py
Its config file, conf/rule/tutorial_no_border.yaml, holds
``_target_: add_rule.TutorialNoBorder``; with ``docs/tutorials`` on ``PYTHONPATH``,
``puzzle.rules=[tutorial_no_border]`` chooses it on the command line.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from slitherbench.models.formulations.base import EQUAL, Constraint
from slitherbench.puzzles.boards import Board
from slitherbench.puzzles.rules import Rule


class TutorialNoBorder(Rule):
    name = "tutorial_no_border"
    summary = "the loop never uses an edge of the board's outer boundary"

    def constraints(self, puzzle: Any) -> list[Constraint]:
        # one row per boundary edge (an edge beside the outside, face -1): x_e = 0
        border = [e for e, (f, g) in enumerate(puzzle.board.edge_faces) if min(f, g) < 0]
        return [
            Constraint(self.name, k, (e,), (0,), shape=EQUAL, weight="clue")
            for k, e in enumerate(border)
        ]

    def problems(self, puzzle: Any, edges: Sequence[bool]) -> list[str]:
        # the checker's own count: a boundary edge is a side of one face only
        sides = [0] * puzzle.num_edges
        for face in puzzle.face_edges:
            for e in face:
                sides[e] += 1
        return [
            f"edge {e} on the outer boundary is on the loop (rule {self.name})"
            for e, n in enumerate(sides)
            if n == 1 and edges[e]
        ]

    def may_join(self, board: Board, inside: Sequence[bool], face: int) -> bool:
        return min(board.face_neighbours[face]) >= 0  # a face beside the outside never joins


CONFIG = """\
# The loop never uses an edge of the board's outer boundary: puzzle.rules=[tutorial_no_border]
_target_: add_rule.TutorialNoBorder
name: tutorial_no_border
"""


def main() -> None:
    from slitherbench.models.formulations import QuboFormulation
    from slitherbench.puzzles.check import check_answer
    from slitherbench.puzzles.puzzle import Puzzle
    from slitherbench.puzzles.rules import register_rule, unregister_rule
    from slitherbench.run.runner import run_trial
    from slitherbench.solvers.cpsat_model import solve_exact
    from slitherbench.solvers.openjij_sa import OpenJijBackend
    from slitherbench.sources.generate import generate

    # what conf/rule/tutorial_no_border.yaml does on the command line
    register_rule(TutorialNoBorder)
    try:
        puzzle = Puzzle.parse("rules=tutorial_no_border;..../..../.11./....")
        print(solve_exact(puzzle).status, "under the rule;", end=" ")
        print(solve_exact(puzzle.with_rules(())).status, "as plain Slitherlink")
        backend = OpenJijBackend(num_sweeps=1000, num_reads=4, num_threads=1)
        result = run_trial(puzzle, QuboFormulation(variables="face"), backend, seed=1)
        print(f"qubo/face on openjij: {result.status} in {result.trial.iterations} iteration(s)")
        assert result.status == "solved" and result.trial.verified
        made = generate(5, 5, seed=1, rules=("tutorial_no_border",))
        assert check_answer(made, made.meta["answer"]) == []
        print(f"generated {made.name}: {made.to_text()}")
    finally:
        unregister_rule(TutorialNoBorder.name)


if __name__ == "__main__":
    main()
