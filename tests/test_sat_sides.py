"""The exact path's SAT form with face sides and cut-set cuts (method="sat-sides"): the same
status and answers as the plain lazy SAT loop on every board kind, never an answer cut away."""

from __future__ import annotations

import random

import pytest
from conftest import corpus_answer, grid_records

from slitherbench.puzzles.check import check_answer
from slitherbench.puzzles.puzzle import Puzzle
from slitherbench.solvers.cpsat_model import solve_exact
from slitherbench.solvers.sat_sides import _Cuts, sides_clauses, solve_sides
from slitherbench.sources.library import get_suite, loopy_dev

pytest.importorskip("pysat")

# Loopy's other grid kinds (its square boards number their edges otherwise; the square
# corpus runs in test_exact.py).
RECORDS = [r for r in grid_records() if r["loopy_type"] != 0]
SMALL_GRIDS = [r for r in RECORDS if r["num_faces"] <= 40][:12]


@pytest.mark.parametrize(
    "record",
    [r if r in SMALL_GRIDS else pytest.param(r, marks=pytest.mark.slow) for r in RECORDS],
    ids=[r["id"] for r in RECORDS],
)
def test_every_grid_kind_gets_loopys_answer_proved_unique(record: dict) -> None:
    p = Puzzle.parse(record["loopy_id"])
    r = solve_exact(p, time_limit_s=60, method="sat-sides")
    assert r.status == "unique" and r.answer == corpus_answer(record, p)


@pytest.mark.slow
@pytest.mark.parametrize("p", get_suite("targets")[:3], ids=str)
def test_large_generated_boards_get_their_own_answer_proved_unique(p: Puzzle) -> None:
    # The plain loop's own answer on these boards is the shipped one (test_exact.py and the
    # exact-path benchmark run it); here only the fast form, so the suite stays short.
    r = solve_exact(p, 120, method="sat-sides")
    assert r.status == "unique" and r.answer == p.meta["answer"]


def _thinned(p: Puzzle, answer: list[bool], keep: float, rng: random.Random) -> Puzzle:
    """The board with only some of its clues left (often several answers then)."""
    clues = {f: n for f, n in p.clue_faces if rng.random() < keep}
    faces = [None] * p.num_faces
    for f, n in clues.items():
        faces[f] = n
    return Puzzle.on_board(p.board, faces)


@pytest.mark.parametrize(
    "seed", [*range(8), *(pytest.param(s, marks=pytest.mark.slow) for s in range(8, 24))]
)
def test_fewer_clues_give_the_same_status_as_the_plain_loop(seed: int) -> None:
    # Cut-set cuts forbid every loop on a found loop's points: were one ever wrong, an answer
    # would go missing and "multiple" read "unique" (or "unique" read "infeasible").
    rng = random.Random(seed)
    record = rng.choice(SMALL_GRIDS)
    p = Puzzle.parse(record["loopy_id"])
    q = _thinned(p, corpus_answer(record, p), rng.choice((0.3, 0.6, 0.85)), rng)
    fast, plain = (solve_exact(q, 60, method=m) for m in ("sat-sides", "sat"))
    assert fast.status == plain.status
    assert len(fast.answers) == {"unique": 1, "multiple": 2, "infeasible": 0}[fast.status]
    assert all(check_answer(q, a) == [] for a in fast.answers)
    assert len({tuple(a) for a in fast.answers}) == len(fast.answers)


