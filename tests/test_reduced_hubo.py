"""The HUBO reduced by the formulation (``hubo2qubo``): on every assignment of
a 2x2 board (edge and face variables, both degree rules, before and after every loop of the
board is cut), the reduced model with its products minimised out equals the HUBO's energy;
the strength bound, the gate, the judge's energy and the dimod backends' use of the form."""

from __future__ import annotations

import itertools
import json
import random

import dimod
import numpy as np
import pytest
from dimod.generators import and_gate
from test_faces import _values

from slitherbench.models.formulations import HuboFormulation, Model, ReducedHuboFormulation
from slitherbench.models.formulations.base import Constraint, Gate, evaluate
from slitherbench.models.formulations.penalties import degree_exact_penalty
from slitherbench.models.formulations.reduced import gate_poly, reduce_polynomial
from slitherbench.puzzles.check import split_loops
from slitherbench.puzzles.puzzle import Puzzle

BOARDS = {"answered": "2./.2", "blank": "../.."}


def every_loop(p: Puzzle) -> list[list[int]]:
    """Every single loop of the board (its edge sets with one loop and every degree 0 or 2):
    on the 2x2, the 13 of OEIS A140517, every edge in several of them."""
    out = []
    for bits in itertools.product((False, True), repeat=p.num_edges):
        if not any(bits) or any(sum(bits[e] for e in pe) not in (0, 2) for pe in p.point_edges):
            continue
        loops = split_loops(p, list(bits))
        if len(loops) == 1:
            out.append(sorted(loops[0]))
    return out


def models(board: str, degree_mode: str, variables: str, cuts: bool) -> tuple[Model, Model]:
    """The HUBO and the reduced HUBO of one board, the same cuts added to both."""
    p = Puzzle.parse(board)
    hubo = Model.build(p, HuboFormulation(degree_mode=degree_mode, variables=variables))
    reduced = Model.build(p, ReducedHuboFormulation(degree_mode=degree_mode, variables=variables))
    if cuts:
        for loop in every_loop(p):
            hubo.add_cut(loop)
            reduced.add_cut(loop)
    return hubo, reduced


# The fast subset proves the answered board (0.01-0.3 s each); the blank one is in the full suite.
@pytest.mark.parametrize("cuts", [False, True], ids=["built", "every-loop-cut"])
@pytest.mark.parametrize("variables", ["edge", "face"])
@pytest.mark.parametrize("degree_mode", ["aux", "exact"])
@pytest.mark.parametrize("board", ["answered", pytest.param("blank", marks=pytest.mark.slow)])
def test_reduced_energy_equals_the_hubos_on_every_assignment(
    board: str, degree_mode: str, variables: str, cuts: bool
) -> None:
    """Piece by piece (a piece's products are its own): on every assignment of the board's
    variables and of the HUBO piece's own auxiliaries, the reduced piece minimised over its
    products equals the HUBO piece; the model is the sum of its pieces, so the model's reduced
    energy with every product minimised out equals the HUBO's energy."""
    hubo, reduced = models(BOARDS[board], degree_mode, variables, cuts)
    p = hubo.puzzle
    assert hubo.num_cuts == reduced.num_cuts == (13 if cuts else 0)
    first = p.num_faces if variables == "face" else p.num_edges
    table = np.array(list(itertools.product((0, 1), repeat=first)), dtype=np.int64)
    n = len(table)
    board_columns = {label: table[:, label] for label in range(first)}
    assert len(hubo.pieces) == len(reduced.pieces)
    products: set[int] = set()
    for h, r in zip(hubo.pieces, reduced.pieces, strict=True):
        assert h.constraint == r.constraint and h.poly is not None and r.poly is not None
        own = r.aux[: len(h.aux)]  # the HUBO piece's auxiliaries, then the products
        made = r.aux[len(h.aux) :]
        assert made == tuple(g.product for g in r.gates)
        assert not products & set(made) and not set(made) & set(own)  # a piece's own
        products |= set(made)
        assert max((len(t) for t in r.poly), default=0) <= 2
        for bits in itertools.product((0, 1), repeat=len(own)):
            h_cols = {**board_columns, **dict(zip(h.aux, bits, strict=True))}
            r_cols = {**board_columns, **dict(zip(own, bits, strict=True))}
            want = _values(h.poly, h_cols, n)
            got = np.min(
                [
                    _values(r.poly, {**r_cols, **dict(zip(made, zs, strict=True))}, n)
                    for zs in itertools.product((0, 1), repeat=len(made))
                ],
                axis=0,
            )
            assert (got == want).all(), (r.constraint, np.flatnonzero(got != want)[:5])
    assert products == {g.product for g in reduced.gates}
    if degree_mode == "exact" or cuts:  # something of degree 3 or more was reduced
        assert reduced.gates and reduced.max_degree == 2 < hubo.max_degree


