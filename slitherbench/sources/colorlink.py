"""Random Colorlink puzzles with exactly one answer, judged by the harness's SAT backend.

1. One random loop per colour: the boundary of a region grown face by face (a face joins only
   if the boundary stays one loop that touches no point twice and shares no edge with an
   earlier colour's loop). Regions may overlap, so loops of different colours touch at
   points. Grown one face at a time, a region never crosses an earlier loop: the face that
   steps over the loop would put the loop's edge on its own boundary. With ``cross=True`` a
   step also takes the faces across every earlier line it would border, so the region
   straddles the earlier loop and the two loops cross at points (the rules allow it: an
   edge still carries one colour); an answer without a crossing (:func:`crossings`) is drawn
   again.
2. Every face gets a clue: mostly in a colour whose loop touches it (its count in that
   colour), sometimes black (the count over every colour); every colour keeps at least one
   clue. When even the full set of clues has a second answer, the clue colours are drawn
   again (then the loops).
3. Clues go in random order while the answer stays the only one, never the last clue of a
   colour (a colour no clue names has no loop). Each judgement is
   :func:`~slitherbench.solvers.cpsat_model.solve_exact` on the harness puzzle
   (:class:`~.harness.ColorlinkPuzzle`): the SAT backend's lazy loop, which forbids each
   answer it finds and goes on until a second answer or none; out of time counts as "not
   unique", so a clue is never dropped on a guess.

Same (board, colours, seed, cross) -> same puzzle; ``cross=False`` draws what the generator
drew before ``cross`` existed.
"""

from __future__ import annotations

import math
import random
from collections.abc import Sequence
from typing import TYPE_CHECKING

from slitherbench.puzzles.boards import Board, square_board
from slitherbench.puzzles.colorlink.check import components
from slitherbench.puzzles.colorlink.model import (
    BLACK,
    PALETTE,
    ColorAnswer,
    ColorClue,
    ColorlinkError,
    ColorPuzzle,
)

if TYPE_CHECKING:
    from slitherbench.puzzles.colorlink.harness import ColorlinkPuzzle

MAX_STRADDLE = 8  # faces one crossing step may take at once (the rest of the step is refused)


def is_one_loop(board: Board, layer: list[bool]) -> bool:
    degrees_ok = all(sum(layer[e] for e in es) in (0, 2) for es in board.point_edges)
    return degrees_ok and components(board, layer) == 1


def straddle(board: Board, inside: Sequence[bool], f: int, used: set[int]) -> list[int] | None:
    """``f`` and the faces it takes along so that no line in ``used`` lies on the region's
    boundary: across each such side, the face on the other side, and so on from those.
    None when a line in ``used`` lies on the board's edge (nothing lies across it) or the
    step would take more than :data:`MAX_STRADDLE` faces."""
    take, todo = [f], [f]
    while todo:
        g = todo.pop()
        for e, h in zip(board.face_edges[g], board.face_neighbours[g], strict=True):
            if e not in used:
                continue
            if h < 0:
                return None
            if inside[h] or h in take:
                continue
            if len(take) == MAX_STRADDLE:
                return None
            take.append(h)
            todo.append(h)
    return take


def random_region_loop(
    board: Board, rng: random.Random, used: set[int], fill: float, cross: bool = False
) -> list[bool] | None:
    """The boundary of a random region of about ``fill`` of the faces that is one simple loop
    using no edge in ``used``; None when no face can start one. ``cross``: a step takes the
    faces across the lines in ``used`` it would border (:func:`straddle`)."""
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
        take = straddle(board, inside, f, used) if cross else [f]
        if take is None:
            stalls += 1
            continue
        for g in take:
            inside[g] = True
        loop = board.boundary(inside)
        if is_one_loop(board, loop) and not any(loop[e] for e in used):
            size, stalls = size + len(take), 0
        else:
            for g in take:
                inside[g] = False
            stalls += 1
    return board.boundary(inside)


def random_colour_loops(
    board: Board,
    colours: tuple[str, ...],
    rng: random.Random,
    fill: float = 0.4,
    cross: bool = False,
) -> ColorAnswer | None:
    """One edge-disjoint random loop per colour (None when a colour finds no room)."""
    used: set[int] = set()
    layers = {}
    for c in colours:
        loop = random_region_loop(board, rng, used, fill, cross)
        if loop is None:
            return None
        layers[c] = loop
        used |= {e for e, on in enumerate(loop) if on}
    return ColorAnswer.from_layers(layers, board.num_edges)


