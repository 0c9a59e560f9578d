"""Presolve: edges fixed by deduction substituted into every form's model.

The exhaustive check: on small boards, for every form (every formulation config and the
variants of tests/test_formulations.py), the presolved model's energy-0 edge sets are exactly
the original model's energy-0 edge sets that agree with the fixed edges, before and after a
cut. Then the runner's side: a board deduction settles is ``presolved`` (checked, never the
backend's), face variables are refused in one line, and ``presolve=none`` keeps config hashes.
"""

from __future__ import annotations

import itertools

import pytest
from omegaconf import OmegaConf
from test_formulations import FORMS, feasible

from slitherbench.deduction import deduce
from slitherbench.method.record import Status
from slitherbench.models.formulations import (
    ConsFormulation,
    FormUnavailable,
    HuboFormulation,
    Model,
)
from slitherbench.models.formulations.base import evaluate
from slitherbench.models.presolve import PresolveContradiction, substitute
from slitherbench.puzzles.check import check_answer
from slitherbench.puzzles.description import Constraint
from slitherbench.puzzles.puzzle import Puzzle


def min_energy(model: Model, edges: tuple[int, ...]) -> int:
    """The model's energy for these edges with every auxiliary at its best (brute force,
    piece by piece), from the pieces as they are: substituted or not."""
    base = dict(enumerate(edges))
    total = 0
    for piece in model.pieces:
        c = piece.constraint
        if piece.native is not None:
            total += piece.native.weight * c.distance(c.total(base)) ** 2
            continue
        assert piece.poly is not None
        total += min(
            evaluate(piece.poly, {**base, **dict(zip(piece.aux, bits, strict=True))})
            for bits in itertools.product((0, 1), repeat=len(piece.aux))
        )
    return total


def zero_sets(model: Model, p: Puzzle, fixed: dict[int, int]) -> set[tuple[int, ...]]:
    return {
        edges
        for edges in itertools.product((0, 1), repeat=p.num_edges)
        if all(edges[e] == v for e, v in fixed.items()) and min_energy(model, edges) == 0
    }


def answers(p: Puzzle) -> list[tuple[int, ...]]:
    return [e for e in itertools.product((0, 1), repeat=p.num_edges) if feasible(p, e, [])]


BOARD = ["2.", ".2"]  # three single-loop answers and several multi-loop ones


def fixings() -> dict[str, dict[int, int]]:
    """Fixed sets that reach every substitution: a point settled off, a point with one line
    fixed, a clue met, a cut with an edge fixed off, and a cut with edges fixed on."""
    p = Puzzle.from_rows(BOARD)
    a = next(e for e in answers(p) if sum(e) == 8)  # the loop around both 2s
    return {
        "answer-part": {e: a[e] for e in range(5)},
        "corner-off": {e: 0 for e in p.point_edges[0]},
        "one-line": {p.point_edges[4][0]: 1},
        "answer-most": {e: a[e] for e in range(0, 12, 2)},
    }


@pytest.mark.parametrize("fix", sorted(fixings()))
@pytest.mark.parametrize(
    "form",
    [
        f
        if f in ("conf-cons", "hubo-exact", "conf-hubo")
        else pytest.param(f, marks=pytest.mark.slow)
        for f in sorted(FORMS)
    ],
)
def test_presolved_energy_zero_is_the_original_agreeing_with_the_fixed_edges(
    form: str, fix: str
) -> None:
    p = Puzzle.from_rows(BOARD)
    fixed = fixings()[fix]
    original = Model.build(p, FORMS[form]())
    presolved = Model.build(p, FORMS[form](), fixed)
    assert presolved.num_variables < original.num_variables
    cut = sorted(p.face_edges[0])  # the unit loop around cell (0, 0)
    for stage in range(2):
        expected = zero_sets(original, p, fixed)
        assert zero_sets(presolved, p, fixed) == expected, (form, fix, stage)
        assert stage == 1 or expected  # the fixed edges leave answers to find
        original.add_cut(cut)
        presolved.add_cut(cut)


