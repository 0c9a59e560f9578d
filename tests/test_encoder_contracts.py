"""What each encoder promises beyond "energy 0 on feasible assignments", held cheaply enough for
the fast subset (so mutation testing, which runs only fast tests, sees it):

- every piece carries its weight: with every weight tripled, the energy of every assignment
  triples, in every form x variables, for every shape a puzzle gives (clues, degrees, loop and
  region cuts, No-Square's blocks and the face channel, Colorlink's black clues, one colour
  per edge and non-empty colours);
- the completion is exact: ``complete(edges)`` has energy 0 exactly where every row of the
  model holds (rows judged here from their sums, not by the form);
- the documented degrees of the face forms' pieces, and the one-line refusals of shapes a form
  has no encoding for;
- the shared penalties' own statements (slack coefficients reach every value and no more; the
  exact degree penalty is the indicator of a degree outside {0, 2}).
"""

from __future__ import annotations

import itertools
import math
import random
from functools import cache

import pytest

from slitherbench.models.formulations import HuboFormulation, Model, QuboFormulation
from slitherbench.models.formulations.base import (
    NOT_ALL,
    PARITY,
    Constraint,
    Formulation,
    FormUnavailable,
    add_poly,
    base_constraints,
    evaluate,
    with_products,
)
from slitherbench.models.formulations.cons import ConsFormulation
from slitherbench.models.formulations.faces import degree_ban_poly
from slitherbench.models.formulations.penalties import (
    degree_exact_penalty,
    slack_coefficients,
)
from slitherbench.models.formulations.reduced import ReducedHuboFormulation, reduce_polynomial
from slitherbench.models.formulations.variables import VARIABLES
from slitherbench.puzzles.boards import Board, board_with_faces
from slitherbench.puzzles.colorlink import read_colorlink
from slitherbench.puzzles.colorlink.harness import ColorlinkPuzzle
from slitherbench.puzzles.puzzle import Puzzle
from slitherbench.solvers.cpsat_model import solve_exact

# Mutation testing runs these whatever their measured time (pyproject's [tool.mutmut]).
pytestmark = pytest.mark.contracts

# Every form x degree mode x variables the configs offer (qubo[lazy] is face-only).
FORMS = {
    "cons": lambda **w: ConsFormulation(**w),
    "hubo[aux]": lambda **w: HuboFormulation(degree_mode="aux", **w),
    "hubo[exact]": lambda **w: HuboFormulation(degree_mode="exact", **w),
    "hubo→qubo": lambda **w: ReducedHuboFormulation(degree_mode="aux", **w),
    "qubo": lambda **w: QuboFormulation(**w),
    "cons/face": lambda **w: ConsFormulation(variables="face", **w),
    "hubo[aux]/face": lambda **w: HuboFormulation(degree_mode="aux", variables="face", **w),
    "hubo[exact]/face": lambda **w: HuboFormulation(degree_mode="exact", variables="face", **w),
    "qubo/face": lambda **w: QuboFormulation(variables="face", **w),
    "qubo[lazy]/face": lambda **w: QuboFormulation(degree_mode="lazy", variables="face", **w),
}


@cache
def puzzles() -> dict[str, Puzzle]:
    """Boards that between them give every shape: a No-Square 4x4 (clues, degrees, the rule's
    blocks, the face channel in edge forms), a two-colour Colorlink (black clue, one colour
    per edge, non-empty colours) and a triangular board (points of six faces: the QUBO's
    two-auxiliary degree gadget on faces)."""
    tri = board_with_faces("triangular", 12)
    return {
        "no_square": Puzzle.from_rows(["....", ".0..", "..2.", "...."], rules=("no_square",)),
        "colorlink": ColorlinkPuzzle.of(read_colorlink("2g../.2g3r/.3k.")),
        "triangular": Puzzle.on_board(tri, [None] * tri.num_faces),
    }


@cache
def answer(name: str) -> tuple[bool, ...]:
    got = solve_exact(puzzles()[name])
    assert got.answer is not None, (name, got.status)
    return tuple(got.answer)


def inner_face(puzzle: Puzzle) -> int:
    """A face with no side on the board's outside: its loop can be cut both ways round."""
    return next(
        f
        for f in range(puzzle.num_faces)
        if all(-1 not in puzzle.board.edge_faces[e] for e in puzzle.board.face_edges[f])
    )


