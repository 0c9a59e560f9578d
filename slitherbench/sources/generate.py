"""Random puzzles with a unique solution.

A random simply-connected region of faces is grown one face at a time (a face is kept only
if the region's boundary stays one non-touching loop), on any board; every face gets its
clue, then clues are removed in random order while the loop stays the only answer.

Each removal is judged by one incremental SAT solver (python-sat, extra [exact]) that holds
every clue behind a switch: "another answer without clue c?" is a solve under assumptions
(the other clues on, and c broken: with c the answer was unique, so another must break it),
samples of several loops are cut with region cuts (they hold for any single
loop, whatever the clues, so the cuts stay valid as clues go) and nothing is rebuilt: a
32x46 board takes seconds, not hours, and any board of :mod:`slitherbench.puzzles.boards` works
(:func:`generate_on`). Without python-sat, CP-SAT's circuit model judges each
removal (the same answers: 82 s for a 15x15). Same (board, seed) -> same puzzle.

With ``rules`` (:mod:`slitherbench.puzzles.rules`) the random region must keep them too (a face joins
only if each rule's ``may_join`` lets it and the checker finds the loop keeps every rule) and
the judge asks for another answer *under the rules* (their rows are in the description it
solves): the puzzle is unique under its rules, and may have other answers as plain
Slitherlink. Its name says so (``gen-5x5-<rule>-s1``).
"""

from __future__ import annotations

import random
import threading
from collections.abc import Sequence
from importlib.util import find_spec
from itertools import product

from ortools.sat.python import cp_model

from slitherbench.models.formulations import Constraint, region_parts
from slitherbench.puzzles.boards import Board, square_board
from slitherbench.puzzles.check import check_answer
from slitherbench.puzzles.puzzle import Puzzle
from slitherbench.puzzles.rules import get_rule, normal_rules, rule_problem
from slitherbench.solvers.cpsat_model import build_circuit_model, cp_solver

# Plain regions aim at 55% of the faces; under rules the lowest of the rules' own aims
# (:attr:`Rule.region_fill`: No-Square's 50%, where its growth no longer stalls).
PLAIN_FILL = 0.55


def random_loop(
    board: Board, rng: random.Random, fill: float = PLAIN_FILL, rules: tuple[str, ...] = ()
) -> list[bool]:
    """The boundary of a random region of about ``fill`` of the faces whose boundary is one
    loop (a face joins only if the boundary stays one loop that touches no point twice and
    keeps ``rules``: each rule's :meth:`~slitherbench.puzzles.rules.Rule.may_join` first, then the
    checker)."""
    blank = Puzzle.on_board(board, [None] * board.num_faces, rules=rules)
    keep = [get_rule(r) for r in rules]

    def may_join(f: int) -> bool:
        return all(rule.may_join(board, inside, f) for rule in keep)

    F = board.num_faces
    inside = [False] * F
    if board.kind == "square":  # the draws of every square puzzle made so far: keep them
        f0 = rng.randrange(board.height) * board.width + rng.randrange(board.width)
    else:
        f0 = rng.randrange(F)
    if not may_join(f0):  # a rule forbids that face from the start: one it allows
        f0 = rng.choice([f for f in range(F) if may_join(f)])
    inside[f0] = True
    size, target = 1, max(1, int(fill * F))
    stalls = 0
    while size < target and stalls < 20 * F:
        frontier = [
            f
            for f in range(F)
            if not inside[f] and any(g >= 0 and inside[g] for g in board.face_neighbours[f])
        ]
        if keep:  # a face a rule turns away never joins: skip it
            frontier = [f for f in frontier if may_join(f)]
        if not frontier:
            break
        f = rng.choice(frontier)
        inside[f] = True
        if not check_answer(blank, board.boundary(inside)):  # one loop, every rule kept
            size += 1
            stalls = 0
        else:
            inside[f] = False
            stalls += 1
    return board.boundary(inside)


def _has_other_answer(puzzle: Puzzle, answer: list[bool], time_limit_s: float) -> bool:
    model, x = build_circuit_model(puzzle)
    model.add_bool_or([v.negated() if on else v for v, on in zip(x, answer, strict=True)])
    st = cp_solver(time_limit_s, seed=0, workers=1).solve(model)
    # Out of time counts as "maybe another answer": keep the clue, never risk non-uniqueness.
    return st != cp_model.INFEASIBLE


