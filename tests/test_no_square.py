"""No-Square Slitherlink: no 2x2 block of cells entirely inside the loop.

The rule is the puzzle's (``Puzzle.rules``): its text forms and keys carry it, the checker
judges it with its own ray casting, every exact family honours it through a face channel,
the ZDD skips it in one line, and the generator makes puzzles unique under it. Every form's
encoding of it, edge and face variables, is proved exhaustively in ``test_rule_proofs.py``;
``test_faces.py`` runs it on every backend.
"""

from __future__ import annotations

from functools import cache
from pathlib import Path

import pytest
from conftest import constraint_backends, skip_for
from omegaconf import OmegaConf

from slitherbench.method.record import ConfigError
from slitherbench.puzzles.boards import square_board
from slitherbench.puzzles.check import check_answer, loop_satisfies_clues
from slitherbench.puzzles.formats import READERS, WRITERS, parse
from slitherbench.puzzles.puzzle import Puzzle, PuzzleFormatError
from slitherbench.puzzles.rules.no_square import no_square_blocks
from slitherbench.run.plan import derive_seed, puzzle_ident, puzzles_from_config
from slitherbench.solvers.cpsat_model import solve_exact
from slitherbench.sources.generate import generate

CONF = Path(__file__).resolve().parents[1] / "conf" / "backend"
NS = ("no_square",)

# Under No-Square only the plus (the centre and its four neighbours inside) fits: the centre's
# 0 puts it and its neighbours on one side, and any other shape there either fills a 2x2
# block or misses the corner's 2. As plain Slitherlink it has 16 answers.
PLUS_ROWS = ["...", ".0.", "..2"]
PLUS_INSIDE = [0, 1, 0, 1, 1, 1, 0, 1, 0]
# The loop round the whole 2x2 board is the only plain answer, and it encloses a 2x2 block.
NO_ANSWER_ROWS = ["22", "22"]


def _outer_loop_2x2(p: Puzzle) -> list[bool]:
    """The loop round a 2x2 board, edge by edge in the page's numbering (by hand)."""
    on = {p.h(0, 0), p.h(0, 1), p.h(2, 0), p.h(2, 1), p.v(0, 0), p.v(1, 0), p.v(0, 2), p.v(1, 2)}
    return [e in on for e in range(p.num_edges)]


# -- the checker ------------------------------------------------------------------------------
def test_a_loop_that_breaks_only_the_rule_has_exactly_that_problem() -> None:
    plain = Puzzle.from_rows(NO_ANSWER_ROWS)
    ns = plain.with_rules(NS)
    loop = _outer_loop_2x2(plain)
    assert check_answer(plain, loop) == []
    assert check_answer(ns, loop) == [
        "cells (0,0)-(1,1): a 2x2 block inside the loop (rule no_square)"
    ]
    edges = [e for e, on in enumerate(loop) if on]
    assert loop_satisfies_clues(plain, edges) and not loop_satisfies_clues(ns, edges)


def test_the_checker_names_the_block_where_it_lies() -> None:
    board = square_board(3, 3)
    inside = [0, 0, 0, 0, 1, 1, 0, 1, 1]  # the bottom-right 2x2 block
    p = Puzzle.on_board(board, [None] * 9, rules=NS)
    assert check_answer(p, board.boundary(inside)) == [
        "cells (1,1)-(2,2): a 2x2 block inside the loop (rule no_square)"
    ]


@cache
def single_loops(rows: int, cols: int) -> tuple[tuple[tuple[int, ...], tuple[bool, ...]], ...]:
    """Every single loop of a rows x cols board with its inside, by brute force over regions
    (a loop is the boundary of exactly one region, its inside)."""
    board = square_board(rows, cols)
    blank = Puzzle.on_board(board, [None] * board.num_faces)
    out = []
    for bits in range(1, 2**board.num_faces):
        inside = tuple((bits >> f) & 1 for f in range(board.num_faces))
        loop = board.boundary(inside)
        if not check_answer(blank, loop):
            out.append((inside, tuple(loop)))
    return tuple(out)


def _has_block(inside: tuple[int, ...], board) -> bool:
    return any(all(inside[f] for f in block) for block in no_square_blocks(board))


def test_the_checker_agrees_with_the_regions_on_every_3x3_loop() -> None:
    board = square_board(3, 3)
    p = Puzzle.on_board(board, [None] * 9, rules=NS)
    loops = single_loops(3, 3)
    assert len(loops) == 213
    for inside, loop in loops:
        assert (check_answer(p, loop) == []) == (not _has_block(inside, board))


