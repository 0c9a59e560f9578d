"""Exhaustive energy checks on a 2x2 board: every form is 0 exactly on feasible assignments."""

from __future__ import annotations

import itertools
import json
import subprocess
import sys
from pathlib import Path

import pytest
from hydra.utils import instantiate
from omegaconf import OmegaConf

from slitherbench.models.formulations import (
    ConsFormulation,
    HuboFormulation,
    Model,
    QuboFormulation,
)
from slitherbench.models.formulations.base import evaluate
from slitherbench.puzzles.puzzle import Puzzle

CONF = Path(__file__).resolve().parents[1] / "conf"
# Every formulation config (a new one is proven here without editing this file), plus
# variants: the HUBO's exact degree encoding and unequal weights.
FORMS = {
    f"conf-{p.stem}": (lambda p=p: instantiate(OmegaConf.load(p)))
    for p in (CONF / "formulation").glob("*.yaml")
}
FORMS.update(
    {
        "hubo-exact": lambda: HuboFormulation(degree_mode="exact"),
        "qubo-w3": lambda: QuboFormulation(clue_weight=2, degree_weight=3, cut_weight=2),
    }
)
# "clued" has no feasible assignment at all (it proves "infeasible => energy >= 1" under
# clues); "answered" has three single-loop answers, so "feasible => 0" is exercised under
# clues too.
BOARDS = {"clued": ["2.", ".3"], "blank": ["..", ".."], "answered": ["2.", ".2"]}


def feasible(p: Puzzle, edges: tuple[int, ...], cuts: list[list[int]]) -> bool:
    for c, n in p.clue_faces:
        if sum(edges[e] for e in p.face_edges[c]) != n:
            return False
    for pe in p.point_edges:
        if sum(edges[e] for e in pe) not in (0, 2):
            return False
    return all(sum(edges[e] for e in loop) <= len(loop) - 1 for loop in cuts)


def rule_distance(p: Puzzle, c, edges: tuple[int, ...]) -> int:
    """How far the edges are from a rule, from the rule's statement (the cons form's energy
    is checked against this, not against its own ``Constraint.distance``)."""
    s = sum(edges[e] for e in c.edges)
    if c.kind == "clue":
        return abs(s - dict(p.clue_faces)[c.index])
    if c.kind == "degree":
        return min(s, abs(s - 2))
    if c.kind == "cut":
        return max(0, s - (len(c.edges) - 1))
    raise AssertionError(f"no rule written out for {c.kind}")


def min_energy(model: Model, edges: tuple[int, ...]) -> int:
    """Energy with auxiliaries minimised out, piece by piece (their aux sets are disjoint)."""
    base = {e: x for e, x in enumerate(edges)}
    total = 0
    for piece in model.pieces:
        if piece.native is not None:
            total += piece.native.weight * rule_distance(model.puzzle, piece.constraint, edges) ** 2
            continue
        assert piece.poly is not None
        best = None
        for bits in itertools.product((0, 1), repeat=len(piece.aux)):
            sample = {**base, **dict(zip(piece.aux, bits, strict=True))}
            e = evaluate(piece.poly, sample)
            best = e if best is None else min(best, e)
        total += best or 0
    if model.formulation.native:  # the runner's judge, Model.energy, agrees with the rules
        assert model.energy(base) == total, (edges, model.energy(base), total)
    return total


def test_aux_variables_belong_to_one_piece() -> None:
    p = Puzzle.from_rows(BOARDS["clued"])
    m = Model.build(p, QuboFormulation())
    m.add_cut(list(p.face_edges[0]))
    m.add_cut(list(p.face_edges[3]))
    owners: dict[int, int] = {}
    for k, piece in enumerate(m.pieces):
        for term in piece.poly or {}:
            for label in term:
                if label >= p.num_edges:
                    assert owners.setdefault(label, k) == k


