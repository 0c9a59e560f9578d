"""The runner's bookkeeping between solves, pinned through ``run_trial`` (the
mutants of the elimination loop that the suite let live): the seed each solve gets, the
time each solve is offered and the timeout between solves, the cuts' build time, retries
after a sample that is not a multi-loop sample, and the guard against a loop that neither
stops nor cuts. A scripted backend returns the samples, so each test knows every iteration."""

from __future__ import annotations

import itertools
import json
import time
from collections.abc import Mapping

import pytest

from slitherbench.method.record import Capability, SolveResult
from slitherbench.models.formulations import (
    FormUnavailable,
    HuboFormulation,
    Model,
    QuboFormulation,
)
from slitherbench.puzzles.puzzle import Puzzle, answer_from_bits
from slitherbench.run.runner import run_trial
from slitherbench.solvers.base import Backend, BackendUnavailable

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


# -- the trial's sums and its failure records (the mutants of _run_trial_here and _fail) ----
class AccountedBackend(ScriptedBackend):
    """Each solve reports its own start, reduction, sweeps, mode, hint use and extras (solve
    k: k-dependent values), so the trial's sums can be checked against the rows; ``fail``:
    raise that exception at that solve (0-based)."""

    name = "accounted"

    def __init__(self, script, fail=None, available_reason=None) -> None:
        super().__init__(script)
        self.fail, self.available_reason = fail, available_reason
        self.events: list[str] = []

    def available(self):
        return self.available_reason

    def load(self) -> None:
        self.events.append("load")

    def start(self, model: Model) -> None:
        self.events.append("start")

    def close(self) -> None:
        self.events.append("close")

    def solve(self, model, *, seed, hint, time_limit_s):
        k = len(self.calls)
        if self.fail is not None and self.fail[0] == k:
            self.calls.append({})
            raise self.fail[1]
        res = super().solve(model, seed=seed, hint=hint, time_limit_s=time_limit_s)
        res.start_s, res.reduction_s = 0.01 * (k + 1), 0.001 * (k + 1)
        res.sweeps, res.mode = 100 * (k + 1), f"mode{k}"
        res.hint_used = hint is not None and k == 1
        res.extras = {"count": k + 1, "flag": k == 1, "text": f"t{k}", f"only{k}": k}
        res.energy = -1.0 - k  # the backend's own claim: stored beside the judged energy
        return res


def test_the_trial_sums_what_each_solve_reported() -> None:
    b = AccountedBackend([TWO_LOOPS, TWO_LOOPS, ONE_LOOP])
    r = run_trial(BOARD, HuboFormulation(), b, seed=5, max_iterations=10, time_limit_s=30)
    t, its = r.trial, r.iterations
    assert t.status == "solved" and t.iterations == 3, t.reason
    assert (t.seed, t.warm_start) == (5, "previous")
    # each row keeps its own sample and the backend's claimed energy beside the judged one
    script = [TWO_LOOPS, TWO_LOOPS, ONE_LOOP]
    assert [
        sorted(e for e, on in enumerate(answer_from_bits(BOARD, it.edges)) if on) for it in its
    ] == [sorted(s) for s in script]
    assert [it.backend_energy for it in its] == [-1.0, -2.0, -3.0]
    assert [it.energy == 0 for it in its] == [True, False, True]
    assert t.solve_s == pytest.approx(sum(it.solve_s for it in its)) and t.solve_s > 0
    # each row's start is the backend's plus the runner's sync of its copy (microseconds here)
    assert t.start_s == pytest.approx(sum(it.start_s for it in its))
    assert [round(it.start_s, 2) for it in its] == [0.01, 0.02, 0.03]
    assert t.reduction_s == pytest.approx(0.001 + 0.002 + 0.003)
    assert t.sweeps == 100 + 200 + 300 and [it.sweeps for it in its] == [100, 200, 300]
    assert t.mode == "mode2" and [it.mode for it in its] == ["mode0", "mode1", "mode2"]
    assert t.hint_used is True and [it.hint_used for it in its] == [False, True, False]
    # folded as merge_extras says: counts max, flags any, text last
    extras = {"count": 3, "flag": True, "text": "t2", "only0": 0, "only1": 1, "only2": 2}
    assert json.loads(t.extras) == extras
    assert t.build_s + t.solve_s <= t.wall_s < 30
    assert t.overhead_s == pytest.approx(t.wall_s - t.solve_s)
    assert t.extras == json.dumps(json.loads(t.extras), sort_keys=True)  # a stable text
    assert b.events == ["load", "start", "close"]  # load before the trial, close after it


