"""The independent judge: splits answers into loops and lists what is wrong with them.

Nothing here is shared with a formulation or a solver, so every ``solved`` the harness
records is checked by code that did not produce it.
"""

from __future__ import annotations

from .puzzle import Answer, Puzzle


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
    """Whether this loop alone gives every numbered face its count (the page's step 2)."""
    on = set(loop)
    faces = puzzle.face_edges
    return all(sum(e in on for e in faces[f]) == n for f, n in puzzle.clue_faces)


def check_answer(puzzle: Puzzle, answer: Answer) -> list[str]:
    """Every rule the answer breaks; an empty list means a valid solution."""
    if len(answer) != puzzle.num_edges:
        return [f"answer has {len(answer)} edges, the board has {puzzle.num_edges}"]
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

    used = set()
    for e, (a, b) in enumerate(puzzle.edge_points):
        if sel[e]:
            parent[root(a)] = root(b)
            used.update((a, b))
    comps = {root(p) for p in used}
    if not comps:
        problems.append("no loop")
    elif len(comps) > 1:
        problems.append(f"{len(comps)} separate loops or paths")
    return problems
