"""Built-in puzzles and suites.

``loopy_dev`` are the 60 puzzles of shared/corpus/loopy_dev.jsonl, copied into the package
(data/loopy_dev.jsonl): made with Simon Tatham's Loopy generator (MIT licence), each with its
unique solution. ``reference10`` is the 10x10 board of the QUBO++ Slitherlink page.
"""

from __future__ import annotations

import json
import random
from collections.abc import Callable
from functools import cache
from pathlib import Path

from slitherbench.puzzles.boards import Board, loopy_board
from slitherbench.puzzles.puzzle import Puzzle

REFERENCE10_ROWS = (
    ".11..0.0.0",
    ".2.....2..",
    ".221.0....",
    "..3......1",
    "3...12112.",
    ".0.1...111",
    "1....1.2..",
    "1...0..2.2",
    "1.0......1",
    "2..11..11.",
)


@cache
def loopy_dev() -> tuple[Puzzle, ...]:
    out = []
    text = (Path(__file__).resolve().parent / "data" / "loopy_dev.jsonl").read_text()
    for line in text.splitlines():
        d = json.loads(line)
        if "loopy_id" in d:  # boards beyond the square: their Loopy game ID
            p = Puzzle.parse(d["loopy_id"], name=d["id"])
        else:
            p = Puzzle.from_rows(d["clues"], name=d["id"])
        p.meta.update(
            difficulty=d["difficulty"],
            loopy_id=d["loopy_id"],
            puzzlink=d["puzzlink"],
            answer=[c == "1" for c in d["solution_H"] + d["solution_V"]],
            source="Simon Tatham's Loopy (MIT), shared/corpus/loopy_dev.jsonl",
        )
        _with_grade(p, d)
        out.append(p)
    return tuple(out)


def _with_grade(p: Puzzle, record: dict) -> None:
    """The board's deduction grade as its data file holds it (``experiments/grade_library.py``
    writes it); a board without one is graded when a run needs it."""
    if record.get("grade"):
        p.meta.update(grade=record["grade"], grade_shares=json.dumps(record["grade_shares"]))


def reference10() -> Puzzle:
    return Puzzle.from_rows(list(REFERENCE10_ROWS), name="reference10")


@cache
def generated(
    rows: int,
    cols: int,
    seed: int,
    rules: tuple[str, ...] = (),
    min_grade: str | None = None,
    board: str = "square",
) -> Puzzle:
    """A generated board, unique under ``rules`` (names of :mod:`slitherbench.puzzles.rules`):
    square, or of a Loopy grid type (``board``: rows is its height, cols its width); with
    ``min_grade``, one that deduction needs that level for
    (:func:`~slitherbench.sources.generate.generate_graded`)."""
    # CP-SAT: loaded only when a board is made
    from slitherbench.sources.generate import generate, generate_on

    if board == "square":
        return generate(rows, cols, seed, rules=rules, min_grade=min_grade)
    return generate_on(loopy_kind_board(board, rows, cols), seed, rules=rules, min_grade=min_grade)


def loopy_kind_board(kind: str, rows: int, cols: int) -> Board:
    """The ``kind`` board of ``cols`` x ``rows`` (width x height) as Loopy sizes it; a Penrose
    patch drawn as :func:`~slitherbench.puzzles.boards.board_with_faces` draws it."""
    from slitherbench.puzzles.boards.loopy import grid_type

    gt = grid_type(kind)
    desc = gt.new_desc(cols, rows, random.Random(f"{kind}-{cols}x{rows}-0"))
    return loopy_board(kind, cols, rows, desc)


def generated_frontier() -> tuple[Puzzle, ...]:
    """12x12 and 15x15 boards made once by :func:`generate` (the 15x15 took over a minute to
    make with CP-SAT judging, so they are shipped; a slow test regenerates the 12x12)."""
    return shipped("frontier")


@cache
def shipped(name: str) -> tuple[Puzzle, ...]:
    """Generated boards shipped in ``data/generated_<name>.jsonl`` (frontier; survey: the
    survey's sizes; targets: 30x40 and 60x60; grids: every board kind at about 25, 50 and
    100 faces), made by ``experiments/make_boards.py``; lookahead: boards of grade look-ahead
    1 and 2, made by ``experiments/make_graded_boards.py``."""
    out = []
    text = (Path(__file__).resolve().parent / "data" / f"generated_{name}.jsonl").read_text()
    for line in text.splitlines():
        d = json.loads(line)
        if "loopy_id" in d:  # boards beyond the square: their Loopy game ID
            p = Puzzle.parse(d["loopy_id"], name=d["id"])
        else:
            p = Puzzle.from_rows(d["clues"], name=d["id"])
        p.meta.update(answer=[c == "1" for c in d["answer"]], source=d["made_by"])
        _with_grade(p, d)
        out.append(p)
    return tuple(out)


