"""The runner's bookkeeping between solves, pinned through ``run_trial`` (issue 28: the
mutants of the elimination loop that the suite let live): the seed each solve gets, the
time each solve is offered and the timeout between solves, the cuts' build time, retries
after a sample that is not a multi-loop sample, and the guard against a loop that neither
stops nor cuts. A scripted backend returns the samples, so each test knows every iteration."""

from __future__ import annotations

import itertools
import time
from collections.abc import Mapping

import pytest

from slitherbench.backends.base import Backend
from slitherbench.formulations import HuboFormulation, Model, QuboFormulation
from slitherbench.puzzle import Puzzle
from slitherbench.record import Capability, SolveResult
from slitherbench.runner import run_trial

# 1x5, clue 1 at both ends. Faces 1 and 3 inside: two loops, each clue met by one of them,
# so neither alone is an answer (cut both, solve again); faces 1-3 inside: the answer.
BOARD = Puzzle.from_rows(["1...1"])


def _inside(*faces: int) -> list[int]:
    edges = BOARD.board.boundary([f in faces for f in range(BOARD.num_faces)])
    return [e for e, on in enumerate(edges) if on]


TWO_LOOPS = _inside(1, 3)
ONE_LOOP = _inside(1, 2, 3)


class ScriptedBackend(Backend):
    """Returns the scripted edge sets in turn (the last from then on) and records each call's
    seed, hint and time offered. ``energy_off``: the solves whose sample gets one edge more
    than the script says (a sample that breaks the degree rule, energy > 0)."""

    name = "scripted"
    takes = frozenset(Capability)

    def __init__(self, script, sleep_s: float = 0.0, energy_off=()) -> None:
        super().__init__(script=script, sleep_s=sleep_s, energy_off=tuple(energy_off))
        self.calls: list[dict] = []

    def solve(
        self, model: Model, *, seed: int, hint: Mapping[int, int] | None, time_limit_s: float
    ) -> SolveResult:
        t0 = time.perf_counter()
        k = len(self.calls)
        self.calls.append({"seed": seed, "hint": hint, "time_limit_s": time_limit_s})
        time.sleep(self.params["sleep_s"])
        script = self.params["script"]
        on = set(script[min(k, len(script) - 1)])
        if k in self.params["energy_off"]:
            on.add(next(e for e in range(model.puzzle.num_edges) if e not in on))
        edges = [e in on for e in range(model.puzzle.num_edges)]
        solve_s = time.perf_counter() - t0  # what it spent, so the sums below can hold
        return SolveResult(sample=model.complete(edges), energy=0.0, solve_s=solve_s)


@pytest.mark.parametrize("form", [HuboFormulation, QuboFormulation])
def test_each_solve_gets_the_trials_seed_plus_7919_per_iteration(form) -> None:
    # The stored trials' seeds are reproducible only if this sequence never changes.
    b = ScriptedBackend([TWO_LOOPS, TWO_LOOPS, ONE_LOOP])
    r = run_trial(BOARD, form(), b, seed=11, max_iterations=10, time_limit_s=30)
    assert r.trial.status == "solved" and r.trial.iterations == 3, r.trial.reason
    assert [c["seed"] for c in b.calls] == [11 + 7919 * k for k in (1, 2, 3)]
    assert r.iterations[1].energy > 0  # the same two loops again: their cuts are broken
    assert b.calls[0]["hint"] is None and b.calls[1]["hint"] is not None


@pytest.mark.slow
def test_each_solve_is_offered_the_time_left_and_the_trial_stops_between_solves() -> None:
    b = ScriptedBackend([TWO_LOOPS], sleep_s=0.3)
    r = run_trial(BOARD, HuboFormulation(), b, seed=0, max_iterations=100, time_limit_s=1.0)
    t = r.trial
    assert t.status == "timeout" and t.reason == "time limit 1 s reached"
    offered = [c["time_limit_s"] for c in b.calls]
    assert 0.9 < offered[0] <= 1.0
    assert all(a - b_ >= 0.29 for a, b_ in itertools.pairwise(offered)), offered
    assert offered[-1] > 0 and t.iterations == len(b.calls) <= 4
    assert 1.0 <= t.wall_s < 1.5


def test_a_sample_with_energy_is_retried_not_cut_and_counted() -> None:
    b = ScriptedBackend([ONE_LOOP], energy_off=(0, 1))
    r = run_trial(BOARD, HuboFormulation(), b, seed=0, max_iterations=10, time_limit_s=30)
    t = r.trial
    assert t.status == "solved" and t.iterations == 3 and t.retries == 2, t.reason
    assert [it.energy > 0 for it in r.iterations] == [True, True, False]
    assert t.num_cuts == 0


def test_the_iteration_cap_ends_the_trial_with_its_number() -> None:
    b = ScriptedBackend([TWO_LOOPS])
    r = run_trial(BOARD, HuboFormulation(), b, seed=0, max_iterations=3, time_limit_s=30)
    t = r.trial
    assert t.status == "max_iterations" and t.reason == "3 iterations without an answer"
    assert t.iterations == 3 and t.num_cuts >= 2


def test_cut_building_time_is_build_time_of_the_next_iteration(monkeypatch) -> None:
    real = Model.add_cuts

    def slow_add_cuts(self, loops):
        time.sleep(0.1)
        return real(self, loops)

    monkeypatch.setattr(Model, "add_cuts", slow_add_cuts)
    b = ScriptedBackend([TWO_LOOPS, TWO_LOOPS, ONE_LOOP])  # the second: its cuts broken
    r = run_trial(BOARD, HuboFormulation(), b, seed=0, max_iterations=10, time_limit_s=30)
    t, its = r.trial, r.iterations
    assert t.status == "solved" and t.retries == 1 and t.num_cuts == 2, t.reason
    assert its[0].build_s < 0.1 <= its[1].build_s and its[2].build_s == 0.0
    assert t.build_s == pytest.approx(sum(it.build_s for it in its))
    assert t.wall_s >= t.build_s + t.solve_s


def test_a_loop_that_neither_stops_nor_cuts_is_an_error_not_an_endless_run(monkeypatch) -> None:
    monkeypatch.setattr(Model, "add_cuts", lambda self, loops: None)
    b = ScriptedBackend([TWO_LOOPS])
    r = run_trial(BOARD, HuboFormulation(), b, seed=0, max_iterations=10, time_limit_s=30)
    t = r.trial
    assert t.status == "error" and t.iterations == 1
    assert t.reason == "the sample's loops hold no answer and give no cut"
