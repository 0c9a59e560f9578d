from __future__ import annotations

from slitherbench.puzzles.check import check_answer, loop_satisfies_clues, split_loops
from slitherbench.puzzles.puzzle import Puzzle
from slitherbench.sources.library import reference10


def _answer(d: dict) -> list[bool]:
    return [c == "1" for c in d["solution_H"] + d["solution_V"]]


def test_corpus_solution_accepted_and_every_single_flip_rejected(corpus_record: dict) -> None:
    p = Puzzle.from_rows(corpus_record["clues"])
    ans = _answer(corpus_record)
    assert check_answer(p, ans) == []
    loops = split_loops(p, ans)
    assert len(loops) == 1 and len(loops[0]) == sum(ans)
    assert loop_satisfies_clues(p, loops[0])
    for e in range(p.num_edges):
        flipped = list(ans)
        flipped[e] = not flipped[e]
        assert check_answer(p, flipped), f"edge {e} flipped was accepted"


def test_split_loops_separates_two_unit_squares() -> None:
    p = Puzzle.from_rows(["...", "..."])
    sel = [False] * p.num_edges
    for c in (0, 2):  # cells (0,0) and (0,2): two separate 4-edge loops
        for e in p.face_edges[c]:
            sel[e] = True
    loops = split_loops(p, sel)
    assert sorted(len(x) for x in loops) == [4, 4]
    problems = check_answer(p, sel)
    assert any("2 separate" in s for s in problems)


def test_check_names_degree_clue_and_no_loop() -> None:
    p = reference10()
    empty = [False] * p.num_edges
    problems = check_answer(p, empty)
    assert "no loop" in problems
    assert any("clue 1" in s for s in problems)
    one = list(empty)
    one[0] = True
    assert any("degree 1" in s for s in check_answer(p, one))
    assert check_answer(p, [True]) == ["answer has 1 edges, the board has 220"]
