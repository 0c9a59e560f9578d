"""Deduction on Colorlink puzzles: each colour as a plain puzzle, joined by the one-colour and
black-clue rules. Each rule across colours fires where it must and not where it must not;
on generated puzzles (crossing colours included) every fixed edge and face side agrees with
the one answer; a puzzle with no answer is a contradiction; a presolved Colorlink trial is
solved and checked."""

from __future__ import annotations

import pytest

from slitherbench.deduction import deduce, grade
from slitherbench.deduction.colours import Colours, _Contradiction
from slitherbench.puzzles.colorlink import read_colorlink
from slitherbench.puzzles.colorlink.harness import ColorlinkPuzzle
from slitherbench.sources.colorlink import generated_colorlink


def colorlink(text: str) -> ColorlinkPuzzle:
    return ColorlinkPuzzle.of(read_colorlink(text))


def rules_of(found, kind: str = "edge") -> dict[int, str]:
    return {m.index: m.rule for m in found.trace if m.kind == kind}


def layered(p: ColorlinkPuzzle, colour: str, e: int) -> int:
    return p.colours.index(colour) * p.source.board.num_edges + e


ROW = "4r1k2g"  # three cells in a row: red around the 4, a black 1, a green 2 (no answer)


def inside(board, loop: list[int]) -> list[bool]:
    """Faces inside ``loop``: those not reached from the outside without crossing it."""
    on = set(loop)
    out = {f for e, (f, g) in enumerate(board.edge_faces) if g < 0 and e not in on}
    stack = list(out)
    while stack:
        f = stack.pop()
        for e in board.face_edges[f]:
            if e in on:
                continue
            for g in board.edge_faces[e]:
                if g >= 0 and g not in out:
                    out.add(g)
                    stack.append(g)
    return [f not in out for f in range(board.num_faces)]


def shared(p: ColorlinkPuzzle, f: int, g: int) -> int:
    (e,) = set(p.source.board.face_edges[f]) & set(p.source.board.face_edges[g])
    return e


def state(text: str) -> Colours:
    """A Colorlink deduction's state before any move (the rules across colours are applied
    to it by hand; the board need not have an answer)."""
    return Colours(colorlink(text), (), deduce)


def set_input(s: Colours, p: ColorlinkPuzzle, colour: str, e: int, v: int) -> None:
    s.set_edge(layered(p, colour, e), v, "input", "input")


def test_one_colour_fires_on_an_edge_with_a_line_of_another_colour() -> None:
    s = state(ROW)
    p = colorlink(ROW)
    e = shared(p, 0, 1)
    set_input(s, p, "r", e, 1)
    assert s.across("rules")
    assert s.edges[layered(p, "g", e)] == 0
    assert ("one-colour", "edge", layered(p, "g", e), 0, "rules") in s.trace


def test_one_colour_does_not_fire_without_a_line() -> None:
    s = state(ROW)
    p = colorlink(ROW)
    set_input(s, p, "r", shared(p, 0, 1), 0)  # an edge off in red says nothing of green
    assert not s.across("rules")
    assert s.edges[layered(p, "g", shared(p, 0, 1))] == -1


def test_black_clue_fires_once_met_and_not_before() -> None:
    for text, fires in (("4r1k2g", True), ("4r2k2g", False)):
        s, p = state(text), colorlink(text)
        e = shared(p, 0, 1)
        set_input(s, p, "r", e, 1)  # the black clue's face has one line (red)
        s.across("rules")
        black = {i for rule, _, i, _, _ in s.trace if rule == "black-clue"}
        others = [x for x in p.source.board.face_edges[1] if x != e]
        expected = {layered(p, c, x) for c in "rg" for x in others}
        assert black == (expected if fires else set()), text


