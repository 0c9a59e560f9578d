"""Colorlink's rules as sums of binaries, and the stopping rule and cuts of the elimination
per colour: what :class:`~.harness.ColorlinkPuzzle`'s ``variant_*`` hooks hand the harness.

Variable ``k * E + e`` is "edge e carries colour k" (k: the puzzle's k-th colour, E: the
board's edges), the harness's edge label on the layered board. Every rule is a :class:`Row`,
"the sum of these variables lies in ``allowed``":

* ``clue``: a clue's colour over its face's sides, {n};
* ``black``: every colour over the face's sides, {n};
* ``exclusive``: every colour on one edge, {0, 1};
* ``degree``: one colour at one point, {0, 2};
* ``nonempty``: a colour whose clues are all 0 has at least one line, {1..E} (any other colour
  has a line through its clues already);
* ``cut`` (added as the run goes): not every edge of a loop in its colour, {0..|L| - 1}.

The harness takes ``black``, ``exclusive`` and ``nonempty`` from here (the clue and degree
rows are its layers' own) and every form encodes them; the cuts come from
:func:`extra_loop_cuts`.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from itertools import islice, product

from slitherbench.puzzles.colorlink.check import check_colorlink
from slitherbench.puzzles.colorlink.model import BLACK, ColorAnswer, ColorPuzzle

MAX_COMBINATIONS = 256  # of one loop per colour tried by the stopping rule


@dataclass(frozen=True)
class Row:
    kind: str
    variables: tuple[int, ...]
    allowed: tuple[int, ...]  # sorted
    colour: str = ""


def base_rows(puzzle: ColorPuzzle) -> list[Row]:
    """Every rule of the puzzle before any cut."""
    b, E = puzzle.board, puzzle.board.num_edges
    K = len(puzzle.colours)
    rows = []
    for k, c in enumerate(puzzle.colours):
        rows += [
            Row("clue", tuple(k * E + e for e in b.face_edges[f]), (n,), c)
            for f, n in puzzle.clue_faces(c)
        ]
        rows += [Row("degree", tuple(k * E + e for e in es), (0, 2), c) for es in b.point_edges]
        if all(n == 0 for _, n in puzzle.clue_faces(c)):
            rows.append(Row("nonempty", tuple(k * E + e for e in range(E)), tuple(range(1, E + 1))))
    rows += [
        Row("black", tuple(k * E + e for k in range(K) for e in b.face_edges[f]), (n,))
        for f, n in puzzle.clue_faces(BLACK)
    ]
    if K > 1:
        rows += [Row("exclusive", tuple(k * E + e for k in range(K)), (0, 1)) for e in range(E)]
    return rows


def alone_satisfies(puzzle: ColorPuzzle, colour: str, loop: Sequence[int]) -> bool:
    """Whether this loop alone gives every clue of its colour its count."""
    on = set(loop)
    faces = puzzle.board.face_edges
    return all(sum(e in on for e in faces[f]) == n for f, n in puzzle.clue_faces(colour))


def extra_loop_cuts(puzzle: ColorPuzzle, loops: dict[str, list[list[int]]]) -> list[Row]:
    """The cuts for loops that hold no answer: per colour with 2+ loops, each loop that alone
    breaks a clue of its colour, else all of that colour's loops together.

    A cut "not all of loop L in colour c" is safe when L alone breaks one of c's clues (then
    no answer has L as its c loop); when every loop of c satisfies c's clues alone (c's clues
    are all 0), the cut is over all of c's loops together, which no answer holds (one colour
    is one loop)."""
    E = puzzle.board.num_edges
    cuts = []
    for k, c in enumerate(puzzle.colours):
        if len(loops[c]) < 2:
            continue
        bad = [lp for lp in loops[c] if not alone_satisfies(puzzle, c, lp)]
        together = sorted(e for loop in loops[c] for e in loop)
        for lp in bad or [together]:
            cuts.append(Row("cut", tuple(k * E + e for e in lp), tuple(range(len(lp))), c))
    return cuts


def choose_loops(puzzle: ColorPuzzle, loops: dict[str, list[list[int]]]) -> ColorAnswer | None:
    """The stopping rule: one loop per colour, among those that alone satisfy their colour's
    clues, that together pass the checker (black clues and one colour per edge span colours),
    or None. The page stops when one loop alone satisfies every clue; this is its per-colour
    form (the first :data:`MAX_COMBINATIONS` choices are tried)."""
    E = puzzle.board.num_edges
    options = [[lp for lp in loops[c] if alone_satisfies(puzzle, c, lp)] for c in puzzle.colours]
    for choice in islice(product(*options), MAX_COMBINATIONS):
        edges: list[str | None] = [None] * E
        for c, lp in zip(puzzle.colours, choice, strict=True):
            for e in lp:
                edges[e] = c if edges[e] is None else "?"
        answer = ColorAnswer(tuple(edges))
        if "?" not in edges and not check_colorlink(puzzle, answer):
            return answer
    return None