def cut_loop(puzzle: Puzzle) -> tuple[list[int], int | None, list[bool]]:
    """The loop around an inner face (never the answer on these boards), an edge f away from
    its points (a region cut's other loop, where there is one) and the face set whose border
    is both loops: the sample a region cut forbids."""
    inside = [f == inner_face(puzzle) for f in range(puzzle.num_faces)]
    loop = [e for e, on in enumerate(puzzle.board.boundary(inside)) if on]
    near = {p for x in loop for p in puzzle.edge_points[x]}
    board = puzzle.board
    apart = [
        g
        for g in range(puzzle.num_faces)
        if not near & {p for e in board.face_edges[g] for p in puzzle.edge_points[e]}
    ]
    if not apart:
        return loop, None, inside
    inside[apart[-1]] = True
    return loop, max(board.face_edges[apart[-1]]), inside


def build(puzzle: Puzzle, form: Formulation) -> Model:
    """The model with the loop cut of :func:`cut_loop` and, where the form takes one, its
    region cut."""
    model = Model.build(puzzle, form)
    loop, far, _ = cut_loop(puzzle)
    model.add_cut(loop)
    if far is not None:
        try:
            model.add_region(loop, far)
        except FormUnavailable:  # the qubo form on faces: loop cuts only (its own test)
            pass
    return model


def edge_sets(puzzle: Puzzle, n: int, seed: int) -> list[tuple[bool, ...]]:
    """Borders of random face sets (every degree even, so face forms can take them), with
    the cut loop and the two loops its region cut forbids."""
    rng = random.Random(seed)
    out = []
    for _ in range(n):
        inside = [rng.random() < 0.5 for _ in range(puzzle.num_faces)]
        out.append(tuple(puzzle.board.boundary(inside)))
    loop, _, both = cut_loop(puzzle)
    out.append(tuple(e in loop for e in range(puzzle.num_edges)))
    out.append(tuple(puzzle.board.boundary(both)))
    # the loop with its face outside and its neighbours inside (face variables' second
    # on-pattern of the cut)
    f = inner_face(puzzle)
    ring = {g for e in puzzle.board.face_edges[f] for g in puzzle.board.edge_faces[e]} - {f}
    out.append(tuple(puzzle.board.boundary([g in ring for g in range(puzzle.num_faces)])))
    return out


def cases() -> list:
    out = []
    for board in ("no_square", "colorlink", "triangular"):
        for form in FORMS:
            if board == "colorlink" and form.startswith("qubo") and form.endswith("/face"):
                continue  # a black clue across colours is quartic: refused (test_colorlink_harness)
            out.append(pytest.param(board, form, id=f"{board}-{form}"))
    return out


def _model(board: str, form: str, **weights: int) -> Model:
    return build(puzzles()[board], FORMS[form](**weights))


@pytest.mark.parametrize(("board", "form"), cases())
def test_every_piece_carries_its_weight(board: str, form: str) -> None:
    """Tripling every weight triples the energy of every assignment of every label: a piece
    that dropped its weight (or took another's) changes the ratio where it is broken."""
    one = _model(board, form)
    three = _model(board, form, clue_weight=3, degree_weight=3, cut_weight=3)
    assert one.labels == three.labels
    used = {lb for p in one.pieces for lb in p.labels}
    assert used <= set(one.labels)  # the model names every variable its terms use
    if one.formulation.quadratic:  # the qubo and the reduced hubo: no term above degree 2
        assert max(len(t) for p in one.pieces for t in p.poly or ()) <= 2
    rng = random.Random(7)
    samples = [one.complete(edges) for edges in edge_sets(one.puzzle, 10, 1)]
    samples += [{lb: rng.randint(0, 1) for lb in one.labels} for _ in range(30)]
    broken = 0
    for s in samples:
        e1 = one.energy(s)
        assert three.energy(s) == 3 * e1, s
        broken += e1 > 0
    assert broken > len(samples) // 2  # the check was exercised


def row_holds(model: Model, c: Constraint, edges: tuple[bool, ...], sample: dict[int, int]) -> bool:
    """A row judged from its own sum: faces by the colouring, otherwise the labels' values
    (edge e is label e in edge forms; a face form's rows are over edges)."""
    if c.faces:
        inside = model.puzzle.board.inside(list(edges))
        return sum(bool(inside[f]) for f in c.faces) in c.allowed
    values = dict(enumerate(int(x) for x in edges)) if model.faces else sample
    return c.holds(values)


