"""Generated boards of a requested deduction grade (``puzzle.min_grade``): their grade is the
one asked for, they have one answer, the same seed gives the same board, on squares and on
other Loopy grid types; bad settings are one line."""

from __future__ import annotations

import pickle

import pytest
from hydra import compose, initialize_config_dir

from slitherbench.deduction import deduce, grade
from slitherbench.method.record import ConfigError
from slitherbench.puzzles.boards import board_with_faces
from slitherbench.puzzles.check import check_answer
from slitherbench.run.plan import CONF_DIR, puzzles_from_config, run_puzzles
from slitherbench.solvers.cpsat_model import solve_exact
from slitherbench.sources import puzzle_sources
from slitherbench.sources.generate import generate, generate_graded, generate_on


def _is_graded(p, level: str) -> None:
    """The board needs ``level``, has exactly one answer (the one it was made with), and
    carries its grade."""
    assert grade(p).level == level and p.meta["grade"] == level
    assert deduce(p, level="rules").solved is False  # rules alone never settle it
    exact = solve_exact(p, time_limit_s=60)
    assert exact.status == "unique" and exact.answer == p.meta["answer"]
    assert check_answer(p, p.meta["answer"]) == []


@pytest.mark.parametrize(
    "board", [("square", 36), ("honeycomb", 25), ("cairo", 24), ("octagonal", 25)]
)
def test_a_lookahead1_board_on_each_grid_type(board) -> None:
    kind, faces = board
    p = generate_on(board_with_faces(kind, faces), 1, min_grade="lookahead1")
    _is_graded(p, "lookahead1")
    assert p.name.endswith("-lookahead1-s1")


def test_the_same_seed_gives_the_same_board_and_another_seed_another() -> None:
    a, b = generate(6, 6, 3, min_grade="lookahead1"), generate(6, 6, 3, min_grade="lookahead1")
    assert a.clues == b.clues and a.meta["answer"] == b.meta["answer"] and a.name == b.name
    assert a.meta["grade_shares"] == b.meta["grade_shares"]
    assert generate(6, 6, 4, min_grade="lookahead1").clues != a.clues
    # The plain generator's board for the seed is unchanged by the mode's existence.
    assert generate(6, 6, 3).name == "gen-6x6-s3"


def test_the_first_try_draws_the_plain_generators_answer() -> None:
    plain, graded = generate(6, 6, 2), generate(6, 6, 2, min_grade="lookahead1")
    assert graded.meta["grade_tries"] == 1 and plain.meta["answer"] == graded.meta["answer"]
    # a later try draws another answer from the same seed
    again = generate(6, 6, 3, min_grade="lookahead1")
    assert (
        again.meta["grade_tries"] == 2 and again.meta["answer"] != generate(6, 6, 3).meta["answer"]
    )


@pytest.mark.slow
@pytest.mark.parametrize(
    "board",
    [
        pytest.param(("square", 49), id="square"),
        # 10 s each on 2 cores; the shipped boards of these kinds are generated again beside
        # them in the experiments step.
        pytest.param(("honeycomb", 50), id="honeycomb", marks=pytest.mark.experiments),
        pytest.param(("cairo", 49), id="cairo", marks=pytest.mark.experiments),
    ],
)
def test_a_lookahead2_board_on_each_grid_type(board) -> None:
    kind, faces = board
    p = generate_on(board_with_faces(kind, faces), 1, min_grade="lookahead2")
    _is_graded(p, "lookahead2")
    assert deduce(p, level="lookahead1").solved is False


def test_an_unknown_grade_is_refused() -> None:
    with pytest.raises(ValueError, match="min_grade 'beyond' is not one of"):
        generate_graded(board_with_faces("square", 16), 1, (), "beyond")


def _puzzle_config(*overrides: str):
    with initialize_config_dir(config_dir=str(CONF_DIR), version_base="1.3"):
        return compose(config_name="config", overrides=["puzzle=generated", *overrides]).puzzle


def _puzzles(*overrides: str):
    return puzzles_from_config(_puzzle_config(*overrides))


def _never_made(*args, **kwargs):
    raise AssertionError("a board was made again")


