"""Generic tests over every backend config in conf/backend/ and every form (benchopt style)."""

from __future__ import annotations

import os

import pytest
from conftest import BACKENDS, CONF, formulation_factories, make_backend
from hydra.utils import get_class, instantiate
from omegaconf import OmegaConf

from slitherbench.method.provenance import gpu_names
from slitherbench.method.record import Status
from slitherbench.models.formulations import ConsFormulation, HuboFormulation, QuboFormulation
from slitherbench.puzzles.check import check_answer
from slitherbench.puzzles.puzzle import Puzzle, answer_from_bits
from slitherbench.run.runner import run_trial
from slitherbench.solvers.abs3 import ABS3Backend
from slitherbench.solvers.cpsat_model import solve_exact
from slitherbench.solvers.faulty import FaultyBackend
from slitherbench.sources.library import generated, reference10

FORMS = formulation_factories()


def skip_if_its_package_is_missing(backend) -> None:
    """A backend whose optional package is not installed (sb: simulated-bifurcation and
    PyTorch come with the [sb] extra, not [dev]) skips its tests, saying which; CI installs
    every extra, so they run there. Anything else unavailable still fails the test."""
    reason = backend.available()
    if reason and "is not installed" in reason:
        pytest.skip(f"optional package missing: {reason}")


@pytest.fixture(scope="module")
def puzzles():
    ps = [generated(3, 3, 1), generated(4, 4, 1)]
    return [(p, solve_exact(p).answer) for p in ps]


def _accepts(backend: str, form: str) -> bool:
    cls = get_class(str(OmegaConf.load(CONF / "backend" / f"{backend}.yaml")["_target_"]))
    return bool(cls.takes & FORMS[form]().produces)


# The fast subset runs every refused pair (a skip record: the pairing rule) and each backend's
# first accepted form in this order; the other accepted pairs (0.1-4 s each here), and the
# sb, sqa, pt and zdd backends (their own tests are in test_samplers and test_exact), run in
# the full suite.
FAST_FORM_ORDER = ("cons", "qubo", "hubo", "hubo-exact")
SLOW_BACKENDS = ("sb", "sqa", "pt", "zdd")


def _fast_pair(backend: str, form: str) -> bool:
    if not _accepts(backend, form):
        return True
    if backend in SLOW_BACKENDS:
        return False
    order = [*FAST_FORM_ORDER, *sorted(FORMS)]
    return form == next(f for f in order if f in FORMS and _accepts(backend, f))


@pytest.mark.parametrize(
    ("backend", "form"),
    [
        (b, f) if _fast_pair(b, f) else pytest.param(b, f, marks=pytest.mark.slow)
        for b in BACKENDS
        for f in sorted(FORMS)
    ],
)
def test_every_backend_and_form(backend: str, form: str, puzzles) -> None:
    b = make_backend(backend)
    f = FORMS[form]()
    if not b.unsupported_reason(f):  # an unsupported pair is a skip record either way
        skip_if_its_package_is_missing(b)
    statuses = []
    for p, exact_answer in puzzles:
        r = run_trial(p, f, b, seed=3, max_iterations=15, time_limit_s=10)
        t = r.trial
        statuses.append(t.status)
        assert t.status in set(Status)
        if b.unsupported_reason(f):
            assert t.status == "skipped" and "does not accept" in t.reason
            assert r.iterations == []
            continue
        assert t.status in ("solved", "max_iterations", "timeout"), t.reason
        if t.status == "solved":
            assert t.verified is True
            ans = answer_from_bits(p, t.answer)
            assert check_answer(p, ans) == []
            assert ans == exact_answer
            assert r.iterations[-1].energy == 0
        else:
            # Not solved means the budget ran out, never a silent stop.
            assert t.iterations == 15 or t.status == "timeout", t
            assert not t.verified and t.answer == ""
        assert t.iterations == len(r.iterations) >= 1
        assert t.retries == sum(it.energy != 0 for it in r.iterations)
        for it in r.iterations:
            assert it.energy >= 0
            assert it.num_loops == len(it.loop_sizes)
    if not b.unsupported_reason(f) and b.expects_solutions:
        # A backend that never solves fails here: each accepted pair solves a tiny board.
        assert "solved" in statuses, statuses


