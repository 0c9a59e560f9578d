"""Each deduction rule on a small hand-made board: one where it must fire, one where it must not.

Square boards use the page's numbering (``Puzzle.h``/``Puzzle.v``); a move is recognised by
the rule name the engine's trace gives it (:mod:`slitherbench.deduction`).
"""

from __future__ import annotations

import pytest

from slitherbench.deduction import deduce, grade
from slitherbench.puzzles.boards import loopy_board
from slitherbench.puzzles.puzzle import Puzzle
from slitherbench.puzzles.rules import Rule, register_rule, unregister_rule
from slitherbench.sources.library import loopy_dev


def rules_of(found) -> set[str]:
    return {m.rule for m in found.trace}


def fixed_by(found, rule: str) -> dict[int, int]:
    return {m.index: m.value for m in found.trace if m.kind == "edge" and m.rule == rule}


def fires(found, rule: str, expected: dict[int, int]) -> bool:
    """``rule`` made a move and the ``expected`` edges hold their values (a move is traced
    under the first rule that made it, so another rule may have fixed some of them)."""
    return rule in rules_of(found) and all(found.edges[e] == v for e, v in expected.items())


def blank(rows: int, cols: int, rules: tuple[str, ...] = ()) -> Puzzle:
    return Puzzle.from_rows(["." * cols] * rows, rules=rules)


def test_a_blank_board_fixes_nothing_at_any_level() -> None:
    p = blank(2, 2)
    for level in ("rules", "lookahead1", "lookahead2"):
        found = deduce(p, level)
        assert found.level == "none" and found.num_fixed == 0 and not found.trace
        assert found.contradiction is None and not found.solved


def test_clue_count_fires_on_a_zero_and_not_on_a_free_two() -> None:
    p = Puzzle.from_rows(["0..", "...", "..."])
    found = deduce(p)
    assert "clue" in rules_of(found)  # the corner's point-degree moves may take a side first
    assert all(found.edges[e] == 0 for e in p.face_edges[0]) and 1 not in found.edges
    p = Puzzle.from_rows(["...", ".2.", "..."])
    assert deduce(p).num_fixed == 0


def test_point_degree_continues_a_line_round_a_corner_and_leaves_a_junction() -> None:
    p = blank(2, 2)
    found = deduce(p, fixed={p.h(0, 0): 1})
    assert fixed_by(found, "point-degree") == {p.v(0, 0): 1}
    found = deduce(p, fixed={p.h(1, 0): 1})  # its ends have three and four edges
    assert "point-degree" not in rules_of(found)
    assert found.num_fixed == 1


def u_round_top_left(p: Puzzle) -> dict[int, int]:
    """Three sides of the top-left cell: the closing edge is its right side, v(0, 1)."""
    return {p.h(0, 0): 1, p.v(0, 0): 1, p.h(1, 0): 1}


def test_no_premature_loop_when_the_loop_would_leave_a_clue_short() -> None:
    p = Puzzle.from_rows(["..", ".1"])
    found = deduce(p, fixed=u_round_top_left(p))
    assert fixed_by(found, "no-premature-loop") == {p.v(0, 1): 0}
    assert not found.used_uniqueness


def test_a_loop_that_completes_the_answer_is_closed_only_under_uniqueness() -> None:
    p = blank(2, 2)
    found = deduce(p, fixed=u_round_top_left(p))
    assert found.edges[p.v(0, 1)] == -1 and not found.used_uniqueness
    assert "no-premature-loop" not in rules_of(found)
    found = deduce(p, fixed=u_round_top_left(p), assume_unique=True)
    assert fixed_by(found, "loop-completes-answer") == {p.v(0, 1): 1}
    assert found.used_uniqueness and found.solved
    assert any(m.assumes_unique for m in found.trace)


def test_a_closed_loop_turns_every_other_edge_off() -> None:
    p = blank(3, 3)
    fixed = {**u_round_top_left(p), p.v(0, 1): 1}
    found = deduce(p, fixed=fixed)
    assert found.solved and set(fixed_by(found, "loop-closed").values()) == {0}
    assert sum(found.edges) == 4
    assert "loop-closed" not in rules_of(deduce(p, fixed=u_round_top_left(p)))


def test_face_sides_fix_the_edge_between_two_faces_of_one_side() -> None:
    # (0,1) is outside (its top is off); (1,0) too (its left), and (1,1) joins it (v(1,1) off):
    # the edge between (0,1) and (1,1) is off, though no point or clue says so.
    p = blank(3, 3)
    fixed = {p.h(0, 1): 0, p.v(1, 0): 0, p.v(1, 1): 0}
    found = deduce(p, fixed=fixed)
    assert fixed_by(found, "colour") == {p.h(1, 1): 0}
    assert found.faces[1] == 0 and found.faces[4] == 0 and found.faces[3] == 0
    fixed.pop(p.v(1, 1))
    found = deduce(p, fixed=fixed)
    assert found.edges[p.h(1, 1)] == -1 and found.faces[4] == -1


