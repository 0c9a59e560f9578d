"""ZDD (graphillion), the survey's ZDD family (Yoshinaka et al.): one zero-suppressed
decision diagram of every single loop on the grid (degree 0 or 2 at each point, one connected
component) whose clue sums hold. It solves the whole puzzle at once (direct mode: one
iteration) and counts the answers, so uniqueness comes with it (``extras.solutions``).

The diagram can outgrow memory (over 8 GB on a 10x18 board, as the survey found on its
largest instance): it is built in a forked child under an address-space cap
(``memory_cap_gb``) and killed at the time limit, and the trial records ``error: out of
memory (cap N GB)`` instead of taking the machine down. Graphillion's default (greedy) edge
order is kept: the page's edge numbering ran out of memory even at 5x5.

A puzzle rule on faces (No-Square) is a skip, in one line: the diagram holds edge sets under
degree and linear edge constraints, and "no 2x2 block of cells inside the loop" is none of
those (it speaks of the loop's inside, a global property of the edge set).
"""

from __future__ import annotations

import faulthandler
import multiprocessing as mp
import os
import resource
import time
from collections.abc import Mapping
from typing import Any

from slitherbench.method.record import Capability, SolveResult
from slitherbench.models.encode import linear_row
from slitherbench.models.formulations import Model, base_constraints
from slitherbench.puzzles.puzzle import Puzzle
from slitherbench.solvers.base import Backend, BackendUnavailable
from slitherbench.solvers.child import run_in_child
from slitherbench.solvers.constraints import NoSolution, edges_result


def rules_reason(puzzle: Puzzle) -> str | None:
    """Why the ZDD cannot take the puzzle's rules (one line), or None. It takes a rule whose
    rows are all plain ranges of edge sums (graphillion's linear constraints: an edge kept
    off the loop, say); a row on faces, or a sum in a set with gaps, it cannot write."""
    from slitherbench.models.encode import Unencodable

    unfit = set()
    for c in base_constraints(puzzle):
        if c.kind in ("clue", "degree"):
            continue
        try:
            if c.faces or linear_row(c).step:
                unfit.add(c.kind)
        except Unencodable:
            unfit.add(c.kind)
    if not unfit:
        return None
    return (
        f"the ZDD cannot take rule {', '.join(sorted(unfit))}: graphillion constrains degrees "
        "and ranges of edge sums, not which faces lie inside the loop"
    )


def _count_loops(puzzle: Puzzle, forbidden: list[tuple[int, ...]]) -> tuple[int, list[bool] | None]:
    """The diagram from the constraint description: degree rules as graphillion's degree
    constraints, clue sums as its linear constraints, cuts as excluded edge sets."""
    from graphillion import GraphSet

    edges = [(a + 1, b + 1) for a, b in puzzle.edge_points]  # graphillion vertices from 1
    GraphSet.set_universe(edges)
    degree: dict[int, range] = {}
    clues = []
    for c in base_constraints(puzzle):
        row = linear_row(c)
        if c.kind == "degree":  # point p's edges: a range with a step ({0, 2})
            degree[c.index + 1] = range(row.lo, row.hi + 1, row.step or 1)
        else:
            terms = [edges[e] if a == 1 else (*edges[e], a) for e, a in row.terms]
            clues.append((terms, (row.lo, row.hi)))
    gs = GraphSet.graphs(
        vertex_groups=[[]], degree_constraints=degree, linear_constraints=clues or None
    )
    for loop in forbidden:  # cuts from earlier iterations: no graph holding all of a loop
        gs = gs.excluding(GraphSet([[edges[e] for e in loop]]))
    count = gs.len()
    if count == 0:
        return 0, None
    chosen = set(next(iter(gs)))
    return count, [edge in chosen for edge in edges]


def _count_capped(puzzle: Puzzle, forbidden: list[tuple[int, ...]], cap: int, threads: int) -> Any:
    try:
        # Graphillion's OpenMP threads spin: on busy cores a 5x5 board took 2.4 s, not 0.03 s.
        os.environ["OMP_NUM_THREADS"] = str(threads)
        resource.setrlimit(resource.RLIMIT_AS, (cap, cap))
        # At the cap the C++ allocator aborts with a message (and a fault handler inherited
        # from the parent would add a dump): the parent reports it in one line instead.
        faulthandler.disable()
        null = os.open(os.devnull, os.O_WRONLY)
        os.dup2(null, 2)
        return _count_loops(puzzle, forbidden)
    except MemoryError:
        return "oom"
    except Exception as exc:
        return f"{type(exc).__name__}: {exc}"


class ZddBackend(Backend):
    name = "zdd"
    takes = frozenset({Capability.CONSTRAINTS})
    packages = ("graphillion",)
    imports = ("graphillion",)
    variables = frozenset({"edge"})  # its loops are sets of edges: no face model

    def __init__(self, memory_cap_gb: float = 4.0, threads: int = 1, **params: Any) -> None:
        super().__init__(memory_cap_gb=memory_cap_gb, threads=threads, **params)

    def start(self, model: Model) -> None:
        if model.puzzle.variant:  # graphillion's cycle sets hold one connected loop
            raise BackendUnavailable(
                f"the ZDD cannot take a {model.puzzle.variant} puzzle: graphillion's loops "
                "are one connected cycle, not one loop per colour"
            )
        reason = rules_reason(model.puzzle) if model.puzzle.rules else None
        if reason:
            raise BackendUnavailable(reason)

    def solve(
        self, model: Model, *, seed: int, hint: Mapping[int, int] | None, time_limit_s: float
    ) -> SolveResult:
        t0 = time.perf_counter()
        cap_gb = float(self.params["memory_cap_gb"])
        forbidden = [p.constraint.edges for p in model.pieces if p.constraint.kind == "cut"]
        cap, threads = int(cap_gb * 2**30), int(self.params["threads"])
        got = _run_capped(model.puzzle, forbidden, cap, time_limit_s, threads)
        if got == "timeout":
            raise NoSolution("timeout", f"the ZDD was not built within {time_limit_s:g} s")
        if got == "oom":
            raise NoSolution("error", f"out of memory (cap {cap_gb:g} GB)")
        if isinstance(got, str):
            raise NoSolution("error", got)
        count, edges = got
        if edges is None:
            raise NoSolution("error", "the constraints so far admit no assignment")
        extras = {"solutions": int(count), "unique": count == 1}
        return edges_result(
            model, edges, solve_s=time.perf_counter() - t0, hint_used=False, extras=extras
        )


def _run_capped(
    puzzle: Puzzle, forbidden: list[tuple[int, ...]], cap: int, limit_s: float, threads: int = 1
) -> Any:
    """The child's answer, "oom", "timeout" or an error text."""
    out = run_in_child(
        mp.get_context("fork"), _count_capped, (puzzle, forbidden, cap, threads), limit_s
    )
    if out.died:  # died without a word: the allocator aborts when the cap is reached
        return "oom" if out.exitcode is None or out.exitcode < 0 else "no answer"
    return out.got if out.answered else "timeout"