@pytest.mark.parametrize(
    ("form", "backend"),
    [
        ("cons", "exact"),
        # pyqbpp: a child process per trial; the fast subset runs them above (cons)
        pytest.param("cons", "abs3", marks=pytest.mark.slow),
        pytest.param("hubo", "abs3", marks=pytest.mark.slow),
        pytest.param("cons", "easy", marks=pytest.mark.slow),
        ("hubo", "sa"),
        ("hubo-exact", "openjij"),
    ],
)
def test_reliable_pairs_solve_tiny_boards(form: str, backend: str, puzzles) -> None:
    for p, exact_answer in puzzles:
        r = run_trial(
            p, FORMS[form](), make_backend(backend), seed=11, max_iterations=30, time_limit_s=20
        )
        assert r.status == "solved", r.trial.reason
        assert answer_from_bits(p, r.trial.answer) == exact_answer


def test_cuts_accumulate_and_hints_follow() -> None:
    p = reference10()
    r = run_trial(
        p, ConsFormulation(), make_backend("exact"), seed=5, max_iterations=50, time_limit_s=30
    )
    assert r.status == "solved" and r.trial.answer_loop_size == 64
    its = r.iterations
    assert not its[0].hint_used and all(it.hint_used for it in its[1:])
    cuts = [it.num_cuts for it in its]
    assert cuts[0] == 0
    assert all(cuts[k + 1] == cuts[k] + its[k].num_loops for k in range(len(its) - 1))


@pytest.mark.skipif(bool(os.environ.get("QBPP_LICENSE_KEY")), reason="a licence lifts the limit")
@pytest.mark.parametrize("backend", ["abs3", "easy"])
def test_licence_limit_is_an_honest_skip(backend: str) -> None:
    r = run_trial(
        reference10(),
        ConsFormulation(),
        make_backend(backend),
        seed=1,
        max_iterations=5,
        time_limit_s=10,
    )
    assert r.status == "skipped"
    assert r.trial.reason == "license_limit (needs 220, limit 100; set QBPP_LICENSE_KEY)"
    assert r.iterations == []


# 5x5 with a row of 0s across the middle: every clue-and-degree solution has a loop above
# and one below, so iteration 1 always ends in cuts and the method can never stop there.
TWO_ROOMS = Puzzle.from_rows(["1....", ".....", "00000", ".....", "1...."])


def test_two_rooms_board_has_multi_loop_solutions_only() -> None:
    assert solve_exact(TWO_ROOMS).status == "infeasible"
    r = run_trial(TWO_ROOMS, ConsFormulation(), make_backend("exact"), seed=1, max_iterations=2)
    assert r.status == "max_iterations"
    assert r.iterations[0].energy == 0 and r.iterations[0].num_loops >= 2


@pytest.mark.skipif(bool(os.environ.get("QBPP_LICENSE_KEY")), reason="a licence lifts the limit")
def test_licence_limit_reached_by_slack_variables_mid_run() -> None:
    # 5x5 QUBO: 60 edges + 36 y_p = 96 variables fit; the first cuts' slack bits do not.
    r = run_trial(
        TWO_ROOMS,
        QuboFormulation(),
        make_backend("abs3"),
        seed=2,
        max_iterations=30,
        time_limit_s=20,
    )
    assert r.status == "skipped"
    assert r.trial.reason.startswith("license_limit (needs ")
    assert f"(at iteration {len(r.iterations) + 1})" in r.trial.reason
    # It got there by cutting: the last solve reached energy 0 with at least two loops.
    assert r.iterations[-1].energy == 0 and r.iterations[-1].num_loops >= 2
    assert r.iterations[0].num_variables == 96


@pytest.mark.skipif(bool(gpu_names()), reason="this machine has a GPU")
def test_asking_for_a_missing_gpu_is_a_clear_skip() -> None:
    r = run_trial(generated(3, 3, 1), ConsFormulation(), ABS3Backend(gpu=1), seed=1)
    assert r.status == "skipped"
    assert r.trial.reason.startswith("gpu=1 asks for 1 GPU(s) but 0 are visible")


