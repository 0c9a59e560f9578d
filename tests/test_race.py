"""tune.method=race (experiment=tune_graded): the search is centred on the untuned setting,
the race halves the field until the finalists (the untuned setting always among them) have
``final_runs`` runs, and a setting is written as tuned only where it beats the untuned one on
the same runs. Fake runs (no solver): each test takes well under a second."""

from __future__ import annotations

import math
import random
import subprocess
import sys
from pathlib import Path

import pytest
from hydra import compose, initialize_config_dir
from omegaconf import OmegaConf

from slitherbench.method.record import ConfigError
from slitherbench.run import race, tune
from slitherbench.run.plan import CONF_DIR, compose_cell, resolve_cells
from slitherbench.sources.library import get_suite


def _cfg(*overrides: str):
    with initialize_config_dir(config_dir=str(CONF_DIR), version_base="1.3"):
        return compose(config_name="config", overrides=["experiment=tune_graded", *overrides])


UNTUNED = {"clue_weight": 1, "degree_weight": 2, "cut_weight": 3, "num_sweeps": 5000}


def test_the_search_box_is_centred_on_the_untuned_setting_with_the_configured_factors() -> None:
    box = race.centred_box(UNTUNED, [0.5, 2], [0.5, 4])
    assert box == {
        "clue_weight": (0.5, 2.0),
        "degree_weight": (1.0, 4.0),
        "cut_weight": (1.5, 6.0),
        "num_sweeps": (2500.0, 20000.0),
    }
    drawn = race.candidates(UNTUNED, [0.5, 2], [0.5, 4], n=300, seed=0)
    assert drawn[0] == UNTUNED and len(drawn) == 300
    assert len({tuple(sorted(d.items())) for d in drawn}) == 300  # distinct
    for d in drawn:
        assert 1 <= d["clue_weight"] <= 2 and 1 <= d["degree_weight"] <= 4
        assert 2 <= d["cut_weight"] <= 6 and 2500 <= d["num_sweeps"] <= 20000
        assert all(isinstance(v, int) for v in d.values())
    # log-uniform: a third of the draws below the untuned sweeps (x0.5..x1 of x0.5..x4),
    # their geometric mean near the box's (sqrt(2500 * 20000) = 7071); uniform gives 1/7
    sweeps = [d["num_sweeps"] for d in drawn[1:]]
    assert 0.25 < sum(s < 5000 for s in sweeps) / len(sweeps) < 0.42
    assert 6000 < math.exp(sum(map(math.log, sweeps)) / len(sweeps)) < 8300


@pytest.mark.slow
def test_the_configured_factors_centre_each_graded_cells_box_on_its_own_setting() -> None:
    cfg = _cfg("tune.effort_factors=[0.25,2]")
    for spec, sweeps in zip(cfg.cells, (10000, 10000, 5000, 5000), strict=True):
        spec = OmegaConf.to_container(spec)
        effort = compose_cell(spec).backend.effort
        base = tune.untuned_params(spec, effort)
        assert base == {"clue_weight": 1, "degree_weight": 1, "cut_weight": 1, "num_sweeps": sweeps}
        box = race.centred_box(base, cfg.tune.weight_factors, cfg.tune.effort_factors)
        assert box["num_sweeps"] == (sweeps / 4, sweeps * 2)
        assert box["cut_weight"] == (0.5, 2.0)


def _fake_measure(quality: list[float], calls: list[tuple[int, int]]):
    """Setting c solves run k with probability quality[c] (the same draw per (c, k))."""

    def measure(c: int, k: int) -> race.Outcome:
        calls.append((c, k))
        solved = random.Random(1000 * c + k).random() < quality[c]
        return race.Outcome(solved=solved, wall_s=1.0 + c / 100)

    return measure


