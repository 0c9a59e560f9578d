"""Add a backend: one module and one config file.

A backend declares what it ``takes`` (native constraints, a polynomial of any degree, or a
quadratic model), the packages it needs (checked before a trial, versions recorded), and
``solve``: one sample of the model it is given. The runner does everything else: the
iterative loop, cuts, warm starts, time limits, checking, storing.

Run it:  python docs/tutorials/add_backend.py
(tests/test_docs.py runs it, and runs the same backend through the command line from a
config file in a temporary directory).
"""

from __future__ import annotations

from slitherbench.method.record import Capability, SolveResult
from slitherbench.solvers.base import Backend, best_sample


class MyAnnealer(Backend):
    """OpenJij's simulated annealing on the polynomial as it is (no reduction)."""

    name = "myanneal"
    takes = frozenset({Capability.POLYNOMIAL})  # what it can run: the HUBO and the QUBO
    packages = ("openjij",)  # checked before a trial, versions recorded per trial

    def solve(self, model, *, seed, hint, time_limit_s) -> SolveResult:
        import openjij as oj

        terms = {t: float(c) for t, c in model.polynomial().items() if t}
        res = oj.SASampler().sample_hubo(
            terms, vartype="BINARY", num_sweeps=500, num_reads=4, seed=seed % 2**31
        )
        sample, energy = best_sample(model, res.samples())
        return SolveResult(sample, energy, extras={"reads": len(res.samples())})


# The config file that makes it a choice on the command line, conf/backend/myanneal.yaml
# (or any directory given as hydra.searchpath=[file:///path/to/conf]):
CONFIG = "_target_: add_backend.MyAnnealer\n"


def main() -> None:
    from slitherbench.models.formulations import HuboFormulation
    from slitherbench.puzzles.puzzle import Puzzle
    from slitherbench.run.runner import run_trial

    puzzle = Puzzle.parse("..33./3.02./.22../...33/2....")  # clue rows, 5x5
    result = run_trial(puzzle, HuboFormulation(), MyAnnealer(), seed=1, time_limit_s=20)
    print(f"{result.status} in {result.trial.iterations} iteration(s)")
    assert result.status == "solved" and result.trial.verified


if __name__ == "__main__":
    main()
