"""Generic tests over every backend config in conf/backend/ and every form (benchopt style)."""

from __future__ import annotations

import os
from pathlib import Path

import pytest
from hydra.utils import instantiate
from omegaconf import OmegaConf

from slitherbench.backends.abs3 import ABS3Backend
from slitherbench.backends.faulty import FaultyBackend
from slitherbench.check import check_answer
from slitherbench.exact import solve_exact
from slitherbench.formulations import ConsFormulation, HuboFormulation, QuboFormulation
from slitherbench.library import generated, reference10
from slitherbench.provenance import gpu_names
from slitherbench.puzzle import answer_from_bits
from slitherbench.runner import STATUSES, run_trial

CONF = Path(__file__).resolve().parents[1] / "conf"
BACKENDS = sorted(p.stem for p in (CONF / "backend").glob("*.yaml"))
FORMS = {
    "cons": ConsFormulation,
    "hubo": HuboFormulation,
    "hubo-exact": lambda: HuboFormulation(degree_mode="exact"),
    "qubo": QuboFormulation,
}
# Keep the generic sweep quick: small budgets, CPU only.
FAST = {
    "sa": {"num_sweeps": 1000, "num_reads": 4},
    "tabu": {"timeout_ms": 100, "num_reads": 2},
    "openjij": {"num_sweeps": 1000, "num_reads": 4},
    "abs3": {"gpu": 0},
}


def make_backend(name: str):
    cfg = OmegaConf.load(CONF / "backend" / f"{name}.yaml")
    return instantiate(OmegaConf.merge(cfg, FAST.get(name, {})))


@pytest.fixture(scope="module")
def puzzles():
    ps = [generated(3, 3, 1), generated(4, 4, 1)]
    return [(p, solve_exact(p).answer) for p in ps]


@pytest.mark.parametrize("form", sorted(FORMS))
@pytest.mark.parametrize("backend", BACKENDS)
def test_every_backend_and_form(backend: str, form: str, puzzles) -> None:
    b = make_backend(backend)
    f = FORMS[form]()
    for p, exact_answer in puzzles:
        r = run_trial(p, f, b, seed=3, max_iterations=15, time_limit_s=10)
        t = r.trial
        assert t["status"] in STATUSES
        if f.name not in b.accepts:
            assert t["status"] == "skipped" and "does not accept" in t["reason"]
            continue
        assert t["status"] != "error", t["reason"]
        if t["status"] == "solved":
            assert t["verified"] is True
            ans = answer_from_bits(p, t["answer"])
            assert check_answer(p, ans) == []
            assert ans == exact_answer
            assert r.iterations[-1]["energy"] == 0
        assert t["iterations"] == len(r.iterations)
        assert t["retries"] == sum(it["energy"] != 0 for it in r.iterations)
        for it in r.iterations:
            assert it["energy"] >= 0
            assert it["num_loops"] == len(it["loop_sizes"])


@pytest.mark.parametrize(
    ("form", "backend"),
    [
        ("cons", "exact"),
        ("cons", "abs3"),
        ("hubo", "abs3"),
        ("cons", "easy"),
        ("hubo", "sa"),
        ("hubo-exact", "openjij"),
    ],
)
def test_reliable_pairs_solve_tiny_boards(form: str, backend: str, puzzles) -> None:
    for p, exact_answer in puzzles:
        r = run_trial(
            p, FORMS[form](), make_backend(backend), seed=11, max_iterations=30, time_limit_s=20
        )
        assert r.status == "solved", r.trial["reason"]
        assert answer_from_bits(p, r.trial["answer"]) == exact_answer


def test_cuts_accumulate_and_hints_follow() -> None:
    p = reference10()
    r = run_trial(
        p, ConsFormulation(), make_backend("exact"), seed=5, max_iterations=50, time_limit_s=30
    )
    assert r.status == "solved" and r.trial["answer_loop_size"] == 64
    its = r.iterations
    assert not its[0]["hint_used"] and all(it["hint_used"] for it in its[1:])
    cuts = [it["num_cuts"] for it in its]
    assert cuts[0] == 0
    assert all(cuts[k + 1] == cuts[k] + its[k]["num_loops"] for k in range(len(its) - 1))


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
    assert r.trial["reason"] == "license_limit (needs 220, limit 100; set QBPP_LICENSE_KEY)"
    assert r.iterations == []


@pytest.mark.skipif(bool(os.environ.get("QBPP_LICENSE_KEY")), reason="a licence lifts the limit")
def test_licence_limit_reached_by_slack_variables_mid_run() -> None:
    # 5x5 QUBO: 60 edges + 36 y_p = 96 variables fit; the first cuts' slack bits do not.
    p = generated(5, 5, 1)
    r = run_trial(
        p, QuboFormulation(), make_backend("abs3"), seed=2, max_iterations=30, time_limit_s=20
    )
    assert r.status in ("solved", "skipped")
    if r.status == "skipped":
        assert r.trial["reason"].startswith("license_limit (needs ")
        assert "at iteration" in r.trial["reason"]


@pytest.mark.skipif(bool(gpu_names()), reason="this machine has a GPU")
def test_asking_for_a_missing_gpu_is_a_clear_skip() -> None:
    r = run_trial(generated(3, 3, 1), ConsFormulation(), ABS3Backend(gpu=1), seed=1)
    assert r.status == "skipped"
    assert r.trial["reason"].startswith("gpu=1 asks for 1 GPU(s) but 0 are visible")


@pytest.mark.parametrize(
    ("fault", "message"), [("abort", "killed by SIGABRT"), ("raise", "deliberate failure")]
)
def test_a_crashing_trial_is_recorded_not_fatal(fault: str, message: str) -> None:
    r = run_trial(
        generated(3, 3, 1), ConsFormulation(), FaultyBackend(fault=fault), seed=1, time_limit_s=10
    )
    assert r.status == "error"
    assert message in r.trial["reason"]


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
    assert r.trial["reduction_negative_energy"] is True
    assert r.trial["reduction_added"] > 0
    strong = make_backend("sa")
    r = run_trial(
        generated(4, 4, 1),
        HuboFormulation(degree_mode="exact"),
        strong,
        seed=1,
        max_iterations=3,
        time_limit_s=10,
    )
    assert r.trial["reduction_negative_energy"] is False


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
    assert t["build_s"] == pytest.approx(sum(it["build_s"] for it in r.iterations))
    assert t["solve_s"] == pytest.approx(sum(it["solve_s"] for it in r.iterations))
    assert 0 < t["solve_s"] + t["overhead_s"] == pytest.approx(t["wall_s"])
    assert t["process_wall_s"] >= t["wall_s"]
