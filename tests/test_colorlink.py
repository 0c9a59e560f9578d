"""Colorlink: the checker on hand-built answers, the text format and its errors, generated
puzzles unique by enumeration, the SAT and annealing paths of the iterative method (edge and
face variables, the face HUBO exhaustively on 2x2 and 2x3 boards), the CLI."""

from __future__ import annotations

import random
import subprocess
import sys
from pathlib import Path

import pytest

from slitherbench.boards import square_board
from slitherbench.colorlink import (
    ColorAnswer,
    ColorlinkError,
    ColorPuzzle,
    check_colorlink,
    generate_colorlink,
    read_colorlink,
    solve_colorlink,
    write_colorlink,
)
from slitherbench.colorlink.anneal import QuboModel
from slitherbench.colorlink.check import components
from slitherbench.colorlink.cli import main as cli_main
from slitherbench.colorlink.constraints import Row, base_rows, layers_of, num_variables
from slitherbench.colorlink.faces import FaceModel
from slitherbench.colorlink.sat import SatModel

pytest.importorskip("pysat")


def square_loop(rows: int, cols: int, cells: list[tuple[int, int]]) -> list[bool]:
    """The boundary of a set of cells on a rows x cols board."""
    board = square_board(rows, cols)
    inside = [False] * board.num_faces
    for i, j in cells:
        inside[i * cols + j] = True
    return board.boundary(inside)


def answer(rows: int, cols: int, **cells: list[tuple[int, int]]) -> ColorAnswer:
    layers = {c: square_loop(rows, cols, cs) for c, cs in cells.items()}
    return ColorAnswer.from_layers(layers, square_board(rows, cols).num_edges)


# -- the checker ---------------------------------------------------------------------------
def test_a_valid_answer_passes_with_loops_touching_at_a_point() -> None:
    p = read_colorlink("4r2k/.4g")
    assert check_colorlink(p, answer(2, 2, r=[(0, 0)], g=[(1, 1)])) == []


def test_a_black_clue_counts_every_colour() -> None:
    a = answer(2, 2, r=[(0, 0)], g=[(1, 1)])  # cell (0,1): one red side, one green side
    assert check_colorlink(read_colorlink("4r2k/.4g"), a) == []
    assert check_colorlink(read_colorlink("4r1k/.4g"), a) == [
        "row 1, column 2: 2 sides on lines of any colour, clue 1k"
    ]
    assert check_colorlink(read_colorlink("4r2r/.4g"), a) == [
        "row 1, column 2: 1 sides in colour r, clue 2r"
    ]


def test_one_colour_with_two_loops_is_refused() -> None:
    p = read_colorlink("4r../.4g./..4r")
    a = answer(3, 3, r=[(0, 0), (2, 2)], g=[(1, 1)])
    assert check_colorlink(p, a) == ["colour r has 2 separate loops or paths"]


def test_an_edge_of_two_colours_is_refused() -> None:
    p = read_colorlink("4r4g")
    layers = {"r": square_loop(1, 2, [(0, 0)]), "g": square_loop(1, 2, [(0, 1)])}
    problems = check_colorlink(p, layers)
    assert problems == ["edge 5 (point (1,2)-point (2,2)) carries 2 colours: r g"]
    with pytest.raises(ColorlinkError, match="edge 5 carries two colours"):
        ColorAnswer.from_layers(layers, 7)


def test_degrees_missing_loops_and_unnamed_colours_are_reported() -> None:
    p = read_colorlink("4r./.4g")
    a = answer(2, 2, r=[(0, 0)], b=[(1, 1)])
    assert check_colorlink(p, a) == [
        "colour b has lines but no clue names it",
        "row 2, column 2: 0 sides in colour g, clue 4g",
        "colour g has no loop",
    ]
    path = [e == 0 for e in range(p.board.num_edges)]
    problems = check_colorlink(p, {"r": path, "g": square_loop(2, 2, [(1, 1)])})
    assert "point (1,1) has degree 1 in colour r" in problems
    assert components(p.board, path) == 1