def test_a_cut_set_cut_where_the_clues_need_edges_elsewhere_else_a_loop_cut() -> None:
    from pysat.solvers import Solver

    def ring(p: Puzzle, faces: set[int]) -> list[int]:  # the border of these faces
        return sorted(e for f in faces for e in p.face_edges[f]
                      if sum(e in p.face_edges[g] for g in faces) == 1)  # fmt: skip

    # 3x3 board, a 3 in the bottom-right face: the loop around the top-left two faces leaves
    # it short, so every loop that stands alone on their six points is cut at once.
    p = Puzzle.from_rows(["...", "...", "..3"])
    with Solver(name="glucose4", bootstrap_with=sides_clauses(p)) as sat:
        cuts = _Cuts(p, sat, p.num_edges + p.num_faces)
        cuts.forbid(ring(p, {0, 1}))
        assert cuts.top == p.num_edges + p.num_faces + 1  # one helper: a cut-set cut
        points = {q for e in ring(p, {0, 1}) for q in p.edge_points[e]}
        near = {e for q in points for e in p.point_edges[q]}
        for faces in ({0, 1}, {0}, {1}):  # each loop alone among those points
            on = ring(p, faces)
            assert not sat.solve(
                assumptions=[*(e + 1 for e in on), *(-(e + 1) for e in near - set(on))]
            )
        assert sat.solve(assumptions=[e + 1 for e in ring(p, {5, 8})])  # an answer stays
    # Only a 0 far away: no clue needs an edge, so only that loop is cut (no helper).
    q = Puzzle.from_rows(["...", "...", "..0"])
    with Solver(name="glucose4", bootstrap_with=sides_clauses(q)) as sat:
        cuts = _Cuts(q, sat, q.num_edges + q.num_faces)
        cuts.forbid(ring(q, {0, 1}))
        assert cuts.top == q.num_edges + q.num_faces
        assert not sat.solve(assumptions=[e + 1 for e in ring(q, {0, 1})])
        assert sat.solve(assumptions=[e + 1 for e in ring(q, {0})])


def test_a_disc_cut_forbids_the_loops_inside_the_loop() -> None:
    from pysat.solvers import Solver

    def ring(p: Puzzle, faces: set[int]) -> list[int]:  # the border of these faces
        return sorted(e for f in faces for e in p.face_edges[f]
                      if sum(e in p.face_edges[g] for g in faces) == 1)  # fmt: skip

    # 5x5, a 3 in the bottom-right face (24). The loop around the top-left 3x3 block
    # encloses the loop around its centre face (6), which shares no point with it: the cut
    # on the block's disc forbids that inner loop too, a cut on its points alone would not.
    p = Puzzle.from_rows([".....", ".....", ".....", ".....", "....3"])
    block = {r * 5 + c for r in range(3) for c in range(3)}
    clue_loop = ring(p, {23, 24})  # three sides of the 3: an answer
    inner = [*ring(p, {6}), *clue_loop]  # a sample the clues allow: the centre loop beside it
    off = [-(e + 1) for e in range(p.num_edges) if e not in inner]
    for disc in (True, False):
        with Solver(name="glucose4", bootstrap_with=sides_clauses(p)) as sat:
            assert sat.solve(assumptions=[*(e + 1 for e in inner), *off])
            cuts = _Cuts(p, sat, p.num_edges + p.num_faces, discs=disc)
            cuts.forbid(ring(p, block))
            assert sat.solve(assumptions=[*(e + 1 for e in inner), *off]) is not disc
            assert sat.solve(assumptions=[e + 1 for e in clue_loop])  # the answer stays
            assert not sat.solve(assumptions=[e + 1 for e in ring(p, block)])


def _flooded_disc(p: Puzzle, loop: list[int]) -> set[int]:
    """The closed disc by its definition: the loop's points and the corners of every face
    that a flood from the rim, never crossing the loop, does not reach."""
    on = set(loop)
    edge_faces = p.board.edge_faces
    outside = {f for e, (f, g) in enumerate(edge_faces) if g < 0 and e not in on}
    stack = list(outside)
    while stack:
        for e in p.face_edges[stack.pop()]:
            for g in edge_faces[e]:
                if e not in on and g >= 0 and g not in outside:
                    outside.add(g)
                    stack.append(g)
    faces = [f for f in range(p.num_faces) if f not in outside]
    return {q for e in [*loop, *(e for f in faces for e in p.face_edges[f])]
            for q in p.edge_points[e]}  # fmt: skip