class SatJudge:
    """Is there a single loop other than ``answer`` under the clues still switched on?"""

    def __init__(self, full: Puzzle, answer: list[bool]) -> None:
        from pysat.solvers import Solver

        from slitherbench.solvers.sat import puzzle_clauses

        self.full, self.answer = full, answer
        top = full.num_edges + 1
        self.guard = {c: top + 2 * k for k, (c, _) in enumerate(full.clue_faces)}
        self.broken = {c: top + 2 * k + 1 for k, (c, _) in enumerate(full.clue_faces)}
        self.on = set(self.guard)
        self.sat = Solver(name="glucose4")
        for clause in puzzle_clauses(full, guards=self.guard):
            self.sat.add_clause(clause)
        # broken[c] => cell c's sum is not its clue: one clause per edge pattern with that sum.
        for c, n in full.clue_faces:
            edges = full.face_edges[c]
            for pattern in product((False, True), repeat=len(edges)):
                if sum(pattern) == n:
                    lits = [-(e + 1) if on else e + 1 for e, on in zip(edges, pattern, strict=True)]
                    self.sat.add_clause([-self.broken[c], *lits])
        # Not the answer: not all of its edges on (a single loop holding them all is it).
        self.sat.add_clause([-(e + 1) for e, on in enumerate(answer) if on])

    def other_answer(self, puzzle: Puzzle, without: int, time_limit_s: float) -> bool:
        """The elimination loop (:class:`~.elimination.Elimination`) on this solver, under
        the clues of ``puzzle``: True at the first loop that satisfies them alone, or when out
        of time (keep the clue, never risk non-uniqueness); False when no assignment is left.
        Its region cuts hold for any clues, so they stay in the solver for later removals."""
        from slitherbench.method.elimination import Elimination
        from slitherbench.models.formulations import ConsFormulation, Model

        # Another answer without clue c must break c (with c the answer was unique): asking
        # for that keeps the search near c.
        assumptions = [self.guard[c] for c in self.on if c != without] + [self.broken[without]]
        cuts = Model(puzzle, ConsFormulation(cut="region"))  # this judgement's cuts
        added, out_of_time = 0, False

        def solve(k: int, left: float, _previous: list[bool] | None) -> list[bool] | None:
            nonlocal added, out_of_time
            for piece in cuts.pieces[added:]:
                self.sat.add_clause(cut_clause(piece.constraint))
            added = len(cuts.pieces)
            got = self.sat.solve_limited(assumptions=assumptions, expect_interrupt=True)
            out_of_time = got is None
            if not got:
                return None
            model = set(self.sat.get_model())
            return [e + 1 in model for e in range(self.full.num_edges)]

        timer = threading.Timer(time_limit_s, self.sat.interrupt)
        timer.start()
        try:
            elim = Elimination(cuts, solve, verify=False).run()
        finally:
            timer.cancel()
            self.sat.clear_interrupt()
        # An empty board or loops that give no cut: keep the clue too (as out of time).
        return elim.stop != "exhausted" or out_of_time

    def remove(self, cell: int) -> None:
        self.on.discard(cell)


def cut_clause(c: Constraint) -> list[int]:
    """A cut as one clause (edge e is DIMACS variable e + 1): a region cut by parity
    (:func:`~slitherbench.models.encode.region_clause`), a loop cut as "not every edge of the loop"."""
    from slitherbench.models.encode import region_clause

    if c.kind == "region":
        return region_clause(*region_parts(c))
    return [-(e + 1) for e in c.edges]


def generate(
    rows: int,
    cols: int,
    seed: int,
    time_limit_s: float = 5.0,
    rules: Sequence[str] = (),
    min_grade: str | None = None,
) -> Puzzle:
    """A unique square puzzle (rows x cols) under ``rules``, the same for the same arguments
    (``min_grade``: of that deduction grade, :func:`generate_on`)."""
    if rows < 2 or cols < 2:
        raise ValueError(f"generate needs at least 2x2 cells, got {rows}x{cols}")
    return generate_on(square_board(rows, cols), seed, time_limit_s, rules, min_grade)


