"""The one elimination loop (:mod:`slitherbench.method.elimination`) with scripted solve steps: where
it stops, what it cuts, that no answer counts as solved without the checker, and that the
runner and the exact families' lazy loop drive it."""

from __future__ import annotations

import time
from collections.abc import Mapping, Sequence
from typing import Any

import pytest

from slitherbench.method import elimination
from slitherbench.method.elimination import Elimination
from slitherbench.method.record import Capability, SolveResult, Status
from slitherbench.models.formulations import ConsFormulation, Model, QuboFormulation
from slitherbench.puzzles.puzzle import Puzzle
from slitherbench.run.runner import run_trial
from slitherbench.solvers.base import Backend
from slitherbench.solvers.constraints import lazy_answers
from slitherbench.solvers.sat import SatBackend

# Rows 0-3, three columns; only row 1 is clued: its own loop (faces 3, 4, 5) is the answer.
BOARD = Puzzle.from_rows(["...", "323", "...", "..."])


def around(puzzle: Puzzle, *faces: int) -> list[bool]:
    """The edges around a set of faces (several loops where the faces fall apart)."""
    return puzzle.board.boundary([f in faces for f in range(puzzle.num_faces)])


ANSWER = around(BOARD, 3, 4, 5)
ANSWER_LOOP = [e for e, on in enumerate(ANSWER) if on]
TWO_COLUMNS = around(BOARD, 3, 0, 5, 2)  # every clue holds, by neither loop alone
BESIDE = around(BOARD, 3, 4, 5, 9)  # the answer beside a loop round the corner face 9


def scripted(script: Sequence[Any]):
    """A solve step returning the script's edge lists in turn (an exception is raised)."""

    def solve(k: int, left: float, previous: list[bool] | None) -> Any:
        got = script[k - 1]
        if isinstance(got, BaseException):
            raise got
        return got

    return solve


def run(script: Sequence[Any], puzzle: Puzzle = BOARD, cut: str = "loop", **kw: Any):
    model = Model.build(puzzle, ConsFormulation(cut=cut))
    return Elimination(model, scripted(script), **kw).run(), model


def test_stops_on_one_loop_that_satisfies_every_clue_even_beside_others() -> None:
    elim, model = run([BESIDE])
    assert elim.stop == "answer" and elim.solved and elim.problems == []
    assert elim.answers == [ANSWER_LOOP] and model.num_cuts == 0 and elim.iterations == 1


def test_cuts_each_loop_found_then_stops_on_the_answer() -> None:
    elim, model = run([TWO_COLUMNS, ANSWER])
    assert elim.solved and elim.iterations == 2 and elim.cuts == model.num_cuts == 2
    cuts = [p.constraint for p in model.pieces[-2:]]
    assert [c.kind for c in cuts] == ["cut", "cut"] and [c.index for c in cuts] == [0, 1]
    assert not any(c.holds(TWO_COLUMNS) for c in cuts)  # each forbids its own loop
    assert all(c.holds(ANSWER) for c in cuts)  # and never the answer


def test_region_cuts_as_the_formulation_says() -> None:
    elim, model = run([TWO_COLUMNS, ANSWER], cut="region")
    assert elim.solved and [p.constraint.kind for p in model.pieces[-2:]] == ["region"] * 2


def test_steps_see_the_model_before_their_cuts_and_time_them() -> None:
    model = Model.build(BOARD, ConsFormulation())
    elim = Elimination(model, scripted([TWO_COLUMNS, ANSWER]))
    seen = [(s.iteration, len(s.loops), model.num_cuts, s.build_s) for s in elim.steps()]
    assert [x[:3] for x in seen] == [(1, 2, 0), (2, 1, 2)]
    assert seen[0][3] == 0.0 and seen[1][3] > 0.0 and elim.cut_s == seen[1][3]


def test_no_answer_is_solved_without_the_checkers_verdict(monkeypatch) -> None:
    assert run([ANSWER], verify=False)[0].stop == "answer"
    assert not run([ANSWER], verify=False)[0].solved  # found, never checked: not solved
    monkeypatch.setattr(elimination, "check_answer", lambda p, a: ["refused by the checker"])
    elim, _ = run([ANSWER])
    assert elim.stop == "answer" and not elim.solved
    assert elim.reason == "answer failed the check: refused by the checker"


def test_iteration_cap_deadline_and_exhaustion() -> None:
    elim, _ = run([TWO_COLUMNS, ANSWER], max_iterations=1)
    assert (elim.stop, elim.iterations, elim.reason) == (
        "max_iterations",
        1,
        "1 iterations without an answer",
    )
    elim, _ = run([ANSWER], deadline=time.perf_counter() - 1)
    assert elim.stop == "timeout" and elim.iterations == 0 and not elim.answers
    elim, _ = run([TWO_COLUMNS, None])
    assert elim.stop == "exhausted" and elim.iterations == 2 and not elim.answers


def test_an_exception_from_the_solve_step_leaves_the_loop_as_it_was() -> None:
    model = Model.build(BOARD, ConsFormulation())
    elim = Elimination(model, scripted([TWO_COLUMNS, RuntimeError("solver died")]))
    with pytest.raises(RuntimeError, match="solver died"):
        elim.run()
    assert elim.stop is None and elim.iterations == 1 and model.num_cuts == 2