def test_corner_with_one_line_at_the_point_fixes_a_threes_far_sides() -> None:
    p = Puzzle.from_rows(["...", ".3.", "..."])
    found = deduce(p, fixed={p.h(1, 0): 1})  # a line into the 3's top-left corner
    assert fixed_by(found, "corner") == {p.h(2, 1): 1, p.v(1, 2): 1}
    p = Puzzle.from_rows(["...", ".2.", "..."])
    found = deduce(p, fixed={p.h(1, 0): 1})
    assert "corner" not in rules_of(found) and found.edges[p.h(2, 1)] == -1


@pytest.mark.parametrize(("clue", "value"), [(1, 0), (3, 1)])
def test_corner_both_or_neither_at_a_point_with_no_other_way(clue: int, value: int) -> None:
    # the middle cell's top-left point keeps only the cell's own two sides
    p = Puzzle.from_rows(["...", f".{clue}.", "..."])
    found = deduce(p, fixed={p.h(1, 0): 0, p.v(0, 1): 0})
    assert fires(found, "corner", {p.h(1, 1): value, p.v(1, 1): value})
    p = Puzzle.from_rows([f"{clue}..", "...", "..."])  # the board's corner: the same move
    assert all(deduce(p).edges[e] == value for e in (p.h(0, 0), p.v(0, 0)))


def test_corner_both_or_neither_leaves_a_two() -> None:
    p = Puzzle.from_rows(["...", ".2.", "..."])
    found = deduce(p, fixed={p.h(1, 0): 0, p.v(0, 1): 0})
    assert "corner" not in rules_of(found) and found.edges[p.h(1, 1)] == -1


def test_clue_sides_a_three_between_two_outside_neighbours_is_inside() -> None:
    # The 3's top and bottom neighbours are outside: were the 3 outside, only its left and
    # right sides could be lines. So it is inside, and its top and bottom are lines.
    p = Puzzle.from_rows(["...", ".3.", "..."])
    found = deduce(p, fixed={p.h(0, 1): 0, p.h(3, 1): 0})
    assert fires(found, "clue-sides", {p.h(1, 1): 1, p.h(2, 1): 1})
    assert found.faces[4] == 1
    p = Puzzle.from_rows(["...", ".2.", "..."])
    found = deduce(p, fixed={p.h(0, 1): 0, p.h(3, 1): 0})
    assert "clue-sides" not in rules_of(found) and found.edges[p.h(1, 1)] == -1


def test_clue_sides_contradiction_when_every_neighbour_is_on_one_side() -> None:
    p = Puzzle.from_rows(["...", ".2.", "..."])
    # all four neighbours of the 2 outside: its sides are all lines or none
    fixed = {p.h(0, 1): 0, p.h(3, 1): 0, p.v(1, 0): 0, p.v(1, 3): 0}
    found = deduce(p, fixed=fixed)
    assert found.contradiction is not None and not found.solved


def test_a_cut_keeps_its_last_edge_off() -> None:
    p = blank(2, 2)
    cut = [p.h(0, 0), p.v(0, 0), p.h(1, 0), p.v(0, 1)]  # the top-left cell's loop
    found = deduce(p, fixed=u_round_top_left(p), cuts=[cut])
    assert fixed_by(found, "cut") == {p.v(0, 1): 0}
    found = deduce(p, fixed=u_round_top_left(p), cuts=[[p.h(0, 1), p.v(0, 2)]])
    assert "cut" not in rules_of(found) and found.edges[p.v(0, 1)] == -1


def test_a_cut_that_is_all_on_is_a_contradiction() -> None:
    p = blank(2, 2)
    found = deduce(p, fixed={p.h(0, 0): 1, p.v(0, 0): 1}, cuts=[[p.h(0, 0), p.v(0, 0)]])
    assert "cut" in found.contradiction


def test_no_square_hook_puts_the_fourth_cell_of_a_block_outside() -> None:
    fixed_rows = ["...", "...", "..."]
    for rules, expected in ((("no_square",), 0), ((), -1)):
        p = Puzzle.from_rows(fixed_rows, rules=rules)
        # the top-left, top-middle and middle-left cells inside (their rim edges are lines)
        found = deduce(p, fixed={p.h(0, 0): 1, p.h(0, 1): 1, p.v(1, 0): 1})
        assert found.faces[0] == found.faces[1] == found.faces[3] == 1
        assert found.faces[4] == expected
        if expected == 0:
            assert fires(found, "rule", {p.h(1, 1): 1, p.v(1, 1): 1})
        else:
            assert "rule" not in rules_of(found)


def test_no_square_block_all_inside_is_a_contradiction() -> None:
    p = Puzzle.from_rows(["..", ".."], rules=("no_square",))
    ring = [e for e, (f, g) in enumerate(p.board.edge_faces) if g < 0]  # the rim: all inside
    found = deduce(p, fixed={e: 1 for e in ring})
    assert found.contradiction is not None
    assert deduce(p.with_rules(()), fixed={e: 1 for e in ring}).solved


