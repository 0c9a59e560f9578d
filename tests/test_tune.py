"""experiment=tune end to end on a tiny budget: it writes settings the comparison then runs."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from hydra import compose, initialize_config_dir
from omegaconf import OmegaConf

from slitherbench.app import CONF_DIR, run_experiment
from slitherbench.library import get_suite
from slitherbench.plan import resolve_cells
from slitherbench.tune import run_tuning


def _cfg(*overrides: str):
    with initialize_config_dir(config_dir=str(CONF_DIR), version_base="1.3"):
        return compose(config_name="config", overrides=list(overrides))


def test_training_suite_shares_no_puzzle_with_the_evaluation_suites() -> None:
    train = {tuple(p.to_rows()) for p in get_suite("training")}
    for name in ("loopy_dev", "reference10", "tiny", "small", "mixed"):
        assert train.isdisjoint(tuple(p.to_rows()) for p in get_suite(name))


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