def piece_energy(model: Model, piece, sample: dict[int, int]) -> int:
    """One piece's share of the energy: its polynomial (a reduced form's products set to
    their pairs'), or weight x distance^2 of a native row's sum."""
    ones = {lb for lb, v in sample.items() if v}
    with_products(model.gates, ones)
    if piece.native is None:
        return sum(a for term, a in piece.poly.items() if ones.issuperset(term))
    c = piece.constraint
    if piece.lhs is not None:
        total = evaluate(piece.lhs, dict.fromkeys(ones, 1))
    else:
        total = sum(a for e, a in c.linear().items() if e in ones)
    return piece.native.weight * c.distance(total) ** 2


@pytest.mark.parametrize(("board", "form"), cases())
def test_each_piece_is_zero_exactly_where_its_row_holds(board: str, form: str) -> None:
    """At the completion of an edge set (auxiliaries at their best), every piece is 0 exactly
    where its own row holds: a piece that lost its terms or penalises the wrong thing shows
    here even where other rows are broken too. Each kind of row is seen both ways."""
    model = _model(board, form)
    seen: dict[str, set[bool]] = {}
    for edges in [answer(board), *edge_sets(model.puzzle, 12, 2)]:
        sample = model.complete(list(edges))
        rows = []
        for p in model.pieces:
            holds = row_holds(model, p.constraint, edges, sample)
            assert (piece_energy(model, p, sample) == 0) == holds, (p.constraint, edges)
            seen.setdefault(p.constraint.kind, set()).add(holds)
            rows.append(holds)
        assert (model.energy(sample) == 0) == all(rows)
    # The face channel ties the face labels to the edges; a completion always keeps it (its
    # penalty is proved on every assignment below).
    assert seen.pop("channel", {True}) == {True}
    assert all(v == {True, False} for v in seen.values()), seen


@pytest.mark.parametrize("form", ["hubo[aux]", "hubo[exact]", "hubo→qubo", "qubo", "cons"])
def test_the_face_channel_is_zero_exactly_on_even_sums(form: str) -> None:
    """x_e + c_f + c_g in {0, 2} (an edge form's tie to its face labels), on all 8 values,
    the auxiliary at its best."""
    model = Model.build(Puzzle.from_rows(["..", ".."]), FORMS[form](degree_weight=2))
    row = Constraint("channel", 0, (0, 1, 2), (0, 2), shape=PARITY, weight="degree")
    piece = model._add(row)
    for bits in itertools.product((0, 1), repeat=3):
        sample = dict(enumerate(bits))
        if piece.fill is not None:
            sample.update(piece.fill(sample))
        want = 0 if sum(bits) in (0, 2) else 2  # the weight times the distance to {0, 2}
        assert piece_energy(model, piece, sample) == want, bits


# -- what each face form's pieces are ---------------------------------------------------------
def _degrees(model: Model) -> dict[str, int]:
    out: dict[str, int] = {}
    for p in model.pieces:
        d = max((len(t) for t in p.poly or ()), default=0)
        out[p.constraint.kind] = max(out.get(p.constraint.kind, 0), d)
    return out


@pytest.mark.parametrize("variables", sorted(VARIABLES))
@pytest.mark.parametrize("board", ["no_square", "colorlink", "triangular"])
def test_each_edge_expression_is_the_edge(board: str, variables: str) -> None:
    """The variables' contract the encoders are written against: on the labels
    ``assign(edges)`` gives, every edge's expression is that edge's value, ``edges_of``
    gives the edges back, and a row's terms and left-hand side are its edges' expressions."""
    puzzle = puzzles()[board]
    v = VARIABLES[variables](puzzle)
    v.prepare([], lambda n: tuple(range(10**6, 10**6 + n)))  # no face rule: no labels added
    assert v.extra == () and v.count == (
        puzzle.num_faces if variables == "face" else puzzle.num_edges
    )
    for edges in edge_sets(puzzle, 6, seed=3):
        sample = v.assign(edges)
        assert set(sample) == set(range(v.count))
        assert [evaluate(v.edge(e), sample) for e in range(puzzle.num_edges)] == list(edges)
        assert v.edges_of(sample) == list(edges)
    for c in base_constraints(puzzle):
        if c.faces:  # a row on face colours: over the faces themselves (edge forms relabel it)
            continue
        assert v.terms(c) == [v.edge(e) for e in c.edges]
        lhs: dict = {}
        for e, a in c.linear().items():
            add_poly(lhs, v.edge(e), a)
        assert v.lhs(c) == lhs