# -- the text format ---------------------------------------------------------------------
def test_the_format_round_trips() -> None:
    text = "2r . .\n. 3k .\n. . 1g"
    p = read_colorlink(text)
    assert p.colours == ("r", "g") and write_colorlink(p) == "2r../.3k./..1g"
    assert read_colorlink(write_colorlink(p)) == p
    assert read_colorlink(write_colorlink(p, spaced=True)) == p
    assert read_colorlink("# a comment\n2r..\n\n.3k.\n..1g\n") == p
    for seed in range(2):
        g = generate_colorlink(3, 4, 3, seed)
        assert read_colorlink(write_colorlink(g)) == g
        assert read_colorlink(write_colorlink(g, spaced=True)) == g


@pytest.mark.parametrize(
    ("text", "message"),
    [
        ("2r../1g.2x", "unknown colour 'x' at row 2, column 3; colours: r g b y m c k"),
        ("2r../1g.5b", "clue 5 at row 2, column 3 is larger than its cell's 4 sides"),
        ("2r1", "clue 1 at row 1, column 2 has no colour; write 1r, 1g, ... or 1k for black"),
        ("2r./1g", "row 2 has 1 cells, row 1 has 2 (ragged rows)"),
        ("2k./..", "a Colorlink puzzle needs at least one coloured (not black) clue"),
        ("", "empty puzzle text"),
    ],
)
def test_bad_text_is_one_line_naming_the_place(text: str, message: str) -> None:
    with pytest.raises(ColorlinkError) as got:
        read_colorlink(text)
    assert str(got.value) == message


def test_a_clue_larger_than_its_face_on_any_board() -> None:
    from slitherbench.boards import loopy_board

    tri = loopy_board("triangular", 3, 3)
    clues = [None] * tri.num_faces
    clues[0] = "4r"
    with pytest.raises(ColorlinkError, match="clue 4 at face 0 is larger than its 3 sides"):
        ColorPuzzle(tri, tuple(clues))


# -- generated puzzles: unique, and solved -------------------------------------------------
def all_answers(puzzle: ColorPuzzle, limit: int = 20000) -> list[ColorAnswer]:
    """Every answer, by enumerating every solution of the rows (each blocked once found)."""
    found = []
    n = num_variables(puzzle)
    with SatModel(n, base_rows(puzzle)) as model:
        for _ in range(limit):
            got, x = model.solve(30.0)
            if x is None:
                assert got == "infeasible"
                return found
            layers = layers_of(puzzle, x)
            if not check_colorlink(puzzle, layers):
                found.append(ColorAnswer.from_layers(layers, puzzle.board.num_edges))
            model.add_clause([-(v + 1) if on else v + 1 for v, on in enumerate(x)])
    raise AssertionError(f"more than {limit} solutions of the rows")


@pytest.mark.parametrize("seed", [0, 1])
def test_generated_puzzles_have_exactly_one_answer(seed: int) -> None:
    p = generate_colorlink(4, 4, 2, seed)
    assert len(p.colours) == 2
    assert all_answers(p) == [p.meta["answer"]]
    assert generate_colorlink(4, 4, 2, seed) == p  # same arguments, same puzzle


@pytest.mark.parametrize(("rows", "cols", "colours"), [(3, 3, 2), (5, 5, 2), (5, 5, 3)])
def test_sat_solves_generated_puzzles(rows: int, cols: int, colours: int) -> None:
    for seed in range(2):
        p = generate_colorlink(rows, cols, colours, seed)
        r = solve_colorlink(p, "sat", time_limit_s=10)
        assert r.status == "solved" and r.answer == p.meta["answer"]
        assert check_colorlink(p, r.answer) == []
        assert r.iterations == len(r.loops) and r.iterations >= 1


def test_sat_reports_a_colour_whose_clues_cannot_form_a_loop() -> None:
    r = solve_colorlink(read_colorlink("3r3r1g/3r3r1g"), "sat")
    assert r.status == "infeasible" and r.reason == "colour r: its clues cannot form one loop"
    r = solve_colorlink(read_colorlink("2r2r./2r2r./..3g"), "sat")
    assert r.status == "infeasible" and "cannot share the board" in r.reason