def test_black_clue_puts_the_only_colour_left_on_a_needed_edge() -> None:
    text = "4r3k2g"  # a black 3: with one side off in every colour, the other three are needed
    s, p = state(text), colorlink(text)
    a, b, c, _ = p.source.board.face_edges[1]
    for colour in "rg":
        set_input(s, p, colour, a, 0)
    set_input(s, p, "r", b, 0)  # b can only be green
    assert s.across("rules")
    assert ("black-clue", "edge", layered(p, "g", b), 1, "rules") in s.trace
    assert s.edges[layered(p, "r", c)] == s.edges[layered(p, "g", c)] == -1  # two colours left
    s2 = state("4r2k2g")  # a black 2 with three open sides: none is needed
    for colour in "rg":
        set_input(s2, p, colour, a, 0)
    set_input(s2, p, "r", b, 0)
    assert not s2.across("rules")


def test_a_black_clue_past_its_count_is_a_contradiction() -> None:
    s, p = state("4r1k2g"), colorlink("4r1k2g")
    a, b, _, _ = p.source.board.face_edges[1]
    set_input(s, p, "r", a, 1)
    set_input(s, p, "g", b, 1)
    with pytest.raises(_Contradiction, match="black clue 1"):
        s.across("rules")
    s, p = state("4r3k2g"), colorlink("4r3k2g")  # a black 3 with two sides off in every colour
    a, b, _, _ = p.source.board.face_edges[1]
    for colour in "rg":
        set_input(s, p, colour, a, 0)
        set_input(s, p, colour, b, 0)
    with pytest.raises(_Contradiction, match="black clue 3"):
        s.across("rules")


def test_a_puzzle_with_no_answer_is_a_contradiction() -> None:
    found = deduce(colorlink("4r4g"), "rules")  # both colours want the shared edge
    assert "carries two colours" in str(found.contradiction) and not found.solved
    assert deduce(colorlink(ROW), "rules").contradiction  # green's 2 at the row's end: no loop
    with pytest.raises(ValueError, match="no answer"):
        grade(colorlink("4r4g"))


GENERATED = [
    (4, 4, 2, 1, False),
    (4, 4, 2, 2, True),
    (5, 5, 2, 1, False),
    (5, 5, 3, 2, False),
    (5, 5, 2, 3, True),
    (6, 6, 2, 3, False),
]


@pytest.mark.slow  # generates six puzzles (about 2 s)
@pytest.mark.parametrize(("rows", "cols", "colours", "seed", "cross"), GENERATED)
def test_every_edge_and_side_fixed_agrees_with_the_answer(
    rows: int, cols: int, colours: int, seed: int, cross: bool
) -> None:
    p = generated_colorlink(rows, cols, colours, seed, cross=cross)
    answer = p.meta["answer"]
    found = deduce(p, "lookahead2")
    assert found.contradiction is None and not found.used_uniqueness
    assert [e for e, v in enumerate(found.edges) if v >= 0 and v != int(answer[e])] == []
    E, F = p.source.board.num_edges, p.source.board.num_faces
    for k, colour in enumerate(p.colours):
        loop = [e for e in range(E) if answer[k * E + e]]
        sides = inside(p.source.board, loop)
        for f in range(F):
            if found.faces[k * F + f] >= 0:
                assert found.faces[k * F + f] == int(sides[f]), (colour, f)
    moves = {(m.kind, m.index) for m in found.trace}
    fixed = {("edge", e) for e, v in enumerate(found.edges) if v >= 0}
    assert fixed <= moves  # every fixed edge has its move in the trace
    assert grade(p).level in ("rules", "lookahead1", "lookahead2", "beyond")


@pytest.mark.slow  # deduces six generated puzzles to look-ahead 2 (about 1.4 s)
def test_the_rules_across_colours_take_part_on_generated_puzzles() -> None:
    rules = set()
    fixed = 0
    for rows, cols, colours, seed, cross in GENERATED:
        found = deduce(generated_colorlink(rows, cols, colours, seed, cross=cross), "lookahead2")
        rules |= {m.rule for m in found.trace}
        fixed += found.num_fixed
    assert {"one-colour", "black-clue", "point-degree", "lookahead1"} <= rules and fixed > 100
    solved = deduce(generated_colorlink(6, 6, 2, 3), "lookahead2")
    assert solved.solved and solved.level == "lookahead2"
    assert grade(generated_colorlink(6, 6, 2, 3)).level == "lookahead2"