def test_the_face_forms_pieces_have_their_documented_degrees() -> None:
    """hubo/face: clues quadratic, loop cuts quadratic (two on-patterns by slack), the exact
    degree ban quartic on squares, region cuts quartic; qubo/face: everything quadratic."""
    p = puzzles()["no_square"]
    for mode in ("exact", "aux"):
        model = build(p, HuboFormulation(degree_mode=mode, variables="face"))
        aux = {len(q.aux) for q in model.pieces if q.constraint.kind == "degree"}
        assert aux == ({1} if mode == "aux" else {0}), mode  # y_p, or the ban without one
        got = _degrees(model)
        region = got.pop("region")
        assert got == {"clue": 2, "degree": 4, "cut": 2, "no_square": 4}, mode
        assert region in (3, 4), mode  # a square of XOR sums: cubic where two share a face
    assert set(_degrees(build(p, QuboFormulation(variables="face"))).values()) <= {0, 1, 2}


def test_a_not_all_over_edges_on_faces_is_the_product_of_the_xors() -> None:
    """A rule row "not every one of these edges" in a face form: its penalty is the weight
    exactly where all of them are borders, on every colouring of a 3x3 board."""
    p = Puzzle.from_rows(["...", "...", "..."])
    edges = (p.h(0, 0), p.h(0, 1), p.v(0, 0))
    row = Constraint("custom", 0, edges, (0, 1, 2), shape=NOT_ALL, weight="cut")
    for form in (
        HuboFormulation(variables="face", cut_weight=5),
        QuboFormulation(variables="face", cut_weight=5),
    ):
        model = Model.build(p, form)
        piece = model._add(row)
        assert piece.constraint is row
        seen = set()
        for colours in itertools.product((0, 1), repeat=p.num_faces):
            border = p.board.boundary(list(colours))
            sample = model.complete(border)
            want = 5 * all(border[e] for e in edges)
            # the piece alone (the qubo's slack at its best value, as the completion sets it)
            assert evaluate(piece.poly, sample) == want, (form.describe(), colours)
            seen.add(want)
        assert seen == {0, 5}


# -- refusals --------------------------------------------------------------------------------
@pytest.mark.parametrize(
    ("form", "row", "message"),
    [
        (
            HuboFormulation(),
            Constraint("custom", 0, (0, 1), (0, 1), coeffs=(1, 2), shape=NOT_ALL, weight="cut"),
            "the hubo[aux] form cannot encode a not_all constraint (custom)",
        ),
        (
            HuboFormulation(variables="face"),
            Constraint("custom", 0, (0, 1), (0, 2), shape=PARITY, weight="degree"),
            "the hubo[aux]/face form cannot encode a parity constraint (custom)",
        ),
        (
            QuboFormulation(variables="face"),
            Constraint("custom", 0, (0, 1), (0, 2), shape=PARITY, weight="degree"),
            "the qubo/face form cannot encode a parity constraint (custom)",
        ),
    ],
)
def test_a_shape_a_form_cannot_encode_is_a_one_line_skip(form, row, message) -> None:
    model = Model.build(Puzzle.from_rows(["..", ".."]), form)
    with pytest.raises(FormUnavailable) as got:
        model._add(row)
    assert str(got.value) == message


@pytest.mark.parametrize(
    ("text", "rule"), [("2g../.2g3r/.3k.", "black"), ("2g../.2g3r/.3r.", "exclusive")]
)
def test_the_qubo_on_faces_names_the_rule_it_cannot_write_quadratically(text, rule) -> None:
    """Colorlink's rows across colours are products of XORs of different faces (quartic)."""
    p = ColorlinkPuzzle.of(read_colorlink(text))
    for form in (QuboFormulation(variables="face"), QuboFormulation("lazy", variables="face")):
        with pytest.raises(FormUnavailable) as got:
            Model.build(p, form)
        assert str(got.value) == (
            f"the {form.describe()} form cannot write the {rule} rule quadratically over face "
            "variables (degree 4); use hubo/face or edge variables"
        )


@pytest.mark.parametrize("kind", ["square", "triangular", "snubsquare"])
def test_the_degree_ban_is_one_exactly_at_four_or_more_changes(kind: str) -> None:
    """At every inner point, on every colouring of the faces around it: 1 where the border
    has degree 4 or more there, else 0."""
    board = board_with_faces(kind, 16)
    for p in range(board.num_points):
        around = sorted({f for e in board.point_edges[p] for f in board.edge_faces[e] if f >= 0})
        ban = degree_ban_poly(board, p)
        for bits in itertools.product((0, 1), repeat=len(around)):
            inside = [False] * board.num_faces
            for f, b in zip(around, bits, strict=True):
                inside[f] = bool(b)
            degree = sum(board.boundary(inside)[e] for e in board.point_edges[p])
            assert evaluate(ban, dict(enumerate(inside))) == (degree >= 4), (p, bits)