def test_a_run_keeps_the_boards_it_made_and_its_later_processes_read_them(
    tmp_path, monkeypatch, capsys
) -> None:
    """A run's helper workers, sweep jobs and resumes read the boards its first process made
    (from the run directory) rather than making them again; a file cut short is made again."""
    sized = ("puzzle.rows=5", "puzzle.cols=5", "puzzle.count=2", "puzzle.min_grade=lookahead1")
    made = run_puzzles(_puzzle_config(*sized), tmp_path)
    (kept,) = tmp_path.glob("boards-*.pkl")
    monkeypatch.setattr(puzzle_sources, "generated_board", _never_made)
    again = run_puzzles(_puzzle_config(*sized), tmp_path)
    assert again == made and [p.meta for p in again] == [p.meta for p in made]
    assert f"2 boards made for this run, read from {kept}" in capsys.readouterr().err
    with pytest.raises(AssertionError, match="made again"):  # another seed: its own boards
        run_puzzles(_puzzle_config(*sized, "puzzle.seed=7"), tmp_path)
    monkeypatch.undo()
    kept.write_bytes(kept.read_bytes()[:40])
    assert run_puzzles(_puzzle_config(*sized), tmp_path) == made
    assert "is unreadable" in capsys.readouterr().err
    assert kept.read_bytes() == pickle.dumps(made)  # whole again
    with initialize_config_dir(config_dir=str(CONF_DIR), version_base="1.3"):
        tiny = compose(config_name="config", overrides=["puzzle=tiny"]).puzzle
    assert run_puzzles(tiny, tmp_path / "suite") and not (tmp_path / "suite").exists()


def test_the_puzzle_config_makes_graded_boards() -> None:
    ps = _puzzles("puzzle.rows=5", "puzzle.cols=5", "puzzle.count=2", "puzzle.seed=1",
                  "puzzle.min_grade=lookahead1")  # fmt: skip
    assert [p.name for p in ps] == ["gen-5x5-lookahead1-s1", "gen-5x5-lookahead1-s2"]
    assert all(p.meta["grade"] == "lookahead1" for p in ps)
    hexes = _puzzles("puzzle.rows=4", "puzzle.cols=4", "puzzle.count=1",
                     "puzzle.min_grade=lookahead1", "puzzle.board=honeycomb")  # fmt: skip
    assert hexes[0].board.kind == "honeycomb" and hexes[0].meta["grade"] == "lookahead1"


def test_a_run_keeps_its_colorlink_puzzles_too(tmp_path, monkeypatch, capsys) -> None:
    from slitherbench.sources import colorlink

    with initialize_config_dir(config_dir=str(CONF_DIR), version_base="1.3"):
        cfg = compose(config_name="config", overrides=["puzzle=colorlink", "puzzle.count=1"])
    made = run_puzzles(cfg.puzzle, tmp_path)
    monkeypatch.setattr(colorlink, "generated_colorlink", _never_made)
    assert run_puzzles(cfg.puzzle, tmp_path) == made
    assert "puzzle: 1 board made for this run" in capsys.readouterr().err


@pytest.mark.parametrize(
    "overrides, message",
    [
        (["puzzle.min_grade=hard"], "puzzle.min_grade: 'hard' is not one of lookahead1, lookahead2"),
        (["puzzle.board=hexagons"], "puzzle.board: unknown board kind 'hexagons'"),
        (["puzzle.board=honeycomb", "puzzle.rows=2"], "puzzle: width and height"),
        (["puzzle.board=honeycomb", "puzzle.rows=1"], "puzzle.rows=1: at least 2"),
        (["puzzle.rows=2", "puzzle.cols=2", "puzzle.min_grade=lookahead2"],
         "puzzle: no square 2x2 board of grade lookahead2 in 50 tries"),
    ],
)  # fmt: skip
def test_bad_settings_are_one_line(overrides, message) -> None:
    with pytest.raises(ConfigError) as err:
        _puzzles("puzzle.count=1", *overrides)
    assert str(err.value).startswith(message) and "\n" not in str(err.value)


def _shipped_small() -> list:
    """Every third small shipped board; a look-ahead 2 board on another grid type takes 15-17 s
    to generate again on 2 cores, so those run in the experiments step (``pytest -m
    experiments``, in .ci/run), outside the suite's 10 minutes."""
    from slitherbench.sources.library import shipped

    small = [p for p in shipped("lookahead") if p.num_faces <= 100][::3]
    return [
        pytest.param(
            p,
            id=p.name,
            marks=[pytest.mark.experiments]
            if p.meta["grade"] == "lookahead2" and p.board.kind != "square"
            else [],
        )
        for p in small
    ]


@pytest.mark.slow
@pytest.mark.parametrize("p", _shipped_small())
def test_the_shipped_lookahead_boards_are_what_the_generator_makes(p) -> None:
    """The small shipped boards again from their seeds: a change to the deduction engine that
    changes them fails here (then run experiments/make_graded_boards.py again)."""
    kind, level, seed = p.board.kind, p.meta["grade"], int(p.name.rsplit("-s", 1)[1])
    board = p.board if kind != "square" else None
    again = (
        generate(p.rows, p.cols, seed, min_grade=level)
        if board is None
        else generate_on(board, seed, min_grade=level)
    )
    assert (again.name, again.clues) == (p.name, p.clues), p.name