@pytest.mark.parametrize(
    "board",
    [b if b != "answered" else pytest.param(b, marks=pytest.mark.slow) for b in sorted(BOARDS)],
)
@pytest.mark.parametrize(
    "form",
    # Full suite: every form. Fast subset: cons and the HUBO's exact encoding (no auxiliaries).
    [
        f if f in ("conf-cons", "hubo-exact") else pytest.param(f, marks=pytest.mark.slow)
        for f in sorted(FORMS)
    ],
)
def test_energy_zero_exactly_when_feasible(form: str, board: str) -> None:
    p = Puzzle.from_rows(BOARDS[board])
    model = Model.build(p, FORMS[form]())
    cuts = [sorted(p.face_edges[0])]  # forbid the unit loop around cell (0,0)
    for stage in range(2):
        zero = 0
        for edges in itertools.product((0, 1), repeat=p.num_edges):
            e = min_energy(model, edges)
            if feasible(p, edges, cuts[:stage]):
                assert e == 0, (form, stage, edges)
                zero += 1
            else:
                assert e >= 1, (form, stage, edges)
        assert zero >= 1 or board == "clued"
        assert zero == 0 or board != "clued"  # the premise of the two boards
        if stage == 0:
            model.add_cut(cuts[0])


@pytest.mark.parametrize("form", sorted(FORMS))
def test_cut_forbids_its_loop_and_keeps_the_answer(form: str) -> None:
    p = Puzzle.from_rows(BOARDS["blank"])
    model = Model.build(p, FORMS[form]())
    small = sorted(p.face_edges[0])
    outer = [p.h(0, 0), p.h(0, 1), p.h(2, 0), p.h(2, 1), p.v(0, 0), p.v(1, 0), p.v(0, 2), p.v(1, 2)]
    loop_alone = tuple(int(e in small) for e in range(p.num_edges))
    answer = tuple(int(e in outer) for e in range(p.num_edges))
    assert min_energy(model, loop_alone) == 0 and min_energy(model, answer) == 0
    model.add_cut(small)
    assert min_energy(model, loop_alone) >= 1
    assert min_energy(model, answer) == 0
    # The hint completion picks auxiliaries reaching that minimum.
    assert model.energy(model.complete([bool(x) for x in answer])) == 0


def test_exports() -> None:
    p = Puzzle.from_rows(BOARDS["clued"])
    q = Model.build(p, QuboFormulation())
    q.add_cut(list(p.face_edges[0]))
    bqm = q.to_bqm()
    sample = q.complete([False] * p.num_edges)
    assert bqm.energy(sample) == q.energy(sample)
    h = Model.build(p, HuboFormulation())
    h.add_cut(list(p.face_edges[0]))
    poly = h.to_binary_polynomial()
    assert max(len(t) for t in poly) == 4
    assert poly.energy(h.complete([True] * p.num_edges)) == h.energy(
        h.complete([True] * p.num_edges)
    )
    with pytest.raises(TypeError, match="degree > 2"):
        h.to_bqm()
    with pytest.raises(TypeError, match="native constraints"):
        Model.build(p, ConsFormulation()).polynomial()


def test_qubo_slack_width() -> None:
    from slitherbench.models.formulations.qubo import slack_coefficients

    for size in range(4, 80):
        coeffs = slack_coefficients(size - 1)
        assert len(coeffs) == (size - 1).bit_length()  # ceil(log2 |L|)
        sums = {
            sum(c for c, b in zip(coeffs, bits, strict=True) if b)
            for bits in itertools.product((0, 1), repeat=len(coeffs))
        }
        assert sums == set(range(size))


