"""Presolve: edges fixed by deduction substituted into every form's model.

The exhaustive check: on small boards, for every form (every formulation config and the
variants of tests/test_formulations.py), the presolved model's energy-0 edge sets are exactly
the original model's energy-0 edge sets that agree with the fixed edges, before and after a
cut. On face variables the same for every face form: the presolved model's energy-0
colourings are exactly the original's that agree with the fixed face sides, before and after
a cut, on squares, a honeycomb and a No-Square board. Then the runner's side: a board
deduction settles is ``presolved`` (checked, never the backend's), a board it does not is
solved on face variables with the deduction run again after each cut, and ``presolve=none``
keeps config hashes.
"""

from __future__ import annotations

import itertools
import os
from collections.abc import Callable, Mapping
from pathlib import Path

import numpy as np
import pytest
from hydra.utils import instantiate
from omegaconf import OmegaConf
from test_faces import BOARDS as FACES_BOARDS
from test_faces import _values, _with_clues, aux_minimum
from test_formulations import CONF, FORMS, feasible

from slitherbench.deduction import deduce
from slitherbench.method.record import Status
from slitherbench.models.formulations import (
    ConsFormulation,
    Formulation,
    HuboFormulation,
    Model,
    region_constraint,
)
from slitherbench.models.formulations.base import evaluate
from slitherbench.models.formulations.faces import pattern_polys
from slitherbench.models.presolve import PresolveContradiction, substitute
from slitherbench.puzzles.check import check_answer, split_loops
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


# -- face variables ----------------------------------------------------------------------------
def _face_form(stem: str, **kw: object) -> Callable[[], Formulation]:
    cfg = OmegaConf.load(CONF / "formulation" / f"{stem}.yaml")
    return lambda: instantiate(cfg, variables="face", **kw)


# Every formulation config on face variables, plus the face forms' other degree rules.
FACE_FORMS: dict[str, Callable[[], Formulation]] = {
    f"conf-{p.stem}/face": _face_form(p.stem) for p in (CONF / "formulation").glob("*.yaml")
}
FACE_FORMS.update(
    {
        "hubo-exact/face": _face_form("hubo", degree_mode="exact"),
        "hubo2qubo-exact/face": _face_form("hubo2qubo", degree_mode="exact"),
        "qubo-lazy/face": _face_form("qubo", degree_mode="lazy"),
    }
)
FACE_BOARDS = {
    "2x2": lambda: Puzzle.from_rows(BOARD),
    "2x3": lambda: _with_clues(
        Puzzle.from_rows(["...", "..."]), [True, True, False, False, True, False]
    ),
    "3x3": FACES_BOARDS["3x3"],
    "honeycomb": FACES_BOARDS["honeycomb"],  # a Loopy grid: points of three faces
    # a rule on faces (No-Square): its rows are over the face variables themselves
    "3x3-no-square": lambda: Puzzle.on_board(
        FACES_BOARDS["3x3"]().board, list(FACES_BOARDS["3x3"]().face_clues), rules=("no_square",)
    ),
}


def face_zero_rows(model: Model, sides: Mapping[int, int]) -> set[tuple[int, ...]]:
    """The face colourings that agree with ``sides`` at which the model's energy, every
    auxiliary at its best, is 0 (every colouring at once; pieces as they are, substituted or
    not; a lazy form's deferred rows are not in the model)."""
    F = model.puzzle.num_faces
    table = np.array(list(itertools.product((0, 1), repeat=F)), dtype=np.int64)
    n = len(table)
    columns = {f: table[:, f] for f in range(F)}
    energy = np.zeros(n, dtype=np.int64)
    for piece in model.pieces:
        if piece.native is not None:
            assert piece.lhs is not None  # face variables: the row over the faces
            ok = np.isin(_values(piece.lhs, columns, n), piece.constraint.allowed)
            energy += piece.native.weight * ~ok
            continue
        m = aux_minimum(piece, columns, n)
        assert (m >= 0).all(), piece.constraint
        energy += m
    agree = np.all([table[:, f] == v for f, v in sides.items()], axis=0) if sides else True
    return {tuple(table[r].tolist()) for r in np.flatnonzero((energy == 0) & agree)}


