"""The page's iterative multi-loop elimination, per colour.

Solve every row of :mod:`.constraints`; split each colour's lines into loops; stop when one
loop per colour passes the checker (every colour one loop and every clue held is the usual
case); otherwise cut each colour's extra loops separately and solve again, from the previous
solution where the solver takes a start. Two paths:

* ``sat``: python-sat, exact. "infeasible" is a proof that the puzzle has no answer;
* ``sa``: the penalty QUBO of :mod:`.anneal` sampled by simulated annealing. A sample that
  breaks a row is retried (counted in ``reads``, not in ``iterations``); it can never prove
  infeasibility, so a puzzle without an answer ends in ``timeout``. ``variables="face"``
  samples the face-variable HUBO of :mod:`.faces` instead (one binary per colour and face);
  its samples decode to the same edge variables, judged by the same rows.

Every ``solved`` answer has passed :func:`~.check.check_colorlink`.
"""

from __future__ import annotations

import random
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

from .check import check_colorlink
from .constraints import base_rows, num_variables, step
from .model import ColorAnswer, ColorPuzzle

METHODS = ("sat", "sa")
VARIABLES = ("edge", "face")


@dataclass
class ColorResult:
    """``status``: solved, infeasible (sat only: no answer exists), timeout, max_iterations,
    or stuck (a solution of every row with no cut to add: a bug, never seen)."""

    status: str
    iterations: int = 0  # solves that held every row (the page's iterations)
    answer: ColorAnswer | None = None
    cuts: int = 0
    reads: int = 0  # annealing reads, retries included (sa)
    seconds: float = 0.0
    loops: list[dict[str, int]] = field(default_factory=list)  # loops per colour, per iteration
    reason: str = ""


def solve_colorlink(
    puzzle: ColorPuzzle,
    method: str = "sat",
    seed: int = 0,
    time_limit_s: float = 60.0,
    max_iterations: int = 200,
    variables: str = "edge",
    **params: object,
) -> ColorResult:
    """Solve by the iterative method; ``params`` go to the annealer (num_sweeps, beta_range;
    with face variables also sampler, degree, num_reads: see :mod:`.faces`)."""
    if method not in METHODS:
        raise ValueError(f"unknown method {method!r}; methods: {', '.join(METHODS)}")
    if variables not in VARIABLES:
        raise ValueError(f"unknown variables {variables!r}; variables: {', '.join(VARIABLES)}")
    if variables == "face" and method != "sa":
        raise ValueError("face variables are for the annealing path (method sa)")
    t0 = time.perf_counter()
    deadline = t0 + time_limit_s
    result = ColorResult("max_iterations")
    if method == "sat":
        _run_sat(puzzle, result, deadline, max_iterations)
    elif variables == "face":
        _run_sa_faces(puzzle, result, deadline, max_iterations, seed, params)
    else:
        _run_sa(puzzle, result, deadline, max_iterations, seed, params)
    result.seconds = time.perf_counter() - t0
    if result.answer is not None:
        problems = check_colorlink(puzzle, result.answer)
        if problems:  # never a silent wrong answer
            raise AssertionError(f"the iterative method stopped on a wrong answer: {problems}")
    return result


def _run_sat(puzzle: ColorPuzzle, result: ColorResult, deadline: float, limit: int) -> None:
    from .sat import SatModel

    with SatModel(num_variables(puzzle), base_rows(puzzle)) as model:
        while result.iterations < limit:
            got, x = model.solve(deadline - time.perf_counter())
            if x is None:
                result.status = got
                if got == "infeasible":
                    result.reason = why_infeasible(puzzle)
                return
            if _advance(puzzle, result, x, model.add):
                return


def _run_sa(
    puzzle: ColorPuzzle,
    result: ColorResult,
    deadline: float,
    limit: int,
    seed: int,
    params: dict,
) -> None:
    from .anneal import QuboModel, anneal

    model = QuboModel(num_variables(puzzle), base_rows(puzzle))

    def draw(read_seed: int, hint: Any) -> tuple[Any, list[bool], int, int]:
        x, broken, reads = anneal(model, read_seed, deadline, hint, **params)
        return x, x, broken, reads

    base = random.Random(f"colorlink-sa-{seed}").randrange(2**31)  # seeds' reads never overlap
    _anneal_loop(puzzle, result, deadline, limit, base, draw, model.add)


def _run_sa_faces(
    puzzle: ColorPuzzle,
    result: ColorResult,
    deadline: float,
    limit: int,
    seed: int,
    params: dict,
) -> None:
    from .faces import FaceModel, anneal_faces

    params = dict(params)
    model = FaceModel(puzzle, base_rows(puzzle), degree=str(params.pop("degree", "ban")))
    cache: dict = {}

    def draw(read_seed: int, hint: Any) -> tuple[Any, list[bool], int, int]:
        return anneal_faces(model, read_seed, deadline, hint, cache=cache, **params)

    base = random.Random(f"colorlink-sa-face-{seed}").randrange(2**31)
    _anneal_loop(puzzle, result, deadline, limit, base, draw, model.add)


def _anneal_loop(
    puzzle: ColorPuzzle,
    result: ColorResult,
    deadline: float,
    limit: int,
    base: int,
    draw: Callable[[int, Any], tuple[Any, list[bool], int, int]],
    add_rows: Callable,
) -> None:
    """The elimination on an annealer: ``draw(seed, hint)`` returns (next hint, edge
    variables, rows broken, reads taken); each solution hints the next draw."""
    hint = None
    while result.iterations < limit:
        if time.perf_counter() >= deadline:
            result.status = "timeout"
            return
        hint_next, x, broken, reads = draw(base + result.reads, hint)
        result.reads += reads
        if broken:
            result.status = "timeout"
            return
        if _advance(puzzle, result, x, add_rows):
            return
        hint = hint_next


def _advance(puzzle: ColorPuzzle, result: ColorResult, x: list[bool], add_rows) -> bool:
    """One iteration after a solution of every row: True when the run is over."""
    result.iterations += 1
    answer, cuts, counts = step(puzzle, x)
    result.loops.append(counts)
    if answer is not None:
        result.status, result.answer = "solved", answer
        return True
    if not cuts:  # every colour one loop yet the checker refuses: cannot happen when rows hold
        result.status, result.reason = "stuck", "a solution of every row with no cut to add"
        return True
    add_rows(cuts)
    result.cuts += len(cuts)
    return False


def why_infeasible(puzzle: ColorPuzzle) -> str:
    """Name a colour whose own clues cannot form one loop, where there is one (each colour
    solved alone, black clues left out); else blame the colours' sharing of the board."""
    if len(puzzle.colours) > 1:
        for c in puzzle.colours:
            alone = ColorPuzzle(
                puzzle.board, tuple(k if k and k.colour == c else None for k in puzzle.clues)
            )
            if solve_colorlink(alone, "sat", time_limit_s=10.0).status == "infeasible":
                return f"colour {c}: its clues cannot form one loop"
        return "the colours' loops cannot share the board (black clues and one colour per edge)"
    return f"colour {puzzle.colours[0]}: its clues cannot form one loop"