def test_the_judged_energy_ignores_the_sampled_products() -> None:
    """Model.energy sets each product to its pair's product (the reduction's auxiliaries at
    their minimum): the HUBO's energy whatever the sample holds there; a completed sample
    (a hint) holds those products, so the reduced polynomial itself is the energy there."""
    hubo, reduced = models(BOARDS["answered"], "exact", "edge", cuts=True)
    rng = random.Random(3)
    products = [g.product for g in reduced.gates]
    for _ in range(300):
        edges = {e: rng.randint(0, 1) for e in range(hubo.puzzle.num_edges)}
        noise = {z: rng.randint(0, 1) for z in products}
        assert reduced.energy({**edges, **noise}) == hubo.energy(edges)
        hint = reduced.complete([bool(edges[e]) for e in sorted(edges)])
        assert evaluate(reduced.polynomial(), hint) == hubo.energy(edges)


def test_the_strength_is_the_carried_coefficients_plus_one() -> None:
    """A loop product of weight w: one term, so every product carries w and gets w + 1 (at
    strength_scale 2: 2 w + 1); a square point's exact rule, 4 e3 - 7 e4: the first pair sits
    in two cubic terms and the quartic, max(4 + 4, 7) = 8, strength 9."""
    p = Puzzle.parse(BOARDS["blank"])
    for scale, want in ((1, 4), (2, 7)):
        m = Model.build(p, ReducedHuboFormulation(cut_weight=3, strength_scale=scale))
        piece = m.add_cut(every_loop(p)[-1])
        assert len(piece.gates) == len(piece.constraint.edges) - 2
        assert {g.strength for g in piece.gates} == {want}
    point = Constraint("degree", 0, (0, 1, 2, 3), (0, 2))
    labels = iter(range(10, 20))
    _, gates = reduce_polynomial(degree_exact_penalty(point, 1).poly, lambda: next(labels))
    assert gates[0] == Gate(10, 0, 1, 9) and len(gates) == 2
    m = Model.build(p, ReducedHuboFormulation(degree_mode="exact"))
    assert m.reduction_summary() == {
        "reduction_products": len(m.gates),
        "reduction_strength_max": 9,
    }


def _min_over_products(poly, gates, variables: list[int]) -> dict[tuple[int, ...], int]:
    """The reduced polynomial at its minimum over the products, per assignment of the
    variables (every assignment of both at once)."""
    made = [g.product for g in gates]
    width = len(variables) + len(made)
    table = np.array(list(itertools.product((0, 1), repeat=width)), dtype=np.int64)
    columns = {label: table[:, k] for k, label in enumerate([*variables, *made])}
    values = _values(poly, columns, len(table)).reshape(2 ** len(variables), 2 ** len(made))
    xs = itertools.product((0, 1), repeat=len(variables))
    return {x: int(e) for x, e in zip(xs, values.min(axis=1), strict=True)}


def test_the_bound_is_sufficient_and_a_smaller_strength_is_not() -> None:
    """Random polynomials up to degree 5 on 6 variables, both signs in one pair's terms: at
    the bound the minimum over the products is the polynomial on every assignment. -3 abc
    carries 3: at strength 2 the reduced minimum falls below the polynomial (a = 1, b = 0,
    z = 1, c = 1 gives -1); 5 abc - 2 abd carries 5: at strength 4, a = b = c = 1, d = 0 and
    z = 0 give 4 where the polynomial is 5."""
    rng = random.Random(7)
    variables = list(range(6))
    for _ in range(40):
        poly = {}
        for _ in range(8):
            term = tuple(sorted(rng.sample(variables, rng.randint(1, 5))))
            poly[term] = poly.get(term, 0) + rng.choice([-9, -4, -1, 2, 5, 11])
        labels = iter(range(100, 200))
        out, gates = reduce_polynomial(poly, lambda labels=labels: next(labels))
        best = _min_over_products(out, gates, variables)
        for xs, e in best.items():
            assert e == evaluate(poly, dict(zip(variables, xs, strict=True))), (poly, xs)
    weak = {(0, 1, 2): -3}
    out, gates = reduce_polynomial(weak, lambda: 3, strength_scale=0.5)  # floor(1.5) + 1 = 2
    assert gates == [Gate(3, 0, 1, 2)]
    assert _min_over_products(out, gates, [0, 1, 2])[(1, 0, 1)] == -1
    out, gates = reduce_polynomial(weak, lambda: 3)
    assert gates == [Gate(3, 0, 1, 4)]
    assert min(_min_over_products(out, gates, [0, 1, 2]).values()) == -3  # abc = 1 only
    mixed = {(0, 1, 2): 5, (0, 1, 3): -2}  # carries max(5, 2) = 5
    out, gates = reduce_polynomial(mixed, lambda: 4)
    assert gates == [Gate(4, 0, 1, 6)]
    assert all(
        e == evaluate(mixed, dict(enumerate(xs)))
        for xs, e in _min_over_products(out, gates, [0, 1, 2, 3]).items()
    )
    out, gates = reduce_polynomial(mixed, lambda: 4, strength_scale=0.7)  # floor(3.5) + 1 = 4
    assert gates == [Gate(4, 0, 1, 4)]
    assert _min_over_products(out, gates, [0, 1, 2, 3])[(1, 1, 1, 0)] == 4  # the HUBO: 5


