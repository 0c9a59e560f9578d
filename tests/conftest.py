from __future__ import annotations

import json
from collections import Counter
from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import Any, NoReturn

import pytest

SHARED = Path(__file__).resolve().parents[2] / "shared"
CORPUS = SHARED / "corpus" / "loopy_dev.jsonl"


def _corpus_path() -> Path:
    # CI has ../shared beside the checkout; fall back to the packaged copy of the same file.
    if CORPUS.exists():
        return CORPUS
    return (
        Path(__file__).resolve().parents[1]
        / "slitherbench"
        / "sources"
        / "data"
        / "loopy_dev.jsonl"
    )


CORPUS_RECORDS = [json.loads(line) for line in _corpus_path().read_text().splitlines()]
assert len(CORPUS_RECORDS) == 60, f"{_corpus_path()}: {len(CORPUS_RECORDS)} boards, not 60"

# Loopy's 58 puzzles on all 16 grid types, with Loopy's own geometry and answers (500 kB, not
# packaged). Missing, the parametrizations built from it would collapse to nothing, so its
# absence stops collection in one line instead.
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


def corpus_answer(record: dict, puzzle: Any) -> list[bool]:
    """A grid-corpus record's answer (Loopy's edge numbers) as one bool per edge of ``puzzle``."""
    on = set(record["solution_edges"])
    return [e in on for e in range(puzzle.num_edges)]


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
# experiment=smoke's cells without ABS3 (a fresh process per trial, about 0.7 s each): for
# runs whose subject is the store and the run's control (resume, kill, claims), not a backend.
IN_PROCESS_CELLS = (
    "cells=[{formulation: cons, backend: exact}, "
    "{formulation: hubo, backend: sa, backend_params: {num_sweeps: 1000, num_reads: 4}}, "
    "{formulation: qubo, backend: sa, backend_params: {num_sweeps: 1000, num_reads: 4}}]"
)


def constraint_backends() -> list[str]:
    from hydra.utils import get_class
    from omegaconf import OmegaConf

    from slitherbench.solvers.constraints import ConstraintBackend

    conf = Path(__file__).resolve().parents[1] / "conf" / "backend"
    return sorted(
        p.stem
        for p in conf.glob("*.yaml")
        if issubclass(get_class(OmegaConf.load(p)["_target_"]), ConstraintBackend)
    )


# The fast subset is measured, not guessed: tests/durations.json holds every test whose call
# took more than FAST_LIMIT_S in the last run with ``--write-durations`` (the full suite,
# ``pytest -n 2 --write-durations``, on 2 cores; a run of part of it keeps the entries of the
# tests it did not run), and those are marked slow, so
# ``pytest -m "not slow"`` stays short. The full suite runs them all. A test not in the file
# (new, or measured under the limit) counts as fast until the file is written again.
FAST_LIMIT_S = 0.05
DURATIONS = Path(__file__).with_name("durations.json")
MEASURED_SLOW: dict[str, float] = json.loads(DURATIONS.read_text()) if DURATIONS.exists() else {}
CALL_SECONDS: dict[str, float] = {}


def pytest_addoption(parser: pytest.Parser) -> None:
    parser.addoption(
        "--write-durations",
        action="store_true",
        help=f"rewrite {DURATIONS.name}: the tests of this run slower than {FAST_LIMIT_S} s "
        "(kept: the entries of tests this run did not run)",
    )


def pytest_collection_modifyitems(items: list[pytest.Item]) -> None:
    for item in items:
        if item.nodeid in MEASURED_SLOW:
            item.add_marker(pytest.mark.slow)


def pytest_sessionfinish(session: pytest.Session) -> None:
    config = session.config
    if not config.getoption("--write-durations") or hasattr(config, "workerinput"):
        return  # an xdist worker: the controller has every report
    measured = {k: v for k, v in MEASURED_SLOW.items() if k not in CALL_SECONDS}
    measured.update({k: round(v, 2) for k, v in CALL_SECONDS.items() if v > FAST_LIMIT_S})
    DURATIONS.write_text(json.dumps(dict(sorted(measured.items())), indent=0) + "\n")


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

    from slitherbench.models.formulations import HuboFormulation

    forms = {
        p.stem: (lambda p=p: instantiate(OmegaConf.load(p)))
        for p in (CONF / "formulation").glob("*.yaml")
    }
    forms["hubo-exact"] = lambda: HuboFormulation(degree_mode="exact")
    return forms


# -- skips: only for the expected reasons, and counted by reason --------------------------------
# A trial or backend may end a test as a skip only for these reasons: a
# solver's size limit (CPLEX Community Edition), an optional package that is not installed,
# pyqbpp's free licence. Any other skipped trial is a regression and fails the test.
EXPECTED_SKIPS = {
    "size limit": ("CPLEX Community Edition solves at most",),
    "optional package missing": (" is not installed; install it to use backend ",),
    "licence": ("license_limit (needs ",),
}


# What a sweep over every form and backend also meets, each a documented limit said in one line:
# a pair the backend does not take, a face form with no quadratic rule for the board, the ZDD's
# single-cycle model and its edges-only model.
SWEEP_LIMITS = {
    "backend does not take the form": ("does not accept the", "does not accept this pairing"),
    "no quadratic face rule": ("cannot write the", "no quadratic degree rule for points of"),
    "ZDD model": ("the ZDD cannot take", "backend zdd has no model on face variables"),
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
    # Tests marked slow in their file are slow anyway; the file lists the others.
    if report.when == "call" and (report.nodeid in MEASURED_SLOW or "slow" not in report.keywords):
        CALL_SECONDS[report.nodeid] = report.duration
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