def generate_on(
    board: Board,
    seed: int,
    time_limit_s: float = 5.0,
    rules: Sequence[str] = (),
    min_grade: str | None = None,
) -> Puzzle:
    """A puzzle with exactly one answer (under ``rules``) on any board, the same for the same
    board, seed and rules.

    Every face starts with its clue; clues go in random order while the answer stays the
    only one (each removal judged as the module docstring says). With ``min_grade``
    (``lookahead1`` or ``lookahead2``) the board is one deduction needs that level for
    (:func:`generate_graded`); ``time_limit_s`` is then unused.
    """
    rules = normal_rules(tuple(rules))
    problem = rule_problem(rules, board)
    if problem is not None:
        raise ValueError(problem)
    if board.kind == "square":
        name = f"{board.height}x{board.width}"
    else:
        name = board.label.replace(" ", "-") + (f"-{board.desc}" if board.desc else "")
    name += "".join(f"-{r}" for r in rules)  # plain puzzles keep their names and draws
    if min_grade is not None:
        return generate_graded(board, seed, rules, min_grade, name)
    rng = random.Random(f"slitherbench-{name}-{seed}")
    fill = min((get_rule(r).region_fill for r in rules), default=PLAIN_FILL)
    answer = random_loop(board, rng, fill, rules=rules)
    clues: list[int | None] = [sum(answer[e] for e in sides) for sides in board.face_edges]
    order = list(range(board.num_faces))
    rng.shuffle(order)
    full = Puzzle.on_board(board, clues, rules=rules)
    broken = check_answer(full, answer)
    if broken:  # the region could not grow into an answer (a rule no region on it keeps)
        raise ValueError(f"no answer drawn on the {board.label} under {rules}: {broken[0]}")
    judge = SatJudge(full, answer) if find_spec("pysat") else None
    for f in order:
        keep = clues[f]
        clues[f] = None
        trial = Puzzle.on_board(board, clues, rules=rules)
        if judge is None:
            other = _has_other_answer(trial, answer, time_limit_s)
        else:
            other = judge.other_answer(trial, f, time_limit_s)
        if other:
            clues[f] = keep
        elif judge is not None:
            judge.remove(f)
    return Puzzle.on_board(board, clues, name=f"gen-{name}-s{seed}", rules=rules, answer=answer)


# The levels a generated board may be asked to need, and how many answers (each a fresh
# random loop and removal order from the seed) are tried before giving up.
MIN_GRADES = ("lookahead1", "lookahead2")
GRADE_TRIES = 50


def generate_graded(
    board: Board, seed: int, rules: Sequence[str], min_grade: str, name: str = ""
) -> Puzzle:
    """A puzzle whose deduction grade (:func:`slitherbench.deduction.grade`) is
    ``min_grade``: the lowest level that solves it, without assuming uniqueness, is that one.

    As Loopy makes its graded puzzles: every face starts with its clue; the clues go in
    random order while rules alone still solve the board, then, in the same order, while
    ``min_grade`` does. (A pass at look-ahead 1 between the two would leave boards that no
    single removal takes to look-ahead 2: on 7x7 boards, none in 20 tries.) A board that
    deduction solves has exactly one answer (each move holds for every answer), so no solver
    judges a removal, and the board left needs no more than ``min_grade``. If it needs less,
    the next answer drawn from the seed is tried, up to :data:`GRADE_TRIES` (look-ahead 2
    took up to 25 tries on 49 faces, up to 7 on about 100, up to 3 on 15x15). Same (board,
    seed, rules, min_grade) -> same puzzle; its name says the grade
    (``gen-7x7-lookahead1-s1``) and ``meta`` holds ``grade``, ``grade_shares`` and
    ``grade_tries``.
    """
    from slitherbench.deduction import deduce, grade
    from slitherbench.sources.grades import shares_text

    if min_grade not in MIN_GRADES:
        raise ValueError(f"min_grade {min_grade!r} is not one of {', '.join(MIN_GRADES)}")
    rules = normal_rules(tuple(rules))
    name = name or f"{board.height}x{board.width}"
    levels = ("rules", min_grade)
    fill = min((get_rule(r).region_fill for r in rules), default=PLAIN_FILL)
    for attempt in range(GRADE_TRIES):
        # the first try draws the plain generator's answer and order for this seed
        rng = random.Random(f"slitherbench-{name}-{seed}" + (f"-try{attempt}" if attempt else ""))
        answer = random_loop(board, rng, fill, rules=rules)
        clues: list[int | None] = [sum(answer[e] for e in sides) for sides in board.face_edges]
        order = list(range(board.num_faces))
        rng.shuffle(order)
        broken = check_answer(Puzzle.on_board(board, clues, rules=rules), answer)
        if broken:
            raise ValueError(f"no answer drawn on the {board.label} under {rules}: {broken[0]}")
        expected = tuple(int(v) for v in answer)
        for level in levels:
            for f in order:
                if clues[f] is None:
                    continue
                keep, clues[f] = clues[f], None
                found = deduce(Puzzle.on_board(board, clues, rules=rules), level=level)
                if not found.solved:
                    clues[f] = keep
                elif found.edges != expected:  # a sound engine cannot: say so, never ship it
                    raise RuntimeError(f"deduction solved {board.label} to another answer")
        p = Puzzle.on_board(
            board, clues, name=f"gen-{name}-{min_grade}-s{seed}", rules=rules, answer=answer
        )
        graded = grade(p)
        if graded.level == min_grade:
            shares = shares_text(graded.shares)
            p.meta.update(grade=graded.level, grade_shares=shares, grade_tries=attempt + 1)
            return p
    raise ValueError(
        f"no {board.label} board of grade {min_grade} in {GRADE_TRIES} tries from seed {seed}"
    )