@pytest.mark.parametrize(
    ("poly", "scale", "strength"),
    [
        ({(1, 2, 3): 5, (1, 2, 4): -7}, 1, 8),  # the pair carries +5 and -7: max(5, 7) + 1
        ({(1, 2, 3): 9, (1, 2, 4): -2}, 1, 10),
        ({(1, 2, 3): 1, (1, 2, 4): 1}, 1, 3),
        ({(1, 2, 3): 5, (1, 2, 4): -7}, 2, 15),  # floor(2 * 7) + 1
    ],
)
def test_a_products_strength_is_what_its_pair_carries_plus_one(poly, scale, strength) -> None:
    """The reduction's sufficient bound (module docstring of :mod:`.reduced`): the first
    product replaces the pair both terms share, strength floor(scale * max(P, N)) + 1."""
    labels = iter(range(100, 200))
    _, gates = reduce_polynomial(poly, lambda: next(labels), scale)
    assert (gates[0].u, gates[0].v, gates[0].strength) == (1, 2, strength)


def test_a_strength_scale_below_one_is_refused_with_the_reason() -> None:
    with pytest.raises(ValueError) as got:
        ReducedHuboFormulation(strength_scale=0.5)
    assert str(got.value) == (
        "strength_scale must be at least 1 (a smaller strength may lose ground states), got 0.5"
    )


def test_an_unknown_degree_mode_is_named() -> None:
    with pytest.raises(ValueError, match=r"^degree_mode must be 'aux' or 'exact', got 'lazy'$"):
        HuboFormulation(degree_mode="lazy")
    with pytest.raises(ValueError, match=r"^degree_mode must be 'aux' or 'lazy', got 'exact'$"):
        QuboFormulation(degree_mode="exact")


def wheel(n: int) -> Board:
    """n triangles around one centre point (point 0): a point of n faces."""
    rim = [(math.cos(2 * math.pi * k / n), math.sin(2 * math.pi * k / n)) for k in range(n)]
    spokes = [(0, 1 + k) for k in range(n)]  # edge k: centre to rim point k
    ring = [(1 + k, 1 + (k + 1) % n) for k in range(n)]  # edge n + k: rim k to rim k + 1
    faces = [(k, n + k, (k + 1) % n) for k in range(n)]
    return Board("wheel", n, 1, ((0.0, 0.0), *rim), (*spokes, *ring), tuple(faces))


def test_a_point_with_too_many_faces_names_the_gadgets_there_are() -> None:
    board = wheel(7)  # Penrose rhombs have such points; a wheel of 7 is the smallest
    p = Puzzle.on_board(board, [None] * board.num_faces)
    with pytest.raises(FormUnavailable) as got:
        Model.build(p, QuboFormulation(variables="face"))
    assert str(got.value) == (
        "the qubo form with face variables has no quadratic degree rule for points of 7 faces "
        f"({board.label}); it has them for 4, 5, 6"
    )


# -- the shared penalties -------------------------------------------------------------------
@pytest.mark.parametrize("upper", range(0, 70))
def test_slack_coefficients_reach_every_value_and_no_more(upper: int) -> None:
    coeffs = slack_coefficients(upper)
    sums = {sum(s) for k in range(len(coeffs) + 1) for s in itertools.combinations(coeffs, k)}
    assert sums == set(range(upper + 1))
    assert len(coeffs) == upper.bit_length() and all(a > 0 for a in coeffs)


@pytest.mark.parametrize("degree", range(1, 7))
def test_the_exact_degree_penalty_is_the_indicator_of_a_bad_degree(degree: int) -> None:
    """g(d) = 0 at d in {0, 2}, 1 elsewhere, times the weight, for every subset of the edges
    (the coefficients alone: ``exact_degree_coeffs`` is that g by binomial inversion)."""
    row = Constraint("degree", 0, tuple(range(degree)), (0, 2))
    piece = degree_exact_penalty(row, 3)
    for bits in itertools.product((0, 1), repeat=degree):
        d = sum(bits)
        assert evaluate(piece.poly, dict(enumerate(bits))) == 3 * (d not in (0, 2)), bits