def test_the_trial_records_the_final_models_size() -> None:
    b = AccountedBackend([TWO_LOOPS, TWO_LOOPS, ONE_LOOP])
    r = run_trial(BOARD, QuboFormulation(), b, seed=0, max_iterations=10, time_limit_s=30)
    t, last = r.trial, r.iterations[-1]
    assert t.status == "solved" and t.num_cuts == 2, t.reason
    assert (t.num_variables, t.num_terms, t.max_degree, t.num_cuts) == (
        last.num_variables,
        last.num_terms,
        last.max_degree,
        last.num_cuts,
    )
    assert r.iterations[0].num_variables < t.num_variables  # the cuts' slack came later


def test_a_backend_that_is_unavailable_or_unsuited_is_skipped_without_loading() -> None:
    b = AccountedBackend([ONE_LOOP], available_reason="a licence is missing")
    r = run_trial(BOARD, HuboFormulation(), b, seed=0, max_iterations=10, time_limit_s=30)
    assert (r.trial.status, r.trial.reason) == ("skipped", "a licence is missing")
    assert b.events == [] and b.calls == [] and r.iterations == []

    class EdgeOnly(AccountedBackend):
        variables = frozenset({"edge"})

    b = EdgeOnly([ONE_LOOP])
    r = run_trial(BOARD, HuboFormulation(variables="face"), b, 0, 10, 30)
    assert r.trial.status == "skipped" and "no model on face variables" in r.trial.reason
    assert b.events == []


class Odd(RuntimeError):
    status = "no such status"


class Timed(RuntimeError):
    status = "timeout"


@pytest.mark.parametrize(
    ("at", "exc", "status", "reason"),
    [
        (0, BackendUnavailable("too many variables"), "skipped", "too many variables"),
        (
            1,
            BackendUnavailable("too many variables"),
            "skipped",
            "too many variables (at iteration 2)",
        ),
        (0, FormUnavailable("no such shape"), "skipped", "no such shape"),
        (1, ValueError("bad"), "error", "ValueError: bad"),
        (1, Timed("slow"), "timeout", "Timed: slow"),
        (1, Odd("odd"), "error", "Odd: odd"),
    ],
)
def test_a_solve_that_raises_sets_status_and_reason(at, exc, status, reason) -> None:
    b = AccountedBackend([TWO_LOOPS, ONE_LOOP], fail=(at, exc))
    r = run_trial(BOARD, HuboFormulation(), b, seed=0, max_iterations=10, time_limit_s=30)
    t = r.trial
    assert (t.status, t.reason) == (status, reason)
    assert t.iterations == at == len(r.iterations) and t.solve_cut is False
    assert b.events == ["load", "start", "close"]  # closed on every way out
    assert t.wall_s > 0 and t.overhead_s == pytest.approx(t.wall_s - t.solve_s)


def test_a_solve_cut_at_the_deadline_counts_as_solve_time() -> None:
    from slitherbench.run.runner import SolveCut

    b = AccountedBackend([TWO_LOOPS, ONE_LOOP], fail=(1, SolveCut("stopped", solve_s=2.5)))
    r = run_trial(BOARD, HuboFormulation(), b, seed=0, max_iterations=10, time_limit_s=30)
    t = r.trial
    assert t.status == "timeout" and t.solve_cut is True
    assert t.solve_s == pytest.approx(r.iterations[0].solve_s + 2.5)
    assert t.reason == "SolveCut: stopped"


def test_a_failed_solves_extras_join_the_trials() -> None:
    exc = RuntimeError("the command crashed")
    exc.extras = {"exit_code": 3, "stderr_tail": "boom"}  # as the external backend's errors
    b = AccountedBackend([TWO_LOOPS, ONE_LOOP], fail=(1, exc))
    r = run_trial(BOARD, HuboFormulation(), b, seed=0, max_iterations=10, time_limit_s=30)
    extras = json.loads(r.trial.extras)
    assert r.trial.status == "error" and extras["exit_code"] == 3
    assert extras["stderr_tail"] == "boom" and extras["only0"] == 0  # the first solve's too


def test_a_reduced_forms_products_are_in_the_trials_extras() -> None:
    """On every backend: the reduction is the form's (an edge-form HUBO has none to report)."""
    from slitherbench.models.formulations.reduced import ReducedHuboFormulation

    b = AccountedBackend([TWO_LOOPS, ONE_LOOP])
    form = ReducedHuboFormulation()
    r = run_trial(BOARD, form, b, seed=0, max_iterations=10, time_limit_s=30)
    extras = json.loads(r.trial.extras)
    assert r.trial.status == "solved", r.trial.reason
    assert extras["reduction_products"] > 0 and extras["reduction_strength_max"] > 0
