"""Difficulty grades: every shipped board carries its grade, a run stores each trial's board
grade (graded once per board, config hashes unchanged), and the report has a table and a
figure by grade, while a store from before grades still reports."""

from __future__ import annotations

import dataclasses
import json
import shutil
import time
from pathlib import Path

import pandas as pd
import pytest
from hydra import compose, initialize_config_dir

from slitherbench.analysis.plots.base import ReportData
from slitherbench.analysis.plots.by_grade import FigureByGrade, TableByGrade, TableGradeTest
from slitherbench.analysis.report import main as report_main
from slitherbench.deduction import grade
from slitherbench.method.record import Trial
from slitherbench.run.app import CONF_DIR, run_experiment
from slitherbench.sources import grades, library
from slitherbench.sources.grades import GRADES, grade_columns
from slitherbench.store.results import load

OLD_STORE = Path(__file__).resolve().parent / "data" / "store_v0_1"


def _fresh(p):
    """The board graded now, ignoring the grade its data file holds."""
    copy = p.with_rules(p.rules)
    copy.meta.pop("grade", None)
    found = grade(copy)
    return found.level, grades.shares_text(found.shares)


def test_every_shipped_board_has_a_grade_and_the_small_ones_match_the_engine() -> None:
    shipped = [*library.loopy_dev(), *library.shipped("grids"), *library.generated_frontier(),
               *library.shipped("lookahead")]  # fmt: skip
    for p in shipped:
        assert p.meta.get("grade") in GRADES, p.name
        shares = json.loads(p.meta["grade_shares"])
        assert set(shares) <= {"rules", "lookahead1", "lookahead2"} and shares, p.name
    # The committed grades are the engine's (the large boards: experiments/grade_library.py --check).
    lookahead = [p for p in library.shipped("lookahead") if p.num_faces <= 100]
    for p in [*library.loopy_dev()[::6], *library.shipped("grids")[::5], *lookahead[::4]]:
        assert (p.meta["grade"], p.meta["grade_shares"]) == _fresh(p), p.name
    # Loopy's own labels: Easy and Normal need no look-ahead, Tricky and Hard do.
    for p in library.loopy_dev():
        assert (p.meta["grade"] == "rules") == (p.meta["difficulty"] in ("Easy", "Normal")), p.name


# Boards above this many faces take 0.7-5.5 s each to grade again on 2 cores (30 s together):
# they are graded again in the experiments step (pytest -m experiments, in .ci/run).
LARGE_FACES = 400


@pytest.mark.slow
@pytest.mark.parametrize(
    "large", [False, pytest.param(True, marks=pytest.mark.experiments)], ids=["small", "large"]
)
def test_every_committed_grade_is_the_engines(large: bool) -> None:
    for name in ("survey", "targets", "lookahead"):
        for p in library.shipped(name):
            if (p.num_faces > LARGE_FACES) == large:
                assert (p.meta["grade"], p.meta["grade_shares"]) == _fresh(p), p.name


def test_a_board_outside_the_library_is_graded_once_by_its_text(monkeypatch) -> None:
    calls = []

    def counting(p):
        calls.append(p.to_text())
        return grade(p)

    monkeypatch.setattr(grades, "grade", counting)
    monkeypatch.setattr(grades, "_cache", {})
    p = library.reference10()
    first = grade_columns(p)
    assert grade_columns(library.reference10()) == first and len(calls) == 1
    assert first[0] == "lookahead1" and json.loads(first[1])["rules"] < 0.5
    # Colorlink puzzles are graded per colour; a board with no answer has no grade, rather
    # than an error.
    from slitherbench.puzzles.colorlink import read_colorlink
    from slitherbench.puzzles.colorlink.harness import ColorlinkPuzzle
    from slitherbench.sources.colorlink import generated_colorlink

    assert grade_columns(generated_colorlink(6, 6, 2, 3))[0] == "lookahead2"
    assert grade_columns(ColorlinkPuzzle.of(read_colorlink("4r4g"))) == ("", "")
    # Nor does a board too large to grade within a run (a shipped one keeps its own).
    monkeypatch.setattr(grades, "GRADE_MAX_FACES", 99)
    assert grade_columns(library.generated(10, 10, 1)) == ("", "")
    assert grade_columns(library.shipped("grids")[2])[0] == "lookahead2"  # 100 faces