def test_boards_with_no_answer_are_contradictions() -> None:
    assert deduce(Puzzle.from_rows(["1"])).contradiction is not None  # only loop: 4 sides
    assert deduce(Puzzle.from_rows(["00", "00"])).contradiction == "every edge is off: no loop"
    hexes = loopy_board("honeycomb", 3, 3)
    a, b = next((f, g) for f, g in hexes.edge_faces if g >= 0)
    clues = [None] * hexes.num_faces
    clues[a], clues[b] = 0, len(hexes.face_edges[b])  # a 0 beside an all-lines face
    assert deduce(Puzzle.on_board(hexes, clues)).contradiction is not None


def test_input_that_breaks_the_rules_is_a_contradiction_and_bad_input_an_error() -> None:
    p = Puzzle.from_rows(["0.", ".."])
    assert deduce(p, fixed={p.h(0, 0): 1}).contradiction is not None
    with pytest.raises(ValueError, match="fixed edge"):
        deduce(p, fixed={999: 1})
    with pytest.raises(ValueError, match="level"):
        deduce(p, level="deep")


def corpus_board(name: str) -> Puzzle:
    return next(p for p in loopy_dev() if p.name == name)


def test_lookahead1_goes_where_the_rules_stop() -> None:
    p = corpus_board("tatham-5x5t0dh-09")  # Loopy's Hard: the rules fix about a fifth
    rules = deduce(p, "rules")
    assert not rules.solved and rules.level == "rules"
    found = deduce(p, "lookahead1")
    assert found.solved and found.level == "lookahead1" and "lookahead1" in rules_of(found)
    assert found.edges == tuple(int(x) for x in p.meta["answer"])
    easy = deduce(corpus_board("tatham-5x5t0de-04"), "lookahead1")
    assert easy.solved and easy.level == "rules" and "lookahead1" not in rules_of(easy)


def test_lookahead2_goes_where_lookahead1_stops() -> None:
    p = corpus_board("tatham-24x14t0dh-05")
    one = deduce(p, "lookahead1")
    assert not one.solved and one.fixed_share["lookahead1"] < 0.9
    found = deduce(p, "lookahead2")
    assert found.solved and found.level == "lookahead2" and "lookahead2" in rules_of(found)
    assert found.edges == tuple(int(x) for x in p.meta["answer"])
    assert grade(p).level == "lookahead2"
    hard = corpus_board("tatham-5x5t0dh-09")
    found = deduce(hard, "lookahead2")
    assert found.level == "lookahead1" and "lookahead2" not in rules_of(found)


def test_grade_and_shares() -> None:
    g = grade(corpus_board("tatham-5x5t0de-04"))
    assert g.level == "rules" and g.shares == {"rules": 1.0, "lookahead1": 1.0, "lookahead2": 1.0}
    g = grade(corpus_board("tatham-5x5t0dh-09"))
    assert g.level == "lookahead1" and 0 < g.shares["rules"] < 1 == g.shares["lookahead1"]
    with pytest.raises(ValueError, match="no answer"):
        grade(Puzzle.from_rows(["1"]))


class FirstFaceOutside(Rule):
    """A test rule: face 0 is never inside the loop (checker hook and deduction hook)."""

    name = "first_face_outside_test"
    summary = "face 0 lies outside the loop"

    def problems(self, puzzle, edges) -> list[str]:
        return ["face 0 inside"] if puzzle.board.inside(edges)[0] else []

    def face_nogoods(self, board):
        return [((0, 1),)]


class FirstFaceOutsideUnhooked(FirstFaceOutside):
    name = "first_face_outside_unhooked_test"

    def face_nogoods(self, board):
        return None


@pytest.fixture
def test_rules():
    register_rule(FirstFaceOutside)
    register_rule(FirstFaceOutsideUnhooked)
    yield
    unregister_rule(FirstFaceOutside.name)
    unregister_rule(FirstFaceOutsideUnhooked.name)


def test_a_rule_takes_part_through_its_hook_alone(test_rules) -> None:
    hexes = loopy_board("honeycomb", 3, 3)
    rim = [e for e in hexes.face_edges[0] if -1 in hexes.edge_faces[e]]
    hooked = deduce(Puzzle.on_board(hexes, [None] * 9, rules=(FirstFaceOutside.name,)))
    assert hooked.faces[0] == 0 and rim and all(hooked.edges[e] == 0 for e in rim)
    assert "rule" in rules_of(hooked)
    plain = Puzzle.on_board(hexes, [None] * 9, rules=(FirstFaceOutsideUnhooked.name,))
    assert deduce(plain).num_fixed == 0  # no hook: no moves, though the checker judges it
    # every side of face 0 on: face 0 inside, which only the unhooked rule's checker rejects
    ring = {e: 1 for e in hexes.face_edges[0]}
    assert deduce(plain, fixed=ring).contradiction is not None
    assert deduce(plain.with_rules(()), fixed=ring).solved


def test_the_package_example_runs() -> None:
    import doctest

    import slitherbench.deduction

    assert doctest.testmod(slitherbench.deduction).failed == 0