def face_fixings(p: Puzzle) -> dict[str, dict[int, int]]:
    """Face sides that reach every substitution: those deduction knows (a board it settles
    included), one face inside, one outside, and part of an energy-0 colouring (clues met,
    points settled, edges between a fixed and a free face)."""
    F = p.num_faces
    base = Model.build(p, HuboFormulation(variables="face"))
    colours = max(face_zero_rows(base, {}), key=lambda c: (sum(c), c))
    inside = [f for f in range(F) if colours[f]]
    outside = [f for f in range(F) if not colours[f]]
    deduced = {f: v for f, v in enumerate(deduce(p, "rules").faces) if v >= 0}
    out = {
        "one-inside": {inside[0]: 1},
        "half": {f: colours[f] for f in range(F // 2 + 1)},
        "every-other": {f: colours[f] for f in range(0, F, 2)},
    }
    if outside:
        out["one-outside"] = {outside[-1]: 0}
    if deduced and len(deduced) < F:
        out["deduced"] = deduced
    return out


@pytest.mark.slow  # among the slowest fast tests: the full suite runs it, the fast subset not
@pytest.mark.parametrize("board", sorted(FACE_BOARDS))
@pytest.mark.parametrize("form", sorted(FACE_FORMS))
def test_face_presolve_energy_zero_is_the_original_agreeing_with_the_fixed_sides(
    form: str, board: str
) -> None:
    p = FACE_BOARDS[board]()
    for name, sides in face_fixings(p).items():
        original = Model.build(p, FACE_FORMS[form]())
        presolved = Model.build(p, FACE_FORMS[form](), faces=sides)
        assert presolved.num_variables < original.num_variables, name
        assert presolved.fixed_faces == sides
        for stage in range(2):
            expected = face_zero_rows(original, sides)
            got = face_zero_rows(presolved, sides)
            assert got == expected, (form, board, name, stage)
            for colours in got:  # the runner's round trip: decode, complete, judge
                free = {f: c for f, c in enumerate(colours) if f not in sides}  # a solver's
                edges = presolved.edges_of(free)
                assert edges == p.board.boundary([bool(c) for c in colours])
                full = presolved.complete(edges)
                assert presolved.energy(full) == 0, (name, stage, colours)
                assert not set(sides) & set(full)  # fixed faces are no variables
            if stage == 1 or not expected:
                break
            # a loop of a colouring the fixed sides leave, cut in both models
            colours = min(expected)
            loop = split_loops(p, p.board.boundary([bool(c) for c in colours]))[0]
            original.add_cut(loop)
            presolved.add_cut(loop)


@pytest.mark.parametrize("form", ["conf-cons/face", "conf-hubo/face", "hubo2qubo-exact/face"])
def test_face_presolve_substitutes_into_region_cuts(form: str) -> None:
    p = FACE_BOARDS["3x3"]()
    loop = [p.h(0, 0), p.v(0, 1), p.h(1, 0), p.v(0, 0)]  # around cell (0, 0)
    for sides in face_fixings(p).values():
        original = Model.build(p, FACE_FORMS[form]())
        presolved = Model.build(p, FACE_FORMS[form](), faces=sides)
        for m in (original, presolved):
            m._add(region_constraint(p, loop, p.h(3, 2), 0))
        assert face_zero_rows(presolved, sides) == face_zero_rows(original, sides), sides


def test_face_sides_fixed_after_the_build_pin_their_values() -> None:
    p = FACE_BOARDS["3x3"]()
    form = FACE_FORMS["conf-qubo/face"]
    m = Model.build(p, form(), faces={1: 1})
    before = face_zero_rows(m, {1: 1})
    m.fix({}, {1: 1, 6: 0})  # deduction again: the sides it knows, the old ones among them
    assert m.fixed_faces == {1: 1, 6: 0}
    assert 6 in m.labels  # an equality, not a substitution: the model only grows
    assert face_zero_rows(m, {1: 1}) == {c for c in before if c[6] == 0}
    cut = split_loops(p, p.board.boundary([bool(c) for c in min(before)]))[0]
    m.add_cut(cut)  # a later row takes the later side too
    assert face_zero_rows(m, {1: 1, 6: 0}) == face_zero_rows(
        _with_cut(Model.build(p, form(), faces={1: 1, 6: 0}), cut), {1: 1, 6: 0}
    )


def _with_cut(m: Model, loop: list[int]) -> Model:
    m.add_cut(loop)
    return m


def test_fixed_edges_give_the_face_sides_they_settle_and_no_more() -> None:
    p = Puzzle.from_rows(["...", "..."])
    top = {p.h(0, 0): 1, p.h(0, 1): 0}  # the rim: face 0 inside, face 1 outside
    inner = {p.v(1, 2): 1}  # between faces 4 and 5: only their XOR
    m = Model.build(p, ConsFormulation(variables="face"), {**top, **inner})
    assert m.fixed_faces == {0: 1, 1: 0}
    # the edges with both sides known: face 0's top and left rim, and its border with face 1
    assert m.fixed == {p.h(0, 0): 1, p.v(0, 0): 1, p.h(0, 1): 0, p.v(0, 1): 1}
    with pytest.raises(PresolveContradiction, match="face 0"):
        Model.build(p, ConsFormulation(variables="face"), top, {0: 0})


def test_face_substitution_by_shape() -> None:
    block = Constraint("no_square", 0, (), (0, 1, 2, 3), faces=(0, 1, 3, 4), shape="not_all",
                       weight="clue")  # fmt: skip
    assert substitute(block, {}, {0: 0}) is None  # one face outside: the block is met
    left = substitute(block, {}, {0: 1, 4: 1})
    assert left.faces == (1, 3) and left.allowed == (0, 1) and left.shape == "not_all"
    assert substitute(block, {0: 1}) is block  # edge labels never touch a face row
    with pytest.raises(PresolveContradiction, match="no_square 0"):
        substitute(block, {}, dict.fromkeys((0, 1, 3, 4), 1))


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


def test_face_variables_a_board_deduction_settles_is_presolved_and_checked() -> None:
    from slitherbench.run.runner import run_trial
    from slitherbench.solvers.dwave import SABackend
    from slitherbench.sources.library import loopy_dev

    p = loopy_dev()[0]  # a Loopy Easy 5x5: forced moves settle it
    r = run_trial(p, HuboFormulation(variables="face"), SABackend(), seed=1, presolve="rules")
    t = r.trial
    assert t.status == Status.PRESOLVED and t.verified and t.iterations == 0
    assert check_answer(p, [c == "1" for c in t.answer]) == []
    assert t.presolve_fixed == 1.0


@pytest.mark.parametrize("case", ["qubo/face-sa", "cons/face-sat"])
def test_the_runner_solves_on_face_variables_with_the_presolve(case: str) -> None:
    from slitherbench.run.runner import run_trial
    from slitherbench.solvers.dwave import SABackend
    from slitherbench.sources.generate import generate
    from slitherbench.sources.library import reference10

    if case == "qubo/face-sa":
        p, form, backend = generate(5, 5, 1, min_grade="lookahead1"), "conf-qubo/face", SABackend()
    else:
        pytest.importorskip("pysat")
        from slitherbench.solvers.sat import SatBackend

        # reference10: cuts on the way, the deduction run again after each
        p, form, backend = reference10(), "conf-cons/face", SatBackend()
    sides = [v for v in deduce(p, "rules").faces if v >= 0]
    assert 0 < len(sides) < p.num_faces  # rules settle part of it, never all of it
    r = run_trial(p, FACE_FORMS[form](), backend, seed=1, presolve="rules")
    t = r.trial
    assert t.status == Status.SOLVED and t.verified, t.reason
    assert check_answer(p, [c == "1" for c in t.answer]) == []
    assert t.presolve_fixed == len(sides) / p.num_faces  # a share of the faces
    assert t.presolve_fixed <= t.presolve_fixed_final < 1
    assert t.first_variables < t.unpresolved_variables
    assert t.first_terms < t.unpresolved_terms


def test_the_deduction_after_a_cut_fixes_more_face_sides() -> None:
    from slitherbench.method.record import Trial
    from slitherbench.run.runner import repeat_presolve

    p = Puzzle.from_rows([".01", "...", "..."])
    before = {f: v for f, v in enumerate(deduce(p, "rules").faces) if v >= 0}
    form = FACE_FORMS["conf-qubo/face"]
    m = Model.build(p, form(), faces=before)
    loop = [5, 8, 18, 19]  # a loop of a two-loop colouring: with it cut, face 8 is inside
    assert any(
        split_loops(p, p.board.boundary([bool(c) for c in colours]))[0] == loop
        for colours in face_zero_rows(m, before)
    )
    m.add_cut(loop)
    t = Trial()
    repeat_presolve(m, "rules", t)
    assert m.fixed_faces == {**before, 8: 1}
    assert t.presolve_fixed_final == len(m.fixed_faces) / p.num_faces
    # every single-loop answer of the original model that the cut leaves is still there
    original = _with_cut(Model.build(p, form()), loop)
    answers = [
        c
        for c in face_zero_rows(original, before)
        if len(split_loops(p, p.board.boundary([bool(x) for x in c]))) == 1
    ]
    assert answers and set(answers) <= face_zero_rows(m, before)


def test_an_exact_backend_gets_a_later_face_side_as_the_edges_it_settles() -> None:
    from slitherbench.solvers.constraints import add_new_pieces

    class Rows:
        def __init__(self) -> None:
            self.rows: list[Constraint] = []

        def add_constraint(self, c: Constraint) -> None:
            self.rows.append(c)

    p = FACE_BOARDS["3x3"]()
    m = Model.build(p, ConsFormulation(variables="face"), faces={1: 1})
    backend = Rows()
    synced = len(m.pieces)
    m.fix({}, {0: 1})  # face 0 beside face 1 and the outside
    add_new_pieces(backend, m, synced)  # type: ignore[arg-type]
    assert {(c.edges, c.allowed) for c in backend.rows} == {
        ((p.h(0, 0),), (1,)),
        ((p.v(0, 0),), (1,)),
        ((p.v(0, 1),), (0,)),
    }
    assert all(c.kind == "fixed" and not c.faces for c in backend.rows)


@pytest.mark.parametrize("form", ["conf-qubo/face", "conf-hubo/face", "conf-cons/face"])
def test_a_loop_cut_over_faces_keeps_the_patterns_the_fixed_sides_leave(form: str) -> None:
    p = Puzzle.from_rows(["...", "...", "..."])  # no clues: many colourings
    loop = sorted(p.face_edges[4])  # around the middle face: face 4 in, 1, 3, 5, 7 out
    sides = {1: 1}  # a neighbour outside the loop inside: only the pattern with 4 outside
    assert pattern_polys(p.board, loop) and len(pattern_polys(p.board, loop, sides)) == 1
    ((lhs, m),) = pattern_polys(p.board, loop, sides)
    assert m == 4 and {t for t in lhs if t} == {(3,), (4,), (5,), (7,)}
    original = _with_cut(Model.build(p, FACE_FORMS[form]()), loop)
    presolved = _with_cut(Model.build(p, FACE_FORMS[form](), faces=sides), loop)
    assert face_zero_rows(presolved, sides) == face_zero_rows(original, sides)
    if form != "conf-cons/face":  # the slack of one pattern of four literals: two bits
        assert len(presolved.pieces[-1].aux) == 2 < len(original.pieces[-1].aux)


def _graded_7x7() -> Puzzle:
    from slitherbench.sources.library import shipped

    return next(p for p in shipped("lookahead") if p.name == "gen-7x7-lookahead1-s1")


@pytest.mark.slow  # among the slowest fast tests: the full suite runs it, the fast subset not
def test_a_face_row_the_fixed_sides_settle_is_no_native_constraint() -> None:
    """On this board forced moves fix every face around some points: their degree rows are
    numbers once the sides are put in, and pyqbpp's cons() takes only an expression. Each such
    row is met (the presolve is right) and leaves the model; every native row kept has a
    variable, and the face cons model goes into a pyqbpp expression whole."""
    p = _graded_7x7()
    found = deduce(p, "rules")
    sides = {f: v for f, v in enumerate(found.faces) if v >= 0}
    fixed = {e: v for e, v in enumerate(found.edges) if v >= 0}
    model = Model.build(p, ConsFormulation(variables="face"), fixed=fixed, faces=sides)
    natives = [pc for pc in model.pieces if pc.native is not None and pc.lhs is not None]
    assert natives and all(any(t for t in pc.lhs) for pc in natives)
    unpresolved = Model.build(p, ConsFormulation(variables="face"))
    assert len(model.pieces) < len(unpresolved.pieces)
    answer = [int(c) for c in p.meta["answer"]]
    assert model.energy(model.complete({e: answer[e] for e in range(len(answer))})) == 0
    pytest.importorskip("pyqbpp")
    import subprocess
    import sys

    script = (
        "from test_presolve import _graded_7x7\n"
        "from slitherbench.deduction import deduce\n"
        "from slitherbench.models.formulations import ConsFormulation, Model\n"
        "from slitherbench.solvers.qbpp_session import QbppSession\n"
        "p = _graded_7x7(); d = deduce(p, 'rules')\n"
        "m = Model.build(p, ConsFormulation(variables='face'),\n"
        "    fixed={e: v for e, v in enumerate(d.edges) if v >= 0},\n"
        "    faces={f: v for f, v in enumerate(d.faces) if v >= 0})\n"
        "QbppSession().sync(m)\n"
        "print('synced')\n"
    )
    tests_dir = str(Path(__file__).parent)
    out = subprocess.run(  # a fresh process: pyqbpp counts variables per process
        [sys.executable, "-c", script], capture_output=True, text=True, timeout=120,
        cwd=tests_dir, env={**os.environ, "PYTHONPATH": tests_dir},
    )  # fmt: skip
    assert out.returncode == 0 and "synced" in out.stdout, out.stderr[-2000:]


def test_fixed_sides_that_break_a_face_row_are_a_contradiction() -> None:
    """The same rows with one settled face flipped: a point's degree row (or a clue's) is a
    number outside its allowed values, which is no answer, never a row dropped."""
    p = _graded_7x7()
    found = deduce(p, "rules")
    sides = {f: v for f, v in enumerate(found.faces) if v >= 0}
    with_rows = Model.build(p, ConsFormulation(variables="face"), faces=sides)
    assert with_rows.pieces
    flipped = False
    for f in sorted(sides):
        wrong = {**sides, f: 1 - sides[f]}
        try:
            Model.build(p, ConsFormulation(variables="face"), faces=wrong)
        except PresolveContradiction:
            flipped = True
            break
    assert flipped