def test_blocks_are_every_2x2_of_a_square_board() -> None:
    assert no_square_blocks(square_board(2, 3)) == [(0, 1, 3, 4), (1, 2, 4, 5)]
    assert no_square_blocks(square_board(1, 5)) == []


# -- text forms, equality, keys -------------------------------------------------------------
@pytest.mark.parametrize("fmt", sorted(WRITERS))
def test_rules_travel_through_every_format(fmt: str) -> None:
    p = Puzzle.from_rows(PLUS_ROWS, rules=NS)
    text = WRITERS[fmt](p)
    assert text.startswith("rules=no_square")
    for read in (parse, READERS[fmt]):
        back = read(text)
        assert back == p and back.rules == NS
    plain = WRITERS[fmt](p.with_rules(()))
    assert not plain.startswith("rules=") and parse(plain).rules == ()


def test_one_line_text_equality_and_hash() -> None:
    p = Puzzle.from_rows(PLUS_ROWS, rules=NS)
    plain = Puzzle.from_rows(PLUS_ROWS)
    assert p.to_text() == "rules=no_square;.../.0./..2"
    assert Puzzle.parse(p.to_text()) == p
    assert plain.to_text() == ".../.0./..2"
    assert p != plain and plain == Puzzle.parse(".../.0./..2")
    assert hash(plain) == hash((plain.board, plain.face_clues))  # as before rules existed
    assert p.with_rules("no_square,no_square").rules == NS


def test_a_rule_enters_the_trial_key_and_seed_but_plain_ones_stay() -> None:
    p = Puzzle.from_rows(PLUS_ROWS, rules=NS)
    plain = Puzzle.from_rows(PLUS_ROWS)
    assert puzzle_ident(p) != puzzle_ident(plain)
    assert derive_seed(0, p, 0) != derive_seed(0, plain, 0)
    assert derive_seed(0, plain, 0) == derive_seed(0, Puzzle.from_rows(PLUS_ROWS), 0)


@pytest.mark.parametrize(
    ("text", "message"),
    [
        ("rules=no_sqare;3.2/..1", r"unknown rule 'no_sqare' \(known: no_square\)"),
        ("rules=;3.2/..1", "an empty rule name"),
        ("rules=no_square;3x3t1:r", "holds on square boards only, not on a triangular"),
    ],
)
def test_bad_rules_are_one_line(text: str, message: str) -> None:
    with pytest.raises(PuzzleFormatError, match=message) as info:
        Puzzle.parse(text)
    assert "\n" not in str(info.value)


# -- the exact families -------------------------------------------------------------------------
def _backend(name: str):
    from hydra.utils import instantiate

    b = instantiate(OmegaConf.load(CONF / f"{name}.yaml"))
    if b.available():
        skip_for(b.available())
    return b


@pytest.mark.parametrize("backend", constraint_backends())
def test_every_exact_family_finds_the_one_no_square_answer(backend: str) -> None:
    from slitherbench.solvers.constraints import solve_lazily

    p = Puzzle.from_rows(PLUS_ROWS, rules=NS)
    plus = square_board(3, 3).boundary(PLUS_INSIDE)
    b = _backend(backend)
    try:
        r = solve_lazily(b, p, time_limit_s=30)
        assert (r.status, r.answers) == ("unique", [plus])
        assert solve_lazily(b, p.with_rules(()), time_limit_s=30).status == "multiple"
        b.build(p)  # direct mode: the whole puzzle in one step (CP-SAT: its circuit model)
        _, answer, _ = b.solve_direct(p, 30, seed=0)
        assert answer == plus
        assert solve_lazily(b, Puzzle.from_rows(NO_ANSWER_ROWS, rules=NS)).status == "infeasible"
    finally:
        b.close()


@pytest.mark.parametrize("method", ["sat", "cpsat"])
def test_solve_exact_honours_the_rule(method: str) -> None:
    p = Puzzle.from_rows(PLUS_ROWS, rules=NS)
    r = solve_exact(p, method=method)
    assert r.status == "unique" and check_answer(p, r.answer) == []
    assert solve_exact(p.with_rules(()), method=method).status == "multiple"
    assert solve_exact(Puzzle.from_rows(NO_ANSWER_ROWS, rules=NS), method=method).status == (
        "infeasible"
    )
    assert solve_exact(Puzzle.from_rows(NO_ANSWER_ROWS), method=method).status == "unique"