def test_the_qubo_is_zero_exactly_where_every_row_holds() -> None:
    p = generate_colorlink(3, 3, 2, 0)
    model = QuboModel(num_variables(p), base_rows(p))
    truth = [c is not None and c == col for col in p.colours for c in p.meta["answer"].edges]
    assert model.bqm.energy(model.full_state(truth)) == 0 and model.holds(truth)
    rng = random.Random(0)
    for _ in range(300):
        x = [rng.random() < 0.3 for _ in range(model.num_vars)]
        state = model.full_state(x)
        e = model.bqm.energy(state)
        assert e >= 0 and (e == 0) == model.holds(x)
        noisy = {v: rng.randrange(2) if v >= model.num_vars else s for v, s in state.items()}
        assert model.bqm.energy(noisy) >= e  # the filled auxiliaries are the best ones


@pytest.mark.parametrize(("rows", "cols"), [(3, 3), (4, 4)])
def test_simulated_annealing_solves_a_small_generated_puzzle(rows: int, cols: int) -> None:
    p = generate_colorlink(rows, cols, 2, 2)
    solved = []
    for seed in range(3):  # a sampler: one success of three fixed seeds is the claim
        r = solve_colorlink(p, "sa", seed=seed, time_limit_s=3, num_sweeps=1000)
        if r.status == "solved":
            assert check_colorlink(p, r.answer) == [] and r.answer == p.meta["answer"]
            solved.append(seed)
            break
    assert solved


@pytest.mark.slow
def test_simulated_annealing_on_5x5_two_colours() -> None:
    ok = 0
    for s in range(3):
        p = generate_colorlink(5, 5, 2, s)
        r = solve_colorlink(p, "sa", seed=0, time_limit_s=30)
        ok += r.status == "solved" and not check_colorlink(p, r.answer)
    assert ok >= 2


# -- face variables per colour -------------------------------------------------------------
def min_energies(model: FaceModel) -> list[int]:
    """The face HUBO's energy at every face assignment, every auxiliary minimised out
    (bit i of an assignment index is label i: faces first, auxiliaries after)."""
    import numpy as np

    n = model.num_labels
    assert n <= 20
    index = np.arange(2**n)
    energy = np.zeros(2**n, dtype=np.int64)
    for term, a in model.poly.items():
        mask = sum(1 << lb for lb in term)
        energy += a * ((index & mask) == mask)
    return energy.reshape(2 ** (n - model.num_faces), 2**model.num_faces).min(axis=0).tolist()


FACE_CASES = [  # (puzzle, degree rule, cut: a colour's loops around these cells, zero states)
    ("4r2k/.4g", "ban", None, 1),  # red and green loops that cross at the middle point
    ("4r2k/.4g", "gadget", None, 1),
    ("3r2k./.1g3g", "ban", None, 1),
    (".2r./2k4g.", "ban", None, 1),  # red: two loops, cells (1,1) and (1,3)
    (".2r./2k4g.", "gadget", ("r", [(0, 0)]), 0),  # a cut of one loop: two face patterns
    (".2r./2k4g.", "ban", ("r", [(0, 0), (0, 2)]), 0),  # of two loops: the XOR sum by a slack
]


@pytest.mark.parametrize(("text", "degree", "cut", "zeros"), FACE_CASES)
def test_the_face_hubo_is_zero_exactly_where_every_row_holds(
    text: str, degree: str, cut: tuple | None, zeros: int
) -> None:
    """Every face assignment of both colours: energy 0 exactly when the decoded edges hold
    every row (clues, black clues, degrees, exclusivity, the cut)."""
    p = read_colorlink(text)
    E, (rows_n, cols_n) = p.board.num_edges, (p.board.height, p.board.width)
    rows = base_rows(p)
    if cut is not None:
        colour, cells = cut
        k = p.colours.index(colour)
        loop = [e for e, on in enumerate(square_loop(rows_n, cols_n, cells)) if on]
        rows.append(Row("cut", tuple(k * E + e for e in loop), tuple(range(len(loop))), colour))
    model = FaceModel(p, rows, degree=degree)
    assert model.max_degree() == 4 and model.num_faces == 2 * p.board.num_faces
    energies = min_energies(model)
    for i, e in enumerate(energies):
        faces = {v: (i >> v) & 1 for v in range(model.num_faces)}
        assert e >= 0 and (e == 0) == (model.broken(model.edges_of(faces)) == 0), (i, e)
        if i % 7 == 0:  # the filled auxiliaries are the best ones
            assert model.energy(model.full_state(faces)) == e
    assert energies.count(0) == zeros


