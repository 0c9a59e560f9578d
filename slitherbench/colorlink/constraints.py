"""Colorlink as sums of binaries, and the iterative method's step: stop, or which cuts to add.

Variable ``k * E + e`` is "edge e carries colour k" (k: the puzzle's k-th colour, E: the
board's edges). Every rule is a :class:`Row`, "the sum of these variables lies in
``allowed``":

* ``clue``: a clue's colour over its face's sides, {n};
* ``black``: every colour over the face's sides, {n};
* ``exclusive``: every colour on one edge, {0, 1};
* ``degree``: one colour at one point, {0, 2};
* ``nonempty``: a colour whose clues are all 0 has at least one line, {1..E} (any other colour
  has a line through its clues already);
* ``cut`` (added as the run goes): not every edge of a loop in its colour, {0..|L| - 1}.

The SAT and the annealing paths encode the same rows (:mod:`.sat`, :mod:`.anneal`).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from itertools import islice, product

from .check import check_colorlink
from .model import BLACK, ColorAnswer, ColorPuzzle

MAX_COMBINATIONS = 256  # of one loop per colour tried by the stopping rule


@dataclass(frozen=True)
class Row:
    kind: str
    variables: tuple[int, ...]
    allowed: tuple[int, ...]  # sorted
    colour: str = ""

    def total(self, x: Sequence[bool]) -> int:
        return sum(bool(x[v]) for v in self.variables)

    def holds(self, x: Sequence[bool]) -> bool:
        return self.total(x) in self.allowed


def num_variables(puzzle: ColorPuzzle) -> int:
    return len(puzzle.colours) * puzzle.board.num_edges


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


def layers_of(puzzle: ColorPuzzle, x: Sequence[bool]) -> dict[str, list[bool]]:
    """One flag list per colour from the variables."""
    E = puzzle.board.num_edges
    return {c: [bool(v) for v in x[k * E : (k + 1) * E]] for k, c in enumerate(puzzle.colours)}


def split_loops(puzzle: ColorPuzzle, layer: Sequence[bool]) -> list[list[int]]:
    """One colour's lines as connected pieces (loops where every degree is 0 or 2)."""
    pe, ep = puzzle.board.point_edges, puzzle.board.edge_points
    seen = [False] * len(layer)
    out = []
    for start, on in enumerate(layer):
        if not on or seen[start]:
            continue
        seen[start], stack, piece = True, [start], []
        while stack:
            e = stack.pop()
            piece.append(e)
            for f in (f for p in ep[e] for f in pe[p]):
                if layer[f] and not seen[f]:
                    seen[f] = True
                    stack.append(f)
        out.append(sorted(piece))
    return out


def alone_satisfies(puzzle: ColorPuzzle, colour: str, loop: Sequence[int]) -> bool:
    """Whether this loop alone gives every clue of its colour its count."""
    on = set(loop)
    faces = puzzle.board.face_edges
    return all(sum(e in on for e in faces[f]) == n for f, n in puzzle.clue_faces(colour))


def step(
    puzzle: ColorPuzzle, x: Sequence[bool]
) -> tuple[ColorAnswer | None, list[Row], dict[str, int]]:
    """The iterative method after a solution ``x`` of every row: the answer (one loop per
    colour that together break no rule), or else the cuts to add, and each colour's loop count.

    The page stops when one loop alone satisfies every clue; here one loop per colour is chosen
    among those that alone satisfy their colour's clues, and the choice must pass the checker
    (black clues and exclusivity span colours). A cut "not all of loop L in colour c" is safe
    when L alone breaks one of c's clues (then no answer has L as its c loop); when every loop
    of c satisfies c's clues alone (c's clues are all 0), the cut is over all of c's loops
    together, which no answer holds (one colour is one loop).
    """
    layers = layers_of(puzzle, x)
    loops = {c: split_loops(puzzle, layer) for c, layer in layers.items()}
    counts = {c: len(ls) for c, ls in loops.items()}
    answer = choose_loops(puzzle, loops)
    if answer is not None:
        return answer, [], counts
    return None, extra_loop_cuts(puzzle, loops), counts


def extra_loop_cuts(puzzle: ColorPuzzle, loops: dict[str, list[list[int]]]) -> list[Row]:
    """The cuts of :func:`step` for loops that hold no answer: per colour with 2+ loops, each
    loop that alone breaks a clue of its colour, else all of that colour's loops together."""
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
