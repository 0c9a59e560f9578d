"""The independent judge: splits answers into loops and lists what is wrong with them.

Nothing here is shared with a formulation or a solver, so every ``solved`` the harness
records is checked by code that did not produce it. A puzzle's extra rules are judged by
each rule's own checker hook (:mod:`slitherbench.puzzles.rules`), written apart from the rows it
gives the solvers.
"""

from __future__ import annotations

from slitherbench.puzzles.puzzle import Answer, Puzzle
from slitherbench.puzzles.rules import RuleError, get_rule


def split_loops(puzzle: Puzzle, answer: Answer) -> list[list[int]]:
    """Split the selected edges into connected components (loops when every degree is 0/2).

    O(E): each selected edge is visited once, walking point to point through the
    precomputed point->edges table. A component that is not a simple cycle (a branch or an
    open path) is still returned, as its edge list, so callers can report it.
    """
    if len(answer) != puzzle.num_edges:
        raise ValueError(f"answer has {len(answer)} edges, the board has {puzzle.num_edges}")
    seen = [False] * puzzle.num_edges
    pe, ep = puzzle.point_edges, puzzle.edge_points
    loops: list[list[int]] = []
    for start in range(puzzle.num_edges):
        if not answer[start] or seen[start]:
            continue
        comp: list[int] = []
        stack = [start]
        seen[start] = True
        while stack:
            e = stack.pop()
            comp.append(e)
            for p in ep[e]:
                for f in pe[p]:
                    if answer[f] and not seen[f]:
                        seen[f] = True
                        stack.append(f)
        loops.append(sorted(comp))
    return loops


def loop_satisfies_clues(puzzle: Puzzle, loop: list[int]) -> bool:
    """Whether this loop alone gives every numbered face its count and keeps the puzzle's
    rules (the page's step 2: "one loop that satisfies every rule")."""
    on = set(loop)
    faces = puzzle.face_edges
    if not all(sum(e in on for e in faces[f]) == n for f, n in puzzle.clue_faces):
        return False
    if not puzzle.rules:
        return True
    return not rule_problems(puzzle, [e in on for e in range(puzzle.num_edges)])


def answer_edges(puzzle: Puzzle, loops: list[list[int]]) -> list[int] | None:
    """The page's step 2 on a sample's loops: the edges of the answer they hold (one loop that
    satisfies every clue and rule alone; a variant's own choice, e.g. one loop per colour), or
    None when they hold none and must be cut."""
    if puzzle.variant:
        return puzzle.variant_answer(loops)  # type: ignore[attr-defined]
    return next((lp for lp in loops if loop_satisfies_clues(puzzle, lp)), None)


def rule_problems(puzzle: Puzzle, answer: Answer) -> list[str]:
    """What the answer breaks of the puzzle's extra rules, each judged by the rule's own
    checker hook (:meth:`slitherbench.puzzles.rules.Rule.problems`). A rule that is not registered
    is a problem itself: no answer passes a rule the checker cannot judge."""
    sel = [bool(x) for x in answer]
    problems: list[str] = []
    for name in puzzle.rules:
        try:
            rule = get_rule(name)
        except RuleError as exc:
            problems.append(f"{exc}: the checker cannot judge it")
            continue
        problems += rule.problems(puzzle, sel)
    return problems


def check_answer(puzzle: Puzzle, answer: Answer) -> list[str]:
    """Every rule the answer breaks; an empty list means a valid solution."""
    if len(answer) != puzzle.num_edges:
        return [f"answer has {len(answer)} edges, the board has {puzzle.num_edges}"]
    if (
        puzzle.variant
    ):  # the variant's own checker (Colorlink: slitherbench.puzzles.colorlink.check)
        return puzzle.variant_problems(answer)  # type: ignore[attr-defined]
    sel = [bool(x) for x in answer]
    problems: list[str] = []
    for p, edges in enumerate(puzzle.point_edges):
        d = sum(sel[e] for e in edges)
        if d not in (0, 2):
            problems.append(f"{puzzle.point_name(p)} has degree {d}")
    for f, n in puzzle.clue_faces:
        k = sum(sel[e] for e in puzzle.face_edges[f])
        if k != n:
            problems.append(f"{puzzle.face_name(f)} has {k} sides on the loop, clue {n}")
    # Components by union-find over grid points: deliberately not split_loops, which the
    # runner uses, so a bug there cannot hide here.
    parent = list(range(puzzle.num_points))

    def root(a: int) -> int:
        while parent[a] != a:
            parent[a] = parent[parent[a]]
            a = parent[a]
        return a

    used: set[int] = set()
    for e, (a, b) in enumerate(puzzle.edge_points):
        if sel[e]:
            parent[root(a)] = root(b)
            used.update((a, b))
    comps = {root(p) for p in used}
    if not comps:
        problems.append("no loop")
    elif len(comps) > 1:
        problems.append(f"{len(comps)} separate loops or paths")
    return problems + rule_problems(puzzle, sel)