CHILD = r"""
import itertools, json, random, sys
from slitherbench.puzzles.puzzle import Puzzle
from slitherbench.models.formulations import ConsFormulation, HuboFormulation, QuboFormulation, Model
from slitherbench.solvers.qbpp_session import QbppSession
forms = {"cons": ConsFormulation(), "hubo-aux": HuboFormulation(), "hubo-exact": HuboFormulation(degree_mode="exact"), "qubo": QuboFormulation(cut_weight=2)}
p = Puzzle.from_rows(["2.", ".3"])
m = Model.build(p, forms[sys.argv[1]])
m.add_cut(list(p.face_edges[0]))
m.add_region(list(p.face_edges[0]), p.h(2, 1))  # a region cut (coefficients -2) as well
s = QbppSession()
s.sync(m)
rng = random.Random(0)
bad = []
for edges in itertools.product((0, 1), repeat=p.num_edges):
    sample = {label: rng.randint(0, 1) for label in m.labels}
    sample.update(enumerate(edges))
    sol = s.hint(sample)
    if sol.comp_energy() != m.energy(sample):
        bad.append((edges, sol.comp_energy(), m.energy(sample)))
print(json.dumps({"bad": bad[:5], "n": len(bad)}))
"""


# The page's two forms in the fast subset; hubo-exact and qubo (0.6-0.8 s each) in the full.
@pytest.mark.parametrize(
    "form",
    [
        "cons",
        "hubo-aux",
        *(pytest.param(f, marks=pytest.mark.slow) for f in ("hubo-exact", "qubo")),
    ],
)
def test_pyqbpp_expression_has_the_model_energy(form: str) -> None:
    # In a child process: pyqbpp's variable budget is per process.
    out = subprocess.run(
        [sys.executable, "-c", CHILD, form], capture_output=True, text=True, timeout=120, check=True
    )
    res = json.loads(out.stdout.strip().splitlines()[-1])
    assert res["n"] == 0, res["bad"]


# Face variables, and an edge form's face labels for No-Square: the same comparison on the
# No-Square plus (3x3: 9 faces, every rule of the board: clues, degrees, No-Square, channels,
# a loop cut), at random assignments of every label; each form's variables fit pyqbpp's 100.
CHILD_FACES = r"""
import json, random, sys
from slitherbench.puzzles.puzzle import Puzzle
from slitherbench.models.formulations import ConsFormulation, HuboFormulation, QuboFormulation, Model
from slitherbench.solvers.qbpp_session import QbppSession
forms = {
    "cons/face": ConsFormulation(variables="face"),
    "hubo[aux]/face": HuboFormulation(variables="face"),
    "hubo[exact]/face": HuboFormulation(degree_mode="exact", variables="face"),
    "qubo/face": QuboFormulation(variables="face", cut_weight=2),
    "cons+no_square": ConsFormulation(),
    "qubo+no_square": QuboFormulation(),
}
p = Puzzle.parse("rules=no_square;.../.0./..2")
m = Model.build(p, forms[sys.argv[1]])
m.add_cut(list(p.face_edges[0]))
assert m.num_variables <= 100, m.num_variables
s = QbppSession()
s.sync(m)
rng = random.Random(1)
bad = []
for k in range(300):
    sample = {label: rng.randint(0, 1) for label in m.labels}
    if k < 20:  # a few near-feasible ones: the answer's colouring with one flip
        sample.update(m.complete(m.edges_of(sample)))
    if s.hint(sample).comp_energy() != m.energy(sample):
        bad.append((sample, s.hint(sample).comp_energy(), m.energy(sample)))
print(json.dumps({"bad": bad[:3], "n": len(bad), "vars": m.num_variables}))
"""


@pytest.mark.parametrize(
    "form",
    [
        "cons/face",
        *(
            pytest.param(f, marks=pytest.mark.slow)
            for f in (
                "hubo[aux]/face",
                "hubo[exact]/face",
                "qubo/face",
                "cons+no_square",
                "qubo+no_square",
            )
        ),
    ],
)
def test_pyqbpp_expression_has_the_model_energy_in_face_forms(form: str) -> None:
    out = subprocess.run(
        [sys.executable, "-c", CHILD_FACES, form],
        capture_output=True,
        text=True,
        timeout=120,
        check=True,
    )
    res = json.loads(out.stdout.strip().splitlines()[-1])
    assert res["n"] == 0, res["bad"]