def test_the_grade_columns_default_to_not_recorded() -> None:
    t = Trial()
    assert t.grade == "" and t.grade_shares == ""


def _smoke(tmp_path: Path):
    with initialize_config_dir(config_dir=str(CONF_DIR), version_base="1.3"):
        cfg = compose(
            config_name="config",
            overrides=[
                "experiment=smoke",
                "progress=false",
                "cells=[{formulation: cons, backend: exact}]",
            ],
        )
    return cfg


@pytest.mark.slow
def test_a_run_stores_each_boards_grade_graded_once_per_board(tmp_path: Path, monkeypatch) -> None:
    calls = []

    def counting(p):
        calls.append(p.to_text())
        time.sleep(0.3)  # a slow grading shows in no trial's time
        return grade(p)

    monkeypatch.setattr(grades, "grade", counting)
    monkeypatch.setattr(grades, "_cache", {})
    table = run_experiment(_smoke(tmp_path), tmp_path / "store")
    trials, _ = load(tmp_path / "store")
    assert len(trials) == 4  # 2 boards x 2 repetitions
    assert sorted(calls) == sorted(set(trials.puzzle_rows))  # once per board, not per trial
    for _, t in trials.iterrows():
        p = library.get_suite("tiny")[["gen-3x3-s1", "gen-4x4-s1"].index(t.puzzle)]
        assert (t.grade, t.grade_shares) == _fresh(p)
    assert set(trials.key) == set(table.key)
    assert trials.wall_s.max() < 0.3 and trials.process_wall_s.max() < 0.3


def _trial(puzzle: str, n: int, grade: str, status: str, iterations: int) -> dict:
    t = Trial(puzzle=puzzle, rows=n, cols=n, faces=n * n, grade=grade, status=status,
              iterations=iterations, form_variant="hubo", backend="sa", experiment="x",
              config_hash="h", key=f"{puzzle}-{iterations}")  # fmt: skip
    return dataclasses.asdict(t)


def test_the_grade_table_counts_each_cell_by_grade(tmp_path: Path) -> None:
    rows = [
        _trial("a", 5, "rules", "solved", 2),
        _trial("a", 5, "rules", "solved", 4),
        _trial("b", 7, "lookahead1", "solved", 9),
        _trial("b", 7, "lookahead1", "timeout", 30),
        _trial("c", 10, "lookahead1", "max_iterations", 50),
        _trial("d", 10, "", "solved", 3),  # stored before grades: counted apart
        _trial("e", 10, "beyond", "skipped", 0),  # never ran: not counted
    ]
    data = ReportData(pd.DataFrame(rows), pd.DataFrame(), tmp_path)
    item = TableByGrade()
    assert item.applies(data)
    item.write(data)
    md = (tmp_path / "table_by_grade.md").read_text()
    head, _, body = md.splitlines()[:3]
    assert head == (
        "| Form | Backend | rules (1 board, 5x5) | lookahead1 (2 boards, 7x7..10x10) "
        "| not recorded (1 board, 10x10) |"
    )
    assert body == "| hubo | sa | 2/2, 3 it | 1/3, 9 it | 1/1, 3 it |"
    csv = pd.read_csv(tmp_path / "table_by_grade.csv")
    la1 = csv[csv.grade == "lookahead1"].iloc[0]
    assert la1.sizes == "7x7..10x10" and la1.boards == 2 and la1.ran == 3


