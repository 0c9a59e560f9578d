"""experiment=tune end to end on a tiny budget: it writes settings the comparison then runs."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from hydra import compose, initialize_config_dir
from omegaconf import OmegaConf

from slitherbench.run.app import CONF_DIR, run_experiment
from slitherbench.run.plan import resolve_cells
from slitherbench.run.tune import run_tuning, untuned_params
from slitherbench.sources.library import get_suite


def _cfg(*overrides: str):
    with initialize_config_dir(config_dir=str(CONF_DIR), version_base="1.3"):
        return compose(config_name="config", overrides=list(overrides))


def test_training_suite_shares_no_puzzle_with_the_evaluation_suites() -> None:
    train = {tuple(p.to_rows()) for p in get_suite("training")}
    for name in ("loopy_dev", "reference10", "tiny", "small", "mixed"):
        assert train.isdisjoint(tuple(p.to_rows()) for p in get_suite(name))


def _evaluated_with_tuned_settings() -> set[str]:
    """The suites of the experiments that run tuned settings, read from their configs."""
    names = set()
    for path in sorted((CONF_DIR / "experiment").glob("*.yaml")):
        name = path.stem
        if name.startswith("tune"):
            continue
        cfg = _cfg(f"experiment={name}")
        if cfg.puzzle.get("name"):
            names.add(str(cfg.puzzle.name))
    return names


def test_the_full_training_suite_is_at_the_evaluation_sizes_and_never_evaluated() -> None:
    train = get_suite("training_full")
    assert sorted({p.size_label for p in train}) == ["10x10", "7x7"]
    rows = {tuple(p.to_rows()) for p in train}
    assert len(rows) == 4
    evaluated = _evaluated_with_tuned_settings()
    assert {"headline", "mixed", "frontier", "reference10"} <= evaluated
    for name in evaluated - {"loopy_dev", "training", "training_full"}:
        square = [p for p in get_suite(name) if p.is_square]  # training boards are square
        leaked = [p.name for p in square if tuple(p.to_rows()) in rows]
        assert not leaked, f"suite {name} evaluates on training boards {leaked}"
    cfg = _cfg("experiment=tune_full")
    assert cfg.puzzle.name == "training_full"
    full = _cfg("experiment=hubo_vs_qubo_full")
    assert cfg.time_limit_s == full.time_limit_s and cfg.max_iterations == full.max_iterations
    assert OmegaConf.to_container(cfg.cells) == OmegaConf.to_container(full.cells)


@pytest.mark.slow
def test_the_graded_training_suite_is_the_by_grade_runs_sizes_and_grades_never_evaluated() -> None:
    train = get_suite("graded_training")
    assert sorted((p.size_label, p.meta["grade"]) for p in train) == sorted(
        (size, grade)
        for size in ("7x7", "10x10")
        for grade in ("lookahead1", "lookahead2")
        for _ in range(2)
    )
    assert {p.name.rsplit("-", 1)[1] for p in train} == {"s2", "s3"}
    rows = {tuple(p.to_rows()) for p in train}
    assert len(rows) == 8
    evaluated = _evaluated_with_tuned_settings()
    assert {"graded_small", "headline"} <= evaluated
    for name in (*evaluated, "graded_large"):
        leaked = [p.name for p in get_suite(name) if p.is_square and tuple(p.to_rows()) in rows]
        assert not leaked, f"suite {name} evaluates on training boards {leaked}"
    cfg = _cfg("experiment=tune_graded")
    assert cfg.puzzle.name == "graded_training"
    # the by_grade run's OpenJij and SA cells at its budget; by_grade_tuned evaluates them
    for name in ("by_grade", "by_grade_tuned"):
        evaluation = _cfg(f"experiment={name}")
        assert cfg.time_limit_s == evaluation.time_limit_s
        assert cfg.max_iterations == evaluation.max_iterations
        cells = OmegaConf.to_container(evaluation.cells)
        assert all(c in cells for c in OmegaConf.to_container(cfg.cells))
    assert _cfg("experiment=by_grade_tuned").puzzle.name == "graded_small"


def test_a_new_study_starts_from_the_untuned_setting() -> None:
    spec = {
        "formulation": "hubo",
        "backend": "openjij",
        "formulation_params": {"degree_mode": "exact", "cut_weight": 2},
        "backend_params": {"num_sweeps": 10000},
    }
    effort = {"num_sweeps": (1000, 60000)}
    assert untuned_params(spec, effort) == {
        "clue_weight": 1,
        "degree_weight": 1,
        "cut_weight": 2,
        "num_sweeps": 10000,
    }


@pytest.mark.slow
def test_tune_writes_settings_that_the_comparison_runs(tmp_path: Path, capsys) -> None:
    tuned = tmp_path / "tuned"
    common = [f"tuned_dir={tuned}", "progress=false", "repetitions=1", "time_limit_s=3"]
    cfg = _cfg(
        "experiment=tune",
        "puzzle=tiny",
        "tune.n_trials=2",
        *common,
        f"results_dir={tmp_path / 'tune'}",
        "cells=[{formulation: hubo, backend: sa}]",
    )
    table = run_tuning(cfg)
    assert list(table.cell) == ["hubo/sa"] and table.tuned.all() and table.trials.iloc[0] == 2
    written = OmegaConf.load(tuned / "hubo_sa.yaml")
    assert set(written.formulation_params) == {"clue_weight", "degree_weight", "cut_weight"}
    assert set(written.backend_params) == {"num_sweeps"}
    assert written.study.trials == 2 and written.study.training_puzzles == [
        "gen-3x3-s1",
        "gen-4x4-s1",
    ]
    # the first setting tried is the cell's own: the file says how the best compares with it
    assert written.study.untuned_ran == 2 and isinstance(written.study.beats_untuned, bool)
    assert written.study.best_tts99_s <= written.study.untuned_tts99_s
    assert written.study.beats_untuned == (
        written.study.best_tts99_s < written.study.untuned_tts99_s
    )
    # Resumable: the same budget again runs nothing new.
    run_tuning(cfg)
    assert "hubo_sa: 2 trials done, 0 to run" in capsys.readouterr().err
    run = _cfg(
        "experiment=smoke",
        "tuned=true",
        *common,
        f"results_dir={tmp_path / 'cmp'}",
        "cells=[{formulation: hubo, backend: sa}, {formulation: qubo, backend: sa}]",
    )
    cells = resolve_cells(run)
    assert [c.label for c in cells] == ["hubo/sa+tuned", "qubo/sa"]  # qubo/sa was not tuned
    assert cells[0].backend.params["num_sweeps"] == written.backend_params.num_sweeps
    assert cells[0].formulation.weights["cut"] == written.formulation_params.cut_weight
    trials = run_experiment(run, tmp_path / "cmp")
    tuned_rows = trials[trials.cell == "hubo/sa+tuned"]
    assert len(tuned_rows) == 2
    assert (
        json.loads(tuned_rows.backend_params.iloc[0])["num_sweeps"]
        == written.backend_params.num_sweeps
    )


@pytest.mark.slow
def test_a_storage_another_process_is_creating_is_opened_on_a_retry(tmp_path, monkeypatch) -> None:
    """Two ``cell=K`` processes starting at once race to create the SQLite file's tables; the
    loser saw "table ... already exists" and stopped. It now retries and opens the storage."""
    import optuna
    from sqlalchemy.exc import OperationalError

    from slitherbench.run import tune

    real = optuna.storages.RDBStorage
    calls = []

    def first_loses_the_race(url):
        calls.append(url)
        if len(calls) == 1:
            real(url)  # the other process's tables are created meanwhile
            raise OperationalError(
                "CREATE TABLE", {}, Exception("table trial_values already exists")
            )
        return real(url)

    monkeypatch.setattr(optuna.storages, "RDBStorage", first_loses_the_race)
    url = f"sqlite:///{tmp_path / 'optuna.db'}"
    storage = tune.open_storage(url)
    assert len(calls) == 2
    monkeypatch.undo()  # create_study checks the storage's type against the real class
    optuna.create_study(study_name="s", storage=storage)
    assert [s.study_name for s in optuna.get_all_study_summaries(storage)] == ["s"]


def test_an_unrelated_storage_error_is_not_retried(tmp_path, monkeypatch) -> None:
    import optuna
    from sqlalchemy.exc import OperationalError

    from slitherbench.run import tune

    calls = []

    def broken(url):
        calls.append(url)
        raise OperationalError("SELECT", {}, Exception("disk I/O error"))

    monkeypatch.setattr(optuna.storages, "RDBStorage", broken)
    with pytest.raises(OperationalError, match="disk I/O"):
        tune.open_storage(f"sqlite:///{tmp_path / 'x.db'}")
    assert len(calls) == 1