def _frontier() -> list[Puzzle]:
    """One board per size, smallest first: Loopy 5x5, 7x7, the reference 10x10, generated
    12x12, Loopy 10x18, generated 15x15, Loopy 14x24 and 20x36."""
    loopy = {p.size_label: p for p in reversed(loopy_dev())}  # the first of each size
    boards = [loopy["5x5"], loopy["7x7"], reference10(), *generated_frontier()]
    boards += [loopy["10x18"], loopy["14x24"], loopy["20x36"]]
    return sorted(boards, key=lambda p: p.rows * p.cols)


def _loopy_first_of_each_size() -> list[Puzzle]:
    seen: dict[str, Puzzle] = {}
    for p in loopy_dev():
        seen.setdefault(p.size_label, p)
    return list(seen.values())


def _first_square_graded(sizes: tuple[int, ...], seeds: tuple[int, ...] = (1,)) -> list[Puzzle]:
    """The lookahead suite's square boards of these sizes and seeds (seed 1: the by_grade
    run's), both grades each."""
    return [
        p
        for n in sizes
        for grade in ("lookahead1", "lookahead2")
        for seed in seeds
        for p in shipped("lookahead")
        if p.name == f"gen-{n}x{n}-{grade}-s{seed}"
    ]


# Suites: name -> function returning the puzzles. "small" fits pyqbpp's free 100-variable
# limit for the cons form (4x4: 40 edges, 5x5: 60, 6x6: 84).
SUITES: dict[str, Callable[[], list[Puzzle]]] = {
    "reference10": lambda: [reference10()],
    "tiny": lambda: [generated(3, 3, 1), generated(4, 4, 1)],
    "small": lambda: (
        [generated(4, 4, s) for s in (1, 2)] + [generated(5, 5, 1), generated(6, 6, 1)]
    ),
    "loopy_dev": lambda: list(loopy_dev()),
    "loopy5": lambda: [p for p in loopy_dev() if p.size_label == "5x5"],
    "scaling": _loopy_first_of_each_size,
    # Two 5x5, two 7x7 and one 10x10 Loopy puzzle: the headline HUBO-vs-QUBO comparison.
    "mixed": lambda: (
        [p for p in loopy_dev() if p.size_label == "5x5"][:2]
        + [p for p in loopy_dev() if p.size_label == "7x7"][:2]
        + [p for p in loopy_dev() if p.size_label == "10x10"][:1]
    ),
    "headline": lambda: [*SUITES["mixed"](), reference10()],
    "graded": lambda: [generated(4, 4, 1), *_loopy_first_of_each_size()],
    # Tuning trains here: generated boards (seeds far from the tiny/small suites' 1-2), so no
    # evaluation suite (Loopy corpus, reference10, tiny, small) shares a puzzle with it.
    "training": lambda: [generated(n, n, 1001) for n in (5, 6, 7)],
    # Tuning for the paper-grade run trains at its evaluation's sizes: the corpus's last two
    # 7x7 and last two 10x10 Loopy puzzles (the evaluation suites take the first of each size).
    "training_full": lambda: (
        [p for p in loopy_dev() if p.size_label == "7x7"][-2:]
        + [p for p in loopy_dev() if p.size_label == "10x10"][-2:]
    ),
    "frontier": _frontier,
    # The survey's sizes (11x11, 19x11, 25x15, 37x21, 32x46 cells), two generated boards each.
    "survey": lambda: list(shipped("survey")),
    # Generated 30x40 and 60x60 boards: the exact families' speed targets.
    "targets": lambda: list(shipped("targets")),
    # Every board kind (square and Loopy's 15 other grid types) at about 25, 50 and 100
    # faces, generated and proved unique (experiments/make_boards.py grids).
    "grids": lambda: list(shipped("grids")),
    # The headline boards beside Loopy Tricky and Hard boards of the same sizes, which forced
    # moves do not settle (graded lookahead1 by slitherbench.deduction), none of them a
    # training board (training_full): the presolve run's.
    "presolve": lambda: [
        *SUITES["headline"](),
        *(get_puzzle(n) for n in ("tatham-7x7t0dh-00", "tatham-7x7t0dh-08")),
        *(get_puzzle(n) for n in ("tatham-10x10t0dt-24", "tatham-10x10t0dh-04")),
    ],
    # Boards that rules do not settle: generated with puzzle.min_grade (look-ahead 1 and 2;
    # squares 7x7 to 30x30, honeycomb and cairo boards), each proved unique
    # (experiments/make_graded_boards.py); "lookahead1"/"lookahead2": those of one grade.
    "lookahead": lambda: list(shipped("lookahead")),
    "lookahead1": lambda: [p for p in shipped("lookahead") if p.meta["grade"] == "lookahead1"],
    "lookahead2": lambda: [p for p in shipped("lookahead") if p.meta["grade"] == "lookahead2"],
    # The by_grade run's boards: the first square board of each grade and size of the
    # lookahead suite, 7x7 and 10x10 ("graded_small") and 15x15 and 20x20 ("graded_large").
    "graded_small": lambda: _first_square_graded((7, 10)),
    "graded_large": lambda: _first_square_graded((15, 20)),
    # graded_large's 15x15 boards alone: the by_grade run takes twenty seeds there, three at 20x20.
    "graded_15": lambda: _first_square_graded((15,)),
    # graded_large's 20x20 boards alone: the long-budget run past the frontier's 120 s.
    "graded_20": lambda: _first_square_graded((20,)),
    # Between the sizes where the frontier run's best paths solved (15x15) and did not (20x20):
    # the 16x16, 17x17 and 18x18 look-ahead squares, and the 15x15 ones again so that the run
    # measures the last size solved on its own machine (experiment=frontier_graded_between);
    # at 15x15 and 16x16 the seed-2 squares too, a second board per grade where the step is.
    "graded_between": lambda: [
        *_first_square_graded((15, 16), seeds=(1, 2)),
        *_first_square_graded((17, 18)),
    ],
    # Below that step, three boards per grade: the 10x10 look-ahead squares of seeds 4-6 (seed 1
    # is graded_small's, seeds 2-3 train tuning), the 14x14 ones (seeds 1-3) and the 15x15
    # seed-3 ones, which graded_between left out; six at 13x13 (seeds 1-6) and nine at 11x11
    # and 12x12 (seeds 1-9), where the paths stop: how far down the board-to-board spread seen
    # at 15x15 reaches (experiment=frontier_graded_spread).
    "graded_spread": lambda: [
        *_first_square_graded((10,), seeds=(4, 5, 6)),
        *_first_square_graded((11, 12), seeds=tuple(range(1, 10))),
        *_first_square_graded((13,), seeds=(1, 2, 3, 4, 5, 6)),
        *_first_square_graded((14,), seeds=(1, 2, 3)),
        *_first_square_graded((15,), seeds=(3,)),
    ],
    # Past the HUBO's step, for the HUBO without point auxiliaries (degree_mode=exact): the
    # 13x13 squares of graded_spread (seeds 1-6) and its 14x14 ones (seeds 1-3), the 16x16
    # ones of graded_between (seeds 1-2), its 18x18 ones and the 20x20 ones of graded_large:
    # the same boards the auxiliary HUBO ran on, so the two pair up
    # (experiment=frontier_graded_exact).
    "graded_past": lambda: [
        *_first_square_graded((13,), seeds=(1, 2, 3, 4, 5, 6)),
        *_first_square_graded((14,), seeds=(1, 2, 3)),
        *_first_square_graded((16,), seeds=(1, 2)),
        *_first_square_graded((18, 20)),
    ],
    # Below that step, for the same HUBO: graded_spread's 10x10 squares (seeds 4-6) and its 11x11
    # and 12x12 ones (seeds 1-9), where the auxiliary HUBO held half; with graded_past, every
    # size the auxiliary HUBO ran on from 10x10 to 16x16 (experiment=frontier_graded_exact_below).
    "graded_below": lambda: [
        *_first_square_graded((10,), seeds=(4, 5, 6)),
        *_first_square_graded((11, 12), seeds=tuple(range(1, 10))),
    ],
    # The look-ahead 2 squares from 15x15 to 20x20 (seeds 1-3 at 15x15, 1-2 at 16x16): boards
    # that look-ahead 1 does not settle, run with presolve=lookahead, where the HUBO is given
    # what look-ahead 1 leaves (experiment=frontier_graded_exact_lookahead).
    "graded_deep": lambda: [
        p
        for p in _first_square_graded((15, 16, 17, 18, 20), seeds=(1, 2, 3))
        if p.meta["grade"] == "lookahead2"
    ],
    # Past graded_deep: the 30x30 look-ahead 2 square (look-ahead 1 leaves 776 of its 1,860
    # edges), where the HUBOs run with presolve=lookahead next (frontier_graded_lookahead_30).
    "graded_deep_30": lambda: [
        p for p in _first_square_graded((30,)) if p.meta["grade"] == "lookahead2"
    ],
    # The frontier on faces runs past 20x20: graded_large and the 30x30 squares.
    "graded_frontier": lambda: _first_square_graded((15, 20, 30)),
    # Beside them, boards of the same sizes that forced moves settle: the mixed suite's first
    # 7x7 and its 10x10 Loopy Easy board.
    "graded_rules": lambda: [SUITES["mixed"]()[i] for i in (2, 4)],
    # Tuning for the by_grade run trains on the same sizes and grades, its other seeds: the
    # lookahead suite's seed-2 and seed-3 squares at 7x7 and 10x10 (experiment=tune_graded).
    "graded_training": lambda: _first_square_graded((7, 10), seeds=(2, 3)),
    # The first Loopy 10x18 board (the frontier's and the size target's).
    "loopy10x18": lambda: [p for p in loopy_dev() if p.size_label == "10x18"][:1],
}


def get_puzzle(name: str) -> Puzzle:
    if name == "reference10":
        return reference10()
    for p in loopy_dev():
        if p.name == name:
            return p
    raise KeyError(f"no built-in puzzle {name!r} (try reference10 or a loopy_dev id)")


def get_suite(name: str) -> list[Puzzle]:
    try:
        return SUITES[name]()
    except KeyError:
        raise KeyError(f"no built-in suite {name!r}; known: {', '.join(sorted(SUITES))}") from None
