from __future__ import annotations

import json
from collections import Counter
from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import NoReturn

import pytest

SHARED = Path(__file__).resolve().parents[2] / "shared"
CORPUS = SHARED / "corpus" / "loopy_dev.jsonl"


def _corpus_path() -> Path:
    # CI has ../shared beside the checkout; fall back to the packaged copy of the same file.
    if CORPUS.exists():
        return CORPUS
    return Path(__file__).resolve().parents[1] / "slitherbench" / "data" / "loopy_dev.jsonl"


CORPUS_RECORDS = [json.loads(line) for line in _corpus_path().read_text().splitlines()]
assert len(CORPUS_RECORDS) == 60, f"{_corpus_path()}: {len(CORPUS_RECORDS)} boards, not 60"

# Loopy's 58 puzzles on all 16 grid types, with Loopy's own geometry and answers (500 kB, not
# packaged). Missing, the parametrizations built from it would collapse to nothing, so its
# absence stops collection in one line instead (issue 28, item 5).
GRIDS_CORPUS = SHARED / "corpus" / "loopy_grids_dev.jsonl"
GRIDS_CORPUS_SIZE = 58


def grid_records() -> list[dict]:
    """The grid corpus's records; a missing or incomplete file is an error, not a skip."""
    if not GRIDS_CORPUS.exists():
        raise FileNotFoundError(
            f"{GRIDS_CORPUS} is missing: the tests need the project's shared/ folder beside "
            "the checkout (CI lays it there); without it, run the other files alone"
        )
    records = [json.loads(line) for line in GRIDS_CORPUS.read_text().splitlines()]
    kinds = {r["loopy_type"] for r in records}
    if len(records) != GRIDS_CORPUS_SIZE or len(kinds) != 16:
        raise ValueError(
            f"{GRIDS_CORPUS}: {len(records)} puzzles on {len(kinds)} grid types, "
            f"expected {GRIDS_CORPUS_SIZE} on 16"
        )
    return records


# The fast subset reads one corpus board per size up to 10x10 (the first of each); the other
# boards of those sizes, and every board over 100 cells (10x18 and larger), are in the full
# suite only. Each corpus-wide check still runs on every size the fast subset covers.
FAST_CORPUS = {
    next(d["id"] for d in CORPUS_RECORDS if (d["rows"], d["cols"]) == size)
    for size in {(d["rows"], d["cols"]) for d in CORPUS_RECORDS if d["rows"] * d["cols"] <= 100}
}


@pytest.fixture(
    params=[
        d if d["id"] in FAST_CORPUS else pytest.param(d, marks=pytest.mark.slow)
        for d in CORPUS_RECORDS
    ],
    ids=[d["id"] for d in CORPUS_RECORDS],
)
def corpus_record(request: pytest.FixtureRequest) -> dict:
    return request.param


# Every exact family that runs the iterative method on the constraints (cons form): found by
# what it takes, so a new one is tested without editing this file.
def constraint_backends() -> list[str]:
    from hydra.utils import get_class
    from omegaconf import OmegaConf

    from slitherbench.backends.constraints import ConstraintBackend

    conf = Path(__file__).resolve().parents[1] / "conf" / "backend"
    return sorted(
        p.stem
        for p in conf.glob("*.yaml")
        if issubclass(get_class(OmegaConf.load(p)["_target_"]), ConstraintBackend)
    )


# Tests that each take 0.3-1.4 s on the 2-core machine and repeat what a faster test of the
# fast subset already guards (another form, backend or experiment of the same check): they
# run in the full suite only, which keeps `pytest -m "not slow"` under 30 s there.
FULL_SUITE_ONLY = {
    "tests/test_region_cuts.py::test_top_level_cut_reaches_every_cell_and_the_hash_only_when_region",
    "tests/test_region_cuts.py::test_region_cut_energy_is_zero_exactly_where_it_holds[conf-qubo]",
    "tests/test_region_cuts.py::test_the_sat_judged_generator_makes_the_cp_sat_judged_boards",
    "tests/test_samplers.py::test_a_cell_stops_at_the_first_size_where_it_solved_nothing",
    "tests/test_samplers.py::test_warm_start_enters_the_config_hash_only_when_not_the_default",
    "tests/test_samplers.py::test_warm_start_modes_run_and_are_recorded[broken]",
    "tests/test_samplers.py::test_parallel_tempering_stops_at_a_hinted_answer",
    "tests/test_app.py::test_every_experiment_composes_and_instantiates[hubo_vs_qubo]",
    "tests/test_formulations.py::test_energy_zero_exactly_when_feasible[hubo-exact-clued]",
    "tests/test_formulations.py::test_energy_zero_exactly_when_feasible[hubo-exact-blank]",
    "tests/test_formulations.py::test_pyqbpp_expression_has_the_model_energy[hubo-aux]",
    "tests/test_reliability.py::test_precheck_says_when_uniqueness_is_not_known",
    "tests/test_runner.py::test_every_backend_and_form[steepest-qubo]",
    "tests/test_runner.py::test_every_backend_and_form[openjij-qubo]",
    "tests/test_pinned_keys.py::test_trial_keys_and_seeds_are_unchanged[hubo_vs_qubo-90-ff0925f7e16e-9c47770dc6-r0-1977492960-177035a888e2f733]",
    # issue 19: the exhaustive face-form tests stay in the fast subset; these repeat them on
    # the corpus, on a board the QUBO cannot encode, and through Colorlink's CLI and sampler
    "tests/test_faces.py::test_corpus_answers_have_energy_zero_in_every_face_form[cons/face]",
    "tests/test_faces.py::test_a_board_the_qubo_face_form_cannot_encode_is_a_one_line_skip",
    "tests/test_colorlink.py::test_cli_generates_text_that_solves",
    "tests/test_colorlink.py::test_simulated_annealing_solves_a_small_generated_puzzle[4-4]",
    # Colorlink's own package: the gadget variant of a face-HUBO check whose ban variant
    # stays, and the two-colour 5x5 beside the three-colour one
    "tests/test_colorlink.py::test_the_face_hubo_is_zero_exactly_where_every_row_holds[.2r./2k4g.-gadget-cut4-0]",
    "tests/test_colorlink.py::test_sat_solves_generated_puzzles[5-5-2]",
    # the import guard of the results layer: store, results and report stay in the fast subset
    "tests/test_architecture.py::test_results_layer_never_loads_solvers[tables]",
    "tests/test_architecture.py::test_results_layer_never_loads_solvers[plots]",
    "tests/test_architecture.py::test_results_layer_never_loads_solvers[record]",
}


