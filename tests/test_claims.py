"""The harness's central claim, guarded: every ``solved`` it records was verified by the
independent checker.

The real forms never reach the runner's ``answer failed the check`` branch (their energy 0 is
a valid multi-loop sample), so these tests build a form without the degree rule, where an
energy-0 sample can be a single edge that satisfies the clue alone. The runner must record
such a trial as ``error`` with the checker's words, never as ``solved``; replacing its
``check_answer`` call by ``problems = []`` makes them fail.
"""

from __future__ import annotations

from collections.abc import Mapping

import pytest

from slitherbench.method.record import Capability, SolveResult
from slitherbench.models.formulations import HuboFormulation, Model, QuboFormulation
from slitherbench.models.formulations.base import Constraint, Piece
from slitherbench.puzzles.puzzle import Puzzle
from slitherbench.run.runner import run_trial
from slitherbench.solvers.base import Backend
from slitherbench.solvers.dwave import SABackend

ONE = ["1"]  # a 1x1 board with clue 1: one edge alone satisfies the clue


class NoDegreeHubo(HuboFormulation):
    """The HUBO with its degree rule dropped: an energy-0 sample need not be a loop."""

    def encode(self, c: Constraint, model: Model) -> Piece:
        if c.kind == "degree":
            return Piece(c, poly={})
        return super().encode(c, model)


class NoDegreeQubo(QuboFormulation):
    def encode(self, c: Constraint, model: Model) -> Piece:
        if c.kind == "degree":
            return Piece(c, poly={})
        return super().encode(c, model)


class CraftedBackend(Backend):
    """Returns the same sample (edge labels on) every solve, claiming energy 0."""

    name = "crafted"
    takes = frozenset(Capability)

    def __init__(self, on: tuple[int, ...]) -> None:
        super().__init__(on=on)

    def solve(
        self, model: Model, *, seed: int, hint: Mapping[int, int] | None, time_limit_s: float
    ) -> SolveResult:
        edges = [e in self.params["on"] for e in range(model.puzzle.num_edges)]
        return SolveResult(sample=model.complete(edges), energy=0.0)


def test_a_crafted_energy_zero_non_answer_ends_error_never_solved() -> None:
    p = Puzzle.from_rows(ONE)
    form = NoDegreeHubo(degree_mode="exact")
    model = Model.build(p, form)
    sample = model.complete([True, False, False, False])
    assert model.energy(sample) == 0  # the premise: the runner sees energy 0
    r = run_trial(p, form, CraftedBackend((0,)), seed=0, max_iterations=3, time_limit_s=10)
    t = r.trial
    assert t.status == "error" and not t.verified, (t.status, t.reason)
    assert t.reason.startswith("answer failed the check: ")
    assert "has degree 1" in t.reason
    assert r.iterations[0].energy == 0


@pytest.mark.parametrize("form", [NoDegreeHubo(degree_mode="exact"), NoDegreeQubo()])
def test_a_real_sampler_on_a_form_without_the_degree_rule_never_records_solved(form) -> None:
    """Every energy-0 sample of this form on ``1`` is a non-answer (one edge on, or an open
    path): whatever dwave SA returns, the trial ends error (or without energy 0), never
    solved."""
    p = Puzzle.from_rows(ONE)
    sa = SABackend(num_reads=2, num_sweeps=200)
    t = run_trial(p, form, sa, seed=5, max_iterations=3, time_limit_s=10).trial
    assert t.status != "solved" and not t.verified, t.reason
    assert t.status == "error" and t.reason.startswith("answer failed the check"), t.reason


def test_the_backends_own_energy_is_never_believed() -> None:
    """A backend claiming energy 0 for a sample whose model energy is not 0 gets a retry,
    not an answer."""
    p = Puzzle.from_rows(ONE)
    form = HuboFormulation(degree_mode="exact")  # the real form: the single edge breaks degree
    r = run_trial(p, form, CraftedBackend((0,)), seed=0, max_iterations=2, time_limit_s=10)
    t = r.trial
    assert t.status == "max_iterations" and t.retries == 2, (t.status, t.reason)
    assert all(it.energy > 0 and it.backend_energy == 0 for it in r.iterations)
    assert all(it.num_loops == 0 and it.loop_sizes == [] for it in r.iterations)