def test_a_colours_cut_joins_that_colours_deduction() -> None:
    p = generated_colorlink(4, 4, 2, 1)
    E = p.source.board.num_edges
    loop = [e for e in range(E) if p.meta["answer"][e]]  # the answer's first colour
    fixed = {e: 1 for e in loop[1:]}
    assert deduce(p, "rules", fixed=fixed).contradiction is None
    cut = deduce(p, "rules", fixed=fixed, cuts=[loop])  # that loop is forbidden: no answer
    assert cut.contradiction is not None
    across = [loop[0], E + loop[0]]  # over two colours: left out, never wrong
    assert deduce(p, "rules", fixed=fixed, cuts=[across]).contradiction is None
    assert Colours(p, [loop, across, [E + e for e in loop]], deduce).cuts == [[loop], [loop]]


def test_a_presolved_colorlink_trial_is_solved_and_checked() -> None:
    from slitherbench.models.formulations import ConsFormulation
    from slitherbench.run.runner import run_trial
    from slitherbench.solvers.sat import SatBackend

    p = generated_colorlink(4, 4, 2, 1)
    r = run_trial(p, ConsFormulation(), SatBackend(), seed=0, presolve="lookahead1")
    t = r.trial
    assert t.status.value == "solved" and t.verified
    assert t.presolve == "lookahead1" and 0 < t.presolve_fixed < 1
    assert t.first_variables < t.unpresolved_variables


# -- the presolve on Colorlink: exhaustively, energy-0 sets kept exactly -----------------------
ONE_COLOUR = "3r2k/.."  # 2x2, one colour and a black clue: 12 edges, 4,096 edge sets
TWO_COLOURS = "1r1r../3k..1g"  # 2x4, two colours: 16 layered faces, 65,536 colourings


@pytest.mark.parametrize("form", ["conf-cons", "conf-hubo", "conf-qubo", "hubo-exact"])
def test_presolved_colorlink_energy_zero_is_the_original_agreeing_with_the_fixed_edges(
    form: str,
) -> None:
    from test_presolve import FORMS, zero_sets

    from slitherbench.models.formulations import Model

    p = colorlink(ONE_COLOUR)
    found = deduce(p, "lookahead1")
    fixed = {e: v for e, v in enumerate(found.edges) if v >= 0}
    assert fixed and not found.solved and found.contradiction is None
    original = Model.build(p, FORMS[form]())
    presolved = Model.build(p, FORMS[form](), fixed)
    assert presolved.num_variables < original.num_variables
    expected = zero_sets(original, p, fixed)
    assert expected and zero_sets(presolved, p, fixed) == expected


@pytest.mark.parametrize(
    "form",
    [
        "conf-cons/face",
        pytest.param("conf-hubo/face", marks=pytest.mark.slow),  # 65,536 colourings, 0.5-1.2 s
        pytest.param("hubo2qubo-exact/face", marks=pytest.mark.slow),
    ],
)
def test_presolved_colorlink_face_energy_zero_is_the_original_agreeing_with_the_sides(
    form: str,
) -> None:
    from test_presolve import FACE_FORMS, face_zero_rows

    from slitherbench.models.formulations import Model

    p = colorlink(TWO_COLOURS)
    found = deduce(p, "lookahead1")
    rules = {m.rule for m in found.trace}
    assert {"one-colour", "black-clue"} <= rules and found.contradiction is None
    fixed = {e: v for e, v in enumerate(found.edges) if v >= 0}
    sides = {f: v for f, v in enumerate(found.faces) if v >= 0}
    original = Model.build(p, FACE_FORMS[form]())
    presolved = Model.build(p, FACE_FORMS[form](), fixed, sides)
    assert presolved.num_variables < original.num_variables
    expected = face_zero_rows(original, sides)
    assert expected and face_zero_rows(presolved, sides) == expected