def pytest_collection_modifyitems(items: list[pytest.Item]) -> None:
    for item in items:
        if item.nodeid in FULL_SUITE_ONLY:
            item.add_marker(pytest.mark.slow)


# -- the generic sweeps' backends and forms (test_runner, test_boards) -------------------------
CONF = Path(__file__).resolve().parents[1] / "conf"
BACKENDS = sorted(p.stem for p in (CONF / "backend").glob("*.yaml"))
# Keep the generic sweeps quick: small budgets, CPU only.
FAST = {
    "sa": {"num_sweeps": 1000, "num_reads": 4},
    "tabu": {"timeout_ms": 100, "num_reads": 2},
    "openjij": {"num_sweeps": 1000, "num_reads": 4},
    "abs3": {"gpu": 0},
}


def make_backend(name: str):
    """A backend from its config file, with the sweeps' small budgets."""
    from hydra.utils import instantiate
    from omegaconf import OmegaConf

    cfg = OmegaConf.load(CONF / "backend" / f"{name}.yaml")
    return instantiate(OmegaConf.merge(cfg, FAST.get(name, {})))


def formulation_factories() -> dict:
    """Every formulation config (a new one is picked up without editing a test), plus the
    HUBO's second degree encoding."""
    from hydra.utils import instantiate
    from omegaconf import OmegaConf

    from slitherbench.formulations import HuboFormulation

    forms = {
        p.stem: (lambda p=p: instantiate(OmegaConf.load(p)))
        for p in (CONF / "formulation").glob("*.yaml")
    }
    forms["hubo-exact"] = lambda: HuboFormulation(degree_mode="exact")
    return forms


# -- skips: only for the expected reasons, and counted by reason --------------------------------
# A trial or backend may end a test as a skip only for these reasons (issue 28, item 4): a
# solver's size limit (CPLEX Community Edition), an optional package that is not installed,
# pyqbpp's free licence. Any other skipped trial is a regression and fails the test.
EXPECTED_SKIPS = {
    "size limit": ("CPLEX Community Edition solves at most",),
    "optional package missing": (" is not installed; install it to use backend ",),
    "licence": ("license_limit (needs ",),
}


# What a sweep over every form and backend also meets, each a documented limit said in one line:
# a pair the backend does not take, a face form with no quadratic rule for the board, the ZDD's
# single-cycle model.
SWEEP_LIMITS = {
    "backend does not take the form": ("does not accept the", "does not accept this pairing"),
    "no quadratic face rule": ("cannot write the", "no quadratic degree rule for points of"),
    "ZDD model": ("the ZDD cannot take",),
}


def skip_kind(reason: str | None, also: Mapping[str, Sequence[str]] | None = None) -> str:
    """The expected-skip kind ``reason`` is (``also``: kinds a test expects besides), or a
    failed test naming the reason."""
    for kind, marks in {**EXPECTED_SKIPS, **(also or {})}.items():
        if reason and "\n" not in reason and any(m in reason for m in marks):
            return kind
    pytest.fail(f"skipped for an unexpected reason: {reason!r}")


def skip_for(reason: str | None, also: Mapping[str, Sequence[str]] | None = None) -> NoReturn:
    """Skip the test with an expected reason (its kind first); fail it on any other."""
    pytest.skip(f"{skip_kind(reason, also)}: {reason}")


SKIPS_BY_KIND: Counter[str] = Counter()


def pytest_runtest_logreport(report: pytest.TestReport) -> None:
    if report.skipped and report.when in ("setup", "call"):
        reason = str(report.longrepr[2] if isinstance(report.longrepr, tuple) else report.longrepr)
        reason = reason.removeprefix("Skipped: ")
        kinds = [k for k in EXPECTED_SKIPS if reason.startswith(f"{k}: ")]
        kinds += [k for k, marks in EXPECTED_SKIPS.items() if any(m in reason for m in marks)]
        if not kinds and ("is not installed" in reason or "could not import" in reason):
            kinds = ["optional package missing"]  # pytest.importorskip and the tests' own
        SKIPS_BY_KIND[kinds[0] if kinds else "other (a skipif or pytest.skip of the test)"] += 1


def pytest_terminal_summary(terminalreporter) -> None:
    if SKIPS_BY_KIND:
        terminalreporter.section("skips by reason")
        for kind, n in sorted(SKIPS_BY_KIND.items()):
            terminalreporter.line(f"{n:5d}  {kind}")