def test_a_crafted_real_answer_is_solved_and_verified() -> None:
    """The control: the same backend returning the loop round the cell solves it, so the
    tests above fail for the check's reason, not the backend's."""
    p4 = Puzzle.from_rows(["."])
    every = tuple(range(p4.num_edges))  # the loop round the one cell
    t4 = run_trial(
        p4, HuboFormulation(degree_mode="exact"), CraftedBackend(every), seed=0, time_limit_s=10
    ).trial
    assert t4.status == "solved" and t4.verified and t4.reason == "", t4.reason


class SequenceBackend(Backend):
    """Returns the given face colourings in turn (the last one from then on)."""

    name = "sequence"
    takes = frozenset(Capability)

    def __init__(self, colourings: list[list[bool]]) -> None:
        super().__init__(colourings=colourings)
        self.calls = 0

    def solve(
        self, model: Model, *, seed: int, hint: Mapping[int, int] | None, time_limit_s: float
    ) -> SolveResult:
        seq = self.params["colourings"]
        colours = seq[min(self.calls, len(seq) - 1)]
        self.calls += 1
        return SolveResult(
            sample=model.complete(model.puzzle.board.boundary(colours)),
            energy=0.0,
            start_s=0.25,
            reduction_s=0.5,
            solve_s=1.0,
            mode=f"M{self.calls}",
            hint_used=self.calls == 1,
            sweeps=7,
            extras={"b": self.calls, "a": True},
        )


def test_a_lazy_forms_broken_rule_enters_and_the_trial_goes_on() -> None:
    """qubo[lazy]/face (experiment=targets_faces): the first sample is a checkerboard, energy 0
    without the degree rule but degree 4 at the middle point; the runner must add that point's
    rule and solve again (not judge the checkerboard), and then stop at the real answer."""
    p = Puzzle.from_rows(["..", ".."])
    form = QuboFormulation(variables="face", degree_mode="lazy")
    checker = [True, False, False, True]
    corner = [True, False, False, False]
    backend = SequenceBackend([checker, corner])
    r = run_trial(p, form, backend, seed=0, max_iterations=5, time_limit_s=10)
    t = r.trial
    assert t.status == "solved" and t.verified, (t.status, t.reason)
    assert [it.energy for it in r.iterations] == [0, 0]
    assert t.iterations == 2 and t.retries == 0 and t.num_cuts == 0
    assert r.iterations[1].num_terms > r.iterations[0].num_terms  # the middle point's rule
    # the trial's totals are the sums of its solves' figures, each row numbered
    assert [it.iteration for it in r.iterations] == [1, 2]
    assert (t.solve_s, t.reduction_s, t.sweeps) == (2.0, 1.0, 14)
    assert t.start_s == pytest.approx(0.5, abs=0.05)
    assert t.mode == "M2" and t.hint_used and [it.hint_used for it in r.iterations] == [True, False]
    assert r.iterations[1].num_variables == t.num_variables == r.iterations[0].num_variables + 1
    assert r.iterations[1].max_degree == t.max_degree == 2
    assert [it.sweeps for it in r.iterations] == [7, 7]
    assert [it.mode for it in r.iterations] == ["M1", "M2"]
    assert [it.reduction_s for it in r.iterations] == [0.5, 0.5]
    assert [it.extras for it in r.iterations] == ['{"a": true, "b": 1}', '{"a": true, "b": 2}']
    assert r.iterations[0].start_s == pytest.approx(0.25, abs=0.05)


def test_an_energy_zero_empty_board_is_an_error_in_one_line() -> None:
    """Clues that admit the empty board: the empty sample has energy 0 and no loop."""
    p = Puzzle.from_rows([".."])
    r = run_trial(p, HuboFormulation(degree_mode="exact"), CraftedBackend(()), seed=0)
    t = r.trial
    assert t.status == "error" and not t.verified
    assert t.reason == "an energy-0 sample with no loop: the clues admit an empty board"
    assert t.iterations == 1 and r.iterations[0].energy == 0