def test_neighbouring_grades_are_compared_board_by_board_within_sizes(tmp_path: Path) -> None:
    def seeds(puzzle: str, n: int, grade: str, solved: int, ran: int) -> list[dict]:
        return [_trial(puzzle, n, grade, "solved" if i < solved else "timeout", i)
                for i in range(ran)]  # fmt: skip

    rows = [
        *seeds("r1", 5, "rules", 3, 3), *seeds("r2", 5, "rules", 2, 3),
        *seeds("l1", 5, "lookahead1", 1, 3), *seeds("l2", 7, "lookahead1", 3, 3),
        *seeds("m", 7, "lookahead2", 0, 3),
        *seeds("b", 9, "beyond", 0, 3),  # no other grade at 9x9: no row for it
        _trial("x", 5, "", "solved", 1),  # no grade recorded: not compared
    ]  # fmt: skip
    data = ReportData(pd.DataFrame(rows), pd.DataFrame(), tmp_path)
    assert TableGradeTest().applies(data)
    TableGradeTest().write(data)
    lines = (tmp_path / "table_grade_test.md").read_text().splitlines()
    assert lines[0] == "| Form | Backend | Grades | Sizes | Boards | Solved | Difference | p |"
    # rules vs look-ahead 1 at 5x5 only (l2 is 7x7): r1, r2 against l1, 3 ways to pick the
    # look-ahead 1 board; picking l1 (5/6 against 1/3) or r1 (3/6 against 3/3) puts the rates
    # 0.5 apart, picking r2 (4/6 against 2/3) does not: p = 2/3.
    assert lines[2] == (
        "| hubo | sa | rules vs lookahead1 | 5x5 | 2 vs 1 | 5/6 vs 1/3 | +0.500 "
        "| 0.667 (every relabelling) |"
    )
    assert lines[3] == (
        "| hubo | sa | lookahead1 vs lookahead2 | 7x7 | 1 vs 1 | 3/3 vs 0/3 | +1.000 "
        "| 1 (every relabelling) |"
    )
    assert len([line for line in lines if line.startswith("| hubo")]) == 2
    csv = pd.read_csv(tmp_path / "table_grade_test.csv")
    assert list(csv.grade_b) == ["lookahead1", "lookahead2"] and csv.exact.all()
    # One grade per size: nothing to compare, no table.
    apart = seeds("r1", 5, "rules", 3, 3) + seeds("m", 7, "lookahead2", 0, 3)
    apart_data = ReportData(pd.DataFrame(apart), pd.DataFrame(), tmp_path)
    assert not TableGradeTest().applies(apart_data)


def test_a_store_whose_boards_were_all_presolved_says_so_and_draws_nothing(tmp_path: Path) -> None:
    rows = [_trial("a", 3, "rules", "presolved", 0), _trial("b", 4, "rules", "presolved", 0)]
    data = ReportData(pd.DataFrame(rows), pd.DataFrame(), tmp_path)
    assert TableByGrade().applies(data)
    TableByGrade().write(data)
    assert (tmp_path / "table_by_grade.md").read_text().startswith("No trial ran a backend")
    assert not FigureByGrade().applies(data)


@pytest.mark.slow
def test_the_report_has_a_table_and_figure_by_grade(tmp_path: Path) -> None:
    run_experiment(_smoke(tmp_path), tmp_path / "store")
    out = tmp_path / "report"
    items = "table_by_grade,success_by_grade"
    assert report_main([str(tmp_path / "store"), "--out", str(out), "--items", items]) == 0
    md = (out / "table_by_grade.md").read_text()
    trials, _ = load(tmp_path / "store")
    for level in set(trials.grade):
        assert f"{level} (" in md
    assert "2/2" in md or "4/4" in md  # cons/exact solves every trial
    assert (out / "success_by_grade.png").exists() and (out / "success_by_grade.pdf").exists()
    rows = (out / "table_by_grade.csv").read_text()
    assert "not recorded" not in rows


def test_a_store_from_before_grades_reports_without_them(tmp_path: Path) -> None:
    store = tmp_path / "old"
    shutil.copytree(OLD_STORE, store)
    trials, _ = load(store)
    assert "grade" not in trials  # the store predates the column
    out = tmp_path / "report"
    items = "table_by_grade,success_by_grade,table_by_puzzle"
    assert report_main([str(store), "--out", str(out), "--items", items]) == 0
    assert (out / "table_by_grade.md").read_text().startswith("No grades recorded")
    assert not (out / "success_by_grade.png").exists()  # nothing to draw: skipped
    assert (out / "table_by_puzzle.md").exists()