def test_the_race_halves_the_field_and_the_finalists_and_the_untuned_get_final_runs() -> None:
    quality = [0.05, *(0.2 + 0.05 * c for c in range(1, 16))]  # the untuned setting worst
    calls: list[tuple[int, int]] = []
    result = race.race(16, _fake_measure(quality, calls), first_runs=8, final_runs=32)
    assert [r.runs for r in result.rungs] == [8, 16, 32]
    # the better half of the others goes on, and the untuned setting besides
    assert [len(r.settings) for r in result.rungs] == [16, 9, 5]
    for before, after in zip(result.rungs, result.rungs[1:], strict=False):
        others = [c for c in before.settings if c != 0]
        assert set(after.settings) == {0, *others[: len(others) // 2 + len(others) % 2]}
    assert 0 in result.finalists
    assert all(result.final[c].runs == 32 for c in result.finalists)
    assert len(calls) == len(set(calls)) == 16 * 8 + 9 * 8 + 5 * 16  # each run once
    assert {k for c, k in calls if c == 0} == set(range(32))
    assert result.winner != 0 and result.beats_untuned
    assert race.planned_runs(16, 8, 32) == [(16, 8), (9, 16), (5, 32)]
    # runs that double past final_runs stop at it
    assert race.rung_runs(5, 32) == [5, 10, 20, 32]


def _runs_graded(tmp_path: Path, runner, *overrides: str):
    cfg = _cfg(
        f"tuned_dir={tmp_path / 'tuned'}",
        f"results_dir={tmp_path / 'race'}",
        "tune.candidates=6",
        "tune.first_runs=2",
        "tune.final_runs=8",
        *overrides,
    )
    spec = OmegaConf.to_container(cfg.cells[2])  # hubo/sa, 5000 sweeps
    puzzles = get_suite("tiny")
    out = tune.race_cell(spec, cfg, puzzles, tmp_path / "race", runner=runner)
    return cfg, spec, out, OmegaConf.load(tmp_path / "tuned" / "hubo_sa.yaml")


UNTUNED_SA = {"clue_weight": 1, "degree_weight": 1, "cut_weight": 1, "num_sweeps": 5000}
SA_CELL = "{formulation: hubo, backend: sa, backend_params: {num_sweeps: 5000}}"


def _params(spec) -> dict:
    return {**spec["formulation_params"], **spec["backend_params"]}


@pytest.mark.slow
def test_a_setting_ahead_early_but_worse_on_the_finalists_runs_is_never_written(
    tmp_path: Path,
) -> None:
    """Every other setting solves its first four runs faster than the untuned one, then
    nothing: it leads the early rungs, loses on the finalists' runs, and is not written."""

    def runner(spec, puzzle, rep, cfg):
        run = 2 * rep + (puzzle.rows == 4)  # the run's index on the two tiny boards
        if _params(spec) == UNTUNED_SA:
            return race.Outcome(True, 5.0)
        return race.Outcome(run < 4, 1.0)

    _, _, out, written = _runs_graded(tmp_path, runner)
    assert out is not None
    assert written.study.rungs[0].settings == 6 and written.study.untuned_solved == 8
    assert _params(written) == UNTUNED_SA and written.study.beats_untuned is False
    assert written.study.winner == UNTUNED_SA


@pytest.mark.slow
def test_the_untuned_setting_is_written_when_nothing_beats_it(tmp_path: Path) -> None:
    def runner(spec, puzzle, rep, cfg):
        return race.Outcome(False, 2.0)  # nothing solves: every setting ties

    _, _, _, written = _runs_graded(tmp_path, runner)
    assert _params(written) == UNTUNED_SA and written.study.beats_untuned is False
    assert written.study.best_solved == written.study.untuned_solved == 0
    # tuned=true then runs the cell under its untuned key: no new trials
    run = _cfg(f"tuned_dir={tmp_path / 'tuned'}", "tuned=true", f"cells=[{SA_CELL}]")
    untuned = _cfg(f"cells=[{SA_CELL}]")
    (a,), (b,) = resolve_cells(run), resolve_cells(untuned)
    assert a.config_hash(run) == b.config_hash(untuned)


@pytest.mark.slow
def test_a_setting_that_beats_the_untuned_one_is_written_and_the_race_resumes(
    tmp_path: Path,
) -> None:
    calls = []

    def runner(spec, puzzle, rep, cfg):
        calls.append(1)
        more = spec["backend_params"]["num_sweeps"] > 5000
        return race.Outcome(more or (rep == 0 and puzzle.rows == 3), 1.0)  # more: every run

    _, _, out, written = _runs_graded(tmp_path, runner)
    assert written.study.beats_untuned is True
    assert written.backend_params.num_sweeps > 5000
    assert written.study.best_solved == 8 > written.study.untuned_solved == 1
    assert out is not None and out["study"]["winner"] == _params(written)
    first = len(calls)
    _runs_graded(tmp_path, runner)  # every run is in the race's log: none again
    assert len(calls) == first
    rows = (tmp_path / "race" / "race" / "hubo_sa.csv").read_text()
    assert rows.startswith("rung,runs,setting,untuned,")


def test_on_equal_runs_the_untuned_setting_wins_the_race() -> None:
    result = race.race(8, lambda c, k: race.Outcome(k % 2 == 0, 3.0), 4, 16)
    assert result.winner == 0 and not result.beats_untuned
    assert all(r.settings[0] == 0 for r in result.rungs)


def test_a_winner_no_better_than_the_untuned_setting_is_not_written(tmp_path: Path) -> None:
    """Whatever the race names its winner, the file holds it only if it is strictly better
    on the same runs: here the winner merely ties (and then is worse)."""
    cfg = _cfg(f"tuned_dir={tmp_path}")
    spec = OmegaConf.to_container(cfg.cells[2])
    settings = [UNTUNED_SA, {**UNTUNED_SA, "num_sweeps": 9000}]
    for other in (race.Score(3, 8, 8, 2.0), race.Score(2, 8, 8, 1.0)):
        rung = race.Rung(8, [1, 0], {0: race.Score(3, 8, 8, 2.0), 1: other})
        result = race.RaceResult([rung], winner=1)
        assert not result.beats_untuned
        tune.write_race(spec, settings, result, cfg, get_suite("tiny"))
        written = OmegaConf.load(tmp_path / "hubo_sa.yaml")
        assert _params(written) == UNTUNED_SA and written.study.beats_untuned is False


def test_a_cell_that_cannot_run_is_not_tuned(tmp_path: Path) -> None:
    def runner(spec, puzzle, rep, cfg):
        return race.Outcome(False, 0.0, ran=False, reason="skipped: too many variables")

    cfg = _cfg(f"tuned_dir={tmp_path / 'tuned'}", "tune.candidates=2", "tune.final_runs=8")
    spec = OmegaConf.to_container(cfg.cells[0])
    assert tune.race_cell(spec, cfg, get_suite("tiny"), tmp_path, runner=runner) is None
    assert not (tmp_path / "tuned").exists()


@pytest.mark.parametrize(
    ("override", "says"),
    [
        ("tune.method=grid", "tune.method=grid: tpe (Optuna's TPE over tune.weights) or race"),
        ("tune.candidates=1", "tune.candidates=1: a whole number, 2 or more"),
        ("tune.candidates=x", "tune.candidates=x: a whole number, 2 or more"),
        ("tune.first_runs=0", "tune.first_runs=0: a whole number, 1 or more"),
        ("tune.final_runs=4", "tune.final_runs=4: a whole number, at least tune.first_runs (8)"),
        ("tune.weight_factors=[2,4]", "tune.weight_factors=[2, 4]: two numbers LOW, HIGH with"),
        ("tune.weight_factors=[0.5]", "tune.weight_factors=[0.5]: two numbers LOW, HIGH"),
        ("tune.effort_factors=[0,4]", "tune.effort_factors=[0, 4]: two numbers LOW, HIGH"),
        ("tune.effort_factors=[a,b]", "tune.effort_factors=['a', 'b']: two numbers LOW"),
        ("tune.effort_factors=[0.5,0.8]", "0 < LOW <= 1 <= HIGH"),
        ("tune.seed=s", "tune.seed=s: a whole number"),
        ("+tune.n_trials=3", "tune.n_trials: not a setting of tune.method=race"),
        ("cell=4", "cell=4: experiment=tune has cells 0..3"),
    ],
)
def test_bad_race_settings_are_refused_in_one_line_before_any_run(
    tmp_path: Path, monkeypatch, override: str, says: str
) -> None:
    raced = []
    monkeypatch.setattr(tune, "race_cell", lambda *a, **k: raced.append(a))
    cfg = _cfg(override, f"results_dir={tmp_path / 'out'}")
    with pytest.raises(ConfigError) as info:
        tune.run_tuning(cfg)
    message = str(info.value)
    assert says in message and "\n" not in message and not raced, message
    assert not (tmp_path / "out").exists()


def test_a_tpe_experiment_refuses_the_race_settings_and_keeps_its_own() -> None:
    with initialize_config_dir(config_dir=str(CONF_DIR), version_base="1.3"):
        cfg = compose(config_name="config", overrides=["experiment=tune", "+tune.final_runs=32"])
    with pytest.raises(ConfigError, match=r"^tune.final_runs: not a setting of tune.method=tpe"):
        tune.validate_tune(cfg)
    with initialize_config_dir(config_dir=str(CONF_DIR), version_base="1.3"):
        full = compose(config_name="config", overrides=["experiment=tune_full"])
    assert tune.tune_method(full) == "tpe" and "method" not in full.tune


@pytest.mark.slow
def test_the_command_line_refuses_a_bad_race_setting_in_one_line_with_exit_2(
    tmp_path: Path,
) -> None:
    command = [sys.executable, "-m", "slitherbench", "experiment=tune_graded"]
    done = subprocess.run(
        [*command, "tune.candidates=1", f"results_dir={tmp_path / 'out'}"],
        cwd=tmp_path,
        capture_output=True,
        text=True,
        check=False,
    )
    assert done.returncode == 2
    assert done.stderr.strip().splitlines() == [
        "error: tune.candidates=1: a whole number, 2 or more (the settings raced, the "
        "untuned one among them)"
    ]
