"""Property-based tests (Hypothesis) where the exhaustive enumerations stop: random
small boards of every grid type with random clue sets and random edge sets or colourings,
"energy 0 <=> feasible" in every form and variables; parser round trips of random puzzles in
every format, rules included.

The example counts are kept small (the suite's time budget) and the runs derandomised, so a
failure reproduces; each test prints the falsifying board, clues and assignment.
"""

from __future__ import annotations

import tempfile
from functools import cache
from pathlib import Path

import pytest
from hypothesis import HealthCheck, assume, given, settings
from hypothesis import strategies as st
from hypothesis.configuration import set_hypothesis_home_dir

from slitherbench.models.formulations import (
    ConsFormulation,
    FormUnavailable,
    HuboFormulation,
    Model,
    QuboFormulation,
)
from slitherbench.puzzles import formats
from slitherbench.puzzles.boards import board_with_faces
from slitherbench.puzzles.boards.loopy import grid_types
from slitherbench.puzzles.check import rule_problems, split_loops
from slitherbench.puzzles.puzzle import Puzzle

FORMS = {
    "cons": ConsFormulation,
    "hubo[aux]": HuboFormulation,
    "hubo[exact]": lambda **kw: HuboFormulation(degree_mode="exact", **kw),
    "qubo": QuboFormulation,
}
KINDS = sorted(t.kind for t in grid_types().values())
# No example database, and Hypothesis's own cache in the temporary directory: tests write
# nothing into the checkout (a failure reproduces anyway, the runs being derandomised).
set_hypothesis_home_dir(Path(tempfile.gettempdir()) / "slitherbench-hypothesis")
SETTINGS = settings(
    max_examples=25,
    deadline=None,
    derandomize=True,
    database=None,
    suppress_health_check=[HealthCheck.too_slow],
)


@cache
def _board(kind: str, faces: int):
    return board_with_faces(kind, faces, seed=1)


def _clue(board, count: int) -> int | None:
    """A clue as the formats take it: a square's 4 (a lone cell) is never written."""
    return None if board.kind == "square" and count > 3 else count


def feasible(p: Puzzle, edges: list[bool]) -> bool:
    """Degrees 0 or 2, every clue's count, the puzzle's rules: counted from the board here."""
    if any(sum(edges[e] for e in pe) not in (0, 2) for pe in p.point_edges):
        return False
    if any(sum(edges[e] for e in p.face_edges[f]) != n for f, n in p.clue_faces):
        return False
    return not rule_problems(p, edges)