@pytest.mark.parametrize(
    ("fault", "message"), [("abort", "killed by SIGABRT"), ("raise", "deliberate failure")]
)
def test_a_crashing_trial_is_recorded_not_fatal(fault: str, message: str) -> None:
    r = run_trial(
        generated(3, 3, 1), ConsFormulation(), FaultyBackend(fault=fault), seed=1, time_limit_s=10
    )
    assert r.status == "error"
    assert message in r.trial.reason


def test_too_weak_hubo_reduction_is_reported() -> None:
    # The exact degree penalty has -7 x1x2x3x4 terms: with a tiny reduction strength the
    # sampler can switch a product variable on alone and go below the true minimum of 0.
    weak = make_backend("sa").__class__(reduction_strength=0.01, num_sweeps=500, num_reads=2)
    r = run_trial(
        generated(4, 4, 1),
        HuboFormulation(degree_mode="exact"),
        weak,
        seed=1,
        max_iterations=3,
        time_limit_s=10,
    )
    assert r.trial.extras_dict["reduction_negative_energy"] is True
    assert r.trial.extras_dict["reduction_added"] > 0
    strong = make_backend("sa")
    r = run_trial(
        generated(4, 4, 1),
        HuboFormulation(degree_mode="exact"),
        strong,
        seed=1,
        max_iterations=3,
        time_limit_s=10,
    )
    assert r.trial.extras_dict["reduction_negative_energy"] is False


def test_times_add_up() -> None:
    r = run_trial(
        reference10(),
        ConsFormulation(),
        make_backend("exact"),
        seed=2,
        max_iterations=50,
        time_limit_s=30,
    )
    t = r.trial
    assert t.build_s == pytest.approx(sum(it.build_s for it in r.iterations))
    assert t.solve_s == pytest.approx(sum(it.solve_s for it in r.iterations))
    assert 0 < t.solve_s + t.overhead_s == pytest.approx(t.wall_s)
    assert t.process_wall_s >= t.wall_s


@pytest.mark.slow
@pytest.mark.parametrize("backend", BACKENDS)
def test_every_backend_holds_the_time_limit_on_a_large_board(backend: str) -> None:
    # The largest corpus board with a 2 s budget: default settings, no backend finishes the
    # method in time, and none may overrun by more than the margin.
    from slitherbench.sources.library import loopy_dev

    big = next(p for p in loopy_dev() if p.size_label == "20x36")
    limit, margin = 2.0, 1.5
    for form in ("cons", "hubo", "qubo"):
        b = instantiate(OmegaConf.load(CONF / "backend" / f"{backend}.yaml"))
        if backend == "abs3":
            b = ABS3Backend(gpu=0)
        f = FORMS[form]()
        if not b.unsupported_reason(f):
            skip_if_its_package_is_missing(b)
        r = run_trial(big, f, b, seed=1, max_iterations=1000, time_limit_s=limit)
        assert r.trial.process_wall_s <= limit + margin, (form, r.status, r.trial.reason)
        if not b.interruptible and not b.unsupported_reason(f):
            # Its default solve takes far longer than 2 s here: it was cut, and says so.
            assert r.status == "timeout" and r.trial.solve_cut, r.trial.reason
            assert "cannot be interrupted" in r.trial.reason


def _without(monkeypatch: pytest.MonkeyPatch, *missing: str) -> None:
    """As on a machine where these packages were never installed (the README's [dev] install
    has no [sb] extra): the backends' package check finds none of them."""
    from slitherbench.solvers import base

    real = base.metadata.version

    def version(name: str) -> str:
        if name in missing:
            raise base.metadata.PackageNotFoundError(name)
        return real(name)

    monkeypatch.setattr(base.metadata, "version", version)


def test_a_missing_optional_package_skips_the_backend_tests(monkeypatch, puzzles) -> None:
    _without(monkeypatch, "simulated-bifurcation", "torch")
    with pytest.raises(pytest.skip.Exception, match="simulated-bifurcation is not installed"):
        test_every_backend_and_form("sb", "qubo", puzzles)
    with pytest.raises(pytest.skip.Exception, match="simulated-bifurcation is not installed"):
        test_every_backend_holds_the_time_limit_on_a_large_board("sb")
    # ...and only that backend's: an unsupported pair is still checked as one, and a backend
    # whose packages are there still runs.
    test_every_backend_and_form("sb", "cons", puzzles)
    b = make_backend("exact")
    skip_if_its_package_is_missing(b)  # no skip: ortools is installed