@pytest.mark.parametrize("edges", [5, pytest.param(6, marks=pytest.mark.slow)])
def test_dimods_fixed_strength_4_loses_the_exact_rules_ground_states(edges: int) -> None:
    """The exact degree rule of a point of five or six edges (a triangular board's has six):
    dimod's make_quadratic at the dimod backends' strength 4 goes below the rule's minimum,
    0 (seen: -10 at five edges, -32 to -36 at six: which pairs dimod substitutes depends on
    Python's hash seed); the formulation's strengths keep it exact."""
    point = Constraint("degree", 0, tuple(range(edges)), (0, 2))
    poly = degree_exact_penalty(point, 1).poly
    fixed = dimod.make_quadratic(poly, 4.0, dimod.BINARY)
    assert dimod.ExactSolver().sample(fixed).first.energy < 0
    labels = iter(range(edges, 40))
    out, gates = reduce_polynomial(poly, lambda: next(labels))
    best = _min_over_products(out, gates, list(range(edges)))
    assert all(e == evaluate(poly, dict(enumerate(xs))) for xs, e in best.items())
    assert max(g.strength for g in gates) > 4


def test_the_gate_is_dimods_and_gate() -> None:
    gate = Gate(7, 2, 5, 3)
    bqm = and_gate(2, 5, 7)
    bqm.scale(3)
    for bits in itertools.product((0, 1), repeat=3):
        sample = dict(zip((2, 5, 7), bits, strict=True))
        assert evaluate(gate_poly(gate), sample) == bqm.energy(sample)


def test_a_single_products_queue_makes_the_pair_indexs_choices() -> None:
    """A loop cut's one term takes a shortcut (a queue, linear in the loop); a zero-weight
    second term sends the same term through the pair index, which must choose alike."""
    from slitherbench.models.formulations.reduced import _PairIndex

    term = tuple(sorted(random.Random(5).sample(range(60), 23)))
    labels = iter(range(100, 200))
    fast = reduce_polynomial({term: 3}, lambda: next(labels))
    index = _PairIndex([(term, 3)])
    chosen = []
    z = 100
    while (found := index.next_pair()) is not None:
        pair, ks = found
        chosen.append(Gate(z, *pair, 4))
        for k in ks:
            index.replace(pair, z, k)
        z += 1
    assert fast[1] == chosen and len(chosen) == 21


def test_the_reduction_does_not_depend_on_the_order_of_the_terms() -> None:
    """Ties go to the smallest pair (dimod's go by set order, which the hash seed changes): a
    solve worker that rebuilds the model gets the same labels and terms."""
    point = Constraint("degree", 0, (3, 8, 9, 14, 20), (0, 2))
    poly = degree_exact_penalty(point, 2).poly
    results = []
    for order in (sorted(poly), sorted(poly, reverse=True)):
        labels = iter(range(100, 200))
        out, gates = reduce_polynomial({t: poly[t] for t in order}, lambda it=labels: next(it))
        results.append((dict(sorted(out.items())), gates))
    assert results[0] == results[1]


def test_the_dimod_backends_take_it_as_a_quadratic_model() -> None:
    """No reduction of their own (nothing added, the fixed reduction_strength unused): the BQM
    is the model's polynomial, and its products are the model's own labels."""
    from slitherbench.solvers.dwave import SABackend

    _, reduced = models(BOARDS["answered"], "exact", "edge", cuts=False)
    backend = SABackend(num_sweeps=200, num_reads=2, reduction_strength=4.0)
    reduced.add_cut(every_loop(reduced.puzzle)[0])
    bqm, _, const, added = backend.to_bqm(reduced, None)
    assert added == 0 and set(bqm.variables) == set(reduced.labels)
    sample = reduced.complete([True] * reduced.puzzle.num_edges)
    assert bqm.energy(sample) + const == evaluate(reduced.polynomial(), sample)
    result = backend.solve(reduced, seed=1, hint=None, time_limit_s=5)
    assert result.extras["reduction_added"] == 0
    assert (
        result.extras["reduction_strength_max"]
        == reduced.reduction_summary()["reduction_strength_max"]
    )


def test_every_trial_of_the_reduced_form_records_its_products_and_strength() -> None:
    # Whatever the backend: here one that answers with the known answer at once.
    from slitherbench.method.record import Capability, SolveResult
    from slitherbench.run.runner import run_trial
    from slitherbench.solvers.base import Backend
    from slitherbench.solvers.cpsat_model import solve_exact
    from slitherbench.sources.library import generated

    board = generated(3, 3, 1)
    answer = solve_exact(board).answer

    class Answering(Backend):
        name = "answering"
        takes = frozenset(Capability)

        def solve(self, model, *, seed, hint, time_limit_s):
            return SolveResult(model.complete(answer), 0.0)

    form = ReducedHuboFormulation(degree_mode="exact")  # its degree rule has products
    r = run_trial(board, form, Answering(), seed=0, max_iterations=3, time_limit_s=10)
    assert r.trial.status == "solved", r.trial.reason
    summary = Model.build(board, form).reduction_summary()
    extras = json.loads(r.trial.extras)
    assert summary and {k: extras[k] for k in summary} == summary