def test_an_empty_solution_stops_or_is_ruled_out() -> None:
    empty = [False] * BOARD.num_edges
    elim, _ = run([empty])
    assert elim.stop == "empty" and "empty board" in elim.reason
    ruled_out: list[int] = []
    elim, _ = run([empty, ANSWER], on_empty=lambda: ruled_out.append(1))
    assert elim.solved and ruled_out == [1] and elim.iterations == 2


def test_a_sample_that_breaks_a_constraint_is_retried_uncut() -> None:
    model = Model.build(BOARD, ConsFormulation())

    def sample(k: int, left: float, previous: list[bool] | None) -> SolveResult:
        path = [e < 3 for e in range(BOARD.num_edges)]  # three edges: ends of degree 1
        edges = [path, TWO_COLUMNS, ANSWER][k - 1]
        s = model.complete(edges)
        return SolveResult(s, model.energy(s))

    elim = Elimination(model, sample)
    steps = [(s.retry, len(s.loops)) for s in elim.steps()]
    assert steps == [(True, 0), (False, 2), (False, 1)]
    assert elim.solved and elim.iterations == 3 and model.num_cuts == 2


def test_a_deferred_rule_broken_at_energy_0_is_added_not_cut() -> None:
    p = Puzzle.from_rows(["..", ".."])
    model = Model.build(p, QuboFormulation(variables="face", degree_mode="lazy"))
    diagonal = around(p, 0, 3)  # the centre point has degree 4
    single = around(p, 0)

    def sample(k: int, left: float, previous: list[bool] | None) -> SolveResult:
        s = model.complete([diagonal, single][k - 1])
        return SolveResult(s, model.energy(s))

    elim = Elimination(model, sample)
    broken = [s.broken for s in elim.steps()]
    assert broken[0] and not broken[1] and model.num_cuts == 0 and elim.solved
    assert model.energy(model.complete(diagonal)) > 0  # the rule is in the model now


def test_a_second_answer_is_looked_for_with_the_first_forbidden_alone() -> None:
    p = Puzzle.from_rows(["..", ".."])  # no clues: every loop is an answer
    first, second = around(p, 0), around(p, 0, 1)
    elim, model = run([first, second], puzzle=p, cut="region", want=2)
    assert elim.stop == "answer" and len(elim.answers) == 2
    cut = model.pieces[-1].constraint  # a loop cut (a region cut never cuts one loop)
    assert cut.kind == "cut" and not cut.holds(first) and cut.holds(second)


class ScriptedBackend(Backend):
    """A backend whose solves are a script of edge lists (an exception is raised)."""

    name = "scripted"
    takes = frozenset({Capability.CONSTRAINTS})

    def __init__(self, script: Sequence[Any]) -> None:
        super().__init__()
        self.script, self.k = list(script), 0

    def solve(
        self, model: Model, *, seed: int, hint: Mapping[int, int] | None, time_limit_s: float
    ) -> SolveResult:
        got, self.k = self.script[self.k], self.k + 1
        if isinstance(got, BaseException):
            raise got
        s = model.complete(got)
        return SolveResult(s, model.energy(s), solve_s=0.25)


def trial(script: Sequence[Any], puzzle: Puzzle = BOARD, **kw: Any):
    return run_trial(puzzle, ConsFormulation(), ScriptedBackend(script), seed=0, **kw)


def test_the_runner_records_each_step_and_the_checked_answer() -> None:
    r = trial([TWO_COLUMNS, ANSWER])
    t = r.trial
    assert (t.status, t.verified, t.iterations, t.num_cuts, t.retries) == ("solved", True, 2, 2, 0)
    assert [(i.iteration, i.num_loops, i.num_cuts) for i in r.iterations] == [(1, 2, 0), (2, 1, 2)]
    assert t.solve_s == 0.5 and t.answer_loop_size == len(ANSWER_LOOP)
    assert t.build_s >= r.iterations[0].build_s + r.iterations[1].build_s > 0


def test_the_runner_never_records_solved_without_the_checker(monkeypatch) -> None:
    monkeypatch.setattr(elimination, "check_answer", lambda p, a: ["refused by the checker"])
    t = trial([ANSWER]).trial
    assert t.status == Status.ERROR and not t.verified
    assert t.reason == "answer failed the check: refused by the checker"


def test_the_runner_keeps_its_statuses_and_reasons() -> None:
    t = trial([TWO_COLUMNS, ANSWER], max_iterations=1).trial
    assert (t.status, t.reason) == ("max_iterations", "1 iterations without an answer")
    unclued = Puzzle.from_rows(["..", ".."])  # the empty board has energy 0
    t = trial([[False] * unclued.num_edges], puzzle=unclued).trial
    assert t.status == "error" and t.reason.startswith("an energy-0 sample with no loop")
    t = trial([TWO_COLUMNS, RuntimeError("solver died")]).trial
    assert (t.status, t.reason, t.iterations) == ("error", "RuntimeError: solver died", 1)
    assert t.num_cuts == 2 and t.build_s > 0 and t.solve_s == 0.25


def test_the_lazy_loop_reads_its_cuts_from_the_model() -> None:
    # the exact families' lazy loop: the same object, an exact solver as the step
    b = SatBackend()
    if b.available():
        pytest.skip(b.available())
    p = Puzzle.from_rows(["...", "323"])
    b.build(p)
    run_ = lazy_answers(b, p, time_limit_s=30, cut="loop", want=2)
    assert run_.status == "unique" and run_.answers == [around(p, 3, 4, 5)]
    assert run_.solves >= 2 and run_.cuts >= 1
