"""Colorlink's own model: the checker on hand-built answers, the text format and its errors,
the generator (unique by an enumeration that shares no code with the harness, crossing
colours where asked). Solving is the harness's: tests/test_colorlink_harness.py."""

from __future__ import annotations

from functools import cache
from itertools import product

import numpy as np
import pytest

from slitherbench.puzzles.boards import Board, square_board
from slitherbench.puzzles.colorlink import (
    BLACK,
    ColorAnswer,
    ColorlinkError,
    ColorPuzzle,
    check_colorlink,
    read_colorlink,
    write_colorlink,
)
from slitherbench.puzzles.colorlink.check import components
from slitherbench.sources.colorlink import crossings, generate_colorlink

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
    for cross in (False, True):
        g = generate_colorlink(3, 4, 3, 0, cross=cross)
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
    from slitherbench.puzzles.boards import loopy_board

    tri = loopy_board("triangular", 3, 3)
    clues = [None] * tri.num_faces
    clues[0] = "4r"
    with pytest.raises(ColorlinkError, match="clue 4 at face 0 is larger than its 3 sides"):
        ColorPuzzle(tri, tuple(clues))


# -- generated puzzles: unique, crossing where asked -----------------------------------------
@cache
def single_loops(board: Board) -> np.ndarray:
    """Every single loop on a small square board, one row of edge flags each: on a square
    board every simple loop is the boundary of the faces it encloses, so the boundaries of
    all face sets that are one loop are all of them (and each once)."""
    F, E = board.num_faces, board.num_edges
    assert F <= 16
    sets = np.array(list(product((0, 1), repeat=F)), dtype=np.int64)[1:]
    incidence = np.zeros((F, E), dtype=np.int64)
    for f, sides in enumerate(board.face_edges):
        incidence[f, list(sides)] = 1
    layers = (sets @ incidence) % 2
    degree = np.zeros((E, board.num_points), dtype=np.int64)
    for e, (a, b) in enumerate(board.edge_points):
        degree[e, [a, b]] = 1
    ok = np.isin(layers @ degree, (0, 2)).all(axis=1)
    return np.array([x for x in layers[ok] if components(board, x.tolist()) == 1], dtype=bool)


def all_answers(puzzle: ColorPuzzle) -> list[ColorAnswer]:
    """Every answer: per colour the loops that hold its clues, combined colour by colour where
    they share no edge and keep under every black clue, then judged by the checker (no
    solver, no encoding: independent of the generator's SAT judge)."""
    board = puzzle.board
    loops = single_loops(board)
    black = puzzle.clue_faces(BLACK)
    sides = np.zeros((board.num_edges, len(black)), dtype=np.int64)
    for j, (f, _) in enumerate(black):
        sides[list(board.face_edges[f]), j] = 1
    limit = np.array([n for _, n in black], dtype=np.int64)
    chosen = np.zeros((1, 0), dtype=np.int64)  # per partial answer, its loop of each colour
    used = np.zeros((1, board.num_edges), dtype=bool)
    for c in puzzle.colours:
        keep = np.ones(len(loops), dtype=bool)
        for f, n in puzzle.clue_faces(c):
            keep &= loops[:, list(board.face_edges[f])].sum(axis=1) == n
        options = np.flatnonzero(keep)
        pairs = np.argwhere(used.astype(np.int64) @ loops[options].T.astype(np.int64) == 0)
        used = used[pairs[:, 0]] | loops[options[pairs[:, 1]]]
        chosen = np.column_stack([chosen[pairs[:, 0]], options[pairs[:, 1]]])
        under = ((used.astype(np.int64) @ sides) <= limit).all(axis=1)
        used, chosen = used[under], chosen[under]
    found = []
    for row in chosen:
        layers = {c: loops[i].tolist() for c, i in zip(puzzle.colours, row, strict=True)}
        if not check_colorlink(puzzle, layers):
            found.append(ColorAnswer.from_layers(layers, board.num_edges))
    return found


def test_the_enumeration_finds_every_loop() -> None:
    assert len(single_loops(square_board(2, 2))) == 13  # the 3x3 grid graph's cycles
    assert len(single_loops(square_board(3, 3))) == 213


@pytest.mark.parametrize(
    ("seed", "cross"),
    [
        pytest.param(0, False, marks=pytest.mark.slow),
        pytest.param(1, False, marks=pytest.mark.slow),
        (0, True),
        (1, True),
    ],
)
def test_generated_puzzles_have_exactly_one_answer(seed: int, cross: bool) -> None:
    p = generate_colorlink(4, 4, 2, seed, cross=cross)
    assert len(p.colours) == 2
    assert all_answers(p) == [p.meta["answer"]]
    assert generate_colorlink(4, 4, 2, seed, cross=cross) == p  # same arguments, same puzzle
    if cross:
        assert crossings(p.board, p.meta["answer"])


def test_the_plain_generator_draws_the_puzzles_it_always_drew() -> None:
    """``cross=False`` draws what the generator drew when it judged uniqueness with a SAT
    model of its own (the puzzles of the stored runs in docs/findings/colorlink.md)."""
    assert write_colorlink(generate_colorlink(4, 4, 2, 0)) == "..3g./1r.../1k2r../3r.3k."
    assert write_colorlink(generate_colorlink(3, 3, 2, 1)) == "3r../.3r1g/.1k."


@pytest.mark.parametrize(
    ("rows", "cols", "colours"), [(3, 3, 2), pytest.param(5, 5, 3, marks=pytest.mark.slow)]
)
def test_crossing_puzzles_are_unique_and_checked(rows: int, cols: int, colours: int) -> None:
    """Every crossing puzzle's answer passes the checker and has colours that cross; the
    3x3 ones are unique by enumeration (the 5x5 ones: by the generator's SAT judge)."""
    for seed in range(2):
        p = generate_colorlink(rows, cols, colours, seed, cross=True)
        a = p.meta["answer"]
        assert check_colorlink(p, a) == [] and crossings(p.board, a)
        assert p.name.endswith("-cross") and len(p.colours) == colours
        if rows * cols <= 16:
            assert all_answers(p) == [a]


def test_crossings_tell_a_crossing_from_a_touch() -> None:
    # red: the middle row of a 3x3, green: its middle column; four crossing points
    crossing = answer(3, 3, r=[(1, 0), (1, 1), (1, 2)], g=[(0, 1), (1, 1), (2, 1)])
    board = square_board(3, 3)
    assert crossings(board, crossing) == [5, 6, 9, 10]  # the inner points, row-major over 4x4
    touching = answer(2, 2, r=[(0, 0)], g=[(1, 1)])  # corners meet at the middle point
    assert crossings(square_board(2, 2), touching) == []
    # the checker takes both: loops may cross or touch, an edge carries one colour
    p = ColorPuzzle.square([[None, "3g", None], ["3r", "4k", "3r"], [None, "3g", None]])
    assert check_colorlink(p, crossing) == []
    assert all_answers(p) == [crossing]


def test_crossing_needs_two_colours() -> None:
    with pytest.raises(ColorlinkError, match="colours cross only with 2 colours or more"):
        generate_colorlink(3, 3, 1, 0, cross=True)