def crossings(board: Board, answer: ColorAnswer) -> list[int]:
    """The points where two colours' lines cross: each colour passes through the point
    (two of its edges there) and the two edges of one separate those of the other in the
    order of the edges around the point (on squares: one colour runs straight across, the
    other straight up). Loops that only touch at a point do not count."""
    out = []
    for p, edges in enumerate(board.point_edges):
        by_colour: dict[str, list[int]] = {}
        for e in edges:
            colour = answer.edges[e]
            if colour is not None:
                by_colour.setdefault(colour, []).append(e)
        if len(by_colour) < 2:
            continue
        around = sorted(edges, key=lambda e: _angle(board, p, e))
        for a, b in _pairs([es for es in by_colour.values() if len(es) == 2]):
            i, j = sorted(around.index(e) for e in a)
            if (i < around.index(b[0]) < j) != (i < around.index(b[1]) < j):
                out.append(p)
                break
    return out


def _angle(board: Board, p: int, e: int) -> float:
    q = next(q for q in board.edge_points[e] if q != p)
    (x0, y0), (x1, y1) = board.points[p], board.points[q]
    return math.atan2(y1 - y0, x1 - x0)


def _pairs(items: list[list[int]]) -> list[tuple[list[int], list[int]]]:
    return [(a, b) for i, a in enumerate(items) for b in items[i + 1 :]]


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


def is_unique(puzzle: ColorPuzzle, answer: ColorAnswer, time_limit_s: float) -> bool:
    """Whether ``answer`` is the puzzle's only answer, by the harness's SAT backend
    (:func:`~slitherbench.solvers.cpsat_model.solve_exact` on the :class:`~.harness.ColorlinkPuzzle`);
    out of time counts as no."""
    from slitherbench.puzzles.colorlink.harness import ColorlinkPuzzle
    from slitherbench.solvers.cpsat_model import solve_exact

    layered = ColorlinkPuzzle.of(puzzle)
    result = solve_exact(layered, time_limit_s=time_limit_s)
    if result.status != "unique":
        return False
    found = layered.colour_answer(result.answers[0])
    if found != answer:  # answer passes the checker, so a unique answer can only be it
        raise AssertionError(f"the SAT backend's only answer is not the drawn one: {found}")
    return True


def generate_colorlink(
    rows: int,
    cols: int,
    colours: int = 2,
    seed: int = 0,
    black: float = 0.25,
    time_limit_s: float = 5.0,
    cross: bool = False,
) -> ColorPuzzle:
    """A square Colorlink puzzle with exactly one answer (``meta["answer"]``); ``cross``:
    one whose answer has colours that cross."""
    if rows < 2 or cols < 2:
        raise ColorlinkError(f"a Colorlink puzzle needs at least 2x2 cells, got {rows}x{cols}")
    if not 1 <= colours <= len(PALETTE):
        raise ColorlinkError(f"colours must be 1-{len(PALETTE)}, got {colours}")
    if cross and colours < 2:
        raise ColorlinkError("colours cross only with 2 colours or more")
    board = square_board(rows, cols)
    return generate_colorlink_on(board, colours, seed, black, time_limit_s, cross)


def generate_colorlink_on(
    board: Board,
    colours: int = 2,
    seed: int = 0,
    black: float = 0.25,
    time_limit_s: float = 5.0,
    cross: bool = False,
) -> ColorPuzzle:
    """The same on any board (see the module docstring)."""
    letters = tuple(PALETTE)[:colours]
    name = f"colorlink-{board.label.replace(' ', '-')}-{colours}c-s{seed}"
    if cross:
        name += "-cross"
    rng = random.Random(name)
    for _ in range(50):
        answer = random_colour_loops(board, letters, rng, cross=cross)
        if answer is None or (cross and not crossings(board, answer)):
            continue
        for _ in range(10):
            clues = full_clues(board, answer, letters, rng, black)
            full = ColorPuzzle(board, tuple(clues))
            if is_unique(full, answer, time_limit_s):
                return _remove_clues(full, answer, rng, time_limit_s, name)
    what = "crossing " if cross else ""
    raise ColorlinkError(f"no unique {colours}-colour {what}puzzle found on a {board.label}")


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
        if not is_unique(ColorPuzzle(full.board, tuple(clues)), answer, time_limit_s):
            clues[f] = keep
    return ColorPuzzle(full.board, tuple(clues), name=name, meta={"answer": answer})


def generated_colorlink(
    rows: int, cols: int, colours: int, seed: int, black: float = 0.25, cross: bool = False
) -> ColorlinkPuzzle:
    """A generated square Colorlink puzzle with one answer, as a harness puzzle
    (``puzzle=colorlink``, ``conf/puzzle/colorlink.yaml``)."""
    from slitherbench.puzzles.colorlink.harness import ColorlinkPuzzle

    return ColorlinkPuzzle.of(generate_colorlink(rows, cols, colours, seed, black, cross=cross))
