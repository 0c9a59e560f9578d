"""What the report's --experiment, --boards-of and --only keep: a run read beside the stores
it pairs with (the page names the options, so it is written again the same way)."""

from __future__ import annotations

import pandas as pd
import pytest

from slitherbench.analysis.publish import written_by
from slitherbench.analysis.report import main as report_main
from slitherbench.analysis.report import select


def _trials() -> pd.DataFrame:
    rows = [
        # experiment, puzzle, form_variant, backend, cell
        ("new", "b14", "hubo[exact]", "openjij", "hubo[exact]/openjij"),
        ("new", "b20", "hubo[exact]", "openjij", "hubo[exact]/openjij"),
        ("old", "b14", "hubo[aux]", "openjij", "hubo[aux]/openjij"),
        ("old", "b20", "hubo[aux]", "openjij", "hubo[aux]/openjij"),
        ("old", "b10", "hubo[aux]", "openjij", "hubo[aux]/openjij"),
        ("old", "b14", "qubo", "pt", "qubo/pt"),
    ]
    t = pd.DataFrame(rows, columns=["experiment", "puzzle", "form_variant", "backend", "cell"])
    return t.assign(key=[f"k{i}" for i in range(len(t))])


def _iterations(trials: pd.DataFrame) -> pd.DataFrame:
    return pd.DataFrame({"key": [k for k in trials.key for _ in range(2)], "iteration": 1})


def test_boards_of_keeps_every_cell_on_that_experiments_boards_only() -> None:
    t = _trials()
    kept, iters = select(t, _iterations(t), boards_of="new")
    assert set(kept.puzzle) == {"b14", "b20"} and "b10" not in set(kept.puzzle)
    assert len(kept) == 5 and set(iters.key) == set(kept.key) and len(iters) == 10


def test_boards_of_several_experiments_keeps_the_union_and_refuses_a_name_without_trials() -> None:
    t = pd.concat([_trials(), _trials().iloc[[4]].assign(experiment="third", key="k9")])
    kept, _ = select(t, _iterations(t), boards_of="new, third")
    assert set(kept.puzzle) == {"b14", "b20", "b10"} and len(kept) == len(t)
    alone, _ = select(t, _iterations(t), boards_of="third")
    assert set(alone.puzzle) == {"b10"} and len(alone) == 2
    with pytest.raises(ValueError, match="--boards-of nope: no trial"):
        select(t, _iterations(t), boards_of="new,nope")


def test_only_keeps_the_named_cells_by_any_name_compare_takes() -> None:
    t = _trials()
    kept, _ = select(t, _iterations(t), boards_of="new", only="hubo[aux],hubo[exact]")
    assert sorted(kept.form_variant) == ["hubo[aux]", "hubo[aux]", "hubo[exact]", "hubo[exact]"]
    by_backend, _ = select(t, _iterations(t), only="pt")
    assert list(by_backend.cell) == ["qubo/pt"]
    by_experiment, _ = select(t, _iterations(t), experiment="new", only="hubo[exact]/openjij")
    assert len(by_experiment) == 2


@pytest.mark.parametrize(
    ("option", "value"),
    [("experiment", "nope"), ("boards_of", "nope"), ("only", "hubo[exact]/sa")],
)
def test_a_selection_that_keeps_nothing_is_refused(option: str, value: str) -> None:
    t = _trials()
    with pytest.raises(ValueError, match="no trial in these stores matches"):
        select(t, _iterations(t), **{option: value})


@pytest.mark.slow  # runs a small store and publishes from it
def test_a_page_read_with_only_names_it_and_shows_only_that_cell(tmp_path, capsys) -> None:
    from slitherbench.models.formulations import ConsFormulation, QuboFormulation
    from slitherbench.puzzles.puzzle import Puzzle
    from slitherbench.run.runner import run_trial
    from slitherbench.solvers.dwave import SteepestBackend
    from slitherbench.solvers.sat import SatBackend
    from slitherbench.store.result_store import ResultStore

    store = ResultStore(tmp_path / "store")
    p = Puzzle.parse(".3./3.3/.3.", name="ring")
    for i, (form, backend) in enumerate(
        [(ConsFormulation(), SatBackend()), (QuboFormulation(), SteepestBackend())]
    ):
        r = run_trial(p, form, backend, seed=1, max_iterations=5)
        r.trial.key, r.trial.puzzle_rows, r.trial.experiment = f"k{i}", p.to_text(), "pair"
        store.write(r.trial, r.iterations)
    store.compact()
    page = tmp_path / "docs" / "page"
    argv = [str(tmp_path / "store"), "--only", "cons", "--publish", str(page)]
    assert report_main(argv) == 0
    text = (tmp_path / "docs" / "page.md").read_text()
    assert written_by(text)[:3] == [str(tmp_path / "store"), "--publish", "docs/findings/page"]
    assert "--only cons" in text
    summary = pd.read_csv(page / "summary.csv")
    assert set(summary.form_variant) == {"cons"}
    assert (
        report_main([str(tmp_path / "store"), "--only", "hubo", "--out", str(tmp_path / "r")]) == 2
    )
    assert "--only hubo: no trial in these stores matches" in capsys.readouterr().err