def test_the_error_names_the_first_three_problems() -> None:
    """A plus across a 2x2 without the degree rule: every clue holds, five points are wrong."""
    from slitherbench.puzzles.check import check_answer

    p = Puzzle.from_rows(["22", "22"])
    plus = (p.h(1, 0), p.h(1, 1), p.v(0, 1), p.v(1, 1))
    t = run_trial(p, NoDegreeHubo(degree_mode="exact"), CraftedBackend(plus), seed=0).trial
    problems = check_answer(p, [e in plus for e in range(p.num_edges)])
    assert len(problems) == 5
    assert t.status == "error"
    assert t.reason == "answer failed the check: " + "; ".join(problems[:3])


# -- the checker's own edges (killing the mutants of check.py that survived the suite) --------
def test_the_step_two_judge_rejects_a_loop_that_misses_a_clue() -> None:
    from slitherbench.puzzles.check import answer_edges, loop_satisfies_clues, split_loops

    p = Puzzle.from_rows(["3."])  # the loop round the left cell gives it 4, not 3
    left = sorted(p.face_edges[0])
    assert not loop_satisfies_clues(p, left)
    assert answer_edges(p, [left]) is None  # no loop fits: cut, not an answer
    right = sorted(p.face_edges[1])  # round the right cell: the left cell gets 1 side
    assert not loop_satisfies_clues(p, right) and answer_edges(p, [right, left]) is None
    whole = sorted(set(left) ^ set(right))  # round both cells: 3 sides of the left one
    assert loop_satisfies_clues(p, whole) and answer_edges(p, [left, whole]) == whole
    with pytest.raises(ValueError, match=r"^answer has 3 edges, the board has 7$"):
        split_loops(p, [True] * 3)


def test_a_variant_puzzle_is_judged_by_its_own_rules_through_the_runner() -> None:
    """Colorlink: the runner's step 2 and its check go through the variant's own judge
    (one loop per colour); a colour's loop alone is no answer."""
    from slitherbench.models.formulations import ConsFormulation
    from slitherbench.puzzles.check import answer_edges, check_answer, split_loops
    from slitherbench.puzzles.colorlink import read_colorlink
    from slitherbench.puzzles.colorlink.harness import ColorlinkPuzzle
    from slitherbench.puzzles.puzzle import answer_from_bits
    from slitherbench.solvers.sat import SatBackend

    p = ColorlinkPuzzle.of(read_colorlink("2g../.2g3r/.3k."))  # one answer
    t = run_trial(p, ConsFormulation(), SatBackend(), seed=0, time_limit_s=20).trial
    assert t.status == "solved" and t.verified, t.reason
    answer = answer_from_bits(p, t.answer)
    assert check_answer(p, answer) == []
    loops = split_loops(p, answer)
    assert len(loops) == 2 and answer_edges(p, loops) == [e for e, on in enumerate(answer) if on]
    assert answer_edges(p, loops[:1]) is None
    assert check_answer(p, [on and e in loops[0] for e, on in enumerate(answer)])


def test_warm_hints_offer_the_previous_sample_or_it_without_its_cut_loops() -> None:
    """previous: the last sample as it is; broken: every loop a cut forbids switched off (the
    rest kept); none: no hint. Auxiliaries are completed either way."""
    from slitherbench.run.runner import warm_hint

    p = Puzzle.from_rows(["...."])
    model = Model.build(p, QuboFormulation())
    left, right = sorted(p.face_edges[0]), sorted(p.face_edges[3])
    edges = [e in left or e in right for e in range(p.num_edges)]
    model.add_cut(left)
    assert warm_hint(model, None, "previous") is None
    assert warm_hint(model, edges, "none") is None
    assert warm_hint(model, edges, "previous") == model.complete(edges)
    kept = [e in right for e in range(p.num_edges)]
    assert warm_hint(model, edges, "broken") == model.complete(kept)