@st.composite
def boards_and_assignments(draw):
    """A small board of any grid type (square ones sometimes under No-Square), clues read
    off one random colouring on a random subset of faces (so at least that colouring fits),
    and an edge set: that colouring's border (feasible unless a rule or a degree-4 point
    breaks it), the same with one edge flipped (a near miss), the border of another random
    colouring, or random edges."""
    kind = draw(st.one_of(st.just("square"), st.sampled_from(KINDS)))  # squares: No-Square
    board = _board(kind, draw(st.sampled_from((4, 6, 9))))
    F = board.num_faces
    truth = draw(st.lists(st.booleans(), min_size=F, max_size=F))
    if kind == "square" and draw(st.booleans()):  # one rectangle: a loop No-Square may break
        H, W = board.height, board.width
        r0, r1 = sorted(draw(st.lists(st.integers(0, H - 1), min_size=2, max_size=2)))
        c0, c1 = sorted(draw(st.lists(st.integers(0, W - 1), min_size=2, max_size=2)))
        truth = [r0 <= f // W <= r1 and c0 <= f % W <= c1 for f in range(F)]
    shown = draw(st.lists(st.booleans(), min_size=F, max_size=F))
    edges_true = board.boundary(truth)
    clues = [
        _clue(board, sum(edges_true[e] for e in board.face_edges[f])) if show else None
        for f, show in enumerate(shown)
    ]
    rules = ("no_square",) if kind == "square" and draw(st.booleans()) else ()
    p = Puzzle.on_board(board, clues, rules=rules)
    how = draw(st.sampled_from(("truth", "truth, one edge flipped", "colouring", "random")))
    if how == "colouring":
        edges = board.boundary(draw(st.lists(st.booleans(), min_size=F, max_size=F)))
    elif how == "random":
        edges = draw(st.lists(st.booleans(), min_size=board.num_edges, max_size=board.num_edges))
    else:  # the clues' own colouring, or a near miss: two points of degree 1 or 3
        edges = list(edges_true)
        if how != "truth":
            flip = draw(st.integers(0, board.num_edges - 1))
            edges[flip] = not edges[flip]
    return p, [bool(x) for x in edges]


@pytest.mark.parametrize(
    ("form", "variables"),
    [
        (f, v) if (f, v) == ("cons", "edge") else pytest.param(f, v, marks=pytest.mark.slow)
        for f in sorted(FORMS)
        for v in ("edge", "face")
    ],
)
@SETTINGS
@given(case=boards_and_assignments())
def test_energy_zero_exactly_when_feasible_on_random_boards(case, form, variables) -> None:
    """At an edge set, the model's energy with its auxiliaries completed (``Model.complete``:
    the hints' choice, the minimum) is 0 exactly when the independent judge calls it
    feasible. Face variables hold only even-degree edge sets (borders of colourings)."""
    p, edges = case
    even = all(sum(edges[e] for e in pe) % 2 == 0 for pe in p.point_edges)
    assume(variables == "edge" or even)
    try:
        model = Model.build(p, FORMS[form](variables=variables))
    except FormUnavailable:  # qubo/face on a board with points of 7+ faces: said elsewhere
        assume(False)
    sample = model.complete(edges)
    assert model.edges_of(sample) == edges
    energy = model.energy(sample)
    assert energy >= 0
    assert (energy == 0) == feasible(p, edges), (p.board.label, p.clues, p.rules, edges)


@st.composite
def separate_cells(draw):
    """A board of any grid type whose answer-to-be is several loops, each round one face,
    no two sharing a point (so every degree is 0 or 2), with clues read off it on a random
    subset of faces: a feasible multi-loop sample, as the runner meets before its cuts."""
    kind = draw(st.sampled_from(KINDS))
    board = _board(kind, draw(st.sampled_from((6, 9, 16))))
    order = draw(st.permutations(range(board.num_faces)))
    used: set[int] = set()
    chosen = []
    for f in order[: draw(st.integers(1, 4))]:
        points = {q for e in board.face_edges[f] for q in board.edge_points[e]}
        if not points & used:
            chosen.append(f)
            used |= points
    edges = board.boundary([f in chosen for f in range(board.num_faces)])
    shown = draw(st.lists(st.booleans(), min_size=board.num_faces, max_size=board.num_faces))
    clues = [
        _clue(board, sum(edges[e] for e in board.face_edges[f])) if show else None
        for f, show in enumerate(shown)
    ]
    return Puzzle.on_board(board, clues), [bool(x) for x in edges]


@pytest.mark.slow  # 0.3-2 s: in the full suite; the energy property above stays fast
@SETTINGS
@given(
    case=separate_cells(),
    form=st.sampled_from(sorted(FORMS)),
    variables=st.sampled_from(("edge", "face")),
)
def test_a_cut_forbids_its_loop_and_keeps_the_rest(case, form, variables) -> None:
    """A feasible multi-loop sample has energy 0; after one of its loops is cut, >= 1, while
    the sample without that loop keeps energy 0 wherever it still fits the clues."""
    p, edges = case
    assert feasible(p, edges)
    try:
        model = Model.build(p, FORMS[form](variables=variables))
    except FormUnavailable:
        assume(False)
    assert model.energy(model.complete(edges)) == 0
    loop = split_loops(p, edges)[0]
    model.add_cut(loop)
    assert model.energy(model.complete(edges)) >= 1
    rest = [x and e not in loop for e, x in enumerate(edges)]
    if feasible(p, rest):
        assert model.energy(model.complete(rest)) == 0


@st.composite
def square_puzzles(draw):
    rows = draw(st.integers(1, 6))
    cols = draw(st.integers(1, 6))
    cells = draw(
        st.lists(st.sampled_from([None, 0, 1, 2, 3]), min_size=rows * cols, max_size=rows * cols)
    )
    text = "/".join(
        "".join("." if n is None else str(n) for n in cells[r * cols : (r + 1) * cols])
        for r in range(rows)
    )
    rules = draw(st.sampled_from(["", "rules=no_square;"]))
    return Puzzle.parse(rules + text)


@settings(max_examples=40, deadline=None, derandomize=True, database=None)
@given(p=square_puzzles(), fmt=st.sampled_from(sorted(formats.WRITERS)))
def test_every_format_round_trips_random_square_puzzles(p: Puzzle, fmt: str) -> None:
    text = formats.WRITERS[fmt](p)
    assert formats.detect_format(text.split(";")[-1]) == fmt or p.rules
    q = Puzzle.parse(text)
    assert q == p and q.rules == p.rules and q.clues == p.clues
    assert formats.WRITERS[fmt](q) == text


@settings(max_examples=20, deadline=None, derandomize=True, database=None)
@given(kind=st.sampled_from(KINDS), faces=st.sampled_from((4, 9, 16)), data=st.data())
def test_loopy_ids_round_trip_random_clues_on_every_grid_type(kind, faces, data) -> None:
    board = _board(kind, faces)
    clues = data.draw(
        st.lists(
            st.one_of(st.none(), st.integers(0, 3)),
            min_size=board.num_faces,
            max_size=board.num_faces,
        )
    )
    clues = [None if n is None else min(n, len(board.face_edges[f])) for f, n in enumerate(clues)]
    p = Puzzle.on_board(board, clues)
    text = formats.write_loopy(p)
    q = Puzzle.parse(text)
    assert q == p and q.board.kind == board.kind
    assert formats.write_loopy(q) == text