def test_the_zdd_skips_a_rule_in_one_line() -> None:
    from types import SimpleNamespace

    from slitherbench.solvers.base import BackendUnavailable
    from slitherbench.solvers.zdd import ZddBackend

    model = SimpleNamespace(puzzle=Puzzle.from_rows(PLUS_ROWS, rules=NS))
    with pytest.raises(BackendUnavailable, match="cannot take rule no_square") as info:
        ZddBackend().start(model)  # type: ignore[arg-type]
    assert "\n" not in str(info.value)


# -- the generator ----------------------------------------------------------------------------
def _answers_by_brute_force(p: Puzzle) -> list[tuple[bool, ...]]:
    """Every single loop giving each clue its count and keeping the rules, from the loops of
    :func:`single_loops` (no solver involved)."""
    board = p.board
    out = []
    for _, loop in single_loops(p.rows, p.cols):
        if all(sum(loop[e] for e in board.face_edges[f]) == n for f, n in p.clue_faces):
            if check_answer(p, loop) == []:
                out.append(loop)
    return out


@pytest.mark.parametrize("seed", range(4))
def test_generated_3x3_puzzles_are_unique_under_the_rule(seed: int) -> None:
    p = generate(3, 3, seed, rules=NS)
    assert p.rules == NS and p.name == f"gen-3x3-no_square-s{seed}"
    assert _answers_by_brute_force(p) == [tuple(p.meta["answer"])]


@pytest.mark.slow
@pytest.mark.parametrize("seed", range(3))
def test_generated_4x4_puzzles_are_unique_under_the_rule(seed: int) -> None:
    p = generate(4, 4, seed, rules=NS)
    assert _answers_by_brute_force(p) == [tuple(p.meta["answer"])]


def test_generated_no_square_puzzles_are_unique_and_plain_ones_unchanged() -> None:
    p = generate(6, 6, 1, rules=NS)
    r = solve_exact(p)
    assert r.status == "unique" and r.answer == p.meta["answer"]
    assert check_answer(p, p.meta["answer"]) == []
    assert generate(5, 5, 1) == generate(5, 5, 1, rules=())  # plain draws as before
    assert generate(5, 5, 1).name == "gen-5x5-s1"


@pytest.mark.slow
def test_the_cp_sat_judge_makes_the_same_no_square_boards(monkeypatch) -> None:
    import slitherbench.sources.generate as gen

    fast = [gen.generate(5, 5, s, rules=NS) for s in (1, 2)]
    monkeypatch.setattr(gen, "find_spec", lambda name: None)  # as if python-sat were absent
    assert fast == [gen.generate(5, 5, s, rules=NS) for s in (1, 2)]


# -- from the command line ------------------------------------------------------------------
def test_puzzle_generated_takes_rules() -> None:
    cfg = OmegaConf.create(
        {"kind": "generated", "rows": 4, "cols": 4, "count": 2, "seed": 0, "rules": ["no_square"]}
    )
    puzzles = puzzles_from_config(cfg)
    assert [p.rules for p in puzzles] == [NS, NS]
    cfg.rules = ["no_sqare"]
    with pytest.raises(ConfigError, match="unknown rule 'no_sqare'"):
        puzzles_from_config(cfg)


@pytest.mark.parametrize(
    "text", ["rules=no_square;" + "/".join(NO_ANSWER_ROWS), "/".join(NO_ANSWER_ROWS)]
)
def test_a_no_square_puzzle_without_an_answer_is_one_error_line(text: str) -> None:
    cfg = OmegaConf.create({"kind": "text", "text": text, "name": "custom", "rules": ["no_square"]})
    with pytest.raises(ConfigError, match="admit no single loop under rule no_square") as info:
        puzzles_from_config(cfg)
    assert "\n" not in str(info.value)


@pytest.mark.slow
def test_the_app_says_so_exits_2_and_writes_nothing(tmp_path: Path) -> None:
    import subprocess
    import sys

    r = subprocess.run(
        [
            sys.executable,
            "-m",
            "slitherbench",
            "puzzle=text",
            "puzzle.text='rules=no_square;22/22'",
            "formulation=cons",
            "backend=sat",
            f"results_dir={tmp_path / 'store'}",
            f"hydra.run.dir={tmp_path / 'run'}",
        ],
        capture_output=True,
        text=True,
        timeout=120,
        check=False,
    )
    assert r.returncode == 2
    assert r.stderr.strip().splitlines() == [
        "error: puzzle.text: the clues admit no single loop under rule no_square (the exact "
        "check proved it, Puzzle('custom', 2x2, 4 clues, no_square))"
    ]
    assert not (tmp_path / "store").exists() and not (tmp_path / "run").exists()