def test_face_clue_penalties_are_quadratic_and_black_ones_quartic() -> None:
    p = read_colorlink("3r2k./.1g3g")
    assert FaceModel(p, [r for r in base_rows(p) if r.kind == "clue"]).max_degree() == 2
    assert FaceModel(p, [r for r in base_rows(p) if r.kind == "black"]).max_degree() == 4


@pytest.mark.parametrize(("rows", "cols"), [(3, 3), (4, 4)])
def test_openjij_solves_a_small_generated_puzzle_on_face_variables(rows: int, cols: int) -> None:
    pytest.importorskip("openjij")
    p = generate_colorlink(rows, cols, 2, 2)
    for seed in range(3):  # a sampler: one success of three fixed seeds is the claim
        r = solve_colorlink(p, "sa", seed=seed, time_limit_s=3, variables="face")
        if r.status == "solved":
            assert check_colorlink(p, r.answer) == [] and r.answer == p.meta["answer"]
            break
    else:
        raise AssertionError("no seed solved")


def test_face_variables_are_for_the_annealer_only() -> None:
    with pytest.raises(ValueError, match="face variables are for the annealing path"):
        solve_colorlink(read_colorlink("4r4g"), "sat", variables="face")
    with pytest.raises(ValueError, match="unknown variables 'point'"):
        solve_colorlink(read_colorlink("4r4g"), "sa", variables="point")


# -- the command line ----------------------------------------------------------------------
def test_cli_generates_text_that_solves(tmp_path: Path, capsys: pytest.CaptureFixture) -> None:
    assert cli_main(["generate", "4x4", "--colours", "2", "--seed", "1"]) == 0
    text = capsys.readouterr().out.strip()
    assert read_colorlink(text) == generate_colorlink(4, 4, 2, 1)
    figure = tmp_path / "out.png"
    assert cli_main(["solve", text, "--figure", str(figure)]) == 0
    assert capsys.readouterr().out.startswith("solved: ") and figure.stat().st_size > 1000


@pytest.mark.parametrize(
    ("argv", "message"),
    [
        (["solve", "3r3r1g/3r3r1g"], "error: the puzzle has no answer: colour r: its clues"),
        (["solve", "2r../1g.2x"], "error: unknown colour 'x' at row 2, column 3"),
        (["solve", "missing.txt"], "error: no such file: missing.txt"),
        (["generate", "5"], "error: size '5' is not ROWSxCOLS"),
        (["solve", "4r4g", "--method", "qa"], "error: argument --method: invalid choice"),
        (["solve", "4r4g", "--variables", "face"], "error: --variables face needs --method sa"),
    ],
)
def test_cli_errors_are_one_line_exit_2_and_write_nothing(
    tmp_path: Path, capsys: pytest.CaptureFixture, argv: list[str], message: str
) -> None:
    figure = tmp_path / "never.png"
    assert cli_main([*argv, "--figure", str(figure)] if argv[0] == "solve" else argv) == 2
    out = capsys.readouterr()
    assert out.out == "" and out.err.startswith(message) and out.err.count("\n") == 1
    assert not figure.exists()


def test_python_dash_m_runs_the_cli() -> None:
    r = subprocess.run(
        [sys.executable, "-m", "slitherbench.colorlink", "generate", "3x3", "--seed", "0"],
        capture_output=True,
        text=True,
        timeout=60,
        check=False,
    )
    assert r.returncode == 0 and read_colorlink(r.stdout) == generate_colorlink(3, 3, 2, 0)