def test_edges_fixed_after_the_build_pin_their_values() -> None:
    p = Puzzle.from_rows(BOARD)
    m = Model.build(p, HuboFormulation(), {0: 1})
    before = zero_sets(m, p, {0: 1})
    m.fix({1: 0})
    assert m.fixed == {0: 1, 1: 0}
    assert zero_sets(m, p, {0: 1}) == {e for e in before if e[1] == 0}


def test_substitution_by_shape() -> None:
    degree = Constraint("degree", 0, (1, 2, 3), (0, 2), shape="degree", weight="degree")
    assert substitute(degree, {1: 1}).allowed == (1,)  # one line in: exactly one more
    assert substitute(degree, {1: 1}).shape == "equal"
    assert substitute(degree, {1: 0}).shape == "degree"  # its auxiliary kept
    assert substitute(degree, {1: 0, 2: 0, 3: 0}) is None
    cut = Constraint("cut", 0, (1, 2, 3, 4), (0, 1, 2, 3))
    assert substitute(cut, {2: 0}) is None  # a loop with an edge off is cut already
    assert substitute(cut, {2: 1}).edges == (1, 3, 4)
    assert substitute(cut, {2: 1}).allowed == (0, 1, 2)
    clue = Constraint("clue", 0, (1, 2, 3, 4), (3,))
    with pytest.raises(PresolveContradiction, match="clue 0"):
        substitute(clue, {1: 0, 2: 0})
    assert substitute(clue, {5: 1}) is clue  # none of its edges fixed: unchanged


def test_face_variables_are_refused_in_one_line() -> None:
    p = Puzzle.from_rows(BOARD)
    with pytest.raises(FormUnavailable, match="face variables are not presolved"):
        Model.build(p, ConsFormulation(variables="face"), {0: 1})


def test_a_board_deduction_settles_is_presolved_and_checked() -> None:
    from slitherbench.run.runner import run_trial
    from slitherbench.solvers.dwave import SABackend
    from slitherbench.sources.library import loopy_dev

    p = loopy_dev()[0]  # a Loopy Easy 5x5: forced moves settle it
    found = deduce(p, "rules")
    assert found.solved
    r = run_trial(p, HuboFormulation(), SABackend(), seed=1, presolve="rules")
    t = r.trial
    assert t.status == Status.PRESOLVED and t.verified and t.iterations == 0
    edges = [c == "1" for c in t.answer]
    assert check_answer(p, edges) == []
    assert t.presolve_fixed == 1.0 and t.presolve_s > 0
    none = run_trial(p, HuboFormulation(), SABackend(), seed=1)
    assert none.trial.status == Status.SOLVED and none.trial.presolve == "none"


def test_the_presolve_shrinks_the_first_model_and_records_both_sizes() -> None:
    from slitherbench.run.runner import run_trial
    from slitherbench.solvers.sat import SatBackend

    pytest.importorskip("pysat")
    # reference10: rules fix part of it, never all of it
    from slitherbench.sources.library import reference10

    p = reference10()
    r = run_trial(p, ConsFormulation(), SatBackend(), seed=1, presolve="rules")
    t = r.trial
    assert t.status == Status.SOLVED and t.verified
    assert 0 < t.presolve_fixed < 1
    assert t.first_variables < t.unpresolved_variables
    assert t.first_terms < t.unpresolved_terms


def test_presolve_none_keeps_config_hashes_and_a_level_changes_them() -> None:
    from slitherbench.run.plan import build_cell, validate_config

    cell = build_cell(
        {"_target_": "slitherbench.models.formulations.HuboFormulation"},
        {"_target_": "slitherbench.solvers.dwave.SABackend"},
    )
    base = {"max_iterations": 50, "time_limit_s": 60.0, "base_seed": 0}
    old = cell.config_hash(OmegaConf.create(base))
    assert cell.config_hash(OmegaConf.create({**base, "presolve": {"level": "none"}})) == old
    assert cell.config_hash(OmegaConf.create({**base, "presolve": {"level": "rules"}})) != old
    from slitherbench.method.record import ConfigError

    bad = OmegaConf.create({**base, "repetitions": 1, "presolve": {"level": "guess"}})
    with pytest.raises(ConfigError, match=r"presolve\.level must be one of"):
        validate_config(bad)
