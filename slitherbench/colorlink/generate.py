"""Random Colorlink puzzles with exactly one answer.

1. One random loop per colour: the boundary of a region grown face by face (a face joins only
   if the boundary stays one loop that touches no point twice and shares no edge with an
   earlier colour's loop). Regions may overlap, so loops of different colours cross and
   touch at points, as the rules allow.
2. Every face gets a clue: mostly in a colour whose loop touches it (its count in that
   colour), sometimes black (the count over every colour); every colour keeps at least one
   clue. When even the full set of clues has a second answer, the clue colours are drawn
   again (then the loops).
3. Clues go in random order while the answer stays the only one, never the last clue of a
   colour (a colour no clue names has no loop). Each removal is judged by SAT: the rows of
   the remaining clues plus "not the answer" (one clause: not all of its coloured edges, which
   no other single loop per colour can contain), solved with the iterative method's cuts
   until a second answer appears or none can (a fresh solver per judgement, so a cut made
   under more clues is never kept under fewer).

Same (size, colours, seed) -> same puzzle.
"""

from __future__ import annotations

import random
import time

from ..boards import Board, square_board
from .check import components
from .constraints import base_rows, num_variables, step
from .model import BLACK, PALETTE, ColorAnswer, ColorClue, ColorlinkError, ColorPuzzle
from .sat import SatModel


def is_one_loop(board: Board, layer: list[bool]) -> bool:
    degrees_ok = all(sum(layer[e] for e in es) in (0, 2) for es in board.point_edges)
    return degrees_ok and components(board, layer) == 1


def random_region_loop(
    board: Board, rng: random.Random, used: set[int], fill: float
) -> list[bool] | None:
    """The boundary of a random region of about ``fill`` of the faces that is one simple loop
    using no edge in ``used``; None when no face can start one."""
    F = board.num_faces
    starts = [f for f in range(F) if not used & set(board.face_edges[f])]
    if not starts:
        return None
    inside = [False] * F
    inside[rng.choice(starts)] = True
    size, stalls = 1, 0
    while size < max(1, int(fill * F)) and stalls < 10 * F:
        frontier = [
            f
            for f in range(F)
            if not inside[f] and any(g >= 0 and inside[g] for g in board.face_neighbours[f])
        ]
        if not frontier:
            break
        f = rng.choice(frontier)
        inside[f] = True
        loop = board.boundary(inside)
        if is_one_loop(board, loop) and not any(loop[e] for e in used):
            size, stalls = size + 1, 0
        else:
            inside[f], stalls = False, stalls + 1
    return board.boundary(inside)


def random_colour_loops(
    board: Board, colours: tuple[str, ...], rng: random.Random, fill: float = 0.4
) -> ColorAnswer | None:
    """One edge-disjoint random loop per colour (None when a colour finds no room)."""
    used: set[int] = set()
    layers = {}
    for c in colours:
        loop = random_region_loop(board, rng, used, fill)
        if loop is None:
            return None
        layers[c] = loop
        used |= {e for e, on in enumerate(loop) if on}
    return ColorAnswer.from_layers(layers, board.num_edges)


def full_clues(
    board: Board, answer: ColorAnswer, colours: tuple[str, ...], rng: random.Random, black: float
) -> list[ColorClue]:
    """A clue in every face: black with probability ``black``, else in a colour touching the
    face (any colour where none does); then every colour gets a clue if it has none."""
    clues = []
    for sides in board.face_edges:
        near = [c for c in colours if answer_touches(answer, sides, c)]
        if rng.random() < black:
            clues.append(ColorClue(sum(answer.edges[e] is not None for e in sides), BLACK))
        else:
            c = rng.choice(near or list(colours))
            clues.append(ColorClue(sum(answer.edges[e] == c for e in sides), c))
    for c in colours:
        if not any(k.colour == c for k in clues):
            touching = [f for f, s in enumerate(board.face_edges) if answer_touches(answer, s, c)]
            f = rng.choice(touching)
            clues[f] = ColorClue(sum(answer.edges[e] == c for e in board.face_edges[f]), c)
    return clues


def answer_touches(answer: ColorAnswer, sides: tuple[int, ...], colour: str) -> bool:
    return any(answer.edges[e] == colour for e in sides)


def other_answer(puzzle: ColorPuzzle, answer: ColorAnswer, time_limit_s: float) -> bool:
    """Whether ``puzzle`` has an answer other than ``answer`` (out of time counts as yes,
    so a clue is never dropped on a guess)."""
    deadline = time.perf_counter() + time_limit_s
    E = puzzle.board.num_edges
    index = {c: k for k, c in enumerate(puzzle.colours)}
    with SatModel(num_variables(puzzle), base_rows(puzzle)) as model:
        model.add_clause([-(index[c] * E + e + 1) for e, c in enumerate(answer.edges) if c])
        while True:
            got, x = model.solve(deadline - time.perf_counter())
            if got == "timeout":
                return True
            if x is None:
                return False
            found, cuts, _ = step(puzzle, x)
            if found is not None:
                return found != answer
            model.add(cuts)


def generate_colorlink(
    rows: int,
    cols: int,
    colours: int = 2,
    seed: int = 0,
    black: float = 0.25,
    time_limit_s: float = 5.0,
) -> ColorPuzzle:
    """A square Colorlink puzzle with exactly one answer (``meta["answer"]``)."""
    if rows < 2 or cols < 2:
        raise ColorlinkError(f"a Colorlink puzzle needs at least 2x2 cells, got {rows}x{cols}")
    if not 1 <= colours <= len(PALETTE):
        raise ColorlinkError(f"colours must be 1-{len(PALETTE)}, got {colours}")
    return generate_colorlink_on(square_board(rows, cols), colours, seed, black, time_limit_s)


def generate_colorlink_on(
    board: Board, colours: int = 2, seed: int = 0, black: float = 0.25, time_limit_s: float = 5.0
) -> ColorPuzzle:
    """The same on any board (see the module docstring)."""
    letters = tuple(PALETTE)[:colours]
    name = f"colorlink-{board.label.replace(' ', '-')}-{colours}c-s{seed}"
    rng = random.Random(name)
    for _ in range(50):
        answer = random_colour_loops(board, letters, rng)
        if answer is None:
            continue
        for _ in range(10):
            clues = full_clues(board, answer, letters, rng, black)
            full = ColorPuzzle(board, tuple(clues))
            if not other_answer(full, answer, time_limit_s):
                return _remove_clues(full, answer, rng, time_limit_s, name)
    raise ColorlinkError(f"no unique {colours}-colour puzzle found on a {board.label}")


def _remove_clues(
    full: ColorPuzzle, answer: ColorAnswer, rng: random.Random, time_limit_s: float, name: str
) -> ColorPuzzle:
    clues = list(full.clues)
    order = list(range(len(clues)))
    rng.shuffle(order)
    for f in order:
        keep = clues[f]
        assert keep is not None
        if (
            keep.colour != BLACK
            and sum(k is not None and k.colour == keep.colour for k in clues) == 1
        ):
            continue  # the last clue of a colour: without it the colour has no loop
        clues[f] = None
        if other_answer(ColorPuzzle(full.board, tuple(clues)), answer, time_limit_s):
            clues[f] = keep
    return ColorPuzzle(full.board, tuple(clues), name=name, meta={"answer": answer})