@pytest.mark.parametrize("seed", range(6))
def test_the_disc_is_what_the_outside_cannot_reach(seed: int) -> None:
    # Loops from the borders of random face sets (holes give loops inside loops), on square
    # boards and other grid kinds: the search from both sides of one edge finds the same disc
    # as a flood from the whole rim.
    from slitherbench.puzzles.check import split_loops

    rng = random.Random(seed)
    p = Puzzle.parse(rng.choice(SMALL_GRIDS)["loopy_id"]) if seed % 2 else loopy_dev()[12 * seed]
    cuts = _Cuts(p, None, 0)
    checked = 0
    for _ in range(40):
        faces = {f for f in range(p.num_faces) if rng.random() < 0.5}
        border = [sum(e in p.face_edges[f] for f in faces) == 1 for e in range(p.num_edges)]
        for loop in split_loops(p, border):
            if all(sum(e in p.point_edges[q] for e in loop) == 2 for e in loop
                   for q in p.edge_points[e]):  # fmt: skip
                assert cuts.disc(loop) == _flooded_disc(p, loop)
                checked += 1
    assert checked >= 20


def test_face_sides_make_every_degree_even() -> None:
    from pysat.solvers import Solver

    p = Puzzle.from_rows(["...", "...", "..."])
    with Solver(name="glucose4", bootstrap_with=sides_clauses(p)) as sat:
        for e in range(p.num_edges):  # one edge alone is never a border of faces
            others = [-(g + 1) for g in range(p.num_edges) if g != e]
            assert not sat.solve(assumptions=[e + 1, *others])
        assert sat.solve(assumptions=[e + 1 for e in p.face_edges[4]])


def test_bad_input_statuses_and_a_time_limit() -> None:
    assert solve_exact(Puzzle.from_rows(["30"]), method="sat-sides").status == "infeasible"
    r = solve_exact(Puzzle.from_rows(["1.", ".."]), method="sat-sides")
    assert r.status == "multiple" and all(check_answer(Puzzle.from_rows(["1.", ".."]), a) == []
                                          for a in r.answers)  # fmt: skip
    r = solve_exact(Puzzle.from_rows(["." * 12] * 12), time_limit_s=1e-6, method="sat-sides")
    assert r.status in ("timeout", "multiple")  # never "infeasible"


def test_rules_and_variants_go_to_the_plain_loop(monkeypatch) -> None:
    import slitherbench.solvers.cpsat_model as ex

    p = Puzzle.from_rows(["3.", ".."]).with_rules("no_square")
    with pytest.raises(ValueError, match="method='sat'"):
        solve_sides(p)
    seen: list[str] = []
    monkeypatch.setattr(ex, "_solve_sides", lambda *a: seen.append("sides"))
    solve_exact(p)  # auto: a rule on faces takes the plain loop
    assert seen == []
    solve_exact(Puzzle.from_rows(["3.", ".."]))
    assert seen == ["sides"]


def test_fixed_edges_are_kept() -> None:
    p = loopy_dev()[0]
    answer = solve_exact(p, method="sat-sides").answer
    assert answer is not None
    e = answer.index(True)
    assert solve_sides(p, fixed={e: 0}).status == "infeasible"
    assert solve_sides(p, fixed={e: 1}).status == "unique"


class _Recorder:
    """A stand-in for the solver that keeps the clauses a cut adds (``solver`` is what
    :meth:`_Cuts.cut_set` adds through)."""

    def __init__(self) -> None:
        self.clauses: list[list[int]] = []
        self.solver = self

    def add_clause(self, clause: list[int]) -> None:
        self.clauses.append(sorted(clause))


