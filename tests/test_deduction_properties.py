"""The deduction engine never fixes an edge against an answer.

On boards with a unique answer (Loopy's corpus on squares and on every grid type, and the
generated boards of every kind), every edge fixed at every level agrees with that answer, no
contradiction is reported, and the mode that assumes nothing never uses uniqueness. On
random boards (Hypothesis: a random loop's clues, some removed; answers may be many) the
planted loop is one answer, so every edge fixed without assuming uniqueness agrees with it,
whatever edges of it are given and whatever other loops are cut.
"""

from __future__ import annotations

import json
import random
import tempfile
from functools import cache
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from hypothesis.configuration import set_hypothesis_home_dir

from slitherbench.deduction import deduce, grade
from slitherbench.puzzles.boards import board_kinds, board_with_faces, square_board
from slitherbench.puzzles.check import check_answer
from slitherbench.puzzles.puzzle import Puzzle
from slitherbench.sources.generate import random_loop
from slitherbench.sources.library import loopy_dev, shipped

# Hypothesis keeps its examples outside the checkout.
set_hypothesis_home_dir(Path(tempfile.gettempdir()) / "slitherbench-hypothesis")

GRIDS_CORPUS = Path(__file__).resolve().parents[2] / "shared" / "corpus" / "loopy_grids_dev.jsonl"


def grid_corpus() -> list[tuple[Puzzle, list[bool]]]:
    """Loopy's puzzles on every grid type but the square (loopy_dev has those)."""
    if not GRIDS_CORPUS.exists():
        pytest.skip(f"{GRIDS_CORPUS} is missing (the project's shared/ folder beside the checkout)")
    out = []
    for line in GRIDS_CORPUS.read_text().splitlines():
        d = json.loads(line)
        if d["loopy_type"] == 0:
            continue
        p = Puzzle.parse(d["loopy_id"])
        on = set(d["solution_edges"])
        out.append((p, [e in on for e in range(p.num_edges)]))
    return out


def agrees(puzzle: Puzzle, answer, level: str, assume_unique: bool = False, **kw) -> None:
    found = deduce(puzzle, level, assume_unique=assume_unique, **kw)
    name = puzzle.name or puzzle.board.label
    assert found.contradiction is None, f"{name} at {level}: {found.contradiction}"
    wrong = [e for e, v in enumerate(found.edges) if v != -1 and v != int(answer[e])]
    assert not wrong, f"{name} at {level}: edges {wrong[:5]} fixed against the answer"
    if not assume_unique:
        assert not found.used_uniqueness
    inside = puzzle.board.inside(answer)
    assert all(v == -1 or v == int(inside[f]) for f, v in enumerate(found.faces)), name
    if found.solved:
        assert not check_answer(puzzle, [v == 1 for v in found.edges])


SQUARES = loopy_dev()  # packaged with the library: always here


def test_corpus_squares_at_the_rules_level() -> None:
    for p in SQUARES:
        agrees(p, p.meta["answer"], "rules")
        agrees(p, p.meta["answer"], "rules", assume_unique=True)


def test_corpus_squares_up_to_10x10_at_lookahead1() -> None:
    for p in SQUARES:
        if p.rows * p.cols <= 100:
            agrees(p, p.meta["answer"], "lookahead1")


@pytest.mark.slow
@pytest.mark.parametrize("level", ["lookahead1", "lookahead2"])
@pytest.mark.parametrize("assume_unique", [False, True])
def test_corpus_squares_at_every_level(level: str, assume_unique: bool) -> None:
    for p in SQUARES:
        agrees(p, p.meta["answer"], level, assume_unique)


def test_corpus_grids_at_the_rules_level() -> None:
    for p, answer in grid_corpus():
        agrees(p, answer, "rules")


@pytest.mark.slow
@pytest.mark.parametrize("level", ["lookahead1", "lookahead2"])
def test_corpus_grids_at_every_level(level: str) -> None:
    for p, answer in grid_corpus():
        agrees(p, answer, level)
        agrees(p, answer, level, assume_unique=True)


def test_generated_boards_of_every_kind_at_lookahead1() -> None:
    boards = shipped("grids")
    assert len({p.board.kind for p in boards}) == 16
    for p in boards:
        if p.num_edges <= 130:
            agrees(p, p.meta["answer"], "lookahead1")


@pytest.mark.slow
def test_generated_boards_of_every_kind_at_lookahead2() -> None:
    for p in shipped("grids"):
        agrees(p, p.meta["answer"], "lookahead2")


def test_fixed_edges_of_the_answer_and_cuts_of_other_loops() -> None:
    """Given part of the answer and cuts of other loops, the engine still agrees with it."""
    rng = random.Random(7)
    for p in [q for q in SQUARES if q.rows * q.cols <= 49]:
        answer = p.meta["answer"]
        given_edges = {e: int(answer[e]) for e in rng.sample(range(p.num_edges), 10)}
        others = [random_loop(p.board, rng) for _ in range(3)]
        cuts = [[e for e, x in enumerate(lp) if x] for lp in others if lp != list(answer)]
        agrees(p, answer, "lookahead1", fixed=given_edges, cuts=cuts)


def test_grades_of_the_corpus_squares_up_to_7x7() -> None:
    """Rules solve Loopy's Easy and Normal boards; the engine never grades by uniqueness."""
    for p in SQUARES:
        if p.rows * p.cols > 49:
            continue
        g = grade(p)
        if p.meta["difficulty"] in ("Easy", "Normal"):
            assert g.level == "rules", p.name
        assert g.level in ("rules", "lookahead1", "lookahead2", "beyond")
        assert g.shares["rules"] <= g.shares["lookahead1"] <= g.shares["lookahead2"]


# -- random boards --------------------------------------------------------------------------
@cache
def small_board(kind: str):
    """A board of ``kind`` with about 12 faces (every kind the package knows)."""
    return board_with_faces(kind, 12)


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(
    kind=st.sampled_from(board_kinds()),
    seed=st.integers(0, 10**6),
    keep=st.floats(0.2, 1.0),
    level=st.sampled_from(["rules", "lookahead1", "lookahead2"]),
)
def test_random_planted_loop_is_never_contradicted(
    kind: str, seed: int, keep: float, level: str
) -> None:
    b = small_board(kind)
    rng = random.Random(seed)
    answer = random_loop(b, rng)
    clues = [
        sum(answer[e] for e in sides) if rng.random() < keep else None for sides in b.face_edges
    ]
    p = Puzzle.on_board(b, clues)
    cuts = []
    other = random_loop(b, rng)
    if other != answer:
        cuts.append([e for e, x in enumerate(other) if x])
    given_edges = {e: int(answer[e]) for e in range(b.num_edges) if rng.random() < 0.1}
    agrees(p, answer, level, fixed=given_edges, cuts=cuts)


@settings(max_examples=15, deadline=None)
@given(seed=st.integers(0, 10**6), keep=st.floats(0.3, 1.0))
def test_random_no_square_boards_keep_their_planted_loop(seed: int, keep: float) -> None:
    b = square_board(4, 4)
    rng = random.Random(seed)
    answer = random_loop(b, rng, 0.5, rules=("no_square",))
    clues = [
        sum(answer[e] for e in sides) if rng.random() < keep else None for sides in b.face_edges
    ]
    p = Puzzle.on_board(b, clues, rules=("no_square",))
    agrees(p, answer, "lookahead1")