def _python_cuts(
    p: Puzzle, model: list[int], top: int, discs: bool
) -> list[tuple[list[int], object]]:
    """Each loop of the sample with what the Python code makes of it: "answer" or its cuts."""
    from slitherbench.puzzles.check import loop_satisfies_clues, split_loops

    out: list[tuple[list[int], object]] = []
    for loop in split_loops(p, [model[e] > 0 for e in range(p.num_edges)]):
        if loop_satisfies_clues(p, loop):
            out.append((sorted(loop), "answer"))
            continue
        rec = _Recorder()
        _Cuts(p, rec, top, discs).forbid(loop)
        out.append((sorted(loop), sorted(rec.clauses)))
    return out


def _compiled_cuts(p: Puzzle, board, model: list[int], top: int) -> list[tuple[list[int], object]]:
    out: list[tuple[list[int], object]] = []
    for kind, edges, inside, leaving in board.analyse(model):
        loop = sorted(edges.tolist())
        if kind == "answer":
            out.append((loop, "answer"))
            continue
        rec = _Recorder()
        cuts = _Cuts(p, rec, top)
        if kind == "cut set":
            cuts.cut_set(inside.tolist(), leaving.tolist())
        else:
            cuts.loop_cut(loop)
        out.append((loop, sorted(rec.clauses)))
    return out


# six small boards of other grid kinds and five squares, one of each size of the corpus
CUT_BOARDS = [Puzzle.parse(r["loopy_id"]) for r in SMALL_GRIDS[:6]] + list(loopy_dev()[:60:12])


@pytest.mark.slow  # the first call loads (or compiles) the numba code
@pytest.mark.parametrize("discs", [True, False], ids=["discs", "points"])
@pytest.mark.parametrize("thin", [1.0, 0.5])
@pytest.mark.parametrize("board", CUT_BOARDS, ids=str)
def test_the_compiled_analysis_makes_the_python_cuts_cut_for_cut(
    board: Puzzle, thin: float, discs: bool
) -> None:
    # Both see the same samples (the solver's, as the lazy loop goes on): the same loops,
    # the same answers flagged, the same clauses to the helper variable's number. With half
    # the clues gone, samples hold more loops and candidate answers.
    pytest.importorskip("numba")
    from pysat.solvers import Solver

    from slitherbench.solvers.sides_cuts import Board

    p = board if thin == 1 else _thinned(board, [], thin, random.Random(str(board)))
    compiled = Board(p, discs)
    top = p.num_edges + p.num_faces
    kinds = set()
    with Solver(name="glucose4", bootstrap_with=sides_clauses(p)) as sat:
        sat.add_clause(list(range(1, p.num_edges + 1)))
        for _ in range(40):
            if not sat.solve():
                break
            model = sat.get_model()
            want = _python_cuts(p, model, top, discs)
            assert _compiled_cuts(p, compiled, model, top) == want
            for loop, cut in want:
                kinds.add("answer" if cut == "answer" else len(cut) > 1)
                for clause in [[-(e + 1) for e in loop]] if cut == "answer" else cut:
                    sat.add_clause(clause)
                top += cut != "answer" and len(cut) > 1
    assert kinds  # at least one sample was compared


@pytest.mark.slow  # loads the numba code
def test_a_board_of_the_compiled_size_uses_the_compiled_analysis(monkeypatch) -> None:
    import slitherbench.solvers.sat_sides as ss

    pytest.importorskip("numba")
    made: list[int] = []
    import slitherbench.solvers.sides_cuts as sc

    class Counting(sc.Board):
        def __init__(self, puzzle: Puzzle, discs: bool = True) -> None:
            made.append(puzzle.num_edges)
            super().__init__(puzzle, discs)

    monkeypatch.setattr(sc, "Board", Counting)
    p = loopy_dev()[0]
    assert p.num_edges < ss.MIN_EDGES
    assert solve_sides(p).status == "unique" and made == []  # small: the Python code
    monkeypatch.setattr(ss, "MIN_EDGES", 10)
    assert solve_sides(p).status == "unique" and made == [p.num_edges]
    monkeypatch.setattr(ss, "find_spec", lambda name: None)  # no numba: the Python code
    assert solve_sides(p).status == "unique" and made == [p.num_edges]
